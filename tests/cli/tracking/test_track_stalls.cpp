// `headroom track stalls` end to end on the planted sample (data/samples/make_job_telemetry.py):
// the planted stalls found to 0.1 GPU-hour, none on the clean job, money to the cent, and bad
// input exiting 2 naming the line.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

const QString kSample = QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/job-telemetry.csv");

QJsonObject jobOf(const QJsonArray &jobs, const QString &name)
{
    for (const QJsonValue &v : jobs)
        if (v.toObject().value("job").toString() == name)
            return v.toObject();
    FAIL("no job " << name.toStdString());
    return {};
}

} // namespace

TEST_CASE("track stalls: the planted stalls of the sample to 0.1 GPU-hour, none on the clean job", "[track-cli][stalls]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, ({"track", "stalls", "--telemetry", kSample, "--rate", "2.49", "--json"}));
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("jobs_seen").toInt() == 3);
    const QJsonArray jobs = o.value("jobs").toArray();
    REQUIRE(jobs.size() == 3);
    CHECK(jobs[0].toObject().value("job").toString() == "llama-ft");
    const QJsonObject llama = jobOf(jobs, "llama-ft");
    // 4 GPUs × 1.5 h × (1 − 0.2) = 4.8 GPU-hours of 80; 4.8 × $2.49 = $11.952 → $11.95.
    CHECK(llama.value("allocated_gpu_hours").toDouble() == Approx(80.0));
    CHECK(llama.value("stall_gpu_hours").toDouble() == Approx(4.8).margin(0.05));
    CHECK(llama.value("stall_cost").toString() == "11.95");
    CHECK(llama.value("cores_per_gpu").toDouble() == 8.0);
    CHECK(llama.value("recommended_cores_per_gpu").toInt() == 9);
    const QJsonObject vision = jobOf(jobs, "vision");
    CHECK(vision.value("stall_gpu_hours").toDouble() == Approx(0.5).margin(0.05));
    CHECK(vision.value("loader_wait_gpu_hours").toDouble() == Approx(0.5).margin(0.05));
    CHECK(vision.value("activity_metric").toString() == "DCGM_FI_DEV_GPU_UTIL");
    CHECK(jobOf(jobs, "clean").value("stall_gpu_hours").toDouble() == 0.0);

    RUN_HEADROOM(last, ws, ({"track", "stalls", "--telemetry", kSample, "--last", "1"}));
    REQUIRE(last.exitCode == 0);
    CHECK(last.out.contains("the last 1 of 3 jobs"));
    CHECK(last.out.contains(QRegularExpression(QStringLiteral("\\nllama-ft .* 80\\.0 +4\\.8 +6\\.0 %"))));
    CHECK_FALSE(last.out.contains("vision"));
}

TEST_CASE("track stalls: bad telemetry exits 2 naming the line and field", "[track-cli][stalls]")
{
    CliFixture ws;
    const auto refused = [&](const QByteArray &csv, const QString &needle, const QStringList &extra = {}) {
        const QString file = ws.writeFile("bad.csv", csv);
        const CliResult r = ws.run(QStringList{"track", "stalls", "--telemetry", file} + extra);
        INFO("stderr: " << r.err.toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains(needle));
    };
    const QByteArray header = "timestamp,job,node,gpu,metric,value\n";
    refused(header + "yesterday,j,n,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,0.5\n", "line 2: field \"timestamp\"");
    refused(header + "2026-03-01T00:00:00Z,j,n,,DCGM_FI_PROF_GR_ENGINE_ACTIVE,0.5\n", "line 2: field \"gpu\"");
    refused(header + "2026-03-01T00:00:00Z,j,n,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,lots\n", "line 2: field \"value\"");
    refused(header + "2026-03-01T00:00:00Z,j,n,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,1.5\n", "line 2: DCGM_FI_PROF_GR_ENGINE_ACTIVE");
    refused(header + "2026-03-01T00:00:00Z,j,n,,node_cpu_utilization,0.5\n", "no GPU activity sample");
    refused(header + "2026-03-01T00:00:00Z,j,n,0,DCGM_FI_SM_CLOCK,1400\n", "no sample of a metric the stall audit reads");
    refused("job,node\n", "missing column");
    refused(header + "2026-03-01T00:00:00Z,j,n,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,0.5\n", "--idle-below 2", {"--idle-below", "2"});
}
