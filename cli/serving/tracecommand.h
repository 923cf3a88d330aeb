#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom import-trace FILE --format azure|mooncake`: arrival rate, token percentiles and
// the prefix hit rate of a request trace.
Command importTraceCommand();

} // namespace headroom::cli
