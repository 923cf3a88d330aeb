#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include <QString>
#include <vector>

// `headroom track chargeback`: a shared GPU pool's bill split over its tenants by slice-hours,
// beside the split a Kueue quota's claim count gives, and cost per million tokens (DESIGN
// §3.7c). Dispatched from `track`.
namespace headroom::cli {

// The options it reads, added to `track`'s own.
const std::vector<OptionSpec> &chargebackTrackOptions();
// Its usage text, appended to `track`'s.
QString chargebackTrackUsage();
// Runs it; refuses options it does not read.
int runChargebackTrack(const Args &args, Context &context);

} // namespace headroom::cli
