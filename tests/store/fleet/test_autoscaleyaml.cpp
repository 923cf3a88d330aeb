#include "draclaimcheck.h"

#include "store/catalog/catalogjson.h"
#include "store/fleet/autoscaleyaml.h"
#include "store/common/yamlscalar.h"

#include "engine/common/errors.h"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <functional>

using namespace headroom;
using store::test::draClaimProblems;

namespace {

engine::AutoscalePlan samplePlan()
{
    engine::AutoscalePlan plan;
    plan.pool = "flex";
    plan.workload = "chat";
    plan.gpuId = "h100-sxm";
    plan.tier = "on_demand";
    plan.requestsPerSPerReplica = 10;
    plan.peakReplicas = 6;
    plan.maxThroughputRequestsPerS = 60;
    plan.allowedQueueDelayS = 0.5;
    plan.fleetQueueTarget = 30;
    plan.thresholdPerReplica = 5;
    plan.minReplicas = 0;
    plan.maxReplicas = 12;
    plan.tolerance = 0.1;
    plan.cooldownSeconds = 600;
    plan.pollingIntervalSeconds = 15;
    plan.drainable = true;
    plan.metric = "vllm:num_requests_waiting";
    plan.prometheusAddress = "http://prometheus.monitoring:9090";
    plan.kubernetesNamespace = "serving";
    return plan;
}

// The catalog a new workspace is seeded from.
std::vector<engine::GpuSpec> shippedGpus()
{
    return store::readCatalogFile(QStringLiteral(":/catalogs/gpus.json")).gpus;
}

YAML::Node firstAvailableOf(const std::string &yaml)
{
    return YAML::Load(yaml)["spec"]["spec"]["devices"]["requests"][0]["firstAvailable"];
}

std::string joined(const std::vector<std::string> &lines)
{
    std::string out;
    for (const std::string &line : lines)
        out += line + "\n";
    return out;
}

} // namespace

TEST_CASE("The KEDA ScaledObject parses back with the plan's numbers", "[autoscaleyaml]")
{
    const std::string text = store::kedaScaledObjectYaml(samplePlan(), "Chat Server");
    const YAML::Node doc = YAML::Load(text);
    CHECK(doc["apiVersion"].as<std::string>() == "keda.sh/v1alpha1");
    CHECK(doc["kind"].as<std::string>() == "ScaledObject");
    CHECK(doc["metadata"]["name"].as<std::string>() == "chat-server-queue-scaler");
    CHECK(doc["metadata"]["namespace"].as<std::string>() == "serving");
    CHECK(doc["metadata"]["annotations"]["headroom.dev/fleet-queue-target"].as<std::string>() == "30.00");
    const YAML::Node spec = doc["spec"];
    CHECK(spec["scaleTargetRef"]["name"].as<std::string>() == "chat-server");
    CHECK(spec["scaleTargetRef"]["kind"].as<std::string>() == "Deployment");
    CHECK(spec["minReplicaCount"].as<int>() == 0);
    CHECK(spec["maxReplicaCount"].as<int>() == 12);
    CHECK(spec["cooldownPeriod"].as<int>() == 600);
    CHECK(spec["pollingInterval"].as<int>() == 15);
    const YAML::Node behavior = spec["advanced"]["horizontalPodAutoscalerConfig"]["behavior"];
    CHECK(behavior["scaleDown"]["stabilizationWindowSeconds"].as<int>() == 600);
    CHECK(behavior["scaleDown"]["tolerance"].as<double>() == Approx(0.1));
    CHECK(behavior["scaleUp"]["tolerance"].as<double>() == Approx(0.1));
    // The field needs Kubernetes 1.33+ behind a feature gate: each line says so.
    const std::string note = "  # needs Kubernetes 1.33+ with the HPAConfigurableTolerance feature gate\n";
    CHECK_THAT(text, Catch::Matchers::Contains("    tolerance: 0.100" + note));
    CHECK(text.find("tolerance: 0.100" + note) != text.rfind("tolerance: 0.100" + note)); // scaleUp and scaleDown
    REQUIRE(spec["triggers"].size() == 1);
    const YAML::Node trigger = spec["triggers"][0];
    CHECK(trigger["type"].as<std::string>() == "prometheus");
    CHECK(trigger["metricType"].as<std::string>() == "AverageValue");
    CHECK(trigger["metadata"]["serverAddress"].as<std::string>() == "http://prometheus.monitoring:9090");
    CHECK(trigger["metadata"]["query"].as<std::string>()
          == "sum(vllm:num_requests_waiting{namespace=\"serving\", pod=~\"chat-server-.*\"})");
    // KEDA reads trigger metadata (and Kubernetes annotations) as strings: numbers are quoted.
    CHECK(trigger["metadata"]["threshold"].Tag() == "!");
    CHECK(doc["metadata"]["annotations"]["headroom.dev/fleet-queue-target"].Tag() == "!");
    CHECK_THAT(text, Catch::Matchers::Contains("threshold: \"5.00\""));
    CHECK(trigger["metadata"]["threshold"].as<std::string>() == "5.00");
}

TEST_CASE("A non-drainable tier keeps one replica", "[autoscaleyaml]")
{
    engine::AutoscalePlan plan = samplePlan();
    plan.minReplicas = 1;
    plan.drainable = false;
    const YAML::Node doc = YAML::Load(store::kedaScaledObjectYaml(plan, "chat"));
    CHECK(doc["spec"]["minReplicaCount"].as<int>() == 1);
}

TEST_CASE("The Deployments of a split workload say their role and scale their own pods", "[autoscaleyaml]")
{
    engine::AutoscalePlan plan = samplePlan();
    CHECK_FALSE(YAML::Load(store::kedaScaledObjectYaml(plan, "chat"))["metadata"]["annotations"]["headroom.dev/role"]);
    engine::KubernetesNames names;
    for (const auto role : {engine::AutoscaleRole::Prefill, engine::AutoscaleRole::Decode}) {
        plan.role = role;
        const std::string deployment = engine::autoscaleDeploymentName(plan);
        const YAML::Node doc = YAML::Load(store::kedaScaledObjectYaml(plan, deployment, &names));
        const std::string side = role == engine::AutoscaleRole::Prefill ? "prefill" : "decode";
        CHECK(doc["metadata"]["annotations"]["headroom.dev/role"].as<std::string>() == side);
        CHECK(doc["metadata"]["name"].as<std::string>() == "chat-" + side + "-queue-scaler");
        CHECK(doc["spec"]["scaleTargetRef"]["name"].as<std::string>() == "chat-" + side);
        CHECK(doc["spec"]["triggers"][0]["metadata"]["query"].as<std::string>().find("pod=~\"chat-" + side + "-.*\"")
              != std::string::npos);
    }
}

TEST_CASE("The HPA tolerance can be left out for clusters without the feature gate", "[autoscaleyaml]")
{
    store::KedaYamlOptions options;
    options.tolerance = false;
    const std::string text = store::kedaScaledObjectYaml(samplePlan(), "chat", nullptr, options);
    CHECK(text.find("tolerance") == std::string::npos);
    CHECK(text.find("HPAConfigurableTolerance") == std::string::npos);
    const YAML::Node behavior =
        YAML::Load(text)["spec"]["advanced"]["horizontalPodAutoscalerConfig"]["behavior"];
    CHECK(behavior["scaleUp"]["stabilizationWindowSeconds"].as<int>() == 0);
    CHECK(behavior["scaleDown"]["stabilizationWindowSeconds"].as<int>() == 600);
    CHECK_FALSE(behavior["scaleUp"]["tolerance"]);
    CHECK_FALSE(behavior["scaleDown"]["tolerance"]);
}

TEST_CASE("The DRA ResourceClaimTemplate lists prioritized alternatives under firstAvailable", "[autoscaleyaml]")
{
    std::vector<engine::DeviceAlternative> alternatives(2);
    alternatives[0].name = "h100-sxm";
    alternatives[0].gpuId = "h100-sxm";
    alternatives[0].productName = "NVIDIA H100 80GB HBM3";
    alternatives[0].count = 2;
    alternatives[1].name = "a100-sxm-80gb";
    alternatives[1].gpuId = "a100-sxm-80gb";
    alternatives[1].productName = "NVIDIA A100-SXM4-80GB";
    alternatives[1].count = 2;
    const std::string text = store::draResourceClaimTemplateYaml("Chat GPUs", "serving", alternatives);
    const YAML::Node doc = YAML::Load(text);
    CHECK(doc["apiVersion"].as<std::string>() == "resource.k8s.io/v1");
    CHECK(doc["kind"].as<std::string>() == "ResourceClaimTemplate");
    CHECK(doc["metadata"]["name"].as<std::string>() == "chat-gpus");
    CHECK(doc["metadata"]["namespace"].as<std::string>() == "serving");
    const YAML::Node requests = doc["spec"]["spec"]["devices"]["requests"];
    REQUIRE(requests.size() == 1);
    CHECK(requests[0]["name"].as<std::string>() == "gpu");
    const YAML::Node first = requests[0]["firstAvailable"];
    REQUIRE(first.size() == 2);
    CHECK(first[0]["name"].as<std::string>() == "h100-sxm");
    CHECK(first[0]["deviceClassName"].as<std::string>() == "gpu.nvidia.com");
    CHECK(first[0]["allocationMode"].as<std::string>() == "ExactCount");
    CHECK(first[0]["count"].as<int>() == 2);
    CHECK(first[0]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\"");
    CHECK(first[1]["name"].as<std::string>() == "a100-sxm-80gb");
    CHECK(first[1]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\"");
    CHECK(text.rfind("apiVersion:", 0) == 0); // nothing left out, no comment
}

TEST_CASE("Every shipped GPU with a DRA product name gets a claim the v1 API accepts that selects it alone "
          "by its exact name and one without is refused naming the field to set",
          "[autoscaleyaml]")
{
    const std::vector<engine::GpuSpec> catalog = shippedGpus();
    REQUIRE(catalog.size() >= 16);
    for (const engine::GpuSpec &gpu : catalog) {
        INFO("GPU " << gpu.id);
        if (gpu.draProductName.empty()) {
            CHECK_THROWS_WITH(store::draResourceClaimTemplateYaml("Flex " + gpu.name, "serving",
                                                                  engine::deviceAlternatives(catalog, gpu.id, {}, 8)),
                              Catch::Contains("has no DRA product name in the catalog: set dra_product_name"));
            continue;
        }
        const auto alternatives = engine::deviceAlternatives(catalog, gpu.id, {}, 8);
        const std::string text = store::draResourceClaimTemplateYaml("Flex " + gpu.name, "serving", alternatives);
        const auto problems = draClaimProblems(text, catalog);
        INFO(joined(problems) << text);
        CHECK(problems.empty());
        const std::string expression =
            firstAvailableOf(text)[0]["selectors"][0]["cel"]["expression"].as<std::string>();
        CHECK(expression.find(".productName == \"" + gpu.draProductName + "\"") != std::string::npos);
    }
}

TEST_CASE("Selectors match product names exactly: A100 40GB, L40S and the H100 variants are not taken for others",
          "[autoscaleyaml]")
{
    const std::vector<engine::GpuSpec> catalog = shippedGpus();
    const auto selectorOf = [&](const std::string &gpuId) {
        const auto text = store::draResourceClaimTemplateYaml("c", "serving", engine::deviceAlternatives(catalog, gpuId, {}, 1));
        return firstAvailableOf(text)[0]["selectors"][0]["cel"]["expression"].as<std::string>();
    };
    CHECK(selectorOf("a100-sxm-80gb") == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-80GB\"");
    CHECK(selectorOf("a100-sxm-40gb") == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA A100-SXM4-40GB\"");
    CHECK(selectorOf("l4") == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA L4\"");
    CHECK(selectorOf("l40s") == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA L40S\"");
    CHECK(selectorOf("h100-sxm") == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\"");
    CHECK(selectorOf("h100-pcie") == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 PCIe\"");
    CHECK(selectorOf("h100-nvl") == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 NVL\"");

    // The checker itself refuses a substring match and a name two catalog GPUs share.
    const std::string loose =
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: c, namespace: serving}\n"
        "spec: {spec: {devices: {requests: [{name: gpu, firstAvailable: [{name: a100, deviceClassName: gpu.nvidia.com, "
        "selectors: [{cel: {expression: 'device.attributes[\"gpu.nvidia.com\"].productName.contains(\"A100\")'}}], "
        "allocationMode: ExactCount, count: 1}]}]}}}\n";
    CHECK_THAT(joined(draClaimProblems(loose, catalog)), Catch::Matchers::Contains("matches by substring"));
    std::vector<engine::GpuSpec> twins = catalog;
    twins.push_back(catalog.front());
    twins.back().id = "a100-twin";
    CHECK_THAT(joined(draClaimProblems(store::draResourceClaimTemplateYaml(
                                           "c", "serving", engine::deviceAlternatives(catalog, "a100-sxm-40gb", {}, 1)),
                                       twins)),
               Catch::Matchers::Contains("is that of 2 catalog GPUs (a100-sxm-40gb, a100-twin)"));
}

TEST_CASE("GPUs sharing a product name with another of the catalog also require their memory", "[autoscaleyaml]")
{
    std::vector<engine::GpuSpec> catalog = shippedGpus();
    engine::GpuSpec bigger = *engine::findGpu(catalog, "h100-sxm");
    bigger.id = "h100-sxm-94gb";
    bigger.memoryBytes = 100485038080;
    catalog.push_back(bigger);
    const auto alternatives = engine::deviceAlternatives(catalog, "h100-sxm", {"h100-sxm-94gb", "h200"}, 1);
    REQUIRE(alternatives.size() == 3);
    CHECK(alternatives[0].memoryBytes == 85520809984);
    CHECK(alternatives[1].memoryBytes == 100485038080);
    CHECK(alternatives[2].memoryBytes == 0); // "NVIDIA H200" is the H200's alone
    const std::string text = store::draResourceClaimTemplateYaml("c", "serving", alternatives);
    CHECK(firstAvailableOf(text)[0]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\" && "
             "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"85520809984\")) == 0");
    const auto problems = draClaimProblems(text, catalog);
    INFO(joined(problems));
    CHECK(problems.empty());
}

TEST_CASE("More than 8 alternatives: the first 8 are written and a comment names the rest", "[autoscaleyaml]")
{
    const std::vector<engine::GpuSpec> catalog = shippedGpus();
    std::vector<std::string> fallbacks;
    for (const engine::GpuSpec &gpu : catalog) {
        if (gpu.id != "h100-sxm" && !gpu.draProductName.empty())
            fallbacks.push_back(gpu.id);
    }
    REQUIRE(fallbacks.size() >= 9);
    const auto alternatives = engine::deviceAlternatives(catalog, "h100-sxm", fallbacks, 2);
    REQUIRE(alternatives.size() == fallbacks.size() + 1);
    const std::string text = store::draResourceClaimTemplateYaml("flex", "serving", alternatives);
    const auto problems = draClaimProblems(text, catalog);
    INFO(joined(problems) << text);
    CHECK(problems.empty());
    const YAML::Node first = firstAvailableOf(text);
    REQUIRE(first.size() == 8);
    for (size_t i = 0; i < 8; ++i)
        CHECK(first[i]["name"].as<std::string>() == alternatives[i].name); // the plan's order
    std::string omitted;
    for (size_t i = 8; i < alternatives.size(); ++i)
        omitted += (i > 8 ? ", " : "") + alternatives[i].gpuId;
    CHECK(text.rfind("# resource.k8s.io/v1 takes at most 8 firstAvailable subrequests; left out, in order:\n# "
                     + omitted + "\n",
                     0)
          == 0);
}

TEST_CASE("AMD GPUs are asked of AMD's driver, whole GPUs only", "[autoscaleyaml]")
{
    const std::vector<engine::GpuSpec> catalog = shippedGpus();
    const auto alternatives = engine::deviceAlternatives(catalog, "mi300x", {"mi325x", "h200"}, 8);
    const std::string text = store::draResourceClaimTemplateYaml("amd", "serving", alternatives);
    const auto problems = draClaimProblems(text, catalog);
    INFO(joined(problems) << text);
    CHECK(problems.empty());
    const YAML::Node first = firstAvailableOf(text);
    REQUIRE(first.size() == 3);
    CHECK(first[0]["deviceClassName"].as<std::string>() == "gpu.amd.com");
    CHECK(first[0]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.amd.com\"].type == \"amdgpu\" && "
             "device.attributes[\"gpu.amd.com\"].productName == \"AMD_Instinct_MI300X_OAM\"");
    CHECK(first[1]["deviceClassName"].as<std::string>() == "gpu.amd.com");
    CHECK(first[1]["selectors"][0]["cel"]["expression"].as<std::string>().find("AMD_Instinct_MI325X_OAM")
          != std::string::npos);
    CHECK(first[2]["deviceClassName"].as<std::string>() == "gpu.nvidia.com");
    CHECK(text.find("gpu.nvidia.com\"]") == text.rfind("gpu.nvidia.com\"]")); // only the H200's selector
}

TEST_CASE("MIG slices select their profile under gpu.nvidia.com whatever the device class", "[autoscaleyaml]")
{
    engine::DeviceAlternative slice;
    slice.name = "h100-1g-10gb";
    slice.gpuId = "h100-sxm";
    slice.deviceClassName = "mig.nvidia.com";
    slice.productName = "NVIDIA H100 80GB HBM3";
    slice.migProfile = "1g.10gb";
    const std::string text = store::draResourceClaimTemplateYaml("slices", "serving", {slice});
    const YAML::Node first = firstAvailableOf(text);
    CHECK(first[0]["deviceClassName"].as<std::string>() == "mig.nvidia.com");
    CHECK(first[0]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA H100 80GB HBM3\" && "
             "device.attributes[\"gpu.nvidia.com\"].profile == \"1g.10gb\"");
    const auto problems = draClaimProblems(text, shippedGpus());
    INFO(joined(problems));
    CHECK(problems.empty());

    // Only NVIDIA's driver has MIG slices.
    slice.driver = "gpu.amd.com";
    slice.deviceClassName = "gpu.amd.com";
    try {
        store::draResourceClaimTemplateYaml("slices", "serving", {slice});
        FAIL("a MIG slice of AMD's driver was written");
    } catch (const engine::InputError &e) {
        CHECK(e.field() == "gpu");
        CHECK_THAT(e.what(), Catch::Matchers::Contains("MIG slices come from NVIDIA's driver"));
    }
}

TEST_CASE("An alternative without a product name is refused rather than written as a loose selector",
          "[autoscaleyaml]")
{
    engine::DeviceAlternative unnamed;
    unnamed.name = "custom";
    unnamed.gpuId = "custom-gpu";
    try {
        store::draResourceClaimTemplateYaml("c", "serving", {unnamed});
        FAIL("a selector without a product name was written");
    } catch (const engine::InputError &e) {
        CHECK(e.field() == "gpu");
        CHECK_THAT(e.what(), Catch::Matchers::Contains("GPU alternative 'custom-gpu' has no DRA product name"));
    }
}

TEST_CASE("YAML documents are joined with separators and parse as many", "[autoscaleyaml]")
{
    const std::string joined = store::joinYamlDocuments(
        {store::kedaScaledObjectYaml(samplePlan(), "a"), store::kedaScaledObjectYaml(samplePlan(), "b")});
    const auto docs = YAML::LoadAll(joined);
    REQUIRE(docs.size() == 2);
    CHECK(docs[1]["spec"]["scaleTargetRef"]["name"].as<std::string>() == "b");
}

TEST_CASE("Names and values that look like numbers or booleans come back as the same strings", "[autoscaleyaml]")
{
    for (const std::string value : {"2024", "yes", "no", "on", "off", "y", "n", "true", "null", "~", "0123", "0x1f",
                                    "1e3", "12-30", "2024-01-01"}) {
        INFO("value: " << value);
        engine::AutoscalePlan plan = samplePlan();
        plan.pool = value;
        plan.workload = value;
        plan.gpuId = value;
        const std::string text = store::kedaScaledObjectYaml(plan, value);
        const YAML::Node doc = YAML::Load(text);
        const std::string name = engine::kubernetesName(value);
        // Quoted ("!") unless cleaning left a plain word ("~" becomes "headroom").
        const std::string nameTag = store::isPlainYamlSafe(name) ? "?" : "!";
        CHECK(doc["spec"]["scaleTargetRef"]["name"].Tag() == nameTag);
        CHECK(doc["spec"]["scaleTargetRef"]["name"].as<std::string>() == name);
        CHECK(doc["metadata"]["annotations"]["headroom.dev/pool"].as<std::string>() == value);
        CHECK(doc["metadata"]["annotations"]["headroom.dev/workload"].as<std::string>() == value);
        CHECK(doc["metadata"]["annotations"]["headroom.dev/gpu"].Tag() == "!");
        CHECK(doc["metadata"]["annotations"]["headroom.dev/gpu"].as<std::string>() == value);
        // A YAML 1.1 reader would take these plain words as numbers, booleans, nulls or dates.
        if (!store::isPlainYamlSafe(name))
            CHECK_THAT(text, Catch::Matchers::Contains("name: \"" + name + "\""));
        CHECK_THAT(text, Catch::Matchers::Contains("headroom.dev/pool: \"" + value + "\""));

        std::vector<engine::DeviceAlternative> alternatives(1);
        alternatives[0].name = value;
        alternatives[0].productName = value;
        const YAML::Node claim = YAML::Load(store::draResourceClaimTemplateYaml(value, "serving", alternatives));
        CHECK(claim["metadata"]["name"].Tag() == nameTag);
        CHECK(claim["metadata"]["name"].as<std::string>() == name);
        const YAML::Node first = claim["spec"]["spec"]["devices"]["requests"][0]["firstAvailable"][0];
        CHECK(first["name"].Tag() == nameTag);
        CHECK(first["name"].as<std::string>() == name);
    }
}

TEST_CASE("Annotations with separators and control characters are escaped and read back exactly", "[autoscaleyaml]")
{
    engine::AutoscalePlan plan = samplePlan();
    plan.pool = "flex\xe2\x80\xa8pool";
    plan.workload = "chat\xc2\x85" "bot: #1";
    plan.gpuId = "h100\xe2\x80\xa9sxm";
    plan.prometheusAddress = " http://prometheus:9090 ";
    const std::string text = store::kedaScaledObjectYaml(plan, "chat");
    CHECK(text.find("\xe2\x80\xa8") == std::string::npos);
    CHECK(text.find("\xe2\x80\xa9") == std::string::npos);
    CHECK(text.find("\xc2\x85") == std::string::npos);
    const YAML::Node doc = YAML::Load(text);
    CHECK(doc["metadata"]["annotations"]["headroom.dev/pool"].as<std::string>() == plan.pool);
    CHECK(doc["metadata"]["annotations"]["headroom.dev/workload"].as<std::string>() == plan.workload);
    CHECK(doc["metadata"]["annotations"]["headroom.dev/gpu"].as<std::string>() == plan.gpuId);
    CHECK(doc["spec"]["triggers"][0]["metadata"]["serverAddress"].as<std::string>() == plan.prometheusAddress);
}

TEST_CASE("A metric outside the Prometheus grammar is refused, so it cannot drop the filter", "[autoscaleyaml]")
{
    engine::AutoscalePlan plan = samplePlan();
    plan.metric = "vllm:num_requests_waiting\nor vector(1000) #";
    try {
        store::kedaScaledObjectYaml(plan, "chat");
        FAIL("the metric was accepted");
    } catch (const engine::InputError &e) {
        CHECK(e.field() == "metric");
        CHECK_THAT(e.what(), Catch::Matchers::Contains("metric 'vllm:num_requests_waiting\\nor vector(1000…'"));
        CHECK_THAT(e.what(), Catch::Matchers::Contains("Prometheus metric name"));
    }
    for (const std::string bad : {"", "1abc", "a-b", "a b", "a{b}", "sum(x)", "a\"b"}) {
        INFO("metric: " << bad);
        CHECK_FALSE(engine::isPrometheusMetricName(bad));
    }
    for (const std::string good : {"vllm:num_requests_waiting", "_x", ":a:b", "tgi_queue_size", "A9"}) {
        INFO("metric: " << good);
        CHECK(engine::isPrometheusMetricName(good));
    }
    CHECK(engine::isPrometheusLabelName("namespace"));
    CHECK_FALSE(engine::isPrometheusLabelName("name:space"));
    CHECK_FALSE(engine::isPrometheusLabelName("9pod"));
}

TEST_CASE("PromQL label values escape backslash, double quote and line breaks", "[autoscaleyaml]")
{
    CHECK(store::promqlString("a\"b\\c\nd\re\tf") == "\"a\\\"b\\\\c\\nd\\re\\tf\"");
    CHECK(store::promqlString(std::string("x\x01y", 3)) == "\"x\\x01y\"");
    const std::string query = store::kedaQuery("m", "serving", "chat");
    CHECK(query == "sum(m{namespace=\"serving\", pod=~\"chat-.*\"})");
    const std::string hostile = store::kedaQuery("m", "ns\"} or vector(1000) #\n", "chat");
    CHECK(hostile == "sum(m{namespace=\"ns\\\"} or vector(1000) #\\n\", pod=~\"chat-.*\"})");
    CHECK(hostile.find('\n') == std::string::npos);
}

TEST_CASE("A namespace that is not a DNS-1123 label is refused, naming it", "[autoscaleyaml]")
{
    for (const std::string &bad : std::vector<std::string>{"Serving", "serving prod", "serving\n", "-serving", std::string(64, 'a'),
                                  "ns\"} or vector(1000) #"}) {
        INFO("namespace: " << bad);
        engine::AutoscalePlan plan = samplePlan();
        plan.kubernetesNamespace = bad;
        try {
            store::kedaScaledObjectYaml(plan, "chat");
            FAIL("the namespace was accepted");
        } catch (const engine::InputError &e) {
            CHECK(e.field() == "namespace");
            CHECK_THAT(e.what(), Catch::Matchers::Contains("not a Kubernetes namespace name"));
        }
        CHECK_THROWS_AS(store::draResourceClaimTemplateYaml("claim", bad, {engine::DeviceAlternative{}}),
                        engine::InputError);
    }
}

TEST_CASE("Blank or white-space names are refused with the field named", "[autoscaleyaml]")
{
    const auto fieldOf = [](const std::function<void()> &write) {
        try {
            write();
        } catch (const engine::InputError &e) {
            CHECK_THAT(e.what(), Catch::Matchers::Contains("give it one"));
            return e.field();
        }
        return std::string("(accepted)");
    };
    engine::AutoscalePlan plan = samplePlan();
    CHECK(fieldOf([&] { store::kedaScaledObjectYaml(plan, "   "); }) == "deployment");
    CHECK(fieldOf([&] { store::kedaScaledObjectYaml(plan, ""); }) == "deployment");
    plan.workload = " \t";
    CHECK(fieldOf([&] { store::kedaScaledObjectYaml(plan, "chat"); }) == "workload");
    plan = samplePlan();
    plan.pool = "";
    CHECK(fieldOf([&] { store::kedaScaledObjectYaml(plan, "chat"); }) == "pool");
    plan = samplePlan();
    plan.kubernetesNamespace = "  ";
    CHECK(fieldOf([&] { store::kedaScaledObjectYaml(plan, "chat"); }) == "namespace");
    std::vector<engine::DeviceAlternative> alternatives(1);
    alternatives[0].name = "h100";
    CHECK(fieldOf([&] { store::draResourceClaimTemplateYaml(" ", "serving", alternatives); }) == "name");
    CHECK(fieldOf([&] { store::draResourceClaimTemplateYaml("claim", "", alternatives); }) == "namespace");
}

TEST_CASE("Names that collide after cleaning get a short stable hash", "[autoscaleyaml]")
{
    engine::KubernetesNames names;
    const std::string plain = names.nameFor("flex-spot");
    const std::string spaced = names.nameFor("flex spot");
    CHECK(plain == "flex-spot");
    CHECK(spaced != plain);
    CHECK(spaced == "flex-spot-" + engine::shortNameHash("flex spot"));
    CHECK(names.nameFor("flex spot") == spaced); // the same text, the same name
    CHECK(engine::isDnsLabel(spaced));

    // Two names sharing their first 63 characters come out different, each a DNS-1123 label.
    const std::string a = engine::kubernetesName(std::string(70, 'a') + "-one");
    const std::string b = engine::kubernetesName(std::string(70, 'a') + "-two");
    CHECK(a != b);
    CHECK(a.size() <= 63);
    CHECK(engine::isDnsLabel(a));
    CHECK(engine::isDnsLabel(b));
    // Cut where a dash falls, the name still ends in a letter or digit.
    CHECK(engine::isDnsLabel(engine::kubernetesName(std::string(55, 'a') + "-----" + std::string(20, 'b'))));

    // Within one claim template the subrequest names are unique.
    std::vector<engine::DeviceAlternative> alternatives(2);
    alternatives[0].name = "h100 sxm";
    alternatives[0].productName = "NVIDIA H100 80GB HBM3";
    alternatives[1].name = "h100-sxm";
    alternatives[1].productName = "NVIDIA H100 80GB HBM3";
    const YAML::Node first = YAML::Load(store::draResourceClaimTemplateYaml("claim", "serving", alternatives))
                                 ["spec"]["spec"]["devices"]["requests"][0]["firstAvailable"];
    REQUIRE(first.size() == 2);
    CHECK(first[0]["name"].as<std::string>() != first[1]["name"].as<std::string>());

    // Across the documents of one stream, object names are unique too.
    engine::KubernetesNames stream;
    const YAML::Node one = YAML::Load(store::draResourceClaimTemplateYaml("s-flex spot-gpu", "serving", alternatives, &stream));
    const YAML::Node two = YAML::Load(store::draResourceClaimTemplateYaml("s-flex-spot-gpu", "serving", alternatives, &stream));
    CHECK(one["metadata"]["name"].as<std::string>() != two["metadata"]["name"].as<std::string>());
    const YAML::Node k1 = YAML::Load(store::kedaScaledObjectYaml(samplePlan(), std::string(70, 'c') + "1", &stream));
    const YAML::Node k2 = YAML::Load(store::kedaScaledObjectYaml(samplePlan(), std::string(70, 'c') + "2", &stream));
    CHECK(k1["metadata"]["name"].as<std::string>() != k2["metadata"]["name"].as<std::string>());
    CHECK(k1["spec"]["scaleTargetRef"]["name"].as<std::string>() != k2["spec"]["scaleTargetRef"]["name"].as<std::string>());
}
