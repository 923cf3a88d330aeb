#include "models.h"
#include "workloads.h"

#include "engine/errors.h"
#include "engine/inference_sizing.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

SizingResult size(const WorkloadProfile &w, const SizingOverrides &overrides = {})
{
    return sizeInference(w, llama31_8b(), h100Sxm(), overrides);
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
    const SizingResult r16 = size(chatWorkload(), fp16);
    const SizingResult r8 = size(chatWorkload(), fp8);
    CHECK(r16.weightsBytesPerGpu == 16060522496);
    CHECK(r8.weightsBytesPerGpu == 8030261248);
    CHECK(r16.weightsBytesPerGpu == 2 * r8.weightsBytesPerGpu);
    // The freed 7.5 GiB goes to the KV pool: more streams per replica, fewer replicas.
    CHECK(r8.kvPoolBytes - r16.kvPoolBytes == 8030261248);
    CHECK(r8.streamsPerReplica > r16.streamsPerReplica);
    CHECK(r8.replicasMemory < r16.replicasMemory);
}

TEST_CASE("sizing the chat workload: every stage with its numbers", "[sizing]")
{
    const SizingResult r = size(chatWorkload());
    CHECK(r.peakStreams == 5000);
    CHECK(r.peakRequestsPerS == Approx(11.574074074074074).epsilon(1e-12));
    CHECK(r.decodeTokensPerS == Approx(3472.222222222222).epsilon(1e-12));
    CHECK(r.contextTokens == 5000);
    // Pool floor(85,520,809,984 × 0.9) − 16,060,522,496 − 2 GiB; a stream 313 blocks × 2 MiB.
    CHECK(r.kvPoolBytes == 58760722841);
    CHECK(r.streamsPerReplica == 89);
    CHECK(r.replicasMemory == 57);
    CHECK(r.prefillTimeMs == Approx(103.93058035834176).epsilon(1e-9));
    CHECK(r.prefillCapacityTokensPerS == Approx(30789.78284318951).epsilon(1e-9));
    CHECK(r.decodeBatch == 89);
    CHECK(r.decodeStepMs == Approx(31.72177505159915).epsilon(1e-9));
    CHECK(r.goodputTokensPerS == Approx(2805.6437527607195).epsilon(1e-9));
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
    const SizingResult r = size(longContextWorkload());
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
    const SizingResult r = size(highRateWorkload());
    CHECK(r.peakStreams == 1000);
    CHECK(r.streamsPerReplica == 737);
    CHECK(r.replicasMemory == 2);
    // The largest batch whose step meets 15 ms at 600 tokens.
    CHECK(r.decodeBatch == 243);
    CHECK(r.decodeStepMs == Approx(14.998217524946694).epsilon(1e-9));
    CHECK(r.goodputTokensPerS == Approx(16201.925301844403).epsilon(1e-9));
    // ceil(1.5 × (57,870 ÷ 16,202 + 115,741 ÷ 30,790)) = ceil(10.99) = 11.
    CHECK(r.replicasCompute == 11);
    CHECK(r.binding == "compute");
    CHECK(r.replicas == 14);
    CHECK(r.gpus == 14);
}

TEST_CASE("measured goodput overrides the estimate", "[sizing]")
{
    WorkloadProfile w = highRateWorkload();
    w.measuredGoodputTokensPerS = 10000;
    const SizingResult r = size(w);
    CHECK(r.goodputSource == "measured");
    CHECK(r.goodputTokensPerS == 10000);
    // ceil(1.5 × 57,870.37 ÷ 10,000) = ceil(8.68) = 9.
    CHECK(r.replicasCompute == 9);
    CHECK(r.replicas == 11);
    CHECK(hasStep(r, "Goodput per replica", "10,000 tokens/s measured"));

    SECTION("measured max streams replace the KV estimate")
    {
        w.measuredMaxStreams = 100;
        const SizingResult m = size(w);
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
    const SizingResult r = size(highRateWorkload(), split);
    REQUIRE(r.prefillGpus.has_value());
    REQUIRE(r.decodeGpus.has_value());
    // Prefill: ceil(ceil(1.5 × 115,741 ÷ 30,790) × 1.2) = ceil(6 × 1.2) = 8.
    CHECK(*r.prefillGpus == 8);
    // Decode: ceil(1.5 × 57,870 ÷ 16,202) = 6 for compute, 2 for memory; ceil(6 × 1.2) = 8.
    CHECK(r.replicasCompute == 6);
    CHECK(*r.decodeGpus == 8);
    CHECK(*r.prefillGpus + *r.decodeGpus == r.gpus);
    CHECK(r.gpus == 16);
    CHECK(r.binding == "compute");

    SECTION("with TP 2 each pool counts two GPUs per replica")
    {
        split.tp = 2;
        const SizingResult t = size(highRateWorkload(), split);
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
    // Batch 1: (16,060,522,496 + 600 × 131,072) B ÷ (3,350 GB/s × 0.7) = 6.88 ms.
    CHECK(r.decodeStepMs == Approx(6.8823734311300635).epsilon(1e-9));
    CHECK(r.infeasibleReason.find("2 ms ITL SLO cannot be met even at batch 1") != std::string::npos);
    CHECK(r.infeasibleReason.find("best achievable 6.88 ms") != std::string::npos);
}

TEST_CASE("a TTFT SLO below the P95 prefill time is infeasible with the best TTFT", "[sizing][bad-input]")
{
    WorkloadProfile w = chatWorkload();
    w.ttftP95Ms = 50;
    const SizingResult r = size(w);
    CHECK_FALSE(r.feasible);
    CHECK(r.binding == "ttft");
    CHECK(r.gpus == 0);
    CHECK(r.infeasibleReason.find("best achievable TTFT 104 ms") != std::string::npos);
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
