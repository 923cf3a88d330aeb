#include "scenariosupport.h"

#include "engine/common/errors.h"
#include "engine/fleet/plan.h"
#include "engine/fleet/scenario.h"
#include "engine/inference/inference_sizing.h"
#include "engine/partitioning/mig.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

// A workload without measurements (sized by the step-cost model on every GPU), `users` daily
// users, half the traffic at night.
WorkloadProfile planWorkload(const std::string &name, double users, WorkloadClass workloadClass)
{
    WorkloadProfile w = scenarioChat(name);
    w.workloadClass = workloadClass;
    w.dailyActiveUsers = users;
    w.measuredMaxStreams.reset();
    w.measuredGoodputTokensPerS.reset();
    return w;
}

// Two GPU types priced by one card: the H100 of the scenario fixtures and an A100 at lower rates.
PlanRequest planRequest()
{
    PlanRequest r;
    r.settings = scenarioOn("plan", "Test", "r1");
    r.settings.asOfDate = "2026-06-01";
    r.inputs = scenarioInputs();
    r.inputs.workloads = {planWorkload("chat", 40000, WorkloadClass::FlagshipInteractive),
                          planWorkload("helper", 15000, WorkloadClass::InternalTool)};
    r.inputs.rateCards.push_back(card("Test", "r1", "a100-sxm-80gb", "2026-01-01", "6.40", "4.80", "3.10", "1.40", 4));
    r.inputs.hours = 48;  // every day alike: two days price the year as 8,760 hours do
    r.options.weights = {WeightPrecision::Bf16, WeightPrecision::Fp8};
    r.options.kv = {KvPrecision::Bf16};
    r.options.tps = {1, 2};
    r.options.commitments = {PoolTier::Reserved1y};
    r.options.disaggregate = false;  // the sections that split prefill and decode say so
    return r;
}

// Most GPUs of `gpu` the scenario holds at one hour, over every pool of that GPU.
int64_t mostHeld(const ScenarioResult &r, const std::string &gpu)
{
    int64_t most = 0;
    for (size_t t = 0; t < r.pools.front().hourlyUsed.size(); ++t) {
        int64_t held = 0;
        for (const PoolResult &p : r.pools) {
            if (p.gpuId == gpu)
                held += p.role == PoolRole::StaticBase ? p.gpus : p.hourlyUsed[t];
        }
        most = std::max(most, held);
    }
    return most;
}

// Every MIG slice (of every profile table's GPU, smaller than the GPU) on which one replica of
// `w` serves its peak at its SLOs, at every precision of the options, as the scenario packs it.
std::vector<PoolDeployment> sliceDeployments(const PlanRequest &request, const WorkloadProfile &w)
{
    std::vector<PoolDeployment> out;
    if (!request.options.packMig || w.workloadClass == WorkloadClass::FlagshipInteractive)
        return out;
    for (const MigGpuProfiles &table : request.inputs.migProfiles) {
        const GpuSpec &gpu = *findGpu(request.inputs.gpus, table.gpuId);
        for (const MigProfile &profile : table.profiles) {
            if (profile.mediaExtensions || profile.memorySlices == table.memorySlices)
                continue;
            for (const WeightPrecision weights : request.options.weights) {
                for (const KvPrecision kv : request.options.kv) {
                    SizingOverrides o;
                    o.gpuId = gpu.id;
                    o.weights = weights;
                    o.kv = kv;
                    o.tp = 1;
                    WorkloadProfile deployed = w;
                    deployed.weights = weights;
                    deployed.kv = kv;
                    try {
                        const SizingResult r =
                            sizeInference(w, llama31_8b(), migSliceGpu(gpu, table, profile), o, request.inputs.serving);
                        const double need = r.peakUtilization * double(r.replicas);
                        if (r.feasible && r.replicasNeeded == 1 && need * (1 + request.inputs.serving.plannedHeadroom) <= 1
                            && tenantForWorkload(deployed, llama31_8b()).memoryGiB <= memoryGiB(profile))
                            out.push_back({w.name, weights, kv, 1, profile.name});
                    } catch (const InputError &) {
                    }
                }
            }
        }
    }
    return out;
}

// GPUs of `gpu` a committed MIG pool needs for `names` on their slices: the fewest with which
// evaluateScenario warns of no shortage.
int64_t migPoolGpus(const PlanRequest &request, const std::string &gpu, const std::vector<std::string> &names,
                    const std::vector<PoolDeployment> &deployments)
{
    for (int64_t gpus = 1;; ++gpus) {
        Scenario s = request.settings;
        Pool mig = pool("mig", PoolTier::Reserved1y, PoolSizing::Fixed, gpus, names, gpu);
        mig.partitioning = Partitioning::Mig;
        mig.deployments = deployments;
        s.pools = {mig};
        const ScenarioResult r = evaluateScenario(s, request.inputs);
        if (std::none_of(r.warnings.begin(), r.warnings.end(),
                         [](const ScenarioWarning &w) { return w.code == "mig_slots_short"; }))
            return gpus;
    }
}

// The plan's space searched by brute force through evaluateScenario itself: every feasible
// deployment of every workload (none dropped), the workloads of each GPU type in one committed
// pool of every count from 0 to the type's peak (whole replicas or not) under an on-demand pool
// and, with spot, also under an on-demand pool for the flagship and a spot one for the rest;
// with packing, also every slice of every MIG profile that serves a workload other than a
// flagship, its GPU type's slices in one committed MIG pool of the fewest GPUs that hold them.
Money bruteForce(const PlanRequest &request)
{
    struct Deployment {
        std::string gpu;                    // "<gpu> MIG" for a slice
        PoolDeployment d;
        int64_t peak = 0;
    };
    std::vector<std::vector<Deployment>> options;
    for (const WorkloadProfile &w : request.inputs.workloads) {
        std::vector<Deployment> here;
        for (const GpuSpec &gpu : request.inputs.gpus) {
            for (const WeightPrecision weights : request.options.weights) {
                for (const KvPrecision kv : request.options.kv) {
                    for (const int tp : request.options.tps) {
                        for (const bool disaggregate : {false, true}) {
                            if (disaggregate && !request.options.disaggregate)
                                continue;
                            SizingOverrides o;
                            o.gpuId = gpu.id;
                            o.weights = weights;
                            o.kv = kv;
                            o.tp = tp;
                            o.disaggregate = disaggregate;
                            try {
                                const SizingResult r = sizeInference(w, llama31_8b(), gpu, o, request.inputs.serving);
                                if (r.feasible && r.gpus > 0)
                                    here.push_back(
                                        {gpu.id, {w.name, weights, kv, r.gpusPerReplica, {}, disaggregate}, r.gpus});
                            } catch (const InputError &) {
                            }
                        }
                    }
                }
            }
        }
        for (const PoolDeployment &d : sliceDeployments(request, w))
            here.push_back({request.inputs.migProfiles.front().gpuId + " MIG", d, 0});
        REQUIRE_FALSE(here.empty());
        options.push_back(here);
    }
    std::optional<Money> best;
    std::vector<size_t> pick(options.size(), 0);
    for (;;) {
        // The GPU types used, each with its workloads and their peak.
        std::map<std::string, std::vector<size_t>> byGpu;
        for (size_t w = 0; w < pick.size(); ++w)
            byGpu[options[w][pick[w]].gpu].push_back(w);
        std::vector<std::string> gpus;
        std::vector<int64_t> peaks;
        for (const auto &[gpu, members] : byGpu) {
            gpus.push_back(gpu);
            int64_t peak = 0;
            for (size_t w : members)
                peak += options[w][pick[w]].peak;
            peaks.push_back(peak);
        }
        // The MIG pools: as many GPUs as their slices take.
        std::vector<Pool> migPools;
        for (size_t g = 0; g < gpus.size(); ++g) {
            if (gpus[g].find(" MIG") == std::string::npos)
                continue;
            const std::string gpu = gpus[g].substr(0, gpus[g].find(" MIG"));
            std::vector<std::string> names;
            std::vector<PoolDeployment> deployments;
            for (size_t w : byGpu[gpus[g]]) {
                names.push_back(request.inputs.workloads[w].name);
                deployments.push_back(options[w][pick[w]].d);
            }
            Pool mig = pool(gpus[g], PoolTier::Reserved1y, PoolSizing::Fixed,
                            migPoolGpus(request, gpu, names, deployments), names, gpu);
            mig.partitioning = Partitioning::Mig;
            mig.deployments = deployments;
            migPools.push_back(mig);
        }
        std::vector<int64_t> committed(gpus.size(), 0);
        for (;;) {
            // The elastic top all on-demand, or (with spot) the workloads that are not flagship on spot.
            for (const bool split : {false, true}) {
                if (split && !request.options.spot)
                    continue;
                Scenario s = request.settings;
                s.pools = migPools;
                for (size_t g = 0; g < gpus.size(); ++g) {
                    if (gpus[g].find(" MIG") != std::string::npos)
                        continue;
                    std::vector<std::string> names, onDemand, spot;
                    std::vector<PoolDeployment> deployments, onDemandDeployments, spotDeployments;
                    for (size_t w : byGpu[gpus[g]]) {
                        const WorkloadProfile &profile = request.inputs.workloads[w];
                        names.push_back(profile.name);
                        deployments.push_back(options[w][pick[w]].d);
                        const bool onSpot = split && profile.workloadClass != WorkloadClass::FlagshipInteractive;
                        (onSpot ? spot : onDemand).push_back(profile.name);
                        (onSpot ? spotDeployments : onDemandDeployments).push_back(options[w][pick[w]].d);
                    }
                    if (committed[g] > 0) {
                        Pool base = pool(gpus[g] + " committed", PoolTier::Reserved1y, PoolSizing::Fixed, committed[g], names,
                                         gpus[g]);
                        base.deployments = deployments;
                        s.pools.push_back(base);
                    }
                    if (!onDemand.empty()) {
                        Pool top = pool(gpus[g] + " on-demand", PoolTier::OnDemand, PoolSizing::Auto, 0, onDemand, gpus[g]);
                        top.deployments = onDemandDeployments;
                        s.pools.push_back(top);
                    }
                    if (!spot.empty()) {
                        Pool top = pool(gpus[g] + " spot", PoolTier::Spot, PoolSizing::Auto, 0, spot, gpus[g]);
                        top.deployments = spotDeployments;
                        s.pools.push_back(top);
                    }
                }
                const ScenarioResult r = evaluateScenario(s, request.inputs);
                const bool withinCaps = std::all_of(request.options.caps.begin(), request.options.caps.end(),
                                                    [&](const GpuCap &cap) { return mostHeld(r, cap.gpuId) <= cap.gpus; });
                if (withinCaps && (!best || r.costOverTerm.amount < best->amount))
                    best = r.costOverTerm;
            }
            size_t g = 0;
            while (g < committed.size() && ++committed[g] > peaks[g])
                committed[g++] = 0;
            if (g == committed.size())
                break;
        }
        size_t w = 0;
        while (w < pick.size() && ++pick[w] == options[w].size())
            pick[w++] = 0;
        if (w == pick.size())
            break;
    }
    return *best;
}

} // namespace

TEST_CASE("The plan equals the brute-force optimum of its space, priced by evaluateScenario", "[plan]")
{
    PlanRequest request = planRequest();
    SECTION("two workloads on two GPU types") {}
    SECTION("the A100 capped below what the workloads want of it")
    {
        request.options.caps = {{"a100-sxm-80gb", 40}};
    }
    SECTION("one workload")
    {
        request.inputs.workloads.pop_back();
    }
    SECTION("one workload, prefill and decode also on replicas of their own")
    {
        request.inputs.workloads.pop_back();
        request.options.disaggregate = true;
    }
    SECTION("spot allowed: the internal tool's overflow may ride it, the flagship's not")
    {
        request.options.spot = true;
    }
    bool packs = false;
    SECTION("two small tenants beside the flagship, packed onto MIG slices of a committed H100")
    {
        request.inputs.workloads = {planWorkload("chat", 8000, WorkloadClass::FlagshipInteractive),
                                    planWorkload("wiki", 150, WorkloadClass::InternalTool),
                                    planWorkload("notes", 400, WorkloadClass::Batch)};
        request.options.packMinFleetGpus = 0;
        packs = true;
    }
    const PlanResult plan = planPortfolio(request);
    const Money brute = bruteForce(request);
    INFO(plan.method);
    INFO(plan.packing);
    CHECK(plan.best.costOverTerm.cents() == brute.cents());
    const bool packed = std::any_of(plan.best.workloads.begin(), plan.best.workloads.end(),
                                    [](const PlannedWorkload &w) { return !w.migProfile.empty(); });
    CHECK(packed == packs);
    CHECK(evaluateScenario(plan.best.scenario, request.inputs).costOverTerm.cents() == plan.best.costOverTerm.cents());
    CHECK(plan.unplaced.empty());
    CHECK(plan.method.find("gap 0") != std::string::npos);
}

TEST_CASE("A plan and its runners-up evaluate as scenarios to their own cost to the cent", "[plan]")
{
    PlanRequest request = planRequest();
    request.options.commitments = {PoolTier::Reserved1y, PoolTier::Reserved3y};
    request.settings.horizonMonths = 36;
    request.options.spot = true;
    request.options.weights = {WeightPrecision::Bf16, WeightPrecision::Fp8, WeightPrecision::Int4};
    request.options.kv = {KvPrecision::Bf16, KvPrecision::Fp8};
    request.inputs.trainingJobs = {{"finetune", 8, 8 * 300.0, "h100-sxm"}, {"pretrain", 8, 8 * 6000.0, "a100-sxm-80gb"}};
    request.inputs.rateCards.back().spot = Decimal();  // no A100 spot: a long job is cheaper reserved
    request.inputs.hours = 8760;
    request.options.disaggregate = true;
    const PlanResult plan = planPortfolio(request);
    REQUIRE(plan.best.workloads.size() == 2);
    REQUIRE(plan.best.jobs.size() == 2);
    REQUIRE_FALSE(plan.runnersUp.empty());
    std::vector<const PlanOption *> all{&plan.best};
    for (const PlanOption &o : plan.runnersUp)
        all.push_back(&o);
    for (const PlanOption *o : all) {
        const ScenarioResult r = evaluateScenario(o->scenario, request.inputs);
        CHECK(r.costOverTerm.cents() == o->costOverTerm.cents());
        CHECK(r.costOverTerm.amount == o->costOverTerm.amount);
        // Its parts re-add: pools, and the reserved jobs beside them.
        Money parts{Decimal(), o->costOverTerm.currency};
        for (const PlannedPool &p : o->pools)
            parts += p.costOverTerm;
        for (const PlannedJob &j : o->jobs) {
            if (j.reserved)
                parts += j.costOverTerm;
        }
        const bool jobsOnlyElastic = std::none_of(o->jobs.begin(), o->jobs.end(), [&](const PlannedJob &j) {
            return !j.reserved && std::none_of(o->pools.begin(), o->pools.end(),
                                               [&](const PlannedPool &p) { return p.gpuId == j.gpuId; });
        });
        if (jobsOnlyElastic)
            CHECK(parts.cents() == o->costOverTerm.cents());
        for (const ScenarioWarning &w : r.warnings)
            CHECK_FALSE(w.code == "unserved_demand");
        CHECK(o->costOverTerm.amount >= plan.best.costOverTerm.amount);
    }
    // A short fine-tune is cheaper on elastic GPUs while it runs; a job running most of the
    // year is cheaper reserved.
    for (const PlannedJob &j : plan.best.jobs) {
        if (j.job == "finetune")
            CHECK_FALSE(j.reserved);
        if (j.job == "pretrain")
            CHECK(j.reserved);
    }
    CHECK_FALSE(plan.why.empty());
    CHECK(plan.why.front().find("less than the runner-up") != std::string::npos);
}

TEST_CASE("A plan keeps the flagship off spot, within the caps and the committed share", "[plan]")
{
    PlanRequest request = planRequest();
    request.options.spot = true;
    request.inputs.hours = 8760;
    SECTION("spot is for the internal tool only")
    {
        request.options.gpuIds = {"h100-sxm"};
        request.inputs.workloads.pop_back();  // the flagship alone
        PlanResult plan = planPortfolio(request);
        REQUIRE(plan.best.pools.size() == 1);
        CHECK(plan.best.pools.front().elastic == PoolTier::OnDemand);
        request.inputs.workloads = {planWorkload("helper", 15000, WorkloadClass::InternalTool)};
        plan = planPortfolio(request);
        REQUIRE(plan.best.pools.size() == 1);
        CHECK(plan.best.pools.front().elastic == PoolTier::Spot);
    }
    SECTION("the cap holds at every hour")
    {
        const PlanResult free = planPortfolio(request);
        int64_t h100 = 0;
        for (const PlannedPool &p : free.best.pools)
            if (p.gpuId == "h100-sxm")
                h100 = p.peakGpus;
        REQUIRE(h100 > 2);
        request.options.caps = {{"h100-sxm", h100 - 2}};
        const PlanResult capped = planPortfolio(request);
        const ScenarioResult r = evaluateScenario(capped.best.scenario, request.inputs);
        CHECK(mostHeld(r, "h100-sxm") <= h100 - 2);
        CHECK(capped.best.costOverTerm.amount >= free.best.costOverTerm.amount);
    }
    SECTION("the front falls as more may be committed, to the plan at its share")
    {
        const PlanResult plan = planPortfolio(request);
        REQUIRE(plan.front.size() == 11);
        for (size_t i = 1; i < plan.front.size(); ++i)
            CHECK(plan.front[i].costOverTerm.amount <= plan.front[i - 1].costOverTerm.amount);
        CHECK(plan.front.front().committedShare == 0);
        CHECK(plan.front.back().costOverTerm == plan.best.costOverTerm);
        request.options.maxCommittedShare = 0.3;
        const PlanResult limited = planPortfolio(request);
        for (const PlannedPool &p : limited.best.pools) {
            int64_t peak = 0;
            for (const PlannedWorkload &w : limited.best.workloads)
                if (w.gpuId == p.gpuId)
                    peak += w.peakGpus;
            CHECK(p.committedGpus <= int64_t(0.3 * double(peak)));
        }
        CHECK(limited.best.costOverTerm.amount >= plan.best.costOverTerm.amount);
    }
}

TEST_CASE("A plan refuses bad options by field and stops when cancelled", "[plan]")
{
    PlanRequest request = planRequest();
    const auto field = [&](const std::function<void(PlanRequest &)> &change) {
        PlanRequest r = request;
        change(r);
        try {
            planPortfolio(r);
        } catch (const InputError &e) {
            return e.field();
        }
        return std::string("none");
    };
    CHECK(field([](PlanRequest &r) { r.options.caps = {{"h100-sxm", -1}}; }) == "options.caps");
    CHECK(field([](PlanRequest &r) { r.options.caps = {{"no-such-gpu", 4}}; }) == "options.caps");
    CHECK(field([](PlanRequest &r) { r.options.tps = {0}; }) == "options.tps");
    CHECK(field([](PlanRequest &r) { r.options.maxCommittedShare = 1.5; }) == "max_committed_share");
    CHECK(field([](PlanRequest &r) { r.settings.horizonMonths = 0; }) == "settings.horizon_months");
    CHECK(field([](PlanRequest &r) { r.settings.region = "nowhere"; }) == "settings.rate_card");
    // More workloads than one exact search covers are planned in blocks, which caps would tie together.
    CHECK(field([](PlanRequest &r) {
              for (size_t i = 0; i <= kMaxPlanWorkloads; ++i)
                  r.inputs.workloads.push_back(planWorkload("w" + std::to_string(i), 1000, WorkloadClass::Batch));
              r.options.caps = {{"h100-sxm", 100}};
          })
          == "options.caps");
    CHECK(field([](PlanRequest &r) { r.options.caps = {{"h100-sxm", 0}, {"a100-sxm-80gb", 0}}; }) == "options.caps");
    int calls = 0;
    CHECK_THROWS_AS(planPortfolio(request, [&](double) { return ++calls < 3; }), PlanCancelled);
    CHECK(calls == 3);
}

TEST_CASE("A workload no GPU serves at its SLO is reported, the rest planned", "[plan]")
{
    PlanRequest request = planRequest();
    WorkloadProfile impossible = planWorkload("instant", 1000, WorkloadClass::InternalTool);
    impossible.ttftP95Ms = 0.5;
    request.inputs.workloads.push_back(impossible);
    const PlanResult plan = planPortfolio(request);
    REQUIRE(plan.unplaced.size() == 1);
    CHECK(plan.unplaced.front().find("\"instant\"") != std::string::npos);
    CHECK(plan.best.workloads.size() == 2);
}

TEST_CASE("A scenario's plan request holds what its pools serve, each once, and names what is missing", "[plan]")
{
    const PlanRequest base = planRequest();
    ScenarioInputs inputs = base.inputs;
    inputs.trainingJobs = {{"finetune", 8, 800, "h100-sxm"}};
    Scenario s = base.settings;
    s.name = "served";
    s.pools = {pool("base", PoolTier::Reserved1y, PoolSizing::Fixed, 4, {"helper", "gone"}),
               pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"helper", "chat"})};
    s.pools[1].trainingJobs = {"finetune", "old job"};
    std::vector<std::string> missingWorkloads, missingJobs;
    const PlanRequest r = scenarioPlanRequest(s, inputs, &missingWorkloads, &missingJobs);
    REQUIRE(r.inputs.workloads.size() == 2);
    CHECK(r.inputs.workloads[0].name == "helper");
    CHECK(r.inputs.workloads[1].name == "chat");
    REQUIRE(r.inputs.trainingJobs.size() == 1);
    CHECK(r.inputs.trainingJobs[0].name == "finetune");
    CHECK(missingWorkloads == std::vector<std::string>{"gone"});
    CHECK(missingJobs == std::vector<std::string>{"old job"});
    CHECK(r.settings.name == "served");
    CHECK(r.settings.provider == "Test");
    CHECK(r.settings.pools.empty());
    CHECK(r.inputs.rateCards.size() == inputs.rateCards.size());
}

TEST_CASE("A plan packs small tenants onto MIG slices only where the rules let it", "[plan]")
{
    PlanRequest request = planRequest();
    request.options.gpuIds = {"h100-sxm"};
    request.inputs.workloads = {planWorkload("chat", 2000, WorkloadClass::FlagshipInteractive),
                                planWorkload("wiki", 150, WorkloadClass::InternalTool)};
    request.options.packMinFleetGpus = 0;
    request.options.weights = {WeightPrecision::Bf16, WeightPrecision::Fp8, WeightPrecision::Int4};
    const PlanResult packed = planPortfolio(request);
    REQUIRE(packed.best.workloads.size() == 2);
    const PlannedWorkload &chat = packed.best.workloads[0];
    const PlannedWorkload &wiki = packed.best.workloads[1];
    INFO(packed.packing);
    CHECK(chat.migProfile.empty());  // a flagship is never packed
    REQUIRE_FALSE(wiki.migProfile.empty());
    CHECK(wiki.tp == 1);
    CHECK(wiki.latencyMargin > 0);
    const auto migPool = std::find_if(packed.best.scenario.pools.begin(), packed.best.scenario.pools.end(),
                                      [](const Pool &p) { return p.partitioning == Partitioning::Mig; });
    REQUIRE(migPool != packed.best.scenario.pools.end());
    CHECK(migPool->workloads == std::vector<std::string>{"wiki"});
    REQUIRE(migPool->deployments.size() == 1);
    CHECK(migPool->deployments.front().migProfile == wiki.migProfile);
    const ScenarioResult r = evaluateScenario(packed.best.scenario, request.inputs);
    CHECK(r.costOverTerm.cents() == packed.best.costOverTerm.cents());
    for (const ScenarioWarning &w : r.warnings) {
        INFO(w.message);
        CHECK(w.code != "oom_at_mig_boundary");
        CHECK(w.code != "mig_slots_short");
        CHECK(w.code != "mig_layout_invalid");
    }
    CHECK(packed.packing.find("1 workload is packed") != std::string::npos);
    // Its slice serves its peak with the planned headroom free; no smaller slice does.
    const MigGpuProfiles &table = request.inputs.migProfiles.front();
    const auto serves = [&](const MigProfile &profile) {
        SizingOverrides o;
        o.gpuId = "h100-sxm";
        o.weights = wiki.weights;
        o.kv = wiki.kv;
        o.tp = 1;
        const SizingResult s = sizeInference(request.inputs.workloads[1], llama31_8b(),
                                             migSliceGpu(*findGpu(request.inputs.gpus, "h100-sxm"), table, profile), o,
                                             request.inputs.serving);
        return s.feasible && s.replicasNeeded == 1
               && s.peakUtilization * double(s.replicas) * (1 + request.inputs.serving.plannedHeadroom) <= 1;
    };
    const MigProfile *chosen = table.find(wiki.migProfile);
    REQUIRE(chosen);
    CHECK(serves(*chosen));
    for (const MigProfile &smaller : table.profiles) {
        if (!smaller.mediaExtensions
            && std::make_pair(smaller.memorySlices, smaller.computeSlices)
                   < std::make_pair(chosen->memorySlices, chosen->computeSlices)) {
            INFO(smaller.name);
            CHECK_FALSE(serves(smaller));
        }
    }

    // The same fleet under the seed's size rule: without packing it holds fewer than 8 GPUs.
    request.options.packMinFleetGpus = 8;
    const PlanResult small = planPortfolio(request);
    REQUIRE(small.best.peakGpus < 8);
    CHECK(small.best.workloads[1].migProfile.empty());
    CHECK(small.packing.find("fewer than the 8") != std::string::npos);
    CHECK(small.best.costOverTerm.amount >= packed.best.costOverTerm.amount);

    // Switched off, or held below a full committed share: whole GPUs only.
    request.options.packMinFleetGpus = 0;
    request.options.packMig = false;
    CHECK(planPortfolio(request).best.workloads[1].migProfile.empty());
    request.options.packMig = true;
    request.options.maxCommittedShare = 0.9;
    const PlanResult partly = planPortfolio(request);
    CHECK(partly.best.workloads[1].migProfile.empty());
    CHECK(partly.packing.find("below 100 %") != std::string::npos);
}

TEST_CASE("More workloads than one search covers are planned in blocks, priced by the scenario, their MIG tenants "
          "packed together", "[plan]")
{
    PlanRequest request = planRequest();
    request.options.gpuIds = {"h100-sxm"};
    request.options.weights = {WeightPrecision::Bf16, WeightPrecision::Int4};
    request.options.tps = {1};
    request.options.alternatives = 2;
    request.inputs.workloads = {planWorkload("chat", 40000, WorkloadClass::FlagshipInteractive)};
    // Fourteen tenants: 13 in the first block with the flagship, 1 in the second; one GPU fewer together.
    for (int i = 1; i <= 14; ++i)
        request.inputs.workloads.push_back(planWorkload("tenant " + std::to_string(i), 150, WorkloadClass::InternalTool));
    const size_t n = request.inputs.workloads.size();
    REQUIRE(n > kMaxPlanWorkloads);
    const PlanResult plan = planPortfolio(request);
    INFO(plan.method);
    CHECK(plan.method.find("In blocks: 15 workloads") != std::string::npos);
    CHECK(plan.method.find("2 blocks (14 and 1 workloads)") != std::string::npos);
    CHECK(plan.method.find("not proven over the whole space") != std::string::npos);
    REQUIRE(plan.best.workloads.size() == n);
    for (size_t i = 0; i < n; ++i)
        CHECK(plan.best.workloads[i].workload == request.inputs.workloads[i].name);
    CHECK(plan.unplaced.empty());

    // The plan's scenario is priced to its cent, its pools named once each.
    const ScenarioResult evaluated = evaluateScenario(plan.best.scenario, request.inputs);
    CHECK(evaluated.costOverTerm.cents() == plan.best.costOverTerm.cents());
    std::set<std::string> names;
    for (const Pool &pool : plan.best.scenario.pools)
        CHECK(names.insert(pool.name).second);
    Money pools{Decimal(), plan.best.costOverTerm.currency};
    for (const PlannedPool &p : plan.best.pools)
        pools += p.costOverTerm;
    CHECK(pools.cents() == plan.best.costOverTerm.cents());

    // The tenants of all blocks share one MIG pool of the type.
    int migPools = 0;
    for (const Pool &pool : plan.best.scenario.pools)
        migPools += pool.partitioning == Partitioning::Mig;
    CHECK(migPools == 1);
    int packed = 0;
    for (const PlannedWorkload &w : plan.best.workloads)
        packed += !w.migProfile.empty();
    CHECK(packed == 14);
    CHECK(plan.packing.find("14 workloads are packed") != std::string::npos);
    const auto mig = std::find_if(plan.best.pools.begin(), plan.best.pools.end(), [](const PlannedPool &p) { return p.mig; });
    REQUIRE(mig != plan.best.pools.end());
    CHECK(mig->workloads.size() == 14);
    const auto migPool = std::find_if(plan.best.scenario.pools.begin(), plan.best.scenario.pools.end(),
                                      [](const Pool &p) { return p.partitioning == Partitioning::Mig; });
    const auto migResult = std::find_if(evaluated.pools.begin(), evaluated.pools.end(),
                                        [&](const PoolResult &p) { return p.name == migPool->name; });
    REQUIRE(migResult != evaluated.pools.end());
    CHECK(mig->committedGpus == migPool->gpus);
    CHECK(migResult->peakNeedGpus == migPool->gpus);  // as the scenario packs all fourteen
    CHECK(migResult->unservedGpuHours == 0);
    CHECK(plan.method.find("($43,800.00 less)") != std::string::npos);  // one GPU-year fewer at $5.00 an hour

    // No dearer than every workload planned alone, which is one point of each block's space.
    Money alone{Decimal(), plan.best.costOverTerm.currency};
    for (const WorkloadProfile &w : request.inputs.workloads) {
        PlanRequest one = request;
        one.inputs.workloads = {w};
        one.options.packMig = false;
        alone += planPortfolio(one).best.costOverTerm;
    }
    CHECK(plan.best.costOverTerm.amount <= alone.amount);

    // Runners-up are whole plans too, dearer than the plan and priced by the scenario.
    REQUIRE_FALSE(plan.runnersUp.empty());
    for (const PlanOption &other : plan.runnersUp) {
        CHECK(other.costOverTerm.amount >= plan.best.costOverTerm.amount);
        CHECK(other.workloads.size() == n);
        CHECK(evaluateScenario(other.scenario, request.inputs).costOverTerm.cents() == other.costOverTerm.cents());
    }
    // The front ends at the plan: at its own cap it is the plan.
    REQUIRE_FALSE(plan.front.empty());
    CHECK(plan.front.back().maxCommittedShare == Approx(1.0));
    CHECK(plan.front.back().costOverTerm.cents() == plan.best.costOverTerm.cents());

    // No plan costs less than the bound, which the blocks' bounds add up to.
    CHECK(plan.lowerBound.amount > Decimal());
    CHECK(plan.lowerBound.amount <= plan.best.costOverTerm.amount);
    CHECK(plan.method.find("No plan costs less than " + plan.lowerBound.display()) != std::string::npos);

    // Cancelled in the blocks as in one search.
    int calls = 0;
    CHECK_THROWS_AS(planPortfolio(request, [&](double) { return ++calls < 5; }), PlanCancelled);
}

TEST_CASE("The plan's lower bound holds under the brute-force optimum and meets a flat load's committed cost",
          "[plan]")
{
    // Every plan the brute force prices costs at least the bound.
    PlanRequest request = planRequest();
    const PlanResult plan = planPortfolio(request);
    CHECK(plan.lowerBound.amount > Decimal());
    CHECK(plan.lowerBound.amount <= plan.best.costOverTerm.amount);
    for (const PlanOption &other : plan.runnersUp)
        CHECK(plan.lowerBound.amount <= other.costOverTerm.amount);

    // A load flat all day on one GPU type is served by committed GPUs alone, every GPU-hour at the
    // cheapest rate: the plan meets the bound (to the cent it is rounded down to).
    request.inputs.workloads = {planWorkload("steady", 40000, WorkloadClass::Batch)};
    request.inputs.workloads[0].diurnal.fill(1.0);
    request.options.gpuIds = {"h100-sxm"};
    request.options.weights = {WeightPrecision::Bf16};
    request.options.tps = {1};
    const PlanResult flat = planPortfolio(request);
    REQUIRE(flat.best.pools.size() == 1);
    CHECK(flat.best.pools[0].elasticGpuHours == 0);
    const int64_t gap = (flat.best.costOverTerm - flat.lowerBound).amount.units() / Decimal::fromDouble(0.01).units();
    CHECK(gap >= 0);
    CHECK(gap <= 1);
}

TEST_CASE("A reserved training job holds whole nodes, and the scenario prices them", "[plan]")
{
    PlanRequest request = planRequest();
    request.options.gpuIds = {"h100-sxm"};
    // Twelve GPUs for most of the term: cheaper reserved, on two 8-GPU nodes.
    request.inputs.trainingJobs = {{"pretrain", 12, 12 * 8000.0, "h100-sxm"}};
    REQUIRE(findGpu(request.inputs.gpus, "h100-sxm")->gpusPerNode == 8);
    const PlanResult plan = planPortfolio(request);
    REQUIRE(plan.best.jobs.size() == 1);
    const PlannedJob &job = plan.best.jobs.front();
    REQUIRE(job.reserved);
    CHECK(job.gpus == 16);
    const auto pool = std::find_if(plan.best.scenario.pools.begin(), plan.best.scenario.pools.end(),
                                   [](const Pool &p) { return p.trainingJobs == std::vector<std::string>{"pretrain"}; });
    REQUIRE(pool != plan.best.scenario.pools.end());
    CHECK(pool->gpus == 16);
    // 16 × the 1-year rate ($5.00) × 8,760 h.
    CHECK(job.costOverTerm.cents() == "700800.00");
    CHECK(evaluateScenario(plan.best.scenario, request.inputs).costOverTerm.cents() == plan.best.costOverTerm.cents());
    CHECK(plan.lowerBound.amount <= plan.best.costOverTerm.amount);
}
