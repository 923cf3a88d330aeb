// `headroom track` end to end: commitment utilization from the published FOCUS examples, the
// JSON contract, anomalies in a series, a scenario's plan against daily actuals, and bad input
// exiting 2 with the reason.
#include "common/clirunner.h"

#include "engine/fleet/scenario.h"
#include "engine/tracking/tracking.h"
#include "engine/inference/workload.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QDateTime>
#include <QTimeZone>
#include <cmath>

using namespace headroom;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/focus-examples/");

engine::Decimal dec(const char *text) { return *engine::Decimal::parse(text); }

// A fixed owned pool of 16 H100 at $3.99 per GPU-hour: 16 × 3.99 × 24 = $1,532.16 a day
// (DESIGN §3.7, static fleet).
void seedScenario(const CliFixture &fixture)
{
    store::Workspace workspace(fixture.workspace());
    engine::WorkloadProfile w;
    w.name = "chat";
    w.tenant = "product";
    w.modelId = "llama-3.1-8b";
    w.dailyActiveUsers = 100000;
    w.requestsPerUserPerDay = 10;
    w.peakSessionsPerUser = 0.1;
    for (int h = 0; h < 24; ++h)
        w.diurnal[size_t(h)] = 1.0;
    w.promptTokens = {1000, 4000};
    w.outputTokens = {300, 1000};
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    w.trafficVariance = 1.5;
    w.measuredMaxStreams = 1000;
    w.measuredGoodputTokensPerS = 3000;
    w.gpuId = "h100-sxm";
    workspace.putWorkload(w);
    engine::Pool pool;
    pool.name = "base";
    pool.gpuId = "h100-sxm";
    pool.tier = engine::PoolTier::Owned;
    pool.sizing = engine::PoolSizing::Fixed;
    pool.gpus = 16;
    pool.ownedRatePerGpuHour = dec("3.99");
    pool.workloads = {"chat"};
    engine::Scenario s;
    s.name = "static";
    s.provider = "Golden";
    s.region = "g";
    s.startDate = "2026-01-01";
    s.pools = {pool};
    workspace.putScenario(s);
}

// One GPU fleet usage row per day from 2026-01-01, costs as given.
QByteArray dailyFocus(const std::vector<QString> &costs)
{
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n";
    for (size_t d = 0; d < costs.size(); ++d) {
        const QString day = QStringLiteral("2026-01-%1").arg(int(d) + 1, 2, 10, QLatin1Char('0'));
        const QString next = QStringLiteral("2026-01-%1").arg(int(d) + 2, 2, 10, QLatin1Char('0'));
        csv += QStringLiteral("USD,%1T00:00:00Z,%2T00:00:00Z,Usage,%3,%3,fleet\n").arg(day, next, costs[d]).toUtf8();
    }
    return csv;
}

} // namespace

TEST_CASE("track commitments: the JSON contract on the under-used example", "[track-cli]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"track", "commitments", "--focus", kFolder + "aws_underutilized_50pct.csv", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    const QJsonArray list = o.value("commitments").toArray();
    REQUIRE(list.size() == 1);
    const QJsonObject c = list[0].toObject();
    CHECK(c.value("id").toString() == "arn:aws:savingsplans::123456789012:savingsplan/sp-abc123def456");
    CHECK(c.value("name").toString() == "EC2 Instance Savings Plan");
    // 12 hours Used and 12 Unused at $79.11: 949.32 ÷ (949.32 + 949.32) = 0.5.
    CHECK(c.value("hours_used").isDouble());
    CHECK(c.value("hours_used").toInt() == 12);
    CHECK(c.value("hours_unused").toInt() == 12);
    CHECK(c.value("utilization").toDouble() == 0.5);
    CHECK(c.value("unused_cost").toString() == "949.32");
    CHECK(c.value("currency").toString() == "USD");
    CHECK(c.value("under_used").toBool());
    CHECK(o.value("on_demand_overflow_cost").toString() == "0.00");
}

TEST_CASE("track commitments: overflow, the threshold and the table", "[track-cli]")
{
    CliFixture ws;
    RUN_HEADROOM(over, ws, {"track", "commitments", "--focus", kFolder + "aws_overflow_150pct.csv", "--json"});
    REQUIRE(over.exitCode == 0);
    const QJsonObject o = parseJsonObject(over.out);
    CHECK(o.value("on_demand_overflow_cost").toString() == "435.60"); // 12 × 36.30
    CHECK(o.value("commitments").toArray()[0].toObject().value("utilization").toDouble() == 1.0);
    CHECK_FALSE(o.value("commitments").toArray()[0].toObject().value("under_used").toBool());

    // 75 % used: under-used at the default 0.8, not at 0.7.
    RUN_HEADROOM(low, ws, {"track", "commitments", "--focus", kFolder + "aws_underutilized_75pct.csv", "--threshold", "0.7", "--json"});
    REQUIRE(low.exitCode == 0);
    CHECK_FALSE(parseJsonObject(low.out).value("commitments").toArray()[0].toObject().value("under_used").toBool());

    RUN_HEADROOM(table, ws, {"track", "commitments", "--focus", kFolder + "aws_underutilized_75pct.csv"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("75.0%"));
    CHECK(table.out.contains("$314.40"));           // 6 × 52.40 unused
    CHECK(table.out.contains("yes, below 80%"));
}

TEST_CASE("track commitments: appendix files warn on stderr and still report", "[track-cli]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"track", "commitments", "--focus", kFolder + "commitment_discount_usage_scenario_3.csv", "--json"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.contains("no BillingCurrency column"));
    const QJsonObject c = parseJsonObject(r.out).value("commitments").toArray()[0].toObject();
    CHECK(c.value("utilization").toDouble() == 0.75);   // 0.75 ÷ (0.75 + 0.25)
    CHECK(c.value("unused_cost").toString() == "0.25");
}

TEST_CASE("track commitments: mixed currencies need --currency, bad files exit 2", "[track-cli]")
{
    CliFixture ws;
    const QString mixed = ws.writeFile("mixed.csv",
        "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,CommitmentDiscountId,CommitmentDiscountStatus\n"
        "USD,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,0,10,c1,Used\n"
        "EUR,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,0,7,c2,Unused\n");
    RUN_HEADROOM(refused, ws, {"track", "commitments", "--focus", mixed});
    CHECK(refused.exitCode == 2);
    CHECK(refused.err.contains("charges in EUR, USD"));
    CHECK(refused.err.contains("--currency"));
    RUN_HEADROOM(eur, ws, {"track", "commitments", "--focus", mixed, "--currency", "EUR", "--json"});
    REQUIRE(eur.exitCode == 0);
    const QJsonArray list = parseJsonObject(eur.out).value("commitments").toArray();
    REQUIRE(list.size() == 1);
    CHECK(list[0].toObject().value("id").toString() == "c2");
    CHECK(list[0].toObject().value("unused_cost").toString() == "7.00");

    const QString missing = ws.writeFile("missing.csv", "ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost\n");
    RUN_HEADROOM(bad, ws, {"track", "commitments", "--focus", missing});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("missing.csv: line 1: field \"EffectiveCost\": missing column"));

    const QString latin1 = ws.writeFile("latin1.csv",
        "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,ResourceId\n"
        "USD,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,1,1,caf\xE9\n");
    RUN_HEADROOM(notUtf8, ws, {"track", "commitments", "--focus", latin1});
    CHECK(notUtf8.exitCode == 2);
    CHECK(notUtf8.err.contains("line 2: field 7: not UTF-8 text"));

    RUN_HEADROOM(wrongOption, ws, {"track", "commitments", "--focus", mixed, "--series", "x.csv"});
    CHECK(wrongOption.exitCode == 2);
    CHECK(wrongOption.err.contains("--series does not apply here"));
    RUN_HEADROOM(noAction, ws, {"track"});
    CHECK(noAction.exitCode == 2);
}

TEST_CASE("track anomalies finds a spike in a series and nothing in a clean one", "[track-cli]")
{
    CliFixture ws;
    QByteArray clean = "value\n", spiked = "value\n";
    uint64_t state = 99;
    for (int t = 0; t < 24 * 28; ++t) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double u = double(state >> 11) / double(uint64_t(1) << 53);
        const double v = 50.0 + 10.0 * std::sin(2.0 * M_PI * t / 24.0) + 2.0 * (u - 0.5);
        clean += QByteArray::number(v, 'g', 17) + '\n';
        spiked += QByteArray::number(t == 500 ? v + 30.0 : v, 'g', 17) + '\n';
    }
    RUN_HEADROOM(none, ws, {"track", "anomalies", "--series", ws.writeFile("clean.csv", clean), "--history", "336", "--json"});
    REQUIRE(none.exitCode == 0);
    CHECK(parseJsonObject(none.out).value("anomalies").toArray().isEmpty());
    CHECK(parseJsonObject(none.out).value("history").toInt() == 336);

    RUN_HEADROOM(one, ws, {"track", "anomalies", "--series", ws.writeFile("spiked.csv", spiked), "--history", "336", "--json"});
    REQUIRE(one.exitCode == 0);
    const QJsonArray list = parseJsonObject(one.out).value("anomalies").toArray();
    REQUIRE(list.size() == 1);
    CHECK(list[0].toObject().value("kind").toString() == "spike");
    CHECK(list[0].toObject().value("index").toInt() == 500);
    CHECK(list[0].toObject().value("size").toDouble() == Approx(30.0).margin(2.0));

    RUN_HEADROOM(shortSeries, ws, {"track", "anomalies", "--series", ws.writeFile("short.csv", "value\n1\n2\n3\n")});
    CHECK(shortSeries.exitCode == 2);
    CHECK(shortSeries.err.contains("series"));
}

TEST_CASE("track plan compares a scenario's cost per day with the actuals", "[track-cli]")
{
    CliFixture ws;
    seedScenario(ws);
    // Planned $1,532.16 a day. Days 1–2 at 1,500.00 and 1,600.16:
    //   variance −32.16 and +68.00, cumulative −32.16 then 35.84.
    RUN_HEADROOM(r, ws, {"track", "plan", "--scenario", "static", "--focus",
                         ws.writeFile("two.csv", dailyFocus({"1500.00", "1600.16"})), "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("planned_per_day").toString() == "1532.16");
    CHECK(o.value("total_planned").toString() == "3064.32");
    CHECK(o.value("total_actual").toString() == "3100.16");
    CHECK(o.value("cumulative_variance").toString() == "35.84");
    const QJsonArray days = o.value("days").toArray();
    REQUIRE(days.size() == 2);
    CHECK(days[0].toObject().value("date").toString() == "2026-01-01");
    CHECK(days[0].toObject().value("variance").toString() == "-32.16");
    CHECK(days[1].toObject().value("cumulative_variance").toString() == "35.84");
    CHECK_FALSE(o.value("banded").toBool());
    CHECK_FALSE(o.value("drift").toBool());

    // 14 days near plan, then 4 days at $2,500: drift after 3 days outside the P99 band.
    std::vector<QString> costs;
    for (int d = 0; d < 14; ++d)
        costs.push_back(QStringLiteral("%1.16").arg(1532 + (d * 7919) % 13 - 6));
    for (int d = 0; d < 4; ++d)
        costs.push_back(QStringLiteral("2500.00"));
    RUN_HEADROOM(drift, ws, {"track", "plan", "--scenario", "static", "--focus", ws.writeFile("drift.csv", dailyFocus(costs)), "--json"});
    REQUIRE(drift.exitCode == 0);
    const QJsonObject d = parseJsonObject(drift.out);
    CHECK(d.value("banded").toBool());
    CHECK(d.value("drift").toBool());
    CHECK(d.value("drift_start").toString() == "2026-01-15");
    CHECK(d.value("coverage_p05_p95").toDouble() == 0.0);

    RUN_HEADROOM(table, ws, {"track", "plan", "--scenario", "static", "--focus", ws.filePath("drift.csv")});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("drift from 2026-01-15"));
    CHECK(table.out.contains("$1,532.16"));

    RUN_HEADROOM(unknown, ws, {"track", "plan", "--scenario", "nope", "--focus", ws.filePath("drift.csv")});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("unknown scenario 'nope'"));
}

TEST_CASE("track import keeps the summary in the workspace and a bad file changes nothing", "[track-cli]")
{
    CliFixture ws;
    RUN_HEADROOM(r, ws, {"track", "import", "--focus", kFolder + "aws_underutilized_50pct.csv", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("file").toString() == "aws_underutilized_50pct.csv");
    CHECK(o.value("rows").toInt() == 37);
    CHECK(o.value("currencies").toArray() == QJsonArray{"USD"});
    CHECK(o.value("commitments").toInt() == 1);
    CHECK(o.value("commitment_hours").toInt() == 24);
    {
        store::Workspace workspace(ws.workspace());
        const auto imports = workspace.actualsImports();
        REQUIRE(imports.size() == 1);
        const auto report = engine::analyseCommitments(*workspace.actuals(imports[0].id));
        REQUIRE(report.commitments.size() == 1);
        CHECK(report.commitments[0].unusedCost == dec("949.32"));
    }
    // Half a file: the header names no EffectiveCost column. Nothing is stored.
    const QString bad = ws.writeFile("aws_underutilized_50pct.csv",
                                     "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost\n"
                                     "USD,2026-01-01T00:00:00Z,2026-01-01T01:00:00Z,Usage,5\n");
    RUN_HEADROOM(refused, ws, {"track", "import", "--focus", bad});
    CHECK(refused.exitCode == 2);
    CHECK(refused.err.contains("EffectiveCost"));
    store::Workspace workspace(ws.workspace());
    REQUIRE(workspace.actualsImports().size() == 1);
    CHECK(workspace.actualsImports()[0].rowCount == 37);
}

TEST_CASE("track commitments and plan without --focus read the newest import, to the cent", "[track-cli]")
{
    CliFixture ws;
    seedScenario(ws);
    RUN_HEADROOM(none, ws, {"track", "commitments", "--json"});
    CHECK(none.exitCode == 2);
    CHECK(none.err.contains("track import"));
    for (const char *file : {"aws_overflow_150pct.csv", "aws_underutilized_75pct.csv"}) {
        INFO(file);
        RUN_HEADROOM(imported, ws, {"track", "import", "--focus", kFolder + file});
        REQUIRE(imported.exitCode == 0);
        RUN_HEADROOM(fromFile, ws, {"track", "commitments", "--focus", kFolder + file, "--json"});
        RUN_HEADROOM(fromStore, ws, {"track", "commitments", "--json"});
        REQUIRE(fromFile.exitCode == 0);
        REQUIRE(fromStore.exitCode == 0);
        const QJsonObject a = parseJsonObject(fromFile.out), b = parseJsonObject(fromStore.out);
        CHECK(a.value("commitments") == b.value("commitments"));
        CHECK(a.value("on_demand_overflow_cost") == b.value("on_demand_overflow_cost"));
        RUN_HEADROOM(planFile, ws, {"track", "plan", "--scenario", "static", "--focus", kFolder + file, "--json"});
        RUN_HEADROOM(planStore, ws, {"track", "plan", "--scenario", "static", "--json"});
        REQUIRE(planFile.exitCode == 0);
        REQUIRE(planStore.exitCode == 0);
        CHECK(parseJsonObject(planFile.out).value("days") == parseJsonObject(planStore.out).value("days"));
        CHECK(parseJsonObject(planStore.out).value("total_actual").toString()
              == (QString(file) == "aws_overflow_150pct.csv" ? "1039.98" : "1267.75"));
    }
    // The newest import is the 75 % example: 6 × $52.40 unused.
    RUN_HEADROOM(last, ws, {"track", "commitments", "--json"});
    CHECK(parseJsonObject(last.out).value("commitments").toArray()[0].toObject().value("unused_cost").toString() == "314.40");
}

TEST_CASE("track commitments: the next term from the measured demand, in the JSON and the table", "[track-cli]")
{
    CliFixture ws;
    // aws_overflow_150pct: $24.20/h fully used for 24 h, then 12 h of on-demand usage at
    // $36.30/h in the same service and region. ListCost ÷ EffectiveCost of the Used rows is
    // 36.30 ÷ 24.20 = 1.5, so the overflow is 36.30 ÷ 1.5 = $24.20/h at the committed price:
    // a flat $24.20/h for 36 h. The optimizer keeps $24.20/h, used 100 %; a year of it costs
    // 24.20 × 8,760 = $211,992.00 and nothing is saved.
    RUN_HEADROOM(over, ws, {"track", "commitments", "--focus", kFolder + "aws_overflow_150pct.csv", "--json"});
    REQUIRE(over.exitCode == 0);
    const QJsonObject o = parseJsonObject(over.out);
    const QJsonObject c = o.value("commitments").toArray()[0].toObject();
    for (const char *key : {"id", "name", "hours_used", "hours_unused", "utilization", "unused_cost", "currency"})
        CHECK(c.contains(QLatin1String(key)));
    CHECK(c.value("days_to_renewal").isNull());     // the purchase covers one month, not a term
    const QJsonObject next = c.value("recommendation").toObject();
    REQUIRE(next.value("available").toBool());
    CHECK(next.value("on_demand_ratio").toDouble() == Approx(1.5));
    CHECK(next.value("history_hours").toInt() == 36);
    CHECK(next.value("measured_mean_per_hour").toString() == "24.20");
    CHECK(next.value("current_per_hour").toString() == "24.20");
    CHECK(next.value("recommended_per_hour").toString() == "24.20");
    CHECK(next.value("expected_utilization").toDouble() == Approx(1.0).margin(1e-6));
    CHECK(next.value("current_term_cost").toString() == "211992.00");
    CHECK(next.value("recommended_term_cost").toString() == "211992.00");
    CHECK(next.value("saving_per_term").toString() == "0.00");
    CHECK(next.value("term_hours").toInt() == 8760);
    CHECK(next.value("reasoning").toString().contains("keeps the commitment at $24.20/h"));

    // aws_underutilized_50pct: $79.11/h used for 12 h then idle for 12 h. The forecast follows
    // the idle level, so the recommendation is smaller than now and saves money; the saving
    // is the difference of the two term costs shown.
    RUN_HEADROOM(low, ws, {"track", "commitments", "--focus", kFolder + "aws_underutilized_50pct.csv", "--json"});
    REQUIRE(low.exitCode == 0);
    const QJsonObject u = parseJsonObject(low.out).value("commitments").toArray()[0].toObject();
    CHECK(u.value("under_used").toBool());
    const QJsonObject cut = u.value("recommendation").toObject();
    REQUIRE(cut.value("available").toBool());
    CHECK(cut.value("current_per_hour").toString() == "79.11");
    CHECK(cut.value("on_demand_ratio").toDouble() == Approx(118.67 / 79.11).epsilon(1e-6));
    const double current = cut.value("current_term_cost").toString().toDouble();
    const double recommended = cut.value("recommended_term_cost").toString().toDouble();
    CHECK(cut.value("recommended_per_hour").toString().toDouble() < 79.11);
    CHECK(cut.value("saving_per_term").toString().toDouble() == Approx(current - recommended).margin(0.005));
    CHECK(cut.value("saving_per_term").toString().toDouble() > 0);
    // The last 12 measured hours were idle, so the forecast level is 0 and the optimizer
    // commits nothing; with 24 h of history the reasoning says to read it as a first indication.
    CHECK(cut.value("recommended_per_hour").toString() == "0.00");
    CHECK(cut.value("reasoning").toString().contains("let it expire"));
    CHECK(cut.value("reasoning").toString().contains("Only 24 h of measured demand"));
    // 24 h are fewer than the forecast needs: the measured 50 % drives, and expiring saves
    // $79.11 × 8,760 − $118.67 × 4,380 = $173,229.00, not the forecast's whole $693,003.60.
    CHECK(cut.value("basis").toString() == "measured");
    CHECK(cut.value("basis_reason").toString().contains("fitted on 24 h"));
    CHECK(cut.value("measured_utilization").toDouble() == Approx(0.5).margin(1e-9));
    CHECK(cut.value("current_expected_utilization").toDouble() == Approx(0.5).margin(1e-9));
    CHECK(cut.value("saving_per_term").toString() == "173229.00");
    CHECK(cut.value("recommended_term_cost").toString() == "519774.60");
    CHECK(cut.value("forecast_saving_per_term").toString() == "693003.60");
    CHECK(cut.value("backtest_mase").isNull());
    RUN_HEADROOM(lowText, ws, {"track", "commitments", "--focus", kFolder + "aws_underutilized_50pct.csv"});
    REQUIRE(lowText.exitCode == 0);
    CHECK(lowText.out.contains("$79.11/h now (50.0% utilized), recommended $0.00/h, saving $173,229.00 per term, on the "
                               "measured hours."));

    // The table prints the next term after the commitments.
    RUN_HEADROOM(table, ws, {"track", "commitments", "--focus", kFolder + "aws_overflow_150pct.csv"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("Next term (8760 h):"));
    CHECK(table.out.contains("recommended $24.20/h"));

    // --on-demand-ratio overrides the ListCost: at 1.0 a commitment never pays, commit nothing.
    RUN_HEADROOM(even, ws, {"track", "commitments", "--focus", kFolder + "aws_overflow_150pct.csv",
                            "--on-demand-ratio", "1", "--json"});
    REQUIRE(even.exitCode == 0);
    const QJsonObject evenNext =
        parseJsonObject(even.out).value("commitments").toArray()[0].toObject().value("recommendation").toObject();
    CHECK(evenNext.value("recommended_per_hour").toString() == "0.00");
}

TEST_CASE("track anomalies over the actuals sizes each anomaly in money and usage hours", "[track-cli]")
{
    CliFixture ws;
    // 42 days of one GPU fleet row a day: 96 GPU-hours at $2.50 ($240), weekends 80 ($200),
    // give or take a fixed wobble of −2 … +2 hours ((3d mod 5) − 2); day 35 (2026-02-05) runs
    // 40 GPU-hours more ($100 more): 96 − 2 + 40 = 134 hours, $335.00.
    QByteArray csv = "BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ChargeCategory,BilledCost,EffectiveCost,"
                     "ResourceId,ConsumedQuantity,ConsumedUnit\n";
    const qint64 t0 = 1767225600;
    for (int d = 0; d < 42; ++d) {
        int hours = ((d + 3) % 7 >= 5 ? 80 : 96) + (d * 3) % 5 - 2;     // 2026-01-01 is a Thursday
        if (d == 35)
            hours += 40;
        const QString from = QDateTime::fromSecsSinceEpoch(t0 + d * 86400, QTimeZone::utc()).toString(Qt::ISODate);
        const QString to = QDateTime::fromSecsSinceEpoch(t0 + (d + 1) * 86400, QTimeZone::utc()).toString(Qt::ISODate);
        const QString cost = QString::number(hours * 2.5, 'f', 2);
        csv += QStringLiteral("USD,%1,%2,Usage,%3,%3,fleet,%4,GPU-Hours\n").arg(from, to, cost).arg(hours).toUtf8();
    }
    const QString path = ws.writeFile("daily-gpu.csv", csv);
    RUN_HEADROOM(r, ws, {"track", "anomalies", "--focus", path, "--history", "28", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("currency").toString() == "USD");
    CHECK(o.value("days").toInt() == 42);
    const QJsonArray list = o.value("anomalies").toArray();
    REQUIRE(list.size() == 2);      // the spike in spend and in usage hours
    for (const QJsonValue &v : list) {
        const QJsonObject a = v.toObject();
        CHECK(a.value("kind").toString() == "spike");
        CHECK(a.value("date").toString() == "2026-02-05");
        CHECK(a.value("spend").toString() == "335.00");
        CHECK(a.value("usage_hours").toDouble() == Approx(134.0));
        // Against a forecast that knows the weekly shape but not the wobble: 40 h ± 3 h.
        CHECK(a.value("money_size").toString().toDouble() == Approx(100.0).margin(7.5));
        CHECK(a.value("usage_hours_size").toDouble() == Approx(40.0).margin(3.0));
        CHECK(a.value("money_size").toString().toDouble() == Approx(2.5 * a.value("usage_hours_size").toDouble()).margin(0.01));
    }
    CHECK(list[0].toObject().value("series").toString() == "spend");
    CHECK(list[1].toObject().value("series").toString() == "usage");

    // --series and --focus do not mix.
    RUN_HEADROOM(mixed, ws, {"track", "anomalies", "--series", path, "--focus", path});
    CHECK(mixed.exitCode == 2);
}

TEST_CASE("track commitments escapes control characters in the names it echoes", "[track-cli]")
{
    CliFixture ws;
    QFile example(kFolder + "aws_underutilized_50pct.csv");
    REQUIRE(example.open(QIODevice::ReadOnly));
    // An escape sequence that would retitle the terminal and clear the screen.
    const QByteArray csv = example.readAll().replace("EC2 Instance Savings Plan", "EC2\x1b]0;pwned\x07\x1b[2J Plan");
    const QString path = ws.writeFile("escapes.csv", csv);
    RUN_HEADROOM(table, ws, {"track", "commitments", "--focus", path});
    REQUIRE(table.exitCode == 0);
    CHECK_FALSE(table.out.contains(QChar(0x1b)));
    CHECK_FALSE(table.out.contains(QChar(0x07)));
    CHECK(table.out.contains("EC2\\x1B]0;pwned\\x07\\x1B[2J Plan"));
    // JSON keeps the name as it is, escaped by JSON's own rules.
    RUN_HEADROOM(json, ws, {"track", "commitments", "--focus", path, "--json"});
    REQUIRE(json.exitCode == 0);
    CHECK(parseJsonObject(json.out).value("commitments").toArray()[0].toObject().value("name").toString()
          == QString::fromUtf8("EC2\x1b]0;pwned\x07\x1b[2J Plan"));
}
