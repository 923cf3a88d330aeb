// `headroom plan` end to end: the scenario fixtures' workspace planned, the plan saved as a
// scenario and evaluated back by the binary.
#include "common/clirunner.h"
#include "fleet/scenariofixture.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

using namespace headroom;
using namespace headroom::test::fleet;

namespace {

// "$559,238.40" → 55923840; "−$10.00" → −1000.
qint64 cents(QString text)
{
    const bool negative = text.startsWith(QStringLiteral("−")) || text.startsWith('-');
    text.remove(QRegularExpression(QStringLiteral("[^0-9.]")));
    const QStringList parts = text.split('.');
    REQUIRE(parts.size() == 2);
    const qint64 value = parts[0].toLongLong() * 100 + parts[1].toLongLong();
    return negative ? -value : value;
}

} // namespace

TEST_CASE("plan serves a scenario's workloads for less and saves a scenario that evaluates to its cents", "[plan-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(r, ws, {"plan", "--scenario", "static", "--create-scenario", "planned", "--json"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.contains("saved the plan as scenario 'planned'"));
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("compared").toObject().value("cost_over_term").toString() == "559238.40");
    const QString cost = o.value("cost_over_term").toString();
    CHECK(cost.toDouble() > 0);
    CHECK(cost.toDouble() <= 559238.40);
    const QJsonArray workloads = o.value("workloads").toArray();
    REQUIRE(workloads.size() == 1);
    CHECK(workloads[0].toObject().value("workload").toString() == "chat");
    CHECK(workloads[0].toObject().value("ttft_ms").toDouble() <= workloads[0].toObject().value("ttft_slo_ms").toDouble());
    CHECK(o.value("method").toString().contains("gap 0"));
    CHECK(o.value("packing").toString().contains("MIG"));
    CHECK(workloads[0].toObject().value("mig_profile").isNull());
    CHECK(o.value("front").toArray().size() == 11);
    CHECK(o.value("scenario").toObject().value("pools").toArray().size() >= 1);

    RUN_HEADROOM(e, ws, {"scenario", "evaluate", "planned", "--json"});
    REQUIRE(e.exitCode == 0);
    CHECK(parseJsonObject(e.out).value("cost_over_term").toString() == cost);

    // The hand-off follows the plan's deployments: each elastic pool's claim asks the TP it plans.
    int elasticPools = 0;
    for (const QJsonValue &pool : o.value("scenario").toObject().value("pools").toArray())
        elasticPools += pool.toObject().value("tier").toString() != "reserved_1y"
                        && pool.toObject().value("tier").toString() != "reserved_3y";
    if (elasticPools > 0) {
        RUN_HEADROOM(k, ws, {"autoscale", "--scenario", "planned", "--emit", "keda"});
        REQUIRE(k.exitCode == 0);
        CHECK(k.out.contains("name: chat"));
        RUN_HEADROOM(d, ws, {"autoscale", "--scenario", "planned", "--emit", "dra"});
        REQUIRE(d.exitCode == 0);
        CHECK(d.out.contains(QStringLiteral("count: %1").arg(workloads[0].toObject().value("tp").toInt())));
    }

    RUN_HEADROOM(t, ws, {"plan", "--scenario", "elastic"});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("Plan — Golden g"));
    CHECK(t.out.contains("Cost over the term"));
    CHECK(t.out.contains("Scenario \"elastic\" costs $349,524.00 over the same term"));
}

TEST_CASE("plan bad input exits 2 with the reason and saves nothing", "[plan-cli]")
{
    CliFixture ws;
    seed(ws);
    const auto refused = [&](const QStringList &args, const QString &reason) {
        const CliResult r = ws.run(args);
        INFO(args.join(' ').toStdString() << "\nstderr: " << r.err.toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains(reason));
    };
    refused({"plan", "--cap", "h100-sxm=x"}, "--cap: expected GPU=N");
    refused({"plan", "--weights", "fp4"}, "--weights: 'fp4' is not one of bf16, fp8, int4");
    refused({"plan", "--tp", "0"}, "--tp: '0' is not one of 1..64");
    refused({"plan", "--commit", "on_demand"}, "--commit: 'on_demand'");
    refused({"plan", "--max-committed-share", "2"}, "--max-committed-share: expected 0..1");
    refused({"plan", "--pack-min-fleet", "-1"}, "--pack-min-fleet");
    refused({"plan", "--scenario", "nope"}, "nope");
    refused({"plan", "--scenario", "static", "--workload", "chat"}, "leave out --workload");
    refused({"plan", "--workload", "nope"}, "--workload: 'nope' is not a workload");
    refused({"plan", "--provider", "Golden"}, "--provider and --region go together");
    refused({"plan", "--provider", "X", "--region", "y"}, "no rate card X y");
    refused({"plan", "--provider", "Golden", "--region", "g", "--cap", "h100-sxm=0"},
            "no plan serves every workload within the GPU caps");
    refused({"plan"}, "give --provider and --region: the workspace has rate cards");
    refused({"plan", "--create-scenario", "static"}, "scenario 'static' exists");
    RUN_HEADROOM(list, ws, {"scenario", "list", "--json"});
    CHECK(parseJsonObject(list.out).value("scenarios").toArray().size() == 4);
}

TEST_CASE("plan --deck writes the plan's deck: summary beside the scenario, why, tables that re-add, front",
          "[plan-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(j, ws, {"plan", "--scenario", "static", "--json"});
    REQUIRE(j.exitCode == 0);
    const QJsonObject o = parseJsonObject(j.out);
    const qint64 planCents = cents(o.value("cost_over_term").toString());
    const QString pdf = ws.filePath("plan.pdf");
    RUN_HEADROOM(r, ws, {"plan", "--scenario", "static", "--deck", pdf});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("Cost over the term"));  // the tables are printed as without --deck
    const QRegularExpressionMatch wrote = QRegularExpression("wrote the plan deck .*plan.pdf: (\\d+) pages").match(r.err);
    REQUIRE(wrote.hasMatch());
    const QRegularExpressionMatch info = QRegularExpression("Pages:\\s+(\\d+)").match(toolOutput("pdfinfo", {pdf}));
    REQUIRE(info.hasMatch());
    CHECK(info.captured(1) == wrote.captured(1));
    // title, summary, why, workloads, pools and jobs, front, how it was found, warnings, assumptions
    CHECK(info.captured(1).toInt() >= 8);
    const QString text = toolOutput("pdftotext", {"-layout", pdf, "-"});
    CHECK(text.contains(QStringLiteral("Portfolio plan for “static”")));
    for (const char *heading : {"Recommendation", "Why this plan", "Plan: workloads", "Plan: pools and jobs",
                                "Cost against commitment", "How the plan was found", "Appendix: assumptions"})
        CHECK(text.contains(heading));
    CHECK(text.indexOf("Summary") < text.indexOf("Why this plan"));
    // The summary sets the plan beside the scenario it was asked for, at the scenario's golden cost.
    CHECK(text.contains("$559,238.40"));
    CHECK(text.contains("Choose Plan"));
    // The pools page's rows re-add to the plan's cost, which the JSON gives to the cent.
    const int from = text.indexOf("Plan: pools and jobs");
    const int to = text.indexOf("Cost against commitment", from);
    REQUIRE(from >= 0);
    REQUIRE(to > from);
    qint64 sum = 0;
    int rows = 0;
    for (const QString &line : text.mid(from, to - from).split('\n')) {
        const QRegularExpressionMatch m = QRegularExpression("(\\$[0-9,]+\\.[0-9]{2})\\s*$").match(line);
        if (m.hasMatch() && !line.contains("add up to")) {
            sum += cents(m.captured(1));
            ++rows;
        }
    }
    CHECK(rows == int(o.value("pools").toArray().size() + o.value("jobs").toArray().size()));
    CHECK(sum == planCents);
    // What it saves against the scenario, as the JSON's two costs give it.
    const qint64 saving = cents(o.value("compared").toObject().value("cost_over_term").toString()) - planCents;
    REQUIRE(saving > 0);
    CHECK(text.contains(QStringLiteral("−$%L1.%2").arg(saving / 100).arg(saving % 100, 2, 10, QChar('0'))));

    // An existing deck is replaced only with --force; a non-PDF name, and --force alone, are refused.
    RUN_HEADROOM(again, ws, {"plan", "--scenario", "static", "--deck", pdf});
    CHECK(again.exitCode == 2);
    CHECK(again.err.contains("--force"));
    RUN_HEADROOM(forced, ws, {"plan", "--scenario", "static", "--deck", pdf, "--force"});
    CHECK(forced.exitCode == 0);
    RUN_HEADROOM(txt, ws, {"plan", "--scenario", "static", "--deck", ws.filePath("plan.txt")});
    CHECK(txt.exitCode == 2);
    CHECK(txt.err.contains("give a file name ending in .pdf"));
    CHECK_FALSE(QFile::exists(ws.filePath("plan.txt")));
    RUN_HEADROOM(force, ws, {"plan", "--scenario", "static", "--force"});
    CHECK(force.exitCode == 2);
    CHECK(force.err.contains("--force replaces the --deck file"));
}
