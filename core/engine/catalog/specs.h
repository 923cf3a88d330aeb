#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headroom::engine {

// Weight storage precision. Bytes per parameter: bf16/fp16 2, fp8/int8 1,
// int4 0.5 plus one fp16 scale per 128-weight group.
enum class WeightPrecision { Bf16, Fp16, Fp8, Int8, Int4 };
// KV-cache element precision: bf16 2 bytes, fp8 1 byte.
enum class KvPrecision { Bf16, Fp8 };

double bytesPerParam(WeightPrecision p);
int kvElementBytes(KvPrecision p);
std::string_view toString(WeightPrecision p);
std::string_view toString(KvPrecision p);
std::optional<WeightPrecision> parseWeightPrecision(std::string_view text);
std::optional<KvPrecision> parseKvPrecision(std::string_view text);
const std::vector<WeightPrecision> &allWeightPrecisions();
const std::vector<KvPrecision> &allKvPrecisions();

// Attention layout. MHA/GQA/MQA share one KV formula; MLA caches a compressed latent.
enum class AttentionKind { Mha, Gqa, Mqa, Mla };
std::string_view toString(AttentionKind k);
std::optional<AttentionKind> parseAttentionKind(std::string_view text);

// What one layer keeps per sequence (config.json's layer_types): full attention (every
// token), a sliding window (the last window + sink tokens), chunked local attention (the
// tokens of the current chunk, Llama 4), or a linear-attention / state-space layer (a
// constant state, no per-token KV: Qwen3-Next's Gated DeltaNet, Mamba).
enum class LayerKind { Full, Sliding, Chunked, Linear };
std::string_view toString(LayerKind k); // "full", "sliding", "chunked", "linear"
std::optional<LayerKind> parseLayerKind(std::string_view text);

// What a GPU reaches of its datasheet figures in LLM serving, for the step-cost model
// (inference/step_cost.h), each measured or derived from a cited measurement (`source`).
struct GpuEfficiency {
    double bandwidth = 0;            // η_bw: share of HBM bandwidth weights stream at
    double kvBandwidth = 0;          // η_kv: share attention's KV reads stream at
    double matmulSmall = 0;          // η_mm of a pass of one token
    double matmulPeak = 0;           // η_mm of large passes
    double matmulHalfTokens = 0;     // tokens per pass where η_mm is half-way between the two
    double attention = 0;            // η_attn: share of BF16 peak prefill attention reaches
    double allReduceLatencyUs = 0;   // fixed time of one all-reduce between TP ranks
    double linkEfficiency = 0;       // share of the link's one-direction bandwidth an all-reduce moves
    double layerOverheadUs = 0;      // per layer per pass: kernel launches and tails beside streaming
    double iterationOverheadMs = 0;  // per forward pass: scheduling, sampling, launches
    double sequenceOverheadUs = 0;   // per sequence sampled in a pass: its scheduling, sampling,
                                     // detokenizing and streaming on the host (0: not measured)
    std::string source;
    // η_mm's large-pass share and half-way tokens for FP8 weights, whose matmuls reach a lower
    // share of the (doubled) FP8 peak; 0: FP8 matmuls use the BF16 pair above.
    double matmulPeakFp8 = 0;
    double matmulHalfTokensFp8 = 0;
    bool operator==(const GpuEfficiency &) const = default;
};

// A profile fitted to one deployment's own measurements (`headroom calibrate --save`): it
// replaces the GPU's profile for that model at that tensor-parallel degree and weight
// precision only.
struct DeploymentProfile {
    std::string modelId;
    int tp = 1;
    WeightPrecision weights = WeightPrecision::Bf16;
    GpuEfficiency efficiency;         // its source says "calibrated for …"
    bool operator==(const DeploymentProfile &) const = default;
};

// One accelerator model from the catalog. Memory in bytes (as the device reports it),
// bandwidths in GB/s (10^9 bytes per second), throughput in dense TFLOPS.
struct GpuSpec {
    std::string id;           // stable key, e.g. "h100-sxm"
    std::string name;         // display name
    std::string vendor;
    // The productName attribute the vendor's DRA driver publishes for this GPU, exactly (at
    // most 64 bytes, the API's limit on attribute strings): "NVIDIA H100 80GB HBM3".
    // Empty: unknown, and DRA claims for the GPU are refused.
    std::string draProductName;
    int64_t memoryBytes = 0;  // usable memory as reported by the driver
    double nominalMemoryGB = 0; // marketing size, GB (10^9) or as sold ("80GB")
    double hbmBandwidthGBps = 0;
    double bf16Tflops = 0;    // dense
    double fp8Tflops = 0;     // dense; 0 when unsupported
    double fp4Tflops = 0;     // dense FP4 (NVFP4 / MXFP4); 0 when unsupported
    double nvlinkGBps = 0;    // total per GPU; 0 when none
    double pcieGBps = 0;      // per direction
    double tdpWatts = 0;
    int gpusPerNode = 8;
    std::string source;       // where the figures come from
    std::optional<GpuEfficiency> efficiency; // measured serving profile; none: the workspace's
    std::vector<DeploymentProfile> calibrations; // per deployment, at most one each

    // The profile the step-cost model uses for `modelId` at `tp` GPUs and `weights`: the
    // deployment's calibration, else the GPU's profile; nullptr when there is neither.
    const GpuEfficiency *profileFor(const std::string &modelId, int tp, WeightPrecision weights) const;
    // Adds the calibration, replacing one of the same deployment.
    void putCalibration(const DeploymentProfile &profile);
};

// One model architecture from the catalog.
struct ModelSpec {
    std::string id;           // e.g. "llama-3.1-8b"
    std::string name;
    double paramsTotal = 0;   // all parameters (memory)
    double paramsActive = 0;  // parameters used per token (compute); == total unless MoE
    int layers = 0;
    int hiddenSize = 0;
    int attentionHeads = 0;
    int kvHeads = 0;
    int headDim = 0;
    AttentionKind attention = AttentionKind::Gqa;
    int kvLoraRank = 0;       // MLA only
    int qkRopeHeadDim = 0;    // MLA only
    int slidingWindow = 0;    // tokens held by a sliding-window layer; 0 = none
    int slidingLayers = 0;    // how many of `layers` use the sliding window
    // Per-layer kinds (layer_types.h for the text form); empty: slidingLayers sliding layers
    // and the rest full. When given, its sliding entries number slidingLayers.
    std::vector<LayerKind> layerTypes;
    int attentionChunk = 0;   // tokens of a chunked layer's chunk (attention_chunk_size); 0 = none
    int sinkTokens = 0;       // tokens from the sequence start a sliding layer also keeps (StreamingLLM
                              // sinks); 0 for learned per-head sink logits (gpt-oss), which hold no KV
    int64_t stateBytesPerLayer = 0; // a linear layer's constant state per sequence at TP 1, bytes
    int64_t maxContext = 0;   // tokens
    int64_t vocabSize = 0;    // tokens of the vocabulary; 0 = unknown (LM head counted per token)
    bool tiedEmbeddings = false; // the LM head shares the input embedding's weights
    int experts = 0;          // routed experts per MoE layer; 0 = dense or unknown
    int expertsPerToken = 0;  // routed experts each token visits (top-k); 0 with experts = 0
    std::string source;

    bool isMoe() const { return paramsActive > 0 && paramsActive < paramsTotal; }
    bool isHybrid() const { return slidingWindow > 0 && slidingLayers > 0; }
    // Layers of one kind: from layerTypes, else slidingLayers sliding and the rest full.
    int layersOf(LayerKind kind) const;
    // Parameters of the routed experts, all layers: with E experts of which k are active,
    // active = dense + experts × k ÷ E and total = dense + experts, so
    // experts = (total − active) ÷ (1 − k ÷ E). 0 when the expert counts are unknown.
    double expertParams() const
    {
        if (experts < 1 || expertsPerToken < 1 || expertsPerToken >= experts || !isMoe())
            return 0;
        return (paramsTotal - paramsActive) / (1.0 - double(expertsPerToken) / double(experts));
    }
};

// Catalog look-ups by id: the entry, or nullptr when the catalog has none with that id.
const GpuSpec *findGpu(const std::vector<GpuSpec> &catalog, std::string_view id);
const ModelSpec *findModel(const std::vector<ModelSpec> &catalog, std::string_view id);

// A field-level validation problem ("layers", "must be at least 1").
struct FieldProblem {
    std::string field;
    std::string message;
};

// Range checks shared by the store importer, the catalog editor and the CLI.
std::vector<FieldProblem> validate(const GpuSpec &gpu);
std::vector<FieldProblem> validate(const ModelSpec &model);

} // namespace headroom::engine
