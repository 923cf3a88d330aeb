#include "step_cost.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace headroom::engine {

namespace {

constexpr double kActivationBytes = 2.0;  // BF16 activations in the TP all-reduce
constexpr int64_t kLargeGpuBytes = 70LL << 30;

} // namespace

GpuEfficiency fallbackEfficiency(double prefillEfficiency, double decodeBandwidthEfficiency,
                                 double decodeComputeEfficiency)
{
    GpuEfficiency e;
    e.bandwidth = decodeBandwidthEfficiency;
    e.kvBandwidth = decodeBandwidthEfficiency;
    e.matmulSmall = decodeComputeEfficiency;
    e.matmulPeak = prefillEfficiency;
    e.matmulHalfTokens = 128;
    e.attention = prefillEfficiency;
    e.allReduceLatencyUs = 25;
    e.linkEfficiency = 0.7;
    e.iterationOverheadMs = 1.0;
    e.sequenceOverheadUs = 0; // host time per sequence comes with measured profiles (data/README.md)
    e.source = "the workspace's serving assumptions (no measured profile for this GPU)";
    return e;
}

double matmulEfficiency(const GpuEfficiency &e, double tokens)
{
    const double t = std::max(tokens, 1.0);
    return e.matmulSmall + (e.matmulPeak - e.matmulSmall) * t / (t + e.matmulHalfTokens);
}

double attentionPairs(double chunk, double offset, int window)
{
    if (chunk <= 0)
        return 0;
    const auto triangle = [](double from, double to) { // Σ k for k in (from, to]
        return (to * (to + 1) - from * (from + 1)) / 2.0;
    };
    const double end = offset + chunk;
    if (window <= 0 || end <= window)
        return triangle(offset, end);
    if (offset >= window)
        return chunk * double(window);
    return triangle(offset, double(window)) + (end - double(window)) * double(window);
}

double kvReadBytes(const StepCostModel &model, double context)
{
    const double slidingTokens = model.kvPerToken.window > 0 ? std::min(context, double(model.kvPerToken.window))
                                                             : context;
    const double chunkedTokens = model.kvPerToken.chunk > 0 ? std::min(context, double(model.kvPerToken.chunk)) : 0.0;
    // A linear layer reads its sequence's constant state once per pass.
    return double(model.kvPerToken.fullLayers) * context + double(model.kvPerToken.slidingLayers) * slidingTokens
        + double(model.kvPerToken.chunkedLayers) * chunkedTokens + double(model.kvPerToken.stateBytes);
}

StepCost stepCost(const StepCostModel &m, const StepBatch &b)
{
    const GpuEfficiency &e = m.efficiency;
    StepCost c;
    const double tokens = b.tokens();
    const double tp = double(m.tp);
    c.overheadS = e.iterationOverheadMs / 1000.0 + double(m.layers) * e.layerOverheadUs / 1e6
        + b.sampled * e.sequenceOverheadUs / 1e6;
    double weightBytes = double(m.weightsBytes);
    if (m.expertWeightShare > 0 && m.experts > 0 && m.expertsPerToken > 0 && m.expertsPerToken < m.experts) {
        const double untouched = 1.0 - double(m.expertsPerToken) / double(m.experts);
        c.expertsRead = 1.0 - std::pow(untouched, std::max(tokens, 1.0));
        weightBytes *= (1.0 - m.expertWeightShare) + m.expertWeightShare * c.expertsRead;
    }
    c.weightsS = weightBytes / (m.hbmBandwidthGBps * 1e9 * e.bandwidth);
    const double bodyParams = std::max(m.activeParams - m.headParams - m.embeddingParams, 0.0);
    const double linearFlops = 2.0 * (bodyParams * tokens + m.headParams * b.sampled) / tp;
    c.matmulEfficiency = matmulEfficiency(e, tokens);
    c.linearComputeS = linearFlops / (m.tflops * 1e12 * c.matmulEfficiency);
    c.linearS = std::max(c.weightsS, c.linearComputeS);
    c.kvReadS = b.kvReadBytes / (m.hbmBandwidthGBps * 1e9 * e.kvBandwidth);
    const double fullLayers = double(m.layers - m.slidingLayers - m.chunkedLayers - m.linearLayers);
    const double attentionFlops = 4.0 * double(m.attentionHeads) * double(m.headDim) / tp
        * (fullLayers * b.attentionPairsFull + double(m.slidingLayers) * b.attentionPairsSliding
           + double(m.chunkedLayers) * b.attentionPairsChunked);
    c.attentionS = attentionFlops / (m.attentionTflops * 1e12 * e.attention);
    if (m.tp > 1 && tokens > 0) {
        const double message = tokens * double(m.hiddenSize) * kActivationBytes;
        const double perCall = e.allReduceLatencyUs / 1e6
            + 2.0 * (tp - 1.0) / tp * message / (m.linkGBps * 1e9 * e.linkEfficiency);
        c.allReduceS = 2.0 * double(m.layers) * perCall;
    }
    c.totalS = c.overheadS + c.linearS + c.kvReadS + c.attentionS + c.allReduceS;
    return c;
}

StepBatch decodeStep(const StepCostModel &model, double batch, double context)
{
    StepBatch b;
    b.decodes = batch;
    b.sampled = batch;
    b.kvReadBytes = batch * kvReadBytes(model, context);
    return b;
}

StepBatch prefillStep(const StepCostModel &model, double tokens, double offset)
{
    StepBatch b;
    b.prefillTokens = tokens;
    b.sampled = tokens > 0 ? 1 : 0;
    b.kvReadBytes = kvReadBytes(model, offset);
    b.attentionPairsFull = attentionPairs(tokens, offset);
    b.attentionPairsSliding = attentionPairs(tokens, offset, model.slidingWindow);
    b.attentionPairsChunked = attentionPairs(tokens, offset, model.attentionChunk);
    return b;
}

SchedulerLimits vllmSchedulerDefaults(const GpuSpec &gpu)
{
    std::string lower = gpu.id + " " + gpu.name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (gpu.memoryBytes >= kLargeGpuBytes && lower.find("a100") == std::string::npos)
        return {8192, 1024};
    return {2048, 256};
}

} // namespace headroom::engine
