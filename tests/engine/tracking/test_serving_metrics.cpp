#include "engine/common/calendar.h"
#include "engine/common/errors.h"
#include "engine/tracking/serving_metrics.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <string>

using namespace headroom::engine;

namespace {

constexpr int64_t kT0 = 1772409600; // 2026-03-02T00:00:00Z, hour 492336

MetricSample sample(int64_t offset, const std::string &instance, const std::string &gpu, ServingMetric metric,
                    double value, int line)
{
    MetricSample s;
    s.epochSeconds = kT0 + offset;
    s.deployment = "chat";
    s.instance = instance;
    s.gpu = gpu;
    s.metric = metric;
    s.value = value;
    s.line = line;
    return s;
}

ServingHour replicaHour(const std::string &instance, int64_t hour, double tokensPerSecond, double waiting, int gpus = 2)
{
    ServingHour h;
    h.deployment = "chat";
    h.instance = instance;
    h.hour = hour;
    h.gpus = gpus;
    h.gpuUtilMean = 50;
    h.gpuUtilPeak = 60;
    h.fbUsedMibMean = 70000;
    h.kvCacheMean = 0.4;
    h.runningMean = 8;
    h.waitingMean = waiting;
    h.waitingPeak = waiting;
    h.generationTokens = {tokensPerSecond * 3600.0, 3600.0};
    h.requests = {tokensPerSecond * 3600.0 / 200.0, 3600.0};
    return h;
}

// Four replicas of two GPUs over 20 hours. In hour h every replica carries 50 + 10h tokens/s
// (fleet 200 … 960), except hour 19 where r1 carries 600 tokens/s without a queue (fleet
// 600 + 3 × 240 = 1,320).
ServingHours fleet(double waitingAtBusyHours = 0.0)
{
    ServingHours hours;
    for (int h = 0; h < 20; ++h)
        for (const char *name : {"r1", "r2", "r3", "r4"}) {
            const double load = (h == 19 && std::string(name) == "r1") ? 600.0 : 50.0 + 10.0 * h;
            const double waiting = h == 19 && std::string(name) == "r1" ? 0.2 : (h >= 18 ? waitingAtBusyHours : 0.0);
            hours.hours.push_back(replicaHour(name, 1000 + h, load, waiting));
        }
    return hours;
}

} // namespace

TEST_CASE("serving samples become replica-hours: gauge means and peaks, GPUs seen, counter rates across a reset",
          "[serving_metrics]")
{
    std::vector<MetricSample> samples = {
        sample(10 * 3600, "a", "0", ServingMetric::GpuUtil, 40, 2),
        sample(10 * 3600 + 1800, "a", "0", ServingMetric::GpuUtil, 60, 3),
        sample(10 * 3600, "a", "1", ServingMetric::GpuUtil, 80, 4),
        sample(10 * 3600 + 1800, "a", "1", ServingMetric::GpuUtil, 100, 5),
        sample(10 * 3600, "a", "", ServingMetric::RequestsWaiting, 1, 6),
        sample(10 * 3600 + 1800, "a", "", ServingMetric::RequestsWaiting, 3, 7),
        sample(10 * 3600, "a", "", ServingMetric::KvCacheUsage, 0.25, 8),
        // Counter: 0 → 90,000 → 180,000 → restarted, now 50,000.
        sample(10 * 3600, "a", "", ServingMetric::GenerationTokensTotal, 0, 9),
        sample(10 * 3600 + 1800, "a", "", ServingMetric::GenerationTokensTotal, 90000, 10),
        sample(11 * 3600, "a", "", ServingMetric::GenerationTokensTotal, 180000, 11),
        sample(11 * 3600 + 1800, "a", "", ServingMetric::GenerationTokensTotal, 50000, 12),
    };
    const ServingHours result = aggregateServingHours(samples);
    REQUIRE(result.hours.size() == 2);
    CHECK(result.counterResets == 1);
    const ServingHour &h10 = result.hours[0];
    CHECK(h10.hour == kT0 / 3600 + 10);
    CHECK(h10.gpus == 2);
    CHECK(h10.gpuUtilMean == Approx(70.0));      // (40 + 60 + 80 + 100) / 4
    CHECK(h10.gpuUtilPeak == 100.0);
    CHECK(h10.waitingMean == Approx(2.0));
    CHECK(h10.waitingPeak == 3.0);
    CHECK(h10.kvCacheMean == Approx(0.25));
    CHECK(std::isnan(h10.runningMean));
    CHECK(h10.generationTokens.increase == 90000.0);
    CHECK(h10.generationTokens.seconds == 1800.0);
    CHECK(h10.generationTokens.perSecond() == Approx(50.0));
    const ServingHour &h11 = result.hours[1];
    CHECK(h11.gpus == 0);                        // no DCGM sample in hour 11
    CHECK(h11.generationTokens.increase == 140000.0);   // 90,000 + 50,000 after the reset
    CHECK(h11.generationTokens.seconds == 3600.0);
    CHECK_FALSE(h11.requests.measured());

    const auto replicas = summarizeReplicas(result);
    REQUIRE(replicas.size() == 1);
    CHECK(replicas[0].hours == 2);
    CHECK(replicas[0].gpus == 2);
    CHECK(replicas[0].tokensPerSecond == Approx(230000.0 / 5400.0));
    CHECK(replicas[0].tokensPerSecondPeak == Approx(50.0));   // hour 10: 90,000 in 1,800 s
    // No request counter with two samples in either hour: a rate not measured, not one of zero.
    CHECK_FALSE(h10.requests.measured());
    CHECK(std::isnan(replicas[0].requestsPerSecond));
}

TEST_CASE("two samples of one series at the same time are refused naming both lines", "[serving_metrics]")
{
    std::vector<MetricSample> samples = {
        sample(0, "a", "0", ServingMetric::GpuUtil, 40, 5),
        sample(0, "a", "0", ServingMetric::GpuUtil, 41, 9),
    };
    try {
        aggregateServingHours(samples);
        FAIL("no error");
    } catch (const InputError &error) {
        CHECK(error.field() == "timestamp");
        CHECK_THAT(error.what(), Catch::Contains("lines 5 and 9"));
    }
    // The same time on another GPU is another series.
    samples[1].gpu = "1";
    CHECK(aggregateServingHours(samples).hours.at(0).gpus == 2);
}

TEST_CASE("rightsizing: busy-hour load over the demonstrated per-replica goodput, with the planned headroom",
          "[serving_metrics]")
{
    RightsizingOptions options;
    options.plannedHeadroom = 0.2;
    options.ratePerGpuHour = Money{*Decimal::parse("2.50"), "USD"};
    const auto results = rightsize(fleet(), options);
    REQUIRE(results.size() == 1);
    const RightsizingResult &r = results[0];
    CHECK(r.deployment == "chat");
    CHECK(r.hours == 20);
    CHECK(r.currentReplicas == 4);
    CHECK(r.gpusPerReplica == 2);
    // Nearest-rank P95 of 20 hourly loads is the 19th smallest: 4 × (50 + 10 × 18) = 920.
    CHECK(r.busyLoad == Approx(920.0));
    CHECK(r.busyHour == 1018);
    // r1 carried 600 tokens/s for hour 19 with 0.2 waiting.
    CHECK(r.capacityPerReplica == Approx(600.0));
    CHECK(r.capacityInstance == "r1");
    CHECK(r.capacityHour == 1019);
    CHECK_FALSE(r.saturated);
    // ⌈920 × 1.2 ÷ 600⌉ = ⌈1.84⌉ = 2 replicas; 2 × 2 GPUs × $2.50 × 720 h = $7,200.
    CHECK(r.recommendedReplicas == 2);
    CHECK(r.gpusSaved() == 4);
    REQUIRE(r.savingPerMonth);
    CHECK(r.savingPerMonth->amount == *Decimal::parse("7200"));
    CHECK(r.savingPerMonth->currency == "USD");
    CHECK_THAT(r.explanation, Catch::Contains("⌈920.0 × (1 + 0.20 planned headroom) ÷ 600.0⌉ = 2 replicas"));
    CHECK_THAT(r.explanation, Catch::Contains("7200.00 USD a month"));
    // The hourly loads the busy load was read from, each Σ over the replicas reporting.
    REQUIRE(r.loadByHour.size() == size_t(r.hours));
    CHECK(std::is_sorted(r.loadByHour.begin(), r.loadByHour.end(),
                         [](const HourLoad &a, const HourLoad &b) { return a.hour < b.hour; }));
    CHECK(std::any_of(r.loadByHour.begin(), r.loadByHour.end(),
                      [&](const HourLoad &h) { return h.hour == r.busyHour && h.load == r.busyLoad; }));
    CHECK(std::all_of(r.loadByHour.begin(), r.loadByHour.end(), [](const HourLoad &h) { return h.replicas == 4; }));

    // Without headroom ⌈920 ÷ 600⌉ = 2 still; with 0.5 it is ⌈2.3⌉ = 3.
    options.plannedHeadroom = 0.5;
    CHECK(rightsize(fleet(), options).at(0).recommendedReplicas == 3);
    CHECK(rightsize(fleet(), options).at(0).savingPerMonth->amount == *Decimal::parse("3600"));
    // Requests as the load: every replica-hour's requests are tokens ÷ 200.
    options.plannedHeadroom = 0.2;
    options.load = LoadMeasure::Requests;
    const auto byRequests = rightsize(fleet(), options).at(0);
    CHECK(byRequests.busyLoad == Approx(4.6));
    CHECK(byRequests.capacityPerReplica == Approx(3.0));
    CHECK(byRequests.recommendedReplicas == 2);
}

TEST_CASE("rightsizing claims no saving when requests queue at the busy hours", "[serving_metrics]")
{
    RightsizingOptions options;
    options.ratePerGpuHour = Money{*Decimal::parse("2.50"), "USD"};
    const auto r = rightsize(fleet(3.0), options).at(0);
    CHECK(r.saturated);
    // Hours 18 and 19 have load ≥ 920; hour 18 averages 3 waiting per replica.
    CHECK(r.busyWaitingPerReplica == Approx(3.0));
    CHECK(r.recommendedReplicas == 4);
    CHECK_FALSE(r.savingPerMonth);
    CHECK(r.gpusSaved() == 0);
    CHECK_THAT(r.explanation, Catch::Contains("no replica can be released"));
}

TEST_CASE("rightsizing without a rate or without waiting data says why it gives no money", "[serving_metrics]")
{
    const auto unpriced = rightsize(fleet()).at(0);
    CHECK(unpriced.recommendedReplicas == 2);
    CHECK_FALSE(unpriced.savingPerMonth);
    CHECK_THAT(unpriced.explanation, Catch::Contains("no rate given"));

    ServingHours noWaiting = fleet();
    for (ServingHour &h : noWaiting.hours)
        h.waitingMean = std::nan("");
    const auto unknown = rightsize(noWaiting).at(0);
    CHECK(unknown.capacityPerReplica == 0.0);
    CHECK(unknown.recommendedReplicas == 4);
    CHECK_THAT(unknown.explanation, Catch::Contains("capacity per replica is not known"));

    RightsizingOptions zeroQuantile;
    zeroQuantile.busyQuantile = 0.0;
    CHECK_THROWS_AS(rightsize(fleet(), zeroQuantile), InputError);
    RightsizingOptions bad;
    bad.plannedHeadroom = 1.0;
    CHECK_THROWS_AS(rightsize(fleet(), bad), InputError);
}

TEST_CASE("benchmark history: goodput per GPU and cost per 1M tokens before and after an optimization",
          "[serving_metrics]")
{
    const int64_t day = daysSinceEpoch(*parseIsoDate("2026-03-10"));
    ServingHours hours;
    // Two days before: one replica of 2 GPUs, 1,800,000 tokens an hour (250 tokens/s per GPU).
    for (int64_t h = (day - 2) * 24; h < day * 24; ++h)
        hours.hours.push_back(replicaHour("r1", h, 500.0, 0.0));
    // Two days after: 2,700,000 tokens an hour (375 tokens/s per GPU).
    for (int64_t h = day * 24; h < (day + 2) * 24; ++h)
        hours.hours.push_back(replicaHour("r1", h, 750.0, 0.0));
    // Outside both windows: must not count.
    for (int64_t h = (day - 3) * 24; h < (day - 2) * 24; ++h)
        hours.hours.push_back(replicaHour("r1", h, 5000.0, 0.0));
    std::sort(hours.hours.begin(), hours.hours.end(),
              [](const ServingHour &a, const ServingHour &b) { return a.hour < b.hour; });

    BenchmarkOptions options;
    options.windowDays = 2;
    options.ratePerGpuHour = Money{*Decimal::parse("2.50"), "USD"};
    const auto results = benchmarkHistory(hours, {{"FP8 weights", day, ""}}, options);
    REQUIRE(results.size() == 1);
    const BenchmarkResult &r = results[0];
    CHECK(r.before.replicaHours == 48);
    CHECK(r.before.gpuHours == 96.0);
    CHECK(r.before.tokens == Approx(86.4e6));
    CHECK(r.before.goodputPerGpu() == Approx(250.0));
    CHECK(r.after.goodputPerGpu() == Approx(375.0));
    REQUIRE(r.goodputChangePercent);
    CHECK(*r.goodputChangePercent == Approx(50.0));
    // 96 GPU-hours × $2.50 = $240 over 86.4 M tokens = $2.7778 per 1M; after, over 129.6 M = $1.8519.
    REQUIRE(r.costBefore);
    CHECK(*r.costBefore == Approx(240.0 / 86.4));
    CHECK(*r.costAfter == Approx(240.0 / 129.6));
    CHECK(*r.costChangePercent == Approx(-100.0 / 3.0));

    // Without a rate, no cost; a window without data gives no change.
    const auto unpriced = benchmarkHistory(hours, {{"later", day + 30, ""}}, {7, "", std::nullopt});
    CHECK_FALSE(unpriced.at(0).after.measured());
    CHECK_FALSE(unpriced.at(0).goodputChangePercent);
    CHECK_FALSE(unpriced.at(0).costBefore);
    CHECK_THROWS_AS(benchmarkHistory(hours, {}, {0, "", std::nullopt}), InputError);

    // The daily series the Serving chart draws: five days, each 24 replica-hours of 2 GPUs.
    const auto daily = dailyGoodput(hours);
    REQUIRE(daily.size() == 5);
    CHECK(daily[0].day == day - 3);
    CHECK(daily[0].goodputPerGpu() == Approx(2500.0));
    CHECK(daily[1].goodputPerGpu() == Approx(250.0));
    CHECK(daily[2].gpuHours == 48.0);
    CHECK(daily[3].goodputPerGpu() == Approx(375.0));
    // Re-added: the two days after hold the after window's tokens and GPU-hours.
    CHECK(daily[3].tokens + daily[4].tokens == Approx(r.after.tokens));
    CHECK(daily[3].gpuHours + daily[4].gpuHours == r.after.gpuHours);
    CHECK(dailyGoodput(hours, "no such deployment").empty());
}

namespace {

// A histogram as Prometheus exports it: cumulative counts per upper bound, +Inf last.
LatencyHistogram histogram(std::vector<std::pair<double, double>> buckets)
{
    LatencyHistogram h;
    h.buckets = std::move(buckets);
    return h;
}

// TTFT of an hour: `n` requests, P95 at `p95` seconds (half below p95 / 2, 95 % below p95,
// the rest below twice it).
LatencyHistogram ttftAround(double p95, double n = 100)
{
    return histogram({{p95 / 2, 0.5 * n}, {p95, 0.95 * n}, {2 * p95, n}, {std::numeric_limits<double>::infinity(), n}});
}

} // namespace

TEST_CASE("latency quantiles from histogram buckets read as Prometheus' histogram_quantile", "[serving_metrics]")
{
    const double inf = std::numeric_limits<double>::infinity();
    const LatencyHistogram h = histogram({{0.1, 10}, {0.25, 60}, {0.5, 90}, {1.0, 98}, {inf, 100}});
    CHECK(h.count() == 100);
    // P50: rank 50 falls in (0.1, 0.25] holding 50 of them, 40 in: 0.1 + 0.15 × 40 ÷ 50 = 0.22.
    CHECK(h.quantile(0.50) == Approx(0.22));
    // P95: rank 95 in (0.5, 1] holding 8, 5 in: 0.5 + 0.5 × 5 ÷ 8 = 0.8125.
    CHECK(h.quantile(0.95) == Approx(0.8125));
    // P5: in the first bucket, from 0: 0.1 × 5 ÷ 10 = 0.05.
    CHECK(h.quantile(0.05) == Approx(0.05));
    // P99: rank 99 in the +Inf bucket: the largest finite bound.
    CHECK(h.quantile(0.99) == 1.0);
    CHECK(std::isnan(LatencyHistogram{}.quantile(0.5)));
    CHECK(std::isnan(histogram({{0.1, 0}, {inf, 0}}).quantile(0.5)));
    // A count that dips below the bound before it (scrapes not atomic) is raised to it.
    CHECK(histogram({{0.1, 10}, {0.25, 8}, {inf, 20}}).quantile(0.5) == Approx(0.1));

    // Adding bound by bound; a bound missing on one side takes the count below it there.
    LatencyHistogram a = histogram({{0.1, 10}, {0.5, 30}, {inf, 40}});
    a.add(histogram({{0.25, 5}, {0.5, 10}, {inf, 10}}));
    REQUIRE(a.buckets.size() == 4);
    CHECK(a.buckets[0] == std::pair<double, double>{0.1, 10});
    CHECK(a.buckets[1] == std::pair<double, double>{0.25, 15});
    CHECK(a.buckets[2] == std::pair<double, double>{0.5, 40});
    CHECK(a.buckets[3].second == 50);
}

TEST_CASE("histogram bucket counters become hourly histograms per replica", "[serving_metrics]")
{
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<MetricSample> samples;
    int line = 2;
    // Two scrapes 30 min apart in hour 0 (the first sets the base), one in hour 1 after a restart.
    const std::vector<std::tuple<int64_t, double, double>> scrapes = {
        {0, 0.5, 100}, {0, inf, 110}, {1800, 0.5, 160}, {1800, inf, 180}, {3600 + 600, 0.5, 20}, {3600 + 600, inf, 25}};
    for (const auto &[offset, le, value] : scrapes) {
        MetricSample s = sample(offset, "a", "", ServingMetric::TtftBucket, value, line++);
        s.le = le;
        samples.push_back(s);
    }
    const ServingHours hours = aggregateServingHours(samples);
    REQUIRE(hours.hours.size() == 2);
    // Hour 0: 60 requests ≤ 0.5 s of 70.
    REQUIRE(hours.hours[0].ttft.buckets.size() == 2);
    CHECK(hours.hours[0].ttft.buckets[0].second == 60);
    CHECK(hours.hours[0].ttft.count() == 70);
    // Hour 1: the counters restarted (160 → 20, 180 → 25): the increase is the new value.
    CHECK(hours.hours[1].ttft.buckets[0].second == 20);
    CHECK(hours.hours[1].ttft.count() == 25);
    CHECK(hours.counterResets == 2);
    CHECK(hours.hours[0].e2e.empty());
    // The replica's quantiles over both hours: 80 ≤ 0.5 s of 95; P50 = 0.5 × 47.5 ÷ 80.
    const auto replicas = summarizeReplicas(hours);
    REQUIRE(replicas.size() == 1);
    CHECK(replicas[0].ttftP50 == Approx(0.5 * 47.5 / 80.0));
    CHECK(replicas[0].ttftP95 == 0.5);
    CHECK(std::isnan(replicas[0].e2eP95));
}

TEST_CASE("rightsizing with a TTFT SLO counts only the hours that met it", "[serving_metrics]")
{
    RightsizingOptions options;
    options.ratePerGpuHour = Money{*Decimal::parse("2.50"), "USD"};
    options.slo = LatencySlo{LatencyKind::Ttft, 0.95, 1.0};
    // Every replica-hour answers 100 requests in 0.2 s at P95 except r1's 600 tokens/s hour:
    // 10 requests at 3 s.
    ServingHours hours = fleet();
    for (ServingHour &h : hours.hours)
        h.ttft = h.instance == "r1" && h.hour == 1019 ? ttftAround(3.0, 10) : ttftAround(0.2);
    const auto r = rightsize(hours, options).at(0);
    CHECK(r.sloHours == 80);
    // r1's hour no longer shows capacity: the best within the SLO is 240 tokens/s (hour 19, r2).
    CHECK(r.capacityPerReplica == Approx(240.0));
    CHECK(r.capacityLatency == Approx(0.2));
    // The busy hours' deployment-wide P95 is within 1 s: in hour 19, 300 of 310 requests in ≤ 0.4 s,
    // rank 294.5 in (0.2, 0.4] → 0.2 + 0.2 × 9.5 ÷ 15 = 0.327 s.
    CHECK_FALSE(r.saturated);
    CHECK(r.busyLatency == Approx(0.2 + 0.2 * 9.5 / 15.0));
    // ⌈920 × 1.2 ÷ 240⌉ = ⌈4.6⌉ = 5 replicas: more than the 4 running, no saving.
    CHECK(r.recommendedReplicas == 5);
    CHECK_FALSE(r.savingPerMonth);
    CHECK_THAT(r.explanation, Catch::Contains("within the SLO TTFT P95 ≤ 1000 ms (200 ms)"));
    CHECK_THAT(r.explanation, Catch::Contains("⌈920.0 × (1 + 0.20 planned headroom) ÷ 240.0⌉ = 5 replicas"));

    // Without the SLO, the same metrics give the queue-only answer (2 replicas).
    options.slo.reset();
    CHECK(rightsize(hours, options).at(0).recommendedReplicas == 2);

    // Slow at the busy hours (18 and 19) across the fleet: saturated, nothing released.
    options.slo = LatencySlo{LatencyKind::Ttft, 0.95, 1.0};
    for (ServingHour &h : hours.hours)
        h.ttft = ttftAround(h.hour >= 1018 ? 2.0 : 0.2);
    const auto slow = rightsize(hours, options).at(0);
    CHECK(slow.saturated);
    CHECK(slow.busyLatency == Approx(2.0));
    CHECK(slow.recommendedReplicas == 4);
    CHECK_THAT(slow.explanation, Catch::Contains("missed the SLO TTFT P95 ≤ 1000 ms (2000 ms"));

    // An SLO with no histogram in the metrics: the queue alone, said so.
    const auto none = rightsize(fleet(), options).at(0);
    CHECK(none.recommendedReplicas == 2);
    CHECK(none.sloHours == 0);
    CHECK_THAT(none.explanation, Catch::Contains("no TTFT histogram"));

    RightsizingOptions bad;
    bad.slo = LatencySlo{LatencyKind::Ttft, 1.0, 1.0};
    CHECK_THROWS_AS(rightsize(fleet(), bad), InputError);
    bad.slo = LatencySlo{LatencyKind::E2e, 0.9, 0.0};
    CHECK_THROWS_AS(rightsize(fleet(), bad), InputError);
}
