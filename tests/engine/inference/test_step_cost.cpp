#include "common/models.h"

#include "engine/inference/goodput.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv.h"
#include "engine/inference/step_cost.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

constexpr double kBodyParams = 8030261248.0 - 2.0 * 128256.0 * 4096.0; // 6,979,588,096
constexpr double kHeadParams = 128256.0 * 4096.0;                     // 525,336,576

GpuEfficiency testProfile()
{
    GpuEfficiency e;
    e.bandwidth = 0.8;
    e.kvBandwidth = 0.9;
    e.matmulSmall = 0;
    e.matmulPeak = 0.8;
    e.matmulHalfTokens = 100;
    e.attention = 0.5;
    e.allReduceLatencyUs = 20;
    e.linkEfficiency = 0.8;
    e.iterationOverheadMs = 0.5;
    return e;
}

// Llama 3.1 8B in BF16 on one H100 SXM: 16,060,522,496 B of weights, 128 KiB KV per token,
// vocabulary 128,256 × hidden 4,096 for the LM head and (untied) the embedding.
StepCostModel llama8bOnH100()
{
    StepCostModel m;
    m.activeParams = 8030261248.0;
    m.headParams = kHeadParams;
    m.embeddingParams = kHeadParams;
    m.layers = 32;
    m.hiddenSize = 4096;
    m.attentionHeads = 32;
    m.headDim = 128;
    m.weightsBytes = 16060522496;
    m.kvPerToken = kvBytesPerToken(llama31_8b(), KvPrecision::Bf16, 1);
    m.tp = 1;
    m.hbmBandwidthGBps = 3350;
    m.tflops = 989;
    m.attentionTflops = 989;
    m.linkGBps = 450;
    m.efficiency = testProfile();
    m.measuredProfile = true;
    return m;
}

} // namespace

TEST_CASE("FP8 weights compute at the FP8 rate only where the GPU has it", "[goodput]")
{
    GpuSpec a100 = h100Sxm();
    a100.fp8Tflops = 0;
    a100.bf16Tflops = 312;
    CHECK(computeTflops(h100Sxm(), WeightPrecision::Fp8) == 1979);
    CHECK(computeTflops(h100Sxm(), WeightPrecision::Bf16) == 989);
    CHECK(computeTflops(h100Sxm(), WeightPrecision::Int4) == 989);
    CHECK(computeTflops(a100, WeightPrecision::Fp8) == 312);
}

TEST_CASE("FP8 weights take the profile's FP8 matmul pair, BF16 weights and a calibration's own pair do not",
          "[step-cost]")
{
    GpuSpec gpu = h100Sxm();
    GpuEfficiency profile = testProfile();
    profile.matmulPeakFp8 = 0.614;
    profile.matmulHalfTokensFp8 = 64;
    gpu.efficiency = profile;
    const ModelSpec model = llama31_8b();
    const KvResult kv;  // the weights' and KV's bytes play no part here
    const ServingAssumptions assumptions;

    const StepCostModel fp8 = stepCostModel(model, gpu, WeightPrecision::Fp8, kv, 1, assumptions);
    CHECK(fp8.tflops == 1979);
    CHECK(fp8.efficiency.matmulPeak == 0.614);
    CHECK(fp8.efficiency.matmulHalfTokens == 64);
    CHECK(fp8.efficiency.matmulPeakFp8 == 0); // the model carries only the pair in force
    // 2,048 tokens at 0.614 × 2,048 ÷ 2,112 of the FP8 peak.
    CHECK(matmulEfficiency(fp8.efficiency, 2048) == Approx(0.614 * 2048.0 / 2112.0).epsilon(1e-12));

    const StepCostModel bf16 = stepCostModel(model, gpu, WeightPrecision::Bf16, kv, 1, assumptions);
    CHECK(bf16.tflops == 989);
    CHECK(bf16.efficiency.matmulPeak == 0.8);
    CHECK(bf16.efficiency.matmulHalfTokens == 100);

    // A calibration of this deployment fitted its own pair and holds no FP8 one: it stands.
    DeploymentProfile calibrated{model.id, 1, WeightPrecision::Fp8, testProfile()};
    calibrated.efficiency.matmulPeak = 0.5;
    gpu.putCalibration(calibrated);
    const StepCostModel fitted = stepCostModel(model, gpu, WeightPrecision::Fp8, kv, 1, assumptions);
    CHECK(fitted.efficiency.matmulPeak == 0.5);
    CHECK(fitted.efficiency.matmulHalfTokens == 100);

    // Without an FP8 pair, FP8 weights use the BF16 one.
    gpu.calibrations.clear();
    gpu.efficiency = testProfile();
    CHECK(stepCostModel(model, gpu, WeightPrecision::Fp8, kv, 1, assumptions).efficiency.matmulPeak == 0.8);
}

TEST_CASE("a decode pass: overhead, the weights at η_bw and the KV at η_kv", "[step-cost]")
{
    const StepCostModel m = llama8bOnH100();
    REQUIRE(m.kvPerToken.total() == 131072);
    const StepCost c = stepCost(m, decodeStep(m, 1, 600));
    // 16,060,522,496 ÷ (3,350e9 × 0.8) = 5.9927 ms of weights, 600 × 131,072 ÷ (3,350e9 × 0.9)
    // = 0.0261 ms of KV, 0.5 ms overhead.
    CHECK(c.weightsS == Approx(16060522496.0 / (3350e9 * 0.8)).epsilon(1e-12));
    CHECK(c.kvReadS == Approx(600.0 * 131072 / (3350e9 * 0.9)).epsilon(1e-12));
    CHECK(c.overheadS == 0.5e-3);
    // One token: 2 × (body + head) FLOPs at η_mm = 0.8 × 1 ÷ 101, far below the weights' time.
    CHECK(c.matmulEfficiency == Approx(0.8 / 101).epsilon(1e-12));
    CHECK(c.linearComputeS == Approx(2.0 * (kBodyParams + kHeadParams) / (989e12 * 0.8 / 101)).epsilon(1e-12));
    CHECK_FALSE(c.computeBound());
    CHECK(c.attentionS == 0);
    CHECK(c.allReduceS == 0);
    CHECK(c.totalS == Approx(0.5e-3 + 16060522496.0 / 2.68e12 + 600.0 * 131072 / 3.015e12).epsilon(1e-12));
    CHECK(decodeStepSeconds(m, 1, 600) == c.totalS);
}

TEST_CASE("host time per sequence: each sampled sequence adds its microseconds, partial chunks none", "[step-cost]")
{
    StepCostModel m = llama8bOnH100();
    m.efficiency.sequenceOverheadUs = 50;
    // 64 decodes: 0.5 ms per pass + 64 × 50 µs = 3.7 ms of overhead, the rest as without it.
    const StepCost decodes = stepCost(m, decodeStep(m, 64, 600));
    CHECK(decodes.overheadS == Approx(0.5e-3 + 64 * 50e-6).epsilon(1e-12));
    StepCostModel none = m;
    none.efficiency.sequenceOverheadUs = 0;
    CHECK(decodes.totalS - stepCost(none, decodeStep(none, 64, 600)).totalS == Approx(64 * 50e-6).epsilon(1e-9));
    // A prompt chunk that does not finish samples nothing, so pays no per-sequence time.
    StepBatch chunk = prefillStep(m, 2048, 0);
    chunk.sampled = 0;
    CHECK(stepCost(m, chunk).overheadS == Approx(0.5e-3).epsilon(1e-12));
}

TEST_CASE("a mixture of experts reads only the experts its tokens touch", "[step-cost]")
{
    // Mixtral 8x7B's shape on the test profile: 46.7 B parameters of which 12.9 B active with
    // top-2 of 8 experts, so the experts hold (46.7 − 12.9) ÷ (1 − 2/8) = 45.07 B.
    ModelSpec mixtral;
    mixtral.paramsTotal = 46.7e9;
    mixtral.paramsActive = 12.9e9;
    mixtral.experts = 8;
    mixtral.expertsPerToken = 2;
    REQUIRE(mixtral.expertParams() == Approx((46.7e9 - 12.9e9) / 0.75));
    StepCostModel m = llama8bOnH100();
    m.weightsBytes = 93400000000;
    m.expertWeightShare = mixtral.expertParams() / mixtral.paramsTotal;
    m.experts = 8;
    m.expertsPerToken = 2;
    const double share = m.expertWeightShare;
    const double bytesPerSecond = 3350e9 * 0.8;
    // One token touches 2 of 8 experts: a quarter of the expert weights and all the rest.
    const StepCost one = stepCost(m, decodeStep(m, 1, 600));
    CHECK(one.expertsRead == Approx(0.25));
    CHECK(one.weightsS == Approx(93.4e9 * ((1 - share) + share * 0.25) / bytesPerSecond).epsilon(1e-12));
    // Eight tokens: 1 − 0.75^8 = 89.99 % of them; 64 tokens: all but 1e-8.
    CHECK(stepCost(m, decodeStep(m, 8, 600)).expertsRead == Approx(1 - std::pow(0.75, 8)));
    CHECK(stepCost(m, decodeStep(m, 64, 600)).weightsS == Approx(93.4e9 / bytesPerSecond).epsilon(1e-6));
    // A dense model reads everything at any batch.
    const StepCostModel dense = llama8bOnH100();
    CHECK(stepCost(dense, decodeStep(dense, 1, 600)).expertsRead == 1.0);
    CHECK(stepCost(dense, decodeStep(dense, 1, 600)).weightsS == Approx(16060522496.0 / bytesPerSecond).epsilon(1e-12));
}

TEST_CASE("a prefill pass: body FLOPs per token, the LM head once, attention over the pairs", "[step-cost]")
{
    const StepCostModel m = llama8bOnH100();
    const StepCost c = stepCost(m, prefillStep(m, 2048));
    const double eta = 0.8 * 2048 / (2048 + 100);
    CHECK(c.matmulEfficiency == Approx(eta).epsilon(1e-12));
    CHECK(c.linearComputeS == Approx(2.0 * (kBodyParams * 2048 + kHeadParams) / (989e12 * eta)).epsilon(1e-12));
    CHECK(c.computeBound());
    // 2,048 × 2,049 ÷ 2 pairs × 4 × 32 heads × 128 × 32 layers ÷ (989e12 × 0.5).
    CHECK(c.attentionS == Approx(2048.0 * 2049 / 2 * 4 * 32 * 128 * 32 / (989e12 * 0.5)).epsilon(1e-12));
    CHECK(c.totalS == Approx(0.5e-3 + c.linearComputeS + c.attentionS).epsilon(1e-12));

    SECTION("a second chunk attends to the first and reads its KV")
    {
        const StepBatch b = prefillStep(m, 2048, 2048);
        CHECK(b.attentionPairsFull == Approx(2048.0 * 2048 + 2048.0 * 2049 / 2).epsilon(1e-12));
        CHECK(b.kvReadBytes == 2048.0 * 131072);
        CHECK(prefillSeconds(m, 4096, 2048) == Approx(c.totalS + stepCost(m, b).totalS).epsilon(1e-12));
    }
}

TEST_CASE("a small prefill chunk rides almost free in a memory-bound decode pass", "[step-cost]")
{
    const StepCostModel m = llama8bOnH100();
    const double decode = stepCost(m, decodeStep(m, 32, 1000)).totalS;
    StepBatch mixed = decodeStep(m, 32, 1000);
    mixed.prefillTokens = 64;
    mixed.attentionPairsFull = attentionPairs(64, 0);
    const double together = stepCost(m, mixed).totalS;
    const double alone = stepCost(m, prefillStep(m, 64)).totalS;
    // The additive model would charge decode + alone; one pass charges the chunk's attention only.
    CHECK(together - decode < 0.05 * alone);
    CHECK(together > decode);
}

TEST_CASE("tensor parallel: weights and FLOPs split, two all-reduces per layer", "[step-cost]")
{
    StepCostModel tp2 = llama8bOnH100();
    tp2.tp = 2;
    tp2.weightsBytes = 16060522496 / 2;
    const StepCost c = stepCost(tp2, decodeStep(tp2, 8, 1000));
    // 8 tokens × 4,096 × 2 B = 65,536 B per call: 20 µs + 2 × (1/2) × 65,536 ÷ (450e9 × 0.8).
    const double perCall = 20e-6 + 65536.0 / (450e9 * 0.8);
    CHECK(c.allReduceS == Approx(2 * 32 * perCall).epsilon(1e-12));
    CHECK(c.weightsS == Approx(8030261248.0 / 2.68e12).epsilon(1e-12));
}

TEST_CASE("attention pairs of a chunk, capped by a sliding window", "[step-cost]")
{
    CHECK(attentionPairs(4, 0) == 10);          // 1 + 2 + 3 + 4
    CHECK(attentionPairs(2, 3) == 9);           // 4 + 5
    CHECK(attentionPairs(4, 0, 2) == 7);        // 1 + 2 + 2 + 2
    CHECK(attentionPairs(3, 5, 4) == 12);       // 4 + 4 + 4
    CHECK(attentionPairs(3, 2, 4) == 11);       // 3 + 4 + 4
    CHECK(attentionPairs(0, 7) == 0);
}

TEST_CASE("the fallback profile takes the workspace's efficiencies", "[step-cost]")
{
    const GpuEfficiency e = fallbackEfficiency(0.6, 0.7, 0.3);
    CHECK(e.bandwidth == 0.7);
    CHECK(e.kvBandwidth == 0.7);
    CHECK(matmulEfficiency(e, 1) == Approx(0.3 + 0.3 * 1 / 129.0).epsilon(1e-12));
    CHECK(matmulEfficiency(e, 1e9) == Approx(0.6).epsilon(1e-6));
    CHECK(e.attention == 0.6);
}

TEST_CASE("vLLM's scheduler limits by GPU", "[step-cost]")
{
    const SchedulerLimits h100 = vllmSchedulerDefaults(h100Sxm());
    CHECK(h100.maxNumBatchedTokens == 8192);
    CHECK(h100.maxNumSeqs == 1024);
    GpuSpec a100 = h100Sxm();
    a100.id = "a100-sxm-80gb";
    a100.name = "A100 SXM4 80GB";
    CHECK(vllmSchedulerDefaults(a100).maxNumBatchedTokens == 2048);
    CHECK(vllmSchedulerDefaults(a100).maxNumSeqs == 256);
    GpuSpec l40s = h100Sxm();
    l40s.id = "l40s";
    l40s.memoryBytes = 48LL << 30;
    CHECK(vllmSchedulerDefaults(l40s).maxNumSeqs == 256);
}

TEST_CASE("decode goodput picks the largest batch meeting the ITL SLO", "[goodput]")
{
    const StepCostModel m = llama8bOnH100();
    const DecodeGoodput g = decodeGoodput(m, 737, 600, 0.015);
    REQUIRE(g.batch > 1);
    CHECK(decodeStepSeconds(m, g.batch, 600) <= 0.015);
    CHECK(decodeStepSeconds(m, g.batch + 1, 600) > 0.015);
    CHECK(g.tokensPerSecond == Approx(double(g.batch) / g.stepSeconds).epsilon(1e-12));
    // Compute-bound there: 2 × (body + head) × (b + 100) ÷ (989e12 × 0.8) + b × 78,643,200 ÷ 3.015e12
    // ≤ 15 − 0.5 ms gives b ≤ 279.7.
    CHECK_FALSE(g.memoryBound);
    const double perToken = 2.0 * (kBodyParams + kHeadParams) / (989e12 * 0.8);
    CHECK(g.batch == int64_t(std::floor((0.0145 - 100 * perToken) / (perToken + 600.0 * 131072 / 3.015e12))));

    SECTION("the KV pool caps the batch")
    {
        CHECK(decodeGoodput(m, 100, 600, 0.015).batch == 100);
    }
    SECTION("prefill riding along lowers the batch that meets the SLO")
    {
        const DecodeGoodput mixed = decodeGoodput(m, 737, 600, 0.015, 2.0, 500);
        CHECK(mixed.batch < g.batch);
        CHECK(mixed.stepSeconds <= 0.015);
    }
    SECTION("an SLO below the batch-1 step has no batch")
    {
        const DecodeGoodput none = decodeGoodput(m, 737, 600, 0.002);
        CHECK(none.batch == 0);
        CHECK(none.tokensPerSecond == 0);
        CHECK(none.bestStepSeconds == Approx(decodeStepSeconds(m, 1, 600)).epsilon(1e-12));
    }
}

TEST_CASE("sliding-window layers read at most their window in decode", "[goodput]")
{
    StepCostModel m;
    m.kvPerToken = kvBytesPerToken(gemma2_9b(), KvPrecision::Bf16, 1);
    REQUIRE(m.kvPerToken.window == 4096);
    CHECK(kvReadBytes(m, 8000) == double(m.kvPerToken.fullLayers) * 8000 + double(m.kvPerToken.slidingLayers) * 4096);
    CHECK(kvReadBytes(m, 1000) == double(m.kvPerToken.total()) * 1000);
}
