#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom autoscale --scenario NAME --emit keda|dra`: the deployment hand-off for a
// scenario's elastic tier as Kubernetes YAML (DESIGN §3.8).
Command autoscaleCommand();

} // namespace headroom::cli
