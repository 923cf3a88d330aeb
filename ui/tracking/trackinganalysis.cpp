#include "trackinganalysis.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"

#include <QObject>
#include <algorithm>
#include <map>

namespace headroom::ui {

namespace {

constexpr int64_t kHour = 3600;
constexpr int64_t kDay = 86400;
// Commitments charged over at most this many days are charted by the hour.
constexpr int64_t kHourlyChartDays = 7;

int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

std::vector<UtilizationBucket> bucketsOf(const engine::ActualsSummary &actuals, const engine::CommitmentUsage &usage)
{
    std::vector<UtilizationBucket> buckets;
    if (usage.lastHour - usage.firstHour < kHourlyChartDays * kDay) {
        std::map<int64_t, UtilizationBucket> byHour;
        for (const engine::CommitmentHourCost &h : actuals.commitmentHours) {
            if (actuals.commitments.at(h.commitment).id != usage.id || actuals.currencies.at(h.currency) != usage.currency)
                continue;
            UtilizationBucket &b = byHour[h.hour];
            (h.status == engine::CommitmentStatus::Used ? b.used : b.unused) += h.effectiveCost;
        }
        for (int64_t hour = usage.firstHour / kHour; hour <= usage.lastHour / kHour; ++hour) {
            UtilizationBucket b;
            if (const auto it = byHour.find(hour); it != byHour.end())
                b = it->second;
            b.start = hour * kHour;
            b.seconds = kHour;
            buckets.push_back(b);
        }
        return buckets;
    }
    for (const engine::CommitmentDay &d : engine::commitmentDays(actuals, usage.id, usage.currency))
        buckets.push_back({d.day * kDay, kDay, d.usedCost, d.unusedCost});
    return buckets;
}

} // namespace

engine::Decimal TrackingResult::usedCost() const
{
    engine::Decimal sum;
    for (const CommitmentTrack &c : commitments)
        sum += c.usage.usedCost;
    return sum;
}

engine::Decimal TrackingResult::unusedCost() const
{
    engine::Decimal sum;
    for (const CommitmentTrack &c : commitments)
        sum += c.usage.unusedCost;
    return sum;
}

double TrackingResult::utilization() const
{
    const engine::Decimal whole = usedCost() + unusedCost();
    return whole.isZero() ? 0.0 : (usedCost() / whole).toDouble();
}

int TrackingResult::underUsedCount() const
{
    return int(std::count_if(commitments.begin(), commitments.end(),
                             [](const CommitmentTrack &c) { return c.usage.underUsed; }));
}

std::vector<engine::CommitmentRecommendation> nextTerms(const engine::ActualsSummary &actuals,
                                                        const TrackingSettings &settings)
{
    engine::RenewalOptions renewal;
    renewal.historyHours = int(std::max<int64_t>(2, std::min<int64_t>(settings.trailingHours, 1'000'000)));
    return engine::recommendCommitments(actuals, renewal);
}

TrackingResult analyseTracking(const engine::ActualsSummary &actuals, const TrackingSettings &settings,
                               const std::optional<PlanInput> &plan,
                               const std::vector<engine::CommitmentRecommendation> *given)
{
    TrackingResult result;
    result.settings = settings;
    result.currencies = actuals.currencies;
    result.plan = plan;
    result.currency = settings.currency;
    if (result.currency.empty() && !actuals.currencies.empty())
        result.currency = actuals.currencies.front();
    const auto found = std::find(actuals.currencies.begin(), actuals.currencies.end(), result.currency);
    if (found == actuals.currencies.end())
        throw engine::InputError("currency", "the actuals hold no charge in " + result.currency);
    const auto currencyIndex = uint32_t(found - actuals.currencies.begin());

    engine::CommitmentOptions options;
    options.threshold = settings.threshold;
    options.trailingHours = settings.trailingHours;
    const engine::CommitmentReport report = engine::analyseCommitments(actuals, options);
    const std::vector<engine::CommitmentRecommendation> next = given ? *given : nextTerms(actuals, settings);
    for (const engine::CommitmentUsage &usage : report.commitments) {
        if (usage.currency != result.currency)
            continue;
        CommitmentTrack track;
        track.usage = usage;
        track.buckets = bucketsOf(actuals, usage);
        for (size_t i = 1; i < actuals.commitments.size(); ++i)
            if (actuals.commitments[i].id == usage.id)
                track.termEnd = std::max(track.termEnd, actuals.termEnds.at(i));
        for (const engine::CommitmentRecommendation &rec : next)
            if (rec.id == usage.id && rec.currency == usage.currency)
                track.next = rec;
        result.commitments.push_back(std::move(track));
    }
    for (const engine::Money &m : report.onDemandOverflow)
        if (m.currency == result.currency)
            result.onDemandOverflow = m.amount;

    bool anyDay = false;
    for (const engine::DayCost &d : actuals.days)
        if (d.currency == currencyIndex) {
            result.totalBilled += d.billedCost;
            anyDay = true;
        }
    if (!anyDay) {
        result.anomalyNote = QObject::tr("No charge in %1.").arg(QString::fromStdString(result.currency));
        result.planNote = result.anomalyNote;
        return result;
    }
    result.daily = engine::dailyEffectiveCost(actuals, result.currency);
    for (const engine::Decimal &cost : result.daily->cost)
        result.totalEffective += cost;

    // Anomalies on the daily cost: a weekly season needs two weeks of history and a day after.
    std::vector<double> series;
    for (const engine::Decimal &cost : result.daily->cost)
        series.push_back(cost.toDouble());
    const int needed = std::max(2 * settings.anomalyPeriod, 3) + 1;
    if (int(series.size()) < needed) {
        result.anomalyNote = QObject::tr("Anomaly detection needs at least %1 days of actuals; these hold %2.")
                                 .arg(needed)
                                 .arg(series.size());
    } else {
        engine::AnomalyOptions anomalyOptions;
        anomalyOptions.period = settings.anomalyPeriod;
        result.actualsAnomalies = engine::detectActualsAnomalies(actuals, result.currency, anomalyOptions);
        result.anomalies = result.actualsAnomalies->spendReport;
    }

    if (!plan) {
        result.planNote = QObject::tr("Choose a scenario to compare its planned cost per day with the actuals.");
    } else if (plan->costPerDay.currency != result.currency) {
        result.planNote = QObject::tr("Scenario %1 is priced in %2 and the actuals shown are in %3: amounts in two "
                                      "currencies are never compared. Choose %2 above.")
                              .arg(plan->scenario, QString::fromStdString(plan->costPerDay.currency),
                                   QString::fromStdString(result.currency));
    } else {
        engine::PlanOptions planOptions;
        planOptions.driftPeriods = settings.driftPeriods;
        planOptions.history = settings.planHistory;
        result.planResult = engine::comparePlan(plan->costPerDay, *result.daily, planOptions);
    }
    return result;
}

QString utcDate(int64_t epochSeconds)
{
    return utcDay(floorDiv(epochSeconds, kDay));
}

QString utcDay(int64_t day)
{
    return QString::fromStdString(engine::isoDate(engine::dateFromDays(day)));
}

QString anomalyKindName(engine::AnomalyKind kind)
{
    switch (kind) {
    case engine::AnomalyKind::Spike:
        return QObject::tr("Spike");
    case engine::AnomalyKind::Dip:
        return QObject::tr("Dip");
    case engine::AnomalyKind::LevelShift:
        return QObject::tr("Level shift");
    }
    return {};
}

} // namespace headroom::ui
