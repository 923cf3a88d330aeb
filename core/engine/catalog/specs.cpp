#include "specs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace headroom::engine {

namespace {

constexpr int64_t kMaxGpuMemoryBytes = int64_t(4) << 40; // 4 TiB
constexpr int kMaxGpusPerNode = 72;                      // NVL72 rack domain

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i]))
            != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

std::string formatNumber(double value)
{
    char buffer[64];
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
    else
        std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

std::string formatNumber(int64_t value)
{
    return std::to_string(value);
}

std::string formatNumber(int value)
{
    return std::to_string(value);
}

class Checker {
public:
    explicit Checker(std::vector<FieldProblem> &problems) : m_problems(problems) {}

    void add(const std::string &field, const std::string &message)
    {
        m_problems.push_back({field, message});
    }

    template <typename T>
    void atLeast(const char *field, T value, T minimum)
    {
        if (!(value >= minimum))
            add(field, std::string(field) + " must be at least " + formatNumber(minimum)
                           + " (got " + formatNumber(value) + ")");
    }

    template <typename T>
    void positive(const char *field, T value)
    {
        if (!(value > T(0)))
            add(field, std::string(field) + " must be greater than 0 (got "
                           + formatNumber(value) + ")");
    }

    template <typename T>
    void inRange(const char *field, T value, T minimum, T maximum)
    {
        if (!(value >= minimum && value <= maximum))
            add(field, std::string(field) + " must be between " + formatNumber(minimum)
                           + " and " + formatNumber(maximum) + " (got " + formatNumber(value)
                           + ")");
    }

    void catalogId(const std::string &id)
    {
        if (id.empty()) {
            add("id", "id must not be empty");
            return;
        }
        for (char c : id) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.'
                || c == '_' || c == '-';
            if (!ok) {
                add("id", "id may contain only lowercase letters, digits, '.', '_' and '-' (got \""
                              + id + "\")");
                return;
            }
        }
    }

    void displayName(const std::string &name)
    {
        if (name.empty())
            add("name", "name must not be empty");
    }

    // Empty, or a string a DRA driver can publish: at most 64 bytes (resource.k8s.io's limit
    // on attribute strings), no control characters, no space at either end.
    void draProductName(const std::string &name)
    {
        if (name.empty())
            return;
        if (name.size() > 64)
            add("dra_product_name", "dra_product_name must be at most 64 bytes, the longest attribute a DRA "
                                    "driver can publish (got " + std::to_string(name.size()) + ")");
        else if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
            add("dra_product_name", "dra_product_name must not contain control characters");
        else if (name.front() == ' ' || name.back() == ' ')
            add("dra_product_name", "dra_product_name must not start or end with a space (got \"" + name + "\")");
    }

private:
    std::vector<FieldProblem> &m_problems;
};

} // namespace

double bytesPerParam(WeightPrecision p)
{
    switch (p) {
    case WeightPrecision::Bf16:
    case WeightPrecision::Fp16:
        return 2.0;
    case WeightPrecision::Fp8:
    case WeightPrecision::Int8:
        return 1.0;
    case WeightPrecision::Int4:
        // 4 bits per weight plus one fp16 scale per 128-weight group (GPTQ/AWQ layout).
        return 0.5 + 2.0 / 128.0;
    }
    return 2.0;
}

int kvElementBytes(KvPrecision p)
{
    return p == KvPrecision::Fp8 ? 1 : 2;
}

std::string_view toString(WeightPrecision p)
{
    switch (p) {
    case WeightPrecision::Bf16: return "bf16";
    case WeightPrecision::Fp16: return "fp16";
    case WeightPrecision::Fp8: return "fp8";
    case WeightPrecision::Int8: return "int8";
    case WeightPrecision::Int4: return "int4";
    }
    return "bf16";
}

std::string_view toString(KvPrecision p)
{
    return p == KvPrecision::Fp8 ? "fp8" : "bf16";
}

std::string_view toString(AttentionKind k)
{
    switch (k) {
    case AttentionKind::Mha: return "mha";
    case AttentionKind::Gqa: return "gqa";
    case AttentionKind::Mqa: return "mqa";
    case AttentionKind::Mla: return "mla";
    }
    return "gqa";
}

std::optional<WeightPrecision> parseWeightPrecision(std::string_view text)
{
    for (WeightPrecision p : allWeightPrecisions()) {
        if (equalsIgnoreCase(text, toString(p)))
            return p;
    }
    return std::nullopt;
}

std::optional<KvPrecision> parseKvPrecision(std::string_view text)
{
    for (KvPrecision p : allKvPrecisions()) {
        if (equalsIgnoreCase(text, toString(p)))
            return p;
    }
    return std::nullopt;
}

std::string_view toString(LayerKind k)
{
    switch (k) {
    case LayerKind::Full: return "full";
    case LayerKind::Sliding: return "sliding";
    case LayerKind::Chunked: return "chunked";
    case LayerKind::Linear: return "linear";
    }
    return "full";
}

std::optional<LayerKind> parseLayerKind(std::string_view text)
{
    for (LayerKind k : {LayerKind::Full, LayerKind::Sliding, LayerKind::Chunked, LayerKind::Linear})
        if (equalsIgnoreCase(text, toString(k)))
            return k;
    return std::nullopt;
}

int ModelSpec::layersOf(LayerKind kind) const
{
    if (!layerTypes.empty())
        return int(std::count(layerTypes.begin(), layerTypes.end(), kind));
    switch (kind) {
    case LayerKind::Full: return std::max(layers - slidingLayers, 0);
    case LayerKind::Sliding: return slidingLayers;
    default: return 0;
    }
}

std::optional<AttentionKind> parseAttentionKind(std::string_view text)
{
    for (AttentionKind k :
         {AttentionKind::Mha, AttentionKind::Gqa, AttentionKind::Mqa, AttentionKind::Mla}) {
        if (equalsIgnoreCase(text, toString(k)))
            return k;
    }
    return std::nullopt;
}

const std::vector<WeightPrecision> &allWeightPrecisions()
{
    static const std::vector<WeightPrecision> all = {WeightPrecision::Bf16, WeightPrecision::Fp16,
                                                     WeightPrecision::Fp8, WeightPrecision::Int8,
                                                     WeightPrecision::Int4};
    return all;
}

const std::vector<KvPrecision> &allKvPrecisions()
{
    static const std::vector<KvPrecision> all = {KvPrecision::Bf16, KvPrecision::Fp8};
    return all;
}

const GpuEfficiency *GpuSpec::profileFor(const std::string &modelId, int tp, WeightPrecision weights) const
{
    for (const DeploymentProfile &p : calibrations)
        if (p.modelId == modelId && p.tp == tp && p.weights == weights)
            return &p.efficiency;
    return efficiency ? &*efficiency : nullptr;
}

void GpuSpec::putCalibration(const DeploymentProfile &profile)
{
    for (DeploymentProfile &p : calibrations)
        if (p.modelId == profile.modelId && p.tp == profile.tp && p.weights == profile.weights) {
            p = profile;
            return;
        }
    calibrations.push_back(profile);
}

namespace {

void checkEfficiency(Checker &check, const GpuEfficiency &e, const std::string &prefix)
{
    check.inRange((prefix + "bandwidth").c_str(), e.bandwidth, 0.01, 1.0);
    check.inRange((prefix + "kv_bandwidth").c_str(), e.kvBandwidth, 0.01, 1.0);
    check.inRange((prefix + "matmul_small").c_str(), e.matmulSmall, 0.0, 1.0);
    check.inRange((prefix + "matmul_peak").c_str(), e.matmulPeak, 0.01, 1.0);
    check.inRange((prefix + "matmul_half_tokens").c_str(), e.matmulHalfTokens, 0.0, 1e6);
    check.inRange((prefix + "matmul_peak_fp8").c_str(), e.matmulPeakFp8, 0.0, 1.0);
    check.inRange((prefix + "matmul_half_tokens_fp8").c_str(), e.matmulHalfTokensFp8, 0.0, 1e6);
    check.inRange((prefix + "attention").c_str(), e.attention, 0.01, 1.0);
    check.inRange((prefix + "allreduce_latency_us").c_str(), e.allReduceLatencyUs, 0.0, 1e4);
    check.inRange((prefix + "link").c_str(), e.linkEfficiency, 0.01, 1.0);
    check.inRange((prefix + "layer_overhead_us").c_str(), e.layerOverheadUs, 0.0, 1e4);
    check.inRange((prefix + "sequence_overhead_us").c_str(), e.sequenceOverheadUs, 0.0, 1e4);
    check.inRange((prefix + "iteration_overhead_ms").c_str(), e.iterationOverheadMs, 0.0, 1e3);
}

} // namespace

std::vector<FieldProblem> validate(const GpuSpec &gpu)
{
    std::vector<FieldProblem> problems;
    Checker check(problems);
    check.catalogId(gpu.id);
    check.displayName(gpu.name);
    check.draProductName(gpu.draProductName);
    check.inRange<int64_t>("memory_bytes", gpu.memoryBytes, 1, kMaxGpuMemoryBytes);
    check.positive("hbm_bandwidth_gbps", gpu.hbmBandwidthGBps);
    check.positive("bf16_tflops", gpu.bf16Tflops);
    check.atLeast("fp8_tflops", gpu.fp8Tflops, 0.0);
    check.atLeast("fp4_tflops", gpu.fp4Tflops, 0.0);
    check.atLeast("nvlink_gbps", gpu.nvlinkGBps, 0.0);
    check.positive("pcie_gbps", gpu.pcieGBps);
    check.positive("tdp_w", gpu.tdpWatts);
    check.inRange("gpus_per_node", gpu.gpusPerNode, 1, kMaxGpusPerNode);
    check.positive("memory_nominal_gb", gpu.nominalMemoryGB);
    if (gpu.efficiency)
        checkEfficiency(check, *gpu.efficiency, "efficiency.");
    for (size_t i = 0; i < gpu.calibrations.size(); ++i) {
        const DeploymentProfile &p = gpu.calibrations[i];
        const std::string prefix = "calibrations[" + std::to_string(i) + "].";
        if (p.modelId.empty())
            problems.push_back({prefix + "model", "the calibrated model is empty"});
        check.inRange((prefix + "tp").c_str(), p.tp, 1, 64);
        checkEfficiency(check, p.efficiency, prefix + "efficiency.");
        for (size_t j = 0; j < i; ++j)
            if (gpu.calibrations[j].modelId == p.modelId && gpu.calibrations[j].tp == p.tp
                && gpu.calibrations[j].weights == p.weights)
                problems.push_back({prefix + "model", "a second calibration of " + p.modelId + " at TP "
                                                          + std::to_string(p.tp) + " with "
                                                          + std::string(toString(p.weights)) + " weights"});
    }
    return problems;
}

std::vector<FieldProblem> validate(const ModelSpec &model)
{
    std::vector<FieldProblem> problems;
    Checker check(problems);
    check.catalogId(model.id);
    check.displayName(model.name);
    check.positive("params_total", model.paramsTotal);
    if (!(model.paramsActive > 0 && model.paramsActive <= model.paramsTotal))
        check.add("params_active", "params_active must be greater than 0 and at most params_total ("
                                       + formatNumber(model.paramsTotal) + ") (got "
                                       + formatNumber(model.paramsActive) + ")");
    check.atLeast("layers", model.layers, 1);
    check.atLeast("hidden_size", model.hiddenSize, 1);
    check.atLeast("attention_heads", model.attentionHeads, 1);
    check.atLeast("head_dim", model.headDim, 1);

    if (model.attention == AttentionKind::Mla) {
        check.atLeast("kv_lora_rank", model.kvLoraRank, 1);
        check.atLeast("qk_rope_head_dim", model.qkRopeHeadDim, 0);
        check.atLeast("kv_heads", model.kvHeads, 0);
    } else {
        if (model.kvHeads < 1 || model.kvHeads > model.attentionHeads) {
            check.add("kv_heads", "kv_heads must be between 1 and attention_heads ("
                                      + formatNumber(int64_t(model.attentionHeads)) + ") (got "
                                      + formatNumber(int64_t(model.kvHeads)) + ")");
        } else if (model.attentionHeads % model.kvHeads != 0) {
            check.add("kv_heads", "attention_heads (" + formatNumber(int64_t(model.attentionHeads))
                                      + ") must be a multiple of kv_heads (got "
                                      + formatNumber(int64_t(model.kvHeads)) + ")");
        }
        if (model.kvLoraRank != 0)
            check.add("kv_lora_rank", "kv_lora_rank must be 0 unless attention is mla (got "
                                          + formatNumber(int64_t(model.kvLoraRank)) + ")");
        if (model.qkRopeHeadDim != 0)
            check.add("qk_rope_head_dim",
                      "qk_rope_head_dim must be 0 unless attention is mla (got "
                          + formatNumber(int64_t(model.qkRopeHeadDim)) + ")");
    }

    check.inRange("sliding_layers", model.slidingLayers, 0, std::max(model.layers, 0));
    if (model.slidingLayers > 0 && model.slidingWindow <= 0)
        check.add("sliding_window", "sliding_window must be greater than 0 when sliding_layers is "
                                        + formatNumber(int64_t(model.slidingLayers)) + " (got "
                                        + formatNumber(int64_t(model.slidingWindow)) + ")");
    else if (model.slidingLayers <= 0 && model.slidingWindow != 0)
        check.add("sliding_window", "sliding_window must be 0 when sliding_layers is 0 (got "
                                        + formatNumber(int64_t(model.slidingWindow)) + ")");
    if (!model.layerTypes.empty()) {
        if (int64_t(model.layerTypes.size()) != model.layers)
            check.add("layer_types", "layer_types must name one kind per layer (" + formatNumber(int64_t(model.layers))
                                         + ") (got " + formatNumber(int64_t(model.layerTypes.size())) + ")");
        else if (model.layersOf(LayerKind::Sliding) != model.slidingLayers)
            check.add("sliding_layers", "sliding_layers must equal the sliding entries of layer_types ("
                                            + formatNumber(int64_t(model.layersOf(LayerKind::Sliding))) + ") (got "
                                            + formatNumber(int64_t(model.slidingLayers)) + ")");
        else if (model.layersOf(LayerKind::Linear) == model.layers)
            check.add("layer_types", "layer_types needs at least one attention layer (full, sliding or chunked)");
    }
    const int chunked = model.layersOf(LayerKind::Chunked);
    check.inRange("attention_chunk", model.attentionChunk, 0, 100000000);
    if (chunked > 0 && model.attentionChunk <= 0)
        check.add("attention_chunk", "attention_chunk must be greater than 0 when layer_types has chunked layers (got "
                                         + formatNumber(int64_t(model.attentionChunk)) + ")");
    else if (chunked == 0 && model.attentionChunk != 0)
        check.add("attention_chunk", "attention_chunk must be 0 unless layer_types has chunked layers (got "
                                         + formatNumber(int64_t(model.attentionChunk)) + ")");
    check.inRange("sink_tokens", model.sinkTokens, 0, 1000000);
    if (model.sinkTokens > 0 && model.slidingLayers <= 0)
        check.add("sink_tokens", "sink_tokens must be 0 unless some layers use a sliding window (got "
                                     + formatNumber(int64_t(model.sinkTokens)) + ")");
    const int linear = model.layersOf(LayerKind::Linear);
    check.inRange<int64_t>("state_bytes_per_layer", model.stateBytesPerLayer, 0, int64_t(1) << 40);
    if (linear > 0 && model.stateBytesPerLayer <= 0)
        check.add("state_bytes_per_layer", "state_bytes_per_layer must be greater than 0 when layer_types has linear "
                                               "layers (got " + formatNumber(model.stateBytesPerLayer) + ")");
    else if (linear == 0 && model.stateBytesPerLayer != 0)
        check.add("state_bytes_per_layer", "state_bytes_per_layer must be 0 unless layer_types has linear layers (got "
                                               + formatNumber(model.stateBytesPerLayer) + ")");
    check.atLeast<int64_t>("max_context", model.maxContext, 1);
    check.inRange<int64_t>("vocab_size", model.vocabSize, 0, 100000000);
    check.inRange("experts", model.experts, 0, 65536);
    if (model.experts > 0 && !(model.expertsPerToken >= 1 && model.expertsPerToken < model.experts))
        check.add("experts_per_token", "experts_per_token must be at least 1 and less than experts ("
                                           + formatNumber(int64_t(model.experts)) + ") (got "
                                           + formatNumber(int64_t(model.expertsPerToken)) + ")");
    else if (model.experts == 0 && model.expertsPerToken != 0)
        check.add("experts_per_token", "experts_per_token must be 0 when experts is 0 (got "
                                           + formatNumber(int64_t(model.expertsPerToken)) + ")");
    if (model.experts > 0 && !model.isMoe())
        check.add("experts", "a model with experts activates fewer parameters than it holds: params_active must be "
                             "less than params_total");
    if (model.vocabSize > 0 && model.hiddenSize > 0) {
        const double head = double(model.vocabSize) * double(model.hiddenSize) * (model.tiedEmbeddings ? 1 : 2);
        if (head >= model.paramsTotal)
            check.add("vocab_size", "vocab_size × hidden_size (" + formatNumber(head)
                                        + (model.tiedEmbeddings ? "" : ", twice for untied embeddings")
                                        + ") must be less than params_total (" + formatNumber(model.paramsTotal) + ")");
    }
    return problems;
}

const GpuSpec *findGpu(const std::vector<GpuSpec> &catalog, std::string_view id)
{
    for (const GpuSpec &gpu : catalog) {
        if (gpu.id == id)
            return &gpu;
    }
    return nullptr;
}

const ModelSpec *findModel(const std::vector<ModelSpec> &catalog, std::string_view id)
{
    for (const ModelSpec &model : catalog) {
        if (model.id == id)
            return &model;
    }
    return nullptr;
}

} // namespace headroom::engine
