// Times a portfolio plan (README "Portfolio plan"): 10 workloads of different models, sizes and
// daily shapes over every catalog GPU the rate card prices × weights {bf16, fp8, int4} × KV
// {bf16, fp8} × TP {1, 2, 4, 8}, pooled per GPU type under a 1- or 3-year committed base with an
// on-demand or spot top, and two training jobs; target < 2 s on two threads.

#include "benchtiming.h"
#include "benchworkloads.h"
#include "engine/fleet/plan.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <cstdio>
#include <map>
#include <set>

using namespace headroom;

using headroom::bench::Timing;
using headroom::bench::measure;

namespace {

constexpr double kTargetMillis = 2000.0;

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    engine::PlanRequest request;
    {
        store::Workspace workspace(dir.filePath(QStringLiteral("bench.headroom")));
        for (const engine::WorkloadProfile &w : bench::tenWorkloads())
            workspace.putWorkload(w);
        request.inputs = store::scenarioInputs(workspace);
    }
    request.inputs.trainingJobs = {{"finetune", 8, 8 * 400.0, "h100-sxm"}, {"pretrain", 16, 16 * 5000.0, "h100-sxm"}};
    request.settings.name = "bench";
    // One card for the whole catalog: for each GPU, the shipped card with the lowest on-demand rate.
    std::map<std::string, engine::RateCard> cheapest;
    for (const engine::RateCard &card : request.inputs.rateCards) {
        auto it = cheapest.find(card.gpuId);
        if (card.currency == "USD" && (it == cheapest.end() || card.onDemand.toDouble() < it->second.onDemand.toDouble()))
            cheapest[card.gpuId] = card;
    }
    // A GPU no shipped card prices is priced like the H100 per GB/s of memory bandwidth (a bench
    // assumption: every catalog GPU is then a candidate).
    const engine::RateCard h100 = cheapest.at("h100-sxm");
    const double h100Bandwidth = engine::findGpu(request.inputs.gpus, "h100-sxm")->hbmBandwidthGBps;
    size_t shipped = cheapest.size();
    for (const engine::GpuSpec &gpu : request.inputs.gpus) {
        if (cheapest.count(gpu.id) || !(gpu.hbmBandwidthGBps > 0))
            continue;
        const engine::Decimal scale = engine::Decimal::fromDouble(gpu.hbmBandwidthGBps / h100Bandwidth);
        engine::RateCard card = h100;
        card.gpuId = gpu.id;
        card.onDemand = (h100.onDemand * scale).rounded(4);
        card.reserved1y = (h100.reserved1y * scale).rounded(4);
        card.reserved3y = (h100.reserved3y * scale).rounded(4);
        card.spot = (h100.spot * scale).rounded(4);
        cheapest[gpu.id] = card;
    }
    for (auto &[gpu, card] : cheapest) {
        card.provider = "Bench";
        card.region = "all";
        request.inputs.rateCards.push_back(card);
    }
    request.settings.provider = "Bench";
    request.settings.region = "all";
    request.settings.horizonMonths = 36;
    request.settings.startDate = "2026-01-01";
    request.options.spot = true;

    const engine::PlanResult plan = engine::planPortfolio(request);
    std::set<std::string> gpus;
    for (const engine::PlannedWorkload &w : plan.best.workloads)
        gpus.insert(w.gpuId);
    volatile int64_t sink = 0;
    const Timing timing = measure(1, 3, [&] { sink = sink + engine::planPortfolio(request).groupsPriced; });
    std::printf("portfolio plan, %zu workloads and %zu training jobs, every priced GPU x 3 weights x 2 KV x 4 TP, "
                "2 commitments x 2 elastic tiers, two threads: median %.0f ms, min %.0f ms (target < %.0f ms) %s\n",
                request.inputs.workloads.size(), request.inputs.trainingJobs.size(), timing.medianMillis(),
                timing.minMillis(), kTargetMillis, timing.medianMillis() < kTargetMillis ? "OK" : "SLOW");
    std::printf("  %lld deployments sized, %lld pools priced; plan %s over 36 months on %zu GPU types, "
                "%.1f %% committed; %zu runners-up, %zu front points\n",
                static_cast<long long>(plan.candidates), static_cast<long long>(plan.groupsPriced),
                plan.best.costOverTerm.display().c_str(), gpus.size(), 100 * plan.best.committedShare,
                plan.runnersUp.size(), plan.front.size());
    std::printf("  %s\n", plan.method.c_str());
    std::printf("  catalog: %zu GPUs, %zu priced by shipped cards, %zu by the H100's rate per GB/s\n",
                request.inputs.gpus.size(), shipped, cheapest.size() - shipped);
    return 0;
}
