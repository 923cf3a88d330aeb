// The fragmentation measure of the FGD study (Weng et al., ATC 2023, §3): the target
// workload, a node's category for a task type, and the fragment it leaves for that type.
#include "frag.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace headroom::engine::frag {

namespace {

bool modelAllowed(const std::vector<std::string> &allowed, const std::string &model)
{
    return std::find(allowed.begin(), allowed.end(), model) != allowed.end();
}

int gpusWithAtLeast(const std::vector<int> &freeMilli, int share)
{
    return int(std::count_if(freeMilli.begin(), freeMilli.end(), [share](int f) { return f >= share; }));
}

int64_t totalFree(const std::vector<int> &freeMilli)
{
    int64_t total = 0;
    for (const int f : freeMilli)
        total += f;
    return total;
}

} // namespace

std::string_view toString(Policy p)
{
    switch (p) {
    case Policy::Fgd: return "fgd";
    case Policy::BestFit: return "bestfit";
    case Policy::DotProduct: return "dotprod";
    case Policy::Packing: return "packing";
    case Policy::Clustering: return "clustering";
    case Policy::FirstFit: return "firstfit";
    case Policy::Random: return "random";
    }
    return "fgd";
}

bool parsePolicy(std::string_view text, Policy *out)
{
    for (const Policy p : allPolicies()) {
        if (toString(p) == text) {
            if (out)
                *out = p;
            return true;
        }
    }
    return false;
}

const std::vector<Policy> &allPolicies()
{
    static const std::vector<Policy> all = {Policy::Fgd,        Policy::BestFit,  Policy::DotProduct,
                                            Policy::Packing,    Policy::Clustering, Policy::FirstFit,
                                            Policy::Random};
    return all;
}

SizeClass sizeClass(const Task &task)
{
    if (task.gpus <= 0 || task.gpuMilli <= 0)
        return SizeClass::CpuOnly;
    if (task.gpus == 1)
        return task.gpuMilli < kMilliPerGpu ? SizeClass::Fractional : SizeClass::OneGpu;
    return SizeClass::MultiGpu;
}

std::string_view toString(NodeCategory c)
{
    switch (c) {
    case NodeCategory::LacksBoth: return "lacks both";
    case NodeCategory::LacksGpu: return "lacks GPU";
    case NodeCategory::Fits: return "fits";
    case NodeCategory::LacksCpu: return "lacks CPU";
    case NodeCategory::CpuOnlyFits: return "CPU-only fits";
    case NodeCategory::CpuOnlyLacksCpu: return "CPU-only lacks CPU";
    case NodeCategory::ModelMismatch: return "model mismatch";
    }
    return "fits";
}

TargetWorkload targetWorkload(const std::vector<Task> &tasks, double coverage)
{
    using Key = std::tuple<int, int, int64_t, std::vector<std::string>>; // gpus, share, cpu, models
    std::map<Key, int64_t> counts;
    for (const Task &task : tasks) {
        const bool cpuOnly = sizeClass(task) == SizeClass::CpuOnly;
        std::vector<std::string> models = cpuOnly ? std::vector<std::string>{} : task.allowedModels;
        std::sort(models.begin(), models.end());
        models.erase(std::unique(models.begin(), models.end()), models.end());
        ++counts[Key{cpuOnly ? 0 : task.gpus, cpuOnly ? 0 : task.gpuMilli, task.cpuMilli, std::move(models)}];
    }
    std::vector<std::pair<Key, int64_t>> ranked(counts.begin(), counts.end());
    // The map is ordered by key, so a stable sort by count keeps the documented tie order.
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });

    TargetWorkload workload;
    workload.totalTasks = int64_t(tasks.size());
    // A hair below the product, so 0.95 × 20 asks for 19 tasks despite binary rounding.
    const double wanted = coverage * double(tasks.size()) * (1 - 1e-12);
    for (const auto &[key, count] : ranked) {
        if (double(workload.coveredTasks) >= wanted && !workload.types.empty())
            break;
        TaskType type;
        type.gpus = std::get<0>(key);
        type.gpuMilli = std::get<1>(key);
        type.cpuMilli = std::get<2>(key);
        type.allowedModels = std::get<3>(key);
        type.count = count;
        workload.types.push_back(std::move(type));
        workload.coveredTasks += count;
    }
    for (TaskType &type : workload.types)
        type.weight = double(type.count) / double(workload.coveredTasks);
    return workload;
}

NodeCategory nodeCategory(const NodeFree &node, const TaskType &type)
{
    const bool cpuFits = node.cpuMilli >= type.cpuMilli;
    if (type.gpus <= 0 || type.gpuMilli <= 0)
        return cpuFits ? NodeCategory::CpuOnlyFits : NodeCategory::CpuOnlyLacksCpu;
    if (!type.allowedModels.empty() && !modelAllowed(type.allowedModels, node.gpuModel))
        return NodeCategory::ModelMismatch;
    const bool gpuFits = gpusWithAtLeast(node.freeMilli, type.gpuMilli) >= type.gpus;
    if (cpuFits)
        return gpuFits ? NodeCategory::Fits : NodeCategory::LacksGpu;
    return gpuFits ? NodeCategory::LacksCpu : NodeCategory::LacksBoth;
}

int64_t fragmentMilli(const NodeFree &node, const TaskType &type)
{
    if (nodeCategory(node, type) != NodeCategory::Fits)
        return totalFree(node.freeMilli);
    int64_t fragment = 0;
    for (const int f : node.freeMilli) {
        if (f < type.gpuMilli)
            fragment += f;
    }
    return fragment;
}

double nodeFragmentMilli(const NodeFree &node, const TargetWorkload &workload)
{
    double sum = 0;
    for (const TaskType &type : workload.types)
        sum += type.weight * double(fragmentMilli(node, type));
    return sum;
}

} // namespace headroom::engine::frag
