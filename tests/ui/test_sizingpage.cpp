#include "uitestsupport.h"

#include "ui/chartpanel.h"
#include "ui/sizingpage.h"

#include <QBarSeries>
#include <QChart>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineSeries>
#include <QTableWidget>

using namespace headroom;

namespace {

engine::WorkloadProfile chatbot()
{
    engine::WorkloadProfile w;
    w.name = "chatbot";
    w.tenant = "consumer";
    w.modelId = "llama-3.1-8b";
    w.gpuId = "h100-sxm";
    w.dailyActiveUsers = 200000;
    w.requestsPerUserPerDay = 15;
    w.peakSessionsPerUser = 0.05;
    w.diurnal = engine::diurnalShape(engine::DiurnalPreset::EveningPeak);
    w.promptTokens = {1500, 6000};
    w.outputTokens = {300, 1000};
    w.prefixHitRate = 0.2;
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    return w;
}

} // namespace

TEST_CASE("Sizing page sizes the selected workload and explains the binding constraint")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    REQUIRE(page.result());
    const auto &r = *page.result();
    CHECK(r.feasible);
    CHECK(r.gpus == r.replicas * r.gpusPerReplica);
    CHECK(r.replicas >= std::max(r.replicasMemory, r.replicasCompute));
    CHECK((r.binding == "memory" || r.binding == "compute"));
    CHECK(page.explanation().contains(QString::fromStdString(r.binding) + "-bound"));
    auto *steps = page.findChild<QTableWidget *>("sizingSteps");
    REQUIRE(steps);
    CHECK(steps->rowCount() == int(r.steps.size()));
    CHECK(steps->rowCount() >= 4);
}

TEST_CASE("Raising the hit rate lowers prefill demand and redraws the hit-rate chart")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    const double before = page.result()->prefillTokensPerS;
    page.findChild<QDoubleSpinBox *>("sizingHitRate")->setValue(50);
    CHECK(page.result()->prefillTokensPerS == Approx(before * 0.625));
    QChart *chart = page.chartPanels().first()->chart();
    QLineSeries *line = nullptr;
    for (QAbstractSeries *s : chart->series())
        if (auto *l = qobject_cast<QLineSeries *>(s); l && l->name().startsWith("GPUs planned"))
            line = l;
    REQUIRE(line);
    CHECK(line->count() >= 10);
    for (int i = 1; i < line->count(); ++i)
        CHECK(line->at(i).y() <= line->at(i - 1).y());
}

TEST_CASE("Disaggregation splits GPUs into prefill and decode pools")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    page.findChild<QCheckBox *>("sizingDisaggregate")->setChecked(true);
    REQUIRE(page.result());
    REQUIRE(page.result()->prefillGpus);
    REQUIRE(page.result()->decodeGpus);
    CHECK(*page.result()->prefillGpus + *page.result()->decodeGpus == page.result()->gpus);
}

TEST_CASE("The GPU type chart has one bar set per precision combination")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    QChart *chart = page.findChild<ui::ChartPanel *>("sizingTypeChart")->chart();
    auto *bars = qobject_cast<QBarSeries *>(chart->series().value(0));
    REQUIRE(bars);
    CHECK(bars->count() >= 4);
    CHECK(page.whatIfs().size() >= (*ws).gpus().size() * 4);
}
