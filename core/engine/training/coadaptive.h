#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Co-adaptive training (DESIGN §3.5): a job's goodput as Pollux defines it (Qiao et al., "Pollux:
// Co-adaptive Cluster Scheduling for Goodput-Optimized Deep Learning", OSDI 2021; the model of
// petuum/adaptdl, adaptdl/goodput.py), and the batch size and GPU count that maximize it.
//
//   goodput(N, m, s) = throughput × statistical efficiency
//   throughput       = M ÷ T_step,   M = N × m × (s + 1) samples per optimizer step
//   T_step           = s × T_grad + (T_grad^γ + T_sync^γ)^(1/γ)
//   T_grad           = α_c + β_c × m          (forward and backward of a micro-batch of m)
//   T_sync           = α_n + β_n × max(N − 2, 0) across nodes, α_r + β_r × max(N − 2, 0)
//                      within one node, 0 on one GPU (ring all-reduce of the gradients)
//   efficiency E(M)  = (φ + M₀) ÷ (φ + M)     (φ the gradient noise scale, in samples)
//
// N GPUs (data-parallel replicas), m the per-GPU micro-batch, s the gradient accumulation
// steps, M₀ the batch the job was tuned at (E(M₀) = 1). Goodput is in M₀-equivalent samples per
// second: the progress a second makes towards the accuracy M₀ would reach. γ ∈ [1, 10] is the
// overlap of gradient compute and synchronization (1: none, 10: about max()).
namespace headroom::engine {

struct PolluxThroughput {
    double alphaCompute = 0;    // α_c, seconds
    double betaCompute = 0;     // β_c, seconds per sample
    double alphaInter = 0;      // α_n, seconds
    double betaInter = 0;       // β_n, seconds per replica past 2
    double alphaIntra = 0;      // α_r, seconds
    double betaIntra = 0;       // β_r, seconds per replica past 2
    double gamma = 1;           // γ, 1 … 10
};

struct GoodputJob {
    PolluxThroughput perf;
    double noiseScale = 0;      // φ, samples (the gradient noise scale); 0: E = M₀ ÷ M
    int64_t initialBatch = 1;   // M₀, samples
    int64_t maxBatch = 1;       // the largest batch the job accepts (≥ M₀)
    int64_t maxMicroBatch = 1;  // the largest micro-batch one GPU holds
    int gpusPerNode = 8;
};

// One configuration and what it gives.
struct GoodputPoint {
    int64_t gpus = 0;
    int64_t nodes = 0;
    int64_t microBatch = 0;     // m
    int64_t accumulation = 0;   // s: micro-batches accumulated before the one that synchronizes
    int64_t batch = 0;          // M = N × m × (s + 1)
    double stepSeconds = 0;
    double throughput = 0;      // samples per second
    double efficiency = 0;      // E(M)
    double goodput = 0;         // throughput × efficiency
};

// Throws InputError naming the field: negative times, γ outside [1, 10], M₀ < 1, maxBatch < M₀,
// maxMicroBatch < 1, gpusPerNode < 1, a negative φ.
void validate(const GoodputJob &job);

double statisticalEfficiency(const GoodputJob &job, int64_t batch);
// The configuration (N GPUs packed onto ceil(N ÷ gpusPerNode) nodes, m, s) as evaluated.
GoodputPoint evaluateGoodput(const GoodputJob &job, int64_t gpus, int64_t microBatch, int64_t accumulation);
// The m and s with the most goodput on N GPUs, searched exactly over every micro-batch
// 1 … maxMicroBatch and every accumulation count that keeps M₀ ≤ M ≤ maxBatch (ties: the smaller
// batch); goodput 0 when no configuration fits (N × maxMicroBatch × … cannot reach M₀ … or N past
// maxBatch).
GoodputPoint bestGoodput(const GoodputJob &job, int64_t gpus);

// The goodput curve: the best configuration at each of 1 … maxGpus GPUs.
std::vector<GoodputPoint> goodputCurve(const GoodputJob &job, int64_t maxGpus);

// Fixed against adaptive for `work` M₀-equivalent samples: the fixed choice (`fixedGpus` GPUs at
// batch M₀ exactly, with the fastest m and s that make it) against the adaptive one (the GPU
// count within maxGpus and the batch with the most goodput; with `cheapest`, the least
// GPU-hours) — hours and GPU-hours of each (money is GPU-hours × the rate). Throws InputError
// when the fixed choice cannot make a batch of M₀ on its GPUs.
struct AdaptiveComparison {
    GoodputPoint fixed;
    GoodputPoint adaptive;
    double fixedHours = 0;
    double adaptiveHours = 0;
    double fixedGpuHours = 0;
    double adaptiveGpuHours = 0;
};
AdaptiveComparison compareFixedAdaptive(const GoodputJob &job, int64_t fixedGpus, int64_t maxGpus, double work,
                                        bool cheapest = false);

} // namespace headroom::engine
