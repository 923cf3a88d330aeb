#include "common/uitestsupport.h"

#include "engine/fleet/scenario.h"
#include "engine/inference/workload.h"
#include "ui/common/chartpanel.h"
#include "ui/common/dialogs.h"
#include "ui/report/reportsnapshot.h"
#include "ui/tracking/trackingpage.h"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDate>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QApplication>
#include <QScrollBar>
#include <QTableWidget>
#include <QTest>

using namespace headroom;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/focus-examples/");

template <class T>
T *child(QWidget &page, const char *name)
{
    auto *w = page.findChild<T *>(QLatin1String(name));
    REQUIRE(w);
    return w;
}

// Clicks Import with `path` queued as the file dialog's answer; true when it was stored.
bool importAndWait(ui::TrackingPage &page, const QString &path)
{
    QSignalSpy finished(&page, &ui::TrackingPage::finished);
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueFileAnswer(path);
    QTest::mouseClick(child<QPushButton>(page, "trackingImport"), Qt::LeftButton);
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
    return finished.first().first().toBool();
}

QString text(QTableWidget *table, int row, int column)
{
    auto *item = table->item(row, column);
    return item ? item->text() : QString();
}

QAbstractSeries *seriesNamed(ui::ChartPanel *panel, const QString &name)
{
    for (QAbstractSeries *s : panel->chart()->series())
        if (s->name() == name || s->objectName() == name)
            return s;
    return nullptr;
}

// One fleet usage row per day from 2026-01-01 at 1,000.00 with a small weekly wave, day
// `spike` at 2,500.00; in `currency`.
QByteArray dailyFocus(int days, int spike, const QString &currency = QStringLiteral("USD"))
{
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n";
    const QDate first(2026, 1, 1);
    for (int d = 0; d < days; ++d) {
        const QString cost = d == spike ? QStringLiteral("2500.00")
                                        : QString::number(1000.0 + 20.0 * (d % 7) + ((d * 37) % 11), 'f', 2);
        csv += QStringLiteral("%1,%2T00:00:00Z,%3T00:00:00Z,Usage,%4,%4,fleet\n")
                   .arg(currency, first.addDays(d).toString(Qt::ISODate), first.addDays(d + 1).toString(Qt::ISODate), cost)
                   .toUtf8();
    }
    return csv;
}

// A fixed owned pool of 16 H100 at $3.99 per GPU-hour: 16 × 3.99 × 24 = $1,532.16 a day.
void seedScenario(store::Workspace &workspace)
{
    engine::WorkloadProfile w;
    w.name = "chat";
    w.tenant = "product";
    w.modelId = "llama-3.1-8b";
    w.dailyActiveUsers = 100000;
    w.requestsPerUserPerDay = 10;
    w.peakSessionsPerUser = 0.1;
    for (int h = 0; h < 24; ++h)
        w.diurnal[size_t(h)] = 1.0;
    w.promptTokens = {1000, 4000};
    w.outputTokens = {300, 1000};
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    w.trafficVariance = 1.5;
    w.measuredMaxStreams = 1000;
    w.measuredGoodputTokensPerS = 3000;
    w.gpuId = "h100-sxm";
    workspace.putWorkload(w);
    engine::Pool pool;
    pool.name = "base";
    pool.gpuId = "h100-sxm";
    pool.tier = engine::PoolTier::Owned;
    pool.sizing = engine::PoolSizing::Fixed;
    pool.gpus = 16;
    pool.ownedRatePerGpuHour = *engine::Decimal::parse("3.99");
    pool.workloads = {"chat"};
    engine::Scenario s;
    s.name = "static";
    s.provider = "Golden";
    s.region = "g";
    s.startDate = "2026-01-01";
    s.pools = {pool};
    workspace.putScenario(s);
}

} // namespace

TEST_CASE("Tracking page: empty state until actuals are imported")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    auto *empty = child<QLabel>(page, "trackingEmpty");
    auto *stack = qobject_cast<QStackedWidget *>(empty->parentWidget());
    REQUIRE(stack);
    CHECK(empty->text().contains("No billing actuals"));
    CHECK(stack->currentWidget() == empty);
    CHECK(page.shownImport() == 0);
    CHECK_FALSE(child<QPushButton>(page, "trackingRemove")->isEnabled());
    CHECK_FALSE(child<QPushButton>(page, "trackingCancel")->isEnabled());
}

TEST_CASE("Tracking page: a published FOCUS example gives the hand-computed commitment figures")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    REQUIRE(importAndWait(page, kFolder + "aws_underutilized_50pct.csv"));
    CHECK(page.statusText().contains("37 charge rows"));
    REQUIRE(ws.workspace->actualsImports().size() == 1);
    CHECK(page.shownImport() == ws.workspace->actualsImports().front().id);

    // By hand: 12 used and 12 unused hours at $79.11 → $949.32 each, utilization 50 %.
    auto *table = child<QTableWidget>(page, "trackingCommitmentsTable");
    REQUIRE(table->rowCount() == 1);
    CHECK(text(table, 0, 0) == "EC2 Instance Savings Plan");
    CHECK(text(table, 0, 1) == "12");
    CHECK(text(table, 0, 2) == "12");
    CHECK(text(table, 0, 3) == "50.0 %");
    CHECK(text(table, 0, 5) == "$949.32");
    CHECK(text(table, 0, 6) == "$949.32");
    CHECK(text(table, 0, 7) == "yes: trailing below 80 %");
    CHECK(table->item(0, 0)->toolTip().contains("arn:aws:savingsplans::123456789012:savingsplan/sp-abc123def456"));
    // The next term: $79.11/h now; the demand ended idle, so the optimizer commits nothing (as
    // `headroom track commitments` says); no term end in the actuals (the purchase covers one
    // month).
    CHECK(table->columnCount() == 8);
    // In the window at 1280 × 800 the page gets about 1,070 × 740: every column in view.
    page.resize(1070, 740);
    page.show();
    QApplication::processEvents();
    CHECK(table->horizontalScrollBar()->maximum() == 0);
    auto *next = child<QTableWidget>(page, "trackingNextTermTable");
    REQUIRE(next->rowCount() == 1);
    CHECK(text(next, 0, 0) == "EC2 Instance Savings Plan");
    CHECK(text(next, 0, 1) == "not in the actuals");
    CHECK(text(next, 0, 2) == "$79.11/h → $0.00/h");
    // 24 h cannot fit the forecast's daily season: the measured 50 % drives, and letting it
    // expire saves $79.11 × 8,760 − $118.67 × 4,380 = $173,229.00 (the forecast of the idle
    // level alone would have claimed all $693,003.60).
    CHECK(text(next, 0, 3) == "— (commit nothing; now 50.0 %)");
    CHECK(text(next, 0, 4) == "$173,229.00");
    CHECK(text(next, 0, 5) == "measured hours");
    CHECK(text(next, 0, 6) == "arn:aws:savingsplans::123456789012:savingsplan/sp-abc123def456");
    CHECK(next->item(0, 0)->toolTip().contains("let it expire"));
    CHECK(next->item(0, 5)->toolTip().contains("fewer than the 72 h"));
    CHECK(next->item(0, 6)->toolTip().contains("$693,003.60"));
    CHECK(child<QLabel>(page, "trackingCardUnused")->text().contains("$949.32"));
    CHECK(child<QLabel>(page, "trackingCardUtilization")->text().contains("50.0 %"));
    // The effective cost of all 37 rows of the file, summed by hand with Python's decimal
    // module: $1,922.70 on its one day (billed $693,024.06, the upfront purchase included).
    REQUIRE(page.result());
    CHECK(page.result()->daily->cost.size() == 1);
    CHECK(child<QLabel>(page, "trackingCardCost")->text().contains("$1,922.70"));
    CHECK(page.result()->totalBilled == *engine::Decimal::parse("693024.06"));

    // The threshold spin box moves the flag: 50 % is not under 40 %.
    child<QDoubleSpinBox>(page, "trackingThreshold")->setValue(40);
    CHECK(text(table, 0, 7) == "no");

    // The utilization chart: 24 hourly steps, used 79.11 in the first 12, unused in the last 12.
    auto *chart = child<ui::ChartPanel>(page, "trackingUtilizationChart");
    auto *used = qobject_cast<QAreaSeries *>(seriesNamed(chart, "Used"));
    auto *unused = qobject_cast<QAreaSeries *>(seriesNamed(chart, "Unused (paid, idle)"));
    REQUIRE(used);
    REQUIRE(unused);
    REQUIRE(used->upperSeries()->count() == 48);
    CHECK(used->upperSeries()->at(0).y() == Approx(79.11));
    CHECK(used->upperSeries()->at(47).y() == Approx(0.0));
    CHECK(unused->upperSeries()->at(47).y() == Approx(79.11));
    CHECK(chart->figure().caption.contains("50.0 %"));

    // Every chart exports; the page offers its figures and table to the report.
    QTemporaryDir out;
    for (ui::ChartPanel *panel : page.chartPanels()) {
        QString error;
        const QString path = out.filePath(panel->objectName() + ".svg");
        CHECK(ui::exportFigure(panel->figure(), path, &error));
        CHECK(QFileInfo(path).size() > 1000);
    }
    const auto tableSnapshot = page.currentTable();
    REQUIRE(tableSnapshot);
    CHECK(tableSnapshot->rows.front().contains("$949.32"));
}

TEST_CASE("Tracking page: a bad file is refused with its line and field and stores nothing")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    REQUIRE(importAndWait(page, kFolder + "aws_overflow_150pct.csv"));
    QTemporaryDir dir;
    const QString bad = writeFile(dir, "bad.csv",
                                  "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost\n"
                                  "USD,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,5,five\n");
    CHECK_FALSE(importAndWait(page, bad));
    CHECK(page.statusText().contains("line 2"));
    CHECK(page.statusText().contains("EffectiveCost"));
    CHECK(ws.workspace->actualsImports().size() == 1);
    // The overflow example stays shown: 12 × $36.30 on-demand in hours the commitment was full.
    CHECK(child<QLabel>(page, "trackingCardOverflow")->text().contains("$435.60"));
}

TEST_CASE("Tracking page: anomalies are listed, a selected row marks its point, the plan is compared")
{
    TempWorkspace ws;
    seedScenario(*ws);
    ui::TrackingPage page(*ws);
    page.resize(1440, 900);
    QTemporaryDir dir;
    REQUIRE(importAndWait(page, writeFile(dir, "daily.csv", dailyFocus(42, 30))));
    auto *anomalies = child<QTableWidget>(page, "trackingAnomaliesTable");
    REQUIRE(anomalies->rowCount() >= 1);
    int spikeRow = -1;
    for (int r = 0; r < anomalies->rowCount(); ++r)
        if (text(anomalies, r, 1) == "2026-01-31")
            spikeRow = r;
    REQUIRE(spikeRow >= 0);
    CHECK(text(anomalies, spikeRow, 0) == "Spike");
    CHECK(text(anomalies, spikeRow, 2) == "$2,500.00");
    auto *chart = child<ui::ChartPanel>(page, "trackingAnomalyChart");
    CHECK_FALSE(seriesNamed(chart, "selectedAnomaly"));
    anomalies->selectRow(spikeRow);
    CHECK(page.highlightedAnomaly() == spikeRow);
    auto *selected = qobject_cast<QScatterSeries *>(seriesNamed(chart, "selectedAnomaly"));
    REQUIRE(selected);
    REQUIRE(selected->count() == 1);
    CHECK(selected->at(0).y() == Approx(2.5));  // $ thousands
    CHECK(child<QTabWidget>(page, "trackingChartTabs")->currentWidget() == chart);

    // No plan until a scenario is chosen; then planned $1,532.16 a day against the actuals.
    auto *plan = child<ui::ChartPanel>(page, "trackingPlanChart");
    CHECK_FALSE(seriesNamed(plan, "Planned"));
    auto *scenario = child<QComboBox>(page, "trackingScenario");
    scenario->setCurrentIndex(scenario->findData("static"));
    auto *planned = qobject_cast<QLineSeries *>(seriesNamed(plan, "Planned"));
    REQUIRE(planned);
    CHECK(planned->count() == 42);
    CHECK(planned->at(0).y() == Approx(1.53216));
    CHECK(seriesNamed(plan, "Forecast P05–P95"));
    REQUIRE(page.result()->planResult);
    engine::Decimal actual;
    for (const auto &d : page.result()->daily->cost)
        actual += d;
    CHECK(page.result()->planResult->cumulativeVariance == actual - *engine::Decimal::parse("1532.16") * 42);
    auto *days = child<QTableWidget>(page, "trackingPlanTable");
    CHECK(days->rowCount() == 42);
    CHECK(text(days, 0, 1) == "$1,532.16");
}

TEST_CASE("Tracking page: a term ending soon after the charges is marked on the utilization chart")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    QTemporaryDir dir;
    // Ten days of a commitment, half used; its purchase row covers 2026-01-01 to 2026-02-10 (more than 31 days: a term).
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,"
                     "CommitmentDiscountId,CommitmentDiscountStatus\n"
                     "USD,2026-01-01T00:00:00Z,2026-02-10T00:00:00Z,Purchase,9600,0,c1,\n";
    for (int d = 0; d < 10; ++d) {
        const QDate day = QDate(2026, 1, 1).addDays(d);
        const QString from = day.toString(Qt::ISODate) + "T00:00:00Z", to = day.addDays(1).toString(Qt::ISODate) + "T00:00:00Z";
        csv += QStringLiteral("USD,%1,%2,Usage,0,120,c1,Used\nUSD,%1,%2,Usage,0,120,c1,Unused\n").arg(from, to).toUtf8();
    }
    REQUIRE(importAndWait(page, writeFile(dir, "term.csv", csv)));
    auto *chart = child<ui::ChartPanel>(page, "trackingUtilizationChart");
    QStringList names;
    for (QAbstractSeries *s : chart->chart()->series())
        names << s->name();
    INFO(names.join(" | ").toStdString());
    CHECK(seriesNamed(chart, "Term ends 2026-02-10"));
    CHECK(chart->figure().caption.contains("The term ends 2026-02-10."));
    REQUIRE(page.result()->commitments.size() == 1);
    CHECK(page.result()->commitments[0].usage.utilization == 0.5);
}

TEST_CASE("Tracking page: currencies are shown one at a time, never summed")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    QTemporaryDir dir;
    QByteArray csv = dailyFocus(3, -1);
    csv += "EUR,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,Usage,7.25,7.25,other\n";
    REQUIRE(importAndWait(page, writeFile(dir, "mixed.csv", csv)));
    auto *currency = child<QComboBox>(page, "trackingCurrency");
    REQUIRE(currency->count() == 2);
    CHECK(currency->itemText(0) == "USD");
    CHECK(child<QLabel>(page, "trackingCardCost")->text().contains("$3,"));
    currency->setCurrentIndex(1);
    CHECK(child<QLabel>(page, "trackingCardCost")->text().contains("€7.25"));
    CHECK(child<QLabel>(page, "trackingExplanation")->text().contains("never added"));
}

TEST_CASE("Tracking page: Cancel stops a long import and stores nothing")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    QTemporaryDir dir;
    // 200,000 hourly rows: long enough to cancel while it is read.
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n";
    const QDateTime start(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    for (int i = 0; i < 200000; ++i) {
        const QDateTime at = start.addSecs(qint64(i / 50) * 3600);
        csv += QStringLiteral("USD,%1,%2,Usage,1.5,1.5,r%3\n")
                   .arg(at.toString(Qt::ISODate), at.addSecs(3600).toString(Qt::ISODate))
                   .arg(i % 50)
                   .toUtf8();
    }
    const QString path = writeFile(dir, "big.csv", csv);
    QSignalSpy finished(&page, &ui::TrackingPage::finished);
    page.importFile(path);
    CHECK(page.isRunning());
    CHECK(child<QPushButton>(page, "trackingCancel")->isEnabled());
    QTest::mouseClick(child<QPushButton>(page, "trackingCancel"), Qt::LeftButton);
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
    CHECK_FALSE(finished.first().first().toBool());
    CHECK(page.statusText().contains("cancelled"));
    CHECK(ws.workspace->actualsImports().empty());
}

TEST_CASE("Tracking page: its charts in the report are drawn again from the import and the plan scenario")
{
    TempWorkspace ws;
    seedScenario(*ws);
    ui::TrackingPage page(*ws);
    page.resize(1440, 900);
    QTemporaryDir dir;
    REQUIRE(importAndWait(page, writeFile(dir, "daily.csv", dailyFocus(42, 30))));
    auto *scenario = child<QComboBox>(page, "trackingScenario");
    scenario->setCurrentIndex(scenario->findData("static"));
    auto *plan = child<ui::ChartPanel>(page, "trackingPlanChart");
    const ui::ChartFigure before = plan->figure();
    CHECK(before.source.value("kind").toString() == "billing-plan");
    const store::ReportItem item = ui::reportItemFromFigure(before);
    QString problem;
    auto drawn = ui::redrawReportItem(*ws, item, &problem);
    REQUIRE(drawn);
    CHECK(problem.isEmpty());
    CHECK(drawn->content == item.content);

    // The plan's pool grows from 16 to 20 GPUs: the page and the report both plan $1,915.20 a day.
    engine::Scenario grown = *(*ws).scenario("static");
    grown.pools[0].gpus = 20;
    (*ws).putScenario(grown);
    QApplication::processEvents();
    auto *planned = qobject_cast<QLineSeries *>(seriesNamed(plan, "Planned"));
    REQUIRE(planned);
    CHECK(planned->at(0).y() == Approx(1.9152));
    drawn = ui::redrawReportItem(*ws, item, &problem);
    REQUIRE(drawn);
    CHECK(drawn->content != item.content);
    CHECK(drawn->content == ui::reportItemFromFigure(plan->figure()).content);

    // Each billing table too: drawn again, it is the table the page shows.
    auto *tables = child<QTabWidget>(page, "trackingTableTabs");
    QStringList tableKinds;
    for (int tab = 0; tab < tables->count(); ++tab) {
        tables->setCurrentIndex(tab);
        const auto shown = page.currentTable();
        const QJsonObject source = page.currentTableSource();
        if (!shown) // this import has no commitment
            continue;
        tableKinds << source.value("kind").toString();
        INFO(tableKinds.back().toStdString());
        const auto redrawn = ui::redrawReportItem(*ws, ui::reportItemFromTable("Tracking: results", {}, *shown, source),
                                                  &problem);
        INFO(problem.toStdString());
        REQUIRE(redrawn);
        CHECK(redrawn->title == "Tracking: results");
        const ui::DeckTable table = ui::deckItemFromReportItem(*redrawn).table;
        CHECK(table.columns == shown->columns);
        CHECK(table.rows == shown->rows);
    }
    CHECK(tableKinds == QStringList{"billing-anomalies-table", "billing-plan-table"});

    // The highlighted anomaly is part of the source.
    auto *anomalies = child<QTableWidget>(page, "trackingAnomaliesTable");
    REQUIRE(anomalies->rowCount() >= 1);
    anomalies->selectRow(0);
    const ui::ChartFigure highlighted = child<ui::ChartPanel>(page, "trackingAnomalyChart")->figure();
    CHECK(highlighted.source.value("highlighted").toInt() == 0);
    drawn = ui::redrawReportItem(*ws, ui::reportItemFromFigure(highlighted), &problem);
    REQUIRE(drawn);
    CHECK(drawn->content == ui::reportItemFromFigure(highlighted).content);

    // The import removed, the item says why it stays a snapshot.
    REQUIRE((*ws).removeActualsImport(child<QComboBox>(page, "trackingImports")->currentData().toLongLong()));
    CHECK_FALSE(ui::redrawReportItem(*ws, item, &problem));
    CHECK(problem.contains("billing import"));
}
