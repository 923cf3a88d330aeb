// `headroom track import --metrics`, `track rightsizing` and `track benchmarks` end to end: a
// constructed DCGM / vLLM export whose figures are worked out by hand, the JSON contract, the
// optimizations kept in the workspace, and bad input exiting 2 with the reason.
#include "common/clirunner.h"
#include "prometheussupport.h"
#include "store/tracking/metricscsv.h"

#include "engine/common/calendar.h"
#include "engine/inference/sizing_options.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <algorithm>
#include <QJsonArray>
#include <QDate>
#include <QDateTime>
#include <QJsonObject>
#include <QLocale>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cmath>

using namespace headroom;

namespace {

constexpr qint64 kT0 = 1772409600; // 2026-03-02T00:00:00Z

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    return path;
}

// Four replicas of two GPUs sampled on the hour for 21 hours. The interval ending at hour k
// (1…20) carries 50 + 10 (k − 1) tokens/s on every replica, except hour 20 where r1 carries
// 600 tokens/s; nobody waits.
QByteArray fleetCsv(qint64 t0 = kT0)
{
    QByteArray csv = "timestamp,instance,gpu,metric,value,deployment\n";
    for (const char *replica : {"r1", "r2", "r3", "r4"}) {
        double counter = 0;
        for (int k = 0; k <= 20; ++k) {
            const qint64 t = t0 + k * 3600;
            if (k > 0)
                counter += ((k == 20 && QByteArray(replica) == "r1") ? 600.0 : 50.0 + 10.0 * (k - 1)) * 3600.0;
            for (const char *gpu : {"0", "1"})
                csv += QByteArray::number(t) + ',' + replica + ',' + gpu + ",DCGM_FI_DEV_GPU_UTIL,55,chat\n";
            csv += QByteArray::number(t) + ',' + replica + ",,vllm:num_requests_waiting,0,chat\n";
            csv += QByteArray::number(t) + ',' + replica + ",,vllm:generation_tokens_total,"
                + QByteArray::number(counter, 'f', 0) + ",chat\n";
            csv += QByteArray::number(t) + ',' + replica + ",,DCGM_FI_DEV_SM_CLOCK,1980,chat\n";
        }
    }
    return csv;
}

// One replica of two GPUs sampled on the hour from 2026-03-08 to 2026-03-12: 500 tokens/s
// before 2026-03-10, 750 after.
QByteArray benchmarkCsv()
{
    const qint64 day = engine::daysSinceEpoch(*engine::parseIsoDate("2026-03-10"));
    const qint64 start = (day - 2) * 86400;
    QByteArray csv = "timestamp,instance,gpu,metric,value\n";
    double counter = 0;
    for (int k = 0; k <= 96; ++k) {
        const qint64 t = start + k * 3600;
        if (k > 0)
            counter += (t <= day * 86400 - 3600 ? 500.0 : 750.0) * 3600.0;
        for (const char *gpu : {"0", "1"})
            csv += QByteArray::number(t) + ",r1," + gpu + ",DCGM_FI_DEV_GPU_UTIL,70\n";
        csv += QByteArray::number(t) + ",r1,,vllm:generation_tokens_total," + QByteArray::number(counter, 'f', 0) + '\n';
    }
    return csv;
}

} // namespace

TEST_CASE("track import --metrics keeps replica-hours and counts what it ignored", "[track-serving-cli]")
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("fleet.csv"), fleetCsv());
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"track", "import", "--metrics", path, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("file").toString() == "fleet.csv");
    CHECK(o.value("rows").toInt() == 4 * 21 * 5);
    CHECK(o.value("samples").toInt() == 4 * 21 * 4);
    CHECK(o.value("ignored_rows").toInt() == 84);
    CHECK(o.value("ignored_metrics").toArray().at(0).toObject().value("metric").toString() == "DCGM_FI_DEV_SM_CLOCK");
    CHECK(o.value("replica_hours").toInt() == 84);
    CHECK(o.value("replicas").toInt() == 4);
    CHECK(o.value("counter_resets").toInt() == 0);

    // A bad file changes nothing.
    const QString bad = writeFile(dir, QStringLiteral("bad.csv"),
                                  "timestamp,instance,gpu,metric,value\n1772409600,r1,0,DCGM_FI_DEV_GPU_UTIL,140\n");
    RUN_HEADROOM(refused, ws, {"track", "import", "--metrics", bad});
    CHECK(refused.exitCode != 0);
    CHECK(refused.err.contains("bad.csv: line 2: field \"value\": 140 is above 100"));
    RUN_HEADROOM(still, ws, {"track", "rightsizing", "--json"});
    REQUIRE(still.exitCode == 0);
    CHECK(parseJsonObject(still.out).value("deployments").toArray().size() == 1);
}

TEST_CASE("track rightsizing: busy-hour load over demonstrated per-replica goodput, with the saving", "[track-serving-cli]")
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("fleet.csv"), fleetCsv());
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"track", "rightsizing", "--metrics", path, "--rate", "2.50", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("load").toString() == "tokens");
    CHECK(o.value("planned_headroom").toDouble() == 0.2);   // the workspace's serving assumptions
    CHECK(o.value("rate_per_gpu_hour").toString() == "2.50");
    const QJsonArray deployments = o.value("deployments").toArray();
    REQUIRE(deployments.size() == 1);
    const QJsonObject d = deployments[0].toObject();
    CHECK(d.value("deployment").toString() == "chat");
    CHECK(d.value("hours").toInt() == 20);
    CHECK(d.value("current_replicas").toInt() == 4);
    CHECK(d.value("gpus_per_replica").toInt() == 2);
    // P95 of 20 hours = the 19th smallest fleet load: 4 × (50 + 10 × 18) = 920 tokens/s.
    CHECK(d.value("busy_load").toDouble() == Approx(920.0));
    CHECK(d.value("busy_hour").toString() == "2026-03-02T19:00:00Z");
    CHECK(d.value("capacity_per_replica").toDouble() == Approx(600.0));
    CHECK(d.value("capacity_instance").toString() == "r1");
    // ⌈920 × 1.2 ÷ 600⌉ = 2; 2 replicas × 2 GPUs × $2.50 × 720 h = $7,200.00.
    CHECK(d.value("recommended_replicas").toInt() == 2);
    CHECK(d.value("gpus_saved").toInt() == 4);
    CHECK_FALSE(d.value("saturated").toBool());
    CHECK(d.value("saving_per_month").toString() == "7200.00");
    CHECK(d.value("explanation").toString().contains("⌈920.0 × (1 + 0.20 planned headroom) ÷ 600.0⌉ = 2"));
    const QJsonArray replicas = o.value("replicas").toArray();
    REQUIRE(replicas.size() == 4);
    CHECK(replicas[0].toObject().value("gpu_util_mean").toDouble() == 55.0);

    RUN_HEADROOM(text, ws, {"track", "rightsizing", "--metrics", path, "--rate", "2.50", "--headroom", "0.5"});
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("$3,600.00"));    // ⌈2.3⌉ = 3: one replica of 2 GPUs
    CHECK(text.out.contains("Rate $2.50 per GPU-hour (--rate)"));

    RUN_HEADROOM(badQ, ws, {"track", "rightsizing", "--metrics", path, "--busy-quantile", "1.5"});
    CHECK(badQ.exitCode == 2);
    CHECK(badQ.err.contains("--busy-quantile"));
    RUN_HEADROOM(badGpu, ws, {"track", "rightsizing", "--metrics", path, "--gpu", "no-such-gpu"});
    CHECK(badGpu.exitCode == 2);
    CHECK(badGpu.err.contains("--gpu no-such-gpu: no on-demand rate"));
    RUN_HEADROOM(other, ws, {"track", "rightsizing", "--metrics", path, "--threshold", "0.5"});
    CHECK(other.exitCode == 2);
    CHECK(other.err.contains("--threshold does not apply here"));
    RUN_HEADROOM(empty, ws, {"track", "rightsizing"});
    CHECK(empty.exitCode == 2);
    CHECK(empty.err.contains("the workspace holds no serving metrics"));
}

TEST_CASE("track benchmarks: optimizations stored in the workspace with before and after figures", "[track-serving-cli]")
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("bench.csv"), benchmarkCsv());
    CliFixture ws;
    RUN_HEADROOM(imported, ws, {"track", "import", "--metrics", path});
    REQUIRE(imported.exitCode == 0);
    RUN_HEADROOM(added, ws, {"track", "benchmarks", "--add", "FP8 weights", "--date", "2026-03-10", "--note",
                             "weights in FP8", "--window-days", "2", "--rate", "2.50", "--json"});
    REQUIRE(added.exitCode == 0);
    const QJsonObject o = parseJsonObject(added.out);
    CHECK(o.value("window_days").toInt() == 2);
    const QJsonArray list = o.value("benchmarks").toArray();
    REQUIRE(list.size() == 1);
    const QJsonObject b = list[0].toObject();
    CHECK(b.value("name").toString() == "FP8 weights");
    CHECK(b.value("date").toString() == "2026-03-10");
    CHECK(b.value("note").toString() == "weights in FP8");
    const QJsonObject before = b.value("before").toObject();
    const QJsonObject after = b.value("after").toObject();
    CHECK(before.value("from").toString() == "2026-03-08");
    CHECK(after.value("to").toString() == "2026-03-12");
    // Before: hours 1…47 of the file (hour 0 only sets the counters' base), 2 GPUs each:
    // 94 GPU-hours, 47 × 1.8 M tokens = 84.6 M → 84.6 M ÷ (94 × 3600) = 250 tokens/s per GPU,
    // $2.50 × 94 ÷ 84.6 = $2.7778 per 1M tokens. After: 48 hours, 96 GPU-hours, 129.6 M tokens
    // → 375 tokens/s per GPU, $1.8519 per 1M.
    CHECK(before.value("replica_hours").toInt() == 47);
    CHECK(before.value("gpu_hours").toDouble() == 94.0);
    CHECK(before.value("tokens").toDouble() == 84.6e6);
    CHECK(before.value("goodput_per_gpu").toDouble() == Approx(250.0));
    CHECK(after.value("goodput_per_gpu").toDouble() == Approx(375.0));
    CHECK(before.value("cost_per_1m_tokens").toDouble() == Approx(2.5 * 94 / 84.6));
    CHECK(after.value("cost_per_1m_tokens").toDouble() == Approx(2.5 * 96 / 129.6));
    CHECK(b.value("goodput_change_percent").toDouble() == Approx(50.0));
    CHECK(b.value("cost_change_percent").toDouble() == Approx(-100.0 / 3.0));

    // Kept in the workspace: the table without --add shows it.
    RUN_HEADROOM(table, ws, {"track", "benchmarks", "--window-days", "2", "--rate", "2.50"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("FP8 weights"));
    CHECK(table.out.contains("250.0"));
    CHECK(table.out.contains("+50.0%"));
    CHECK(table.out.contains("$2.7778"));
    CHECK(table.out.contains("-33.3%"));

    RUN_HEADROOM(twice, ws, {"track", "benchmarks", "--add", "FP8 weights", "--date", "2026-03-11"});
    CHECK(twice.exitCode != 0);
    CHECK(twice.err.contains("already exists"));
    RUN_HEADROOM(badDate, ws, {"track", "benchmarks", "--add", "x", "--date", "2026-02-30"});
    CHECK(badDate.exitCode == 2);
    CHECK(badDate.err.contains("--date: '2026-02-30' is not a date"));
    RUN_HEADROOM(removed, ws, {"track", "benchmarks", "--remove", "FP8 weights", "--json"});
    REQUIRE(removed.exitCode == 0);
    CHECK(parseJsonObject(removed.out).value("benchmarks").toArray().isEmpty());
    RUN_HEADROOM(missing, ws, {"track", "benchmarks", "--remove", "FP8 weights"});
    CHECK(missing.exitCode == 2);
}

TEST_CASE("track rightsizing on the shipped synthetic sample recommends fewer replicas only where measured",
          "[track-serving-cli]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"track", "rightsizing", "--metrics", QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/serving-metrics.csv"),
                         "--days", "7", "--rate", "3.00", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject d = parseJsonObject(r.out).value("deployments").toArray().at(0).toObject();
    CHECK(d.value("deployment").toString() == "llama-3.1-70b-chat");
    CHECK(d.value("current_replicas").toInt() == 3);
    CHECK(d.value("capacity_instance").toString() == "r1");
    CHECK(d.value("capacity_hour").toString() == "2026-03-12T14:00:00Z");   // the rolling restart
    const int needed = d.value("recommended_replicas").toInt();
    CHECK(needed == int(std::ceil(d.value("busy_load").toDouble() * 1.2 / d.value("capacity_per_replica").toDouble() - 1e-9)));
    CHECK(needed == 2);
    CHECK(d.value("saving_per_month").toString() == "4320.00");   // 1 × 2 GPUs × $3.00 × 720 h

    // Latency from the histogram buckets, against an independent recomputation in Python
    // (Prometheus' histogram_quantile over the replica's hours added bucket by bucket): r1's
    // TTFT P50 150.8 ms, P95 419.7 ms, end-to-end P95 16.0 s over the last 7 days.
    const QJsonArray replicas = parseJsonObject(r.out).value("replicas").toArray();
    REQUIRE(replicas.size() == 4);
    const QJsonObject r1 = replicas.at(0).toObject();
    CHECK(r1.value("instance").toString() == "r1");
    CHECK(r1.value("ttft_p50_ms").toDouble() == Approx(150.8).epsilon(0.001));
    CHECK(r1.value("ttft_p95_ms").toDouble() == Approx(419.7).epsilon(0.001));
    CHECK(r1.value("e2e_p95_ms").toDouble() == Approx(16001.6).epsilon(0.001));
    CHECK(d.value("slo_hours").toInt() == 0);   // no SLO asked

    // A TTFT SLO of 1 s at P95: the restart hour r1 carried alone answered in 1,788 ms, so
    // the busiest hours missed it and nothing is released.
    RUN_HEADROOM(strict, ws, {"track", "rightsizing", "--metrics", QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/serving-metrics.csv"),
                              "--days", "7", "--rate", "3.00", "--slo-ms", "1000", "--json"});
    REQUIRE(strict.exitCode == 0);
    const QJsonObject s1 = parseJsonObject(strict.out).value("deployments").toArray().at(0).toObject();
    CHECK(parseJsonObject(strict.out).value("slo").toObject().value("metric").toString() == "ttft");
    CHECK(s1.value("saturated").toBool());
    CHECK(s1.value("busy_latency_ms").toDouble() == Approx(1788.48).epsilon(0.001));
    CHECK(s1.value("recommended_replicas").toInt() == 3);
    CHECK(s1.value("saving_per_month").isNull());
    CHECK(s1.value("explanation").toString().contains("missed the SLO TTFT P95 ≤ 1000 ms (1788 ms"));
    // At 2 s the restart hour meets it and shows the capacity again: 2 replicas.
    RUN_HEADROOM(loose, ws, {"track", "rightsizing", "--metrics", QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/serving-metrics.csv"),
                             "--days", "7", "--slo-ms", "2000", "--json"});
    REQUIRE(loose.exitCode == 0);
    const QJsonObject s2 = parseJsonObject(loose.out).value("deployments").toArray().at(0).toObject();
    CHECK_FALSE(s2.value("saturated").toBool());
    CHECK(s2.value("recommended_replicas").toInt() == 2);
    CHECK(s2.value("capacity_hour").toString() == "2026-03-12T14:00:00Z");
    CHECK(s2.value("capacity_latency_ms").toDouble() == Approx(1788.48).epsilon(0.001));
    CHECK(s2.value("slo_hours").toInt() > 0);

    RUN_HEADROOM(badSlo, ws, {"track", "rightsizing", "--metrics", QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/serving-metrics.csv"),
                              "--slo-ms", "0"});
    CHECK(badSlo.exitCode == 2);
    CHECK(badSlo.err.contains("--slo-ms"));
    RUN_HEADROOM(lonely, ws, {"track", "rightsizing", "--metrics", QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/serving-metrics.csv"),
                              "--slo-metric", "e2e"});
    CHECK(lonely.exitCode == 2);
    CHECK(lonely.err.contains("need --slo-ms"));
}

namespace {

QString pdfText(const QString &pdf)
{
    REQUIRE_FALSE(QStandardPaths::findExecutable("pdftotext").isEmpty());
    QProcess p;
    p.start("pdftotext", {pdf, "-"});
    REQUIRE(p.waitForFinished(20000));
    REQUIRE(p.exitCode() == 0);
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

TEST_CASE("headroom report --tracking adds the rightsizing and benchmark history pages with their figures",
          "[track-serving-cli][report]")
{
    QTemporaryDir dir;
    CliFixture ws;
    // A day of billing, so that the tracking deck has actuals.
    const QString focus = writeFile(dir, QStringLiteral("march.csv"),
                                    "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost\n"
                                    "USD,2026-03-10T00:00:00Z,2026-03-11T00:00:00Z,Usage,120.50,120.50\n");
    RUN_HEADROOM(billing, ws, {"track", "import", "--focus", focus});
    REQUIRE(billing.exitCode == 0);
    // The benchmark replica (2026-03-08 to 03-12) and the four-replica fleet on 2026-03-17: after
    // the deck's 7-day benchmark windows ([03-03, 03-10) and [03-10, 03-17)), inside the last 7
    // days rightsizing reads.
    RUN_HEADROOM(bench, ws, {"track", "import", "--metrics", writeFile(dir, QStringLiteral("bench.csv"), benchmarkCsv())});
    REQUIRE(bench.exitCode == 0);
    RUN_HEADROOM(fleet, ws, {"track", "import", "--metrics",
                             writeFile(dir, QStringLiteral("fleet.csv"), fleetCsv(kT0 + 15 * 86400))});
    REQUIRE(fleet.exitCode == 0);
    RUN_HEADROOM(added, ws, {"track", "benchmarks", "--add", "FP8 weights", "--date", "2026-03-10"});
    REQUIRE(added.exitCode == 0);

    engine::Decimal rate;
    {
        store::Workspace workspace(ws.workspace());
        for (const auto &r : engine::onDemandRates(workspace.rateCards(), QDate::currentDate().toString(Qt::ISODate).toStdString()))
            if (r.gpuId == "h100-sxm")
                rate = r.perGpuHour.amount;
    }
    REQUIRE(rate.toDouble() > 0);

    const QString pdf = dir.filePath(QStringLiteral("tracking.pdf"));
    RUN_HEADROOM(r, ws, {"report", "--tracking", "--gpu", "h100-sxm", "-o", pdf});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QString text = pdfText(pdf);
    // Rightsizing of "chat": busy 920 tokens/s, one replica carried 600, ⌈920 × 1.2 ÷ 600⌉ = 2 of 4
    // replicas, 4 GPUs × rate × 720 h a month.
    const QString saving = QString::fromStdString(engine::Money{rate * int64_t(4 * 720), "USD"}.display());
    for (const QString &expected : {QStringLiteral("Rightsizing from measured goodput"), QStringLiteral("chat"),
                                    QStringLiteral("920.0"), QStringLiteral("600.0"), saving,
                                    QStringLiteral("Serving replicas"), QStringLiteral("Benchmark history"),
                                    QStringLiteral("FP8 weights"), QStringLiteral("2026-03-10"), QStringLiteral("250.0"),
                                    QStringLiteral("375.0"), QStringLiteral("+50.0 %"), QStringLiteral("-33.3 %")})
        CHECK(text.contains(expected));
    // Cost per 1M tokens before: 94 GPU-hours × rate ÷ 84.6 M tokens.
    const double before = rate.toDouble() * 94.0 / 84.6;
    CHECK(text.contains(QLocale(QLocale::English).toString(before, 'f', 4) + QStringLiteral(" USD")));

    // Without --gpu the serving pages are there, unpriced.
    const QString unpriced = dir.filePath(QStringLiteral("unpriced.pdf"));
    RUN_HEADROOM(u, ws, {"report", "--tracking", "-o", unpriced});
    REQUIRE(u.exitCode == 0);
    const QString plain = pdfText(unpriced);
    CHECK(plain.contains("Benchmark history"));
    CHECK(plain.contains("No rate chosen"));
    RUN_HEADROOM(notTracking, ws, {"report", "--gpu", "h100-sxm", "-o", dir.filePath(QStringLiteral("x.pdf"))});
    CHECK(notTracking.exitCode == 2);
}

namespace {

// Six weeks of DCGM GPU utilization on the hour: four 2-GPU replicas all day and a fifth for
// 10-14 hours on weekdays, 4 at weekends; 60 % on weekdays, 40 % at weekends ± up to one
// point, and 20 % on day 30 (2026-04-01).
int fifthReplicaHours(int d)
{
    return d % 7 >= 5 ? 4 : 10 + (d * 7919) % 5;
}

double dayUtilization(int d)
{
    if (d == 30)
        return 20.0;
    return (d % 7 >= 5 ? 40.0 : 60.0) + ((d * 37) % 11 - 5) / 5.0;
}

QByteArray sixWeeksCsv()
{
    QByteArray csv = "timestamp,instance,gpu,metric,value,deployment\n";
    for (int d = 0; d < 42; ++d)
        for (int h = 0; h < 24; ++h) {
            const QByteArray t = QByteArray::number(kT0 + (d * 24 + h) * 3600);
            const QByteArray util = QByteArray::number(dayUtilization(d), 'f', 1);
            for (int r = 1; r <= 5; ++r) {
                if (r == 5 && h >= fifthReplicaHours(d))
                    continue;
                for (const char *gpu : {"0", "1"})
                    csv += t + ",r" + QByteArray::number(r) + ',' + gpu + ",DCGM_FI_DEV_GPU_UTIL," + util + ",chat\n";
            }
        }
    return csv;
}

} // namespace

TEST_CASE("track anomalies --metrics: a utilization dip sized in idle GPU-hours and money", "[track-serving-cli]")
{
    QTemporaryDir dir;
    const QString path = writeFile(dir, QStringLiteral("six-weeks.csv"), sixWeeksCsv());
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"track", "anomalies", "--metrics", path, "--rate", "2.50", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("first_date").toString() == "2026-03-02");
    CHECK(o.value("last_date").toString() == "2026-04-12");
    CHECK(o.value("days").toInt() == 42);
    CHECK(o.value("history").toInt() == 14);
    CHECK(o.value("rate_per_gpu_hour").toString() == "2.50");
    CHECK(o.value("currency").toString() == "USD");
    CHECK(o.value("deployment").isNull());
    CHECK(o.value("partial_days_left_out").toInt() == 0);
    // Day 30 by hand: 4 × 2 GPUs × 24 h + 2 GPUs × the fifth's hours, all at 20 %.
    const double gpuHours = 4 * 2 * 24 + 2 * fifthReplicaHours(30);
    const QJsonObject day30 = o.value("daily").toArray().at(30).toObject();
    CHECK(day30.value("date").toString() == "2026-04-01");
    CHECK(day30.value("gpu_hours").toDouble() == Approx(gpuHours));
    CHECK(day30.value("busy_gpu_hours").toDouble() == Approx(0.20 * gpuHours));
    CHECK(day30.value("utilization").toDouble() == Approx(0.20));
    const QJsonArray anomalies = o.value("anomalies").toArray();
    REQUIRE(anomalies.size() == 1);
    const QJsonObject a = anomalies[0].toObject();
    CHECK(a.value("series").toString() == "utilization");
    CHECK(a.value("kind").toString() == "dip");
    CHECK(a.value("date").toString() == "2026-04-01");
    CHECK(a.value("end_date").toString() == "2026-04-01");
    CHECK(a.value("utilization").toDouble() == Approx(0.20));
    const double expected = a.value("expected_utilization").toDouble();
    CHECK(expected == Approx(0.60).margin(0.015));
    CHECK(a.value("gpu_hours").toDouble() == Approx(gpuHours));
    // Idle GPU-hours = (0.20 − expected) × GPU-hours, shown to 0.01; money = that × $2.50.
    const double size = a.value("size_gpu_hours").toDouble();
    CHECK(size == Approx((0.20 - expected) * gpuHours).margin(0.006));
    CHECK(size < -0.38 * gpuHours);
    const long cents = std::lround(size * 250.0);
    CHECK(a.value("size_money").toString()
          == QStringLiteral("-%1.%2").arg(-cents / 100).arg(-cents % 100, 2, 10, QLatin1Char('0')));

    // The table.
    RUN_HEADROOM(text, ws, {"track", "anomalies", "--metrics", path});
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("42 whole days from 2026-03-02 to 2026-04-12"));
    CHECK(text.out.contains("dip"));
    CHECK(text.out.contains("2026-04-01"));
    CHECK(text.out.contains(QLocale(QLocale::English).toString(size, 'f', 2)));

    // The workspace's import reads the same (an empty --metrics), one deployment the same.
    RUN_HEADROOM(import, ws, {"track", "import", "--metrics", path});
    REQUIRE(import.exitCode == 0);
    RUN_HEADROOM(stored, ws, {"track", "anomalies", "--metrics=", "--deployment", "chat", "--rate", "2.50", "--json"});
    REQUIRE(stored.exitCode == 0);
    const QJsonObject s = parseJsonObject(stored.out);
    CHECK(s.value("deployment").toString() == "chat");
    REQUIRE(s.value("anomalies").toArray().size() == 1);
    CHECK(s.value("anomalies").toArray()[0].toObject().value("size_money") == a.value("size_money"));

    // The tracking deck (a day of billing for its actuals) carries the anomalies.
    const QString focus = writeFile(dir, QStringLiteral("march.csv"),
                                    "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost\n"
                                    "USD,2026-03-10T00:00:00Z,2026-03-11T00:00:00Z,Usage,120.50,120.50\n");
    RUN_HEADROOM(billing, ws, {"track", "import", "--focus", focus});
    REQUIRE(billing.exitCode == 0);
    const QString pdf = dir.filePath(QStringLiteral("tracking.pdf"));
    RUN_HEADROOM(report, ws, {"report", "--tracking", "-o", pdf});
    REQUIRE(report.exitCode == 0);
    const QString deck = pdfText(pdf);
    CHECK(deck.contains("Utilization anomalies from GPU telemetry"));
    CHECK(deck.contains("Fleet GPU utilization by day"));
}

TEST_CASE("track anomalies --metrics: too few days, an unknown deployment and bad options exit 2", "[track-serving-cli]")
{
    QTemporaryDir dir;
    CliFixture ws;
    const QString shortFile = writeFile(dir, QStringLiteral("fleet.csv"), fleetCsv());
    RUN_HEADROOM(few, ws, {"track", "anomalies", "--metrics", shortFile});
    CHECK(few.exitCode == 2);
    CHECK(few.err.contains("--metrics: the serving metrics cover 0 whole days; anomaly detection needs at least 15"));
    const QString path = writeFile(dir, QStringLiteral("six-weeks.csv"), sixWeeksCsv());
    RUN_HEADROOM(unknown, ws, {"track", "anomalies", "--metrics", path, "--deployment", "nope"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("--deployment: the serving metrics hold no deployment 'nope'"));
    RUN_HEADROOM(both, ws, {"track", "anomalies", "--metrics", path, "--rate", "2", "--gpu", "h100-sxm"});
    CHECK(both.exitCode == 2);
    RUN_HEADROOM(other, ws, {"track", "anomalies", "--metrics", path, "--days", "7"});
    CHECK(other.exitCode == 2);
    CHECK(other.err.contains("--days does not apply here"));
    RUN_HEADROOM(empty, ws, {"track", "anomalies", "--metrics="});
    CHECK(empty.exitCode == 2);
    CHECK(empty.err.contains("the workspace holds no serving metrics"));
}

// An hour since the epoch as the ISO 8601 time --since and --until take.
static QString iso(qint64 hour)
{
    return QDateTime::fromSecsSinceEpoch(hour * 3600, Qt::UTC).toString(QStringLiteral("yyyy-MM-ddTHH:mmZ"));
}

TEST_CASE("track pull reads only the hours of a real Prometheus not yet stored to the CSV import's figures "
          "and a refused pull changes nothing",
          "[prometheus]")
{
    const PrometheusTestServer server = prometheusTestServer();
    const QString url = server.url.toString();
    const qint64 middle = server.startHour + server.hours / 2;
    CliFixture pulled;
    RUN_HEADROOM(first, pulled, {"track", "pull", "--prometheus", url, "--since", iso(server.startHour), "--until",
                                 iso(middle), "--json"});
    REQUIRE(first.exitCode == 0);
    const QJsonObject a = parseJsonObject(first.out);
    CHECK(a.value("from").toString() == iso(server.startHour).chopped(1) + ":00Z");
    CHECK(a.value("queries").toInt() > 0);
    // The second pull starts where the first stopped.
    RUN_HEADROOM(second, pulled, {"track", "pull", "--prometheus", url, "--until",
                                  iso(server.startHour + server.hours), "--json"});
    REQUIRE(second.exitCode == 0);
    const QJsonObject b = parseJsonObject(second.out);
    CHECK(b.value("from").toString() == a.value("to").toString());
    RUN_HEADROOM(again, pulled, {"track", "pull", "--prometheus", url, "--until", iso(server.startHour + server.hours)});
    REQUIRE(again.exitCode == 0);
    CHECK(again.out.contains("Nothing to pull"));

    // The workspace holds what the CSV import holds: rightsizing reads the same figures.
    CliFixture imported;
    RUN_HEADROOM(import, imported, {"track", "import", "--metrics", server.csv});
    REQUIRE(import.exitCode == 0);
    RUN_HEADROOM(fromPull, pulled, {"track", "rightsizing", "--json"});
    RUN_HEADROOM(fromCsv, imported, {"track", "rightsizing", "--json"});
    REQUIRE(fromPull.exitCode == 0);
    REQUIRE(fromCsv.exitCode == 0);
    CHECK(parseJsonObject(fromPull.out).value("replicas") == parseJsonObject(fromCsv.out).value("replicas"));
    CHECK(parseJsonObject(fromPull.out).value("deployments") == parseJsonObject(fromCsv.out).value("deployments"));
    CHECK(a.value("replica_hours").toInt() + b.value("replica_hours").toInt()
          == int(store::readMetricsCsv(server.csv).hours.hours.size()));

    // Refusals store nothing: too many series, a token file that is empty, a URL with a password.
    CliFixture refused;
    RUN_HEADROOM(many, refused, {"track", "pull", "--prometheus", url, "--since", iso(server.startHour), "--until",
                                 iso(middle), "--max-series", "1"});
    CHECK(many.exitCode != 0);
    CHECK(many.err.contains("one query may return"));
    const QString emptyToken = refused.writeFile(QStringLiteral("token"), "\n");
    RUN_HEADROOM(token, refused, {"track", "pull", "--prometheus", url, "--token-file", emptyToken});
    CHECK(token.exitCode != 0);
    CHECK(token.err.contains("the first line is empty"));
    RUN_HEADROOM(secret, refused, {"track", "pull", "--prometheus", "http://ops:pw@127.0.0.1:1"});
    CHECK(secret.exitCode != 0);
    CHECK(secret.err.contains("a user name or password in the URL"));
    CHECK_FALSE(secret.err.contains("pw"));  // the refusal does not echo the password
    RUN_HEADROOM(none, refused, {"track", "rightsizing"});
    CHECK(none.exitCode != 0);
    CHECK(none.err.contains("the workspace holds no serving metrics"));
}

TEST_CASE("track watch pulls from a real Prometheus and flags a planted under-used commitment before its renewal "
          "and a planted utilization drop, writes the findings and the deck only when they change",
          "[prometheus]")
{
    const PrometheusTestServer server = prometheusTestServer();
    CliFixture ws;
    // 28 whole days before the server's samples: two replicas of 4 GPUs near 70 % busy, then
    // from the 24th day on near 25 % (the planted drop).
    const qint64 firstHour = server.startHour - 28 * 24;
    QByteArray metrics = "timestamp,instance,gpu,metric,value,deployment\n";
    for (qint64 hour = firstHour; hour < server.startHour; ++hour) {
        const qint64 day = (hour - firstHour) / 24;
        const double level = day >= 23 ? 25.0 : 70.0;
        for (const char *instance : {"r-a", "r-b"})
            for (int gpu = 0; gpu < 4; ++gpu) {
                const double wobble = double((hour * 7 + gpu * 3 + (instance[2] == 'a' ? 0 : 5)) % 11) - 5.0;
                metrics += QByteArray::number(hour * 3600 + 1800) + ',' + instance + ',' + QByteArray::number(gpu)
                    + ",DCGM_FI_DEV_GPU_UTIL," + QByteArray::number(level + wobble + double(day % 7) * 0.5) + ",chat\n";
            }
    }
    RUN_HEADROOM(importMetrics, ws, {"track", "import", "--metrics", ws.writeFile("planted.csv", metrics)});
    REQUIRE(importMetrics.exitCode == 0);
    // A one-year commitment ending 8 days after the last charged hour, used 40 % of its hours
    // over the last 30 days.
    const qint64 chargedEnd = server.startHour * 3600;
    const auto stamp = [](qint64 seconds) {
        return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate).toUtf8();
    };
    QByteArray focus = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ListCost,"
                       "CommitmentDiscountId,CommitmentDiscountName,CommitmentDiscountStatus\n";
    focus += "USD," + stamp(chargedEnd + 8 * 86400 - 365 * 86400) + ',' + stamp(chargedEnd + 8 * 86400)
        + ",Purchase,8760.00,0,0,ri-7,H100 one-year,\n";
    for (qint64 t = chargedEnd - 30 * 86400; t < chargedEnd; t += 3600) {
        focus += "USD," + stamp(t) + ',' + stamp(t + 3600) + ",Usage,0,0.40,0.60,ri-7,H100 one-year,Used\n";
        focus += "USD," + stamp(t) + ',' + stamp(t + 3600) + ",Usage,0,0.60,0,ri-7,H100 one-year,Unused\n";
    }
    RUN_HEADROOM(importFocus, ws, {"track", "import", "--focus", ws.writeFile("billing.csv", focus)});
    REQUIRE(importFocus.exitCode == 0);

    const QString out = ws.filePath(QStringLiteral("watch"));
    const QString url = server.url.toString();
    const QString until = iso(server.startHour + server.hours);
    RUN_HEADROOM(first, ws, {"track", "watch", "--once", "--prometheus", url, "--until", until, "--out", out,
                             "--renewal-days", "14"});
    REQUIRE(first.exitCode == 3);
    CHECK(first.out.contains(" pulled "));
    CHECK(first.out.contains(" new commitment_renewal ri-7: Commitment H100 one-year (ri-7) is under-used (trailing "
                             "utilization 40 %"));
    CHECK(first.out.contains("in 8 days"));
    CHECK(first.out.contains(" new utilization_"));
    QFile file(out + QStringLiteral("/findings.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject findings = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QStringList kinds;
    for (const QJsonValue &f : findings.value("findings").toArray()) {
        kinds << f.toObject().value("kind").toString();
        CHECK(f.toObject().value("new").toBool());
    }
    CHECK(kinds.contains("commitment_renewal"));
    CHECK(std::any_of(kinds.begin(), kinds.end(), [](const QString &k) { return k.startsWith("utilization_"); }));
    CHECK(findings.value("pulled_to").toString() == until.chopped(1) + ":00Z");
    const QStringList decks = QDir(out).entryList({QStringLiteral("tracking-*.pdf")});
    REQUIRE(decks.size() == 1);
    CHECK(QFileInfo(out + '/' + decks.front()).size() > 10000);

    // Nothing new: no file is rewritten, exit 0.
    const QDateTime written = QFileInfo(out + QStringLiteral("/findings.json")).lastModified();
    RUN_HEADROOM(second, ws, {"track", "watch", "--once", "--prometheus", url, "--until", until, "--out", out,
                              "--renewal-days", "14"});
    CHECK(second.exitCode == 0);
    CHECK(second.out.contains("nothing to pull"));
    CHECK(second.out.contains("(0 new, 0 resolved)"));
    CHECK(QFileInfo(out + QStringLiteral("/findings.json")).lastModified() == written);

    // A shorter notice turns the renewal into an under-used commitment: a change.
    RUN_HEADROOM(third, ws, {"track", "watch", "--once", "--prometheus", url, "--until", until, "--out", out,
                             "--renewal-days", "3"});
    CHECK(third.exitCode == 3);
    CHECK(third.out.contains(" new commitment_underused ri-7"));
    CHECK(third.out.contains(" resolved commitment_renewal:ri-7:USD:"));

    // An unreachable server: an error, nothing written.
    const QDateTime before = QFileInfo(out + QStringLiteral("/findings.json")).lastModified();
    RUN_HEADROOM(down, ws, {"track", "watch", "--once", "--prometheus", "http://127.0.0.1:1", "--out", out});
    CHECK(down.exitCode == 2);
    CHECK(QFileInfo(out + QStringLiteral("/findings.json")).lastModified() == before);
    RUN_HEADROOM(noOut, ws, {"track", "watch", "--once", "--prometheus", url});
    CHECK(noOut.exitCode == 2);
    CHECK(noOut.err.contains("give --out DIR"));
    RUN_HEADROOM(badEvery, ws, {"track", "watch", "--prometheus", url, "--out", out, "--every", "5s"});
    CHECK(badEvery.exitCode == 2);
    CHECK(badEvery.err.contains("--every '5s'"));
}
