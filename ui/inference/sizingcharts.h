#pragma once

#include "common/chartexport.h"
#include "engine/inference/inference_sizing.h"
#include "store/report/reporttables.h"

#include <optional>

#include <QChart>
#include <QString>
#include <vector>

namespace headroom::store {
class Workspace;
}

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

// What the Inference sizing page's two figures are drawn from: a workload, its model, the GPU
// and what-ifs chosen on the page, and the serving assumptions (the residency as chosen).
struct SizingFigureInputs {
    engine::WorkloadProfile workload;
    engine::ModelSpec model;
    engine::GpuSpec gpu;
    engine::SizingOverrides overrides;   // gpu, weights, kv, hit rate and TP all set
    engine::ServingAssumptions serving;
};
// GPUs versus prefix cache hit rate (0–95 %) with `sized` (the plan at the chosen rate)
// explaining an empty chart; and GPUs by GPU type × precision from `whatIfs`
// (engine::sizingWhatIfs of the workload at these overrides). Both carry their report source:
// {"kind": "sizing-hit-rate" | "sizing-by-type", "workload", "gpu", "weights", "kv", "hit_rate",
// "tp", "disaggregate", "residency"}.
ChartFigure sizingHitRateFigure(const SizingFigureInputs &in, const engine::SizingResult &sized);
ChartFigure sizingByTypeFigure(const SizingFigureInputs &in, const std::vector<engine::WhatIf> &whatIfs);
// A report item of those figures drawn again from the workspace as `source` says: the
// workload, model and GPUs as they are now. nullopt with *problem when the workload, its
// model or the GPU is gone or no longer sizes; nullopt with *problem empty for other kinds.
std::optional<store::ReportItem> sizingReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                  QString *problem);

// The residency model a sizing used, as a sentence for captions, summaries and reports:
// "Sized for requests in flight (KV residency: request)."; brief, for a deck's summary:
// "KV sized for requests in flight."
QString residencySentence(engine::KvResidency residency, bool brief = false);

} // namespace headroom::ui
