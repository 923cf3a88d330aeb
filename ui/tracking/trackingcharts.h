#pragma once

#include "trackinganalysis.h"
#include "trackingserving.h"

#include "common/chartexport.h"

// The Tracking page's charts, the same builders on screen, in exports and in the tracking
// deck. Money axes are in the result's one currency.
namespace headroom::ui {

// Used and unused EffectiveCost of one commitment per hour or day, stacked, with the end of
// its term marked when the actuals name it and it falls inside the period shown.
ChartFigure commitmentUtilizationFigure(const CommitmentTrack &track);

// Utilization of every commitment (bars, %) against the under-use threshold.
ChartFigure utilizationTrackerFigure(const TrackingResult &result);

// The daily effective cost with its anomalies marked; `highlighted` (an index into
// result.anomalies->anomalies, or -1) drawn larger, in its own series "Selected".
ChartFigure anomalyFigure(const TrackingResult &result, int highlighted = -1);

// Planned cost per day against the actual, the forecast's P05–P95 band after its history and
// the cumulative variance on a second axis.
ChartFigure planFigure(const TrackingResult &result);

// One deployment's load per hour (Σ over its replicas) against the busy-hour load with the
// planned headroom, the capacity of the recommended replicas and of those running now.
ChartFigure servingLoadFigure(const engine::RightsizingResult &result);

// Goodput per GPU (generated tokens/s per GPU) by UTC day, with each optimization marked.
ChartFigure goodputFigure(const ServingAnalysis &analysis);

// The fleet's GPU utilization per UTC day (%) with its one-step forecast and anomalies marked,
// and the GPU-hours per day on the right axis with theirs.
ChartFigure servingUtilizationFigure(const ServingAnalysis &analysis);

} // namespace headroom::ui
