#pragma once

#include "step_cost.h"

#include <cstdint>

// Serving estimates of one replica from the step-cost model (step_cost.h; DESIGN §3.2): prefill
// time, decode step time and the decode batch that meets an inter-token latency SLO while
// prefill chunks ride in the same passes. Used when nothing is measured.
namespace headroom::engine {

// Dense TFLOPS the weights compute at: FP8 when the weights are fp8 and the GPU has FP8
// tensor cores, else BF16 (int8/int4 weights are dequantised to BF16 for the matmuls).
double computeTflops(const GpuSpec &gpu, WeightPrecision weights);

// Seconds to prefill `tokens` uncached prompt tokens alone, in passes of at most `chunk` tokens
// (0: one pass), each chunk attending to the tokens before it; the first token is sampled by
// the last pass.
double prefillSeconds(const StepCostModel &model, double tokens, double chunk = 0);

// Prompt tokens per second of passes that prefill `chunk` tokens each, at offsets spread over
// a prompt of `promptTokens` (the chunk's attention at the prompt's middle).
double prefillTokensPerSecond(const StepCostModel &model, double chunk, double promptTokens);

// Seconds for one pass of `batch` decodes at `context` tokens each.
double decodeStepSeconds(const StepCostModel &model, int64_t batch, double context);

// One pass of `batch` decodes at `context` tokens with `prefillPerDecode` prompt tokens per
// decode riding along (chunked prefill), each attending to `prefillPairsPerToken` keys.
StepBatch mixedStep(const StepCostModel &model, double batch, double context, double prefillPerDecode,
                    double prefillPairsPerToken);

struct DecodeGoodput {
    int64_t batch = 0;                   // largest batch ≤ maxBatch meeting the ITL SLO; 0: none
    double stepSeconds = 0;              // at `batch` (at batch 1 when none meets the SLO)
    double tokensPerSecond = 0;          // decode tokens: batch ÷ stepSeconds; 0 when none meets the SLO
    double bestStepSeconds = 0;          // at batch 1: the lowest inter-token latency reachable
    bool memoryBound = true;             // weights streaming sets the linear term at `batch`
    StepCost cost;                       // the pass at `batch` (at 1 when none meets the SLO)
};

// The largest batch in [1, maxBatch] whose pass — decodes plus the prefill riding along —
// meets `itlSeconds`, and its decode goodput.
DecodeGoodput decodeGoodput(const StepCostModel &model, int64_t maxBatch, double context, double itlSeconds,
                            double prefillPerDecode = 0, double prefillPairsPerToken = 0);

} // namespace headroom::engine
