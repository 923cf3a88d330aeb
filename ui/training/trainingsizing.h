#pragma once

#include "common/chartexport.h"
#include "report/reportdeck.h"
#include "engine/catalog/specs.h"
#include "engine/catalog/ratecard.h"
#include "engine/common/money.h"
#include "engine/fleet/capacity_mix.h"
#include "engine/training/training.h"
#include "store/report/reporttables.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

namespace headroom::store {
class Workspace;
}

// What the Training sizing page computes and draws, as free functions of the workspace and the
// page's inputs: the page, its export and the report share them.
namespace headroom::ui {

// Price of a GPU-hour taken from the rate card.
enum class TrainingPriceTerm { OnDemand, Reserved1y, Reserved3y, Spot };
// "on-demand", "1-year commitment", …: how the page names the term.
QString trainingTermName(TrainingPriceTerm term);

// The page's inputs.
struct TrainingPageInputs {
    QString job;
    QString rateCard;                  // rate card key; empty: no price
    TrainingPriceTerm term = TrainingPriceTerm::OnDemand;
    int horizonWeeks = 12;             // of the shared cluster
    int sharedPool = 0;                // GPUs of the shared pool; 0: sized by the plan
    double inferenceGrowth = 0;        // % per month
    double trainingGrowth = 0;         // % per month
    int installed = -1;                // GPUs installed today; -1: the shared cluster's
};

// The job sized with its planned layout, the days-versus-GPUs curve, the cluster shared with
// the workspace's inference on the job's GPU type, and capacity growth; `error` when the job
// cannot be sized (nothing else is set), `notes` for what was left out.
struct TrainingAnalysis {
    std::optional<engine::TrainingJob> job;   // with the layout planned
    std::optional<engine::GpuSpec> gpu;
    std::optional<engine::TrainingPlan> plan;
    std::optional<engine::Money> rate;        // per GPU-hour of the plan
    std::vector<engine::DaysPoint> daysCurve;
    std::optional<engine::MixResult> mix;
    std::string mixStartDate;
    std::vector<engine::GrowthMonth> growth;
    int leadWeeks = 0;
    int64_t installedGpus = 0;
    QStringList notes;
    QString error;
};
TrainingAnalysis analyseTraining(const store::Workspace &workspace, const TrainingPageInputs &in);

// The page's four figures, each carrying its report source {"kind": "training-memory" |
// "training-days" | "training-mix" | "training-growth", "job", "rate_card", "term",
// "horizon_weeks", "shared_pool", "inference_growth", "training_growth", "installed"}.
struct TrainingFigures {
    ChartFigure memory, days, mix, growth;
};
TrainingFigures trainingFigures(const TrainingAnalysis &a, const TrainingPageInputs &in);

// The page's results table (source kind "training-table"), and two of its phrases the page's
// cards repeat: the nodes the plan takes, and the cost as GPU-hours × rate.
DeckTable trainingResultsTable(const TrainingAnalysis &a, const TrainingPageInputs &in);
QString trainingNodesText(const TrainingAnalysis &a);
QString trainingCostProduct(const TrainingAnalysis &a, const TrainingPageInputs &in);
// `source` of the figures with another kind.
QJsonObject trainingSource(const char *kind, const TrainingPageInputs &in);

// A report item of one of those figures (or the table) drawn again from the workspace; nullopt with *problem
// when the job is gone or no longer sizes, nullopt with *problem empty for other kinds.
std::optional<store::ReportItem> trainingReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                    QString *problem);

} // namespace headroom::ui
