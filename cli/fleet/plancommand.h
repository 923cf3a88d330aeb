#pragma once

#include "cli/common/command.h"

#include "engine/fleet/plan.h"
#include "engine/fleet/scenario.h"
#include "store/common/exportfile.h"

#include <QStringList>
#include <functional>
#include <optional>

namespace headroom::store {
class Workspace;
}

namespace headroom::cli {

// `headroom plan`: the cheapest fleet for the workspace's whole portfolio at its SLOs
// (engine planPortfolio), optionally saved as a scenario.
Command planCommand();

// Writes the deck of a plan (its request, its result, the scenario planned as evaluated, and
// notes on what the request left out) to `pdfPath` and returns its page count; throws
// StoreError naming the file when it cannot. The deck is painted, so the widgets layer
// provides the writer (ui::planDeck); without one, `plan --deck` is refused.
using PlanDeckWriter = std::function<int(const store::Workspace &workspace, const engine::PlanRequest &request,
                                         const engine::PlanResult &result,
                                         const std::optional<engine::ScenarioResult> &compared, const QStringList &notes,
                                         const QString &pdfPath, store::ExistingFile existing)>;
void setPlanDeckWriter(PlanDeckWriter writer);

} // namespace headroom::cli
