#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Demand telemetry by primitive (DESIGN §3.6): GPU usage samples of tenant × model × workload
// type, aggregated to hourly series for forecasting; and hourly GPU demand derived from a
// pod trace (the Alibaba GPU trace v2023) by pod creation and deletion times.
namespace headroom::engine {

// A demand primitive: who (tenant) runs what (model) as which kind of work (workload type,
// e.g. "chat", "batch", "training"). Compared field by field, tenant first.
struct PrimitiveKey {
    std::string tenant;
    std::string model;
    std::string workloadType;
    std::string label() const;  // "tenant / model / workload_type"
};
bool operator==(const PrimitiveKey &a, const PrimitiveKey &b);
bool operator<(const PrimitiveKey &a, const PrimitiveKey &b);

// One telemetry sample: GPUs in use by a primitive at an instant (a gauge, ≥ 0).
struct TelemetrySample {
    int64_t epochSeconds = 0;   // UTC seconds since 1970-01-01
    PrimitiveKey key;
    double gpus = 0.0;          // GPUs in use, may be fractional
    int line = 0;               // source line for messages, 0 when unknown
};

// A run of consecutive hours without any sample, both ends included.
struct HourGap {
    int64_t firstHourEpoch = 0; // start of the first missing hour, UTC seconds
    int64_t lastHourEpoch = 0;  // start of the last missing hour, UTC seconds
    int hours = 0;              // (last − first) / 3600 + 1
};

// A second sample of one primitive at the same timestamp. The first one is kept, this one
// is left out of the hourly mean.
struct DuplicateSample {
    PrimitiveKey key;
    int64_t epochSeconds = 0;
    int firstLine = 0;          // line of the sample that was kept
    int line = 0;               // line of the sample left out
};

// An hourly series of one primitive on the common hourly axis of the whole import.
// gpus[h] is the mean of the primitive's samples in [start + 3600 h, start + 3600 (h + 1)),
// i.e. average GPUs in use over that hour = GPU-hours per hour. The mean (not the sum) keeps
// the unit independent of the sampling rate (one sample per minute or one per hour give the
// same series). An hour without samples is NaN and listed in `gaps`: gaps are never filled
// silently; fitSmoothing refuses a series with NaN, and fillGaps applies an explicit policy.
struct PrimitiveSeries {
    PrimitiveKey key;
    std::vector<double> gpus;   // one per hour of the common axis; NaN = no sample that hour
    std::vector<HourGap> gaps;  // missing hours, in time order
    int samples = 0;            // samples used (duplicates excluded)
    int missingHours() const;   // Σ gaps[i].hours
};

// The result of aggregateHourly: every primitive on the same hourly axis, from the hour of
// the earliest sample to the hour of the latest one (so the series can be summed hour by
// hour). A primitive that starts later than the others therefore has a leading gap.
struct HourlyTelemetry {
    int64_t startEpochSeconds = 0;       // start of the first hour, a multiple of 3600
    int hours = 0;                       // length of every series
    std::vector<PrimitiveSeries> primitives; // ordered by key
    std::vector<DuplicateSample> duplicates; // in input order
    bool hasGaps() const;
    // Hour-by-hour sum of all primitives; NaN in an hour where any primitive has a gap.
    std::vector<double> total() const;
};

// Limits of aggregateHourly: distinct primitives, and primitives × hours of the common axis
// (the dense series it returns, 8 bytes each: 16 M values = 128 MB).
constexpr int64_t kMaxTelemetryPrimitives = 10'000;
constexpr int64_t kMaxTelemetryHourlyValues = 16'000'000;

// Aggregates samples (any order) into hourly means per primitive. Memory while reading grows
// with the samples, not the span. Throws InputError naming the field: "samples" (none, or
// more than kMaxTelemetryPrimitives primitives), "gpus" (negative or not finite, with the
// sample's line), "timestamp" (before 1970, a span longer than 20 years of hours, or more
// than kMaxTelemetryHourlyValues primitives × hours).
HourlyTelemetry aggregateHourly(const std::vector<TelemetrySample> &samples);

// An explicit policy for the missing hours of a series. Refuse is the default everywhere.
enum class GapPolicy {
    Refuse,        // throw InputError("gaps") naming the first missing hour
    Zero,          // no sample means no GPU in use
    CarryForward,  // repeat the last observed value (a leading gap takes the first observed value)
    Interpolate    // straight line between the observed neighbours (ends carried as above)
};
// The series with its NaN hours replaced by `policy`. Throws InputError("gaps") for Refuse
// when there is a gap, and for a series without any observed hour.
std::vector<double> fillGaps(const std::vector<double> &series, GapPolicy policy);

// One pod of a cluster trace, as the Alibaba GPU trace v2023 lists it: num_gpu GPUs, each
// used to gpu_milli/1000 (fractional only with one GPU), from creation to deletion (seconds
// from the trace start).
struct PodRecord {
    std::string name;
    int gpus = 0;               // num_gpu, whole GPUs
    int gpuMilli = 0;           // per-GPU share, 0..1000
    std::string gpuSpec;        // allowed GPU models as the trace writes them ("V100M16|V100M32"), empty = any
    std::string qos;            // QoS class: "LS", "BE", "Burstable", "Guaranteed", ...
    std::string phase;          // pod_phase: "Running", "Pending", "Failed", "Succeeded"
    int64_t creationTime = 0;   // seconds
    int64_t deletionTime = 0;   // seconds, > creationTime for the pod to count
    int line = 0;               // source line for messages, 0 when unknown
};

// How demandFromPods splits the total.
enum class PodSplit {
    GpuModel,  // by gpu_spec as written (one series per distinct constraint, "any" for empty)
    Qos,       // by QoS class ("unknown" for empty)
    None       // one series, "total"
};

// Hourly GPU demand of a trace, one series per class of the split.
struct PodDemand {
    int64_t startSeconds = 0;            // start of hour 0 in the trace's clock (0 for the Alibaba trace)
    int hours = 0;                       // hours up to the last deletion time (the last may be partial)
    std::vector<std::string> names;      // class names, sorted
    std::vector<std::vector<double>> gpus; // [class][hour], GPU-hours per hour
    std::vector<double> total;           // Σ over classes per hour
    int podsCounted = 0;                 // pods with GPUs and a positive lifetime
    int podsSkipped = 0;                 // pods without GPUs or with deletion ≤ creation
};

// Demand in GPU-hours per hour: Σ over pods of num_gpu × gpu_milli / 1000 × (seconds of
// [creation, deletion) inside the hour) / 3600. Demand is what pods requested, whether or not
// they were scheduled (a Pending pod still wanted its GPUs); hour 0 starts at the hour below
// the earliest creation time. Throws InputError: "pods" (no pod with GPUs and a positive
// lifetime), "gpu_milli" (outside 0..1000), "num_gpu" (negative), naming the pod's line.
PodDemand demandFromPods(const std::vector<PodRecord> &pods, PodSplit split);

} // namespace headroom::engine
