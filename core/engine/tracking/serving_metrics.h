#pragma once

#include "engine/common/money.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Measured serving telemetry (DESIGN §3.7c): DCGM-exporter GPU gauges and vLLM serving
// metrics reduced to one row per replica (instance) and clock hour, then read for rightsizing
// (could fewer replicas hold the measured load?) and a benchmark history (goodput per GPU and
// cost per 1M tokens before and after each named optimization).
namespace headroom::engine {

enum class ServingMetric {
    GpuUtil,                // DCGM_FI_DEV_GPU_UTIL, percent [0, 100], per GPU
    FbUsedMib,              // DCGM_FI_DEV_FB_USED, MiB, per GPU
    RequestsRunning,        // vllm:num_requests_running, gauge
    RequestsWaiting,        // vllm:num_requests_waiting, gauge
    KvCacheUsage,           // vllm:gpu_cache_usage_perc (vllm:kv_cache_usage_perc), share [0, 1]
    RequestSuccessTotal,    // vllm:request_success_total, counter
    GenerationTokensTotal,  // vllm:generation_tokens_total, counter
    PromptTokensTotal,      // vllm:prompt_tokens_total, counter
    TtftBucket,             // vllm:time_to_first_token_seconds_bucket, histogram counter per le
    E2eBucket,              // vllm:e2e_request_latency_seconds_bucket, histogram counter per le
};

// The exporter's metric name ("DCGM_FI_DEV_GPU_UTIL", "vllm:num_requests_waiting", ...).
std::string_view metricName(ServingMetric metric);
// nullopt for any other name (those rows are counted and ignored by the importer). Both of a
// renamed series' names are read: vllm:kv_cache_usage_perc as vllm:gpu_cache_usage_perc.
std::optional<ServingMetric> parseServingMetric(std::string_view name);
// Every name parseServingMetric reads, the current name of a renamed series after the older.
std::vector<std::string_view> servingMetricNames();
bool isCounter(ServingMetric metric);
bool isGpuMetric(ServingMetric metric);   // a DCGM metric: one series per GPU
bool isHistogramBucket(ServingMetric metric);   // one series per upper bound (le)

// One sample of one series. Series are keyed by (deployment, instance, gpu, metric).
struct MetricSample {
    int64_t epochSeconds = 0;
    std::string deployment;     // a group of replicas serving the same model; "default" when unnamed
    std::string instance;       // one replica (Prometheus "instance" label)
    std::string gpu;            // GPU index for DCGM metrics; empty for serving metrics
    ServingMetric metric = ServingMetric::GpuUtil;
    double value = 0.0;
    double le = 0.0;            // a histogram bucket's upper bound in seconds (+∞ for "+Inf"); 0 otherwise
    int line = 0;               // source line, for messages
};

// A latency histogram's increase within one hour, as Prometheus keeps it: per upper bound
// le (seconds), the requests that took at most le, cumulative, by le ascending; the last
// bound is +∞ when the export carries the "+Inf" bucket.
struct LatencyHistogram {
    std::vector<std::pair<double, double>> buckets;   // (le, cumulative count)
    bool empty() const { return count() <= 0.0; }
    // Requests counted: the largest bound's count.
    double count() const { return buckets.empty() ? 0.0 : buckets.back().second; }
    // Adds another histogram bound by bound (a bound missing on one side counts as the
    // cumulative count of the nearest bound below it there).
    void add(const LatencyHistogram &other);
    // Prometheus' histogram_quantile: the bucket holding rank q × count, linearly
    // interpolated between its lower bound (the previous le, 0 for the first) and its le; in
    // the +Inf bucket, the largest finite le. Counts are made monotonic first. NaN when empty.
    double quantile(double q) const;
};

// A counter's increase over the scrape intervals ending in one hour, and those intervals'
// length. An interval is credited whole to the hour its end falls in.
struct CounterHour {
    double increase = 0.0;
    double seconds = 0.0;
    bool measured() const { return seconds > 0.0; }
    // increase ÷ seconds; 0 when not measured.
    double perSecond() const { return seconds > 0.0 ? increase / seconds : 0.0; }
};

// One replica in one clock hour. Gauges are means over every sample in the hour (all GPUs
// together for the DCGM gauges); a gauge without samples is NaN.
struct ServingHour {
    std::string deployment;
    std::string instance;
    int64_t hour = 0;                // hours since 1970-01-01 UTC
    int gpus = 0;                    // distinct GPU labels with a DCGM sample in the hour
    double gpuUtilMean = 0.0;        // percent; NaN without samples
    double gpuUtilPeak = 0.0;        // largest sample, percent
    double fbUsedMibMean = 0.0;
    double kvCacheMean = 0.0;        // share [0, 1]
    double runningMean = 0.0;
    double waitingMean = 0.0;
    double waitingPeak = 0.0;
    CounterHour requests;            // vllm:request_success_total
    CounterHour generationTokens;    // vllm:generation_tokens_total
    CounterHour promptTokens;        // vllm:prompt_tokens_total
    LatencyHistogram ttft;           // vllm:time_to_first_token_seconds_bucket
    LatencyHistogram e2e;            // vllm:e2e_request_latency_seconds_bucket
};

struct ServingHours {
    std::vector<ServingHour> hours;  // by deployment, instance, hour
    int64_t counterResets = 0;       // decreases of a counter, read as a restart from 0
};

// Groups samples into replica-hours. Counter rates: for consecutive samples (t1, v1), (t2, v2)
// of one series, the increase is v2 − v1, or v2 when v2 < v1 (the counter restarted from 0,
// as Prometheus' rate() reads it), credited to the hour of t2 with t2 − t1 seconds; a
// counter summed over the GPUs of a replica when it carries a gpu label. Throws
// InputError("timestamp") when one series has two samples at the same time (naming both lines).
ServingHours aggregateServingHours(std::vector<MetricSample> samples);

// The same reduction for a file of millions of samples: each series (deployment, instance,
// gpu, metric, le) is named once and its samples are kept as 24-byte records (time, value,
// line) rather than as MetricSamples with their strings.
class ServingHoursBuilder {
public:
    // The series' index, the same for the same labels.
    int series(const std::string &deployment, const std::string &instance, const std::string &gpu,
               ServingMetric metric, double le = 0.0);
    void add(int series, int64_t epochSeconds, double value, int line);
    size_t samples() const { return m_samples.size(); }
    // Throws InputError("timestamp") as aggregateServingHours does; the builder is emptied.
    ServingHours finish();

private:
    struct Series {
        std::string deployment, instance, gpu;
        ServingMetric metric;
        double le;
    };
    struct Sample {
        int64_t epochSeconds;
        double value;
        int32_t series;
        int32_t line;
    };
    std::vector<Series> m_series;
    std::map<std::tuple<std::string, std::string, std::string, int, double>, int> m_index;
    std::vector<Sample> m_samples;
};

// The replica-hours of the last `days` days (up to the latest hour held); all of them for
// days ≤ 0.
ServingHours lastDays(const ServingHours &hours, int64_t days);

// Throws InputError naming the field for a negative count, a gauge out of range, GPUs < 0.
void validate(const ServingHour &hour);

// ---- Per replica ----------------------------------------------------------------------

struct ReplicaSummary {
    std::string deployment;
    std::string instance;
    int64_t hours = 0;               // replica-hours with any sample
    int gpus = 0;                    // most GPUs seen in one hour
    double gpuUtilMean = 0.0;        // mean of the hourly means (NaN without samples)
    double gpuUtilPeak = 0.0;
    double kvCacheMean = 0.0;
    double requestsPerSecond = 0.0;  // Σ increase ÷ Σ seconds over the hours; NaN without a counter
    double tokensPerSecond = 0.0;    // generation tokens; NaN without a counter
    double tokensPerSecondPeak = 0.0;// busiest hour; NaN without a counter
    double runningMean = 0.0;
    double waitingMean = 0.0;
    double waitingPeak = 0.0;
    double ttftP50 = 0.0;            // seconds, over every hour's histogram together; NaN without
    double ttftP95 = 0.0;
    double e2eP95 = 0.0;
};
std::vector<ReplicaSummary> summarizeReplicas(const ServingHours &hours);

// ---- Rightsizing -----------------------------------------------------------------------

enum class LoadMeasure { Tokens, Requests };
std::string_view toString(LoadMeasure measure);          // "tokens", "requests"

enum class LatencyKind { Ttft, E2e };
std::string_view toString(LatencyKind kind);             // "TTFT", "E2E latency"

// A latency objective read from the histograms: quantile q of the kind at most `seconds`.
struct LatencySlo {
    LatencyKind kind = LatencyKind::Ttft;
    double quantile = 0.95;           // (0, 1)
    double seconds = 1.0;             // > 0
};

struct RightsizingOptions {
    LoadMeasure load = LoadMeasure::Tokens;   // generation tokens/s, or completed requests/s
    double busyQuantile = 0.95;       // the busy hour: this quantile of the deployment's hourly load, (0, 1]
    double maxWaiting = 0.5;          // mean waiting requests per replica still "not queueing", ≥ 0
    double plannedHeadroom = 0.2;     // capacity kept free at the busy hour, [0, 1)
    std::optional<Money> ratePerGpuHour;  // nullopt: no saving in money
    // The goodput condition besides the queue: an hour whose replica (for capacity) or
    // deployment (at the busy hours) has a histogram of the kind must meet it.
    std::optional<LatencySlo> slo;
};

// One deployment (a group of replicas). The rule:
//   busy load   L = nearest-rank quantile q of the deployment's load per hour (Σ over replicas)
//   capacity    C = the highest load one replica carried for a whole hour while its mean waiting
//                   queue stayed ≤ maxWaiting (demonstrated goodput, never extrapolated)
//   needed      N = max(1, ⌈L × (1 + plannedHeadroom) ÷ C⌉)
//   saving      (R − N) × GPUs per replica × rate × 720 h a month, when N < R
// where R is the replicas reporting in the deployment's latest hour (the fleet as it runs now). No saving is claimed when the replicas
// queued at the busy hours (mean waiting per replica > maxWaiting in any hour with load ≥ L):
// the deployment is at its capacity and the measured load understates demand. With a latency
// SLO, "carried" also needs the replica's latency quantile in that hour within the SLO (where
// its histogram was exported), and a busy hour whose deployment-wide quantile misses the SLO
// counts as queueing.
// The deployment's load in one clock hour: Σ over its replicas, and how many reported.
struct HourLoad {
    int64_t hour = 0;
    double load = 0.0;                    // per second
    int replicas = 0;
};

struct RightsizingResult {
    std::string deployment;
    LoadMeasure load = LoadMeasure::Tokens;
    int64_t hours = 0;                    // hours with a load measurement
    int currentReplicas = 0;              // R: replicas in the latest hour
    int gpusPerReplica = 0;               // most GPUs one replica showed in an hour; 0 = unknown
    double busyLoad = 0.0;                // L, per second (0 when hours == 0: nothing measured)
    int64_t busyHour = 0;                 // the hour at the quantile
    double busyWaitingPerReplica = 0.0;   // largest mean waiting per replica among hours with load ≥ L
    double capacityPerReplica = 0.0;      // C, per second; 0 = no unqueued hour with load
    std::string capacityInstance;         // the replica and hour that showed it
    int64_t capacityHour = 0;
    double plannedHeadroom = 0.0;
    int recommendedReplicas = 0;          // N (R when there is nothing to go by)
    bool saturated = false;
    std::optional<LatencySlo> slo;
    int64_t sloHours = 0;                 // replica-hours with a histogram of the SLO's kind
    double busyLatency = 0.0;             // largest deployment-wide quantile at the busy hours (s); NaN without
    double capacityLatency = 0.0;         // the capacity hour's quantile (s); NaN without
    std::optional<Money> ratePerGpuHour;
    std::optional<Money> savingPerMonth;  // only when N < R, not saturated and priced
    std::string explanation;              // the figures and the rule, in words
    std::vector<HourLoad> loadByHour;     // the hours L was taken from, in time order
    int gpusSaved() const { return recommendedReplicas < currentReplicas ? (currentReplicas - recommendedReplicas) * gpusPerReplica : 0; }
};

// One result per deployment, by name. Throws InputError("busy_quantile" | "max_waiting" |
// "planned_headroom") for options out of range.
std::vector<RightsizingResult> rightsize(const ServingHours &hours, const RightsizingOptions &options = {});

// ---- Benchmark history -----------------------------------------------------------------

// A named optimization taking effect on a UTC day ("FP8 weights" on 2026-03-10).
struct Optimization {
    std::string name;
    int64_t day = 0;                 // days since 1970-01-01
    std::string note;
};

// Throws InputError("name") when empty or longer than 200 characters.
void validate(const Optimization &optimization);

struct BenchmarkWindow {
    int64_t firstDay = 0;            // [firstDay, endDay)
    int64_t endDay = 0;
    int64_t replicaHours = 0;        // replica-hours with GPUs and a generation-token measurement
    double gpuHours = 0.0;           // Σ GPUs over those replica-hours × 1 h
    double tokens = 0.0;             // Σ generation-token increase
    LatencyHistogram ttft;           // every replica-hour's TTFT histogram in the window
    bool measured() const { return gpuHours > 0.0; }
    // tokens ÷ (gpuHours × 3600): tokens/s per GPU
    double goodputPerGpu() const { return gpuHours > 0.0 ? tokens / (gpuHours * 3600.0) : 0.0; }
    // gpuHours × rate ÷ tokens × 1,000,000; nullopt without tokens
    std::optional<double> costPerMillionTokens(const Money &rate) const;
};

struct BenchmarkResult {
    Optimization optimization;
    BenchmarkWindow before;          // [day − windowDays, day)
    BenchmarkWindow after;           // [day, day + windowDays)
    std::optional<double> goodputChangePercent;   // (after − before) ÷ before × 100
    std::optional<double> costBefore;             // per 1M tokens, when a rate is given
    std::optional<double> costAfter;
    std::optional<double> costChangePercent;
    double ttftP95Before = 0.0;                   // seconds; NaN without a TTFT histogram in the window
    double ttftP95After = 0.0;
};

struct BenchmarkOptions {
    int windowDays = 7;              // [1, 366]
    std::string deployment;          // empty: every deployment
    std::optional<Money> ratePerGpuHour;
};

// Goodput per GPU of one UTC day, counted as the benchmark windows count it (replica-hours
// with GPUs and a generation-token measurement).
struct DailyGoodput {
    int64_t day = 0;                 // days since 1970-01-01
    double gpuHours = 0.0;
    double tokens = 0.0;
    double goodputPerGpu() const { return gpuHours > 0.0 ? tokens / (gpuHours * 3600.0) : 0.0; }
};
// Every day with a measurement, in order; `deployment` empty: every deployment.
std::vector<DailyGoodput> dailyGoodput(const ServingHours &hours, const std::string &deployment = {});

// One result per optimization, by day then name. Throws InputError("window_days").
std::vector<BenchmarkResult> benchmarkHistory(const ServingHours &hours, const std::vector<Optimization> &optimizations,
                                              const BenchmarkOptions &options = {});

} // namespace headroom::engine
