// `headroom simulate` end to end: the JSON contract on the Mooncake trace, the cache-only
// run against the trace's infinite-cache hit rate, routers, the replica search, Azure hash
// generation, and bad input.
#include "common/clirunner.h"
#include "publictraces.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>

namespace {

const QString kMooncake = QStringLiteral(HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl");
const QString kAzureConv =
    QStringLiteral(HEADROOM_SHARED_DATA "/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv");

void checkPercentiles(const QJsonValue &value)
{
    REQUIRE(value.isObject());
    const QJsonObject p = value.toObject();
    CHECK(p.value("p50").toDouble() > 0);
    CHECK(p.value("p50").toDouble() <= p.value("p95").toDouble());
    CHECK(p.value("p95").toDouble() <= p.value("p99").toDouble());
}

// Requests every 50 ms of 2,000 prompt and 200 output tokens, with no shared prefix.
QByteArray steadyTrace(int requests)
{
    QByteArray text;
    for (int i = 0; i < requests; ++i)
        text += QStringLiteral("{\"timestamp\": %1, \"input_length\": 2000, \"output_length\": 200, "
                               "\"hash_ids\": [%2, %3, %4, %5]}\n")
                    .arg(i * 50).arg(4 * i).arg(4 * i + 1).arg(4 * i + 2).arg(4 * i + 3).toUtf8();
    return text;
}

} // namespace

TEST_CASE("simulate with a pool holding every block gets the Mooncake trace's infinite-cache hit rate")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"simulate", "--trace", kMooncake, "--format", "mooncake", "--kv-blocks", "200000",
                         "--replicas", "1", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("requests").toInt() == 12031);
    // 105,710 leading hits of 288,500 blocks (import-trace's figure).
    CHECK(o.value("hit_rate_blocks").toDouble() == Approx(105710.0 / 288500.0).epsilon(1e-12));
    CHECK(o.value("hit_rate_tokens").toDouble() > 0.3);
    CHECK(o.value("timed").toBool() == false);
    CHECK(o.value("ttft_ms").isNull());
    CHECK(o.value("itl_ms").isNull());
    CHECK(o.value("slo_attainment").isNull());
    CHECK(o.value("preemptions").toInt() == 0);
    const QJsonArray perReplica = o.value("per_replica").toArray();
    REQUIRE(perReplica.size() == 1);
    CHECK(perReplica[0].toObject().value("requests").toInt() == 12031);
    CHECK(perReplica[0].toObject().value("hit_rate_blocks").toDouble() == o.value("hit_rate_blocks").toDouble());
    CHECK(o.value("runtime_s").toDouble() > 0);

    RUN_HEADROOM(table, ws, {"simulate", "--trace", kMooncake, "--format", "mooncake", "--kv-blocks", "200000",
                             "--replicas", "1"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("36.6 % of blocks"));
    CHECK(table.out.contains("not computed: give --model and --gpu"));
}

TEST_CASE("simulate on 8 H100 replicas: latencies, SLO attainment, and the KV router beats round-robin")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    const QStringList common{"simulate", "--trace", kMooncake, "--format", "mooncake", "--model", "llama-3.1-8b",
                             "--gpu", "h100-sxm", "--replicas", "8", "--ttft-slo-ms", "2000", "--itl-slo-ms", "50",
                             "--json"};
    RUN_HEADROOM(kv, ws, (common + QStringList{"--router", "kv"}));
    REQUIRE(kv.exitCode == 0);
    const QJsonObject k = parseJsonObject(kv.out);
    CHECK(k.value("timed").toBool());
    checkPercentiles(k.value("ttft_ms"));
    checkPercentiles(k.value("itl_ms"));
    const double attainment = k.value("slo_attainment").toDouble(-1);
    CHECK(attainment > 0);
    CHECK(attainment <= 1);
    const QJsonArray perReplica = k.value("per_replica").toArray();
    REQUIRE(perReplica.size() == 8);
    int routed = 0;
    for (const QJsonValue &replica : perReplica)
        routed += replica.toObject().value("requests").toInt();
    CHECK(routed == k.value("completed").toInt());
    CHECK(k.value("completed").toInt() + k.value("rejected").toInt() == 12031);

    RUN_HEADROOM(rr, ws, (common + QStringList{"--router", "round-robin"}));
    REQUIRE(rr.exitCode == 0);
    const QJsonObject r = parseJsonObject(rr.out);
    CHECK(k.value("hit_rate_blocks").toDouble() >= r.value("hit_rate_blocks").toDouble());
    CHECK(k.value("hit_rate_blocks").toDouble() < 105710.0 / 288500.0);
}

TEST_CASE("simulate --find-replicas reports the fewest replicas meeting the attainment target")
{
    CliFixture ws;
    const QString trace = ws.writeFile("steady.jsonl", steadyTrace(400));
    const QStringList common{"simulate", "--trace", trace, "--format", "mooncake", "--model", "llama-3.1-8b",
                             "--gpu", "h100-sxm", "--router", "least-loaded", "--block-size", "16",
                             "--ttft-slo-ms", "300", "--itl-slo-ms", "25", "--json"};
    RUN_HEADROOM(found, ws, (common + QStringList{"--replicas", "1", "--find-replicas", "--attainment", "0.95"}));
    REQUIRE(found.exitCode == 0);
    const QJsonObject o = parseJsonObject(found.out);
    REQUIRE(o.value("replicas_needed").isDouble());
    const int needed = o.value("replicas_needed").toInt();
    CHECK(needed >= 1);
    RUN_HEADROOM(at, ws, (common + QStringList{"--replicas", QString::number(needed)}));
    REQUIRE(at.exitCode == 0);
    CHECK(parseJsonObject(at.out).value("slo_attainment").toDouble() >= 0.95);
    if (needed > 1) {
        RUN_HEADROOM(below, ws, (common + QStringList{"--replicas", QString::number(needed - 1)}));
        REQUIRE(below.exitCode == 0);
        CHECK(parseJsonObject(below.out).value("slo_attainment").toDouble() < 0.95);
    }
    // Without --find-replicas the key is absent.
    CHECK_FALSE(parseJsonObject(at.out).contains("replicas_needed"));
}

TEST_CASE("simulate generates prefix hashes for Azure traces from a shared prefix and hit rate")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    RUN_HEADROOM(none, ws, {"simulate", "--trace", kAzureConv, "--format", "azure", "--kv-blocks", "1000000",
                            "--replicas", "1", "--json"});
    REQUIRE(none.exitCode == 0);
    CHECK(parseJsonObject(none.out).value("hit_rate_blocks").toDouble() == 0);
    RUN_HEADROOM(some, ws, {"simulate", "--trace", kAzureConv, "--format", "azure", "--kv-blocks", "1000000",
                            "--replicas", "1", "--shared-prefix", "512", "--hit-rate", "0.5", "--json"});
    REQUIRE(some.exitCode == 0);
    const double hit = parseJsonObject(some.out).value("hit_rate_tokens").toDouble();
    // Hashes at the simulated 16-token blocks: each prompt reuses about max(512, half of it)
    // tokens, block-rounded — above half, since the 512-token system prompt is more than half of
    // the short prompts.
    CHECK(hit > 0.5);
    CHECK(hit < 0.6);
    // At 512-token blocks the system prompt only hits as one whole block.
    RUN_HEADROOM(coarse, ws, {"simulate", "--trace", kAzureConv, "--format", "azure", "--kv-blocks", "1000000",
                              "--replicas", "1", "--shared-prefix", "512", "--hit-rate", "0.5", "--block-size", "512",
                              "--json"});
    REQUIRE(coarse.exitCode == 0);
    CHECK(parseJsonObject(coarse.out).value("hit_rate_tokens").toDouble() < hit);
}

TEST_CASE("simulate refuses bad input with exit code 2 and counts oversized requests")
{
    CliFixture ws;
    const QString trace = ws.writeFile("small.jsonl", steadyTrace(5));
    const QStringList base{"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "100"};

    RUN_HEADROOM(zero, ws, (base + QStringList{"--replicas", "0"}));
    CHECK(zero.exitCode == 2);
    CHECK(zero.err.contains("--replicas"));
    RUN_HEADROOM(cold, ws, (base + QStringList{"--replicas", "2", "--temperature", "-1"}));
    CHECK(cold.exitCode == 2);
    CHECK(cold.err.contains("--temperature: must be at least 0"));
    RUN_HEADROOM(router, ws, (base + QStringList{"--replicas", "2", "--router", "random"}));
    CHECK(router.exitCode == 2);
    CHECK(router.err.contains("unknown router 'random'"));
    RUN_HEADROOM(pool, ws, {"simulate", "--trace", trace, "--format", "mooncake", "--replicas", "1"});
    CHECK(pool.exitCode == 2);
    CHECK(pool.err.contains("--kv-blocks"));
    RUN_HEADROOM(slo, ws, (base + QStringList{"--replicas", "1", "--ttft-slo-ms", "100"}));
    CHECK(slo.exitCode == 2);
    CHECK(slo.err.contains("--itl-slo-ms"));
    RUN_HEADROOM(untimed, ws, (base + QStringList{"--replicas", "1", "--ttft-slo-ms", "100", "--itl-slo-ms", "10",
                                                 "--find-replicas"}));
    CHECK(untimed.exitCode == 2);
    CHECK(untimed.err.contains("--model and --gpu"));

    const QString backwards = ws.writeFile(
        "backwards.jsonl", "{\"timestamp\": 100, \"input_length\": 10, \"output_length\": 1}\n"
                           "{\"timestamp\": 50, \"input_length\": 10, \"output_length\": 1}\n");
    RUN_HEADROOM(decreasing, ws, {"simulate", "--trace", backwards, "--format", "mooncake", "--kv-blocks", "10",
                                  "--replicas", "1"});
    CHECK(decreasing.exitCode == 2);
    CHECK(decreasing.err.contains("line 2"));

    // 2,200 tokens need 5 blocks of 512: a pool of 4 rejects every request, and says so.
    RUN_HEADROOM(tiny, ws, {"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "4",
                            "--replicas", "1", "--json"});
    REQUIRE(tiny.exitCode == 0);
    const QJsonObject t = parseJsonObject(tiny.out);
    CHECK(t.value("rejected").toInt() == 5);
    CHECK(t.value("completed").toInt() == 0);
}
