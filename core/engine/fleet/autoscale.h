#pragma once

#include "engine/inference/inference_sizing.h"
#include "scenario.h"
#include "engine/inference/workload.h"

#include <cstdint>
#include <string>
#include <vector>

// Autoscaling the elastic tier on queue depth (DESIGN §3.8): the numbers a KEDA ScaledObject
// needs, derived from the workload's sizing and the elastic pool of a scenario.
namespace headroom::engine {

// Scaling plan of one workload on one elastic pool.
//
// Little's law: the requests waiting in a stable queue L = λ × W. With λ the largest request
// rate the fleet serves while holding the latency SLO (per replica: goodput tokens/s ÷ P50
// output tokens; × replicas at peak) and W the queueing delay the TTFT SLO allows (TTFT P95
// − prefill time of a P95 prompt, unless set), the fleet queue target is λ × W requests.
// KEDA's threshold is per replica: fleet queue target ÷ replicas (= per-replica rate × W).
// The HPA scales only when metric ÷ target leaves [1 − tolerance, 1 + tolerance].
struct AutoscalePlan {
    std::string pool;
    std::string workload;
    std::string gpuId;
    std::string tier;                       // "on_demand" | "spot"
    int gpusPerReplica = 1;
    double requestsPerSPerReplica = 0;      // max request rate holding the SLO, per replica
    double maxThroughputRequestsPerS = 0;   // fleet, at the peak replica count
    double allowedQueueDelayS = 0;          // W, seconds
    int64_t peakReplicas = 0;               // replicas at the workload's peak in this pool
    double fleetQueueTarget = 0;            // requests waiting across the fleet (L = λ × W)
    double thresholdPerReplica = 0;         // KEDA threshold = fleet queue target ÷ peak replicas
    int64_t minReplicas = 0;                // 0 when drainable
    int64_t maxReplicas = 0;                // from the elastic pool's GPUs
    double tolerance = 0.1;
    int cooldownSeconds = 600;
    int pollingIntervalSeconds = 15;
    bool drainable = true;
    std::string metric;                     // Prometheus metric of waiting requests
    std::string prometheusAddress;
    std::string kubernetesNamespace;
    std::vector<SizingStep> steps;          // how each number came about
};

// Plans one workload of an elastic pool. `sizing` is the workload sized on the pool's GPU;
// `poolResult` the pool's evaluation (its workload entry gives the peak GPUs; the pool's GPUs
// bound max replicas). Throws InputError naming the field: "pool" (not elastic, or the
// workload not in it), "hpa_tolerance" outside [0, 1), "cooldown_seconds" < 0,
// "max_queue_delay_ms" ≤ 0, "ttft_p95_ms" when the SLO leaves no queueing time, "sizing"
// when the workload is infeasible on the pool's GPU.
AutoscalePlan planAutoscale(const Pool &pool, const PoolResult &poolResult, const WorkloadProfile &workload,
                            const SizingResult &sizing, const AutoscaleSettings &settings);

// Plans for every (elastic pool, workload) of an evaluated scenario, sizing each workload on
// its pool's GPU; workloads missing from `inputs` or infeasible are skipped (evaluation warned).
std::vector<AutoscalePlan> planScenarioAutoscale(const Scenario &scenario, const ScenarioInputs &inputs,
                                                 const ScenarioResult &result);

// One prioritized device alternative of a DRA request (first available wins).
struct DeviceAlternative {
    std::string name;                       // subrequest name, DNS label: "h100"
    std::string gpuId;                      // catalog GPU id
    std::string deviceClassName = "gpu.nvidia.com";
    std::string productMatch;               // substring of the driver's productName: "H100"
    int64_t count = 1;                      // devices per claim (GPUs per replica)
};

// The pool's GPU first, then the fallbacks in order, each asking for `gpusPerReplica`
// devices; productMatch is the catalog name's first word with a digit ("H100", "A100").
std::vector<DeviceAlternative> deviceAlternatives(const std::vector<GpuSpec> &catalog, const std::string &gpuId,
                                                  const std::vector<std::string> &fallbackGpuIds, int gpusPerReplica);

// A Kubernetes resource name from free text, valid as a DNS-1123 label (and so as a
// subdomain): lower case, [a-z0-9-], starting and ending with a letter or digit, at most 63
// characters. A text cut to fit ends in "-" and a 6-digit hash of the whole text, so two long
// texts sharing their first 63 characters get different names. "headroom" when no letter or
// digit is left.
std::string kubernetesName(const std::string &text);

// A short stable hash of `text`: 6 lower-case hex digits (FNV-1a), the same on every platform.
std::string shortNameHash(const std::string &text);

// True when `text` is already a valid DNS-1123 label (what a namespace must be).
bool isDnsLabel(const std::string &text);

// The Prometheus grammar: metric names [a-zA-Z_:][a-zA-Z0-9_:]*, label names [a-zA-Z_][a-zA-Z0-9_]*.
bool isPrometheusMetricName(const std::string &text);
bool isPrometheusLabelName(const std::string &text);

// The names of the objects of one YAML stream, all different: each text gets its
// kubernetesName unless another text already has that name ("flex spot" and "flex-spot"); then
// it gets the name cut to fit plus "-" and the text's shortNameHash. The same text asked
// twice gets the same name. The first text to claim a name keeps it.
class KubernetesNames {
public:
    std::string nameFor(const std::string &text);

private:
    std::vector<std::pair<std::string, std::string>> m_given; // text, name
};

} // namespace headroom::engine
