// Counted nouns read right for one and for many: tr() with %n through the English numerus
// forms, in spin box suffixes and in the texts pages write.
#include "uitestsupport.h"

#include "ui/common/format.h"
#include "ui/common/page.h"
#include "ui/common/plurals.h"
#include "ui/mainwindow.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTreeWidget>

using namespace headroom;

namespace {

// "1 GPUs", "1 months", … : a one followed by a plural noun, not part of a larger number.
const QRegularExpression kOnePlural(
    QStringLiteral("(^|[^0-9.,])1 (GPUs|replicas|months|days|hours|weeks|seeds|models|streams|requests|users|"
                   "nodes|tokens|policies|samples|primitives|rate cards|origins|paths)\\b"));

// Every text a reader sees on the page: labels, buttons and spin boxes.
QStringList shownTexts(QWidget *page)
{
    QStringList texts;
    for (QWidget *w : page->findChildren<QWidget *>()) {
        if (auto *label = qobject_cast<QLabel *>(w))
            texts << label->text();
        else if (auto *button = qobject_cast<QAbstractButton *>(w))
            texts << button->text();
        else if (auto *spin = qobject_cast<QAbstractSpinBox *>(w))
            texts << spin->text();
    }
    return texts;
}

} // namespace

TEST_CASE("English numerus forms give one GPU and two GPUs")
{
    CHECK(ui::englishNumerusForm("%n GPU(s)", 1) == "%n GPU");
    CHECK(ui::englishNumerusForm("%n GPU(s)", 2) == "%n GPUs");
    CHECK(ui::englishNumerusForm("%n pass(es)", 1) == "%n pass");
    CHECK(ui::englishNumerusForm("%n pass(es)", 0) == "%n passes");
    CHECK(ui::englishNumerusForm("%n polic(y|ies)", 1) == "%n policy");
    CHECK(ui::englishNumerusForm("%n polic(y|ies)", 7) == "%n policies");
    CHECK(QCoreApplication::translate("headroom::ui", "%n month(s) from %1", nullptr, 1) == "1 month from %1");
    CHECK(QCoreApplication::translate("headroom::ui", "%n month(s) from %1", nullptr, 12) == "12 months from %1");
    // Without a count, or without a numerus form, the text is left as written.
    CHECK(QCoreApplication::translate("headroom::ui", "GPU(s)") == "GPU(s)");
    CHECK(QCoreApplication::translate("headroom::ui", "a | b", nullptr, 1) == "a | b");
    CHECK(ui::formatGpus(1) == "1 GPU");
    CHECK(ui::formatGpus(0) == "0 GPUs");
    CHECK(ui::formatGpus(16384) == ui::formatCount(16384) + " GPUs");
    CHECK(ui::formatCountOf(2, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")) == "2 replicas");
    CHECK(ui::formatCountOf(1, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")) == "1 replica");
}

TEST_CASE("Spin boxes with a counted unit say 1 GPU and 2 GPUs on every page, and no page shows a one with a plural")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    window.resize(1440, 900);
    window.show();
    QStringList counted;
    for (QTreeWidgetItemIterator it(window.navigator()); *it; ++it) {
        if (!(*it)->parent())
            continue;
        const QString title = (*it)->text(0);
        REQUIRE(window.showPage(title));
        QApplication::processEvents();
        QWidget *page = window.currentPage();
        for (QSpinBox *spin : page->findChildren<QSpinBox *>()) {
            if (!spin->property("headroomNumerusSuffix").isValid() || !spin->isEnabled() || spin->minimum() > 1
                || spin->maximum() < 2)
                continue;
            INFO(title.toStdString() << ": " << spin->objectName().toStdString());
            const int was = spin->value();
            spin->setValue(1);
            CHECK_FALSE(spin->suffix().endsWith('s'));
            CHECK(spin->text().startsWith("1 "));
            spin->setValue(2);
            CHECK(spin->suffix().endsWith('s'));
            spin->setValue(was);
            counted << title + ": " + spin->objectName();
        }
        for (QDoubleSpinBox *spin : page->findChildren<QDoubleSpinBox *>()) {
            if (!spin->property("headroomNumerusSuffix").isValid() || !spin->isEnabled() || spin->decimals() != 0
                || spin->minimum() > 1
                || spin->maximum() < 2)
                continue;
            INFO(title.toStdString() << ": " << spin->objectName().toStdString());
            const double was = spin->value();
            spin->setValue(1);
            CHECK_FALSE(spin->suffix().endsWith('s'));
            spin->setValue(2);
            CHECK(spin->suffix().endsWith('s'));
            spin->setValue(was);
            counted << title + ": " + spin->objectName();
        }
        QApplication::processEvents();
        for (const QString &text : shownTexts(page)) {
            INFO(title.toStdString() << ": " << text.toStdString());
            CHECK_FALSE(kOnePlural.match(text).hasMatch());
        }
    }
    // Counted units this guards at least: training sizing, forecast and KV pages (the scenario,
    // cost and workload boxes are disabled without a selection in a new workspace).
    INFO(counted.join(", ").toStdString());
    CHECK(counted.filter("Training sizing: trainingHorizonWeeks").size() == 1);
    CHECK(counted.filter("Forecast: forecastHeldOut").size() == 1);
    CHECK(counted.filter("KV & concurrency: kvPrefix").size() == 1);
    CHECK(counted.size() >= 5);
}
