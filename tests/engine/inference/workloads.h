#pragma once

#include "common/models.h"

#include "engine/inference/workload.h"

// Workload profiles used as sizing fixtures. Expected values in the tests were worked out
// from the DESIGN §3.2 formulas with python3 on the fixtures below (H100 SXM, Llama 3.1 8B).
namespace headroom::test {

// A chat assistant: 50,000 users, 20 requests a day, 10 % of users in a session at peak,
// prompts 1,000 / 4,000 tokens, answers 300 / 1,000 tokens (P50 / P95), flat day.
inline engine::WorkloadProfile chatWorkload()
{
    engine::WorkloadProfile w;
    w.name = "chat";
    w.tenant = "product";
    w.modelId = "llama-3.1-8b";
    w.weights = engine::WeightPrecision::Bf16;
    w.kv = engine::KvPrecision::Bf16;
    w.dailyActiveUsers = 50000;
    w.requestsPerUserPerDay = 20;
    w.peakSessionsPerUser = 0.1;
    w.diurnal = engine::diurnalShape(engine::DiurnalPreset::Flat);
    w.promptTokens = {1000, 4000};
    w.outputTokens = {300, 1000};
    w.prefixHitRate = 0.2;
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    w.trafficVariance = 1.5;
    w.gpuId = "h100-sxm";
    w.tp = 1;
    return w;
}

// Long documents, many open sessions, few requests: memory binds.
inline engine::WorkloadProfile longContextWorkload()
{
    engine::WorkloadProfile w = chatWorkload();
    w.name = "long-context";
    w.requestsPerUserPerDay = 2;
    w.peakSessionsPerUser = 0.2;
    w.promptTokens = {8000, 32000};
    w.outputTokens = {300, 2000};
    w.ttftP95Ms = 5000;
    return w;
}

// Short requests at a high rate with a tight 15 ms ITL: compute binds.
inline engine::WorkloadProfile highRateWorkload()
{
    engine::WorkloadProfile w = chatWorkload();
    w.name = "high-rate";
    w.dailyActiveUsers = 1000000;
    w.requestsPerUserPerDay = 50;
    w.peakSessionsPerUser = 0.001;
    w.promptTokens = {200, 400};
    w.outputTokens = {100, 200};
    w.prefixHitRate = 0;
    w.itlP95Ms = 15;
    return w;
}

} // namespace headroom::test
