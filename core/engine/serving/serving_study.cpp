#include "serving_study.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace headroom::engine {

namespace {

int64_t blocksOf(int64_t tokens, int blockSize)
{
    return (tokens + blockSize - 1) / blockSize;
}

// Bisection runs of findReplicas, counted as simulations for progress: about log2(64) + 1.
constexpr double kSearchWeight = 6.0;

} // namespace

int studyRouterIndex(RouterKind router)
{
    const auto at = std::find(kStudyRouters.begin(), kStudyRouters.end(), router);
    return int(at - kStudyRouters.begin());
}

std::vector<int> studyReplicaCounts(int replicas)
{
    std::set<int> counts;
    for (double f : {0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0})
        counts.insert(std::max(1, int(std::lround(replicas * f))));
    return {counts.begin(), counts.end()};
}

std::vector<int64_t> studyCacheSizes(int64_t pool, int64_t largestRequestBlocks, int64_t allPromptBlocks, int points)
{
    const double lo = double(std::max<int64_t>({pool / 8, largestRequestBlocks, 1}));
    const double hi = std::max(lo, double(std::max<int64_t>(allPromptBlocks, pool)));
    std::set<int64_t> sizes;
    for (int i = 0; i < points; ++i) {
        const double f = points == 1 ? 0 : double(i) / (points - 1);
        sizes.insert(int64_t(std::llround(lo * std::pow(hi / lo, f))));
    }
    return {sizes.begin(), sizes.end()};
}

std::optional<ServingStudy> runServingStudy(const std::vector<TraceRequest> &trace, const ServingSimConfig &config,
                                            const ServingStudyOptions &options)
{
    if (!(options.target > 0 && options.target <= 1))
        throw InputError("target", "the SLO attainment target must be greater than 0 and at most 100 %");
    if (options.cacheSweepPoints < 1 || options.cacheSweepPoints > 100)
        throw InputError("cache_sweep_points", "the cache sweep needs 1 to 100 points");
    validate(config);

    ServingStudy study;
    study.config = config;
    study.config.router = RouterKind::KvAware;
    study.target = options.target;
    const int b = config.blockSize;
    int64_t allPromptBlocks = 0, largest = 1, outputTokens = 0;
    double first = trace.empty() ? 0 : trace.front().timestampS, last = first;
    for (const TraceRequest &q : trace) {
        outputTokens += q.outputTokens;
        first = std::min(first, q.timestampS);
        last = std::max(last, q.timestampS);
        allPromptBlocks += blocksOf(q.promptTokens, b);
        largest = std::max(largest, blocksOf(q.promptTokens + q.outputTokens, b));
    }
    // The bound: one replica whose cache holds the whole trace, cache only.
    ServingSimConfig infinite = config;
    infinite.replicas = 1;
    infinite.router = RouterKind::RoundRobin;
    infinite.temperature = 0;
    infinite.stepModel.reset();
    infinite.stepTable.reset();
    infinite.ttftSloMs.reset();
    infinite.itlSloMs.reset();
    infinite.kvBlocksPerReplica = allPromptBlocks + largest;

    std::array<ServingSimConfig, kStudyRouterCount> base;
    for (int i = 0; i < kStudyRouterCount; ++i) {
        base[size_t(i)] = config;
        base[size_t(i)].router = kStudyRouters[size_t(i)];
    }
    const std::vector<int64_t> sizes =
        studyCacheSizes(config.kvBlocksPerReplica, largest, allPromptBlocks, options.cacheSweepPoints);
    const std::vector<int> counts = studyReplicaCounts(config.replicas);
    std::vector<ServingSimConfig> jobs{infinite};
    jobs.insert(jobs.end(), base.begin(), base.end());
    for (int64_t size : sizes)
        for (ServingSimConfig c : base) {
            c.kvBlocksPerReplica = size;
            jobs.push_back(c);
        }
    for (int count : counts)
        for (ServingSimConfig c : base) {
            c.replicas = count;
            jobs.push_back(c);
        }

    const bool searched = (config.stepModel || config.stepTable) && config.ttftSloMs && config.itlSloMs;
    const double total = double(jobs.size()) + (searched ? kStudyRouterCount * kSearchWeight : 0.0);
    auto keepGoing = [&](double done) { return !options.progress || options.progress(done / total); };

    // Batches as wide as the threads, so that progress and stopping come between them.
    const size_t width = std::max(1u, options.threads);
    std::vector<ServingSimResult> out;
    out.reserve(jobs.size());
    for (size_t at = 0; at < jobs.size(); at += width) {
        const std::vector<ServingSimConfig> batch(jobs.begin() + long(at),
                                                  jobs.begin() + long(std::min(at + width, jobs.size())));
        for (ServingSimResult &result : simulateServingMany(trace, batch, options.threads))
            out.push_back(std::move(result));
        if (!keepGoing(double(out.size())))
            return std::nullopt;
    }

    size_t k = 0;
    study.infiniteHitRateBlocks = out[k].hitRateBlocks;
    study.infiniteHitRateTokens = out[k].hitRateTokens;
    ++k;
    for (int i = 0; i < kStudyRouterCount; ++i)
        study.runs[size_t(i)] = std::move(out[k++]);
    for (int64_t size : sizes) {
        StudyCachePoint p;
        p.kvBlocks = size;
        for (int i = 0; i < kStudyRouterCount; ++i)
            p.hitRateTokens[size_t(i)] = out[k++].hitRateTokens;
        study.cacheSweep.push_back(p);
    }
    for (int count : counts) {
        StudyReplicaPoint p;
        p.replicas = count;
        for (int i = 0; i < kStudyRouterCount; ++i) {
            const ServingSimResult &s = out[k++];
            p.ttftP95Ms[size_t(i)] = s.ttftMs.p95;
            p.attainment[size_t(i)] = s.sloAttainment;
        }
        study.replicaSweep.push_back(p);
    }
    study.maxReplicasSearched = std::max(64, 4 * config.replicas);
    if (searched) {
        for (int i = 0; i < kStudyRouterCount; ++i) {
            study.replicasNeeded[size_t(i)] =
                findReplicas(trace, base[size_t(i)], options.target, study.maxReplicasSearched);
            if (!keepGoing(double(jobs.size()) + kSearchWeight * (i + 1)))
                return std::nullopt;
        }
    }
    const double span = (last - first) / config.timeScale;
    study.outputTokensPerS = span > 0 ? double(outputTokens) / span : 0;
    for (int i = 0; i < kStudyRouterCount; ++i)
        if (study.replicasNeeded[size_t(i)] && study.outputTokensPerS > 0)
            study.goodputTokensPerReplica[size_t(i)] = study.outputTokensPerS / *study.replicasNeeded[size_t(i)];
    return study;
}

} // namespace headroom::engine
