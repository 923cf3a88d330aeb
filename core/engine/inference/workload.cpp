#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace headroom::engine {

namespace {

// Generous upper bounds that catch unit mistakes (ms entered as s × 1000, users in units of
// one) without restricting any real deployment.
constexpr double kMaxUsers = 1e10;
constexpr double kMaxRequestsPerUser = 1e6;
constexpr double kMaxTokens = 1e9;
constexpr double kMaxSloMs = 3.6e6;   // one hour

std::string show(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

class WorkloadChecker {
public:
    explicit WorkloadChecker(std::vector<FieldProblem> &problems) : m_problems(problems) {}

    void add(const char *field, const std::string &message) { m_problems.push_back({field, message}); }

    void notEmpty(const char *field, const std::string &text)
    {
        if (text.empty())
            add(field, std::string(field) + " must not be empty");
    }

    // (0, maximum]
    void positive(const char *field, double value, double maximum)
    {
        if (!(value > 0 && value <= maximum))
            add(field, std::string(field) + " must be greater than 0 and at most " + show(maximum)
                           + " (got " + show(value) + ")");
    }

    void between(const char *field, double value, double minimum, double maximum)
    {
        if (!(value >= minimum && value <= maximum))
            add(field, std::string(field) + " must be between " + show(minimum) + " and "
                           + show(maximum) + " (got " + show(value) + ")");
    }

    // A P95 never lies below its P50.
    void percentiles(const char *p50Field, const char *p95Field, const TokenPercentiles &tokens)
    {
        const size_t before = m_problems.size();
        between(p50Field, tokens.p50, 1, kMaxTokens);
        between(p95Field, tokens.p95, 1, kMaxTokens);
        if (m_problems.size() == before && tokens.p95 < tokens.p50)
            add(p95Field, std::string(p95Field) + " (" + show(tokens.p95)
                              + ") must be at least " + p50Field + " (" + show(tokens.p50) + ")");
    }

private:
    std::vector<FieldProblem> &m_problems;
};

} // namespace

std::string_view toString(WorkloadClass c)
{
    switch (c) {
    case WorkloadClass::FlagshipInteractive: return "flagship";
    case WorkloadClass::InternalTool: return "internal";
    case WorkloadClass::Batch: return "batch";
    case WorkloadClass::Embedding: return "embedding";
    }
    return "flagship";
}

std::string_view toString(Isolation i)
{
    switch (i) {
    case Isolation::None: return "none";
    case Isolation::Soft: return "soft";
    case Isolation::Regulated: return "regulated";
    }
    return "none";
}

std::optional<WorkloadClass> parseWorkloadClass(std::string_view text)
{
    for (WorkloadClass c : {WorkloadClass::FlagshipInteractive, WorkloadClass::InternalTool,
                            WorkloadClass::Batch, WorkloadClass::Embedding}) {
        if (text == toString(c))
            return c;
    }
    return std::nullopt;
}

std::optional<Isolation> parseIsolation(std::string_view text)
{
    for (Isolation i : {Isolation::None, Isolation::Soft, Isolation::Regulated}) {
        if (text == toString(i))
            return i;
    }
    return std::nullopt;
}

std::array<double, 24> diurnalShape(DiurnalPreset preset)
{
    switch (preset) {
    case DiurnalPreset::BusinessHours:
        // Office use: a plateau 09:00–17:00 with ramps either side and a quiet night.
        return {0.10, 0.08, 0.08, 0.08, 0.08, 0.10, 0.15, 0.30, 0.60, 1.00, 1.00, 1.00,
                1.00, 1.00, 1.00, 1.00, 1.00, 0.70, 0.45, 0.30, 0.25, 0.20, 0.15, 0.12};
    case DiurnalPreset::EveningPeak:
        // Consumer use: moderate through the day, a peak 19:00–23:00, low before dawn.
        return {0.60, 0.40, 0.25, 0.15, 0.10, 0.10, 0.15, 0.25, 0.35, 0.40, 0.45, 0.50,
                0.55, 0.55, 0.50, 0.50, 0.55, 0.60, 0.80, 1.00, 1.00, 1.00, 1.00, 0.80};
    case DiurnalPreset::Flat:
        break;
    }
    std::array<double, 24> flat{};
    flat.fill(1.0);
    return flat;
}

std::vector<FieldProblem> validate(const WorkloadProfile &workload)
{
    std::vector<FieldProblem> problems;
    WorkloadChecker check(problems);

    check.notEmpty("name", workload.name);
    check.notEmpty("model", workload.modelId);
    check.positive("daily_active_users", workload.dailyActiveUsers, kMaxUsers);
    check.positive("requests_per_user_per_day", workload.requestsPerUserPerDay, kMaxRequestsPerUser);
    check.positive("peak_sessions_per_user", workload.peakSessionsPerUser, kMaxRequestsPerUser);

    bool diurnalOk = true;
    double diurnalMax = 0;
    for (double hour : workload.diurnal) {
        if (!(hour >= 0 && std::isfinite(hour)))
            diurnalOk = false;
        else
            diurnalMax = std::max(diurnalMax, hour);
    }
    if (!diurnalOk)
        check.add("diurnal", "diurnal values must be finite and at least 0");
    else if (!(diurnalMax > 0))
        check.add("diurnal", "diurnal must have at least one hour with traffic (all 24 hours are 0)");

    check.percentiles("prompt_p50", "prompt_p95", workload.promptTokens);
    check.percentiles("output_p50", "output_p95", workload.outputTokens);
    check.between("prefix_hit_rate", workload.prefixHitRate, 0, 1);
    if (workload.sharedPrefixTokens < 0 || workload.sharedPrefixTokens > int64_t(kMaxTokens))
        check.add("shared_prefix_tokens", "shared_prefix_tokens must be between 0 and "
                                              + show(kMaxTokens) + " (got "
                                              + std::to_string(workload.sharedPrefixTokens) + ")");
    check.positive("ttft_p95_ms", workload.ttftP95Ms, kMaxSloMs);
    check.positive("itl_p95_ms", workload.itlP95Ms, kMaxSloMs);
    check.between("traffic_variance", workload.trafficVariance, 1, 100);
    if (workload.measuredGoodputTokensPerS)
        check.positive("measured_goodput_tokens_per_s", *workload.measuredGoodputTokensPerS, 1e9);
    if (workload.goodputSource.size() > 500)
        check.add("goodput_source", "goodput_source must be at most 500 characters (got "
                                        + std::to_string(workload.goodputSource.size()) + ")");
    if (!workload.goodputSource.empty() && !workload.measuredGoodputTokensPerS)
        check.add("goodput_source", "goodput_source describes measured_goodput_tokens_per_s, which is missing");
    if (workload.measuredMaxStreams && *workload.measuredMaxStreams < 1)
        check.add("measured_max_streams", "measured_max_streams must be at least 1 (got "
                                              + std::to_string(*workload.measuredMaxStreams) + ")");
    check.notEmpty("gpu", workload.gpuId);
    if (workload.tp < 1 || workload.tp > kMaxTp)
        check.add("tp", "tp must be between 1 and " + std::to_string(kMaxTp) + " (got "
                            + std::to_string(workload.tp) + ")");
    return problems;
}

std::array<double, 24> hourlyGpuNeed(const WorkloadProfile &workload, double peakGpus)
{
    const double top = *std::max_element(workload.diurnal.begin(), workload.diurnal.end());
    std::array<double, 24> need{};
    for (size_t h = 0; h < need.size(); ++h)
        need[h] = top > 0 ? peakGpus * std::max(0.0, workload.diurnal[h]) / top : peakGpus;
    return need;
}

} // namespace headroom::engine
