#pragma once

// The workspace the fleet verbs' end-to-end tests share: the DESIGN §3.7 static-versus-elastic
// pair at $3.99 and scenarios for the bad cases, written through the store.
#include "common/clirunner.h"

#include "engine/fleet/scenario.h"
#include "engine/inference/workload.h"
#include "store/common/workspace.h"

namespace headroom::test::fleet {

inline engine::Decimal dec(const char *text)
{
    return *engine::Decimal::parse(text);
}

// 100,000 users, 10 % in a session at peak, 1,000 streams measured per H100 → 10 replicas,
// 12 with the planned 20 % headroom; half traffic 00:00–07:59, so 6 GPUs for 8 hours and 12
// for 16: 240 GPU-hours a day, 10 on average.
inline engine::WorkloadProfile chat()
{
    engine::WorkloadProfile w;
    w.name = "chat";
    w.tenant = "product";
    w.modelId = "llama-3.1-8b";
    w.dailyActiveUsers = 100000;
    w.requestsPerUserPerDay = 10;
    w.peakSessionsPerUser = 0.1;
    for (int h = 0; h < 24; ++h)
        w.diurnal[size_t(h)] = h < 8 ? 0.5 : 1.0;
    w.promptTokens = {1000, 4000};
    w.outputTokens = {300, 1000};
    w.prefixHitRate = 0.2;
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    w.trafficVariance = 1.5;
    w.measuredMaxStreams = 1000;
    w.measuredGoodputTokensPerS = 3000;
    w.gpuId = "h100-sxm";
    return w;
}

inline engine::Pool pool(const std::string &name, engine::PoolTier tier, engine::PoolSizing sizing, int64_t gpus,
                  const std::string &gpu = "h100-sxm")
{
    engine::Pool p;
    p.name = name;
    p.gpuId = gpu;
    p.tier = tier;
    p.sizing = sizing;
    p.gpus = gpus;
    p.workloads = {"chat"};
    return p;
}

inline engine::Scenario scenario(const std::string &name, std::vector<engine::Pool> pools)
{
    engine::Scenario s;
    s.name = name;
    s.description = "test " + name;
    s.author = "Planner";
    s.provider = "Golden";
    s.region = "g";
    s.startDate = "2025-01-01"; // 12 months = 8,760 h
    s.pools = std::move(pools);
    s.autoscale.maxQueueDelayMs = 500;
    s.autoscale.fallbackGpuIds = {"a100-sxm-80gb"};
    return s;
}

// The DESIGN §3.7 static-versus-elastic pair at $3.99, plus scenarios for the bad cases.
inline void seed(const CliFixture &fixture)
{
    store::Workspace workspace(fixture.workspace());
    // The DESIGN pair is sized with every open session's KV resident (16 GPUs at the peak).
    engine::ServingAssumptions serving;
    serving.residency = engine::KvResidency::Session;
    workspace.setServingAssumptions(serving);
    workspace.putWorkload(chat());
    engine::RateCard card;
    card.provider = "Golden";
    card.region = "g";
    card.gpuId = "h100-sxm";
    card.effectiveDate = "2025-01-01";
    card.onDemand = dec("3.99");
    card.source = "DESIGN §3.7";
    workspace.putRateCard(card);
    engine::Pool fixed = pool("base", engine::PoolTier::Owned, engine::PoolSizing::Fixed, 16);
    fixed.ownedRatePerGpuHour = dec("3.99");
    workspace.putScenario(scenario("static", {fixed}));
    workspace.putScenario(
        scenario("elastic", {pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0)}));
    engine::Pool old = pool("old", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0, "a100-sxm-80gb");
    engine::Scenario unpriced = scenario("unpriced", {old});
    unpriced.pools[0].workloads.push_back("deleted workload");
    workspace.putScenario(unpriced);
    engine::Pool ghost = pool("flex", engine::PoolTier::OnDemand, engine::PoolSizing::Auto, 0);
    ghost.workloads = {"deleted workload"};
    workspace.putScenario(scenario("ghost", {ghost}));
}

} // namespace headroom::test::fleet
