#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include "engine/common/money.h"

#include <QString>
#include <optional>
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
// --rate (with --currency), or --gpu's lowest on-demand rate in force today in the workspace's
// rate cards (--provider narrows it); nullopt when neither is given. `source` says which.
std::optional<engine::Money> trackRate(const Args &args, Context &context, const QString &action, QString *source);

// Runs rightsizing, benchmarks, or import --metrics; refuses options the action does not read.
int runServingTrack(const QString &action, const Args &args, Context &context);

} // namespace headroom::cli
