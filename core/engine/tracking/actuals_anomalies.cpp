#include "actuals_anomalies.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace headroom::engine {

std::pair<double, double> meanObservedAndExpected(const std::vector<double> &values, const std::vector<double> &expected, int first,
                                   int last)
{
    double value = 0.0, forecast = 0.0;
    int count = 0;
    for (int i = std::max(first, 0); i <= last && i < int(values.size()); ++i) {
        if (i >= int(expected.size()) || std::isnan(expected[size_t(i)]))
            continue;
        value += values[size_t(i)];
        forecast += expected[size_t(i)];
        ++count;
    }
    if (count == 0)
        return {0.0, 0.0};
    return {value / count, forecast / count};
}

ActualsAnomalyReport detectActualsAnomalies(const ActualsSummary &actuals, const std::string &currency,
                                            const AnomalyOptions &options)
{
    const auto found = std::find(actuals.currencies.begin(), actuals.currencies.end(), currency);
    if (found == actuals.currencies.end())
        throw InputError("currency", "no charge is in " + currency);
    const auto index = uint32_t(found - actuals.currencies.begin());
    std::map<int64_t, std::pair<Decimal, Decimal>> byDay;
    for (const DayCost &day : actuals.days)
        if (day.currency == index) {
            byDay[day.day].first += day.effectiveCost;
            byDay[day.day].second += day.consumedHours;
        }
    if (byDay.empty())
        throw InputError("currency", "no charge is in " + currency);

    ActualsAnomalyReport report;
    report.currency = currency;
    report.firstDay = byDay.begin()->first;
    const size_t days = size_t(byDay.rbegin()->first - report.firstDay + 1);
    std::vector<Decimal> spend(days);
    report.spend.assign(days, 0.0);
    report.usageHours.assign(days, 0.0);
    bool anyUsage = false;
    for (const auto &[day, values] : byDay) {
        const size_t i = size_t(day - report.firstDay);
        spend[i] = values.first;
        report.spend[i] = values.first.toDouble();
        report.usageHours[i] = values.second.toDouble();
        anyUsage = anyUsage || !values.second.isZero();
    }
    report.spendReport = detectAnomalies(report.spend, options);
    if (anyUsage)
        report.usageReport = detectAnomalies(report.usageHours, options);

    const auto add = [&](const Anomaly &a, AnomalySeries series) {
        ActualsAnomaly out;
        out.series = series;
        out.kind = a.kind;
        out.day = report.firstDay + a.index;
        out.endDay = report.firstDay + a.endIndex;
        // The series it was found in: the detector's own figures. The other: its observation
        // against its forecast over the same days (a shift: up to where it was confirmed, while
        // the forecast still expected the old level).
        if (series == AnomalySeries::Spend) {
            out.spend = a.kind == AnomalyKind::LevelShift ? Decimal::fromDouble(a.value).rounded(2) : spend[size_t(a.index)];
            out.expectedSpend = Decimal::fromDouble(a.expected).rounded(2);
        } else {
            const auto [money, forecast] = meanObservedAndExpected(report.spend, report.spendReport.expected, a.index, a.endIndex);
            out.spend = Decimal::fromDouble(money).rounded(2);
            out.expectedSpend = Decimal::fromDouble(forecast).rounded(2);
        }
        out.moneySize = (out.spend - out.expectedSpend).rounded(2);
        if (series == AnomalySeries::Usage) {
            out.usageHours = a.value;
            out.expectedUsageHours = a.expected;
            out.usageHoursSize = a.size;
        } else if (anyUsage) {
            const auto [hours, forecast] = meanObservedAndExpected(report.usageHours, report.usageReport.expected, a.index, a.endIndex);
            out.usageHours = hours;
            out.expectedUsageHours = forecast;
            out.usageHoursSize = hours - forecast;
        }
        report.anomalies.push_back(out);
    };
    for (const Anomaly &a : report.spendReport.anomalies)
        add(a, AnomalySeries::Spend);
    for (const Anomaly &a : report.usageReport.anomalies)
        add(a, AnomalySeries::Usage);
    std::stable_sort(report.anomalies.begin(), report.anomalies.end(), [](const ActualsAnomaly &x, const ActualsAnomaly &y) {
        return std::tie(x.day, x.series) < std::tie(y.day, y.series);
    });
    return report;
}

} // namespace headroom::engine
