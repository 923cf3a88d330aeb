// Every placement policy with exact scoring on small clusters whose best placement is worked
// out by hand, the reserve-and-pack option, and the scheduler's bookkeeping against the measure
// in both scoring modes. The study's scoring is in test_frag_study.cpp.
#include "engine/common/errors.h"
#include "engine/fragmentation/frag.h"
#include "fragsupport.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;
using namespace headroom::engine::frag;

namespace {

Node node(const std::string &id, int gpus, const std::string &model, int64_t cpu = 32000)
{
    return Node{id, cpu, 262144, gpus, model};
}

using fragtest::task;

// Node 0 (T4) is idle; node 1 (P100) holds a 500 milli-GPU task on its only GPU. Where does a
// 300 milli-GPU task go when the workload is whole single GPUs?
int smallTaskNode(Policy policy)
{
    Scheduler scheduler({node("idle", 1, "T4"), node("half", 1, "P100")}, targetWorkload({task(1000, 1, 1000)}),
                        policy, 0, 0, ScoreMode::Exact);
    REQUIRE(scheduler.place(task(1000, 1, 500, {"P100"})).node == 1);
    return scheduler.place(task(1000, 1, 300)).node;
}

// One T4 node with GPUs free {600, 1000}; the workload is 500 milli-GPU tasks. Which GPU
// takes a 200 milli-GPU task?
int smallTaskGpu(Policy policy)
{
    Scheduler scheduler({node("n", 2, "T4")}, targetWorkload({task(1000, 1, 500)}), policy, 0, 0, ScoreMode::Exact);
    REQUIRE(scheduler.place(task(1000, 1, 400)).gpus == std::vector<int>{0});
    const Placement p = scheduler.place(task(1000, 1, 200));
    REQUIRE(p.gpus.size() == 1);
    return p.gpus.front();
}

// Every policy in both scoring modes.
std::vector<std::pair<Policy, ScoreMode>> policyModes()
{
    std::vector<std::pair<Policy, ScoreMode>> all;
    for (const Policy policy : allPolicies()) {
        all.emplace_back(policy, ScoreMode::Study);
        all.emplace_back(policy, ScoreMode::Exact);
    }
    return all;
}

} // namespace

TEST_CASE("FGD puts a small task on the partly used GPU, where fragmentation shrinks")
{
    // Node 0: 0 → 700 milli-GPU of fragment (+700); node 1: 500 → 200 (−300).
    CHECK(smallTaskNode(Policy::Fgd) == 1);
}

TEST_CASE("best-fit, dot-product and GPU packing also choose the partly used node")
{
    CHECK(smallTaskNode(Policy::BestFit) == 1);    // least CPU and GPU left
    CHECK(smallTaskNode(Policy::DotProduct) == 1); // 0.3 × 0.5 + CPU term < 0.3 × 1 + CPU term
    CHECK(smallTaskNode(Policy::Packing) == 1);    // shared GPU before an idle node
}

TEST_CASE("GPU clustering and first-fit choose the idle node")
{
    CHECK(smallTaskNode(Policy::Clustering) == 0); // node 1 holds only a different GPU request
    CHECK(smallTaskNode(Policy::FirstFit) == 0);
}

TEST_CASE("exact GPU clustering groups tasks with the same GPU request")
{
    Scheduler scheduler({node("a", 2, "T4"), node("b", 2, "T4"), node("c", 2, "T4")},
                        targetWorkload({task(1000, 1, 300)}), Policy::Clustering, 0, 0, ScoreMode::Exact);
    CHECK(scheduler.place(task(1000, 1, 500)).node == 0);
    CHECK(scheduler.place(task(1000, 1, 300)).node == 1);  // an idle node before a node of other requests
    CHECK(scheduler.place(task(1000, 1, 500)).node == 0);  // its own kind
    CHECK(scheduler.place(task(1000, 1, 300)).node == 1);
}

TEST_CASE("FGD tries every GPU of the node, the baselines take the best-fitting GPU")
{
    CHECK(smallTaskGpu(Policy::Fgd) == 1);      // GPU 0 would drop to 400 < 500: +400 of fragment
    CHECK(smallTaskGpu(Policy::BestFit) == 0);
    CHECK(smallTaskGpu(Policy::FirstFit) == 0);
    CHECK(smallTaskGpu(Policy::Packing) == 0);
}

TEST_CASE("whole-GPU tasks take the lowest-numbered fully free GPUs")
{
    for (const Policy policy : allPolicies()) {
        Scheduler scheduler({node("n", 4, "T4")}, targetWorkload({task(1000, 1, 1000)}), policy, 0, 0, ScoreMode::Exact);
        REQUIRE(scheduler.place(task(1000, 1, 500)).gpus == std::vector<int>{0});
        const Placement p = scheduler.place(task(1000, 2, 1000));
        CHECK(p.node == 0);
        CHECK(p.gpus == std::vector<int>{1, 2});
        CHECK(scheduler.allocatedMilli() == 2500);
    }
}

TEST_CASE("random placement is uniform over the nodes that fit and repeats with its seed")
{
    const std::vector<Node> nodes = {node("a", 8, "G2"), node("b", 8, "G2"), node("c", 8, "G2"), node("d", 1, "T4")};
    const TargetWorkload workload = targetWorkload({task(1000, 1, 100)});
    for (const ScoreMode mode : {ScoreMode::Study, ScoreMode::Exact}) {
        Scheduler first(nodes, workload, Policy::Random, 7, 0, mode);
        Scheduler second(nodes, workload, Policy::Random, 7, 0, mode);
        std::vector<int> hits(4, 0);
        for (int i = 0; i < 40; ++i) {
            const int n = first.place(task(100, 1, 100, {"G2"})).node;
            CHECK(second.place(task(100, 1, 100, {"G2"})).node == n);
            ++hits[size_t(n)];
        }
        CHECK(hits[3] == 0);                        // the T4 node never fits
        CHECK(hits[0] > 0);
        CHECK(hits[1] > 0);
        CHECK(hits[2] > 0);
    }
}

TEST_CASE("reserve-and-pack keeps whole 8-GPU nodes for whole-node tasks")
{
    const std::vector<Node> nodes = {node("a", 8, "G2"), node("b", 8, "G2")};
    Scheduler scheduler(nodes, targetWorkload({task(1000, 1, 1000)}), Policy::FirstFit, 0, 1);
    CHECK(scheduler.place(task(1000, 1, 1000)).node == 1);  // node 0 is held back
    CHECK(scheduler.place(task(1000, 8, 1000)).node == 0);
    CHECK(scheduler.place(task(1000, 8, 1000)).node == -1); // node 1 has 7 GPUs left
    CHECK_THROWS_AS(Scheduler(nodes, targetWorkload({task(1000, 1, 1000)}), Policy::Fgd, 0, 3), InputError);
}

TEST_CASE("a task that fits no node is not placed and changes nothing")
{
    Scheduler scheduler({node("a", 2, "T4", 8000)}, targetWorkload({task(1000, 1, 1000)}), Policy::Fgd);
    const double before = scheduler.fragmentMilli();
    CHECK(scheduler.place(task(16000, 1, 1000)).node == -1);    // too much CPU
    CHECK(scheduler.place(task(1000, 3, 1000)).node == -1);     // too many GPUs
    CHECK(scheduler.place(task(1000, 1, 100, {"A10"})).node == -1); // no such model
    CHECK(scheduler.allocatedMilli() == 0);
    CHECK(scheduler.fragmentMilli() == before);
    CHECK_THROWS_AS(scheduler.place(task(1000, 1, 1200)), InputError);
}

TEST_CASE("a task placed by its class and memory goes where the task itself would")
{
    const std::vector<Node> nodes = {node("a", 2, "T4", 16000), node("b", 4, "V100M32"), node("c", 8, "G2")};
    const std::vector<Task> tasks = {task(4000, 1, 300), task(2000, 1, 1000), task(8000, 0, 0), task(1000, 2, 1000),
                                     task(4000, 1, 300, {"T4"}), task(1000, 1, 500)};
    Scheduler byTask(nodes, targetWorkload(tasks), Policy::Fgd);
    Scheduler byClass(nodes, targetWorkload(tasks), Policy::Fgd);
    std::vector<int> classes;
    for (const Task &t : tasks)
        classes.push_back(byClass.taskClass(t));
    CHECK(byClass.taskClass(task(4000, 1, 300)) == classes[0]); // the same class again
    CHECK(classes[4] != classes[0]);                             // models make another class
    for (int round = 0; round < 3; ++round) {
        for (size_t i = 0; i < tasks.size(); ++i) {
            const Placement expected = byTask.place(tasks[i]);
            const Placement got = byClass.place(classes[i], tasks[i].memoryMiB);
            CHECK(got.node == expected.node);
            CHECK(got.gpus == expected.gpus);
        }
    }
    CHECK(byClass.allocatedMilli() == byTask.allocatedMilli());
    CHECK(byClass.fragmentMilli() == byTask.fragmentMilli());
    CHECK_THROWS_AS(byClass.place(int(tasks.size()) + 7, 1024), InputError); // no such class
    CHECK_THROWS_AS(byClass.place(classes[0], -1), InputError);
    CHECK_THROWS_AS(byClass.taskClass(task(1000, 1, 1200)), InputError);
    CHECK(byClass.allocatedMilli() == byTask.allocatedMilli());
}

TEST_CASE("the scheduler's running fragmentation equals the measure of every node")
{
    const std::vector<Node> nodes = {node("a", 2, "T4", 16000), node("b", 4, "V100M32"), node("c", 8, "G2")};
    const std::vector<Task> tasks = {task(4000, 1, 300), task(2000, 1, 1000), task(8000, 0, 0),
                                     task(4000, 2, 1000, {"G2"}), task(1000, 1, 700), task(12000, 1, 250)};
    const TargetWorkload workload = targetWorkload(tasks, 1.0);
    for (const auto &[policy, mode] : policyModes()) {
        INFO(std::string(toString(policy)) << ", " << std::string(toString(mode)));
        Scheduler scheduler(nodes, workload, policy, 3, 0, mode);
        for (int round = 0; round < 3; ++round) {
            for (const Task &t : tasks)
                scheduler.place(t);
            double sum = 0;
            for (int n = 0; n < scheduler.nodeCount(); ++n) {
                const NodeFree free = scheduler.nodeFree(n);
                CHECK(scheduler.nodeFragmentMilli(n) == Approx(nodeFragmentMilli(free, workload)));
                for (int t = 0; t < int(workload.types.size()); ++t)
                    CHECK(scheduler.category(n, t) == nodeCategory(free, workload.types[size_t(t)]));
                sum += nodeFragmentMilli(free, workload);
            }
            CHECK(scheduler.fragmentMilli() == Approx(sum));
        }
    }
}
