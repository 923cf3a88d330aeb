#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"
#include "engine/forecast/telemetry.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

constexpr int64_t kMonday = 1772409600; // 2026-03-02T00:00:00Z

TelemetrySample sample(int64_t offsetSeconds, const std::string &tenant, double gpus, int line)
{
    return {kMonday + offsetSeconds, {tenant, "llama-3.1-70b", "chat"}, gpus, line};
}

template <typename Call>
std::string errorField(Call call)
{
    try {
        call();
    } catch (const InputError &error) {
        return error.field();
    }
    return "no error";
}

} // namespace

TEST_CASE("telemetry samples aggregate to hourly means on a common axis", "[telemetry]")
{
    const std::vector<TelemetrySample> samples{
        sample(3600 + 900, "globex", 10.0, 2),  // hour 1 of globex: 10 and 14 → 12
        sample(0, "acme", 4.0, 3),
        sample(3600 + 2700, "globex", 14.0, 4),
        sample(3600, "acme", 6.0, 5),
        sample(7200 + 3599, "acme", 8.0, 6),
        sample(1800, "globex", 3.0, 7),
    };
    const HourlyTelemetry hourly = aggregateHourly(samples);
    CHECK(hourly.startEpochSeconds == kMonday);
    CHECK(hourly.hours == 3);
    REQUIRE(hourly.primitives.size() == 2);
    CHECK(hourly.primitives[0].key.tenant == "acme");
    CHECK(hourly.primitives[0].key.label() == "acme / llama-3.1-70b / chat");
    CHECK(hourly.primitives[0].gpus == std::vector<double>{4.0, 6.0, 8.0});
    CHECK(hourly.primitives[0].gaps.empty());
    CHECK(hourly.primitives[0].samples == 3);
    const PrimitiveSeries &globex = hourly.primitives[1];
    CHECK(globex.gpus[0] == 3.0);
    CHECK(globex.gpus[1] == 12.0);
    CHECK(std::isnan(globex.gpus[2]));
    REQUIRE(globex.gaps.size() == 1);
    CHECK(globex.gaps[0].firstHourEpoch == kMonday + 7200);
    CHECK(globex.gaps[0].hours == 1);
    CHECK(globex.missingHours() == 1);
    CHECK(hourly.hasGaps());
    const std::vector<double> total = hourly.total();
    CHECK(total[0] == 7.0);
    CHECK(total[1] == 18.0);
    CHECK(std::isnan(total[2]));
    CHECK(hourly.duplicates.empty());
}

TEST_CASE("gaps are reported as ranges and refused for fitting", "[telemetry]")
{
    std::vector<TelemetrySample> samples;
    for (int h = 0; h < 60; ++h)
        if (h < 10 || h > 14) // hours 10..14 missing
            samples.push_back(sample(h * 3600, "acme", 20.0 + h % 24, h + 2));
    samples.push_back(sample(30 * 3600 + 60, "acme", 100.0, 99)); // a second sample in hour 30
    const HourlyTelemetry hourly = aggregateHourly(samples);
    REQUIRE(hourly.primitives.size() == 1);
    const PrimitiveSeries &series = hourly.primitives[0];
    REQUIRE(series.gaps.size() == 1);
    CHECK(series.gaps[0].firstHourEpoch == kMonday + 10 * 3600);
    CHECK(series.gaps[0].lastHourEpoch == kMonday + 14 * 3600);
    CHECK(series.gaps[0].hours == 5);
    CHECK(series.gpus[30] == Approx((20.0 + 6.0 + 100.0) / 2.0)); // both samples of hour 30 averaged

    // A series with gaps is not fitted; the caller picks a policy.
    CHECK(errorField([&] { fitSmoothing(series.gpus, {TrendKind::None, SeasonKind::Additive, 24}); }) == "series");
    CHECK(errorField([&] { fillGaps(series.gpus, GapPolicy::Refuse); }) == "gaps");
    const std::vector<double> filled = fillGaps(series.gpus, GapPolicy::Interpolate);
    CHECK(filled[9] == 29.0);
    CHECK(filled[12] == Approx(29.0 + 3.0 * (35.0 - 29.0) / 6.0));
    CHECK(filled[15] == 35.0);
    CHECK(fillGaps(series.gpus, GapPolicy::Zero)[11] == 0.0);
    CHECK(fillGaps(series.gpus, GapPolicy::CarryForward)[14] == 29.0);
    CHECK_NOTHROW(fitSmoothing(filled, {TrendKind::None, SeasonKind::Additive, 24}));
}

TEST_CASE("gap policies fill the ends from the nearest observed hour", "[telemetry]")
{
    const double nan = std::nan("");
    const std::vector<double> series{nan, 2.0, nan, nan, 8.0, nan};
    CHECK(fillGaps(series, GapPolicy::CarryForward) == std::vector<double>{2.0, 2.0, 2.0, 2.0, 8.0, 8.0});
    CHECK(fillGaps(series, GapPolicy::Interpolate) == std::vector<double>{2.0, 2.0, 4.0, 6.0, 8.0, 8.0});
    CHECK(fillGaps(series, GapPolicy::Zero) == std::vector<double>{0.0, 2.0, 0.0, 0.0, 8.0, 0.0});
    CHECK(errorField([&] { fillGaps({nan, nan}, GapPolicy::Zero); }) == "gaps");
    CHECK(fillGaps({1.0, 2.0}, GapPolicy::Refuse) == std::vector<double>{1.0, 2.0});
}

TEST_CASE("duplicate samples are reported with both lines and the first is kept", "[telemetry]")
{
    const std::vector<TelemetrySample> samples{
        sample(0, "acme", 4.0, 2),
        sample(0, "acme", 40.0, 3),
        sample(0, "globex", 5.0, 4),    // same time, other primitive: not a duplicate
        sample(600, "acme", 6.0, 5),
    };
    const HourlyTelemetry hourly = aggregateHourly(samples);
    REQUIRE(hourly.duplicates.size() == 1);
    CHECK(hourly.duplicates[0].key.tenant == "acme");
    CHECK(hourly.duplicates[0].epochSeconds == kMonday);
    CHECK(hourly.duplicates[0].firstLine == 2);
    CHECK(hourly.duplicates[0].line == 3);
    CHECK(hourly.primitives[0].gpus[0] == 5.0);
    CHECK(hourly.primitives[0].samples == 2);
}

TEST_CASE("bad telemetry samples name their field and line", "[telemetry]")
{
    CHECK(errorField([] { aggregateHourly({}); }) == "samples");
    try {
        aggregateHourly({sample(0, "acme", 1.0, 2), sample(60, "acme", -1.0, 7)});
        FAIL("negative GPUs accepted");
    } catch (const InputError &error) {
        CHECK(error.field() == "gpus");
        CHECK(std::string(error.what()).find("line 7") != std::string::npos);
    }
    CHECK(errorField([] { aggregateHourly({sample(0, "acme", std::nan(""), 2)}); }) == "gpus");
    CHECK(errorField([] { aggregateHourly({{-5, {"a", "b", "c"}, 1.0, 2}}); }) == "timestamp");
}

TEST_CASE("pod demand is GPU share times overlap with each hour", "[telemetry][pods]")
{
    std::vector<PodRecord> pods(5);
    pods[0] = {"a", 2, 1000, "", "LS", "Running", 1800, 5400, 2};   // 2 GPUs, half of hours 0 and 1
    pods[1] = {"b", 1, 500, "V100M16", "BE", "Running", 3600, 10800, 3}; // 0.5 GPU in hours 1 and 2
    pods[2] = {"c", 0, 0, "", "BE", "Running", 0, 7200, 4};         // CPU only: skipped
    pods[3] = {"d", 1, 1000, "", "LS", "Pending", 900, 900, 5};     // no lifetime: skipped
    pods[4] = {"e", 4, 1000, "", "", "Pending", 9000, 9900, 6};     // 4 GPUs for 900 s of hour 2

    const PodDemand byModel = demandFromPods(pods, PodSplit::GpuModel);
    CHECK(byModel.startSeconds == 0);
    CHECK(byModel.hours == 3);
    CHECK(byModel.podsCounted == 3);
    CHECK(byModel.podsSkipped == 2);
    REQUIRE(byModel.names == std::vector<std::string>{"V100M16", "any"});
    CHECK(byModel.gpus[0] == std::vector<double>{0.0, 0.5, 0.5});
    CHECK(byModel.gpus[1] == std::vector<double>{1.0, 1.0, 1.0});
    CHECK(byModel.total == std::vector<double>{1.0, 1.5, 1.5});

    const PodDemand byQos = demandFromPods(pods, PodSplit::Qos);
    REQUIRE(byQos.names == std::vector<std::string>{"BE", "LS", "unknown"});
    CHECK(byQos.gpus[2] == std::vector<double>{0.0, 0.0, 1.0});
    CHECK(demandFromPods(pods, PodSplit::None).names == std::vector<std::string>{"total"});

    pods[1].gpuMilli = 1200;
    CHECK(errorField([&] { demandFromPods(pods, PodSplit::None); }) == "gpu_milli");
    CHECK(errorField([&] { demandFromPods({pods[2], pods[3]}, PodSplit::None); }) == "pods");
}
