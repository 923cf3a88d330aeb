#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/common/chartlabels.h"
#include "ui/common/dialogs.h"
#include "ui/inference/kvchart.h"
#include "ui/inference/kvpage.h"
#include "ui/inference/servingassumptionsdialog.h"
#include "ui/report/reportsnapshot.h"

#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QTemporaryDir>
#include <QLineEdit>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace headroom;
using ui::KvPage;

namespace {

QList<QLineSeries *> variantSeries(QChart *chart)
{
    QList<QLineSeries *> out;
    for (QAbstractSeries *s : chart->series())
        if (auto *line = qobject_cast<QLineSeries *>(s); line && line->pen().style() != Qt::DashLine) // not a marker
            out << line;
    return out;
}

bool drewInk(QWidget *widget)
{
    const QImage image = widget->grab().toImage();
    const QRgb background = image.pixel(2, 2);
    int differing = 0;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            differing += image.pixel(x, y) != background;
    return differing > 200;
}

} // namespace

TEST_CASE("KV page starts with 8B model variants on H100 and H200, BF16 and FP8")
{
    TempWorkspace ws;
    KvPage page(*ws);
    const auto variants = page.variants();
    REQUIRE(variants.size() == 4);
    CHECK(variants[0].modelId == "llama-3.1-8b");
    CHECK(variants[0].gpuId == "h100-sxm");
    CHECK(variants[1].gpuId == "h200");
    CHECK(variants[2].weights == engine::WeightPrecision::Fp8);
    REQUIRE(page.outcomes().size() == 4);
    for (const auto &o : page.outcomes()) {
        CHECK(o.error.isEmpty());
        CHECK(o.result.fits);
    }
    // Llama 3.1 8B: 32 layers × 8 KV heads × 128 × 2 × 2 bytes = 128 KiB per token in BF16.
    CHECK(page.outcomes()[0].result.kvBytesPerToken == 131072);
    CHECK(page.outcomes()[2].result.kvBytesPerToken == 65536);
}

TEST_CASE("KV chart has one line per variant over a log context axis from 1K to the max context")
{
    TempWorkspace ws;
    KvPage page(*ws);
    page.resize(1400, 900);
    QChart *chart = page.chartPanels().first()->chart();
    REQUIRE(chart);
    const auto lines = variantSeries(chart);
    REQUIRE(lines.size() == 4);
    for (QLineSeries *line : lines) {
        REQUIRE(line->count() == KvPage::kCurvePoints);
        CHECK(line->at(0).x() == 1024);
        CHECK(line->at(line->count() - 1).x() == 131072);
        for (int i = 1; i < line->count(); ++i)
            CHECK(line->at(i).y() <= line->at(i - 1).y());
    }
    auto *x = qobject_cast<QLogValueAxis *>(chart->axes(Qt::Horizontal).value(0));
    REQUIRE(x);
    CHECK(x->titleText().contains("tokens"));
    CHECK(x->min() == 1024);
    auto *y = qobject_cast<QLogValueAxis *>(chart->axes(Qt::Vertical).value(0));
    REQUIRE(y);
    CHECK(y->titleText().contains("Streams"));
    CHECK(y->min() == 1);
    CHECK(y->max() >= lines.first()->at(0).y());
    // what all variants share (the model) moves from the legend into the title
    CHECK(page.chartPanels().first()->figure().title == "Concurrent streams vs context length — Llama 3.1 8B");
    CHECK(chart->title() == "<center>Concurrent streams vs context length<br>Llama 3.1 8B</center>");
    // and the legend cuts the rest to what tells the lines apart; the table keeps it whole
    CHECK(lines.first()->name() == "H100 · BF16");
    CHECK(page.outcomes().front().shortLabel == "H100 SXM5 80GB · BF16/BF16");
    // marker lines at the chosen contexts are drawn but kept out of the legend; their labels
    // are placed by the chart's label layer
    CHECK(chart->series().size() == 4 + 3);
    const ui::ChartLabels *markers = ui::ChartLabels::find(chart);
    REQUIRE(markers);
    CHECK(markers->requests().size() == 3);
    page.show();
    CHECK(drewInk(page.chartPanels().first()));
}

TEST_CASE("Changing the weight precision recomputes and changes the chart's series")
{
    TempWorkspace ws;
    KvPage page(*ws);
    QSignalSpy recomputed(&page, &KvPage::recomputed);
    QChart *before = page.chartPanels().first()->chart();
    const double streamsBefore = variantSeries(before).first()->at(0).y();
    const QString nameBefore = variantSeries(before).first()->name();

    auto *table = page.findChild<QTableWidget *>("kvVariants");
    REQUIRE(table);
    auto *weights = qobject_cast<QComboBox *>(table->cellWidget(0, 2));
    REQUIRE(weights);
    weights->setCurrentIndex(weights->findText("FP8"));

    CHECK(recomputed.count() == 1);
    QChart *after = page.chartPanels().first()->chart();
    const auto lines = variantSeries(after);
    REQUIRE(lines.size() == 4);
    CHECK(lines.first()->name() != nameBefore);
    CHECK(lines.first()->name().contains("FP8/BF16"));
    // FP8 weights free about 7.5 GiB of an H100 for KV: more streams at every context.
    CHECK(lines.first()->at(0).y() > streamsBefore);
    CHECK(page.outcomes()[0].result.weightsBytes * 2 ==
          Approx(double(page.outcomes()[1].result.weightsBytes)).epsilon(0.0001));
}

TEST_CASE("The workspace's serving assumptions drive the page, and marked contexts recompute at once")
{
    TempWorkspace ws;
    KvPage page(*ws);
    const int64_t poolBefore = page.outcomes()[0].result.poolBytes;
    auto *summary = page.findChild<QLabel *>("kvServingSummary");
    REQUIRE(summary);
    CHECK(summary->text().contains("Memory utilization 0.90"));
    CHECK(summary->text().contains("reserve 2.0 GiB"));
    // 80 GiB H100 at 0.9, minus 2 GiB reserve and 8.03 B BF16 weights: the default pool.
    engine::ServingAssumptions a = (*ws).servingAssumptions();
    a.memoryUtilization = 0.5;
    a.blockSize = 32;
    (*ws).setServingAssumptions(a);
    CHECK(page.outcomes()[0].result.poolBytes < poolBefore);
    CHECK(page.outcomes()[0].result.blockSize == 32);
    CHECK(summary->text().contains("Memory utilization 0.50"));
    CHECK(summary->text().contains("block 32 tokens"));

    auto *contexts = page.findChild<QLineEdit *>("kvContexts");
    REQUIRE(contexts);
    contexts->clear();
    QTest::keyClicks(contexts, "8192, 16K");
    REQUIRE(page.markedContexts() == std::vector<int64_t>{8192, 16384});
    REQUIRE(page.outcomes()[0].result.streams.size() == 2);
    CHECK(page.outcomes()[0].result.streams[1].context == 16384);
    auto *results = page.findChild<QTableWidget *>("kvResults");
    REQUIRE(results);
    CHECK(results->columnCount() == 5 + 2);
    CHECK(results->horizontalHeaderItem(4)->text() == "Blocks\n(32 tokens)");
    CHECK(results->horizontalHeaderItem(6)->text() == "Streams @\n16,384 tokens");
}

TEST_CASE("Reserve from vLLM's profile: the pool, the explanation and the caption name the activation peak and "
          "non-torch memory, as one undoable change")
{
    TempWorkspace ws;
    QUndoStack undo;
    KvPage page(*ws, &undo);
    const int64_t flatPool = page.outcomes()[0].result.poolBytes;
    CHECK_FALSE(page.outcomes()[0].reserve.profile);

    ui::ServingAssumptionsDialog dialog((*ws).servingAssumptions());
    auto *mode = dialog.findChild<QComboBox *>("servingReserveMode");
    auto *reserve = dialog.findChild<QDoubleSpinBox *>("servingReserve");
    auto *tokens = dialog.findChild<QSpinBox *>("servingBatchedTokens");
    auto *seqs = dialog.findChild<QSpinBox *>("servingNumSeqs");
    REQUIRE(mode);
    REQUIRE(reserve);
    REQUIRE(tokens);
    REQUIRE(seqs);
    CHECK(reserve->isEnabled());
    mode->setCurrentIndex(mode->findData(int(engine::ReserveMode::VllmProfile)));
    CHECK_FALSE(reserve->isEnabled()); // the flat reserve is not used
    tokens->setValue(8192);
    seqs->setValue(256);
    ui::ServingAssumptionsDialog::apply(*ws, &undo, dialog.assumptions());
    CHECK(undo.count() == 1);

    // Llama 3.1 8B on an H100 as vLLM V0 sized it (pull request #10511 logged 53.29 GiB):
    // 0.9 × 81,559 MiB − 16,060,522,496 B − 1,119,223,808 B sampler peak − 1.79 GiB non-torch.
    const ui::KvOutcome &o = page.outcomes()[0];
    REQUIRE(o.reserve.profile);
    CHECK(o.reserve.bytes == 1119223808LL + 1921997865LL);
    CHECK(o.result.poolBytes == 57866984816);
    CHECK(o.result.poolBytes < flatPool);
    CHECK(page.explanation().contains("reserve 2.83 GiB from vLLM's profile: activation peak 1.04 GiB at 8,192 tokens "
                                      "and 256 requests + non-torch 1.79 GiB"));
    CHECK(page.findChild<QLabel *>("kvServingSummary")->text().contains("reserve vLLM's profile"));
    REQUIRE(page.currentFigure());
    CHECK(page.currentFigure()->caption.contains("from vLLM's profile"));

    undo.undo();
    CHECK_FALSE(page.outcomes()[0].reserve.profile);
    CHECK(page.outcomes()[0].result.poolBytes == flatPool);
}

TEST_CASE("The serving assumptions dialog keeps the measured reserves it shows, and forgets them on request")
{
    engine::ServingAssumptions a;
    engine::ReserveOverride measured;
    measured.modelId = "llama-3.1-8b";
    measured.gpuId = "h100-sxm";
    measured.tp = 1;
    measured.reserveBytes = 3688238055;
    measured.source = "vLLM log v0.log";
    a = engine::withReserveOverride(a, measured);
    ui::ServingAssumptionsDialog dialog(a);
    auto *label = dialog.findChild<QLabel *>("servingMeasuredReserves");
    auto *forget = dialog.findChild<QPushButton *>("servingForgetMeasured");
    REQUIRE(label);
    REQUIRE(forget);
    CHECK(label->text() == "llama-3.1-8b on h100-sxm at TP 1: 3.43 GiB");
    CHECK(label->toolTip() == "llama-3.1-8b on h100-sxm at TP 1: 3.43 GiB (from vLLM log v0.log)");
    // Shown whole: one line a deployment, the label as tall as its text.
    dialog.show();
    QApplication::processEvents();
    CHECK(label->height() >= label->sizeHint().height());
    // Editing another field keeps it.
    dialog.findChild<QDoubleSpinBox *>("servingHeadroom")->setValue(30);
    CHECK(dialog.assumptions().reserveOverrides == a.reserveOverrides);
    forget->click();
    CHECK(dialog.assumptions().reserveOverrides.empty());
    CHECK(label->text() == "none");
    CHECK_FALSE(forget->isEnabled());
}

TEST_CASE("Each KV variant has its own TP, and the lines are saved in the workspace with undo")
{
    TempWorkspace ws;
    QUndoStack undo;
    CHECK_FALSE((*ws).kvVariants());
    {
        KvPage page(*ws, &undo);
        auto *table = page.findChild<QTableWidget *>("kvVariants");
        REQUIRE(table);
        REQUIRE(table->columnCount() == 5);
        auto *tp = qobject_cast<QSpinBox *>(table->cellWidget(1, 4));
        REQUIRE(tp);
        const int64_t weightsTp1 = page.outcomes()[1].result.weightsBytes;
        tp->setValue(2);
        CHECK(page.variants()[1].tp == 2);
        CHECK(page.variants()[0].tp == 1);
        // TP 2 splits the weights: half per GPU on that line only.
        CHECK(page.outcomes()[1].result.weightsBytes * 2 == Approx(double(weightsTp1)).epsilon(1e-6));
        CHECK(page.outcomes()[0].result.weightsBytes == weightsTp1); // line 0 keeps TP 1
        REQUIRE((*ws).kvVariants());
        CHECK((*ws).kvVariants()->at(1).tp == 2);
        CHECK(undo.count() == 1);
        // the legend names what differs: TP 1 and TP 2 lines
        QChart *chart = page.chartPanels().first()->chart();
        bool sawTp2 = false;
        for (QLineSeries *line : variantSeries(chart))
            sawTp2 = sawTp2 || line->name().contains("TP 2");
        CHECK(sawTp2);

        auto *remove = page.findChild<QPushButton *>("kvRemoveVariant");
        REQUIRE(remove);
        table->setCurrentCell(3, 0);
        remove->click();
        CHECK(page.variants().size() == 3);
        CHECK((*ws).kvVariants()->size() == 3);
        CHECK(undo.count() == 2);

        undo.undo();
        CHECK(page.variants().size() == 4);
        CHECK((*ws).kvVariants()->size() == 4);
        undo.undo();
        CHECK(page.variants()[1].tp == 1);
        CHECK((*ws).kvVariants()->at(1).tp == 1);
        undo.redo();
        CHECK(page.variants()[1].tp == 2);
    }
    // A page opened later shows the saved lines, not the first look.
    KvPage reopened(*ws, &undo);
    REQUIRE(reopened.variants().size() == 4);
    CHECK(reopened.variants()[1].tp == 2);
}

TEST_CASE("The explanation says why in words, and a model that does not fit says by how much")
{
    TempWorkspace ws;
    KvPage page(*ws);
    CHECK(page.explanation().contains("memory-bound"));
    CHECK(page.explanation().contains("tokens fit in"));
    CHECK(page.explanation().contains("GiB of KV pool"));

    page.setVariants({{"llama-3.1-405b", "h100-sxm", engine::WeightPrecision::Bf16, engine::KvPrecision::Bf16}});
    REQUIRE(page.outcomes().size() == 1);
    const auto &o = page.outcomes().front();
    CHECK_FALSE(o.result.fits);
    CHECK(o.result.shortfallBytes > 600LL * (1LL << 30));
    CHECK(page.explanation().contains("does not fit"));
    CHECK(page.explanation().contains("GiB more than"));
    auto *results = page.findChild<QTableWidget *>("kvResults");
    CHECK(results->item(0, 3)->text().contains("short"));
    const auto lines = variantSeries(page.chartPanels().first()->chart());
    REQUIRE(lines.size() == 1);
    CHECK(lines.first()->name().contains("does not fit"));
}

TEST_CASE("KV legend names keep the fewest words that tell the variants apart")
{
    CHECK(ui::kvLegendNames({{"H100 SXM5 80GB", "BF16/BF16"}, {"H200 SXM 141GB", "BF16/BF16"},
                             {"H100 SXM5 80GB", "FP8/FP8"}, {"H200 SXM 141GB", "FP8/BF16"}})
          == std::vector<QString>{"H100 · BF16", "H200 · BF16", "H100 · FP8", "H200 · FP8/BF16"});
    // Two GPUs that share their first word keep the word that differs.
    CHECK(ui::kvLegendNames({{"H100 SXM5 80GB"}, {"H100 PCIe 80GB"}})
          == std::vector<QString>{"H100 SXM5", "H100 PCIe"});
    CHECK(ui::kvLegendNames({{"TP 1"}, {"TP 2"}}) == std::vector<QString>{"TP 1", "TP 2"});
    // The same variant twice is numbered, never shown as two equal names.
    CHECK(ui::kvLegendNames({{"H100", "FP8/FP8"}, {"H100", "FP8/FP8"}})
          == std::vector<QString>{"H100 · FP8", "H100 · FP8 (2)"});
}

TEST_CASE("The What if tab takes the first variant through Character.AI's levers, priced from the rate cards, "
          "and the report draws it again from the workspace", "[kv_levers]")
{
    TempWorkspace ws;
    KvPage page(*ws);
    page.resize(1280, 800);
    auto *levers = page.findChild<QLineEdit *>("kvLevers");
    auto *price = page.findChild<QLineEdit *>("kvLeverPrice");
    auto *streams = page.findChild<QSpinBox *>("kvLeverStreams");
    auto *error = page.findChild<QLabel *>("kvLeversError");
    auto *tabs = page.findChild<QTabWidget *>("kvChartTabs");
    REQUIRE(levers);
    REQUIRE(price);
    REQUIRE(streams);
    REQUIRE(error);
    REQUIRE(tabs);

    // The first look: Llama 3.1 8B on H100 at 8,192 tokens, Character.AI's stack, 1,000 streams.
    const ui::KvLeverOutcome &outcome = page.leverOutcome();
    REQUIRE(outcome.error.isEmpty());
    REQUIRE(outcome.steps.size() == 5);
    CHECK(outcome.steps[0].bytesPerToken == 131072);
    CHECK(outcome.steps[4].bytesPerToken == 1221);
    CHECK(outcome.steps[4].totalFactor > 20);
    // The price is the lowest H100 SXM on-demand card in force (Lambda's $3.99): 54 streams per
    // replica as shipped, so 19 GPUs for 1,000 streams, 19 × $3.99 × 720 h = $54,583.20.
    CHECK(price->text() == "3.99");
    CHECK(outcome.steps[0].streamsPerReplica == 54);
    CHECK(outcome.steps[0].gpus == 19);
    REQUIRE(outcome.steps[0].monthlyCost);
    CHECK(outcome.steps[0].monthlyCost->cents() == "54583.20");
    CHECK(outcome.steps[4].gpus == 1);
    CHECK(outcome.steps[4].monthlyCost->cents() == "2872.80");

    // An edit of the levers shows the What if tab and recomputes; a bad lever says which.
    tabs->setCurrentIndex(0);
    levers->setText("mqa, fp8");
    CHECK(tabs->currentIndex() == 1);
    REQUIRE(page.leverOutcome().steps.size() == 3);
    CHECK(page.leverOutcome().steps[2].bytesPerToken == 8192);
    levers->setText("mqa, gqa");
    CHECK_FALSE(error->isHidden());
    CHECK(error->text().contains("unknown lever \"gqa\""));
    CHECK(page.leverOutcome().steps.empty());
    levers->setText("mqa, local=1024/6, share=2, int8");
    CHECK(error->isHidden());

    // A typed price wins over the card's; no streams, no money.
    price->selectAll();
    QTest::keyClicks(price, "4.10"); // typed (textEdited), not set by the page
    REQUIRE(page.leverOutcome().steps[0].monthlyCost);
    CHECK(page.leverOutcome().steps[0].monthlyCost->cents() == "56088.00"); // 19 × $4.10 × 720 h
    streams->setValue(0);
    CHECK_FALSE(page.leverOutcome().steps[0].monthlyCost);

    // The page's figure is the waterfall, with its source, and the report draws it again the same.
    streams->setValue(1000);
    const auto figure = page.currentFigure();
    REQUIRE(figure);
    REQUIRE(figure->paint);
    CHECK(figure->source.value("kind").toString() == "kv-levers");
    CHECK(figure->caption.contains("19 GPUs → 1 GPU, $56,088.00 → $2,952.00 a 30-day month at $4.10 per GPU-hour"));
    store::ReportItem item = ui::reportItemFromFigure(*figure);
    QString problem;
    const auto redrawn = ui::redrawReportItem(*ws, item, &problem);
    CHECK(problem.isEmpty());
    REQUIRE(redrawn);
    CHECK(redrawn->content == item.content);
    CHECK(redrawn->caption == item.caption);
    // An edit of the serving assumptions reaches the report's copy: less memory, fewer streams.
    engine::ServingAssumptions serving = (*ws).servingAssumptions();
    serving.memoryUtilization = 0.8;
    (*ws).setServingAssumptions(serving);
    const auto after = ui::redrawReportItem(*ws, item, &problem);
    REQUIRE(after);
    CHECK(after->caption != item.caption);
    CHECK(after->caption == page.currentFigure()->caption);
}

TEST_CASE("Check against a vLLM log compares the first variant with the log and adopts its reserve undoably",
          "[vllm_log]")
{
    TempWorkspace ws;
    QUndoStack undo;
    KvPage page(*ws, &undo);
    QTemporaryDir dir;
    // vllm-project/vllm pull request #10511: Meta-Llama-3-8B on one H100, V0's memory profile.
    QFile file(dir.filePath("v0.log"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("INFO worker.py:243] total_gpu_memory     79.22GiB\n"
               "INFO worker.py:243] gpu_memory_utilization       0.90\n"
               "INFO worker.py:243] model weights take   14.96GiB\n"
               "INFO worker.py:243] non_torch_memory     1.79GiB\n"
               "INFO worker.py:243] PyTorch activation peak memory       1.26GiB\n"
               "INFO worker.py:243] available_kv_cache_memory    53.29GiB\n");
    file.close();
    auto *button = page.findChild<QPushButton *>("kvVllmLog");
    REQUIRE(button);

    ui::Dialogs::setScripted(true);
    ui::Dialogs::takeShownMessages();
    ui::Dialogs::queueFileAnswer(file.fileName());
    ui::Dialogs::queueQuestionAnswer(true);
    button->click();
    const QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    // Llama 3.1 8B on H100 with the 2 GiB reserve: 54.73 GiB against the 53.29 vLLM kept.
    CHECK(shown.front().contains("vLLM kept 53.29 GiB of KV cache; this page has 54.73 GiB with a 2.00 GiB reserve (+2.7 %)"));
    CHECK(shown.front().contains("Keep a runtime reserve of 3.44 GiB per GPU for Llama 3.1 8B · H100 SXM5 80GB at TP 1"));
    // Adopted for that deployment only: the first variant's pool is now what vLLM kept, to the
    // byte, and the H200 variant keeps the workspace's 2 GiB.
    const engine::ServingAssumptions adopted = (*ws).servingAssumptions();
    CHECK(adopted.reserveBytes == 2 * engine::kGiB);
    REQUIRE(adopted.reserveOverrides.size() == 1);
    CHECK(adopted.reserveOverrides[0].modelId == "llama-3.1-8b");
    CHECK(adopted.reserveOverrides[0].gpuId == "h100-sxm");
    CHECK(adopted.reserveOverrides[0].tp == 1);
    CHECK(adopted.reserveOverrides[0].source == "vLLM log v0.log");
    CHECK(double(adopted.reserveOverrides[0].reserveBytes) / double(engine::kGiB) == Approx(3.435).margin(0.001));
    REQUIRE(page.outcomes().size() >= 2);
    CHECK(page.outcomes()[0].result.poolBytes == std::llround(53.29 * double(engine::kGiB)));
    CHECK(page.outcomes()[0].reserve.measured);
    CHECK_FALSE(page.outcomes()[1].reserve.measured);
    CHECK(page.outcomes()[1].reserve.bytes == 2 * engine::kGiB);
    CHECK(page.explanation().contains("reserve 3.44 GiB measured (vLLM log v0.log)"));
    // One undoable step.
    REQUIRE(undo.canUndo());
    undo.undo();
    CHECK((*ws).servingAssumptions().reserveOverrides.empty());

    // A file without memory lines changes nothing and says why.
    QFile other(dir.filePath("api.log"));
    REQUIRE(other.open(QIODevice::WriteOnly));
    other.write("INFO starting the API server on port 8000\n");
    other.close();
    ui::Dialogs::queueFileAnswer(other.fileName());
    button->click();
    const QStringList refused = ui::Dialogs::takeShownMessages();
    REQUIRE(refused.size() == 1);
    CHECK(refused.front().contains("no line of the log is one vLLM prints about its memory"));
    CHECK((*ws).servingAssumptions() == engine::ServingAssumptions{});
    ui::Dialogs::setScripted(false);
}
