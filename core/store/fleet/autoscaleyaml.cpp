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

const char kToleranceNote[] = "needs Kubernetes 1.33+ with the HPAConfigurableTolerance feature gate";

// Refuses an alternative whose selector could not name its devices exactly.
void requireSelectable(const engine::DeviceAlternative &alternative)
{
    requireName("gpu", "a GPU alternative's name", alternative.name);
    const std::string gpu = "GPU alternative " + shown(alternative.gpuId.empty() ? alternative.name : alternative.gpuId);
    if (alternative.productName.empty())
        throw engine::InputError("gpu", gpu + " has no DRA product name: its selector would match any GPU of the "
                                              "driver; set the GPU's dra_product_name in the catalog");
    if (alternative.driver.empty() || alternative.deviceClassName.empty())
        throw engine::InputError("gpu", gpu + " names no DRA driver or device class");
    if (!alternative.migProfile.empty() && alternative.driver != "gpu.nvidia.com")
        throw engine::InputError("gpu", gpu + " asks for MIG slice " + shown(alternative.migProfile)
                                              + " from driver " + shown(alternative.driver)
                                              + ": MIG slices come from NVIDIA's driver (gpu.nvidia.com) only");
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
                                 engine::KubernetesNames *names, const KedaYamlOptions &options)
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
    if (plan.role != engine::AutoscaleRole::Whole)
        emitText(out, "headroom.dev/role", plan.role == engine::AutoscaleRole::Prefill ? "prefill" : "decode");
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
    // The behavior's tolerance field came with KEP-4951 (alpha in Kubernetes 1.33, behind
    // the HPAConfigurableTolerance gate); an API server without it drops the field.
    const auto emitTolerance = [&] {
        if (options.tolerance)
            out << YAML::Key << "tolerance" << YAML::Value << decimalText(plan.tolerance, 3)
                << YAML::Comment(kToleranceNote);
    };
    out << YAML::Key << "scaleUp" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "stabilizationWindowSeconds" << YAML::Value << 0;
    emitTolerance();
    out << YAML::EndMap;
    out << YAML::Key << "scaleDown" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "stabilizationWindowSeconds" << YAML::Value << plan.cooldownSeconds;
    emitTolerance();
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

std::string draSelector(const engine::DeviceAlternative &alternative)
{
    const std::string domain = quotedLiteral(alternative.driver);
    const std::string attributes = "device.attributes[" + domain + "]";
    std::vector<std::string> terms;
    if (!alternative.deviceType.empty())
        terms.push_back(attributes + ".type == " + quotedLiteral(alternative.deviceType));
    terms.push_back(attributes + ".productName == " + quotedLiteral(alternative.productName));
    if (!alternative.migProfile.empty())
        terms.push_back(attributes + ".profile == " + quotedLiteral(alternative.migProfile));
    if (alternative.memoryBytes > 0)
        terms.push_back("device.capacity[" + domain + "].memory.compareTo(quantity(\""
                        + std::to_string(alternative.memoryBytes) + "\")) == 0");
    std::string expression;
    for (const std::string &term : terms)
        expression += (expression.empty() ? "" : " && ") + term;
    return expression;
}

std::string draResourceClaimTemplateYaml(const std::string &name, const std::string &kubernetesNamespace,
                                         const std::vector<engine::DeviceAlternative> &alternatives,
                                         engine::KubernetesNames *names)
{
    requireName("name", "the claim template's name", name);
    requireNamespace(kubernetesNamespace);
    if (alternatives.empty())
        throw engine::InputError("gpu", "the claim template lists no GPU to ask for");
    const size_t kept = std::min(alternatives.size(), engine::kMaxFirstAvailable);
    for (size_t i = 0; i < kept; ++i)
        requireSelectable(alternatives[i]);
    engine::KubernetesNames ownNames;
    const std::string templateName = (names ? *names : ownNames).nameFor(name);
    engine::KubernetesNames subrequests;

    YAML::Emitter out;
    if (kept < alternatives.size()) {
        std::string omitted;
        for (size_t i = kept; i < alternatives.size(); ++i) {
            // Escaped as in a string literal, so no control character can end the comment.
            const std::string escaped =
                quotedLiteral(alternatives[i].gpuId.empty() ? alternatives[i].name : alternatives[i].gpuId);
            omitted += (i > kept ? ", " : "") + escaped.substr(1, escaped.size() - 2);
        }
        out << YAML::Comment("resource.k8s.io/v1 takes at most " + std::to_string(engine::kMaxFirstAvailable)
                             + " firstAvailable subrequests; left out, in order:\n" + omitted);
    }
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
    for (size_t i = 0; i < kept; ++i) {
        const engine::DeviceAlternative &alternative = alternatives[i];
        out << YAML::BeginMap;
        emitText(out, "name", subrequests.nameFor(alternative.name));
        emitText(out, "deviceClassName", alternative.deviceClassName);
        out << YAML::Key << "selectors" << YAML::Value << YAML::BeginSeq;
        out << YAML::BeginMap;
        out << YAML::Key << "cel" << YAML::Value << YAML::BeginMap;
        emitText(out, "expression", draSelector(alternative));
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
