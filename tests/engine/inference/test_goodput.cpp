#include "common/models.h"

#include "engine/inference/goodput.h"
#include "engine/inference/kv.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

// Llama 3.1 8B in BF16 on one H100 SXM: 16,060,522,496 B of weights, 128 KiB KV per token.
ReplicaRoofline llama8bOnH100()
{
    ReplicaRoofline r;
    r.activeParams = 8030261248.0;
    r.weightsBytes = 16060522496;
    r.kvPerToken = kvBytesPerToken(llama31_8b(), KvPrecision::Bf16, 1);
    r.tp = 1;
    r.hbmBandwidthGBps = 3350;
    r.tflops = 989;
    return r;
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

TEST_CASE("prefill roofline: 2 x N_active FLOPs per token at an efficiency", "[goodput]")
{
    const ReplicaRoofline r = llama8bOnH100();
    // 989e12 × 0.5 ÷ (2 × 8,030,261,248) = 30,789.78 tokens/s.
    CHECK(prefillTokensPerSecond(r) == Approx(30789.78284318951).epsilon(1e-12));
    CHECK(prefillSeconds(r, 30789.78284318951) == Approx(1.0).epsilon(1e-12));
    ReplicaRoofline tp2 = r;
    tp2.tp = 2;
    CHECK(prefillSeconds(tp2, 1000) == Approx(prefillSeconds(r, 1000) / 2).epsilon(1e-12));
}

TEST_CASE("decode step: weights and KV at HBM bandwidth, or the compute term", "[goodput]")
{
    const ReplicaRoofline r = llama8bOnH100();
    // (16,060,522,496 + 600 × 131,072) ÷ (3,350e9 × 0.7) = 6.8824 ms.
    CHECK(decodeStepSeconds(r, 1, 600) == Approx(6.8823734311300635e-3).epsilon(1e-12));
    // Memory term at 1,000 streams of 600 tokens: (16.06e9 + 1,000 × 78.6e6) ÷ 2,345e9.
    CHECK(decodeStepSeconds(r, 1000, 600)
          == Approx((16060522496.0 + 1000.0 * 600 * 131072) / 2345e9).epsilon(1e-12));

    ReplicaRoofline slowCompute = r;
    slowCompute.tflops = 1; // 2 × 8.03e9 × 4 ÷ 0.5e12 = 128.5 ms dominates
    CHECK(decodeStepSeconds(slowCompute, 4, 600)
          == Approx(2.0 * 8030261248.0 * 4 / 0.5e12).epsilon(1e-12));
}

TEST_CASE("decode goodput picks the largest batch meeting the ITL SLO", "[goodput]")
{
    const ReplicaRoofline r = llama8bOnH100();
    const DecodeGoodput g = decodeGoodput(r, 737, 600, 0.015);
    // Memory-bound: floor((0.015 × 2,345e9 − 16,060,522,496) ÷ 78,643,200) = 243.
    CHECK(g.batch == 243);
    CHECK(g.memoryBound);
    CHECK(decodeStepSeconds(r, 243, 600) <= 0.015);
    CHECK(decodeStepSeconds(r, 244, 600) > 0.015);
    CHECK(g.tokensPerSecond == Approx(243 / g.stepSeconds).epsilon(1e-12));

    SECTION("the KV pool caps the batch")
    {
        const DecodeGoodput capped = decodeGoodput(r, 100, 600, 0.015);
        CHECK(capped.batch == 100);
    }
    SECTION("an SLO below the batch-1 step has no batch")
    {
        const DecodeGoodput none = decodeGoodput(r, 737, 600, 0.002);
        CHECK(none.batch == 0);
        CHECK(none.tokensPerSecond == 0);
        CHECK(none.bestStepSeconds == Approx(6.8823734311300635e-3).epsilon(1e-12));
    }
}

TEST_CASE("sliding-window layers read at most their window in decode", "[goodput]")
{
    ReplicaRoofline r;
    r.kvPerToken = kvBytesPerToken(gemma2_9b(), KvPrecision::Bf16, 1);
    REQUIRE(r.kvPerToken.window == 4096);
    CHECK(kvReadBytesPerStream(r, 8000)
          == double(r.kvPerToken.fullLayers) * 8000 + double(r.kvPerToken.slidingLayers) * 4096);
    CHECK(kvReadBytesPerStream(r, 1000) == double(r.kvPerToken.total()) * 1000);
}
