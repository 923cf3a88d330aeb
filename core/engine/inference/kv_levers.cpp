#include "kv_levers.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <charconv>

namespace headroom::engine {

namespace {

// Widest latent or head a lever may set: far above any published model (DeepSeek's latent
// is 576 wide), small enough that bytes per token stay far inside 64 bits.
constexpr int kMaxWidth = 65536;
constexpr int kMaxWindow = 1'000'000'000;

// The scale and zero point (two fp16 values) stored with every int8 or int4 vector.
constexpr int64_t kScaleBytes = 4;

[[noreturn]] void refuse(const std::string &message) { throw InputError("what_if", message); }

int parseCount(std::string_view lever, std::string_view digits, int low, int high, const char *what)
{
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size() || value < low || value > high)
        refuse("\"" + std::string(lever) + "\": " + what + " must be a whole number from " + std::to_string(low)
               + " to " + std::to_string(high));
    return value;
}

int layers(const KvShape &shape) { return shape.globalLayers + shape.localLayers; }

} // namespace

std::string_view toString(KvFormat format)
{
    switch (format) {
    case KvFormat::Bf16: return "bf16";
    case KvFormat::Fp8: return "fp8";
    case KvFormat::Int8: return "int8";
    case KvFormat::Int4: return "int4";
    }
    return "bf16";
}

int64_t kvVectorBytes(KvFormat format, int64_t elements)
{
    switch (format) {
    case KvFormat::Bf16: return 2 * elements;
    case KvFormat::Fp8: return elements;
    case KvFormat::Int8: return elements + kScaleBytes;
    case KvFormat::Int4: return (elements + 1) / 2 + kScaleBytes;
    }
    return 2 * elements;
}

KvShape kvShapeOf(const ModelSpec &model, KvPrecision kv)
{
    // Validates the model's KV fields as the KV analysis does.
    const KvPerToken checked = kvBytesPerToken(model, kv, 1);
    if (checked.chunkedLayers > 0 || checked.stateBytes > 0)
        throw InputError("layer_types", model.name + " has chunked-attention or linear layers; the lever stack starts "
                                                     "from a model of full and sliding-window layers");
    KvShape shape;
    shape.localLayers = checked.slidingLayers > 0 ? model.slidingLayers : 0;
    shape.globalLayers = model.layers - shape.localLayers;
    shape.window = shape.localLayers > 0 ? checked.window : 0;
    shape.latent = model.attention == AttentionKind::Mla;
    shape.kvHeads = shape.latent ? 0 : model.kvHeads;
    shape.headDim = shape.latent ? 0 : model.headDim;
    shape.latentDim = shape.latent ? model.kvLoraRank + model.qkRopeHeadDim : 0;
    shape.format = kv == KvPrecision::Fp8 ? KvFormat::Fp8 : KvFormat::Bf16;
    return shape;
}

KvPerToken kvPerToken(const KvShape &shape, int tp)
{
    if (tp < 1)
        throw InputError("tp", "tp must be at least 1 (got " + std::to_string(tp) + ")");
    const int64_t perLayer = shape.latent
                                 ? kvVectorBytes(shape.format, shape.latentDim)
                                 : 2 * ((int64_t(shape.kvHeads) + tp - 1) / tp) * kvVectorBytes(shape.format, shape.headDim);
    KvPerToken result;
    result.fullLayers = perLayer * shape.globalLayers;
    result.slidingLayers = perLayer * shape.localLayers;
    result.window = shape.localLayers > 0 ? shape.window : 0;
    return result;
}

double kvBytesPerTokenAt(const KvPerToken &perToken, int64_t context)
{
    if (context < 1)
        throw InputError("context", "context must be at least 1 token (got " + std::to_string(context) + ")");
    const double local = perToken.slidingLayers > 0
                             ? double(perToken.slidingLayers) * double(std::min<int64_t>(context, perToken.window)) / double(context)
                             : 0.0;
    return double(perToken.fullLayers) + local;
}

KvLever parseKvLever(std::string_view text)
{
    KvLever lever;
    const size_t eq = text.find('=');
    const std::string_view name = text.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : text.substr(eq + 1);
    const bool hasValue = eq != std::string_view::npos;
    if (!hasValue && (name == "bf16" || name == "fp8" || name == "int8" || name == "int4")) {
        lever.kind = KvLeverKind::Format;
        lever.format = name == "bf16" ? KvFormat::Bf16 : name == "fp8" ? KvFormat::Fp8 : name == "int8" ? KvFormat::Int8 : KvFormat::Int4;
        return lever;
    }
    if (!hasValue && name == "mqa") {
        lever.kind = KvLeverKind::KvHeads;
        lever.kvHeads = 1;
        return lever;
    }
    if (hasValue && name == "kv-heads") {
        lever.kind = KvLeverKind::KvHeads;
        lever.kvHeads = parseCount(text, value, 1, kMaxWidth, "the KV heads");
        return lever;
    }
    if (hasValue && name == "share") {
        lever.kind = KvLeverKind::ShareLayers;
        lever.every = parseCount(text, value, 2, kMaxWidth, "the layers sharing one KV");
        return lever;
    }
    if (hasValue && name == "local") {
        const size_t slash = value.find('/');
        if (slash == std::string_view::npos)
            refuse("\"" + std::string(text) + "\": write local=WINDOW/N, e.g. local=1024/6 for a 1,024-token window "
                   "with one layer in 6 global");
        lever.kind = KvLeverKind::LocalGlobal;
        lever.window = parseCount(text, value.substr(0, slash), 1, kMaxWindow, "the window");
        lever.every = parseCount(text, value.substr(slash + 1), 1, kMaxWidth, "N (one layer in N global)");
        return lever;
    }
    if (hasValue && name == "latent") {
        lever.kind = KvLeverKind::Latent;
        lever.width = parseCount(text, value, 1, kMaxWidth, "the latent width");
        return lever;
    }
    refuse("unknown lever \"" + std::string(text)
           + "\": use mqa, kv-heads=N, share=K, local=WINDOW/N, latent=D, bf16, fp8, int8 or int4");
}

std::vector<KvLever> parseKvLevers(std::string_view commaSeparated)
{
    std::vector<KvLever> levers;
    size_t start = 0;
    while (start <= commaSeparated.size()) {
        const size_t comma = std::min(commaSeparated.find(',', start), commaSeparated.size());
        std::string_view item = commaSeparated.substr(start, comma - start);
        while (!item.empty() && item.front() == ' ')
            item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ')
            item.remove_suffix(1);
        if (item.empty())
            refuse("an empty lever in \"" + std::string(commaSeparated) + "\"");
        levers.push_back(parseKvLever(item));
        start = comma + 1;
    }
    return levers;
}

std::string describe(const KvLever &lever)
{
    switch (lever.kind) {
    case KvLeverKind::KvHeads:
        return lever.kvHeads == 1 ? std::string("multi-query attention (1 KV head)")
                                  : std::to_string(lever.kvHeads) + " KV heads";
    case KvLeverKind::ShareLayers:
        return "KV shared by every " + std::to_string(lever.every) + " adjacent layers";
    case KvLeverKind::LocalGlobal:
        return lever.every == 1 ? std::string("every layer global")
                                : "local " + std::to_string(lever.window) + "-token window, 1 layer in "
                                      + std::to_string(lever.every) + " global";
    case KvLeverKind::Format:
        return std::string(toString(lever.format)) + " KV";
    case KvLeverKind::Latent:
        return "latent KV of " + std::to_string(lever.width) + " values";
    }
    return {};
}

KvShape apply(const KvShape &shape, const KvLever &lever)
{
    KvShape out = shape;
    switch (lever.kind) {
    case KvLeverKind::KvHeads:
        if (shape.latent)
            refuse("\"" + describe(lever) + "\" does not apply to a latent KV: it holds no K/V heads");
        if (lever.kvHeads < 1 || lever.kvHeads > shape.kvHeads)
            refuse("the KV heads must be from 1 to the " + std::to_string(shape.kvHeads) + " the model has (got "
                   + std::to_string(lever.kvHeads) + ")");
        out.kvHeads = lever.kvHeads;
        break;
    case KvLeverKind::ShareLayers:
        if (lever.every < 2 || lever.every > layers(shape))
            refuse("the layers sharing one KV must be from 2 to the " + std::to_string(layers(shape))
                   + " layers holding KV (got " + std::to_string(lever.every) + ")");
        // Layers share within their kind, so a local layer never serves a global one's tokens.
        out.globalLayers = (shape.globalLayers + lever.every - 1) / lever.every;
        out.localLayers = (shape.localLayers + lever.every - 1) / lever.every;
        break;
    case KvLeverKind::LocalGlobal: {
        if (lever.window < 1 || lever.every < 1 || lever.every > layers(shape))
            refuse("local=WINDOW/N needs a window of at least 1 token and N from 1 to the "
                   + std::to_string(layers(shape)) + " layers holding KV");
        const int total = layers(shape);
        out.globalLayers = (total + lever.every - 1) / lever.every;
        out.localLayers = total - out.globalLayers;
        out.window = out.localLayers > 0 ? lever.window : 0;
        break;
    }
    case KvLeverKind::Format:
        out.format = lever.format;
        break;
    case KvLeverKind::Latent:
        if (lever.width < 1 || lever.width > kMaxWidth)
            refuse("the latent width must be from 1 to " + std::to_string(kMaxWidth));
        out.latent = true;
        out.latentDim = lever.width;
        out.kvHeads = 0;
        out.headDim = 0;
        break;
    }
    return out;
}

std::vector<KvLeverStep> kvLeverStack(const KvLeverInputs &in, const std::vector<KvLever> &levers)
{
    if (in.context < 1)
        throw InputError("context", "context must be at least 1 token (got " + std::to_string(in.context) + ")");
    if (in.peakStreams < 0)
        throw InputError("streams", "peak streams must be 0 or more (got " + std::to_string(in.peakStreams) + ")");
    if (in.pricePerGpuHour && !(in.pricePerGpuHour->amount > Decimal::fromInt(0)))
        throw InputError("price", "the price per GPU-hour must be greater than 0 (got "
                                      + in.pricePerGpuHour->amount.toString(2) + ")");
    KvInputs replica = in.replica;
    replica.sharedPrefixTokens = 0;
    replica.contexts.clear();
    const KvResult base = analyseKv(replica); // validates the replica; its pool holds for every step

    std::vector<KvLeverStep> steps;
    KvShape shape = kvShapeOf(replica.model, replica.kv);
    for (size_t i = 0; i <= levers.size(); ++i) {
        if (i > 0)
            shape = apply(shape, levers[i - 1]);
        KvLeverStep step;
        step.label = i == 0 ? std::string("as shipped") : describe(levers[i - 1]);
        step.shape = shape;
        step.perToken = kvPerToken(shape, replica.tp);
        step.bytesPerToken = kvBytesPerTokenAt(step.perToken, in.context);
        if (!steps.empty()) {
            step.stepFactor = steps.back().bytesPerToken / step.bytesPerToken;
            step.totalFactor = steps.front().bytesPerToken / step.bytesPerToken;
        }
        KvResult r = base;
        r.perToken = step.perToken;
        r.kvBytesPerToken = step.perToken.total();
        r.blockBytes = int64_t(replica.blockSize) * r.kvBytesPerToken;
        r.blocks = r.fits ? r.poolBytes / r.blockBytes : 0;
        step.streamsPerReplica = r.fits ? streamsAtContext(r, in.context).streams : 0;
        if (in.peakStreams > 0 && step.streamsPerReplica > 0) {
            step.replicas = (in.peakStreams + step.streamsPerReplica - 1) / step.streamsPerReplica;
            step.gpus = step.replicas * replica.tp;
            if (in.pricePerGpuHour)
                step.monthlyCost = *in.pricePerGpuHour * (step.gpus * kHoursPerMonth);
        }
        steps.push_back(std::move(step));
    }
    return steps;
}

std::vector<KvLever> characterAiStack()
{
    KvLever mqa;
    mqa.kind = KvLeverKind::KvHeads;
    mqa.kvHeads = 1;
    KvLever share;
    share.kind = KvLeverKind::ShareLayers;
    share.every = 2;
    KvLever local;
    local.kind = KvLeverKind::LocalGlobal;
    local.window = 1024;
    local.every = 6;
    KvLever int8;
    int8.kind = KvLeverKind::Format;
    int8.format = KvFormat::Int8;
    return {mqa, local, share, int8};
}

} // namespace headroom::engine
