#include "autoscale.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace headroom::engine {

namespace {

std::string number(double value, int decimals = 2)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

} // namespace

AutoscalePlan planAutoscale(const Pool &pool, const PoolResult &poolResult, const WorkloadProfile &workload,
                            const SizingResult &sizing, const AutoscaleSettings &settings, AutoscaleRole role)
{
    if (pool.role() != PoolRole::ElasticTop)
        throw InputError("pool", "pool \"" + pool.name + "\" is " + std::string(toString(pool.tier))
                                     + ": only an elastic pool (on_demand or spot) is autoscaled");
    const PoolWorkload *entry = nullptr;
    for (const PoolWorkload &w : poolResult.workloads) {
        if (w.name == workload.name && !w.training)
            entry = &w;
    }
    if (!entry)
        throw InputError("pool", "workload \"" + workload.name + "\" is not served by pool \"" + pool.name + "\"");
    if (!(settings.hpaTolerance >= 0 && settings.hpaTolerance < 1))
        throw InputError("hpa_tolerance", "hpa_tolerance must be at least 0 and below 1 (got "
                                              + number(settings.hpaTolerance, 3) + ")");
    if (settings.cooldownSeconds < 0)
        throw InputError("cooldown_seconds", "cooldown_seconds must be at least 0 (got "
                                                 + std::to_string(settings.cooldownSeconds) + ")");
    if (settings.maxQueueDelayMs && !(*settings.maxQueueDelayMs > 0))
        throw InputError("max_queue_delay_ms", "max_queue_delay_ms must be greater than 0 (got "
                                                   + number(*settings.maxQueueDelayMs) + ")");
    if (!sizing.feasible || sizing.goodputTokensPerS <= 0)
        throw InputError("sizing", "workload \"" + workload.name + "\" cannot be served on " + pool.gpuId + ": "
                                       + sizing.infeasibleReason);
    const bool split = sizing.prefillGpus.has_value();
    if (split != (role != AutoscaleRole::Whole))
        throw InputError("role", "workload \"" + workload.name + "\" is sized with prefill and decode "
                                     + (split ? "apart: plan its prefill and decode Deployments"
                                              : "together: plan it whole"));
    if (role == AutoscaleRole::Prefill && !(sizing.prefillTokensPerS > 0 && sizing.peakRequestsPerS > 0
                                            && sizing.prefillCapacityTokensPerS > 0))
        throw InputError("sizing", "workload \"" + workload.name + "\" has no prefill demand to scale on");

    AutoscalePlan plan;
    plan.pool = pool.name;
    plan.workload = workload.name;
    plan.role = role;
    plan.gpuId = pool.gpuId;
    plan.tier = std::string(toString(pool.tier));
    plan.gpusPerReplica = std::max(1, sizing.gpusPerReplica);

    const double outputTokens = workload.outputTokens.p50;
    // Prefill replicas: the requests their prefill throughput holds; the others: decode goodput.
    const double prefillTokensPerRequest = split ? sizing.prefillTokensPerS / sizing.peakRequestsPerS : 0;
    plan.requestsPerSPerReplica = role == AutoscaleRole::Prefill
                                      ? sizing.prefillCapacityTokensPerS / prefillTokensPerRequest
                                      : sizing.goodputTokensPerS / outputTokens;
    // The share of the workload's GPUs this Deployment holds, as sizing splits them.
    const double share = !split ? 1.0
                         : role == AutoscaleRole::Prefill
                             ? double(*sizing.prefillGpus) / double(sizing.gpus)
                             : double(sizing.gpus - *sizing.prefillGpus) / double(sizing.gpus);
    double delayMs = 0;
    if (settings.maxQueueDelayMs) {
        delayMs = *settings.maxQueueDelayMs;
    } else {
        delayMs = workload.ttftP95Ms - sizing.prefillTimeMs;
        if (!(delayMs > 0))
            throw InputError("ttft_p95_ms", "the TTFT SLO of " + number(workload.ttftP95Ms, 0)
                                                + " ms leaves no time to queue: a P95 prompt's prefill alone takes "
                                                + number(sizing.prefillTimeMs, 0) + " ms");
    }
    plan.allowedQueueDelayS = delayMs / 1000.0;
    const auto roleGpus = [&](int64_t gpus) {
        return split ? int64_t(std::ceil(double(gpus) * share - 1e-9)) : gpus;
    };
    plan.peakReplicas = std::max<int64_t>(1, (roleGpus(entry->peakGpus) + plan.gpusPerReplica - 1) / plan.gpusPerReplica);
    plan.maxThroughputRequestsPerS = plan.requestsPerSPerReplica * double(plan.peakReplicas);
    plan.fleetQueueTarget = plan.maxThroughputRequestsPerS * plan.allowedQueueDelayS;
    plan.thresholdPerReplica = plan.fleetQueueTarget / double(plan.peakReplicas);
    plan.maxReplicas = std::max<int64_t>(1, roleGpus(poolResult.gpus) / plan.gpusPerReplica);
    plan.drainable = settings.drainToZero;
    plan.minReplicas = plan.drainable ? 0 : 1;
    plan.tolerance = settings.hpaTolerance;
    plan.cooldownSeconds = settings.cooldownSeconds;
    plan.pollingIntervalSeconds = settings.pollingIntervalSeconds;
    plan.metric = settings.metric;
    plan.prometheusAddress = settings.prometheusAddress;
    plan.kubernetesNamespace = settings.kubernetesNamespace;

    if (role == AutoscaleRole::Prefill)
        plan.steps.push_back({"Maximum request rate per prefill replica",
                              "prefill throughput ÷ prefill tokens per request after the hit rate",
                              number(sizing.prefillCapacityTokensPerS, 1) + " tokens/s ÷ "
                                  + number(prefillTokensPerRequest, 1) + " = " + number(plan.requestsPerSPerReplica, 3)
                                  + " requests/s"});
    else
        plan.steps.push_back({role == AutoscaleRole::Decode ? "Maximum request rate per decode replica at the SLO"
                                                            : "Maximum request rate per replica at the SLO",
                              "goodput ÷ P50 output tokens",
                              number(sizing.goodputTokensPerS, 1) + " tokens/s ÷ " + number(outputTokens, 0) + " = "
                                  + number(plan.requestsPerSPerReplica, 3) + " requests/s ("
                                  + sizing.goodputSource + ")"});
    if (split)
        plan.steps.push_back({role == AutoscaleRole::Prefill ? "Prefill share of the workload's GPUs"
                                                             : "Decode share of the workload's GPUs",
                              "as sizing splits them",
                              std::to_string(role == AutoscaleRole::Prefill ? *sizing.prefillGpus
                                                                            : sizing.gpus - *sizing.prefillGpus)
                                  + " of " + std::to_string(sizing.gpus) + " = " + number(100.0 * share, 1) + " %"});
    plan.steps.push_back({"Allowed queueing delay",
                          settings.maxQueueDelayMs ? "as set" : "TTFT P95 SLO − prefill time of a P95 prompt",
                          settings.maxQueueDelayMs ? number(delayMs, 0) + " ms"
                                                   : number(workload.ttftP95Ms, 0) + " ms − "
                                                         + number(sizing.prefillTimeMs, 0) + " ms = "
                                                         + number(delayMs, 0) + " ms"});
    plan.steps.push_back({"Replicas at peak in this pool",
                          split ? "ceil(ceil(peak GPUs × share) ÷ GPUs per replica)" : "ceil(peak GPUs ÷ GPUs per replica)",
                          (split ? "ceil(" + std::to_string(entry->peakGpus) + " × " + number(share, 3) + ") = "
                                       + std::to_string(roleGpus(entry->peakGpus)) + "; "
                                 : std::string())
                              + std::to_string(roleGpus(entry->peakGpus)) + " ÷ " + std::to_string(plan.gpusPerReplica)
                              + " → " + std::to_string(plan.peakReplicas)});
    plan.steps.push_back({"Fleet queue target (Little's law)", "max throughput × allowed delay",
                          number(plan.maxThroughputRequestsPerS, 2) + " requests/s × "
                              + number(plan.allowedQueueDelayS, 3) + " s = " + number(plan.fleetQueueTarget, 2)
                              + " waiting requests"});
    plan.steps.push_back({"KEDA threshold per replica", "fleet queue target ÷ replicas",
                          number(plan.fleetQueueTarget, 2) + " ÷ " + std::to_string(plan.peakReplicas) + " = "
                              + number(plan.thresholdPerReplica, 2)});
    const std::string most = split ? "ceil(pool GPUs × share) ÷ GPUs per replica" : "pool GPUs ÷ GPUs per replica";
    plan.steps.push_back({"Replica range", (plan.drainable ? "0 (drained off-peak) … " : "1 … ") + most,
                          std::to_string(plan.minReplicas) + " … " + std::to_string(plan.maxReplicas)});
    return plan;
}

std::vector<AutoscalePlan> planScenarioAutoscale(const Scenario &scenario, const ScenarioInputs &inputs,
                                                 const ScenarioResult &result)
{
    std::vector<AutoscalePlan> plans;
    for (size_t p = 0; p < scenario.pools.size() && p < result.pools.size(); ++p) {
        const Pool &pool = scenario.pools[p];
        if (pool.role() != PoolRole::ElasticTop)
            continue;
        const GpuSpec *gpu = findGpu(inputs.gpus, pool.gpuId);
        if (!gpu)
            continue;
        for (const PoolWorkload &entry : result.pools[p].workloads) {
            if (entry.training)
                continue;
            const auto w = std::find_if(inputs.workloads.begin(), inputs.workloads.end(),
                                        [&](const WorkloadProfile &x) { return x.name == entry.name; });
            if (w == inputs.workloads.end())
                continue;
            const auto m = std::find_if(inputs.models.begin(), inputs.models.end(),
                                        [&](const ModelSpec &x) { return x.id == w->modelId; });
            if (m == inputs.models.end())
                continue;
            try {
                const SizingResult sizing = sizeInference(*w, *m, *gpu, deploymentOverrides(pool, w->name), inputs.serving);
                if (!sizing.feasible)
                    continue;
                if (sizing.prefillGpus) {
                    // Both or neither: one Deployment without the other does not serve.
                    AutoscalePlan prefill = planAutoscale(pool, result.pools[p], *w, sizing, scenario.autoscale,
                                                          AutoscaleRole::Prefill);
                    AutoscalePlan decode = planAutoscale(pool, result.pools[p], *w, sizing, scenario.autoscale,
                                                         AutoscaleRole::Decode);
                    plans.push_back(std::move(prefill));
                    plans.push_back(std::move(decode));
                } else {
                    plans.push_back(planAutoscale(pool, result.pools[p], *w, sizing, scenario.autoscale));
                }
            } catch (const InputError &) {
                continue;  // evaluation warned about the workload
            }
        }
    }
    return plans;
}

std::string autoscaleDeploymentName(const AutoscalePlan &plan)
{
    switch (plan.role) {
    case AutoscaleRole::Prefill:
        return plan.workload + "-prefill";
    case AutoscaleRole::Decode:
        return plan.workload + "-decode";
    case AutoscaleRole::Whole:
        break;
    }
    return plan.workload;
}

std::optional<DraDriver> draDriverFor(const std::string &vendor)
{
    std::string key;
    for (unsigned char c : vendor)
        key += char(std::tolower(c));
    if (key == "nvidia")
        return DraDriver{"gpu.nvidia.com", "gpu.nvidia.com", "mig.nvidia.com", ""};
    if (key == "amd")
        return DraDriver{"gpu.amd.com", "gpu.amd.com", "", "amdgpu"};
    return std::nullopt;
}

std::vector<DeviceAlternative> deviceAlternatives(const std::vector<GpuSpec> &catalog, const std::string &gpuId,
                                                  const std::vector<std::string> &fallbackGpuIds, int gpusPerReplica)
{
    std::vector<std::pair<std::string, std::string>> ids{{gpuId, "gpu"}}; // id, field
    for (size_t i = 0; i < fallbackGpuIds.size(); ++i) {
        const std::string &id = fallbackGpuIds[i];
        if (std::none_of(ids.begin(), ids.end(), [&](const auto &known) { return known.first == id; }))
            ids.emplace_back(id, "autoscale.fallback_gpus[" + std::to_string(i) + "]");
    }
    std::vector<DeviceAlternative> alternatives;
    for (const auto &[id, field] : ids) {
        const std::string what = field + ": " + (field == "gpu" ? "the pool's GPU" : "fallback GPU");
        const GpuSpec *gpu = findGpu(catalog, id);
        if (!gpu)
            throw InputError(field, what + " \"" + id + "\" is not in the GPU catalog, so no DRA selector can name it");
        const std::optional<DraDriver> driver = draDriverFor(gpu->vendor);
        if (!driver)
            throw InputError(field, what + " \"" + id + "\" is made by \"" + gpu->vendor
                                        + "\": Headroom writes DRA claims for NVIDIA (gpu.nvidia.com) and AMD "
                                          "(gpu.amd.com) GPUs only");
        if (gpu->draProductName.empty())
            throw InputError(field, what + " \"" + id + "\" (" + gpu->name
                                        + ") has no DRA product name in the catalog: set dra_product_name to the "
                                          "productName its DRA driver publishes (for NVIDIA, the name nvidia-smi "
                                          "shows), or leave the GPU out");
        DeviceAlternative alternative;
        alternative.gpuId = id;
        alternative.name = kubernetesName(id);
        alternative.driver = driver->name;
        alternative.deviceClassName = driver->gpuClass;
        alternative.deviceType = driver->wholeGpuType;
        alternative.productName = gpu->draProductName;
        alternative.count = std::max(1, gpusPerReplica);
        // The name alone would also select another catalog GPU: its memory tells them apart.
        const bool shared = std::any_of(catalog.begin(), catalog.end(), [&](const GpuSpec &other) {
            const std::optional<DraDriver> otherDriver = draDriverFor(other.vendor);
            return other.id != gpu->id && otherDriver && otherDriver->name == driver->name
                   && other.draProductName == gpu->draProductName && other.memoryBytes != gpu->memoryBytes;
        });
        if (shared)
            alternative.memoryBytes = gpu->memoryBytes;
        alternatives.push_back(alternative);
    }
    return alternatives;
}

namespace {

constexpr size_t kMaxLabel = 63;

// `name` cut so that "-" and a 6-digit hash still fit in a label, without a trailing "-".
std::string withHash(std::string name, const std::string &text)
{
    const std::string hash = shortNameHash(text);
    if (name.size() > kMaxLabel - hash.size() - 1)
        name.resize(kMaxLabel - hash.size() - 1);
    while (!name.empty() && name.back() == '-')
        name.pop_back();
    return name.empty() ? hash : name + "-" + hash;
}

} // namespace

std::string shortNameHash(const std::string &text)
{
    uint32_t hash = 2166136261u; // FNV-1a, 32 bits
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 16777619u;
    }
    char buffer[9];
    std::snprintf(buffer, sizeof buffer, "%06x", unsigned(hash & 0xffffffu));
    return buffer;
}

std::string kubernetesName(const std::string &text)
{
    std::string name;
    for (unsigned char c : text) {
        if (c < 0x80 && std::isalnum(c))
            name += char(std::tolower(c));
        else if (!name.empty() && name.back() != '-')
            name += '-';
    }
    while (!name.empty() && name.back() == '-')
        name.pop_back();
    if (name.size() > kMaxLabel)
        return withHash(name, text);
    return name.empty() ? std::string("headroom") : name;
}

bool isDnsLabel(const std::string &text)
{
    if (text.empty() || text.size() > kMaxLabel)
        return false;
    for (unsigned char c : text) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    }
    return text.front() != '-' && text.back() != '-';
}

bool isPrometheusMetricName(const std::string &text)
{
    if (text.empty())
        return false;
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        if (!letter && !(i > 0 && c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

bool isPrometheusLabelName(const std::string &text)
{
    return isPrometheusMetricName(text) && text.find(':') == std::string::npos;
}

std::string KubernetesNames::nameFor(const std::string &text)
{
    for (const auto &[given, name] : m_given) {
        if (given == text)
            return name;
    }
    const auto taken = [this](const std::string &name) {
        return std::any_of(m_given.begin(), m_given.end(), [&](const auto &g) { return g.second == name; });
    };
    std::string name = kubernetesName(text);
    // A hash shared by two texts (one in 16.7 million) moves on to the hash of the text and a count.
    for (int attempt = 1; taken(name); ++attempt)
        name = withHash(kubernetesName(text), attempt == 1 ? text : text + "#" + std::to_string(attempt));
    m_given.emplace_back(text, name);
    return name;
}

} // namespace headroom::engine
