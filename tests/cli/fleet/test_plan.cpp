// `headroom plan` end to end: the scenario fixtures' workspace planned, the plan saved as a
// scenario and evaluated back by the binary.
#include "common/clirunner.h"
#include "fleet/scenariofixture.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>

using namespace headroom;
using namespace headroom::test::fleet;

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
