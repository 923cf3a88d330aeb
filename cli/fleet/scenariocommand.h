#pragma once

#include "cli/common/command.h"

#include "engine/fleet/scenario.h"

namespace headroom::store {
class Workspace;
}

namespace headroom::cli {

// `headroom scenario list|evaluate|compare`: the workspace's fleet scenarios, one evaluated
// to GPUs per pool, utilization, exact money and warnings, or 2–4 compared (DESIGN §3.9).
Command scenarioCommand();

// A stored scenario by name; an unknown name throws UsageError listing the closest names.
engine::Scenario findScenario(const store::Workspace &workspace, const QString &name);

} // namespace headroom::cli
