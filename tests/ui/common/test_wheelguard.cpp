// The mouse wheel over an unfocused spin box or combo box scrolls the form instead of editing
// the input (a scrolled scenario form once changed Spot overhead from 10 % to 2 % and saved 8
// versions); a focused box still takes the wheel.
#include "uitestsupport.h"

#include "store/common/demoworkspace.h"
#include "store/common/workspace.h"
#include "ui/common/wheelguard.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

using namespace headroom;

namespace {

// One notch of the wheel turned down over `widget`, delivered as the window system would.
void wheelDown(QWidget *widget)
{
    const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

} // namespace

TEST_CASE("The wheel scrolls a form past unfocused spin and combo boxes, and turns a focused one")
{
    ui::WheelGuard::install();
    QScrollArea area;
    auto *form = new QWidget;
    auto *layout = new QVBoxLayout(form);
    auto *spin = new QSpinBox;
    spin->setRange(0, 100);
    spin->setValue(50);
    auto *combo = new QComboBox;
    combo->addItems({"a", "b", "c"});
    auto *other = new QSpinBox;
    layout->addWidget(spin);
    layout->addWidget(combo);
    layout->addWidget(other);
    layout->addSpacing(3000);
    area.setWidget(form);
    area.resize(300, 200);
    area.show();
    QApplication::setActiveWindow(&area);
    REQUIRE(QTest::qWaitForWindowActive(&area));
    CHECK(spin->focusPolicy() == Qt::StrongFocus);
    other->setFocus();
    REQUIRE(QTest::qWaitFor([&] { return other->hasFocus(); }));

    const int scrolledBefore = area.verticalScrollBar()->value();
    for (int i = 0; i < 3; ++i) {
        wheelDown(spin);
        wheelDown(combo);
    }
    CHECK(spin->value() == 50);
    CHECK(combo->currentIndex() == 0);
    CHECK(area.verticalScrollBar()->value() > scrolledBefore);   // the form scrolled instead
    CHECK(other->hasFocus());                                     // the wheel took no focus

    spin->setFocus();
    REQUIRE(QTest::qWaitFor([&] { return spin->hasFocus(); }));
    wheelDown(spin);
    CHECK(spin->value() == 49);
}

TEST_CASE("Scrolling the Scenarios page over Spot overhead changes nothing and saves no version")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(store::createDemoWorkspace(dir.filePath("demo.headroom"))));
    window.resize(1280, 800);
    window.show();
    REQUIRE(window.showPage(QStringLiteral("Scenarios")));
    QApplication::processEvents();
    auto *spot = window.findChild<QDoubleSpinBox *>(QStringLiteral("scenarioSpotOverhead"));
    REQUIRE(spot);
    const double before = spot->value();
    store::Workspace &workspace = window.workspace();
    const QStringList names = workspace.scenarioNames();
    std::vector<int64_t> versions;
    for (const QString &name : names)
        versions.push_back(workspace.scenarioSummary(name)->version);
    for (int i = 0; i < 8; ++i)
        wheelDown(spot);
    QApplication::processEvents();
    CHECK(spot->value() == before);
    for (size_t i = 0; i < names.size(); ++i)
        CHECK(workspace.scenarioSummary(names[int(i)])->version == versions[i]);
}
