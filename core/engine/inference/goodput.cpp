#include "goodput.h"

#include <algorithm>
#include <cmath>

namespace headroom::engine {

double computeTflops(const GpuSpec &gpu, WeightPrecision weights)
{
    if (weights == WeightPrecision::Fp8 && gpu.fp8Tflops > 0)
        return gpu.fp8Tflops;
    return gpu.bf16Tflops;
}

double prefillSeconds(const StepCostModel &model, double tokens, double chunk)
{
    if (tokens <= 0)
        return 0;
    const double step = chunk > 0 ? chunk : tokens;
    double seconds = 0;
    for (double done = 0; done < tokens; done += step)
        seconds += stepCost(model, prefillStep(model, std::min(step, tokens - done), done)).totalS;
    return seconds;
}

double prefillTokensPerSecond(const StepCostModel &model, double chunk, double promptTokens)
{
    const double offset = std::max(promptTokens - chunk, 0.0) / 2.0;
    return chunk / stepCost(model, prefillStep(model, chunk, offset)).totalS;
}

double decodeStepSeconds(const StepCostModel &model, int64_t batch, double context)
{
    return stepCost(model, decodeStep(model, double(batch), context)).totalS;
}

StepBatch mixedStep(const StepCostModel &model, double batch, double context, double prefillPerDecode,
                    double prefillPairsPerToken)
{
    StepBatch b = decodeStep(model, batch, context);
    const double prefill = batch * prefillPerDecode;
    b.prefillTokens = prefill;
    b.attentionPairsFull = prefill * prefillPairsPerToken;
    b.attentionPairsSliding = model.slidingWindow > 0 ? prefill * std::min(prefillPairsPerToken, double(model.slidingWindow))
                                                      : b.attentionPairsFull;
    b.attentionPairsChunked = model.attentionChunk > 0
        ? prefill * std::min(prefillPairsPerToken, double(model.attentionChunk))
        : 0.0;
    return b;
}

DecodeGoodput decodeGoodput(const StepCostModel &model, int64_t maxBatch, double context, double itlSeconds,
                            double prefillPerDecode, double prefillPairsPerToken)
{
    const auto pass = [&](int64_t batch) {
        return stepCost(model, mixedStep(model, double(batch), context, prefillPerDecode, prefillPairsPerToken));
    };
    DecodeGoodput g;
    g.cost = pass(1);
    g.bestStepSeconds = g.cost.totalS;
    g.stepSeconds = g.bestStepSeconds;
    if (maxBatch < 1 || g.bestStepSeconds > itlSeconds)
        return g;

    // The pass never gets shorter as the batch grows, so the feasible batches are [1, b*].
    int64_t low = 1;
    int64_t high = maxBatch;
    while (low < high) {
        const int64_t middle = low + (high - low + 1) / 2;
        if (pass(middle).totalS <= itlSeconds)
            low = middle;
        else
            high = middle - 1;
    }
    g.batch = low;
    g.cost = pass(low);
    g.stepSeconds = g.cost.totalS;
    g.tokensPerSecond = double(low) / g.stepSeconds;
    g.memoryBound = !g.cost.computeBound();
    return g;
}

} // namespace headroom::engine
