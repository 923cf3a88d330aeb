#pragma once

#include "engine/autoscale.h"

#include <string>
#include <vector>

// Deployment hand-off for the elastic tier (DESIGN §3.8), written with yaml-cpp's emitter.
namespace headroom::store {

// A KEDA ScaledObject (keda.sh/v1alpha1) scaling the Deployment `deploymentName` on a
// Prometheus trigger: sum of the plan's waiting-requests metric for the deployment, threshold
// per replica, min replicas 0 when drainable, max replicas, cooldown, polling interval and
// the HPA tolerance band under advanced.horizontalPodAutoscalerConfig.
std::string kedaScaledObjectYaml(const engine::AutoscalePlan &plan, const std::string &deploymentName);

// A DRA ResourceClaimTemplate (resource.k8s.io/v1) named `name` whose single request "gpu"
// lists the alternatives under firstAvailable in priority order, each by deviceClassName and
// a CEL selector on the driver's productName attribute.
std::string draResourceClaimTemplateYaml(const std::string &name, const std::string &kubernetesNamespace,
                                         const std::vector<engine::DeviceAlternative> &alternatives);

// Several YAML documents joined with "---" lines.
std::string joinYamlDocuments(const std::vector<std::string> &documents);

} // namespace headroom::store
