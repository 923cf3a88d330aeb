#pragma once

#include "trackinganalysis.h"

#include <QString>
#include <QStringList>

// A commitment's next term (engine::CommitmentRecommendation) as the Tracking page's
// commitments table and the tracking deck's reserve-utilization pages show it.
namespace headroom::ui {

// Five cells: days to renewal, "now → recommended" per hour, expected utilization at the
// recommended size (and now), expected saving per term, and what drove it ("forecast" or
// "measured hours") ("—" and the reason when there is none).
QStringList nextTermCells(const CommitmentTrack &track);

// The reasoning in words (empty when nothing was computed).
QString nextTermReasoning(const CommitmentTrack &track);

// The usage-hours size of a spend anomaly ("+30.0 h a day"), from the actuals anomalies of the
// same day; empty when the actuals state no usage hours.
QString usageHoursCell(const TrackingResult &result, const engine::Anomaly &spendAnomaly);

// The anomalies found in the usage hours alone, in words, each with its size in hours and
// money; or that there were none, or why the usage hours were not searched.
QString usageAnomalyNote(const TrackingResult &result);

} // namespace headroom::ui
