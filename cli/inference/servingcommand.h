#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom serving [show | set ...]`: the workspace's one set of serving assumptions
// (memory utilization, runtime reserve, block size, efficiencies, planned headroom, in-flight
// quantile, queueing allowance, KV residency) that `kv`, `size`, `scenario` and the pages use.
Command servingCommand();

} // namespace headroom::cli
