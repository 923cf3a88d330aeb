#include "engine/common/errors.h"
#include "engine/tracking/tracking.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>

using namespace headroom::engine;

namespace {

Decimal dec(const char *text) { return *Decimal::parse(text); }

constexpr int64_t kT0 = 1767225600; // 2026-01-01T00:00:00Z

// One commitment "c1" in USD, plus the rows a test adds.
FocusCharges commitmentCharges()
{
    FocusCharges charges;
    charges.currencies = {"USD", "EUR"};
    charges.names = {"", "Compute", "us-east-1", "i-1", "Storage"};
    charges.commitments.push_back({"c1", "Plan one", "Spend", "Savings Plan"});
    return charges;
}

FocusCharge usage(int hour, const char *cost, CommitmentStatus status, uint32_t commitment = 1,
                  uint32_t currency = 0, uint32_t service = 1)
{
    FocusCharge row;
    row.periodStart = kT0 + hour * 3600;
    row.periodEnd = row.periodStart + 3600;
    row.effectiveCost = dec(cost);
    row.billedCost = commitment ? Decimal() : dec(cost);
    row.status = status;
    row.commitment = commitment;
    row.currency = currency;
    row.service = service;
    row.region = 2;
    row.resource = status == CommitmentStatus::Unused ? 0 : 3;
    row.pricing = commitment ? PricingCategory::Committed : PricingCategory::Standard;
    return row;
}

// A deterministic, seasonal daily-shaped series: 100 + 20 sin(2π t / 24) + a small
// pseudo-random wobble (a fixed linear congruential sequence, the same on every library).
std::vector<double> cleanSeries(int n)
{
    std::vector<double> s;
    uint64_t state = 12345;
    for (int t = 0; t < n; ++t) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double u = double(state >> 11) / double(uint64_t(1) << 53); // [0, 1)
        s.push_back(100.0 + 20.0 * std::sin(2.0 * M_PI * t / 24.0) + 4.0 * (u - 0.5));
    }
    return s;
}

} // namespace

TEST_CASE("commitment utilization is used cost over used plus unused cost", "[tracking]")
{
    FocusCharges charges = commitmentCharges();
    // 3 hours used at 2.50, 1 hour unused at 2.50, and one hour split 0.75 used / 0.25 unused.
    for (int h = 0; h < 3; ++h)
        charges.rows.push_back(usage(h, "2.50", CommitmentStatus::Used));
    charges.rows.push_back(usage(3, "2.50", CommitmentStatus::Unused));
    charges.rows.push_back(usage(4, "0.75", CommitmentStatus::Used));
    charges.rows.push_back(usage(4, "0.25", CommitmentStatus::Unused));
    const CommitmentReport report = analyseCommitments(charges);
    REQUIRE(report.commitments.size() == 1);
    const CommitmentUsage &c = report.commitments[0];
    CHECK(c.id == "c1");
    CHECK(c.currency == "USD");
    // used 3 × 2.50 + 0.75 = 8.25; unused 2.50 + 0.25 = 2.75; 8.25 / 11 = 0.75
    CHECK(c.usedCost == dec("8.25"));
    CHECK(c.unusedCost == dec("2.75"));
    CHECK(c.utilization == Approx(0.75).margin(1e-12));
    CHECK(c.hoursUsed == 4);
    CHECK(c.hoursUnused == 2);
    CHECK(c.underUsed);             // 0.75 < 0.8
    CHECK_FALSE(analyseCommitments(charges, {0.7, 720}).commitments[0].underUsed);
    CHECK(report.onDemandOverflow.empty());
}

TEST_CASE("the under-used flag looks at the trailing window only", "[tracking]")
{
    FocusCharges charges = commitmentCharges();
    // 30 days fully unused, then 2 days fully used.
    for (int h = 0; h < 30 * 24; ++h)
        charges.rows.push_back(usage(h, "1", CommitmentStatus::Unused));
    for (int h = 30 * 24; h < 32 * 24; ++h)
        charges.rows.push_back(usage(h, "1", CommitmentStatus::Used));
    const auto whole = analyseCommitments(charges, {0.8, 48}).commitments.at(0);
    CHECK(whole.utilization == Approx(48.0 / 768.0));
    CHECK(whole.trailingUtilization == Approx(1.0));
    CHECK_FALSE(whole.underUsed);
    CHECK(analyseCommitments(charges, {0.8, 72}).commitments.at(0).underUsed); // 48 / 72
}

TEST_CASE("commitments in two currencies are split, never summed", "[tracking]")
{
    FocusCharges charges = commitmentCharges();
    charges.rows.push_back(usage(0, "10", CommitmentStatus::Used, 1, 0));
    charges.rows.push_back(usage(0, "7", CommitmentStatus::Unused, 1, 1));
    const auto report = analyseCommitments(charges);
    REQUIRE(report.commitments.size() == 2);
    CHECK(report.commitments[0].currency == "EUR");
    CHECK(report.commitments[0].unusedCost == dec("7"));
    CHECK(report.commitments[1].currency == "USD");
    CHECK(report.commitments[1].usedCost == dec("10"));
}

TEST_CASE("on-demand overflow counts same-service usage in hours with nothing unused", "[tracking]")
{
    FocusCharges charges = commitmentCharges();
    charges.rows.push_back(usage(0, "5", CommitmentStatus::Used));
    charges.rows.push_back(usage(1, "5", CommitmentStatus::Unused));
    charges.rows.push_back(usage(0, "8.125", CommitmentStatus::None, 0));      // overflow
    charges.rows.push_back(usage(1, "8", CommitmentStatus::None, 0));          // commitment idle then: not overflow
    charges.rows.push_back(usage(2, "-1.125", CommitmentStatus::None, 0));     // a refund counts too
    charges.rows.push_back(usage(0, "3", CommitmentStatus::None, 0, 0, 4));    // other service
    charges.rows.push_back(usage(0, "4", CommitmentStatus::None, 0, 1));       // other currency
    const auto report = analyseCommitments(charges);
    REQUIRE(report.onDemandOverflow.size() == 2);
    CHECK(report.onDemandOverflow[0].currency == "USD");
    CHECK(report.onDemandOverflow[0].amount == dec("7"));
    CHECK(report.onDemandOverflow[1].currency == "EUR");
    CHECK(report.onDemandOverflow[1].amount == dec("4"));
}

TEST_CASE("commitment options are checked", "[tracking]")
{
    const FocusCharges charges = commitmentCharges();
    CHECK_THROWS_AS(analyseCommitments(charges, {0.0, 720}), InputError);
    CHECK_THROWS_AS(analyseCommitments(charges, {1.5, 720}), InputError);
    CHECK_THROWS_AS(analyseCommitments(charges, {0.8, 0}), InputError);
}

TEST_CASE("commitment charges covering absurd spans are refused before their hours are held", "[tracking]")
{
    FocusCharges charges = commitmentCharges();
    FocusCharge row = usage(0, "1", CommitmentStatus::Used);
    row.periodEnd = row.periodStart + int64_t(60'000'000) * 3600; // one row of 6,800 years
    charges.rows.push_back(row);
    CHECK_THROWS_AS(analyseCommitments(charges, {0.8, 720}), InputError);
    // A commitment usage charge is at most a 31-day month (found by fuzzing: one small row of
    // years took seconds to count hour by hour).
    charges.rows.back().periodEnd = charges.rows.back().periodStart + int64_t(745) * 3600;
    CHECK_THROWS_AS(analyseCommitments(charges, {0.8, 720}), InputError);
    charges.rows.back().periodEnd = charges.rows.back().periodStart + int64_t(744) * 3600;
    CHECK(analyseCommitments(charges, {0.8, 720}).commitments.at(0).hoursUsed == 744);
    // A charge of zero length still counts in the hour it starts.
    FocusCharges instant = commitmentCharges();
    FocusCharge blink = usage(0, "1", CommitmentStatus::Used);
    blink.periodEnd = blink.periodStart;
    instant.rows.push_back(blink);
    const CommitmentReport report = analyseCommitments(instant, {0.8, 720});
    REQUIRE(report.commitments.size() == 1);
    CHECK(report.commitments[0].hoursUsed == 1);
}

TEST_CASE("daily effective cost sums one currency by day", "[tracking]")
{
    FocusCharges charges = commitmentCharges();
    charges.rows.push_back(usage(1, "1.10", CommitmentStatus::None, 0));
    charges.rows.push_back(usage(2, "2.20", CommitmentStatus::None, 0));
    charges.rows.push_back(usage(50, "5", CommitmentStatus::None, 0));
    charges.rows.push_back(usage(3, "9", CommitmentStatus::None, 0, 1));
    const DailyCost daily = dailyEffectiveCost(charges, "USD");
    CHECK(daily.firstDay == kT0 / 86400);
    REQUIRE(daily.cost.size() == 3);
    CHECK(daily.cost[0] == dec("3.30"));
    CHECK(daily.cost[1].isZero());
    CHECK(daily.cost[2] == dec("5"));
    CHECK_THROWS_AS(dailyEffectiveCost(charges, "GBP"), InputError);
    // A currency the file names but no row carries (found by fuzzing: it read an empty map).
    charges.currencies.push_back("CHF");
    CHECK_THROWS_AS(dailyEffectiveCost(charges, "CHF"), InputError);
}

TEST_CASE("no anomaly on a clean seasonal series", "[tracking]")
{
    const auto series = cleanSeries(24 * 28);
    const AnomalyReport report = detectAnomalies(series, {24, 24 * 14});
    CHECK(report.history == 336);
    CHECK(report.residualSd > 0.5);
    CHECK(report.residualSd < 2.0);
    CHECK(report.anomalies.empty());
}

TEST_CASE("injected spikes are found with their size", "[tracking]")
{
    auto series = cleanSeries(24 * 28);
    series[400] += 40.0;
    series[460] -= 35.0;
    series[600] += 60.0;
    const AnomalyReport report = detectAnomalies(series, {24, 24 * 14});
    REQUIRE(report.anomalies.size() == 3);
    CHECK(report.anomalies[0].kind == AnomalyKind::Spike);
    CHECK(report.anomalies[0].index == 400);
    CHECK(report.anomalies[0].size == Approx(40.0).margin(3.0));
    CHECK(report.anomalies[0].value > report.anomalies[0].upper);
    CHECK(report.anomalies[1].kind == AnomalyKind::Dip);
    CHECK(report.anomalies[1].index == 460);
    CHECK(report.anomalies[1].size == Approx(-35.0).margin(3.0));
    CHECK(report.anomalies[2].index == 600);
    CHECK(report.anomalies[2].size == Approx(60.0).margin(3.0));
}

TEST_CASE("a level shift is found by CUSUM with its size, and later spikes still count", "[tracking]")
{
    auto series = cleanSeries(24 * 28);
    for (size_t t = 450; t < series.size(); ++t)
        series[t] += 8.0;           // about 7 residual standard deviations: every point leaves the band too
    series[600] += 50.0;
    const AnomalyReport report = detectAnomalies(series, {24, 24 * 14});
    REQUIRE(report.anomalies.size() == 2);
    const Anomaly &shift = report.anomalies[0];
    CHECK(shift.kind == AnomalyKind::LevelShift);
    CHECK(shift.index == 450);
    CHECK(shift.endIndex <= 452);
    CHECK(shift.size == Approx(8.0).margin(1.5));
    CHECK(report.anomalies[1].kind == AnomalyKind::Spike);
    CHECK(report.anomalies[1].index == 600);
    CHECK(report.anomalies[1].size == Approx(50.0).margin(3.0));
}

TEST_CASE("a small level shift inside the band is still found", "[tracking]")
{
    auto series = cleanSeries(24 * 28);
    for (size_t t = 450; t < series.size(); ++t)
        series[t] += 2.5;           // about 2 standard deviations: no point leaves the P99.5 band
    const AnomalyReport report = detectAnomalies(series, {24, 24 * 14});
    REQUIRE(report.anomalies.size() >= 1);
    CHECK(report.anomalies[0].kind == AnomalyKind::LevelShift);
    CHECK(report.anomalies[0].index >= 445);
    CHECK(report.anomalies[0].index <= 455);
    CHECK(report.anomalies[0].size == Approx(2.5).margin(1.5));
    for (const Anomaly &a : report.anomalies)
        CHECK(a.kind == AnomalyKind::LevelShift);
}

TEST_CASE("anomaly detection refuses short or bad series", "[tracking]")
{
    CHECK_THROWS_AS(detectAnomalies(cleanSeries(48), {24, 48}), InputError);
    CHECK_THROWS_AS(detectAnomalies(cleanSeries(100), {24, 30}), InputError);
    auto bad = cleanSeries(100);
    bad[5] = NAN;
    CHECK_THROWS_AS(detectAnomalies(bad, {24, 48}), InputError);
}

TEST_CASE("plan versus actual: variance, band coverage and drift", "[tracking]")
{
    DailyCost actual;
    actual.currency = "USD";
    actual.firstDay = kT0 / 86400;
    // 21 days at 1,000 with a weekly pattern and a wobble of −6 … 6, then 5 days at 1,600.
    const int pattern[7] = {0, 10, -10, 5, -5, 20, -20};
    for (int d = 0; d < 21; ++d)
        actual.cost.push_back(Decimal::fromInt(1000 + pattern[d % 7] + (d * 7919) % 13 - 6) + dec("0.25"));
    for (int d = 21; d < 26; ++d)
        actual.cost.push_back(Decimal::fromInt(1600));
    const Money planned{dec("990.50"), "USD"};
    const PlanVsActual result = comparePlan(planned, actual, {3, 14, 2000, 7});
    REQUIRE(result.days.size() == 26);
    // Day 0: 1,000 + 0 − 6 + 0.25 − 990.50 = 3.75.
    CHECK(result.days[0].variance == dec("3.75"));
    // Σ actual = 3 × 7,000 + Σ pattern 0 + Σ wobble (−5) + 21 × 0.25 + 5 × 1,600 = 29,000.25
    CHECK(result.totalActual == dec("29000.25"));
    CHECK(result.totalPlanned == dec("25753"));           // 26 × 990.50
    CHECK(result.cumulativeVariance == dec("3247.25"));
    CHECK(result.days.back().cumulativeVariance == result.cumulativeVariance);
    REQUIRE(result.banded);
    CHECK(result.bandedDays == 12);
    CHECK_FALSE(result.days[13].p05.has_value());
    REQUIRE(result.days[14].p05.has_value());
    // Most of the 7 in-pattern days after the history sit in the P05–P95 band; the 5 jumps
    // leave it (and the P99 band).
    CHECK(result.coverage90 >= 5.0 / 12.0);
    CHECK(result.coverage90 <= 7.0 / 12.0);
    for (int d = 21; d < 26; ++d)
        CHECK(result.days[size_t(d)].outsideP99);
    REQUIRE(result.driftDay.has_value());
    CHECK(*result.driftDay == actual.firstDay + 21);
    CHECK_FALSE(comparePlan(planned, actual, {6, 14, 2000, 7}).driftDay.has_value());
    CHECK_THROWS_AS(comparePlan(Money{dec("1"), "EUR"}, actual), InputError);
}

TEST_CASE("actuals are summarized per commitment-hour and day with exact costs", "[tracking][actuals]")
{
    FocusCharges charges = commitmentCharges();
    // A 3-hour Used charge from hour 1 (cost on its first hour, hours 2 and 3 marked), two
    // Unused rows in hour 26 (next day), an on-demand row and a term purchase.
    FocusCharge longRow = usage(1, "6.30", CommitmentStatus::Used);
    longRow.periodEnd = longRow.periodStart + 3 * 3600;
    charges.rows.push_back(longRow);
    charges.rows.push_back(usage(26, "1.10", CommitmentStatus::Unused));
    charges.rows.push_back(usage(26, "0.15", CommitmentStatus::Unused));
    charges.rows.push_back(usage(2, "4.00", CommitmentStatus::None, 0));
    FocusCharge purchase;
    purchase.category = ChargeCategory::Purchase;
    purchase.commitment = 1;
    purchase.periodStart = kT0;
    purchase.periodEnd = kT0 + 365 * 86400;
    purchase.billedCost = dec("8760");
    charges.rows.push_back(purchase);

    const ActualsSummary summary = summarizeActuals(charges);
    CHECK(summary.rows == 5);
    REQUIRE(summary.commitmentHours.size() == 4);   // hours 1, 2, 3 Used and 26 Unused
    CHECK(summary.commitmentHours[0].effectiveCost == dec("6.30"));
    CHECK(summary.commitmentHours[1].effectiveCost.isZero());
    CHECK(summary.commitmentHours[3].effectiveCost == dec("1.25"));
    CHECK(summary.termEnds.at(1) == kT0 + 365 * 86400);
    REQUIRE(summary.onDemand.size() == 1);
    CHECK(summary.onDemand[0].service == "Compute");
    REQUIRE(summary.days.size() == 2);
    // Day 1: 6.30 + 4.00 effective, the purchase billed 8760; day 2: 1.25.
    CHECK(summary.days[0].effectiveCost == dec("10.30"));
    CHECK(summary.days[0].billedCost == dec("8764"));
    CHECK(summary.days[0].rows == 3);
    CHECK(summary.days[1].effectiveCost == dec("1.25"));
    CHECK_NOTHROW(validate(summary));

    const auto report = analyseCommitments(summary);
    REQUIRE(report.commitments.size() == 1);
    CHECK(report.commitments[0].hoursUsed == 3);
    CHECK(report.commitments[0].hoursUnused == 1);
    CHECK(report.commitments[0].usedCost == dec("6.30"));
    CHECK(report.commitments[0].unusedCost == dec("1.25"));
    // Hour 2 on-demand: the commitment had nothing unused then, so it overflowed.
    REQUIRE(report.onDemandOverflow.size() == 1);
    CHECK(report.onDemandOverflow[0].amount == dec("4.00"));

    const auto days = commitmentDays(summary, "c1", "USD");
    REQUIRE(days.size() == 2);
    CHECK(days[0].hoursUsed == 3);
    CHECK(days[0].usedCost == dec("6.30"));
    CHECK(days[1].hoursUnused == 1);
    CHECK(days[1].unusedCost == dec("1.25"));
    CHECK_THROWS_AS(commitmentDays(summary, "c1", "EUR"), InputError);

    // Since the second day: only its charges remain.
    const ActualsSummary later = actualsSince(summary, kT0 + 86400);
    CHECK(later.rows == 2);
    const auto laterReport = analyseCommitments(later);
    CHECK(laterReport.commitments.at(0).hoursUsed == 0);
    CHECK(laterReport.commitments.at(0).unusedCost == dec("1.25"));
    CHECK(laterReport.onDemandOverflow.empty());
    CHECK(dailyEffectiveCost(later, "USD").cost == std::vector<Decimal>{dec("1.25")});

    ActualsSummary broken = summary;
    broken.commitmentHours[0].commitment = 7;
    CHECK_THROWS_AS(validate(broken), InputError);
}
