// The experiment protocol: points per arrived percent, failures by size class, bad input,
// seeds in parallel, and every policy over the full default Alibaba trace.
#include "engine/common/errors.h"
#include "engine/fragmentation/frag.h"
#include "fragsupport.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

using namespace headroom::engine;
using namespace headroom::engine::frag;

namespace {

using fragtest::task;

// The full default trace, read once for the whole test binary.
const std::vector<Node> &defaultNodes()
{
    static const std::vector<Node> nodes = fragtest::traceNodes();
    return nodes;
}

const std::vector<Task> &defaultTasks()
{
    static const std::vector<Task> tasks = fragtest::traceTasks();
    return tasks;
}

// One run per policy, seed 0, load 1.3.
const std::map<Policy, RunResult> &defaultRuns()
{
    static const std::map<Policy, RunResult> runs = [] {
        std::map<Policy, RunResult> all;
        for (const Policy policy : allPolicies()) {
            RunOptions options;
            options.policy = policy;
            all.emplace(policy, simulate(defaultNodes(), defaultTasks(), options));
        }
        return all;
    }();
    return runs;
}

} // namespace

TEST_CASE("a run records one point per whole arrived percent, from the empty cluster to the load")
{
    // Two 1-GPU nodes and 500 milli-GPU tasks: each task is 25 % of capacity.
    const std::vector<Node> nodes = {{"a", 8000, 65536, 1, "T4"}, {"b", 8000, 65536, 1, "T4"}, {"cpu", 8000, 65536, 0, ""}};
    RunOptions options;
    options.load = 1.0;
    const RunResult run = simulate(nodes, {task(1000, 1, 500)}, options);
    CHECK(run.gpus == 2);
    CHECK(run.nodeIndices == std::vector<int>{0, 1});     // GPU nodes only
    REQUIRE(run.points.size() == 101);
    CHECK(run.arrivedTasks == 4);
    CHECK(run.points[0].arrivedPct == 0);
    CHECK(run.points[0].allocatedPct == 0);
    CHECK(run.points[1].arrivedPct == 25);                 // the first task reached 1 % … 25 %
    CHECK(run.points[25].allocatedPct == 25);
    CHECK(run.points[26].arrivedPct == 50);
    CHECK(run.points[100].allocatedPct == 100);
    CHECK(run.allocatedPctAt100 == 100);
    CHECK(run.unallocatedGpusAt100 == 0);
    CHECK(run.failed.fractional == 0);
}

TEST_CASE("fragmentation ratio and amount follow the measure")
{
    // One 2-GPU node; the only type is 600 milli-GPU. After one task: GPUs {400, 1000}.
    const std::vector<Node> nodes = {{"a", 8000, 65536, 2, "T4"}};
    RunOptions options;
    options.load = 0.3;
    const RunResult run = simulate(nodes, {task(1000, 1, 600)}, options);
    REQUIRE(run.points.size() == 31);
    const Point &p = run.points[30];
    CHECK(p.arrivedPct == 30);
    CHECK(p.allocatedPct == 30);
    CHECK(p.fragAmountPct == Approx(20.0));               // 400 of 2000
    CHECK(p.fragRatioPct == Approx(400.0 / 1400 * 100));  // 400 of 1400 idle
}

TEST_CASE("tasks that fit no node are dropped and counted by size class")
{
    // Four 1-GPU nodes with 4 cores each: 2-GPU tasks and 8-core tasks never fit.
    std::vector<Node> nodes;
    for (int i = 0; i < 4; ++i)
        nodes.push_back({"n" + std::to_string(i), 4000, 65536, 1, "T4"});
    const std::vector<Task> tasks = {task(1000, 1, 1000), task(1000, 2, 1000), task(8000, 0, 0), task(8000, 1, 500)};
    RunOptions options;
    options.load = 3.0;
    const RunResult run = simulate(nodes, tasks, options);
    CHECK(run.failed.multiGpu > 0);
    CHECK(run.failed.cpuOnly > 0);
    CHECK(run.failed.fractional > 0);
    const int64_t failed = run.failed.cpuOnly + run.failed.fractional + run.failed.oneGpu + run.failed.multiGpu;
    CHECK(failed < run.arrivedTasks);
    CHECK(run.points.back().allocatedPct == 25.0 * double(run.arrivedTasks - failed)); // only 1-GPU tasks fit
}

TEST_CASE("bad input is refused with the field named")
{
    const std::vector<Node> cpuOnly = {{"c", 8000, 65536, 0, ""}};
    const std::vector<Node> nodes = {{"a", 8000, 65536, 1, "T4"}};
    CHECK_THROWS_WITH(simulate(cpuOnly, {task(1000, 1, 500)}, RunOptions{}),
                      Catch::Contains("the cluster has no GPUs"));
    CHECK_THROWS_WITH(simulate({}, {task(1000, 1, 500)}, RunOptions{}), Catch::Contains("no GPUs"));
    CHECK_THROWS_WITH(simulate(nodes, {task(1000, 0, 0)}, RunOptions{}), Catch::Contains("no task asks for a GPU"));
    RunOptions heavy;
    heavy.load = 0;
    CHECK_THROWS_AS(simulate(nodes, {task(1000, 1, 500)}, heavy), InputError);
    RunOptions reserve;
    reserve.reservedWholeNodes = 1;
    CHECK_THROWS_AS(simulate(nodes, {task(1000, 1, 500)}, reserve), InputError);
}

TEST_CASE("progress can cancel a run")
{
    RunOptions options;
    int calls = 0;
    CHECK_THROWS_AS(simulate(defaultNodes(), defaultTasks(), options, [&](double) { return ++calls < 3; }),
                    Cancelled);
    CHECK(calls == 3);
}

TEST_CASE("snapshots hold every GPU node's free shares and categories")
{
    RunOptions options;
    options.load = 0.6;
    const RunResult run = simulate(defaultNodes(), defaultTasks(), options, {}, {50, 0, 99});
    REQUIRE(run.snapshots.size() == 3);
    CHECK(run.snapshots[0].size() == defaultNodes().size());
    int64_t free50 = 0;
    double fragment50 = 0;
    for (size_t n = 0; n < run.snapshots[0].size(); ++n) {
        const NodeSnapshot &s = run.snapshots[0][n];
        CHECK(int(s.freeMilli.size()) == defaultNodes()[n].gpus);
        CHECK(s.categories.size() == run.workload.types.size());
        CHECK(s.category == s.categories.front());
        for (const int f : s.freeMilli)
            free50 += f;
        fragment50 += s.fragmentMilli;
    }
    const Point &p = run.points[50];
    CHECK(100.0 * double(free50) / double(run.gpus * 1000) == Approx(100 - p.allocatedPct));
    CHECK(100.0 * fragment50 / double(run.gpus * 1000) == Approx(p.fragAmountPct));
    CHECK(run.snapshots[1][0].freeMilli == std::vector<int>(size_t(defaultNodes()[0].gpus), 1000));
    CHECK(run.snapshots[2].size() == defaultNodes().size());  // beyond the run: the final state
}

TEST_CASE("the target workload of the default trace covers 95 % of its tasks")
{
    const TargetWorkload workload = targetWorkload(defaultTasks());
    CHECK(workload.totalTasks == 8152);
    CHECK(workload.types.size() == 35);
    CHECK(double(workload.coveredTasks) >= 0.95 * 8152);
    CHECK(workload.types.front().count == 1047);            // 3,152 milli-cores with 810 milli-GPU
    CHECK(workload.types.front().gpuMilli == 810);
}

TEST_CASE("every policy runs the full default trace and allocates monotonically")
{
    for (const auto &[policy, run] : defaultRuns()) {
        INFO("policy " << toString(policy));
        CHECK(run.gpus == 6212);
        REQUIRE(run.points.size() == 131);
        for (size_t i = 1; i < run.points.size(); ++i) {
            CHECK(run.points[i].arrivedPct >= double(i));
            CHECK(run.points[i].allocatedPct >= run.points[i - 1].allocatedPct);
            CHECK(run.points[i].allocatedPct <= run.points[i].arrivedPct);
        }
        CHECK(run.allocatedPctAt100 == run.points[100].allocatedPct);
        CHECK(run.unallocatedGpusAt100 == Approx(6212 * (1 - run.allocatedPctAt100 / 100)));
    }
}

// The study's baselines. First-fit (with the best-fitting GPU) is not among them: on this
// trace it ends within ±10 GPUs of FGD at 100 % arrived, either side depending on the seed.
TEST_CASE("FGD leaves fewer unallocated GPUs than first-fit on the mean of 10 seeds")
{
    // First-fit is not among the study's baselines and runs close to FGD on this trace: per seed
    // either may be ahead by a few GPUs, so the comparison is on the mean of 10 fixed seeds
    // (362.0 against 365.8 GPUs when this was written).
    std::vector<uint32_t> seeds(10);
    for (uint32_t s = 0; s < 10; ++s)
        seeds[s] = s;
    RunOptions options;
    options.policy = Policy::Fgd;
    const double fgd = simulateSeeds(defaultNodes(), defaultTasks(), options, seeds, 2).unallocatedGpusAt100.mean;
    options.policy = Policy::FirstFit;
    const double firstFit = simulateSeeds(defaultNodes(), defaultTasks(), options, seeds, 2).unallocatedGpusAt100.mean;
    INFO("FGD " << fgd << " GPUs, first-fit " << firstFit);
    CHECK(fgd < firstFit);
}

TEST_CASE("FGD leaves fewer unallocated GPUs at 100 % arrived than the study's baselines")
{
    const double fgd = defaultRuns().at(Policy::Fgd).unallocatedGpusAt100;
    for (const auto &[policy, run] : defaultRuns()) {
        if (policy == Policy::Fgd || policy == Policy::FirstFit)
            continue;
        INFO("baseline " << toString(policy) << ": " << run.unallocatedGpusAt100 << " GPUs, FGD " << fgd);
        CHECK(fgd < run.unallocatedGpusAt100);
    }
}

TEST_CASE("seeds run in parallel and give the same runs as one at a time")
{
    RunOptions options;
    options.policy = Policy::BestFit;
    options.load = 0.5;
    const SeedsResult parallel = simulateSeeds(defaultNodes(), defaultTasks(), options, {1, 2, 3}, 2);
    REQUIRE(parallel.runs.size() == 3);
    std::vector<double> at50;
    for (size_t i = 0; i < 3; ++i) {
        options.seed = uint32_t(i + 1);
        const RunResult single = simulate(defaultNodes(), defaultTasks(), options);
        CHECK(parallel.runs[i].seed == options.seed);
        CHECK(parallel.runs[i].allocatedPctAt100 == single.allocatedPctAt100);
        CHECK(parallel.runs[i].failed.fractional == single.failed.fractional);
        at50.push_back(single.points[50].allocatedPct);
    }
    const double mean = (at50[0] + at50[1] + at50[2]) / 3;
    const double sd = std::sqrt(((at50[0] - mean) * (at50[0] - mean) + (at50[1] - mean) * (at50[1] - mean)
                                 + (at50[2] - mean) * (at50[2] - mean)) / 2);
    REQUIRE(parallel.points.size() == 51);
    CHECK(parallel.points[50].allocatedPct.mean == Approx(mean));
    CHECK(parallel.points[50].allocatedPct.sd == Approx(sd));
    CHECK(simulateSeeds(defaultNodes(), defaultTasks(), options, {1}, 1).allocatedPctAt100.sd == 0);
    CHECK_THROWS_AS(simulateSeeds(defaultNodes(), defaultTasks(), options, {1, 2}, 2, [](double) { return false; }),
                    Cancelled);
}
