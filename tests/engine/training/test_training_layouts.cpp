// Published training runs reproduced with their published layouts and with the layout the
// search chooses, the batch that follows the fleet, and mixture-of-experts memory.
#include "engine/common/errors.h"
#include "engine/training/training.h"
#include "common/models.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::deepseekV3;
using headroom::test::h100Sxm;

namespace {

GpuSpec a100Sxm80()
{
    GpuSpec g;
    g.id = "a100-sxm-80gb";
    g.name = "NVIDIA A100 SXM4 80GB";
    g.vendor = "NVIDIA";
    g.memoryBytes = 85899345920;
    g.nominalMemoryGB = 80;
    g.hbmBandwidthGBps = 2039;
    g.bf16Tflops = 312;
    g.nvlinkGBps = 600;
    g.pcieGBps = 32;
    g.tdpWatts = 400;
    g.gpusPerNode = 8;
    return g;
}

// A GPT model of Narayanan et al. (2021), Table 1 architecture: vocabulary 51,200.
ModelSpec gpt(const std::string &id, double params, int layers, int hidden, int heads)
{
    ModelSpec m;
    m.id = id;
    m.name = id;
    m.paramsTotal = params;
    m.paramsActive = params;
    m.layers = layers;
    m.hiddenSize = hidden;
    m.attentionHeads = heads;
    m.kvHeads = heads;
    m.headDim = hidden / heads;
    m.attention = AttentionKind::Mha;
    m.maxContext = 2048;
    m.vocabSize = 51200;
    return m;
}

ModelSpec llama31_405b()
{
    ModelSpec m;
    m.id = "llama-3.1-405b";
    m.name = "Llama 3.1 405B";
    m.paramsTotal = 405853388800;
    m.paramsActive = 405853388800;
    m.layers = 126;
    m.hiddenSize = 16384;
    m.attentionHeads = 128;
    m.kvHeads = 8;
    m.headDim = 128;
    m.maxContext = 131072;
    m.vocabSize = 128256;
    return m;
}

// One published Megatron-LM run (Narayanan et al., "Efficient Large-Scale Language Model
// Training on GPU Clusters Using Megatron-LM", SC21): Table 2's PTD-P rows (300 B tokens,
// training time in days for the achieved rate) and §5.1's end-to-end estimates. All with full
// activation recomputation (their time ≈ 8·T·P ÷ (n·X)), sequence 2,048, micro-batch 1, no
// ZeRO; the achieved TFLOP/s count the recomputation.
struct MegatronRun {
    const char *what;
    double params;
    int layers, hidden, heads;
    int tp, pp;
    int batchSequences;
    int gpus;
    double tflops;
    double tokens;
    double publishedDays;
};

const std::vector<MegatronRun> &megatronRuns()
{
    static const std::vector<MegatronRun> runs = {
        {"175B on 384 (Table 2)", 174.6e9, 96, 12288, 96, 8, 12, 1536, 384, 153, 300e9, 84},
        {"175B on 768 (Table 2)", 174.6e9, 96, 12288, 96, 8, 12, 1536, 768, 149, 300e9, 43},
        {"175B on 1536 (Table 2)", 174.6e9, 96, 12288, 96, 8, 12, 1536, 1536, 141, 300e9, 23},
        {"530B on 560 (Table 2)", 529.6e9, 105, 20480, 128, 8, 35, 2240, 560, 171, 300e9, 156},
        {"530B on 1120 (Table 2)", 529.6e9, 105, 20480, 128, 8, 35, 2240, 1120, 167, 300e9, 80},
        {"530B on 2240 (Table 2)", 529.6e9, 105, 20480, 128, 8, 35, 2240, 2240, 159, 300e9, 42},
        // §5.1: GPT-3 175B on 1,024 A100s at 140 TFLOP/s: 34 days; no layout is published for
        // it and Table 2's 8 × 12 does not divide 1,024: 8 × 8 does.
        {"GPT-3 175B on 1024 (§5.1)", 174.6e9, 96, 12288, 96, 8, 8, 1536, 1024, 140, 300e9, 34},
        // §5.1 and Table 1: the 1 T model on 3,072 A100s at 163 TFLOP/s, 450 B tokens: 84 days.
        {"1T on 3072 (§5.1, Table 1)", 1008e9, 128, 25600, 160, 8, 64, 3072, 3072, 163, 450e9, 84},
    };
    return runs;
}

TrainingJob megatronJob(const MegatronRun &run, const ModelSpec &model)
{
    TrainingJob job;
    job.name = run.what;
    job.modelId = model.id;
    job.tokens = run.tokens;
    job.seqLen = 2048;
    job.globalBatchTokens = double(run.batchSequences) * 2048;
    job.microBatch = 1;
    job.recompute = Recomputation::Full;
    job.recomputeFixed = true;
    job.gpuId = "a100-sxm-80gb";
    job.throughputBasis = ThroughputBasis::AchievedTflops;
    job.throughput = run.tflops;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = run.gpus;
    job.tp = run.tp;
    job.pp = run.pp;
    job.zeroStage = 0;
    return job;
}

// Llama 3 405B's published run (Dubey et al. 2024, Table 4): 15.6 T tokens on 16,384 H100s at
// TP 8 × PP 16, sequences of 8,192, 16 M tokens per batch, micro-batch 1, full recomputation.
TrainingJob llama3Run(const ModelSpec &model)
{
    TrainingJob job;
    job.name = "llama-3-405b";
    job.modelId = model.id;
    job.tokens = 15.6e12;
    job.seqLen = 8192;
    job.globalBatchTokens = 2048.0 * 8192;
    job.microBatch = 1;
    job.recompute = Recomputation::Full;
    job.gpuId = "h100-sxm";
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 16384;
    job.tp = 8;
    job.pp = 16;
    job.zeroStage = 1;
    return job;
}

// Every layout the plan shows fits by its own breakdown.
void checkLayoutsFit(const TrainingPlan &plan)
{
    CHECK(plan.memory.fits);
    CHECK(plan.memory.totalBytes() <= double(plan.usableMemoryBytes) + 1);
    for (const LayoutCandidate &candidate : plan.layouts) {
        CHECK(candidate.memory.fits);
        CHECK(candidate.memory.modelStateBytes() + candidate.memory.activationsBytes
              <= double(plan.usableMemoryBytes) + 1);
    }
}

} // namespace

TEST_CASE("Megatron-LM's published runs hold with their layouts and with the searched one", "[training][layout]")
{
    for (const MegatronRun &run : megatronRuns()) {
        INFO(run.what);
        const ModelSpec model = gpt(run.what, run.params, run.layers, run.hidden, run.heads);
        TrainingJob job = megatronJob(run, model);
        const TrainingPlan published = sizeTraining(job, a100Sxm80(), &model);
        CHECK(published.gpus == run.gpus);
        CHECK(published.warnings.empty());
        checkLayoutsFit(published);
        CHECK(published.days == Approx(run.publishedDays).epsilon(0.04));

        job.tp = 0;
        job.pp = 0;
        job.zeroStage = -1;
        const TrainingPlan searched = sizeTraining(job, a100Sxm80(), &model);
        CHECK(searched.searched);
        CHECK(searched.layouts.size() == 5);
        CHECK(searched.gpus == run.gpus);
        CHECK(searched.warnings.empty());
        checkLayoutsFit(searched);
        CHECK(searched.days == Approx(run.publishedDays).epsilon(0.05));
        // The plan's layout is the search's fastest, and the list is in order.
        CHECK(searched.layout.tp == searched.layouts.front().layout.tp);
        CHECK(searched.layout.pp == searched.layouts.front().layout.pp);
        for (size_t i = 1; i < searched.layouts.size(); ++i)
            CHECK(searched.layouts[i - 1].modelledDays <= searched.layouts[i].modelledDays);
    }
}

TEST_CASE("Llama 3 405B on 16,384 H100s fits its published layout and the searched one", "[training][layout]")
{
    // Llama 3 paper (Dubey et al. 2024), §3.3: 405 B parameters, 15.6 T tokens, 3.8 × 10²⁵
    // FLOPs; Table 4: 16,384 H100s at TP 8 × PP 16 × DP 128, sequence 8,192, 16 M tokens per
    // batch, 400 TFLOP/s per GPU, BF16 MFU 38–43 % across its configurations. MFU counts the
    // model's FLOPs, so the rate is a model-FLOPs one: whatever recomputation the run needed
    // is inside it (at micro-batch 1 with 16 stages in flight this model needs it).
    const ModelSpec model = llama31_405b();
    TrainingJob job = llama3Run(model);
    job.throughputBasis = ThroughputBasis::AchievedModelTflops;
    job.throughput = 400;
    const TrainingPlan published = sizeTraining(job, h100Sxm(), &model);
    CHECK(published.totalFlops * 6.0 / 8.0 == Approx(3.8e25).epsilon(0.04)); // 8·N·D counted; 6·N·D published
    CHECK(published.gpus == 16384);
    CHECK(published.dataParallel == 128);
    CHECK(published.warnings.empty());
    checkLayoutsFit(published);
    CHECK(published.impliedMfu >= 0.38);
    CHECK(published.impliedMfu <= 0.43);
    // 3.8 × 10²⁵ ÷ (16,384 × 400 TFLOP/s) = 67.1 days.
    CHECK(published.days == Approx(6.0 * model.paramsTotal * 15.6e12 / (16384 * 400e12) / 86400).epsilon(1e-9));

    // No layout given: the search finds one that fits and feeds all 16,384 GPUs.
    TrainingJob open = job;
    open.tp = 0;
    open.pp = 0;
    open.zeroStage = -1;
    open.virtualStages = 0;
    open.recompute = Recomputation::None;
    const TrainingPlan searched = sizeTraining(open, h100Sxm(), &model);
    CHECK(searched.gpus == 16384);
    CHECK(searched.warnings.empty());
    checkLayoutsFit(searched);
    CHECK(searched.layout.tp <= 8);
    CHECK(searched.days == Approx(published.days).epsilon(0.05));
}

TEST_CASE("DeepSeek-V3 on 2,048 GPUs: memory sharded by expert parallelism, FLOPs from active parameters",
          "[training][layout]")
{
    // DeepSeek-V3 technical report (2024), Table 1 and §3: 14.8 T tokens of pre-training in
    // 2.664 M H800 GPU-hours on 2,048 GPUs; PP 16, EP 64 across 8 nodes, ZeRO-1 data parallel,
    // no TP; batch 15,360 sequences of 4,096. H800 = H100 SXM's BF16 peak and memory. The
    // report gives no MFU: the rate here is the one its GPU-hours imply for 6 × 37 B active ×
    // 14.8 T (342.6 TFLOP/s of model FLOPs), so this checks the FLOPs, the fleet in use and
    // memory with expert parallelism, not the rate.
    const ModelSpec model = deepseekV3();
    const double publishedGpuHours = 2.664e6;
    TrainingJob job;
    job.name = "deepseek-v3";
    job.modelId = model.id;
    job.tokens = 14.8e12;
    job.seqLen = 4096;
    job.globalBatchTokens = 15360.0 * 4096;
    job.microBatch = 1;
    job.recompute = Recomputation::Full;
    job.gpuId = "h100-sxm";
    job.throughputBasis = ThroughputBasis::AchievedModelTflops;
    job.throughput = 6.0 * 37e9 * 14.8e12 / (publishedGpuHours * 3600.0) / 1e12;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 2048;
    job.tp = 1;
    job.pp = 16;
    job.ep = 64;
    job.zeroStage = 1;
    const TrainingPlan published = sizeTraining(job, h100Sxm(), &model);
    CHECK(published.gpus == 2048);
    CHECK(published.warnings.empty());
    checkLayoutsFit(published);
    CHECK(published.gpuHours == Approx(publishedGpuHours).epsilon(0.04));

    // Expert states are sharded over ep: without it the same layout holds 64 × the experts.
    TrainingJob dense = job;
    dense.ep = 1;
    const TrainingPlan unsharded = sizeTraining(dense, h100Sxm(), &model);
    CHECK_FALSE(unsharded.memory.fits);
    CHECK(unsharded.memory.modelStateBytes() > 4 * published.memory.modelStateBytes());

    TrainingJob open = job;
    open.tp = 0;
    open.pp = 0;
    open.ep = 0;
    open.zeroStage = -1;
    open.virtualStages = 0;
    open.recompute = Recomputation::None;
    const TrainingPlan searched = sizeTraining(open, h100Sxm(), &model);
    CHECK(searched.gpus == 2048);
    CHECK(searched.warnings.empty());
    checkLayoutsFit(searched);
    CHECK(searched.gpuHours == Approx(publishedGpuHours).epsilon(0.05));
}

TEST_CASE("a mixture of experts' states split into dense and expert parts", "[training][layout]")
{
    const ModelSpec model = deepseekV3();
    // (671 − 37) ÷ (1 − 8 ÷ 256) = 654.5 B in the routed experts.
    CHECK(model.expertParams() == Approx(634e9 / (1.0 - 8.0 / 256.0)));
    TrainingJob job;
    job.name = "moe";
    job.modelId = model.id;
    job.tokens = 1e12;
    job.gpuId = "h100-sxm";
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 1024;
    job.tp = 1;
    job.pp = 16;
    job.ep = 8;
    job.zeroStage = 0;
    const TrainingSetup setup = resolveTraining(job, h100Sxm(), &model);
    const MemoryBreakdown memory = trainingMemory(setup, 1024);
    const double dense = 671e9 - model.expertParams();
    // ZeRO-0: 16 bytes per parameter held: dense ÷ pp, experts ÷ (pp · ep).
    CHECK(memory.modelStateBytes() == Approx(16.0 * (dense / 16 + model.expertParams() / 128)));
    // ep must divide the experts and needs expert counts.
    job.ep = 3;
    CHECK_THROWS_AS(sizeTraining(job, h100Sxm(), &model), InputError);
    ModelSpec unknown = model;
    unknown.experts = 0;
    unknown.expertsPerToken = 0;
    job.ep = 8;
    CHECK_THROWS_AS(sizeTraining(job, h100Sxm(), &unknown), InputError);
}

TEST_CASE("the batch follows the fleet, and GPUs the batch cannot feed are a warning", "[training][layout]")
{
    // Megatron-LM's 1 T model on 3,072 GPUs with no batch given: a 4 Mi-token batch would feed
    // only a third of the replicas of tp 8 × pp 16.
    const ModelSpec model = gpt("gpt-1t", 1008e9, 128, 25600, 160);
    TrainingJob job;
    job.name = "1t";
    job.modelId = model.id;
    job.tokens = 450e9;
    job.seqLen = 2048;
    job.microBatch = 1;
    job.recompute = Recomputation::Full;
    job.gpuId = "a100-sxm-80gb";
    job.throughputBasis = ThroughputBasis::AchievedTflops;
    job.throughput = 163;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 3072;
    job.tp = 8;
    job.pp = 64;
    job.zeroStage = 1;

    job.globalBatchTokens = 0;
    const TrainingPlan follows = sizeTraining(job, a100Sxm80(), &model);
    CHECK(follows.batchFollowsFleet);
    CHECK(follows.gpus == 3072);
    CHECK(follows.warnings.empty());
    // 6 replicas × 4 × 64 micro-batches of one sequence: 1,536 sequences, below the 4 Mi floor
    // of 2,048 sequences, so the floor holds.
    CHECK(follows.layout.globalBatchTokens == 4194304);
    CHECK(follows.days == Approx(84).epsilon(0.04));

    // The ceiling binds: a batch of 64 sequences feeds 64 of the 6 × 512-GPU... replicas.
    job.globalBatchTokens = 0;
    job.maxBatchTokens = 2048.0 * 4;
    job.tp = 8;
    job.pp = 8;
    TrainingJob wide = job;
    wide.targetValue = 3072;
    const TrainingPlan capped = sizeTraining(wide, a100Sxm80(), &model);
    // 3,072 ÷ 64 = 48 replicas wanted; the 4 Mi floor (2,048 sequences) feeds them all.
    CHECK(capped.warnings.empty());

    // A given batch too small for the fleet: the idle GPUs are named with the numbers.
    TrainingJob small = job;
    small.globalBatchTokens = 16.0 * 2048;
    const TrainingPlan idle = sizeTraining(small, a100Sxm80(), &model);
    CHECK(idle.gpus == 16 * 64);
    REQUIRE(idle.warnings.size() == 1);
    CHECK(idle.warnings.front().find("2,048 of 3,072 GPUs would idle") != std::string::npos);
    CHECK(idle.warnings.front().find("feeds at most 16 replicas") != std::string::npos);
}

TEST_CASE("MFU mode reports the chosen layout's step and the MFU after communication", "[training][layout]")
{
    const ModelSpec model = llama31_405b();
    TrainingJob job;
    job.name = "mfu";
    job.modelId = model.id;
    job.tokens = 15.6e12;
    job.seqLen = 8192;
    job.globalBatchTokens = 2048.0 * 8192;
    job.gpuId = "h100-sxm";
    job.throughputBasis = ThroughputBasis::Mfu;
    job.throughput = 0.5;
    job.target = TrainingTarget::GpuCount;
    job.targetValue = 16384;
    job.tp = 0;
    job.pp = 0;
    job.virtualStages = 0;
    job.zeroStage = -1;
    const TrainingPlan plan = sizeTraining(job, h100Sxm(), &model);
    checkLayoutsFit(plan);
    CHECK(plan.comm.applied);
    CHECK(plan.impliedMfu == Approx(0.5 * plan.comm.efficiency));
    CHECK(plan.impliedMfu < 0.5);
    const double parts = plan.comm.computeSeconds + plan.comm.dpExposedSeconds + plan.comm.tpSeconds
                         + plan.comm.epSeconds + plan.comm.ppSeconds + plan.comm.bubbleSeconds
                         + plan.comm.imbalanceSeconds;
    CHECK(plan.comm.stepSeconds == Approx(parts));
    bool explained = false;
    for (const std::string &line : plan.explanation)
        explained = explained || line.rfind("MFU after communication", 0) == 0;
    CHECK(explained);
}

TEST_CASE("an interleaved pipeline shrinks the bubble by its chunks and holds more activations", "[training][layout]")
{
    // Llama 3 405B's layout on 16,384 H100s: TP 8 × PP 16, 16 micro-batches per replica.
    const ModelSpec model = llama31_405b();
    TrainingJob job = llama3Run(model);
    job.throughputBasis = ThroughputBasis::Mfu;
    job.throughput = 0.5;
    const TrainingPlan plain = sizeTraining(job, h100Sxm(), &model);
    job.virtualStages = 4;
    const TrainingPlan interleaved = sizeTraining(job, h100Sxm(), &model);
    REQUIRE(plain.comm.microBatchesPerReplica == 16);
    CHECK(plain.comm.bubbleSeconds == Approx(plain.comm.computeSeconds * 15.0 / 16.0));
    CHECK(interleaved.comm.bubbleSeconds == Approx(interleaved.comm.computeSeconds * 15.0 / (4.0 * 16.0)));
    CHECK(interleaved.comm.ppSeconds == Approx(4 * plain.comm.ppSeconds));
    CHECK(interleaved.days < plain.days);
    // Layers' activations × (1 + 15 ÷ 64); the logits are not interleaved.
    CHECK(interleaved.memory.activationsBytes - interleaved.memory.logitsBytes
          == Approx((plain.memory.activationsBytes - plain.memory.logitsBytes) * (1.0 + 15.0 / 64.0)));
    // Micro-batches in groups of pp: 24 per replica with pp 16 cannot interleave.
    job.globalBatchTokens = 24.0 * 128 * 8192;
    CHECK_THROWS_AS(sizeTraining(job, h100Sxm(), &model), InputError);
    job.pp = 1;
    CHECK(validate(job).front().field == "virtual_stages");
}
