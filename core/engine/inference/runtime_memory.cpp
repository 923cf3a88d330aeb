#include "runtime_memory.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace headroom::engine {

std::string_view toString(ReserveMode mode)
{
    return mode == ReserveMode::VllmProfile ? "vllm_profile" : "flat";
}

std::optional<ReserveMode> parseReserveMode(std::string_view text)
{
    if (text == "flat")
        return ReserveMode::Flat;
    if (text == "vllm_profile")
        return ReserveMode::VllmProfile;
    return std::nullopt;
}

double mlpWidthPerToken(const ModelSpec &model)
{
    const double h = model.hiddenSize;
    if (h <= 0 || model.layers < 1)
        return 0;
    const double active = model.paramsActive > 0 ? model.paramsActive : model.paramsTotal;
    const double embedding = double(model.vocabSize) * h * (model.tiedEmbeddings ? 1 : 2);
    const double heads = model.attentionHeads;
    const double headDim = model.headDim > 0 ? model.headDim : h / std::max(1.0, heads);
    double attention = 0;
    if (model.attention == AttentionKind::Mla)
        // Latent down-projection, its up-projection to K and V of every head, and the
        // query and output projections.
        attention = h * (model.kvLoraRank + model.qkRopeHeadDim) + double(model.kvLoraRank) * heads * 2 * headDim
            + 2 * heads * headDim * h;
    else
        attention = h * headDim * (heads + 2.0 * model.kvHeads) + heads * headDim * h;
    const double perLayer = (active - embedding) / model.layers;
    return std::max(h, (perLayer - attention) / (3 * h));
}

RuntimeMemory vllmRuntimeMemory(const ModelSpec &model, int tp, const SchedulerLimits &limits)
{
    if (model.hiddenSize < 1)
        throw InputError("hidden_size", "hidden_size must be at least 1 to estimate the activation peak (got "
                                            + std::to_string(model.hiddenSize) + ")");
    if (model.layers < 1)
        throw InputError("layers", "layers must be at least 1 (got " + std::to_string(model.layers) + ")");
    if (tp < 1)
        throw InputError("tp", "tp must be at least 1 (got " + std::to_string(tp) + ")");
    if (limits.maxNumBatchedTokens < 1 || limits.maxNumBatchedTokens > (int64_t(1) << 30))
        throw InputError("max_num_batched_tokens", "max_num_batched_tokens must be between 1 and 2^30 (got "
                                                       + std::to_string(limits.maxNumBatchedTokens) + ")");
    if (limits.maxNumSeqs < 1)
        throw InputError("max_num_seqs", "max_num_seqs must be at least 1 (got " + std::to_string(limits.maxNumSeqs) + ")");

    RuntimeMemory m;
    m.maxBatchedTokens = limits.maxNumBatchedTokens;
    m.maxSeqs = int(std::min<int64_t>(limits.maxNumSeqs, limits.maxNumBatchedTokens));
    m.vocab = model.vocabSize > 0 ? model.vocabSize : kDefaultVocab;
    m.mlpWidth = mlpWidthPerToken(model);
    const double tokens = double(m.maxBatchedTokens);
    const double h = model.hiddenSize;
    const double routedHidden = model.isMoe() && model.expertsPerToken > 0 ? double(model.expertsPerToken) * h : 0.0;
    m.forwardPeakBytes = int64_t(std::ceil(tokens * 2 * (4 * h + 3 * m.mlpWidth / tp + routedHidden)));
    m.samplerPeakBytes = int64_t(m.maxSeqs) * m.vocab * kSamplerBytesPerLogit
        + m.maxBatchedTokens * int64_t(model.hiddenSize) * 2 * 2;
    m.activationPeakBytes = std::max(m.forwardPeakBytes, m.samplerPeakBytes);
    m.nonTorchBytes = kNonTorchBytes + (tp > 1 ? kNonTorchCommBytes : 0);
    return m;
}

} // namespace headroom::engine
