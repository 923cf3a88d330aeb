#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include <QString>
#include <vector>

// `headroom track goodput`: each training job's samples (or tokens) a second per GPU, hour by
// hour, against its planned rate, from the job telemetry (engine/tracking/job_goodput.h).
// Dispatched from `track`.
namespace headroom::cli {

const std::vector<OptionSpec> &jobGoodputTrackOptions();
QString jobGoodputTrackUsage();
int runJobGoodputTrack(const Args &args, Context &context);

} // namespace headroom::cli
