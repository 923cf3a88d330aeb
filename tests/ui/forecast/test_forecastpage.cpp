#include "common/uitestsupport.h"
#include "publictraces.h"

#include "ui/common/chartpanel.h"
#include "ui/forecast/forecastcharts.h"
#include "ui/forecast/forecastpage.h"
#include "ui/report/reportsnapshot.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QChart>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>
#include <cmath>

using namespace headroom;

namespace {

// Long-form telemetry: `primitives` tenants of one model, `days` of hourly samples with a
// daily cycle and deterministic wiggle; hours listed in `skip` have no sample.
QByteArray telemetryCsv(int primitives, int days, const QList<int> &skip = {})
{
    QByteArray csv = "timestamp,tenant,model,workload_type,gpus\n";
    const QDateTime start(QDate(2026, 3, 2), QTime(0, 0), Qt::UTC);
    for (int h = 0; h < days * 24; ++h) {
        if (skip.contains(h))
            continue;
        const QString when = start.addSecs(qint64(h) * 3600).toString(Qt::ISODate);
        for (int p = 0; p < primitives; ++p) {
            const double gpus = 20.0 + 4.0 * p + 8.0 * std::sin(2 * M_PI * (h % 24) / 24.0) +
                                1.5 * std::sin(h * 1.7 + p) + 0.01 * h;
            csv += QStringLiteral("%1,tenant%2,llama-70b,chat,%3\n").arg(when).arg(p).arg(gpus, 0, 'f', 2).toUtf8();
        }
    }
    return csv;
}

template <class T>
T *child(QWidget &page, const char *name)
{
    auto *w = page.findChild<T *>(QLatin1String(name));
    REQUIRE(w);
    return w;
}

// Small, quick settings: daily season, 2 held-out days in 2 origins, 2-day horizon.
void quickSettings(ui::ForecastPage &page)
{
    child<QSpinBox>(page, "forecastHeldOut")->setValue(2);
    child<QSpinBox>(page, "forecastOrigins")->setValue(2);
    child<QSpinBox>(page, "forecastHorizon")->setValue(2);
    child<QSpinBox>(page, "forecastPaths")->setValue(200);
}

bool fitAndWait(ui::ForecastPage &page)
{
    QSignalSpy finished(&page, &ui::ForecastPage::finished);
    QTest::mouseClick(child<QPushButton>(page, "forecastFit"), Qt::LeftButton);
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 120000));
    return finished.first().first().toBool();
}

struct FanSeries {
    QLineSeries *history = nullptr;
    QLineSeries *median = nullptr;
    QMap<QString, QAreaSeries *> bands;
};

FanSeries fanSeries(QChart *chart)
{
    FanSeries out;
    for (QAbstractSeries *s : chart->series()) {
        if (auto *area = qobject_cast<QAreaSeries *>(s))
            out.bands[area->name()] = area;
        else if (auto *line = qobject_cast<QLineSeries *>(s); line && line->name() == "History")
            out.history = line;
        else if (line && line->name() == "Forecast P50")
            out.median = line;
    }
    return out;
}

} // namespace

TEST_CASE("Importing telemetry lists each primitive with its hours, mean and peak")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    const QString path = writeFile(dir, "telemetry.csv", telemetryCsv(3, 8));
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importTelemetry(path, &error));
    CHECK(page.input().names.size() == 3);
    CHECK(page.input().names.first() == "tenant0 / llama-70b / chat");
    auto *table = child<QTableWidget>(page, "forecastPrimitives");
    REQUIRE(table->rowCount() == 3);
    CHECK(table->item(1, 0)->text() == "tenant1 / llama-70b / chat");
    CHECK(table->item(0, 1)->text() == "192");
    CHECK(table->item(0, 2)->text() == "0");
    CHECK(page.importReport().contains("No gaps, no duplicates"));
    CHECK(child<QPushButton>(page, "forecastFit")->isEnabled());
}

TEST_CASE("A fit off the GUI thread draws the fan chart with ordered quantiles and fills the tables")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    const QString path = writeFile(dir, "telemetry.csv", telemetryCsv(3, 10));
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importTelemetry(path, &error));
    quickSettings(page);
    REQUIRE(fitAndWait(page));
    REQUIRE(page.result());
    REQUIRE(page.result()->series.size() == 4); // total + 3 primitives

    QChart *chart = page.chartPanels().first()->chart();
    REQUIRE(chart);
    const FanSeries fan = fanSeries(chart);
    REQUIRE(fan.history);
    REQUIRE(fan.median);
    CHECK(fan.median->count() == 48);
    CHECK(fan.history->count() == 240); // all 10 days: less than the two weeks shown
    REQUIRE(fan.bands.size() == 3);
    QAreaSeries *p95 = fan.bands.value("P05–P95");
    QAreaSeries *p99 = fan.bands.value("P01–P99");
    REQUIRE(p95);
    REQUIRE(p99);
    REQUIRE(p95->upperSeries()->count() == 48);
    REQUIRE(p99->upperSeries()->count() == 48);
    for (int k = 0; k < 48; ++k) {
        const double median = fan.median->at(k).y();
        const double upper95 = p95->upperSeries()->at(k).y();
        const double upper99 = p99->upperSeries()->at(k).y();
        CHECK(median <= upper95);
        CHECK(upper95 <= upper99);
        CHECK(p95->lowerSeries()->at(k).y() <= median);
    }
    // The total's band is the quantile of the summed paths: narrower than the sum of P99s.
    const auto &total = page.result()->series[0];
    double sumOfP99 = 0;
    for (size_t i = 1; i < page.result()->series.size(); ++i)
        sumOfP99 += page.result()->series[i].fan[6][0];
    CHECK(total.fan[6][0] < sumOfP99);

    auto *primitives = child<QTableWidget>(page, "forecastPrimitives");
    REQUIRE(primitives->rowCount() == 4);
    CHECK(primitives->item(0, 0)->text().startsWith("Total"));
    CHECK(primitives->item(1, 5)->text() != "—"); // α fitted
    CHECK(primitives->item(1, 9)->text().endsWith("%"));  // backtest MAPE
    auto *backtest = child<QTableWidget>(page, "forecastBacktest");
    REQUIRE(backtest->rowCount() == 4);
    CHECK(backtest->horizontalHeaderItem(4)->text().startsWith("Pinball P50"));
    CHECK(page.result()->series[1].backtest->points == 48);
    auto *comparison = child<QTableWidget>(page, "forecastComparison");
    CHECK(comparison->rowCount() == 4);
    QChart *bars = page.chartPanels().at(1)->chart();
    REQUIRE(bars);
    REQUIRE(bars->series().size() == 1);
    CHECK(qobject_cast<QBarSeries *>(bars->series().first())->count() == 2);

    // Choosing a primitive shows its own fan.
    primitives->selectRow(2);
    CHECK(page.shownSeries() == 2);
    CHECK(page.chartPanels().first()->figure().title.startsWith("tenant1"));
    CHECK(page.explanation().contains("P95 forecast peaks"));
}

TEST_CASE("A malformed telemetry file is reported with its line and changes nothing")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importTelemetry(writeFile(dir, "good.csv", telemetryCsv(2, 3)), &error));
    const QString bad = writeFile(dir, "bad.csv",
                                  "timestamp,tenant,model,workload_type,gpus\n"
                                  "2026-03-02T00:00:00Z,a,m,chat,3\n"
                                  "2026-03-02T01:00:00Z,a,m,chat,lots\n");
    CHECK_FALSE(page.importTelemetry(bad, &error));
    CHECK(error.contains("line 3"));
    CHECK(error.contains("gpus"));
    CHECK(page.input().names.size() == 2);
    CHECK(child<QTableWidget>(page, "forecastPrimitives")->rowCount() == 2);

    // Through the widgets: the status line says why and nothing was imported.
    child<QLineEdit>(page, "forecastFile")->setText(bad);
    QTest::mouseClick(child<QPushButton>(page, "forecastImport"), Qt::LeftButton);
    CHECK(page.statusText().contains("nothing changed"));
    CHECK(page.statusText().contains("line 3"));
    CHECK(page.input().source == "good.csv");
}

TEST_CASE("Missing hours are reported and a fit refuses them until a policy is chosen")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importTelemetry(writeFile(dir, "gappy.csv", telemetryCsv(2, 8, {50, 51, 52})), &error));
    CHECK(page.importReport().contains("3 missing hours"));
    CHECK(child<QTableWidget>(page, "forecastPrimitives")->item(0, 2)->text() == "3");
    quickSettings(page);
    CHECK_FALSE(fitAndWait(page));
    CHECK(page.statusText().contains("tenant0"));
    CHECK_FALSE(page.result());

    auto *gaps = child<QComboBox>(page, "forecastGaps");
    gaps->setCurrentIndex(gaps->findData(int(engine::GapPolicy::Interpolate)));
    REQUIRE(fitAndWait(page));
    REQUIRE(page.result());
    CHECK(std::isfinite(page.result()->series[1].history[51]));
}

TEST_CASE("Cancel stops a fit and keeps the previous results")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importTelemetry(writeFile(dir, "many.csv", telemetryCsv(40, 30)), &error));
    auto *initial = child<QComboBox>(page, "forecastInitial");
    initial->setCurrentIndex(initial->findData(int(engine::InitialMethod::Estimated)));
    QSignalSpy finished(&page, &ui::ForecastPage::finished);
    QTest::mouseClick(child<QPushButton>(page, "forecastFit"), Qt::LeftButton);
    REQUIRE(page.isRunning());
    CHECK_FALSE(page.importTelemetry(writeFile(dir, "other.csv", telemetryCsv(1, 3)), &error));
    CHECK(error.contains("in progress"));
    CHECK(page.input().names.size() == 40);
    CHECK(child<QPushButton>(page, "forecastCancel")->isEnabled());
    CHECK_FALSE(child<QPushButton>(page, "forecastFit")->isEnabled());
    QTest::mouseClick(child<QPushButton>(page, "forecastCancel"), Qt::LeftButton);
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 120000));
    CHECK_FALSE(finished.first().first().toBool());
    CHECK(page.statusText().contains("Cancelled"));
    CHECK_FALSE(page.result());
    CHECK(child<QPushButton>(page, "forecastFit")->isEnabled());
}

TEST_CASE("Use for reservation shows the forecast and the look-back answers with their costs")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importTelemetry(writeFile(dir, "telemetry.csv", telemetryCsv(2, 10)), &error));
    quickSettings(page);
    REQUIRE(fitAndWait(page));
    CHECK(child<QComboBox>(page, "forecastRateCard")->currentData().toString().contains("h100-sxm"));
    QSignalSpy finished(&page, &ui::ForecastPage::finished);
    QTest::mouseClick(child<QPushButton>(page, "forecastReserve"), Qt::LeftButton);
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 180000));
    REQUIRE(finished.first().first().toBool());
    REQUIRE(page.handOff());
    const auto &h = *page.handOff();
    // 12 calendar months from the first forecast hour's date: 8,760 h, or 8,784 h across a 29 February.
    CHECK((h.termHours == 8760 || h.termHours == 8784));
    CHECK(h.forecastOptimum.expectedCost.amount <= h.lookbackOptimum.expectedCost.amount);
    auto *table = child<QTableWidget>(page, "forecastReservation");
    REQUIRE(table->rowCount() == int(h.choices.size()));
    QStringList rules;
    for (int r = 0; r < table->rowCount(); ++r)
        rules << table->item(r, 0)->text();
    CHECK(rules.filter("orecast").size() >= 1);
    CHECK(rules.filter("ook-back").size() >= 1);
    CHECK(table->item(0, 2)->text().startsWith("$"));
    CHECK(page.explanation().contains(QStringLiteral("Reserve %1 GPUs for the forecast").arg(h.forecastOptimum.reserved)));
    CHECK(page.explanation().contains("look-back answer"));
}

TEST_CASE("The forecast is saved as a workspace demand series, undoably")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importTelemetry(writeFile(dir, "telemetry.csv", telemetryCsv(2, 10)), &error));
    quickSettings(page);
    CHECK_FALSE(page.saveForecastSeries("too early", 0.5, &error));
    REQUIRE(fitAndWait(page));
    REQUIRE(page.saveForecastSeries("forecast P95", 0.95, &error));
    const auto saved = (*ws).demandSeries("forecast P95");
    REQUIRE(saved);
    CHECK(saved->gpus.size() == 48);
    CHECK(std::abs(saved->gpus[0].toDouble() - page.result()->series[0].fan[5][0]) < 1e-3);
    CHECK(saved->startEpochSeconds == page.input().startEpochSeconds + 240 * 3600);
    REQUIRE(undo.count() == 1);
    undo.undo();
    CHECK_FALSE((*ws).demandSeries("forecast P95"));
    undo.redo();
    CHECK((*ws).demandSeries("forecast P95"));

    // The saved series is itself a source of the page.
    REQUIRE(page.importWorkspaceSeries("forecast P95", &error));
    CHECK(page.input().names == QStringList{"forecast P95"});
    CHECK(page.input().series.front().size() == 48);
}

TEST_CASE("A pod trace is split into primitives by QoS class, and a bad row names its line")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    QByteArray csv = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
                     "scheduled_time\n";
    for (int i = 0; i < 40; ++i)
        csv += QStringLiteral("pod-%1,4000,8192,1,%2,,%3,Running,%4,%5,%4\n")
                   .arg(i)
                   .arg(i % 2 ? 500 : 1000)
                   .arg(i % 3 ? "LS" : "BE")
                   .arg(i * 3600)
                   .arg(i * 3600 + 36000)
                   .toUtf8();
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importPods(writeFile(dir, "pods.csv", csv), engine::PodSplit::Qos, &error));
    CHECK(page.input().names == QStringList{"BE", "LS"});
    CHECK(page.input().startEpochSeconds == 0);
    CHECK(child<QTableWidget>(page, "forecastPrimitives")->rowCount() == 2);
    CHECK(page.importReport().contains("40 pods with GPUs counted"));

    const QString bad = writeFile(dir, "badpods.csv",
                                  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                                  "deletion_time,scheduled_time\npod-0,4000,8192,1,1000,,LS,Running,0,,0\n");
    CHECK_FALSE(page.importPods(bad, engine::PodSplit::Qos, &error));
    CHECK(error.contains("line 2"));
    CHECK(page.input().names == QStringList{"BE", "LS"});
}

TEST_CASE("The Alibaba pod trace imports by QoS class as several primitives")
{
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const QString path = HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_pod_list_default.csv";
    if (!QFileInfo::exists(path)) {
        WARN("Alibaba GPU trace not found beside the repository; skipped");
        return;
    }
    TempWorkspace ws;
    QUndoStack undo;
    ui::ForecastPage page(*ws, &undo);
    QString error;
    REQUIRE(page.importPods(path, engine::PodSplit::Qos, &error));
    CHECK(page.input().names.size() >= 2);
    CHECK(page.input().names.contains("LS"));
    CHECK(page.input().names.contains("BE"));
    CHECK(page.input().series.front().size() > 24);
    // The default pod list asks for no particular GPU model: one primitive, "any".
    REQUIRE(page.importPods(path, engine::PodSplit::GpuModel, &error));
    CHECK(page.input().names == QStringList{"any"});
}

TEST_CASE("A forecast chart in the report stays current while its demand series is unchanged, and says when it changed")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::ForecastPage page(*ws, &undo);
    engine::DemandSeries history;
    history.name = "history";
    history.startEpochSeconds = 1'767'225'600; // 2026-01-01
    for (int hour = 0; hour < 240; ++hour)
        history.gpus.push_back(engine::Decimal::fromInt(20 + 10 * ((hour % 24) >= 9 && (hour % 24) < 18) + hour % 3));
    (*ws).putDemandSeries(history);
    QString error;
    REQUIRE(page.importWorkspaceSeries("history", &error));
    quickSettings(page);
    REQUIRE(fitAndWait(page));
    const ui::ChartFigure fan = page.chartPanels().first()->figure();
    CHECK(fan.source.value("kind").toString() == "forecast");
    CHECK(fan.source.value("reads").toObject().contains("series:history"));
    const store::ReportItem chart = ui::reportItemFromFigure(fan);
    const auto shown = page.currentTable();
    REQUIRE(shown);
    const store::ReportItem table = ui::reportItemFromTable("Forecast: results", {}, *shown, page.currentTableSource());
    QString problem;
    // Another series added is nothing the fit read.
    engine::DemandSeries other = history;
    other.name = "other";
    (*ws).putDemandSeries(other);
    for (const store::ReportItem &item : {chart, table}) {
        const auto drawn = ui::redrawReportItem(*ws, item, &problem);
        INFO(problem.toStdString());
        REQUIRE(drawn);
        CHECK(drawn->content == item.content);
    }
    // The history itself edited: both are snapshots that say so.
    history.gpus[5] = engine::Decimal::fromInt(99);
    (*ws).putDemandSeries(history);
    for (const store::ReportItem &item : {chart, table}) {
        CHECK_FALSE(ui::redrawReportItem(*ws, item, &problem));
        CHECK(problem == "demand series \"history\" changed since the run; run it again");
    }
}
