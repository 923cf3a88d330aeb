#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include <QString>
#include <vector>

// `headroom track stalls`: the data-loading stall audit of training jobs from their GPU and CPU
// telemetry (engine/tracking/input_stalls.h). Dispatched from `track`.
namespace headroom::cli {

const std::vector<OptionSpec> &stallsTrackOptions();
QString stallsTrackUsage();
int runStallsTrack(const Args &args, Context &context);

} // namespace headroom::cli
