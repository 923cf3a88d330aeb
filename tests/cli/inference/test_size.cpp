// `headroom size` end to end: the JSON contract, what-if flags (hit rate, weight precision,
// disaggregation), measured goodput, SLOs no batch meets, stored workloads and bad input.
#include "common/clirunner.h"

#include "store/inference/workloadjson.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QSet>

namespace {

qint64 integer(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    const QJsonValue v = o.value(QLatin1String(key));
    REQUIRE(v.isDouble());
    REQUIRE(v.toDouble() == double(v.toInteger()));
    return v.toInteger();
}

double number(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    REQUIRE(o.value(QLatin1String(key)).isDouble());
    return o.value(QLatin1String(key)).toDouble();
}

QString text(const QJsonObject &o, const char *key)
{
    INFO("key " << key);
    REQUIRE(o.contains(QLatin1String(key)));
    REQUIRE(o.value(QLatin1String(key)).isString());
    return o.value(QLatin1String(key)).toString();
}

// A chat assistant on the shipped catalog's Llama 3.1 8B and H100 SXM, in the workload JSON
// format of core/store/README.md; `changes` replaces or adds keys.
QJsonObject chatWorkload(const QJsonObject &changes = {})
{
    QJsonObject w{
        {"name", "chat-assistant"},
        {"tenant", "support"},
        {"model", "llama-3.1-8b"},
        {"weights", "bf16"},
        {"kv_dtype", "bf16"},
        {"class", "flagship"},
        {"daily_active_users", 50000},
        {"requests_per_user_per_day", 20},
        {"peak_sessions_per_user", 0.1},
        {"diurnal", "business_hours"},
        {"prompt_p50", 1500},
        {"prompt_p95", 6000},
        {"output_p50", 300},
        {"output_p95", 900},
        {"prefix_hit_rate", 0.2},
        {"shared_prefix_tokens", 0},
        {"ttft_p95_ms", 2000},
        {"itl_p95_ms", 50},
        {"traffic_variance", 1.5},
        {"isolation", "none"},
        {"gpu", "h100-sxm"},
        {"tp", 1},
    };
    for (auto it = changes.begin(); it != changes.end(); ++it)
        w.insert(it.key(), it.value());
    return w;
}

QString writeWorkload(const CliFixture &ws, const QJsonObject &workload, const QString &file = "workload.json")
{
    return ws.writeFile(file, QJsonDocument(workload).toJson());
}

QJsonObject sizeJson(const CliFixture &ws, const QStringList &args)
{
    RUN_HEADROOM(r, ws, {QStringList{"size"} + args + QStringList{"--json"}});
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.err.isEmpty());
    return parseJsonObject(r.out);
}

} // namespace

TEST_CASE("size --workload-file --json prints every contract key with its type")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const QJsonObject o = sizeJson(ws, {"--workload-file", file});

    // Request residency by default: memory holds the P99 of the requests in flight.
    CHECK(text(o, "kv_residency") == "request");
    CHECK(integer(o, "sessions_resident") == 5000); // DAU × peak sessions per user
    const double rate = number(o, "peak_request_rate_per_s");
    const double inSystemMs = number(o, "time_in_system_ms");
    const double inFlight = number(o, "in_flight_mean");
    CHECK(rate > 50000.0 * 20.0 / 86400.0); // the business-hours peak is above the daily mean
    CHECK(inSystemMs > 0);
    CHECK(inFlight == Approx(rate * inSystemMs / 1000.0).epsilon(1e-12)); // Little's law
    const qint64 p99 = integer(o, "in_flight_p99");
    CHECK(p99 > inFlight);
    CHECK(number(o, "in_flight_quantile") == 0.99);
    const qint64 peakStreams = integer(o, "peak_streams");
    CHECK(peakStreams == p99);
    CHECK(integer(o, "replicas_memory") == integer(o, "replicas_memory_request"));
    CHECK(integer(o, "replicas_memory_session") > integer(o, "replicas_memory_request"));
    CHECK(number(o, "prefill_tokens_per_s") > 0);
    CHECK(integer(o, "streams_per_replica") > 0);
    const qint64 memory = integer(o, "replicas_memory");
    const qint64 compute = integer(o, "replicas_compute");
    const qint64 replicas = integer(o, "replicas");
    CHECK(memory >= 1);
    CHECK(compute >= 1);
    CHECK(replicas >= std::max(memory, compute));
    CHECK(integer(o, "gpus") == replicas * integer(o, "gpus_per_replica"));
    const QString binding = text(o, "binding");
    CHECK(QStringList{"memory", "compute", "ttft", "itl"}.contains(binding));
    CHECK(number(o, "goodput_tokens_per_s") > 0);
    CHECK(text(o, "goodput_source") == "estimated");
    CHECK_FALSE(o.contains("prefill_gpus"));
    CHECK_FALSE(o.contains("decode_gpus"));

    CHECK(o.value("feasible").toBool(false));
    CHECK(o.value("infeasible_reason").isNull());
    CHECK(text(o, "workload") == "chat-assistant");
    CHECK(text(o, "model") == "llama-3.1-8b");
    CHECK(text(o, "gpu") == "h100-sxm");
    CHECK(text(o, "weights") == "bf16");
    CHECK(text(o, "kv_dtype") == "bf16");
    CHECK(integer(o, "tp") == 1);
    CHECK(number(o, "prefix_hit_rate") == 0.2);
    CHECK(text(o, "binding_explanation").startsWith(binding + ":"));

    REQUIRE(o.value("steps").isArray());
    const QJsonArray steps = o.value("steps").toArray();
    REQUIRE_FALSE(steps.isEmpty());
    for (const QJsonValue &step : steps) {
        REQUIRE(step.isObject());
        CHECK_FALSE(text(step.toObject(), "title").isEmpty());
        CHECK_FALSE(text(step.toObject(), "formula").isEmpty());
        CHECK_FALSE(text(step.toObject(), "value").isEmpty());
    }
}

TEST_CASE("size: the table shows the result cards, the binding constraint and every step")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const QJsonObject o = sizeJson(ws, {"--workload-file", file});
    RUN_HEADROOM(r, ws, {"size", "--workload-file", file});
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.isEmpty());
    CHECK(r.out.startsWith("workload"));
    CHECK(r.out.contains("chat-assistant (tenant support): llama-3.1-8b on h100-sxm"));
    CHECK(r.out.contains(QStringLiteral("\nreplicas        %1 (memory ").arg(integer(o, "replicas"))));
    CHECK(r.out.contains("\nGPUs  "));
    CHECK(r.out.contains("\nbinding         " + text(o, "binding_explanation") + "\n"));
    CHECK(r.out.contains("(estimated)"));
    const QJsonArray steps = o.value("steps").toArray();
    for (const QJsonValue &step : steps) {
        CHECK(r.out.contains(step.toObject().value("title").toString()));
        CHECK(r.out.contains(step.toObject().value("formula").toString()));
    }
}

TEST_CASE("size: raising the hit rate from 20 % to 50 % lowers prefill_tokens_per_s by 37.5 %")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const double fromProfile = number(sizeJson(ws, {"--workload-file", file}), "prefill_tokens_per_s");
    const QJsonObject at20 = sizeJson(ws, {"--workload-file", file, "--hit-rate", "0.2"});
    const QJsonObject at50 = sizeJson(ws, {"--workload-file", file, "--hit-rate", "0.5"});
    const double low = number(at20, "prefill_tokens_per_s");
    const double high = number(at50, "prefill_tokens_per_s");
    CHECK(low == fromProfile);
    CHECK(number(at50, "prefix_hit_rate") == 0.5);
    REQUIRE(low > 0);
    // (1 − 0.5) / (1 − 0.2) = 0.625.
    CHECK(1 - high / low == Approx(0.375).epsilon(1e-12));
}

TEST_CASE("size: FP8 weights instead of BF16 fit more streams per replica")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const QJsonObject bf16 = sizeJson(ws, {"--workload-file", file, "--weights", "bf16"});
    const QJsonObject fp8 = sizeJson(ws, {"--workload-file", file, "--weights", "fp8"});
    CHECK(text(fp8, "weights") == "fp8");
    CHECK(integer(fp8, "streams_per_replica") > integer(bf16, "streams_per_replica"));
    CHECK(integer(fp8, "replicas_memory") <= integer(bf16, "replicas_memory"));
    // The same sessions either way; requests in flight depend on the decode step, so on the weights.
    CHECK(integer(fp8, "sessions_resident") == integer(bf16, "sessions_resident"));
    const QJsonObject bf16Session = sizeJson(ws, {"--workload-file", file, "--weights", "bf16", "--kv-residency", "session"});
    const QJsonObject fp8Session = sizeJson(ws, {"--workload-file", file, "--weights", "fp8", "--kv-residency", "session"});
    CHECK(integer(fp8Session, "peak_streams") == integer(bf16Session, "peak_streams"));
}

TEST_CASE("size: other what-if flags reach the engine (GPU, KV precision, TP)")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const QJsonObject base = sizeJson(ws, {"--workload-file", file});
    const QJsonObject h200 = sizeJson(ws, {"--workload-file", file, "--gpu", "H200"});
    CHECK(text(h200, "gpu") == "h200");
    CHECK(integer(h200, "streams_per_replica") > integer(base, "streams_per_replica"));

    const QJsonObject kvFp8 = sizeJson(ws, {"--workload-file", file, "--kv-dtype", "fp8"});
    CHECK(text(kvFp8, "kv_dtype") == "fp8");
    CHECK(integer(kvFp8, "streams_per_replica") > integer(base, "streams_per_replica"));

    const QJsonObject tp2 = sizeJson(ws, {"--workload-file", file, "--tp", "2"});
    CHECK(integer(tp2, "tp") == 2);
    CHECK(integer(tp2, "gpus_per_replica") == 2);
}

TEST_CASE("size --disaggregate: the prefill and decode pools add up to the GPUs")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const QJsonObject o = sizeJson(ws, {"--workload-file", file, "--disaggregate"});
    CHECK(o.value("disaggregated").toBool(false));
    const qint64 prefill = integer(o, "prefill_gpus");
    const qint64 decode = integer(o, "decode_gpus");
    CHECK(prefill >= 1);
    CHECK(decode >= 1);
    CHECK(prefill + decode == integer(o, "gpus"));

    RUN_HEADROOM(r, ws, {"size", "--workload-file", file, "--disaggregate"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains(QStringLiteral("prefill pool %1, decode pool %2").arg(prefill).arg(decode)));
}

TEST_CASE("size: a measured goodput overrides the estimate and the output says so")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload({{"measured_goodput_tokens_per_s", 1234.5}}));
    const QJsonObject o = sizeJson(ws, {"--workload-file", file});
    CHECK(text(o, "goodput_source") == "measured");
    CHECK(number(o, "goodput_tokens_per_s") == 1234.5);

    RUN_HEADROOM(r, ws, {"size", "--workload-file", file});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("1,234.5 tokens/s per replica (measured)"));
}

TEST_CASE("size: an ITL SLO no batch meets exits 0, infeasible, naming the best latency")
{
    CliFixture ws;
    // Reading 16 GB of BF16 weights at H100 bandwidth alone takes several ms per step.
    const QString file = writeWorkload(ws, chatWorkload({{"itl_p95_ms", 1}}));
    const QJsonObject o = sizeJson(ws, {"--workload-file", file});
    CHECK_FALSE(o.value("feasible").toBool(true));
    CHECK(text(o, "binding") == "itl");
    const QString reason = text(o, "infeasible_reason");
    CHECK(reason.contains("ms"));
    CHECK(reason.contains("batch"));

    RUN_HEADROOM(r, ws, {"size", "--workload-file", file});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("\nreplicas        none meet the SLOs (memory alone needs "));
    CHECK(r.out.contains("\nbinding         itl: no batch meets the inter-token latency SLO (P95 1 ms)"));
    CHECK(r.out.contains("\ninfeasible      " + reason + "\n"));
    CHECK_FALSE(r.out.contains("\nGPUs "));
}

TEST_CASE("size: a TTFT SLO the P95 prompt cannot meet exits 0 with binding ttft")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload({{"ttft_p95_ms", 1}, {"prompt_p95", 100000}}));
    const QJsonObject o = sizeJson(ws, {"--workload-file", file});
    CHECK_FALSE(o.value("feasible").toBool(true));
    CHECK(text(o, "binding") == "ttft");
    CHECK(text(o, "infeasible_reason").contains("ms"));
    CHECK(text(o, "binding_explanation")
          == "ttft: no replica prefills the P95 prompt within the time-to-first-token SLO (P95 1 ms)");
}

TEST_CASE("size --workload NAME reads a workload stored in the workspace")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    {
        headroom::store::Workspace workspace(ws.workspace());
        workspace.putWorkload(headroom::store::readWorkloadFile(file));
    }
    const QJsonObject byName = sizeJson(ws, {"--workload", "chat-assistant"});
    const QJsonObject byFile = sizeJson(ws, {"--workload-file", file});
    CHECK(byName == byFile);

    RUN_HEADROOM(unknown, ws, {"size", "--workload", "chat-asistant"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.out.isEmpty());
    CHECK(unknown.err.trimmed() == "headroom: unknown workload 'chat-asistant'; closest: chat-assistant");
}

TEST_CASE("size --workload NAME on a workspace without workloads says none exist")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"size", "--workload", "chat"});
    CHECK(r.exitCode == 2);
    CHECK(r.out.isEmpty());
    CHECK(r.err.contains("unknown workload 'chat'; the workspace has no workloads"));
}

TEST_CASE("size: bad flags exit 2 naming the flag, before any file is read")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const QString missing = ws.filePath("missing.json");
    const std::vector<std::pair<QStringList, QString>> cases = {
        {{"--workload-file", missing, "--hit-rate", "1.5"}, "--hit-rate: must be between 0 and 1, got 1.5"},
        {{"--workload-file", missing, "--hit-rate", "-0.1"}, "--hit-rate: must be between 0 and 1, got -0.1"},
        {{"--workload-file", missing, "--hit-rate", "half"}, "--hit-rate: expected a number, got 'half'"},
        {{"--workload-file", missing, "--weights", "fp4"}, "--weights: unknown precision 'fp4'"},
        {{"--workload-file", missing, "--kv-dtype", "int8"}, "--kv-dtype: unknown precision 'int8'"},
        {{"--workload-file", missing, "--tp", "0"}, "--tp: must be between 1 and 1024, got 0"},
        {{"--workload-file", file, "--workload", "chat"}, "give either --workload or --workload-file, not both"},
        {{"--gpu", "h100-sxm"}, "size needs --workload NAME or --workload-file FILE.json"},
        {{"--workload-file", file, "extra"}, "size takes no positional arguments, got 'extra'"},
        {{"--workload-file", file, "--disaggregate=yes"}, "--disaggregate takes no value"},
        {{"--workload-file", file, "--kv-residency", "turn"},
         "--kv-residency: unknown model 'turn'; expected request or session"},
        {{"--workload-file", file, "--options", "--tp", "2"}, "--options searches every GPU, precision and TP; drop --tp"},
        {{"--workload-file", file, "--provider", "AWS"}, "--provider applies to --options only"},
    };
    for (const auto &[args, message] : cases) {
        const CliResult r = ws.run(QStringList{"size"} + args);
        INFO(args.join(' ').toStdString() << " → " << r.err.toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.out.isEmpty());
        CHECK(r.err.startsWith("headroom: " + message));
    }
}

TEST_CASE("size: a bad workload file or catalog id exits 2 naming the field or the closest ids")
{
    CliFixture ws;
    const QString p95 = writeWorkload(ws, chatWorkload({{"prompt_p95", 1000}}), "p95.json");
    RUN_HEADROOM(badP95, ws, {"size", "--workload-file", p95});
    CHECK(badP95.exitCode == 2);
    CHECK(badP95.out.isEmpty());
    CHECK(badP95.err.startsWith("headroom: "));
    CHECK(badP95.err.contains("prompt_p95"));
    CHECK(badP95.err.contains("prompt_p50"));

    const QString hit = writeWorkload(ws, chatWorkload({{"prefix_hit_rate", 1.2}}), "hit.json");
    RUN_HEADROOM(badHit, ws, {"size", "--workload-file", hit});
    CHECK(badHit.exitCode == 2);
    CHECK(badHit.err.contains("prefix_hit_rate"));

    RUN_HEADROOM(absent, ws, {"size", "--workload-file", ws.filePath("absent.json")});
    CHECK(absent.exitCode == 2);
    CHECK(absent.err.contains("absent.json"));

    const QString model = writeWorkload(ws, chatWorkload({{"model", "llama-3.1-7b"}}), "model.json");
    RUN_HEADROOM(badModel, ws, {"size", "--workload-file", model});
    CHECK(badModel.exitCode == 2);
    CHECK(badModel.err.startsWith("headroom: unknown model 'llama-3.1-7b'; closest: llama-3.1-8b"));

    const QString file = writeWorkload(ws, chatWorkload());
    RUN_HEADROOM(badGpu, ws, {"size", "--workload-file", file, "--gpu", "h100-sx"});
    CHECK(badGpu.exitCode == 2);
    CHECK(badGpu.err.startsWith("headroom: unknown GPU 'h100-sx'; closest: h100-sxm"));
}

TEST_CASE("size: sessions held resident bind on memory, heavy short requests bind on compute")
{
    CliFixture ws;
    const QJsonObject chat = sizeJson(ws, {"--workload-file", writeWorkload(ws, chatWorkload(), "chat.json"),
                                           "--kv-residency", "session"});
    CHECK(text(chat, "kv_residency") == "session");
    CHECK(integer(chat, "peak_streams") == 5000);
    CHECK(text(chat, "binding") == "memory");
    CHECK(integer(chat, "replicas_memory") > integer(chat, "replicas_compute"));
    CHECK(text(chat, "binding_explanation").contains("; memory leads by "));

    // Only the required keys: 1,000 concurrent streams but 200 M requests a day.
    const QString batch = ws.writeFile("batch.json", R"({"name": "batch-summaries", "model": "llama-3.1-8b",
        "gpu": "h100-sxm", "daily_active_users": 1000000, "requests_per_user_per_day": 200,
        "peak_sessions_per_user": 0.001, "prompt_p50": 2000, "prompt_p95": 3000,
        "output_p50": 100, "output_p95": 200})");
    const QJsonObject o = sizeJson(ws, {"--workload-file", batch});
    CHECK(integer(o, "sessions_resident") == 1000);
    CHECK(text(o, "binding") == "compute");
    CHECK(integer(o, "replicas_compute") > integer(o, "replicas_memory"));
    CHECK(text(o, "binding_explanation").contains("; compute leads by "));
}

TEST_CASE("size --kv-residency: session reproduces the seed method, request sizes the requests in flight")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    const QJsonObject request = sizeJson(ws, {"--workload-file", file});
    const QJsonObject explicitRequest = sizeJson(ws, {"--workload-file", file, "--kv-residency", "request"});
    CHECK(request == explicitRequest);
    const QJsonObject session = sizeJson(ws, {"--workload-file", file, "--kv-residency", "session"});
    CHECK(integer(session, "peak_streams") == integer(session, "sessions_resident"));
    CHECK(integer(session, "replicas_memory") == integer(session, "replicas_memory_session"));
    // Both report the other model's figures; only the memory side and what follows differ.
    CHECK(number(session, "in_flight_mean") == number(request, "in_flight_mean"));
    CHECK(integer(session, "replicas_memory_request") == integer(request, "replicas_memory_request"));
    CHECK(integer(session, "replicas_compute") == integer(request, "replicas_compute"));
    CHECK(integer(session, "replicas") > integer(request, "replicas"));
    // 5,000 sessions against a P99 of a few dozen in flight: the warning names both.
    const QString warning = text(request, "residency_warning");
    CHECK(warning.startsWith("5,000 sessions held resident need "));
    CHECK(warning.endsWith("— choose the residency model"));

    RUN_HEADROOM(table, ws, {"size", "--workload-file", file});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("\nKV residency    request (KV held while a request is in flight); "));
    CHECK(table.out.contains("\nwarning         " + warning + "\n"));
    CHECK(table.out.contains("Requests in flight (Little's law)"));
    CHECK(table.out.contains("Fixed point of W, batch and replicas"));
}

TEST_CASE("size: the chatbot sample is no longer memory-bound many times over by default")
{
    CliFixture ws;
    const QString sample = QStringLiteral(HEADROOM_SOURCE_DIR) + "/data/samples/chatbot-workload.json";
    const QJsonObject request = sizeJson(ws, {"--workload-file", sample});
    const QJsonObject session = sizeJson(ws, {"--workload-file", sample, "--kv-residency", "session"});
    CHECK(integer(session, "peak_streams") == 5000);
    // Sessions held resident: memory needs many times the compute side.
    CHECK(integer(session, "replicas_memory") >= 10 * integer(session, "replicas_compute"));
    // Requests in flight: the memory side is no longer ahead by a large factor.
    CHECK(integer(request, "replicas_memory") <= 2 * integer(request, "replicas_compute"));
    CHECK(integer(request, "replicas") * 5 < integer(session, "replicas"));
}

TEST_CASE("size --options --json: every GPU x weights x KV with its best TP, sorted by cost")
{
    CliFixture ws;
    const QString file = writeWorkload(ws, chatWorkload());
    RUN_HEADROOM(r, ws, {"size", "--options", "--workload-file", file, "--json"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.isEmpty());
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(text(o, "kv_residency") == "request");
    CHECK(integer(o, "hours_per_month") == 720);
    REQUIRE(o.value("options").isArray());
    const QJsonArray options = o.value("options").toArray();
    headroom::store::Workspace workspace(ws.workspace());
    CHECK(options.size() == qsizetype(workspace.gpus().size() * 6));
    QSet<QString> combinations;
    double lastCost = 0;
    bool seenUnpriced = false;
    int priced = 0;
    for (const QJsonValue &value : options) {
        const QJsonObject row = value.toObject();
        const QString gpu = text(row, "gpu");
        combinations.insert(gpu + "/" + text(row, "weights") + "/" + text(row, "kv_dtype"));
        CHECK(row.contains("binding"));
        CHECK(row.contains("gpus"));
        CHECK(row.contains("tp"));
        REQUIRE(row.contains("cost_per_month"));
        const bool feasible = row.value("feasible").toBool();
        if (feasible) {
            const qint64 tp = integer(row, "tp");
            CHECK(QList<qint64>{1, 2, 4, 8}.contains(tp));
            CHECK(integer(row, "gpus") == integer(row, "replicas") * tp);
        }
        if (row.value("cost_per_month").isString()) {
            CHECK_FALSE(seenUnpriced); // priced rows come first
            ++priced;
            const double cost = row.value("cost_per_month").toString().toDouble();
            CHECK(cost >= lastCost);
            lastCost = cost;
            // GPUs × rate × 720 h, to the cent.
            const double rate = text(row, "rate_per_gpu_hour").toDouble();
            CHECK(cost == Approx(double(integer(row, "gpus")) * rate * 720.0).margin(0.005));
        } else {
            CHECK(row.value("cost_per_month").isNull());
            seenUnpriced = true;
            if (feasible && row.value("rate_per_gpu_hour").isNull())
                CHECK(text(row, "rate_source") == "unpriced");
        }
    }
    CHECK(combinations.size() == options.size());
    CHECK(priced >= 1);

    RUN_HEADROOM(table, ws, {"size", "--options", "--workload-file", file});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("cost per 30-day month (720 h) at on-demand rates"));
    CHECK(table.out.contains("per 30-day month"));
    CHECK(table.out.contains("unpriced"));
}
