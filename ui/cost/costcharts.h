#pragma once

#include "engine/cost/cost.h"

#include <QChart>
#include <QString>
#include <vector>

// Chart builders of the Cost & reservations page: engine results in, QChart out. The page
// and every export call the same functions.
namespace headroom::ui {

// Total cost over the series versus reserved GPUs, with the optimum and the P50 / P75 rules
// marked by dashed lines.
QChart *buildReserveSweepChart(const engine::ReserveAnalysis &analysis, const QString &currency,
                               const QString &title, QChart::ChartTheme theme);

// GPUs per hour over one week of a plan, stacked: reserved-used, reserved-idle, on-demand, spot.
QChart *buildWeekStackChart(const std::vector<engine::HourBreakdown> &hours, int firstHour, const QString &title,
                            QChart::ChartTheme theme);

// Up to this many months each bar has its own label; a longer series is labelled by quarter.
inline constexpr int kMonthsLabelledSingly = 18;

// Reserved versus elastic spend per 30-day month.
QChart *buildMonthlySpendChart(const std::vector<engine::MonthSpend> &months, const QString &currency,
                               const QString &title, QChart::ChartTheme theme);

// Money axis scaling: "USD k" (thousands), "USD M" (millions) or "USD". Returns the divisor
// for values up to `maxValue`.
double moneyAxisScale(double maxValue, const QString &currency, QString *unitTitle);

} // namespace headroom::ui
