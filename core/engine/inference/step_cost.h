#pragma once

#include "kv.h"
#include "engine/catalog/specs.h"

#include <cstdint>
#include <string>

// The step-cost model of one serving replica (DESIGN §3.2): the time of one forward pass over
// the tokens an iteration schedules — decode sequences with their contexts and prefill chunks
// with their offsets — as the serving engine runs it, one pass for all of them:
//
//   T = overhead + layers × per-layer overhead
//     + max(weights per rank ÷ (HBM × η_bw), linear FLOPs per rank ÷ (peak × η_mm(tokens)))
//     + KV bytes read ÷ (HBM × η_kv)
//     + prefill attention FLOPs per rank ÷ (BF16 peak × η_attn)
//     + under TP, 2 all-reduces per layer of tokens × hidden × 2 bytes
//
// Linear FLOPs are 2 × N_body per scheduled token plus 2 × vocab × hidden per sampled token
// (the LM head runs only where a token is sampled; the embedding is a look-up). η_mm(t) =
// η_small + (η_peak − η_small) × t ÷ (t + t_half). Attention FLOPs are 4 × heads × head_dim per
// (query, key) pair per layer, the pairs of a chunk of c tokens at offset o being c × o +
// c(c + 1)/2 (a sliding layer sees at most its window). A ring all-reduce of B bytes on TP
// ranks costs latency + 2(TP − 1)/TP × B ÷ (link × η_link), the link NVLink's one direction, else
// PCIe. Every resident weight is read once per pass, but of a mixture of experts only the
// experts some token of the pass is routed to: with E experts per layer and top-k routing, T
// tokens touch a share 1 − (1 − k/E)^T of them on average (uniform routing), so the expert
// weights read are that share of theirs.
namespace headroom::engine {

// One replica of TP GPUs; every byte and FLOP figure is per GPU rank.
struct StepCostModel {
    double activeParams = 0;         // parameters used per token (MoE: active)
    double headParams = 0;           // LM head (vocab × hidden); 0 when the vocabulary is unknown
    double embeddingParams = 0;      // a separate input embedding (untied), no FLOPs
    int layers = 0;
    int slidingLayers = 0;           // of `layers`, those with a sliding window
    int slidingWindow = 0;
    int chunkedLayers = 0;           // of `layers`, those with chunked local attention
    int attentionChunk = 0;
    int linearLayers = 0;            // of `layers`, linear-attention / state-space layers (no pairs)
    int hiddenSize = 0;
    int attentionHeads = 0;
    int headDim = 0;
    int64_t weightsBytes = 0;        // resident weights per GPU
    double expertWeightShare = 0;    // of weightsBytes, the routed experts' (MoE), else 0
    int experts = 0;                 // routed experts per layer (MoE)
    int expertsPerToken = 0;         // top-k
    KvPerToken kvPerToken;           // KV bytes per token per GPU
    int tp = 1;
    double hbmBandwidthGBps = 0;     // per GPU, 10^9 B/s
    double tflops = 0;               // dense, per GPU, at the precision the weights run in
    double attentionTflops = 0;      // dense BF16 per GPU (attention runs in BF16)
    double linkGBps = 0;             // one direction between TP ranks: NVLink, else PCIe
    GpuEfficiency efficiency;        // the GPU's measured profile, or the workspace's fallback
    bool measuredProfile = false;    // efficiency comes from the GPU catalog's profile
};

// The tokens one iteration schedules.
// Counts are real numbers so that sizing can time an average pass.
struct StepBatch {
    double decodes = 0;              // sequences sampling their next token
    double kvReadBytes = 0;          // KV read per rank: decode contexts and prefill prefixes
    double prefillTokens = 0;        // prompt tokens computed in this pass
    double attentionPairsFull = 0;   // prefill (query, key) pairs per full-attention layer
    double attentionPairsSliding = 0; // per sliding-window layer
    double attentionPairsChunked = 0; // per chunked-attention layer (as a window of the chunk)
    double sampled = 0;              // tokens sampled: decodes plus prefills that finish
    double tokens() const { return decodes + prefillTokens; }
};

// One pass's time, term by term (seconds).
struct StepCost {
    double weightsS = 0;             // weights streamed at HBM × η_bw
    double expertsRead = 1;          // MoE: share of the experts the pass's tokens touch
    double linearComputeS = 0;       // linear FLOPs at peak × η_mm(tokens)
    double linearS = 0;              // max of the two
    double kvReadS = 0;
    double attentionS = 0;
    double allReduceS = 0;
    double overheadS = 0;            // per pass and per layer
    double matmulEfficiency = 0;     // η_mm at this pass's tokens
    double totalS = 0;
    bool computeBound() const { return linearComputeS > weightsS; }
};

// The fallback profile for a GPU the catalog has no measurement for, from the workspace's
// serving assumptions: η_bw and η_kv the decode bandwidth efficiency, η_mm from the decode
// compute efficiency at one token to the prefill efficiency at large passes (half-way at 128
// tokens), η_attn the prefill efficiency, 25 µs and 70 % of the link per all-reduce, 1 ms per
// pass and nothing per layer.
GpuEfficiency fallbackEfficiency(double prefillEfficiency, double decodeBandwidthEfficiency,
                                 double decodeComputeEfficiency);

// η_mm at `tokens` per pass.
double matmulEfficiency(const GpuEfficiency &efficiency, double tokens);

// Sum over the chunk's tokens of the keys each attends to: c × o + c(c + 1)/2, each capped at
// `window` when window > 0.
double attentionPairs(double chunk, double offset, int window = 0);

// KV bytes one sequence of `context` tokens reads per pass on one rank; sliding-window layers
// read at most their window.
double kvReadBytes(const StepCostModel &model, double context);

StepCost stepCost(const StepCostModel &model, const StepBatch &batch);

// Passes on their own: `batch` decodes at `context` tokens each; a prefill of `tokens` after
// `offset` cached tokens (one chunk, sampling its first token).
StepBatch decodeStep(const StepCostModel &model, double batch, double context);
StepBatch prefillStep(const StepCostModel &model, double tokens, double offset = 0);

// The scheduler limits of vLLM's `vllm serve` for a GPU (vllm/engine/arg_utils.py,
// EngineArgs._set_default_args): GPUs of at least 70 GiB that are not A100s batch 8,192 tokens
// and 1,024 sequences per iteration, the others 2,048 and 256.
constexpr int64_t kMaxBatchedTokens = 1 << 20;
constexpr int kMaxNumSeqs = 1 << 16;
struct SchedulerLimits {
    int64_t maxNumBatchedTokens = 8192;
    int maxNumSeqs = 1024;
};
SchedulerLimits vllmSchedulerDefaults(const GpuSpec &gpu);

} // namespace headroom::engine
