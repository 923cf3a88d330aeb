#include "common/uitestsupport.h"

#include "ui/common/chartexport.h"
#include "ui/common/chartpanel.h"
#include "ui/common/format.h"
#include "ui/training/clusterpanel.h"
#include "ui/training/trainingpage.h"

#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QProcess>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QTableWidget>

using namespace headroom;

namespace {

constexpr double kGiB = double(int64_t(1) << 30);

engine::TrainingJob pretrain()
{
    engine::TrainingJob job;
    job.name = "pretrain";
    job.modelId = "llama-3.1-70b";
    job.tokens = 1.4e12;
    job.seqLen = 8192;
    job.globalBatchTokens = 16777216;
    job.recompute = engine::Recomputation::Full;
    job.gpuId = "h100-sxm";
    job.throughput = 0.4;
    job.targetValue = 30;
    job.tp = 8;
    job.pp = 4;
    job.zeroStage = 1;
    job.startDate = "2026-03-02";
    return job;
}

engine::WorkloadProfile chatbot()
{
    engine::WorkloadProfile w;
    w.name = "chatbot";
    w.modelId = "llama-3.1-8b";
    w.gpuId = "h100-sxm";
    w.dailyActiveUsers = 200000;
    w.requestsPerUserPerDay = 15;
    w.peakSessionsPerUser = 0.05;
    w.diurnal = engine::diurnalShape(engine::DiurnalPreset::EveningPeak);
    w.promptTokens = {1500, 6000};
    w.outputTokens = {300, 1000};
    return w;
}

template <typename Widget>
Widget *child(ui::TrainingPage &page, const char *name)
{
    auto *widget = page.findChild<Widget *>(name);
    REQUIRE(widget);
    return widget;
}

// Charts of tabs not on screen are built when asked for: chartPanels() brings them up to date.
QChart *chartOf(ui::TrainingPage &page, const char *name)
{
    REQUIRE(page.chartPanels().size() == 6);   // memory, days, mix, growth, goodput, cluster
    auto *panel = child<ui::ChartPanel>(page, name);
    REQUIRE(panel->chart());
    return panel->chart();
}

template <typename Series>
QList<Series *> seriesOf(QChart *chart)
{
    QList<Series *> found;
    for (QAbstractSeries *s : chart->series())
        if (auto *typed = qobject_cast<Series *>(s))
            found << typed;
    return found;
}

QString pdfText(const QString &path)
{
    QProcess p;
    p.start("pdftotext", {path, "-"});
    REQUIRE(p.waitForFinished(20000));
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

TEST_CASE("Training page sizes the job for its window and shows GPUs, days, GPU-hours and cost", "[trainingpage]")
{
    TempWorkspace ws;
    (*ws).putTrainingJob(pretrain());
    ui::TrainingPage page(*ws);
    REQUIRE(page.errorText().isEmpty());
    REQUIRE(page.plan());
    const auto &p = *page.plan();
    CHECK(p.days <= 30.0);
    CHECK(p.gpusNodeRounded % 8 == 0);
    CHECK(p.gpus % 32 == 0);
    CHECK(p.totalFlops == Approx(8 * p.params * 1.4e12));
    REQUIRE(p.cost); // the AWS H100 card is chosen at first start
    // The cost is the product of the figures shown beside it: whole GPU-hours × the exact rate.
    CHECK(p.billedGpuHours == std::llround(p.gpuHours));
    CHECK(*p.cost == engine::Money::parse("6.88") * engine::Decimal::fromInt(p.billedGpuHours));
    CHECK(child<QLabel>(page, "trainingCostCard")->text().contains(
        QStringLiteral("%1 GPU-hours × $6.88").arg(ui::formatCount(p.billedGpuHours))));
    CHECK(child<QLabel>(page, "trainingGpusCard")->text().contains(ui::formatCount(p.gpusNodeRounded)));
    CHECK(child<QLabel>(page, "trainingCostCard")->text().contains(QString::fromStdString(p.cost->display())));
    auto *table = child<QTableWidget>(page, "trainingResults");
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows << table->item(r, 0)->text();
    for (const char *row : {"GPUs (raw)", "GPUs (whole nodes)", "Wall-clock time", "GPU-hours", "Cost",
                            "Min GPUs for memory", "Communication overhead", "Preemption loss"})
        CHECK(rows.contains(row));
    CHECK(page.explanation().contains("FLOPs"));

    // No price: no cost, everything else stays.
    page.selectRateCard(QString());
    REQUIRE(page.plan());
    CHECK_FALSE(page.plan()->cost);
    CHECK(child<QLabel>(page, "trainingCostCard")->text().contains("no rate card"));
}

TEST_CASE("The memory chart stacks the four parts for ZeRO 0 to 3 against the GPU memory", "[trainingpage]")
{
    TempWorkspace ws;
    (*ws).putTrainingJob(pretrain());
    ui::TrainingPage page(*ws);
    REQUIRE(page.plan());
    QChart *chart = chartOf(page, "trainingMemoryChart");
    const auto bars = seriesOf<QStackedBarSeries>(chart);
    REQUIRE(bars.size() == 1);
    const auto sets = bars.first()->barSets();
    REQUIRE(sets.size() == 4);
    const auto &stages = page.plan()->memoryByStage;
    for (int stage = 0; stage < 4; ++stage) {
        CHECK(sets[0]->at(stage) == Approx(stages[size_t(stage)].weightsBytes / kGiB));
        CHECK(sets[1]->at(stage) == Approx(stages[size_t(stage)].gradientsBytes / kGiB));
        CHECK(sets[2]->at(stage) == Approx(stages[size_t(stage)].optimizerBytes / kGiB));
        CHECK(sets[3]->at(stage) == Approx(stages[size_t(stage)].activationsBytes / kGiB));
    }
    // ZeRO shards more with every stage
    CHECK(stages[3].modelStateBytes() < stages[0].modelStateBytes());
    const auto lines = seriesOf<QLineSeries>(chart);
    REQUIRE(lines.size() >= 1);
    const double memory = double((*ws).gpu("h100-sxm")->memoryBytes) / kGiB;
    CHECK(lines.first()->at(0).y() == Approx(memory));
}

TEST_CASE("The days curve falls with more GPUs and marks the window and the plan", "[trainingpage]")
{
    TempWorkspace ws;
    (*ws).putTrainingJob(pretrain());
    ui::TrainingPage page(*ws);
    REQUIRE(page.plan());
    const auto &curve = page.daysCurve();
    REQUIRE(curve.size() >= 10);
    CHECK(curve.front().days > curve.back().days);
    QChart *chart = chartOf(page, "trainingDaysChart");
    int points = 0;
    bool window = false;
    for (QLineSeries *line : seriesOf<QLineSeries>(chart)) {
        if (line->name().startsWith("Target window"))
            window = line->at(0).y() == 30.0;
        else
            points += int(line->count());
    }
    CHECK(window);
    CHECK(points >= int(curve.size()));
    const auto plan = seriesOf<QScatterSeries>(chart);
    REQUIRE(plan.size() == 1);
    CHECK(plan.first()->at(0).x() == double(page.plan()->gpus));
}

TEST_CASE("The mixed cluster puts inference first and the growth plan follows its inputs", "[trainingpage]")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    (*ws).putTrainingJob(pretrain());
    engine::TrainingJob finetune = pretrain();
    finetune.name = "finetune";
    finetune.modelId = "llama-3.1-8b";
    finetune.tokens = 5e10;
    finetune.tp = 1;
    finetune.pp = 1;
    finetune.targetValue = 5;
    finetune.priority = 2;
    (*ws).putTrainingJob(finetune);
    ui::TrainingPage page(*ws);
    page.selectJob("pretrain");
    REQUIRE(page.mix());
    const auto &mix = *page.mix();
    CHECK(mix.inferencePeakGpus > 0);
    CHECK(mix.dynamic.unservedInferenceGpuHours == 0);
    CHECK(mix.dynamic.gpus >= int64_t(mix.inferencePeakGpus));
    REQUIRE(mix.dynamic.jobs.size() == 2);
    CHECK(mix.dynamic.timeline.size() == size_t(12 * 168));
    CHECK(mix.dynamic.timeline[size_t(mix.inferencePeakHour)].inference == Approx(mix.inferencePeakGpus));

    QChart *chart = chartOf(page, "trainingMixChart");
    const auto areas = seriesOf<QAreaSeries>(chart);
    REQUIRE(areas.size() == 3);
    CHECK(areas[0]->name().startsWith("Inference"));
    CHECK(areas[1]->name().startsWith("Training"));
    CHECK(areas[2]->name().startsWith("Idle"));
    auto *mixTable = child<QTableWidget>(page, "trainingMixTable");
    CHECK(mixTable->item(0, 1)->text() == ui::formatCount(mix.partitioned.gpus));
    CHECK(mixTable->item(0, 2)->text() == ui::formatCount(mix.dynamic.gpus));

    child<QSpinBox>(page, "trainingHorizonWeeks")->setValue(8);
    REQUIRE(page.mix());
    CHECK(page.mix()->dynamic.timeline.size() == size_t(8 * 168));

    REQUIRE(page.growth().size() == 24);
    const double inferenceNow = page.growth().front().inferenceGpus;
    child<QDoubleSpinBox>(page, "trainingInferenceGrowth")->setValue(10);
    REQUIRE(page.growth().size() == 24);
    CHECK(page.growth().back().inferenceGpus == Approx(inferenceNow * std::pow(1.1, 23)).epsilon(1e-6));
    QChart *growth = chartOf(page, "trainingGrowthChart");
    const auto stacked = seriesOf<QStackedBarSeries>(growth);
    REQUIRE(stacked.size() == 1);
    CHECK(stacked.first()->barSets().at(0)->count() == 24);
    CHECK(stacked.first()->barSets().at(0)->at(23) == Approx(page.growth().back().inferenceGpus));
}

TEST_CASE("A window no fleet can meet is explained with the field and nothing is charted", "[trainingpage]")
{
    TempWorkspace ws;
    engine::TrainingJob job = pretrain();
    job.modelId = "llama-3.1-405b";
    job.tokens = 15e12;
    job.targetValue = 0.5;
    (*ws).putTrainingJob(job);
    ui::TrainingPage page(*ws);
    CHECK_FALSE(page.plan());
    CHECK(page.errorText().contains("target_value"));
    CHECK(page.explanation().contains("target_value"));
    CHECK(seriesOf<QStackedBarSeries>(chartOf(page, "trainingMemoryChart")).isEmpty());

    engine::TrainingJob fixed = job;
    fixed.targetValue = 365;
    (*ws).putTrainingJob(fixed);
    REQUIRE(page.plan());
    CHECK(page.errorText().isEmpty());
}

TEST_CASE("Every training chart exports to PDF with its title as text and draws ink", "[trainingpage]")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    (*ws).putTrainingJob(pretrain());
    ui::TrainingPage page(*ws);
    REQUIRE(page.plan());
    // The Cluster tab replays when first shown; here it is run by hand.
    auto *cluster = page.findChild<ui::ClusterPanel *>();
    REQUIRE(cluster);
    QSignalSpy replayed(cluster, &ui::ClusterPanel::finished);
    cluster->run();
    REQUIRE(replayed.wait(60000));
    QTemporaryDir dir;
    const auto panels = page.chartPanels();
    REQUIRE(panels.size() == 6);   // the goodput and cluster charts export like the rest
    int n = 0;
    for (ui::ChartPanel *panel : panels) {
        const ui::ChartFigure figure = panel->figure();
        const QString path = dir.filePath(QStringLiteral("chart%1.pdf").arg(n++));
        QString error;
        REQUIRE(ui::exportFigure(figure, path, &error));
        const QString text = pdfText(path);
        CHECK(text.contains(figure.title.section(QStringLiteral(" — "), 0, 0)));
        QImage image(480, 270, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        ui::renderFigure(painter, QRectF(0, 0, 480, 270), figure);
        painter.end();
        int ink = 0;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                ink += image.pixel(x, y) != qRgb(255, 255, 255);
        CHECK(ink > 500);
    }
}
