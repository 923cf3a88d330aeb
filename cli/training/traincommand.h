#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom train`: GPUs for a training window or days for a GPU count, memory per GPU under
// the chosen ZeRO stage and the fewest GPUs that hold it (DESIGN §3.3).
Command trainCommand();

} // namespace headroom::cli
