#pragma once

#include "report/reportdeck.h"

#include <QStringList>

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

} // namespace headroom::ui
