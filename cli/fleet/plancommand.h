#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom plan`: the cheapest fleet for the workspace's whole portfolio at its SLOs
// (engine planPortfolio), optionally saved as a scenario.
Command planCommand();

} // namespace headroom::cli
