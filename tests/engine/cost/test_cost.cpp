#include "costsupport.h"

#include "engine/cost/cost.h"
#include "engine/common/errors.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::dec;
using headroom::test::hourly;
using headroom::test::usd;

namespace {

std::string fieldOf(const std::function<void()> &call)
{
    try {
        call();
    } catch (const InputError &e) {
        return e.field();
    }
    return "(no error)";
}

// 3y at $2, 1y at $3, on-demand $5, spot $2.50 with 10 % of spot GPU-hours lost to interruptions.
PlanRates exampleRates()
{
    PlanRates rates;
    rates.reserved3y = usd("2");
    rates.reserved1y = usd("3");
    rates.onDemand = usd("5");
    rates.spot = usd("2.5");
    rates.spotOverhead = dec("0.1");
    return rates;
}

PlanMix exampleMix()
{
    return {15, 10, dec("0.5")};
}

} // namespace

TEST_CASE("golden: idle capacity of 64 GPUs at 40 % and 20 % idle", "[cost][golden]")
{
    const IdleCost aws = idleCost(64, dec("0.4"), usd("6.88"));
    CHECK(aws.perDay.cents() == "4227.07");
    CHECK(aws.perMonth.cents() == "126812.16");
    CHECK(aws.perDay.display() == "$4,227.07");
    CHECK(aws.perMonth.currency == "USD");

    const Money gcpRate = Money::parse("87.8325") * (Decimal::fromInt(1) / Decimal::fromInt(8));
    REQUIRE(gcpRate.amount.toString() == "10.9790625");
    const IdleCost gcp = idleCost(64, dec("0.4"), gcpRate);
    CHECK(gcp.perDay.cents() == "6745.54");
    CHECK(gcp.perMonth.cents() == "202366.08");

    const IdleCost lambda = idleCost(64, dec("0.4"), usd("3.99"));
    CHECK(lambda.perDay.cents() == "2451.46");
    CHECK(lambda.perMonth.cents() == "73543.68");

    const IdleCost lambda20 = idleCost(64, dec("0.2"), usd("3.99"));
    CHECK(lambda20.perDay.cents() == "1225.73");
    CHECK(lambda20.perMonth.cents() == "36771.84");

    // The month is 30 unrounded days, not 30 × the rounded day ($4,227.07 × 30 = $126,812.10).
    CHECK(aws.perDay.amount.toString() == "4227.072");
    CHECK(idleCost(64, dec("0.4"), usd("6.88"), 31).perMonth.cents() == "131039.23");
}

TEST_CASE("golden: a static fleet of 16 against an elastic one averaging 10", "[cost][golden]")
{
    const StaticVsElastic r = staticVsElastic(16, dec("10"), usd("3.99"));
    CHECK(r.staticPerDay.cents() == "1532.16");
    CHECK(r.elasticPerDay.cents() == "957.60");
    CHECK(r.savingPerDay.cents() == "574.56");
    CHECK(r.savingPerMonth.cents() == "17236.80");
    CHECK(r.savingPerMonth.display() == "$17,236.80");
    CHECK(staticVsElastic(16, dec("10.5"), usd("3.99")).elasticPerDay.cents() == "1005.48");
}

TEST_CASE("idle and static-versus-elastic inputs are checked by field", "[cost][input]")
{
    CHECK(fieldOf([] { idleCost(-1, dec("0.4"), usd("6.88")); }) == "gpus");
    CHECK(fieldOf([] { idleCost(64, dec("1.1"), usd("6.88")); }) == "idle_fraction");
    CHECK(fieldOf([] { idleCost(64, dec("0.4"), usd("0")); }) == "rate");
    CHECK(fieldOf([] { idleCost(64, dec("0.4"), usd("-6.88")); }) == "rate");
    CHECK(fieldOf([] { idleCost(64, dec("0.4"), usd("6.88"), 0); }) == "days_per_month");
    CHECK(fieldOf([] { staticVsElastic(-16, dec("10"), usd("3.99")); }) == "static_gpus");
    CHECK(fieldOf([] { staticVsElastic(16, dec("-10"), usd("3.99")); }) == "elastic_avg_gpus");
    CHECK(fieldOf([] { staticVsElastic(16, dec("10"), usd("0")); }) == "rate");
}

TEST_CASE("a plan pays its reservations every hour and sends the rest to on-demand and spot", "[cost][plan]")
{
    // Hours of 10, 20, 30, 40 GPUs over 25 reserved (15 for 3 years, 10 for 1 year):
    // used 10 + 20 + 25 + 25 = 80 of 100 reserved GPU-hours; elastic 5 + 15 = 20, half on spot.
    const PlanCost plan = planCost(hourly({10, 20, 30, 40}), exampleMix(), exampleRates(), true);
    CHECK(plan.reservedGpuHours.toString() == "100");
    CHECK(plan.reservedUsedGpuHours.toString() == "80");
    CHECK(plan.reserved3yUsedGpuHours.toString() == "55");
    CHECK(plan.reserved1yUsedGpuHours.toString() == "25");
    CHECK(plan.reservedUtilization == 0.8);
    CHECK(plan.onDemandGpuHours.toString() == "10");
    CHECK(plan.spotGpuHours.toString() == "11");
    CHECK(plan.reserved3y.cents() == "120.00");
    CHECK(plan.reserved1y.cents() == "120.00");
    CHECK(plan.reserved.cents() == "240.00");
    CHECK(plan.onDemand.cents() == "50.00");
    CHECK(plan.spot.cents() == "27.50");
    CHECK(plan.total.cents() == "317.50");
    REQUIRE(plan.hours.size() == 4);
    CHECK(plan.hours[0].reservedUsed.toString() == "10");
    CHECK(plan.hours[0].reservedIdle.toString() == "15");
    CHECK(plan.hours[0].onDemand.isZero());
    CHECK(plan.hours[3].reservedUsed.toString() == "25");
    CHECK(plan.hours[3].reservedIdle.isZero());
    CHECK(plan.hours[3].onDemand.toString() == "7.5");
    CHECK(plan.hours[3].spot.toString() == "8.25");
    CHECK(planCost(hourly({10, 20, 30, 40}), exampleMix(), exampleRates()).hours.empty());
}

TEST_CASE("monthly spend splits a plan into blocks of hours that add up to the plan", "[cost][plan]")
{
    // Same plan as above in blocks of 3 hours: hours 10, 20, 30 then 40.
    const auto months = monthlySpend(hourly({10, 20, 30, 40}), exampleMix(), exampleRates(), 3);
    REQUIRE(months.size() == 2);
    // reserved: 15 × $2 (3-year) + 10 × $3 (1-year) = $60 every hour
    CHECK(months[0].reserved.cents() == "180.00");
    CHECK(months[1].reserved.cents() == "60.00");
    // elastic: hour 3 has 5 GPUs above the reservation, hour 4 has 15
    const PlanCost plan = planCost(hourly({10, 20, 30, 40}), exampleMix(), exampleRates());
    CHECK((months[0].elastic + months[1].elastic).cents() == (plan.onDemand + plan.spot).cents());
    CHECK((months[0].reserved + months[1].reserved + months[0].elastic + months[1].elastic) == plan.total);
    CHECK_THROWS_AS(monthlySpend(hourly({1}), exampleMix(), exampleRates(), 0), InputError);
}

TEST_CASE("plan totals are exact sums of the hours", "[cost][plan]")
{
    DemandShape shape;
    shape.noise = 0.08;
    shape.hours = 8760;
    shape.roundToWholeGpus = false;
    const DemandSeries year = generateDemand(shape);
    PlanRates rates = exampleRates();
    rates.spotOverhead = dec("0.0333333");
    const PlanCost plan = planCost(year, {150, 60, dec("0.37")}, rates, true);
    Decimal used, idle, onDemand, spot;
    for (const HourBreakdown &h : plan.hours) {
        used += h.reservedUsed;
        idle += h.reservedIdle;
        onDemand += h.onDemand;
        spot += h.spot;
    }
    CHECK(used == plan.reservedUsedGpuHours);
    CHECK(used + idle == plan.reservedGpuHours);
    CHECK(onDemand == plan.onDemandGpuHours);
    CHECK(spot == plan.spotGpuHours);
    CHECK(plan.total == plan.reserved + plan.onDemand + plan.spot);
    CHECK(plan.onDemand == rates.onDemand * onDemand);
    CHECK(plan.reserved.amount == Decimal::fromInt((150 * 2 + 60 * 3) * 8760));
}

TEST_CASE("golden: a year of 64 on-demand GPUs at the GCP per-GPU rate costs rate x 64 x 8760", "[cost][plan]")
{
    PlanRates rates;
    rates.onDemand = Money::parse("87.8325") * (Decimal::fromInt(1) / Decimal::fromInt(8));
    const PlanCost plan = planCost(hourly(std::vector<int64_t>(8760, 64)), {}, rates);
    Money hourByHour;
    for (int h = 0; h < 8760; ++h)
        hourByHour += rates.onDemand * int64_t(64);
    CHECK(plan.total == hourByHour);
    CHECK(plan.total == rates.onDemand * int64_t(64 * 8760));
    CHECK(plan.total.cents() == "6155301.60");
    CHECK(plan.reservedUtilization == 0);
}

TEST_CASE("the elastic rate blends on-demand and spot with its overhead", "[cost][plan]")
{
    CHECK(elasticRate(exampleRates(), dec("0.5")).amount.toString() == "3.875");
    CHECK(elasticRate(exampleRates(), Decimal()).amount.toString() == "5");
    CHECK(elasticRate(exampleRates(), dec("1")).amount.toString() == "2.75");
    PlanRates noSpot = exampleRates();
    noSpot.spot = Money::parse("0", "EUR");
    CHECK(elasticRate(noSpot, Decimal()).cents() == "5.00");
    CHECK(fieldOf([&] { elasticRate(noSpot, dec("0.2")); }) == "spot");
}

TEST_CASE("break-even utilization of a commitment is its rate over on-demand", "[cost]")
{
    CHECK(breakEvenUtilization(usd("5.5"), usd("10")) == Approx(0.55).epsilon(1e-15));
    CHECK(breakEvenUtilization(usd("3.44"), usd("6.88")) == 0.5);
    CHECK(fieldOf([] { breakEvenUtilization(usd("0"), usd("10")); }) == "reserved_rate");
    CHECK(fieldOf([] { breakEvenUtilization(usd("5"), usd("-10")); }) == "on_demand_rate");
    CHECK(fieldOf([] { breakEvenUtilization(usd("5"), Money::parse("10", "EUR")); }) == "currency");
}

TEST_CASE("sensitivity reprices a fixed plan for demand above and below plan", "[cost][plan]")
{
    const DemandSeries demand = hourly({10, 20, 30, 40});
    const std::vector<Sensitivity> s = sensitivity(demand, exampleMix(), exampleRates());
    REQUIRE(s.size() == 4);
    CHECK(s[0].change == -0.25);
    // −25 %: 7.5, 15, 22.5, 30 → elastic 5: on-demand 2.5 × $5 + spot 2.5 × 1.1 × $2.50.
    CHECK(s[0].total.cents() == "259.38");
    CHECK(s[0].total.amount.toString() == "259.375");
    // +25 %: 12.5, 25, 37.5, 50 → elastic 37.5: 18.75 × $5 + 20.625 × $2.50.
    CHECK(s[3].total.amount.toString() == "385.3125");
    CHECK(s[1].total.amount < planCost(demand, exampleMix(), exampleRates()).total.amount);
    CHECK(s[2].total.amount > planCost(demand, exampleMix(), exampleRates()).total.amount);
    CHECK(fieldOf([&] { sensitivity(demand, exampleMix(), exampleRates(), {-1.0}); }) == "change");
}

TEST_CASE("bad plans name the field", "[cost][input]")
{
    const DemandSeries demand = hourly({10, 20});
    CHECK(fieldOf([&] { planCost(demand, {-1, 0, Decimal()}, exampleRates()); }) == "reserved_3y_gpus");
    CHECK(fieldOf([&] { planCost(demand, {0, -1, Decimal()}, exampleRates()); }) == "reserved_1y_gpus");
    CHECK(fieldOf([&] { planCost(demand, {0, 0, dec("1.5")}, exampleRates()); }) == "spot_share");
    CHECK(fieldOf([&] { planCost(demand, {0, 0, dec("-0.5")}, exampleRates()); }) == "spot_share");
    CHECK(fieldOf([&] { planCost(DemandSeries{}, exampleMix(), exampleRates()); }) == "demand");
    DemandSeries negative = demand;
    negative.gpus[1] = dec("-1");
    CHECK(fieldOf([&] { planCost(negative, exampleMix(), exampleRates()); }) == "demand");

    PlanRates rates = exampleRates();
    rates.onDemand = usd("0");
    CHECK(fieldOf([&] { planCost(demand, exampleMix(), rates); }) == "on_demand");
    rates = exampleRates();
    rates.reserved1y = usd("-3");
    CHECK(fieldOf([&] { planCost(demand, exampleMix(), rates); }) == "reserved_1y");
    CHECK_NOTHROW(planCost(demand, {15, 0, dec("0.5")}, rates));
    rates = exampleRates();
    rates.reserved3y = usd("0");
    CHECK(fieldOf([&] { planCost(demand, exampleMix(), rates); }) == "reserved_3y");
    rates = exampleRates();
    rates.spot = usd("0");
    CHECK(fieldOf([&] { planCost(demand, exampleMix(), rates); }) == "spot");
    rates = exampleRates();
    rates.spotOverhead = dec("-0.1");
    CHECK(fieldOf([&] { planCost(demand, exampleMix(), rates); }) == "spot_overhead");
}

TEST_CASE("a plan in mixed currencies is refused", "[cost][input]")
{
    const DemandSeries demand = hourly({10, 20});
    PlanRates rates = exampleRates();
    rates.spot = Money::parse("2.5", "EUR");
    try {
        planCost(demand, exampleMix(), rates);
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "currency");
        CHECK(std::string(e.what()).find("cannot add USD and EUR") != std::string::npos);
    }
    CHECK_NOTHROW(planCost(demand, {15, 10, Decimal()}, rates));
    rates = exampleRates();
    rates.reserved3y = Money::parse("2", "GBP");
    CHECK(fieldOf([&] { planCost(demand, exampleMix(), rates); }) == "currency");
    const PlanCost euros = planCost(demand, {}, PlanRates{{}, {}, Money::parse("4", "EUR"), {}, {}});
    CHECK(euros.total.display() == "\u20ac120.00");
}

TEST_CASE("A 3-year commitment is owed in full over a 1-year series, its upfront paid in the first month", "[cost][commitment]")
{
    const CivilDate start = *parseIsoDate("2025-01-01");
    // 10 GPUs × $3.096 × 26,280 h (2025-01-01 to 2028-01-01) = $813,628.80; half upfront.
    const CommitmentObligation o = commitmentObligation(10, usd("3.096"), dec("0.5"), start, 36, 8760);
    CHECK(o.termHours == 26280);
    CHECK(o.total == usd("813628.80"));
    CHECK(o.upfront == usd("406814.40"));
    CHECK(o.recurring == usd("406814.40"));
    CHECK(o.inHorizon == usd("271209.60")); // 10 × 3.096 × 8,760
    CHECK_FALSE(o.coversTerm);
    CHECK(o.warning.find("$813,628.80") != std::string::npos);
    CHECK(o.warning.find("forecast hand-off") != std::string::npos);
    CHECK(commitmentObligation(10, usd("3.096"), dec("0.5"), start, 36, 26280).coversTerm);
    CHECK(commitmentObligation(10, usd("3.096"), dec("0.5"), start, 36, 26280).warning.empty());
    CHECK_THROWS_AS(commitmentObligation(10, usd("3.096"), dec("0.5"), start, 24, 8760), InputError);
    CHECK_THROWS_AS(commitmentObligation(10, usd("3.096"), dec("1.5"), start, 12, 8760), InputError);

    // Cash flow: a flat series of 10 GPUs, all reserved, over January and February 2025.
    const DemandSeries flat = hourly(std::vector<int64_t>(24 * (31 + 28), 10));
    PlanRates rates;
    rates.reserved3y = usd("3.096");
    rates.onDemand = usd("6.88");
    const PlanMix mix{10, 0, Decimal()};
    const auto months = monthlySpend(flat, mix, rates, start);
    REQUIRE(months.size() == 2);
    CHECK(months[0].label == "2025-01");
    CHECK(months[0].reserved == usd("23034.24")); // 10 × 3.096 × 744
    CHECK(months[1].reserved == usd("20805.12")); // 10 × 3.096 × 672
    const auto paid = withUpfront(months, dec("0.5"), o);
    CHECK(paid[0].upfront == usd("406814.40"));
    CHECK(paid[1].upfront.amount.isZero());
    CHECK(paid[0].reserved == usd("11517.12"));
    CHECK(paid[1].reserved == usd("10402.56"));
}

TEST_CASE("Sensitivity rows carry every part and no commitment at the same demand", "[cost][sensitivity]")
{
    // 10 GPUs every hour for a day; 6 reserved at $3, the rest on-demand at $5.
    const DemandSeries demand = hourly(std::vector<int64_t>(24, 10));
    PlanRates rates;
    rates.reserved1y = usd("3");
    rates.onDemand = usd("5");
    const auto rows = sensitivity(demand, PlanMix{0, 6, Decimal()}, rates, {-0.25, 0.25});
    REQUIRE(rows.size() == 2);
    // −25 %: 7.5 GPUs; reserved 6 × 3 × 24 = 432, on-demand 1.5 × 5 × 24 = 180; all on-demand 7.5 × 5 × 24 = 900.
    CHECK(rows[0].plan.reserved == usd("432"));
    CHECK(rows[0].plan.onDemand == usd("180"));
    CHECK(rows[0].total == usd("612"));
    CHECK(rows[0].noCommitment == usd("900"));
    // +25 %: 12.5 GPUs; on-demand 6.5 × 5 × 24 = 780; all on-demand 12.5 × 5 × 24 = 1,500.
    CHECK(rows[1].plan.onDemand == usd("780"));
    CHECK(rows[1].total == usd("1212"));
    CHECK(rows[1].noCommitment == usd("1500"));
}
