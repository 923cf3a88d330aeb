#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom simulate --trace FILE --format F ...`: a request trace replayed on a fleet of
// replicas with prefix caches and a router; hit rate, latency percentiles, SLO attainment
// and, with --find-replicas, the fewest replicas meeting an attainment target.
Command simulateCommand();

} // namespace headroom::cli
