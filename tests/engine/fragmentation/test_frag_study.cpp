// The study's scoring (frag_scheduler.h, ScoreMode::Study): whole-number scores, ties by the
// seed's node ranking, one clustering class for every fractional task, random GPUs under the
// random policy; and the study's published 10-seed means on the default Alibaba trace.
#include "engine/fragmentation/frag.h"
#include "fragsupport.h"
#include "publictraces.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

using namespace headroom::engine::frag;

namespace {

using fragtest::task;

Node node(const std::string &id, int gpus, int64_t cpu = 32000)
{
    return Node{id, cpu, 262144, gpus, "T4"};
}

// The study's GPU allocation % at 100 % arrived, seeds 42–51 at load 1.3 on the default trace:
// mean and sample sd of its expected results (kubernetes-scheduler-simulator,
// experiments/analysis/expected_results/analysis_allo_discrete.csv).
struct Published {
    Policy policy;
    double mean;
    double sd;
};
const Published kPublished[] = {
    {Policy::Fgd, 95.227, 0.106},       {Policy::BestFit, 92.862, 0.144}, {Policy::Packing, 91.779, 0.532},
    {Policy::Clustering, 91.650, 0.610}, {Policy::DotProduct, 90.622, 0.186}, {Policy::Random, 86.303, 0.332},
};

} // namespace

TEST_CASE("study FGD: nodes whose whole-number scores tie go by the seed's ranking")
{
    // 99 tasks want a whole GPU, one wants 20 cores and half a GPU (weights count / 100).
    // Placing 300 milli-GPU on idle node a grows fragmentation by 700 × 99 / 100 = 693 milli-GPU;
    // on b (16 cores, too few for the big type, whose 1000 free was already fragment) by 690.
    // int(sigmoid(−0.693) × 100) = int(33.34) = 33 = int(sigmoid(−0.690) × 100) = int(33.40).
    std::vector<Task> workloadTasks(99, task(1000, 1, 1000));
    workloadTasks.push_back(task(20000, 1, 500));
    const TargetWorkload workload = targetWorkload(workloadTasks, 1.0);
    REQUIRE(workload.totalTasks == 100);
    const std::vector<Node> nodes = {node("a", 1, 32000), node("b", 1, 16000)};
    std::set<int> studyNodes;
    for (uint32_t seed = 0; seed < 16; ++seed) {
        Scheduler exact(nodes, workload, Policy::Fgd, seed, 0, ScoreMode::Exact);
        CHECK(exact.place(task(1000, 1, 300)).node == 1);  // 690 < 693
        Scheduler study(nodes, workload, Policy::Fgd, seed, 0, ScoreMode::Study);
        const int n = study.place(task(1000, 1, 300)).node;
        CHECK(study.tieRank(n) == 0);
        studyNodes.insert(n);
    }
    CHECK(studyNodes == std::set<int>{0, 1});  // the ranking differs between seeds
}

TEST_CASE("study FGD still prefers the node whose score is higher")
{
    // Node b holds 500 milli-GPU: a 300 task there drops fragmentation by 300 (score 57), on the
    // idle node a it grows by 700 (score 33), whatever the ranking.
    const TargetWorkload workload = targetWorkload({task(1000, 1, 1000)});
    for (uint32_t seed = 0; seed < 8; ++seed) {
        Scheduler study({node("a", 1), node("b", 1)}, workload, Policy::Fgd, seed);
        Task half = task(1000, 1, 500);
        half.allowedModels = {"T4"};
        study.place(half);
        const int held = study.nodeFree(0).freeMilli[0] == 500 ? 0 : 1;
        CHECK(study.place(task(1000, 1, 300)).node == held);
    }
}

TEST_CASE("the ranking is a permutation drawn from the seed, the exact mode's is the index")
{
    const std::vector<Node> nodes = {node("a", 2), node("b", 2), node("c", 2), node("d", 2), node("e", 2)};
    const TargetWorkload workload = targetWorkload({task(1000, 1, 500)});
    Scheduler one(nodes, workload, Policy::BestFit, 42);
    Scheduler again(nodes, workload, Policy::BestFit, 42);
    Scheduler exact(nodes, workload, Policy::BestFit, 42, 0, ScoreMode::Exact);
    std::set<int> ranks;
    bool identity = true;
    for (int n = 0; n < 5; ++n) {
        ranks.insert(one.tieRank(n));
        CHECK(again.tieRank(n) == one.tieRank(n));
        CHECK(exact.tieRank(n) == n);
        identity = identity && one.tieRank(n) == n;
    }
    CHECK(ranks == std::set<int>{0, 1, 2, 3, 4});
    CHECK_FALSE(identity);
    // Identical idle nodes tie under every policy with a score: the first task goes to rank 0.
    for (const Policy policy : {Policy::Fgd, Policy::BestFit, Policy::DotProduct, Policy::Packing, Policy::Clustering}) {
        Scheduler scheduler(nodes, workload, policy, 42);
        CHECK(scheduler.tieRank(scheduler.place(task(1000, 1, 500)).node) == 0);
    }
}

TEST_CASE("study GPU clustering puts every fractional task in one class")
{
    // A 470 milli-GPU task joins the node holding an 810 one ("share-gpu": band 75 plus
    // ⌊25 × 810 / 4000⌋ = 5) rather than an idle node (band 25); a one-GPU task is class "1-gpu"
    // and goes to an idle node (25) rather than that one (0 + 8). Exact clustering keys classes by
    // share, so the 470 task takes an idle node.
    const std::vector<Node> nodes = {node("a", 4), node("b", 4), node("c", 4)};
    const TargetWorkload workload = targetWorkload({task(1000, 1, 300)});
    for (uint32_t seed = 0; seed < 8; ++seed) {
        Scheduler study(nodes, workload, Policy::Clustering, seed);
        const int first = study.place(task(1000, 1, 810)).node;
        CHECK(study.place(task(1000, 1, 470)).node == first);
        CHECK(study.place(task(1000, 1, 1000)).node != first);
    }
    Scheduler exact(nodes, workload, Policy::Clustering, 0, 0, ScoreMode::Exact);
    CHECK(exact.place(task(1000, 1, 810)).node == 0);
    CHECK(exact.place(task(1000, 1, 470)).node == 1);
}

TEST_CASE("study random policy draws the GPU too, the exact one takes the best-fitting GPU")
{
    const TargetWorkload workload = targetWorkload({task(1000, 1, 500)});
    std::set<int> studyGpus, exactGpus;
    for (uint32_t seed = 0; seed < 24; ++seed) {
        Scheduler study({node("a", 4)}, workload, Policy::Random, seed);
        studyGpus.insert(study.place(task(1000, 1, 200)).gpus.at(0));
        Scheduler exact({node("a", 4)}, workload, Policy::Random, seed, 0, ScoreMode::Exact);
        exactGpus.insert(exact.place(task(1000, 1, 200)).gpus.at(0));
    }
    CHECK(studyGpus.size() >= 3);
    CHECK(exactGpus == std::set<int>{0});
}

TEST_CASE("study packing and dot-product scores are the study's whole numbers")
{
    // Packing: an idle 2-GPU node scores max(33 − 2, 2) = 31, an idle 8-GPU node max(25, 8) = 25.
    const TargetWorkload workload = targetWorkload({task(1000, 1, 500)});
    for (uint32_t seed = 0; seed < 8; ++seed) {
        Scheduler packing({node("big", 8), node("small", 2)}, workload, Policy::Packing, seed);
        CHECK(packing.place(task(1000, 1, 500)).node == 1);
        // Dot-product with the cluster maxima (64 cores, 8 GPUs): on the idle 8-GPU node
        // dot = 1 × (8 / 64) + 1 × (1 / 8) = 0.25 → int(87.5) = 87; on the idle 2-GPU node with 64
        // cores dot = 1 × (8 / 64) + 0.25 × (1 / 8) = 0.156 → 92: the smaller node wins. Per-node
        // capacity (exact) gives 0.25 on the big node and 0.125 + 0.5 = 0.625 on the small one.
        Scheduler dot({node("big", 8, 64000), node("small", 2, 64000)}, workload, Policy::DotProduct, seed);
        CHECK(dot.place(task(8000, 1, 1000)).node == 1);
    }
    Scheduler exactDot({node("big", 8, 64000), node("small", 2, 64000)}, workload, Policy::DotProduct, 0, 0,
                       ScoreMode::Exact);
    CHECK(exactDot.place(task(8000, 1, 1000)).node == 0);
}

TEST_CASE("parse and name the scoring modes")
{
    ScoreMode mode = ScoreMode::Exact;
    CHECK(parseScoreMode("study", &mode));
    CHECK(mode == ScoreMode::Study);
    CHECK(parseScoreMode("exact", &mode));
    CHECK(mode == ScoreMode::Exact);
    CHECK_FALSE(parseScoreMode("Study", &mode));
    CHECK(toString(ScoreMode::Study) == "study");
    CHECK(RunOptions{}.mode == ScoreMode::Study);
}

TEST_CASE("study mode reproduces the study's 10-seed means on the default Alibaba trace")
{
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const std::vector<Node> nodes = fragtest::traceNodes();
    const std::vector<Task> tasks = fragtest::traceTasks();
    std::vector<uint32_t> seeds;
    for (uint32_t s = 42; s <= 51; ++s)
        seeds.push_back(s);
    std::map<Policy, double> means;
    for (const Published &published : kPublished) {
        RunOptions options;
        options.policy = published.policy;
        const SeedsResult result = simulateSeeds(nodes, tasks, options, seeds, 2);
        const double mean = result.allocatedPctAt100.mean;
        const double tolerance = std::max(2 * published.sd, 0.5);
        INFO(std::string(toString(published.policy)) << ": " << mean << " % against the study's " << published.mean
                                                    << " ± " << tolerance);
        CHECK(std::abs(mean - published.mean) <= tolerance);
        means[published.policy] = mean;
    }
    for (const auto &[policy, mean] : means) {
        if (policy == Policy::Fgd)
            continue;
        INFO("FGD " << means[Policy::Fgd] << " %, " << std::string(toString(policy)) << " " << mean << " %");
        CHECK(means[Policy::Fgd] > mean + 1.5);  // the study: FGD ahead of the best baseline by 2.4 pp
    }
}

TEST_CASE("study FGD keeps whole 8-GPU nodes idle longer than exact FGD on the default trace")
{
    // What the Fragmentation page explains: ties among near-equal placements go to one ranking,
    // so the coarse score fills a node before opening another (seeds 42–51 at 80 % arrived: about
    // 96 idle 8-GPU nodes against 41, 18 partly used nodes with a whole GPU free against 137).
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const std::vector<Node> nodes = fragtest::traceNodes();
    const std::vector<Task> tasks = fragtest::traceTasks();
    const auto at80 = [&](ScoreMode mode, uint32_t seed, int *idleWholeNodes, int *openNodes) {
        RunOptions options;
        options.mode = mode;
        options.seed = seed;
        const RunResult run = simulate(nodes, tasks, options, {}, {80});
        *idleWholeNodes = 0;
        *openNodes = 0;
        for (const NodeSnapshot &node : run.snapshots.at(0)) {
            const auto full = std::count(node.freeMilli.begin(), node.freeMilli.end(), 1000);
            *idleWholeNodes += node.freeMilli.size() == 8 && full == 8 ? 1 : 0;
            *openNodes += full > 0 && full < std::ptrdiff_t(node.freeMilli.size()) ? 1 : 0;
        }
        return run.failedByGpusAt100;
    };
    for (uint32_t seed = 42; seed < 45; ++seed) {
        int studyIdle = 0, studyOpen = 0, exactIdle = 0, exactOpen = 0;
        at80(ScoreMode::Study, seed, &studyIdle, &studyOpen);
        at80(ScoreMode::Exact, seed, &exactIdle, &exactOpen);
        INFO("seed " << seed << ": idle 8-GPU nodes " << studyIdle << " (study) against " << exactIdle
                     << ", open nodes " << studyOpen << " against " << exactOpen);
        CHECK(studyIdle > exactIdle + 25);
        CHECK(studyOpen * 3 < exactOpen);
    }
}
