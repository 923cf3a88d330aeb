#include "demand.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace headroom::engine {

namespace {

constexpr double kMaxGpus = 10'000'000;
constexpr int kMaxHours = 87'600; // ten years
constexpr double kHoursPerMonth = 720; // 30 days, as growthPerMonth is defined
constexpr int kWeekdaysPerWeek = 5;

std::string show(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

void requireRange(const char *field, double value, double minimum, double maximum)
{
    if (!(value >= minimum && value <= maximum))
        throw InputError(field, std::string(field) + " must be between " + show(minimum) + " and "
                                    + show(maximum) + " (got " + show(value) + ")");
}

void requireNonEmpty(const DemandSeries &series)
{
    if (series.gpus.empty())
        throw InputError("demand", "the demand series \"" + series.name + "\" has no hours");
}

// Shortest distance between two hours on the 24-hour clock.
double clockDistance(int hour, int peakHour)
{
    const double d = std::abs(hour - peakHour);
    return std::min(d, 24.0 - d);
}

constexpr const char *kWeekdayNames[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

std::string describe(const DemandShape &s)
{
    return "generated: baseline " + show(s.baselineGpus) + " GPUs, weekday peak " + show(s.dailyPeakGpus)
        + " GPUs at " + std::to_string(s.peakHour) + ":00 UTC (width " + show(s.peakWidthHours)
        + " h), weekend " + show(s.weekendFactor) + ", growth " + show(s.growthPerMonth)
        + " per 30 days, noise " + show(s.noise) + ", seed " + std::to_string(s.seed) + ", first day "
        + kWeekdayNames[size_t(s.firstWeekday)] + ", "
        + std::to_string(s.hours) + " h";
}

} // namespace

// Hour h (from 0) of a generated series falls on weekday (firstWeekday + h / 24) mod 7, Monday
// being 0; days 5 and 6 (Saturday and Sunday) are the weekend. The value is
//   (baseline + bump × exp(−dist² / (2 × width²))) × (1 + growth × h / 720) × (1 + noise × z)
// with dist the hour-of-day distance to the peak, bump = peak − baseline (× weekendFactor at
// weekends) and z standard normal (std::mt19937(seed), std::normal_distribution), clamped at 0.
DemandSeries generateDemand(const DemandShape &shape, const std::string &name)
{
    requireRange("baseline_gpus", shape.baselineGpus, 0, kMaxGpus);
    requireRange("daily_peak_gpus", shape.dailyPeakGpus, shape.baselineGpus, kMaxGpus);
    requireRange("peak_hour", shape.peakHour, 0, 23);
    if (!(shape.peakWidthHours > 0 && shape.peakWidthHours <= 24))
        throw InputError("peak_width_hours", "peak_width_hours must be greater than 0 and at most 24 (got "
                                                 + show(shape.peakWidthHours) + ")");
    requireRange("weekend_factor", shape.weekendFactor, 0, 1);
    if (!(shape.growthPerMonth > -1 && shape.growthPerMonth <= 10))
        throw InputError("growth_per_month", "growth_per_month must be greater than -1 and at most 10 (got "
                                                 + show(shape.growthPerMonth) + ")");
    requireRange("noise", shape.noise, 0, 0.5);
    requireRange("hours", shape.hours, 1, kMaxHours);
    requireRange("first_weekday", shape.firstWeekday, 0, 6);

    DemandSeries series;
    series.name = name;
    series.source = describe(shape);
    series.gpus.reserve(size_t(shape.hours));

    std::mt19937 engine(shape.seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    const double bump = shape.dailyPeakGpus - shape.baselineGpus;
    const double twoWidthSquared = 2 * shape.peakWidthHours * shape.peakWidthHours;
    for (int h = 0; h < shape.hours; ++h) {
        const int day = h / 24;
        const bool weekend = (shape.firstWeekday + day) % 7 >= kWeekdaysPerWeek;
        const double distance = clockDistance(h % 24, shape.peakHour);
        const double daily = shape.baselineGpus
            + bump * (weekend ? shape.weekendFactor : 1.0) * std::exp(-distance * distance / twoWidthSquared);
        double value = daily * (1 + shape.growthPerMonth * h / kHoursPerMonth);
        if (shape.noise > 0)
            value *= 1 + shape.noise * normal(engine);
        value = std::max(0.0, value);
        series.gpus.push_back(shape.roundToWholeGpus ? Decimal::fromInt(static_cast<int64_t>(std::round(value)))
                                                     : Decimal::fromDouble(value));
    }
    return series;
}

// Hyndman & Fan type 7: h = (n − 1) q, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋ + 1] − x[⌊h⌋]) over the
// sorted values, as numpy.quantile's default "linear" method.
double demandQuantile(const DemandSeries &series, double q)
{
    requireNonEmpty(series);
    requireRange("quantile", q, 0, 1);
    std::vector<double> values;
    values.reserve(series.gpus.size());
    for (Decimal g : series.gpus)
        values.push_back(g.toDouble());
    const double h = double(values.size() - 1) * q;
    const size_t lower = static_cast<size_t>(std::floor(h));
    std::nth_element(values.begin(), values.begin() + lower, values.end());
    const double low = values[lower];
    if (lower + 1 >= values.size())
        return low;
    const double high = *std::min_element(values.begin() + lower + 1, values.end());
    return low + (h - double(lower)) * (high - low);
}

double demandMean(const DemandSeries &series)
{
    requireNonEmpty(series);
    Decimal total;
    for (Decimal g : series.gpus)
        total += g;
    return total.toDouble() / double(series.gpus.size());
}

double demandPeak(const DemandSeries &series)
{
    requireNonEmpty(series);
    return std::max_element(series.gpus.begin(), series.gpus.end())->toDouble();
}

} // namespace headroom::engine
