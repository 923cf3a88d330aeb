#pragma once

#include "engine/inference/kv.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// What a vLLM server's start-up log says about its memory (DESIGN §3.1): the lines vLLM
// prints while it loads the weights, profiles a forward pass and sizes the KV cache, read
// from the text of the log. Both engines' formats:
//  - V1 (0.8 and later): "Model loading took 14.99 GiB and 5.3 seconds", "Available KV cache
//    memory: 53.29 GiB", "GPU KV cache size: 436,528 tokens", "Maximum concurrency for 8,192
//    tokens per request: 53.29x";
//  - V0: "Loading model weights took 14.9888 GB", the memory profile ("the current vLLM
//    instance can use total_gpu_memory (79.22GiB) x gpu_memory_utilization (0.90) = 71.29GiB",
//    "model weights take 14.96GiB; non_torch_memory takes 1.79GiB; PyTorch activation peak
//    memory takes 1.26GiB; the rest of the memory reserved for KV Cache is 53.29GiB", or the
//    same as one figure a line), "# GPU blocks: 27281, # CPU blocks: 2048".
// Every figure is optional: a log holds those its version prints. With tensor parallelism each
// worker prints its own lines; the first of each is read (the workers' figures are equal).
namespace headroom::engine {

struct VllmStartupLog {
    std::optional<double> totalGiB;            // total_gpu_memory
    std::optional<double> utilization;         // gpu_memory_utilization
    std::optional<double> weightsGiB;          // model loading / model weights take
    std::optional<double> nonTorchGiB;
    std::optional<double> activationPeakGiB;
    std::optional<double> kvCacheGiB;          // available KV cache memory / reserved for KV cache
    std::optional<int64_t> kvTokens;           // GPU KV cache size: N tokens
    std::optional<int64_t> gpuBlocks;          // # GPU blocks
    std::optional<int64_t> concurrencyTokens;  // Maximum concurrency for N tokens per request
    std::optional<double> concurrency;         //   : X x
    int linesRead = 0;                         // lines that gave at least one figure
};

// Reads the figures out of a log's text. InputError("log") when no line of it is one vLLM
// prints about memory.
VllmStartupLog parseVllmStartupLog(std::string_view text);

// The logged KV cache against the analysis of the same deployment, and the runtime reserve
// per GPU that makes the analysis hold what vLLM held.
struct VllmLogComparison {
    int64_t loggedKvBytes = 0;        // from the token count where logged (exact), else the GiB figure
    bool kvFromTokens = false;
    int64_t predictedKvBytes = 0;     // the analysis's pool with its own reserve
    double kvErrorShare = 0;          // (predicted − logged) ÷ logged
    std::optional<int64_t> loggedTokens;
    int64_t predictedTokens = 0;      // whole blocks of the predicted pool, in tokens
    int64_t predictedWeightsBytes = 0;       // the analysis's weights per GPU
    std::optional<double> weightsErrorShare; // (analysis weights − logged) ÷ logged
    int64_t impliedReserveBytes = 0;  // usable − weights − logged KV, the analysis's terms
};

// InputError("log") when the log holds no KV cache figure, or its KV cache needs sliding
// windows the token count cannot be converted for (a hybrid model without a byte figure).
VllmLogComparison compareWithLog(const KvInputs &in, const VllmStartupLog &log);

} // namespace headroom::engine
