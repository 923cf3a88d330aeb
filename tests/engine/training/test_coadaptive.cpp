#include "engine/common/errors.h"
#include "engine/training/coadaptive.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

namespace {

// α_c 0.1 s + β_c 0.01 s a sample; within a node α_r 0.05 s + β_r 0.005 s a replica past 2,
// across nodes α_n 0.2 s + β_n 0.02 s; no overlap (γ = 1); φ = 1,000 samples; tuned at M₀ = 128;
// batches up to 512, micro-batches up to 64, 4 GPUs a node.
GoodputJob handJob()
{
    GoodputJob job;
    job.perf.alphaCompute = 0.1;
    job.perf.betaCompute = 0.01;
    job.perf.alphaIntra = 0.05;
    job.perf.betaIntra = 0.005;
    job.perf.alphaInter = 0.2;
    job.perf.betaInter = 0.02;
    job.perf.gamma = 1.0;
    job.noiseScale = 1000;
    job.initialBatch = 128;
    job.maxBatch = 512;
    job.maxMicroBatch = 64;
    job.gpusPerNode = 4;
    return job;
}

} // namespace

TEST_CASE("Pollux goodput: the optimum on 1, 2, 4 and 8 GPUs matches the hand computation", "[coadaptive]")
{
    const GoodputJob job = handJob();
    // With s accumulation steps and γ = 1, goodput f(m) = N m (s+1) × (φ + M₀) ÷
    // [((s+1) T_grad(m) + T_sync) (φ + N m (s+1))]; df/dm = 0 where the numerator's derivative
    // vanishes, e.g. for N = 4, s = 0: 160 − 0.04 m² = 0 → m* = 63.2.

    // 1 GPU: M ≥ 128 needs s ≥ 1 with m ≤ 64; s = 1, m = 64: 128 ÷ (2 × 0.74 s) = 86.486 (E = 1).
    // (s = 2 peaks at m* = 57.7: f(58) = 81.95, lower.)
    const GoodputPoint one = bestGoodput(job, 1);
    CHECK(one.microBatch == 64);
    CHECK(one.accumulation == 1);
    CHECK(one.batch == 128);
    CHECK(one.goodput == Approx(128.0 / 1.48));

    // 2 GPUs in a node: T_sync = 0.05 s. s = 0 needs m = 64 (M = 128): 128 ÷ 0.79 s = 162.025;
    // s = 1 peaks at m* = 55.9: f(56) = 150.68, lower.
    const GoodputPoint two = bestGoodput(job, 2);
    CHECK(two.microBatch == 64);
    CHECK(two.accumulation == 0);
    CHECK(two.goodput == Approx(128.0 / 0.79));

    // 4 GPUs in a node: T_sync = 0.05 + 0.005 × 2 = 0.06 s; s = 0, m* = 63.2: f(63) = 4 × 63 ×
    // 1,128 ÷ (0.79 × 1,252) = 287.397 against f(64) = 287.389; M = 252, E = 1,128 ÷ 1,252.
    const GoodputPoint four = bestGoodput(job, 4);
    CHECK(four.microBatch == 63);
    CHECK(four.accumulation == 0);
    CHECK(four.batch == 252);
    CHECK(four.efficiency == Approx(1128.0 / 1252.0));
    CHECK(four.goodput == Approx(4.0 * 63 * 1128 / (0.79 * 1252)));

    // 8 GPUs on 2 nodes: T_sync = 0.2 + 0.02 × 6 = 0.32 s; m* = 72.5 past the 64 limit: m = 64,
    // M = 512, f = 8 × 64 × 1,128 ÷ (1.06 × 1,512) = 360.35.
    const GoodputPoint eight = bestGoodput(job, 8);
    CHECK(eight.nodes == 2);
    CHECK(eight.microBatch == 64);
    CHECK(eight.batch == 512);
    CHECK(eight.goodput == Approx(8.0 * 64 * 1128 / (1.06 * 1512)));

    const std::vector<GoodputPoint> curve = goodputCurve(job, 8);
    REQUIRE(curve.size() == 8);
    CHECK(curve[3].goodput == Approx(four.goodput));
    // 7 GPUs (2 nodes): f(64) = 7 × 64 × 1,128 ÷ (1.04 × 1,448) = 335.57 < 8 GPUs.
    CHECK(curve[6].goodput == Approx(7.0 * 64 * 1128 / (1.04 * 1448)));
}

TEST_CASE("Pollux goodput: a fixed choice against the adaptive one", "[coadaptive]")
{
    const GoodputJob job = handJob();
    // 10⁶ M₀-samples. Fixed: 2 GPUs at M₀ = 128 (m = 64): 162.025 a second → 1.7144 h, 3.4288
    // GPU-hours. Adaptive (fastest within 8 GPUs): 8 GPUs at M = 512, 360.35 a second → 0.77086 h,
    // 6.1669 GPU-hours.
    const AdaptiveComparison fastest = compareFixedAdaptive(job, 2, 8, 1e6);
    CHECK(fastest.fixed.batch == 128);
    CHECK(fastest.fixedHours == Approx(1e6 / (128.0 / 0.79) / 3600));
    CHECK(fastest.fixedGpuHours == Approx(2 * 1e6 / (128.0 / 0.79) / 3600));
    CHECK(fastest.adaptive.gpus == 8);
    CHECK(fastest.adaptiveHours == Approx(1e6 / (8.0 * 64 * 1128 / (1.06 * 1512)) / 3600));
    // Cheapest: GPUs ÷ goodput is least on 1 GPU (1 ÷ 86.49 against 2 ÷ 162.03 and 4 ÷ 287.4).
    const AdaptiveComparison cheapest = compareFixedAdaptive(job, 2, 8, 1e6, true);
    CHECK(cheapest.adaptive.gpus == 1);
    CHECK(cheapest.adaptiveGpuHours < cheapest.fixedGpuHours);

    CHECK_THROWS_WITH(compareFixedAdaptive(job, 3, 8, 1e6), Catch::Contains("cannot make a batch of exactly 128"));
    GoodputJob bad = job;
    bad.perf.gamma = 0.5;
    CHECK_THROWS_WITH(bestGoodput(bad, 2), Catch::Contains("from 1 (no overlap) to 10"));
    bad = job;
    bad.maxBatch = 64;
    CHECK_THROWS_WITH(bestGoodput(bad, 2), Catch::Contains("at least the initial batch (128)"));
}

TEST_CASE("Pollux goodput: overlap makes a step the larger of compute and sync as γ grows", "[coadaptive]")
{
    GoodputJob job = handJob();
    job.perf.gamma = 10.0;
    // T_grad(64) = 0.74 s, T_sync = 0.05 s: (0.74¹⁰ + 0.05¹⁰)^(1/10) ≈ 0.74 s.
    const GoodputPoint p = evaluateGoodput(job, 2, 64, 0);
    CHECK(p.stepSeconds == Approx(std::pow(std::pow(0.74, 10) + std::pow(0.05, 10), 0.1)));
    CHECK(p.stepSeconds == Approx(0.74).epsilon(1e-6));
    // Efficiency: φ = 0 is perfectly linear scaling's opposite: E = M₀ ÷ M.
    job.noiseScale = 0;
    CHECK(statisticalEfficiency(job, 512) == Approx(0.25));
}
