#pragma once

#include "engine/inference/inference_sizing.h"

#include <QChart>
#include <QString>
#include <vector>

// Chart builders of the Inference sizing page.
namespace headroom::ui {

// GPUs needed versus prefix cache hit rate — the plan and its memory and compute sides —
// with the current rate marked.
struct HitRatePoint {
    double hitRate = 0;
    int64_t gpus = 0;          // with planned headroom
    int64_t memoryGpus = 0;    // to hold the resident KV of the peak streams
    int64_t computeGpus = 0;   // to serve prefill and decode at peak
    bool feasible = true;
};
QChart *buildGpusVsHitRateChart(const std::vector<HitRatePoint> &points, double currentHitRate, const QString &title,
                                QChart::ChartTheme theme);

// GPUs needed by GPU type (catalog ids as categories) for each weight × KV precision (bar
// sets), on a log axis; infeasible combinations have no bar.
QChart *buildGpusByTypeChart(const std::vector<engine::WhatIf> &whatIfs,
                             const QString &title, QChart::ChartTheme theme);

// The residency model a sizing used, as a sentence for captions, summaries and reports:
// "Sized for requests in flight (KV residency: request)."; brief, for a deck's summary:
// "KV sized for requests in flight."
QString residencySentence(engine::KvResidency residency, bool brief = false);

} // namespace headroom::ui
