#include "telemetry.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace headroom::engine {

namespace {

constexpr int64_t kHour = 3600;
constexpr int64_t kMaxHours = 20 * 8784;   // twenty leap years of hours
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int64_t hourFloor(int64_t seconds)
{
    const int64_t q = seconds / kHour;
    return (seconds % kHour < 0 ? q - 1 : q) * kHour;
}

std::string lineText(int line) { return line > 0 ? " (line " + std::to_string(line) + ")" : std::string(); }

// Runs of NaN hours of a series on the axis starting at `start`.
std::vector<HourGap> findGaps(const std::vector<double> &values, int64_t start)
{
    std::vector<HourGap> gaps;
    for (size_t h = 0; h < values.size(); ++h) {
        if (!std::isnan(values[h]))
            continue;
        const int64_t at = start + int64_t(h) * kHour;
        if (!gaps.empty() && gaps.back().lastHourEpoch + kHour == at) {
            gaps.back().lastHourEpoch = at;
            ++gaps.back().hours;
        } else {
            gaps.push_back({at, at, 1});
        }
    }
    return gaps;
}

} // namespace

std::string PrimitiveKey::label() const { return tenant + " / " + model + " / " + workloadType; }

bool operator==(const PrimitiveKey &a, const PrimitiveKey &b)
{
    return a.tenant == b.tenant && a.model == b.model && a.workloadType == b.workloadType;
}

bool operator<(const PrimitiveKey &a, const PrimitiveKey &b)
{
    return std::tie(a.tenant, a.model, a.workloadType) < std::tie(b.tenant, b.model, b.workloadType);
}

int PrimitiveSeries::missingHours() const
{
    int n = 0;
    for (const HourGap &g : gaps)
        n += g.hours;
    return n;
}

bool HourlyTelemetry::hasGaps() const
{
    return std::any_of(primitives.begin(), primitives.end(),
                       [](const PrimitiveSeries &p) { return !p.gaps.empty(); });
}

std::vector<double> HourlyTelemetry::total() const
{
    std::vector<double> sum(size_t(hours), 0.0);
    for (const PrimitiveSeries &p : primitives)
        for (size_t h = 0; h < sum.size() && h < p.gpus.size(); ++h)
            sum[h] += p.gpus[h];   // NaN propagates
    return sum;
}

HourlyTelemetry aggregateHourly(const std::vector<TelemetrySample> &samples)
{
    if (samples.empty())
        throw InputError("samples", "there are no telemetry samples");
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    for (const TelemetrySample &s : samples) {
        if (!std::isfinite(s.gpus) || s.gpus < 0.0)
            throw InputError("gpus", "GPUs in use must be a finite number ≥ 0, got "
                                         + std::to_string(s.gpus) + " for " + s.key.label()
                                         + lineText(s.line));
        if (s.epochSeconds < 0)
            throw InputError("timestamp", "timestamps before 1970 are not supported" + lineText(s.line));
        first = std::min(first, s.epochSeconds);
        last = std::max(last, s.epochSeconds);
    }
    HourlyTelemetry out;
    out.startEpochSeconds = hourFloor(first);
    const int64_t hours = (hourFloor(last) - out.startEpochSeconds) / kHour + 1;
    if (hours > kMaxHours)
        throw InputError("timestamp", "the samples span " + std::to_string(hours)
                                          + " hours, more than 20 years");
    out.hours = int(hours);

    // Samples are gathered sparse (hour → sum and count, one entry per hour with samples), so
    // memory follows the file, not the span; the dense series below are allocated only after
    // their size is checked.
    struct HourSum {
        double sum = 0;
        int count = 0;
    };
    struct Accumulator {
        std::map<int64_t, HourSum> hours;   // hour index → samples in it
        std::map<int64_t, int> seen;        // timestamp → line of the kept sample
        int samples = 0;
    };
    std::map<PrimitiveKey, Accumulator> byKey;
    for (const TelemetrySample &s : samples) {
        Accumulator &acc = byKey[s.key];
        const auto [it, inserted] = acc.seen.emplace(s.epochSeconds, s.line);
        if (!inserted) {
            out.duplicates.push_back({s.key, s.epochSeconds, it->second, s.line});
            continue;
        }
        HourSum &hour = acc.hours[(hourFloor(s.epochSeconds) - out.startEpochSeconds) / kHour];
        hour.sum += s.gpus;
        ++hour.count;
        ++acc.samples;
    }
    if (byKey.size() > size_t(kMaxTelemetryPrimitives))
        throw InputError("samples", "the samples name " + std::to_string(byKey.size())
                                        + " primitives (tenant × model × workload type), more than "
                                        + std::to_string(kMaxTelemetryPrimitives));
    const int64_t cells = int64_t(byKey.size()) * hours;
    if (cells > kMaxTelemetryHourlyValues)
        throw InputError("timestamp", std::to_string(byKey.size()) + " primitives over "
                                          + std::to_string(hours) + " hours need "
                                          + std::to_string(cells) + " hourly values, more than "
                                          + std::to_string(kMaxTelemetryHourlyValues)
                                          + "; import a shorter span or fewer primitives");
    for (auto &[key, acc] : byKey) {
        PrimitiveSeries series;
        series.key = key;
        series.samples = acc.samples;
        series.gpus.assign(size_t(hours), kNaN);
        for (const auto &[h, hour] : acc.hours)
            series.gpus[size_t(h)] = hour.sum / double(hour.count);
        series.gaps = findGaps(series.gpus, out.startEpochSeconds);
        out.primitives.push_back(std::move(series));
    }
    return out;
}

std::vector<double> fillGaps(const std::vector<double> &series, GapPolicy policy)
{
    std::vector<size_t> observed;
    for (size_t i = 0; i < series.size(); ++i)
        if (!std::isnan(series[i]))
            observed.push_back(i);
    if (observed.empty())
        throw InputError("gaps", "the series has no observed hour to fill its gaps from");
    if (observed.size() == series.size())
        return series;
    if (policy == GapPolicy::Refuse) {
        size_t firstMissing = 0;
        while (!std::isnan(series[firstMissing]))
            ++firstMissing;
        throw InputError("gaps", "the series has " + std::to_string(series.size() - observed.size())
                                     + " missing hours, the first at hour " + std::to_string(firstMissing)
                                     + "; choose a gap policy (zero, carry forward, interpolate)");
    }
    std::vector<double> out = series;
    for (size_t i = 0; i < out.size(); ++i) {
        if (!std::isnan(out[i]))
            continue;
        // Observed neighbours: the last one before i and the first one after.
        const auto after = std::upper_bound(observed.begin(), observed.end(), i);
        const bool hasAfter = after != observed.end();
        const bool hasBefore = after != observed.begin();
        switch (policy) {
        case GapPolicy::Zero: out[i] = 0.0; break;
        case GapPolicy::CarryForward: out[i] = series[hasBefore ? *(after - 1) : *after]; break;
        case GapPolicy::Interpolate:
            if (hasBefore && hasAfter) {
                const size_t a = *(after - 1), b = *after;
                const double t = double(i - a) / double(b - a);
                out[i] = series[a] + t * (series[b] - series[a]);
            } else {
                out[i] = series[hasBefore ? *(after - 1) : *after];
            }
            break;
        case GapPolicy::Refuse: break;
        }
    }
    return out;
}

PodDemand demandFromPods(const std::vector<PodRecord> &pods, PodSplit split)
{
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    PodDemand out;
    std::vector<const PodRecord *> counted;
    for (const PodRecord &pod : pods) {
        if (pod.gpus < 0)
            throw InputError("num_gpu", "pod " + pod.name + " asks for " + std::to_string(pod.gpus)
                                            + " GPUs" + lineText(pod.line));
        if (pod.gpuMilli < 0 || pod.gpuMilli > 1000)
            throw InputError("gpu_milli", "pod " + pod.name + " has a GPU share of "
                                              + std::to_string(pod.gpuMilli) + ", outside 0..1000"
                                              + lineText(pod.line));
        if (pod.gpus == 0 || pod.gpuMilli == 0 || pod.deletionTime <= pod.creationTime) {
            ++out.podsSkipped;
            continue;
        }
        counted.push_back(&pod);
        first = std::min(first, pod.creationTime);
        last = std::max(last, pod.deletionTime);
    }
    if (counted.empty())
        throw InputError("pods", "no pod asks for GPUs over a positive lifetime");
    out.podsCounted = int(counted.size());
    out.startSeconds = hourFloor(first);
    const int64_t hours = (last - out.startSeconds + kHour - 1) / kHour;
    if (hours > kMaxHours)
        throw InputError("pods", "the pods span " + std::to_string(hours) + " hours, more than 20 years");
    out.hours = int(hours);

    auto className = [split](const PodRecord &pod) -> std::string {
        switch (split) {
        case PodSplit::GpuModel: return pod.gpuSpec.empty() ? "any" : pod.gpuSpec;
        case PodSplit::Qos: return pod.qos.empty() ? "unknown" : pod.qos;
        case PodSplit::None: break;
        }
        return "total";
    };
    std::map<std::string, std::vector<double>> byClass;
    for (const PodRecord *pod : counted)
        byClass.try_emplace(className(*pod));
    // The series are dense (one value per hour and class): check their size first.
    const int64_t cells = int64_t(byClass.size() + 1) * hours;
    if (cells > kMaxTelemetryHourlyValues)
        throw InputError("pods", std::to_string(byClass.size()) + " classes over "
                                     + std::to_string(hours) + " hours need " + std::to_string(cells)
                                     + " hourly values, more than "
                                     + std::to_string(kMaxTelemetryHourlyValues)
                                     + "; split by fewer classes or cut the trace");
    for (const PodRecord *pod : counted) {
        std::vector<double> &series = byClass[className(*pod)];
        if (series.empty())
            series.assign(size_t(hours), 0.0);
        const double gpus = double(pod->gpus) * double(pod->gpuMilli) / 1000.0;
        int64_t t = pod->creationTime;
        while (t < pod->deletionTime) {
            const int64_t hourStart = hourFloor(t);
            const int64_t end = std::min(pod->deletionTime, hourStart + kHour);
            series[size_t((hourStart - out.startSeconds) / kHour)] += gpus * double(end - t) / double(kHour);
            t = end;
        }
    }
    out.total.assign(size_t(hours), 0.0);
    for (auto &[name, series] : byClass) {
        for (size_t h = 0; h < series.size(); ++h)
            out.total[h] += series[h];
        out.names.push_back(name);
        out.gpus.push_back(std::move(series));
    }
    return out;
}

} // namespace headroom::engine
