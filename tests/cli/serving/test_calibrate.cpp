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
    CHECK(saved.out.contains("Saved as the h100-sxm profile"));
    RUN_HEADROOM(after, ws, {"export"});
    REQUIRE(after.exitCode == 0);
    CHECK(after.out.contains("calibrated for llama-3.1-8b on h100-sxm, TP 1 (bf16 weights, bf16 KV) on slow.csv"));

    // Sizing on the GPU says which profile it used.
    const QString workload = QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/chatbot-workload.json");
    RUN_HEADROOM(sized, ws, {"size", "--workload-file", workload});
    REQUIRE(sized.exitCode == 0);
    CHECK(sized.out.contains("calibrated profile"));
    CHECK(sized.out.contains("calibrated for llama-3.1-8b on h100-sxm"));

    // Fitted again from the saved profile, the passes are where it left them.
    RUN_HEADROOM(again, ws, {"calibrate", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--step-times", steps, "--json"});
    REQUIRE(again.exitCode == 0);
    CHECK(parseJsonObject(again.out).value("prior_mean_abs_error_pct").toDouble() < 5.0);
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
