#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

// GPU fragmentation (DESIGN §3.5): the Fragmentation Gradient Descent study's measure,
// scheduling policies, and the experiment protocol on the Alibaba GPU trace (Weng et al.,
// "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient
// Descent", USENIX ATC 2023). GPU shares are in milli-GPU: 1000 = one whole GPU.
namespace headroom::engine::frag {

constexpr int kMilliPerGpu = 1000;
constexpr double kTargetCoverage = 0.95;  // share of tasks the target workload's types cover

struct Node {
    std::string id;
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
    int gpus = 0;
    std::string gpuModel;
};

struct Task {
    std::string id;
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
    int gpus = 0;                 // whole GPUs; 1 with gpuMilli < 1000 = a fractional task
    int gpuMilli = 0;             // per-GPU share, 0..1000
    std::vector<std::string> allowedModels; // empty = any
    int64_t creationTime = 0;
    int64_t deletionTime = 0;
};

enum class Policy { Fgd, BestFit, DotProduct, Packing, Clustering, FirstFit, Random };
std::string_view toString(Policy p);      // "fgd", "bestfit", "dotprod", "packing", "clustering", "firstfit", "random"
bool parsePolicy(std::string_view text, Policy *out);
const std::vector<Policy> &allPolicies(); // in the order of the enum

// Size classes of failed placements: CPU-only, fractional (one GPU, share < 1000), one whole
// GPU, several whole GPUs.
enum class SizeClass { CpuOnly, Fractional, OneGpu, MultiGpu };
SizeClass sizeClass(const Task &task);

// ---- The measure -------------------------------------------------------------------------

// A task type of the target workload: tasks alike in CPU, GPU count, per-GPU share and models.
struct TaskType {
    int64_t cpuMilli = 0;
    int gpus = 0;
    int gpuMilli = 0;
    std::vector<std::string> allowedModels; // sorted; empty = any
    int64_t count = 0;            // tasks of this type in the trace
    double weight = 0;            // popularity within the target workload; the weights sum to 1
};

// The most popular task types (count descending; ties by GPU count, share, CPU, models, all
// ascending) taken until they cover `coverage` of all tasks, CPU-only types included.
struct TargetWorkload {
    std::vector<TaskType> types;
    int64_t coveredTasks = 0;
    int64_t totalTasks = 0;
};
TargetWorkload targetWorkload(const std::vector<Task> &tasks, double coverage = kTargetCoverage);

// Where a node stands for one task type (the study's quadrants of CPU and GPU headroom).
// The int values are NodeSnapshot::category's.
enum class NodeCategory { LacksBoth, LacksGpu, Fits, LacksCpu, CpuOnlyFits, CpuOnlyLacksCpu, ModelMismatch };
std::string_view toString(NodeCategory c);  // "lacks both", "lacks GPU", "fits", ...

// What is still free on a node.
struct NodeFree {
    int64_t cpuMilli = 0;
    std::string gpuModel;
    std::vector<int> freeMilli;   // per GPU, 0..1000
};

NodeCategory nodeCategory(const NodeFree &node, const TaskType &type);
// Free milli-GPU of the node that is fragment for the type: all of it when the type cannot run
// there (CPU, GPU count or share, model) or asks for no GPU; else the free share of the GPUs
// whose free share is below the type's per-GPU demand.
int64_t fragmentMilli(const NodeFree &node, const TaskType &type);
// Node fragmentation in milli-GPU: the popularity-weighted sum of fragmentMilli over the types.
double nodeFragmentMilli(const NodeFree &node, const TargetWorkload &workload);

// ---- Placement ---------------------------------------------------------------------------

struct Placement {
    int node = -1;                // index into the scheduler's nodes; -1 = nowhere
    std::vector<int> gpus;        // GPU indices on that node (empty for CPU-only tasks)
};

// A cluster that places tasks one at a time with a policy; tasks never leave.
// Tie-breaks: the lowest node index, then the lowest GPU index. Inside the chosen node,
// FGD tries each GPU for a fractional task; the baselines take the best-fitting GPU (least
// free share that fits); a whole-GPU task takes the lowest-numbered fully free GPUs.
// Baseline scores: best-fit — least 0.5 × free CPU / largest node CPU + 0.5 × free GPU /
// largest node GPU left after placing; dot-product (Tetris) — least Σ (request / capacity) ×
// (free / capacity) over CPU and GPU; GPU packing — first nodes whose partly used GPUs hold
// the task (least free share on them), then partly used nodes (fewest fully free GPUs taken),
// then idle nodes (fewest GPUs); GPU clustering — first nodes holding only tasks of the same
// GPU request, then nodes holding it among others, then nodes with no GPU task, then the rest,
// each by least free GPU left; first-fit — the first node that fits; random — uniform among
// the nodes that fit. CPU-only tasks go first-fit under packing and clustering.
class Scheduler {
public:
    // `reservedWholeNodes`: the first such 8-GPU nodes (input order) only take 8-GPU tasks,
    // which try them before any other node.
    Scheduler(const std::vector<Node> &nodes, const TargetWorkload &workload, Policy policy,
              uint32_t seed = 0, int reservedWholeNodes = 0);
    ~Scheduler();
    Scheduler(const Scheduler &) = delete;
    Scheduler &operator=(const Scheduler &) = delete;

    // Places the task and returns where; node -1 (nothing changed) when no node fits it.
    Placement place(const Task &task);
    // Gives back what `place` took for the task at `placement` (the task leaves the cluster).
    // Throws InputError when the placement does not hold the task.
    void release(const Task &task, const Placement &placement);

    int nodeCount() const;
    NodeFree nodeFree(int node) const;
    int64_t capacityMilli() const;
    int64_t allocatedMilli() const;
    double fragmentMilli() const;  // Σ node fragmentation
    double nodeFragmentMilli(int node) const;
    NodeCategory category(int node, int type) const;  // type: index into the workload's types

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// ---- The experiment ----------------------------------------------------------------------

struct RunOptions {
    Policy policy = Policy::Fgd;
    double load = 1.3;            // total requested GPU as a multiple of capacity, (0, 10]
    uint32_t seed = 0;
    int reservedWholeNodes = 0;   // reserve-and-pack: complete 8-GPU nodes held for whole-node tasks
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
    uint32_t seed = 0;
    int64_t gpus = 0;             // cluster capacity in GPUs
    std::vector<Point> points;    // one per whole arrived percent: points[p] is the state after
                                  // the first task that brought arrived to ≥ p % (points[0]: empty)
    double allocatedPctAt100 = 0; // at points[100], or the last point when load < 1
    double unallocatedGpusAt100 = 0;
    FailedBySize failed;          // over the whole run
    int64_t arrivedTasks = 0;
    double runtimeS = 0;
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
    double durationScale = 1.0;   // multiplies every task's lifetime, (0, 1e6]
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
