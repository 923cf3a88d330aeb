// `headroom plan` end to end: the scenario fixtures' workspace planned, the plan saved as a
// scenario and evaluated back by the binary.
#include "common/clirunner.h"

#include "engine/fleet/scenario.h"
#include "engine/inference/workload.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonObject>

using namespace headroom;

namespace {

engine::Decimal dec(const char *text)
{
    return *engine::Decimal::parse(text);
}

// 100,000 users, 10 % in a session at peak, 1,000 streams measured per H100 → 10 replicas,
// 12 with the planned 20 % headroom; half traffic 00:00–07:59, so 6 GPUs for 8 hours and 12
// for 16: 240 GPU-hours a day, 10 on average.
engine::WorkloadProfile chat()
{
    engine::WorkloadProfile w;
    w.name = "chat";
    w.tenant = "product";
    w.modelId = "llama-3.1-8b";
    w.dailyActiveUsers = 100000;
    w.requestsPerUserPerDay = 10;
    w.peakSessionsPerUser = 0.1;
    for (int h = 0; h < 24; ++h)
        w.diurnal[size_t(h)] = h < 8 ? 0.5 : 1.0;
    w.promptTokens = {1000, 4000};
    w.outputTokens = {300, 1000};
    w.prefixHitRate = 0.2;
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    w.trafficVariance = 1.5;
    w.measuredMaxStreams = 1000;
    w.measuredGoodputTokensPerS = 3000;
    w.gpuId = "h100-sxm";
    return w;
}

engine::Pool pool(const std::string &name, engine::PoolTier tier, engine::PoolSizing sizing, int64_t gpus,
                  const std::string &gpu = "h100-sxm")
{
    engine::Pool p;
    p.name = name;
    p.gpuId = gpu;
    p.tier = tier;
    p.sizing = sizing;
    p.gpus = gpus;
    p.workloads = {"chat"};
    return p;
}

engine::Scenario scenario(const std::string &name, std::vector<engine::Pool> pools)
{
    engine::Scenario s;
    s.name = name;
    s.description = "test " + name;
    s.author = "Planner";
    s.provider = "Golden";
    s.region = "g";
    s.startDate = "2025-01-01"; // 12 months = 8,760 h
    s.pools = std::move(pools);
    s.autoscale.maxQueueDelayMs = 500;
    s.autoscale.fallbackGpuIds = {"a100-sxm-80gb"};
    return s;
}

// The DESIGN §3.7 static-versus-elastic pair at $3.99, plus scenarios for the bad cases.
void seed(const CliFixture &fixture)
{
    store::Workspace workspace(fixture.workspace());
    // The DESIGN pair is sized with every open session's KV resident (16 GPUs at the peak).
    engine::ServingAssumptions serving;
    serving.residency = engine::KvResidency::Session;
    workspace.setServingAssumptions(serving);
    workspace.putWorkload(chat());
    engine::RateCard card;
    card.provider = "Golden";
    card.region = "g";
    card.gpuId = "h100-sxm";
    card.effectiveDate = "2025-01-01";
    card.onDemand = dec("3.99");
    card.source = "DESIGN §3.7";
    workspace.putRateCard(card);
    engine::Pool fixed = pool("base", engine::PoolTier::Owned, engine::PoolSizing::Fixed, 16);
    fixed.ownedRatePerGpuHour = dec("3.99");
    workspace.putScenario(scenario("static", {fixed}));
    workspace.putScenario(
        scenario("elastic", {pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)}));
    engine::Pool old = pool("old", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0, "a100-sxm-80gb");
    engine::Scenario unpriced = scenario("unpriced", {old});
    unpriced.pools[0].workloads.push_back("deleted workload");
    workspace.putScenario(unpriced);
    engine::Pool ghost = pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0);
    ghost.workloads = {"deleted workload"};
    workspace.putScenario(scenario("ghost", {ghost}));
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
