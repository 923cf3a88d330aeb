#include "coadaptive.h"

#include "engine/common/errors.h"

#include <cmath>
#include <limits>

namespace headroom::engine {

namespace {

double syncSeconds(const PolluxThroughput &p, int64_t gpus, int64_t nodes)
{
    if (gpus <= 1)
        return 0.0;
    const double past2 = double(std::max<int64_t>(gpus - 2, 0));
    return nodes > 1 ? p.alphaInter + p.betaInter * past2 : p.alphaIntra + p.betaIntra * past2;
}

// Whether a beats b: more goodput, then the smaller batch, then fewer GPUs.
bool better(const GoodputPoint &a, const GoodputPoint &b)
{
    if (a.goodput != b.goodput)
        return a.goodput > b.goodput;
    if (a.batch != b.batch)
        return a.batch < b.batch;
    return a.gpus < b.gpus;
}

} // namespace

void validate(const GoodputJob &job)
{
    const PolluxThroughput &p = job.perf;
    for (const auto &[value, name] : {std::pair{p.alphaCompute, "alpha_c"}, std::pair{p.betaCompute, "beta_c"},
                                      std::pair{p.alphaInter, "alpha_n"}, std::pair{p.betaInter, "beta_n"},
                                      std::pair{p.alphaIntra, "alpha_r"}, std::pair{p.betaIntra, "beta_r"}})
        if (!(value >= 0) || !std::isfinite(value))
            throw InputError(name, std::string(name) + " must be a time of 0 s or more");
    if (!(p.alphaCompute + p.betaCompute > 0))
        throw InputError("beta_c", "alpha_c and beta_c cannot both be 0: a step would take no time");
    if (!(p.gamma >= 1 && p.gamma <= 10))
        throw InputError("gamma", "gamma must be from 1 (no overlap) to 10 (full overlap)");
    if (!(job.noiseScale >= 0) || !std::isfinite(job.noiseScale))
        throw InputError("noise_scale", "the noise scale must be 0 samples or more");
    if (job.initialBatch < 1)
        throw InputError("initial_batch", "the initial batch must be at least 1 sample");
    if (job.maxBatch < job.initialBatch)
        throw InputError("max_batch", "the largest batch must be at least the initial batch (" + std::to_string(job.initialBatch) + ")");
    if (job.maxMicroBatch < 1)
        throw InputError("max_micro_batch", "the largest micro-batch must be at least 1 sample");
    if (job.gpusPerNode < 1)
        throw InputError("gpus_per_node", "GPUs per node must be at least 1");
}

double statisticalEfficiency(const GoodputJob &job, int64_t batch)
{
    return (job.noiseScale + double(job.initialBatch)) / (job.noiseScale + double(batch));
}

GoodputPoint evaluateGoodput(const GoodputJob &job, int64_t gpus, int64_t microBatch, int64_t accumulation)
{
    const PolluxThroughput &p = job.perf;
    GoodputPoint point;
    point.gpus = gpus;
    point.nodes = (gpus + job.gpusPerNode - 1) / job.gpusPerNode;
    point.microBatch = microBatch;
    point.accumulation = accumulation;
    point.batch = gpus * microBatch * (accumulation + 1);
    const double grad = p.alphaCompute + p.betaCompute * double(microBatch);
    const double sync = syncSeconds(p, gpus, point.nodes);
    const double last = sync > 0 ? std::pow(std::pow(grad, p.gamma) + std::pow(sync, p.gamma), 1.0 / p.gamma) : grad;
    point.stepSeconds = double(accumulation) * grad + last;
    point.throughput = double(point.batch) / point.stepSeconds;
    point.efficiency = statisticalEfficiency(job, point.batch);
    point.goodput = point.throughput * point.efficiency;
    return point;
}

GoodputPoint bestGoodput(const GoodputJob &job, int64_t gpus)
{
    validate(job);
    GoodputPoint best;
    best.gpus = gpus;
    for (int64_t m = 1; m <= job.maxMicroBatch; ++m) {
        const int64_t perStep = gpus * m;
        if (perStep > job.maxBatch)
            break;
        // The fewest accumulation steps that reach M₀, up to those that stay within maxBatch.
        const int64_t fewest = std::max<int64_t>(0, (job.initialBatch + perStep - 1) / perStep - 1);
        const int64_t most = job.maxBatch / perStep - 1;
        for (int64_t s = fewest; s <= most; ++s) {
            const GoodputPoint point = evaluateGoodput(job, gpus, m, s);
            if (best.goodput == 0 || better(point, best))
                best = point;
        }
    }
    return best;
}

std::vector<GoodputPoint> goodputCurve(const GoodputJob &job, int64_t maxGpus)
{
    if (maxGpus < 1 || maxGpus > 4096)
        throw InputError("max_gpus", "the most GPUs must be from 1 to 4,096");
    std::vector<GoodputPoint> curve;
    for (int64_t n = 1; n <= maxGpus; ++n)
        curve.push_back(bestGoodput(job, n));
    return curve;
}

AdaptiveComparison compareFixedAdaptive(const GoodputJob &job, int64_t fixedGpus, int64_t maxGpus, double work,
                                        bool cheapest)
{
    validate(job);
    if (!(work > 0) || !std::isfinite(work))
        throw InputError("work", "the work must be above 0 samples");
    if (fixedGpus < 1 || fixedGpus > maxGpus)
        throw InputError("gpus", "the fixed GPU count must be from 1 to the most GPUs (" + std::to_string(maxGpus) + ")");
    AdaptiveComparison c;
    // Fixed: batch M₀ exactly, the fastest micro-batch and accumulation that make it.
    for (int64_t m = 1; m <= job.maxMicroBatch; ++m) {
        const int64_t perStep = fixedGpus * m;
        if (job.initialBatch % perStep != 0)
            continue;
        const GoodputPoint point = evaluateGoodput(job, fixedGpus, m, job.initialBatch / perStep - 1);
        if (c.fixed.goodput == 0 || point.goodput > c.fixed.goodput)
            c.fixed = point;
    }
    if (c.fixed.goodput == 0)
        throw InputError("gpus", std::to_string(fixedGpus) + " GPUs cannot make a batch of exactly "
                                     + std::to_string(job.initialBatch) + " with micro-batches of at most "
                                     + std::to_string(job.maxMicroBatch));
    for (const GoodputPoint &point : goodputCurve(job, maxGpus)) {
        if (point.goodput <= 0)
            continue;
        const bool take = c.adaptive.goodput == 0
            || (cheapest ? double(point.gpus) / point.goodput < double(c.adaptive.gpus) / c.adaptive.goodput
                         : better(point, c.adaptive));
        if (take)
            c.adaptive = point;
    }
    c.fixedHours = work / c.fixed.goodput / 3600.0;
    c.adaptiveHours = work / c.adaptive.goodput / 3600.0;
    c.fixedGpuHours = c.fixedHours * double(c.fixed.gpus);
    c.adaptiveGpuHours = c.adaptiveHours * double(c.adaptive.gpus);
    return c;
}

} // namespace headroom::engine
