#pragma once

#include "engine/fleet/autoscale.h"

#include <string>
#include <vector>

// Deployment hand-off for the elastic tier (DESIGN §3.8), written with yaml-cpp's emitter.
// Every text from the workspace is written so that YAML 1.1 and 1.2 readers take it back as
// the same string (see yamlscalar.h); object names are DNS-1123 labels, unique within one
// stream when the documents share a KubernetesNames. Blank names, a namespace that is not a
// DNS-1123 label and a metric outside the Prometheus grammar are refused with an
// engine::InputError naming the field.
namespace headroom::store {

// What the ScaledObject carries besides the plan's numbers.
struct KedaYamlOptions {
    // The HPA tolerance band on scaleUp and scaleDown. The field needs Kubernetes 1.33 or
    // later with the HPAConfigurableTolerance feature gate; without it leave it out (the
    // cluster-wide tolerance, 0.1 by default, applies).
    bool tolerance = true;
};

// A KEDA ScaledObject (keda.sh/v1alpha1) scaling the Deployment `deploymentName` on a
// Prometheus trigger: sum of the plan's waiting-requests metric for the deployment, threshold
// per replica, min replicas 0 when drainable, max replicas, cooldown, polling interval and,
// unless `options` leave it out, the HPA tolerance band under
// advanced.horizontalPodAutoscalerConfig with a comment saying what it needs. `names` keeps
// the ScaledObject's name apart from the other objects of the same stream.
std::string kedaScaledObjectYaml(const engine::AutoscalePlan &plan, const std::string &deploymentName,
                                 engine::KubernetesNames *names = nullptr, const KedaYamlOptions &options = {});

// A DRA ResourceClaimTemplate (resource.k8s.io/v1) named after `name` whose single request "gpu"
// lists the alternatives under firstAvailable in priority order, each by deviceClassName and
// one CEL selector on its driver's attributes: productName == the exact name (and type, MIG
// profile and memory capacity where the alternative sets them). Only the first
// engine::kMaxFirstAvailable alternatives are written; a comment at the top names the ones
// left out. Subrequest names are unique. Throws engine::InputError("gpu") for an alternative
// without a product name, driver or device class, or with a MIG profile on a driver other
// than NVIDIA's.
std::string draResourceClaimTemplateYaml(const std::string &name, const std::string &kubernetesNamespace,
                                         const std::vector<engine::DeviceAlternative> &alternatives,
                                         engine::KubernetesNames *names = nullptr);

// The CEL expression selecting `alternative`'s devices, every attribute and capacity under its
// driver's domain: device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3".
std::string draSelector(const engine::DeviceAlternative &alternative);

// Several YAML documents joined with "---" lines.
std::string joinYamlDocuments(const std::vector<std::string> &documents);

// Throws engine::InputError(field) when `text` is empty or only white space; `what` says what
// the name is for ("the scenario's name").
void requireName(const std::string &field, const std::string &what, const std::string &text);

// A PromQL string literal in double quotes: backslash, double quote, line feed, carriage return
// and tab escaped as \\ \" \n \r \t, other control bytes as \xHH.
std::string promqlString(const std::string &text);

// The trigger's query: sum(metric{namespace="…", pod=~"<deployment>-.*"}). Throws
// engine::InputError("metric") for a metric name outside the Prometheus grammar.
std::string kedaQuery(const std::string &metric, const std::string &kubernetesNamespace,
                      const std::string &deployment);

} // namespace headroom::store
