#pragma once

#include "engine/common/money.h"

#include <cstdint>
#include <string>
#include <vector>

// Hourly GPU demand (DESIGN §2: GPU-hours per hour). Used by the cost engine and, later,
// forecasting and scenarios.
namespace headroom::engine {

struct DemandSeries {
    std::string name;
    int64_t startEpochSeconds = 0;  // UTC start of the first hour; 0 when the source had no timestamps
    std::vector<Decimal> gpus;      // one value per hour, ≥ 0
    std::string source;             // file name or generator description
};

// A synthetic demand shape: a baseline, a daily peak following a diurnal curve, a weekend
// factor and linear growth over the horizon, with optional deterministic noise.
struct DemandShape {
    double baselineGpus = 200;      // floor, GPUs
    double dailyPeakGpus = 320;     // weekday peak, GPUs (≥ baseline)
    int peakHour = 14;              // hour of day (UTC) of the peak, 0..23
    double peakWidthHours = 4;      // standard deviation of the daily bump, hours (> 0)
    double weekendFactor = 0.6;     // weekend share of the weekday bump above baseline, [0, 1]
    double growthPerMonth = 0.0;    // relative growth per 30 days, e.g. 0.03 (> -1)
    double noise = 0.0;             // relative noise (std dev as a share of the value), [0, 0.5]
    uint32_t seed = 1;
    int hours = 24 * 7;             // length: a week 168, a month 720, a year 8760 (1..87600)
    bool roundToWholeGpus = true;
    int firstWeekday = 0;           // the weekday of hour 0: 0 Monday … 6 Sunday (the calendar's, from the start date)
};

// Throws InputError naming the field when out of range (snake_case member names:
// "baseline_gpus", "peak_hour", ...). Hour 0 is 00:00 UTC of weekday firstWeekday; Saturday
// and Sunday are the weekend. Deterministic for a
// seed: noise comes from std::mt19937(seed) through std::normal_distribution, whose
// algorithm the standard leaves to the library, so a seed gives the same series on every run
// with one standard library (libstdc++ here), not necessarily across libraries.
DemandSeries generateDemand(const DemandShape &shape, const std::string &name = "generated");

// Empirical quantile (type 7, as numpy's default) of the hourly values, q in [0, 1].
double demandQuantile(const DemandSeries &series, double q);
double demandMean(const DemandSeries &series);
double demandPeak(const DemandSeries &series);

} // namespace headroom::engine
