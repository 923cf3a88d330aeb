#include "autoscalecommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "scenariocommand.h"

#include "engine/common/errors.h"
#include "engine/fleet/autoscale.h"
#include "store/fleet/autoscaleyaml.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/workspace.h"

#include <algorithm>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom autoscale --scenario NAME --emit keda|dra [--pool NAME]
                          [--deployment NAME] [--no-tolerance]

The deployment hand-off for a scenario's elastic tier (DESIGN §3.8), as Kubernetes YAML on
stdout (several documents separated by ---).

  keda   one KEDA ScaledObject (keda.sh/v1alpha1) per workload of each elastic pool: a
         Prometheus trigger on the serving engine's waiting-requests metric (the scenario's
         autoscale metric, default vllm:num_requests_waiting) with the threshold per replica
         = fleet queue target ÷ replicas, where the fleet queue target = the largest request
         rate that holds the SLO × the queueing delay the TTFT SLO allows (Little's law);
         minReplicaCount 0 for a drainable tier, maxReplicaCount from the pool, cooldownPeriod
         and the HPA tolerance band (scaleUp/scaleDown tolerance; the field needs Kubernetes
         1.33 or later with the HPAConfigurableTolerance feature gate, see --no-tolerance)
  dra    one DRA ResourceClaimTemplate (resource.k8s.io/v1) per elastic pool whose request
         lists the pool's GPU, then the scenario's fallback GPUs, under firstAvailable (at
         most 8; the rest are left out with a comment and a note on stderr), each selected by
         the exact productName its DRA driver publishes (the catalog's dra_product_name):
         NVIDIA GPUs from gpu.nvidia.com, AMD GPUs from gpu.amd.com. A GPU without a DRA
         product name, or of another vendor, is refused

Options:
  --scenario NAME     a scenario of the workspace (required)
  --emit keda|dra     what to write (required)
  --pool NAME         only this elastic pool
  --deployment NAME   Deployment the ScaledObject scales (keda, one workload only; default:
                      the workload's name as a Kubernetes name)
  --no-tolerance      leave the HPA tolerance out of the ScaledObject (keda), for clusters
                      before Kubernetes 1.33 or without the HPAConfigurableTolerance gate;
                      the cluster-wide tolerance (0.1 by default) applies
)";

int runAutoscale(const QStringList &argList, Context &context)
{
    const Args args(argList, {{QStringLiteral("scenario")},
                              {QStringLiteral("emit")},
                              {QStringLiteral("pool")},
                              {QStringLiteral("deployment")},
                              {QStringLiteral("no-tolerance"), false}});
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
    if (args.has(QStringLiteral("no-tolerance")) && *kind != QLatin1String("keda"))
        throw UsageError(QStringLiteral("--no-tolerance: only the KEDA ScaledObject (--emit keda) has a tolerance"));

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
            throw UsageError(QStringLiteral("--deployment: the scenario scales %1 Deployments; give --pool for one "
                                            "pool serving one workload with prefill and decode together")
                                 .arg(plans.size()));
        store::KedaYamlOptions options;
        options.tolerance = !args.has(QStringLiteral("no-tolerance"));
        for (const engine::AutoscalePlan &plan : plans)
            documents.push_back(store::kedaScaledObjectYaml(
                plan, deployment ? deployment->toStdString() : engine::autoscaleDeploymentName(plan), &names, options));
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
            std::vector<engine::DeviceAlternative> alternatives;
            try {
                alternatives = engine::deviceAlternatives(inputs.gpus, pool.gpuId, scenario.autoscale.fallbackGpuIds,
                                                          gpusPerReplica);
            } catch (const engine::InputError &e) {
                throw UsageError(QStringLiteral("scenario '%1', pool '%2': %3")
                                     .arg(*scenarioName, QString::fromStdString(pool.name),
                                          QString::fromStdString(e.what())));
            }
            store::requireName("scenario", "the scenario's name", scenario.name);
            store::requireName("pool", "the name of an elastic pool of scenario '" + scenario.name + "'", pool.name);
            documents.push_back(store::draResourceClaimTemplateYaml(scenario.name + "-" + pool.name + "-gpu",
                                                                    scenario.autoscale.kubernetesNamespace,
                                                                    alternatives, &names));
            if (alternatives.size() > engine::kMaxFirstAvailable) {
                QStringList omitted;
                for (size_t i = engine::kMaxFirstAvailable; i < alternatives.size(); ++i)
                    omitted << QString::fromStdString(alternatives[i].gpuId);
                context.err() << QStringLiteral("headroom: note: pool '%1': a DRA request takes at most %2 "
                                                "alternatives; left out: %3\n")
                                     .arg(QString::fromStdString(pool.name))
                                     .arg(engine::kMaxFirstAvailable)
                                     .arg(omitted.join(QLatin1String(", ")));
            }
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
