// `headroom simulate --step-times` (a measured step-time table in place of the roofline) and
// `--sweep` (one run per value of block size, overlap weight, temperature or pool) end to end.
#include "common/clirunner.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

const QString kSample = QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/step-times-llama-3.1-8b-h100.csv");

// Requests every 50 ms of 2,000 prompt and 200 output tokens; every fourth shares a prefix.
QByteArray steadyTrace(int requests)
{
    QByteArray text;
    for (int i = 0; i < requests; ++i)
        text += QStringLiteral("{\"timestamp\": %1, \"input_length\": 2000, \"output_length\": 200, "
                               "\"hash_ids\": [%2, %3, %4, %5]}\n")
                    .arg(i * 50).arg(i % 4 == 0 ? 7 : 4 * i).arg(4 * i + 1).arg(4 * i + 2).arg(4 * i + 3).toUtf8();
    return text;
}

// Decode grid batches {1, 4} × contexts {0, 1000}; prefill (1000, 50 ms), (3000, 110 ms).
const QByteArray kSmallTable = "phase,batch,context_tokens,prefill_tokens,ms\n"
                               "decode,1,0,,10\n"
                               "decode,1,1000,,12\n"
                               "decode,4,0,,13\n"
                               "decode,4,1000,,21\n"
                               "prefill,,,1000,50\n"
                               "prefill,,,3000,110\n";

QJsonObject without(QJsonObject o, const char *key)
{
    o.remove(QLatin1String(key));
    return o;
}

} // namespace

TEST_CASE("simulate --step-times times iterations from the table as computed by hand")
{
    CliFixture ws;
    // A: t = 0, 1,000 prompt, 3 output tokens; B: t = 10 ms, 2,000 prompt, 2 output tokens.
    // Iterations: prefill A, 50 ms; decode A at context 1,001 (12.002 ms) + prefill B (80 ms);
    // decode A and B at mean context 1,501.5 (17.006 ms). TTFT A 50, B 132.002 ms;
    // ITL A 54.504, B 17.006 ms (engine test "a simulation timed by a step-time table …").
    const QString trace = ws.writeFile("two.jsonl", "{\"timestamp\": 0, \"input_length\": 1000, \"output_length\": 3}\n"
                                                    "{\"timestamp\": 10, \"input_length\": 2000, \"output_length\": 2}\n");
    const QString table = ws.writeFile("steps.csv", kSmallTable);
    RUN_HEADROOM(r, ws, {"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "1000", "--block-size",
                         "16", "--replicas", "1", "--step-times", table, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("timed").toBool());
    CHECK(o.value("step_model").toString() == "table");
    CHECK(o.value("ttft_ms").toObject().value("p50").toDouble() == Approx((50 + 132.002) / 2));
    CHECK(o.value("itl_ms").toObject().value("p50").toDouble() == Approx((54.504 + 17.006) / 2));
    CHECK(o.value("e2e_ms").toObject().value("p50").toDouble() == Approx((159.008 + 149.008) / 2));

    RUN_HEADROOM(text, ws, {"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "1000",
                            "--block-size", "16", "--replicas", "1", "--step-times", table});
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains("measured table (--step-times)"));

    // Cache only: no step model.
    RUN_HEADROOM(cache, ws, {"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "1000",
                             "--replicas", "1", "--json"});
    REQUIRE(cache.exitCode == 0);
    CHECK(parseJsonObject(cache.out).value("step_model").isNull());
}

TEST_CASE("simulate with the sample table sampled from the step-cost model agrees with it where requests run alone")
{
    CliFixture ws;
    const QString trace = ws.writeFile("steady.jsonl", steadyTrace(300));
    // Stretched so requests never overlap: every pass is a prefill alone or a decode alone,
    // the passes the table samples (where they share a pass the model's one forward pass is
    // faster than the table's sum).
    const QStringList common{"simulate", "--trace", trace, "--format", "mooncake", "--model", "llama-3.1-8b", "--gpu",
                             "h100-sxm", "--block-size", "16", "--replicas", "1", "--time-scale", "0.001", "--json"};
    RUN_HEADROOM(roof, ws, (common));
    RUN_HEADROOM(tab, ws, (common + QStringList{"--step-times", kSample}));
    REQUIRE(roof.exitCode == 0);
    REQUIRE(tab.exitCode == 0);
    const QJsonObject a = parseJsonObject(roof.out);
    const QJsonObject b = parseJsonObject(tab.out);
    CHECK(a.value("step_model").toString() == "roofline");
    CHECK(b.value("step_model").toString() == "table");
    // --model and --gpu still size the pool.
    CHECK(b.value("kv_blocks_per_replica").toInt() == a.value("kv_blocks_per_replica").toInt());
    for (const char *key : {"ttft_ms", "itl_ms", "e2e_ms"})
        for (const char *p : {"p50", "p95", "p99"}) {
            INFO(key << " " << p);
            CHECK(b.value(key).toObject().value(p).toDouble()
                  == Approx(a.value(key).toObject().value(p).toDouble()).epsilon(0.02));
        }
}

TEST_CASE("simulate --step-times refuses a bad table naming the file and line")
{
    CliFixture ws;
    const QString trace = ws.writeFile("steady.jsonl", steadyTrace(5));
    const QString bad = ws.writeFile("bad.csv", kSmallTable + "decode,2,0,,-3\n");
    RUN_HEADROOM(r, ws, {"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "100", "--replicas",
                         "1", "--step-times", bad});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("bad.csv: line 8: field \"ms\""));
    const QString gap = ws.writeFile("gap.csv", kSmallTable + "decode,8,0,,20\n");
    RUN_HEADROOM(g, ws, {"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "100", "--replicas",
                         "1", "--step-times", gap});
    CHECK(g.exitCode == 2);
    CHECK(g.err.contains("batch 8 has no point at context_tokens 1000"));
}

TEST_CASE("simulate --sweep points equal single runs at each value")
{
    CliFixture ws;
    const QString trace = ws.writeFile("steady.jsonl", steadyTrace(200));
    const QStringList timed{"simulate", "--trace", trace, "--format", "mooncake", "--model", "llama-3.1-8b", "--gpu",
                            "h100-sxm", "--replicas", "3", "--ttft-slo-ms", "500", "--itl-slo-ms", "30", "--json"};
    const QStringList cacheOnly{"simulate", "--trace", trace, "--format", "mooncake", "--replicas", "3", "--json"};
    struct Case {
        QStringList base;
        QString parameter;
        QStringList values;
    };
    const std::vector<Case> cases{
        {timed + QStringList{"--temperature", "0.5"}, "block-size", {"16", "64", "512"}},
        {timed, "temperature", {"0", "0.5", "2"}},
        {timed + QStringList{"--block-size", "64"}, "overlap-weight", {"0", "1", "2"}},
        {cacheOnly + QStringList{"--block-size", "512"}, "kv-blocks", {"20", "100", "1000"}},
    };
    for (const Case &c : cases) {
        INFO("--sweep " << c.parameter.toStdString());
        RUN_HEADROOM(sweep, ws, (c.base + QStringList{"--sweep", c.parameter + "=" + c.values.join(',')}));
        REQUIRE(sweep.exitCode == 0);
        const QJsonObject s = parseJsonObject(sweep.out).value("sweep").toObject();
        CHECK(s.value("parameter").toString() == c.parameter);
        CHECK(s.value("runtime_s").toDouble() > 0);
        const QJsonArray points = s.value("points").toArray();
        REQUIRE(points.size() == c.values.size());
        for (int i = 0; i < c.values.size(); ++i) {
            INFO("value " << c.values[i].toStdString());
            RUN_HEADROOM(single, ws, (c.base + QStringList{"--" + c.parameter, c.values[i]}));
            REQUIRE(single.exitCode == 0);
            const QJsonObject point = points[i].toObject();
            CHECK(point.value("value").toDouble() == c.values[i].toDouble());
            CHECK(without(point, "value") == without(parseJsonObject(single.out), "runtime_s"));
        }
    }
    // The values do change the results.
    RUN_HEADROOM(pools, ws, (cacheOnly + QStringList{"--sweep", "kv-blocks=5,1000"}));
    const QJsonArray p = parseJsonObject(pools.out).value("sweep").toObject().value("points").toArray();
    REQUIRE(p.size() == 2);
    CHECK(p[0].toObject().value("hit_rate_blocks").toDouble() < p[1].toObject().value("hit_rate_blocks").toDouble());

    // The table lists one row per value.
    QStringList text = timed;
    text.removeAll("--json");
    RUN_HEADROOM(rows, ws, (text + QStringList{"--sweep", "temperature=0,0.5,2"}));
    REQUIRE(rows.exitCode == 0);
    CHECK(rows.out.contains("sweep of temperature (step-cost model times)"));
    CHECK(rows.out.contains("TTFT P95"));
    const QStringList lines = rows.out.split('\n', Qt::SkipEmptyParts);
    CHECK(lines.filter(QRegularExpression("^\\s*(0|0\\.5|2)\\s+[0-9,]+\\s")).size() == 3);
}

TEST_CASE("simulate --sweep refuses unknown parameters and clashing options")
{
    CliFixture ws;
    const QString trace = ws.writeFile("steady.jsonl", steadyTrace(5));
    const QStringList base{"simulate", "--trace", trace, "--format", "mooncake", "--kv-blocks", "100",
                           "--replicas", "2"};
    RUN_HEADROOM(unknown, ws, (base + QStringList{"--sweep", "replicas=1,2"}));
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("unknown parameter 'replicas'"));
    RUN_HEADROOM(noEq, ws, (base + QStringList{"--sweep", "temperature"}));
    CHECK(noEq.exitCode == 2);
    CHECK(noEq.err.contains("PARAMETER=V1,V2"));
    RUN_HEADROOM(clash, ws, (base + QStringList{"--temperature", "1", "--sweep", "temperature=0,1"}));
    CHECK(clash.exitCode == 2);
    CHECK(clash.err.contains("--sweep temperature and --temperature do not go together"));
    RUN_HEADROOM(negative, ws, (base + QStringList{"--sweep", "overlap-weight=1,-1"}));
    CHECK(negative.exitCode == 2);
    CHECK(negative.err.contains("'-1' is not a number at least 0"));
    RUN_HEADROOM(block, ws, (base + QStringList{"--sweep", "block-size=16,0"}));
    CHECK(block.exitCode == 2);
    CHECK(block.err.contains("--sweep block-size"));
    RUN_HEADROOM(find, ws, (base + QStringList{"--sweep", "temperature=0,1", "--find-replicas"}));
    CHECK(find.exitCode == 2);
    CHECK(find.err.contains("do not go together"));
}
