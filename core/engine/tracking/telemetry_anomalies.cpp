#include "telemetry_anomalies.h"

#include "actuals_anomalies.h"
#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace headroom::engine {

namespace {

int64_t dayOfHour(int64_t hour)
{
    return hour >= 0 ? hour / 24 : (hour - 23) / 24;
}

// Unmeasured days (NaN) as the linear interpolation of their measured neighbours, the nearest
// measured day at either end.
std::vector<double> interpolated(std::vector<double> values)
{
    const int n = int(values.size());
    int previous = -1;
    for (int i = 0; i < n; ++i) {
        if (std::isnan(values[size_t(i)]))
            continue;
        if (previous < 0) {
            for (int j = 0; j < i; ++j)
                values[size_t(j)] = values[size_t(i)];
        } else {
            for (int j = previous + 1; j < i; ++j) {
                const double t = double(j - previous) / double(i - previous);
                values[size_t(j)] = values[size_t(previous)] + t * (values[size_t(i)] - values[size_t(previous)]);
            }
        }
        previous = i;
    }
    for (int j = previous + 1; j < n && previous >= 0; ++j)
        values[size_t(j)] = values[size_t(previous)];
    return values;
}

} // namespace

double TelemetryDay::utilization() const
{
    return measured() ? busyGpuHours / measuredGpuHours : std::numeric_limits<double>::quiet_NaN();
}

int telemetryAnomalyMinimumDays(const AnomalyOptions &options)
{
    // detectAnomalies' own rule: the history holds at least two seasons (3 samples without a
    // season), and one sample must follow it.
    const int minimumHistory = std::max(2 * options.period, 3);
    return std::max(options.history, minimumHistory) + 1;
}

std::vector<TelemetryDay> dailyTelemetry(const ServingHours &hours, const std::string &deployment, int *partialDaysLeftOut)
{
    if (!deployment.empty()) {
        const bool known = std::any_of(hours.hours.begin(), hours.hours.end(),
                                       [&](const ServingHour &h) { return h.deployment == deployment; });
        if (!known)
            throw InputError("deployment", "the serving metrics hold no deployment '" + deployment + "'");
    }
    std::map<int64_t, TelemetryDay> byDay;
    int64_t firstHour = std::numeric_limits<int64_t>::max(), lastHour = std::numeric_limits<int64_t>::min();
    for (const ServingHour &h : hours.hours) {
        if ((!deployment.empty() && h.deployment != deployment) || h.gpus <= 0)
            continue;
        firstHour = std::min(firstHour, h.hour);
        lastHour = std::max(lastHour, h.hour);
        TelemetryDay &day = byDay[dayOfHour(h.hour)];
        day.day = dayOfHour(h.hour);
        ++day.replicaHours;
        day.gpuHours += h.gpus;
        if (std::isfinite(h.gpuUtilMean)) {
            day.measuredGpuHours += h.gpus;
            day.busyGpuHours += h.gpus * h.gpuUtilMean / 100.0;
        }
    }
    if (byDay.empty())
        throw InputError("metrics", deployment.empty() ? std::string("no replica-hour with GPUs (a DCGM sample) in the serving metrics")
                                                       : "no replica-hour with GPUs (a DCGM sample) for deployment '" + deployment + "'");
    int64_t first = byDay.begin()->first, last = byDay.rbegin()->first;
    int leftOut = 0;
    if (firstHour - first * 24 != 0) {
        ++first;
        ++leftOut;
    }
    if (lastHour - last * 24 != 23 && last >= first) {
        --last;
        ++leftOut;
    }
    if (partialDaysLeftOut)
        *partialDaysLeftOut = leftOut;
    std::vector<TelemetryDay> days;
    for (int64_t d = first; d <= last; ++d) {
        const auto found = byDay.find(d);
        TelemetryDay day = found != byDay.end() ? found->second : TelemetryDay{};
        day.day = d;
        days.push_back(day);
    }
    return days;
}

TelemetryAnomalyReport detectTelemetryAnomalies(const ServingHours &hours, const TelemetryAnomalyOptions &options)
{
    if (options.ratePerGpuHour && !(options.ratePerGpuHour->amount > Decimal()))
        throw InputError("rate", "the rate per GPU-hour must be above 0");
    TelemetryAnomalyReport report;
    report.deployment = options.deployment;
    report.rate = options.ratePerGpuHour;
    report.days = dailyTelemetry(hours, options.deployment, &report.partialDaysLeftOut);
    const int needed = telemetryAnomalyMinimumDays(options.detector);
    if (int(report.days.size()) < needed)
        throw InputError("days", "the serving metrics cover " + std::to_string(report.days.size())
                                     + " whole days; anomaly detection needs at least " + std::to_string(needed)
                                     + " (two weeks of history and a day after it)");
    std::vector<double> utilization;
    for (const TelemetryDay &day : report.days) {
        utilization.push_back(day.utilization());
        report.gpuHours.push_back(day.gpuHours);
        report.unmeasuredDays += day.measured() ? 0 : 1;
    }
    if (report.unmeasuredDays == int(report.days.size()))
        throw InputError("metrics", "no replica-hour carries a GPU utilization sample (DCGM_FI_DEV_GPU_UTIL)");
    report.utilization = interpolated(utilization);
    report.utilizationReport = detectAnomalies(report.utilization, options.detector);
    report.gpuHoursReport = detectAnomalies(report.gpuHours, options.detector);

    const int n = int(report.days.size());
    const int64_t firstDay = report.days.front().day;
    const auto measuredMean = [&](int first, int last) {
        double sum = 0.0;
        int count = 0;
        for (int i = std::max(first, 0); i <= last && i < n; ++i, ++count)
            sum += report.days[size_t(i)].measuredGpuHours;
        return count ? sum / count : 0.0;
    };
    const auto add = [&](const Anomaly &a, TelemetrySeries series) {
        if (series == TelemetrySeries::Utilization && a.kind != AnomalyKind::LevelShift
            && !report.days[size_t(a.index)].measured())
            return;  // an interpolated day: nothing was measured to be anomalous
        TelemetryAnomaly out;
        out.series = series;
        out.kind = a.kind;
        out.day = firstDay + a.index;
        out.endDay = firstDay + a.endIndex;
        if (series == TelemetrySeries::Utilization) {
            out.utilization = a.value;
            out.expectedUtilization = a.expected;
            std::tie(out.gpuHours, out.expectedGpuHours) =
                meanObservedAndExpected(report.gpuHours, report.gpuHoursReport.expected, a.index, a.endIndex);
            // The shift's size is the mean residual over its first max(period, 12) days.
            const int last = a.kind == AnomalyKind::LevelShift
                ? a.index + std::max(options.detector.period, 12) - 1
                : a.index;
            out.sizeGpuHours = a.size * measuredMean(a.index, last);
        } else {
            out.gpuHours = a.value;
            out.expectedGpuHours = a.expected;
            std::tie(out.utilization, out.expectedUtilization) =
                meanObservedAndExpected(report.utilization, report.utilizationReport.expected, a.index, a.endIndex);
            out.sizeGpuHours = a.size;
        }
        if (options.ratePerGpuHour) {
            const Decimal shownHours = Decimal::fromDouble(out.sizeGpuHours).rounded(2);
            out.sizeMoney = Money{(shownHours * options.ratePerGpuHour->amount).rounded(2), options.ratePerGpuHour->currency};
        }
        report.anomalies.push_back(out);
    };
    for (const Anomaly &a : report.utilizationReport.anomalies)
        add(a, TelemetrySeries::Utilization);
    for (const Anomaly &a : report.gpuHoursReport.anomalies)
        add(a, TelemetrySeries::GpuHours);
    std::stable_sort(report.anomalies.begin(), report.anomalies.end(), [](const TelemetryAnomaly &x, const TelemetryAnomaly &y) {
        return std::tie(x.day, x.series) < std::tie(y.day, y.series);
    });
    return report;
}

} // namespace headroom::engine
