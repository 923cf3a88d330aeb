// `headroom scenario` and `headroom autoscale` end to end: scenarios written into the
// fixture's workspace through the store, then evaluated, compared and exported by the binary.
#include "common/clirunner.h"
#include "fleet/draclaimcheck.h"
#include "fleet/scenariofixture.h"

#include "engine/fleet/scenario.h"
#include "engine/inference/workload.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <QJsonArray>
#include <QJsonObject>

using namespace headroom;
using namespace headroom::test::fleet;

namespace {

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray())
        out << v.toString();
    return out;
}

} // namespace

TEST_CASE("scenario list shows the stored scenarios, and nothing in a new workspace", "[scenario-cli]")
{
    CliFixture ws;
    {
        RUN_HEADROOM(r, ws, {"scenario", "list", "--json"});
        REQUIRE(r.exitCode == 0);
        CHECK(parseJsonObject(r.out).value("scenarios").toArray().isEmpty());
    }
    seed(ws);
    RUN_HEADROOM(r, ws, {"scenario", "list", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonArray list = parseJsonObject(r.out).value("scenarios").toArray();
    REQUIRE(list.size() == 4);
    CHECK(list[0].toObject().value("name").toString() == "elastic");
    CHECK(list[0].toObject().value("author").toString() == "Planner");
    CHECK(list[0].toObject().value("version").toInt() == 1);
    CHECK(list[0].toObject().value("updated_at").toString().endsWith('Z'));
    RUN_HEADROOM(table, ws, {"scenario", "list"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("test unpriced"));
}

TEST_CASE("scenario evaluate gives the golden static and elastic costs to the cent", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(r, ws, {"scenario", "evaluate", "static", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("cost_per_day").toString() == "1532.16");
    CHECK(o.value("cost_per_month").toString() == "45964.80");
    // Over the 12 calendar months from 2025-01-01: 16 × $3.99 × 8,760 h.
    CHECK(o.value("cost_over_term").toString() == "559238.40");
    CHECK(o.value("term_hours").toInt() == 8760);
    CHECK(o.value("start_date").toString() == "2025-01-01");
    CHECK(o.value("end_date").toString() == "2026-01-01");
    CHECK(o.value("warnings").toArray().isEmpty());
    const QJsonArray pools = o.value("pools").toArray();
    REQUIRE(pools.size() == 1);
    const QJsonObject p = pools[0].toObject();
    CHECK(p.value("name").toString() == "base");
    CHECK(p.value("gpu").toString() == "h100-sxm");
    CHECK(p.value("tier").toString() == "owned");
    CHECK(p.value("gpus").toInt() == 16);
    CHECK(p.value("utilization").toDouble() == Approx(0.625));

    RUN_HEADROOM(e, ws, {"scenario", "evaluate", "elastic", "--json"});
    REQUIRE(e.exitCode == 0);
    const QJsonObject eo = parseJsonObject(e.out);
    CHECK(eo.value("cost_per_day").toString() == "957.60");
    CHECK(eo.value("cost_per_month").toString() == "28728.00");
    CHECK(eo.value("pools").toArray()[0].toObject().value("gpus").toInt() == 12);

    RUN_HEADROOM(t, ws, {"scenario", "evaluate", "static"});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("$1,532.16"));
    CHECK(t.out.contains("62.5 %"));
    CHECK(t.out.contains("$3.99"));
    CHECK(t.out.contains("Cost over the term (12 months, 2025-01-01 to 2026-01-01, 8,760 h)"));
    CHECK(t.out.contains("$559,238.40"));
}

TEST_CASE("scenario compare prints deltas against the first", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(r, ws, {"scenario", "compare", "static", "elastic", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(strings(o.value("scenarios")) == QStringList{"static", "elastic"});
    bool found = false;
    for (const QJsonValue &m : o.value("metrics").toArray()) {
        if (m.toObject().value("key").toString() == "cost_per_month") {
            found = true;
            CHECK(strings(m.toObject().value("values")) == QStringList{"45964.80", "28728.00"});
            CHECK(strings(m.toObject().value("deltas")) == QStringList{"0.00", "-17236.80"});
        }
    }
    CHECK(found);
    RUN_HEADROOM(t, ws, {"scenario", "compare", "static", "elastic"});
    REQUIRE(t.exitCode == 0);
    CHECK(t.out.contains("-$574.56"));
}

TEST_CASE("scenario evaluate warns about an unpriced GPU and a deleted workload", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(r, ws, {"scenario", "evaluate", "unpriced", "--json"});
    REQUIRE(r.exitCode == 0);
    const QStringList warnings = strings(parseJsonObject(r.out).value("warnings"));
    INFO(warnings.join('\n').toStdString());
    CHECK(warnings.filter("does not price GPU \"a100-sxm-80gb\"").size() == 1);
    CHECK(warnings.filter("\"old\"").size() >= 1);
    CHECK(warnings.filter("\"deleted workload\", which no longer exists").size() == 1);
    CHECK(parseJsonObject(r.out).value("cost_per_day").toString() == "0.00");
    RUN_HEADROOM(t, ws, {"scenario", "evaluate", "unpriced"});
    CHECK(t.out.contains("unpriced"));
    CHECK(t.out.contains("Warnings:"));
}

TEST_CASE("scenario bad input exits 2 with the reason", "[scenario-cli]")
{
    CliFixture ws;
    {
        RUN_HEADROOM(r, ws, {"scenario", "evaluate", "anything"});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains("has no scenarios"));
    }
    seed(ws);
    RUN_HEADROOM(unknown, ws, {"scenario", "evaluate", "statik"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("unknown scenario 'statik'; closest: static"));
    CHECK(unknown.out.isEmpty());
    RUN_HEADROOM(noName, ws, {"scenario", "evaluate"});
    CHECK(noName.exitCode == 2);
    RUN_HEADROOM(one, ws, {"scenario", "compare", "static"});
    CHECK(one.exitCode == 2);
    CHECK(one.err.contains("2 to 4"));
    RUN_HEADROOM(action, ws, {"scenario", "frobnicate"});
    CHECK(action.exitCode == 2);
    CHECK(action.err.contains("list, evaluate, compare"));
    RUN_HEADROOM(none, ws, {"scenario"});
    CHECK(none.exitCode == 2);
}

TEST_CASE("a scenario whose name starts with dashes is addressed after --", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    {
        store::Workspace workspace(ws.workspace());
        engine::Pool fixed = pool("base", engine::PoolTier::Owned, engine::PoolSizing::Fixed, 16);
        fixed.ownedRatePerGpuHour = dec("3.99");
        workspace.putScenario(scenario("--draft", {fixed}));
        workspace.putScenario(scenario("-old", {fixed}));
    }
    // Without "--" the name reads as an option.
    RUN_HEADROOM(option, ws, {"scenario", "evaluate", "--draft"});
    CHECK(option.exitCode == 2);
    CHECK(option.err.contains("unknown option '--draft'"));
    RUN_HEADROOM(r, ws, {"scenario", "evaluate", "--json", "--", "--draft"});
    REQUIRE(r.exitCode == 0);
    CHECK(parseJsonObject(r.out).value("scenario").toString() == "--draft");
    RUN_HEADROOM(single, ws, {"scenario", "evaluate", "-old", "--json"});
    REQUIRE(single.exitCode == 0);
    CHECK(parseJsonObject(single.out).value("scenario").toString() == "-old");
    RUN_HEADROOM(both, ws, {"scenario", "compare", "--", "-old", "--draft"});
    CHECK(both.exitCode == 0);
    // After "--" even a global option's name is a positional of the verb.
    RUN_HEADROOM(global, ws, {"scenario", "evaluate", "--", "--demo"});
    CHECK(global.exitCode == 2);
    CHECK(global.err.contains("unknown scenario '--demo'"));
}

TEST_CASE("autoscale emits a KEDA ScaledObject with the queue threshold per replica", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(r, ws, {"autoscale", "--scenario", "elastic", "--emit", "keda"});
    REQUIRE(r.exitCode == 0);
    const YAML::Node doc = YAML::Load(r.out.toStdString());
    CHECK(doc["apiVersion"].as<std::string>() == "keda.sh/v1alpha1");
    CHECK(doc["kind"].as<std::string>() == "ScaledObject");
    CHECK(doc["spec"]["scaleTargetRef"]["name"].as<std::string>() == "chat");
    CHECK(doc["spec"]["minReplicaCount"].as<int>() == 0);
    CHECK(doc["spec"]["maxReplicaCount"].as<int>() == 12);
    CHECK(doc["spec"]["cooldownPeriod"].as<int>() == 600);
    // 3,000 tokens/s ÷ 300 tokens = 10 requests/s per replica × 0.5 s = 5 waiting per replica.
    CHECK(doc["spec"]["triggers"][0]["metadata"]["threshold"].as<std::string>() == "5.00");
    CHECK(doc["spec"]["triggers"][0]["metadata"]["query"].as<std::string>().rfind("sum(vllm:num_requests_waiting{", 0) == 0);
}

TEST_CASE("autoscale emits a DRA ResourceClaimTemplate with prioritized alternatives", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(r, ws, {"autoscale", "--scenario", "elastic", "--emit", "dra"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.err.isEmpty());
    const YAML::Node doc = YAML::Load(r.out.toStdString());
    CHECK(doc["apiVersion"].as<std::string>() == "resource.k8s.io/v1");
    CHECK(doc["kind"].as<std::string>() == "ResourceClaimTemplate");
    const YAML::Node first = doc["spec"]["spec"]["devices"]["requests"][0]["firstAvailable"];
    REQUIRE(first.size() == 2);
    CHECK(first[0]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\"");
    CHECK(first[1]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\"");
    const auto problems = store::test::draClaimProblems(r.out.toStdString(), store::Workspace(ws.workspace()).gpus());
    INFO(problems.size() << " problems, first: " << (problems.empty() ? "" : problems.front()));
    CHECK(problems.empty());
}

TEST_CASE("autoscale writes at most 8 DRA alternatives, naming the rest, and AMD GPUs from AMD's driver",
          "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    std::vector<engine::GpuSpec> catalog;
    QStringList omitted; // the fallbacks after the pool's GPU and the first 7
    {
        store::Workspace workspace(ws.workspace());
        catalog = workspace.gpus();
        engine::Scenario many = scenario("many", {pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)});
        many.autoscale.fallbackGpuIds.clear();
        for (const engine::GpuSpec &gpu : catalog) {
            if (gpu.id != "h100-sxm" && !gpu.draProductName.empty())
                many.autoscale.fallbackGpuIds.push_back(gpu.id);
        }
        REQUIRE(many.autoscale.fallbackGpuIds.size() >= 9);
        for (size_t i = 7; i < many.autoscale.fallbackGpuIds.size(); ++i)
            omitted << QString::fromStdString(many.autoscale.fallbackGpuIds[i]);
        workspace.putScenario(many);
        engine::Scenario amd = scenario("amd", {pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)});
        amd.autoscale.fallbackGpuIds = {"mi300x", "mi325x"};
        workspace.putScenario(amd);
    }
    RUN_HEADROOM(many, ws, {"autoscale", "--scenario", "many", "--emit", "dra"});
    REQUIRE(many.exitCode == 0);
    const auto problems = store::test::draClaimProblems(many.out.toStdString(), catalog);
    INFO(problems.size() << " problems, first: " << (problems.empty() ? "" : problems.front()));
    CHECK(problems.empty());
    const YAML::Node first = YAML::Load(many.out.toStdString())["spec"]["spec"]["devices"]["requests"][0]["firstAvailable"];
    CHECK(first.size() == 8);
    CHECK(first[0]["name"].as<std::string>() == "h100-sxm");
    CHECK(many.out.startsWith("# resource.k8s.io/v1 takes at most 8 firstAvailable subrequests; left out, in order:\n# "
                              + omitted.join(", ") + "\n"));
    CHECK(many.err == "headroom: note: pool 'flex': a DRA request takes at most 8 alternatives; left out: "
                          + omitted.join(", ") + "\n");

    RUN_HEADROOM(amd, ws, {"autoscale", "--scenario", "amd", "--emit", "dra"});
    REQUIRE(amd.exitCode == 0);
    CHECK(store::test::draClaimProblems(amd.out.toStdString(), catalog).empty());
    const YAML::Node amdFirst = YAML::Load(amd.out.toStdString())["spec"]["spec"]["devices"]["requests"][0]["firstAvailable"];
    REQUIRE(amdFirst.size() == 3);
    CHECK(amdFirst[1]["deviceClassName"].as<std::string>() == "gpu.amd.com");
    CHECK(amdFirst[1]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.amd.com\"].type == \"amdgpu\" && "
             "device.attributes[\"gpu.amd.com\"].productName == \"AMD_Instinct_MI300X_OAM\"");
}

TEST_CASE("autoscale refuses a DRA alternative the catalog has no product name for, naming it", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    {
        store::Workspace workspace(ws.workspace());
        engine::GpuSpec custom = *workspace.gpu(QStringLiteral("l40s"));
        custom.id = "rtx-6000-ada";
        custom.name = "RTX 6000 Ada";
        custom.draProductName.clear();
        workspace.putGpu(custom);
        engine::Scenario s = scenario("custom", {pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)});
        s.autoscale.fallbackGpuIds = {"a100-sxm-80gb", "rtx-6000-ada"};
        workspace.putScenario(s);
    }
    RUN_HEADROOM(r, ws, {"autoscale", "--scenario", "custom", "--emit", "dra"});
    CHECK(r.exitCode == 2);
    CHECK(r.out.isEmpty());
    CHECK(r.err.contains("scenario 'custom', pool 'flex': autoscale.fallback_gpus[1]: fallback GPU \"rtx-6000-ada\" "
                         "(RTX 6000 Ada) has no DRA product name in the catalog: set dra_product_name"));
}

TEST_CASE("autoscale's KEDA tolerance says what it needs and --no-tolerance leaves it out", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(with, ws, {"autoscale", "--scenario", "elastic", "--emit", "keda"});
    REQUIRE(with.exitCode == 0);
    CHECK(with.out.count("tolerance: 0.100  # needs Kubernetes 1.33+ with the HPAConfigurableTolerance feature gate\n")
          == 2);
    RUN_HEADROOM(without, ws, {"autoscale", "--scenario", "elastic", "--emit", "keda", "--no-tolerance"});
    REQUIRE(without.exitCode == 0);
    CHECK_FALSE(without.out.contains("tolerance"));
    const YAML::Node behavior =
        YAML::Load(without.out.toStdString())["spec"]["advanced"]["horizontalPodAutoscalerConfig"]["behavior"];
    CHECK(behavior["scaleDown"]["stabilizationWindowSeconds"].as<int>() == 600);
    RUN_HEADROOM(dra, ws, {"autoscale", "--scenario", "elastic", "--emit", "dra", "--no-tolerance"});
    CHECK(dra.exitCode == 2);
    CHECK(dra.err.contains("--no-tolerance: only the KEDA ScaledObject (--emit keda) has a tolerance"));
    RUN_HEADROOM(help, ws, {"autoscale", "--help"});
    CHECK(help.out.contains("--no-tolerance"));
}

TEST_CASE("autoscale bad input exits 2 with the reason", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(noEmit, ws, {"autoscale", "--scenario", "elastic"});
    CHECK(noEmit.exitCode == 2);
    CHECK(noEmit.err.contains("--emit"));
    RUN_HEADROOM(badEmit, ws, {"autoscale", "--scenario", "elastic", "--emit", "helm"});
    CHECK(badEmit.exitCode == 2);
    CHECK(badEmit.err.contains("expected keda or dra"));
    RUN_HEADROOM(noScenario, ws, {"autoscale", "--emit", "keda"});
    CHECK(noScenario.exitCode == 2);
    RUN_HEADROOM(unknown, ws, {"autoscale", "--scenario", "elastik", "--emit", "keda"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("closest: elastic"));
    RUN_HEADROOM(staticOnly, ws, {"autoscale", "--scenario", "static", "--emit", "keda"});
    CHECK(staticOnly.exitCode == 2);
    CHECK(staticOnly.err.contains("no elastic pool"));
    RUN_HEADROOM(badPool, ws, {"autoscale", "--scenario", "elastic", "--emit", "dra", "--pool", "core"});
    CHECK(badPool.exitCode == 2);
    CHECK(badPool.err.contains("elastic pools: flex"));
    RUN_HEADROOM(unplannable, ws, {"autoscale", "--scenario", "ghost", "--emit", "keda"});
    CHECK(unplannable.exitCode == 2);
    CHECK(unplannable.err.contains("no workload of its elastic pools can be planned"));
    CHECK(unplannable.out.isEmpty());
}

TEST_CASE("A scenario exported as JSON imports into another workspace", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    const QString file = ws.filePath("static.json");
    RUN_HEADROOM(out, ws, {"export", "scenario", "static", "--out", file});
    REQUIRE(out.exitCode == 0);
    CHECK(out.out.contains("exported scenario \"static\""));

    CliFixture other;
    RUN_HEADROOM(in, other, {"import", file});
    REQUIRE(in.exitCode == 0);
    CHECK(in.out.contains("imported scenario \"static\" (version 1)"));
    RUN_HEADROOM(again, other, {"import", file});
    CHECK(again.out.contains("(version 2)"));
    // The other workspace has neither the workload nor the rate card: warned, still costed.
    RUN_HEADROOM(r, other, {"scenario", "evaluate", "static", "--json"});
    REQUIRE(r.exitCode == 0);
    const QJsonObject o = parseJsonObject(r.out);
    CHECK(o.value("cost_per_day").toString() == "1532.16");
    CHECK(strings(o.value("warnings")).filter("\"chat\", which no longer exists").size() == 1);

    RUN_HEADROOM(unknown, ws, {"export", "scenario", "statc"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("closest: static"));
    const QString bad = ws.writeFile("bad.json", "{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": "
                                                 "\"r\"}, \"pools\": [{\"name\": \"p\", \"gpu\": \"g\", \"gpus\": 1, "
                                                 "\"tier\": \"leased\"}]}");
    RUN_HEADROOM(refused, ws, {"import", bad});
    CHECK(refused.exitCode == 2);
    CHECK(refused.err.contains("pools[0].tier"));
    RUN_HEADROOM(list, ws, {"scenario", "list", "--json"});
    CHECK(parseJsonObject(list.out).value("scenarios").toArray().size() == 4);
}

TEST_CASE("autoscale keeps object names unique and quotes names that look like numbers", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    {
        store::Workspace workspace(ws.workspace());
        workspace.putScenario(scenario("2024", {pool("flex spot", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0),
                                                pool("flex-spot", engine::PoolTier::Spot, engine::PoolSizing::Auto, 0)}));
    }
    RUN_HEADROOM(dra, ws, {"autoscale", "--scenario", "2024", "--emit", "dra"});
    REQUIRE(dra.exitCode == 0);
    const auto docs = YAML::LoadAll(dra.out.toStdString());
    REQUIRE(docs.size() == 2);
    const std::string first = docs[0]["metadata"]["name"].as<std::string>();
    const std::string second = docs[1]["metadata"]["name"].as<std::string>();
    CHECK(first == "2024-flex-spot-gpu");
    CHECK(second != first);
    CHECK(second.rfind("2024-flex-spot-gpu-", 0) == 0);
    CHECK(docs[0]["metadata"]["name"].Tag() == "!");

    RUN_HEADROOM(keda, ws, {"autoscale", "--scenario", "2024", "--emit", "keda", "--pool", "flex spot",
                            "--deployment", "2024"});
    REQUIRE(keda.exitCode == 0);
    CHECK(keda.out.contains("name: \"2024\""));
    CHECK(YAML::Load(keda.out.toStdString())["spec"]["scaleTargetRef"]["name"].as<std::string>() == "2024");
}

TEST_CASE("autoscale refuses blank names, a bad namespace and a metric that could change the query", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    RUN_HEADROOM(blank, ws, {"autoscale", "--scenario", "elastic", "--emit", "keda", "--deployment", "   "});
    CHECK(blank.exitCode == 2);
    CHECK(blank.err.contains("deployment: the name of the Deployment to scale is only white space"));
    CHECK(blank.out.isEmpty());
    {
        // The workspace refuses to store a scenario whose metric or namespace the YAML could
        // not carry as given; the export refuses them too (tests/store/fleet/test_autoscaleyaml.cpp).
        store::Workspace workspace(ws.workspace());
        engine::Scenario s = scenario("hostile", {pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)});
        s.autoscale.metric = "vllm:num_requests_waiting\nor vector(1000) #";
        CHECK_THROWS_WITH(workspace.putScenario(s), Catch::Contains("not a Prometheus metric name"));
        engine::Scenario t = scenario("wrong namespace", {pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)});
        t.autoscale.kubernetesNamespace = "Serving Prod";
        CHECK_THROWS_WITH(workspace.putScenario(t), Catch::Contains("\"Serving Prod\" is not a Kubernetes namespace name"));
        engine::Scenario u = scenario("blank pool", {pool(" ", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)});
        workspace.putScenario(u);
    }
    RUN_HEADROOM(blankPool, ws, {"autoscale", "--scenario", "blank pool", "--emit", "dra"});
    CHECK(blankPool.exitCode == 2);
    CHECK(blankPool.err.contains("pool: the name of an elastic pool of scenario 'blank pool' is only white space"));

    // A scenario document carrying such a metric is refused on import, naming it.
    RUN_HEADROOM(exported, ws, {"export", "scenario", "elastic"});
    REQUIRE(exported.exitCode == 0);
    QString json = exported.out;
    REQUIRE(json.contains("\"vllm:num_requests_waiting\""));
    json.replace("\"vllm:num_requests_waiting\"", "\"up\\nor vector(1000) #\"");
    const QString file = ws.writeFile("hostile.json", json.toUtf8());
    RUN_HEADROOM(imported, ws, {"import", file});
    CHECK(imported.exitCode == 2);
    CHECK(imported.err.contains("not a Prometheus metric name"));
}

TEST_CASE("scenario history lists every version with who saved it, and restore saves an old one as new", "[scenario-cli]")
{
    CliFixture ws;
    seed(ws);
    QString user;
    {
        store::Workspace workspace(ws.workspace());
        engine::Scenario grown = *workspace.scenario(QStringLiteral("static"));
        grown.description = "grown";
        grown.pools[0].gpus = 32;
        workspace.saveScenario(grown, 1);
        user = workspace.userName();
    }
    RUN_HEADROOM(history, ws, {"scenario", "history", "static", "--json"});
    REQUIRE(history.exitCode == 0);
    const QJsonObject h = parseJsonObject(history.out);
    CHECK(h.value("scenario").toString() == "static");
    const QJsonArray versions = h.value("versions").toArray();
    REQUIRE(versions.size() == 2);
    CHECK(versions[0].toObject().value("version").toInt() == 2);
    CHECK(versions[0].toObject().value("description").toString() == "grown");
    CHECK(versions[1].toObject().value("description").toString() == "test static");
    CHECK(versions[0].toObject().value("changed_by").toString() == user);
    CHECK(versions[0].toObject().value("changed_at").toString().endsWith('Z'));

    RUN_HEADROOM(restore, ws, {"scenario", "restore", "static", "--version", "1"});
    INFO(restore.err.toStdString());
    REQUIRE(restore.exitCode == 0);
    CHECK(restore.out.contains("as version 3"));
    {
        store::Workspace workspace(ws.workspace());
        CHECK(workspace.scenario(QStringLiteral("static"))->pools[0].gpus == 16);
        CHECK(workspace.scenarioSummary(QStringLiteral("static"))->version == 3);
    }
    RUN_HEADROOM(table, ws, {"scenario", "history", "static"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("grown"));
    CHECK(table.out.contains(user));
    RUN_HEADROOM(list, ws, {"scenario", "list", "--json"});
    CHECK(parseJsonObject(list.out).value("scenarios").toArray()[0].toObject().value("updated_by").toString() == user);

    RUN_HEADROOM(noVersion, ws, {"scenario", "restore", "static"});
    CHECK(noVersion.exitCode == 2);
    CHECK(noVersion.err.contains("--version N"));
    RUN_HEADROOM(missing, ws, {"scenario", "restore", "static", "--version", "9"});
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.contains("has no version 9 (kept versions: 1 to 3)"));
    RUN_HEADROOM(unknown, ws, {"scenario", "history", "statc"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("closest: static"));
}
