#include "common/uitestsupport.h"

#include "cli/common/format.h"
#include "engine/serving/serving_sim.h"
#include "engine/inference/inference_sizing.h"
#include "engine/serving/trace.h"
#include "ui/common/dialogs.h"
#include "ui/common/chartexport.h"
#include "ui/common/chartpanel.h"
#include "ui/common/paintedfigureview.h"
#include "ui/serving/servingsimcharts.h"
#include "ui/serving/servingsimpage.h"
#include "ui/report/reportsnapshot.h"
#include "store/common/workspace.h"

#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QLineSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QPushButton>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

const char kMooncake[] = HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl";

bool runAndWait(ui::ServingSimPage &page)
{
    QSignalSpy finished(&page, &ui::ServingSimPage::finished);
    if (!page.run())
        return false;
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 120000));
    return finished.first().first().toBool();
}

QString percentText(double share)
{
    return cli::formatDecimal(share * 100, 1, true) + QStringLiteral(" %");
}

// A small page: the first 150 requests of the Mooncake trace on 4 replicas.
void setUpSmall(ui::ServingSimPage &page)
{
    page.setTrace(kMooncake);
    page.setRequestLimit(150);
    page.setReplicas(4);
}

engine::WorkloadProfile chat(const std::string &model)
{
    engine::WorkloadProfile w;
    w.name = "chat";
    w.modelId = model;
    w.gpuId = "a100-sxm-80gb";
    w.tp = 2;
    w.dailyActiveUsers = 50000;
    w.requestsPerUserPerDay = 10;
    w.diurnal = engine::diurnalShape(engine::DiurnalPreset::EveningPeak);
    w.promptTokens = {1500, 6000};
    w.outputTokens = {300, 1000};
    w.prefixHitRate = 0.05;
    return w;
}

} // namespace

TEST_CASE("Use in sizing writes the simulated hit rate and goodput into the workload, undoably")
{
    TempWorkspace ws;
    (*ws).putWorkload(chat("llama-3.1-8b"));
    QUndoStack undo;
    ui::ServingSimPage page(*ws, &undo);
    ui::Dialogs::setScripted(true);
    ui::Dialogs::takeShownMessages();
    auto *use = page.findChild<QPushButton *>("simUseInSizing");
    REQUIRE(use);
    CHECK_FALSE(use->isEnabled()); // nothing simulated yet
    QString error;
    CHECK_FALSE(page.simulatedWorkload("chat", &error).has_value());
    CHECK(error.contains("run the simulation first"));

    setUpSmall(page);
    REQUIRE(runAndWait(page));
    CHECK(use->isEnabled());
    const auto &r = *page.results();
    const int kv = ui::ServingSimPage::routerIndex(engine::RouterKind::KvAware);
    REQUIRE(r.replicasNeeded[size_t(kv)].has_value());

    // No at the question: nothing written.
    ui::Dialogs::queueQuestionAnswer(false);
    CHECK_FALSE(page.useInSizing("chat"));
    CHECK((*ws).workload("chat")->prefixHitRate == 0.05);
    CHECK(undo.count() == 0);

    ui::Dialogs::queueQuestionAnswer(true);
    REQUIRE(page.useInSizing("chat"));
    const engine::WorkloadProfile written = *(*ws).workload("chat");
    CHECK(written.prefixHitRate == r.runs[size_t(kv)].hitRateTokens);
    // Goodput per replica: the trace's output tokens per second over the replicas that hold it.
    const std::vector<engine::TraceRequest> trace = page.readTrace();
    double output = 0;
    for (const auto &q : trace)
        output += double(q.outputTokens);
    const double span = trace.back().timestampS - trace.front().timestampS;
    REQUIRE(written.measuredGoodputTokensPerS.has_value());
    CHECK(*written.measuredGoodputTokensPerS == Approx(output / span / *r.replicasNeeded[size_t(kv)]));
    CHECK(written.goodputSource.find("serving simulation of conversation_trace.jsonl") != std::string::npos);
    CHECK(written.gpuId == "h100-sxm");
    CHECK(written.tp == 1);
    // Inference sizing now uses it and says where it came from.
    const engine::SizingResult sized = engine::sizeInference(written, *(*ws).model("llama-3.1-8b"),
                                                             *(*ws).gpu("h100-sxm"), {}, (*ws).servingAssumptions());
    CHECK(sized.goodputSource == "simulated");
    CHECK(sized.goodputTokensPerS == *written.measuredGoodputTokensPerS);
    CHECK(undo.count() == 1);
    undo.undo();
    CHECK((*ws).workload("chat")->prefixHitRate == 0.05);
    CHECK_FALSE((*ws).workload("chat")->measuredGoodputTokensPerS.has_value());
    CHECK((*ws).workload("chat")->gpuId == "a100-sxm-80gb");
    undo.redo();
    CHECK((*ws).workload("chat")->goodputSource == written.goodputSource);

    // Another model's workload is refused, naming both models; nothing changes.
    (*ws).putWorkload([] {
        engine::WorkloadProfile w = chat("llama-3.1-70b");
        w.name = "big";
        return w;
    }());
    CHECK_FALSE(page.useInSizing("big"));
    const QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE_FALSE(shown.isEmpty());
    CHECK(shown.last().contains("serves llama-3.1-70b, the simulation ran llama-3.1-8b"));
    CHECK((*ws).workload("big")->prefixHitRate == 0.05);
    CHECK(undo.count() == 1);
    ui::Dialogs::setScripted(false);
}

TEST_CASE("The replica can be taken from a workload, and Use in Sizing then names a workload of the model simulated")
{
    TempWorkspace ws;
    (*ws).putWorkload(chat("llama-3.1-8b"));  // "chat": 8B on A100 80GB, TP 2
    engine::WorkloadProfile big = chat("llama-3.1-70b");
    big.name = "big";
    big.gpuId = "h200";
    big.tp = 4;
    big.weights = engine::WeightPrecision::Fp8;
    big.kv = engine::KvPrecision::Fp8;
    (*ws).putWorkload(big);
    QUndoStack undo;
    ui::ServingSimPage page(*ws, &undo);
    auto *from = page.findChild<QComboBox *>("simFromWorkload");
    auto *model = page.findChild<QComboBox *>("simModel");
    auto *gpu = page.findChild<QComboBox *>("simGpu");
    auto *weights = page.findChild<QComboBox *>("simWeights");
    auto *kvPrecision = page.findChild<QComboBox *>("simKvPrecision");
    auto *tp = page.findChild<QSpinBox *>("simTp");
    auto *use = page.findChild<QComboBox *>("simUseWorkload");
    REQUIRE((from && model && gpu && weights && kvPrecision && tp && use));
    CHECK(from->currentData().toString().isEmpty());  // by hand until a workload is chosen
    use->setCurrentIndex(use->findText("chat"));

    // Choosing "big" fills the replica as the workload has it, and Use in Sizing follows.
    from->setCurrentIndex(from->findData(QStringLiteral("big")));
    emit from->activated(from->currentIndex());
    CHECK(model->currentData().toString() == "llama-3.1-70b");
    CHECK(gpu->currentData().toString() == "h200");
    CHECK(weights->currentData().toInt() == int(engine::WeightPrecision::Fp8));
    CHECK(kvPrecision->currentData().toInt() == int(engine::KvPrecision::Fp8));
    CHECK(tp->value() == 4);
    CHECK(use->currentText() == "big");
    CHECK(from->currentData().toString() == "big");
    // An edit by hand: the replica is no longer the workload's.
    tp->setValue(8);
    CHECK(from->currentData().toString().isEmpty());

    // A 70B run with "chat" (8B) picked for Use in Sizing: after the run it names the 70B workload.
    tp->setValue(4);
    use->setCurrentIndex(use->findText("chat"));
    setUpSmall(page);
    page.setRequestLimit(40);
    REQUIRE(runAndWait(page));
    REQUIRE(page.results()->modelId == "llama-3.1-70b");
    CHECK(use->currentText() == "big");
}

TEST_CASE("The serving simulation page runs every router off the GUI thread and shows the engine's numbers")
{
    TempWorkspace ws;
    ui::ServingSimPage page(*ws, nullptr);
    setUpSmall(page);
    REQUIRE(runAndWait(page));
    REQUIRE(page.results().has_value());
    const auto &r = *page.results();

    // The same trace and configuration straight through the engine.
    const std::vector<engine::TraceRequest> trace = page.readTrace();
    REQUIRE(trace.size() == 150);
    auto *table = page.findChild<QTableWidget *>("simResults");
    REQUIRE(table);
    REQUIRE(table->rowCount() == ui::ServingSimPage::kRouters + 1);
    double hit[ui::ServingSimPage::kRouters] = {};
    for (int i = 0; i < ui::ServingSimPage::kRouters; ++i) {
        const engine::RouterKind router = ui::ServingSimPage::routerAt(i);
        QString error;
        const auto config = page.configFor(router, &error);
        REQUIRE(config.has_value());
        CHECK(config->replicas == 4);
        CHECK(config->stepModel.has_value());
        const engine::ServingSimResult direct = engine::simulateServing(trace, *config);
        const engine::ServingSimResult &shown = r.runs[i];
        CHECK(shown.requests == 150);
        CHECK(shown.hitRateTokens == Approx(direct.hitRateTokens));
        CHECK(shown.hitRateBlocks == Approx(direct.hitRateBlocks));
        CHECK(shown.ttftMs.p95 == Approx(direct.ttftMs.p95));
        REQUIRE(direct.sloAttainment.has_value());
        CHECK(*shown.sloAttainment == Approx(*direct.sloAttainment));
        hit[i] = direct.hitRateTokens;
        CHECK(table->item(i, 1)->text() == percentText(direct.hitRateBlocks));
        CHECK(table->item(i, 2)->text() == percentText(direct.hitRateTokens));
        CHECK(table->item(i, 9)->text() == percentText(*direct.sloAttainment));
        // The replica search agrees with the engine's.
        const auto needed = engine::findReplicas(trace, *config, r.target, r.maxReplicasSearched);
        CHECK(r.replicasNeeded[i] == needed);
        CHECK(table->item(i, 13)->text() == (needed ? QString::number(*needed) : QStringLiteral("over %1").arg(r.maxReplicasSearched)));
    }
    // The bound is the trace's own infinite-cache hit rate (512-token blocks).
    const engine::TraceStats stats = engine::analyseTrace(trace);
    REQUIRE(stats.prefixHitRate.has_value());
    CHECK(r.infiniteHitRateBlocks == Approx(*stats.prefixHitRate).margin(1e-12));
    for (double h : hit)
        CHECK(h <= r.infiniteHitRateTokens + 1e-12);

    const QString words = page.explanation();
    const int kv = ui::ServingSimPage::routerIndex(engine::RouterKind::KvAware);
    const int rr = ui::ServingSimPage::routerIndex(engine::RouterKind::RoundRobin);
    CHECK(words.contains(QStringLiteral("the KV-aware router keeps %1 of prompt tokens cached against %2 for round-robin")
                             .arg(percentText(hit[kv]), percentText(hit[rr]))));
    CHECK(words.contains(percentText(r.infiniteHitRateTokens)));

    // Hit rate vs cache: a line per router over the sweep and the bound, flat and dashed.
    QChart *chart = page.chartPanels().at(0)->chart();
    REQUIRE(chart);
    int routerLines = 0;
    bool bound = false;
    for (QAbstractSeries *s : chart->series()) {
        auto *line = qobject_cast<QLineSeries *>(s);
        if (!line)
            continue;
        if (line->name().startsWith("infinite cache")) {
            bound = true;
            CHECK(line->pen().style() == Qt::DashLine);
            CHECK(line->at(0).y() == Approx(r.infiniteHitRateTokens * 100));
        } else if (line->name() == "KV-aware" || line->name() == "round-robin" || line->name() == "least-loaded") {
            ++routerLines;
            CHECK(size_t(line->count()) == r.cacheSweep.size());
        }
    }
    CHECK(routerLines == 3);
    CHECK(bound);
    CHECK(r.cacheSweep.size() >= 3);
    // A cache holding the whole trace on every replica reaches the bound with the KV router
    // when it keeps each prefix on one replica... at least it never falls with more cache.
    for (size_t i = 1; i < r.cacheSweep.size(); ++i)
        CHECK(r.cacheSweep[i].kvBlocks > r.cacheSweep[i - 1].kvBlocks);
    // TTFT and attainment vs replicas: the fleet as set is one of the sweep's points.
    bool asSet = false;
    for (const auto &p : r.replicaSweep)
        if (p.replicas == 4) {
            asSet = true;
            CHECK(p.ttftP95Ms[kv] == Approx(r.runs[kv].ttftMs.p95));
        }
    CHECK(asSet);
    // The heat strip holds a row per replica.
    CHECK(r.runs[kv].inFlight.size() == 4);
}

TEST_CASE("Bad serving simulation input is refused with a clear message and changes nothing")
{
    TempWorkspace ws;
    ui::ServingSimPage page(*ws, nullptr);
    QTemporaryDir dir;

    SECTION("a trace file that does not exist")
    {
        page.setTrace(dir.filePath("missing.jsonl"));
        CHECK_FALSE(runAndWait(page));
        CHECK(page.statusText().contains("does not exist"));
        CHECK_FALSE(page.results().has_value());
    }
    SECTION("a malformed trace line")
    {
        QFile file(dir.filePath("bad.jsonl"));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("{\"timestamp\": 0, \"input_length\": 100, \"output_length\": 10}\n"
                   "{\"timestamp\": 5, \"input_length\": \"many\", \"output_length\": 10}\n");
        file.close();
        page.setTrace(file.fileName());
        CHECK_FALSE(runAndWait(page));
        CHECK(page.statusText().contains("line 2"));
        CHECK_FALSE(page.results().has_value());
    }
    SECTION("a model whose weights leave no KV pool on the GPU")
    {
        setUpSmall(page);
        auto *model = page.findChild<QComboBox *>("simModel");
        const int index = model->findData(QStringLiteral("llama-3.1-405b"));
        REQUIRE(index >= 0);
        model->setCurrentIndex(index);
        QString error;
        CHECK_FALSE(page.configFor(engine::RouterKind::KvAware, &error).has_value());
        CHECK(error.contains("memory: the weights leave no KV pool"));
        CHECK_FALSE(runAndWait(page));
        CHECK(page.statusText().contains("Not run"));
        CHECK_FALSE(page.results().has_value());
    }
    SECTION("a failed run after a good one keeps the good results")
    {
        setUpSmall(page);
        REQUIRE(runAndWait(page));
        const double before = page.results()->runs[2].hitRateTokens;
        const QString words = page.explanation();
        page.setTrace(dir.filePath("missing.jsonl"));
        CHECK_FALSE(runAndWait(page));
        REQUIRE(page.results().has_value());
        CHECK(page.results()->runs[2].hitRateTokens == before);
        CHECK(page.explanation() == words);
    }
}

TEST_CASE("Cancel stops a serving simulation and keeps the previous results")
{
    TempWorkspace ws;
    ui::ServingSimPage page(*ws, nullptr);
    page.setTrace(kMooncake);
    QSignalSpy finished(&page, &ui::ServingSimPage::finished);
    REQUIRE(page.run());
    REQUIRE(page.isRunning());
    page.cancel();
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 120000));
    CHECK_FALSE(finished.first().first().toBool());
    CHECK(page.statusText().contains("Cancelled"));
    CHECK_FALSE(page.results().has_value());
}

TEST_CASE("The serving simulation charts and heat strip export")
{
    TempWorkspace ws;
    ui::ServingSimPage page(*ws, nullptr);
    setUpSmall(page);
    REQUIRE(runAndWait(page));
    QTemporaryDir dir;
    int n = 0;
    std::vector<ui::ChartFigure> figures;
    for (ui::ChartPanel *panel : page.chartPanels())
        figures.push_back(panel->figure());
    auto *strip = page.findChild<ui::PaintedFigureView *>("simHeatStrip");
    REQUIRE(strip);
    REQUIRE(strip->figure().paint);
    figures.push_back(strip->figure());
    CHECK(figures.size() == 4);
    for (const ui::ChartFigure &figure : figures) {
        for (const char *format : {"png", "svg", "pdf"}) {
            const QString path = dir.filePath(QStringLiteral("figure%1.%2").arg(n).arg(QLatin1String(format)));
            QString error;
            REQUIRE(ui::exportFigure(figure, path, &error));
            CHECK(QFileInfo(path).size() > 1000);
        }
        const QImage image(dir.filePath(QStringLiteral("figure%1.png").arg(n)));
        CHECK(image.width() > 0);
        ++n;
    }
    // The heat strip is not blank: some cell is shaded darker than the background.
    const QImage image(dir.filePath(QStringLiteral("figure3.png")));
    bool dark = false;
    for (int y = 0; y < image.height() && !dark; y += 4)
        for (int x = 0; x < image.width() && !dark; x += 4)
            dark = qBlue(image.pixel(x, y)) > 80 && qRed(image.pixel(x, y)) < 40;
    CHECK(dark);
}

TEST_CASE("The serving simulation page times iterations from a step-time table when one is given")
{
    TempWorkspace ws;
    ui::ServingSimPage page(*ws, nullptr);
    setUpSmall(page);
    QString error;
    const auto roofline = page.configFor(engine::RouterKind::KvAware, &error);
    REQUIRE(roofline.has_value());
    CHECK(roofline->stepModel.has_value());
    CHECK_FALSE(roofline->stepTable.has_value());

    auto *field = page.findChild<QLineEdit *>("simStepTimes");
    REQUIRE(field);
    REQUIRE(page.findChild<QPushButton *>("simStepTimesBrowse"));

    SECTION("a good table")
    {
        page.setStepTimes(QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/step-times-llama-3.1-8b-h100.csv"));
        CHECK(field->text().endsWith("step-times-llama-3.1-8b-h100.csv"));
        const auto config = page.configFor(engine::RouterKind::KvAware, &error);
        REQUIRE(config.has_value());
        REQUIRE(config->stepTable.has_value());
        CHECK_FALSE(config->stepModel.has_value());
        CHECK(config->stepTable->decode.size() == 30);
        // The model and GPU still size the pool.
        CHECK(config->kvBlocksPerReplica == roofline->kvBlocksPerReplica);
        REQUIRE(runAndWait(page));
        const auto &r = *page.results();
        const engine::ServingSimResult &kv = r.runs[ui::ServingSimPage::routerIndex(engine::RouterKind::KvAware)];
        CHECK(kv.stepModel == engine::StepModelKind::Table);
        const engine::ServingSimResult direct = engine::simulateServing(page.readTrace(), *config);
        CHECK(kv.ttftMs.p95 == Approx(direct.ttftMs.p95));
        CHECK(kv.itlMs.p50 == Approx(direct.itlMs.p50));
        CHECK(page.statusText().contains("step times from the measured table"));
        CHECK(r.setup.contains("step times from the table step-times-llama-3.1-8b-h100.csv"));
    }
    SECTION("a bad table is refused naming the line")
    {
        QTemporaryDir dir;
        QFile file(dir.filePath("steps.csv"));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("phase,batch,context_tokens,prefill_tokens,ms\ndecode,1,0,,7\nprefill,,,512,-1\n");
        file.close();
        page.setStepTimes(file.fileName());
        CHECK_FALSE(page.configFor(engine::RouterKind::KvAware, &error).has_value());
        CHECK(error.contains("Step times:"));
        CHECK(error.contains("line 3: field \"ms\""));
        CHECK_FALSE(runAndWait(page));
        CHECK(page.statusText().contains("Not run"));
        CHECK_FALSE(page.results().has_value());
    }
}

TEST_CASE("A serving simulation chart in the report stays current until its model, GPU or serving assumptions change")
{
    TempWorkspace ws;
    ui::ServingSimPage page(*ws, nullptr);
    setUpSmall(page);
    REQUIRE(runAndWait(page));
    std::vector<store::ReportItem> items;
    for (ui::ChartPanel *panel : page.chartPanels()) {
        CHECK(panel->figure().source.value("kind").toString() == "serving-simulation");
        items.push_back(ui::reportItemFromFigure(panel->figure()));
    }
    const auto table = page.currentTable();
    REQUIRE(table);
    items.push_back(ui::reportItemFromTable("Serving simulation", {}, *table, page.currentTableSource()));
    QString problem;
    // A workload added is nothing the run read: every item is still what a new run would draw.
    (*ws).putWorkload(chat("llama-3.1-8b"));
    for (const store::ReportItem &item : items) {
        const auto drawn = ui::redrawReportItem(*ws, item, &problem);
        INFO(problem.toStdString());
        REQUIRE(drawn);
        CHECK(drawn->content == item.content);
    }
    // The serving assumptions it simulated with changed: a snapshot, saying so.
    engine::ServingAssumptions serving = (*ws).servingAssumptions();
    serving.memoryUtilization = 0.8;
    (*ws).setServingAssumptions(serving);
    for (const store::ReportItem &item : items) {
        CHECK_FALSE(ui::redrawReportItem(*ws, item, &problem));
        CHECK(problem == "the serving assumptions changed since the run; run it again");
    }
}
