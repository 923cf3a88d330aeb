#include "workloads.h"

#include "engine/inference/workload.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

std::vector<std::string> fields(const WorkloadProfile &w)
{
    std::vector<std::string> names;
    for (const FieldProblem &p : validate(w))
        names.push_back(p.field);
    return names;
}

bool names(const WorkloadProfile &w, const std::string &field)
{
    const auto all = fields(w);
    return std::find(all.begin(), all.end(), field) != all.end();
}

} // namespace

TEST_CASE("workload class and isolation round-trip through text", "[workload]")
{
    for (WorkloadClass c : {WorkloadClass::FlagshipInteractive, WorkloadClass::InternalTool,
                            WorkloadClass::Batch, WorkloadClass::Embedding})
        CHECK(parseWorkloadClass(toString(c)) == c);
    for (Isolation i : {Isolation::None, Isolation::Soft, Isolation::Regulated})
        CHECK(parseIsolation(toString(i)) == i);
    CHECK(toString(WorkloadClass::FlagshipInteractive) == "flagship");
    CHECK(toString(WorkloadClass::InternalTool) == "internal");
    CHECK(toString(Isolation::Regulated) == "regulated");
    CHECK_FALSE(parseWorkloadClass("Flagship").has_value());
    CHECK_FALSE(parseIsolation("").has_value());
}

TEST_CASE("diurnal presets peak at 1 in their peak hours", "[workload]")
{
    const auto business = diurnalShape(DiurnalPreset::BusinessHours);
    const auto evening = diurnalShape(DiurnalPreset::EveningPeak);
    const auto flat = diurnalShape(DiurnalPreset::Flat);
    CHECK(*std::max_element(business.begin(), business.end()) == 1.0);
    CHECK(*std::max_element(evening.begin(), evening.end()) == 1.0);
    for (int hour = 0; hour < 24; ++hour) {
        CHECK(flat[hour] == 1.0);
        CHECK(business[hour] > 0);
        CHECK(evening[hour] > 0);
        CHECK((business[hour] == 1.0) == (hour >= 9 && hour < 17));
        CHECK((evening[hour] == 1.0) == (hour >= 19 && hour < 23));
    }
    // Business hours are far peakier than a flat day.
    const double mean = std::accumulate(business.begin(), business.end(), 0.0) / 24.0;
    CHECK(1.0 / mean > 2.0);
}

TEST_CASE("a complete workload validates clean", "[workload]")
{
    CHECK(validate(chatWorkload()).empty());
    CHECK(validate(longContextWorkload()).empty());
    CHECK(validate(highRateWorkload()).empty());
}

TEST_CASE("workload validation names the JSON key of each bad field", "[workload][bad-input]")
{
    WorkloadProfile w = chatWorkload();
    SECTION("name") { w.name.clear(); CHECK(names(w, "name")); }
    SECTION("model") { w.modelId.clear(); CHECK(names(w, "model")); }
    SECTION("gpu") { w.gpuId.clear(); CHECK(names(w, "gpu")); }
    SECTION("daily_active_users") { w.dailyActiveUsers = 0; CHECK(names(w, "daily_active_users")); }
    SECTION("requests_per_user_per_day") { w.requestsPerUserPerDay = -1; CHECK(names(w, "requests_per_user_per_day")); }
    SECTION("peak_sessions_per_user") { w.peakSessionsPerUser = 0; CHECK(names(w, "peak_sessions_per_user")); }
    SECTION("diurnal all zero") { w.diurnal.fill(0); CHECK(names(w, "diurnal")); }
    SECTION("diurnal negative") { w.diurnal[3] = -1; CHECK(names(w, "diurnal")); }
    SECTION("prompt_p50") { w.promptTokens = {0, 10}; CHECK(names(w, "prompt_p50")); }
    SECTION("prompt_p95 below prompt_p50")
    {
        w.promptTokens = {1000, 999};
        REQUIRE(fields(w) == std::vector<std::string>{"prompt_p95"});
        CHECK(validate(w).front().message == "prompt_p95 (999) must be at least prompt_p50 (1000)");
    }
    SECTION("output_p95 below output_p50") { w.outputTokens = {300, 100}; CHECK(fields(w) == std::vector<std::string>{"output_p95"}); }
    SECTION("prefix_hit_rate 1.5")
    {
        w.prefixHitRate = 1.5;
        REQUIRE(fields(w) == std::vector<std::string>{"prefix_hit_rate"});
        CHECK(validate(w).front().message == "prefix_hit_rate must be between 0 and 1 (got 1.5)");
    }
    SECTION("prefix_hit_rate negative") { w.prefixHitRate = -0.1; CHECK(names(w, "prefix_hit_rate")); }
    SECTION("shared_prefix_tokens") { w.sharedPrefixTokens = -1; CHECK(names(w, "shared_prefix_tokens")); }
    SECTION("ttft_p95_ms") { w.ttftP95Ms = 0; CHECK(names(w, "ttft_p95_ms")); }
    SECTION("itl_p95_ms") { w.itlP95Ms = -5; CHECK(names(w, "itl_p95_ms")); }
    SECTION("traffic_variance below 1") { w.trafficVariance = 0.9; CHECK(names(w, "traffic_variance")); }
    SECTION("measured_goodput_tokens_per_s") { w.measuredGoodputTokensPerS = 0; CHECK(names(w, "measured_goodput_tokens_per_s")); }
    SECTION("measured_max_streams") { w.measuredMaxStreams = 0; CHECK(names(w, "measured_max_streams")); }
    SECTION("tp") { w.tp = 0; CHECK(names(w, "tp")); }
}

TEST_CASE("hit rates 0 and 1 and equal percentiles are valid", "[workload]")
{
    WorkloadProfile w = chatWorkload();
    w.prefixHitRate = 0;
    CHECK(validate(w).empty());
    w.prefixHitRate = 1;
    w.promptTokens = {500, 500};
    CHECK(validate(w).empty());
}

TEST_CASE("a workload's hourly GPU need follows its diurnal curve up to the peak", "[workload]")
{
    WorkloadProfile w;
    for (size_t h = 0; h < 24; ++h)
        w.diurnal[h] = h < 12 ? 0.25 : 0.5;
    w.diurnal[20] = 1.0;
    const auto need = hourlyGpuNeed(w, 40.0);
    CHECK(need[0] == Approx(10.0));
    CHECK(need[12] == Approx(20.0));
    CHECK(need[20] == Approx(40.0));
    CHECK(*std::max_element(need.begin(), need.end()) == Approx(40.0));

    w.diurnal.fill(0.0);
    const auto flat = hourlyGpuNeed(w, 7.0);
    CHECK(flat[0] == Approx(7.0));
    CHECK(flat[23] == Approx(7.0));
}
