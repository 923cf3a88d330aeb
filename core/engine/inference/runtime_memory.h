#pragma once

#include "engine/catalog/specs.h"
#include "step_cost.h"

#include <cstdint>
#include <optional>
#include <string_view>

// What a vLLM-class server sets aside on each GPU before it sizes the KV cache (DESIGN §3.1):
// the activation peak its profiling pass measures at max_num_batched_tokens and max_num_seqs,
// and the memory it finds allocated outside PyTorch. The KV pool is then
// memory × utilization − weights − activation peak − non-torch memory.
namespace headroom::engine {

// How the analysis reserves runtime memory per GPU. JSON: "flat" (ServingAssumptions::
// reserveBytes, the same on every GPU) and "vllm_profile" (estimated as vLLM's profiling
// pass measures it, per model, TP and scheduler limits).
enum class ReserveMode { Flat, VllmProfile };
std::string_view toString(ReserveMode mode);
std::optional<ReserveMode> parseReserveMode(std::string_view text);

// Bytes vLLM's dummy sampler pass keeps alive per logit (max_num_seqs × vocabulary of them):
// the bf16 logits, their fp32 copy, probabilities, log-probabilities, the sorted logits and
// their int64 indices for top-k/top-p, and the exponential noise of the sampling draw.
constexpr int64_t kSamplerBytesPerLogit = 2 + 4 + 4 + 4 + 4 + 8 + 4;
// Memory vLLM finds outside PyTorch on one GPU (CUDA context, loaded kernels, cuBLAS
// workspaces): 1.79 GiB for Llama 3 8B on one H100, and 1.79 GiB more with TP 2 for the
// communication buffers (3.58 GiB; vllm-project/vllm pull request #10511, 2024-12-14).
constexpr int64_t kNonTorchBytes = 1921997865;       // 1.79 GiB
constexpr int64_t kNonTorchCommBytes = 1921997865;   // 1.79 GiB more when TP > 1
// A vocabulary for models whose catalog entry leaves it unknown (Llama 3's 128,256).
constexpr int64_t kDefaultVocab = 128256;

struct RuntimeMemory {
    int64_t maxBatchedTokens = 0;      // tokens of the profiling forward pass
    int maxSeqs = 0;                   // sequences sampled in it
    int64_t vocab = 0;                 // logits per sequence (the catalog's, else kDefaultVocab)
    double mlpWidth = 0;               // intermediate width one token passes through (MoE: top-k experts)
    int64_t forwardPeakBytes = 0;      // the layer pass: residual, hidden states and MLP intermediates
    int64_t samplerPeakBytes = 0;      // the logits and sampler tensors, with the hidden states kept
    int64_t activationPeakBytes = 0;   // the larger of the two
    int64_t nonTorchBytes = 0;
    int64_t reserveBytes() const { return activationPeakBytes + nonTorchBytes; }
};

// The intermediate width of one token's MLP, from the catalog's parameter counts: the active
// parameters less the embedding (and untied LM head) and the attention projections, per
// layer, over 3 × hidden (gate, up and down). For Llama 3.1 8B: 14,340 against the config's
// 14,336. At least the hidden size.
double mlpWidthPerToken(const ModelSpec &model);

// vLLM's profiling pass on one rank of `tp`:
//   forward = T × 2 B × (4 × hidden + 3 × width ÷ TP + (MoE: top-k × hidden))
//   sampler = S × vocab × kSamplerBytesPerLogit + T × hidden × 2 × 2 B
//   activation peak = max(forward, sampler); non-torch = kNonTorchBytes (+ kNonTorchCommBytes, TP > 1)
// with T = max_num_batched_tokens and S = min(max_num_seqs, T). InputError on a model without
// hidden size or layers, TP < 1 or limits below 1.
RuntimeMemory vllmRuntimeMemory(const ModelSpec &model, int tp, const SchedulerLimits &limits);

} // namespace headroom::engine
