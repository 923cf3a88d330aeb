#include "cost/costsupport.h"
#include "scenariosupport.h"

#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "engine/fleet/scenario.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

bool hasWarning(const ScenarioResult &r, const std::string &code, const std::string &pool = {},
                const std::string &text = {})
{
    return std::any_of(r.warnings.begin(), r.warnings.end(), [&](const ScenarioWarning &w) {
        return w.code == code && (pool.empty() || w.pool == pool)
            && (text.empty() || w.message.find(text) != std::string::npos);
    });
}

std::string warningCodes(const ScenarioResult &r)
{
    std::string codes;
    for (const ScenarioWarning &w : r.warnings)
        codes += w.code + " (" + w.pool + "): " + w.message + "\n";
    return codes;
}

Scenario staticGolden()
{
    Scenario s = scenarioOn("static", "Golden", "g");
    Pool base = pool("base", PoolTier::Owned, PoolSizing::Fixed, 16, {"chat"});
    base.ownedRatePerGpuHour = dec("3.99");
    s.pools = {base};
    return s;
}

Scenario elasticGolden()
{
    Scenario s = scenarioOn("elastic", "Golden", "g");
    s.pools = {pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"chat"})};
    return s;
}

} // namespace

TEST_CASE("The scenario fixture workload sizes to 12 GPUs at peak with 2 planned", "[scenario]")
{
    SizingOverrides overrides;
    overrides.gpuId = "h100-sxm";
    const SizingResult r = sizeInference(scenarioChat(), llama31_8b(), h100Sxm(), overrides, scenarioInputs().serving);
    REQUIRE(r.feasible);
    CHECK(r.replicasMemory == 10);
    CHECK(r.replicasNeeded == 10);
    CHECK(r.gpus == 12);
    CHECK(r.headroomReplicas == 2);
}

TEST_CASE("A static owned pool of 16 GPUs at 3.99 costs the golden 1532.16 a day", "[scenario]")
{
    const ScenarioResult r = evaluateScenario(staticGolden(), scenarioInputs());
    REQUIRE(r.pools.size() == 1);
    const PoolResult &p = r.pools[0];
    CHECK(p.gpus == 16);
    CHECK(p.role == PoolRole::StaticBase);
    CHECK(p.priced);
    CHECK(p.costPerDay == usd("1532.16"));
    CHECK(p.costPerMonth == usd("45964.80"));
    // Over the 12-month term from 2025-01-01: 16 × 3.99 × 8,760 h (not 12 × 30 days).
    CHECK(p.costOverTerm == usd("559238.40"));
    CHECK(r.termHours == 8760);
    CHECK(r.startDate == "2025-01-01");
    CHECK(r.endDate == "2026-01-01");
    CHECK_FALSE(p.commitment.has_value()); // owned: no commitment
    // 240 of 16 × 24 = 384 GPU-hours used each day.
    CHECK(p.gpuHoursUsed == Decimal::fromInt(240 * 365));
    CHECK(p.gpuHoursProvisioned == Decimal::fromInt(16 * 8760));
    CHECK(p.utilization == Approx(0.625));
    CHECK(p.peakNeedGpus == 12);
    // 16 − 12 used at peak + 2 planned.
    CHECK(p.spareAtPeak == 4);
    CHECK(p.plannedHeadroomGpus == 2);
    CHECK(p.headroomAtPeak == 6);
    CHECK(p.hourlyUsed.size() == 8760);
    CHECK(p.hourlyUsed[0] == 6);
    CHECK(p.hourlyUsed[8] == 12);
    CHECK(r.costPerDay == usd("1532.16"));
    CHECK(r.costPerMonth == usd("45964.80"));
    CHECK(r.staticGpus == 16);
    CHECK(r.elasticPeakGpus == 0);
    REQUIRE(r.costByTier.size() == 1);
    CHECK(r.costByTier[0].tier == PoolTier::Owned);
    CHECK(r.costByTier[0].perMonth == usd("45964.80"));
    CHECK(r.warnings.empty());
}

TEST_CASE("An elastic fleet averaging 10 GPUs at 3.99 costs the golden 957.60 a day", "[scenario]")
{
    const ScenarioResult r = evaluateScenario(elasticGolden(), scenarioInputs());
    const PoolResult &p = r.pools.at(0);
    CHECK(p.role == PoolRole::ElasticTop);
    CHECK(p.autoSized);
    CHECK(p.gpus == 12);
    CHECK(p.gpuHoursUsed == Decimal::fromInt(240 * 365));
    CHECK(p.utilization == Approx(1.0));
    CHECK(p.costPerDay == usd("957.60"));
    CHECK(p.costPerMonth == usd("28728.00"));
    // An elastic pool grows to its peak: nothing spare, the 2 planned GPUs are the headroom.
    CHECK(p.spareAtPeak == 0);
    CHECK(p.plannedHeadroomGpus == 2);
    CHECK(p.headroomAtPeak == 2);
    CHECK(r.costPerDay == usd("957.60"));
    CHECK(r.elasticPeakGpus == 12);
    INFO(warningCodes(r));
    CHECK(r.warnings.empty());
}

TEST_CASE("Comparing static and elastic gives the golden saving as deltas", "[scenario]")
{
    const ScenarioInputs in = scenarioInputs();
    const ScenarioComparison c =
        compareScenarios({evaluateScenario(staticGolden(), in), evaluateScenario(elasticGolden(), in)});
    CHECK(c.scenarios == std::vector<std::string>{"static", "elastic"});
    const ComparisonMetric *day = c.find("cost_per_day");
    REQUIRE(day);
    CHECK(day->unit == "money");
    CHECK(day->currency == "USD");
    CHECK(day->values == std::vector<Decimal>{dec("1532.16"), dec("957.6")});
    CHECK(day->deltas == std::vector<Decimal>{dec("0"), dec("-574.56")});
    CHECK(c.find("cost_per_month")->deltas[1] == dec("-17236.80"));
    // 16 × 3.99 × 8,760 = 559,238.40 against 957.60 × 365 = 349,524.00.
    CHECK(c.find("cost_over_term")->deltas[1] == dec("-209714.40"));
    // Pools by name: each scenario has the other's at 0.
    CHECK(c.find("gpus.base")->values == std::vector<Decimal>{dec("16"), dec("0")});
    CHECK(c.find("gpus.flex")->values == std::vector<Decimal>{dec("0"), dec("12")});
    CHECK(c.find("static_gpus")->deltas[1] == dec("-16"));
    CHECK(c.find("elastic_peak_gpus")->deltas[1] == dec("12"));
    CHECK(c.find("cost_per_month.owned")->values[1] == dec("0"));
    CHECK(c.find("cost_per_month.on_demand")->values[1] == dec("28728"));
    CHECK(c.find("utilization")->values == std::vector<Decimal>{dec("0.625"), dec("1")});
    CHECK(c.find("warnings")->values[0] == dec("0"));
}

TEST_CASE("Comparison needs 2 to 4 scenarios in one currency", "[scenario]")
{
    const ScenarioResult r = evaluateScenario(staticGolden(), scenarioInputs());
    CHECK_THROWS_AS(compareScenarios({r}), InputError);
    CHECK_THROWS_AS(compareScenarios({r, r, r, r, r}), InputError);
    ScenarioResult euro = r;
    euro.costPerDay.currency = "EUR";
    try {
        compareScenarios({r, euro});
        FAIL("mixed currencies compared");
    } catch (const InputError &e) {
        CHECK(e.field() == "currency");
    }
    CHECK(compareScenarios({r, r, r, r}).scenarios.size() == 4);
}

TEST_CASE("Core and flex reserves at the critical fractile and bursts to on-demand", "[scenario]")
{
    // Need: 6 GPUs for 8 h, 12 for 16 h. Reserved 5.00 vs on-demand 6.88: fractile 0.7267;
    // P(need > 6) = 16/24 = 0.667 ≤ 0.7267, P(need > 5) = 1 → reserve 6.
    // Static: 6 × 5.00 × 24 = 720.00/day. Elastic: 6 GPUs × 16 h = 96 GPU-h × 6.88 = 660.48/day.
    Scenario s = scenarioOn("core-and-flex", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Auto, 0, {"chat"}),
               pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"chat"})};
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    INFO(warningCodes(r));
    const PoolResult &core = r.pools.at(0);
    const PoolResult &flex = r.pools.at(1);
    CHECK(core.gpus == 6);
    REQUIRE(core.reserveAnalysed.has_value());
    CHECK(*core.reserveAnalysed == 6);
    CHECK(core.criticalFractile == Approx(5.00 / 6.88));
    CHECK(core.utilization == Approx(1.0));
    CHECK(core.costPerDay == usd("720.00"));
    CHECK(core.rateCardKey == "Test/r1/h100-sxm@2026-01-01");
    CHECK(flex.gpus == 6);
    CHECK(flex.gpuHoursUsed == Decimal::fromInt(96 * 365));
    CHECK(flex.hourlyUsed[0] == 0);
    CHECK(flex.hourlyUsed[9] == 6);
    CHECK(flex.costPerDay == usd("660.48"));
    CHECK(r.costPerDay == usd("1380.48"));
    CHECK(r.costPerMonth == usd("41414.40"));
    // 6 × 5.00 × 8,760 = 262,800.00 plus 660.48 × 365 = 241,075.20.
    CHECK(r.costOverTerm == usd("503875.20"));
    REQUIRE(core.commitment.has_value());
    CHECK(core.commitment->total == usd("262800.00"));
    CHECK(core.commitment->coversTerm);
    // The peak overflows into flex, so the planned headroom is counted there.
    CHECK(core.headroomAtPeak == 0);
    CHECK(flex.headroomAtPeak == 2);
    REQUIRE(r.costByTier.size() == 2);
    CHECK(r.costByTier[0].tier == PoolTier::Reserved1y);
    CHECK(r.costByTier[1].tier == PoolTier::OnDemand);
    CHECK(r.costByTier[1].perMonth == usd("19814.40"));
    CHECK(r.warnings.empty());

    SECTION("P50 and P75 reserve the median and upper quartile: 12 GPUs, no overflow")
    {
        s.policy.reserveAt = ReservePolicy::P50;
        const ScenarioResult p50 = evaluateScenario(s, scenarioInputs());
        CHECK(p50.pools[0].gpus == 12);
        CHECK(p50.pools[1].gpus == 0);
        CHECK(p50.costPerDay == usd("1440.00"));
        s.policy.reserveAt = ReservePolicy::P75;
        CHECK(evaluateScenario(s, scenarioInputs()).pools[0].gpus == 12);
    }
    SECTION("A fixed reserve under the fixed policy serves the base and overflows the rest")
    {
        s.policy.reserveAt = ReservePolicy::Fixed;
        s.pools[0].sizing = PoolSizing::Fixed;
        s.pools[0].gpus = 10;
        const ScenarioResult fixed = evaluateScenario(s, scenarioInputs());
        // Elastic: 2 GPUs for 16 h = 32 GPU-h × 6.88 = 220.16; static 10 × 5 × 24 = 1200.
        CHECK(fixed.pools[1].gpus == 2);
        CHECK(fixed.costPerDay == usd("1420.16"));
    }
    SECTION("Spot bills used GPU-hours with the interruption overhead")
    {
        s.pools[1].tier = PoolTier::Spot;
        const ScenarioResult spot = evaluateScenario(s, scenarioInputs());
        // Spot 2.50 × 1.1 = 2.75 < reserved 5.00: commitment never pays, reserve 0.
        CHECK(spot.pools[0].gpus == 0);
        // 240 GPU-h × 2.75 = 660.00 a day.
        CHECK(spot.pools[1].costPerDay == usd("660.00"));
        CHECK(spot.pools[1].ratePerGpuHour == usd("2.75"));
    }
    SECTION("An as-of date picks the card in force then")
    {
        s.asOfDate = "2025-06-01";
        const ScenarioResult old = evaluateScenario(s, scenarioInputs());
        CHECK(old.pools[0].rateCardKey == "Test/r1/h100-sxm@2025-01-01");
        CHECK(old.pools[1].ratePerGpuHour == usd("9.00"));
    }
}

TEST_CASE("A workload on a different elastic GPU converts its overflow by the peak ratio", "[scenario]")
{
    Scenario s = scenarioOn("mixed", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Fixed, 6, {"chat"}),
               pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"chat"}, "a100-sxm-80gb")};
    ScenarioInputs in = scenarioInputs();
    in.rateCards.push_back(card("Test", "r1", "a100-sxm-80gb", "2026-01-01", "3.00", "2.00", "1.50", "1.00", 4));
    const ScenarioResult r = evaluateScenario(s, in);
    INFO(warningCodes(r));
    SizingOverrides overrides;
    overrides.gpuId = "a100-sxm-80gb";
    const int64_t onA100 = sizeInference(scenarioChat(), llama31_8b(), a100(), overrides, in.serving).gpus;
    // The measurement does not carry over to the A100; the overflow is 6 of 12 H100s = half of
    // the workload's peak on the A100.
    const auto expected = int64_t(std::ceil(6.0 * double(onA100) / 12.0 - 1e-9));
    CHECK(r.pools[1].gpus == expected);
    CHECK(r.pools[1].hourlyUsed[0] == 0);
}

TEST_CASE("Shared pools pack workloads as MIG tenants", "[scenario]")
{
    ScenarioInputs in = scenarioInputs();
    in.workloads.clear();
    std::vector<std::string> names;
    for (int i = 0; i < 14; ++i) {
        names.push_back("tenant-" + std::to_string(i));
        in.workloads.push_back(internalTenant(names.back()));
    }
    Scenario s = scenarioOn("tenants", "Test", "r1");
    Pool mig = pool("mig", PoolTier::Reserved3y, PoolSizing::Auto, 0, names);
    mig.partitioning = Partitioning::Mig;
    s.pools = {mig};

    SECTION("auto packing: 14 tenants of one 1g.10gb slice each fill 2 GPUs")
    {
        const ScenarioResult r = evaluateScenario(s, in);
        INFO(warningCodes(r));
        const PoolResult &p = r.pools[0];
        CHECK(p.gpus == 2);
        CHECK(p.migLayouts.size() == 2);
        CHECK(p.workloads.size() == 14);
        CHECK(p.utilization == Approx(1.0));
        // 2 × 4.00 × 24 = 192.00 a day.
        CHECK(p.costPerDay == usd("192.00"));
        // A 2-GPU fleet carrying MIG.
        CHECK(hasWarning(r, "small_fleet_sharing", "mig", "under the threshold of ~8"));
    }
    SECTION("an explicit layout of 7 × 1g.10gb per GPU, 14 GPUs fixed: 98 slots, 14 used")
    {
        s.pools[0].migProfiles = std::vector<std::string>(7, "1g.10gb");
        s.pools[0].sizing = PoolSizing::Fixed;
        s.pools[0].gpus = 14;
        const ScenarioResult r = evaluateScenario(s, in);
        INFO(warningCodes(r));
        CHECK(r.pools[0].gpus == 14);
        REQUIRE(r.pools[0].migLayouts.size() == 2);
        CHECK(r.pools[0].migLayouts[0].size() == 7);
        CHECK(r.pools[0].migLayouts[0][0].profile == "1g.10gb");
        CHECK_FALSE(r.pools[0].migLayouts[0][0].tenant.empty());
        CHECK(r.pools[0].utilization == Approx(2.0 / 14.0));
        CHECK_FALSE(hasWarning(r, "small_fleet_sharing"));
        CHECK_FALSE(hasWarning(r, "oom_at_mig_boundary"));
    }
    SECTION("a bf16 8B model outgrows a 1g.10gb slice: OOM at the MIG boundary")
    {
        WorkloadProfile big = internalTenant("big");
        big.weights = WeightPrecision::Bf16;
        in.workloads.push_back(big);
        s.pools[0].workloads.push_back("big");
        s.pools[0].migProfiles = std::vector<std::string>(7, "1g.10gb");
        const ScenarioResult r = evaluateScenario(s, in);
        CHECK(hasWarning(r, "oom_at_mig_boundary", "mig", "\"big\""));
        CHECK(r.pools[0].gpus == 3);
    }
    SECTION("a layout that cannot be built is named, and packing takes over")
    {
        s.pools[0].migProfiles = {"7g.80gb", "1g.10gb"};
        const ScenarioResult r = evaluateScenario(s, in);
        CHECK(hasWarning(r, "mig_layout_invalid", "mig"));
        CHECK(r.pools[0].gpus == 2);
    }
    SECTION("a fixed MIG pool too small for its tenants is short of slots")
    {
        s.pools[0].sizing = PoolSizing::Fixed;
        s.pools[0].gpus = 1;
        const ScenarioResult r = evaluateScenario(s, in);
        CHECK(hasWarning(r, "mig_slots_short", "mig", "need 2"));
    }
    SECTION("time-slicing packs by memory")
    {
        s.pools[0].partitioning = Partitioning::TimeSlice;
        const ScenarioResult r = evaluateScenario(s, in);
        const Tenant t = tenantForWorkload(in.workloads[0], llama31_8b());
        const double gpuGiB = double(h100Sxm().memoryBytes) / 1073741824.0;
        CHECK(r.pools[0].gpus == int64_t(std::ceil(14 * t.memoryGiB / gpuGiB - 1e-12)));
    }
}

TEST_CASE("When-not-to-pack advice is raised for shared and elastic pools", "[scenario]")
{
    ScenarioInputs in = scenarioInputs();
    WorkloadProfile regulated = internalTenant("ledger");
    regulated.isolation = Isolation::Regulated;
    WorkloadProfile flagship = internalTenant("assistant");
    flagship.workloadClass = WorkloadClass::FlagshipInteractive;
    WorkloadProfile flat = scenarioChat("flat");
    flat.diurnal = diurnalShape(DiurnalPreset::Flat);
    in.workloads = {regulated, flagship, flat};
    in.trainingJobs = {{"finetune", 8, 800, "h100-sxm"}};
    Scenario s = scenarioOn("advice", "Test", "r1");
    Pool shared = pool("shared", PoolTier::Reserved1y, PoolSizing::Fixed, 16, {"ledger", "assistant"});
    shared.partitioning = Partitioning::Mps;
    shared.trainingJobs = {"finetune"};
    s.pools = {shared, pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"flat"})};
    const ScenarioResult r = evaluateScenario(s, in);
    INFO(warningCodes(r));
    CHECK(hasWarning(r, "when_not_to_pack", "shared", "\"ledger\": MIG or nothing"));
    CHECK(hasWarning(r, "when_not_to_pack", "shared", "\"assistant\": give it exclusive GPUs"));
    CHECK(hasWarning(r, "when_not_to_pack", "shared", "\"finetune\": never pack it"));
    CHECK(hasWarning(r, "when_not_to_pack", "flex", "\"flat\": skip elasticity"));
    // On MIG the regulated tenant is fine.
    s.pools[0].partitioning = Partitioning::Mig;
    CHECK_FALSE(hasWarning(evaluateScenario(s, in), "when_not_to_pack", "shared", "MIG or nothing"));
}

TEST_CASE("Training jobs run on their GPUs until their GPU-hours are done", "[scenario]")
{
    ScenarioInputs in = scenarioInputs();
    in.workloads.clear();
    in.trainingJobs = {{"pretrain", 8, 8 * 100.5, "h100-sxm"}};
    Scenario s = scenarioOn("training", "Test", "r1");
    Pool train = pool("train", PoolTier::Reserved1y, PoolSizing::Auto, 0, {});
    train.trainingJobs = {"pretrain"};
    s.pools = {train};
    s.policy.reserveAt = ReservePolicy::CriticalFractile;
    const ScenarioResult r = evaluateScenario(s, in);
    INFO(warningCodes(r));
    // No elastic pool behind it: sized for the peak, 8 GPUs; 101 hours at 8 GPUs used.
    CHECK(r.pools[0].gpus == 8);
    CHECK(r.pools[0].gpuHoursUsed == Decimal::fromInt(8 * 101));
    CHECK(r.pools[0].hourlyUsed[100] == 8);
    CHECK(r.pools[0].hourlyUsed[101] == 0);
    REQUIRE(r.pools[0].workloads.size() == 1);
    CHECK(r.pools[0].workloads[0].training);
}

TEST_CASE("Everything a scenario names but that is gone is warned and the rest still evaluates", "[scenario]")
{
    Scenario s = staticGolden();
    s.pools[0].workloads.push_back("deleted-workload");
    s.pools[0].trainingJobs.push_back("deleted-job");
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    CHECK(hasWarning(r, "missing_workload", "base", "\"deleted-workload\""));
    CHECK(hasWarning(r, "missing_training_job", "base", "\"deleted-job\""));
    CHECK(r.costPerDay == usd("1532.16"));

    SECTION("a deleted rate card leaves unpriced pools, said so")
    {
        Scenario gone = scenarioOn("gone", "Deleted", "nowhere");
        gone.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Fixed, 4, {"chat"})};
        const ScenarioResult g = evaluateScenario(gone, scenarioInputs());
        CHECK(hasWarning(g, "missing_rate_card", "", "Deleted nowhere"));
        CHECK_FALSE(g.pools[0].priced);
        CHECK(g.pools[0].costPerDay.amount.isZero());
        CHECK(g.pools[0].gpus == 4);
    }
    SECTION("a model gone from the catalog")
    {
        ScenarioInputs in = scenarioInputs();
        in.models.clear();
        const ScenarioResult m = evaluateScenario(staticGolden(), in);
        CHECK(hasWarning(m, "missing_model", "base", "llama-3.1-8b"));
        CHECK(m.pools[0].gpuHoursUsed.isZero());
    }
    SECTION("a GPU gone from the catalog")
    {
        ScenarioInputs in = scenarioInputs();
        in.gpus = {a100()};
        CHECK(hasWarning(evaluateScenario(staticGolden(), in), "missing_gpu", "base", "h100-sxm"));
    }
}

TEST_CASE("A pool GPU the rate card does not price is warned by pool and GPU", "[scenario]")
{
    Scenario s = scenarioOn("unpriced", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Fixed, 4, {"chat"}),
               pool("old", PoolTier::Reserved1y, PoolSizing::Fixed, 4, {}, "a100-sxm-80gb")};
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    CHECK(hasWarning(r, "unpriced_gpu", "old", "does not price GPU \"a100-sxm-80gb\""));
    CHECK(r.pools[1].gpus == 4);
    CHECK_FALSE(r.pools[1].priced);
    CHECK(r.pools[0].priced);
    // 4 × 5.00 × 24 = 480.00: only the priced pool.
    CHECK(r.costPerDay == usd("480.00"));
}

TEST_CASE("Tiers the card does not offer and owned pools without a rate are warned", "[scenario]")
{
    Scenario s = scenarioOn("tiers", "Golden", "g");
    s.pools = {pool("reserved", PoolTier::Reserved3y, PoolSizing::Fixed, 4, {"chat"})};
    ScenarioResult r = evaluateScenario(s, scenarioInputs());
    CHECK(hasWarning(r, "tier_not_offered", "reserved", "reserved_3y"));
    CHECK_FALSE(r.pools[0].priced);

    Scenario owned = scenarioOn("owned", "Test", "r1");
    owned.pools = {pool("own", PoolTier::Owned, PoolSizing::Fixed, 4, {"chat"})};
    r = evaluateScenario(owned, scenarioInputs());
    CHECK(hasWarning(r, "owned_rate_proxy", "own", "4.00"));
    // 4 × 4.00 × 24 = 384.00.
    CHECK(r.costPerDay == usd("384.00"));
}

TEST_CASE("Reservation lead time later than the need date is warned", "[scenario]")
{
    Scenario s = scenarioOn("lead", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Fixed, 12, {"chat"})};
    s.asOfDate = "2026-06-01";
    s.needDate = "2026-07-01";
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    // 12 weeks from 2026-06-01 is 2026-08-24.
    CHECK(hasWarning(r, "reservation_lead_time", "core", "2026-08-24"));
    s.needDate = "2026-09-01";
    CHECK_FALSE(hasWarning(evaluateScenario(s, scenarioInputs()), "reservation_lead_time"));
}

TEST_CASE("Demand with nowhere to go is unserved and warned", "[scenario]")
{
    Scenario s = scenarioOn("short", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Fixed, 10, {"chat"})};
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    // 2 GPUs short for 16 hours a day over 365 days.
    CHECK(r.pools[0].unservedGpuHours == 2 * 16 * 365);
    CHECK(hasWarning(r, "unserved_demand", "core", "11680 GPU-hours"));

    SECTION("an elastic cap leaves the rest unserved too")
    {
        Scenario capped = scenarioOn("capped", "Test", "r1");
        capped.pools = {pool("flex", PoolTier::OnDemand, PoolSizing::Fixed, 10, {"chat"})};
        const ScenarioResult c = evaluateScenario(capped, scenarioInputs());
        CHECK(c.pools[0].gpus == 10);
        CHECK(c.pools[0].unservedGpuHours == 2 * 16 * 365);
        CHECK(hasWarning(c, "unserved_demand", "flex", "cap of 10"));
    }
}

TEST_CASE("A workload listed in two static pools is served by the first", "[scenario]")
{
    Scenario s = scenarioOn("twice", "Test", "r1");
    s.pools = {pool("a", PoolTier::Reserved1y, PoolSizing::Fixed, 12, {"chat"}),
               pool("b", PoolTier::Reserved1y, PoolSizing::Fixed, 4, {"chat"})};
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    CHECK(hasWarning(r, "workload_in_several_pools", "b", "only the first"));
    CHECK(r.pools[1].gpuHoursUsed.isZero());
}

TEST_CASE("Infeasible workloads are warned with the sizing's reason", "[scenario]")
{
    ScenarioInputs in = scenarioInputs();
    WorkloadProfile huge = scenarioChat("huge");
    huge.modelId = "llama-3.1-70b";
    huge.measuredMaxStreams.reset();
    huge.measuredGoodputTokensPerS.reset();
    huge.goodputSource.clear();
    in.workloads.push_back(huge);
    in.models.push_back(llama31_70b());
    Scenario s = scenarioOn("huge", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Fixed, 4, {"huge"})};
    const ScenarioResult r = evaluateScenario(s, in);
    CHECK(hasWarning(r, "infeasible_workload", "core", "\"huge\""));
}

TEST_CASE("Scenario validation names the JSON field", "[scenario]")
{
    Scenario s = staticGolden();
    CHECK(validate(s).empty());
    const auto fieldOf = [](const Scenario &x) {
        const auto problems = validate(x);
        return problems.empty() ? std::string() : problems.front().field;
    };
    Scenario bad = s;
    bad.name.clear();
    CHECK(fieldOf(bad) == "name");
    bad = s;
    bad.horizonMonths = 0;
    CHECK(fieldOf(bad) == "horizon_months");
    bad = s;
    bad.pools.push_back(bad.pools[0]);
    CHECK(fieldOf(bad) == "pools[1].name");
    bad = s;
    bad.pools[0].gpus = 0;
    CHECK(fieldOf(bad) == "pools[0].gpus");
    bad = s;
    bad.pools[0].tier = PoolTier::Spot;
    bad.pools[0].ownedRatePerGpuHour.reset();
    bad.pools[0].partitioning = Partitioning::Mig;
    CHECK(fieldOf(bad) == "pools[0].partitioning");
    bad = s;
    bad.pools[0].migProfiles = {"1g.10gb"};
    CHECK(fieldOf(bad) == "pools[0].mig_layout");
    bad = s;
    bad.pools[0].tier = PoolTier::Reserved1y;
    bad.pools[0].ownedRatePerGpuHour.reset();
    bad.pools[0].sizing = PoolSizing::Auto;
    bad.policy.reserveAt = ReservePolicy::Fixed;
    CHECK(fieldOf(bad) == "pools[0].sizing");
    bad = s;
    bad.pools[0].tier = PoolTier::Reserved1y;
    CHECK(fieldOf(bad) == "pools[0].owned_rate_per_gpu_hour");
    bad = s;
    bad.asOfDate = "2026-02-30";
    CHECK(fieldOf(bad) == "rate_card.as_of");
    bad = s;
    bad.needDate = "soon";
    CHECK(fieldOf(bad) == "rate_card.need_date");
    bad = s;
    bad.spotOverhead = dec("-0.1");
    CHECK(fieldOf(bad) == "spot_overhead");
    bad = s;
    bad.autoscale.hpaTolerance = 1;
    CHECK(fieldOf(bad) == "autoscale.hpa_tolerance");
    bad = s;
    bad.autoscale.cooldownSeconds = -1;
    CHECK(fieldOf(bad) == "autoscale.cooldown_seconds");
    bad = s;
    bad.pools[0].workloads.push_back("chat");
    CHECK(fieldOf(bad) == "pools[0].workloads");
    try {
        bad = s;
        bad.horizonMonths = 500;
        evaluateScenario(bad, scenarioInputs());
        FAIL("an invalid scenario evaluated");
    } catch (const InputError &e) {
        CHECK(e.field() == "horizon_months");
    }
}

TEST_CASE("Scenario enums read and write their JSON names", "[scenario]")
{
    for (PoolTier t : allPoolTiers())
        CHECK(parsePoolTier(toString(t)) == t);
    for (Partitioning p : allPartitionings())
        CHECK(parsePartitioning(toString(p)) == p);
    for (ReservePolicy p : allReservePolicies())
        CHECK(parseReservePolicy(toString(p)) == p);
    CHECK(parsePoolSizing("auto") == PoolSizing::Auto);
    CHECK(toString(PoolTier::Reserved1y) == "reserved_1y");
    CHECK(toString(Partitioning::TimeSlice) == "time_slice");
    CHECK_FALSE(parsePoolTier("reserved").has_value());
    CHECK(roleOf(PoolTier::Spot) == PoolRole::ElasticTop);
    CHECK(roleOf(PoolTier::Owned) == PoolRole::StaticBase);
}

TEST_CASE("A MIG pool on a GPU without a profile table is sized as time-slicing, warned", "[scenario]")
{
    ScenarioInputs in = scenarioInputs();
    in.workloads = {internalTenant("a"), internalTenant("b")};
    Scenario s = scenarioOn("no-mig", "Test", "r1");
    Pool mig = pool("mig", PoolTier::Reserved1y, PoolSizing::Auto, 0, {"a", "b"}, "a100-sxm-80gb");
    mig.partitioning = Partitioning::Mig;
    s.pools = {mig};
    const ScenarioResult r = evaluateScenario(s, in);
    CHECK(hasWarning(r, "no_mig_profiles", "mig", "a100-sxm-80gb has no MIG profile table"));
    // Two 4.6 GiB tenants share one 80 GB GPU by memory.
    CHECK(r.pools[0].gpus == 1);
    CHECK(r.pools[0].migLayouts.empty());
}

TEST_CASE("The demo's reserved core over 12 calendar months: 240 x 3.8192 x 8,760 h", "[scenario][calendar]")
{
    ScenarioInputs in = scenarioInputs();
    in.rateCards.push_back(card("CoreWeave", "US-EAST-04", "h100-sxm", "2025-06-01", "6.16", "3.8192", "2.772", "2.46", 12));
    Scenario s = scenarioOn("core", "CoreWeave", "US-EAST-04");
    s.asOfDate = "2025-06-01";
    s.startDate.clear(); // default: the first of the month after as_of, 2025-07-01
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Fixed, 240, {"chat"})};
    const ScenarioResult r = evaluateScenario(s, in);
    CHECK(r.startDate == "2025-07-01");
    CHECK(r.termHours == 8760);
    const PoolResult &core = r.pools.at(0);
    CHECK(core.ratePerGpuHour.displayRate() == "$3.8192");
    CHECK(core.costPerDay == usd("21998.592"));        // 240 × 3.8192 × 24
    CHECK(core.costPerMonth.cents() == "659957.76");   // × 720 h, a 30-day month
    CHECK(core.costOverTerm == usd("8029486.08"));     // × 8,760 h
    CHECK(r.costOverTerm == usd("8029486.08"));
    CHECK(core.commitment->total == usd("8029486.08"));

    // The same pool over 2028, a leap year: 8,784 h.
    s.startDate = "2028-01-01";
    CHECK(evaluateScenario(s, in).costOverTerm == usd("8051484.672"));
}

TEST_CASE("A 3-year reservation over a 1-year horizon shows the whole obligation and warns", "[scenario][commitment]")
{
    // AWS-like card: 3-year 4.00 with half paid upfront.
    ScenarioInputs in = scenarioInputs();
    RateCard three = card("Three", "r", "h100-sxm", "2025-01-01", "6.88", "5.00", "4.00", "0", 0);
    three.reserved3yUpfront = dec("0.5");
    in.rateCards.push_back(three);
    Scenario s = scenarioOn("three", "Three", "r");
    s.pools = {pool("base", PoolTier::Reserved3y, PoolSizing::Fixed, 10, {"chat"})};
    const ScenarioResult r = evaluateScenario(s, in);
    const PoolResult &base = r.pools.at(0);
    // The horizon: 10 × 4.00 × 8,760 = 350,400.00.
    CHECK(base.costOverTerm == usd("350400.00"));
    REQUIRE(base.commitment.has_value());
    const CommitmentObligation &c = *base.commitment;
    // The obligation: 2025-01-01 to 2028-01-01 = 1,095 days = 26,280 h; 10 × 4.00 × 26,280.
    CHECK(c.termMonths == 36);
    CHECK(c.endDate == "2028-01-01");
    CHECK(c.termHours == 26280);
    CHECK(c.total == usd("1051200.00"));
    CHECK(c.upfront == usd("525600.00"));
    CHECK(c.recurring == usd("525600.00"));
    CHECK(c.inHorizon == usd("350400.00"));
    CHECK(c.shareConsumed == Approx(8760.0 / 26280.0));
    CHECK_FALSE(c.coversTerm);
    CHECK(r.commitmentsOwed == usd("1051200.00"));
    INFO(warningCodes(r));
    CHECK(hasWarning(r, "commitment_beyond_horizon", "base", "$1,051,200.00"));
    CHECK(hasWarning(r, "commitment_beyond_horizon", "base", "forecast hand-off"));

    // Over the whole 36 months the series covers the term: no warning.
    s.horizonMonths = 36;
    const ScenarioResult whole = evaluateScenario(s, in);
    CHECK(whole.pools.at(0).commitment->coversTerm);
    CHECK(whole.pools.at(0).costOverTerm == usd("1051200.00"));
    CHECK_FALSE(hasWarning(whole, "commitment_beyond_horizon"));
}

TEST_CASE("A bad start date is a field error", "[scenario][calendar]")
{
    Scenario s = staticGolden();
    s.startDate = "2025-02-30";
    const auto problems = validate(s);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "start_date");
    CHECK_THROWS_AS(evaluateScenario(s, scenarioInputs()), InputError);
}

TEST_CASE("Pools hold whole replicas: a 2-GPU replica is never half reserved or half burst", "[scenario]")
{
    // "chat" at TP 2: 12 replicas of 2 H100s at peak. At night 35 % of the peak: 8.4 GPUs, which is
    // 4.2 replicas, so 5 replicas = 10 GPUs (not 9 GPUs, four and a half replicas).
    ScenarioInputs in = scenarioInputs();
    in.workloads[0].tp = 2;
    for (int h = 0; h < 24; ++h)
        in.workloads[0].diurnal[size_t(h)] = h < 8 ? 0.35 : (h < 12 ? 0.75 : 1.0);
    Scenario s = scenarioOn("replicas", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Auto, 0, {"chat"}),
               pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"chat"})};
    const ScenarioResult r = evaluateScenario(s, in);
    INFO(warningCodes(r));
    const PoolResult &core = r.pools.at(0);
    const PoolResult &flex = r.pools.at(1);
    REQUIRE(core.workloads.size() == 1);
    CHECK(core.workloads[0].gpusPerReplica == 2);
    CHECK(core.peakNeedGpus == 24);
    CHECK(core.gpus % 2 == 0);
    for (size_t t = 0; t < 24; ++t) {
        INFO("hour " << t);
        CHECK(core.hourlyUsed[t] % 2 == 0);
        CHECK(flex.hourlyUsed[t] % 2 == 0);
        CHECK(core.hourlyUsed[t] + flex.hourlyUsed[t] == (t < 8 ? 10 : t < 12 ? 18 : 24));
    }
    // Reserved 5.00 against on-demand 6.88: fractile 0.7267 over replicas 5 (8 h), 9 (4 h), 12 (12 h):
    // P(need > 9) = 0.5 ≤ 0.7267, P(need > 5) = 0.667 ≤ 0.7267, so 5 replicas = 10 GPUs reserved.
    CHECK(core.gpus == 10);
    CHECK(flex.gpus == 14);
    // Elastic GPU-hours a day: 8 GPUs × 4 h + 14 GPUs × 12 h = 200, at 6.88 = 1,376.00.
    CHECK(flex.costPerDay == usd("1376.00"));

    SECTION("A fixed count that is not whole replicas leaves a GPU idle and says so")
    {
        s.pools[0].sizing = PoolSizing::Fixed;
        s.pools[0].gpus = 11;
        s.policy.reserveAt = ReservePolicy::Fixed;
        const ScenarioResult fixed = evaluateScenario(s, in);
        CHECK(hasWarning(fixed, "partial_replica", "core"));
        CHECK(*std::max_element(fixed.pools[0].hourlyUsed.begin(), fixed.pools[0].hourlyUsed.end()) == 10);
        CHECK(fixed.pools[1].hourlyUsed[12] == 14);
    }
}

TEST_CASE("A replica kept for a dozen users a day is allocated, not busy: utilization says both and warns",
          "[scenario]")
{
    // 12 users a day on a 2-GPU replica: every hour needs one whole replica, so every GPU-hour
    // paid for runs one (100 % utilization), but the traffic keeps it a tiny share busy.
    ScenarioInputs in = scenarioInputs();
    in.serving.residency = KvResidency::Request;
    in.workloads[0].tp = 2;
    in.workloads[0].dailyActiveUsers = 12;
    Scenario s = scenarioOn("tiny", "Test", "r1");
    s.pools = {pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"chat"})};
    const ScenarioResult r = evaluateScenario(s, in);
    INFO(warningCodes(r));
    const PoolResult &flex = r.pools.at(0);
    // One replica of 2 GPUs and its planned headroom replica, whole all day.
    const SizingResult sized = sizeInference(in.workloads[0], in.models[0], in.gpus[0], {}, in.serving);
    REQUIRE(sized.gpusPerReplica == 2);
    REQUIRE(flex.gpus == sized.gpus);
    CHECK(r.utilization == Approx(1.0));
    // Busy: the sizing's peak utilization following the day's shape, over the GPU-hours run.
    const std::array<double, 24> hourly = hourlyGpuNeed(in.workloads[0], double(sized.gpus));
    double busyDay = 0;
    double runDay = 0;
    for (size_t h = 0; h < 24; ++h) {
        busyDay += hourly[h] * sized.peakUtilization;
        runDay += double(flex.hourlyUsed[h]);
    }
    CHECK(flex.busyUtilization == Approx(busyDay / runDay).epsilon(1e-9));
    CHECK(r.busyUtilization == Approx(flex.busyUtilization));
    CHECK(r.busyUtilization < 0.01);
    CHECK(hasWarning(r, "idle_replicas", "flex"));

    SECTION("a pool its traffic fills is busy near its utilization and raises no warning")
    {
        const ScenarioResult full = evaluateScenario(s, scenarioInputs());
        CHECK(full.busyUtilization > 0.5);
        CHECK(full.busyUtilization <= full.utilization + 1e-12);
        CHECK_FALSE(hasWarning(full, "idle_replicas"));
    }
}

TEST_CASE("A training job's overflow arrives on the elastic pool as whole jobs, with no planned headroom", "[scenario]")
{
    ScenarioInputs in = scenarioInputs();
    in.workloads.clear();
    in.trainingJobs = {{"pretrain", 8, 8 * 100.5, "h100-sxm"}};
    Scenario s = scenarioOn("training overflow", "Test", "r1");
    Pool train = pool("train", PoolTier::Reserved1y, PoolSizing::Fixed, 4, {});
    train.trainingJobs = {"pretrain"};
    Pool burst = pool("burst", PoolTier::OnDemand, PoolSizing::Auto, 0, {});
    burst.trainingJobs = {"pretrain"};
    s.pools = {train, burst};
    s.policy.reserveAt = ReservePolicy::Fixed;
    const ScenarioResult r = evaluateScenario(s, in);
    INFO(warningCodes(r));
    const PoolResult &elastic = r.pools.at(1);
    REQUIRE(elastic.workloads.size() == 1);
    CHECK(elastic.workloads[0].name == "pretrain");
    CHECK(elastic.workloads[0].training);
    CHECK(elastic.workloads[0].gpusPerReplica == 8);
    CHECK(elastic.workloads[0].plannedHeadroomGpus == 0);
    CHECK(elastic.plannedHeadroomGpus == 0);
}
