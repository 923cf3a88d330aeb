#pragma once

#include "serving_sim.h"

#include <array>
#include <functional>
#include <optional>
#include <vector>

// Serving study (DESIGN §3.7b): one trace on one fleet, asked the planner's questions at once.
// For every router it runs the fleet as set, a sweep of cache sizes and a sweep of replica
// counts, and searches the fewest replicas reaching an SLO attainment target; the trace's
// infinite-cache hit rate (one replica whose cache holds every prompt block) bounds the sweep.
namespace headroom::engine {

// The routers a study compares, in the order of every per-router array below.
inline constexpr std::array<RouterKind, 3> kStudyRouters = {RouterKind::RoundRobin, RouterKind::LeastLoaded,
                                                            RouterKind::KvAware};
constexpr int kStudyRouterCount = int(kStudyRouters.size());
int studyRouterIndex(RouterKind router);

struct StudyCachePoint {
    int64_t kvBlocks = 0;                               // pool of one replica, blocks
    std::array<double, kStudyRouterCount> hitRateTokens{};
};

struct StudyReplicaPoint {
    int replicas = 0;
    std::array<double, kStudyRouterCount> ttftP95Ms{};  // 0 when not timed
    std::array<std::optional<double>, kStudyRouterCount> attainment;
};

struct ServingStudy {
    ServingSimConfig config;                            // the fleet as set (router: KV-aware)
    double target = 0.99;                               // SLO attainment target, share
    std::array<ServingSimResult, kStudyRouterCount> runs; // the fleet as set, per router
    double infiniteHitRateTokens = 0;
    double infiniteHitRateBlocks = 0;
    std::vector<StudyCachePoint> cacheSweep;            // ascending pool sizes
    std::vector<StudyReplicaPoint> replicaSweep;        // ascending replica counts
    std::array<std::optional<int>, kStudyRouterCount> replicasNeeded; // nullopt: not within the search
    int maxReplicasSearched = 0;                        // max(64, 4 × replicas as set)
    // Output tokens of the trace ÷ its arrival span at the time scale: the load the fleet serves.
    double outputTokensPerS = 0;
    // What one replica sustains at the target: outputTokensPerS ÷ replicasNeeded (a lower
    // bound, as the count is whole); nullopt without a search result or an arrival span.
    std::array<std::optional<double>, kStudyRouterCount> goodputTokensPerReplica;
};

struct ServingStudyOptions {
    double target = 0.99;                               // in (0, 1]
    int cacheSweepPoints = 7;                           // at least 1
    unsigned threads = 2;
    // Called with the share done (0..1) after each batch of simulations; returning false
    // stops the study, which then returns nullopt.
    std::function<bool(double)> progress;
};

// Replica counts around the fleet as set: ¼, ½, ¾, 1, 1¼, 1½ and 2 times it (at least 1,
// duplicates removed), ascending.
std::vector<int> studyReplicaCounts(int replicas);

// `points` pool sizes from an eighth of the pool as set (but at least the largest request,
// so that none is rejected) to every prompt block of the trace (at least the pool), spaced
// geometrically; duplicates removed, ascending.
std::vector<int64_t> studyCacheSizes(int64_t pool, int64_t largestRequestBlocks, int64_t allPromptBlocks, int points);

// Runs the study. `config` is the fleet as set; its router is replaced by each of
// kStudyRouters in turn. The replica sweep and search need a step model and both SLOs to
// report latencies and attainment (without them the attainment stays empty and no search is
// made). Throws InputError as simulateServing does, and "target" / "cache_sweep_points" for
// options out of range. nullopt when `progress` asked to stop.
std::optional<ServingStudy> runServingStudy(const std::vector<TraceRequest> &trace, const ServingSimConfig &config,
                                            const ServingStudyOptions &options = {});

} // namespace headroom::engine
