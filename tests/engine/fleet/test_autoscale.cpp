#include "scenariosupport.h"

#include "engine/fleet/autoscale.h"
#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

Scenario coreAndFlex()
{
    Scenario s = scenarioOn("core-and-flex", "Test", "r1");
    s.pools = {pool("core", PoolTier::Reserved1y, PoolSizing::Auto, 0, {"chat"}),
               pool("flex", PoolTier::OnDemand, PoolSizing::Auto, 0, {"chat"})};
    s.autoscale.maxQueueDelayMs = 500;
    return s;
}

SizingResult chatOnH100()
{
    SizingOverrides overrides;
    overrides.gpuId = "h100-sxm";
    return sizeInference(scenarioChat(), llama31_8b(), h100Sxm(), overrides, scenarioInputs().serving);
}

std::string fieldOfError(const Scenario &s, const ScenarioResult &r, size_t pool, const WorkloadProfile &w,
                         const AutoscaleSettings &settings)
{
    try {
        planAutoscale(s.pools[pool], r.pools[pool], w, chatOnH100(), settings);
    } catch (const InputError &e) {
        return e.field();
    }
    return {};
}

} // namespace

TEST_CASE("The KEDA threshold is the fleet queue target over the replicas (Little's law)", "[autoscale]")
{
    const Scenario s = coreAndFlex();
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    REQUIRE(r.pools[1].gpus == 6);
    const AutoscalePlan plan = planAutoscale(s.pools[1], r.pools[1], scenarioChat(), chatOnH100(), s.autoscale);
    // 3,000 measured tokens/s ÷ 300 P50 output tokens = 10 requests/s per replica; the
    // overflow peaks at 6 GPUs = 6 replicas → 60 requests/s; × 0.5 s = 30 waiting requests
    // across the fleet, 5 per replica.
    CHECK(plan.requestsPerSPerReplica == Approx(10.0));
    CHECK(plan.peakReplicas == 6);
    CHECK(plan.maxThroughputRequestsPerS == Approx(60.0));
    CHECK(plan.allowedQueueDelayS == Approx(0.5));
    CHECK(plan.fleetQueueTarget == Approx(30.0));
    CHECK(plan.thresholdPerReplica == Approx(5.0));
    CHECK(plan.minReplicas == 0);
    CHECK(plan.maxReplicas == 6);
    CHECK(plan.tolerance == Approx(0.1));
    CHECK(plan.cooldownSeconds == 600);
    CHECK(plan.drainable);
    CHECK(plan.metric == "vllm:num_requests_waiting");
    CHECK(plan.tier == "on_demand");
    CHECK(plan.steps.size() == 6);
}

TEST_CASE("Without a set delay the TTFT SLO minus the prefill time bounds the queue", "[autoscale]")
{
    Scenario s = coreAndFlex();
    s.autoscale.maxQueueDelayMs.reset();
    s.autoscale.drainToZero = false;
    s.autoscale.hpaTolerance = 0.2;
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    const SizingResult sizing = chatOnH100();
    const AutoscalePlan plan = planAutoscale(s.pools[1], r.pools[1], scenarioChat(), sizing, s.autoscale);
    const double delay = (2000.0 - sizing.prefillTimeMs) / 1000.0;
    CHECK(plan.allowedQueueDelayS == Approx(delay));
    CHECK(plan.thresholdPerReplica == Approx(10.0 * delay));
    CHECK(plan.minReplicas == 1);
    CHECK(plan.tolerance == Approx(0.2));
}

TEST_CASE("Autoscale planning refuses what cannot be scaled, naming the field", "[autoscale]")
{
    Scenario s = coreAndFlex();
    const ScenarioResult r = evaluateScenario(s, scenarioInputs());
    CHECK(fieldOfError(s, r, 0, scenarioChat(), s.autoscale) == "pool");
    CHECK(fieldOfError(s, r, 1, scenarioChat("other"), s.autoscale) == "pool");
    AutoscaleSettings settings = s.autoscale;
    settings.hpaTolerance = 1.5;
    CHECK(fieldOfError(s, r, 1, scenarioChat(), settings) == "hpa_tolerance");
    settings = s.autoscale;
    settings.cooldownSeconds = -5;
    CHECK(fieldOfError(s, r, 1, scenarioChat(), settings) == "cooldown_seconds");
    settings = s.autoscale;
    settings.maxQueueDelayMs = 0;
    CHECK(fieldOfError(s, r, 1, scenarioChat(), settings) == "max_queue_delay_ms");
    settings.maxQueueDelayMs.reset();
    WorkloadProfile tight = scenarioChat();
    tight.ttftP95Ms = 1;
    CHECK(fieldOfError(s, r, 1, tight, settings) == "ttft_p95_ms");
}

TEST_CASE("A scenario's elastic pools each get a plan per workload", "[autoscale]")
{
    const Scenario s = coreAndFlex();
    const ScenarioInputs in = scenarioInputs();
    const ScenarioResult r = evaluateScenario(s, in);
    const auto plans = planScenarioAutoscale(s, in, r);
    REQUIRE(plans.size() == 1);
    CHECK(plans[0].pool == "flex");
    CHECK(plans[0].workload == "chat");
    CHECK(plans[0].thresholdPerReplica == Approx(5.0));
}

TEST_CASE("DRA alternatives list the pool's GPU first, then the fallbacks", "[autoscale]")
{
    const auto alternatives = deviceAlternatives({h100Sxm(), a100()}, "h100-sxm", {"a100-sxm-80gb", "h100-sxm"}, 2);
    REQUIRE(alternatives.size() == 2);
    CHECK(alternatives[0].name == "h100-sxm");
    CHECK(alternatives[0].productName == "NVIDIA H100 80GB HBM3");
    CHECK(alternatives[0].count == 2);
    CHECK(alternatives[0].driver == "gpu.nvidia.com");
    CHECK(alternatives[0].deviceClassName == "gpu.nvidia.com");
    CHECK(alternatives[0].deviceType.empty());
    CHECK(alternatives[0].memoryBytes == 0);
    CHECK(alternatives[1].gpuId == "a100-sxm-80gb");
    CHECK(alternatives[1].productName == "NVIDIA A100-SXM4-80GB");
    CHECK(kubernetesName("Chat Bot_v2!") == "chat-bot-v2");
    CHECK(kubernetesName("***") == "headroom");
    CHECK(kubernetesName(std::string(80, 'a')).size() == 63);
}

TEST_CASE("DRA alternatives come from the vendor's driver: NVIDIA's, AMD's, no other", "[autoscale]")
{
    CHECK(draDriverFor("NVIDIA")->name == "gpu.nvidia.com");
    CHECK(draDriverFor("nvidia")->migClass == "mig.nvidia.com");
    const auto amd = draDriverFor("AMD");
    REQUIRE(amd);
    CHECK(amd->name == "gpu.amd.com");
    CHECK(amd->gpuClass == "gpu.amd.com");
    CHECK(amd->wholeGpuType == "amdgpu");
    CHECK(amd->migClass.empty());
    CHECK_FALSE(draDriverFor("Intel"));

    GpuSpec mi300x = h100Sxm();
    mi300x.id = "mi300x";
    mi300x.vendor = "AMD";
    mi300x.draProductName = "AMD_Instinct_MI300X_OAM";
    const auto alternatives = deviceAlternatives({h100Sxm(), mi300x}, "mi300x", {"h100-sxm"}, 1);
    REQUIRE(alternatives.size() == 2);
    CHECK(alternatives[0].driver == "gpu.amd.com");
    CHECK(alternatives[0].deviceClassName == "gpu.amd.com");
    CHECK(alternatives[0].deviceType == "amdgpu");
    CHECK(alternatives[1].driver == "gpu.nvidia.com");
}

TEST_CASE("A GPU without a DRA product name, of another vendor or not in the catalog is refused, naming it",
          "[autoscale]")
{
    const auto refusal = [](const std::vector<GpuSpec> &catalog, const std::vector<std::string> &fallbacks) {
        try {
            deviceAlternatives(catalog, "h100-sxm", fallbacks, 1);
        } catch (const InputError &e) {
            return std::make_pair(e.field(), std::string(e.what()));
        }
        return std::make_pair(std::string("(accepted)"), std::string());
    };
    GpuSpec custom = h100Sxm();
    custom.id = "rtx-6000";
    custom.name = "RTX 6000 Ada";
    custom.draProductName.clear();
    auto [field, message] = refusal({h100Sxm(), a100(), custom}, {"a100-sxm-80gb", "rtx-6000"});
    CHECK(field == "autoscale.fallback_gpus[1]");
    CHECK_THAT(message, Catch::Contains("autoscale.fallback_gpus[1]: fallback GPU \"rtx-6000\" (RTX 6000 Ada) has no "
                                        "DRA product name in the catalog"));

    GpuSpec unnamedPool = h100Sxm();
    unnamedPool.draProductName.clear();
    std::tie(field, message) = refusal({unnamedPool}, {});
    CHECK(field == "gpu");
    CHECK_THAT(message, Catch::Contains("the pool's GPU \"h100-sxm\""));

    GpuSpec gaudi = h100Sxm();
    gaudi.id = "gaudi3";
    gaudi.vendor = "Intel";
    std::tie(field, message) = refusal({h100Sxm(), gaudi}, {"gaudi3"});
    CHECK(field == "autoscale.fallback_gpus[0]");
    CHECK_THAT(message, Catch::Contains("is made by \"Intel\""));

    std::tie(field, message) = refusal({h100Sxm()}, {"h100-sxm", "b300"});
    CHECK(field == "autoscale.fallback_gpus[1]");
    CHECK_THAT(message, Catch::Contains("\"b300\" is not in the GPU catalog"));
}

TEST_CASE("A product name two catalog GPUs of one driver share is told apart by memory", "[autoscale]")
{
    GpuSpec bigger = h100Sxm();
    bigger.id = "h100-94gb";
    bigger.memoryBytes = 100485038080;
    GpuSpec copy = h100Sxm(); // the same hardware under another id: nothing to tell apart
    copy.id = "h100-tuned";
    auto alternatives = deviceAlternatives({h100Sxm(), bigger, a100()}, "h100-sxm", {"h100-94gb", "a100-sxm-80gb"}, 1);
    REQUIRE(alternatives.size() == 3);
    CHECK(alternatives[0].memoryBytes == 85520809984);
    CHECK(alternatives[1].memoryBytes == 100485038080);
    CHECK(alternatives[2].memoryBytes == 0);
    alternatives = deviceAlternatives({h100Sxm(), copy}, "h100-sxm", {}, 1);
    CHECK(alternatives[0].memoryBytes == 0);
}

TEST_CASE("A scenario's autoscale metric and namespace are checked against the Prometheus and DNS grammars",
          "[autoscale]")
{
    const auto problemsAt = [](const Scenario &s, const std::string &field) {
        std::vector<std::string> messages;
        for (const FieldProblem &p : validate(s)) {
            if (p.field == field)
                messages.push_back(p.message);
        }
        return messages;
    };
    Scenario s = coreAndFlex();
    CHECK(problemsAt(s, "autoscale.metric").empty());
    CHECK(problemsAt(s, "autoscale.namespace").empty());
    s.autoscale.metric = "vllm:num_requests_waiting\nor vector(1000) #";
    s.autoscale.kubernetesNamespace = "Serving Prod";
    const auto metric = problemsAt(s, "autoscale.metric");
    REQUIRE(metric.size() == 1);
    CHECK_THAT(metric[0], Catch::Matchers::Contains("\"vllm:num_requests_waiting\\nor vector(1000…\""));
    CHECK_THAT(metric[0], Catch::Matchers::Contains("not a Prometheus metric name"));
    const auto ns = problemsAt(s, "autoscale.namespace");
    REQUIRE(ns.size() == 1);
    CHECK_THAT(ns[0], Catch::Matchers::Contains("\"Serving Prod\""));
    s.autoscale.metric = std::string(100, 'x') + "-";
    CHECK_THAT(problemsAt(s, "autoscale.metric").at(0), Catch::Matchers::Contains("…\""));

    CHECK(isDnsLabel("customer-care"));
    CHECK_FALSE(isDnsLabel("customer-care-"));
    CHECK_FALSE(isDnsLabel(""));
    // Cut names end in a hash of the whole text, so 63-character prefixes do not collide.
    const std::string a = kubernetesName(std::string(70, 'a') + "1");
    const std::string b = kubernetesName(std::string(70, 'a') + "2");
    CHECK(a != b);
    CHECK(a.size() == 63);
    CHECK(a.substr(57) == shortNameHash(std::string(70, 'a') + "1"));
    CHECK(shortNameHash("flex spot") == shortNameHash("flex spot"));
    CHECK(shortNameHash("flex spot").size() == 6);
}

TEST_CASE("The hand-off sizes each workload as its pool deploys it, a split one as two Deployments", "[autoscale]")
{
    Scenario s = coreAndFlex();
    PoolDeployment deployment;
    deployment.workload = "chat";
    deployment.weights = WeightPrecision::Fp8;
    deployment.kv = KvPrecision::Fp8;
    deployment.tp = 2;
    for (Pool &p : s.pools)
        p.deployments = {deployment};
    const ScenarioInputs in = scenarioInputs();
    ScenarioResult r = evaluateScenario(s, in);
    REQUIRE(r.pools[1].gpus > 0);
    std::vector<AutoscalePlan> plans = planScenarioAutoscale(s, in, r);
    REQUIRE(plans.size() == 1);
    const SizingResult whole = sizeInference(scenarioChat(), llama31_8b(), h100Sxm(), deploymentOverrides(s.pools[1], "chat"),
                                             in.serving);
    REQUIRE(whole.feasible);
    CHECK(whole.gpusPerReplica == 2);
    // The pool's TP, not the profile's: a replica is two GPUs, its rate the goodput at FP8.
    CHECK(plans[0].role == AutoscaleRole::Whole);
    CHECK(plans[0].gpusPerReplica == 2);
    CHECK(plans[0].requestsPerSPerReplica == Approx(whole.goodputTokensPerS / 300.0));
    CHECK(plans[0].maxReplicas == r.pools[1].gpus / 2);
    CHECK(autoscaleDeploymentName(plans[0]) == "chat");

    // Prefill and decode apart: two Deployments, each on its own rate and share of the GPUs.
    for (Pool &p : s.pools)
        p.deployments[0].disaggregated = true;
    r = evaluateScenario(s, in);
    REQUIRE(r.pools[1].gpus > 0);
    plans = planScenarioAutoscale(s, in, r);
    REQUIRE(plans.size() == 2);
    const SizingResult split = sizeInference(scenarioChat(), llama31_8b(), h100Sxm(), deploymentOverrides(s.pools[1], "chat"),
                                             in.serving);
    REQUIRE(split.prefillGpus);
    const int64_t prefillGpus = *split.prefillGpus;
    const int64_t decodeGpus = split.gpus - prefillGpus;
    REQUIRE(prefillGpus > 0);
    REQUIRE(decodeGpus > 0);
    const AutoscalePlan &prefill = plans[0];
    const AutoscalePlan &decode = plans[1];
    CHECK(prefill.role == AutoscaleRole::Prefill);
    CHECK(decode.role == AutoscaleRole::Decode);
    CHECK(autoscaleDeploymentName(prefill) == "chat-prefill");
    CHECK(autoscaleDeploymentName(decode) == "chat-decode");
    // Prefill: its throughput ÷ the prefill tokens a request brings after the hit rate.
    const double tokensPerRequest = split.prefillTokensPerS / split.peakRequestsPerS;
    CHECK(prefill.requestsPerSPerReplica == Approx(split.prefillCapacityTokensPerS / tokensPerRequest));
    CHECK(decode.requestsPerSPerReplica == Approx(split.goodputTokensPerS / 300.0));
    // The pool's GPUs shared as sizing shares them, each side rounded up to whole GPUs.
    const int64_t poolGpus = r.pools[1].gpus;
    const auto ceilShare = [&](int64_t part) { return (poolGpus * part + split.gpus - 1) / split.gpus; };
    CHECK(prefill.maxReplicas == std::max<int64_t>(1, ceilShare(prefillGpus) / 2));
    CHECK(decode.maxReplicas == std::max<int64_t>(1, ceilShare(decodeGpus) / 2));
    CHECK(prefill.maxReplicas * 2 + decode.maxReplicas * 2 <= poolGpus + 2);
    CHECK(prefill.thresholdPerReplica == Approx(prefill.requestsPerSPerReplica * 0.5));

    // A role that does not match the sizing is refused, naming it.
    try {
        planAutoscale(s.pools[1], r.pools[1], scenarioChat(), split, s.autoscale);
        FAIL("a split sizing planned whole");
    } catch (const InputError &e) {
        CHECK(e.field() == "role");
    }
    try {
        planAutoscale(s.pools[1], r.pools[1], scenarioChat(), whole, s.autoscale, AutoscaleRole::Decode);
        FAIL("a whole sizing planned as decode");
    } catch (const InputError &e) {
        CHECK(e.field() == "role");
    }
}
