#include "training.h"

#include "engine/common/errors.h"
#include "engine/common/explain_text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace headroom::engine {

namespace {

using explain::bytes;
using explain::ceilCount;
using explain::grouped;
using explain::number;
using explain::percent;
using explain::trimZeros;
using explain::quantity;
using explain::scientific;

constexpr double kSecondsPerDay = 86400.0;
constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr int kMaxZeroStage = 3;

std::string count(int64_t value)
{
    return grouped(value);
}

// Rates and day counts with two decimals: "395.6", "29.97".
std::string fixed2(double value)
{
    if (!std::isfinite(value))
        return "∞";
    if (std::fabs(value) >= 1000)
        return explain::rounded(value);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    return trimZeros(buffer);
}

std::string seconds(double value)
{
    if (value > 0 && value < 0.01)
        return number(value * 1000.0) + " ms";
    return number(value) + " s";
}

bool isIsoDate(const std::string &text)
{
    if (text.size() != 10 || text[4] != '-' || text[7] != '-')
        return false;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (text[i] < '0' || text[i] > '9')
            return false;
    const int year = std::stoi(text.substr(0, 4));
    const unsigned month = unsigned(std::stoi(text.substr(5, 2)));
    const unsigned day = unsigned(std::stoi(text.substr(8, 2)));
    return std::chrono::year_month_day{std::chrono::year{year}, std::chrono::month{month},
                                       std::chrono::day{day}}
        .ok();
}

[[noreturn]] void fail(const std::string &field, const std::string &message)
{
    throw InputError(field, message);
}

int64_t replicaWidth(const TrainingSetup &setup)
{
    return int64_t(setup.job.tp) * setup.job.pp;
}

// Sequences per optimizer step and the most data-parallel replicas that each get at least one
// micro-batch of them.
double sequencesPerStep(const TrainingSetup &setup)
{
    return setup.job.globalBatchTokens / setup.job.seqLen;
}

// The smallest micro-batch the job may run: the one it gives, or 1 when it is chosen.
int smallestMicroBatch(const TrainingSetup &setup)
{
    return std::max(1, setup.job.microBatch);
}

int64_t maxReplicas(const TrainingSetup &setup)
{
    return std::max<int64_t>(1, int64_t(std::floor(sequencesPerStep(setup) / smallestMicroBatch(setup) + 1e-9)));
}

// GPUs of `gpus` that compute: whole replicas, no more replicas than the batch feeds, a
// multiple of ep (each group of ep replicas holds every expert once).
int64_t computingGpus(const TrainingSetup &setup, int64_t gpus)
{
    const int64_t width = replicaWidth(setup);
    int64_t replicas = std::min(gpus / width, maxReplicas(setup));
    const int64_t ep = std::max(1, setup.job.ep);
    if (replicas >= ep)
        replicas -= replicas % ep;
    return replicas * width;
}

bool fullRecompute(const TrainingSetup &setup)
{
    return setup.job.recompute == Recomputation::Full;
}

// Training FLOPs per token: 6·N plus what recomputation repeats.
double flopsPerToken(const TrainingSetup &setup)
{
    return 6.0 * setup.activeParams
           + recomputeFlopsPerToken(setup.arch, setup.activeParams, setup.job.seqLen, setup.job.attention,
                                    setup.job.recompute);
}

bool measuredRate(const TrainingSetup &setup)
{
    return setup.job.throughputBasis != ThroughputBasis::Mfu;
}

// The rate in FLOPs the GPUs execute (recomputation included): a model-FLOPs measurement
// scaled by the FLOPs per token over 6·N, so that days = total FLOPs ÷ (GPUs × rate) holds for
// every basis.
double nominalTflopsPerGpu(const TrainingSetup &setup)
{
    switch (setup.job.throughputBasis) {
    case ThroughputBasis::AchievedTflops:
        return setup.job.throughput;
    case ThroughputBasis::AchievedModelTflops:
        return setup.job.throughput * flopsPerToken(setup) / (6.0 * setup.activeParams);
    case ThroughputBasis::Mfu:
        break;
    }
    return setup.gpu.bf16Tflops * setup.job.throughput;
}

double totalFlops(const TrainingSetup &setup)
{
    return flopsPerToken(setup) * setup.job.tokens;
}

std::string intraLinkName(const TrainingSetup &setup)
{
    if (setup.job.intraNode == IntraNodeLink::NvLink && setup.gpu.nvlinkGBps > 0)
        return "nvlink";
    return "pcie";
}

double intraBandwidth(const TrainingSetup &setup)
{
    if (intraLinkName(setup) == "nvlink")
        return setup.gpu.nvlinkGBps / 2.0 * setup.assumptions.nvlinkEfficiency;
    return setup.gpu.pcieGBps * setup.assumptions.pcieEfficiency;
}

double interBandwidth(const TrainingSetup &setup)
{
    switch (setup.job.interNode) {
    case InterNodeLink::InfiniBand:
        return setup.assumptions.infinibandGBps;
    case InterNodeLink::Roce:
        return setup.assumptions.roceGBps;
    case InterNodeLink::Ethernet:
        return setup.assumptions.ethernetGBps;
    }
    return setup.assumptions.ethernetGBps;
}

std::string linkLabel(const std::string &link)
{
    if (link == "nvlink")
        return "NVLink";
    if (link == "pcie")
        return "PCIe";
    if (link == "infiniband")
        return "InfiniBand";
    if (link == "roce")
        return "RoCE";
    if (link == "ethernet")
        return "Ethernet";
    return link;
}

// ZeRO sharding degree on `gpus` computing GPUs.
int64_t shardDegree(const TrainingSetup &setup, int64_t gpus)
{
    const int64_t fleet = std::max<int64_t>(1, gpus / replicaWidth(setup));
    return setup.job.dp > 0 ? std::min<int64_t>(setup.job.dp, fleet) : fleet;
}

double usableMemory(const TrainingSetup &setup)
{
    return double(setup.gpu.memoryBytes) * setup.assumptions.usableMemoryFraction;
}

int vocabFor(const TrainingSetup &setup)
{
    return setup.job.vocabSize > 0 ? setup.job.vocabSize : setup.assumptions.vocabSize;
}

// Sequences each data-parallel replica processes per optimizer step on `gpus` GPUs.
double sequencesPerReplica(const TrainingSetup &setup, int64_t gpus)
{
    const int64_t replicas = std::max<int64_t>(1, computingGpus(setup, gpus) / replicaWidth(setup));
    return sequencesPerStep(setup) / double(replicas);
}

// Activation bytes (layers + logits) of one sequence per forward pass.
double activationBytesPerSequence(const TrainingSetup &setup)
{
    return activationBytes(setup.arch, setup.job.seqLen, 1, setup.job.tp, setup.job.attention, setup.job.recompute)
           + logitsBytes(setup.job.seqLen, 1, vocabFor(setup), setup.job.tp);
}

// Model states per GPU at `stage` on `gpus` GPUs. A mixture of experts with ep > 1 holds its
// dense part over tp·pp (sharded over the dp replicas) and its experts over tp·pp·ep (sharded
// over dp ÷ ep).
MemoryBreakdown statesAt(const TrainingSetup &setup, int stage, int64_t gpus)
{
    const int64_t shards = shardDegree(setup, gpus);
    const int ep = std::max(1, setup.job.ep);
    if (setup.expertParams <= 0 || ep == 1)
        return modelStateMemory(setup.params, stage, shards, setup.job.tp, setup.job.pp);
    MemoryBreakdown dense = modelStateMemory(setup.params - setup.expertParams, stage, shards, setup.job.tp,
                                             setup.job.pp);
    const MemoryBreakdown expert = modelStateMemory(setup.expertParams, stage, std::max<int64_t>(1, shards / ep),
                                                    setup.job.tp, setup.job.pp * ep);
    dense.weightsBytes += expert.weightsBytes;
    dense.gradientsBytes += expert.gradientsBytes;
    dense.optimizerBytes += expert.optimizerBytes;
    return dense;
}

// The micro-batch at `stage` on `gpus` GPUs: the job's, or the largest that fits beside the
// model states (activations grow linearly with it), at least 1 and at most the replica's share
// of the global batch.
int64_t microBatchAt(const TrainingSetup &setup, int stage, int64_t gpus)
{
    if (setup.job.microBatch > 0)
        return setup.job.microBatch;
    // With pipeline parallelism the bubble (pp − 1) ÷ m grows as fewer, larger micro-batches
    // make up the step, and nothing here gains from larger ones: the smallest is the fastest.
    if (setup.job.pp > 1)
        return 1;
    const double perReplica = sequencesPerReplica(setup, gpus);
    const int64_t cap = std::max<int64_t>(1, int64_t(std::floor(perReplica + 1e-9)));
    const MemoryBreakdown states = statesAt(setup, stage, gpus);
    const double room = usableMemory(setup) - states.modelStateBytes();
    const double perSequence = activationBytesPerSequence(setup);
    int64_t fitting = room > 0 ? int64_t(std::floor(room / perSequence)) : 0;
    // Guard the floor against rounding: the chosen count must fit, one more must not.
    while (fitting > 0 && states.modelStateBytes() + double(fitting) * perSequence > usableMemory(setup))
        --fitting;
    return std::clamp<int64_t>(fitting, 1, cap);
}

int64_t accumulationSteps(const TrainingSetup &setup, int64_t gpus, int64_t microBatch)
{
    return std::max<int64_t>(1, ceilCount(sequencesPerReplica(setup, gpus) / double(microBatch) - 1e-9));
}

MemoryBreakdown memoryAt(const TrainingSetup &setup, int stage, int64_t gpus)
{
    MemoryBreakdown memory = statesAt(setup, stage, gpus);
    memory.microBatch = microBatchAt(setup, stage, gpus);
    const int b = int(memory.microBatch);
    memory.logitsBytes = logitsBytes(setup.job.seqLen, b, vocabFor(setup), setup.job.tp);
    // An interleaved pipeline's first stage holds L·(1 + (pp−1) ÷ (pp·v)) layers' activations
    // (Korthikanti et al. 2022, §4.2.3).
    const int v = std::max(1, setup.job.virtualStages);
    const double interleave = v > 1 ? 1.0 + double(setup.job.pp - 1) / (double(setup.job.pp) * v) : 1.0;
    memory.activationsBytes = interleave * activationBytes(setup.arch, setup.job.seqLen, b, setup.job.tp,
                                                           setup.job.attention, setup.job.recompute)
                              + memory.logitsBytes;
    memory.fits = memory.totalBytes() <= usableMemory(setup);
    return memory;
}

// Fewest GPUs (a multiple of tp·pp, within the largest fleet) at which `stage` fits; 0 = none.
int64_t minGpusFor(const TrainingSetup &setup, int stage, int64_t fleetCap)
{
    const int64_t width = replicaWidth(setup);
    const int64_t replicaCap = std::max<int64_t>(1, fleetCap / width);
    const int64_t step = std::max(1, setup.job.ep);
    if (memoryAt(setup, stage, step * width).fits)
        return step * width;
    if (stage == 0)
        return 0;
    // total(N) = fixed + sharded / N over N replicas (a multiple of ep, which shards the
    // experts over N ÷ ep); solve for N from two evaluations, then confirm by evaluation.
    const MemoryBreakdown a = statesAt(setup, stage, step * width);
    const MemoryBreakdown b = statesAt(setup, stage, 2 * step * width);
    const double sharded = 2.0 * double(step) * (a.modelStateBytes() - b.modelStateBytes());
    const double fixed = memoryAt(setup, stage, step * width).totalBytes() - sharded / double(step);
    const double room = usableMemory(setup) - fixed;
    if (room <= 0)
        return 0;
    int64_t shards = std::max<int64_t>(step, ceilCount(sharded / room));
    shards = (shards + step - 1) / step * step;
    const int64_t shardCap = setup.job.dp > 0 ? std::min<int64_t>(setup.job.dp, replicaCap) : replicaCap;
    while (shards > step && memoryAt(setup, stage, (shards - step) * width).fits)
        shards -= step;
    while (shards <= shardCap && !memoryAt(setup, stage, shards * width).fits)
        shards += step;
    if (shards > shardCap)
        return 0;
    return shards * width;
}

std::string stageFormula(int stage)
{
    switch (stage) {
    case 0:
        return "16Ψ'";
    case 1:
        return "4Ψ' + 12Ψ'/N";
    case 2:
        return "2Ψ' + 14Ψ'/N";
    default:
        return "16Ψ'/N";
    }
}

} // namespace

std::string_view toString(ThroughputBasis b)
{
    switch (b) {
    case ThroughputBasis::AchievedTflops:
        return "tflops";
    case ThroughputBasis::AchievedModelTflops:
        return "model_tflops";
    case ThroughputBasis::Mfu:
        break;
    }
    return "mfu";
}

std::string_view toString(TrainingTarget t)
{
    return t == TrainingTarget::WindowDays ? "days" : "gpus";
}

std::string_view toString(IntraNodeLink l)
{
    return l == IntraNodeLink::NvLink ? "nvlink" : "pcie";
}

std::string_view toString(InterNodeLink l)
{
    switch (l) {
    case InterNodeLink::InfiniBand:
        return "infiniband";
    case InterNodeLink::Roce:
        return "roce";
    case InterNodeLink::Ethernet:
        return "ethernet";
    }
    return "infiniband";
}

std::string_view toString(AttentionKernel k)
{
    return k == AttentionKernel::Flash ? "flash" : "eager";
}

std::string_view toString(Recomputation r)
{
    switch (r) {
    case Recomputation::None:
        return "none";
    case Recomputation::Selective:
        return "selective";
    case Recomputation::Full:
        return "full";
    }
    return "none";
}

std::optional<AttentionKernel> parseAttentionKernel(std::string_view text)
{
    for (AttentionKernel k : {AttentionKernel::Flash, AttentionKernel::Eager})
        if (text == toString(k))
            return k;
    return std::nullopt;
}

std::optional<Recomputation> parseRecomputation(std::string_view text)
{
    for (Recomputation r : {Recomputation::None, Recomputation::Selective, Recomputation::Full})
        if (text == toString(r))
            return r;
    return std::nullopt;
}

std::optional<ThroughputBasis> parseThroughputBasis(std::string_view text)
{
    for (ThroughputBasis b : {ThroughputBasis::AchievedTflops, ThroughputBasis::Mfu, ThroughputBasis::AchievedModelTflops})
        if (text == toString(b))
            return b;
    return std::nullopt;
}

std::optional<TrainingTarget> parseTrainingTarget(std::string_view text)
{
    for (TrainingTarget t : {TrainingTarget::WindowDays, TrainingTarget::GpuCount})
        if (text == toString(t))
            return t;
    return std::nullopt;
}

std::optional<IntraNodeLink> parseIntraNodeLink(std::string_view text)
{
    for (IntraNodeLink l : {IntraNodeLink::NvLink, IntraNodeLink::Pcie})
        if (text == toString(l))
            return l;
    return std::nullopt;
}

std::optional<InterNodeLink> parseInterNodeLink(std::string_view text)
{
    for (InterNodeLink l : {InterNodeLink::InfiniBand, InterNodeLink::Roce, InterNodeLink::Ethernet})
        if (text == toString(l))
            return l;
    return std::nullopt;
}

std::vector<FieldProblem> validate(const TrainingJob &job)
{
    std::vector<FieldProblem> problems;
    auto add = [&](const char *field, const std::string &message) { problems.push_back({field, message}); };
    auto positive = [&](const char *field, double value) {
        if (!(value > 0 && std::isfinite(value)))
            add(field, std::string(field) + " must be greater than 0 (got " + number(value) + ")");
    };
    // Upper bounds far beyond any real job, so that counts derived from a field stay exact.
    auto atMostValue = [&](const char *field, double value, double maximum, const char *shown) {
        if (value > maximum)
            add(field, std::string(field) + " must be at most " + shown + " (got " + scientific(value) + ")");
    };
    auto atLeast = [&](const char *field, int value, int minimum) {
        if (value < minimum)
            add(field, std::string(field) + " must be at least " + std::to_string(minimum) + " (got "
                           + std::to_string(value) + ")");
    };

    if (job.name.empty())
        add("name", "name must not be empty");
    if (job.modelId.empty() && !(job.params > 0))
        add("params", "params must be greater than 0 when no model_id is given (got " + number(job.params) + ")");
    else if (!(job.params >= 0 && std::isfinite(job.params)))
        add("params", "params must not be negative (got " + number(job.params) + ")");
    atMostValue("params", job.params, 1e15, "10^15");
    positive("tokens", job.tokens);
    atMostValue("tokens", job.tokens, 1e17, "10^17");
    atLeast("seq_len", job.seqLen, 1);
    atLeast("micro_batch", job.microBatch, 0);
    atLeast("vocab_size", job.vocabSize, 0);
    if (!(job.globalBatchTokens >= 0 && std::isfinite(job.globalBatchTokens)))
        add("global_batch_tokens", "global_batch_tokens must be 0 (follows the fleet) or greater (got "
                                       + number(job.globalBatchTokens) + ")");
    atMostValue("global_batch_tokens", job.globalBatchTokens, 1e12, "10^12");
    if (!(job.maxBatchTokens >= 0 && std::isfinite(job.maxBatchTokens)))
        add("max_batch_tokens", "max_batch_tokens must be 0 (the default ceiling) or greater (got "
                                    + number(job.maxBatchTokens) + ")");
    atMostValue("max_batch_tokens", job.maxBatchTokens, 1e12, "10^12");
    if (job.seqLen >= 1 && job.maxBatchTokens > 0 && job.maxBatchTokens < job.seqLen)
        add("max_batch_tokens", "max_batch_tokens must hold at least one sequence of seq_len = "
                                    + number(job.seqLen) + " tokens (got " + number(job.maxBatchTokens) + ")");
    if (job.seqLen >= 1 && job.microBatch >= 0 && job.globalBatchTokens > 0
        && job.globalBatchTokens < double(job.seqLen) * std::max(1, job.microBatch))
        add("global_batch_tokens", "global_batch_tokens must hold at least one micro-batch of micro_batch × seq_len = "
                                       + number(double(job.seqLen) * std::max(1, job.microBatch)) + " tokens (got "
                                       + number(job.globalBatchTokens) + ")");
    if (job.gpuId.empty())
        add("gpu_id", "gpu_id must not be empty");
    if (job.throughputBasis == ThroughputBasis::Mfu) {
        if (!(job.throughput > 0 && job.throughput <= 1))
            add("throughput", "MFU must be greater than 0 and at most 1 (got " + number(job.throughput) + ")");
    } else {
        positive("throughput", job.throughput);
        atMostValue("throughput", job.throughput, 1e9, "10^9 TFLOP/s");
    }
    if (job.target == TrainingTarget::WindowDays) {
        positive("target_value", job.targetValue);
        atMostValue("target_value", job.targetValue, 36500, "36,500 days");
    } else if (!(job.targetValue >= 1 && job.targetValue == std::floor(job.targetValue)
                 && job.targetValue <= 1e9)) {
        add("target_value", "target_value must be a whole number of GPUs, at least 1 (got " + number(job.targetValue) + ")");
    }
    atLeast("tp", job.tp, 0);
    atLeast("pp", job.pp, 0);
    atLeast("ep", job.ep, 0);
    atLeast("virtual_stages", job.virtualStages, 0);
    if (job.virtualStages > 1 && job.pp == 1)
        add("virtual_stages", "virtual_stages above 1 needs pipeline parallelism, pp > 1 (got pp = 1)");
    atLeast("dp", job.dp, 0);
    if (job.zeroStage < -1 || job.zeroStage > kMaxZeroStage)
        add("zero_stage", "zero_stage must be 0, 1, 2 or 3, or −1 for searched (got " + std::to_string(job.zeroStage)
                              + ")");
    atLeast("cpu_cores_per_gpu", job.cpuCoresPerGpu, 0);
    if (!job.startDate.empty() && !isIsoDate(job.startDate))
        add("start_date", "start_date must be a date as YYYY-MM-DD (got \"" + job.startDate + "\")");
    if (job.preemptible ? !(job.checkpointIntervalHours > 0) : !(job.checkpointIntervalHours >= 0))
        add("checkpoint_interval_hours",
            "checkpoint_interval_hours must be greater than 0 for a preemptible job (got "
                + number(job.checkpointIntervalHours) + ")");
    atMostValue("checkpoint_interval_hours", job.checkpointIntervalHours, 87600, "87,600 hours");
    return problems;
}

double trainingFlops(double params, double tokens, bool fullRecompute)
{
    if (!(params > 0 && std::isfinite(params)))
        fail("params", "params must be greater than 0 (got " + number(params) + ")");
    if (!(tokens > 0 && std::isfinite(tokens)))
        fail("tokens", "tokens must be greater than 0 (got " + number(tokens) + ")");
    return (fullRecompute ? 8.0 : 6.0) * params * tokens;
}

Architecture architectureFor(const ModelSpec *model, double params)
{
    Architecture arch;
    if (model && model->layers > 0 && model->hiddenSize > 0 && model->attentionHeads > 0) {
        arch.layers = model->layers;
        arch.hidden = model->hiddenSize;
        arch.heads = model->attentionHeads;
        return arch;
    }
    if (!(params > 0 && std::isfinite(params)))
        fail("params", "params must be greater than 0 (got " + number(params) + ")");
    // N ≈ 12·L·h² and h ≈ 128·L → N ≈ 196,608·L³.
    arch.layers = std::max(1, int(std::lround(std::cbrt(params / (12.0 * 128.0 * 128.0)))));
    const double hidden = std::sqrt(params / (12.0 * arch.layers));
    arch.hidden = std::max(128, int(std::lround(hidden / 128.0)) * 128);
    arch.heads = arch.hidden / 128;
    arch.estimated = true;
    arch.note = "Architecture estimated from " + quantity(params) + " parameters (N ≈ 12·L·h², h ≈ 128·L): "
                + std::to_string(arch.layers) + " layers, hidden " + grouped(arch.hidden) + ", "
                + std::to_string(arch.heads) + " heads";
    return arch;
}

MemoryBreakdown modelStateMemory(double params, int zeroStage, int64_t shards, int tp, int pp)
{
    if (!(params > 0 && std::isfinite(params)))
        fail("params", "params must be greater than 0 (got " + number(params) + ")");
    if (zeroStage < 0 || zeroStage > kMaxZeroStage)
        fail("zero_stage", "zero_stage must be 0, 1, 2 or 3 (got " + std::to_string(zeroStage) + ")");
    if (shards < 1)
        fail("dp", "the data-parallel degree must be at least 1 (got " + std::to_string(shards) + ")");
    if (tp < 1)
        fail("tp", "tp must be at least 1 (got " + std::to_string(tp) + ")");
    if (pp < 1)
        fail("pp", "pp must be at least 1 (got " + std::to_string(pp) + ")");
    const double psi = params / (double(tp) * pp);
    const double n = double(shards);
    MemoryBreakdown memory;
    memory.zeroStage = zeroStage;
    memory.weightsBytes = zeroStage >= 3 ? 2.0 * psi / n : 2.0 * psi;
    memory.gradientsBytes = zeroStage >= 2 ? 2.0 * psi / n : 2.0 * psi;
    memory.optimizerBytes = zeroStage >= 1 ? 12.0 * psi / n : 12.0 * psi;
    return memory;
}

double activationBytes(const Architecture &arch, int seqLen, int microBatch, int tp, AttentionKernel attention,
                       Recomputation recompute)
{
    if (arch.layers < 1 || arch.hidden < 1 || arch.heads < 1)
        fail("model_id", "the model needs layers, hidden size and attention heads for activation memory");
    const double s = seqLen;
    const double b = microBatch;
    const double h = arch.hidden;
    const double a = arch.heads;
    double perLayer = 0;
    if (recompute == Recomputation::Full)
        perLayer = 2.0 * s * b * h;
    else if (attention == AttentionKernel::Flash)
        perLayer = 34.0 * s * b * h + 4.0 * s * b * a;
    else if (recompute == Recomputation::Selective)
        perLayer = 34.0 * s * b * h;
    else
        perLayer = s * b * h * (34.0 + 5.0 * a * s / h);
    return arch.layers * perLayer / std::max(1, tp);
}

double logitsBytes(int seqLen, int microBatch, int vocabSize, int tp)
{
    return double(seqLen) * double(microBatch) * double(vocabSize) * 4.0 / std::max(1, tp);
}

double recomputeFlopsPerToken(const Architecture &arch, double params, int seqLen, AttentionKernel attention,
                              Recomputation recompute)
{
    switch (recompute) {
    case Recomputation::Full:
        return 2.0 * params;
    case Recomputation::Selective:
        return attention == AttentionKernel::Eager ? 4.0 * arch.layers * double(seqLen) * arch.hidden : 0.0;
    case Recomputation::None:
        break;
    }
    return 0.0;
}

TrainingSetup resolveTraining(const TrainingJob &job, const GpuSpec &gpu, const ModelSpec *model,
                              const TrainingAssumptions &assumptions)
{
    const std::vector<FieldProblem> problems = validate(job);
    if (!problems.empty())
        fail(problems.front().field, problems.front().message);
    if (gpu.id != job.gpuId)
        fail("gpu_id", "the GPU given (" + gpu.id + ") is not the job's GPU " + job.gpuId);
    if (!job.modelId.empty()) {
        if (!model)
            fail("model_id", "unknown model " + job.modelId);
        if (model->id != job.modelId)
            fail("model_id", "the model given (" + model->id + ") is not the job's model " + job.modelId);
    }
    TrainingSetup setup;
    setup.job = job;
    setup.gpu = gpu;
    setup.assumptions = assumptions;
    const ModelSpec *catalog = job.modelId.empty() ? nullptr : model;
    if (job.params > 0) {
        setup.params = job.params;
        setup.activeParams = job.params;
    } else if (catalog) {
        setup.params = catalog->paramsTotal;
        setup.activeParams = catalog->paramsActive > 0 ? catalog->paramsActive : catalog->paramsTotal;
        setup.expertParams = catalog->expertParams();
        if (setup.expertParams > 0) {
            setup.experts = catalog->experts;
            setup.expertsPerToken = catalog->expertsPerToken;
        }
    }
    // A dense model (or one without expert counts) has no expert parallelism to search.
    if (setup.experts == 0 && job.ep == 0)
        setup.job.ep = 1;
    // A single stage has nothing to interleave.
    if (job.pp == 1 && job.virtualStages == 0)
        setup.job.virtualStages = 1;
    if (job.ep > 1 && setup.experts == 0)
        fail("ep", "ep = " + std::to_string(job.ep) + " needs a mixture-of-experts model with its expert counts "
                   "(experts, experts_per_token) in the catalog");
    if (job.ep > 1 && setup.experts % job.ep != 0)
        fail("ep", "ep = " + std::to_string(job.ep) + " must divide the model's " + std::to_string(setup.experts)
                       + " experts");
    if (!(setup.params > 0))
        fail("params", "the model " + job.modelId + " has no parameter count: give params");
    if (job.throughputBasis == ThroughputBasis::Mfu && !(gpu.bf16Tflops > 0))
        fail("throughput", "the GPU " + gpu.id + " has no BF16 peak to apply an MFU to: give achieved TFLOP/s");
    if (!(gpu.memoryBytes > 0))
        fail("gpu_id", "the GPU " + gpu.id + " has no memory size");
    if (gpu.gpusPerNode < 1)
        fail("gpu_id", "the GPU " + gpu.id + " has no GPUs-per-node figure");
    if (!(assumptions.usableMemoryFraction > 0 && assumptions.usableMemoryFraction <= 1))
        fail("usable_memory_fraction", "the usable memory share must be greater than 0 and at most 1");
    if (assumptions.maxFleetGpus < 1)
        fail("max_fleet_gpus", "the largest fleet must be at least 1 GPU");
    setup.arch = architectureFor(catalog, setup.params);
    return setup;
}

CommOverhead communicationOverhead(const TrainingSetup &setup, int64_t gpus, bool modelMeasured)
{
    const TrainingJob &job = setup.job;
    const int64_t width = replicaWidth(setup);
    if (gpus < width)
        fail("gpus", "the job needs at least tp × pp = " + count(width) + " GPUs (got " + count(gpus) + ")");
    const int64_t computing = computingGpus(setup, gpus);
    const int64_t replicas = computing / width;
    CommOverhead comm;
    const double flopsPerStep = flopsPerToken(setup) * job.globalBatchTokens;
    comm.computeSeconds = flopsPerStep / (double(computing) * nominalTflopsPerGpu(setup) * kTera);
    const int64_t microBatch = microBatchAt(setup, job.zeroStage, computing);
    const double microBatches = sequencesPerStep(setup) / (double(replicas) * double(microBatch));
    comm.microBatchesPerReplica = std::max<int64_t>(1, ceilCount(microBatches));
    comm.dpLink = "none";
    comm.tpLink = "none";
    comm.epLink = "none";
    comm.ppLink = "none";
    if (measuredRate(setup) && !modelMeasured) {
        comm.applied = false;
        comm.stepSeconds = comm.computeSeconds;
        comm.efficiency = 1;
        return comm;
    }

    const int perNode = setup.gpu.gpusPerNode;
    const int ep = std::max(1, job.ep);
    const double expertParams = ep > 1 ? setup.expertParams : 0.0;
    if (replicas > 1) {
        const bool oneNode = computing <= perNode;
        comm.dpLink = oneNode ? intraLinkName(setup) : std::string(toString(job.interNode));
        comm.dpBandwidthGBps = oneNode ? intraBandwidth(setup) : interBandwidth(setup);
        // Ring all-reduce of bf16 gradients: the dense ones over all replicas, the experts'
        // over the replicas ÷ ep holding the same experts.
        auto ring = [](double bytes, double ranks) { return ranks > 1 ? 2.0 * (ranks - 1) / ranks * bytes : 0.0; };
        const double denseBytes = 2.0 * (setup.params - expertParams) / double(width);
        const double expertBytes = 2.0 * expertParams / (double(width) * ep);
        double volume = ring(denseBytes, double(replicas)) + ring(expertBytes, double(replicas) / ep);
        if (job.zeroStage == 3)
            volume *= 1.5;
        comm.dpSeconds = volume / (comm.dpBandwidthGBps * kGiga);
        // Backward pass (4·N) and what recomputation repeats in it, of the whole step.
        const double backwardShare = (flopsPerToken(setup) - 2.0 * setup.activeParams) / flopsPerToken(setup);
        const double hidden = setup.assumptions.overlapEfficiency * backwardShare * comm.computeSeconds;
        comm.dpExposedSeconds = std::max(0.0, comm.dpSeconds - hidden);
    }
    const int v = std::max(1, job.virtualStages);
    const double layersPerChunk = std::ceil(double(setup.arch.layers) / (double(job.pp) * v));
    const double layersPerStage = layersPerChunk * v;
    if (job.tp > 1) {
        const bool inNode = job.tp <= perNode;
        comm.tpLink = inNode ? intraLinkName(setup) : std::string(toString(job.interNode));
        comm.tpBandwidthGBps = inNode ? intraBandwidth(setup) : interBandwidth(setup);
        const double activation = 2.0 * job.seqLen * double(microBatch) * setup.arch.hidden;
        const double perAllReduce = 2.0 * double(job.tp - 1) / job.tp * activation;
        const double allReduces = fullRecompute(setup) ? 6.0 : 4.0;
        const double volume = layersPerStage * microBatches * allReduces * perAllReduce;
        comm.tpSeconds = volume / (comm.tpBandwidthGBps * kGiga);
    }
    if (ep > 1 && setup.expertsPerToken > 0) {
        const bool inNode = int64_t(job.tp) * ep <= perNode;
        comm.epLink = inNode ? intraLinkName(setup) : std::string(toString(job.interNode));
        comm.epBandwidthGBps = inNode ? intraBandwidth(setup) : interBandwidth(setup);
        const double tokens = double(job.seqLen) * double(microBatch) / job.tp;
        const double perAllToAll = tokens * setup.expertsPerToken * setup.arch.hidden * 2.0 * (ep - 1) / ep;
        const double allToAlls = fullRecompute(setup) ? 6.0 : 4.0;
        comm.epSeconds = layersPerStage * microBatches * allToAlls * perAllToAll / (comm.epBandwidthGBps * kGiga);
    }
    if (job.pp > 1) {
        comm.bubbleSeconds = comm.computeSeconds * double(job.pp - 1) / (double(v) * microBatches);
        comm.imbalanceSeconds = comm.computeSeconds * (layersPerStage * job.pp / setup.arch.layers - 1.0);
        // Each chunk boundary sends a micro-batch's activations forward and their gradients
        // back: s·b·h bf16, split over tp; between nodes unless a replica fits in one.
        const bool inNode = int64_t(job.tp) * job.pp <= perNode;
        comm.ppLink = inNode ? intraLinkName(setup) : std::string(toString(job.interNode));
        const double bandwidth = inNode ? intraBandwidth(setup) : interBandwidth(setup);
        const double perSend = 2.0 * job.seqLen * double(microBatch) * setup.arch.hidden / job.tp;
        comm.ppSeconds = 2.0 * v * microBatches * perSend / (bandwidth * kGiga);
    }
    comm.stepSeconds = comm.computeSeconds + comm.dpExposedSeconds + comm.tpSeconds + comm.epSeconds
                       + comm.ppSeconds + comm.bubbleSeconds + comm.imbalanceSeconds;
    comm.efficiency = comm.computeSeconds / comm.stepSeconds;
    return comm;
}

int64_t computingGpuCount(const TrainingSetup &setup, int64_t gpus)
{
    return computingGpus(setup, gpus);
}

MemoryBreakdown trainingMemory(const TrainingSetup &setup, int64_t gpus)
{
    return memoryAt(setup, setup.job.zeroStage, computingGpus(setup, gpus));
}

double autoBatchTokens(const TrainingSetup &setup, int64_t gpus)
{
    const TrainingJob &job = setup.job;
    const int64_t replicas = std::max<int64_t>(1, gpus / replicaWidth(setup));
    const double perReplica = double(std::max(1, job.microBatch))
                              * (job.pp > 1 ? double(setup.assumptions.pipelineMicroBatchesPerStage) * job.pp : 1.0);
    const double floorTokens = setup.assumptions.minBatchTokens;
    const double ceiling = std::max(floorTokens, job.maxBatchTokens > 0 ? job.maxBatchTokens
                                                                        : setup.assumptions.maxBatchTokens);
    const double wanted = std::clamp(double(replicas) * perReplica * job.seqLen, floorTokens, ceiling);
    const double sequences = std::max(1.0, std::floor(wanted / job.seqLen + 1e-9));
    return sequences * job.seqLen;
}

std::string autoBatchRule(const TrainingSetup &setup)
{
    const double ceiling = setup.job.maxBatchTokens > 0 ? setup.job.maxBatchTokens : setup.assumptions.maxBatchTokens;
    return "the batch follows the fleet: " + number(setup.assumptions.minBatchTokens)
           + " tokens per step, raised until every data-parallel replica gets a micro-batch per step ("
           + std::to_string(setup.assumptions.pipelineMicroBatchesPerStage)
           + " × pp with pipeline parallelism, keeping the bubble under 20 %), at most "
           + number(ceiling) + (setup.job.maxBatchTokens > 0 ? " (max_batch_tokens)" : " (max_batch_tokens to change)")
           + ", in whole sequences";
}

double effectiveTflopsPerGpu(const TrainingSetup &setup, int64_t gpus)
{
    return nominalTflopsPerGpu(setup) * communicationOverhead(setup, gpus).efficiency;
}

double daysForGpus(const TrainingSetup &setup, int64_t gpus)
{
    const CommOverhead comm = communicationOverhead(setup, gpus);
    const double steps = setup.job.tokens / setup.job.globalBatchTokens;
    return steps * comm.stepSeconds / kSecondsPerDay;
}

FleetLimit largestSensibleFleet(const TrainingSetup &setup)
{
    const int64_t width = replicaWidth(setup);
    const int64_t byFleet = std::max<int64_t>(1, setup.assumptions.maxFleetGpus / width);
    const int64_t byBatch = maxReplicas(setup);
    FleetLimit limit;
    int64_t replicas = std::min(byFleet, byBatch);
    if (byBatch < byFleet)
        limit.reason = "a batch of " + number(sequencesPerStep(setup)) + " sequences per step at micro-batch "
                       + std::to_string(smallestMicroBatch(setup)) + " feeds at most " + count(byBatch)
                       + " replicas of tp × pp = " + count(width) + " GPUs";
    else
        limit.reason = "the largest fleet considered, " + count(setup.assumptions.maxFleetGpus) + " GPUs";
    if (setup.job.throughputBasis == ThroughputBasis::Mfu) {
        // Efficiency falls as replicas are added; keep the largest fleet that still spends at
        // least the minimum share of each step computing.
        const double minimum = setup.assumptions.minEfficiency;
        int64_t best = 0;
        for (int64_t r = replicas; r >= 1; --r) {
            if (communicationOverhead(setup, r * width).efficiency >= minimum) {
                best = r;
                break;
            }
        }
        if (best == 0) {
            replicas = 1;
            limit.reason = "even one replica spends over " + percent(1.0 - minimum)
                           + " of each step communicating";
        } else if (best < replicas) {
            replicas = best;
            limit.reason = "beyond it, communication takes over " + percent(1.0 - minimum) + " of each step";
        }
    }
    limit.gpus = replicas * width;
    limit.days = daysForGpus(setup, limit.gpus);
    return limit;
}

int64_t gpusForDays(const TrainingSetup &setup, double days)
{
    if (!(days > 0 && std::isfinite(days)))
        fail("target_value", "the window must be greater than 0 days (got " + number(days) + ")");
    const int64_t width = replicaWidth(setup);
    const FleetLimit limit = largestSensibleFleet(setup);
    const int64_t limitReplicas = limit.gpus / width;
    // Without overhead, days × GPUs is constant; overhead only lengthens the run, so the
    // overhead-free count is a lower bound.
    const double rate = nominalTflopsPerGpu(setup) * kTera;
    const int64_t lowerGpus = ceilCount(totalFlops(setup) / (days * kSecondsPerDay * rate));
    int64_t replicas = std::max<int64_t>(1, (lowerGpus + width - 1) / width);
    const double tolerance = days * (1.0 + 1e-9);
    for (; replicas <= limitReplicas; ++replicas) {
        if (daysForGpus(setup, replicas * width) <= tolerance)
            return replicas * width;
    }
    fail("target_value", "no fleet meets a " + number(days) + "-day window: the largest sensible fleet, "
                             + count(limit.gpus) + " GPUs (" + limit.reason + "), needs " + fixed2(limit.days)
                             + " days");
}

PreemptionLoss preemptionLoss(double days, int64_t gpus, double interruptionsPerGpuHour,
                              double checkpointIntervalHours, double restartHours)
{
    if (!(days >= 0 && std::isfinite(days)))
        fail("days", "days must not be negative (got " + number(days) + ")");
    if (gpus < 1)
        fail("gpus", "gpus must be at least 1 (got " + std::to_string(gpus) + ")");
    if (!(interruptionsPerGpuHour >= 0 && interruptionsPerGpuHour <= 1))
        fail("spot_interruption_rate", "the interruption rate must be between 0 and 1 per GPU-hour (got "
                                           + number(interruptionsPerGpuHour) + ")");
    if (!(checkpointIntervalHours > 0))
        fail("checkpoint_interval_hours", "checkpoint_interval_hours must be greater than 0 (got "
                                              + number(checkpointIntervalHours) + ")");
    if (!(restartHours >= 0))
        fail("restart_hours", "the restart time must not be negative (got " + number(restartHours) + ")");
    PreemptionLoss loss;
    loss.interruptionsPerHour = interruptionsPerGpuHour * double(gpus);
    loss.lossPerInterruptionHours = checkpointIntervalHours / 2.0 + restartHours;
    loss.lostFraction = loss.interruptionsPerHour * loss.lossPerInterruptionHours;
    if (loss.lostFraction >= 1.0) {
        loss.makesProgress = false;
        loss.effectiveDays = std::numeric_limits<double>::infinity();
        loss.effectiveGpuHours = std::numeric_limits<double>::infinity();
        loss.lostHours = std::numeric_limits<double>::infinity();
        loss.expectedInterruptions = std::numeric_limits<double>::infinity();
        return loss;
    }
    loss.effectiveDays = days / (1.0 - loss.lostFraction);
    loss.lostHours = (loss.effectiveDays - days) * 24.0;
    loss.expectedInterruptions = loss.interruptionsPerHour * loss.effectiveDays * 24.0;
    loss.effectiveGpuHours = loss.effectiveDays * 24.0 * double(gpus);
    return loss;
}

namespace {

std::string layoutText(const TrainingLayout &layout, int64_t dataParallel)
{
    std::string text = "tp " + std::to_string(layout.tp) + " × pp " + std::to_string(layout.pp);
    if (layout.ep > 1)
        text += " × ep " + std::to_string(layout.ep);
    if (layout.virtualStages > 1)
        text += " (" + std::to_string(layout.virtualStages) + " interleaved chunks per GPU)";
    return text + " × dp " + count(dataParallel) + ", ZeRO-" + std::to_string(layout.zeroStage) + ", recomputation "
           + std::string(toString(layout.recompute));
}

} // namespace

TrainingPlan sizeTraining(const TrainingJob &input, const GpuSpec &gpu, const ModelSpec *model,
                          const TrainingPricing &pricing, const TrainingAssumptions &assumptions)
{
    const TrainingSetup resolved = resolveTraining(input, gpu, model, assumptions);
    TrainingPlan plan;
    TrainingSetup setup = resolved;
    plan.batchFollowsFleet = input.globalBatchTokens == 0;
    plan.searched = layoutSearched(resolved.job);
    if (plan.searched || plan.batchFollowsFleet) {
        // The fleet the layout and the batch are chosen for: the GPUs given; for a window, the
        // compute-only fleet (communication only adds GPUs), and a batch for up to the largest
        // fleet communication could ask (1 ÷ the minimum efficiency of it).
        int64_t fleet = 0;
        int64_t batchFleet = 0;
        if (input.target == TrainingTarget::GpuCount) {
            fleet = batchFleet = int64_t(input.targetValue);
        } else {
            const double rate = nominalTflopsPerGpu(resolved) * kTera;
            fleet = std::max<int64_t>(1, ceilCount(totalFlops(resolved) / (input.targetValue * kSecondsPerDay * rate)));
            batchFleet = ceilCount(double(fleet) / assumptions.minEfficiency);
        }
        if (plan.searched) {
            const int64_t narrowest = int64_t(std::max(1, input.tp)) * std::max(1, input.pp);
            if (fleet < narrowest)
                fail("target_value", "the job needs at least tp × pp = " + count(narrowest) + " GPUs (got "
                                         + count(fleet) + ")");
            const LayoutSearch search = searchLayouts(resolved, fleet);
            plan.layoutsEvaluated = search.evaluated;
            plan.layoutsFitting = search.fitting;
            if (search.best.empty()) {
                std::string message = "no layout fits the memory on " + count(fleet) + " GPUs ("
                                      + count(search.evaluated) + " tried)";
                if (search.smallest)
                    message += ": the smallest, " + layoutText(search.smallest->layout, fleet / (int64_t(search.smallest->layout.tp) * search.smallest->layout.pp))
                               + ", needs " + bytes(search.smallest->memory.totalBytes()) + " per GPU of "
                               + bytes(usableMemory(resolved)) + " usable (activations "
                               + bytes(search.smallest->memory.activationsBytes) + ")";
                fail("zero_stage", message);
            }
            setup = withLayout(resolved, search.best.front().layout, fleet);
            plan.layouts = search.best;
        }
        if (plan.batchFollowsFleet)
            setup.job.globalBatchTokens = autoBatchTokens(setup, batchFleet);
    }
    const TrainingJob &job = setup.job;
    plan.layout = {job.tp, job.pp, std::max(1, job.ep), job.zeroStage, std::max(1, job.virtualStages), job.recompute,
                   job.globalBatchTokens};
    const int64_t width = replicaWidth(setup);
    plan.params = setup.params;
    plan.tokens = job.tokens;
    plan.totalFlops = totalFlops(setup);
    plan.arch = setup.arch;
    plan.peakTflopsPerGpu = gpu.bf16Tflops;
    plan.usableMemoryBytes = int64_t(usableMemory(setup));
    plan.fleetLimit = largestSensibleFleet(setup);
    std::vector<std::string> &lines = plan.explanation;

    // Memory: the chosen stage's fewest GPUs, or ZeRO-3's when the chosen one never fits.
    const int64_t memoryCap = std::max(plan.fleetLimit.gpus,
                                       job.target == TrainingTarget::GpuCount ? int64_t(job.targetValue) : int64_t(0));
    const int64_t chosenMin = minGpusFor(setup, job.zeroStage, std::max(memoryCap, assumptions.maxFleetGpus));
    const int64_t zero3Min = minGpusFor(setup, 3, std::max(memoryCap, assumptions.maxFleetGpus));
    plan.minGpusForMemory = chosenMin > 0 ? chosenMin : zero3Min;

    auto noFit = [&](int64_t gpus) {
        const MemoryBreakdown zero3 = memoryAt(setup, 3, gpus);
        std::string message = "the model does not fit even with ZeRO-3 on " + count(gpus) + " GPUs: it needs "
                              + bytes(zero3.totalBytes()) + " per GPU of " + bytes(usableMemory(setup)) + " usable";
        if (zero3Min > 0)
            message += "; ZeRO-3 fits from " + count(zero3Min) + " GPUs";
        else
            message += " (activations alone: " + bytes(zero3.activationsBytes)
                       + "); more tensor or pipeline parallelism, recomputation or a smaller micro-batch would help";
        fail("zero_stage", message);
    };

    if (job.target == TrainingTarget::WindowDays) {
        if (plan.minGpusForMemory == 0)
            noFit(std::min(plan.fleetLimit.gpus, assumptions.maxFleetGpus));
        const int64_t timeGpus = gpusForDays(setup, job.targetValue);
        int64_t gpus = std::max(timeGpus, plan.minGpusForMemory);
        while (gpus > timeGpus && gpus <= plan.fleetLimit.gpus && daysForGpus(setup, gpus) > job.targetValue * (1 + 1e-9))
            gpus += width;
        if (gpus > plan.fleetLimit.gpus)
            fail("target_value", "no fleet meets a " + number(job.targetValue) + "-day window with the memory the model "
                                     "needs: it fits from " + count(plan.minGpusForMemory)
                                     + " GPUs, and the largest sensible fleet is " + count(plan.fleetLimit.gpus) + " GPUs");
        plan.gpusRaw = gpus;
    } else {
        plan.gpusRaw = int64_t(job.targetValue);
        if (plan.gpusRaw < width)
            fail("target_value", "the job needs at least tp × pp = " + count(width) + " GPUs (got "
                                     + count(plan.gpusRaw) + ")");
    }
    plan.gpus = computingGpus(setup, plan.gpusRaw);
    plan.dataParallel = plan.gpus / width;
    for (int stage = 0; stage <= kMaxZeroStage; ++stage) {
        plan.memoryByStage[size_t(stage)] = memoryAt(setup, stage, plan.gpus);
        plan.memoryByStage[size_t(stage)].minGpus = minGpusFor(setup, stage, std::max(memoryCap, assumptions.maxFleetGpus));
    }
    plan.memory = plan.memoryByStage[size_t(job.zeroStage)];
    plan.microBatch = plan.memory.microBatch;
    plan.gradAccumulationSteps = accumulationSteps(setup, plan.gpus, plan.microBatch);
    if (!plan.memoryByStage[3].fits)
        noFit(plan.gpus);

    plan.comm = communicationOverhead(setup, plan.gpus);
    if (job.virtualStages > 1 && plan.comm.microBatchesPerReplica % job.pp != 0)
        fail("virtual_stages", "an interleaved pipeline runs its micro-batches in groups of pp = " + std::to_string(job.pp)
                                   + ": each replica has " + count(plan.comm.microBatchesPerReplica)
                                   + " per step; change the batch, the micro-batch or pp");
    plan.days = daysForGpus(setup, plan.gpus);
    plan.effectiveTflopsPerGpu = nominalTflopsPerGpu(setup) * plan.comm.efficiency;
    const int perNode = gpu.gpusPerNode;
    plan.nodeRounded = job.tp > 1;
    plan.nodes = (plan.gpusRaw + perNode - 1) / perNode;
    plan.gpusNodeRounded = plan.nodeRounded ? plan.nodes * perNode : plan.gpusRaw;
    plan.gpuHours = double(plan.gpusNodeRounded) * plan.days * 24.0;
    plan.cpuCores = int64_t(job.cpuCoresPerGpu) * plan.gpusNodeRounded;

    double paidGpuHours = plan.gpuHours;
    if (job.preemptible) {
        plan.preemption = preemptionLoss(plan.days, plan.gpusNodeRounded, pricing.interruptionsPerGpuHour,
                                         job.checkpointIntervalHours, assumptions.restartHours);
        paidGpuHours = plan.preemption->effectiveGpuHours;
    }
    if (std::isfinite(paidGpuHours)) {
        plan.billedGpuHours = std::llround(paidGpuHours);
        if (pricing.ratePerGpuHour)
            plan.cost = *pricing.ratePerGpuHour * Decimal::fromInt(plan.billedGpuHours);
    }

    if (job.throughputBasis == ThroughputBasis::Mfu)
        plan.impliedMfu = job.throughput * plan.comm.efficiency;
    else if (gpu.bf16Tflops > 0)
        plan.impliedMfu = nominalTflopsPerGpu(setup) * 6.0 * setup.activeParams / flopsPerToken(setup) / gpu.bf16Tflops;
    if (plan.gpus < plan.gpusRaw) {
        const int64_t fed = maxReplicas(setup);
        std::string why;
        if (fed < plan.gpusRaw / width)
            why = "a batch of " + number(job.globalBatchTokens) + " tokens (" + number(sequencesPerStep(setup))
                  + " sequences, micro-batch " + std::to_string(smallestMicroBatch(setup)) + ") feeds at most "
                  + count(fed) + " replicas of tp × pp = " + count(width) + " GPUs";
        else
            why = count(plan.gpusRaw) + " is not a multiple of tp × pp = " + count(width)
                  + (job.ep > 1 ? " with replicas in groups of ep = " + std::to_string(job.ep) : "");
        plan.warnings.push_back(count(plan.gpusRaw - plan.gpus) + " of " + count(plan.gpusRaw) + " GPUs would idle: " + why
                                + "; raise global_batch_tokens (or max_batch_tokens), change the layout, or plan "
                                + count(plan.gpus) + " GPUs");
    }
    if (plan.gpusNodeRounded > plan.gpusRaw)
        plan.warnings.push_back(count(plan.gpusNodeRounded - plan.gpusRaw) + " GPUs of the " + count(plan.nodes)
                                + " whole nodes paid for would idle: tp = " + std::to_string(job.tp)
                                + " keeps each replica inside a node of " + std::to_string(gpu.gpusPerNode)
                                + "; plan " + count(plan.gpusNodeRounded) + " GPUs or a layout that fills the nodes");

    // The explanation, formula with numbers, in reading order.
    const std::string source = job.params > 0 ? "given" : "catalog " + job.modelId;
    lines.push_back("Model: " + quantity(setup.params) + " parameters (" + source + ")"
                    + (setup.activeParams < setup.params ? ", " + quantity(setup.activeParams) + " active per token" : ""));
    if (setup.arch.estimated)
        lines.push_back(setup.arch.note);
    if (plan.searched && !plan.layouts.empty())
        lines.push_back("Layout searched on " + count(plan.gpusRaw) + " GPUs: " + count(plan.layoutsEvaluated)
                        + " layouts tried (tp within the " + std::to_string(gpu.gpusPerNode)
                        + "-GPU NVLink domain, pp up to the layers" + (setup.experts > 0 ? ", ep dividing the experts" : "")
                        + ", ZeRO stage, recomputation), " + count(plan.layoutsFitting)
                        + " fit memory; fastest by modelled step time: "
                        + layoutText(plan.layout, plan.layouts.front().dataParallel));
    if (plan.batchFollowsFleet)
        lines.push_back("Batch: " + autoBatchRule(setup) + " → " + number(job.globalBatchTokens) + " tokens ("
                        + number(sequencesPerStep(setup)) + " sequences of " + std::to_string(job.seqLen) + ")");
    if (setup.expertParams > 0)
        lines.push_back("Mixture of experts: " + std::to_string(setup.experts) + " experts, "
                        + std::to_string(setup.expertsPerToken) + " per token; experts hold "
                        + quantity(setup.expertParams) + " of the parameters, sharded over ep = "
                        + std::to_string(std::max(1, job.ep)) + "; FLOPs from the " + quantity(setup.activeParams)
                        + " active");
    const double extraPerToken = flopsPerToken(setup) - 6.0 * setup.activeParams;
    if (fullRecompute(setup))
        lines.push_back("Total FLOPs = 8 × N × D = 8 × " + quantity(setup.activeParams) + " × " + quantity(job.tokens)
                        + " tokens = " + scientific(plan.totalFlops) + " (full recomputation adds a forward pass)");
    else if (extraPerToken > 0)
        lines.push_back("Total FLOPs = (6 × N + 4 × L × s × h) × D = (6 × " + quantity(setup.activeParams) + " + 4 × "
                        + std::to_string(setup.arch.layers) + " × " + std::to_string(job.seqLen) + " × "
                        + grouped(setup.arch.hidden) + ") × " + quantity(job.tokens) + " tokens = "
                        + scientific(plan.totalFlops) + " (selective recomputation repeats the attention core's "
                        "forward, QKᵀ and scores × V: +" + percent(extraPerToken / (6.0 * setup.activeParams)) + ")");
    else
        lines.push_back("Total FLOPs = 6 × N × D = 6 × " + quantity(setup.activeParams) + " × " + quantity(job.tokens)
                        + " tokens = " + scientific(plan.totalFlops)
                        + (job.recompute == Recomputation::Selective
                               ? " (selective recomputation adds nothing with flash attention: its backward pass "
                                 "recomputes the scores anyway)"
                               : ""));
    if (job.throughputBasis == ThroughputBasis::AchievedTflops)
        lines.push_back("Rate per GPU: achieved " + number(job.throughput)
                        + " TFLOP/s, taken as measured (no communication overhead added)");
    else if (job.throughputBasis == ThroughputBasis::AchievedModelTflops)
        lines.push_back("Rate per GPU: achieved " + number(job.throughput) + " TFLOP/s of model FLOPs (6·N per token), "
                        "taken as measured: " + fixed2(nominalTflopsPerGpu(setup))
                        + " TFLOP/s of the FLOPs counted here (no communication overhead added)");
    else
        lines.push_back("Rate per GPU = peak " + number(gpu.bf16Tflops) + " TFLOP/s × MFU " + number(job.throughput)
                        + " = " + fixed2(nominalTflopsPerGpu(setup)) + " TFLOP/s before communication");
    if (plan.comm.applied) {
        std::string step = "Per step (" + number(job.globalBatchTokens) + " tokens, " + count(plan.dataParallel)
                           + " replicas × " + count(plan.comm.microBatchesPerReplica) + " micro-batches): compute "
                           + seconds(plan.comm.computeSeconds);
        if (plan.comm.dpSeconds > 0)
            step += "; gradient all-reduce " + seconds(plan.comm.dpSeconds) + " over " + linkLabel(plan.comm.dpLink)
                    + " at " + number(plan.comm.dpBandwidthGBps) + " GB/s, " + seconds(plan.comm.dpExposedSeconds)
                    + " exposed after overlap with the backward pass";
        if (plan.comm.tpSeconds > 0)
            step += "; tensor parallel " + seconds(plan.comm.tpSeconds) + " over " + linkLabel(plan.comm.tpLink) + " at "
                    + number(plan.comm.tpBandwidthGBps) + " GB/s";
        if (plan.comm.epSeconds > 0)
            step += "; expert all-to-all " + seconds(plan.comm.epSeconds) + " over " + linkLabel(plan.comm.epLink)
                    + " at " + number(plan.comm.epBandwidthGBps) + " GB/s";
        if (plan.comm.ppSeconds > 0)
            step += "; stage-to-stage sends " + seconds(plan.comm.ppSeconds) + " over " + linkLabel(plan.comm.ppLink);
        if (plan.comm.bubbleSeconds > 0)
            step += job.virtualStages > 1 ? "; pipeline bubble (pp − 1) ÷ (v × m), v = " + std::to_string(job.virtualStages)
                                                + " interleaved chunks, = " + seconds(plan.comm.bubbleSeconds)
                                          : "; pipeline bubble (pp − 1) ÷ m = " + seconds(plan.comm.bubbleSeconds);
        if (plan.comm.imbalanceSeconds > 0)
            step += "; uneven stages (⌈L ÷ pp⌉ = " + number(std::ceil(double(setup.arch.layers) / job.pp))
                    + " layers on the longest) " + seconds(plan.comm.imbalanceSeconds);
        step += " → efficiency " + percent(plan.comm.efficiency);
        lines.push_back(step);
        lines.push_back("MFU after communication = MFU " + number(job.throughput) + " × efficiency "
                        + percent(plan.comm.efficiency) + " = " + percent(plan.impliedMfu));
    }
    lines.push_back("Days = FLOPs ÷ (GPUs × rate × efficiency) ÷ 86,400 = " + scientific(plan.totalFlops) + " ÷ ("
                    + count(plan.gpus) + " × " + fixed2(nominalTflopsPerGpu(setup)) + " × 10^12 × "
                    + percent(plan.comm.efficiency) + ") ÷ 86,400 = " + fixed2(plan.days) + " days");
    if (job.target == TrainingTarget::WindowDays)
        lines.push_back("Fewest GPUs finishing within " + number(job.targetValue) + " days: " + count(plan.gpusRaw)
                        + " (a multiple of tp × pp = " + count(width) + ")");
    for (const std::string &warning : plan.warnings)
        lines.push_back("Warning: " + warning);
    if (plan.nodeRounded)
        lines.push_back("tp = " + std::to_string(job.tp) + " needs NVLink inside a node: " + count(plan.gpusRaw)
                        + " GPUs → " + count(plan.nodes) + " whole nodes of " + std::to_string(perNode) + " = "
                        + count(plan.gpusNodeRounded) + " GPUs");
    else
        lines.push_back(count(plan.gpusRaw) + " GPUs on " + count(plan.nodes) + " nodes of " + std::to_string(perNode));
    const MemoryBreakdown &m = plan.memory;
    lines.push_back("Memory per GPU, ZeRO-" + std::to_string(job.zeroStage) + " (" + stageFormula(job.zeroStage)
                    + ", Ψ' = Ψ ÷ (tp × pp) = " + quantity(setup.params / double(width)) + ", N = "
                    + count(shardDegree(setup, plan.gpus)) + "): weights " + bytes(m.weightsBytes) + ", gradients "
                    + bytes(m.gradientsBytes) + ", optimizer " + bytes(m.optimizerBytes) + ", activations "
                    + bytes(m.activationsBytes) + " = " + bytes(m.totalBytes()) + " of " + bytes(usableMemory(setup))
                    + " usable (" + percent(assumptions.usableMemoryFraction) + " of " + bytes(double(gpu.memoryBytes))
                    + ")" + (m.fits ? "" : " — does not fit"));
    {
        std::string formula;
        if (fullRecompute(setup))
            formula = "L × 2·s·b·h ÷ tp (layer inputs only, full recomputation)";
        else if (job.attention == AttentionKernel::Flash)
            formula = "L × (34·s·b·h + 4·s·b·a) ÷ tp (flash attention: no s² scores, fp32 softmax statistics"
                      + std::string(job.recompute == Recomputation::Selective ? "; selective recomputation changes nothing"
                                                                              : "")
                      + ")";
        else if (job.recompute == Recomputation::Selective)
            formula = "L × 34·s·b·h ÷ tp (eager attention, selective recomputation drops the 5·a·s/h score term)";
        else
            formula = "L × s·b·h·(34 + 5·a·s/h) ÷ tp (eager attention, scores stored)";
        const double layerBytes = m.activationsBytes - m.logitsBytes;
        lines.push_back("Activations (Korthikanti et al. 2022) = " + formula + " with L = "
                        + std::to_string(setup.arch.layers) + ", s = " + std::to_string(job.seqLen) + ", b = "
                        + std::to_string(plan.microBatch) + ", h = " + grouped(setup.arch.hidden) + ", a = "
                        + std::to_string(setup.arch.heads) + " = " + bytes(layerBytes) + "; logits s·b·V·4 ÷ tp (fp32 "
                        "for the loss, V = " + grouped(vocabFor(setup))
                        + (job.vocabSize > 0 ? "" : ", assumed") + ") = " + bytes(m.logitsBytes) + "; total "
                        + bytes(m.activationsBytes));
        const std::string perReplica = number(sequencesPerReplica(setup, plan.gpus));
        if (job.microBatch > 0)
            lines.push_back("Micro-batch " + std::to_string(job.microBatch) + " (given): " + perReplica
                            + " sequences per replica per step in " + count(plan.gradAccumulationSteps)
                            + " gradient-accumulation steps");
        else if (job.pp > 1)
            lines.push_back("Micro-batch 1: with pipeline parallelism the smallest keeps the bubble (pp − 1) ÷ m "
                            "smallest; " + perReplica + " sequences per replica per step in "
                            + count(plan.gradAccumulationSteps) + " micro-batches");
        else
            lines.push_back("Micro-batch " + std::to_string(plan.microBatch) + ": the largest that fits beside "
                            + bytes(m.modelStateBytes()) + " of model states at "
                            + bytes(activationBytesPerSequence(setup)) + " per sequence (at most the replica's "
                            + perReplica + " sequences per step), " + count(plan.gradAccumulationSteps)
                            + " gradient-accumulation steps");
        if (m.fits) {
            // What made it fit: each choice against the plain alternative.
            std::vector<std::string> reasons;
            const double eagerBytes = activationBytes(setup.arch, job.seqLen, int(plan.microBatch), job.tp,
                                                      AttentionKernel::Eager, Recomputation::None);
            if (job.attention == AttentionKernel::Flash && !fullRecompute(setup))
                reasons.push_back("flash attention (" + bytes(layerBytes) + " of layer activations; eager attention "
                                  "would store " + bytes(eagerBytes) + ")");
            else if (job.recompute != Recomputation::None)
                reasons.push_back(std::string(toString(job.recompute)) + " recomputation (" + bytes(layerBytes)
                                  + " of layer activations instead of " + bytes(eagerBytes) + ")");
            if (job.zeroStage > 0)
                reasons.push_back("ZeRO-" + std::to_string(job.zeroStage) + " (model states "
                                  + bytes(m.modelStateBytes()) + " instead of "
                                  + bytes(plan.memoryByStage[0].modelStateBytes()) + " unsharded)");
            reasons.push_back("micro-batch " + std::to_string(plan.microBatch) + " with "
                              + count(plan.gradAccumulationSteps) + " accumulation steps instead of holding "
                              + perReplica + " sequences at once");
            std::string line = "Fits because of: ";
            for (size_t i = 0; i < reasons.size(); ++i)
                line += (i ? "; " : "") + reasons[i];
            lines.push_back(line);
        }
    }
    if (chosenMin > 0)
        lines.push_back("Fewest GPUs for memory with ZeRO-" + std::to_string(job.zeroStage) + ": " + count(chosenMin));
    else
        lines.push_back("ZeRO-" + std::to_string(job.zeroStage) + " does not fit at any GPU count; ZeRO-3 fits from "
                        + count(zero3Min) + " GPUs");
    if (!m.fits && plan.memoryByStage[3].fits)
        lines.push_back("On " + count(plan.gpus) + " GPUs ZeRO-3 fits (" + bytes(plan.memoryByStage[3].totalBytes())
                        + " per GPU)");
    lines.push_back("GPU-hours = " + count(plan.gpusNodeRounded) + " GPUs × " + fixed2(plan.days) + " days × 24 = "
                    + number(plan.gpuHours));
    if (plan.preemption) {
        const PreemptionLoss &p = *plan.preemption;
        std::string line = "Preemptible: " + number(p.interruptionsPerHour) + " interruptions per hour ("
                           + number(pricing.interruptionsPerGpuHour) + " per GPU-hour × " + count(plan.gpusNodeRounded)
                           + " GPUs), each losing " + number(job.checkpointIntervalHours) + " h ÷ 2 + "
                           + number(assumptions.restartHours) + " h restart = " + number(p.lossPerInterruptionHours)
                           + " h";
        if (p.makesProgress)
            line += " → " + percent(p.lostFraction) + " of the time lost, " + fixed2(p.effectiveDays) + " days, "
                    + count(std::llround(p.effectiveGpuHours)) + " GPU-hours";
        else
            line += " → the job loses more than it gains between interruptions and never finishes";
        lines.push_back(line);
    }
    if (plan.cost)
        lines.push_back("Cost = " + count(plan.billedGpuHours) + " GPU-hours × " + pricing.ratePerGpuHour->displayRate()
                        + " = " + plan.cost->display());
    if (job.cpuCoresPerGpu > 0)
        lines.push_back("CPU cores = " + std::to_string(job.cpuCoresPerGpu) + " per GPU × "
                        + count(plan.gpusNodeRounded) + " = " + count(plan.cpuCores));
    lines.push_back("Largest sensible fleet: " + count(plan.fleetLimit.gpus) + " GPUs (" + plan.fleetLimit.reason
                    + "), " + fixed2(plan.fleetLimit.days) + " days");
    return plan;
}

std::vector<DaysPoint> daysVersusGpus(const TrainingSetup &setup, int points)
{
    const int64_t width = replicaWidth(setup);
    const int64_t hiReplicas = std::max<int64_t>(1, largestSensibleFleet(setup).gpus / width);
    points = std::max(2, points);
    std::vector<DaysPoint> curve;
    int64_t previous = 0;
    for (int i = 0; i < points; ++i) {
        const double t = double(i) / double(points - 1);
        const int64_t replicas = std::clamp<int64_t>(std::llround(std::pow(double(hiReplicas), t)), 1, hiReplicas);
        if (replicas <= previous)
            continue;
        previous = replicas;
        const int64_t gpus = replicas * width;
        DaysPoint point;
        point.gpus = gpus;
        const CommOverhead comm = communicationOverhead(setup, gpus);
        point.days = setup.job.tokens / setup.job.globalBatchTokens * comm.stepSeconds / kSecondsPerDay;
        point.efficiency = comm.efficiency;
        point.fitsMemory = memoryAt(setup, setup.job.zeroStage, gpus).fits;
        curve.push_back(point);
    }
    return curve;
}

} // namespace headroom::engine
