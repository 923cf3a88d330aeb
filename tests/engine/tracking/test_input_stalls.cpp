#include "engine/common/errors.h"
#include "common/jobsamples.h"
#include "engine/tracking/input_stalls.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

namespace {

constexpr int64_t kT0 = 1772323200;   // 2026-03-01T00:00:00Z

struct Telemetry {
    std::vector<JobSample> samples;
    void add(int64_t t, const std::string &job, const std::string &node, int gpu, JobMetric metric, double value)
    {
        addJobSample(samples, t, job, node, gpu, metric, value);
    }
};

bool within(int64_t t, double fromHour, double toHour)
{
    return t > kT0 + int64_t(fromHour * 3600) && t <= kT0 + int64_t(toHour * 3600);
}

// llama-ft: 2 nodes × 4 GPUs for 10 h at one-minute scrapes, 32 cores a node; a planted input
// stall on n1 from 02:00 to 03:30 (activity 0.2 with the CPU at 97 %); two decoys on n2 — idle
// with the CPU quiet (05:00–06:00), CPU saturated with the GPUs busy (07:00–08:00).
// vision: 1 node × 2 GPUs for 4 h, GPU utilization only, its loader waiting 25 % of 01:00–02:00.
// clean: one GPU busy for 3 h with its CPU saturated.
Telemetry planted()
{
    Telemetry tel;
    for (int64_t t = kT0; t <= kT0 + 10 * 3600; t += 60) {
        for (const char *node : {"n1", "n2"}) {
            const bool stall = std::string(node) == "n1" && within(t, 2.0, 3.5);
            const bool quiet = std::string(node) == "n2" && within(t, 5.0, 6.0);
            const bool busyCpu = std::string(node) == "n2" && within(t, 7.0, 8.0);
            for (int g = 0; g < 4; ++g)
                tel.add(t, "llama-ft", node, g, JobMetric::GrEngineActive, stall ? 0.2 : quiet ? 0.1 : busyCpu ? 0.85 : 0.9);
            tel.add(t, "llama-ft", node, -1, JobMetric::CpuUtilization, stall ? 0.97 : quiet ? 0.3 : busyCpu ? 0.99 : 0.6);
            tel.add(t, "llama-ft", node, -1, JobMetric::CpuCores, 32);
        }
        if (t <= kT0 + 4 * 3600) {
            for (int g = 0; g < 2; ++g)
                tel.add(t, "vision", "n3", g, JobMetric::GpuUtil, within(t, 1.0, 2.0) ? 70 : 95);
            tel.add(t, "vision", "n3", -1, JobMetric::LoaderWait, within(t, 1.0, 2.0) ? 0.25 : 0.0);
        }
        if (t <= kT0 + 3 * 3600) {
            tel.add(t, "clean", "n4", 0, JobMetric::GrEngineActive, 0.95);
            tel.add(t, "clean", "n4", -1, JobMetric::CpuUtilization, 0.95);
        }
    }
    return tel;
}

const JobStalls &jobOf(const StallAudit &audit, const std::string &name)
{
    for (const JobStalls &j : audit.jobs)
        if (j.job == name)
            return j;
    FAIL("no job " << name);
    throw 0;
}

} // namespace

TEST_CASE("Stall audit finds planted input stalls exactly and none where the GPUs waited for something else", "[stalls]")
{
    const StallAudit audit = auditInputStalls(planted().samples);
    REQUIRE(audit.jobs.size() == 3);
    CHECK(audit.jobs[0].job == "llama-ft");   // the most recent last sample first
    const JobStalls &llama = jobOf(audit, "llama-ft");
    CHECK(llama.gpus == 8);
    CHECK(llama.nodes == 2);
    CHECK(llama.allocatedGpuHours == Approx(80.0));
    // 4 GPUs × 1.5 h × (1 − 0.2) = 4.8 GPU-hours; the decoys add nothing.
    CHECK(llama.stallGpuHours == Approx(4.8).margin(1e-9));
    CHECK(llama.share() == Approx(0.06));
    // 32 cores ÷ 4 GPUs = 8 a GPU; 8 × 80 ÷ 75.2 = 8.51 → 9.
    CHECK(llama.coresPerGpu == Approx(8.0));
    CHECK(llama.recommendedCoresPerGpu == 9);

    const JobStalls &vision = jobOf(audit, "vision");
    CHECK(vision.activityMetric == "DCGM_FI_DEV_GPU_UTIL");
    CHECK(vision.allocatedGpuHours == Approx(8.0));
    CHECK(vision.stallGpuHours == Approx(0.5).margin(1e-9));      // 2 GPUs × 1 h × 0.25
    CHECK(vision.loaderWaitGpuHours == Approx(0.5).margin(1e-9));
    CHECK(vision.recommendedCoresPerGpu == 0);                     // cores not reported

    const JobStalls &clean = jobOf(audit, "clean");
    CHECK(clean.stallGpuHours == 0.0);
    CHECK(audit.stallGpuHours == Approx(5.3));

    StallOptions lastTwo;
    lastTwo.lastJobs = 2;
    const StallAudit two = auditInputStalls(planted().samples, lastTwo);
    REQUIRE(two.jobs.size() == 2);
    CHECK(two.jobsSeen == 3);
    CHECK(two.jobs[1].job == "vision");
}

TEST_CASE("Stall audit reports no stall on clean telemetry and refuses bad samples naming the line", "[stalls]")
{
    Telemetry tel;
    for (int64_t t = kT0; t <= kT0 + 3600; t += 30) {
        tel.add(t, "j", "n", 0, JobMetric::GrEngineActive, 0.92);
        tel.add(t, "j", "n", -1, JobMetric::CpuUtilization, 0.99);
    }
    const StallAudit audit = auditInputStalls(tel.samples);
    REQUIRE(audit.jobs.size() == 1);
    CHECK(audit.jobs[0].allocatedGpuHours == Approx(1.0));
    CHECK(audit.jobs[0].stallGpuHours == 0.0);

    Telemetry bad = tel;
    bad.add(kT0 + 30, "j", "n", 0, JobMetric::GrEngineActive, 0.5);
    CHECK_THROWS_WITH(auditInputStalls(bad.samples), Catch::Contains("both give DCGM_FI_PROF_GR_ENGINE_ACTIVE"));
    Telemetry range;
    range.add(kT0, "j", "n", 0, JobMetric::GrEngineActive, 1.5);
    CHECK_THROWS_WITH(auditInputStalls(range.samples), Catch::Contains("line 2: DCGM_FI_PROF_GR_ENGINE_ACTIVE"));
    Telemetry none;
    none.add(kT0, "j", "n", -1, JobMetric::CpuUtilization, 0.5);
    CHECK_THROWS_WITH(auditInputStalls(none.samples), Catch::Contains("no GPU activity sample"));
}
