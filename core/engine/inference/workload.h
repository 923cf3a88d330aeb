#pragma once

#include "engine/catalog/specs.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// A workload profile (DESIGN §3.2): the facts a plan starts from — users, requests, token
// lengths, cache hit rate, latency SLOs — never a GPU count.
namespace headroom::engine {

enum class WorkloadClass { FlagshipInteractive, InternalTool, Batch, Embedding };
enum class Isolation { None, Soft, Regulated };
enum class DiurnalPreset { BusinessHours, EveningPeak, Flat };

std::string_view toString(WorkloadClass c);    // "flagship", "internal", "batch", "embedding"
std::string_view toString(Isolation i);        // "none", "soft", "regulated"
std::optional<WorkloadClass> parseWorkloadClass(std::string_view text);
std::optional<Isolation> parseIsolation(std::string_view text);

// P50 and P95 of a token-length distribution, tokens.
struct TokenPercentiles {
    double p50 = 0;
    double p95 = 0;
};

// Largest tensor-parallel degree a replica may span (an NVL72 rack domain).
constexpr int kMaxTp = 72;

struct WorkloadProfile {
    std::string name;                   // unique in a workspace
    std::string tenant;
    std::string modelId;                // catalog model
    WeightPrecision weights = WeightPrecision::Bf16;
    KvPrecision kv = KvPrecision::Bf16;
    WorkloadClass workloadClass = WorkloadClass::FlagshipInteractive;
    double dailyActiveUsers = 0;        // users per day
    double requestsPerUserPerDay = 0;
    double peakSessionsPerUser = 0.1;   // concurrent sessions per active user at the daily peak
    std::array<double, 24> diurnal{};   // relative traffic per UTC hour; any positive scale
    TokenPercentiles promptTokens;
    TokenPercentiles outputTokens;
    double prefixHitRate = 0;           // [0, 1]
    int64_t sharedPrefixTokens = 0;     // system prompt held once per replica
    double ttftP95Ms = 2000;            // time to first token SLO, ms
    double itlP95Ms = 50;               // inter-token latency SLO, ms
    double trafficVariance = 1.5;       // P95 / mean of traffic, ≥ 1
    std::optional<double> measuredGoodputTokensPerS; // per replica at SLO; wins over the estimate
    std::optional<int64_t> measuredMaxStreams;       // per replica
    // Where the measured goodput comes from when it was not measured on real replicas, e.g.
    // "serving simulation of trace.jsonl: 8 replicas, KV-aware router" (empty: measured).
    std::string goodputSource;
    Isolation isolation = Isolation::None;
    std::string gpuId;                  // catalog GPU
    int tp = 1;
};

// Normalised so that the largest hour is 1.
std::array<double, 24> diurnalShape(DiurnalPreset preset);

// GPUs the workload needs in each UTC hour of a day when it needs `peakGpus` at its busiest
// hour: the peak scaled by the diurnal curve relative to its highest hour (a flat day when
// the curve is all zero).
std::array<double, 24> hourlyGpuNeed(const WorkloadProfile &workload, double peakGpus);

// Range checks with field names as the workload JSON keys ("prefix_hit_rate", "prompt_p95", ...):
// hit rate outside [0, 1], P95 below P50, non-positive users/requests/SLOs, variance below 1,
// an all-zero diurnal curve, tp < 1.
std::vector<FieldProblem> validate(const WorkloadProfile &workload);

} // namespace headroom::engine
