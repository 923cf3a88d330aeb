// The next term of a commitment from the measured demand (commitment_renewal.h) and anomalies
// over the actuals sized in money and usage hours (actuals_anomalies.h), on constructed
// actuals whose right answers are worked out by hand in the comments.
#include "engine/tracking/actuals_anomalies.h"
#include "engine/tracking/commitment_renewal.h"
#include "engine/common/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>

using namespace headroom::engine;

namespace {

Decimal dec(const char *text) { return *Decimal::parse(text); }

constexpr int64_t kT0 = 1767225600; // 2026-01-01T00:00:00Z

// One spend commitment "sp-1" in USD over Compute in us-east-1; names[3] is "Hours".
FocusCharges charges()
{
    FocusCharges c;
    c.currencies = {"USD"};
    c.names = {"", "Compute", "us-east-1", "Hours", "i-1", "i-2"};
    c.commitments.push_back({"sp-1", "GPU plan", "Spend", "Savings Plan"});
    return c;
}

FocusCharge row(int hour, const char *effective, const char *list, CommitmentStatus status, uint32_t commitment,
                PricingCategory pricing, uint32_t resource)
{
    FocusCharge r;
    r.periodStart = kT0 + int64_t(hour) * 3600;
    r.periodEnd = r.periodStart + 3600;
    r.effectiveCost = dec(effective);
    r.billedCost = commitment ? Decimal() : dec(effective);
    r.listCost = dec(list);
    r.status = status;
    r.commitment = commitment;
    r.pricing = pricing;
    r.service = 1;
    r.region = 2;
    r.resource = resource;
    r.consumedUnit = 3;
    r.consumedQuantity = dec("1");
    return r;
}

} // namespace

TEST_CASE("an under-used commitment is cut to the demand it served, with the saving per term", "[renewal]")
{
    // A $10/h commitment, 48 hours: every hour $6 used (ListCost $9: on-demand 1.5× the
    // committed price) and $4 unused. Measured demand is a flat $6/h, so the forecast is flat
    // at 600 units of $0.01/h; reserving costs $0.01 and on demand $0.015 per unit-hour, so
    // the optimizer reserves all 600: $6/h.
    //   keep $10/h: 10 × 8,760 = $87,600 a term, utilization 6 / 10 = 60 %
    //   $6/h:        6 × 8,760 = $52,560, utilization 100 %, saving $35,040.
    FocusCharges c = charges();
    for (int h = 0; h < 48; ++h) {
        c.rows.push_back(row(h, "6", "9", CommitmentStatus::Used, 1, PricingCategory::Committed, 4));
        c.rows.push_back(row(h, "4", "0", CommitmentStatus::Unused, 1, PricingCategory::Committed, 0));
    }
    const ActualsSummary actuals = summarizeActuals(c);
    const auto recs = recommendCommitments(actuals);
    REQUIRE(recs.size() == 1);
    const CommitmentRecommendation &r = recs[0];
    REQUIRE(r.available);
    CHECK(r.id == "sp-1");
    CHECK(r.onDemandRatio == Approx(1.5));
    CHECK(r.historyHours == 48);
    CHECK(r.currentPerHour == dec("10"));
    CHECK(r.measuredMeanPerHour == dec("6"));
    CHECK(r.recommendedPerHour == dec("6"));
    CHECK(r.currentUtilization == Approx(0.6).margin(1e-6));
    CHECK(r.recommendedUtilization == Approx(1.0).margin(1e-6));
    CHECK(r.currentTermCost.amount.toString(2) == "87600.00");
    CHECK(r.recommendedTermCost.amount.toString(2) == "52560.00");
    CHECK(r.savingPerTerm.amount.toString(2) == "35040.00");
    CHECK(r.reasoning.find("lowers it to $6.00/h") != std::string::npos);
    CHECK(r.reasoning.find("saving $35,040.00 per term") != std::string::npos);
    CHECK_FALSE(r.daysToRenewal.has_value());
}

TEST_CASE("on-demand overflow raises the recommendation at the committed price", "[renewal]")
{
    // A $10/h commitment fully used for 48 hours, and in each of those hours $6 of on-demand
    // usage in the same service and region (ListCost of the Used rows $15 for $10: on demand
    // is 1.5×). The overflow is $6 ÷ 1.5 = $4/h at the committed price: demand $14/h.
    //   keep $10/h: 10 × 8,760 + 400 units × $0.015 × 8,760 = 87,600 + 52,560 = $140,160
    //   $14/h:      14 × 8,760 = $122,640; saving $17,520; utilization 100 % both.
    // A purchase covering the year from 2026-01-01 sets the term end: 2027-01-01, 363 days
    // after the end of the last charged hour (2026-01-03T00:00Z).
    FocusCharges c = charges();
    FocusCharge purchase = row(0, "0", "0", CommitmentStatus::None, 1, PricingCategory::Committed, 0);
    purchase.category = ChargeCategory::Purchase;
    purchase.periodEnd = kT0 + 365 * 86400;
    c.rows.push_back(purchase);
    for (int h = 0; h < 48; ++h) {
        c.rows.push_back(row(h, "10", "15", CommitmentStatus::Used, 1, PricingCategory::Committed, 4));
        c.rows.push_back(row(h, "6", "6", CommitmentStatus::None, 0, PricingCategory::Standard, 5));
    }
    const auto recs = recommendCommitments(summarizeActuals(c));
    REQUIRE(recs.size() == 1);
    const CommitmentRecommendation &r = recs[0];
    REQUIRE(r.available);
    CHECK(r.measuredMeanPerHour == dec("14"));
    CHECK(r.recommendedPerHour == dec("14"));
    CHECK(r.currentUtilization == Approx(1.0).margin(1e-6));
    CHECK(r.currentTermCost.amount.toString(2) == "140160.00");
    CHECK(r.recommendedTermCost.amount.toString(2) == "122640.00");
    CHECK(r.savingPerTerm.amount.toString(2) == "17520.00");
    REQUIRE(r.daysToRenewal.has_value());
    CHECK(*r.daysToRenewal == 363);
    CHECK(r.termEnd == kT0 + 365 * 86400);
    CHECK(r.reasoning.find("raises it to $14.00/h") != std::string::npos);
    CHECK(r.reasoning.find("Renewal in 363 days") != std::string::npos);
}

TEST_CASE("a commitment nobody used is let go, and one without ListCost gets no figure", "[renewal]")
{
    // Unused every hour: demand 0, the optimizer reserves nothing; the whole $5 × 8,760 = $43,800
    // of the current size is saved.
    FocusCharges c = charges();
    for (int h = 0; h < 30; ++h)
        c.rows.push_back(row(h, "5", "0", CommitmentStatus::Unused, 1, PricingCategory::Committed, 0));
    RenewalOptions options;
    options.onDemandRatio = 1.4;
    auto recs = recommendCommitments(summarizeActuals(c), options);
    REQUIRE(recs.size() == 1);
    REQUIRE(recs[0].available);
    CHECK(recs[0].recommendedPerHour.isZero());
    CHECK(recs[0].recommendedUtilization == 0.0);
    CHECK(recs[0].savingPerTerm.amount.toString(2) == "43800.00");
    CHECK(recs[0].reasoning.find("let it expire") != std::string::npos);

    // Without the ratio and without ListCost on Used rows: no recommendation, and why.
    recs = recommendCommitments(summarizeActuals(c));
    REQUIRE(recs.size() == 1);
    CHECK_FALSE(recs[0].available);
    CHECK(recs[0].reasoning.find("ListCost") != std::string::npos);

    options.onDemandRatio = -1;
    CHECK_THROWS_AS(recommendCommitments(summarizeActuals(c), options), InputError);
    options = {};
    options.termHours = 0;
    CHECK_THROWS_AS(recommendCommitments(summarizeActuals(c), options), InputError);
}

TEST_CASE("a forecast fitted on too few hours, or failing its backtest, gives way to the measured hours", "[renewal]")
{
    // FOCUS's aws_underutilized_50pct example, rebuilt: a $79.11/h commitment used for 12 h
    // (ListCost $118.67: on demand 1.5×) and idle for 12 h. The forecast of 24 h follows the
    // idle level to 0 and would claim the whole $79.11 × 8,760 = $693,003.60 as saved. Under 72 h
    // the measured hours drive: 50 % utilization repeated over the term, where letting it expire
    // costs the used hours on demand, $118.67 × 4,380 = $519,774.60, and saves
    //   $693,003.60 − $519,774.60 = $173,229.00.
    FocusCharges c = charges();
    for (int h = 0; h < 24; ++h) {
        if (h < 12)
            c.rows.push_back(row(h, "79.11", "118.67", CommitmentStatus::Used, 1, PricingCategory::Committed, 4));
        else
            c.rows.push_back(row(h, "79.11", "0", CommitmentStatus::Unused, 1, PricingCategory::Committed, 0));
    }
    auto recs = recommendCommitments(summarizeActuals(c));
    REQUIRE(recs.size() == 1);
    const CommitmentRecommendation &r = recs[0];
    REQUIRE(r.available);
    CHECK(r.basis == RenewalBasis::Measured);
    CHECK(r.basisReason.find("fitted on 24 h, fewer than the 72 h") != std::string::npos);
    CHECK_FALSE(r.backtestMase.has_value());
    CHECK(r.measuredUtilization == Approx(0.5).margin(1e-9));
    CHECK(r.currentUtilization == Approx(0.5).margin(1e-9));
    CHECK(r.recommendedPerHour.isZero());
    CHECK(r.currentTermCost.amount.toString(2) == "693003.60");
    CHECK(r.recommendedTermCost.amount.toString(2) == "519774.60");
    CHECK(r.savingPerTerm.amount.toString(2) == "173229.00");
    // Both answers are shown: the forecast's, and why it was not taken.
    CHECK(r.forecastRecommendedPerHour.isZero());
    CHECK(r.forecastSavingPerTerm.amount.toString(2) == "693003.60");
    CHECK(r.reasoning.find("saving $173,229.00 per term") != std::string::npos);
    CHECK(r.reasoning.find("The forecast alone would commit $0.00/h and claim a saving of $693,003.60")
          != std::string::npos);

    // 72 h where the last day drops: $6/h used (wobbling ±$0.20) for two days, then $2/h. Fitted
    // on the first two days the forecast says $6 for the third, far worse than repeating the
    // second day wobble and all (MASE ≫ 1), so the 72 measured hours drive: demand averages
    // (6 × 48 + 2 × 24) ÷ 72 = $4.67/h against $10/h.
    c = charges();
    for (int h = 0; h < 72; ++h) {
        const double used = (h < 48 ? 6.0 : 2.0) + 0.1 * double((h * 7) % 5 - 2);
        const std::string unused = Decimal::fromDouble(10.0 - used).toString(2);
        const std::string usedText = Decimal::fromDouble(used).toString(2);
        const std::string list = Decimal::fromDouble(1.5 * used).toString(2);
        c.rows.push_back(row(h, usedText.c_str(), list.c_str(), CommitmentStatus::Used, 1, PricingCategory::Committed, 4));
        c.rows.push_back(row(h, unused.c_str(), "0", CommitmentStatus::Unused, 1, PricingCategory::Committed, 0));
    }
    recs = recommendCommitments(summarizeActuals(c));
    REQUIRE(recs.size() == 1);
    REQUIRE(recs[0].available);
    CHECK(recs[0].basis == RenewalBasis::Measured);
    REQUIRE(recs[0].backtestMase.has_value());
    CHECK(*recs[0].backtestMase > 5.0);
    CHECK(recs[0].basisReason.find("did worse than repeating the day before") != std::string::npos);
    // The measured utilization and the cost of the recommended size re-add from the hours:
    // Σ used ÷ ($10 × 72 h); reserved × 72 h + 1.5 × the demand above it, × 8,760 ÷ 72.
    const Decimal reserved = recs[0].recommendedPerHour;
    Decimal over, used;
    for (int h = 0; h < 72; ++h) {
        const Decimal d = Decimal::fromDouble((h < 48 ? 6.0 : 2.0) + 0.1 * double((h * 7) % 5 - 2)).rounded(2);
        used += d;
        if (d > reserved)
            over += d - reserved;
    }
    CHECK(recs[0].measuredUtilization == Approx(used.toDouble() / 720.0).margin(1e-9));
    const Decimal ratio = Decimal::fromInt(3) / int64_t(2);
    CHECK(recs[0].recommendedTermCost.amount.toString(2)
          == ((reserved * int64_t(72) + over * ratio) * int64_t(8760) / int64_t(72)).toString(2));
}

TEST_CASE("a forecast that holds its backtest drives the recommendation", "[renewal]")
{
    // Two weeks of a daily shape: $8/h used from 08:00 to 20:00, $3/h otherwise, wobbling ±$0.20
    // hour to hour, on a $10/h commitment. Holt-Winters with its daily season forecasts the last
    // day better than repeating the day before (whose wobble it does not carry): the forecast drives.
    FocusCharges c = charges();
    for (int h = 0; h < 14 * 24; ++h) {
        const double used = (h % 24 >= 8 && h % 24 < 20 ? 8.0 : 3.0) + 0.1 * double((h * 7) % 5 - 2);
        const std::string usedText = Decimal::fromDouble(used).toString(2);
        const std::string unused = Decimal::fromDouble(10.0 - used).toString(2);
        const std::string list = Decimal::fromDouble(1.5 * used).toString(2);
        c.rows.push_back(row(h, usedText.c_str(), list.c_str(), CommitmentStatus::Used, 1, PricingCategory::Committed, 4));
        c.rows.push_back(row(h, unused.c_str(), "0", CommitmentStatus::Unused, 1, PricingCategory::Committed, 0));
    }
    const auto recs = recommendCommitments(summarizeActuals(c));
    REQUIRE(recs.size() == 1);
    const CommitmentRecommendation &r = recs[0];
    REQUIRE(r.available);
    CHECK(r.basis == RenewalBasis::Forecast);
    CHECK(r.basisReason.empty());
    REQUIRE(r.backtestMase.has_value());
    CHECK(*r.backtestMase <= 1.0);
    CHECK(r.recommendedPerHour == r.forecastRecommendedPerHour);
    CHECK(r.savingPerTerm == r.forecastSavingPerTerm);
    Decimal used;
    for (int h = 0; h < 14 * 24; ++h)
        used += Decimal::fromDouble((h % 24 >= 8 && h % 24 < 20 ? 8.0 : 3.0) + 0.1 * double((h * 7) % 5 - 2)).rounded(2);
    CHECK(r.measuredUtilization == Approx(used.toDouble() / (10.0 * 14 * 24)).margin(1e-9));
    CHECK(r.reasoning.find("Holt-Winters forecast") != std::string::npos);
}

TEST_CASE("anomalies over the actuals carry their size in money and usage hours", "[renewal][anomalies]")
{
    // 70 days of on-demand usage: 24 GPU-hours a day at $4 each ($96 a day), weekends 20 hours
    // ($80), give or take a fixed wobble of −2 … +2 hours ((3d mod 5) − 2). Day 49: a spike of
    // 30 extra GPU-hours ($120 more). From day 60 on: a level shift of +12 GPU-hours a day ($48
    // more a day). Sizes are against a forecast that knows the weekly shape but not the wobble:
    // within ±3 hours ($12), and money is always $4 × hours.
    FocusCharges c = charges();
    c.names.push_back("GPU-Hours");
    const uint32_t gpuHours = uint32_t(c.names.size() - 1);
    for (int d = 0; d < 70; ++d) {
        int hours = (d % 7 >= 5 ? 20 : 24) + (d * 3) % 5 - 2;
        if (d == 49)
            hours += 30;
        if (d >= 60)
            hours += 12;
        FocusCharge r;
        r.periodStart = kT0 + int64_t(d) * 86400;
        r.periodEnd = r.periodStart + 86400;
        r.consumedQuantity = Decimal::fromInt(hours);
        r.consumedUnit = gpuHours;
        r.effectiveCost = Decimal::fromInt(hours * 4);
        r.billedCost = r.effectiveCost;
        r.pricing = PricingCategory::Standard;
        r.service = 1;
        r.region = 2;
        r.resource = 4;
        c.rows.push_back(r);
    }
    const ActualsSummary actuals = summarizeActuals(c);
    REQUIRE(actuals.days.size() == 70);
    CHECK(actuals.days[49].consumedHours == dec("54"));   // 24 + (147 mod 5) − 2 + 30
    AnomalyOptions options;
    options.period = 7;
    options.history = 28;
    const ActualsAnomalyReport report = detectActualsAnomalies(actuals, "USD", options);
    CHECK(report.spend.size() == 70);
    // The spike, found in both series, sized $120 and 30 GPU-hours.
    int spikes = 0, shifts = 0;
    for (const ActualsAnomaly &a : report.anomalies) {
        if (a.kind == AnomalyKind::Spike && a.day == 20454 + 49) {
            ++spikes;
            CHECK(a.moneySize.toDouble() == Approx(120.0).margin(12.0));
            CHECK(a.usageHoursSize == Approx(30.0).margin(3.0));
            CHECK(a.moneySize.toDouble() == Approx(4.0 * a.usageHoursSize).margin(0.01));
        } else if (a.kind == AnomalyKind::LevelShift) {
            ++shifts;
            CHECK(a.day >= 20454 + 60);
            CHECK(a.day <= 20454 + 62);
            CHECK(a.moneySize.toDouble() == Approx(48.0).margin(12.0));
            CHECK(a.usageHoursSize == Approx(12.0).margin(3.0));
        } else {
            FAIL("unexpected anomaly on day " << a.day - 20454);
        }
    }
    CHECK(spikes == 2);     // once in spend, once in usage
    CHECK(shifts == 2);

    // The same actuals without the spike and the shift: nothing.
    FocusCharges clean = charges();
    clean.names.push_back("GPU-Hours");
    for (int d = 0; d < 70; ++d) {
        const int hours = (d % 7 >= 5 ? 20 : 24) + (d * 3) % 5 - 2;
        FocusCharge r = c.rows[size_t(d)];
        r.consumedQuantity = Decimal::fromInt(hours);
        r.effectiveCost = Decimal::fromInt(hours * 4);
        r.billedCost = r.effectiveCost;
        clean.rows.push_back(r);
    }
    CHECK(detectActualsAnomalies(summarizeActuals(clean), "USD", options).anomalies.empty());
    CHECK_THROWS_AS(detectActualsAnomalies(actuals, "EUR", options), InputError);
}

TEST_CASE("usage hours count only hour units", "[renewal][anomalies]")
{
    CHECK(isHourUnit("Hours"));
    CHECK(isHourUnit("GPU-Hours"));
    CHECK(isHourUnit("Instance Hours"));
    CHECK(isHourUnit("hrs"));
    CHECK_FALSE(isHourUnit("GB"));
    CHECK_FALSE(isHourUnit("Read Request Units"));
    CHECK_FALSE(isHourUnit("GB-Hours"));   // storage over time, not a resource's hours
}
