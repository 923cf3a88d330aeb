#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// GPU fragmentation (DESIGN §3.5): nodes, tasks and the measure of the Fragmentation Gradient
// Descent study (Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with
// Fragmentation Gradient Descent", USENIX ATC 2023). GPU shares are in milli-GPU: 1000 = one
// whole GPU.
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

} // namespace headroom::engine::frag
