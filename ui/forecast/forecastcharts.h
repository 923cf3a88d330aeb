#pragma once

#include <QChart>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

// Chart builders of the Forecast page: forecast results in, QChart out. The page and every
// export call the same functions.
namespace headroom::ui {

// Probabilities of the fan: the P50 line and the central bands P25–P75, P05–P95 and P01–P99,
// whose upper edges are the P75, P95 and P99 a buffer is sized from.
const std::vector<double> &fanProbabilities();

// One series' history and forecast distribution, hourly, in GPUs.
struct FanChartData {
    int64_t startEpochSeconds = 0;              // UTC start of history hour 0; 0 = unknown (hour axis)
    int firstShownHour = 0;                     // history hours before this one are not drawn
    std::vector<double> history;                // all observed hours
    std::vector<std::vector<double>> quantiles; // [fanProbabilities() index][forecast step]
};

// History line, P50 forecast line, P25–P75 / P05–P95 / P01–P99 bands as nested translucent
// areas and a dashed marker at the forecast origin; x in UTC date and hour (or hours of the
// series when the start is unknown), y in GPUs.
QChart *buildFanChart(const FanChartData &data, const QString &title, QChart::ChartTheme theme);

// Errors of the decomposed and the single-model forecast side by side: one group of bars per
// category (e.g. "All held-out hours", "Burst hours"), one bar set per method, in `unit`.
struct ErrorBarsData {
    QStringList categories;
    QStringList methods;                        // bar sets, e.g. "Decomposed", "Single model"
    std::vector<std::vector<double>> values;    // [method][category]
    QString unit;                               // y axis title
};
QChart *buildErrorBarsChart(const ErrorBarsData &data, const QString &title, QChart::ChartTheme theme);

} // namespace headroom::ui
