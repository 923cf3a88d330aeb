#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include <QString>
#include <vector>

// `headroom track import --metrics`, `track rightsizing` and `track benchmarks`: serving
// telemetry (DCGM / vLLM exports) against what the fleet could do with fewer replicas, and
// a benchmark history of named optimizations (DESIGN §3.7c). Dispatched from `track`.
namespace headroom::cli {

// The options these actions read, added to `track`'s own.
const std::vector<OptionSpec> &servingTrackOptions();
// The usage text of these actions, appended to `track`'s.
QString servingTrackUsage();
// "rightsizing" and "benchmarks".
bool isServingTrackAction(const QString &action);
// Runs rightsizing, benchmarks, or import --metrics; refuses options the action does not read.
int runServingTrack(const QString &action, const Args &args, Context &context);

} // namespace headroom::cli
