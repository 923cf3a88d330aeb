#pragma once

#include "engine/common/money.h"
#include "serving_metrics.h"
#include "tracking.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Anomalies in the utilization measured by GPU telemetry (DESIGN §3.7c): the serving
// replica-hours (DCGM GPU utilization per replica and hour) reduced to two daily series and
// each run through detectAnomalies, as the billing anomalies are.
//
// Per UTC day, over the replica-hours of the day with GPUs (ServingHour::gpus > 0):
//   GPU-hours          G = Σ gpus × 1 h
//   measured GPU-hours M = Σ gpus × 1 h over the replica-hours with a GPU-utilization sample
//   busy GPU-hours     B = Σ gpus × gpuUtilMean ÷ 100 over those same replica-hours
//   fleet utilization  U = B ÷ M
// A replica-hour without a utilization sample (gpuUtilMean NaN: only framebuffer gauges in
// the hour) counts in G but in neither B nor M: it is unknown, not idle. A day with no
// measured hour has no utilization; the series fed to the detector carries it as the linear
// interpolation of its measured neighbours (the nearest one at either end) and no spike or
// dip is reported on it. The first and the last day are left out when the hours do not cover
// them from 00:00 to 23:00 UTC (a partial day would read as a drop in GPU-hours); days in
// between without any replica-hour count as 0 GPU-hours.
//
// Sizes, per day:
//   a utilization anomaly   (U − Û) × M    busy GPU-hours above the forecast (negative: idle
//                                           GPU-hours), Û the one-step forecast
//   a GPU-hours anomaly     G − Ĝ
// A level shift is sized by the detector's mean residual (over its first max(period, 12)
// days) times the mean M of those days. Money = the size as shown (GPU-hours rounded to 0.01)
// × the rate per GPU-hour, rounded to the cent.
namespace headroom::engine {

struct TelemetryAnomalyOptions {
    AnomalyOptions detector{7};         // daily samples: a weekly season
    std::optional<Money> ratePerGpuHour; // none: no money sizes
    std::string deployment;             // one deployment; empty: the whole fleet
};

struct TelemetryDay {
    int64_t day = 0;                    // days since 1970-01-01
    int64_t replicaHours = 0;           // with GPUs
    double gpuHours = 0.0;              // G
    double measuredGpuHours = 0.0;      // M
    double busyGpuHours = 0.0;          // B
    bool measured() const { return measuredGpuHours > 0.0; }
    double utilization() const;         // B ÷ M, [0, 1]; NaN when not measured
};

enum class TelemetrySeries { Utilization, GpuHours };

struct TelemetryAnomaly {
    TelemetrySeries series = TelemetrySeries::Utilization;  // the series it was found in
    AnomalyKind kind = AnomalyKind::Spike;
    int64_t day = 0;                    // the day, or the first day of a shift
    int64_t endDay = 0;                 // the day, or the day the shift was confirmed
    // The series it was found in: the detector's figures (a shift: its mean level after and
    // the level expected). The other: observation and one-step forecast, averaged over
    // day..endDay.
    double utilization = 0.0;           // [0, 1]
    double expectedUtilization = 0.0;
    double gpuHours = 0.0;              // per day
    double expectedGpuHours = 0.0;
    double sizeGpuHours = 0.0;          // per day, see the header comment
    std::optional<Money> sizeMoney;     // per day, cents; with a rate only
};

struct TelemetryAnomalyReport {
    std::string deployment;             // empty: the whole fleet
    std::vector<TelemetryDay> days;     // every day from the first whole day to the last
    std::vector<double> utilization;    // the series searched (unmeasured days interpolated)
    std::vector<double> gpuHours;
    AnomalyReport utilizationReport;
    AnomalyReport gpuHoursReport;
    std::vector<TelemetryAnomaly> anomalies;  // by day, utilization before GPU-hours on one day
    std::optional<Money> rate;
    int partialDaysLeftOut = 0;         // first / last day not covered from 00:00 to 23:00
    int unmeasuredDays = 0;
};

// Whole days the detector needs with `options` (the fitted history and one day after it).
int telemetryAnomalyMinimumDays(const AnomalyOptions &options);

// The daily figures alone (no detection), with the partial first and last day left out.
// Throws InputError("deployment") for a deployment the hours do not hold and
// InputError("metrics") when no replica-hour has GPUs.
std::vector<TelemetryDay> dailyTelemetry(const ServingHours &hours, const std::string &deployment = {},
                                         int *partialDaysLeftOut = nullptr);

// Both series searched. Throws as dailyTelemetry, InputError("days") when there are fewer
// whole days than telemetryAnomalyMinimumDays, InputError("rate") for a rate ≤ 0, and
// detectAnomalies' errors for its options.
TelemetryAnomalyReport detectTelemetryAnomalies(const ServingHours &hours, const TelemetryAnomalyOptions &options = {});

} // namespace headroom::engine
