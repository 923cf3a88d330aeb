#include "costsupport.h"
#include "fleet/scenariosupport.h"

#include "engine/cost/cost.h"
#include "engine/common/errors.h"
#include "engine/fleet/scenario.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

// The reconciliation rule (DESIGN §2): every money table the engine's results are printed
// as re-adds to its printed total, and every printed difference is the difference of the
// printed figures. Checked over random inputs drawn from a fixed, fully specified generator.
using namespace headroom::engine;
using namespace headroom::test;

namespace {

// SplitMix64: the same numbers on every standard library.
struct Random {
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int64_t between(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
    // A price with up to 7 decimals, 0.0000001 … 99.9999999.
    Decimal rate() { return Decimal::fromUnits(Decimal::Units(between(1, 99'999'999'9)) * 100); }
};

std::string columnText(const ShownColumn &c)
{
    std::string text;
    for (const Money &m : c.parts)
        text += m.cents() + " + ";
    return text + "= " + c.total.cents();
}

} // namespace

TEST_CASE("The static-vs-elastic saving is the difference of the figures shown", "[reconcile]")
{
    // 3 GPUs vs 1.5 at $87.8325 per 8 GPUs = $10.9790625: $790.4925 and $395.24625 a day,
    // shown $790.49 and $395.25, so the saving shown is $395.24 (not the exact $395.25).
    const Money rate = Money::parse("87.8325") * (Decimal::fromInt(1) / Decimal::fromInt(8));
    const StaticVsElastic r = staticVsElastic(3, dec("1.5"), rate);
    CHECK(r.staticPerDay.cents() == "790.49");
    CHECK(r.elasticPerDay.cents() == "395.25");
    CHECK(r.savingPerDay.cents() == "395.24");
    // A 30-day month: $23,714.775 → $23,714.78 and $11,857.3875 → $11,857.39.
    CHECK(r.staticPerMonth.cents() == "23714.78");
    CHECK(r.elasticPerMonth.cents() == "11857.39");
    CHECK(r.savingPerMonth.cents() == "11857.39");
    // Golden figures are unchanged.
    const StaticVsElastic golden = staticVsElastic(16, dec("10"), usd("3.99"));
    CHECK(golden.savingPerDay.cents() == "574.56");
    CHECK(golden.savingPerMonth.cents() == "17236.80");
}

TEST_CASE("Property: every money table of the cost engine re-adds to its printed total", "[reconcile][property]")
{
    Random random{20260101};
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<int64_t> gpus;
        const int64_t hours = random.between(24, 24 * 10);
        for (int64_t h = 0; h < hours; ++h)
            gpus.push_back(random.between(0, 400));
        DemandSeries demand = hourly(gpus);
        // Fractional demand too: a third of a GPU is common in scaled series.
        for (Decimal &g : demand.gpus)
            g = g / Decimal::fromInt(3);
        PlanRates rates;
        rates.onDemand = Money{random.rate(), "USD"};
        rates.reserved1y = Money{random.rate(), "USD"};
        rates.reserved3y = Money{random.rate(), "USD"};
        rates.spot = Money{random.rate(), "USD"};
        rates.spotOverhead = Decimal::fromUnits(Decimal::Units(random.between(0, 500'000'000)));
        PlanMix mix{random.between(0, 150), random.between(0, 150),
                    Decimal::fromUnits(Decimal::Units(random.between(0, 1'000'000'000)))};

        const ShownColumn plan = shownPlanCost(planCost(demand, mix, rates));
        INFO("trial " << trial << ": " << columnText(plan));
        REQUIRE(plan.parts.size() == 3);
        CHECK(reAdds(plan));

        for (const Sensitivity &s : sensitivity(demand, mix, rates)) {
            const ShownColumn row = shownPlanCost(s.plan);
            CHECK(reAdds(row));
            CHECK(s.total == s.plan.total);
            // Like with like: no commitment (same spot share) at the same scaled demand.
            DemandSeries scaled = demand;
            for (Decimal &g : scaled.gpus)
                g = g * Decimal::fromDouble(1 + s.change);
            CHECK(s.noCommitment == planCost(scaled, PlanMix{0, 0, mix.spotShare}, rates).total);
        }

        const StaticVsElastic sve =
            staticVsElastic(random.between(1, 500), Decimal::fromUnits(Decimal::Units(random.between(0, 500'000'000'000))),
                            Money{random.rate(), "USD"});
        CHECK(sve.savingPerDay == Money{sve.staticPerDay.amount.rounded(2) - sve.elasticPerDay.amount.rounded(2), "USD"});
        CHECK(sve.savingPerMonth ==
              Money{sve.staticPerMonth.amount.rounded(2) - sve.elasticPerMonth.amount.rounded(2), "USD"});
    }
}

TEST_CASE("Property: a scenario's money table re-adds per day, per month and over the term", "[reconcile][property]")
{
    Random random{7};
    for (int trial = 0; trial < 25; ++trial) {
        ScenarioInputs in = scenarioInputs();
        auto text = [](Decimal d) { return d.toString(); };
        const std::string od = text(random.rate() + Decimal::fromInt(100));
        const std::string r1 = text(random.rate());
        const std::string r3 = text(random.rate());
        const std::string spot = text(random.rate());
        in.rateCards.push_back(card("Rand", "r", "h100-sxm", "2025-01-01", od.c_str(), r1.c_str(), r3.c_str(),
                                    spot.c_str(), 0));
        Scenario s = scenarioOn("random", "Rand", "r");
        s.startDate = "202" + std::to_string(random.between(5, 9)) + "-0" + std::to_string(random.between(1, 9)) + "-01";
        s.horizonMonths = int(random.between(1, 48));
        s.pools = {pool("r1", PoolTier::Reserved1y, PoolSizing::Fixed, random.between(1, 300), {"chat"}),
                   pool("r3", PoolTier::Reserved3y, PoolSizing::Fixed, random.between(0, 300), {}),
                   pool("od", PoolTier::OnDemand, PoolSizing::Auto, 0, {"chat"}),
                   pool("spot", PoolTier::Spot, PoolSizing::Auto, 0, {})};
        s.pools[1].sizing = PoolSizing::Fixed;
        if (s.pools[1].gpus == 0)
            s.pools[1].gpus = 1;
        const ScenarioResult r = evaluateScenario(s, in);
        const ScenarioMoneyTable table = scenarioMoneyTable(r);
        INFO("trial " << trial << " start " << s.startDate << " months " << s.horizonMonths);
        REQUIRE(table.pools.size() == 4);
        CHECK(reAdds(table.perDay));
        CHECK(reAdds(table.perMonth));
        CHECK(reAdds(table.overTerm));
        // The printed total is within a cent per row of the exact total.
        const Decimal slack = Decimal::parse("0.005").value() * int64_t(table.pools.size());
        const Decimal gap = table.overTerm.total.amount - r.costOverTerm.amount;
        CHECK(gap <= slack);
        CHECK(-gap <= slack);
        CHECK(r.termHours == termHours(s.startDate, s.horizonMonths));
    }
}
