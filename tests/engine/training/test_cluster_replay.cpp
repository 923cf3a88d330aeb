#include "engine/common/errors.h"
#include "engine/training/cluster_replay.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

namespace {

// A micro-batch of m takes m seconds (α_c 0, β_c 1 s a sample); synchronization costs 1 s within
// a node and 2 s across, added to the compute (γ = 1). M₀ = 1, batches 1 … `maxBatch`; one epoch of `steps`
// M₀-batch steps. grad_sqr 0 (pure noise) makes the efficiency 1 at every batch, so a batch of M
// progresses M steps per step (Pollux's gain (var + sqr) ÷ (var ÷ scale + sqr) = scale).
ClusterApplication handApp(const std::string &name, double steps, int64_t maxBatch = 1)
{
    ClusterApplication app;
    app.name = name;
    app.perf.betaCompute = 1.0;
    app.perf.alphaIntra = 1.0;
    app.perf.alphaInter = 2.0;
    app.initialBatch = 1;
    app.maxBatch = maxBatch;
    app.minMicroBatch = 1;
    app.maxMicroBatch = maxBatch;
    app.batches = {1};
    if (maxBatch > 1)
        app.batches.push_back(maxBatch);
    for (size_t b = 0; b < app.batches.size(); ++b) {
        app.progress.push_back({steps});
        app.gradSqr.push_back({0.0});
        app.gradVar.push_back({1.0});
    }
    return app;
}

ClusterOptions smallCluster(int64_t nodes, int64_t gpusPerNode)
{
    ClusterOptions o;
    o.nodes = nodes;
    o.gpusPerNode = gpusPerNode;
    o.intervalSeconds = 60;
    o.restartSeconds = 30;
    return o;
}

} // namespace

TEST_CASE("Cluster replay: first come first served by hand", "[cluster]")
{
    // Two 1-GPU jobs of 100 steps on one GPU, submitted at 0 s and 10 s. The first starts at 0,
    // restarts for 30 s, runs 100 s: done at 130 s. The GPU is free from the next interval,
    // 180 s; the second finishes at 180 + 30 + 100 = 310 s.
    const std::vector<ClusterApplication> apps{handApp("a", 100)};
    const std::vector<ClusterJob> jobs{{"j1", "a", 0, 1, 1}, {"j2", "a", 10, 1, 1}};
    const ClusterReplay r = replayCluster(apps, jobs, smallCluster(1, 1), ClusterPolicy::FixedFcfs);
    REQUIRE(r.jobs.size() == 2);
    CHECK(r.jobs[0].startSeconds == 0);
    CHECK(r.jobs[0].finishSeconds == Approx(130).margin(1e-9));
    CHECK(r.jobs[1].startSeconds == 180);
    CHECK(r.jobs[1].finishSeconds == Approx(310).margin(1e-9));
    CHECK(r.jobs[1].queueSeconds == Approx(170));
    CHECK(r.averageJctSeconds == Approx((130.0 + 300.0) / 2));
    CHECK(r.averageQueueSeconds == Approx(85));
    CHECK(r.makespanSeconds == Approx(310));
    CHECK(r.gpuHours == Approx(260.0 / 3600));                  // 130 s each, restarts included
    CHECK(r.utilization == Approx(260.0 / 310));
    CHECK(r.medianJctSeconds == Approx(130));                   // nearest rank of {130, 300}
    CHECK(r.p99JctSeconds == Approx(300));
    REQUIRE(r.timeline.size() == 6);                            // intervals at 0, 60 … 300 s
    CHECK(r.timeline[2].busyGpus == 1);
    CHECK(r.timeline[1].waiting == 1);
    CHECK(r.timeline[3].waiting == 0);
}

TEST_CASE("Cluster replay: FCFS is strict, a large job at the head blocks smaller ones behind it", "[cluster]")
{
    // 2 GPUs: j1 holds 1 GPU for 1,000 steps; j2 asks for 2 GPUs and must wait for it; j3 asks
    // for 1 GPU and, though one is free, waits behind j2.
    const std::vector<ClusterApplication> apps{handApp("a", 1000, 2)};
    const std::vector<ClusterJob> jobs{{"j1", "a", 0, 1, 1}, {"j2", "a", 1, 2, 2}, {"j3", "a", 2, 1, 1}};
    const ClusterReplay r = replayCluster(apps, jobs, smallCluster(1, 2), ClusterPolicy::FixedFcfs);
    CHECK(r.jobs[0].finishSeconds == Approx(1030));
    CHECK(r.jobs[1].startSeconds == 1080);
    // j2 on 2 GPUs at batch 2: a step is 1 s compute + 1 s sync = 2 s for 2 M₀-steps, so 1,000
    // steps take 1,000 s after its 30 s restart.
    CHECK(r.jobs[1].finishSeconds == Approx(1080 + 30 + 1000));
    CHECK(r.jobs[2].startSeconds == 2160);
    CHECK(r.jobs[2].finishSeconds == Approx(2160 + 30 + 1000));
}

TEST_CASE("Cluster replay: least attained service demotes a job after 16 GPU-hours and runs the newcomer",
          "[cluster]")
{
    // 4 GPUs. j1 takes all 4 for 40,000 steps at batch 1 per … one step a second on one GPU
    // while at batch 4 on 4 GPUs it makes 4 steps per 2 s. j2 (4 GPUs) arrives at 1 h. After
    // 14,400 s j1 has run 4 × 14,400 GPU-s = 16 GPU-h and drops to the second queue, so j2
    // starts at 14,400 s; under FCFS it waits for j1 to finish.
    const std::vector<ClusterApplication> apps{handApp("a", 40000, 4), handApp("b", 100, 4)};
    const std::vector<ClusterJob> jobs{{"j1", "a", 0, 4, 4}, {"j2", "b", 3600, 4, 4}};
    const ClusterReplay las = replayCluster(apps, jobs, smallCluster(1, 4), ClusterPolicy::FixedLas);
    CHECK(las.jobs[1].startSeconds == 14400);
    CHECK(las.jobs[0].restarts == 1);            // preempted, then resumed
    const ClusterReplay fcfs = replayCluster(apps, jobs, smallCluster(1, 4), ClusterPolicy::FixedFcfs);
    CHECK(fcfs.jobs[1].startSeconds > fcfs.jobs[0].finishSeconds);
    CHECK(fcfs.jobs[0].restarts == 0);
    CHECK(las.averageJctSeconds < fcfs.averageJctSeconds);
}

TEST_CASE("Cluster replay: co-adaptive shares GPUs fairly and grows a lone job", "[cluster]")
{
    // Two identical jobs on 2 × 2 GPUs: the power mean gives each half the cluster.
    const std::vector<ClusterApplication> apps{handApp("a", 3000, 64)};
    const std::vector<ClusterJob> pair{{"j1", "a", 0, 1, 1}, {"j2", "a", 0, 1, 1}};
    const ClusterReplay r = replayCluster(apps, pair, smallCluster(2, 2), ClusterPolicy::CoAdaptive);
    CHECK(r.jobs[0].peakGpus == 2);
    CHECK(r.jobs[1].peakGpus == 2);
    // Alone, a job grows 1 → 2 → 4 GPUs (at most twice what it held) and finishes sooner than
    // its fixed 1 GPU would.
    const std::vector<ClusterJob> lone{{"j1", "a", 0, 1, 1}};
    const ClusterReplay grown = replayCluster(apps, lone, smallCluster(2, 2), ClusterPolicy::CoAdaptive);
    const ClusterReplay fixed = replayCluster(apps, lone, smallCluster(2, 2), ClusterPolicy::FixedFcfs);
    CHECK(grown.jobs[0].peakGpus == 4);
    CHECK(grown.jobs[0].restarts == 2);
    CHECK(grown.averageJctSeconds < 0.5 * fixed.averageJctSeconds);
    for (const ClusterSample &s : grown.timeline)
        CHECK(s.busyGpus <= 4);
}

TEST_CASE("Cluster replay: inference GPUs are never given to training", "[cluster]")
{
    const std::vector<ClusterApplication> apps{handApp("a", 3000, 64)};
    const std::vector<ClusterJob> jobs{{"j1", "a", 0, 1, 1}, {"j2", "a", 0, 1, 1}};
    ClusterOptions o = smallCluster(2, 4);
    o.inferenceGpus = 5;
    const ClusterReplay r = replayCluster(apps, jobs, o, ClusterPolicy::CoAdaptive);
    for (const ClusterSample &s : r.timeline)
        CHECK(s.busyGpus <= 3);
    CHECK(r.utilization <= 1.0 + 1e-12);
    const std::vector<ClusterJob> big{{"j1", "a", 0, 4, 4}};
    CHECK_THROWS_WITH(replayCluster(apps, big, o, ClusterPolicy::FixedFcfs),
                      Catch::Contains("job j1") && Catch::Contains("from 1 to the 3 training GPUs"));
}

TEST_CASE("Cluster replay: bad input is refused naming the field, application or job", "[cluster]")
{
    const std::vector<ClusterApplication> apps{handApp("a", 100, 4)};
    const std::vector<ClusterJob> jobs{{"j1", "a", 0, 1, 1}};
    ClusterOptions o = smallCluster(1, 4);
    CHECK_THROWS_WITH(replayCluster(apps, {{"j9", "zzz", 0, 1, 1}}, o, ClusterPolicy::FixedFcfs),
                      Catch::Contains("job j9: unknown application \"zzz\""));
    CHECK_THROWS_WITH(replayCluster(apps, {{"j9", "a", 0, 2, 1}}, o, ClusterPolicy::FixedFcfs),
                      Catch::Contains("job j9: its fixed batch must be from 2 to 4 samples"));
    CHECK_THROWS_WITH(replayCluster(apps, {{"j9", "a", -1, 1, 1}}, o, ClusterPolicy::FixedFcfs),
                      Catch::Contains("submission time"));
    o.inferenceGpus = 4;
    CHECK_THROWS_WITH(replayCluster(apps, jobs, o, ClusterPolicy::FixedFcfs), Catch::Contains("inference may take"));
    o = smallCluster(1, 4);
    o.intervalSeconds = 0;
    CHECK_THROWS_WITH(replayCluster(apps, jobs, o, ClusterPolicy::FixedFcfs), Catch::Contains("scheduling interval"));
    std::vector<ClusterApplication> bad = apps;
    bad[0].progress[1] = {0.0};
    CHECK_THROWS_WITH(replayCluster(bad, jobs, smallCluster(1, 4), ClusterPolicy::FixedFcfs),
                      Catch::Contains("application a: batch 4, epoch 0: progress must grow"));
    bad = apps;
    bad[0].batches = {2, 4};
    CHECK_THROWS_WITH(replayCluster(bad, jobs, smallCluster(1, 4), ClusterPolicy::FixedFcfs),
                      Catch::Contains("validated batches must ascend from M₀"));
    bad = {apps[0], apps[0]};
    CHECK_THROWS_WITH(replayCluster(bad, jobs, smallCluster(1, 4), ClusterPolicy::FixedFcfs),
                      Catch::Contains("application a is given twice"));
}

TEST_CASE("Cluster replay: progress is told each interval and can stop the replay", "[cluster]")
{
    const std::vector<ClusterApplication> apps{handApp("a", 1e6)};
    int calls = 0;
    const ClusterReplay r = replayCluster(apps, {{"j1", "a", 0, 1, 1}}, smallCluster(1, 1), ClusterPolicy::CoAdaptive,
                                          [&](double share) {
                                              CHECK(share == 0.0);
                                              return ++calls < 3;
                                          });
    CHECK(r.cancelled);
    CHECK(calls == 3);
    CHECK(r.timeline.size() == 2);
    CHECK(r.jobs[0].finishSeconds < 0);
}

TEST_CASE("Cluster replay: an hourly inference series is served first and preempts training", "[cluster]")
{
    // 4 GPUs; inference holds none in hour 0, 3 in hour 1, none after (the series repeats every
    // 3 hours). A fixed job of 2 GPUs runs 5,000 steps at 1 step a second (batch 2, 2 s a step
    // for 2 steps): from 0 it runs 30 s restart + 3,570 s, is preempted at 3,600 s (1 GPU left),
    // resumes at 7,200 s with another 30 s restart and finishes 5,000 − 3,570 = 1,430 s later.
    const std::vector<ClusterApplication> apps{handApp("a", 5000, 4)};
    const std::vector<ClusterJob> jobs{{"j1", "a", 0, 2, 2}};
    ClusterOptions o = smallCluster(1, 4);
    o.inferenceByHour = {0, 3, 0};
    const ClusterReplay fcfs = replayCluster(apps, jobs, o, ClusterPolicy::FixedFcfs);
    CHECK(fcfs.jobs[0].restarts == 1);
    CHECK(fcfs.jobs[0].finishSeconds == Approx(7200 + 30 + 1430));
    CHECK(fcfs.jobs[0].gpuSeconds == Approx(2.0 * (3600 + 30 + 1430)));
    for (const ClusterSample &s : fcfs.timeline) {
        CHECK(s.inferenceGpus == (s.seconds >= 3600 && s.seconds < 7200 ? 3 : 0));
        CHECK(s.busyGpus + s.inferenceGpus <= 4);
    }
    // Utilization over what inference left: 4 GPUs in hours 0 and 2, 1 in hour 1.
    const double left = 4.0 * 3600 + 1.0 * 3600 + 4.0 * (fcfs.makespanSeconds - 7200);
    CHECK(fcfs.utilization == Approx(fcfs.jobs[0].gpuSeconds / left));
    // Least attained service preempts it the same way; co-adaptive shrinks it to the one GPU left.
    const ClusterReplay las = replayCluster(apps, jobs, o, ClusterPolicy::FixedLas);
    CHECK(las.jobs[0].finishSeconds == Approx(fcfs.jobs[0].finishSeconds));
    const ClusterReplay co = replayCluster(apps, jobs, o, ClusterPolicy::CoAdaptive);
    for (const ClusterSample &s : co.timeline)
        CHECK(s.busyGpus + s.inferenceGpus <= 4);
    CHECK(co.jobs[0].finishSeconds < fcfs.jobs[0].finishSeconds);

    o.inferenceByHour = {0, 5};
    CHECK_THROWS_WITH(replayCluster(apps, jobs, o, ClusterPolicy::FixedFcfs),
                      Catch::Contains("hour 1: inference may take from 0 to the cluster's 4 GPUs, not 5"));
    o.inferenceByHour = {4, 4};
    CHECK_THROWS_WITH(replayCluster(apps, jobs, o, ClusterPolicy::FixedFcfs), Catch::Contains("training never runs"));
    // A job as wide as the most inference ever leaves is accepted; one wider is refused.
    o.inferenceByHour = {3, 1};
    CHECK_NOTHROW(replayCluster(apps, {{"j1", "a", 0, 3, 3}}, o, ClusterPolicy::FixedFcfs));
    CHECK_THROWS_WITH(replayCluster(apps, {{"j1", "a", 0, 4, 4}}, o, ClusterPolicy::FixedFcfs),
                      Catch::Contains("job j1: its fixed GPUs must be from 1 to the 3 training GPUs"));
}
