#include "forecasttext.h"

#include <QCoreApplication>
#include <QDateTime>
#include <cmath>

namespace headroom::ui {

QString probabilityName(double p)
{
    return QStringLiteral("P%1").arg(int(std::lround(p * 100)), 2, 10, QLatin1Char('0'));
}

QString epochText(int64_t epoch)
{
    return QDateTime::fromSecsSinceEpoch(epoch, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:00")) +
           QStringLiteral(" UTC");
}

QString hourText(int64_t startEpoch, int64_t hour)
{
    if (startEpoch <= 0)
        return QCoreApplication::translate("QObject", "hour %1").arg(hour);
    return QDateTime::fromSecsSinceEpoch(startEpoch + hour * 3600, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:00"));
}

} // namespace headroom::ui
