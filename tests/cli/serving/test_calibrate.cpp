// `headroom calibrate` end to end: passes 20 % slower than the shipped profile fitted back
// within 5 %, the fitted profile saved as the GPU's, `vllm bench serve` results read, and bad
// input refused naming the file and field with the workspace unchanged.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

const QString kSample = QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/step-times-llama-3.1-8b-h100.csv");

// The sample's passes with every time × factor.
QByteArray scaledStepTimes(double factor)
{
    QFile file(kSample);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QByteArray out;
    bool header = true;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.isEmpty() || line.startsWith('#')) {
            continue;
        }
        if (header) {
            out += line + '\n';
            header = false;
            continue;
        }
        QList<QByteArray> fields = line.split(',');
        fields.last() = QByteArray::number(fields.last().toDouble() * factor, 'g', 10);
        out += fields.join(',') + '\n';
    }
    return out;
}

QByteArray benchResult(double rate, double ttftMs, double tpotMs)
{
    QJsonObject o{{"backend", "vllm"}, {"completed", 200}, {"total_input_tokens", 200 * 1000},
                  {"total_output_tokens", 200 * 150}, {"max_concurrency", QJsonValue::Null},
                  {"mean_ttft_ms", ttftMs}, {"mean_tpot_ms", tpotMs}, {"median_ttft_ms", ttftMs}};
    o.insert("request_rate", rate > 0 ? QJsonValue(rate) : QJsonValue("inf"));
    return QJsonDocument(o).toJson();
}


// One replica's Prometheus metrics over 14:00–14:59 UTC as `track serving` imports them: 1,800
// requests of 1,000 prompt and 150 output tokens; TTFT and E2E histograms (cumulative per le)
// whose medians are ttftMedianS and e2eMedianS.
QByteArray servedHour(const QString &deployment, double ttftMedianS, double e2eMedianS)
{
    QByteArray csv = "timestamp,instance,gpu,metric,value,deployment,le\n";
    const auto row = [&](const char *time, const char *metric, double value, const QString &le = QString()) {
        csv += QByteArray(time) + ",vllm-0,," + metric + "," + QByteArray::number(value, 'g', 12) + ","
            + deployment.toUtf8() + "," + le.toUtf8() + "\n";
    };
    for (const auto &[time, done] : {std::pair{"2026-03-02T14:00:00Z", 0.0}, std::pair{"2026-03-02T14:59:00Z", 1800.0}}) {
        row(time, "vllm:request_success_total", done);
        row(time, "vllm:prompt_tokens_total", done * 1000);
        row(time, "vllm:generation_tokens_total", done * 150);
        // Half the requests at most the median, a quarter each in the buckets around it.
        for (const auto &[metric, median] : {std::pair{"vllm:time_to_first_token_seconds_bucket", ttftMedianS},
                                             std::pair{"vllm:e2e_request_latency_seconds_bucket", e2eMedianS}}) {
            row(time, metric, done * 0.25, QString::number(median * 0.8));
            row(time, metric, done * 0.5, QString::number(median));
            row(time, metric, done * 0.75, QString::number(median * 1.25));
            row(time, metric, done, QStringLiteral("+Inf"));
        }
    }
    return csv;
}

} // namespace

TEST_CASE("calibrate fits passes slower than the profile, and --save makes the fit the GPU's")
{
    CliFixture ws;
    const QString steps = ws.writeFile("slow.csv", scaledStepTimes(1.2));
    RUN_HEADROOM(r, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--step-times", steps, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("prior_mean_abs_error_pct").toDouble() > 15.0);
    CHECK(o.value("max_abs_error_pct").toDouble() < 5.0);
    CHECK(o.value("points").toArray().size() == 33);
    CHECK(o.value("coefficients").toObject().value("bandwidth").toObject().value("fitted").toDouble() < 0.85);
    CHECK_FALSE(o.value("saved").toBool());

    RUN_HEADROOM(exported, ws, {"export"});
    REQUIRE(exported.exitCode == 0);
    CHECK_FALSE(exported.out.contains("calibrated"));

    RUN_HEADROOM(saved, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--step-times", steps, "--save"});
    REQUIRE(saved.exitCode == 0);
    CHECK(saved.out.contains("Saved as the calibrated profile of llama-3.1-8b on h100-sxm at TP 1 with bf16 weights"));
    RUN_HEADROOM(after, ws, {"export"});
    REQUIRE(after.exitCode == 0);
    CHECK(after.out.contains("calibrated for llama-3.1-8b on h100-sxm, TP 1 (bf16 weights, bf16 KV) on slow.csv"));

    // Sizing the calibrated deployment says which profile it used; another model on the GPU
    // keeps the GPU's catalog profile (once it took the 8B's fit as well).
    QFile chatbot(QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/chatbot-workload.json"));
    REQUIRE(chatbot.open(QIODevice::ReadOnly));
    QJsonObject small = QJsonDocument::fromJson(chatbot.readAll()).object();
    small.insert("model", "llama-3.1-8b");
    small.insert("weights", "bf16");
    small.insert("kv_dtype", "bf16");
    small.insert("tp", 1);
    const QString smallWorkload = ws.writeFile("small.json", QJsonDocument(small).toJson());
    RUN_HEADROOM(sized, ws, {"size", "--workload-file", smallWorkload});
    REQUIRE(sized.exitCode == 0);
    CHECK(sized.out.contains("calibrated profile"));
    CHECK(sized.out.contains("calibrated for llama-3.1-8b on h100-sxm"));
    RUN_HEADROOM(large, ws, {"size", "--workload-file", chatbot.fileName()});
    REQUIRE(large.exitCode == 0);
    CHECK(large.out.contains("measured profile"));
    CHECK_FALSE(large.out.contains("calibrated"));

    // Fitted again from the saved profile, the passes are where it left them.
    RUN_HEADROOM(again, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--step-times", steps, "--json"});
    REQUIRE(again.exitCode == 0);
    CHECK(parseJsonObject(again.out).value("prior_mean_abs_error_pct").toDouble() < 5.0);

    // --forget takes it out; a second --forget finds none.
    RUN_HEADROOM(forgot, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--forget"});
    REQUIRE(forgot.exitCode == 0);
    CHECK(forgot.out.contains("Removed the calibrated profile of llama-3.1-8b on h100-sxm at TP 1 with bf16 weights"));
    RUN_HEADROOM(plain, ws, {"size", "--workload-file", smallWorkload});
    REQUIRE(plain.exitCode == 0);
    CHECK_FALSE(plain.out.contains("calibrated"));
    RUN_HEADROOM(twice, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--forget"});
    CHECK(twice.exitCode == 2);
    CHECK(twice.err.contains("holds no calibrated profile of llama-3.1-8b on h100-sxm at TP 1"));
}

TEST_CASE("calibrate reads vllm bench serve results and fits TTFT and TPOT")
{
    CliFixture ws;
    const QString a = ws.writeFile("rate2.json", benchResult(2, 103, 8.15));
    const QString b = ws.writeFile("rate8.json", benchResult(8, 106, 9.3));
    RUN_HEADROOM(r, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--bench", a, "--bench", b, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    const QJsonArray points = o.value("points").toArray();
    REQUIRE(points.size() == 4);
    CHECK(points[0].toObject().value("label").toString() == "rate2.json");
    CHECK(points[0].toObject().value("metric").toString() == "ttft");
    CHECK(points[1].toObject().value("metric").toString() == "tpot");
    CHECK(o.value("coefficients").toObject().contains("request_overhead_ms"));
    CHECK(o.value("mean_abs_error_pct").toDouble() < o.value("prior_mean_abs_error_pct").toDouble());
    CHECK(o.value("max_abs_error_pct").toDouble() < 5.0);
}

TEST_CASE("calibrate replays served hours of Prometheus metrics and fits their median TTFT and E2E")
{
    CliFixture ws;
    // 20 % slower than the shipped H100 profile predicts these requests at 0.5 requests/s.
    const QString metrics = ws.writeFile("metrics.csv", servedHour("chat", 0.060, 1.45));
    RUN_HEADROOM(r, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--metrics", metrics, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    const QJsonArray points = o.value("points").toArray();
    REQUIRE(points.size() == 2);
    CHECK(points[0].toObject().value("label").toString() == "vllm-0 2026-03-02 14:00");
    CHECK(points[0].toObject().value("metric").toString() == "ttft p50");
    CHECK(points[0].toObject().value("measured_ms").toDouble() == Approx(60.0));
    CHECK(points[1].toObject().value("metric").toString() == "e2e p50");
    CHECK(points[1].toObject().value("measured_ms").toDouble() == Approx(1450.0));
    CHECK(o.value("sources").toArray().at(0).toString() == "metrics.csv");
    CHECK(o.value("coefficients").toObject().contains("request_overhead_ms"));
    CHECK(o.value("prior_mean_abs_error_pct").toDouble() > 5.0);
    CHECK(o.value("max_abs_error_pct").toDouble() < 5.0);

    // Two deployments: one must be named; an unknown one, or too few requests, is refused.
    QByteArray two = servedHour("chat", 0.060, 1.45);
    two += servedHour("batch", 0.2, 3.0).mid(two.indexOf('\n') + 1);
    const QString both = ws.writeFile("both.csv", two);
    RUN_HEADROOM(ambiguous, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--metrics", both});
    CHECK(ambiguous.exitCode == 2);
    CHECK(ambiguous.err.contains("holds 2 deployments (batch, chat): name one with --deployment"));
    RUN_HEADROOM(named, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--metrics", both,
                             "--deployment", "chat", "--json"});
    CHECK(named.exitCode == 0);
    RUN_HEADROOM(unknown, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--metrics", both,
                               "--deployment", "rag"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("both.csv: the metrics hold no hour of deployment 'rag'"));
    RUN_HEADROOM(few, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--metrics", metrics,
                           "--min-requests", "5000"});
    CHECK(few.exitCode == 2);
    CHECK(few.err.contains("1 completed fewer than 5000 requests"));
    RUN_HEADROOM(stray, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--bench", metrics,
                             "--deployment", "chat"});
    CHECK(stray.exitCode == 2);
    CHECK(stray.err.contains("--deployment and --min-requests choose hours of --metrics FILE"));
}

TEST_CASE("calibrate refuses bad measurements naming the file and field")
{
    CliFixture ws;
    RUN_HEADROOM(none, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm"});
    CHECK(none.exitCode == 2);
    CHECK(none.err.contains("needs measurements"));

    QJsonObject broken = QJsonDocument::fromJson(benchResult(2, 95, 8.1)).object();
    broken.remove("completed");
    const QString missing = ws.writeFile("missing.json", QJsonDocument(broken).toJson());
    RUN_HEADROOM(r, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--bench", missing, "--save"});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("missing.json: field \"completed\""));

    broken = QJsonDocument::fromJson(benchResult(2, 95, 8.1)).object();
    broken.insert("request_rate", "fast");
    const QString rate = ws.writeFile("rate.json", QJsonDocument(broken).toJson());
    RUN_HEADROOM(r2, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--bench", rate, "--save"});
    CHECK(r2.exitCode == 2);
    CHECK(r2.err.contains("field \"request_rate\""));

    RUN_HEADROOM(exported, ws, {"export"});
    REQUIRE(exported.exitCode == 0);
    CHECK_FALSE(exported.out.contains("calibrated"));
}
