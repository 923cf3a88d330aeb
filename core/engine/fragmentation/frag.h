#pragma once

#include "frag_model.h"
#include "frag_scheduler.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// GPU fragmentation (DESIGN §3.5): the experiment protocol of the FGD study and the replay by
// creation and deletion times. The task and node types and the measure are in frag_model.h,
// the scheduler and its policies in frag_scheduler.h.
namespace headroom::engine::frag {

// ---- The experiment ----------------------------------------------------------------------

struct RunOptions {
    Policy policy = Policy::Fgd;
    double load = 1.3;            // total requested GPU as a multiple of capacity, (0, 10]
    uint32_t seed = 0;
    int reservedWholeNodes = 0;   // reserve-and-pack: complete 8-GPU nodes held for whole-node tasks
    ScoreMode mode = ScoreMode::Study;
    NodeSearch search = NodeSearch::Buckets; // same placements either way (frag_scheduler.h)
};

struct Point {
    double arrivedPct = 0;        // requested GPU of the tasks arrived so far / capacity
    double allocatedPct = 0;
    double fragRatioPct = 0;      // fragment / idle GPU
    double fragAmountPct = 0;     // fragment / capacity
};

struct FailedBySize {
    int64_t cpuOnly = 0, fractional = 0, oneGpu = 0, multiGpu = 0;
};

// Per-GPU state at a moment, for the fragmentation map.
struct NodeSnapshot {
    std::vector<int> freeMilli;   // per GPU
    int category = 0;             // NodeCategory for the most popular task type
    double fragmentMilli = 0;
    std::vector<uint8_t> categories; // NodeCategory per target workload type
};

struct RunResult {
    Policy policy = Policy::Fgd;
    ScoreMode mode = ScoreMode::Study;
    uint32_t seed = 0;
    int64_t gpus = 0;             // cluster capacity in GPUs
    std::vector<Point> points;    // one per whole arrived percent: points[p] is the state after
                                  // the first task that brought arrived to ≥ p % (points[0]: empty)
    double allocatedPctAt100 = 0; // at points[100], or the last point when load < 1
    double unallocatedGpusAt100 = 0;
    FailedBySize failed;          // over the whole run
    // Failed placements of the tasks that arrived up to 100 % arrived (the task that reaches it
    // included; the whole run when the load is below 1), by GPU request: [0] fractional
    // (0 < GPU < 1), [k] k whole GPUs. CPU-only tasks are not counted here.
    std::vector<int64_t> failedByGpusAt100;
    int64_t arrivedTasks = 0;
    double runtimeS = 0;
    int maxBuckets = 0;           // most buckets of interchangeable nodes at once (NodeSearch::Buckets)
    std::vector<int> nodeIndices; // input index of each simulated node (nodes with GPUs, in order)
    TargetWorkload workload;
    std::vector<std::vector<NodeSnapshot>> snapshots; // per requested percent, per simulated node;
                                  // a percent beyond the run gets the final state
};

// The study's protocol: nodes with GPUs only; the tasks shuffled with the seed, then tasks
// drawn from them with replacement (same random stream) appended until requested GPU reaches
// load × capacity; the run stops at the task that reaches it. A task that fits no node is
// dropped and counted. Throws InputError for a cluster without GPUs, no task asking for a GPU,
// a load outside (0, 10] or more reserved nodes than 8-GPU nodes.
// `progress` (0..1) may return false to cancel (then throws Cancelled).
struct Cancelled {};
RunResult simulate(const std::vector<Node> &nodes, const std::vector<Task> &tasks, const RunOptions &options,
                   const std::function<bool(double)> &progress = {}, const std::vector<int> &snapshotPercents = {});

// Mean and sample standard deviation (n − 1; 0 for one run) over seeds.
struct Spread {
    double mean = 0;
    double sd = 0;
};
struct PointSpread {
    Spread arrivedPct, allocatedPct, fragRatioPct, fragAmountPct;
};
struct SeedsResult {
    std::vector<RunResult> runs;  // in the order of the seeds
    std::vector<PointSpread> points; // per whole arrived percent present in every run
    Spread allocatedPctAt100;
    Spread unallocatedGpusAt100;
};

// Runs `options` once per seed on up to `threads` threads (0 = hardware threads). `progress`
// (overall 0..1) is called from the worker threads, one call at a time; returning false
// cancels every run and throws Cancelled.
SeedsResult simulateSeeds(const std::vector<Node> &nodes, const std::vector<Task> &tasks,
                          const RunOptions &options, const std::vector<uint32_t> &seeds,
                          unsigned threads = 0, const std::function<bool(double)> &progress = {});

// ---- Replay ------------------------------------------------------------------------------

constexpr int kSizeClasses = 4;
constexpr int kReplayMaxPoints = 500;
// Per size class, indexed by int(SizeClass).
using ClassCounts = std::array<int64_t, kSizeClasses>;
using ClassSeconds = std::array<double, kSizeClasses>;

struct ReplayOptions {
    Policy policy = Policy::Fgd;
    uint32_t seed = 0;            // draws of the random policy
    int reservedWholeNodes = 0;   // as RunOptions::reservedWholeNodes
    ScoreMode mode = ScoreMode::Study;
    double durationScale = 1.0;   // multiplies every task's lifetime, (0, 1e6]
    NodeSearch search = NodeSearch::Buckets; // same placements either way (frag_scheduler.h)
    int maxPoints = kReplayMaxPoints; // ≥ 2
};

// The cluster at one moment of the replay, after every event up to `timeS`.
struct ReplayPoint {
    int64_t timeS = 0;            // trace seconds
    double allocatedPct = 0;      // allocated GPU / capacity
    double fragRatioPct = 0;      // fragment / idle GPU
    ClassCounts queued{};         // tasks waiting
};

struct ReplayResult {
    Policy policy = Policy::Fgd;
    uint32_t seed = 0;
    int64_t gpus = 0;             // cluster capacity in GPUs
    std::vector<ReplayPoint> points; // evenly in time from the first to the last event
    ClassCounts maxQueue{};       // deepest each queue became (every event, not only the points)
    ClassSeconds meanWaitS{};     // mean placement time − creation time over the placed tasks
    ClassSeconds maxWaitS{};
    ClassCounts placed{};
    ClassCounts neverPlaced{};    // fit no node of the empty cluster, or still waiting at the end
    int64_t unplaceable = 0;      // of neverPlaced: fit no node of the empty cluster
    int64_t permanent = 0;        // tasks that never leave (deletion ≤ creation)
    int64_t endTimeS = 0;         // time of the last event
    double runtimeS = 0;
};

// Replays the tasks by their creation and deletion times on the nodes with GPUs. A task runs
// for its lifetime (deletion − creation, × durationScale, at least 1 s) from the moment it is
// placed; a task with deletion ≤ creation (0 = unknown) never leaves. At its creation a task
// is placed with the policy unless tasks of its size class are already waiting; otherwise, or
// when nothing fits, it joins its class's FIFO queue. After every departure the queues are
// tried in arrival order: a class stops at its first task that still does not fit (no task
// overtakes an earlier one of its class), while the other classes go on. A task that fits no
// node of the empty cluster is never queued and counts as never placed. At one instant,
// departures come before creations; equal times keep the input order.
// Throws InputError for a cluster without GPUs or bad options; `progress` (0..1) may return
// false to cancel (then throws Cancelled).
ReplayResult replay(const std::vector<Node> &nodes, const std::vector<Task> &tasks, const ReplayOptions &options,
                    const std::function<bool(double)> &progress = {});

} // namespace headroom::engine::frag
