#pragma once

#include "kv.h"
#include "engine/catalog/specs.h"

#include <cstdint>

// Roofline estimates of one serving replica (DESIGN §3.2): prefill time, decode step time and
// the decode batch that meets an inter-token latency SLO. Used when nothing is measured.
namespace headroom::engine {

// One replica of TP GPUs; every byte figure is per GPU rank.
struct ReplicaRoofline {
    double activeParams = 0;             // parameters used per token (MoE: active)
    int64_t weightsBytes = 0;            // resident weights per GPU
    KvPerToken kvPerToken;               // KV bytes per token per GPU
    int tp = 1;
    double hbmBandwidthGBps = 0;         // per GPU, 10^9 B/s
    double tflops = 0;                   // dense, per GPU, at the precision the weights run in
    double prefillEfficiency = 0.5;      // share of peak FLOPS in prefill
    double decodeBandwidthEfficiency = 0.7;
    double decodeComputeEfficiency = 0.5;
};

// Dense TFLOPS the weights compute at: FP8 when the weights are fp8 and the GPU has FP8
// tensor cores, else BF16 (int8/int4 weights are dequantised to BF16 for the matmuls).
double computeTflops(const GpuSpec &gpu, WeightPrecision weights);

// Prefill tokens per second: TP × FLOPS × η_prefill ÷ (2 × N_active) — the 2N FLOPs per
// token of Kaplan et al. (2020); attention FLOPs are left out.
double prefillTokensPerSecond(const ReplicaRoofline &replica);

// Seconds to prefill `tokens` uncached prompt tokens: 2 × N_active × tokens ÷ (TP × FLOPS × η).
double prefillSeconds(const ReplicaRoofline &replica, double tokens);

// KV bytes one stream of `context` tokens reads per decode step on one rank; sliding-window
// layers read at most their window.
double kvReadBytesPerStream(const ReplicaRoofline &replica, double context);

// The two terms of the decode step: weights and KV read at HBM bandwidth × η_bw, and
// 2 × N_active × batch FLOPs at TP × FLOPS × η_c.
double decodeBandwidthSeconds(const ReplicaRoofline &replica, int64_t batch, double context);
double decodeComputeSeconds(const ReplicaRoofline &replica, int64_t batch);

// Seconds for one decode step of `batch` streams at `context` tokens each:
// max((weights + batch × KV read) ÷ (HBM × η_bw), 2 × N_active × batch ÷ (TP × FLOPS × η_c)).
// Every resident weight counts as read each step (MoE: conservative at small batch).
double decodeStepSeconds(const ReplicaRoofline &replica, int64_t batch, double context);

struct DecodeGoodput {
    int64_t batch = 0;                   // largest batch ≤ maxBatch meeting the ITL SLO; 0: none
    double stepSeconds = 0;              // at `batch` (at batch 1 when none meets the SLO)
    double tokensPerSecond = 0;          // batch ÷ stepSeconds; 0 when none meets the SLO
    double bestStepSeconds = 0;          // at batch 1: the lowest inter-token latency reachable
    bool memoryBound = true;             // the bandwidth term sets the step at `batch`
};

// The largest batch in [1, maxBatch] whose decode step meets `itlSeconds`, and its goodput.
DecodeGoodput decodeGoodput(const ReplicaRoofline &replica, int64_t maxBatch, double context,
                            double itlSeconds);

} // namespace headroom::engine
