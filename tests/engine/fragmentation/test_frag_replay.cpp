// Replay by creation and deletion times: exact waits, FIFO queues per size class, tasks that
// never fit, the scheduler's release, and the full default Alibaba trace.
#include "engine/common/errors.h"
#include "engine/fragmentation/frag.h"
#include "fragsupport.h"

#include <catch2/catch.hpp>

#include <string>

using namespace headroom::engine;
using namespace headroom::engine::frag;

namespace {

constexpr size_t kCpuOnly = size_t(SizeClass::CpuOnly);
constexpr size_t kFractional = size_t(SizeClass::Fractional);
constexpr size_t kOneGpu = size_t(SizeClass::OneGpu);
constexpr size_t kMultiGpu = size_t(SizeClass::MultiGpu);

Node node(int gpus, int64_t cpu = 64000)
{
    return {"n", cpu, 262144, gpus, "T4"};
}

Task task(std::string id, int gpus, int share, int64_t created, int64_t deleted, int64_t cpu = 1000)
{
    Task t;
    t.id = std::move(id);
    t.cpuMilli = cpu;
    t.memoryMiB = 1024;
    t.gpus = gpus;
    t.gpuMilli = share;
    t.creationTime = created;
    t.deletionTime = deleted;
    return t;
}

ReplayResult run(const std::vector<Node> &nodes, const std::vector<Task> &tasks, Policy policy = Policy::BestFit,
                 double durationScale = 1.0)
{
    ReplayOptions options;
    options.policy = policy;
    options.durationScale = durationScale;
    return replay(nodes, tasks, options);
}

// The default trace with its creation and deletion times (columns 9 and 10).
std::vector<Task> timedTraceTasks()
{
    std::vector<Task> tasks = fragtest::traceTasks();
    const auto rows = fragtest::csvRows(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_pod_list_default.csv");
    REQUIRE(rows.size() == tasks.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        tasks[i].creationTime = std::stoll(rows[i].at(8));
        tasks[i].deletionTime = std::stoll(rows[i].at(9));
    }
    return tasks;
}

} // namespace

TEST_CASE("a task that finds the cluster full waits until another leaves, then runs its whole lifetime")
{
    // One GPU held from 0 to 100; the second task arrives at 10 with a 40 s lifetime.
    const std::vector<Task> tasks{task("a", 1, 1000, 0, 100), task("b", 1, 1000, 10, 50)};
    for (const Policy policy : allPolicies()) {
        INFO(std::string(toString(policy)));
        const ReplayResult r = run({node(1)}, tasks, policy);
        CHECK(r.gpus == 1);
        CHECK(r.placed[kOneGpu] == 2);
        CHECK(r.meanWaitS[kOneGpu] == 45.0);
        CHECK(r.maxWaitS[kOneGpu] == 90.0);
        CHECK(r.maxQueue == ClassCounts{0, 0, 1, 0});
        CHECK(r.neverPlaced == ClassCounts{0, 0, 0, 0});
        CHECK(r.endTimeS == 140);
        REQUIRE(r.points.size() == 141);  // one per second from 0 to 140
        CHECK(r.points[0].allocatedPct == 100.0);
        CHECK(r.points[9].queued[kOneGpu] == 0);
        CHECK(r.points[10].queued[kOneGpu] == 1);
        CHECK(r.points[99].queued[kOneGpu] == 1);
        CHECK(r.points[100].queued[kOneGpu] == 0);
        CHECK(r.points[100].allocatedPct == 100.0);
        CHECK(r.points[139].allocatedPct == 100.0);
        CHECK(r.points[140].allocatedPct == 0.0);
    }
    const ReplayResult doubled = run({node(1)}, tasks, Policy::Fgd, 2.0);
    CHECK(doubled.maxWaitS[kOneGpu] == 190.0);  // a leaves at 200; b runs 80 s from there
    CHECK(doubled.endTimeS == 280);
}

TEST_CASE("each size class queues on its own and a blocked head does not hold the other classes")
{
    const std::vector<Task> tasks{
        task("whole-node", 2, 1000, 0, 100),
        task("f1", 1, 500, 10, 20),      // lifetime 10
        task("f2", 1, 300, 20, 40),      // lifetime 20
        task("m", 2, 1000, 30, 40),      // lifetime 10
        task("g", 1, 1000, 40, 70),      // lifetime 30
        task("cpu", 0, 0, 50, 60),
    };
    const ReplayResult r = run({node(2)}, tasks, Policy::BestFit);
    // At 100 the queues are tried in arrival order: f1 and f2 share GPU 0, m finds only GPU 1
    // free and waits, g (arrived after m) takes GPU 1. m starts when g leaves at 130.
    CHECK(r.maxQueue == ClassCounts{0, 2, 1, 1});
    CHECK(r.placed == ClassCounts{1, 2, 1, 2});
    CHECK(r.meanWaitS[kCpuOnly] == 0.0);
    CHECK(r.meanWaitS[kFractional] == 85.0);
    CHECK(r.meanWaitS[kOneGpu] == 60.0);
    CHECK(r.meanWaitS[kMultiGpu] == 50.0);
    CHECK(r.maxWaitS[kMultiGpu] == 100.0);
    CHECK(r.endTimeS == 140);
    REQUIRE(r.points.size() == 141);
    CHECK(r.points[45].queued == ClassCounts{0, 2, 1, 1});
    CHECK(r.points[100].queued == ClassCounts{0, 0, 0, 1});
    CHECK(r.points[100].allocatedPct == 90.0);  // 0.8 of GPU 0 and all of GPU 1
    CHECK(r.points[129].queued == ClassCounts{0, 0, 0, 1});
    CHECK(r.points[130].queued == ClassCounts{0, 0, 0, 0});
    CHECK(r.points[130].allocatedPct == 100.0);
}

TEST_CASE("a later task of the same class never overtakes the head of its queue")
{
    // "big" needs all the node's CPU, so it waits for a1 although a GPU frees at 15; "small"
    // would fit at 20 but queues behind it and starts when big leaves at 110.
    const std::vector<Task> tasks{
        task("a1", 1, 1000, 0, 100),
        task("a2", 1, 1000, 0, 15),
        task("big", 1, 1000, 10, 20, 8000),
        task("small", 1, 1000, 20, 30),
    };
    const ReplayResult r = run({node(2, 8000)}, tasks, Policy::FirstFit);
    CHECK(r.placed[kOneGpu] == 4);
    CHECK(r.maxQueue[kOneGpu] == 2);
    CHECK(r.maxWaitS[kOneGpu] == 90.0);       // both big (10 → 100) and small (20 → 110)
    CHECK(r.meanWaitS[kOneGpu] == 45.0);
    CHECK(r.endTimeS == 120);
}

TEST_CASE("tasks that fit no node are counted as never placed and never queue")
{
    std::vector<Task> tasks;
    for (int i = 0; i < 100; ++i)
        tasks.push_back(task("huge-" + std::to_string(i), 4, 1000, i, i + 10));
    Task otherModel = task("v100", 1, 500, 5, 50);
    otherModel.allowedModels = {"V100M16"};
    tasks.push_back(otherModel);
    tasks.push_back(task("too-much-cpu", 0, 0, 7, 9, 128000));
    // A task that never leaves holds both GPUs; the one after it waits to the end.
    tasks.push_back(task("forever", 2, 1000, 3, 0));
    tasks.push_back(task("starved", 1, 1000, 4, 8));
    const ReplayResult r = run({node(2)}, tasks, Policy::Fgd);
    CHECK(r.maxQueue == ClassCounts{0, 0, 1, 0});
    CHECK(r.neverPlaced == ClassCounts{1, 1, 1, 100});
    CHECK(r.unplaceable == 102);
    CHECK(r.permanent == 1);
    CHECK(r.placed == ClassCounts{0, 0, 0, 1});
    CHECK(r.endTimeS == 99);
    CHECK(r.points.back().queued == ClassCounts{0, 0, 1, 0});
    CHECK(r.points.back().allocatedPct == 100.0);
}

TEST_CASE("replay points are spread evenly in time and capped")
{
    std::vector<Task> tasks;
    for (int i = 0; i < 20; ++i)
        tasks.push_back(task("t" + std::to_string(i), 1, 250, 1000 + int64_t(i) * 50000, 1000 + int64_t(i) * 50000 + 3000));
    const ReplayResult r = run({node(1)}, tasks);
    REQUIRE(r.points.size() == size_t(kReplayMaxPoints));
    CHECK(r.points.front().timeS == 1000);
    CHECK(r.endTimeS == 1000 + 19 * 50000 + 3000);
    CHECK(r.points.back().timeS == r.endTimeS);
    CHECK(r.points[1].timeS == 1000 + 1910);  // 953,000 s over 499 steps
    CHECK(r.points.front().allocatedPct == 25.0);
    CHECK(r.points.back().allocatedPct == 0.0);

    ReplayOptions few;
    few.maxPoints = 3;
    const ReplayResult three = replay({node(1)}, tasks, few);
    REQUIRE(three.points.size() == 3);
    CHECK(three.points[1].timeS == 1000 + 476500);
}

TEST_CASE("replay refuses a cluster without GPUs and bad options")
{
    const std::vector<Task> tasks{task("a", 1, 1000, 0, 10)};
    CHECK_THROWS_AS(replay({node(0)}, tasks, ReplayOptions{}), InputError);
    ReplayOptions scale;
    scale.durationScale = 0;
    CHECK_THROWS_AS(replay({node(1)}, tasks, scale), InputError);
    ReplayOptions points;
    points.maxPoints = 1;
    CHECK_THROWS_AS(replay({node(1)}, tasks, points), InputError);
    ReplayOptions reserve;
    reserve.reservedWholeNodes = 1;
    CHECK_THROWS_AS(replay({node(1)}, tasks, reserve), InputError);
}

TEST_CASE("release gives back exactly what place took, for every policy")
{
    const std::vector<Node> nodes{{"a", 32000, 131072, 4, "T4"}, {"b", 32000, 131072, 2, "V100M16"}};
    const std::vector<Task> tasks{task("f", 1, 300, 0, 0), task("w", 2, 1000, 0, 0), task("c", 0, 0, 0, 0, 4000),
                                  task("g", 1, 1000, 0, 0)};
    const TargetWorkload workload = targetWorkload(tasks);
    for (const Policy policy : allPolicies()) {
        INFO(std::string(toString(policy)));
        Scheduler scheduler(nodes, workload, policy, 7);
        const double emptyFragment = scheduler.fragmentMilli();
        std::vector<Placement> placements;
        for (const Task &t : tasks)
            placements.push_back(scheduler.place(t));
        CHECK(scheduler.allocatedMilli() == 3300);
        for (size_t i = tasks.size(); i-- > 0;)
            scheduler.release(tasks[i], placements[i]);
        CHECK(scheduler.allocatedMilli() == 0);
        CHECK(scheduler.fragmentMilli() == emptyFragment);
        CHECK(scheduler.nodeFree(0).cpuMilli == 32000);
        CHECK(scheduler.nodeFree(0).freeMilli == std::vector<int>{1000, 1000, 1000, 1000});
        CHECK(scheduler.nodeFree(1).freeMilli == std::vector<int>{1000, 1000});
        // The same tasks land where they did on the fresh cluster (random draws aside).
        if (policy != Policy::Random) {
            for (size_t i = 0; i < tasks.size(); ++i)
                CHECK(scheduler.place(tasks[i]).gpus == placements[i].gpus);
        }
    }
}

TEST_CASE("release refuses a placement that does not hold the task")
{
    Scheduler scheduler({node(2)}, targetWorkload({task("f", 1, 500, 0, 0)}), Policy::BestFit);
    const Task fractional = task("f", 1, 500, 0, 0);
    const Placement placed = scheduler.place(fractional);
    REQUIRE(placed.node == 0);
    CHECK_THROWS_AS(scheduler.release(fractional, Placement{0, {1}}), InputError);  // GPU 1 is untouched
    CHECK_THROWS_AS(scheduler.release(fractional, Placement{1, placed.gpus}), InputError);
    CHECK_THROWS_AS(scheduler.release(task("w", 2, 1000, 0, 0), Placement{0, {0, 1}}), InputError);
    scheduler.release(fractional, placed);
    CHECK_THROWS_AS(scheduler.release(fractional, placed), InputError);
    CHECK(scheduler.allocatedMilli() == 0);
}

TEST_CASE("the default trace replays for FGD and best-fit in seconds, never above full allocation")
{
    const std::vector<Node> nodes = fragtest::traceNodes();
    const std::vector<Task> tasks = timedTraceTasks();
    for (const Policy policy : {Policy::Fgd, Policy::BestFit}) {
        INFO(std::string(toString(policy)));
        ReplayOptions options;
        options.policy = policy;
        const ReplayResult r = replay(nodes, tasks, options);
        CHECK(r.runtimeS < 5.0);
        CHECK(r.gpus == 6212);
        CHECK(r.permanent == 1);
        int64_t accounted = 0;
        for (size_t c = 0; c < size_t(kSizeClasses); ++c)
            accounted += r.placed[c] + r.neverPlaced[c];
        CHECK(accounted == int64_t(tasks.size()));
        REQUIRE(r.points.size() == size_t(kReplayMaxPoints));
        CHECK(r.points.front().timeS == 0);
        CHECK(r.points.back().timeS == r.endTimeS);
        for (size_t i = 0; i < r.points.size(); ++i) {
            CHECK(r.points[i].allocatedPct >= 0.0);
            CHECK(r.points[i].allocatedPct <= 100.0);
            if (i > 0)
                CHECK(r.points[i].timeS > r.points[i - 1].timeS);
        }
    }
}
