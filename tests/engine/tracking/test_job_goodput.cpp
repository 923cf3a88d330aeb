#include "common/jobsamples.h"
#include "engine/common/errors.h"
#include "engine/tracking/job_goodput.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

namespace {

constexpr int64_t kT0 = 1772323200;   // 2026-03-01T00:00:00Z

void add(std::vector<JobSample> &out, int64_t t, const std::string &job, const std::string &node, int gpu,
         JobMetric metric, double value)
{
    addJobSample(out, t, job, node, gpu, metric, value);
}

bool within(int64_t t, double fromHour, double toHour)
{
    return t > kT0 + int64_t(fromHour * 3600) && t <= kT0 + int64_t(toHour * 3600);
}

// llama-ft: 2 nodes × 4 GPUs for 10 h at one-minute scrapes, 3,000 tokens/s a GPU at 90 % active
// and in proportion to the activity: n1 at 20 % from 02:00 to 03:30 (2,666.67 tokens/s a node),
// n2 at 10 % from 05:00 to 06:00 (1,333.33) and 85 % from 07:00 to 08:00 (11,333.33).
// other: one GPU for 2 h, no throughput reported.
std::vector<JobSample> planted()
{
    std::vector<JobSample> s;
    for (int64_t t = kT0; t <= kT0 + 10 * 3600; t += 60) {
        for (const char *node : {"n1", "n2"}) {
            const bool stall = std::string(node) == "n1" && within(t, 2.0, 3.5);
            const bool quiet = std::string(node) == "n2" && within(t, 5.0, 6.0);
            const bool busy = std::string(node) == "n2" && within(t, 7.0, 8.0);
            const double active = stall ? 0.2 : quiet ? 0.1 : busy ? 0.85 : 0.9;
            for (int g = 0; g < 4; ++g)
                add(s, t, "llama-ft", node, g, JobMetric::GrEngineActive, active);
            add(s, t, "llama-ft", node, -1, JobMetric::Throughput, 12000.0 * active / 0.9);
        }
        if (t <= kT0 + 2 * 3600)
            add(s, t, "other", "n9", 0, JobMetric::GpuUtil, 90);
    }
    return s;
}

} // namespace

TEST_CASE("Job goodput: tokens a second per GPU by hour, the hours below plan and their shortfall by hand",
          "[jobgoodput]")
{
    const auto tracking = trackJobGoodput(planted(), {{"llama-ft", 3000.0}}, 0.9);
    REQUIRE(tracking.jobs.size() == 1);
    CHECK(tracking.withoutThroughput == std::vector<std::string>{"other"});
    const JobGoodputTrack &j = tracking.jobs[0];
    CHECK(j.job == "llama-ft");
    REQUIRE(j.hours.size() == 10);
    CHECK(j.gpuHours == Approx(80.0));
    for (const auto &h : j.hours)
        CHECK(h.gpuHours == Approx(8.0));
    CHECK(j.hours[0].hourStart == kT0);
    CHECK(j.hours[0].perGpu == Approx(3000.0));
    // 02:00: n1 at 2,666.67 the whole hour, n2 at 12,000 → 14,666.67 ÷ 8 = 1,833.33 a GPU.
    CHECK(j.hours[2].perGpu == Approx(14666.666666 / 8));
    // 03:00: n1 stalled for half the hour → (1,333.33 + 6,000 + 12,000) ÷ 8 = 2,416.67.
    CHECK(j.hours[3].perGpu == Approx((2666.666666 / 2 + 6000 + 12000) / 8));
    CHECK(j.hours[5].perGpu == Approx((12000 + 1333.333333) / 8));
    CHECK(j.hours[7].perGpu == Approx((12000 + 11333.333333) / 8));   // 2,916.67: above 90 % of plan
    CHECK(j.hours[2].below);
    CHECK(j.hours[3].below);
    CHECK(j.hours[5].below);
    CHECK_FALSE(j.hours[7].below);
    CHECK(j.hoursBelow == 3);
    const double shortfall = 8 * (1 - 1833.333333 / 3000) + 8 * (1 - 2416.666666 / 3000) + 8 * (1 - 1666.666666 / 3000);
    CHECK(j.shortfallGpuHours == Approx(shortfall));
    CHECK(j.shortfallGpuHours == Approx(8.2222).margin(1e-4));
    // Whole-job rate: total tokens ÷ GPU-seconds.
    double tokens = 0;
    for (const auto &h : j.hours)
        tokens += h.samples;
    CHECK(j.samples == Approx(tokens));
    CHECK(j.perGpu == Approx(tokens / (80.0 * 3600)));
}

TEST_CASE("Job goodput: no plan flags nothing, a stricter threshold flags more, intervals split at the hour",
          "[jobgoodput]")
{
    const auto none = trackJobGoodput(planted(), {}, 0.9);
    CHECK(none.jobs[0].planned == 0);
    CHECK(none.jobs[0].hoursBelow == 0);
    const auto strict = trackJobGoodput(planted(), {{"llama-ft", 3000.0}}, 1.0);
    CHECK(strict.jobs[0].hoursBelow == 4);   // 07:00 too

    // One GPU scraped at 00:30 and 01:30: the interval spans two hours, half in each.
    std::vector<JobSample> s;
    add(s, kT0 + 1800, "j", "n", 0, JobMetric::GrEngineActive, 1);
    add(s, kT0 + 5400, "j", "n", 0, JobMetric::GrEngineActive, 1);
    add(s, kT0 + 1800, "j", "n", -1, JobMetric::Throughput, 100);
    add(s, kT0 + 5400, "j", "n", -1, JobMetric::Throughput, 200);
    const auto split = trackJobGoodput(s, {{"j", 150}}, 0.9);
    REQUIRE(split.jobs[0].hours.size() == 2);
    CHECK(split.jobs[0].hours[0].gpuHours == Approx(0.5));
    CHECK(split.jobs[0].hours[0].samples == Approx(200.0 * 1800));
    CHECK(split.jobs[0].hours[1].perGpu == Approx(200));
    CHECK_FALSE(split.jobs[0].hours[0].below);
}

TEST_CASE("Job goodput: bad input is refused naming the job, the line or the field", "[jobgoodput]")
{
    CHECK_THROWS_WITH(trackJobGoodput(planted(), {{"llama-ft", 0.0}}), Catch::Contains("job llama-ft: the planned rate"));
    CHECK_THROWS_WITH(trackJobGoodput(planted(), {}, 1.5), Catch::Contains("flag threshold"));
    std::vector<JobSample> s;
    add(s, kT0, "j", "n", 0, JobMetric::GrEngineActive, 1);
    add(s, kT0 + 60, "j", "n", 0, JobMetric::GrEngineActive, 1);
    CHECK_THROWS_WITH(trackJobGoodput(s, {}), Catch::Contains("no job reports training_throughput"));
    add(s, kT0 + 60, "j", "n", -1, JobMetric::Throughput, -5);
    CHECK_THROWS_WITH(trackJobGoodput(s, {}), Catch::Contains("line 4: training_throughput") &&
                                                  Catch::Contains("out of range (0 or more)"));
}
