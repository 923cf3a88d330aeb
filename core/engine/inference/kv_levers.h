#pragma once

#include "engine/common/money.h"
#include "engine/inference/kv.h"
#include "engine/inference/sizing_options.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What an attention architecture change buys (DESIGN §3.1): a catalog model's KV cache
// described by the few figures the levers change, each lever applied in order, and for every
// step the KV bytes a token costs at a chosen context, the streams one replica holds, and the
// replicas, GPUs and money a peak of concurrent streams then needs. The weights, the GPU and
// everything else about the replica stay as they are: only the KV cache changes.
namespace headroom::engine {

// KV element formats. bf16 2 bytes and fp8 1 byte with one scale per tensor (vLLM's
// `--kv-cache-dtype fp8`); int8 and int4 quantised per head and token with an fp16 scale and
// zero point beside every vector (LMDeploy's KV quantisation), so a vector of d elements costs
// d + 4 bytes in int8 and d ÷ 2 + 4 in int4.
enum class KvFormat { Bf16, Fp8, Int8, Int4 };
std::string_view toString(KvFormat format);                  // "bf16", "fp8", "int8", "int4"
// Bytes of one cached vector of `elements` values in `format`, scales included.
int64_t kvVectorBytes(KvFormat format, int64_t elements);

// A model's KV cache as the levers see it.
struct KvShape {
    int globalLayers = 0;        // layers holding KV for every token
    int localLayers = 0;         // layers holding at most `window` tokens
    int window = 0;
    bool latent = false;         // one shared latent per token and layer (MLA)
    int kvHeads = 0;             // K and V heads (not latent)
    int headDim = 0;
    int latentDim = 0;           // latent: cached width per token and layer
    KvFormat format = KvFormat::Bf16;
    bool operator==(const KvShape &) const = default;
};

// The shape of a catalog model's KV cache at `kv` precision.
KvShape kvShapeOf(const ModelSpec &model, KvPrecision kv);
// Bytes one token costs on one of `tp` ranks (K/V heads split by TP, at least one per rank;
// a latent is held whole on every rank).
KvPerToken kvPerToken(const KvShape &shape, int tp);
// The mean KV bytes per token of a stream of `context` tokens: local layers hold only the
// last `window` of them.
double kvBytesPerTokenAt(const KvPerToken &perToken, int64_t context);

enum class KvLeverKind {
    KvHeads,      // fewer K/V heads: `kvHeads` left (1 = multi-query attention)
    ShareLayers,  // cross-layer KV sharing: every `every` adjacent layers keep one KV
    LocalGlobal,  // one layer in `every` global, the others local with a `window`-token window
    Format,       // KV element format
    Latent,       // MLA-style latent of `width` values per token and layer instead of K/V heads
};

struct KvLever {
    KvLeverKind kind = KvLeverKind::KvHeads;
    int kvHeads = 0;
    int every = 0;
    int window = 0;
    KvFormat format = KvFormat::Bf16;
    int width = 0;
    bool operator==(const KvLever &) const = default;
};

// Text form, as `kv --what-if` takes it: "mqa", "kv-heads=N", "share=K", "local=W/N" (window
// W, one layer in N global), "bf16", "fp8", "int8", "int4", "latent=D". InputError naming
// "what_if" and the text otherwise.
KvLever parseKvLever(std::string_view text);
std::vector<KvLever> parseKvLevers(std::string_view commaSeparated);
std::string describe(const KvLever &lever);                  // "multi-query attention", …
// The shape after the lever; InputError ("what_if") when it does not apply (more KV heads than
// the shape has, K/V heads on a latent, a window of 0, …).
KvShape apply(const KvShape &shape, const KvLever &lever);

struct KvLeverInputs {
    KvInputs replica;            // model, GPU memory, weights, utilization, TP, block, reserve
    int64_t context = 8192;      // tokens per stream the streams are counted at
    int64_t peakStreams = 0;     // concurrent streams to hold; 0: no replicas or money
    std::optional<Money> pricePerGpuHour; // none: no money
};

struct KvLeverStep {
    std::string label;           // "as shipped" or describe(lever)
    KvShape shape;
    KvPerToken perToken;
    double bytesPerToken = 0;    // kvBytesPerTokenAt(context)
    double stepFactor = 1;       // the previous step's bytes per token ÷ this one's
    double totalFactor = 1;      // the first step's ÷ this one's
    int64_t streamsPerReplica = 0;
    int64_t replicas = 0;        // ceil(peak ÷ streams per replica); 0 when none is asked or none fits
    int64_t gpus = 0;            // replicas × TP
    std::optional<Money> monthlyCost; // GPUs × price × kHoursPerMonth (720 h), exact; with replicas and a price
};

// The model as shipped, then one step per lever in order. Validates the replica as
// analyseKv does, the context (≥ 1), peak streams (≥ 0) and price (> 0).
std::vector<KvLeverStep> kvLeverStack(const KvLeverInputs &in, const std::vector<KvLever> &levers);

// Character.AI's published inference stack ("Optimizing AI Inference at Character.AI",
// research.character.ai, 2024): multi-query attention, local attention with a 1,024-token
// window in five of six layers, KV shared by adjacent layers of one kind (here every 2; the
// post says 2–3), int8 KV.
std::vector<KvLever> characterAiStack();

} // namespace headroom::engine
