#pragma once

#include "common/chartexport.h"
#include "report/reportdeck.h"

#include "engine/fleet/plan.h"
#include "engine/fleet/scenario.h"
#include "store/report/reporttables.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// A plan as the Plan page shows it and the deck prints it: what was asked, what
// engine::planPortfolio found and, when a scenario was planned, that scenario's own evaluation.
struct PlanReport {
    engine::PlanRequest request;
    engine::PlanResult result;
    std::optional<engine::ScenarioResult> compared; // the scenario planned, evaluated as it stands
    QString comparedError;                          // why it could not be evaluated
    QStringList notes;                              // what was left out of the request, and why
};

// The winner's deployments, one row per workload: GPU (or MIG slice), precisions, TP, GPUs at
// peak ("270 (154 prefill)" when prefill and decode run apart), what binds it, TTFT and ITL
// against their SLOs.
DeckTable planWorkloadsTable(const engine::PlanOption &plan);
// The winner's pools, then its training jobs (a reserved job is a pool of its own; an elastic
// one runs on its GPU type's elastic top).
DeckTable planPoolsTable(const engine::PlanOption &plan);

// What the plan says in words: why it beats the first runner-up, each runner-up with the
// deployments it moves and what it costs more, what was not planned (the request's notes
// first), the MIG packing decision and the method with its gap.
struct PlanExplanation {
    QStringList why;
    QStringList runnersUp;
    QStringList unplaced;
    QString packing;
    QString method;
};
PlanExplanation planExplanation(const PlanReport &plan);

// "<b>$8,411,551.87</b> over the 12-month term at AWS · us-east-1 · committed share …", and the
// scenario's cost against it ("the plan saves $736,360.64 (−8.0 %)"), as rich text.
QString planSummaryHtml(const PlanReport &plan);

// The cost-against-commitment front: the cheapest plan at each most committed share, the plan
// shown marked at its own cap.
ChartFigure planFrontFigure(const PlanReport &plan);

// The plan's slides as report items, snapshots stamped with the workspace's inputs now: "Plan:
// why this plan" (the winner against the runner-up), "Plan: workloads", "Plan: pools and jobs",
// the front and "Plan: how it was found" (runners-up, what was not planned, packing, method).
std::vector<store::ReportItem> planReportItems(const store::Workspace &workspace, const PlanReport &plan);

// The plan's own deck (README "Portfolio plan"): title page (the report settings, else "Portfolio
// plan"), the summary slide (the plan evaluated as the scenario it becomes and, when a scenario
// was planned, that scenario beside it, with the recommendation), why the plan wins, its
// workloads table with the headline numbers, its pools and jobs, the front, how it was found
// (runners-up, packing, method), the warnings (what was not planned, the workspace's caveats
// about what the plan uses) and the assumptions of what it uses as an appendix.
Deck planDeck(const store::Workspace &workspace, const PlanReport &plan);

} // namespace headroom::ui
