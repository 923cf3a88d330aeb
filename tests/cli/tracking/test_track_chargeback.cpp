// `headroom track chargeback` end to end: a MIG, a time-sliced and an MPS pool billed hourly,
// every table re-added to the invoice to the cent, the quota view, FOCUS-style CSV, the Kueue
// configuration, tokens from serving metrics, and bad input exiting 2 naming the line.
#include "common/clirunner.h"

#include "engine/common/money.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

using namespace headroom;

namespace {

engine::Decimal dec(const QString &text) { return *engine::Decimal::parse(text.toStdString()); }

// 24 hourly charges per machine on 2026-03-01: mig-node $3.50, ts-node $2.00, mps-node $1.00,
// and a disk at $0.25 that belongs to no claim.
QByteArray bill()
{
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n";
    for (int h = 0; h < 24; ++h) {
        const QString start = QStringLiteral("2026-03-01T%1:00:00Z").arg(h, 2, 10, QLatin1Char('0'));
        const QString end = h < 23 ? QStringLiteral("2026-03-01T%1:00:00Z").arg(h + 1, 2, 10, QLatin1Char('0'))
                                   : QStringLiteral("2026-03-02T00:00:00Z");
        for (const auto &[resource, cost] : {std::pair{"mig-node", "3.50"}, std::pair{"ts-node", "2.00"},
                                             std::pair{"mps-node", "1.00"}, std::pair{"disk-1", "0.25"}})
            csv += QStringLiteral("USD,%1,%2,Usage,%3,%3,%4\n").arg(start, end, QLatin1String(cost), QLatin1String(resource)).toUtf8();
    }
    return csv;
}

const QByteArray kHeader =
    "tenant,namespace,model,deployment,resource_id,resource_gpus,gpu_type,gpu,mode,profile,share,resident_gib,start,end\n";
const QString kDay = QStringLiteral("2026-03-01T00:00:00Z,2026-03-02T00:00:00Z");

QByteArray claims()
{
    QByteArray csv = kHeader;
    // MIG: a 1g.10gb and a 3g.40gb claim count the same as claims, not as slices.
    csv += "alpha,team-a,llama-3.1-8b,chat,mig-node,1,h100-sxm,0,mig,1g.10gb,,," + kDay.toUtf8() + "\n";
    csv += "beta,team-b,llama-3.1-8b,code,mig-node,1,h100-sxm,0,mig,3g.40gb,,," + kDay.toUtf8() + "\n";
    // Time-slicing: alpha half the GPU's time for 12 h, gamma a quarter all day.
    csv += "alpha,team-a,llama-3.1-8b,chat,ts-node,1,h100-sxm,0,time-slice,,0.5,,2026-03-01T00:00:00Z,2026-03-01T12:00:00Z\n";
    csv += "gamma,team-b,,,ts-node,1,h100-sxm,0,time-slice,,0.25,," + kDay.toUtf8() + "\n";
    // MPS: beta 40 % of the threads all day.
    csv += "beta,team-b,llama-3.1-8b,code,mps-node,1,h100-sxm,0,mps,,0.4,," + kDay.toUtf8() + "\n";
    return csv;
}

QJsonObject lineOf(const QJsonArray &lines, const QString &key)
{
    for (const QJsonValue &v : lines)
        if (v.toObject().value("key").toString() == key)
            return v.toObject();
    FAIL("no line " << key.toStdString());
    return {};
}

} // namespace

TEST_CASE("track chargeback: slice-hour shares per mode re-add to the invoice to the cent", "[track-cli][chargeback]")
{
    CliFixture ws;
    const QString claimsFile = ws.writeFile("claims.csv", claims());
    const QString billFile = ws.writeFile("bill.csv", bill());
    RUN_HEADROOM(r, ws, {"track", "chargeback", "--claims", claimsFile, "--focus", billFile, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    // Invoice of the pool: 24 × (3.50 + 2.00 + 1.00) = 156.00; the disk's 6.00 is outside.
    CHECK(o.value("invoice").toString() == "156.00");
    CHECK(o.value("charges").toInt() == 72);
    CHECK(o.value("outside_pool_cost").toString() == "6.00");
    CHECK(o.value("pool_gpu_hours").toDouble() == 72.0);
    const QJsonArray tenants = o.value("tables").toObject().value("tenant").toArray();
    // alpha: MIG 84 × 1/7 = 12.00, time-slice 2 × 12 h × 0.5 = 12.00 → 24.00
    // beta:  MIG 84 × 3/7 = 36.00, MPS 24 × 0.4 = 9.60 → 45.60
    // gamma: time-slice 48 × 0.25 = 12.00
    // idle:  MIG 36.00 + time-slice 48 − 24 = 24.00 + MPS 14.40 = 74.40
    CHECK(lineOf(tenants, "alpha").value("cost").toString() == "24.00");
    CHECK(lineOf(tenants, "beta").value("cost").toString() == "45.60");
    CHECK(lineOf(tenants, "gamma").value("cost").toString() == "12.00");
    CHECK(lineOf(tenants, "(idle capacity)").value("cost").toString() == "74.40");
    // Quota (claims), charge by charge: MIG 2.00 an hour charged → 1.00 each, 24/24; time-slice
    // 1.50 an hour charged while both held (0.75 each, 12 h) and 0.50 after noon (gamma) →
    // alpha 9.00, gamma 15.00; MPS 9.60 all beta.
    CHECK(lineOf(tenants, "alpha").value("quota_cost").toString() == "33.00");
    CHECK(lineOf(tenants, "beta").value("quota_cost").toString() == "33.60");
    CHECK(lineOf(tenants, "gamma").value("quota_cost").toString() == "15.00");
    CHECK(lineOf(tenants, "alpha").value("quota_difference").toString() == "9.00");
    CHECK(lineOf(tenants, "beta").value("quota_difference").toString() == "-12.00");
    for (const QString &table : {QStringLiteral("tenant"), QStringLiteral("model"), QStringLiteral("namespace")}) {
        engine::Decimal sum, quota;
        for (const QJsonValue &v : o.value("tables").toObject().value(table).toArray()) {
            sum += dec(v.toObject().value("cost").toString());
            quota += dec(v.toObject().value("quota_cost").toString());
        }
        INFO(table.toStdString());
        CHECK(sum == dec("156.00"));
        CHECK(quota == dec("156.00"));
    }
    CHECK(lineOf(o.value("tables").toObject().value("model").toArray(), "(none)").value("cost").toString() == "12.00");
    CHECK(lineOf(o.value("tables").toObject().value("namespace").toArray(), "team-b").value("cost").toString() == "57.60");

    // The text table carries the same figures and a total row.
    RUN_HEADROOM(text, ws, {"track", "chargeback", "--claims", claimsFile, "--focus", billFile});
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.contains(QRegularExpression(QStringLiteral("\\nbeta +[0-9.]+ +48\\.00 +45\\.60 +33\\.60 +-12\\.00"))));
    CHECK(text.out.contains(QRegularExpression(QStringLiteral("\\ntotal .* 156\\.00 +156\\.00"))));
}

TEST_CASE("track chargeback: idle spread pro rata, the period, FOCUS allocation CSV and the Kueue configuration", "[track-cli][chargeback]")
{
    CliFixture ws;
    const QString claimsFile = ws.writeFile("claims.csv", claims());
    const QString billFile = ws.writeFile("bill.csv", bill());
    RUN_HEADROOM(r, ws, {"track", "chargeback", "--claims", claimsFile, "--focus", billFile, "--idle", "pro-rata",
                         "--from", "2026-03-01T12:00:00Z", "--to", "2026-03-02", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    // The afternoon: 12 × 6.50 = 78.00. MIG 42.00 spread 1:3 → 10.50 / 31.50; time-slice 24.00
    // all gamma's (alpha's claim ended at noon); MPS 12.00 all beta's.
    CHECK(o.value("invoice").toString() == "78.00");
    const QJsonArray tenants = o.value("tables").toObject().value("tenant").toArray();
    CHECK(lineOf(tenants, "alpha").value("cost").toString() == "10.50");
    CHECK(lineOf(tenants, "beta").value("cost").toString() == "43.50");
    CHECK(lineOf(tenants, "gamma").value("cost").toString() == "24.00");
    CHECK(lineOf(tenants, "(idle capacity)").value("cost").toString() == "0.00");
    CHECK(lineOf(tenants, "alpha").value("slice_hours").toDouble() == Approx(12.0 / 7));

    RUN_HEADROOM(csv, ws, {"track", "chargeback", "--claims", claimsFile, "--focus", billFile, "--csv", "--by", "namespace"});
    REQUIRE(csv.exitCode == 0);
    const QStringList rows = csv.out.trimmed().split('\n');
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == "ChargePeriodStart,ChargePeriodEnd,BillingCurrency,EffectiveCost,AllocatedMethodId,"
                     "AllocatedResourceId,AllocatedTags,x_SliceHours,x_ClaimHours,x_QuotaEffectiveCost");
    CHECK(rows[1].startsWith("2026-03-01T00:00:00Z,2026-03-02T00:00:00Z,USD,24.00,headroom-slice-hours-compute-idle-apart,"
                             "team-a,\"{\"\"headroom/namespace\"\":\"\"team-a\"\"}\","));
    CHECK(rows[3].contains(",(idle capacity),\"{\"\"headroom/idle\"\":\"\"true\"\"}\","));

    RUN_HEADROOM(kueue, ws, {"track", "chargeback", "--claims", claimsFile, "--focus", billFile, "--kueue-config",
                             "--mig-basis", "memory"});
    REQUIRE(kueue.exitCode == 0);
    CHECK(kueue.out.contains("kind: Configuration\nresources:\n  transformations:\n"));
    CHECK(kueue.out.contains("  - input: nvidia.com/mig-3g.40gb\n    strategy: Replace\n    outputs:\n"
                             "      headroom.io/gpu-memory-slices: \"4\"\n"));
    CHECK(kueue.out.contains("Time-slicing, MPS and over-commit replicas are counted one per replica"));
}

TEST_CASE("track chargeback: cost per million tokens from the serving metrics", "[track-cli][chargeback]")
{
    CliFixture ws;
    const QString claimsFile = ws.writeFile("claims.csv", claims());
    const QString billFile = ws.writeFile("bill.csv", bill());
    // chat served 4 M prompt and 1 M generated tokens in the first hour (counter increases).
    const QString metrics = ws.writeFile("metrics.csv",
                                         "timestamp,instance,gpu,metric,value,deployment\n"
                                         "2026-03-01T00:00:00Z,r1,,vllm:prompt_tokens_total,0,chat\n"
                                         "2026-03-01T00:30:00Z,r1,,vllm:prompt_tokens_total,4000000,chat\n"
                                         "2026-03-01T00:00:00Z,r1,,vllm:generation_tokens_total,0,chat\n"
                                         "2026-03-01T00:30:00Z,r1,,vllm:generation_tokens_total,1000000,chat\n");
    RUN_HEADROOM(r, ws, {"track", "chargeback", "--claims", claimsFile, "--focus", billFile, "--metrics", metrics, "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject alpha = lineOf(parseJsonObject(r.out).value("tables").toObject().value("tenant").toArray(), "alpha");
    // 24.00 ÷ 4 M input = 6.0000; ÷ 1 M output = 24.0000; ÷ 5 M = 4.8000.
    CHECK(alpha.value("input_tokens").toDouble() == 4000000);
    CHECK(alpha.value("cost_per_million_input").toString() == "6.0000");
    CHECK(alpha.value("cost_per_million_output").toString() == "24.0000");
    CHECK(alpha.value("cost_per_million_tokens").toString() == "4.8000");
    const QJsonArray days = alpha.value("days").toArray();
    REQUIRE(days.size() == 1);
    CHECK(days[0].toObject().value("date").toString() == "2026-03-01");
    CHECK(days[0].toObject().value("cost").toString() == "24.00");
    CHECK(days[0].toObject().value("cost_per_million_tokens").toString() == "4.8000");
    const QJsonObject gamma = lineOf(parseJsonObject(r.out).value("tables").toObject().value("tenant").toArray(), "gamma");
    CHECK(gamma.value("cost_per_million_tokens").isNull());
}

TEST_CASE("track chargeback: bad input exits 2 naming the file, line and field", "[track-cli][chargeback]")
{
    CliFixture ws;
    const QString billFile = ws.writeFile("bill.csv", bill());
    const auto refused = [&](const QByteArray &claimsCsv, const QString &needle, const QStringList &extra = {}) {
        const QString file = ws.writeFile("bad.csv", claimsCsv);
        const CliResult r = ws.run(QStringList{"track", "chargeback", "--claims", file, "--focus", billFile} + extra);
        INFO("stdout:\n" << r.out.toStdString() << "\nstderr:\n" << r.err.toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.out.isEmpty());
        CHECK(r.err.contains(needle));
    };
    refused(kHeader + "a,,,,mig-node,1,h100-sxm,0,mig,9g.90gb,,," + kDay.toUtf8() + "\n",
            "line 2: MIG profile \"9g.90gb\" is not one of 1g.10gb");
    refused(kHeader + "a,,,,mig-node,1,h100-sxm,0,mig,4g.40gb,,," + kDay.toUtf8() + "\nb,,,,mig-node,1,h100-sxm,0,mig,4g.40gb,,,"
                + kDay.toUtf8() + "\n",
            "the claims on lines 2, 3 hold more than the whole of GPU 0 of mig-node");
    refused(kHeader + "a,,,,mig-node,1,h100-sxm,2,mig,1g.10gb,,," + kDay.toUtf8() + "\n", "line 2: field \"gpu\"");
    refused(kHeader + "a,,,,mig-node,1,h100-sxm,0,time-slice,,1.5,," + kDay.toUtf8() + "\n", "line 2: field \"share\"");
    refused(kHeader + "a,,,,mig-node,1,h100-sxm,0,exclusive,,,,2026-03-02T00:00:00Z,2026-03-01T00:00:00Z\n",
            "line 2: field \"end\"");
    refused(kHeader + "a,,,,mig-node,1,h100-sxm,0,shared,,,," + kDay.toUtf8() + "\n", "line 2: field \"mode\"");
    refused(kHeader + "a,,,,mig-node,1,h100-sxm,0,exclusive,,,," + kDay.toUtf8() + "\na,,,,mig-node,2,h100-sxm,1,exclusive,,,,"
                + kDay.toUtf8() + "\n",
            "line 3: field \"resource_gpus\": 2 GPUs, but an earlier row gives 1 for mig-node");
    refused(kHeader + "a,,,,mig-node,1,z9000,0,exclusive,,,," + kDay.toUtf8() + "\n", "gpu_type 'z9000' of mig-node");
    refused(kHeader + "a,,,,elsewhere,1,h100-sxm,0,exclusive,,,," + kDay.toUtf8() + "\n", "names a machine of");
    refused("tenant,resource_id\n", "missing column");
    refused(claims(), "--by 'team' is not one of tenant, model, namespace", {"--by", "team"});
    refused(claims(), "give one of --json, --csv and --kueue-config", {"--json", "--csv"});
    refused(claims(), "--threshold does not apply here", {"--threshold", "0.5"});
}

TEST_CASE("track chargeback --scenario: a plan's cost per day split over the claims of its pools", "[track-cli][chargeback]")
{
    CliFixture ws;
    // The demo's "Internal MIG tenants": pool "mig base", 14 H100s at $3.096 an hour =
    // $1,040.256 a day. alpha holds a 1g.10gb of GPU 0 and beta a 7g.80gb of GPU 1 for one day.
    const QString claimsFile = ws.writeFile(
        "claims.csv", "tenant,resource_id,resource_gpus,gpu_type,gpu,mode,profile,start,end\n"
                      "alpha,mig base,14,h100-sxm,0,mig,1g.10gb,2026-03-01T00:00:00Z,2026-03-02T00:00:00Z\n"
                      "beta,mig base,14,h100-sxm,1,mig,7g.80gb,2026-03-01T00:00:00Z,2026-03-02T00:00:00Z\n");
    const CliResult r = ws.runBare({"--demo", "track", "chargeback", "--claims", claimsFile, "--scenario",
                                    "Internal MIG tenants", "--json"});
    INFO(r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("invoice").toString() == "1040.26");
    CHECK(o.value("charges").toInt() == 1);
    const QJsonArray tenants = o.value("tables").toObject().value("tenant").toArray();
    // alpha 1,040.256 ÷ 14 ÷ 7 = 10.6148…, beta ÷ 14 = 74.304, idle 955.3371…; rounded down
    // 10.61 + 74.30 + 955.33 = 1,040.24, the two cents left to idle (.71) and alpha (.49).
    CHECK(lineOf(tenants, "alpha").value("cost").toString() == "10.62");
    CHECK(lineOf(tenants, "beta").value("cost").toString() == "74.30");
    CHECK(lineOf(tenants, "(idle capacity)").value("cost").toString() == "955.34");

    const QString wrong = ws.writeFile(
        "wrong.csv", "tenant,resource_id,resource_gpus,gpu_type,gpu,mode,profile,start,end\n"
                     "alpha,mig base,8,h100-sxm,0,mig,1g.10gb,2026-03-01T00:00:00Z,2026-03-02T00:00:00Z\n");
    const CliResult bad = ws.runBare({"--demo", "track", "chargeback", "--claims", wrong, "--scenario", "Internal MIG tenants"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("line 2: field \"resource_gpus\": 8 GPUs, but pool mig base of scenario Internal MIG tenants has 14"));
    const CliResult both = ws.runBare({"--demo", "track", "chargeback", "--claims", claimsFile, "--scenario",
                                       "Internal MIG tenants", "--focus", claimsFile});
    CHECK(both.exitCode == 2);
    CHECK(both.err.contains("not both"));
}
