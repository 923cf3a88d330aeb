// Calibrate… on real widgets: opened from the Serving simulation page with its deployment, a
// step-time table 20 % slower than the profile fitted back within 5 % off the GUI thread, the
// points in the table and on the chart, Save for this deployment as an undoable catalog edit, and a
// bad benchmark result refused with the file and field named and nothing saved.
#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/serving/calibrationdialog.h"
#include "ui/serving/servingsimpage.h"

#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <limits>

using namespace headroom;

namespace {

const char kSample[] = HEADROOM_SOURCE_DIR "/data/samples/step-times-llama-3.1-8b-h100.csv";

// The sample's passes with every time × factor, written into `dir`.
QString scaledStepTimes(const QTemporaryDir &dir, double factor)
{
    QFile in(QString::fromUtf8(kSample));
    REQUIRE(in.open(QIODevice::ReadOnly));
    QByteArray out;
    bool header = true;
    for (const QByteArray &line : in.readAll().split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        if (header) {
            out += line + '\n';
            header = false;
            continue;
        }
        QList<QByteArray> fields = line.split(',');
        fields.last() = QByteArray::number(fields.last().toDouble() * factor, 'g', 10);
        out += fields.join(',') + '\n';
    }
    const QString path = dir.filePath(QStringLiteral("slow.csv"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(out);
    return path;
}

void fitAndWait(ui::CalibrationDialog &dialog)
{
    QSignalSpy finished(&dialog, &ui::CalibrationDialog::fitFinished);
    REQUIRE(dialog.fit());
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
}

} // namespace

TEST_CASE("Calibrate fits slow passes, shows them measured against predicted and saves the deployment's profile undoably")
{
    TempWorkspace ws;
    QUndoStack undo;
    QTemporaryDir dir;
    ui::ServingSimPage page(*ws, &undo);
    page.setStepTimes(scaledStepTimes(dir, 1.2));
    ui::CalibrationDialog *dialog = page.openCalibration();
    REQUIRE(dialog);
    fitAndWait(*dialog);
    REQUIRE(dialog->result());
    CHECK(dialog->result()->maxAbsErrorPct < 5.0);
    CHECK(dialog->result()->priorMeanAbsErrorPct > 15.0);
    CHECK(dialog->status().contains(QStringLiteral("llama-3.1-8b on h100-sxm, TP 1")));

    auto *points = dialog->findChild<QTableWidget *>(QStringLiteral("calPoints"));
    REQUIRE(points);
    CHECK(points->rowCount() == 33);
    CHECK(points->item(0, 1)->text() == QStringLiteral("pass"));
    QChart *chart = dialog->chartPanel()->chart();
    REQUIRE(chart);
    int scattered = 0;
    for (QAbstractSeries *series : chart->series())
        if (auto *scatter = qobject_cast<QScatterSeries *>(series))
            scattered += int(scatter->count());
    CHECK(scattered == 66); // fitted and prior, every point

    const auto before = (*ws).gpu(QStringLiteral("h100-sxm"));
    REQUIRE(before);
    REQUIRE(dialog->save());
    const auto after = (*ws).gpu(QStringLiteral("h100-sxm"));
    CHECK(after->efficiency == before->efficiency); // the GPU's own profile stays for other deployments
    const engine::GpuEfficiency *fitted = after->profileFor("llama-3.1-8b", 1, engine::WeightPrecision::Bf16);
    REQUIRE(fitted);
    CHECK(fitted->source.rfind("calibrated for llama-3.1-8b on h100-sxm", 0) == 0);
    CHECK(fitted->bandwidth == Approx(dialog->result()->efficiency.bandwidth));
    CHECK(after->profileFor("llama-3.1-70b", 1, engine::WeightPrecision::Bf16) == &*after->efficiency);
    CHECK(after->profileFor("llama-3.1-8b", 2, engine::WeightPrecision::Bf16) == &*after->efficiency);
    CHECK(dialog->status().contains(QStringLiteral("Saved as the calibrated profile of llama-3.1-8b on h100-sxm, TP 1")));
    undo.undo();
    CHECK((*ws).gpu(QStringLiteral("h100-sxm"))->calibrations.empty());
    CHECK((*ws).gpu(QStringLiteral("h100-sxm"))->efficiency == before->efficiency);
    dialog->close();
}

TEST_CASE("Calibrate refuses a bad benchmark result naming the file and field, and saves nothing")
{
    TempWorkspace ws;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(R"({"completed": 10, "total_input_tokens": 1000, "total_output_tokens": 100, "request_rate": "fast", "mean_ttft_ms": 50})");
    file.close();
    ui::CalibrationDialog dialog(*ws, nullptr);
    dialog.addBenchResult(path);
    CHECK_FALSE(dialog.fit());
    CHECK(dialog.status().contains(QStringLiteral("broken.json: field \"request_rate\"")));
    CHECK_FALSE(dialog.result());
    CHECK_FALSE(dialog.save());

    ui::CalibrationDialog empty(*ws, nullptr);
    CHECK_FALSE(empty.fit());
    CHECK(empty.status().contains(QStringLiteral("Give measurements")));
}

TEST_CASE("Calibrate fits the Tracking page's served hours: their median TTFT and E2E against the replay")
{
    TempWorkspace ws;
    {
        ui::CalibrationDialog none(*ws, nullptr);
        auto *combo = none.findChild<QComboBox *>(QStringLiteral("calServedHours"));
        REQUIRE(combo);
        CHECK_FALSE(combo->isEnabled()); // no metrics imported yet
        CHECK_FALSE(none.setServedHours(QStringLiteral("chat")));
    }
    // One replica-hour: 1,800 requests of 1,000 + 150 tokens, medians 60 ms TTFT, 1.45 s E2E.
    engine::ServingHour h;
    h.deployment = "chat";
    h.instance = "vllm-0";
    h.hour = 492350; // 2026-03-02 14:00 UTC
    h.requests = {1800, 3540};
    h.promptTokens = {1800.0 * 1000, 3540};
    h.generationTokens = {1800.0 * 150, 3540};
    const double inf = std::numeric_limits<double>::infinity();
    h.ttft.buckets = {{0.048, 450}, {0.060, 900}, {0.075, 1350}, {inf, 1800}};
    h.e2e.buckets = {{1.16, 450}, {1.45, 900}, {1.8125, 1350}, {inf, 1800}};
    engine::ServingHours hours;
    hours.hours = {h};
    (*ws).importServingMetrics(QStringLiteral("metrics.csv"), 40, 0, hours);

    ui::CalibrationDialog dialog(*ws, nullptr);
    dialog.setDeployment(QStringLiteral("llama-3.1-8b"), QStringLiteral("h100-sxm"), engine::WeightPrecision::Bf16,
                         engine::KvPrecision::Bf16, 1);
    REQUIRE(dialog.setServedHours(QStringLiteral("chat")));
    fitAndWait(dialog);
    REQUIRE(dialog.result());
    const auto &points = dialog.result()->points;
    REQUIRE(points.size() == 2);
    CHECK(points[0].label == "vllm-0 2026-03-02 14:00");
    CHECK(points[0].metric == "ttft p50");
    CHECK(points[0].measuredMs == Approx(60.0));
    CHECK(points[1].measuredMs == Approx(1450.0));
    CHECK(dialog.result()->maxAbsErrorPct < 5.0);
    CHECK(dialog.result()->priorMeanAbsErrorPct > 5.0);
    auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("calPoints"));
    REQUIRE(table);
    CHECK(table->rowCount() == 2);
}
