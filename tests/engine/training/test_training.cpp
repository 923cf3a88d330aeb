#include "engine/common/errors.h"
#include "engine/training/training.h"
#include "common/models.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::deepseekV3;
using headroom::test::h100Sxm;
using headroom::test::llama31_70b;

namespace {

// A 70-billion-parameter run on 1.4 trillion tokens, H100, measured at 400 TFLOP/s per GPU.
TrainingJob measuredJob()
{
    TrainingJob job;
    job.name = "pretrain";
    job.params = 70e9;
    job.tokens = 1.4e12;
    job.throughputBasis = ThroughputBasis::AchievedTflops;
    job.throughput = 400;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 1024;
    job.tp = 8;
    job.zeroStage = 1;
    job.microBatch = 1;
    return job;
}

// A small job on MFU: 1 billion parameters, 10 billion tokens.
TrainingJob mfuJob()
{
    TrainingJob job;
    job.name = "small";
    job.params = 1e9;
    job.tokens = 1e10;
    job.throughputBasis = ThroughputBasis::Mfu;
    job.throughput = 0.5;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 1;
    job.microBatch = 1;
    return job;
}

template <typename F>
std::string inputErrorField(F &&call)
{
    try {
        call();
    } catch (const InputError &error) {
        return error.field();
    }
    return "(no error)";
}

template <typename F>
std::string inputErrorMessage(F &&call)
{
    try {
        call();
    } catch (const InputError &error) {
        return error.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("training FLOPs are 6 N D, or 8 N D with full recomputation", "[training]")
{
    CHECK(trainingFlops(70e9, 1.4e12, false) == Approx(5.88e23));
    CHECK(trainingFlops(70e9, 1.4e12, true) == Approx(7.84e23));
    CHECK(inputErrorField([] { trainingFlops(0, 1e12, false); }) == "params");
    CHECK(inputErrorField([] { trainingFlops(1e9, 0, false); }) == "tokens");
}

TEST_CASE("training days with a measured rate are FLOPs over GPUs times rate", "[training]")
{
    const TrainingSetup setup = resolveTraining(measuredJob(), h100Sxm(), nullptr);
    // 5.88e23 ÷ (1,024 × 400e12) = 1,435,546.875 s = 16.6151 days.
    CHECK(daysForGpus(setup, 1024) == Approx(16.615125868));
    CHECK(communicationOverhead(setup, 1024).applied == false);
    CHECK(communicationOverhead(setup, 1024).efficiency == 1.0);
    CHECK(effectiveTflopsPerGpu(setup, 1024) == 400.0);

    const TrainingPlan plan = sizeTraining(measuredJob(), h100Sxm(), nullptr);
    CHECK(plan.totalFlops == Approx(5.88e23));
    CHECK(plan.gpus == 1024);
    CHECK(plan.days == Approx(16.615125868));
    CHECK(plan.gpuHours == Approx(1024 * 16.615125868 * 24));
}

TEST_CASE("training days with MFU on one GPU are FLOPs over peak times MFU", "[training]")
{
    const TrainingSetup setup = resolveTraining(mfuJob(), h100Sxm(), nullptr);
    // 6 × 1e9 × 1e10 = 6e19 FLOPs ÷ (989e12 × 0.5) = 121,334.68 s = 1.40434 days.
    CHECK(daysForGpus(setup, 1) == Approx(1.4043365914));
    const CommOverhead comm = communicationOverhead(setup, 1);
    CHECK(comm.applied);
    CHECK(comm.dpSeconds == 0);
    CHECK(comm.efficiency == 1.0);
}

TEST_CASE("solving for GPUs and for days are inverse", "[training]")
{
    SECTION("measured rate: exact up to whole GPUs")
    {
        TrainingJob job = measuredJob();
        job.tp = 1;
        job.globalBatchTokens = 4096.0 * 16384;
        const TrainingSetup setup = resolveTraining(job, h100Sxm(), nullptr);
        for (int64_t gpus : {1, 7, 64, 1000, 4096}) {
            CHECK(gpusForDays(setup, daysForGpus(setup, gpus)) == gpus);
        }
        for (double days : {30.0, 90.0, 12.5}) {
            const int64_t gpus = gpusForDays(setup, days);
            CHECK(daysForGpus(setup, gpus) <= days);
            CHECK(daysForGpus(setup, gpus - 1) > days);
        }
    }
    SECTION("MFU with communication overhead: the fewest GPUs meeting the window")
    {
        TrainingJob job = mfuJob();
        job.params = 8e9;
        job.tokens = 2e12;
        job.tp = 2;
        const TrainingSetup setup = resolveTraining(job, h100Sxm(), nullptr);
        for (double days : {60.0, 20.0, 7.0}) {
            const int64_t gpus = gpusForDays(setup, days);
            CHECK(gpus % 2 == 0);
            CHECK(daysForGpus(setup, gpus) <= days);
            CHECK(daysForGpus(setup, gpus - 2) > days);
            CHECK(gpusForDays(setup, daysForGpus(setup, gpus)) <= gpus);
        }
    }
}

TEST_CASE("ZeRO memory per stage is 16 Psi, 4 Psi + 12 Psi over N, 2 Psi + 14 Psi over N, 16 Psi over N",
          "[training]")
{
    const double psi = 70e9;
    const int64_t n = 64;
    CHECK(modelStateMemory(psi, 0, n).modelStateBytes() == 16 * psi);
    CHECK(modelStateMemory(psi, 1, n).modelStateBytes() == 4 * psi + 12 * psi / n);
    CHECK(modelStateMemory(psi, 2, n).modelStateBytes() == 2 * psi + 14 * psi / n);
    CHECK(modelStateMemory(psi, 3, n).modelStateBytes() == 16 * psi / n);
    // 1.12e12, 2.93125e11, 1.553125e11, 1.75e10 bytes.
    CHECK(modelStateMemory(psi, 0, n).modelStateBytes() == 1.12e12);
    CHECK(modelStateMemory(psi, 1, n).modelStateBytes() == 2.93125e11);
    CHECK(modelStateMemory(psi, 2, n).modelStateBytes() == 1.553125e11);
    CHECK(modelStateMemory(psi, 3, n).modelStateBytes() == 1.75e10);

    const MemoryBreakdown zero2 = modelStateMemory(psi, 2, n);
    CHECK(zero2.weightsBytes == 2 * psi);
    CHECK(zero2.gradientsBytes == 2 * psi / n);
    CHECK(zero2.optimizerBytes == 12 * psi / n);

    // With tensor and pipeline parallelism each GPU holds Ψ ÷ (tp·pp) first.
    const double perGpu = psi / 16;
    CHECK(modelStateMemory(psi, 3, 8, 8, 2).modelStateBytes() == 16 * perGpu / 8);
    CHECK(modelStateMemory(psi, 0, 8, 8, 2).modelStateBytes() == 16 * perGpu);

    CHECK(inputErrorField([] { modelStateMemory(70e9, 4, 8); }) == "zero_stage");
    CHECK(inputErrorField([] { modelStateMemory(0, 1, 8); }) == "params");
}

TEST_CASE("activation memory follows Korthikanti et al", "[training]")
{
    Architecture arch;
    arch.layers = 80;
    arch.hidden = 8192;
    arch.heads = 64;
    // Eager attention, no recomputation (the paper's eq. 2 with sequence parallelism):
    // 80 × 4096·1·8192·(34 + 5·64·4096/8192) ÷ 8 = 65,095,598,080 bytes.
    CHECK(activationBytes(arch, 4096, 1, 8, AttentionKernel::Eager, Recomputation::None) == 65095598080.0);
    // Full recomputation keeps the layer inputs only: 80 × 2·4096·8192 ÷ 8.
    CHECK(activationBytes(arch, 4096, 1, 8, AttentionKernel::Eager, Recomputation::Full) == 671088640.0);
}

TEST_CASE("activation bytes of one layer in each attention kernel and recomputation", "[training]")
{
    // One layer, s = 4096, b = 2, h = 4096, a = 32, tp = 2: s·b·h = 33,554,432.
    Architecture layer;
    layer.layers = 1;
    layer.hidden = 4096;
    layer.heads = 32;
    auto bytes = [&](AttentionKernel k, Recomputation r) { return activationBytes(layer, 4096, 2, 2, k, r); };
    // Eager, none: 33,554,432 × (34 + 5·32·4096/4096 = 194) ÷ 2 = 3,254,779,904.
    CHECK(bytes(AttentionKernel::Eager, Recomputation::None) == 3254779904.0);
    // Eager, selective: the score term goes, 33,554,432 × 34 ÷ 2 = 570,425,344.
    CHECK(bytes(AttentionKernel::Eager, Recomputation::Selective) == 570425344.0);
    // Flash, none: 34·s·b·h + 4·s·b·a = 1,140,850,688 + 1,048,576, ÷ 2 = 570,949,632.
    CHECK(bytes(AttentionKernel::Flash, Recomputation::None) == 570949632.0);
    // Flash, selective: nothing left to recompute, the same 570,949,632.
    CHECK(bytes(AttentionKernel::Flash, Recomputation::Selective) == 570949632.0);
    // Full, either kernel: the layer input 2·s·b·h ÷ 2 = 33,554,432.
    CHECK(bytes(AttentionKernel::Eager, Recomputation::Full) == 33554432.0);
    CHECK(bytes(AttentionKernel::Flash, Recomputation::Full) == 33554432.0);
    // Logits in fp32: s·b·V·4 ÷ tp = 4096 × 2 × 128,256 × 4 ÷ 2 = 2,101,346,304.
    CHECK(logitsBytes(4096, 2, 128256, 2) == 2101346304.0);

    // Recomputation's compute: full repeats the forward pass (2·N per token); selective with
    // eager attention repeats QKᵀ and scores × V, 4·L·s·h = 4 × 1 × 4,096 × 4,096 per token;
    // with flash attention nothing beyond what the kernel's backward always does.
    CHECK(recomputeFlopsPerToken(layer, 1e9, 4096, AttentionKernel::Eager, Recomputation::Full) == 2e9);
    CHECK(recomputeFlopsPerToken(layer, 1e9, 4096, AttentionKernel::Eager, Recomputation::Selective) == 67108864.0);
    CHECK(recomputeFlopsPerToken(layer, 1e9, 4096, AttentionKernel::Flash, Recomputation::Selective) == 0.0);
    CHECK(recomputeFlopsPerToken(layer, 1e9, 4096, AttentionKernel::Flash, Recomputation::None) == 0.0);
}

TEST_CASE("the demo's 8B fine-tune fits and says why", "[training]")
{
    // data/demo/training_jobs.json: Llama 3.1 8B, 20B tokens at 8K, 3-day window, H100, ZeRO-3,
    // flash attention, micro-batch chosen.
    const headroom::engine::ModelSpec llama = headroom::test::llama31_8b();
    TrainingJob job;
    job.name = "support-assistant-finetune";
    job.modelId = llama.id;
    job.tokens = 2e10;
    job.seqLen = 8192;
    job.globalBatchTokens = 4194304;
    job.throughput = 0.4;
    job.targetValue = 3;
    job.zeroStage = 3;
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), &llama);
    CHECK(plan.memory.fits);
    CHECK(plan.microBatch >= 1);
    CHECK(plan.gradAccumulationSteps * plan.microBatch * plan.dataParallel >= 512);
    CHECK(plan.gpusRaw <= 16);
    bool said = false;
    for (const std::string &line : plan.explanation)
        said = said || (line.find("Fits because of: flash attention") != std::string::npos
                        && line.find("ZeRO-3") != std::string::npos && line.find("micro-batch") != std::string::npos);
    CHECK(said);
    // The same job with eager attention and no recomputation needs the s² scores: over 300 GiB
    // of activations per sequence, which no ZeRO stage fits.
    job.attention = AttentionKernel::Eager;
    CHECK(inputErrorField([&] { sizeTraining(job, h100Sxm(), &llama); }) == "zero_stage");
}

TEST_CASE("7.5B parameters on 64 GPUs at ZeRO-3 fit", "[training]")
{
    TrainingJob job;
    job.name = "train";
    job.params = 7.5e9;
    job.tokens = 1e9;
    job.throughputBasis = ThroughputBasis::AchievedTflops;
    job.throughput = 100;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 64;
    job.zeroStage = 3;
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), nullptr);
    CHECK(plan.memory.fits);
    CHECK(plan.memory.totalBytes() <= double(plan.usableMemoryBytes));
    // 1,024 sequences per step over 64 replicas: 16 each, in micro-batches with accumulation.
    CHECK(plan.gradAccumulationSteps == (16 + plan.microBatch - 1) / plan.microBatch);
}

TEST_CASE("the micro-batch chosen is the largest that fits", "[training]")
{
    TrainingJob job;
    job.name = "train";
    job.params = 7.5e9;
    job.tokens = 1e9;
    job.throughputBasis = ThroughputBasis::AchievedTflops;
    job.throughput = 100;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 64;
    job.zeroStage = 3;
    const TrainingPlan chosen = sizeTraining(job, h100Sxm(), nullptr);
    const int64_t b = chosen.microBatch;
    REQUIRE(b >= 1);
    REQUIRE(b < 16); // below the replica's 16 sequences, so memory is what stops it
    job.microBatch = int(b);
    const TrainingPlan given = sizeTraining(job, h100Sxm(), nullptr);
    CHECK(given.memory.fits);
    CHECK(given.memory.totalBytes() == Approx(chosen.memory.totalBytes()));
    // One more sequence does not fit (at ZeRO-3, the job's stage, the plan then refuses).
    job.microBatch = int(b + 1);
    CHECK(inputErrorField([&] { sizeTraining(job, h100Sxm(), nullptr); }) == "zero_stage");

    // Capped by the replica's share of the batch: with 8 sequences per replica and room for
    // more, the micro-batch is 8 and one step accumulates nothing.
    job.microBatch = 0;
    job.params = 1e9;
    job.globalBatchTokens = 4096.0 * 8 * 64;
    const TrainingPlan capped = sizeTraining(job, h100Sxm(), nullptr);
    CHECK(capped.microBatch == 8);
    CHECK(capped.gradAccumulationSteps == 1);

    // Nothing beyond one sequence fits: still 1, and the plan says it does not fit.
    TrainingJob huge = job;
    huge.params = 7.5e9;
    huge.globalBatchTokens = 4194304;
    huge.attention = AttentionKernel::Eager;
    huge.seqLen = 32768;
    huge.targetValue = 64;
    huge.globalBatchTokens = 32768.0 * 128;
    try {
        const TrainingPlan one = sizeTraining(huge, h100Sxm(), nullptr);
        CHECK(one.microBatch == 1);
    } catch (const InputError &error) {
        CHECK(std::string(error.field()) == "zero_stage");
    }
}

TEST_CASE("the plan uses the catalog architecture or estimates one and says so", "[training]")
{
    const Architecture catalog = architectureFor(nullptr, 70e9);
    CHECK(catalog.estimated);
    CHECK(catalog.note.find("estimated") != std::string::npos);
    const double implied = 12.0 * catalog.layers * double(catalog.hidden) * catalog.hidden;
    CHECK(implied == Approx(70e9).epsilon(0.1));
    CHECK(catalog.hidden % 128 == 0);

    const headroom::engine::ModelSpec llama = llama31_70b();
    const Architecture known = architectureFor(&llama, llama.paramsTotal);
    CHECK_FALSE(known.estimated);
    CHECK(known.layers == 80);
    CHECK(known.hidden == 8192);

    TrainingJob job = measuredJob();
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), nullptr);
    bool mentioned = false;
    for (const std::string &line : plan.explanation)
        mentioned = mentioned || line.find("Architecture estimated") != std::string::npos;
    CHECK(mentioned);
}

TEST_CASE("a mixture of experts computes with its active parameters and stores all", "[training]")
{
    const headroom::engine::ModelSpec moe = deepseekV3();
    TrainingJob job = measuredJob();
    job.params = 0;
    job.modelId = moe.id;
    job.targetValue = 2048;
    job.zeroStage = 3;
    job.recompute = Recomputation::Full;
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), &moe);
    CHECK(plan.params == moe.paramsTotal);
    CHECK(plan.totalFlops == Approx(8 * moe.paramsActive * 1.4e12));
}

TEST_CASE("jobs that need NVLink across tp are rounded to whole nodes", "[training]")
{
    SECTION("a window: raw and node-rounded counts")
    {
        TrainingJob job = measuredJob();
        job.tp = 2;
        job.pp = 3;
        job.target = TrainingTarget::WindowDays;
        // 18 GPUs at 400 TFLOP/s finish 5.88e23 FLOPs in 945.1 days; ask for 1,000.
        job.targetValue = 1000;
        job.zeroStage = 3;
        job.params = 1e9;
        job.tokens = 5.88e23 / 6e9;
        const TrainingPlan plan = sizeTraining(job, h100Sxm(), nullptr);
        CHECK(plan.gpusRaw == 18);
        CHECK(plan.gpus == 18);
        CHECK(plan.nodeRounded);
        CHECK(plan.nodes == 3);
        CHECK(plan.gpusNodeRounded == 24);
        CHECK(plan.gpuHours == Approx(24 * plan.days * 24));
    }
    SECTION("a GPU count: whole nodes when tp > 1, as given otherwise")
    {
        TrainingJob job = measuredJob();
        job.tp = 4;
        job.targetValue = 12;
        job.params = 1e9;
        job.tokens = 1e10;
        const TrainingPlan rounded = sizeTraining(job, h100Sxm(), nullptr);
        CHECK(rounded.gpusRaw == 12);
        CHECK(rounded.gpusNodeRounded == 16);
        CHECK(rounded.nodes == 2);
        // The 4 GPUs of the second node that no replica uses are a warning, with the numbers.
        REQUIRE(rounded.warnings.size() == 1);
        CHECK(rounded.warnings.front().rfind("4 GPUs of the 2 whole nodes paid for would idle", 0) == 0);
        job.tp = 1;
        const TrainingPlan plain = sizeTraining(job, h100Sxm(), nullptr);
        CHECK_FALSE(plain.nodeRounded);
        CHECK(plain.gpusNodeRounded == 12);
        CHECK(plain.nodes == 2);
        CHECK(plain.warnings.empty());
    }
}

TEST_CASE("communication overhead follows the interconnect and parallelism", "[training]")
{
    TrainingJob job = mfuJob();
    job.params = 8e9;
    job.tokens = 1e12;
    const TrainingSetup setup = resolveTraining(job, h100Sxm(), nullptr);

    // Inside a node: bf16 gradients 16e9 bytes, ring all-reduce 2·7/8 of them over NVLink at
    // 900 ÷ 2 × 0.8 = 360 GB/s = 0.0778 s.
    const CommOverhead node = communicationOverhead(setup, 8);
    CHECK(node.dpLink == "nvlink");
    CHECK(node.dpBandwidthGBps == Approx(360));
    CHECK(node.dpSeconds == Approx(2.0 * 7 / 8 * 16e9 / 360e9));
    // Across two nodes over InfiniBand at 40 GB/s: 2·15/16 × 16e9 ÷ 40e9 = 0.75 s.
    const CommOverhead twoNodes = communicationOverhead(setup, 16);
    CHECK(twoNodes.dpLink == "infiniband");
    CHECK(twoNodes.dpSeconds == Approx(0.75));
    // Compute per step: 6 × 8e9 × 4,194,304 ÷ (16 × 989e12 × 0.5) = 25.45 s hides it fully.
    CHECK(twoNodes.computeSeconds == Approx(6 * 8e9 * 4194304 / (16 * 989e12 * 0.5)));
    CHECK(twoNodes.dpExposedSeconds == 0);

    // ZeRO-3 moves 1.5× the data.
    TrainingJob zero3 = job;
    zero3.zeroStage = 3;
    CHECK(communicationOverhead(resolveTraining(zero3, h100Sxm(), nullptr), 16).dpSeconds == Approx(1.125));

    // Ethernet is slower than InfiniBand once the traffic is exposed.
    TrainingJob ethernet = job;
    ethernet.interNode = InterNodeLink::Ethernet;
    const TrainingSetup slow = resolveTraining(ethernet, h100Sxm(), nullptr);
    CHECK(daysForGpus(slow, 1024) > daysForGpus(setup, 1024));
    CHECK(communicationOverhead(slow, 1024).efficiency < communicationOverhead(setup, 1024).efficiency);

    // Efficiency does not rise as replicas are added across nodes.
    const std::vector<DaysPoint> curve = daysVersusGpus(setup, 30);
    for (size_t i = 2; i < curve.size(); ++i)
        CHECK(curve[i].efficiency <= curve[i - 1].efficiency + 1e-12);

    // Tensor parallelism inside a node: 4 all-reduces of s·b·h bf16 values per layer and
    // micro-batch, 2·(tp−1)/tp of them each, over NVLink.
    TrainingJob tensor = job;
    tensor.tp = 8;
    const TrainingSetup tpSetup = resolveTraining(tensor, h100Sxm(), nullptr);
    const CommOverhead tp = communicationOverhead(tpSetup, 8);
    const double microBatches = 4194304.0 / 4096;
    const double volume = tpSetup.arch.layers * microBatches * 4 * (2.0 * 7 / 8) * (2.0 * 4096 * tpSetup.arch.hidden);
    CHECK(tp.tpLink == "nvlink");
    CHECK(tp.tpSeconds == Approx(volume / 360e9));
    CHECK(tp.dpSeconds == 0);

    // Pipeline bubble (pp − 1) ÷ m of compute.
    TrainingJob pipeline = job;
    pipeline.pp = 4;
    const CommOverhead pipe = communicationOverhead(resolveTraining(pipeline, h100Sxm(), nullptr), 4);
    CHECK(pipe.bubbleSeconds == Approx(pipe.computeSeconds * 3 / 1024));
}

TEST_CASE("memory per GPU and the fewest GPUs that fit it", "[training]")
{
    const headroom::engine::ModelSpec llama = llama31_70b();
    TrainingJob job = measuredJob();
    job.params = 0;
    job.modelId = llama.id;
    job.tp = 8;
    job.zeroStage = 3;
    job.recompute = Recomputation::Full;
    job.targetValue = 64;
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), &llama);
    const double psi = llama.paramsTotal / 8;
    CHECK(plan.memory.modelStateBytes() == Approx(16 * psi / 8));
    // Layer inputs 80 × 2·s·b·h ÷ tp and fp32 logits s·b·V·4 ÷ tp (V = 128,256 assumed).
    CHECK(plan.memory.activationsBytes == Approx(80.0 * 2 * 4096 * 8192 / 8 + 4096.0 * 128256 * 4 / 8));
    CHECK(plan.memory.logitsBytes == Approx(4096.0 * 128256 * 4 / 8));
    CHECK(plan.memory.fits);
    CHECK(plan.memoryByStage[0].zeroStage == 0);
    CHECK(plan.memoryByStage[0].modelStateBytes() == Approx(16 * psi));
    CHECK_FALSE(plan.memoryByStage[0].fits);
    CHECK(plan.memoryByStage[0].minGpus == 0);

    // ZeRO-3 fits from 16 GPUs: 16Ψ'/2 + activations ≤ 90 % of 79.6 GiB.
    const int64_t fewest = plan.minGpusForMemory;
    CHECK(fewest == 16);

    // ZeRO-2 fits there, not one replica fewer (where ZeRO-3 still fits and is suggested).
    TrainingJob zero2 = job;
    zero2.zeroStage = 2;
    const int64_t fewest2 = sizeTraining(zero2, h100Sxm(), &llama).minGpusForMemory;
    REQUIRE(fewest2 > 16);
    CHECK(fewest2 % 8 == 0);
    zero2.targetValue = double(fewest2);
    CHECK(sizeTraining(zero2, h100Sxm(), &llama).memory.fits);
    zero2.targetValue = double(fewest2 - 8);
    const TrainingPlan tooFew = sizeTraining(zero2, h100Sxm(), &llama);
    CHECK_FALSE(tooFew.memory.fits);
    CHECK(tooFew.memoryByStage[3].fits);

    // A window plan never picks fewer GPUs than memory needs.
    TrainingJob window = job;
    window.target = TrainingTarget::WindowDays;
    window.targetValue = 5000;
    const TrainingPlan long_ = sizeTraining(window, h100Sxm(), &llama);
    CHECK(long_.gpusRaw == fewest);
    CHECK(long_.memory.fits);
}

TEST_CASE("preemptible capacity loses half a checkpoint interval and a restart per interruption",
          "[training]")
{
    // 0.001 per GPU-hour × 8 GPUs = 0.008 per hour; 2 h ÷ 2 + 0.25 h = 1.25 h each → 1 % lost.
    const PreemptionLoss loss = preemptionLoss(10, 8, 0.001, 2, 0.25);
    CHECK(loss.interruptionsPerHour == Approx(0.008));
    CHECK(loss.lossPerInterruptionHours == Approx(1.25));
    CHECK(loss.lostFraction == Approx(0.01));
    CHECK(loss.effectiveDays == Approx(10.1010101));
    CHECK(loss.effectiveGpuHours == Approx(1939.3939394));
    CHECK(loss.lostHours == Approx(0.1010101 * 24));
    CHECK(loss.makesProgress);

    const PreemptionLoss hopeless = preemptionLoss(10, 1024, 0.01, 2, 0.25);
    CHECK_FALSE(hopeless.makesProgress);

    TrainingJob job = measuredJob();
    job.preemptible = true;
    job.checkpointIntervalHours = 2;
    job.tp = 1;
    job.targetValue = 8;
    job.params = 1e9;
    job.tokens = 1e10;
    TrainingPricing pricing;
    pricing.ratePerGpuHour = Money::parse("2.00");
    pricing.interruptionsPerGpuHour = 0.001;
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), nullptr, pricing);
    REQUIRE(plan.preemption);
    CHECK(plan.preemption->effectiveGpuHours == Approx(plan.gpuHours / 0.99));
    REQUIRE(plan.cost);
    // Billed: the effective GPU-hours rounded to whole GPU-hours, × $2.00.
    CHECK(plan.billedGpuHours == std::llround(plan.preemption->effectiveGpuHours));
    CHECK(*plan.cost == Money::parse("2.00") * Decimal::fromInt(plan.billedGpuHours));

    CHECK(inputErrorField([] { preemptionLoss(1, 8, 1.5, 1, 0.25); }) == "spot_interruption_rate");
    CHECK(inputErrorField([] { preemptionLoss(1, 8, 0.01, 0, 0.25); }) == "checkpoint_interval_hours");
}

TEST_CASE("training cost is the whole GPU-hours shown times the exact rate", "[training]")
{
    TrainingJob job = measuredJob();
    job.tp = 1;
    job.targetValue = 8;
    job.params = 1e9;
    job.tokens = 1e10;
    TrainingPricing pricing;
    pricing.ratePerGpuHour = Money::parse("6.88");
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), nullptr, pricing);
    // 6e19 ÷ (8 × 400e12) = 18,750 s = 5.2083 h × 8 GPUs = 41.667 GPU-hours, billed as the 42
    // shown: 42 × $6.88 = $288.96, the product of the figures printed beside it.
    CHECK(plan.gpuHours == Approx(41.6666667));
    CHECK(plan.billedGpuHours == 42);
    REQUIRE(plan.cost);
    CHECK(plan.cost->cents() == "288.96");
    bool explained = false;
    for (const std::string &line : plan.explanation)
        explained = explained || line == "Cost = 42 GPU-hours × $6.88 = $288.96";
    CHECK(explained);

    // A rate with more digits than cents is shown whole: 42 × $10.9790625 = $461.120625 → $461.12.
    pricing.ratePerGpuHour = Money::parse("10.9790625");
    const TrainingPlan gcp = sizeTraining(job, h100Sxm(), nullptr, pricing);
    bool exact = false;
    for (const std::string &line : gcp.explanation)
        exact = exact || line == "Cost = 42 GPU-hours × $10.9790625 = $461.12";
    CHECK(exact);
}

TEST_CASE("the largest sensible fleet is capped by fleet size, batch and communication", "[training]")
{
    TrainingJob job = measuredJob();
    job.tp = 1;
    job.globalBatchTokens = 4096.0 * 64;
    CHECK(largestSensibleFleet(resolveTraining(job, h100Sxm(), nullptr)).gpus == 64);

    job.globalBatchTokens = 4096.0 * 100000;
    const FleetLimit fleet = largestSensibleFleet(resolveTraining(job, h100Sxm(), nullptr));
    CHECK(fleet.gpus == 16384);

    TrainingJob comm = mfuJob();
    comm.params = 70e9;
    comm.tokens = 1e12;
    comm.interNode = InterNodeLink::Ethernet;
    comm.globalBatchTokens = 4096.0 * 16384;
    const TrainingSetup setup = resolveTraining(comm, h100Sxm(), nullptr);
    const FleetLimit limit = largestSensibleFleet(setup);
    CHECK(limit.gpus < 16384);
    CHECK(communicationOverhead(setup, limit.gpus).efficiency >= 0.5);
    CHECK(communicationOverhead(setup, limit.gpus + 1).efficiency < 0.5);
    CHECK(limit.reason.find("communication") != std::string::npos);
}

TEST_CASE("days versus GPUs points are ascending multiples of tp times pp", "[training]")
{
    TrainingJob job = measuredJob();
    job.tp = 4;
    job.pp = 2;
    const std::vector<DaysPoint> curve = daysVersusGpus(resolveTraining(job, h100Sxm(), nullptr), 40);
    REQUIRE(curve.size() > 10);
    CHECK(curve.front().gpus == 8);
    for (size_t i = 0; i < curve.size(); ++i) {
        CHECK(curve[i].gpus % 8 == 0);
        if (i > 0) {
            CHECK(curve[i].gpus > curve[i - 1].gpus);
            CHECK(curve[i].days < curve[i - 1].days);
        }
    }
}

TEST_CASE("bad training input is rejected naming the field", "[training]")
{
    const GpuSpec gpu = h100Sxm();
    SECTION("zero tokens or parameters")
    {
        TrainingJob job = measuredJob();
        job.tokens = 0;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "tokens");
        job = measuredJob();
        job.params = 0;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "params");
    }
    SECTION("sizes beyond any real job")
    {
        TrainingJob job = measuredJob();
        job.params = 1e300;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "params");
        CHECK_THAT(inputErrorMessage([&] { sizeTraining(job, gpu, nullptr); }),
                   Catch::Matchers::Contains("params must be at most 10^15 (got 1 × 10^300)"));
        job = measuredJob();
        job.tokens = 1e30;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "tokens");
        job = measuredJob();
        job.globalBatchTokens = 1e20;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "global_batch_tokens");
        job = measuredJob();
        job.throughput = 1e30;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "throughput");
        job = measuredJob();
        job.target = TrainingTarget::WindowDays;
        job.targetValue = 1e12;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "target_value");
    }
    SECTION("MFU outside (0, 1]")
    {
        TrainingJob job = mfuJob();
        job.throughput = 0;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "throughput");
        job.throughput = 1.5;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "throughput");
        job.throughput = 1.0;
        CHECK_NOTHROW(sizeTraining(job, gpu, nullptr));
    }
    SECTION("a window no fleet can meet says what the largest fleet achieves")
    {
        TrainingJob job = measuredJob();
        job.target = TrainingTarget::WindowDays;
        job.targetValue = 0.01;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "target_value");
        const std::string message = inputErrorMessage([&] { sizeTraining(job, gpu, nullptr); });
        // 1,024 sequences per step feed at most 1,024 replicas of tp = 8.
        CHECK(message.find("largest sensible fleet, 8,192 GPUs") != std::string::npos);
        CHECK(message.find("needs 2.08 days") != std::string::npos);
    }
    SECTION("a model that does not fit even with ZeRO-3 on the chosen count")
    {
        TrainingJob job = measuredJob();
        job.params = 1e12;
        job.tp = 1;
        job.targetValue = 8;
        job.zeroStage = 3;
        job.recompute = Recomputation::Full;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "zero_stage");
        const std::string message = inputErrorMessage([&] { sizeTraining(job, gpu, nullptr); });
        CHECK(message.find("does not fit even with ZeRO-3 on 8 GPUs") != std::string::npos);
        CHECK(message.find("ZeRO-3 fits from") != std::string::npos);
        // Activations alone too large: a million-token sequence without recomputation.
        job.params = 1e9;
        job.recompute = Recomputation::None;
        job.seqLen = 1 << 20;
        job.globalBatchTokens = double(1 << 20) * 8;
        job.target = TrainingTarget::WindowDays;
        job.targetValue = 30;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "zero_stage");
    }
    SECTION("fewer GPUs than one replica")
    {
        TrainingJob job = measuredJob();
        job.tp = 8;
        job.targetValue = 4;
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "target_value");
    }
    SECTION("the wrong GPU or model")
    {
        TrainingJob job = measuredJob();
        GpuSpec other = gpu;
        other.id = "a100-sxm-80gb";
        CHECK(inputErrorField([&] { sizeTraining(job, other, nullptr); }) == "gpu_id");
        job.modelId = "llama-3.1-70b";
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, nullptr); }) == "model_id");
        const headroom::engine::ModelSpec moe = deepseekV3();
        CHECK(inputErrorField([&] { sizeTraining(job, gpu, &moe); }) == "model_id");
    }
    SECTION("validate names every field by its JSON key")
    {
        TrainingJob job = measuredJob();
        job.name.clear();
        job.zeroStage = 4;
        job.tp = -1;
        job.pp = -1;
        job.ep = -1;
        job.dp = -1;
        job.seqLen = 0;
        job.startDate = "2026-02-30";
        job.cpuCoresPerGpu = -1;
        job.target = TrainingTarget::GpuCount;
        job.targetValue = 2.5;
        job.preemptible = true;
        job.checkpointIntervalHours = 0;
        std::vector<std::string> fields;
        for (const FieldProblem &problem : validate(job))
            fields.push_back(problem.field);
        for (const char *field : {"name", "zero_stage", "tp", "pp", "ep", "dp", "seq_len", "start_date",
                                  "cpu_cores_per_gpu", "target_value", "checkpoint_interval_hours"})
            CHECK(std::find(fields.begin(), fields.end(), field) != fields.end());
        CHECK(validate(measuredJob()).empty());
        TrainingJob batch = measuredJob();
        batch.globalBatchTokens = 1000;
        CHECK(validate(batch).front().field == "global_batch_tokens");
    }
}

TEST_CASE("training enums round-trip through their text", "[training]")
{
    for (ThroughputBasis b : {ThroughputBasis::AchievedTflops, ThroughputBasis::Mfu})
        CHECK(parseThroughputBasis(toString(b)) == b);
    for (TrainingTarget t : {TrainingTarget::WindowDays, TrainingTarget::GpuCount})
        CHECK(parseTrainingTarget(toString(t)) == t);
    for (IntraNodeLink l : {IntraNodeLink::NvLink, IntraNodeLink::Pcie})
        CHECK(parseIntraNodeLink(toString(l)) == l);
    for (InterNodeLink l : {InterNodeLink::InfiniBand, InterNodeLink::Roce, InterNodeLink::Ethernet})
        CHECK(parseInterNodeLink(toString(l)) == l);
    CHECK_FALSE(parseInterNodeLink("carrier-pigeon"));
}
