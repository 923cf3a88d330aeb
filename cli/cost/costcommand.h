#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom cost idle|static-vs-elastic|reserve`: exact money for idle capacity, a static
// versus an elastic fleet, and the reserved-versus-elastic optimum over an hourly demand
// series (DESIGN §3.7).
Command costCommand();

} // namespace headroom::cli
