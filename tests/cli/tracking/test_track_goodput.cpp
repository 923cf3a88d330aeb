// `headroom track goodput` end to end on the shipped sample telemetry: the planted drops found
// by hand (make_job_telemetry.py's numbers), the plan taken from a workspace training job, money
// to the cent, and bad input exiting 2.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>

namespace {

const QString kSample = QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/job-telemetry.csv");

} // namespace

TEST_CASE("track goodput: the sample's planted drops below plan, hour by hour, to the cent", "[track-cli][jobgoodput]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, ({"track", "goodput", "--telemetry", kSample, "--planned", "llama-ft=3000", "--rate", "2.50",
                          "--json"}));
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    const QJsonArray jobs = o.value("jobs").toArray();
    REQUIRE(jobs.size() == 2);
    const QJsonObject llama = jobs[0].toObject();
    CHECK(llama.value("job").toString() == "llama-ft");
    CHECK(llama.value("gpu_hours").toDouble() == Approx(80.0));
    CHECK(llama.value("hours_below").toInt() == 3);
    CHECK(llama.value("plan_source").toString() == "--planned");
    // 8 × (1 − 1,833.33/3,000) + 8 × (1 − 2,416.67/3,000) + 8 × (1 − 1,666.67/3,000) = 8.222.
    CHECK(llama.value("shortfall_gpu_hours").toDouble() == Approx(8.2222).margin(0.001));
    CHECK(llama.value("shortfall_cost").toString() == "20.50");   // 8.2 GPU-h as shown × 2.50
    const QJsonArray hours = llama.value("hours").toArray();
    REQUIRE(hours.size() == 10);
    CHECK(hours[2].toObject().value("hour").toString() == "2026-03-01T02:00:00Z");
    CHECK(hours[2].toObject().value("per_gpu").toDouble() == Approx(1833.33).margin(0.01));
    CHECK(hours[2].toObject().value("below").toBool());
    CHECK_FALSE(hours[7].toObject().value("below").toBool());   // 2,916.67: within 90 %
    const QJsonObject vision = jobs[1].toObject();
    CHECK(vision.value("planned").isNull());
    CHECK(vision.value("per_gpu").toDouble() == Approx(375.0));   // (400 × 3 + 300) ÷ 4
    CHECK(o.value("without_throughput").toArray().first().toString() == "clean");

    RUN_HEADROOM(text, ws, ({"track", "goodput", "--telemetry", kSample, "--planned", "llama-ft=3000", "--hours",
                             "--planned", "ghost=10"}));
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("llama-ft  2026-03-01T05:00:00Z   8.00     1,666.7  yes"));
    CHECK(text.out.contains("No training_throughput from: clean."));
    CHECK(text.out.contains("Warning: --planned names ghost, which the telemetry does not hold."));
}

TEST_CASE("track goodput: the plan of a workspace training job of the same name", "[track-cli][jobgoodput]")
{
    CliFixture ws;
    // The demo's support-assistant-finetune: 2 × 10¹⁰ tokens in 2.8193 days on 10 GPUs →
    // 8,210.6 tokens/s a GPU; one GPU at 1,000 tokens/s for 10 minutes falls short.
    const QString file = ws.writeFile("tel.csv", "timestamp,job,node,gpu,metric,value\n"
                                                 "2026-03-01T00:00:00Z,support-assistant-finetune,n1,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,0.9\n"
                                                 "2026-03-01T00:10:00Z,support-assistant-finetune,n1,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,0.9\n"
                                                 "2026-03-01T00:00:00Z,support-assistant-finetune,n1,,training_throughput,1000\n"
                                                 "2026-03-01T00:10:00Z,support-assistant-finetune,n1,,training_throughput,1000\n");
    const CliResult plan = ws.runBare({"--demo", "train", "--model", "llama-3.1-8b", "--tokens", "2e10", "--days", "3",
                                       "--mfu", "0.4", "--tp", "1", "--pp", "1", "--zero", "3", "--seq-len", "8192",
                                       "--recompute", "none", "--json"});
    REQUIRE(plan.exitCode == 0);
    const QJsonObject p = parseJsonObject(plan.out);
    const double planned = 2e10 / (p.value("days").toDouble() * 86400.0 * p.value("gpus").toDouble());
    const CliResult r = ws.runBare({"--demo", "track", "goodput", "--telemetry", file, "--json"});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QJsonObject job = parseJsonObject(r.out).value("jobs").toArray().first().toObject();
    CHECK(job.value("plan_source").toString() == "training job");
    CHECK(job.value("planned").toDouble() == Approx(planned));
    CHECK(job.value("planned").toDouble() == Approx(8210.6).margin(0.5));
    CHECK(job.value("shortfall_gpu_hours").toDouble() == Approx(10.0 / 60 * (1 - 1000 / planned)));
}

TEST_CASE("track goodput: bad input exits 2 naming what is wrong", "[track-cli][jobgoodput]")
{
    CliFixture ws;
    RUN_HEADROOM(a, ws, ({"track", "goodput", "--telemetry", kSample, "--planned", "llama-ft"}));
    CHECK(a.exitCode == 2);
    CHECK(a.err.contains("--planned 'llama-ft': give JOB=RATE"));
    RUN_HEADROOM(b, ws, ({"track", "goodput", "--telemetry", kSample, "--below", "2"}));
    CHECK(b.exitCode == 2);
    CHECK(b.err.contains("flag threshold"));
    const QString none = ws.writeFile("n.csv", "timestamp,job,node,gpu,metric,value\n"
                                               "2026-03-01T00:00:00Z,j,n1,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,0.9\n");
    RUN_HEADROOM(c, ws, ({"track", "goodput", "--telemetry", none}));
    CHECK(c.exitCode == 2);
    CHECK(c.err.contains("no job reports training_throughput"));
    RUN_HEADROOM(d, ws, ({"track", "goodput", "--telemetry", kSample, "--last", "3"}));
    CHECK(d.exitCode == 2);
    CHECK(d.err.contains("--last does not apply here"));
}
