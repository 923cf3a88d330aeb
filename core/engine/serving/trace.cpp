#include "trace.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace headroom::engine {

namespace {

// Hyndman & Fan (1996) type 7, the default of R and NumPy: h = (n − 1) p, linear between
// the order statistics either side. `sorted` is ascending and not empty.
double percentileType7(const std::vector<double> &sorted, double p)
{
    const double h = double(sorted.size() - 1) * p;
    const size_t lower = static_cast<size_t>(std::floor(h));
    const size_t upper = std::min(lower + 1, sorted.size() - 1);
    return sorted[lower] + (h - double(lower)) * (sorted[upper] - sorted[lower]);
}

TokenPercentiles tokenPercentiles(std::vector<double> tokens)
{
    std::sort(tokens.begin(), tokens.end());
    return {percentileType7(tokens, 0.50), percentileType7(tokens, 0.95)};
}

// Walks requests in trace order with an infinite cache: a request's leading run of blocks
// already seen earlier are hits (matching stops at the first unseen block, as prefix caches
// match); then all its blocks are cached. nullopt when the trace has no block hashes.
std::optional<double> prefixHitRate(const std::vector<TraceRequest> &requests)
{
    size_t totalBlocks = 0;
    for (const TraceRequest &request : requests)
        totalBlocks += request.blockHashes.size();
    if (totalBlocks == 0)
        return std::nullopt;

    std::unordered_set<int64_t> seen;
    seen.reserve(totalBlocks);
    size_t hits = 0;
    for (const TraceRequest &request : requests) {
        for (int64_t hash : request.blockHashes) {
            if (seen.count(hash) == 0)
                break;
            ++hits;
        }
        seen.insert(request.blockHashes.begin(), request.blockHashes.end());
    }
    return double(hits) / double(totalBlocks);
}

} // namespace

TraceStats analyseTrace(const std::vector<TraceRequest> &requests)
{
    if (requests.empty())
        throw InputError("trace", "the trace has no requests");

    std::vector<double> prompts;
    std::vector<double> outputs;
    prompts.reserve(requests.size());
    outputs.reserve(requests.size());
    double first = requests.front().timestampS;
    double last = first;
    for (size_t i = 0; i < requests.size(); ++i) {
        const TraceRequest &request = requests[i];
        const std::string where = " (request " + std::to_string(i + 1) + ")";
        if (!std::isfinite(request.timestampS))
            throw InputError("timestamp", "timestamp must be a finite number of seconds" + where);
        if (request.promptTokens < 0)
            throw InputError("prompt_tokens", "prompt_tokens must be at least 0 (got "
                                                  + std::to_string(request.promptTokens) + ")"
                                                  + where);
        if (request.outputTokens < 0)
            throw InputError("output_tokens", "output_tokens must be at least 0 (got "
                                                  + std::to_string(request.outputTokens) + ")"
                                                  + where);
        first = std::min(first, request.timestampS);
        last = std::max(last, request.timestampS);
        prompts.push_back(double(request.promptTokens));
        outputs.push_back(double(request.outputTokens));
    }

    TraceStats stats;
    stats.requests = int64_t(requests.size());
    stats.durationS = last - first;
    // A trace within one instant has no rate to speak of.
    stats.rateMeanPerS = stats.durationS > 0 ? double(stats.requests) / stats.durationS : 0;

    // Minute buckets floor((t − t0) / 60) counted from the earliest request.
    std::unordered_map<int64_t, int64_t> perMinute;
    for (const TraceRequest &request : requests) {
        const auto minute = static_cast<int64_t>(std::floor((request.timestampS - first) / 60.0));
        stats.ratePeakPerMin = std::max(stats.ratePeakPerMin, ++perMinute[minute]);
    }

    stats.promptTokens = tokenPercentiles(std::move(prompts));
    stats.outputTokens = tokenPercentiles(std::move(outputs));
    stats.prefixHitRate = prefixHitRate(requests);
    return stats;
}

} // namespace headroom::engine
