#pragma once

#include "common/chartexport.h"
#include "report/reportdeck.h"

#include "engine/tracking/input_stalls.h"
#include "engine/tracking/job_goodput.h"

#include <QString>
#include <map>
#include <optional>
#include <string>

// Training jobs in tracking (DESIGN §3.7c): the data-loading stall audit of the last five jobs
// and each job's goodput per GPU against its plan, from one job telemetry file — as the Tracking
// page's Training jobs section shows them and the tracking deck prints them.
namespace headroom::ui {

struct TrainingJobsRun {
    engine::StallAudit stalls;
    std::optional<engine::JobGoodputTracking> goodput;   // none when no job reports training_throughput
    double below = 0.9;
    QString telemetryFile;                               // the file's name, for captions
    std::map<std::string, QString> planSource;           // job → "training job" or "given"
};

// Reads the telemetry and runs both analyses; `planned` the rates to hold jobs to (from
// store::plannedTrainingRates and the user's). Throws store::StoreError and engine::InputError
// as the reader and the stall audit do.
TrainingJobsRun runTrainingJobs(const QString &path, const std::map<std::string, double> &planned,
                                const std::map<std::string, QString> &planSource, double below);

// The last five jobs: job, last sample, GPUs, GPU-hours, stalled GPU-hours, share, cores per GPU,
// recommended; a total row that re-adds the GPU-hours.
DeckTable stallAuditTable(const TrainingJobsRun &run);
// Per job: GPU-hours, rate per GPU, plan, plan from, hours below, shortfall GPU-hours.
DeckTable jobGoodputTable(const TrainingJobsRun &run);
// Each planned job's rate per GPU as a share of its plan, hour by hour, with the flag threshold.
ChartFigure jobGoodputFigure(const TrainingJobsRun &run);

void appendTrainingJobsPages(Deck &deck, const TrainingJobsRun &run);

} // namespace headroom::ui
