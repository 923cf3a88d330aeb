#pragma once

#include "engine/fleet/capacity_mix.h"
#include "engine/training/training.h"

#include <QChart>
#include <QString>
#include <array>
#include <optional>
#include <vector>

// Chart builders of the Training sizing page (DESIGN §3.3).
namespace headroom::ui {

// A large count with a K/M/B/T suffix (10^3 … 10^12) and 4 significant digits: "70.6 B",
// "1.4 T"; below 1,000 as a whole number. Shared by the Training pages.
QString formatScaledCount(double value);

// Memory per GPU for ZeRO stages 0–3 (categories), stacked weights, gradients, optimizer
// states and activations in GiB, against the GPU's memory and its usable share (lines).
QChart *buildZeroMemoryChart(const std::array<engine::MemoryBreakdown, 4> &stages, int chosenStage,
                             int64_t gpuMemoryBytes, int64_t usableMemoryBytes, const QString &title,
                             QChart::ChartTheme theme);

// Wall-clock days versus GPUs (both log axes); counts where the chosen ZeRO stage does not fit
// are drawn dotted; the target window (when given) is a dashed line and the plan a point.
QChart *buildDaysVersusGpusChart(const std::vector<engine::DaysPoint> &points, std::optional<double> windowDays,
                                 int64_t planGpus, double planDays, const QString &title, QChart::ChartTheme theme);

// The dynamically shared cluster hour by hour over the horizon (x in weeks): stacked areas of
// inference, training and idle GPUs, averaged over bins of a few hours so that at most
// `maxPoints` points are drawn; the partitioned cluster's size as a dashed line.
QChart *buildMixTimelineChart(const engine::MixResult &mix, const QString &title, QChart::ChartTheme theme,
                              int maxPoints = 600);

// Capacity needed per month (stacked inference and training GPUs), the capacity installed
// after each month's additions (from `installedGpus` today), and the order-by month of the
// first addition (the months carry it, from the reservation lead time).
QChart *buildGrowthChart(const std::vector<engine::GrowthMonth> &months, int64_t installedGpus, const QString &title,
                         QChart::ChartTheme theme);

} // namespace headroom::ui
