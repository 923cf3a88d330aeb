#include "commitmentnextterm.h"

#include <QObject>

namespace headroom::ui {

namespace {

QString perHour(const engine::Decimal &amount, const std::string &currency)
{
    return QObject::tr("%1/h").arg(QString::fromStdString(engine::Money{amount, currency}.display()));
}

} // namespace

QStringList nextTermCells(const CommitmentTrack &track)
{
    QString days = QObject::tr("not in the actuals");
    if (track.next && track.next->daysToRenewal)
        days = *track.next->daysToRenewal >= 0 ? QObject::tr("%1 days").arg(*track.next->daysToRenewal)
                                               : QObject::tr("ended %1 days ago").arg(-*track.next->daysToRenewal);
    if (!track.next || !track.next->available)
        return {days, QObject::tr("—"), QObject::tr("—"), QObject::tr("—"), QObject::tr("—")};
    const engine::CommitmentRecommendation &r = *track.next;
    const QString now = QString::number(100.0 * r.currentUtilization, 'f', 1);
    return {days,
            QObject::tr("%1 → %2").arg(perHour(r.currentPerHour, r.currency), perHour(r.recommendedPerHour, r.currency)),
            r.recommendedPerHour.isZero()
                ? QObject::tr("— (commit nothing; now %1 %)").arg(now)
                : QObject::tr("%1 % (now %2 %)").arg(QString::number(100.0 * r.recommendedUtilization, 'f', 1), now),
            QString::fromStdString(r.savingPerTerm.display()),
            r.basis == engine::RenewalBasis::Measured ? QObject::tr("measured hours") : QObject::tr("forecast")};
}

QString nextTermReasoning(const CommitmentTrack &track)
{
    return track.next ? QString::fromStdString(track.next->reasoning) : QString();
}

QString usageHoursCell(const TrackingResult &result, const engine::Anomaly &spendAnomaly)
{
    if (!result.actualsAnomalies || result.actualsAnomalies->usageReport.history == 0)
        return QString();
    const int64_t day = result.actualsAnomalies->firstDay + spendAnomaly.index;
    for (const engine::ActualsAnomaly &a : result.actualsAnomalies->anomalies)
        if (a.series == engine::AnomalySeries::Spend && a.day == day && a.kind == spendAnomaly.kind)
            return QObject::tr("%1%2 h%3")
                .arg(a.usageHoursSize >= 0 ? QStringLiteral("+") : QString())
                .arg(QString::number(a.usageHoursSize, 'f', 1))
                .arg(a.kind == engine::AnomalyKind::LevelShift ? QObject::tr(" a day") : QString());
    return QString();
}

QString usageAnomalyNote(const TrackingResult &result)
{
    if (!result.actualsAnomalies)
        return QString();
    const engine::ActualsAnomalyReport &report = *result.actualsAnomalies;
    if (report.usageReport.history == 0)
        return QObject::tr("Usage hours: no usage row states a ConsumedQuantity in hours, so only the spend is searched.");
    QStringList found;
    for (const engine::ActualsAnomaly &a : report.anomalies) {
        if (a.series != engine::AnomalySeries::Usage)
            continue;
        found << QObject::tr("%1 %2: %3%4 h (%5) a day against the forecast")
                     .arg(anomalyKindName(a.kind), utcDay(a.day))
                     .arg(a.usageHoursSize >= 0 ? QStringLiteral("+") : QString())
                     .arg(QString::number(a.usageHoursSize, 'f', 1))
                     .arg(QString::fromStdString(engine::Money{a.moneySize, report.currency}.display()));
    }
    if (found.isEmpty())
        return QObject::tr("Usage hours (ConsumedQuantity in hours, GPU-hours when billed per GPU): no anomaly.");
    return QObject::tr("Usage-hour anomalies (ConsumedQuantity in hours, GPU-hours when billed per GPU): %1.")
        .arg(found.join(QStringLiteral("; ")));
}

} // namespace headroom::ui
