#include "tracking.h"

#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace headroom::engine {

namespace {

constexpr int64_t kHour = 3600;
// Standard normal quantile at 0.9975: the half-width of the central 99.5 % interval.
constexpr double kZ995 = 2.807033768343811;
// This many samples in a row outside the band on one side are a level shift, not spikes.
constexpr int kConsecutiveOutside = 3;

int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

double ratio(Decimal part, Decimal whole)
{
    if (whole.isZero())
        return 0.0;
    return (part / whole).toDouble();
}

} // namespace

CommitmentReport analyseCommitments(const ActualsSummary &actuals, const CommitmentOptions &options)
{
    if (!(options.threshold > 0.0 && options.threshold <= 1.0))
        throw InputError("threshold", "the under-use threshold must be a utilization in (0, 1]");
    if (options.trailingHours < 1)
        throw InputError("trailing_hours", "the trailing window must be at least 1 hour");

    CommitmentReport report;
    // Hours in which a commitment (by service and region) had something unused: on-demand
    // usage then is not overflow.
    std::map<std::pair<std::string, std::string>, std::set<int64_t>> unusedHoursByServiceRegion;
    std::set<std::pair<std::string, std::string>> coveredServiceRegions;
    for (const CommitmentScope &scope : actuals.scopes)
        coveredServiceRegions.insert({scope.service, scope.region});
    // commitmentHours are ordered by commitment, currency, hour, status: one run per pair.
    const auto &hours = actuals.commitmentHours;
    for (size_t begin = 0; begin < hours.size();) {
        size_t end = begin;
        while (end < hours.size() && hours[end].commitment == hours[begin].commitment
               && hours[end].currency == hours[begin].currency)
            ++end;
        CommitmentUsage usage;
        const FocusCommitment &commitment = actuals.commitments.at(hours[begin].commitment);
        usage.id = commitment.id;
        usage.name = commitment.name;
        usage.currency = actuals.currencies.at(hours[begin].currency);
        std::set<int64_t> unusedHours;
        for (size_t i = begin; i < end; ++i) {
            const CommitmentHourCost &h = hours[i];
            if (h.status == CommitmentStatus::Used) {
                ++usage.hoursUsed;
                usage.usedCost += h.effectiveCost;
            } else {
                ++usage.hoursUnused;
                usage.unusedCost += h.effectiveCost;
                unusedHours.insert(h.hour);
            }
        }
        for (const CommitmentScope &scope : actuals.scopes)
            if (scope.commitment == hours[begin].commitment && scope.currency == hours[begin].currency)
                unusedHoursByServiceRegion[{scope.service, scope.region}].insert(unusedHours.begin(), unusedHours.end());
        const int64_t firstHour = hours[begin].hour;
        const int64_t lastHour = hours[end - 1].hour;
        usage.firstHour = firstHour * kHour;
        usage.lastHour = lastHour * kHour;
        usage.utilization = ratio(usage.usedCost, usage.usedCost + usage.unusedCost);
        const int64_t windowStart = lastHour + 1 - options.trailingHours;
        Decimal trailingUsed, trailingUnused;
        for (size_t i = begin; i < end; ++i)
            if (hours[i].hour >= windowStart)
                (hours[i].status == CommitmentStatus::Used ? trailingUsed : trailingUnused) += hours[i].effectiveCost;
        usage.trailingUtilization = ratio(trailingUsed, trailingUsed + trailingUnused);
        usage.underUsed = usage.trailingUtilization < options.threshold;
        report.commitments.push_back(std::move(usage));
        begin = end;
    }
    std::stable_sort(report.commitments.begin(), report.commitments.end(),
                     [](const CommitmentUsage &x, const CommitmentUsage &y) {
                         return std::tie(x.id, x.currency) < std::tie(y.id, y.currency);
                     });

    std::map<uint32_t, Decimal> overflow;
    for (const OnDemandCost &cost : actuals.onDemand) {
        const std::pair<std::string, std::string> sr{cost.service, cost.region};
        if (!coveredServiceRegions.count(sr))
            continue;
        const std::set<int64_t> &unused = unusedHoursByServiceRegion[sr];
        const auto it = unused.lower_bound(cost.firstHour);
        if (it != unused.end() && *it < cost.lastHour)
            continue;
        overflow[cost.currency] += cost.effectiveCost;
    }
    for (const auto &[currency, cost] : overflow)
        report.onDemandOverflow.push_back({cost, actuals.currencies.at(currency)});
    return report;
}

CommitmentReport analyseCommitments(const FocusCharges &charges, const CommitmentOptions &options)
{
    if (!(options.threshold > 0.0 && options.threshold <= 1.0))
        throw InputError("threshold", "the under-use threshold must be a utilization in (0, 1]");
    if (options.trailingHours < 1)
        throw InputError("trailing_hours", "the trailing window must be at least 1 hour");
    return analyseCommitments(summarizeActuals(charges), options);
}

std::vector<CommitmentDay> commitmentDays(const ActualsSummary &actuals, const std::string &id,
                                          const std::string &currency)
{
    std::map<int64_t, CommitmentDay> byDay;
    for (const CommitmentHourCost &h : actuals.commitmentHours) {
        if (actuals.commitments.at(h.commitment).id != id || actuals.currencies.at(h.currency) != currency)
            continue;
        CommitmentDay &day = byDay[floorDiv(h.hour, 24)];
        if (h.status == CommitmentStatus::Used) {
            day.usedCost += h.effectiveCost;
            ++day.hoursUsed;
        } else {
            day.unusedCost += h.effectiveCost;
            ++day.hoursUnused;
        }
    }
    if (byDay.empty())
        throw InputError("commitment", "commitment \"" + id + "\" has no charged hour in " + currency);
    std::vector<CommitmentDay> days;
    for (int64_t d = byDay.begin()->first; d <= byDay.rbegin()->first; ++d) {
        CommitmentDay day;
        if (const auto it = byDay.find(d); it != byDay.end())
            day = it->second;
        day.day = d;
        days.push_back(day);
    }
    return days;
}

DailyCost dailyEffectiveCost(const ActualsSummary &actuals, const std::string &currency)
{
    const auto found = std::find(actuals.currencies.begin(), actuals.currencies.end(), currency);
    if (found == actuals.currencies.end())
        throw InputError("currency", "no charge is in " + currency);
    const auto index = uint32_t(found - actuals.currencies.begin());
    std::map<int64_t, Decimal> byDay;
    for (const DayCost &day : actuals.days)
        if (day.currency == index)
            byDay[day.day] += day.effectiveCost;
    // A currency can be named by the file while no charge row kept it.
    if (byDay.empty())
        throw InputError("currency", "no charge is in " + currency);
    DailyCost daily;
    daily.currency = currency;
    daily.firstDay = byDay.begin()->first;
    daily.cost.assign(size_t(byDay.rbegin()->first - daily.firstDay + 1), Decimal());
    for (const auto &[day, cost] : byDay)
        daily.cost[size_t(day - daily.firstDay)] = cost;
    return daily;
}

DailyCost dailyEffectiveCost(const FocusCharges &charges, const std::string &currency)
{
    return dailyEffectiveCost(summarizeActuals(charges), currency);
}

std::string_view toString(AnomalyKind kind)
{
    switch (kind) {
    case AnomalyKind::Spike: return "spike";
    case AnomalyKind::Dip: return "dip";
    case AnomalyKind::LevelShift: return "level_shift";
    }
    return {};
}

AnomalyReport detectAnomalies(const std::vector<double> &series, const AnomalyOptions &options)
{
    if (options.period < 0 || options.period == 1)
        throw InputError("period", "the season length must be 0 (none) or at least 2 samples");
    if (options.history < 0)
        throw InputError("history", "the history must be 0 (automatic) or a number of samples");
    if (!(options.cusumDrift >= 0.0) || !(options.cusumLimit > 0.0))
        throw InputError("cusum", "the CUSUM reference must be ≥ 0 and its limit > 0");
    for (double v : series)
        if (!std::isfinite(v))
            throw InputError("series", "the series holds a value that is not a finite number");
    const int n = int(series.size());
    const int minimumHistory = std::max(2 * options.period, 3);
    const int history = options.history > 0 ? options.history : std::max(minimumHistory, n / 4);
    if (history < minimumHistory)
        throw InputError("history", "the history must hold at least two seasons (" + std::to_string(minimumHistory)
                                        + " samples)");
    if (n <= history)
        throw InputError("series", "the series has " + std::to_string(n) + " samples; anomaly detection needs more than "
                                       + std::to_string(history) + " (the history the model is fitted on)");

    SmoothingSpec spec;
    spec.trend = TrendKind::None;
    spec.season = options.period > 0 ? SeasonKind::Additive : SeasonKind::None;
    spec.period = options.period;
    const std::vector<double> trainingPart(series.begin(), series.begin() + history);
    const SmoothingModel trained = fitSmoothing(trainingPart, spec);

    AnomalyReport report;
    report.history = history;
    // The in-sample standard deviation understates the error of a forecast: it is scaled by
    // √(n ÷ (n − p)) for the p fitted values (α, γ, the level and the seasonal states).
    const int fittedValues = 2 + (options.period > 0 ? 1 + options.period : 0);
    report.residualSd = history > fittedValues
        ? trained.residualSd * std::sqrt(double(history) / double(history - fittedValues))
        : trained.residualSd;
    // A perfectly fitted history would make every later wiggle an anomaly: the floor is a
    // millionth of the history's mean magnitude.
    double meanAbs = 0.0;
    for (double v : trainingPart)
        meanAbs += std::abs(v);
    meanAbs /= double(history);
    const double sd = std::max(report.residualSd, 1e-6 * std::max(meanAbs, 1.0));
    report.halfWidth = kZ995 * sd;

    FitOptions replay;
    replay.fixedParams = trained.params;
    replay.knownStates = trained.initial;

    std::vector<double> cleaned = series;
    std::vector<double> fitted = fitSmoothing(cleaned, spec, replay).fitted;
    double offset = 0.0;            // Σ confirmed level shifts
    double upper = 0.0, lower = 0.0;
    int runStart = history;         // first sample after the CUSUM sums last stood at zero
    int outsideRun = 0;             // consecutive samples outside the band on one side
    int outsideSide = 0;
    const int sizingSamples = std::max(options.period, 12);
    std::vector<Anomaly> points;
    report.expected.assign(size_t(n), std::nan(""));
    // Confirms a level shift from `start` (found at `confirmed`): its size is the mean
    // one-step residual over the shift's first max(period, 12) samples.
    const auto confirmShift = [&](int start, int confirmed) {
        const int stop = std::min(n, std::max(start + sizingSamples, confirmed + 1));
        double sum = 0.0, expectedSum = 0.0;
        for (int i = start; i < stop; ++i) {
            sum += series[size_t(i)] - offset - fitted[size_t(i)];
            expectedSum += fitted[size_t(i)] + offset;
        }
        const int count = stop - start;
        Anomaly shift;
        shift.kind = AnomalyKind::LevelShift;
        shift.index = start;
        shift.endIndex = confirmed;
        shift.size = sum / count;
        shift.expected = expectedSum / count;
        shift.value = shift.expected + shift.size;
        // Points inside the shift were the shift itself, not spikes.
        points.erase(std::remove_if(points.begin(), points.end(),
                                    [&](const Anomaly &a) { return a.index >= start; }),
                     points.end());
        points.push_back(shift);
        offset += shift.size;
        for (int i = start; i <= confirmed; ++i)
            cleaned[size_t(i)] = series[size_t(i)] - offset;
        upper = lower = 0.0;
        outsideRun = 0;
        outsideSide = 0;
    };
    for (int t = history; t < n; ++t) {
        const double y = series[size_t(t)] - offset;
        const double expected = fitted[size_t(t)];
        const double residual = y - expected;
        report.expected[size_t(t)] = expected + offset;
        bool changed = false;
        if (std::abs(residual) > report.halfWidth) {
            // Outside the band: a spike or dip, unless it is the kConsecutive-th in a row on the
            // same side, which makes the run a level shift. It does not feed CUSUM.
            const int side = residual > 0 ? 1 : -1;
            outsideRun = side == outsideSide ? outsideRun + 1 : 1;
            outsideSide = side;
            Anomaly a;
            a.kind = side > 0 ? AnomalyKind::Spike : AnomalyKind::Dip;
            a.index = a.endIndex = t;
            a.value = series[size_t(t)];
            a.expected = expected + offset;
            a.lower = a.expected - report.halfWidth;
            a.upper = a.expected + report.halfWidth;
            a.size = a.value - a.expected;
            points.push_back(a);
            cleaned[size_t(t)] = expected;
            changed = true;
            if (outsideRun == kConsecutiveOutside)
                confirmShift(t - kConsecutiveOutside + 1, t);
        } else {
            outsideRun = 0;
            outsideSide = 0;
            cleaned[size_t(t)] = y;
            const double z = residual / sd;
            if (upper == 0.0 && lower == 0.0)
                runStart = t;
            upper = std::max(0.0, upper + z - options.cusumDrift);
            lower = std::max(0.0, lower - z - options.cusumDrift);
            if (upper > options.cusumLimit || lower > options.cusumLimit) {
                confirmShift(runStart, t);
                changed = true;
            }
        }
        if (changed)
            fitted = fitSmoothing(cleaned, spec, replay).fitted;
    }
    std::sort(points.begin(), points.end(), [](const Anomaly &a, const Anomaly &b) { return a.index < b.index; });
    report.anomalies = std::move(points);
    return report;
}

PlanVsActual comparePlan(const Money &plannedPerDay, const DailyCost &actuals, const PlanOptions &options)
{
    if (plannedPerDay.currency != actuals.currency)
        throw InputError("currency", "the plan is in " + plannedPerDay.currency + " and the actuals in "
                                         + actuals.currency + "; amounts in two currencies are never compared");
    if (options.driftPeriods < 1)
        throw InputError("drift_periods", "drift needs at least 1 period outside the band");
    if (options.history < 2)
        throw InputError("history", "the forecast band needs at least 2 days of history");

    PlanVsActual result;
    result.currency = actuals.currency;
    Decimal cumulative;
    for (size_t i = 0; i < actuals.cost.size(); ++i) {
        PlanDay day;
        day.day = actuals.firstDay + int64_t(i);
        day.planned = plannedPerDay.amount;
        day.actual = actuals.cost[i];
        day.variance = day.actual - day.planned;
        cumulative += day.variance;
        day.cumulativeVariance = cumulative;
        result.totalPlanned += day.planned;
        result.totalActual += day.actual;
        result.days.push_back(day);
    }
    result.cumulativeVariance = cumulative;

    const int n = int(actuals.cost.size());
    if (n > options.history) {
        std::vector<double> past;
        for (int i = 0; i < options.history; ++i)
            past.push_back(actuals.cost[size_t(i)].toDouble());
        SmoothingSpec spec;
        if (options.history >= 14) {
            spec.season = SeasonKind::Additive;
            spec.period = 7;
        }
        const SmoothingModel model = fitSmoothing(past, spec);
        const int horizon = n - options.history;
        const SamplePaths paths = simulatePaths(model, horizon, options.paths, options.seed);
        const auto bands = pathQuantiles(paths, {0.005, 0.05, 0.95, 0.995});
        result.banded = true;
        int inside = 0, run = 0;
        for (int s = 0; s < horizon; ++s) {
            PlanDay &day = result.days[size_t(options.history + s)];
            day.p005 = bands[0][size_t(s)];
            day.p05 = bands[1][size_t(s)];
            day.p95 = bands[2][size_t(s)];
            day.p995 = bands[3][size_t(s)];
            const double actual = day.actual.toDouble();
            inside += actual >= *day.p05 && actual <= *day.p95;
            day.outsideP99 = actual < *day.p005 || actual > *day.p995;
            run = day.outsideP99 ? run + 1 : 0;
            if (run == options.driftPeriods && !result.driftDay)
                result.driftDay = day.day - (options.driftPeriods - 1);
        }
        result.bandedDays = horizon;
        result.coverage90 = double(inside) / double(horizon);
    }
    return result;
}

} // namespace headroom::engine
