#include "workloadsamples.h"

namespace headroom::store::test {

engine::WorkloadProfile sampleWorkload(const std::string &name)
{
    engine::WorkloadProfile workload;
    workload.name = name;
    workload.tenant = "Support \"EU\", ünïcode";
    workload.modelId = "llama-3.1-70b";
    workload.weights = engine::WeightPrecision::Int4;
    workload.kv = engine::KvPrecision::Fp8;
    workload.workloadClass = engine::WorkloadClass::InternalTool;
    workload.dailyActiveUsers = 123456.5;
    workload.requestsPerUserPerDay = 7.25;
    workload.peakSessionsPerUser = 0.037;
    for (size_t hour = 0; hour < workload.diurnal.size(); ++hour)
        workload.diurnal[hour] = 0.1 + 0.0371 * double(hour);
    workload.promptTokens = {1020.5, 4083.25};
    workload.outputTokens = {129, 451.75};
    workload.prefixHitRate = 0.3664;
    workload.sharedPrefixTokens = 123457;
    workload.ttftP95Ms = 1750.5;
    workload.itlP95Ms = 42.125;
    workload.trafficVariance = 2.35;
    workload.measuredGoodputTokensPerS = 18234.75;
    workload.measuredMaxStreams = 96;
    workload.goodputSource = "serving simulation of trace.jsonl: 6 replicas, “KV-aware” router";
    workload.isolation = engine::Isolation::Regulated;
    workload.gpuId = "h200";
    workload.tp = 4;
    return workload;
}

std::string firstDifference(const engine::WorkloadProfile &a, const engine::WorkloadProfile &b)
{
    if (a.name != b.name) return "name";
    if (a.tenant != b.tenant) return "tenant";
    if (a.modelId != b.modelId) return "model";
    if (a.weights != b.weights) return "weights";
    if (a.kv != b.kv) return "kv_dtype";
    if (a.workloadClass != b.workloadClass) return "class";
    if (a.dailyActiveUsers != b.dailyActiveUsers) return "daily_active_users";
    if (a.requestsPerUserPerDay != b.requestsPerUserPerDay) return "requests_per_user_per_day";
    if (a.peakSessionsPerUser != b.peakSessionsPerUser) return "peak_sessions_per_user";
    if (a.diurnal != b.diurnal) return "diurnal";
    if (a.promptTokens.p50 != b.promptTokens.p50) return "prompt_p50";
    if (a.promptTokens.p95 != b.promptTokens.p95) return "prompt_p95";
    if (a.outputTokens.p50 != b.outputTokens.p50) return "output_p50";
    if (a.outputTokens.p95 != b.outputTokens.p95) return "output_p95";
    if (a.prefixHitRate != b.prefixHitRate) return "prefix_hit_rate";
    if (a.sharedPrefixTokens != b.sharedPrefixTokens) return "shared_prefix_tokens";
    if (a.ttftP95Ms != b.ttftP95Ms) return "ttft_p95_ms";
    if (a.itlP95Ms != b.itlP95Ms) return "itl_p95_ms";
    if (a.trafficVariance != b.trafficVariance) return "traffic_variance";
    if (a.measuredGoodputTokensPerS != b.measuredGoodputTokensPerS)
        return "measured_goodput_tokens_per_s";
    if (a.measuredMaxStreams != b.measuredMaxStreams) return "measured_max_streams";
    if (a.goodputSource != b.goodputSource) return "goodput_source";
    if (a.isolation != b.isolation) return "isolation";
    if (a.gpuId != b.gpuId) return "gpu";
    if (a.tp != b.tp) return "tp";
    return {};
}

} // namespace headroom::store::test
