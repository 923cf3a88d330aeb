#pragma once

#include "engine/inference_sizing.h"

#include <QChart>
#include <QString>
#include <map>
#include <string>
#include <vector>

// Chart builders of the Inference sizing page.
namespace headroom::ui {

// GPUs needed versus prefix cache hit rate, with the current rate marked.
struct HitRatePoint {
    double hitRate = 0;
    int64_t gpus = 0;
    bool feasible = true;
};
QChart *buildGpusVsHitRateChart(const std::vector<HitRatePoint> &points, double currentHitRate, const QString &title,
                                QChart::ChartTheme theme);

// GPUs needed by GPU type (categories) for each weight × KV precision (bar sets); infeasible
// combinations are left out and named in the caption.
QChart *buildGpusByTypeChart(const std::vector<engine::WhatIf> &whatIfs, const std::map<std::string, QString> &gpuNames,
                             const QString &title, QChart::ChartTheme theme);

} // namespace headroom::ui
