#include "serving_metrics.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace headroom::engine {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct NameOf {
    ServingMetric metric;
    std::string_view name;
};
constexpr NameOf kNames[] = {
    {ServingMetric::GpuUtil, "DCGM_FI_DEV_GPU_UTIL"},
    {ServingMetric::FbUsedMib, "DCGM_FI_DEV_FB_USED"},
    {ServingMetric::RequestsRunning, "vllm:num_requests_running"},
    {ServingMetric::RequestsWaiting, "vllm:num_requests_waiting"},
    {ServingMetric::KvCacheUsage, "vllm:gpu_cache_usage_perc"},
    {ServingMetric::KvCacheUsage, "vllm:kv_cache_usage_perc"},   // its name from vLLM 0.10 on
    {ServingMetric::RequestSuccessTotal, "vllm:request_success_total"},
    {ServingMetric::GenerationTokensTotal, "vllm:generation_tokens_total"},
    {ServingMetric::PromptTokensTotal, "vllm:prompt_tokens_total"},
    {ServingMetric::TtftBucket, "vllm:time_to_first_token_seconds_bucket"},
    {ServingMetric::E2eBucket, "vllm:e2e_request_latency_seconds_bucket"},
};

int64_t floorDiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

// Running mean and peak of a gauge within one hour.
struct Gauge {
    double sum = 0.0;
    int64_t count = 0;
    double peak = 0.0;
    void add(double v)
    {
        sum += v;
        peak = count == 0 ? v : std::max(peak, v);
        ++count;
    }
    double mean() const { return count ? sum / double(count) : kNaN; }
    double max() const { return count ? peak : kNaN; }
};

struct HourAcc {
    std::set<std::string> gpus;
    Gauge util, fb, kv, running, waiting;
    CounterHour requests, generation, prompt;
    std::map<double, double> ttft, e2e;   // le → increase
};

LatencyHistogram histogramOf(const std::map<double, double> &buckets)
{
    LatencyHistogram h;
    h.buckets.assign(buckets.begin(), buckets.end());
    return h;
}

std::string fixed(double value, int decimals)
{
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(decimals);
    out << value;
    return out.str();
}

std::string hourText(int64_t hour)
{
    const int64_t day = floorDiv(hour, 24);
    const int64_t h = hour - day * 24;
    return isoDate(dateFromDays(day)) + ' ' + (h < 10 ? "0" : "") + std::to_string(h) + ":00 UTC";
}

// Nearest rank: the smallest value with at least q of the values at or below it.
double nearestRank(std::vector<double> values, double q)
{
    std::sort(values.begin(), values.end());
    const auto n = int64_t(values.size());
    int64_t rank = int64_t(std::ceil(q * double(n) - 1e-9));
    rank = std::clamp<int64_t>(rank, 1, n);
    return values[size_t(rank - 1)];
}

double loadOf(const ServingHour &h, LoadMeasure measure)
{
    return measure == LoadMeasure::Tokens ? h.generationTokens.perSecond() : h.requests.perSecond();
}

bool hasLoad(const ServingHour &h, LoadMeasure measure)
{
    return measure == LoadMeasure::Tokens ? h.generationTokens.measured() : h.requests.measured();
}

std::string unitOf(LoadMeasure measure)
{
    return measure == LoadMeasure::Tokens ? "tokens/s" : "requests/s";
}

} // namespace

std::string_view metricName(ServingMetric metric)
{
    for (const NameOf &entry : kNames)
        if (entry.metric == metric)
            return entry.name;
    return {};
}

std::vector<std::string_view> servingMetricNames()
{
    std::vector<std::string_view> names;
    for (const NameOf &entry : kNames)
        names.push_back(entry.name);
    return names;
}

std::optional<ServingMetric> parseServingMetric(std::string_view name)
{
    for (const NameOf &entry : kNames)
        if (entry.name == name)
            return entry.metric;
    return std::nullopt;
}

bool isCounter(ServingMetric metric)
{
    return metric == ServingMetric::RequestSuccessTotal || metric == ServingMetric::GenerationTokensTotal
        || metric == ServingMetric::PromptTokensTotal || isHistogramBucket(metric);
}

bool isHistogramBucket(ServingMetric metric)
{
    return metric == ServingMetric::TtftBucket || metric == ServingMetric::E2eBucket;
}

void LatencyHistogram::add(const LatencyHistogram &other)
{
    // Cumulative count at `le` of a histogram: its count at the largest bound ≤ le.
    const auto at = [](const LatencyHistogram &h, double le) {
        double count = 0.0;
        for (const auto &[bound, c] : h.buckets)
            if (bound <= le)
                count = c;
        return count;
    };
    std::set<double> bounds;
    for (const auto &b : buckets)
        bounds.insert(b.first);
    for (const auto &b : other.buckets)
        bounds.insert(b.first);
    std::vector<std::pair<double, double>> merged;
    merged.reserve(bounds.size());
    for (double le : bounds)
        merged.emplace_back(le, at(*this, le) + at(other, le));
    buckets = std::move(merged);
}

double LatencyHistogram::quantile(double q) const
{
    if (buckets.empty() || !(q >= 0.0 && q <= 1.0))
        return kNaN;
    // Scrapes of the bucket series are not atomic: keep the counts monotonic, as Prometheus does.
    std::vector<std::pair<double, double>> b = buckets;
    for (size_t i = 1; i < b.size(); ++i)
        b[i].second = std::max(b[i].second, b[i - 1].second);
    const double total = b.back().second;
    if (!(total > 0.0))
        return kNaN;
    const double rank = q * total;
    for (size_t i = 0; i < b.size(); ++i) {
        if (b[i].second < rank)
            continue;
        if (std::isinf(b[i].first))
            return i > 0 ? b[i - 1].first : kNaN;   // the largest finite bound
        const double lower = i > 0 ? b[i - 1].first : 0.0;
        const double below = i > 0 ? b[i - 1].second : 0.0;
        const double inBucket = b[i].second - below;
        if (inBucket <= 0.0)
            return b[i].first;
        return lower + (b[i].first - lower) * (rank - below) / inBucket;
    }
    return b.back().first;
}

bool isGpuMetric(ServingMetric metric)
{
    return metric == ServingMetric::GpuUtil || metric == ServingMetric::FbUsedMib;
}

std::string_view toString(LoadMeasure measure)
{
    return measure == LoadMeasure::Tokens ? "tokens" : "requests";
}

std::string_view toString(LatencyKind kind)
{
    return kind == LatencyKind::Ttft ? "TTFT" : "E2E latency";
}

ServingHours aggregateServingHours(std::vector<MetricSample> samples)
{
    ServingHoursBuilder builder;
    for (const MetricSample &s : samples)
        builder.add(builder.series(s.deployment, s.instance, s.gpu, s.metric, s.le), s.epochSeconds, s.value, s.line);
    samples.clear();
    return builder.finish();
}

int ServingHoursBuilder::series(const std::string &deployment, const std::string &instance, const std::string &gpu,
                                ServingMetric metric, double le)
{
    const auto [it, added] = m_index.try_emplace({deployment, instance, gpu, int(metric), le}, int(m_series.size()));
    if (added)
        m_series.push_back({deployment, instance, gpu, metric, le});
    return it->second;
}

void ServingHoursBuilder::add(int series, int64_t epochSeconds, double value, int line)
{
    m_samples.push_back({epochSeconds, value, int32_t(series), int32_t(line)});
}

ServingHours ServingHoursBuilder::finish()
{
    // Series in label order (deployment, instance, gpu, metric, le), then time: counters read
    // consecutive samples of one series.
    std::vector<int32_t> rank(m_series.size());
    {
        std::vector<int32_t> order(m_series.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = int32_t(i);
        std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
            const Series &x = m_series[size_t(a)], &y = m_series[size_t(b)];
            return std::tie(x.deployment, x.instance, x.gpu, x.metric, x.le) < std::tie(y.deployment, y.instance, y.gpu, y.metric, y.le);
        });
        for (size_t i = 0; i < order.size(); ++i)
            rank[size_t(order[i])] = int32_t(i);
    }
    // Samples placed by series rank in one pass (a counting sort), then each series put in
    // time order, which it usually is already (an export or an answer lists a series in time
    // order): linear in the samples, where one sort of them all was not.
    {
        std::vector<size_t> first(m_series.size() + 1, 0);
        for (const Sample &sample : m_samples)
            ++first[size_t(rank[size_t(sample.series)]) + 1];
        for (size_t r = 1; r < first.size(); ++r)
            first[r] += first[r - 1];
        std::vector<Sample> ordered(m_samples.size());
        std::vector<size_t> next(first.begin(), first.end() - 1);
        for (const Sample &sample : m_samples)
            ordered[next[size_t(rank[size_t(sample.series)])]++] = sample;
        std::vector<Sample>().swap(m_samples);
        const auto byTime = [](const Sample &a, const Sample &b) {
            return std::tie(a.epochSeconds, a.line) < std::tie(b.epochSeconds, b.line);
        };
        for (size_t r = 0; r + 1 < first.size(); ++r) {
            const auto begin = ordered.begin() + std::ptrdiff_t(first[r]);
            const auto end = ordered.begin() + std::ptrdiff_t(first[r + 1]);
            if (!std::is_sorted(begin, end, byTime))
                std::sort(begin, end, byTime);
        }
        m_samples = std::move(ordered);
    }
    ServingHours result;
    std::map<std::tuple<std::string, std::string, int64_t>, HourAcc> acc;
    HourAcc *current = nullptr;
    int64_t currentHour = 0;
    for (size_t i = 0; i < m_samples.size(); ++i) {
        const Sample &sample = m_samples[i];
        const Series &s = m_series[size_t(sample.series)];
        const bool sameSeries = i > 0 && m_samples[i - 1].series == sample.series;
        if (sameSeries && m_samples[i - 1].epochSeconds == sample.epochSeconds)
            throw InputError("timestamp", "lines " + std::to_string(m_samples[i - 1].line) + " and "
                                              + std::to_string(sample.line) + " both give "
                                              + std::string(metricName(s.metric)) + " of instance '" + s.instance + "'"
                                              + (s.gpu.empty() ? "" : " gpu " + s.gpu) + " at the same time");
        const int64_t hour = floorDiv(sample.epochSeconds, 3600);
        // One lookup per series and hour: the samples of an hour of one series are consecutive.
        if (!current || !sameSeries || hour != currentHour) {
            current = &acc[{s.deployment, s.instance, hour}];
            currentHour = hour;
            // The GPU of a per-GPU series counts in its replica's hour once, not per sample.
            if (s.metric == ServingMetric::GpuUtil || s.metric == ServingMetric::FbUsedMib)
                current->gpus.insert(s.gpu);
        }
        HourAcc &h = *current;
        switch (s.metric) {
        case ServingMetric::GpuUtil:
            h.util.add(sample.value);
            break;
        case ServingMetric::FbUsedMib:
            h.fb.add(sample.value);
            break;
        case ServingMetric::KvCacheUsage: h.kv.add(sample.value); break;
        case ServingMetric::RequestsRunning: h.running.add(sample.value); break;
        case ServingMetric::RequestsWaiting: h.waiting.add(sample.value); break;
        case ServingMetric::RequestSuccessTotal:
        case ServingMetric::GenerationTokensTotal:
        case ServingMetric::PromptTokensTotal:
        case ServingMetric::TtftBucket:
        case ServingMetric::E2eBucket: {
            if (!sameSeries)
                break;   // the first sample of a counter only sets its base
            const Sample &prev = m_samples[i - 1];
            double increase = sample.value - prev.value;
            if (sample.value < prev.value) {
                increase = sample.value;   // restarted from 0 within the interval
                ++result.counterResets;
            }
            if (isHistogramBucket(s.metric)) {
                // Summed over the GPU labels of a replica like the other counters.
                (s.metric == ServingMetric::TtftBucket ? h.ttft : h.e2e)[s.le] += increase;
                break;
            }
            CounterHour &c = s.metric == ServingMetric::RequestSuccessTotal     ? h.requests
                : s.metric == ServingMetric::GenerationTokensTotal ? h.generation
                                                                   : h.prompt;
            c.increase += increase;
            c.seconds += double(sample.epochSeconds - prev.epochSeconds);
            break;
        }
        }
    }
    m_samples.clear();
    m_samples.shrink_to_fit();
    m_series.clear();
    m_index.clear();
    result.hours.reserve(acc.size());
    for (const auto &[key, h] : acc) {
        ServingHour out;
        out.deployment = std::get<0>(key);
        out.instance = std::get<1>(key);
        out.hour = std::get<2>(key);
        out.gpus = int(h.gpus.size());
        out.gpuUtilMean = h.util.mean();
        out.gpuUtilPeak = h.util.max();
        out.fbUsedMibMean = h.fb.mean();
        out.kvCacheMean = h.kv.mean();
        out.runningMean = h.running.mean();
        out.waitingMean = h.waiting.mean();
        out.waitingPeak = h.waiting.max();
        out.requests = h.requests;
        out.generationTokens = h.generation;
        out.promptTokens = h.prompt;
        out.ttft = histogramOf(h.ttft);
        out.e2e = histogramOf(h.e2e);
        // A counter series' first sample gives no interval; a counter seen only then in an
        // hour leaves a zero-length measurement, which counts as none.
        result.hours.push_back(std::move(out));
    }
    return result;
}

ServingHours lastDays(const ServingHours &hours, int64_t days)
{
    if (days <= 0 || hours.hours.empty())
        return hours;
    int64_t last = hours.hours.front().hour;
    for (const ServingHour &h : hours.hours)
        last = std::max(last, h.hour);
    ServingHours kept;
    kept.counterResets = hours.counterResets;
    for (const ServingHour &h : hours.hours)
        if (h.hour > last - days * 24)
            kept.hours.push_back(h);
    return kept;
}

void validate(const ServingHour &h)
{
    auto check = [](double v, double lo, double hi, const char *field) {
        if (std::isnan(v))
            return;
        if (!std::isfinite(v) || v < lo || v > hi)
            throw InputError(field, std::string(field) + " " + fixed(v, 3) + " is outside [" + fixed(lo, 0) + ", "
                                        + (hi > 1e300 ? std::string("∞") : fixed(hi, 0)) + "]");
    };
    constexpr double inf = std::numeric_limits<double>::max();
    if (h.instance.empty())
        throw InputError("instance", "the instance is empty");
    if (h.gpus < 0)
        throw InputError("gpus", "GPUs is negative");
    check(h.gpuUtilMean, 0, 100, "gpu_util_mean");
    check(h.gpuUtilPeak, 0, 100, "gpu_util_peak");
    check(h.fbUsedMibMean, 0, inf, "fb_used_mib_mean");
    check(h.kvCacheMean, 0, 1, "kv_cache_mean");
    check(h.runningMean, 0, inf, "running_mean");
    check(h.waitingMean, 0, inf, "waiting_mean");
    check(h.waitingPeak, 0, inf, "waiting_peak");
    for (const auto &[histogram, name] : {std::pair{&h.ttft, "ttft"}, std::pair{&h.e2e, "e2e"}})
        for (const auto &[le, count] : histogram->buckets) {
            if (!(le > 0.0))
                throw InputError(name, std::string(name) + " bucket bound " + fixed(le, 3) + " is not a positive number of seconds");
            check(count, 0, inf, name);
        }
    for (const auto &[c, name] : {std::pair{&h.requests, "requests"}, std::pair{&h.generationTokens, "generation_tokens"},
                                  std::pair{&h.promptTokens, "prompt_tokens"}}) {
        check(c->increase, 0, inf, name);
        check(c->seconds, 0, inf, name);
    }
}

std::vector<ReplicaSummary> summarizeReplicas(const ServingHours &hours)
{
    std::vector<ReplicaSummary> out;
    struct Acc {
        Gauge util, kv, running, waiting;
        double utilPeak = kNaN, waitingPeak = kNaN;
        CounterHour req, gen;
        double genPeak = 0.0;
        LatencyHistogram ttft, e2e;
    };
    std::map<std::pair<std::string, std::string>, std::pair<ReplicaSummary, Acc>> byReplica;
    for (const ServingHour &h : hours.hours) {
        auto &[summary, a] = byReplica[{h.deployment, h.instance}];
        summary.deployment = h.deployment;
        summary.instance = h.instance;
        ++summary.hours;
        summary.gpus = std::max(summary.gpus, h.gpus);
        if (!std::isnan(h.gpuUtilMean))
            a.util.add(h.gpuUtilMean);
        if (!std::isnan(h.gpuUtilPeak))
            a.utilPeak = std::isnan(a.utilPeak) ? h.gpuUtilPeak : std::max(a.utilPeak, h.gpuUtilPeak);
        if (!std::isnan(h.kvCacheMean))
            a.kv.add(h.kvCacheMean);
        if (!std::isnan(h.runningMean))
            a.running.add(h.runningMean);
        if (!std::isnan(h.waitingMean))
            a.waiting.add(h.waitingMean);
        if (!std::isnan(h.waitingPeak))
            a.waitingPeak = std::isnan(a.waitingPeak) ? h.waitingPeak : std::max(a.waitingPeak, h.waitingPeak);
        a.req.increase += h.requests.increase;
        a.req.seconds += h.requests.seconds;
        a.gen.increase += h.generationTokens.increase;
        a.gen.seconds += h.generationTokens.seconds;
        if (h.generationTokens.measured())
            a.genPeak = std::max(a.genPeak, h.generationTokens.perSecond());
        a.ttft.add(h.ttft);
        a.e2e.add(h.e2e);
    }
    for (auto &[key, entry] : byReplica) {
        auto &[summary, a] = entry;
        summary.gpuUtilMean = a.util.mean();
        summary.gpuUtilPeak = a.utilPeak;
        summary.kvCacheMean = a.kv.mean();
        summary.runningMean = a.running.mean();
        summary.waitingMean = a.waiting.mean();
        summary.waitingPeak = a.waitingPeak;
        summary.ttftP50 = a.ttft.quantile(0.50);
        summary.ttftP95 = a.ttft.quantile(0.95);
        summary.e2eP95 = a.e2e.quantile(0.95);
        // No counter with two samples: not measured (NaN), rather than a rate of zero.
        summary.requestsPerSecond = a.req.measured() ? a.req.perSecond() : kNaN;
        summary.tokensPerSecond = a.gen.measured() ? a.gen.perSecond() : kNaN;
        summary.tokensPerSecondPeak = a.gen.measured() ? a.genPeak : kNaN;
        out.push_back(summary);
    }
    return out;
}

std::vector<RightsizingResult> rightsize(const ServingHours &hours, const RightsizingOptions &options)
{
    if (!(options.busyQuantile > 0.0 && options.busyQuantile <= 1.0))
        throw InputError("busy_quantile", "the busy-hour quantile must be in (0, 1]");
    if (!(options.maxWaiting >= 0.0) || !std::isfinite(options.maxWaiting))
        throw InputError("max_waiting", "the waiting limit must be ≥ 0");
    if (!(options.plannedHeadroom >= 0.0 && options.plannedHeadroom < 1.0))
        throw InputError("planned_headroom", "the planned headroom must be in [0, 1)");
    if (options.slo && !(options.slo->quantile > 0.0 && options.slo->quantile < 1.0))
        throw InputError("slo_quantile", "the SLO's quantile must be in (0, 1)");
    if (options.slo && !(options.slo->seconds > 0.0 && std::isfinite(options.slo->seconds)))
        throw InputError("slo_seconds", "the SLO's latency must be a positive number of seconds");
    const auto histogramOfKind = [&](const ServingHour &h) -> const LatencyHistogram & {
        return options.slo && options.slo->kind == LatencyKind::E2e ? h.e2e : h.ttft;
    };
    // The replica-hour's latency quantile against the SLO: true when there is no SLO or no
    // histogram of its kind to hold it to.
    const auto meetsSlo = [&](const LatencyHistogram &histogram) {
        return !options.slo || histogram.empty() || histogram.quantile(options.slo->quantile) <= options.slo->seconds;
    };

    std::map<std::string, std::vector<const ServingHour *>> byDeployment;
    for (const ServingHour &h : hours.hours)
        byDeployment[h.deployment].push_back(&h);

    std::vector<RightsizingResult> results;
    const std::string unit = unitOf(options.load);
    for (const auto &[deployment, rows] : byDeployment) {
        RightsizingResult r;
        r.deployment = deployment;
        r.load = options.load;
        r.plannedHeadroom = options.plannedHeadroom;
        r.ratePerGpuHour = options.ratePerGpuHour;
        r.slo = options.slo;
        r.busyLatency = kNaN;
        r.capacityLatency = kNaN;

        struct HourTotal {
            double load = 0.0;
            int replicas = 0;
            double waitingSum = 0.0;
            int waitingReplicas = 0;
            bool measured = false;
            LatencyHistogram latency;   // the SLO's kind, every replica together
        };
        std::map<int64_t, HourTotal> perHour;
        std::set<std::string> instances;
        for (const ServingHour *h : rows) {
            instances.insert(h->instance);
            HourTotal &t = perHour[h->hour];
            ++t.replicas;
            r.gpusPerReplica = std::max(r.gpusPerReplica, h->gpus);
            if (hasLoad(*h, options.load)) {
                t.load += loadOf(*h, options.load);
                t.measured = true;
            }
            if (!std::isnan(h->waitingMean)) {
                t.waitingSum += h->waitingMean;
                ++t.waitingReplicas;
            }
            const LatencyHistogram &latency = histogramOfKind(*h);
            if (options.slo && !latency.empty()) {
                ++r.sloHours;
                t.latency.add(latency);
            }
            // Demonstrated capacity: a whole hour carried without a queue (and within the SLO).
            if (hasLoad(*h, options.load) && !std::isnan(h->waitingMean) && h->waitingMean <= options.maxWaiting
                && meetsSlo(latency)) {
                const double load = loadOf(*h, options.load);
                if (load > r.capacityPerReplica) {
                    r.capacityPerReplica = load;
                    r.capacityInstance = h->instance;
                    r.capacityHour = h->hour;
                    r.capacityLatency = options.slo && !latency.empty() ? latency.quantile(options.slo->quantile) : kNaN;
                }
            }
        }
        std::vector<double> loads;
        for (const auto &[hour, t] : perHour)
            if (t.measured) {
                loads.push_back(t.load);
                r.loadByHour.push_back({hour, t.load, t.replicas});
            }
        // The fleet as it runs now: the replicas of the latest hour.
        r.currentReplicas = perHour.empty() ? 0 : perHour.rbegin()->second.replicas;
        r.hours = int64_t(loads.size());
        r.recommendedReplicas = r.currentReplicas;
        std::ostringstream why;
        why << deployment << ": " << r.currentReplicas << " replica" << (r.currentReplicas == 1 ? "" : "s");
        if (r.gpusPerReplica > 0)
            why << " of " << r.gpusPerReplica << " GPU" << (r.gpusPerReplica == 1 ? "" : "s");
        if (instances.size() > size_t(r.currentReplicas))
            why << " in the latest hour (" << instances.size() << " seen over the window)";
        if (loads.empty()) {
            why << "; no " << unit << " measured (the file has no "
                << (options.load == LoadMeasure::Tokens ? "vllm:generation_tokens_total" : "vllm:request_success_total")
                << " counter with two samples), so nothing to go by.";
            r.explanation = why.str();
            results.push_back(std::move(r));
            continue;
        }
        r.busyLoad = nearestRank(loads, options.busyQuantile);
        for (const auto &[hour, t] : perHour)
            if (t.measured && t.load == r.busyLoad) {
                r.busyHour = hour;
                break;
            }
        bool busyMissedSlo = false;
        for (const auto &[hour, t] : perHour) {
            if (!t.measured || t.load < r.busyLoad)
                continue;
            if (t.waitingReplicas > 0)
                r.busyWaitingPerReplica = std::max(r.busyWaitingPerReplica, t.waitingSum / t.waitingReplicas);
            if (options.slo && !t.latency.empty()) {
                const double q = t.latency.quantile(options.slo->quantile);
                r.busyLatency = std::isnan(r.busyLatency) ? q : std::max(r.busyLatency, q);
                busyMissedSlo = busyMissedSlo || q > options.slo->seconds;
            }
        }
        const bool busyQueued = r.busyWaitingPerReplica > options.maxWaiting;
        r.saturated = busyQueued || busyMissedSlo;
        std::string sloText;
        if (options.slo)
            sloText = std::string(toString(options.slo->kind)) + " P"
                + fixed(options.slo->quantile * 100.0, options.slo->quantile * 100.0 == std::floor(options.slo->quantile * 100.0) ? 0 : 1)
                + " ≤ " + fixed(options.slo->seconds * 1000.0, 0) + " ms";

        const std::string q = "P" + fixed(options.busyQuantile * 100.0, options.busyQuantile * 100.0 == std::floor(options.busyQuantile * 100.0) ? 0 : 1);
        why << "; busy-hour load (" << q << " of " << r.hours << " hours) " << fixed(r.busyLoad, 1) << ' ' << unit
            << " at " << hourText(r.busyHour) << ".";
        if (r.saturated) {
            if (busyQueued)
                why << " Requests queued at the busy hours (mean " << fixed(r.busyWaitingPerReplica, 2)
                    << " waiting per replica, above " << fixed(options.maxWaiting, 2) << ")";
            else
                why << " The busy hours missed the SLO " << sloText << " (" << fixed(r.busyLatency * 1000.0, 0)
                    << " ms across the replicas)";
            why << ": the deployment is at its capacity and the measured load understates demand, so no "
                   "replica can be released.";
            r.explanation = why.str();
            results.push_back(std::move(r));
            continue;
        }
        if (r.capacityPerReplica <= 0.0) {
            why << " No replica-hour carried load with a waiting queue of at most " << fixed(options.maxWaiting, 2)
                << (options.slo ? " within the SLO " + sloText : std::string())
                << " (or vllm:num_requests_waiting is missing), so the capacity per replica is not known.";
            r.explanation = why.str();
            results.push_back(std::move(r));
            continue;
        }
        const double needed = r.busyLoad * (1.0 + options.plannedHeadroom) / r.capacityPerReplica;
        // Past a million replicas the figure means nothing: keep it bounded.
        r.recommendedReplicas = needed >= 1e6 ? 1000000 : std::max(1, int(std::ceil(needed - 1e-9)));
        why << " One replica carried " << fixed(r.capacityPerReplica, 1) << ' ' << unit << " for a whole hour without "
            << "a queue";
        if (options.slo && !std::isnan(r.capacityLatency))
            why << " and within the SLO " << sloText << " (" << fixed(r.capacityLatency * 1000.0, 0) << " ms)";
        why << " (" << r.capacityInstance << ", " << hourText(r.capacityHour) << ").";
        if (options.slo && r.sloHours == 0)
            why << " The metrics hold no " << toString(options.slo->kind) << " histogram, so the queue alone stands for the SLO.";
        why << " Needed = ⌈"
            << fixed(r.busyLoad, 1) << " × (1 + " << fixed(options.plannedHeadroom, 2) << " planned headroom) ÷ "
            << fixed(r.capacityPerReplica, 1) << "⌉ = " << r.recommendedReplicas << " replica"
            << (r.recommendedReplicas == 1 ? "" : "s") << ".";
        if (r.recommendedReplicas < r.currentReplicas) {
            why << " " << (r.currentReplicas - r.recommendedReplicas) << " replica"
                << (r.currentReplicas - r.recommendedReplicas == 1 ? "" : "s") << " could go";
            if (r.gpusPerReplica > 0)
                why << " (" << r.gpusSaved() << " GPUs)";
            if (r.gpusPerReplica > 0 && options.ratePerGpuHour) {
                const Money saving{options.ratePerGpuHour->amount * int64_t(r.gpusSaved()) * int64_t(kHoursPer30DayMonth),
                                   options.ratePerGpuHour->currency};
                r.savingPerMonth = saving;
                why << ": " << r.gpusSaved() << " GPUs × " << options.ratePerGpuHour->amount.toString() << ' '
                    << saving.currency << "/GPU-hour × 720 h = " << saving.amount.toString(2) << ' ' << saving.currency
                    << " a month";
            } else if (r.gpusPerReplica == 0) {
                why << "; no DCGM samples say how many GPUs a replica holds, so no saving in money";
            } else {
                why << "; no rate given, so no saving in money";
            }
            why << ".";
        } else if (r.recommendedReplicas > r.currentReplicas) {
            why << " The fleet has fewer: it runs past its planned headroom at the busy hour.";
        } else {
            why << " The fleet is sized to the load.";
        }
        r.explanation = why.str();
        results.push_back(std::move(r));
    }
    return results;
}

void validate(const Optimization &optimization)
{
    if (optimization.name.empty())
        throw InputError("name", "the optimization needs a name");
    if (optimization.name.size() > 200)
        throw InputError("name", "the optimization's name is longer than 200 characters");
}

std::optional<double> BenchmarkWindow::costPerMillionTokens(const Money &rate) const
{
    if (tokens <= 0.0)
        return std::nullopt;
    return gpuHours * rate.amount.toDouble() / tokens * 1e6;
}

namespace {

// A replica-hour the goodput figures count: GPUs known and generated tokens measured.
bool countsForGoodput(const ServingHour &h, const std::string &deployment)
{
    return (deployment.empty() || h.deployment == deployment) && h.gpus > 0 && h.generationTokens.measured();
}

} // namespace

std::vector<DailyGoodput> dailyGoodput(const ServingHours &hours, const std::string &deployment)
{
    std::map<int64_t, DailyGoodput> days;
    for (const ServingHour &h : hours.hours) {
        if (!countsForGoodput(h, deployment))
            continue;
        const int64_t day = floorDiv(h.hour, 24);
        DailyGoodput &d = days[day];
        d.day = day;
        d.gpuHours += double(h.gpus);
        d.tokens += h.generationTokens.increase;
    }
    std::vector<DailyGoodput> out;
    out.reserve(days.size());
    for (const auto &[day, d] : days)
        out.push_back(d);
    return out;
}

std::vector<BenchmarkResult> benchmarkHistory(const ServingHours &hours, const std::vector<Optimization> &optimizations,
                                              const BenchmarkOptions &options)
{
    if (options.windowDays < 1 || options.windowDays > 366)
        throw InputError("window_days", "the window must be 1 to 366 days");
    std::vector<Optimization> sorted = optimizations;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Optimization &a, const Optimization &b) {
        return std::tie(a.day, a.name) < std::tie(b.day, b.name);
    });
    auto window = [&](int64_t firstDay, int64_t endDay) {
        BenchmarkWindow w;
        w.firstDay = firstDay;
        w.endDay = endDay;
        for (const ServingHour &h : hours.hours) {
            if (h.hour < firstDay * 24 || h.hour >= endDay * 24)
                continue;
            if (options.deployment.empty() || h.deployment == options.deployment)
                w.ttft.add(h.ttft);
            if (!countsForGoodput(h, options.deployment))
                continue;
            ++w.replicaHours;
            w.gpuHours += double(h.gpus);
            w.tokens += h.generationTokens.increase;
        }
        return w;
    };
    std::vector<BenchmarkResult> results;
    for (const Optimization &o : sorted) {
        BenchmarkResult r;
        r.optimization = o;
        r.before = window(o.day - options.windowDays, o.day);
        r.after = window(o.day, o.day + options.windowDays);
        r.ttftP95Before = r.before.ttft.quantile(0.95);
        r.ttftP95After = r.after.ttft.quantile(0.95);
        if (r.before.measured() && r.after.measured() && r.before.goodputPerGpu() > 0.0)
            r.goodputChangePercent = (r.after.goodputPerGpu() - r.before.goodputPerGpu()) / r.before.goodputPerGpu() * 100.0;
        if (options.ratePerGpuHour) {
            r.costBefore = r.before.costPerMillionTokens(*options.ratePerGpuHour);
            r.costAfter = r.after.costPerMillionTokens(*options.ratePerGpuHour);
            if (r.costBefore && r.costAfter && *r.costBefore > 0.0)
                r.costChangePercent = (*r.costAfter - *r.costBefore) / *r.costBefore * 100.0;
        }
        results.push_back(std::move(r));
    }
    return results;
}

} // namespace headroom::engine
