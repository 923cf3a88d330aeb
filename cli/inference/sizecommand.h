#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom size`: replicas and GPUs for a workload profile (DESIGN §3.2), which constraint
// binds and by how much, and the steps that lead there.
Command sizeCommand();

} // namespace headroom::cli
