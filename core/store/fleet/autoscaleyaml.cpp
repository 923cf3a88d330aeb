#include "autoscaleyaml.h"

#include "store/common/yamlscalar.h"

#include "engine/common/errors.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace headroom::store {

namespace {

std::string decimalText(double value, int decimals)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string hexByte(unsigned char c)
{
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\x%02X", unsigned(c));
    return buffer;
}

// A CEL (and PromQL) string literal: \\ \" \n \r \t escaped, other control bytes as \xHH.
std::string quotedLiteral(const std::string &text)
{
    std::string out = "\"";
    for (char ch : text) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (c == '\\' || c == '"')
            out += std::string("\\") + ch;
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f)
            out += hexByte(c);
        else
            out += ch;
    }
    return out + '"';
}

// A value as an error message shows it: control characters visible, at most 40 characters.
std::string shown(const std::string &text)
{
    size_t cut = std::min<size_t>(text.size(), 40);
    while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80)
        --cut;  // not inside a UTF-8 sequence
    std::string quoted = quotedLiteral(text.substr(0, cut));
    quoted = quoted.substr(1, quoted.size() - 2);
    return "'" + quoted + (text.size() > 40 ? "…'" : "'");
}

void requireNamespace(const std::string &kubernetesNamespace)
{
    requireName("namespace", "the Kubernetes namespace", kubernetesNamespace);
    if (!engine::isDnsLabel(kubernetesNamespace))
        throw engine::InputError("namespace", "namespace " + shown(kubernetesNamespace)
                                                  + " is not a Kubernetes namespace name: use lower-case letters, "
                                                    "digits and '-', at most 63, starting and ending with a letter "
                                                    "or digit");
}

void emitText(YAML::Emitter &out, const char *key, const std::string &value)
{
    out << YAML::Key << key << YAML::Value;
    emitYamlString(out, value);
}

} // namespace

void requireName(const std::string &field, const std::string &what, const std::string &text)
{
    if (std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }))
        throw engine::InputError(field, field + ": " + what + " is " + (text.empty() ? "empty" : "only white space")
                                            + "; Kubernetes objects need a name: give it one");
}

std::string promqlString(const std::string &text)
{
    return quotedLiteral(text);
}

std::string kedaQuery(const std::string &metric, const std::string &kubernetesNamespace, const std::string &deployment)
{
    if (!engine::isPrometheusMetricName(metric))
        throw engine::InputError("metric", "metric " + shown(metric)
                                               + " is not a Prometheus metric name: letters, digits, '_' and ':', "
                                                 "not starting with a digit ([a-zA-Z_:][a-zA-Z0-9_:]*)");
    const auto matcher = [](const std::string &label, const char *op, const std::string &value) {
        if (!engine::isPrometheusLabelName(label))
            throw engine::InputError("metric", "label " + shown(label) + " is not a Prometheus label name");
        return label + op + promqlString(value);
    };
    return "sum(" + metric + "{" + matcher("namespace", "=", kubernetesNamespace) + ", "
           + matcher("pod", "=~", deployment + "-.*") + "})";
}

std::string kedaScaledObjectYaml(const engine::AutoscalePlan &plan, const std::string &deploymentName,
                                 engine::KubernetesNames *names)
{
    requireName("pool", "the elastic pool's name", plan.pool);
    requireName("workload", "the workload's name", plan.workload);
    requireName("deployment", "the name of the Deployment to scale", deploymentName);
    requireNamespace(plan.kubernetesNamespace);
    const std::string target = engine::kubernetesName(deploymentName);
    const std::string query = kedaQuery(plan.metric, plan.kubernetesNamespace, target);
    engine::KubernetesNames ownNames;
    const std::string name = (names ? *names : ownNames).nameFor(deploymentName + " queue scaler");

    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << "keda.sh/v1alpha1";
    out << YAML::Key << "kind" << YAML::Value << "ScaledObject";
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    emitText(out, "name", name);
    emitText(out, "namespace", plan.kubernetesNamespace);
    out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "app.kubernetes.io/managed-by" << YAML::Value << "headroom";
    out << YAML::EndMap;
    out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
    emitText(out, "headroom.dev/pool", plan.pool);
    emitText(out, "headroom.dev/workload", plan.workload);
    emitText(out, "headroom.dev/gpu", plan.gpuId);
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
    emitText(out, "name", target);
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
    emitText(out, "serverAddress", plan.prometheusAddress);
    emitText(out, "query", query);
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
                                         const std::vector<engine::DeviceAlternative> &alternatives,
                                         engine::KubernetesNames *names)
{
    requireName("name", "the claim template's name", name);
    requireNamespace(kubernetesNamespace);
    if (alternatives.empty())
        throw engine::InputError("gpu", "the claim template lists no GPU to ask for");
    engine::KubernetesNames ownNames;
    const std::string templateName = (names ? *names : ownNames).nameFor(name);
    engine::KubernetesNames subrequests;

    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "apiVersion" << YAML::Value << "resource.k8s.io/v1";
    out << YAML::Key << "kind" << YAML::Value << "ResourceClaimTemplate";
    out << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    emitText(out, "name", templateName);
    emitText(out, "namespace", kubernetesNamespace);
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
        requireName("gpu", "a GPU alternative's name", alternative.name);
        out << YAML::BeginMap;
        emitText(out, "name", subrequests.nameFor(alternative.name));
        emitText(out, "deviceClassName", alternative.deviceClassName);
        out << YAML::Key << "selectors" << YAML::Value << YAML::BeginSeq;
        out << YAML::BeginMap;
        out << YAML::Key << "cel" << YAML::Value << YAML::BeginMap;
        emitText(out, "expression",
                 "device.attributes[" + quotedLiteral(alternative.deviceClassName) + "].productName.contains("
                     + quotedLiteral(alternative.productMatch) + ")");
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
