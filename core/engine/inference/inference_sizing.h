#pragma once

#include "goodput.h"
#include "step_cost.h"
#include "kv.h"
#include "runtime_memory.h"
#include "workload.h"

#include <optional>
#include <string>
#include <vector>

// Goodput and inference fleet sizing (DESIGN §3.2): from a workload profile to replicas and
// GPUs, which constraint binds, and why — step by step.
namespace headroom::engine {

// How long a request's KV cache stays resident (DESIGN §3.2).
// Request: only while the request is in flight (vLLM/SGLang without session pinning); memory is
// sized for a high quantile of the requests in flight. Session: every concurrent session keeps
// its conversation resident between turns (DAU × peak sessions per user), trading memory for
// no re-prefill.
enum class KvResidency { Request, Session };
std::string_view toString(KvResidency residency);          // "request", "session"
std::optional<KvResidency> parseKvResidency(std::string_view text);

// The runtime reserve measured for one deployment — a model on a GPU at a TP, e.g. from its
// vLLM start-up log — which wins over the reserve mode for that deployment.
struct ReserveOverride {
    std::string modelId;
    std::string gpuId;
    int tp = 1;
    int64_t reserveBytes = 0;
    std::string source;                  // "vLLM log server.log, 2026-12-06"
    bool operator==(const ReserveOverride &) const = default;
};

// Roofline efficiencies and serving settings; defaults are typical for vLLM-class servers.
struct ServingAssumptions {
    // The step-cost model's efficiencies for a GPU without a measured profile in the catalog
    // (fallbackEfficiency in step_cost.h); a GPU's own profile wins.
    double prefillEfficiency = 0.5;      // share of peak dense TFLOPS reached by large passes
    double decodeBandwidthEfficiency = 0.7; // share of HBM bandwidth reached streaming weights and KV
    double decodeComputeEfficiency = 0.5;   // share of peak dense TFLOPS reached by a one-token pass
    double memoryUtilization = 0.9;
    int blockSize = 16;
    int64_t reserveBytes = 2LL << 30;    // activations + runtime per GPU (ReserveMode::Flat)
    // Flat: reserveBytes on every GPU. VllmProfile: the activation peak and non-torch memory
    // vLLM's profiling pass finds for the model, TP and scheduler limits (runtime_memory.h).
    ReserveMode reserveMode = ReserveMode::Flat;
    std::vector<ReserveOverride> reserveOverrides; // at most kMaxReserveOverrides, one per deployment
    double plannedHeadroom = 0.2;        // capacity kept free at peak, by design
    double inFlightQuantile = 0.99;      // quantile of the in-flight count memory is sized for
    double queueingAllowanceMs = 200;    // wait before prefill counted in the time in system
    KvResidency residency = KvResidency::Request; // which streams hold KV cache
    // The serving engine's scheduler, as vLLM's (`vllm serve`): tokens and sequences one
    // iteration may schedule (0: vLLM's default for the GPU, vllmSchedulerDefaults), chunked
    // prefill (off: a prompt is prefilled in one pass) and prefix caching (off: nothing reused).
    int64_t maxNumBatchedTokens = 0;
    int maxNumSeqs = 0;
    bool chunkedPrefill = true;
    bool prefixCaching = true;
    // Fixed time of every request before its first token outside the GPU passes: API server,
    // tokenization, scheduling. 50 ms: the value that best fits the fidelity suite's vLLM TTFTs
    // at 1–8 concurrent users (README "Serving fidelity").
    double requestOverheadMs = 50;
};

// The scheduler limits in force for `gpu`: the assumptions' where set, else vLLM's defaults.
SchedulerLimits schedulerLimits(const ServingAssumptions &assumptions, const GpuSpec &gpu);
bool operator==(const ServingAssumptions &a, const ServingAssumptions &b);

// The runtime memory per GPU the KV pool subtracts for `model` on `gpu` over `tp` GPUs: the
// flat reserve, or vLLM's profile estimate at schedulerLimits(assumptions, gpu).
int64_t runtimeReserveBytes(const ServingAssumptions &assumptions, const ModelSpec &model, const GpuSpec &gpu,
                            int tp);
// The same, with its parts and the words a breakdown shows: "2.00 GiB (flat)" or
// "1.04 GiB activation peak (8,192 tokens, 256 sequences) + 1.79 GiB non-torch".
struct RuntimeReserve {
    int64_t bytes = 0;
    std::optional<RuntimeMemory> profile;      // VllmProfile only
    std::optional<ReserveOverride> measured;   // the deployment's own reserve, which won
};
constexpr size_t kMaxReserveOverrides = 256;
// The assumptions with `override` in place of any for the same model, GPU and TP.
ServingAssumptions withReserveOverride(ServingAssumptions assumptions, const ReserveOverride &override);
RuntimeReserve runtimeReserve(const ServingAssumptions &assumptions, const ModelSpec &model, const GpuSpec &gpu,
                              int tp);

// Range checks of every serving assumption (field names as in the workspace's JSON form:
// memory_utilization, reserve_bytes, block_size, prefill_efficiency, ...), shared by the
// workspace, the editor and the CLI.
std::vector<FieldProblem> validate(const ServingAssumptions &assumptions);

// The step-cost model of one replica of `tp` GPUs serving `model` at `weights` precision:
// active parameters (MoE: active, else total) with the LM head and embedding apart when the
// vocabulary is known, the architecture attention and all-reduces need, the weights and KV
// bytes per rank from `kv`, the GPU's bandwidth, TFLOPS and link, and its efficiency profile
// for this deployment (GpuSpec::profileFor: a calibration of this model, TP and weights, else
// the GPU's measured profile, else the assumptions' fallback); FP8 weights on a GPU with FP8
// TFLOPS take the profile's FP8 matmul pair where it has one.
StepCostModel stepCostModel(const ModelSpec &model, const GpuSpec &gpu, WeightPrecision weights,
                            const KvResult &kv, int tp, const ServingAssumptions &assumptions);

// What-if overrides on top of the profile.
struct SizingOverrides {
    std::optional<std::string> gpuId;
    std::optional<WeightPrecision> weights;
    std::optional<KvPrecision> kv;
    std::optional<double> prefixHitRate;
    std::optional<int> tp;
    bool disaggregate = false;           // separate prefill and decode pools
};

// One line of the "how the number came about" breakdown.
struct SizingStep {
    std::string title;                   // "Peak concurrent streams"
    std::string formula;                 // "DAU × peak sessions per user"
    std::string value;                   // "50,000 × 0.1 = 5,000"
};

struct SizingResult {
    KvResidency residency = KvResidency::Request;
    int64_t peakStreams = 0;             // what memory is sized for: in-flight quantile or sessions
    int64_t sessionsResident = 0;        // DAU × peak sessions per user (session residency)
    double timeInSystemMs = 0;           // W: queueing allowance + P50 prefill + P50 output × step
    double inFlightMean = 0;             // L = peak request rate × W (Little's law)
    int64_t inFlightQuantileCount = 0;   // Poisson(L) at the in-flight quantile (request residency)
    double inFlightQuantile = 0.99;
    int64_t operatingBatch = 0;          // mean requests in flight per replica at the fixed point
    double operatingStepMs = 0;          // decode step at operatingBatch, P50 context
    double prefillTimeP50Ms = 0;         // uncached P50 prompt at one replica
    int fixedPointIterations = 0;        // rounds of W → batch → replicas until the batch settled
    bool fixedPointConverged = true;     // false: it cycled; the largest batch seen was kept
    int64_t replicasMemorySession = 0;   // memory replicas under each residency model
    int64_t replicasMemoryRequest = 0;
    double sessionPrefillSavedTokensPerS = 0; // at most, by keeping sessions resident
    std::string residencyWarning;        // sessions far above the in-flight quantile
    double peakRequestsPerS = 0;         // mean request rate in the peak hour
    double prefillTokensPerS = 0;        // prefill compute demand at peak after the hit rate
    double decodeTokensPerS = 0;         // output tokens per second at peak
    int64_t contextTokens = 0;           // P95 prompt + P95 output: what one stream holds
    int64_t weightsBytesPerGpu = 0;
    int64_t kvPoolBytes = 0;             // per GPU; negative when the weights do not fit
    double prefillCapacityTokensPerS = 0; // per replica, roofline
    int64_t streamsPerReplica = 0;       // memory: streams whose resident KV fits one replica
    int64_t decodeBatch = 0;             // largest batch meeting the ITL SLO and fitting KV
    double prefillTimeMs = 0;            // P95 prompt at one replica
    double decodeStepMs = 0;             // at decodeBatch
    int64_t replicasMemory = 0;
    int64_t replicasCompute = 0;
    int64_t replicasNeeded = 0;          // max(memory, compute) before the planned headroom
    int64_t replicas = 0;                // replicasNeeded with the planned headroom
    int64_t headroomReplicas = 0;        // replicas − replicasNeeded, free at peak by design
    int64_t gpus = 0;
    int gpusPerReplica = 1;
    std::string binding;                 // "memory" | "compute" | "ttft" | "itl"
    double goodputTokensPerS = 0;        // per replica
    std::string goodputSource;           // "measured" | "simulated" | "estimated"
    double peakUtilization = 0;
    double averageUtilization = 0;
    std::optional<int64_t> prefillGpus;  // when disaggregated
    std::optional<int64_t> decodeGpus;
    bool feasible = true;                // false: no fit, or an SLO missed even at batch 1
    std::string infeasibleReason;        // with the best achievable latency
    std::vector<SizingStep> steps;
};

// Peak request rate = DAU × requests per
// user per day ÷ 86,400 × peak hour ÷ mean hour. Memory: replicas to hold the peak streams
// at P95 prompt + P95 output (kv), where the peak streams are, by residency model: request —
// the in-flight quantile of Poisson(L), L = rate × W, W = queueing allowance + P50 prefill +
// P50 output × decode step at the per-replica batch, solved by fixed-point iteration from
// batch 1 (W depends on the batch, the batch on the replicas); session — DAU × peak sessions
// per user. Both are reported whichever is chosen. Compute, with the P95/mean traffic variance as buffer:
// ceil(variance × (decode demand ÷ goodput + prefill demand ÷ prefill throughput)) — an
// aggregated replica shares its time — or ceil(variance × decode demand ÷ measured goodput);
// a measurement applies only on the GPU, precisions and TP of the profile. Replicas =
// ceil(max(memory, compute) × (1 + planned headroom)); GPUs = replicas × TP. Disaggregated:
// prefill pool ceil(ceil(variance × prefill demand ÷ prefill throughput) × (1 + headroom)) × TP,
// decode pool as above without the prefill share. An infeasible plan (weights or one
// stream do not fit, TTFT or ITL missed even at batch 1) has feasible false, zero replicas and
// the best achievable figure in infeasibleReason.
// `gpu` is the GPU to size on (overrides.gpuId, else the profile's); `model` the profile's.
// Throws InputError naming the field on invalid inputs, "gpu" / "model" when the spec passed
// is not the one the profile or override names.
SizingResult sizeInference(const WorkloadProfile &workload, const ModelSpec &model, const GpuSpec &gpu,
                           const SizingOverrides &overrides = {}, const ServingAssumptions &assumptions = {});

struct WhatIf {
    std::string gpuId;
    WeightPrecision weights;
    KvPrecision kv;
    SizingResult result;
    bool dropsToCheaperTier = false;     // fits a GPU with less memory than the profile's GPU
};
// Every catalog GPU × weights {bf16, fp8, int4} × KV {bf16, fp8}, in catalog order, at the
// profile's TP and hit rate.
std::vector<WhatIf> sizingWhatIfs(const WorkloadProfile &workload, const ModelSpec &model,
                                  const std::vector<GpuSpec> &gpus, const ServingAssumptions &assumptions = {});

} // namespace headroom::engine
