#include "autoscalecommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "scenariocommand.h"

#include "engine/fleet/autoscale.h"
#include "store/fleet/autoscaleyaml.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/workspace.h"

#include <algorithm>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom autoscale --scenario NAME --emit keda|dra [--pool NAME]
                          [--deployment NAME]

The deployment hand-off for a scenario's elastic tier (DESIGN §3.8), as Kubernetes YAML on
stdout (several documents separated by ---).

  keda   one KEDA ScaledObject (keda.sh/v1alpha1) per workload of each elastic pool: a
         Prometheus trigger on the serving engine's waiting-requests metric (the scenario's
         autoscale metric, default vllm:num_requests_waiting) with the threshold per replica
         = fleet queue target ÷ replicas, where the fleet queue target = the largest request
         rate that holds the SLO × the queueing delay the TTFT SLO allows (Little's law);
         minReplicaCount 0 for a drainable tier, maxReplicaCount from the pool, cooldownPeriod
         and the HPA tolerance band (scaleUp/scaleDown tolerance)
  dra    one DRA ResourceClaimTemplate (resource.k8s.io/v1) per elastic pool whose request
         lists the pool's GPU, then the scenario's fallback GPUs, under firstAvailable

Options:
  --scenario NAME     a scenario of the workspace (required)
  --emit keda|dra     what to write (required)
  --pool NAME         only this elastic pool
  --deployment NAME   Deployment the ScaledObject scales (keda, one workload only; default:
                      the workload's name as a Kubernetes name)
)";

int runAutoscale(const QStringList &argList, Context &context)
{
    const Args args(argList, {{QStringLiteral("scenario")},
                              {QStringLiteral("emit")},
                              {QStringLiteral("pool")},
                              {QStringLiteral("deployment")}});
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("autoscale: unexpected argument '%1'").arg(args.positionals().constFirst()));
    const auto scenarioName = args.text(QStringLiteral("scenario"));
    if (!scenarioName)
        throw UsageError(QStringLiteral("--scenario: missing (the scenario whose elastic tier to export)"));
    const auto kind = args.text(QStringLiteral("emit"));
    if (!kind)
        throw UsageError(QStringLiteral("--emit: missing (keda or dra)"));
    if (*kind != QLatin1String("keda") && *kind != QLatin1String("dra"))
        throw UsageError(QStringLiteral("--emit: expected keda or dra, got '%1'").arg(*kind));

    store::Workspace &workspace = context.workspace();
    const engine::Scenario scenario = findScenario(workspace, *scenarioName);
    const QString poolFilter = args.text(QStringLiteral("pool")).value_or(QString());
    QStringList elasticPools;
    for (const engine::Pool &pool : scenario.pools) {
        if (pool.role() == engine::PoolRole::ElasticTop)
            elasticPools << QString::fromStdString(pool.name);
    }
    if (elasticPools.isEmpty())
        throw UsageError(QStringLiteral("scenario '%1' has no elastic pool (on_demand or spot) to autoscale")
                             .arg(*scenarioName));
    if (!poolFilter.isEmpty() && !elasticPools.contains(poolFilter))
        throw UsageError(QStringLiteral("--pool: '%1' is not an elastic pool of scenario '%2'; elastic pools: %3")
                             .arg(poolFilter, *scenarioName, elasticPools.join(QLatin1String(", "))));

    const engine::ScenarioInputs inputs = store::scenarioInputs(workspace);
    const engine::ScenarioResult result = engine::evaluateScenario(scenario, inputs);
    std::vector<engine::AutoscalePlan> plans = engine::planScenarioAutoscale(scenario, inputs, result);
    if (!poolFilter.isEmpty())
        plans.erase(std::remove_if(plans.begin(), plans.end(),
                                   [&](const engine::AutoscalePlan &p) { return QString::fromStdString(p.pool) != poolFilter; }),
                    plans.end());

    // One set of names for the whole stream: no two objects of the output share a name.
    engine::KubernetesNames names;
    std::vector<std::string> documents;
    if (*kind == QLatin1String("keda")) {
        if (plans.empty())
            throw UsageError(QStringLiteral("scenario '%1': no workload of its elastic pools can be planned (each "
                                            "is missing, unsized or infeasible on the pool's GPU; see headroom "
                                            "scenario evaluate)")
                                 .arg(*scenarioName));
        const auto deployment = args.text(QStringLiteral("deployment"));
        if (deployment && plans.size() > 1)
            throw UsageError(QStringLiteral("--deployment: the scenario scales %1 workloads; give --pool for one "
                                            "pool serving one workload")
                                 .arg(plans.size()));
        for (const engine::AutoscalePlan &plan : plans)
            documents.push_back(
                store::kedaScaledObjectYaml(plan, deployment ? deployment->toStdString() : plan.workload, &names));
    } else {
        for (const engine::Pool &pool : scenario.pools) {
            if (pool.role() != engine::PoolRole::ElasticTop
                || (!poolFilter.isEmpty() && QString::fromStdString(pool.name) != poolFilter))
                continue;
            int gpusPerReplica = 1;
            for (const engine::AutoscalePlan &plan : plans) {
                if (plan.pool == pool.name)
                    gpusPerReplica = std::max(gpusPerReplica, plan.gpusPerReplica);
            }
            const auto alternatives =
                engine::deviceAlternatives(inputs.gpus, pool.gpuId, scenario.autoscale.fallbackGpuIds, gpusPerReplica);
            store::requireName("scenario", "the scenario's name", scenario.name);
            store::requireName("pool", "the name of an elastic pool of scenario '" + scenario.name + "'", pool.name);
            documents.push_back(store::draResourceClaimTemplateYaml(scenario.name + "-" + pool.name + "-gpu",
                                                                    scenario.autoscale.kubernetesNamespace,
                                                                    alternatives, &names));
        }
    }
    context.out() << QString::fromStdString(store::joinYamlDocuments(documents));
    return 0;
}

} // namespace

Command autoscaleCommand()
{
    return {QStringLiteral("autoscale"),
            QStringLiteral("KEDA ScaledObject or DRA ResourceClaimTemplate YAML for a scenario's elastic tier"),
            QString::fromUtf8(kUsage), &runAutoscale};
}

} // namespace headroom::cli
