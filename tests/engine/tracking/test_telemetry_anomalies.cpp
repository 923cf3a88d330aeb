#include "engine/common/errors.h"
#include "engine/tracking/telemetry_anomalies.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

using namespace headroom::engine;

namespace {

constexpr int64_t kFirstDay = 20514;  // 2026-03-02, a Monday

// A reproducible uniform number in [-1, 1] per (day, salt): a 64-bit LCG step, fully specified.
double noise(int64_t day, uint64_t salt)
{
    uint64_t x = uint64_t(day) * 6364136223846793005ULL + salt * 1442695040888963407ULL + 1;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return double(x % 2001) / 1000.0 - 1.0;
}

ServingHour replicaHour(const std::string &deployment, const std::string &instance, int64_t hour, int gpus, double util)
{
    ServingHour h;
    h.deployment = deployment;
    h.instance = instance;
    h.hour = hour;
    h.gpus = gpus;
    h.gpuUtilMean = util;
    h.gpuUtilPeak = util;
    return h;
}

struct FleetShape {
    int days = 42;
    int dropDay = -1;           // a day at 20 % utilization
    int extraReplicasFrom = -1; // two more 2-GPU replicas all day from this day
};

// Four 2-GPU replicas all day, a fifth for 10-14 hours on weekdays and 3-5 on weekends;
// utilization 60 % on weekdays and 40 % at weekends, ± 1 point of noise per day.
ServingHours fleet(const FleetShape &shape)
{
    ServingHours hours;
    for (int d = 0; d < shape.days; ++d) {
        const int64_t day = kFirstDay + d;
        const bool weekend = d % 7 >= 5;
        double util = (weekend ? 40.0 : 60.0) + noise(day, 1);
        if (d == shape.dropDay)
            util = 20.0;
        const int fifthHours = weekend ? 4 + int(std::lround(noise(day, 2))) : 12 + int(std::lround(2 * noise(day, 3)));
        for (int h = 0; h < 24; ++h) {
            const int64_t hour = day * 24 + h;
            for (int r = 0; r < 4; ++r)
                hours.hours.push_back(replicaHour("chat", "r" + std::to_string(r), hour, 2, util));
            if (h < fifthHours)
                hours.hours.push_back(replicaHour("chat", "r4", hour, 2, util));
            if (shape.extraReplicasFrom >= 0 && d >= shape.extraReplicasFrom)
                for (int r = 5; r < 7; ++r)
                    hours.hours.push_back(replicaHour("chat", "r" + std::to_string(r), hour, 2, util));
        }
    }
    return hours;
}

} // namespace

TEST_CASE("Telemetry days: GPU-hours, busy GPU-hours and unmeasured hours by hand", "[telemetry-anomalies]")
{
    ServingHours hours;
    const int64_t day = kFirstDay;
    // Day 0 from 00:00 to 23:00: a 2-GPU replica at 50 % each hour, and at 12:00 a 4-GPU
    // replica with no utilization sample (framebuffer only) and a replica-hour without GPUs.
    for (int h = 0; h < 24; ++h)
        hours.hours.push_back(replicaHour("chat", "a", day * 24 + h, 2, 50.0));
    hours.hours.push_back(replicaHour("chat", "b", day * 24 + 12, 4, std::numeric_limits<double>::quiet_NaN()));
    hours.hours.push_back(replicaHour("chat", "c", day * 24 + 12, 0, 90.0));
    // Day 1 empty; day 2 whole: 8 GPUs at 25 % all day; day 3 partial (until 05:00).
    for (int h = 0; h < 24; ++h)
        hours.hours.push_back(replicaHour("chat", "a", (day + 2) * 24 + h, 8, 25.0));
    for (int h = 0; h < 6; ++h)
        hours.hours.push_back(replicaHour("chat", "a", (day + 3) * 24 + h, 8, 25.0));
    hours.hours.push_back(replicaHour("other", "z", (day + 2) * 24, 1, 100.0));

    int leftOut = -1;
    const auto days = dailyTelemetry(hours, "chat", &leftOut);
    REQUIRE(days.size() == 3);
    CHECK(leftOut == 1);
    CHECK(days[0].day == day);
    CHECK(days[0].replicaHours == 25);
    CHECK(days[0].gpuHours == Approx(2 * 24 + 4));          // 52 GPU-hours
    CHECK(days[0].measuredGpuHours == Approx(48));          // the 4-GPU hour is unknown
    CHECK(days[0].busyGpuHours == Approx(24));              // 48 × 0.50
    CHECK(days[0].utilization() == Approx(0.5));
    CHECK(days[1].gpuHours == 0.0);
    CHECK_FALSE(days[1].measured());
    CHECK(std::isnan(days[1].utilization()));
    CHECK(days[2].gpuHours == Approx(192));
    CHECK(days[2].busyGpuHours == Approx(48));
    CHECK(days[2].utilization() == Approx(0.25));

    // The whole fleet adds the other deployment's one GPU-hour at 100 %.
    const auto all = dailyTelemetry(hours);
    REQUIRE(all.size() == 3);
    CHECK(all[2].gpuHours == Approx(193));
    CHECK(all[2].utilization() == Approx(49.0 / 193.0));
}

TEST_CASE("Telemetry anomalies: a day at 20 % instead of 60 % is a dip sized in idle GPU-hours", "[telemetry-anomalies]")
{
    FleetShape shape;
    shape.dropDay = 30;   // a Wednesday
    TelemetryAnomalyOptions options;
    options.ratePerGpuHour = Money{Decimal::fromInt(3), "USD"};
    const TelemetryAnomalyReport report = detectTelemetryAnomalies(fleet(shape), options);
    REQUIRE(report.days.size() == 42);
    CHECK(report.utilizationReport.history == 14);
    REQUIRE(report.anomalies.size() == 1);
    const TelemetryAnomaly &a = report.anomalies.front();
    CHECK(a.series == TelemetrySeries::Utilization);
    CHECK(a.kind == AnomalyKind::Dip);
    CHECK(a.day == kFirstDay + 30);
    CHECK(a.utilization == Approx(0.20));
    CHECK(a.expectedUtilization == Approx(0.60).margin(0.015));
    // Day 30: four replicas all day and the fifth for 12 ± 2 hours, 2 GPUs each.
    const TelemetryDay &day = report.days[30];
    const double gpuHours = 4 * 2 * 24 + 2 * (12 + std::lround(2 * noise(kFirstDay + 30, 3)));
    CHECK(day.gpuHours == Approx(gpuHours));
    CHECK(a.gpuHours == Approx(gpuHours));
    // Idle GPU-hours by hand: (0.20 − expected) × GPU-hours of the day.
    CHECK(a.sizeGpuHours == Approx((0.20 - a.expectedUtilization) * gpuHours));
    CHECK(a.sizeGpuHours == Approx(-0.40 * gpuHours).margin(0.015 * gpuHours));
    // Money: the size to 0.01 GPU-hour × $3, to the cent.
    REQUIRE(a.sizeMoney);
    const double shown = std::round(a.sizeGpuHours * 100.0) / 100.0;
    const long cents = std::lround(shown * 3.0 * 100.0);
    CHECK(a.sizeMoney->currency == "USD");
    CHECK(a.sizeMoney->amount == Decimal::fromInt(cents) / 100);
}

TEST_CASE("Telemetry anomalies: two replicas added are a level shift in GPU-hours", "[telemetry-anomalies]")
{
    FleetShape shape;
    shape.extraReplicasFrom = 28;
    TelemetryAnomalyOptions options;
    options.ratePerGpuHour = Money{*Decimal::parse("3.8192"), "USD"};
    const TelemetryAnomalyReport report = detectTelemetryAnomalies(fleet(shape), options);
    const TelemetryAnomaly *shift = nullptr;
    for (const auto &a : report.anomalies) {
        CHECK(a.series == TelemetrySeries::GpuHours);  // the utilization is unchanged
        if (a.kind == AnomalyKind::LevelShift && !shift)
            shift = &a;
    }
    REQUIRE(shift);
    CHECK(shift->day == kFirstDay + 28);
    CHECK(shift->endDay >= shift->day);
    // 2 replicas × 2 GPUs × 24 h = 96 GPU-hours a day more.
    CHECK(shift->sizeGpuHours == Approx(96).margin(6));
    CHECK(shift->gpuHours - shift->expectedGpuHours == Approx(shift->sizeGpuHours));
    REQUIRE(shift->sizeMoney);
    const double shown = std::round(shift->sizeGpuHours * 100.0) / 100.0;
    const long cents = std::lround(shown * 3.8192 * 100.0);
    CHECK(shift->sizeMoney->amount == Decimal::fromInt(cents) / 100);
}

TEST_CASE("Telemetry anomalies: no false alarm on a clean series", "[telemetry-anomalies]")
{
    for (int days : {42, 60}) {
        FleetShape shape;
        shape.days = days;
        const TelemetryAnomalyReport report = detectTelemetryAnomalies(fleet(shape));
        CHECK(report.days.size() == size_t(days));
        CHECK(report.anomalies.empty());
        CHECK(report.unmeasuredDays == 0);
        CHECK(report.partialDaysLeftOut == 0);
        CHECK_FALSE(report.rate);
    }
}

TEST_CASE("Telemetry anomalies: one deployment of several", "[telemetry-anomalies]")
{
    FleetShape shape;
    shape.dropDay = 30;
    ServingHours hours = fleet(shape);
    // Another deployment, steady at 90 %: the drop belongs to chat alone.
    for (int d = 0; d < 42; ++d)
        for (int h = 0; h < 24; ++h)
            hours.hours.push_back(replicaHour("batch", "b0", (kFirstDay + d) * 24 + h, 8, 90.0 + noise(kFirstDay + d, 4)));
    TelemetryAnomalyOptions options;
    options.deployment = "batch";
    CHECK(detectTelemetryAnomalies(hours, options).anomalies.empty());
    options.deployment = "chat";
    const auto chat = detectTelemetryAnomalies(hours, options);
    REQUIRE(chat.anomalies.size() == 1);
    CHECK(chat.anomalies.front().day == kFirstDay + 30);
    CHECK_FALSE(chat.anomalies.front().sizeMoney);
}

TEST_CASE("Telemetry anomalies: bad input names the field", "[telemetry-anomalies]")
{
    const auto field = [](const ServingHours &hours, const TelemetryAnomalyOptions &options) {
        try {
            detectTelemetryAnomalies(hours, options);
        } catch (const InputError &e) {
            return e.field();
        }
        return std::string("none");
    };
    CHECK(field(ServingHours{}, {}) == "metrics");
    FleetShape shortShape;
    shortShape.days = 14;
    CHECK(field(fleet(shortShape), {}) == "days");
    shortShape.days = 15;
    CHECK(field(fleet(shortShape), {}) == "none");
    TelemetryAnomalyOptions unknown;
    unknown.deployment = "nope";
    CHECK(field(fleet({}), unknown) == "deployment");
    TelemetryAnomalyOptions free;
    free.ratePerGpuHour = Money{Decimal(), "USD"};
    CHECK(field(fleet({}), free) == "rate");
    CHECK(telemetryAnomalyMinimumDays(AnomalyOptions{7}) == 15);
    CHECK(telemetryAnomalyMinimumDays(AnomalyOptions{0}) == 4);
    ServingHours noUtil = fleet({});
    for (auto &h : noUtil.hours)
        h.gpuUtilMean = std::numeric_limits<double>::quiet_NaN();
    CHECK(field(noUtil, {}) == "metrics");
}

TEST_CASE("Telemetry anomalies: a day without a utilization sample is interpolated and never flagged", "[telemetry-anomalies]")
{
    ServingHours hours = fleet({});
    for (auto &h : hours.hours)
        if (h.hour / 24 == kFirstDay + 20)
            h.gpuUtilMean = std::numeric_limits<double>::quiet_NaN();
    const TelemetryAnomalyReport report = detectTelemetryAnomalies(hours);
    CHECK(report.unmeasuredDays == 1);
    CHECK_FALSE(report.days[20].measured());
    CHECK(report.days[20].gpuHours == Approx(report.gpuHours[20]));
    CHECK(report.days[20].gpuHours > 0.0);
    CHECK(report.utilization[20] == Approx((report.days[19].utilization() + report.days[21].utilization()) / 2.0));
    for (const auto &a : report.anomalies)
        CHECK_FALSE((a.series == TelemetrySeries::Utilization && a.day == kFirstDay + 20));
}
