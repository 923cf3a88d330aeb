#pragma once

#include "common/models.h"
#include "inference/workloads.h"

#include "engine/partitioning/mig.h"
#include "engine/fleet/scenario.h"

#include <string>

// Fixtures for the scenario and autoscale tests. Numbers are chosen so that every pool and
// cost can be worked out by hand:
// - "chat": 100,000 users × 0.1 sessions = 10,000 peak streams; 1,000 streams measured per
//   replica → 10 replicas for memory (compute: ceil(1.5 × 13.9 requests/s × 300 tokens ÷ 3,000 measured tokens/s) = 3);
//   × 1.2 planned headroom → 12 replicas = 12 H100s at peak, 2 of them planned headroom.
//   Diurnal: half traffic 00:00–07:59, full 08:00–23:59 → hourly need 6 GPUs for 8 hours and
//   12 for 16 hours: 240 GPU-hours a day, 10 GPUs on average.
// - Rate card Test/r1 for h100-sxm (2026-01-01): on-demand 6.88, 1-year 5.00, 3-year 4.00,
//   spot 2.50, 12 weeks lead time; an older 2025-01-01 card at 9.00 on demand.
// - Rate card Golden/g for h100-sxm: on-demand 3.99 only (DESIGN §3.7 static vs elastic).
namespace headroom::test {

inline engine::WorkloadProfile scenarioChat(const std::string &name = "chat")
{
    engine::WorkloadProfile w = chatWorkload();
    w.name = name;
    w.dailyActiveUsers = 100000;
    w.requestsPerUserPerDay = 10;
    w.peakSessionsPerUser = 0.1;
    for (int h = 0; h < 24; ++h)
        w.diurnal[size_t(h)] = h < 8 ? 0.5 : 1.0;
    w.measuredMaxStreams = 1000;
    w.measuredGoodputTokensPerS = 3000;
    return w;
}

// A small internal tenant: Llama 3.1 8B at int4 needs 4.6 GiB with runtime: one 1g.10gb slice.
inline engine::WorkloadProfile internalTenant(const std::string &name)
{
    engine::WorkloadProfile w = scenarioChat(name);
    w.workloadClass = engine::WorkloadClass::InternalTool;
    w.weights = engine::WeightPrecision::Int4;
    w.dailyActiveUsers = 500;
    w.measuredMaxStreams.reset();
    w.measuredGoodputTokensPerS.reset();
    return w;
}

inline engine::RateCard card(const std::string &provider, const std::string &region, const std::string &gpu,
                             const std::string &date, const char *onDemand, const char *reserved1y,
                             const char *reserved3y, const char *spot, int leadWeeks)
{
    engine::RateCard c;
    c.provider = provider;
    c.region = region;
    c.gpuId = gpu;
    c.effectiveDate = date;
    c.onDemand = *engine::Decimal::parse(onDemand);
    c.reserved1y = *engine::Decimal::parse(reserved1y);
    c.reserved3y = *engine::Decimal::parse(reserved3y);
    c.spot = *engine::Decimal::parse(spot);
    c.reservationLeadWeeks = leadWeeks;
    return c;
}

// H100 80GB MIG table as data/mig_profiles.json gives it.
inline engine::MigGpuProfiles h100MigProfiles()
{
    engine::MigGpuProfiles gpu;
    gpu.gpuId = "h100-sxm";
    gpu.profiles = {
        {"1g.10gb", 1, 1, 10, {0, 1, 2, 3, 4, 5, 6}, 7, false},
        {"1g.10gb+me", 1, 1, 10, {0, 1, 2, 3, 4, 5, 6}, 1, true},
        {"1g.20gb", 1, 2, 20, {0, 2, 4, 6}, 4, false},
        {"2g.20gb", 2, 2, 20, {0, 2, 4}, 3, false},
        {"3g.40gb", 3, 4, 40, {0, 4}, 2, false},
        {"4g.40gb", 4, 4, 40, {0}, 1, false},
        {"7g.80gb", 7, 8, 80, {0}, 1, false},
    };
    return gpu;
}

inline engine::GpuSpec a100()
{
    engine::GpuSpec g = h100Sxm();
    g.id = "a100-sxm-80gb";
    g.name = "NVIDIA A100 SXM 80GB";
    g.draProductName = "NVIDIA A100-SXM4-80GB";
    g.hbmBandwidthGBps = 2039;
    g.bf16Tflops = 312;
    g.fp8Tflops = 0;
    return g;
}

inline engine::ScenarioInputs scenarioInputs()
{
    engine::ScenarioInputs in;
    in.workloads = {scenarioChat()};
    in.gpus = {h100Sxm(), a100()};
    in.models = {llama31_8b()};
    in.rateCards = {card("Test", "r1", "h100-sxm", "2026-01-01", "6.88", "5.00", "4.00", "2.50", 12),
                    card("Test", "r1", "h100-sxm", "2025-01-01", "9.00", "7.00", "6.00", "3.00", 12),
                    card("Golden", "g", "h100-sxm", "2025-01-01", "3.99", "0", "0", "0", 0)};
    in.migProfiles = {h100MigProfiles()};
    // The fixture's GPU counts (10 replicas for memory) hold every open session's KV.
    in.serving.residency = engine::KvResidency::Session;
    return in;
}

inline engine::Pool pool(const std::string &name, engine::PoolTier tier, engine::PoolSizing sizing, int64_t gpus,
                         std::vector<std::string> workloads, const std::string &gpu = "h100-sxm")
{
    engine::Pool p;
    p.name = name;
    p.gpuId = gpu;
    p.tier = tier;
    p.sizing = sizing;
    p.gpus = gpus;
    p.workloads = std::move(workloads);
    return p;
}

inline engine::Scenario scenarioOn(const std::string &name, const std::string &provider, const std::string &region)
{
    engine::Scenario s;
    s.name = name;
    s.provider = provider;
    s.region = region;
    s.horizonMonths = 12;
    s.startDate = "2025-01-01"; // a common year: the 12-month term is 8,760 h
    return s;
}

} // namespace headroom::test
