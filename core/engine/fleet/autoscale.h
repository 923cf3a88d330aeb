#pragma once

#include "engine/inference/inference_sizing.h"
#include "scenario.h"
#include "engine/inference/workload.h"

#include <cstdint>
#include <optional>
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
//
// A workload whose pool deployment splits prefill and decode runs as two Deployments, each
// scaled on its own queue: the prefill replicas at the request rate their prefill throughput
// holds (prefill tokens/s per replica ÷ prefill tokens per request after the hit rate), the
// decode replicas at goodput ÷ P50 output tokens; the workload's peak GPUs in the pool are
// split between them as sizing splits its GPUs.
enum class AutoscaleRole { Whole, Prefill, Decode };

struct AutoscalePlan {
    std::string pool;
    std::string workload;
    AutoscaleRole role = AutoscaleRole::Whole;
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
// `role` is Whole for an aggregated sizing; Prefill or Decode, one of the two Deployments of a
// disaggregated one (sizing.prefillGpus set; "role" is the field when they do not match).
AutoscalePlan planAutoscale(const Pool &pool, const PoolResult &poolResult, const WorkloadProfile &workload,
                            const SizingResult &sizing, const AutoscaleSettings &settings,
                            AutoscaleRole role = AutoscaleRole::Whole);

// The Deployment a plan scales by default: the workload's name, with "-prefill" or "-decode"
// for the two of a disaggregated workload.
std::string autoscaleDeploymentName(const AutoscalePlan &plan);

// Plans for every (elastic pool, workload) of an evaluated scenario, each workload sized as the
// pool deploys it (deploymentOverrides: its GPU, precisions, TP and split), two plans for a
// disaggregated one; workloads missing from `inputs` or infeasible are skipped (evaluation warned).
std::vector<AutoscalePlan> planScenarioAutoscale(const Scenario &scenario, const ScenarioInputs &inputs,
                                                 const ScenarioResult &result);

// The DRA driver of a GPU vendor as its ResourceSlices name it: the driver name (also the
// domain of its device attributes), the DeviceClass of whole GPUs and, where the driver has
// one, of MIG slices, and the value of the "type" attribute a whole GPU carries when the
// class also selects partitions.
//   NVIDIA (NVIDIA/k8s-dra-driver-gpu, cmd/gpu-kubelet-plugin/deviceinfo.go): driver
//     gpu.nvidia.com; classes gpu.nvidia.com and mig.nvidia.com (the class selects the type);
//     productName is NVML's device name, MIG slices carry their parent's and "profile".
//   AMD (ROCm/k8s-gpu-dra-driver, docs/driver-attributes.md): driver and class gpu.amd.com,
//     which selects whole GPUs (type "amdgpu") and partitions ("amdgpu-partition", carrying
//     the parent's productName) alike; productName is the board's sysfs product_name with
//     spaces as '_' and parentheses dropped (pkg/amdgpu/amdgpu.go).
struct DraDriver {
    std::string name;                 // "gpu.nvidia.com"
    std::string gpuClass;             // DeviceClass of whole GPUs
    std::string migClass;             // DeviceClass of MIG slices; empty: none
    std::string wholeGpuType;         // "type" of a whole GPU to require; empty: the class does
};

// The driver of GPUs whose catalog vendor is `vendor` (NVIDIA, AMD; any case); nullopt for
// any other vendor.
std::optional<DraDriver> draDriverFor(const std::string &vendor);

// resource.k8s.io/v1 allows at most this many subrequests under one request's firstAvailable.
constexpr size_t kMaxFirstAvailable = 8;

// One prioritized device alternative of a DRA request (first available wins), selected by
// the exact productName its driver publishes.
struct DeviceAlternative {
    std::string name;                       // subrequest name, DNS label: "h100-sxm"
    std::string gpuId;                      // catalog GPU id
    std::string driver = "gpu.nvidia.com";  // DRA driver: the domain of the attributes selected on
    std::string deviceClassName = "gpu.nvidia.com";
    std::string productName;                // exact productName: "NVIDIA H100 80GB HBM3"
    std::string deviceType;                 // "type" to require ("amdgpu"); empty: none
    std::string migProfile;                 // MIG slice profile ("1g.10gb"); empty: a whole GPU
    int64_t memoryBytes = 0;                // capacity "memory" to require, bytes; 0: none
    int64_t count = 1;                      // devices per claim (GPUs per replica)
};

// The pool's GPU first, then the fallbacks in order (repeats dropped), each asking for
// `gpusPerReplica` whole GPUs by its catalog entry's DRA product name. A GPU whose product
// name another catalog GPU of the same driver shares also requires its memory capacity
// (memory_bytes, which is what the drivers publish). Throws InputError naming the GPU — field
// "gpu" for the pool's, "autoscale.fallback_gpus[i]" for a fallback — when it is not in the
// catalog, its vendor has no known DRA driver, or its entry has no DRA product name.
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
