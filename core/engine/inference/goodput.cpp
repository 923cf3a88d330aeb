#include "goodput.h"

#include <algorithm>

namespace headroom::engine {

namespace {

double flopsPerSecond(const ReplicaRoofline &replica, double efficiency)
{
    return double(replica.tp) * replica.tflops * 1e12 * efficiency;
}

} // namespace

double decodeBandwidthSeconds(const ReplicaRoofline &replica, int64_t batch, double context)
{
    const double bytes = double(replica.weightsBytes)
        + double(batch) * kvReadBytesPerStream(replica, context);
    return bytes / (replica.hbmBandwidthGBps * 1e9 * replica.decodeBandwidthEfficiency);
}

double decodeComputeSeconds(const ReplicaRoofline &replica, int64_t batch)
{
    return 2.0 * replica.activeParams * double(batch)
        / flopsPerSecond(replica, replica.decodeComputeEfficiency);
}

double computeTflops(const GpuSpec &gpu, WeightPrecision weights)
{
    if (weights == WeightPrecision::Fp8 && gpu.fp8Tflops > 0)
        return gpu.fp8Tflops;
    return gpu.bf16Tflops;
}

double prefillTokensPerSecond(const ReplicaRoofline &replica)
{
    return flopsPerSecond(replica, replica.prefillEfficiency) / (2.0 * replica.activeParams);
}

double prefillSeconds(const ReplicaRoofline &replica, double tokens)
{
    return 2.0 * replica.activeParams * tokens
        / flopsPerSecond(replica, replica.prefillEfficiency);
}

double kvReadBytesPerStream(const ReplicaRoofline &replica, double context)
{
    const double slidingTokens = replica.kvPerToken.window > 0
        ? std::min(context, double(replica.kvPerToken.window))
        : context;
    return double(replica.kvPerToken.fullLayers) * context
        + double(replica.kvPerToken.slidingLayers) * slidingTokens;
}

double decodeStepSeconds(const ReplicaRoofline &replica, int64_t batch, double context)
{
    return std::max(decodeBandwidthSeconds(replica, batch, context),
                    decodeComputeSeconds(replica, batch));
}

DecodeGoodput decodeGoodput(const ReplicaRoofline &replica, int64_t maxBatch, double context,
                            double itlSeconds)
{
    DecodeGoodput g;
    g.bestStepSeconds = decodeStepSeconds(replica, 1, context);
    g.stepSeconds = g.bestStepSeconds;
    if (maxBatch < 1 || g.bestStepSeconds > itlSeconds)
        return g;

    // The step time never falls as the batch grows, so the feasible batches are [1, b*].
    int64_t low = 1;
    int64_t high = maxBatch;
    while (low < high) {
        const int64_t middle = low + (high - low + 1) / 2;
        if (decodeStepSeconds(replica, middle, context) <= itlSeconds)
            low = middle;
        else
            high = middle - 1;
    }
    g.batch = low;
    g.stepSeconds = decodeStepSeconds(replica, low, context);
    g.tokensPerSecond = double(low) / g.stepSeconds;
    g.memoryBound = decodeBandwidthSeconds(replica, low, context) >= decodeComputeSeconds(replica, low);
    return g;
}

} // namespace headroom::engine
