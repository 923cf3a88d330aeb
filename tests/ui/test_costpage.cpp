#include "uitestsupport.h"

#include "ui/chartexport.h"
#include "ui/chartpanel.h"
#include "ui/costpage.h"
#include "ui/dialogs.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QLineEdit>
#include <QLineSeries>
#include <QProcess>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

using namespace headroom;

namespace {

// "$1,234.56" → 123456 cents
qint64 cents(const QString &shown)
{
    QString digits = shown;
    digits.remove(QRegularExpression(QStringLiteral("[^0-9.-]")));
    const qsizetype dot = digits.indexOf(QLatin1Char('.'));
    REQUIRE(dot >= 0);
    return digits.left(dot).toLongLong() * 100 + digits.mid(dot + 1, 2).toLongLong();
}

QLineEdit *edit(ui::CostPage &page, const char *name)
{
    auto *e = page.findChild<QLineEdit *>(name);
    REQUIRE(e);
    return e;
}

void setText(QLineEdit *e, const QString &text)
{
    e->selectAll();
    QTest::keyClicks(e, text);
}

} // namespace

TEST_CASE("Cost page starts on a year of core-and-flex demand priced from the AWS H100 card")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    REQUIRE(page.errorText().isEmpty());
    REQUIRE(page.demand());
    CHECK(page.demand()->gpus.size() == 8760);
    CHECK(edit(page, "costOnDemandRate")->text() == "6.88");
    const auto &a = page.analysis();
    CHECK(a.commitmentPays);
    CHECK(a.optimalReserved == a.fractileReserved);
    CHECK(a.optimalReserved > 150);
    CHECK(a.optimalReserved < 320);
    REQUIRE(page.options().size() == 4);
    CHECK(page.options()[3].cost.total.amount <= page.options()[0].cost.total.amount);
    CHECK(page.options()[3].cost.total.amount <= page.options()[1].cost.total.amount);
    CHECK(page.options()[3].cost.total.amount <= page.options()[2].cost.total.amount);
    CHECK(page.recommendation().contains(QStringLiteral("Reserve %1 GPUs").arg(a.optimalReserved)));
    CHECK(page.recommendation().contains("P75 rule"));
}

TEST_CASE("The sweep chart draws cost for every reserved count and marks optimum, P50 and P75")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    QChart *chart = page.chartPanels().first()->chart();
    REQUIRE(chart);
    QLineSeries *curve = nullptr;
    QStringList labels;
    for (QAbstractSeries *s : chart->series()) {
        if (auto *line = qobject_cast<QLineSeries *>(s); line && line->count() > 2)
            curve = line;
        if (auto *xy = qobject_cast<QXYSeries *>(s); xy && xy->pointLabelsVisible())
            labels << xy->pointLabelsFormat();
    }
    REQUIRE(curve);
    CHECK(curve->count() == int(page.analysis().sweep.size()));
    // the minimum of the drawn curve is at the optimum
    int best = 0;
    for (int i = 1; i < curve->count(); ++i)
        if (curve->at(i).y() < curve->at(best).y())
            best = i;
    CHECK(int64_t(curve->at(best).x()) == page.analysis().optimalReserved);
    CHECK(labels.contains(QStringLiteral("optimum %1").arg(page.analysis().optimalReserved)));
    CHECK(labels.contains(QStringLiteral("P75 %1").arg(page.analysis().p75Reserved)));
}

TEST_CASE("A higher committed rate lowers the optimum, and a rate at on-demand says do not reserve")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    const int64_t before = page.analysis().optimalReserved;
    setText(edit(page, "costReservedRate"), "5.90");
    REQUIRE(page.errorText().isEmpty());
    CHECK(page.analysis().criticalFractile == Approx(5.90 / 6.88));
    CHECK(page.analysis().optimalReserved < before);

    setText(edit(page, "costReservedRate"), "6.88");
    CHECK_FALSE(page.analysis().commitmentPays);
    CHECK(page.analysis().optimalReserved == 0);
    CHECK(page.recommendation().contains("Do not reserve"));
}

TEST_CASE("Each option row's total equals the sum of its shown parts to the cent")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    auto *share = page.findChild<QDoubleSpinBox *>("costSpotShare");
    REQUIRE(share);
    setText(edit(page, "costSpotRate"), "2.46");
    share->setValue(30);
    REQUIRE(page.errorText().isEmpty());
    auto *table = page.findChild<QTableWidget *>("costTable");
    REQUIRE(table);
    REQUIRE(table->rowCount() >= 4);
    for (int row = 0; row < int(page.options().size()); ++row) {
        INFO("row " << row);
        const qint64 parts = cents(table->item(row, 2)->text()) + cents(table->item(row, 3)->text()) +
                             cents(table->item(row, 4)->text());
        CHECK(parts == cents(table->item(row, 5)->text()));
    }
    CHECK(table->item(0, 0)->text() == "All on-demand");
    CHECK(cents(table->item(3, 4)->text()) > 0); // spot carries part of the elastic demand
}

TEST_CASE("A manual plan drives the hourly and monthly charts")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    page.findChild<QCheckBox *>("costUseOptimum")->setChecked(false);
    page.findChild<QSpinBox *>("costReserved")->setValue(250);
    REQUIRE(page.options().size() == 5);
    CHECK(page.options().back().reserved == 250);
    QChart *week = page.findChild<ui::ChartPanel *>("costWeekChart")->chart();
    QStringList areas;
    for (QAbstractSeries *s : week->series())
        if (auto *area = qobject_cast<QAreaSeries *>(s))
            areas << area->name();
    CHECK(areas.contains("Reserved, used"));
    CHECK(areas.contains("On-demand"));
    QChart *month = page.findChild<ui::ChartPanel *>("costMonthChart")->chart();
    auto *bars = qobject_cast<QBarSeries *>(month->series().value(0));
    REQUIRE(bars);
    REQUIRE(bars->count() == 2);
    CHECK(bars->barSets().first()->count() == 13); // 8,760 h = 12 months of 720 h and a partial 13th
}

TEST_CASE("Importing demand from CSV selects it - a bad file changes nothing and names the line")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    QTemporaryDir dir;
    QFile good(dir.filePath("week.csv"));
    REQUIRE(good.open(QIODevice::WriteOnly));
    good.write("timestamp,gpus\n");
    const QDateTime start(QDate(2024, 1, 1), QTime(0, 0), Qt::UTC);
    for (int h = 0; h < 48; ++h)
        good.write(QStringLiteral("%1,%2\n").arg(start.addSecs(3600 * h).toString(Qt::ISODate)).arg(h < 24 ? 10 : 20).toUtf8());
    good.close();
    QString error;
    REQUIRE(page.importDemand(good.fileName(), &error));
    REQUIRE(page.demand());
    CHECK(page.demand()->gpus.size() == 48);
    CHECK((*ws).demandSeriesNames().contains("week"));
    // half the hours at 10, half at 20: with a 0.62 discount the optimum reserves 10 or 20
    CHECK((page.analysis().optimalReserved == 10 || page.analysis().optimalReserved == 20));

    QFile bad(dir.filePath("bad.csv"));
    REQUIRE(bad.open(QIODevice::WriteOnly));
    bad.write("gpus\n5\n6\n-1\n");
    bad.close();
    const QStringList before = (*ws).demandSeriesNames();
    CHECK_FALSE(page.importDemand(bad.fileName(), &error));
    CHECK(error.contains("line 4"));
    CHECK((*ws).demandSeriesNames() == before);
}

TEST_CASE("The cost chart exports to PDF with its title and optimum label as text")
{
    TempWorkspace ws;
    ui::CostPage page(*ws);
    QTemporaryDir dir;
    QString error;
    REQUIRE(ui::exportFigure(page.chartPanels().first()->figure(), dir.filePath("cost.pdf"), &error));
    QProcess p;
    p.start("pdftotext", {dir.filePath("cost.pdf"), "-"});
    REQUIRE(p.waitForFinished(20000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    CHECK(text.contains("Total cost vs reserved GPUs"));
    CHECK(text.contains(QStringLiteral("optimum %1").arg(page.analysis().optimalReserved)));
    CHECK(text.contains("critical fractile"));
}
