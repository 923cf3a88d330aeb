#pragma once

#include "engine/catalog/specs.h"

#include <cstdint>
#include <string>
#include <vector>

// KV cache and concurrency (DESIGN §3.1): per-token KV bytes, weights, the KV pool and
// vLLM-style block-paged concurrency.
namespace headroom::engine {

constexpr int64_t kGiB = int64_t(1) << 30;
constexpr int64_t kKiB = int64_t(1) << 10;

// KV bytes one token costs on one tensor-parallel rank, split by layer kind.
// fullLayers holds every token; slidingLayers hold at most `window` tokens (the window plus
// any sink tokens); chunkedLayers at most `chunk`. Linear layers hold no per-token KV but a
// constant state per sequence, stateBytes on this rank.
struct KvPerToken {
    int64_t fullLayers = 0;
    int64_t slidingLayers = 0;
    int window = 0;
    int64_t chunkedLayers = 0;
    int chunk = 0;
    int64_t stateBytes = 0;
    int64_t total() const { return fullLayers + slidingLayers + chunkedLayers; }
};

// Per attention layer, MHA/GQA/MQA: 2 × ceil(kv_heads / TP) × head_dim × kv_bytes (heads
// replicated when TP > kv_heads); MLA: (kv_lora_rank + qk_rope_head_dim) × kv_bytes. Summed
// over the model's full, sliding and chunked layers (ModelSpec::layersOf); linear layers add
// ceil(state_bytes_per_layer ÷ TP) each to stateBytes (their heads split over the ranks).
// Throws InputError when TP does not divide the heads sensibly.
KvPerToken kvBytesPerToken(const ModelSpec &model, KvPrecision kv, int tp = 1);

// Weight bytes per GPU: params × bytes/param ÷ TP, rounded up.
int64_t weightBytesPerGpu(const ModelSpec &model, WeightPrecision w, int tp = 1);

// Largest paged-attention block and per-GPU runtime reserve the engine accepts.
constexpr int kMaxBlockSize = 1024;
constexpr int64_t kMaxReserveBytes = int64_t(1) << 40; // 1 TiB

// One line of a KV comparison: a model served on a GPU at a weight and a KV-cache precision
// over `tp` GPUs per replica. The KV page's lines are saved in the workspace.
struct KvVariant {
    std::string modelId;
    std::string gpuId;
    WeightPrecision weights = WeightPrecision::Bf16;
    KvPrecision kv = KvPrecision::Bf16;
    int tp = 1;
    bool operator==(const KvVariant &) const = default;
};

struct KvInputs {
    ModelSpec model;
    int64_t gpuMemoryBytes = 0;
    WeightPrecision weights = WeightPrecision::Bf16;
    KvPrecision kv = KvPrecision::Bf16;
    double utilization = 0.9;          // (0, 1]
    int tp = 1;
    int blockSize = 16;                // tokens per KV block
    int64_t reserveBytes = 0;          // activation peak + runtime overhead per GPU
    int64_t sharedPrefixTokens = 0;    // held once per replica, not per stream
    std::vector<int64_t> contexts;     // contexts to report streams at
};

struct StreamsAt {
    int64_t context = 0;
    int64_t streams = 0;
    int64_t bytesPerStream = 0;        // block-rounded
};

struct KvResult {
    KvPerToken perToken;
    int64_t kvBytesPerToken = 0;       // perToken.total()
    int64_t weightsBytes = 0;          // per GPU
    int64_t usableBytes = 0;           // memory × utilization
    int64_t poolBytes = 0;             // usable − weights − reserve; negative: does not fit
    bool fits = false;                 // pool > 0
    int64_t shortfallBytes = 0;        // how much is missing when !fits
    int blockSize = 16;
    int64_t blockBytes = 0;            // one block across all layers
    int64_t blocks = 0;                // floor(pool / blockBytes)
    int64_t prefixBytes = 0;           // shared prefix held once
    int64_t prefixTokens = 0;          // KvInputs::sharedPrefixTokens
    std::vector<StreamsAt> streams;    // one per KvInputs::contexts
};

// Validates inputs (InputError naming the field) and computes the pool and streams.
// Checked fields: "memory" > 0, "util" in (0, 1], "tp", "block" 1..1024, "reserve" >= 0,
// "prefix" >= 0, every "context" >= 1, and the model fields the KV analysis reads
// ("params" for params_total, "layers", "attention_heads", "kv_heads", "head_dim", the MLA
// and sliding-window fields). Catalog identity (id, name, max_context) is not required.
KvResult analyseKv(const KvInputs &in);

// Concurrent streams at one context for a computed pool (block-paged, window-aware).
// A stream holds its own context − shared prefix tokens (at least one block).
StreamsAt streamsAtContext(const KvResult &r, int64_t context);

// Streams vs context on a log grid of `points` contexts from minContext to maxContext:
// integers, strictly increasing, first = minContext, last = maxContext. When the range holds
// fewer than `points` integers, every integer in it is returned.
std::vector<StreamsAt> concurrencyCurve(const KvInputs &in, int64_t minContext,
                                        int64_t maxContext, int points);

// Share of prefill compute removed when the prefix hit rate goes from `from` to `to`:
// 1 − (1 − to) / (1 − from). 20 % → 50 % gives 0.375.
double prefillReduction(double fromHitRate, double toHitRate);

} // namespace headroom::engine
