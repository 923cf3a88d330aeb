// Times the mixed-cluster plan (DESIGN §3.3, §7): 10 inference workloads with hourly GPU need
// and 5 training jobs, hourly over 24 months (17,520 h), partitioned and dynamically shared
// with the shared pool sized automatically, must take < 50 ms. Also times the growth plan and
// one training sizing with its days-versus-GPUs curve, and the layout search for Llama 3.1 405B
// on 16,384 GPUs and DeepSeek-V3 on 2,048 (< 200 ms each, so the page stays interactive).

#include "benchtiming.h"
#include "engine/fleet/capacity_mix.h"
#include "engine/training/training.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace headroom::engine;

using headroom::bench::Timing;
using headroom::bench::measure;

namespace {

constexpr int64_t kHorizonHours = 24 * 730;
constexpr int kWorkloads = 10;
constexpr int kJobs = 5;
constexpr double kTargetMillis = 50.0;

// Peak GPUs × a diurnal shape × a weekly dip, with noise: one value per hour of the horizon.
std::vector<double> hourlyNeed(int index, std::mt19937 &rng)
{
    std::normal_distribution<double> noise(0.0, 0.05);
    const double peak = 8.0 + 6.0 * index;
    const int peakHour = 10 + index % 8;
    std::vector<double> need(static_cast<size_t>(kHorizonHours), 0.0);
    for (int64_t h = 0; h < kHorizonHours; ++h) {
        const double hour = double(h % 24);
        const bool weekend = (h / 24) % 7 >= 5;
        const double shape = 0.3 + 0.7 * std::exp(-0.5 * std::pow((hour - peakHour) / 4.0, 2));
        need[size_t(h)] = std::max(0.0, peak * shape * (weekend ? 0.6 : 1.0) * (1.0 + noise(rng)));
    }
    return need;
}

} // namespace

int main()
{
    std::mt19937 rng(7);
    MixInput input;
    input.horizonHours = kHorizonHours;
    input.startDate = "2026-01-01";
    for (int i = 0; i < kWorkloads; ++i)
        input.inference.push_back({"workload-" + std::to_string(i), hourlyNeed(i, rng)});
    for (int j = 0; j < kJobs; ++j) {
        TrainingDemand job;
        job.name = "job-" + std::to_string(j);
        job.gpus = 64 << (j % 3);
        job.minGpus = job.gpus / 4;
        job.gpuHours = double(job.gpus) * 24 * (20 + 15 * j);
        job.earliestStartHour = 24 * 60 * j;
        job.priority = kJobs - j;
        input.training.push_back(job);
    }

    MixResult last;
    const Timing mix = measure(2, 15, [&] { last = planMixedCluster(input); });
    std::printf("mixed cluster: %d inference workloads + %d training jobs, hourly over %lld h\n", kWorkloads, kJobs,
                static_cast<long long>(kHorizonHours));
    std::printf("  partitioned + dynamic (auto-sized pool): median %.2f ms, min %.2f ms; target < %.0f ms: %s\n",
                mix.medianMillis(), mix.minMillis(), kTargetMillis, mix.medianMillis() < kTargetMillis ? "PASS" : "FAIL");
    std::printf("  inference peak %.0f GPUs; partitioned %lld GPUs (%.1f %% used); dynamic %lld GPUs (%.1f %% used)\n",
                last.inferencePeakGpus, static_cast<long long>(last.partitioned.gpus), 100 * last.partitioned.utilization,
                static_cast<long long>(last.dynamic.gpus), 100 * last.dynamic.utilization);

    GrowthInput growth;
    for (int i = 0; i < kWorkloads; ++i)
        growth.streams.push_back({"workload-" + std::to_string(i), WorkloadKind::Inference, 10.0 + i, 0.05});
    for (int j = 0; j < kJobs; ++j)
        growth.streams.push_back({"job-" + std::to_string(j), WorkloadKind::Training, 64.0, 0.08});
    growth.leadWeeks = 12;
    growth.startMonth = "2026-01";
    const Timing grow = measure(10, 200, [&] { planGrowth(growth); });
    std::printf("  growth, 15 streams over 24 months: median %.1f us\n", grow.medianMicros);

    TrainingJob job;
    job.name = "pretrain";
    job.params = 70e9;
    job.tokens = 1.4e12;
    job.tp = 8;
    job.zeroStage = 3;
    job.recompute = Recomputation::Full;
    GpuSpec gpu;
    gpu.id = "h100-sxm";
    gpu.memoryBytes = 85520809984;
    gpu.bf16Tflops = 989;
    gpu.nvlinkGBps = 900;
    gpu.pcieGBps = 64;
    gpu.gpusPerNode = 8;
    TrainingPlan plan;
    const Timing sizing = measure(5, 50, [&] {
        plan = sizeTraining(job, gpu, nullptr);
        daysVersusGpus(resolveTraining(job, gpu, nullptr));
    });
    std::printf("  training sizing (70B, 30-day window, MFU with overhead) + curve: median %.2f ms -> %lld GPUs, %.1f days\n",
                sizing.medianMillis(), static_cast<long long>(plan.gpusNodeRounded), plan.days);

    // Layout search: nothing of the layout given.
    ModelSpec llama;
    llama.id = "llama-3.1-405b";
    llama.paramsTotal = llama.paramsActive = 405853388800;
    llama.layers = 126;
    llama.hiddenSize = 16384;
    llama.attentionHeads = 128;
    ModelSpec deepseek;
    deepseek.id = "deepseek-v3";
    deepseek.paramsTotal = 671026419200;
    deepseek.paramsActive = 37552297472;
    deepseek.layers = 61;
    deepseek.hiddenSize = 7168;
    deepseek.attentionHeads = 128;
    deepseek.experts = 256;
    deepseek.expertsPerToken = 8;
    struct SearchCase {
        const char *what;
        const ModelSpec *model;
        double tokens;
        int seqLen;
        double batchTokens;
        int64_t gpus;
    };
    for (const SearchCase &c : {SearchCase{"Llama 3.1 405B, 16,384 GPUs", &llama, 15.6e12, 8192, 16777216, 16384},
                                SearchCase{"DeepSeek-V3 (MoE), 2,048 GPUs", &deepseek, 14.8e12, 4096, 15360.0 * 4096, 2048}}) {
        TrainingJob open;
        open.name = "search";
        open.modelId = c.model->id;
        open.tokens = c.tokens;
        open.seqLen = c.seqLen;
        open.globalBatchTokens = c.batchTokens;
        open.microBatch = 1;
        open.throughputBasis = ThroughputBasis::Mfu;
        open.throughput = 0.45;
        open.target = TrainingTarget::GpuCount;
        open.targetValue = double(c.gpus);
        open.tp = 0;
        open.pp = 0;
        open.ep = 0;
        open.virtualStages = 0;
        open.zeroStage = -1;
        TrainingPlan searched;
        const Timing search = measure(2, 15, [&] { searched = sizeTraining(open, gpu, c.model); });
        std::printf("  layout search, %s: median %.1f ms, min %.1f ms (%lld layouts, %lld fit); target < 200 ms: %s\n"
                    "    -> tp %d × pp %d (%d chunks) × ep %d × dp %lld, ZeRO-%d, recompute %s: %.1f days, MFU after communication %.1f %%\n",
                    c.what, search.medianMillis(), search.minMillis(), static_cast<long long>(searched.layoutsEvaluated),
                    static_cast<long long>(searched.layoutsFitting), search.medianMillis() < 200 ? "PASS" : "FAIL",
                    searched.layout.tp, searched.layout.pp, searched.layout.virtualStages, searched.layout.ep,
                    static_cast<long long>(searched.dataParallel), searched.layout.zeroStage,
                    std::string(toString(searched.layout.recompute)).c_str(), searched.days, 100 * searched.impliedMfu);
    }
    return 0;
}
