#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom track commitments|anomalies|plan`: plan versus actual from FOCUS billing
// exports and series (DESIGN §3.7c) — commitment utilization and the under-used flag,
// anomalies in a series, a scenario's planned cost per day against the actuals.
Command trackCommand();

} // namespace headroom::cli
