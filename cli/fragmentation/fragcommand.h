#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom frag`: the FGD study's fragmentation experiment (DESIGN §3.5) on a node list and
// a task list in the Alibaba GPU trace format, with one placement policy and seed.
Command fragCommand();

} // namespace headroom::cli
