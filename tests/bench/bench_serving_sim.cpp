// Serving simulation benchmark (DESIGN §7, §3.7b): the whole Mooncake trace (12,031 requests)
// replayed on 8 replicas of Llama 3.1 8B on H100 SXM with KV-aware routing, on one core
// (target < 0.3 s); a 20-point cache-size sweep of the same fleet on two threads (target < 3 s),
// beside the same sweep on one thread.
#include "benchtiming.h"
#include "engine/inference/inference_sizing.h"
#include "engine/serving/serving_sim.h"
#include "store/inference/workloadjson.h"

#include "../engine/common/models.h"

#include <chrono>
#include <functional>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace headroom;
using namespace headroom::engine;

namespace {

constexpr double kTargetSeconds = 0.3;
constexpr double kTargetSweepSeconds = 3.0;
constexpr int kSweepPoints = 20;

double secondsOf(const std::function<void()> &body)
{
    const auto start = std::chrono::steady_clock::now();
    body();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main()
{
    const auto trace = store::readMooncakeTrace(
        QStringLiteral(HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl"));

    const ServingAssumptions assumptions;
    KvInputs in;
    in.model = test::llama31_8b();
    in.gpuMemoryBytes = test::h100Sxm().memoryBytes;
    in.utilization = assumptions.memoryUtilization;
    in.reserveBytes = assumptions.reserveBytes;
    in.blockSize = kTraceBlockTokens;
    const KvResult kv = analyseKv(in);

    ServingSimConfig config;
    config.replicas = 8;
    config.kvBlocksPerReplica = kvBlocksPerReplica(in);
    config.stepModel = stepCostModel(in.model, test::h100Sxm(), in.weights, kv, 1, assumptions);
    config.router = RouterKind::KvAware;
    config.ttftSloMs = 2000;
    config.itlSloMs = 50;

    ServingSimResult result;
    const bench::Timing one = bench::measure(1, 5, [&] { result = simulateServing(trace, config); });
    std::printf("simulate  mooncake %lld requests, 8 replicas, kv router, %lld blocks/replica: hit rate %.4f "
                "(blocks), TTFT P95 %.0f ms, attainment %.3f\n",
                static_cast<long long>(result.requests), static_cast<long long>(config.kvBlocksPerReplica),
                result.hitRateBlocks, result.ttftMs.p95, result.sloAttainment.value_or(0));
    std::printf("          median %8.1f ms  min %8.1f ms  (target < %.0f ms) %s\n", one.medianMillis(),
                one.minMillis(), kTargetSeconds * 1000, one.medianMillis() < kTargetSeconds * 1000 ? "OK" : "SLOW");

    // Cache sizes from 50 blocks to the full pool, log-spaced.
    std::vector<ServingSimConfig> sweep;
    for (int i = 0; i < kSweepPoints; ++i) {
        ServingSimConfig c = config;
        const double share = double(i) / double(kSweepPoints - 1);
        c.kvBlocksPerReplica = std::llround(50.0 * std::pow(double(config.kvBlocksPerReplica) / 50.0, share));
        sweep.push_back(c);
    }
    std::vector<ServingSimResult> results;
    const double oneThread = secondsOf([&] { results = simulateServingMany(trace, sweep, 1); });
    const double twoThreads = secondsOf([&] { results = simulateServingMany(trace, sweep, 2); });
    std::printf("sweep     %d cache sizes (%lld–%lld blocks): one thread %.2f s, two threads %.2f s "
                "(target < %.0f s) %s\n",
                kSweepPoints, static_cast<long long>(sweep.front().kvBlocksPerReplica),
                static_cast<long long>(sweep.back().kvBlocksPerReplica), oneThread, twoThreads, kTargetSweepSeconds,
                twoThreads < kTargetSweepSeconds ? "OK" : "SLOW");
    for (size_t i = 0; i < results.size(); i += 4)
        std::printf("          %6lld blocks: hit rate %.4f, rejected %lld, preemptions %lld\n",
                    static_cast<long long>(sweep[i].kvBlocksPerReplica), results[i].hitRateBlocks,
                    static_cast<long long>(results[i].rejected), static_cast<long long>(results[i].preemptions));
    return 0;
}
