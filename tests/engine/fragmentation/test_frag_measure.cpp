// The FGD study's fragmentation measure on hand-built nodes: every node category, the
// fragment it leaves for a task type, the weighted node fragmentation and the target workload.
#include "engine/fragmentation/frag.h"

#include <catch2/catch.hpp>

using namespace headroom::engine::frag;

namespace {

// 8 cores left on a T4 node whose four GPUs have 1000, 600, 200 and 0 milli-GPU free (1800 in all).
NodeFree t4Node()
{
    return NodeFree{8000, "T4", {1000, 600, 200, 0}};
}

TaskType type(int64_t cpu, int gpus, int share, std::vector<std::string> models = {})
{
    TaskType t;
    t.cpuMilli = cpu;
    t.gpus = gpus;
    t.gpuMilli = share;
    t.allowedModels = std::move(models);
    return t;
}

Task task(int64_t cpu, int gpus, int share, std::vector<std::string> models = {})
{
    Task t;
    t.cpuMilli = cpu;
    t.gpus = gpus;
    t.gpuMilli = share;
    t.allowedModels = std::move(models);
    return t;
}

} // namespace

TEST_CASE("a fractional type that fits leaves the GPUs with less free than its share as fragment")
{
    const TaskType half = type(4000, 1, 500);
    CHECK(nodeCategory(t4Node(), half) == NodeCategory::Fits);
    CHECK(fragmentMilli(t4Node(), half) == 200);            // 200 + 0
    CHECK(fragmentMilli(t4Node(), type(4000, 1, 700)) == 800); // 600 + 200 + 0
}

TEST_CASE("a whole-GPU type that fits leaves every partly used GPU as fragment")
{
    const TaskType one = type(4000, 1, 1000);
    CHECK(nodeCategory(t4Node(), one) == NodeCategory::Fits);
    CHECK(fragmentMilli(t4Node(), one) == 800);             // 600 + 200
}

TEST_CASE("a type that lacks GPUs, CPU or both sees all free GPU as fragment")
{
    const TaskType two = type(4000, 2, 1000);               // one fully free GPU only
    CHECK(nodeCategory(t4Node(), two) == NodeCategory::LacksGpu);
    CHECK(fragmentMilli(t4Node(), two) == 1800);
    const TaskType hungry = type(16000, 1, 500);
    CHECK(nodeCategory(t4Node(), hungry) == NodeCategory::LacksCpu);
    CHECK(fragmentMilli(t4Node(), hungry) == 1800);
    const TaskType both = type(16000, 2, 1000);
    CHECK(nodeCategory(t4Node(), both) == NodeCategory::LacksBoth);
    CHECK(fragmentMilli(t4Node(), both) == 1800);
}

TEST_CASE("CPU-only types see all free GPU as fragment whether or not their CPU fits")
{
    CHECK(nodeCategory(t4Node(), type(4000, 0, 0)) == NodeCategory::CpuOnlyFits);
    CHECK(fragmentMilli(t4Node(), type(4000, 0, 0)) == 1800);
    CHECK(nodeCategory(t4Node(), type(16000, 0, 0)) == NodeCategory::CpuOnlyLacksCpu);
    CHECK(fragmentMilli(t4Node(), type(16000, 0, 0)) == 1800);
}

TEST_CASE("a type restricted to other GPU models sees all free GPU as fragment")
{
    const TaskType v100 = type(1000, 1, 100, {"V100M16", "V100M32"});
    CHECK(nodeCategory(t4Node(), v100) == NodeCategory::ModelMismatch);
    CHECK(fragmentMilli(t4Node(), v100) == 1800);
    const TaskType t4 = type(1000, 1, 100, {"T4"});
    CHECK(nodeCategory(t4Node(), t4) == NodeCategory::Fits);
    CHECK(fragmentMilli(t4Node(), t4) == 0);                // only the empty GPU is below 100
}

TEST_CASE("node fragmentation is the popularity-weighted sum over the target types")
{
    TargetWorkload workload;
    workload.types = {type(4000, 1, 500), type(4000, 1, 1000), type(4000, 0, 0)};
    workload.types[0].weight = 0.5;
    workload.types[1].weight = 0.25;
    workload.types[2].weight = 0.25;
    // 0.5 × 200 + 0.25 × 800 + 0.25 × 1800
    CHECK(nodeFragmentMilli(t4Node(), workload) == Approx(750.0));
    CHECK(nodeFragmentMilli(NodeFree{8000, "T4", {1000, 1000}}, workload) == Approx(0.25 * 2000));
}

TEST_CASE("the target workload takes the most popular types until they cover 95 % of tasks")
{
    std::vector<Task> tasks;
    for (int i = 0; i < 10; ++i)
        tasks.push_back(task(4000, 1, 500));
    for (int i = 0; i < 6; ++i)
        tasks.push_back(task(8000, 0, 0));
    for (int i = 0; i < 3; ++i)
        tasks.push_back(task(4000, 2, 1000, {"V100M32", "G2"}));
    tasks.push_back(task(2000, 8, 1000));
    const TargetWorkload workload = targetWorkload(tasks);
    REQUIRE(workload.types.size() == 3);                   // 10 + 6 + 3 = 19 of 20 tasks
    CHECK(workload.coveredTasks == 19);
    CHECK(workload.totalTasks == 20);
    CHECK(workload.types[0].gpuMilli == 500);
    CHECK(workload.types[0].weight == Approx(10.0 / 19));
    CHECK(workload.types[1].gpus == 0);
    CHECK(workload.types[1].weight == Approx(6.0 / 19));
    CHECK(workload.types[2].allowedModels == std::vector<std::string>{"G2", "V100M32"});
    CHECK(workload.types[2].weight == Approx(3.0 / 19));
}

TEST_CASE("equally popular task types rank by GPU count, share and CPU")
{
    const std::vector<Task> tasks = {task(4000, 2, 1000), task(4000, 1, 300), task(1000, 1, 300), task(0, 0, 0)};
    const TargetWorkload workload = targetWorkload(tasks, 1.0);
    REQUIRE(workload.types.size() == 4);
    CHECK(workload.types[0].gpus == 0);
    CHECK(workload.types[1].cpuMilli == 1000);
    CHECK(workload.types[2].cpuMilli == 4000);
    CHECK(workload.types[2].gpuMilli == 300);
    CHECK(workload.types[3].gpus == 2);
}

TEST_CASE("policies and node categories have stable names")
{
    Policy parsed = Policy::Fgd;
    CHECK(parsePolicy("dotprod", &parsed));
    CHECK(parsed == Policy::DotProduct);
    CHECK_FALSE(parsePolicy("tetris", &parsed));
    for (const Policy p : allPolicies()) {
        REQUIRE(parsePolicy(toString(p), &parsed));
        CHECK(parsed == p);
    }
    CHECK(toString(NodeCategory::ModelMismatch) == "model mismatch");
    CHECK(sizeClass(task(1000, 1, 999)) == SizeClass::Fractional);
    CHECK(sizeClass(task(1000, 1, 1000)) == SizeClass::OneGpu);
    CHECK(sizeClass(task(1000, 4, 1000)) == SizeClass::MultiGpu);
    CHECK(sizeClass(task(1000, 0, 0)) == SizeClass::CpuOnly);
}
