#pragma once

#include "engine/common/money.h"
#include "engine/catalog/specs.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Training sizing (DESIGN §3.3): total FLOPs, days for a GPU count and GPUs for a window,
// memory per GPU under each ZeRO stage, communication overhead, whole-node rounding, cost
// and the expected loss on preemptible capacity — each with the formula and its numbers.
namespace headroom::engine {

// How the job's speed is given: achieved dense TFLOP/s per GPU (measured; taken as is, no
// communication overhead added) counting every FLOP the GPUs execute, recomputation included
// (hardware FLOPs, as Megatron-LM reports them); achieved TFLOP/s counting the model's 6·N
// FLOPs per token only (model FLOPs, as MFU figures are reported: whatever recomputation the
// run did is inside the measurement); or model FLOPs utilization, a share of the GPU's peak
// BF16 before communication.
enum class ThroughputBasis { AchievedTflops, Mfu, AchievedModelTflops };
// What the plan is solved for: the GPUs that finish in a window of days, or the days a
// given GPU count needs.
enum class TrainingTarget { WindowDays, GpuCount };
// Link between the GPUs of one node, and between nodes.
enum class IntraNodeLink { NvLink, Pcie };
enum class InterNodeLink { InfiniBand, Roce, Ethernet };
// How attention is computed: `flash` (FlashAttention-2/3, PyTorch SDPA's fused kernels) never
// stores the s×s score matrix, only per-row softmax statistics; `eager` stores scores,
// softmax output and dropout mask (Korthikanti et al. 2022's 5·a·s/h term).
enum class AttentionKernel { Flash, Eager };
// Activation recomputation (checkpointing): none; selective (Megatron-LM: recompute only the
// attention core, dropping the score term); full (keep each layer's input, redo its forward).
enum class Recomputation { None, Selective, Full };

std::string_view toString(ThroughputBasis b); // "tflops", "mfu", "model_tflops"
std::string_view toString(TrainingTarget t);  // "days", "gpus"
std::string_view toString(IntraNodeLink l);   // "nvlink", "pcie"
std::string_view toString(InterNodeLink l);   // "infiniband", "roce", "ethernet"
std::string_view toString(AttentionKernel k); // "flash", "eager"
std::string_view toString(Recomputation r);   // "none", "selective", "full"
std::optional<ThroughputBasis> parseThroughputBasis(std::string_view text);
std::optional<TrainingTarget> parseTrainingTarget(std::string_view text);
std::optional<IntraNodeLink> parseIntraNodeLink(std::string_view text);
std::optional<InterNodeLink> parseInterNodeLink(std::string_view text);
std::optional<AttentionKernel> parseAttentionKernel(std::string_view text);
std::optional<Recomputation> parseRecomputation(std::string_view text);

// One training run. The JSON key of each field is given after it; validate() names fields by
// these keys.
struct TrainingJob {
    std::string name;                       // name: unique in a workspace
    std::string modelId;                    // model_id: catalog model; empty = use params
    double params = 0;                      // params: parameter count N; used when model_id is
                                            //   empty, overrides the catalog's count when > 0
    double tokens = 0;                      // tokens: training tokens D
    int seqLen = 4096;                      // seq_len: tokens per sequence
    double globalBatchTokens = 4194304;     // global_batch_tokens: tokens per optimizer step
                                            //   (sequences × seq_len), 4 Mi by default; 0 =
                                            //   follows the fleet (autoBatchTokens)
    double maxBatchTokens = 0;              // max_batch_tokens: ceiling of the batch that follows
                                            //   the fleet; 0 = the assumption's (16 Mi)
    int microBatch = 0;                     // micro_batch: sequences per GPU per forward pass;
                                            //   0 = the largest that fits (gradient accumulation
                                            //   makes up the rest of the per-replica batch), or 1
                                            //   with pp > 1 (the smallest pipeline bubble)
    AttentionKernel attention = AttentionKernel::Flash;  // attention
    Recomputation recompute = Recomputation::None;       // recompute (true/false in older
                                                         //   files: full/none)
    bool recomputeFixed = false;            // recompute_fixed: the search keeps recompute as given
    int vocabSize = 0;                      // vocab_size: for the logits; 0 = the assumption's
    std::string gpuId = "h100-sxm";         // gpu_id: catalog GPU
    ThroughputBasis throughputBasis = ThroughputBasis::Mfu; // throughput_basis
    double throughput = 0.4;                // throughput: TFLOP/s per GPU, or MFU in (0, 1]
    TrainingTarget target = TrainingTarget::WindowDays;     // target
    double targetValue = 30;                // target_value: window in days, or GPU count
    // Layout: tp, pp and ep of 0 and zero_stage −1 are searched (searchLayouts); what is given
    // constrains the search. While any is searched, recomputation is searched too, from the
    // job's level up (none → selective → full).
    int tp = 1;                             // tp: tensor-parallel degree
    int pp = 1;                             // pp: pipeline-parallel degree (stages of
                                            //   ⌈layers ÷ pp⌉ layers; the longest sets the pace)
    int virtualStages = 1;                  // virtual_stages: interleaved pipeline (Megatron-LM):
                                            //   each GPU holds this many non-adjacent chunks of
                                            //   layers, the bubble shrinks to (pp−1) ÷ (v·m) for
                                            //   v times the stage-to-stage sends; needs pp > 1 and
                                            //   micro-batches per replica a multiple of pp; 0 =
                                            //   searched
    int ep = 1;                             // ep: expert-parallel degree of a mixture of experts
                                            //   (divides the experts and the data-parallel
                                            //   replicas); 1 for a dense model
    int dp = 0;                             // dp: ZeRO sharding degree (data-parallel ranks the
                                            //   model states are sharded over); 0 = all ranks
                                            //   of the fleet, gpus ÷ (tp·pp)
    int zeroStage = 1;                      // zero_stage: 0–3, −1 = searched
    IntraNodeLink intraNode = IntraNodeLink::NvLink;        // intra_node
    InterNodeLink interNode = InterNodeLink::InfiniBand;    // inter_node
    int cpuCoresPerGpu = 12;                // cpu_cores_per_gpu
    std::string startDate;                  // start_date: "YYYY-MM-DD"; empty = not scheduled
    int priority = 0;                       // priority: higher runs first in a shared pool
    bool preemptible = false;               // preemptible: runs on spot / preemptible capacity
    double checkpointIntervalHours = 1;     // checkpoint_interval_hours
};

// Range checks: params and model_id both missing, non-positive tokens/params/seq_len/
// global_batch_tokens/micro_batch/throughput, MFU above 1, target_value ≤ 0 (or not a whole
// count of GPUs), tp/pp/ep < 0, dp < 0, zero_stage outside −1–3, cpu_cores_per_gpu < 0, a
// malformed start_date, a non-positive checkpoint interval on a preemptible job.
std::vector<FieldProblem> validate(const TrainingJob &job);

// Settings of the analysis that are not part of a job; defaults are typical.
struct TrainingAssumptions {
    double usableMemoryFraction = 0.9;  // of the GPU's memory: runtime, NCCL buffers, fragmentation
    int64_t maxFleetGpus = 16384;       // largest sensible fleet
    double nvlinkEfficiency = 0.8;      // achieved share of NVLink one-direction bandwidth (nvlink ÷ 2)
    double pcieEfficiency = 0.8;        // achieved share of PCIe bandwidth
    double infinibandGBps = 40;         // achieved per GPU: 400 Gb/s NDR at 80 %
    double roceGBps = 35;               // 400 GbE RoCE v2 at 70 %
    double ethernetGBps = 8.75;         // 100 GbE over TCP at 70 %
    double overlapEfficiency = 0.8;     // share of the backward pass that hides gradient traffic
    double minEfficiency = 0.5;         // a fleet spending less of each step computing is not sensible
    double restartHours = 0.25;         // after a preemption: reschedule and load the checkpoint
    int vocabSize = 128256;             // when the job gives none: Llama 3's tokenizer
    double minBatchTokens = 4194304;    // the batch that follows the fleet starts here (4 Mi)
    double maxBatchTokens = 16777216;   // and stops here (16 Mi, Llama 3 405B's) unless the job
                                        //   sets max_batch_tokens
    int pipelineMicroBatchesPerStage = 4; // that batch gives each replica this many micro-batches
                                        //   per pipeline stage: bubble (pp−1) ÷ (m+pp−1) < 20 %
};

// Total training compute, FLOPs: 6·N·D, or 8·N·D with full activation recomputation
// (one extra forward pass).
double trainingFlops(double params, double tokens, bool fullRecompute);

// Transformer shape used for activation memory and tensor-parallel traffic.
struct Architecture {
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    bool estimated = false;             // derived from the parameter count, not the catalog
    std::string note;                   // how it was estimated
};
// From the catalog model when it has layers, hidden size and heads; otherwise estimated from
// N ≈ 12·L·h² with h = 128·L (hidden rounded to a multiple of 128, heads = h ÷ 128).
Architecture architectureFor(const ModelSpec *model, double params);

// Memory per GPU, bytes, for mixed-precision Adam (bf16 weights and gradients, fp32 master
// weights, momentum and variance = 16 bytes per parameter). Ψ' = Ψ ÷ (tp·pp) per GPU before
// ZeRO; over N sharding ranks: ZeRO-0 16Ψ', ZeRO-1 4Ψ' + 12Ψ'/N, ZeRO-2 2Ψ' + 14Ψ'/N,
// ZeRO-3 16Ψ'/N.
struct MemoryBreakdown {
    int zeroStage = 0;
    double weightsBytes = 0;            // bf16 parameters
    double gradientsBytes = 0;          // bf16 gradients
    double optimizerBytes = 0;          // fp32 master weights, momentum, variance
    double activationsBytes = 0;        // layers and logits at microBatch
    double logitsBytes = 0;             // the part of activationsBytes that is fp32 logits
    int64_t microBatch = 0;             // sequences per forward pass this breakdown holds
    bool fits = false;                  // total ≤ usable memory (set by sizeTraining)
    int64_t minGpus = 0;                // fewest GPUs (a multiple of tp·pp) at which this stage
                                        //   fits; 0 = none up to the largest fleet
    double modelStateBytes() const { return weightsBytes + gradientsBytes + optimizerBytes; }
    double totalBytes() const { return modelStateBytes() + activationsBytes; }
};
// Weights, gradients and optimizer states per GPU (activations 0). Throws InputError for
// params ≤ 0 ("params"), a stage outside 0–3 ("zero_stage"), shards/tp/pp < 1.
MemoryBreakdown modelStateMemory(double params, int zeroStage, int64_t shards, int tp = 1, int pp = 1);

// Activation memory of the transformer layers per GPU, bytes, 16-bit activations with tensor
// and sequence parallelism (Korthikanti et al. 2022, eq. 2 and §4), per layer:
//   eager, none:       s·b·h·(34 + 5·a·s/h) ÷ tp
//   eager, selective:  s·b·h·34 ÷ tp           (score, softmax and dropout recomputed)
//   flash, none/selective: s·b·h·34 ÷ tp + 4·s·b·a ÷ tp (fp32 log-sum-exp per row and head;
//                      FlashAttention, Dao 2022/2023, keeps no s² scores and recomputes them
//                      in its backward pass, so selective recomputation has nothing left to do)
//   full (either):     2·s·b·h ÷ tp            (the layer input only)
// times L layers. With pipeline parallelism the first stage holds pp micro-batches of L/pp
// layers, the same L layers' worth.
double activationBytes(const Architecture &arch, int seqLen, int microBatch, int tp, AttentionKernel attention,
                       Recomputation recompute);
// The output layer's logits kept in fp32 for the cross-entropy loss: s·b·V·4 ÷ tp bytes
// (vocabulary-parallel over tp).
double logitsBytes(int seqLen, int microBatch, int vocabSize, int tp);
// FLOPs that recomputation adds per training token: full, one forward pass, 2·N; selective
// with eager attention, the attention core's forward (QKᵀ and scores × V, 2·s·h each per
// token and layer), 4·L·s·h; selective with flash attention, 0 (its backward recomputes the
// scores in every case); none, 0.
double recomputeFlopsPerToken(const Architecture &arch, double params, int seqLen, AttentionKernel attention,
                              Recomputation recompute);

// A job with its GPU, parameter count and architecture resolved and validated: what the time
// and memory functions below need.
struct TrainingSetup {
    TrainingJob job;
    GpuSpec gpu;
    double params = 0;                  // total: memory
    double activeParams = 0;            // per token: compute (< params for a mixture of experts)
    double expertParams = 0;            // of params, the routed experts' (sharded by ep); 0 dense
    int experts = 0;                    // routed experts per layer; 0 = dense or not known
    int expertsPerToken = 0;            // top-k
    Architecture arch;
    TrainingAssumptions assumptions;
};
// Throws InputError naming the field: any validate() problem; "model_id" when the job names a
// model and `model` is null or another model; "gpu_id" when `gpu` is not the job's GPU;
// "params" when neither gives a positive count; "throughput" when the GPU has no BF16 peak.
TrainingSetup resolveTraining(const TrainingJob &job, const GpuSpec &gpu, const ModelSpec *model,
                              const TrainingAssumptions &assumptions = {});

// Communication per optimizer step on `gpus` GPUs (DP = gpus ÷ (tp·pp) replicas, each
// processing global_batch ÷ DP). Compute: 6 (or 8)·N·B ÷ (gpus × peak × MFU). Data parallel:
// ring all-reduce of bf16 gradients, 2·(DP−1)/DP × 2Ψ' bytes per GPU (×1.5 with ZeRO-3 for
// the parameter all-gathers), over NVLink/PCIe when the job fits one node, else over the
// inter-node link; hidden behind overlap × the backward pass, the rest is exposed. Tensor
// parallel: 4 all-reduces of s·b·h bf16 activations per layer and micro-batch (6 with
// recomputation), 2·(tp−1)/tp of the data each, over NVLink/PCIe when tp ≤ GPUs per node.
// Pipeline bubble: (pp−1) ÷ m of the compute with m micro-batches per replica per step.
struct CommOverhead {
    bool applied = true;                // false: achieved TFLOP/s taken as measured
    double computeSeconds = 0;          // per step, pure compute
    double dpSeconds = 0;               // gradient traffic per step
    double dpExposedSeconds = 0;        // not hidden behind the backward pass
    double tpSeconds = 0;
    double epSeconds = 0;               // expert all-to-all (dispatch and combine, both passes)
    double ppSeconds = 0;               // activations and their gradients sent between stages
    double bubbleSeconds = 0;
    double imbalanceSeconds = 0;        // the longest of uneven pipeline stages sets the pace
    double stepSeconds = 0;             // compute + exposed DP + TP + EP + stage sends + bubble + imbalance
    double efficiency = 1;              // compute ÷ step, (0, 1]
    double dpBandwidthGBps = 0;         // achieved, per GPU
    double tpBandwidthGBps = 0;
    double epBandwidthGBps = 0;
    std::string dpLink;                 // "nvlink", "pcie", "infiniband", "roce", "ethernet", "none"
    std::string tpLink;
    std::string epLink;
    std::string ppLink;
    int64_t microBatchesPerReplica = 0; // per step
};
// Mixture of experts with ep > 1: each MoE layer sends every token's hidden state to its k
// experts and back, forward and backward: 4 all-to-alls of s·b·k·h bf16 ÷ tp per micro-batch,
// (ep−1)/ep of it leaving the GPU, over NVLink when tp·ep GPUs share a node. Expert gradients
// reduce over dp ÷ ep replicas. A measured rate is taken as is (applied = false) unless
// `modelMeasured`, which models the step at the measured rate (the layout search ranks by it).
CommOverhead communicationOverhead(const TrainingSetup &setup, int64_t gpus, bool modelMeasured = false);
// Memory per GPU at the job's ZeRO stage on `gpus` GPUs, with the micro-batch the plan would
// use; `fits` set. Mixture of experts: dense states over tp·pp and the dp replicas, expert
// states over tp·pp·ep and dp ÷ ep.
MemoryBreakdown trainingMemory(const TrainingSetup &setup, int64_t gpus);
// GPUs of `gpus` that compute: whole replicas of tp·pp, no more than the batch feeds (one
// micro-batch each), a multiple of ep replicas.
int64_t computingGpuCount(const TrainingSetup &setup, int64_t gpus);
// Tokens per step of a batch that follows the fleet: the minimum (4 Mi), raised until each of
// the gpus ÷ (tp·pp) replicas gets one micro-batch per step (pipelineMicroBatchesPerStage × pp
// with pipelines), at most the ceiling (max_batch_tokens, or 16 Mi); whole sequences.
double autoBatchTokens(const TrainingSetup &setup, int64_t gpus);
// The rule autoBatchTokens follows, in words, for the explanation and the guide.
std::string autoBatchRule(const TrainingSetup &setup);

// Peak-relative rate actually reached per GPU, TFLOP/s: the achieved figure as given, or
// peak BF16 × MFU × efficiency at `gpus`.
double effectiveTflopsPerGpu(const TrainingSetup &setup, int64_t gpus);
// Wall-clock days on `gpus` GPUs (using the largest multiple of tp·pp among them):
// FLOPs ÷ (GPUs × effective TFLOP/s × 10^12) ÷ 86,400. Throws InputError("gpus") when fewer
// than tp·pp.
double daysForGpus(const TrainingSetup &setup, int64_t gpus);
// Fewest GPUs (a multiple of tp·pp) finishing within `days`: the inverse of daysForGpus up to
// rounding up to whole GPUs. Throws InputError("target_value") when no fleet up to the
// largest sensible one (maxFleetGpus, or tp·pp × sequences per step, or where more GPUs stop
// helping) meets the window, saying what that fleet would achieve.
int64_t gpusForDays(const TrainingSetup &setup, double days);
// The largest sensible fleet and the days it needs.
struct FleetLimit {
    int64_t gpus = 0;
    double days = 0;
    std::string reason;                 // which limit binds
};
FleetLimit largestSensibleFleet(const TrainingSetup &setup);

// Preemptible capacity: the job stops when any of its GPUs is reclaimed, so it is interrupted
// λ = rate per GPU-hour × GPUs times per hour; each interruption loses half a checkpoint
// interval of work plus the restart time. Lost share of wall time f = λ·(interval/2 + restart);
// effective time = time ÷ (1 − f). makesProgress is false when f ≥ 1.
struct PreemptionLoss {
    double interruptionsPerHour = 0;    // for the whole job
    double lossPerInterruptionHours = 0;
    double lostFraction = 0;            // of wall-clock time
    double expectedInterruptions = 0;
    double lostHours = 0;               // wall-clock
    double effectiveDays = 0;
    double effectiveGpuHours = 0;
    bool makesProgress = true;
};
PreemptionLoss preemptionLoss(double days, int64_t gpus, double interruptionsPerGpuHour,
                              double checkpointIntervalHours, double restartHours);

// Price of the job's GPUs and their spot interruption rate (e.g. from a rate card: on-demand
// or committed rate, or spot with spot_interruption_rate for a preemptible job).
struct TrainingPricing {
    std::optional<Money> ratePerGpuHour;
    double interruptionsPerGpuHour = 0; // used when the job is preemptible
};

// A parallel layout: what the search chooses where the job leaves it open.
struct TrainingLayout {
    int tp = 1;
    int pp = 1;
    int ep = 1;
    int zeroStage = 1;
    int virtualStages = 1;
    Recomputation recompute = Recomputation::None;
    double globalBatchTokens = 0;       // tokens per step: the job's or autoBatchTokens
};
// One layout of the search, evaluated on the fleet.
struct LayoutCandidate {
    TrainingLayout layout;
    int64_t computingGpus = 0;          // whole replicas the batch feeds
    int64_t dataParallel = 0;
    MemoryBreakdown memory;             // fits, by construction
    CommOverhead comm;                  // modelled step, also for a measured rate
    double days = 0;                    // as the plan reports them (a measured rate as is)
    double modelledDays = 0;            // steps × modelled step time: the ranking key
};
struct LayoutSearch {
    std::vector<LayoutCandidate> best;  // fastest first, at most `keep`
    int64_t evaluated = 0;              // layouts tried
    int64_t fitting = 0;                // of them, fitting memory
    std::optional<LayoutCandidate> smallest; // when none fits: the one needing least memory
};
// True when the job leaves any of tp, pp, ep or zero_stage to the search.
bool layoutSearched(const TrainingJob &job);
// The setup with `layout` applied (a batch of 0 follows the fleet at `gpus`).
TrainingSetup withLayout(const TrainingSetup &setup, const TrainingLayout &layout, int64_t gpus);
// Every layout the job allows on `gpus` GPUs: tp a power of two dividing the attention heads
// within the NVLink domain (GPUs per node), pp up to the layers, ep dividing the experts and
// the replicas, ZeRO 0–3, recomputation from the job's level up; those whose memory fits,
// those keeping every GPU computing first, then ranked by modelled days (steps × step time: compute, exposed gradient reduce and ZeRO-3
// gathers, tensor-parallel all-reduces, expert all-to-all, pipeline bubble and imbalance).
LayoutSearch searchLayouts(const TrainingSetup &setup, int64_t gpus, size_t keep = 5);

// Everything the training page and the CLI show.
struct TrainingPlan {
    double params = 0;
    double tokens = 0;
    double totalFlops = 0;
    Architecture arch;
    double peakTflopsPerGpu = 0;        // GPU's dense BF16
    double effectiveTflopsPerGpu = 0;   // at `gpus`, after overhead
    int64_t gpus = 0;                   // GPUs the job computes on (a multiple of tp·pp)
    int64_t gpusRaw = 0;                // window: fewest meeting it; count: as given
    int64_t gpusNodeRounded = 0;        // whole nodes when tp > 1, else gpusRaw
    int64_t nodes = 0;                  // ceil(gpusNodeRounded ÷ GPUs per node)
    bool nodeRounded = false;           // tp > 1: the job takes whole NVLink nodes
    int64_t dataParallel = 0;           // gpus ÷ (tp·pp)
    int64_t microBatch = 0;             // sequences per GPU per forward pass (chosen stage)
    int64_t gradAccumulationSteps = 0;  // forward/backward passes per optimizer step per replica
    double days = 0;                    // on `gpus`
    double gpuHours = 0;                // gpusNodeRounded × days × 24: what is paid for
    // GPU-hours billed: gpuHours (effective ones when preemptible) rounded to whole GPU-hours,
    // half away from zero, so that the cost shown is the product of the figures shown.
    int64_t billedGpuHours = 0;
    std::optional<Money> cost;          // billedGpuHours × rate
    int64_t cpuCores = 0;               // cpu_cores_per_gpu × gpusNodeRounded
    int64_t usableMemoryBytes = 0;      // GPU memory × usable fraction
    MemoryBreakdown memory;             // chosen ZeRO stage at `gpus`
    std::array<MemoryBreakdown, 4> memoryByStage; // ZeRO 0–3 at `gpus`
    int64_t minGpusForMemory = 0;       // chosen stage; ZeRO-3's when the chosen one never fits
    CommOverhead comm;                  // at `gpus`
    FleetLimit fleetLimit;
    std::optional<PreemptionLoss> preemption; // when the job is preemptible
    TrainingLayout layout;              // the layout planned: the job's, or the search's best
    bool searched = false;              // the layout (or part of it) came from the search
    std::vector<LayoutCandidate> layouts;     // the search's best, fastest first (empty: none)
    int64_t layoutsEvaluated = 0;
    int64_t layoutsFitting = 0;
    bool batchFollowsFleet = false;     // global_batch_tokens was 0
    double impliedMfu = 0;              // MFU basis: MFU × communication efficiency
    std::vector<std::string> warnings;  // GPUs left idle, and the like, with the numbers
    std::vector<std::string> explanation;     // formula with numbers, one line each
};
// Solves the job for its target. For a window, GPUs = max(fewest meeting the window, fewest
// fitting memory at the chosen stage). Throws InputError naming the field for bad input (see
// resolveTraining), a window no fleet can meet ("target_value"), a GPU count below tp·pp
// ("target_value"), and a model that does not fit even with ZeRO-3 on the GPUs ("zero_stage",
// with the memory needed and the fewest GPUs that would fit).
TrainingPlan sizeTraining(const TrainingJob &job, const GpuSpec &gpu, const ModelSpec *model,
                          const TrainingPricing &pricing = {}, const TrainingAssumptions &assumptions = {});

// One point of the days-versus-GPUs chart.
struct DaysPoint {
    int64_t gpus = 0;
    double days = 0;
    double efficiency = 1;              // communication efficiency at this count
    bool fitsMemory = false;            // chosen ZeRO stage fits at this count
};
// About `points` counts spaced geometrically from tp·pp to the largest sensible fleet, each a
// multiple of tp·pp, ascending and distinct.
std::vector<DaysPoint> daysVersusGpus(const TrainingSetup &setup, int points = 40);

} // namespace headroom::engine
