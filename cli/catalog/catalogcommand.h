#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom catalog gpus|models [--json]`: the workspace catalog as a table or as JSON.
Command catalogCommand();

} // namespace headroom::cli
