#include "kv.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace headroom::engine {

namespace {

// Far above any released model (10 M tokens) and small enough that bytes stay within int64.
constexpr int64_t kMaxContextTokens = 1'000'000'000;

// a × b, or InputError(field) saying which quantity left the 64-bit byte range (an
// architecture far beyond any real model, e.g. 2^31 layers), instead of a wrapped number.
int64_t checkedMul(int64_t a, int64_t b, const char *field, const char *what)
{
    int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        throw InputError(field, std::string(what) + " is more than 2^63 bytes (" + std::to_string(a)
                                    + " × " + std::to_string(b)
                                    + "): the model or the inputs are out of range");
    return product;
}

int64_t checkedAdd(int64_t a, int64_t b, const char *field, const char *what)
{
    int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        throw InputError(field, std::string(what) + " is outside the 64-bit byte range (" + std::to_string(a)
                                    + " + " + std::to_string(b)
                                    + "): the model or the inputs are out of range");
    return sum;
}

int64_t ceilDiv(int64_t numerator, int64_t denominator)
{
    return (numerator + denominator - 1) / denominator;
}

std::string show(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

bool isKvField(std::string_view field, bool withParams)
{
    static constexpr std::string_view kFields[] = {
        "layers",         "attention_heads",  "kv_heads",       "head_dim",
        "kv_lora_rank",   "qk_rope_head_dim", "sliding_layers", "sliding_window",
        "layer_types",    "attention_chunk",  "sink_tokens",    "state_bytes_per_layer",
    };
    if (withParams && field == "params_total")
        return true;
    return std::find(std::begin(kFields), std::end(kFields), field) != std::end(kFields);
}

// Throws the first catalog problem among the fields the KV analysis reads. Identity fields
// (id, name) and max_context do not affect memory and are left to the catalog.
void requireKvModel(const ModelSpec &model, bool withParams)
{
    for (const FieldProblem &problem : validate(model)) {
        if (!isKvField(problem.field, withParams))
            continue;
        if (problem.field == "params_total")
            throw InputError("params", problem.message);
        throw InputError(problem.field, problem.message);
    }
}

void requireTokens(const char *field, int64_t tokens, int64_t minimum)
{
    if (tokens < minimum || tokens > kMaxContextTokens)
        throw InputError(field, std::string(field) + " must be between " + std::to_string(minimum)
                                    + " and " + std::to_string(kMaxContextTokens) + " tokens (got "
                                    + std::to_string(tokens) + ")");
}

void requireTp(const ModelSpec &model, int tp)
{
    if (tp < 1)
        throw InputError("tp", "tp must be at least 1 (got " + std::to_string(tp) + ")");
    const std::string got = " (got " + std::to_string(tp) + ")";
    if (model.attentionHeads % tp != 0)
        throw InputError("tp", "tp must divide attention_heads ("
                                   + std::to_string(model.attentionHeads)
                                   + ") so every rank gets whole heads" + got);
    const bool splits = model.kvHeads % tp == 0 || tp % model.kvHeads == 0;
    if (model.attention != AttentionKind::Mla && !splits)
        throw InputError("tp", "tp must divide kv_heads (" + std::to_string(model.kvHeads)
                                   + ") or be a multiple of it, so KV heads split or replicate"
                                     " evenly"
                                   + got);
}

// Bytes a set of per-stream (or shared) tokens occupies, rounded up to whole blocks per
// layer kind.
int64_t blockRoundedBytes(const KvPerToken &perToken, int blockSize, int64_t fullTokens,
                          int64_t slidingTokens, int64_t chunkedTokens = 0)
{
    const char *what = "the KV cache of one stream";
    int64_t bytes = checkedMul(perToken.fullLayers, ceilDiv(fullTokens, blockSize), "context", what);
    if (perToken.slidingLayers > 0)
        bytes = checkedAdd(bytes, checkedMul(perToken.slidingLayers, ceilDiv(slidingTokens, blockSize),
                                             "context", what),
                           "context", what);
    if (perToken.chunkedLayers > 0)
        bytes = checkedAdd(bytes, checkedMul(perToken.chunkedLayers, ceilDiv(chunkedTokens, blockSize),
                                             "context", what),
                           "context", what);
    return checkedMul(bytes, blockSize, "context", what);
}

} // namespace

KvPerToken kvBytesPerToken(const ModelSpec &model, KvPrecision kv, int tp)
{
    requireKvModel(model, false);
    requireTp(model, tp);

    const int64_t elementBytes = kvElementBytes(kv);
    int64_t perLayer = 0;
    if (model.attention == AttentionKind::Mla) {
        // DeepSeek-V2 §2.1: one compressed latent plus the decoupled RoPE key per token,
        // shared by all heads, so neither K/V doubling nor a TP split applies.
        perLayer = checkedMul(int64_t(model.kvLoraRank) + model.qkRopeHeadDim, elementBytes,
                              "kv_lora_rank", "the KV cache of one token in one layer");
    } else {
        const int64_t headsPerRank = ceilDiv(model.kvHeads, tp);
        const char *what = "the KV cache of one token in one layer";
        perLayer = checkedMul(checkedMul(2 * headsPerRank, model.headDim, "head_dim", what), elementBytes,
                              "head_dim", what);
    }

    KvPerToken result;
    const int sliding = model.isHybrid() ? model.layersOf(LayerKind::Sliding) : 0;
    const int chunked = model.attentionChunk > 0 ? model.layersOf(LayerKind::Chunked) : 0;
    const int linear = model.layersOf(LayerKind::Linear);
    const int full = model.layers - sliding - chunked - linear;
    const char *what = "the KV cache of one token";
    result.fullLayers = checkedMul(int64_t(full), perLayer, "layers", what);
    result.slidingLayers = checkedMul(sliding, perLayer, "layers", what);
    result.chunkedLayers = checkedMul(chunked, perLayer, "layers", what);
    checkedAdd(checkedAdd(result.fullLayers, result.slidingLayers, "layers", what), result.chunkedLayers, "layers", what);
    result.window = sliding > 0 ? model.slidingWindow + model.sinkTokens : 0;
    result.chunk = chunked > 0 ? model.attentionChunk : 0;
    result.stateBytes = checkedMul(linear, ceilDiv(model.stateBytesPerLayer, tp), "state_bytes_per_layer",
                                   "the constant state of one sequence");
    return result;
}

int64_t weightBytesPerGpu(const ModelSpec &model, WeightPrecision w, int tp)
{
    if (!(model.paramsTotal > 0) || !std::isfinite(model.paramsTotal))
        throw InputError("params", "params must be greater than 0 (got "
                                       + show(model.paramsTotal) + ")");
    if (tp < 1)
        throw InputError("tp", "tp must be at least 1 (got " + std::to_string(tp) + ")");
    const long double bytes = std::ceil(static_cast<long double>(model.paramsTotal) * bytesPerParam(w) / tp);
    // 2^63 bytes (8 EiB) per GPU: converting more would be undefined, so say so instead.
    if (!(bytes < 9.2e18L))
        throw InputError("params", "the weights are more than 2^63 bytes per GPU ("
                                       + show(model.paramsTotal) + " parameters)");
    return static_cast<int64_t>(bytes);
}

KvResult analyseKv(const KvInputs &in)
{
    if (in.gpuMemoryBytes <= 0)
        throw InputError("memory", "memory must be greater than 0 bytes (got "
                                       + std::to_string(in.gpuMemoryBytes) + ")");
    if (!(in.utilization > 0 && in.utilization <= 1))
        throw InputError("util", "util must be greater than 0 and at most 1 (got "
                                     + show(in.utilization) + ")");
    if (in.tp < 1)
        throw InputError("tp", "tp must be at least 1 (got " + std::to_string(in.tp) + ")");
    if (in.blockSize < 1 || in.blockSize > kMaxBlockSize)
        throw InputError("block", "block must be between 1 and " + std::to_string(kMaxBlockSize)
                                      + " tokens (got " + std::to_string(in.blockSize) + ")");
    if (in.reserveBytes < 0)
        throw InputError("reserve", "reserve must be at least 0 bytes (got "
                                        + std::to_string(in.reserveBytes) + ")");
    requireTokens("prefix", in.sharedPrefixTokens, 0);
    for (int64_t context : in.contexts)
        requireTokens("context", context, 1);
    requireKvModel(in.model, true);

    KvResult r;
    r.perToken = kvBytesPerToken(in.model, in.kv, in.tp);
    r.kvBytesPerToken = r.perToken.total();
    r.weightsBytes = weightBytesPerGpu(in.model, in.weights, in.tp);
    r.usableBytes = static_cast<int64_t>(
        std::floor(static_cast<long double>(in.gpuMemoryBytes) * in.utilization));
    r.poolBytes = checkedAdd(r.usableBytes, -r.weightsBytes, "reserve", "the KV pool");
    r.poolBytes = checkedAdd(r.poolBytes, -in.reserveBytes, "reserve", "the KV pool");
    r.fits = r.poolBytes > 0;
    r.shortfallBytes = r.fits ? 0 : -r.poolBytes;
    r.blockSize = in.blockSize;
    r.blockBytes = checkedMul(in.blockSize, r.kvBytesPerToken, "block", "one KV block");
    r.blocks = r.fits ? r.poolBytes / r.blockBytes : 0;
    r.prefixTokens = in.sharedPrefixTokens;
    if (in.sharedPrefixTokens > 0) {
        const int64_t slidingTokens = std::min<int64_t>(in.sharedPrefixTokens, r.perToken.window);
        r.prefixBytes = blockRoundedBytes(r.perToken, r.blockSize, in.sharedPrefixTokens,
                                          slidingTokens);
    }

    r.streams.reserve(in.contexts.size());
    for (int64_t context : in.contexts)
        r.streams.push_back(streamsAtContext(r, context));
    return r;
}

StreamsAt streamsAtContext(const KvResult &r, int64_t context)
{
    requireTokens("context", context, 1);
    if (r.perToken.total() <= 0 || r.blockSize < 1)
        throw InputError("block", "the KV result has no block layout; run analyseKv first");

    const int64_t prefix = r.prefixTokens;
    const int64_t window = r.perToken.window;
    // Each stream holds at least the block its next token is written to.
    const int64_t ownFull = std::max<int64_t>(context - prefix, 1);
    int64_t ownSliding = 0;
    if (r.perToken.slidingLayers > 0) {
        // Sliding layers keep token positions [C − window, C); the shared prefix keeps
        // [P − window, P). Only the part of the stream's window outside the prefix is its own.
        const int64_t held = std::min(context, window);
        const int64_t sharedStart = std::max<int64_t>({0, context - window, prefix - window});
        const int64_t shared = std::max<int64_t>(0, std::min(prefix, context) - sharedStart);
        ownSliding = std::max<int64_t>(held - shared, 1);
    }

    // Chunked layers keep the current chunk's tokens: at most `chunk`, each stream its own.
    const int64_t ownChunked = r.perToken.chunkedLayers > 0 ? std::min<int64_t>(context, r.perToken.chunk) : 0;

    StreamsAt s;
    s.context = context;
    s.bytesPerStream = checkedAdd(blockRoundedBytes(r.perToken, r.blockSize, ownFull, ownSliding, ownChunked),
                                  r.perToken.stateBytes, "context", "the KV cache of one stream");
    // Equals floor(blocks / ceil(C / b)) (DESIGN §3.1) for a non-hybrid model with no prefix.
    const int64_t available = checkedAdd(r.poolBytes, -r.prefixBytes, "prefix", "the KV pool after the prefix");
    s.streams = available > 0 ? available / s.bytesPerStream : 0;
    return s;
}

std::vector<StreamsAt> concurrencyCurve(const KvInputs &in, int64_t minContext,
                                        int64_t maxContext, int points)
{
    requireTokens("context", minContext, 1);
    requireTokens("context", maxContext, 1);
    if (maxContext < minContext)
        throw InputError("context", "the largest context (" + std::to_string(maxContext)
                                        + ") must be at least the smallest ("
                                        + std::to_string(minContext) + ")");
    if (points < 2)
        throw InputError("points", "points must be at least 2 (got " + std::to_string(points)
                                       + ")");

    KvInputs base = in;
    base.contexts.clear();
    const KvResult r = analyseKv(base);

    const int64_t count = std::min<int64_t>(points, maxContext - minContext + 1);
    std::vector<StreamsAt> curve;
    curve.reserve(count);
    if (count == 1) {
        curve.push_back(streamsAtContext(r, minContext));
        return curve;
    }
    const double logSpan = std::log(double(maxContext) / double(minContext));
    int64_t previous = minContext - 1;
    for (int64_t i = 0; i < count; ++i) {
        int64_t context = minContext;
        if (i == count - 1) {
            context = maxContext;
        } else if (i > 0) {
            context = std::llround(minContext * std::exp(logSpan * double(i) / double(count - 1)));
        }
        context = std::max(context, previous + 1);
        context = std::min(context, maxContext - (count - 1 - i));
        curve.push_back(streamsAtContext(r, context));
        previous = context;
    }
    return curve;
}

double prefillReduction(double fromHitRate, double toHitRate)
{
    if (!(fromHitRate >= 0 && fromHitRate < 1))
        throw InputError("hit_rate", "the starting hit rate must be at least 0 and below 1 (got "
                                         + show(fromHitRate) + ")");
    if (!(toHitRate >= 0 && toHitRate <= 1))
        throw InputError("hit_rate", "the new hit rate must be between 0 and 1 (got "
                                         + show(toHitRate) + ")");
    // Prefill work is proportional to the uncached share of the prompt, (1 − h).
    return 1.0 - (1.0 - toHitRate) / (1.0 - fromHitRate);
}

} // namespace headroom::engine
