#include "trackingtables.h"

#include "commitmentnextterm.h"

#include <QObject>

namespace headroom::ui {

namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString money(const engine::Decimal &amount, const std::string &currency)
{
    return qs(engine::Money{amount, currency}.display());
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(QString::number(100.0 * share, 'f', 1));
}

QString commitmentName(const engine::CommitmentUsage &u)
{
    return qs(u.name.empty() ? u.id : u.name);
}

} // namespace

DeckTable commitmentsTable(const TrackingResult &r)
{
    DeckTable table{{QObject::tr("Commitment"), QObject::tr("Used h"), QObject::tr("Unused h"),
                     QObject::tr("Utilization"), QObject::tr("Trailing"), QObject::tr("Used cost"),
                     QObject::tr("Unused cost"), QObject::tr("Under-used")},
                    {}};
    const QString threshold = QString::number(100.0 * r.settings.threshold, 'f', 0);
    for (const CommitmentTrack &track : r.commitments) {
        const engine::CommitmentUsage &u = track.usage;
        // Judged on the trailing window, which the Trailing column shows.
        table.rows << QStringList{commitmentName(u),
                                  QString::number(u.hoursUsed),
                                  QString::number(u.hoursUnused),
                                  percent(u.utilization),
                                  percent(u.trailingUtilization),
                                  money(u.usedCost, u.currency),
                                  money(u.unusedCost, u.currency),
                                  u.underUsed ? QObject::tr("yes: trailing below %1 %").arg(threshold) : QObject::tr("no")};
    }
    return table;
}

DeckTable nextTermTable(const TrackingResult &r)
{
    DeckTable table{{QObject::tr("Commitment"), QObject::tr("Days to renewal"), QObject::tr("Now → recommended"),
                     QObject::tr("Expected utilization"), QObject::tr("Saving per term"), QObject::tr("Basis"),
                     QObject::tr("Id")},
                    {}};
    for (const CommitmentTrack &track : r.commitments)
        table.rows << (QStringList{commitmentName(track.usage)} + nextTermCells(track) + QStringList{qs(track.usage.id)});
    return table;
}

DeckTable billingAnomaliesTable(const TrackingResult &r)
{
    DeckTable table;
    if (!r.anomalies || !r.daily)
        return table;
    table.columns = {QObject::tr("Kind"), QObject::tr("Day (UTC)"), QObject::tr("Actual"), QObject::tr("Expected"),
                     QObject::tr("Size"), QObject::tr("P99.5 interval"), QObject::tr("Usage hours (size)")};
    const auto amount = [&](double v) { return money(engine::Decimal::fromDouble(v).rounded(2), r.currency); };
    for (const engine::Anomaly &a : r.anomalies->anomalies) {
        QString when = utcDay(r.daily->firstDay + a.index);
        if (a.endIndex != a.index)
            when += QObject::tr(" (confirmed %1)").arg(utcDay(r.daily->firstDay + a.endIndex));
        const bool shift = a.kind == engine::AnomalyKind::LevelShift;
        table.rows << QStringList{anomalyKindName(a.kind),
                                  when,
                                  amount(a.value),
                                  amount(a.expected),
                                  shift ? QObject::tr("%1 a day").arg(amount(a.size)) : amount(a.size),
                                  shift ? QString() : QStringLiteral("%1 – %2").arg(amount(a.lower), amount(a.upper)),
                                  usageHoursCell(r, a)};
    }
    return table;
}

DeckTable planDaysTable(const TrackingResult &r)
{
    DeckTable table;
    if (!r.planResult)
        return table;
    const engine::PlanVsActual &p = *r.planResult;
    table.columns = {QObject::tr("Day (UTC)"), QObject::tr("Planned"), QObject::tr("Actual"), QObject::tr("Variance"),
                     QObject::tr("Cumulative variance"), QObject::tr("Forecast P05–P95")};
    for (const engine::PlanDay &d : p.days)
        table.rows << QStringList{utcDay(d.day),
                                  money(d.planned, p.currency),
                                  money(d.actual, p.currency),
                                  money(d.variance, p.currency),
                                  money(d.cumulativeVariance, p.currency),
                                  d.p05 ? QStringLiteral("%1 – %2%3")
                                              .arg(QString::number(*d.p05, 'f', 2), QString::number(*d.p95, 'f', 2),
                                                   d.outsideP99 ? QObject::tr(" (outside P99)") : QString())
                                        : QString()};
    return table;
}

} // namespace headroom::ui
