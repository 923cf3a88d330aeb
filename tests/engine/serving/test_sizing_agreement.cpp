// Sizing and simulation agree: the replicas inference sizing recommends for a workload meet the
// workload's TTFT and ITL SLOs at P95 when a trace of that workload at its peak rate is replayed
// by the serving simulation with the same step-cost model, scheduler and assumptions.
#include "common/models.h"
#include "inference/workloads.h"

#include "engine/inference/inference_sizing.h"
#include "engine/serving/serving_sim.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

// Token counts log-normal with the profile's P50 and P95 (σ from the ratio: P95 = P50 × e^1.645σ).
int64_t draw(std::mt19937_64 &random, const TokenPercentiles &p)
{
    const double sigma = std::log(std::max(p.p95 / p.p50, 1.0)) / 1.6448536269514722;
    std::lognormal_distribution<double> tokens(std::log(p.p50), sigma);
    return std::max<int64_t>(1, int64_t(std::llround(tokens(random))));
}

// `requests` requests at the workload's peak rate (Poisson), its lengths, and prefix hashes at
// 16-token blocks from its hit rate.
std::vector<TraceRequest> traceOf(const WorkloadProfile &w, double ratePerS, int requests)
{
    std::mt19937_64 random(7);
    std::exponential_distribution<double> gap(ratePerS);
    std::vector<TraceRequest> trace(static_cast<size_t>(requests));
    double t = 0;
    for (TraceRequest &r : trace) {
        t += gap(random);
        r.timestampS = t;
        r.promptTokens = draw(random, w.promptTokens);
        r.outputTokens = draw(random, w.outputTokens);
    }
    return withGeneratedHashes(std::move(trace), w.sharedPrefixTokens, w.prefixHitRate, 16);
}

ServingSimResult simulateSized(const WorkloadProfile &w, const SizingResult &sized, int replicas, int requests)
{
    const ServingAssumptions assumptions;
    KvInputs in;
    in.model = llama31_8b();
    in.gpuMemoryBytes = h100Sxm().memoryBytes;
    in.weights = w.weights;
    in.kv = w.kv;
    in.tp = w.tp;
    in.utilization = assumptions.memoryUtilization;
    in.reserveBytes = assumptions.reserveBytes;
    in.blockSize = assumptions.blockSize;
    ServingSimConfig c;
    c.replicas = replicas;
    c.blockSize = assumptions.blockSize;
    c.kvBlocksPerReplica = kvBlocksPerReplica(in);
    applyServingAssumptions(c, assumptions, in.model, h100Sxm(), w.weights, analyseKv(in), w.tp);
    c.router = RouterKind::KvAware;
    c.ttftSloMs = w.ttftP95Ms;
    c.itlSloMs = w.itlP95Ms;
    return simulateServing(traceOf(w, sized.peakRequestsPerS, requests), c);
}

} // namespace

TEST_CASE("the replicas sizing recommends meet the SLOs in the simulation", "[sizing][serving-sim]")
{
    for (const WorkloadProfile &w : {chatWorkload(), highRateWorkload()}) {
        const SizingResult sized = sizeInference(w, llama31_8b(), h100Sxm(), {}, ServingAssumptions());
        REQUIRE(sized.feasible);
        const ServingSimResult r = simulateSized(w, sized, int(sized.replicas), 6000);
        INFO(w.name << ": " << sized.replicas << " replicas sized (" << sized.binding << " binds); simulated TTFT P95 "
                    << r.ttftMs.p95 << " ms against " << w.ttftP95Ms << ", ITL P95 " << r.itlMs.p95 << " ms against "
                    << w.itlP95Ms << ", attainment " << *r.sloAttainment);
        CHECK(r.rejected == 0);
        CHECK(r.ttftMs.p95 <= w.ttftP95Ms);
        CHECK(r.itlMs.p95 <= w.itlP95Ms);
        CHECK(*r.sloAttainment >= 0.95);
    }
}

TEST_CASE("sizing is not padded beyond need: a third of the replicas misses the SLOs", "[sizing][serving-sim]")
{
    const WorkloadProfile w = highRateWorkload();
    const SizingResult sized = sizeInference(w, llama31_8b(), h100Sxm(), {}, ServingAssumptions());
    REQUIRE(sized.replicas >= 3);
    const ServingSimResult r = simulateSized(w, sized, int(sized.replicas / 3), 6000);
    INFO(sized.replicas / 3 << " of " << sized.replicas << " replicas: ITL P95 " << r.itlMs.p95 << " ms, TTFT P95 "
                            << r.ttftMs.p95 << " ms, attainment " << *r.sloAttainment);
    CHECK(*r.sloAttainment < 0.95);
}
