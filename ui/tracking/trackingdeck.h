#pragma once

#include "report/reportdeck.h"
#include "trackingchargeback.h"
#include "trackingjobs.h"

#include <QString>
#include <cstdint>
#include <optional>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

struct TrackingDeckOptions {
    std::optional<int64_t> sinceDay;   // UTC days since 1970-01-01: charges starting then or later
    double threshold = 0.8;            // under-used below this trailing utilization
    int64_t trailingHours = 720;
    QString scenario;                  // a scenario for plan versus actual; empty for none
    QString servingGpu;                // the serving pages' rate: this GPU's lowest on-demand rate; empty: unpriced
    std::optional<ChargebackRun> chargeback; // a shared pool's chargeback, its pages after the serving ones
    std::optional<TrainingJobsRun> trainingJobs; // training jobs' stall audit and goodput, last
};

// The recurring tracking deck (DESIGN §3.7c) from the newest actuals import of the workspace,
// one section per currency (never summed): a dashboard of the headline figures, the
// reserve-utilization tracker (table and chart), each under-used commitment's use over
// time, the anomalies of the daily cost, and with a scenario its plan against the actuals;
// then, when the workspace holds serving metrics or optimizations, rightsizing and the
// benchmark history (trackingserving.h); then the chargeback and the training jobs when given.
// Without actuals, the serving pages, the chargeback and the training jobs that there are.
// Throws store::StoreError when the workspace holds no actuals (and neither is given nor any
// serving metrics held) or
// the scenario is missing,
// engine::InputError when the actuals hold nothing since the date.
Deck trackingDeck(const store::Workspace &workspace, const TrackingDeckOptions &options);

} // namespace headroom::ui
