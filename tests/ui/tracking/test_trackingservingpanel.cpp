#include "common/uitestsupport.h"
#include "common/storetestsupport.h"

#include "engine/inference/sizing_options.h"
#include "ui/common/chartpanel.h"
#include "ui/common/dialogs.h"
#include "ui/report/reportsnapshot.h"
#include "ui/tracking/trackingpage.h"
#include "ui/tracking/trackingservingpanel.h"

#include <QChart>
#include <QJsonDocument>
#include <QJsonObject>
#include <QComboBox>
#include <QLineSeries>
#include <QXYSeries>
#include <QMap>
#include <QDate>
#include <QDateEdit>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <memory>

using namespace headroom;

namespace {

template <class T>
T *child(QWidget &page, const char *name)
{
    auto *w = page.findChild<T *>(QLatin1String(name));
    REQUIRE(w);
    return w;
}

QString cell(QTableWidget *table, int row, int column)
{
    auto *item = table->item(row, column);
    return item ? item->text() : QString();
}

constexpr qint64 kT0 = 1772409600; // 2026-03-02T00:00:00Z

// Four replicas of two GPUs on the hour for 21 hours: every replica carries 50 + 10 (k − 1)
// tokens/s in hour k, r1 600 in hour 20; nobody waits (as in the engine and CLI tests).
QByteArray fleetCsv()
{
    QByteArray csv = "timestamp,instance,gpu,metric,value,deployment\n";
    for (const char *replica : {"r1", "r2", "r3", "r4"}) {
        double counter = 0;
        for (int k = 0; k <= 20; ++k) {
            const qint64 t = kT0 + k * 3600;
            if (k > 0)
                counter += ((k == 20 && QByteArray(replica) == "r1") ? 600.0 : 50.0 + 10.0 * (k - 1)) * 3600.0;
            for (const char *gpu : {"0", "1"})
                csv += QByteArray::number(t) + ',' + replica + ',' + gpu + ",DCGM_FI_DEV_GPU_UTIL,55,chat\n";
            csv += QByteArray::number(t) + ',' + replica + ",,vllm:num_requests_waiting,0,chat\n";
            csv += QByteArray::number(t) + ',' + replica + ",,vllm:generation_tokens_total,"
                + QByteArray::number(counter, 'f', 0) + ",chat\n";
        }
    }
    return csv;
}

// Six weeks of DCGM GPU utilization on the hour: four 2-GPU replicas all day and a fifth for
// 10-14 hours on weekdays, 4 at weekends; 60 % on weekdays and 40 % at weekends ± up to one
// point, except day `dropDay` at 20 %.
constexpr int kAnomalyDays = 42;

int fifthReplicaHours(int d)
{
    return d % 7 >= 5 ? 4 : 10 + (d * 7919) % 5;
}

double dayUtilization(int d, int dropDay)
{
    if (d == dropDay)
        return 20.0;
    return (d % 7 >= 5 ? 40.0 : 60.0) + ((d * 37) % 11 - 5) / 5.0;
}

QByteArray utilizationCsv(int dropDay)
{
    QByteArray csv = "timestamp,instance,gpu,metric,value,deployment\n";
    for (int d = 0; d < kAnomalyDays; ++d)
        for (int h = 0; h < 24; ++h) {
            const QByteArray t = QByteArray::number(kT0 + (d * 24 + h) * 3600);
            const QByteArray util = QByteArray::number(dayUtilization(d, dropDay), 'f', 1);
            for (int r = 1; r <= 5; ++r) {
                if (r == 5 && h >= fifthReplicaHours(d))
                    continue;
                for (const char *gpu : {"0", "1"})
                    csv += t + ",r" + QByteArray::number(r) + ',' + gpu + ",DCGM_FI_DEV_GPU_UTIL," + util + ",chat\n";
            }
        }
    return csv;
}

} // namespace

TEST_CASE("Tracking page Serving section: utilization anomalies from GPU telemetry with their size")
{
    TempWorkspace ws;
    QTemporaryDir dir;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    page.show();
    page.showServing();
    ui::TrackingServingPanel *panel = page.servingPanel();
    REQUIRE(panel->importFile(writeFile(dir, "six-weeks.csv", utilizationCsv(30))));
    auto *tabs = child<QTabWidget>(page, "servingTabs");
    auto *anomalies = child<QTableWidget>(page, "servingAnomaliesTable");
    tabs->setCurrentWidget(anomalies);
    CHECK(tabs->tabText(tabs->currentIndex()) == "Anomalies");
    // The chart follows the table.
    CHECK(child<QTabWidget>(page, "servingChartTabs")->currentWidget() == child<ui::ChartPanel>(page, "servingUtilizationChart"));
    CHECK(page.chartPanels().first()->objectName() == "servingUtilizationChart");

    // Day 30 (2026-04-01) at 20 % against about 60 %: one dip, nothing else.
    REQUIRE(anomalies->rowCount() == 1);
    CHECK(anomalies->columnCount() == 8);   // no rate: no money column
    CHECK(cell(anomalies, 0, 0) == "Utilization");
    CHECK(cell(anomalies, 0, 1) == "Dip");
    CHECK(cell(anomalies, 0, 2) == "2026-04-01");
    CHECK(cell(anomalies, 0, 3) == "20.0");
    const double expectedPercent = cell(anomalies, 0, 4).toDouble();
    CHECK(expectedPercent == Approx(60.0).margin(1.5));
    // GPU-hours by hand: 4 replicas × 2 GPUs × 24 h + 2 GPUs × the fifth's hours.
    const double gpuHours = 4 * 2 * 24 + 2 * fifthReplicaHours(30);
    CHECK(cell(anomalies, 0, 5) == QString::number(gpuHours, 'f', 1));
    // Idle GPU-hours = (20 % − expected) × GPU-hours: the shown expected is rounded to 0.1 point.
    const double size = cell(anomalies, 0, 7).toDouble();
    CHECK(size == Approx((0.20 - expectedPercent / 100.0) * gpuHours).margin(0.0005 * gpuHours + 0.01));
    REQUIRE(panel->analysis().anomalies);
    const auto &found = panel->analysis().anomalies->anomalies.front();
    CHECK(size == Approx((0.20 - found.expectedUtilization) * gpuHours).margin(0.006));
    CHECK(child<QLabel>(page, "servingExplanation")->text().contains("42 whole days from 2026-03-02 to 2026-04-12: 1 anomaly"));

    // Priced: the size as shown × the H100's on-demand rate, to the cent.
    engine::Decimal rate;
    for (const auto &r : engine::onDemandRates((*ws).rateCards(), QDate::currentDate().toString(Qt::ISODate).toStdString()))
        if (r.gpuId == "h100-sxm")
            rate = r.perGpuHour.amount;
    REQUIRE(rate.toDouble() > 0);
    panel->setRateGpu(QStringLiteral("h100-sxm"));
    REQUIRE(anomalies->columnCount() == 9);
    CHECK(anomalies->horizontalHeaderItem(8)->text() == "Size (USD/day)");
    const engine::Decimal shownSize = *engine::Decimal::parse(cell(anomalies, 0, 7).toStdString());
    CHECK(cell(anomalies, 0, 8) == QString::fromStdString(engine::Money{(shownSize * rate).rounded(2), "USD"}.display()));
    CHECK(child<QLabel>(page, "servingExplanation")->text().contains("per GPU-hour"));

    // The chart: 42 daily points, the dip marked at 20 %.
    const ui::ChartFigure figure = child<ui::ChartPanel>(page, "servingUtilizationChart")->figure();
    CHECK(figure.title == "Fleet GPU utilization by day");
    std::unique_ptr<QChart> chart(figure.build(QChart::ChartThemeLight));
    bool sawLine = false, sawDip = false;
    for (QAbstractSeries *s : chart->series()) {
        auto *xy = qobject_cast<QXYSeries *>(s);
        REQUIRE(xy);
        if (xy->name() == "Utilization") {
            sawLine = true;
            REQUIRE(xy->count() == kAnomalyDays);
            CHECK(xy->at(0).y() == Approx(dayUtilization(0, 30)));
            CHECK(xy->at(30).y() == Approx(20.0));
        }
        if (xy->objectName() == "utilizationAnomalies") {
            sawDip = true;
            REQUIRE(xy->count() == 1);
            CHECK(xy->at(0).y() == Approx(20.0));
        }
        if (xy->name() == "GPU-hours")
            CHECK(xy->at(30).y() == Approx(gpuHours));
    }
    CHECK(sawLine);
    CHECK(sawDip);

    // The table exports as shown.
    const QString csv = dir.filePath("anomalies.csv");
    REQUIRE(panel->exportCurrentTable(csv));
    QFile file(csv);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QString exported = QString::fromUtf8(file.readAll());
    CHECK(exported.startsWith("Series,Kind,Day,Utilization %,Expected %,GPU-hours,Expected GPU-hours,Size (GPU-h/day)"));
    CHECK(exported.contains("Utilization,Dip,2026-04-01,20.0,"));

    // Back to rightsizing: the load chart and the rightsizing reasoning.
    tabs->setCurrentIndex(0);
    CHECK(page.chartPanels().first()->objectName() == "servingLoadChart");
    CHECK_FALSE(child<QLabel>(page, "servingExplanation")->text().contains("whole days from"));
}

TEST_CASE("Tracking page Serving section: metrics import, rightsizing with the saving, CSV export")
{
    TempWorkspace ws;
    QTemporaryDir dir;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    page.show();
    page.showServing();
    ui::TrackingServingPanel *panel = page.servingPanel();
    REQUIRE(panel);
    auto *rightsizing = child<QTableWidget>(page, "servingRightsizingTable");
    CHECK(rightsizing->rowCount() == 0);
    CHECK(child<QLabel>(page, "servingExplanation")->text().contains("No serving metrics"));

    // A bad file: refused with its line and field, nothing stored.
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueFileAnswer(writeFile(dir, "bad.csv", "timestamp,instance,gpu,metric,value\n"
                                                           "1772409600,r1,,vllm:num_requests_waiting,-2\n"));
    QTest::mouseClick(child<QPushButton>(page, "servingImport"), Qt::LeftButton);
    CHECK(panel->statusText().contains("bad.csv: line 2: field \"value\": -2 is negative"));
    CHECK((*ws).servingMetricsImports().empty());

    ui::Dialogs::queueFileAnswer(writeFile(dir, "fleet.csv", fleetCsv()));
    QTest::mouseClick(child<QPushButton>(page, "servingImport"), Qt::LeftButton);
    CHECK(panel->statusText().contains("Imported fleet.csv"));
    REQUIRE(rightsizing->rowCount() == 1);
    CHECK(cell(rightsizing, 0, 0) == "chat");
    CHECK(cell(rightsizing, 0, 1) == "4");
    CHECK(cell(rightsizing, 0, 3) == "920.0");
    CHECK(cell(rightsizing, 0, 4) == "600.0");
    CHECK(cell(rightsizing, 0, 5) == "2");
    CHECK(cell(rightsizing, 0, 6) == "4");
    CHECK(cell(rightsizing, 0, 7) == "–");   // no rate chosen yet

    // Priced at the H100's on-demand rate: 4 GPUs × rate × 720 h.
    engine::Decimal rate;
    for (const auto &r : engine::onDemandRates((*ws).rateCards(), QDate::currentDate().toString(Qt::ISODate).toStdString()))
        if (r.gpuId == "h100-sxm")
            rate = r.perGpuHour.amount;
    REQUIRE(rate.toDouble() > 0);
    panel->setRateGpu(QStringLiteral("h100-sxm"));
    CHECK(cell(rightsizing, 0, 7) == QString::fromStdString(engine::Money{rate * int64_t(2880), "USD"}.display()));
    CHECK(child<QLabel>(page, "servingExplanation")->text().contains("⌈920.0 × (1 + 0.20 planned headroom) ÷ 600.0⌉ = 2"));
    CHECK(child<QTableWidget>(page, "servingReplicasTable")->rowCount() == 4);

    // The table shown exports to CSV and goes to the report.
    const QString csv = dir.filePath("rightsizing.csv");
    REQUIRE(panel->exportCurrentTable(csv));
    QFile file(csv);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QString exported = QString::fromUtf8(file.readAll());
    CHECK(exported.startsWith("Deployment,Replicas now,GPUs each,Busy load (tokens/s)"));
    CHECK(exported.contains("chat,4,2,920.0,600.0,2,4,"));
    const auto table = page.currentTable();
    REQUIRE(table);
    CHECK(table->rows.size() == 1);

    // The chart Export and Add to Report act on: the deployment's load against capacity.
    // Levels by hand: busy load 920 × 1.2 = 1,104; 2 recommended × 600 = 1,200; 4 running × 600 = 2,400.
    const QList<ui::ChartPanel *> charts = page.chartPanels();
    REQUIRE(charts.size() == 3);
    CHECK(charts.first()->objectName() == "servingLoadChart");
    const ui::ChartFigure figure = charts.first()->figure();
    CHECK(figure.title == "Load and capacity: chat");
    std::unique_ptr<QChart> chart(figure.build(QChart::ChartThemeLight));
    QMap<QString, QList<QPointF>> series;
    for (QAbstractSeries *s : chart->series())
        if (auto *line = qobject_cast<QLineSeries *>(s))
            series[line->name()] = line->points();
    REQUIRE(series.contains("Generated tokens/s"));
    CHECK(series["Generated tokens/s"].size() == 2 * 20);   // 20 hours, each drawn flat
    CHECK(series["Busy load + 20 % headroom"].first().y() == Approx(1104.0));
    CHECK(series["2 replicas recommended"].first().y() == Approx(1200.0));
    CHECK(series["4 replicas running"].first().y() == Approx(2400.0));
    // Σ of the hourly loads drawn = Σ over replicas and hours of the fleet's tokens/s.
    double drawn = 0;
    const QList<QPointF> &load = series["Generated tokens/s"];
    for (int i = 0; i < load.size(); i += 2)
        drawn += load[i].y();
    double expected = 0;
    for (int k = 1; k <= 20; ++k)
        expected += k == 20 ? 600.0 + 3 * (50.0 + 10.0 * 19) : 4 * (50.0 + 10.0 * (k - 1));
    CHECK(drawn == Approx(expected));
    // The goodput tab puts its chart first; the benchmark history table shows it.
    child<QTabWidget>(page, "servingChartTabs")->setCurrentIndex(1);
    CHECK(page.chartPanels().first()->objectName() == "servingGoodputChart");
    CHECK(page.chartPanels().first()->figure().title == "Goodput per GPU by day");
    child<QTabWidget>(page, "servingTabs")->setCurrentIndex(1);
    CHECK(page.chartPanels().first()->objectName() == "servingGoodputChart");
    child<QTabWidget>(page, "servingTabs")->setCurrentIndex(0);
    CHECK(page.chartPanels().first()->objectName() == "servingLoadChart");
}

TEST_CASE("Tracking page Serving section: optimizations are added with validation and removed")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    page.showServing();
    auto *benchmarks = child<QTableWidget>(page, "servingBenchmarkTable");
    auto *name = child<QLineEdit>(page, "servingOptimizationName");
    auto *date = child<QDateEdit>(page, "servingOptimizationDate");
    auto *add = child<QPushButton>(page, "servingAddOptimization");
    auto *status = child<QLabel>(page, "servingStatus");

    name->setText("   ");
    QTest::mouseClick(add, Qt::LeftButton);
    CHECK(status->text().contains("Give the optimization a name"));
    CHECK((*ws).optimizations().empty());

    name->setText("FP8 weights");
    date->setDate(QDate(2026, 3, 10));
    QTest::mouseClick(add, Qt::LeftButton);
    REQUIRE(benchmarks->rowCount() == 1);
    CHECK(cell(benchmarks, 0, 0) == "FP8 weights");
    CHECK(cell(benchmarks, 0, 1) == "2026-03-10");
    CHECK(cell(benchmarks, 0, 2) == "–");     // no metrics: nothing measured
    CHECK(name->text().isEmpty());

    name->setText("FP8 weights");
    QTest::mouseClick(add, Qt::LeftButton);
    CHECK(status->text().contains("already exists"));
    CHECK(benchmarks->rowCount() == 1);

    auto *remove = child<QPushButton>(page, "servingRemoveOptimization");
    CHECK_FALSE(remove->isEnabled());
    benchmarks->selectRow(0);
    CHECK(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    CHECK(benchmarks->rowCount() == 0);
    CHECK((*ws).optimizations().empty());
}

TEST_CASE("Tracking page Serving section: a TTFT SLO read from the latency histograms changes the rightsizing")
{
    TempWorkspace ws;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    page.showServing();
    ui::TrackingServingPanel *panel = page.servingPanel();
    REQUIRE(panel->importFile(store::test::sourceFile(QStringLiteral("data/samples/serving-metrics.csv"))));
    auto *rightsizing = child<QTableWidget>(page, "servingRightsizingTable");
    REQUIRE(rightsizing->rowCount() == 1);
    // Without an SLO: the restart hour shows 2,088.6 tokens/s per replica → 2 replicas (as the CLI).
    CHECK(cell(rightsizing, 0, 5) == "2");
    // The replicas' latency over the last 7 days, as recomputed in Python: r1 TTFT P50 151 ms,
    // P95 420 ms, end-to-end P95 16.00 s.
    auto *replicas = child<QTableWidget>(page, "servingReplicasTable");
    CHECK(cell(replicas, 0, 1) == "r1");
    CHECK(cell(replicas, 0, 12) == "151");
    CHECK(cell(replicas, 0, 13) == "420");
    CHECK(cell(replicas, 0, 14) == "16.00");

    // TTFT P95 ≤ 1 s: the restart hour answered in 1,788 ms, the busy hours missed it.
    child<QSpinBox>(page, "servingTtftSlo")->setValue(1000);
    CHECK(cell(rightsizing, 0, 5) == "3 (SLO missed)");
    CHECK(cell(rightsizing, 0, 6) == "0");
    CHECK(child<QLabel>(page, "servingExplanation")->text().contains("missed the SLO TTFT P95 ≤ 1000 ms (1788 ms"));
    // 2 s: met again, 2 replicas.
    child<QSpinBox>(page, "servingTtftSlo")->setValue(2000);
    CHECK(cell(rightsizing, 0, 5) == "2");
    CHECK(child<QLabel>(page, "servingExplanation")->text().contains("within the SLO TTFT P95 ≤ 2000 ms (1788 ms)"));

    // Twelve days: too few for the weekly anomaly model; said so, no rows.
    child<QTabWidget>(page, "servingTabs")->setCurrentWidget(child<QTableWidget>(page, "servingAnomaliesTable"));
    CHECK(child<QTableWidget>(page, "servingAnomaliesTable")->rowCount() == 0);
    CHECK(child<QLabel>(page, "servingExplanation")->text().contains("need at least 15 whole days"));
    CHECK(child<ui::ChartPanel>(page, "servingUtilizationChart")->figure().caption.contains("need at least 15 whole days"));
}

TEST_CASE("Tracking page Serving section: its charts in the report are drawn again from the serving metrics")
{
    TempWorkspace ws;
    QTemporaryDir dir;
    ui::TrackingPage page(*ws);
    page.resize(1280, 800);
    page.show();
    page.showServing();
    ui::TrackingServingPanel *panel = page.servingPanel();
    REQUIRE(panel->importFile(writeFile(dir, "fleet.csv", fleetCsv())));
    QStringList kinds;
    std::optional<store::ReportItem> load;
    for (ui::ChartPanel *chart : panel->chartPanels()) {
        const store::ReportItem item = ui::reportItemFromFigure(chart->figure());
        const QString kind = chart->figure().source.value("kind").toString();
        kinds << kind;
        QString problem;
        const auto drawn = ui::redrawReportItem(*ws, item, &problem);
        INFO(kind.toStdString() << ": " << problem.toStdString());
        REQUIRE(drawn);
        CHECK(drawn->content == item.content);
        if (kind == "serving-load")
            load = item;
    }
    kinds.sort();
    CHECK(kinds == QStringList{"serving-goodput", "serving-load", "serving-utilization"});
    REQUIRE(load);
    CHECK(QJsonDocument::fromJson(load->source.toUtf8()).object().value("deployment").toString() == "chat");

    // Each table too: drawn again, it is the table the page shows.
    auto *tabs = child<QTabWidget>(page, "servingTabs");
    QStringList tableKinds;
    for (int tab = 0; tab < tabs->count(); ++tab) {
        tabs->setCurrentIndex(tab);
        const auto shown = page.currentTable();
        const QJsonObject source = page.currentTableSource();
        if (!shown)
            continue;
        tableKinds << source.value("kind").toString();
        QString problem;
        const auto redrawn = ui::redrawReportItem(*ws, ui::reportItemFromTable("Serving", {}, *shown, source), &problem);
        INFO(tableKinds.back().toStdString() << ": " << problem.toStdString());
        REQUIRE(redrawn);
        CHECK(ui::deckItemFromReportItem(*redrawn).table.rows == shown->rows);
    }
    tableKinds.sort();
    CAPTURE(tableKinds.join(", ").toStdString());
    CHECK(tableKinds == QStringList{"serving-replicas-table", "serving-rightsizing-table"});

    // The metrics removed, the deployment's load chart stays a snapshot and says why.
    REQUIRE((*ws).removeServingMetricsImport((*ws).servingMetricsImports().front().id));
    QString problem;
    CHECK_FALSE(ui::redrawReportItem(*ws, *load, &problem));
    CHECK(problem == "deployment \"chat\" is no longer in the serving metrics");
}
