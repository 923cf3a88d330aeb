#pragma once

#include "kv.h"
#include "workload.h"

#include <optional>
#include <string>
#include <vector>

// Goodput and inference fleet sizing (DESIGN §3.2): from a workload profile to replicas and
// GPUs, which constraint binds, and why — step by step.
namespace headroom::engine {

// Roofline efficiencies and serving settings; defaults are typical for vLLM-class servers.
struct ServingAssumptions {
    double prefillEfficiency = 0.5;      // share of peak dense TFLOPS reached in prefill
    double decodeBandwidthEfficiency = 0.7; // share of HBM bandwidth reached in decode
    double decodeComputeEfficiency = 0.5;
    double memoryUtilization = 0.9;
    int blockSize = 16;
    int64_t reserveBytes = 2LL << 30;    // activations + runtime per GPU
    double plannedHeadroom = 0.2;        // capacity kept free at peak, by design
};

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
    int64_t peakStreams = 0;
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
    std::string goodputSource;           // "measured" | "estimated"
    double peakUtilization = 0;
    double averageUtilization = 0;
    std::optional<int64_t> prefillGpus;  // when disaggregated
    std::optional<int64_t> decodeGpus;
    bool feasible = true;                // false: no fit, or an SLO missed even at batch 1
    std::string infeasibleReason;        // with the best achievable latency
    std::vector<SizingStep> steps;
};

// Peak concurrency = DAU × peak sessions per user; peak request rate = DAU × requests per
// user per day ÷ 86,400 × peak hour ÷ mean hour. Memory: replicas to hold the peak streams
// at P95 prompt + P95 output (kv). Compute, with the P95/mean traffic variance as buffer:
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
