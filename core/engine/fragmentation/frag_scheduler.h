#pragma once

#include "frag_model.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

// Placement of tasks on a cluster with FGD or a baseline policy, in two scoring modes.
namespace headroom::engine::frag {

// How the policies score a node and break ties.
//
// Study — what the FGD study's simulator does (hkust-adsl/kubernetes-scheduler-simulator,
// pkg/simulator/plugin): its policies are Kubernetes score plugins returning whole numbers
// 0..100, the node with the highest score wins, and equal scores go to the lowest node in a
// ranking drawn per seed (the study's Simulator.syncClusterResourceList prefixes every node
// name with its position in a seeded random permutation; the vendored
// genericScheduler.selectHost takes the lexicographically smallest name among equal scores).
// Here the ranking is a permutation drawn from the run's seeded generator.
//  - FGD (fgd_score.go, calculateGpuShareFragExtendScore): int(sigmoid(Δ / 1000) × 100) with Δ
//    the drop of node fragmentation in milli-GPU (utils.NodeGpuShareFragAmountScore, the types
//    weighted by popularity within the target workload, renormalised to 1 as GetTypicalPods
//    does); for a fractional task each GPU is tried and the first GPU with the highest
//    whole-number score is taken.
//  - Best-fit (best_fit_score.go, getBestFitScore): int((1 − 0.5 × CPU left / largest node CPU
//    − 0.5 × GPU left / largest node GPU) × 100) after placing; the framework's integer min–max
//    normalisation (plugin_utils.go, NormalizeScore) keeps the order of scores spanning ≤ 100, so
//    it does not change the winner and is not repeated.
//  - Dot-product (dot_product_score.go, calculateDotProductScore with dimExtMethod "merge" and
//    normMethod "max", utils.GenerateSchedulingMatchGroups): int(100 × (1 − dot / 2)), dot =
//    Σ (request / cluster maximum) × (free / cluster maximum) over CPU and total GPU, the maxima
//    being the largest node's CPU and GPU (128,000 milli-cores and 8,000 milli-GPU in the study).
//  - GPU packing (gpu_packing_score.go, getPackingScore): idle node max(33 − GPUs, GPUs); partly
//    used node whose chosen GPUs include k fully free ones max(50 − k, 33); else max(100 −
//    Σ⌊free ‰ / 10⌋ / 10, 50) over the chosen (best-fitting) GPUs; CPU-only tasks score 0 everywhere.
//  - GPU clustering (gpu_clustering_score.go): classes "share-gpu" (every fractional task) and
//    "<k>-gpu" (k whole GPUs) (open-gpu-share utils GetGpuAffinityFromPodAnnotation); bands 75
//    (node holds only the task's class), 50 (holds it among others), 25 (no GPU task), 0 (others
//    only), plus ⌊25 × (largest node GPU − GPU free) / largest node GPU⌋; CPU-only tasks score 0.
//  - Random (random_score.go): uniform over the nodes that fit; a fractional task takes a GPU
//    drawn uniformly among those that hold it (open_gpu_share.go, allocateGpuIdBasedOnRandomFit).
//  - The other baselines take the best-fitting GPU (allocateGpuIdBasedOnBestFit); whole-GPU
//    tasks take the lowest-numbered fully free GPUs (AllocateExclusiveGpuId).
//
// Exact — real-valued scores and index tie-breaks: the lowest node index, then the lowest GPU
// index. FGD takes the least exact growth of fragmentation (node and GPU); the baselines take
// the best-fitting GPU. Best-fit — least 0.5 × free CPU / largest node CPU + 0.5 × free GPU /
// largest node GPU left after placing; dot-product (Tetris) — least Σ (request / capacity) ×
// (free / capacity) over CPU and GPU with the node's own capacity; GPU packing — first nodes
// whose partly used GPUs hold the task (least free share on them), then partly used nodes
// (fewest fully free GPUs taken), then idle nodes (fewest GPUs); GPU clustering — classes by
// (GPU count, share): first nodes holding only the task's class, then nodes holding it among
// others, then nodes with no GPU task, then the rest, each by least free GPU left; random —
// uniform among the nodes that fit, best-fitting GPU. CPU-only tasks go to the first node that
// fits under packing and clustering.
//
// First-fit is not in the study: in both modes the first node in input order that fits, with
// the best-fitting GPU.
enum class ScoreMode { Study, Exact };
std::string_view toString(ScoreMode mode);  // "study", "exact"
bool parseScoreMode(std::string_view text, ScoreMode *out);

// How a placement finds its node; both give the same placements.
//  - Buckets: nodes in the same state as the policy scores it (GPU model and count, the free share
//    of every GPU, reservation, and the free CPU where the policy reads it — FGD only as far as
//    the CPU thresholds it reads (each type's CPU, each class's, and their sums; the buckets are
//    made anew when a class comes), best-fit and dot-product whole; the CPU capacity for exact
//    dot-product;
//    the request classes hosted for clustering) share a bucket, updated on every placement and
//    release. A task class is scored once per bucket (kept until the bucket changes); buckets are
//    grouped by the largest GPU share they can give and listed by free CPU, so those that cannot
//    hold the task are not visited; a bucket lists its nodes in tie order, so only the winning
//    buckets' first nodes are checked for memory (and CPU when the key does not hold it); a bucket
//    also keeps a bound on its nodes' free memory, so one whose nodes all lack a task's memory is
//    passed over whole, and a class that found a bucket's first nodes without the memory it asked
//    for orders that bucket by the first node that may have it (the nodes ahead watched: one that
//    changes, or a node that comes in ahead, puts the bucket back under its winner), so that the
//    many such buckets of a large fleet are not looked at by every placement. A task class that
//    found no node fails at once until a task leaves (the cluster only shrank). Nodes are held in
//    tie order, so that the ones placements look at first lie together in memory. The random
//    policy, which draws among all nodes that fit in input order, scans every node.
//  - EveryNode: every node is checked and scored for every task, the reference the buckets are
//    tested against.
enum class NodeSearch { Buckets, EveryNode };

struct Placement {
    int node = -1;                // index into the scheduler's nodes; -1 = nowhere
    std::vector<int> gpus;        // GPU indices on that node (empty for CPU-only tasks)
};

// A cluster that places tasks one at a time with a policy and a scoring mode.
class Scheduler {
public:
    // `seed` draws the study mode's node ranking and the random policy's choices.
    // `reservedWholeNodes`: the first such 8-GPU nodes (input order) only take 8-GPU tasks,
    // which try them before any other node.
    Scheduler(const std::vector<Node> &nodes, const TargetWorkload &workload, Policy policy,
              uint32_t seed = 0, int reservedWholeNodes = 0, ScoreMode mode = ScoreMode::Study,
              NodeSearch search = NodeSearch::Buckets);
    ~Scheduler();
    Scheduler(const Scheduler &) = delete;
    Scheduler &operator=(const Scheduler &) = delete;

    // Places the task and returns where; node -1 (nothing changed) when no node fits it.
    Placement place(const Task &task);
    // The task's class as placements score it (its CPU, GPUs, GPU share and allowed models),
    // numbered from 0 in the order first asked for. Throws InputError naming the task when a
    // field is out of range.
    int taskClass(const Task &task);
    // place() for a task of class `taskClass` asking for `memoryMiB`: a caller that places many
    // tasks classifies them once and keeps only the class and the memory of each.
    Placement place(int taskClass, int64_t memoryMiB);
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
    // Study mode: the node's place in the seed's ranking (0 wins ties); exact mode: the index.
    int tieRank(int node) const;
    // Buckets of interchangeable nodes now (NodeSearch::Buckets; 0 for the random policy or
    // EveryNode).
    int bucketCount() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace headroom::engine::frag
