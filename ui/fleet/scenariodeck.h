#pragma once

#include "report/reportdeck.h"

#include "engine/fleet/scenario.h"

#include "store/report/reporttables.h"

#include <QJsonObject>
#include <QStringList>
#include <optional>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The deck presenting fleet scenarios of a workspace (DESIGN §3.9, §5): title page (the
// report settings, else the scenario names), assumptions (the scenarios' terms, the rate
// cards they are priced from and the workloads they serve), then per scenario its pools
// table, its base-and-elastic diagram and its warnings; with two to four scenarios a
// comparison table with deltas against the first and the comparison charts. Throws
// store::StoreError naming a scenario that does not exist, engine::InputError for one
// that does not validate.
Deck scenarioDeck(const store::Workspace &workspace, const QStringList &scenarioNames);

// The summary slide of evaluated scenarios: per scenario the decision in one sentence (the
// static base by tier, the elastic peak, the cost per 30-day month and the
// utilization) with its headline numbers; and the recommendation, made only among scenarios
// serving the same workloads and jobs (one per demand otherwise). Scenarios that leave demand
// unserved or unpriced are left out, saying why; of the rest, the cheapest per month, what it
// saves against the next cheapest per month and over the term, what it commits to and its
// risks (its warnings); with one left, go ahead with those figures. Everything is taken from
// the results.
void summarizeScenarios(const std::vector<engine::ScenarioResult> &results, Deck &deck);

// A report item of the Scenarios page drawn again from the workspace as its `source` says (a
// kind of scenariocharts.h): the figure as it comes out now, or the table's cells now under
// the title and caption of `stored`. nullopt with *problem when a scenario is gone or does not
// evaluate; nullopt with *problem empty when the source is not one of these kinds.
std::optional<store::ReportItem> scenarioReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                    const store::ReportItem &stored, QString *problem);

} // namespace headroom::ui
