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
    CHECK(alternatives[0].productMatch == "H100");
    CHECK(alternatives[0].count == 2);
    CHECK(alternatives[0].deviceClassName == "gpu.nvidia.com");
    CHECK(alternatives[1].gpuId == "a100-sxm-80gb");
    CHECK(alternatives[1].productMatch == "A100");
    CHECK(kubernetesName("Chat Bot_v2!") == "chat-bot-v2");
    CHECK(kubernetesName("***") == "headroom");
    CHECK(kubernetesName(std::string(80, 'a')).size() == 63);
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
