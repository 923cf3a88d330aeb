#include "common/models.h"
#include "workloads.h"

#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/queueing.h"
#include "engine/inference/sizing_options.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

// Sizing with the default serving assumptions, or `residency` in place of request residency.
struct Sized {
    SizingOverrides overrides;
    KvResidency residency = KvResidency::Request;
};

SizingResult size(const WorkloadProfile &w, const Sized &how)
{
    ServingAssumptions assumptions;
    assumptions.residency = how.residency;
    assumptions.requestOverheadMs = 12; // the hand computations below add 12 ms to every TTFT
    return sizeInference(w, llama31_8b(), h100Sxm(), how.overrides, assumptions);
}

SizingResult size(const WorkloadProfile &w, const SizingOverrides &overrides = {})
{
    return size(w, Sized{overrides});
}

// Every open session holds its KV: the seed method (DAU × peak sessions per user).
Sized sessionResidency(SizingOverrides overrides = {})
{
    return Sized{overrides, KvResidency::Session};
}

std::string fieldOfError(const WorkloadProfile &w, const SizingOverrides &overrides = {})
{
    try {
        size(w, overrides);
    } catch (const InputError &e) {
        return e.field();
    }
    return "no error";
}

bool hasStep(const SizingResult &r, const std::string &title, const std::string &valuePart)
{
    return std::any_of(r.steps.begin(), r.steps.end(), [&](const SizingStep &s) {
        return s.title == title && s.value.find(valuePart) != std::string::npos;
    });
}

GpuSpec a100_40()
{
    GpuSpec g;
    g.id = "a100-sxm-40gb";
    g.name = "A100 SXM4 40GB";
    g.memoryBytes = 42949672960;
    g.nominalMemoryGB = 40;
    g.hbmBandwidthGBps = 1555;
    g.bf16Tflops = 312;
    g.pcieGBps = 32;
    g.tdpWatts = 400;
    return g;
}

GpuSpec h200()
{
    GpuSpec g = h100Sxm();
    g.id = "h200-sxm";
    g.name = "H200 SXM 141GB";
    g.memoryBytes = 150754820096;
    g.nominalMemoryGB = 141;
    g.hbmBandwidthGBps = 4800;
    return g;
}

} // namespace

TEST_CASE("golden: hit rate 20 % to 50 % lowers prefill_tokens_per_s by 37.5 %", "[sizing][golden]")
{
    SizingOverrides at20;
    at20.prefixHitRate = 0.2;
    SizingOverrides at50;
    at50.prefixHitRate = 0.5;
    const SizingResult r20 = size(chatWorkload(), at20);
    const SizingResult r50 = size(chatWorkload(), at50);
    // 50,000 × 20 ÷ 86,400 = 11.574 requests/s; × 1,000 × 0.8 and × 0.5.
    CHECK(r20.prefillTokensPerS == Approx(9259.259259259261).epsilon(1e-12));
    CHECK(r50.prefillTokensPerS == Approx(5787.037037037037).epsilon(1e-12));
    CHECK(1.0 - r50.prefillTokensPerS / r20.prefillTokensPerS == Approx(0.375).epsilon(1e-12));
    CHECK(prefillReduction(0.2, 0.5) == Approx(0.375).epsilon(1e-12));
}

TEST_CASE("golden: FP16 to FP8 weights halve weight memory in the sizing result", "[sizing][golden]")
{
    SizingOverrides fp16;
    fp16.weights = WeightPrecision::Fp16;
    SizingOverrides fp8;
    fp8.weights = WeightPrecision::Fp8;
    const SizingResult r16 = size(chatWorkload(), sessionResidency(fp16));
    const SizingResult r8 = size(chatWorkload(), sessionResidency(fp8));
    CHECK(r16.weightsBytesPerGpu == 16060522496);
    CHECK(r8.weightsBytesPerGpu == 8030261248);
    CHECK(r16.weightsBytesPerGpu == 2 * r8.weightsBytesPerGpu);
    // The freed 7.5 GiB goes to the KV pool: more streams per replica, fewer replicas.
    CHECK(r8.kvPoolBytes - r16.kvPoolBytes == 8030261248);
    CHECK(r8.streamsPerReplica > r16.streamsPerReplica);
    CHECK(r8.replicasMemory < r16.replicasMemory);
}

TEST_CASE("session residency reproduces the seed method's numbers for the chat workload", "[sizing][residency]")
{
    const SizingResult r = size(chatWorkload(), sessionResidency());
    CHECK(r.residency == KvResidency::Session);
    CHECK(r.sessionsResident == 5000);
    CHECK(r.peakStreams == 5000);
    CHECK(r.peakRequestsPerS == Approx(11.574074074074074).epsilon(1e-12));
    CHECK(r.decodeTokensPerS == Approx(3472.222222222222).epsilon(1e-12));
    CHECK(r.contextTokens == 5000);
    // Pool floor(85,520,809,984 × 0.9) − 16,060,522,496 − 2 GiB; a stream 313 blocks × 2 MiB.
    CHECK(r.kvPoolBytes == 58760722841);
    CHECK(r.streamsPerReplica == 89);
    CHECK(r.replicasMemory == 57);
    // The test H100 has no measured profile: the workspace's efficiencies (η 0.7 for bandwidth,
    // 0.5 for FLOPS and attention, 1 ms per pass). TTFT: 12 ms request overhead + one pass of
    // the 3,200 uncached tokens: 1 + 2 × 8.03e9 × 3,200 ÷ (989e12 × 0.5) + 3,200 × 3,201 ÷ 2 ×
    // 4 × 32 × 128 × 32 ÷ (989e12 × 0.5) ms.
    CHECK(r.prefillTimeMs == Approx(122.36069849949443).epsilon(1e-9));
    // A pass of 8,192 prompt tokens (max_num_batched_tokens) ÷ its time.
    CHECK(r.prefillCapacityTokensPerS == Approx(27068.255490763044).epsilon(1e-9));
    CHECK(r.decodeBatch == 89);
    // 89 decodes at 5,000 tokens with 89 × 2.667 prompt tokens riding (9,259 prefill ÷ 3,472
    // decode tokens/s): 1 + 2 × 8.03e9 × 326.3 ÷ 494.5e12 + 89 × 5,000 × 131,072 ÷ 2,345e9 +
    // attention 0.15 ms.
    CHECK(r.decodeStepMs == Approx(36.6226701226).epsilon(1e-9));
    CHECK(r.goodputTokensPerS == Approx(89 / 0.0366226701226).epsilon(1e-9));
    CHECK(r.goodputSource == "estimated");
    CHECK(r.replicasCompute == 3);
    CHECK(r.binding == "memory");
    CHECK(r.replicasNeeded == 57);
    CHECK(r.replicas == 69); // ceil(57 × 1.2)
    CHECK(r.headroomReplicas == 12);
    CHECK(r.gpus == 69);
    CHECK(r.gpusPerReplica == 1);
    CHECK(r.feasible);
    CHECK(r.infeasibleReason.empty());
    CHECK_FALSE(r.prefillGpus.has_value());
    CHECK_FALSE(r.decodeGpus.has_value());
    // Peak: 5,000 ÷ 89 = 56.18 replicas of demand on 69; flat day, so average = peak.
    CHECK(r.peakUtilization == Approx(5000.0 / 89.0 / 69.0).epsilon(1e-12));
    CHECK(r.averageUtilization == Approx(r.peakUtilization).epsilon(1e-12));

    CHECK(hasStep(r, "Peak concurrent streams", "50,000 × 0.1 = 5,000 streams"));
    CHECK(hasStep(r, "Prefill demand at peak", "= 9,259 tokens/s"));
    CHECK(hasStep(r, "Streams per replica", "= 89 streams"));
    CHECK(hasStep(r, "Replicas for memory", "ceil(5,000 ÷ 89) = 57"));
    CHECK(hasStep(r, "Replicas", "ceil(57 × 1.2) = 69 (12 kept free at peak by design)"));
    CHECK(hasStep(r, "GPUs", "69 × 1 = 69 GPUs"));
    for (const SizingStep &step : r.steps) {
        CHECK_FALSE(step.title.empty());
        CHECK_FALSE(step.formula.empty());
        CHECK_FALSE(step.value.empty());
    }
}

TEST_CASE("a diurnal peak raises the peak rate and lowers the average utilization", "[sizing]")
{
    WorkloadProfile w = chatWorkload();
    w.diurnal.fill(0.5);
    w.diurnal[12] = 2.0; // peak ÷ mean = 2 ÷ (23 × 0.5 + 2) × 24 = 48 ÷ 13.5
    const SizingResult r = size(w);
    const double peakToMean = 48.0 / 13.5;
    CHECK(r.peakRequestsPerS == Approx(50000.0 * 20.0 / 86400.0 * peakToMean).epsilon(1e-12));
    CHECK(r.averageUtilization == Approx(r.peakUtilization / peakToMean).epsilon(1e-12));
}

TEST_CASE("long contexts with many open sessions are memory-bound", "[sizing]")
{
    const SizingResult r = size(longContextWorkload(), sessionResidency());
    // 34,000 tokens × 128 KiB = 2,125 blocks of 2 MiB per stream: 13 streams per replica.
    CHECK(r.contextTokens == 34000);
    CHECK(r.peakStreams == 10000);
    CHECK(r.streamsPerReplica == 13);
    CHECK(r.replicasMemory == 770);
    CHECK(r.replicasCompute == 2);
    CHECK(r.binding == "memory");
    CHECK(r.replicas == 924);
    CHECK(r.gpus == 924);
    CHECK(hasStep(r, "Binding constraint", "memory: 770 replicas for memory, 2 for compute"));
}

TEST_CASE("short requests at a high rate with a tight ITL are compute-bound", "[sizing]")
{
    const SizingResult r = size(highRateWorkload(), sessionResidency());
    CHECK(r.peakStreams == 1000);
    CHECK(r.streamsPerReplica == 737);
    CHECK(r.replicasMemory == 2);
    // The largest batch whose pass meets 15 ms at 600 tokens with 2 prompt tokens riding per
    // decode (115,741 ÷ 57,870): 1 ms + b × (3 × 2 × 8.03e9 ÷ 494.5e12 + 600 × 131,072 ÷
    // 2,345e9 + 2 × 100 × 524,288 ÷ 494.5e12) ≤ 15 ms gives b = 106.
    CHECK(r.decodeBatch == 106);
    CHECK(r.decodeStepMs == Approx(14.9054523412).epsilon(1e-9));
    CHECK(r.goodputTokensPerS == Approx(106 / 0.0149054523412).epsilon(1e-9));
    // ceil(1.5 × 57,870 ÷ 7,111.5) = ceil(12.2) = 13: the prefill rides in the same passes.
    CHECK(r.replicasCompute == 13);
    CHECK(r.binding == "compute");
    CHECK(r.replicas == 16);
    CHECK(r.gpus == 16);
}

TEST_CASE("measured goodput overrides the estimate", "[sizing]")
{
    WorkloadProfile w = highRateWorkload();
    w.measuredGoodputTokensPerS = 10000;
    const SizingResult r = size(w, sessionResidency());
    CHECK(r.goodputSource == "measured");
    CHECK(r.goodputTokensPerS == 10000);
    // ceil(1.5 × 57,870.37 ÷ 10,000) = ceil(8.68) = 9.
    CHECK(r.replicasCompute == 9);
    CHECK(r.replicas == 11);
    CHECK(hasStep(r, "Goodput per replica", "10,000 tokens/s measured"));

    SECTION("measured max streams replace the KV estimate")
    {
        w.measuredMaxStreams = 100;
        const SizingResult m = size(w, sessionResidency());
        CHECK(m.streamsPerReplica == 100);
        CHECK(m.replicasMemory == 10);
    }
    SECTION("a what-if on another GPU falls back to the estimate")
    {
        w.measuredMaxStreams = 100;
        SizingOverrides other;
        other.gpuId = "h200-sxm";
        const SizingResult e = sizeInference(w, llama31_8b(), h200(), other);
        CHECK(e.goodputSource == "estimated");
        CHECK(e.streamsPerReplica > 100);
    }
    SECTION("a what-if on another precision falls back to the estimate")
    {
        SizingOverrides fp8;
        fp8.weights = WeightPrecision::Fp8;
        CHECK(size(w, fp8).goodputSource == "estimated");
    }
}

TEST_CASE("disaggregated prefill and decode pools sum to the GPUs", "[sizing]")
{
    SizingOverrides split;
    split.disaggregate = true;
    const SizingResult r = size(highRateWorkload(), sessionResidency(split));
    REQUIRE(r.prefillGpus.has_value());
    REQUIRE(r.decodeGpus.has_value());
    // Prefill: ceil(ceil(1.5 × 115,741 ÷ 27,068) × 1.2) = ceil(7 × 1.2) = 9.
    CHECK(*r.prefillGpus == 9);
    // Decode without prompts riding: 7 replicas for compute, 2 for memory; ceil(7 × 1.2) = 9.
    CHECK(r.replicasCompute == 7);
    CHECK(*r.decodeGpus == 9);
    CHECK(*r.prefillGpus + *r.decodeGpus == r.gpus);
    CHECK(r.gpus == 18);
    CHECK(r.binding == "compute");

    SECTION("with TP 2 each pool counts two GPUs per replica")
    {
        split.tp = 2;
        const SizingResult t = size(highRateWorkload(), sessionResidency(split));
        REQUIRE(t.prefillGpus.has_value());
        CHECK(*t.prefillGpus % 2 == 0);
        CHECK(*t.decodeGpus % 2 == 0);
        CHECK(*t.prefillGpus + *t.decodeGpus == t.gpus);
        CHECK(t.gpusPerReplica == 2);
    }
}

TEST_CASE("an ITL SLO missed even at batch 1 is infeasible with the best latency", "[sizing][bad-input]")
{
    WorkloadProfile w = highRateWorkload();
    w.itlP95Ms = 2;
    const SizingResult r = size(w);
    CHECK_FALSE(r.feasible);
    CHECK(r.binding == "itl");
    CHECK(r.replicas == 0);
    CHECK(r.gpus == 0);
    CHECK(r.decodeBatch == 0);
    // Batch 1: 1 ms + (16,060,522,496 + 600 × 131,072) B ÷ (3,350 GB/s × 0.7), and the two
    // prompt tokens riding along: 7.88 ms.
    CHECK(r.decodeStepMs == Approx(7.8825854789).epsilon(1e-9));
    CHECK(r.infeasibleReason.find("2 ms ITL SLO cannot be met even at batch 1") != std::string::npos);
    CHECK(r.infeasibleReason.find("best achievable 7.88 ms") != std::string::npos);
}

TEST_CASE("a TTFT SLO below the P95 prefill time is infeasible with the best TTFT", "[sizing][bad-input]")
{
    WorkloadProfile w = chatWorkload();
    w.ttftP95Ms = 50;
    const SizingResult r = size(w);
    CHECK_FALSE(r.feasible);
    CHECK(r.binding == "ttft");
    CHECK(r.gpus == 0);
    CHECK(r.infeasibleReason.find("best achievable TTFT 122 ms") != std::string::npos);
}

TEST_CASE("weights that do not fit the GPU make the plan infeasible on memory", "[sizing][bad-input]")
{
    WorkloadProfile w = chatWorkload();
    w.modelId = "llama-3.1-70b";
    w.gpuId = "a100-sxm-40gb";
    const SizingResult r = sizeInference(w, llama31_70b(), a100_40());
    CHECK_FALSE(r.feasible);
    CHECK(r.binding == "memory");
    CHECK(r.streamsPerReplica == 0);
    CHECK(r.infeasibleReason.find("short by") != std::string::npos);

    SECTION("TP 4 fits it")
    {
        w.tp = 4;
        const SizingResult t = sizeInference(w, llama31_70b(), a100_40());
        CHECK(t.feasible);
        CHECK(t.gpus == t.replicas * 4);
    }
}

TEST_CASE("bad workload input names the field", "[sizing][bad-input]")
{
    WorkloadProfile w = chatWorkload();
    SECTION("hit rate 1.5 in the profile")
    {
        w.prefixHitRate = 1.5;
        CHECK(fieldOfError(w) == "prefix_hit_rate");
    }
    SECTION("hit rate 1.5 as a what-if")
    {
        SizingOverrides o;
        o.prefixHitRate = 1.5;
        CHECK(fieldOfError(w, o) == "prefix_hit_rate");
    }
    SECTION("P95 prompt below P50")
    {
        w.promptTokens = {1000, 900};
        CHECK(fieldOfError(w) == "prompt_p95");
    }
    SECTION("P95 output below P50")
    {
        w.outputTokens = {300, 200};
        CHECK(fieldOfError(w) == "output_p95");
    }
    SECTION("TP 0 as a what-if")
    {
        SizingOverrides o;
        o.tp = 0;
        CHECK(fieldOfError(w, o) == "tp");
    }
}

TEST_CASE("the GPU and model passed must be the ones the profile or override names", "[sizing][bad-input]")
{
    const WorkloadProfile w = chatWorkload();
    try {
        sizeInference(w, llama31_8b(), h200());
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "gpu");
    }
    try {
        sizeInference(w, llama31_70b(), h100Sxm());
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "model");
    }
}

TEST_CASE("what-ifs cover every GPU x weights x KV and mark a cheaper tier", "[sizing][whatif]")
{
    WorkloadProfile w = chatWorkload();
    w.modelId = "llama-3.1-70b";
    w.tp = 2;
    const std::vector<GpuSpec> gpus = {a100_40(), h100Sxm(), h200()};
    const std::vector<WhatIf> all = sizingWhatIfs(w, llama31_70b(), gpus);
    REQUIRE(all.size() == 3 * 3 * 2);
    CHECK(all.front().gpuId == "a100-sxm-40gb");
    CHECK(all.front().weights == WeightPrecision::Bf16);
    CHECK(all.front().kv == KvPrecision::Bf16);
    CHECK(all[1].kv == KvPrecision::Fp8);
    CHECK(all[2].weights == WeightPrecision::Fp8);
    CHECK(all[4].weights == WeightPrecision::Int4);

    for (const WhatIf &whatIf : all) {
        const bool smaller = whatIf.gpuId == "a100-sxm-40gb";
        CHECK(whatIf.dropsToCheaperTier == (smaller && whatIf.result.feasible));
        if (whatIf.gpuId != "a100-sxm-40gb")
            CHECK_FALSE(whatIf.dropsToCheaperTier);
    }
    // 70B in BF16 at TP 2 is 65.7 GiB per GPU: it does not fit a 40 GB A100, FP8 and INT4 do.
    CHECK_FALSE(all[0].result.feasible);
    CHECK(all[0].result.binding == "memory");
    CHECK(all[2].result.feasible);
    CHECK(all[2].dropsToCheaperTier);
    CHECK(all[4].dropsToCheaperTier);
}

TEST_CASE("Poisson quantiles match the table values", "[sizing][residency]")
{
    // Poisson(10): P(N ≤ 17) = 0.9857, P(N ≤ 18) = 0.9928 — the P99 is 18.
    CHECK(poissonQuantile(10, 0.99) == 18);
    // Poisson(100): P(N ≤ 123) = 0.9893, P(N ≤ 124) = 0.9912.
    CHECK(poissonQuantile(100, 0.99) == 124);
    // Poisson(1): P(N ≤ 3) = 0.9810, P(N ≤ 4) = 0.9963; the median of Poisson(1) is 1.
    CHECK(poissonQuantile(1, 0.99) == 4);
    CHECK(poissonQuantile(1, 0.5) == 1);
    CHECK(poissonQuantile(0, 0.99) == 0);
    // A large mean: the normal approximation mean + 2.326 σ is within a count or two.
    const int64_t large = poissonQuantile(1e6, 0.99);
    CHECK(large >= 1002320);
    CHECK(large <= 1002330);
    try {
        poissonQuantile(10, 1.0);
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "in_flight_quantile");
    }
}

TEST_CASE("Little's law on a hand-computed case: requests in flight for the chat workload", "[sizing][residency]")
{
    const SizingResult r = size(chatWorkload());
    CHECK(r.residency == KvResidency::Request);
    // Rate 50,000 × 20 ÷ 86,400 = 11.574 requests/s (flat day).
    // Prefill of the P50 prompt: 12 ms request overhead + 1 ms pass overhead + 2 × 8.03e9 × 800 ÷
    // (989e12 × 0.5) + 800 × 801 ÷ 2 × 524,288 ÷ (989e12 × 0.5) = 39.32 ms.
    CHECK(r.prefillTimeP50Ms == Approx(39.322345544994945).epsilon(1e-9));
    // The fixed point settles at batch 11: step = 1 ms + (16,060,522,496 + 11 × 1,300 × 131,072)
    // B ÷ (3,350 GB/s × 0.7) = 8.648 ms; W = 200 + 39.32 + 300 × 8.648 = 2,833.76 ms.
    CHECK(r.operatingBatch == 11);
    CHECK(r.operatingStepMs == Approx(8.64812456119403).epsilon(1e-9));
    CHECK(r.timeInSystemMs == Approx(2833.759713903204).epsilon(1e-9));
    // L = 11.574 × 2.83376 = 32.798 requests in flight; P99 of Poisson(32.798) = 47.
    CHECK(r.inFlightMean == Approx(32.798144836842646).epsilon(1e-9));
    CHECK(r.inFlightMean == Approx(r.peakRequestsPerS * r.timeInSystemMs / 1000.0).epsilon(1e-12));
    CHECK(r.inFlightQuantileCount == 47);
    CHECK(r.peakStreams == 47);
    // Memory: ceil(47 ÷ 89) = 1 replica; compute 3 binds; ceil(3 × 1.2) = 4 replicas.
    CHECK(r.replicasMemoryRequest == 1);
    CHECK(r.replicasMemorySession == 57);
    CHECK(r.replicasMemory == 1);
    CHECK(r.replicasCompute == 3);
    CHECK(r.binding == "compute");
    CHECK(r.replicas == 4);
    CHECK(r.gpus == 4);
    CHECK(hasStep(r, "Requests in flight (Little's law)", "= 32.8 requests"));
    CHECK(hasStep(r, "In-flight P99", "P99 of Poisson(32.8) = 47 requests"));
    CHECK(hasStep(r, "Fixed point of W, batch and replicas", "rounds at batch 11"));
    // 5,000 sessions are far above 3 × 47: the breakdown warns and shows both models.
    CHECK(r.residencyWarning
          == "5,000 sessions held resident need 57 replicas; 32.8 requests in flight (P99 47) need 1 — "
             "choose the residency model");
    CHECK(hasStep(r, "Residency models side by side", "session: 5,000 streams → 57 replicas for memory"));
    CHECK(hasStep(r, "Residency models side by side", "request (used): 47 streams → 1 replica for memory"));
}

TEST_CASE("the fixed point of W, batch and replicas converges and is stable", "[sizing][residency]")
{
    for (const WorkloadProfile &w : {chatWorkload(), longContextWorkload(), highRateWorkload()}) {
        INFO(w.name);
        const SizingResult r = size(w);
        REQUIRE(r.feasible);
        CHECK(r.fixedPointConverged);
        CHECK(r.fixedPointIterations >= 1);
        CHECK(r.fixedPointIterations < 64);
        // Stable: one more round from the fixed point gives the same batch.
        const int64_t replicas = std::max<int64_t>({r.replicasMemoryRequest, r.replicasCompute, 1});
        const int64_t next = std::clamp<int64_t>(
            int64_t(std::ceil(r.inFlightMean / double(replicas) - 1e-9)), 1, r.streamsPerReplica);
        CHECK(next == r.operatingBatch);
        // And deterministic: sizing again gives identical numbers.
        const SizingResult again = size(w);
        CHECK(again.timeInSystemMs == r.timeInSystemMs);
        CHECK(again.inFlightQuantileCount == r.inFlightQuantileCount);
        CHECK(again.replicas == r.replicas);
    }
}

TEST_CASE("session and request residency differ only on the memory side", "[sizing][residency]")
{
    const SizingResult request = size(longContextWorkload());
    const SizingResult session = size(longContextWorkload(), sessionResidency());
    // Both report the same in-flight figures and session count whichever is used.
    CHECK(request.inFlightMean == session.inFlightMean);
    CHECK(request.inFlightQuantileCount == session.inFlightQuantileCount);
    CHECK(request.sessionsResident == session.sessionsResident);
    CHECK(request.replicasMemorySession == session.replicasMemorySession);
    CHECK(request.replicasMemoryRequest == session.replicasMemoryRequest);
    CHECK(request.replicasCompute == session.replicasCompute);
    CHECK(request.peakStreams == request.inFlightQuantileCount);
    CHECK(session.peakStreams == 10000);
    CHECK(session.replicasMemory == 770);
    CHECK(request.replicasMemory < session.replicasMemory);
    CHECK(request.replicas < session.replicas);
    // Session residency avoids re-prefilling: at most the uncached prefill at the hit rate.
    CHECK(session.sessionPrefillSavedTokensPerS == Approx(session.prefillTokensPerS));
}

TEST_CASE("a higher in-flight quantile never sizes fewer streams", "[sizing][residency]")
{
    ServingAssumptions p90;
    p90.inFlightQuantile = 0.9;
    ServingAssumptions p999;
    p999.inFlightQuantile = 0.999;
    const SizingResult low = sizeInference(chatWorkload(), llama31_8b(), h100Sxm(), {}, p90);
    const SizingResult high = sizeInference(chatWorkload(), llama31_8b(), h100Sxm(), {}, p999);
    CHECK(low.inFlightQuantileCount < high.inFlightQuantileCount);
    CHECK(hasStep(high, "In-flight P99.9", "P99.9 of Poisson"));
    ServingAssumptions bad;
    bad.inFlightQuantile = 1.0;
    try {
        sizeInference(chatWorkload(), llama31_8b(), h100Sxm(), {}, bad);
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "in_flight_quantile");
    }
}

TEST_CASE("the option table covers every GPU x precision with its best TP, sorted by cost", "[sizing][options]")
{
    WorkloadProfile w = chatWorkload();
    w.modelId = "llama-3.1-70b";
    w.tp = 2;
    const std::vector<GpuSpec> gpus = {a100_40(), h100Sxm(), h200()};
    const std::vector<GpuRate> rates = {
        {"h100-sxm", Money{*Decimal::parse("3.99"), "USD"}, "test card"},
        {"a100-sxm-40gb", Money{*Decimal::parse("1.50"), "USD"}, "test card"},
    };
    const std::vector<SizingOption> options = sizingOptions(w, llama31_70b(), gpus, rates);
    REQUIRE(options.size() == 3 * 3 * 2);
    // Priced and feasible first by cost, then unpriced (H200) by GPUs, then infeasible.
    int rank = 0;
    for (size_t i = 0; i < options.size(); ++i) {
        const SizingOption &o = options[i];
        INFO(o.gpuId << " " << toString(o.weights) << " " << toString(o.kv));
        const int r = !o.result.feasible ? 2 : o.costPerMonth ? 0 : 1;
        CHECK(r >= rank);
        rank = r;
        if (o.result.feasible) {
            CHECK(o.tp >= 1);
            CHECK(o.result.gpusPerReplica == o.tp);
            // The best TP: no other TP in 1, 2, 4, 8 needs fewer GPUs.
            for (int tp : {1, 2, 4, 8}) {
                SizingOverrides at;
                at.gpuId = o.gpuId;
                at.weights = o.weights;
                at.kv = o.kv;
                at.tp = tp;
                const GpuSpec &gpu = *std::find_if(gpus.begin(), gpus.end(),
                                                   [&](const GpuSpec &g) { return g.id == o.gpuId; });
                const SizingResult other = sizeInference(w, llama31_70b(), gpu, at);
                if (other.feasible)
                    CHECK(other.gpus >= o.result.gpus);
            }
        } else {
            CHECK(o.tp == 0);
            CHECK_FALSE(o.costPerMonth.has_value());
        }
        if (o.costPerMonth) {
            // GPUs × rate × 720 hours of the 30-day month, exactly.
            CHECK(*o.costPerMonth == o.rate->perGpuHour * (o.result.gpus * kHoursPerMonth));
            if (i > 0 && options[i - 1].costPerMonth)
                CHECK(options[i - 1].costPerMonth->amount <= o.costPerMonth->amount);
        }
        if (o.gpuId == "h200-sxm")
            CHECK_FALSE(o.rate.has_value());
    }
    CHECK(options.front().costPerMonth.has_value());
}

TEST_CASE("on-demand rates: the cheapest card in force per GPU", "[sizing][options]")
{
    RateCard a;
    a.provider = "A";
    a.region = "r1";
    a.gpuId = "h100-sxm";
    a.effectiveDate = "2025-01-01";
    a.onDemand = *Decimal::parse("4.00");
    RateCard aLater = a;
    aLater.effectiveDate = "2025-06-01";
    aLater.onDemand = *Decimal::parse("3.50");
    RateCard b = a;
    b.provider = "B";
    b.onDemand = *Decimal::parse("3.75");
    const std::vector<RateCard> cards = {a, aLater, b};
    auto rates = onDemandRates(cards, "2025-03-01");
    REQUIRE(rates.size() == 1);
    CHECK(rates[0].perGpuHour.amount == *Decimal::parse("3.75"));
    rates = onDemandRates(cards, "2025-07-01");
    REQUIRE(rates.size() == 1);
    CHECK(rates[0].perGpuHour.amount == *Decimal::parse("3.50"));
    CHECK(rates[0].source == "A r1, from 2025-06-01");
    CHECK(onDemandRates(cards, "2025-07-01", "USD", "B")[0].perGpuHour.amount == *Decimal::parse("3.75"));
    CHECK(onDemandRates(cards, "2024-01-01").empty());
}

TEST_CASE("a fleet of one says 'stream', 'session' and 'replica' in the singular", "[sizing]")
{
    // One user with one session a day: one stream and one session resident, one replica.
    WorkloadProfile w = chatWorkload();
    w.dailyActiveUsers = 1;
    w.peakSessionsPerUser = 1;
    const SizingResult r = size(w, sessionResidency());
    REQUIRE(r.peakStreams == 1);
    REQUIRE(r.replicasMemory == 1);
    CHECK(hasStep(r, "Peak concurrent streams", "= 1 stream"));
    CHECK(hasStep(r, "Sessions held resident", "= 1 session"));
    CHECK(hasStep(r, "Residency models side by side", "session (used): 1 stream → 1 replica"));
    CHECK(hasStep(r, "Binding constraint", "1 replica for memory"));
    for (const SizingStep &s : r.steps) {
        INFO(s.title << ": " << s.value);
        for (const char *wrong : {" 1 streams", " 1 sessions", " 1 replicas", "= 1 streams", "= 1 sessions"})
            CHECK(s.value.find(wrong) == std::string::npos);
    }
}
