#include "store/autoscaleyaml.h"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

using namespace headroom;

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

TEST_CASE("The DRA ResourceClaimTemplate lists prioritized alternatives under firstAvailable", "[autoscaleyaml]")
{
    std::vector<engine::DeviceAlternative> alternatives(2);
    alternatives[0].name = "h100-sxm";
    alternatives[0].gpuId = "h100-sxm";
    alternatives[0].productMatch = "H100";
    alternatives[0].count = 2;
    alternatives[1].name = "a100-sxm-80gb";
    alternatives[1].gpuId = "a100-sxm-80gb";
    alternatives[1].productMatch = "A100";
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
          == "device.attributes[\"gpu.nvidia.com\"].productName.contains(\"H100\")");
    CHECK(first[1]["name"].as<std::string>() == "a100-sxm-80gb");
    CHECK(first[1]["selectors"][0]["cel"]["expression"].as<std::string>()
          == "device.attributes[\"gpu.nvidia.com\"].productName.contains(\"A100\")");
}

TEST_CASE("YAML documents are joined with separators and parse as many", "[autoscaleyaml]")
{
    const std::string joined = store::joinYamlDocuments(
        {store::kedaScaledObjectYaml(samplePlan(), "a"), store::kedaScaledObjectYaml(samplePlan(), "b")});
    const auto docs = YAML::LoadAll(joined);
    REQUIRE(docs.size() == 2);
    CHECK(docs[1]["spec"]["scaleTargetRef"]["name"].as<std::string>() == "b");
}
