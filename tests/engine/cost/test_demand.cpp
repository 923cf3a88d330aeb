#include "costsupport.h"

#include "engine/cost/demand.h"
#include "engine/common/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::dec;
using headroom::test::hourly;

namespace {

struct BadShape {
    std::string field;
    std::function<void(DemandShape &)> spoil;
};

} // namespace

TEST_CASE("a noise-free shape follows the baseline and the daily bump", "[demand]")
{
    DemandShape shape; // 200 baseline, 320 weekday peak at 14:00, width 4 h, weekend 0.6
    const DemandSeries week = generateDemand(shape, "week");
    REQUIRE(week.gpus.size() == 168);
    CHECK(week.name == "week");
    CHECK(week.startEpochSeconds == 0);
    CHECK(week.source.find("baseline 200") != std::string::npos);
    CHECK(week.gpus[14] == Decimal::fromInt(320));                // Monday 14:00
    CHECK(week.gpus[10] == Decimal::fromInt(273));                // 200 + 120 e^(-16/32) = 272.78
    CHECK(week.gpus[2] == Decimal::fromInt(201));                 // 12 h away: 200 + 120 e^(-4.5) = 201.33
    CHECK(week.gpus[5 * 24 + 14] == Decimal::fromInt(272));       // Saturday: 200 + 0.6 × 120
    CHECK(week.gpus[6 * 24 + 14] == Decimal::fromInt(272));       // Sunday
    CHECK(demandPeak(week) == 320);
    for (Decimal g : week.gpus)
        CHECK(g >= Decimal::fromInt(200));
}

TEST_CASE("the weekend follows the calendar of the first day", "[demand]")
{
    // A series that starts on a Friday (firstWeekday 4): days 1 and 2 are Saturday and Sunday,
    // day 3 is a Monday again; the peak of the weekend is 200 + 0.6 × 120 = 272.
    DemandShape shape;
    shape.firstWeekday = 4;
    const DemandSeries week = generateDemand(shape, "from Friday");
    CHECK(week.gpus[0 * 24 + 14] == Decimal::fromInt(320));       // Friday
    CHECK(week.gpus[1 * 24 + 14] == Decimal::fromInt(272));       // Saturday
    CHECK(week.gpus[2 * 24 + 14] == Decimal::fromInt(272));       // Sunday
    for (int day : {3, 4, 5, 6})                                   // Monday to Thursday
        CHECK(week.gpus[size_t(day * 24 + 14)] == Decimal::fromInt(320));
    CHECK(week.source.find("first day Friday") != std::string::npos);
    shape.firstWeekday = 7;
    CHECK_THROWS_AS(generateDemand(shape), InputError);
}

TEST_CASE("growth is linear per 30 days and fractional GPUs are kept when asked", "[demand]")
{
    DemandShape shape;
    shape.growthPerMonth = 0.03;
    shape.hours = 24 * 60;
    shape.roundToWholeGpus = false;
    const DemandSeries series = generateDemand(shape);
    // Hour 734 is Wednesday of week 5, at the peak: 320 × (1 + 0.03 × 734 / 720).
    CHECK(series.gpus[734].toDouble() == Approx(320 * (1 + 0.03 * 734 / 720.0)).margin(1e-9));
    CHECK(series.gpus[734].toString(3) == "329.787");
    CHECK(series.gpus[2].ceilToInteger() == series.gpus[2].toIntegerTruncated() + 1);
}

TEST_CASE("a seed gives the same noisy series every time", "[demand]")
{
    DemandShape shape;
    shape.noise = 0.1;
    shape.seed = 42;
    shape.hours = 720;
    const DemandSeries a = generateDemand(shape);
    const DemandSeries b = generateDemand(shape);
    CHECK(a.gpus == b.gpus);
    shape.seed = 43;
    const DemandSeries c = generateDemand(shape);
    CHECK(a.gpus != c.gpus);
    shape.noise = 0;
    const double smoothMean = demandMean(generateDemand(shape));
    CHECK(demandMean(a) == Approx(smoothMean).epsilon(0.01));
}

TEST_CASE("bad demand shapes name the field", "[demand]")
{
    const std::vector<BadShape> cases = {
        {"baseline_gpus", [](DemandShape &s) { s.baselineGpus = -1; }},
        {"baseline_gpus", [](DemandShape &s) { s.baselineGpus = std::nan(""); }},
        {"daily_peak_gpus", [](DemandShape &s) { s.dailyPeakGpus = 199; }},
        {"peak_hour", [](DemandShape &s) { s.peakHour = 24; }},
        {"peak_hour", [](DemandShape &s) { s.peakHour = -1; }},
        {"peak_width_hours", [](DemandShape &s) { s.peakWidthHours = 0; }},
        {"weekend_factor", [](DemandShape &s) { s.weekendFactor = 1.5; }},
        {"growth_per_month", [](DemandShape &s) { s.growthPerMonth = -1; }},
        {"noise", [](DemandShape &s) { s.noise = 0.6; }},
        {"hours", [](DemandShape &s) { s.hours = 0; }},
        {"hours", [](DemandShape &s) { s.hours = 87601; }},
    };
    for (const BadShape &bad : cases) {
        DemandShape shape;
        bad.spoil(shape);
        INFO(bad.field);
        try {
            generateDemand(shape);
            FAIL("no error");
        } catch (const InputError &e) {
            CHECK(e.field() == bad.field);
        }
    }
}

TEST_CASE("quantiles interpolate linearly between order statistics as numpy does", "[demand]")
{
    const DemandSeries four = hourly({4, 1, 3, 2});
    CHECK(demandQuantile(four, 0.5) == 2.5);
    CHECK(demandQuantile(four, 0.75) == 3.25);
    CHECK(demandQuantile(four, 0) == 1);
    CHECK(demandQuantile(four, 1) == 4);
    const DemandSeries five = hourly({50, 10, 40, 20, 30});
    CHECK(demandQuantile(five, 0.1) == Approx(14.0).epsilon(1e-12));
    CHECK(demandQuantile(five, 0.5) == 30);
    CHECK(demandQuantile(hourly({7}), 0.3) == 7);
    CHECK(demandMean(four) == 2.5);
    CHECK(demandPeak(five) == 50);

    DemandSeries fractional;
    fractional.gpus = {dec("0.5"), dec("1.25")};
    CHECK(demandMean(fractional) == 0.875);
    CHECK(demandQuantile(fractional, 0.5) == 0.875);
}

TEST_CASE("quantiles of an empty series or outside 0..1 are refused", "[demand]")
{
    CHECK_THROWS_AS(demandQuantile(DemandSeries{}, 0.5), InputError);
    CHECK_THROWS_AS(demandMean(DemandSeries{}), InputError);
    CHECK_THROWS_AS(demandPeak(DemandSeries{}), InputError);
    try {
        demandQuantile(hourly({1, 2}), 1.5);
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "quantile");
    }
}
