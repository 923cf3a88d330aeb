#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"

#include "engine/inference/runtime_memory.h"

#include <optional>

namespace headroom::cli {

// `headroom serving [show | set ...]`: the workspace's one set of serving assumptions
// (memory utilization, runtime reserve, block size, efficiencies, planned headroom, in-flight
// quantile, queueing allowance, KV residency) that `kv`, `size`, `scenario` and the pages use.
Command servingCommand();

// --reserve-mode flat|vllm_profile, when given; UsageError naming the mode otherwise.
std::optional<engine::ReserveMode> reserveModeOption(const Args &args);

} // namespace headroom::cli
