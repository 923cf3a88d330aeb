#include "autoscaleyaml.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>

namespace headroom::store {

namespace {

std::string decimalText(double value, int decimals)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// A CEL string literal: backslashes and double quotes escaped.
std::string celString(const std::string &text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '\\' || c == '"')
            out += '\\';
        out += c;
    }
    return out + '"';
}

// A PromQL label matcher value: backslashes and double quotes escaped.
std::string promString(const std::string &text)
{
    return celString(text);
}

} // namespace

std::string kedaScaledObjectYaml(const engine::AutoscalePlan &plan, const std::string &deploymentName)
{
    const std::string target = engine::kubernetesName(deploymentName);
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << "keda.sh/v1alpha1";
    out << YAML::Key << "kind" << YAML::Value << "ScaledObject";
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << engine::kubernetesName(target + "-queue-scaler");
    out << YAML::Key << "namespace" << YAML::Value << plan.kubernetesNamespace;
    out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "headroom";
    out << YAML::EndMap;
    out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "headroom.dev/pool" << YAML::Value << plan.pool;
    out << YAML::Key << "headroom.dev/workload" << YAML::Value << plan.workload;
    out << YAML::Key << "headroom.dev/gpu" << YAML::Value << plan.gpuId;
    out << YAML::Key << "headroom.dev/fleet-queue-target" << YAML::Value << YAML::DoubleQuoted
        << decimalText(plan.fleetQueueTarget, 2);
    out << YAML::Key << "headroom.dev/max-requests-per-second" << YAML::Value << YAML::DoubleQuoted
        << decimalText(plan.maxThroughputRequestsPerS, 3);
    out << YAML::Key << "headroom.dev/allowed-queue-delay-seconds" << YAML::Value << YAML::DoubleQuoted
        << decimalText(plan.allowedQueueDelayS, 3);
    out << YAML::EndMap;
    out << YAML::EndMap;

    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "scaleTargetRef" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << "apps/v1";
    out << YAML::Key << "kind" << YAML::Value << "Deployment";
    out << YAML::Key << "name" << YAML::Value << target;
    out << YAML::EndMap;
    out << YAML::Key << "pollingInterval" << YAML::Value << plan.pollingIntervalSeconds;
    out << YAML::Key << "cooldownPeriod" << YAML::Value << plan.cooldownSeconds;
    out << YAML::Key << "minReplicaCount" << YAML::Value << plan.minReplicas;
    out << YAML::Key << "maxReplicaCount" << YAML::Value << plan.maxReplicas;
    out << YAML::Key << "advanced" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "horizontalPodAutoscalerConfig" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "behavior" << YAML::Value << YAML::BeginMap;
    // Scale out at once (weights take minutes to load), scale in only after the cooldown.
    out << YAML::Key << "scaleUp" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "stabilizationWindowSeconds" << YAML::Value << 0;
    out << YAML::Key << "tolerance" << YAML::Value << decimalText(plan.tolerance, 3);
    out << YAML::EndMap;
    out << YAML::Key << "scaleDown" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "stabilizationWindowSeconds" << YAML::Value << plan.cooldownSeconds;
    out << YAML::Key << "tolerance" << YAML::Value << decimalText(plan.tolerance, 3);
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::Key << "triggers" << YAML::Value << YAML::BeginSeq;
    out << YAML::BeginMap;
    out << YAML::Key << "type" << YAML::Value << "prometheus";
    out << YAML::Key << "metricType" << YAML::Value << "AverageValue";
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "serverAddress" << YAML::Value << plan.prometheusAddress;
    out << YAML::Key << "query" << YAML::Value
        << "sum(" + plan.metric + "{namespace=" + promString(plan.kubernetesNamespace) + ", pod=~"
               + promString(target + "-.*") + "})";
    // Trigger metadata is a map of strings: numbers are quoted.
    out << YAML::Key << "threshold" << YAML::Value << YAML::DoubleQuoted
        << decimalText(plan.thresholdPerReplica, 2);
    out << YAML::Key << "activationThreshold" << YAML::Value << YAML::DoubleQuoted << "0";
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::EndSeq;
    out << YAML::EndMap;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

std::string draResourceClaimTemplateYaml(const std::string &name, const std::string &kubernetesNamespace,
                                         const std::vector<engine::DeviceAlternative> &alternatives)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << "resource.k8s.io/v1";
    out << YAML::Key << "kind" << YAML::Value << "ResourceClaimTemplate";
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << engine::kubernetesName(name);
    out << YAML::Key << "namespace" << YAML::Value << kubernetesNamespace;
    out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "headroom";
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "spec" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "devices" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "requests" << YAML::Value << YAML::BeginSeq;
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "gpu";
    out << YAML::Key << "firstAvailable" << YAML::Value << YAML::BeginSeq;
    for (const engine::DeviceAlternative &alternative : alternatives) {
        out << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value << engine::kubernetesName(alternative.name);
        out << YAML::Key << "deviceClassName" << YAML::Value << alternative.deviceClassName;
        out << YAML::Key << "selectors" << YAML::Value << YAML::BeginSeq;
        out << YAML::BeginMap;
        out << YAML::Key << "cel" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "expression" << YAML::Value
            << "device.attributes[" + celString(alternative.deviceClassName) + "].productName.contains("
                   + celString(alternative.productMatch) + ")";
        out << YAML::EndMap;
        out << YAML::EndMap;
        out << YAML::EndSeq;
        out << YAML::Key << "allocationMode" << YAML::Value << "ExactCount";
        out << YAML::Key << "count" << YAML::Value << alternative.count;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::EndMap;
    out << YAML::EndSeq;
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::EndMap;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

std::string joinYamlDocuments(const std::vector<std::string> &documents)
{
    std::string out;
    for (size_t i = 0; i < documents.size(); ++i) {
        if (i > 0)
            out += "---\n";
        out += documents[i];
    }
    return out;
}

} // namespace headroom::store
