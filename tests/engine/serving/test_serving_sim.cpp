#include "engine/common/errors.h"
#include "engine/serving/serving_sim.h"
#include "engine/serving/serving_study.h"
#include "common/models.h"
#include "publictraces.h"
#include "tracefiles.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

using namespace headroom::engine;
using headroom::test::readMooncake;

namespace {

const char kMooncake[] = HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl";

const std::vector<TraceRequest> &mooncake()
{
    static const std::vector<TraceRequest> trace = readMooncake(kMooncake);
    return trace;
}

// Llama 3.1 8B, bf16, on one H100 SXM with the default serving assumptions.
StepCostModel llamaOnH100(int blockSize, int64_t *blocks)
{
    const ServingAssumptions assumptions;
    KvInputs in;
    in.model = headroom::test::llama31_8b();
    in.gpuMemoryBytes = headroom::test::h100Sxm().memoryBytes;
    in.utilization = assumptions.memoryUtilization;
    in.reserveBytes = assumptions.reserveBytes;
    in.blockSize = blockSize;
    const KvResult kv = analyseKv(in);
    if (blocks)
        *blocks = kvBlocksPerReplica(in);
    return stepCostModel(in.model, headroom::test::h100Sxm(), in.weights, kv, 1, assumptions);
}

// The reference of the issue, written from its definition: walk the requests in arrival
// order over one LRU cache of `capacity` block hashes; a request's hit is its leading run
// of cached blocks; then its blocks are touched in order, the missing ones inserted at the
// most-recently-used end, evicting the least recently used beyond `capacity`. Requests the
// simulator rejects (ceil((prompt + output) ÷ 512) > capacity) are skipped here too.
double lruReferenceHitRate(const std::vector<TraceRequest> &trace, size_t capacity)
{
    std::list<int64_t> order; // front = least recently used
    std::unordered_map<int64_t, std::list<int64_t>::iterator> where;
    int64_t hits = 0;
    int64_t blocks = 0;
    for (const TraceRequest &r : trace) {
        const int64_t need = (r.promptTokens + std::max<int64_t>(1, r.outputTokens) + 511) / 512;
        if (need > int64_t(capacity))
            continue;
        size_t run = 0;
        while (run < r.blockHashes.size() && where.count(r.blockHashes[run]))
            ++run;
        hits += int64_t(run);
        blocks += int64_t(r.blockHashes.size());
        for (int64_t hash : r.blockHashes) {
            const auto found = where.find(hash);
            if (found != where.end()) {
                order.splice(order.end(), order, found->second);
                continue;
            }
            order.push_back(hash);
            where[hash] = std::prev(order.end());
            if (order.size() > capacity) {
                where.erase(order.front());
                order.pop_front();
            }
        }
    }
    return double(hits) / double(blocks);
}

ServingSimConfig cacheOnly(int64_t blocks)
{
    ServingSimConfig c;
    c.replicas = 1;
    c.kvBlocksPerReplica = blocks;
    c.blockSize = 512;
    return c;
}

ServingSimConfig timedFleet(int replicas, RouterKind router)
{
    ServingSimConfig c;
    c.replicas = replicas;
    c.blockSize = 512;
    c.stepModel = llamaOnH100(512, &c.kvBlocksPerReplica);
    c.router = router;
    c.ttftSloMs = 2000;
    c.itlSloMs = 50;
    return c;
}

template <typename Body>
void requireInputError(const std::string &field, const std::string &words, Body body)
{
    try {
        body();
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == field);
        CHECK_THAT(e.what(), Catch::Contains(words));
    }
}

} // namespace

TEST_CASE("the single-replica block hit rate equals a plain LRU cache over the trace", "[serving-sim][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const auto &trace = mooncake();
    for (int64_t capacity : {300, 1000, 4000, 16000, 64000}) {
        INFO("capacity " << capacity << " blocks");
        const double reference = lruReferenceHitRate(trace, size_t(capacity));
        // Cache only: requests one at a time, as the definition walks them.
        const ServingSimResult alone = simulateServing(trace, cacheOnly(capacity));
        CHECK(alone.hitRateBlocks == Approx(reference).margin(0.01));
        // Timed, with arrivals stretched 10,000-fold so requests (nearly) never overlap.
        ServingSimConfig timed = cacheOnly(capacity);
        timed.stepModel = llamaOnH100(512, nullptr);
        timed.timeScale = 0.0001;
        const ServingSimResult stretched = simulateServing(trace, timed);
        CHECK(stretched.hitRateBlocks == Approx(reference).margin(0.01));
        INFO("capacity " << capacity << ": LRU reference " << reference << ", alone " << alone.hitRateBlocks
                          << ", stretched " << stretched.hitRateBlocks << " (" << stretched.preemptions
                          << " preemptions among requests that share a timestamp)");
        CHECK(stretched.completed + stretched.rejected == 12031);
    }
}

TEST_CASE("a cache holding every distinct block gets the infinite-cache hit rate", "[serving-sim][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const auto &trace = mooncake();
    // 182,790 distinct block hashes in the trace; 105,710 leading hits of 288,500 blocks.
    const double infinite = 105710.0 / 288500.0;
    CHECK(lruReferenceHitRate(trace, 182790) == Approx(infinite).epsilon(1e-12));
    // Generated-token blocks are private, so the pool needs room for one request beside them.
    const ServingSimResult r = simulateServing(trace, cacheOnly(182790 + 300));
    CHECK(r.rejected == 0);
    CHECK(r.promptBlocks == 288500);
    CHECK(r.hitBlocks == 105710);
    CHECK(r.hitRateBlocks == Approx(0.3664).margin(0.00005));
    ServingSimConfig timed = cacheOnly(182790 + 300);
    timed.stepModel = llamaOnH100(512, nullptr);
    timed.timeScale = 0.0001;
    CHECK(simulateServing(trace, timed).hitRateBlocks == Approx(infinite).margin(0.001));
}

TEST_CASE("the KV-aware router keeps more of the prefix cache than round-robin on 8 replicas", "[serving-sim][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const auto &trace = mooncake();
    const ServingSimResult roundRobin = simulateServing(trace, timedFleet(8, RouterKind::RoundRobin));
    const ServingSimResult kvAware = simulateServing(trace, timedFleet(8, RouterKind::KvAware));
    INFO("round-robin " << roundRobin.hitRateBlocks << ", KV-aware " << kvAware.hitRateBlocks);
    CHECK(kvAware.hitRateBlocks >= roundRobin.hitRateBlocks);
    CHECK(kvAware.hitRateTokens >= roundRobin.hitRateTokens);
    // Finite caches on separate replicas stay below the infinite-cache bound.
    CHECK(kvAware.hitRateBlocks <= 105710.0 / 288500.0);
    CHECK(roundRobin.completed == 12031);
    for (const ReplicaServingLoad &load : roundRobin.perReplica)
        CHECK(std::abs(double(load.requests) - 12031.0 / 8.0) <= 1.0);
}

TEST_CASE("temperature 0 routes deterministically and higher temperature spreads the load", "[serving-sim][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const auto &trace = mooncake();
    // At half the trace's arrival rate and a heavy overlap weight, cache reuse outweighs load
    // and requests pile onto the replicas holding popular prefixes (max/mean load 1.23).
    ServingSimConfig config = timedFleet(8, RouterKind::KvAware);
    config.overlapWeight = 1000;
    config.timeScale = 0.5;
    const ServingSimResult first = simulateServing(trace, config);
    config.seed = 99; // the seed only matters when sampling
    const ServingSimResult second = simulateServing(trace, config);
    REQUIRE(first.perReplica.size() == second.perReplica.size());
    for (size_t i = 0; i < first.perReplica.size(); ++i) {
        CHECK(first.perReplica[i].requests == second.perReplica[i].requests);
        CHECK(first.perReplica[i].hitBlocks == second.perReplica[i].hitBlocks);
    }
    CHECK(first.ttftMs.p95 == second.ttftMs.p95);

    // Sampling spreads the requests: max/mean load falls well below the deterministic
    // router's (by how much varies with the seed's draws, a few hundredths).
    CHECK(first.loadMaxOverMean > 1.15);
    for (double temperature : {100.0, 1000.0}) {
        config.temperature = temperature;
        const ServingSimResult hotter = simulateServing(trace, config);
        INFO("temperature " << temperature << ": max/mean load " << hotter.loadMaxOverMean << " against "
                            << first.loadMaxOverMean << " at temperature 0");
        CHECK(hotter.loadMaxOverMean < first.loadMaxOverMean - 0.1);
        // Sampling is seeded: the same seed gives the same run.
        CHECK(simulateServing(trace, config).perReplica[0].requests == hotter.perReplica[0].requests);
    }
}

TEST_CASE("simulated in-flight counts obey Little's law", "[serving-sim][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    ServingSimConfig config = timedFleet(4, RouterKind::KvAware);
    config.timeSamples = 5000;
    const ServingSimResult r = simulateServing(mooncake(), config);
    REQUIRE(r.completed == 12031);
    const double littles = r.throughputPerS * r.meanE2eS;
    CHECK(r.meanInFlight == Approx(littles).epsilon(0.02));
    // The sampled series, summed over replicas, averages to the same within 2 %.
    double sampled = 0;
    for (size_t k = 0; k < r.sampleTimesS.size(); ++k)
        for (const auto &replica : r.inFlight)
            sampled += double(replica[k]);
    sampled /= double(r.sampleTimesS.size());
    INFO("sampled mean in flight " << sampled << ", λW " << littles);
    CHECK(sampled == Approx(littles).epsilon(0.02));
    CHECK(littles > 1.0);
}

TEST_CASE("a tiny pool preempts and recomputes, and every request still finishes", "[serving-sim]")
{
    // Eight requests at once, 256 prompt + 256 output tokens = 32 blocks of 16 each when done;
    // a pool of 48 blocks admits two or three prompts, whose decodes then run out of blocks.
    std::vector<TraceRequest> trace;
    for (int i = 0; i < 8; ++i)
        trace.push_back({0.0, 256, 256, {}});
    ServingSimConfig c;
    c.replicas = 1;
    c.kvBlocksPerReplica = 48;
    c.blockSize = 16;
    c.stepModel = llamaOnH100(16, nullptr);
    const ServingSimResult r = simulateServing(trace, c);
    CHECK(r.preemptions > 0);
    CHECK(r.perReplica[0].preemptions == r.preemptions);
    CHECK(r.completed == 8);
    CHECK(r.rejected == 0);
    // A pool that holds all eight at their largest never preempts.
    c.kvBlocksPerReplica = 8 * 32;
    CHECK(simulateServing(trace, c).preemptions == 0);
}

TEST_CASE("block sizes other than the trace's map its hash blocks exactly as documented", "[serving-sim]")
{
    // Two 1,024-token prompts sharing their first 512-token block.
    const std::vector<TraceRequest> trace{{0.0, 1024, 1, {1, 2}}, {1.0, 1024, 1, {1, 3}}};
    ServingSimConfig c = cacheOnly(1000);
    c.blockSize = 512;
    CHECK(simulateServing(trace, c).hitRateBlocks == 0.25); // 1 of 4
    c.blockSize = 256; // each trace block is two blocks: the second prompt hits 2 of its 4
    const ServingSimResult small = simulateServing(trace, c);
    CHECK(small.promptBlocks == 8);
    CHECK(small.hitBlocks == 2);
    CHECK(small.hitTokens == 512);
    c.blockSize = 1024; // one block spans both trace blocks, which differ: no hit
    CHECK(simulateServing(trace, c).hitBlocks == 0);
    c.blockSize = 384; // blocks [0,384) and [384,768) lie in or across trace block 1 / 2
    const ServingSimResult odd = simulateServing(trace, c);
    CHECK(odd.promptBlocks == 6);
    CHECK(odd.hitBlocks == 1);
    c.prefixCache = false;
    CHECK(simulateServing(trace, c).hitBlocks == 0);
}

TEST_CASE("hashes generated from a shared prefix and hit rate reach that hit rate", "[serving-sim]")
{
    std::vector<TraceRequest> trace;
    for (int i = 0; i < 400; ++i)
        trace.push_back({double(i), 4096, 100, {}});
    const auto prefixOnly = withGeneratedHashes(trace, 1024, 0.0);
    // 2 of 8 blocks shared by every request after the first.
    CHECK(simulateServing(prefixOnly, cacheOnly(100000)).hitRateBlocks
          == Approx(2.0 * 399 / (8.0 * 400)).epsilon(1e-12));
    const auto half = withGeneratedHashes(trace, 1024, 0.5);
    CHECK(simulateServing(half, cacheOnly(100000)).hitRateBlocks == Approx(4.0 * 399 / (8.0 * 400)).epsilon(1e-12));
    // Traces with hashes keep them.
    CHECK(withGeneratedHashes({{0.0, 512, 1, {7}}}, 1024, 0.5).front().blockHashes == std::vector<int64_t>{7});
    requireInputError("hit_rate", "[0, 1]", [&] { withGeneratedHashes(trace, 0, 1.5); });
}

TEST_CASE("the fewest replicas meeting the attainment target are found by bisection", "[serving-sim]")
{
    // 600 requests of 2,000 + 200 tokens at 20 per second.
    std::vector<TraceRequest> trace;
    for (int i = 0; i < 600; ++i)
        trace.push_back({i * 0.05, 2000, 200, {}});
    ServingSimConfig c;
    c.blockSize = 16;
    c.stepModel = llamaOnH100(16, &c.kvBlocksPerReplica);
    c.router = RouterKind::LeastLoaded;
    c.ttftSloMs = 300;
    c.itlSloMs = 25;
    const std::optional<int> needed = findReplicas(trace, c, 0.99, 64);
    REQUIRE(needed.has_value());
    c.replicas = *needed;
    CHECK(simulateServing(trace, c).sloAttainment.value() >= 0.99);
    if (*needed > 1) {
        c.replicas = *needed - 1;
        CHECK(simulateServing(trace, c).sloAttainment.value() < 0.99);
    }
    c.itlSloMs = 0.001; // no batch can meet it
    CHECK_FALSE(findReplicas(trace, c, 0.99, 8).has_value());
}

TEST_CASE("sweeps on two threads equal the runs one by one", "[serving-sim]")
{
    std::vector<TraceRequest> trace;
    for (int i = 0; i < 300; ++i)
        trace.push_back({i * 0.1, 1000 + (i % 7) * 300, 50, {int64_t(i % 5), int64_t(100 + i % 11)}});
    std::vector<ServingSimConfig> configs;
    for (int64_t blocks : {8, 16, 64, 256}) {
        ServingSimConfig c = cacheOnly(blocks);
        c.replicas = 2;
        c.blockSize = 256;
        configs.push_back(c);
    }
    const auto results = simulateServingMany(trace, configs, 2);
    REQUIRE(results.size() == configs.size());
    for (size_t i = 0; i < configs.size(); ++i)
        CHECK(results[i].hitBlocks == simulateServing(trace, configs[i]).hitBlocks);
    // A larger cache never hits less here.
    for (size_t i = 1; i < results.size(); ++i)
        CHECK(results[i].hitRateBlocks >= results[i - 1].hitRateBlocks);
}

TEST_CASE("bad serving simulation input is refused or counted", "[serving-sim][bad-input]")
{
    const std::vector<TraceRequest> trace{{0.0, 100, 10, {}}, {2.0, 100, 10, {}}, {1.0, 100, 10, {}}};
    requireInputError("timestamp", "request 3", [&] { simulateServing(trace, cacheOnly(100)); });
    requireInputError("trace", "no requests", [&] { simulateServing({}, cacheOnly(100)); });
    const std::vector<TraceRequest> fine{{0.0, 100, 10, {}}};
    ServingSimConfig c = cacheOnly(100);
    c.replicas = 0;
    requireInputError("replicas", "at least 1", [&] { simulateServing(fine, c); });
    c = cacheOnly(100);
    c.temperature = -0.5;
    requireInputError("temperature", "at least 0", [&] { simulateServing(fine, c); });
    c = cacheOnly(0);
    requireInputError("kv_blocks", "at least 1", [&] { simulateServing(fine, c); });
    c = cacheOnly(100);
    c.ttftSloMs = 100;
    requireInputError("itl_slo_ms", "both", [&] { simulateServing(fine, c); });
    c = cacheOnly(100);
    c.timeScale = 0;
    requireInputError("time_scale", "above 0", [&] { simulateServing(fine, c); });

    // A prompt larger than the pool is rejected and counted; the rest run to the end.
    const std::vector<TraceRequest> oversized{{0.0, 100, 10, {}}, {0.5, 100000, 10, {}}, {1.0, 100, 10, {}}};
    ServingSimConfig timed = cacheOnly(20);
    timed.blockSize = 16;
    timed.stepModel = llamaOnH100(16, nullptr);
    const ServingSimResult r = simulateServing(oversized, timed);
    CHECK(r.rejected == 1);
    CHECK(r.completed == 2);
    CHECK(r.requests == 3);
}

TEST_CASE("a serving study's sweep points are the documented multiples and geometric sizes", "[serving-study]")
{
    CHECK(studyReplicaCounts(4) == std::vector<int>{1, 2, 3, 4, 5, 6, 8});
    CHECK(studyReplicaCounts(1) == std::vector<int>{1, 2});
    // From max(800 ÷ 8, 10) = 100 to 5,000 blocks: 100 × 50^(i/6).
    const std::vector<int64_t> sizes = studyCacheSizes(800, 10, 5000, 7);
    REQUIRE(sizes.size() == 7);
    CHECK(sizes.front() == 100);
    CHECK(sizes.back() == 5000);
    for (size_t i = 0; i < sizes.size(); ++i)
        CHECK(double(sizes[i]) == Approx(100 * std::pow(50.0, double(i) / 6)).margin(0.5));
    // The largest request raises the floor; a pool beyond every prompt block is the ceiling.
    CHECK(studyCacheSizes(800, 400, 5000, 2) == std::vector<int64_t>{400, 5000});
    CHECK(studyCacheSizes(800, 10, 300, 1) == std::vector<int64_t>{100});
    CHECK(studyCacheSizes(800, 10, 300, 3).back() == 800);
}

TEST_CASE("a serving study equals its simulations run one by one", "[serving-study]")
{
    // 400 requests at 8 per second; five conversations share leading blocks.
    std::vector<TraceRequest> trace;
    for (int i = 0; i < 400; ++i) {
        TraceRequest r{i * 0.125, 1500 + (i % 4) * 512, 64, {}};
        for (int64_t b = 0; b < (r.promptTokens + 511) / 512; ++b)
            r.blockHashes.push_back(b < 2 ? int64_t(i % 5) * 1000 + b : int64_t(i) * 1000 + b + 100000);
        trace.push_back(r);
    }
    ServingSimConfig fleet = timedFleet(2, RouterKind::RoundRobin);
    fleet.kvBlocksPerReplica = 64;
    ServingStudyOptions options;
    options.target = 0.95;
    options.cacheSweepPoints = 4;
    std::vector<double> reported;
    options.progress = [&](double share) {
        reported.push_back(share);
        return true;
    };
    const std::optional<ServingStudy> study = runServingStudy(trace, fleet, options);
    REQUIRE(study.has_value());
    CHECK(study->config.router == RouterKind::KvAware);
    // Progress rises to the whole.
    REQUIRE_FALSE(reported.empty());
    CHECK(std::is_sorted(reported.begin(), reported.end()));
    CHECK(reported.back() == Approx(1.0));

    for (int i = 0; i < kStudyRouterCount; ++i) {
        ServingSimConfig c = fleet;
        c.router = kStudyRouters[size_t(i)];
        const ServingSimResult alone = simulateServing(trace, c);
        CHECK(study->runs[size_t(i)].hitBlocks == alone.hitBlocks);
        CHECK(study->runs[size_t(i)].ttftMs.p95 == alone.ttftMs.p95);
        CHECK(study->replicasNeeded[size_t(i)] == findReplicas(trace, c, 0.95, 64));
    }
    CHECK(study->maxReplicasSearched == 64);
    // 400 requests × 64 output tokens over 399 × 0.125 s of arrivals, shared by the replicas found.
    CHECK(study->outputTokensPerS == Approx(400.0 * 64 / (399 * 0.125)));
    for (int i = 0; i < kStudyRouterCount; ++i) {
        REQUIRE(study->replicasNeeded[size_t(i)].has_value());
        CHECK(*study->goodputTokensPerReplica[size_t(i)]
              == Approx(study->outputTokensPerS / *study->replicasNeeded[size_t(i)]));
    }
    // The bound is the trace's own infinite-cache rate (analyseTrace), and no finite cache beats it.
    CHECK(study->infiniteHitRateBlocks == Approx(*analyseTrace(trace).prefixHitRate).margin(1e-12));
    REQUIRE(study->cacheSweep.size() == 4);
    for (const StudyCachePoint &p : study->cacheSweep)
        for (double hit : p.hitRateTokens)
            CHECK(hit <= study->infiniteHitRateTokens + 1e-12);
    ServingSimConfig largest = fleet;
    largest.router = RouterKind::LeastLoaded;
    largest.kvBlocksPerReplica = study->cacheSweep.back().kvBlocks;
    CHECK(study->cacheSweep.back().hitRateTokens[1] == simulateServing(trace, largest).hitRateTokens);
    REQUIRE(study->replicaSweep.size() == studyReplicaCounts(2).size());
    for (const StudyReplicaPoint &p : study->replicaSweep)
        if (p.replicas == 2)
            CHECK(p.attainment[0] == study->runs[0].sloAttainment);
}

TEST_CASE("a serving study stops when asked and refuses bad options", "[serving-study][bad-input]")
{
    std::vector<TraceRequest> trace;
    for (int i = 0; i < 50; ++i)
        trace.push_back({i * 0.5, 600, 20, {int64_t(i % 3)}});
    ServingSimConfig fleet = cacheOnly(32);
    ServingStudyOptions options;
    int calls = 0;
    options.progress = [&](double) { return ++calls < 2; };
    CHECK_FALSE(runServingStudy(trace, fleet, options).has_value());
    CHECK(calls == 2);
    // Without a step model and SLOs there is nothing to search: the study says so by leaving it empty.
    options.progress = nullptr;
    const auto study = runServingStudy(trace, fleet, options);
    REQUIRE(study.has_value());
    for (const auto &needed : study->replicasNeeded)
        CHECK_FALSE(needed.has_value());
    options.target = 0;
    requireInputError("target", "attainment target", [&] { runServingStudy(trace, fleet, options); });
    options.target = 0.99;
    options.cacheSweepPoints = 0;
    requireInputError("cache_sweep_points", "1 to 100", [&] { runServingStudy(trace, fleet, options); });
    options.cacheSweepPoints = 7;
    fleet.replicas = 0;
    requireInputError("replicas", "", [&] { runServingStudy(trace, fleet, options); });
}
