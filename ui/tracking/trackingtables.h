#pragma once

#include "trackinganalysis.h"

#include "report/reportdeck.h"

// The Tracking page's billing tables, as the page shows them and the report draws them again.
namespace headroom::ui {

// What each commitment did: hours used and unused, utilization overall and trailing, used and
// unused cost, and whether it is under-used.
DeckTable commitmentsTable(const TrackingResult &result);
// Each commitment's next term (nextTermCells), with its id.
DeckTable nextTermTable(const TrackingResult &result);
// The anomalies of the daily cost; no columns when none were searched.
DeckTable billingAnomaliesTable(const TrackingResult &result);
// Planned against actual cost by day; no columns without a plan.
DeckTable planDaysTable(const TrackingResult &result);

} // namespace headroom::ui
