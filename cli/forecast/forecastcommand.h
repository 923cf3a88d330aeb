#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom forecast --series FILE.csv ...`: Holt-Winters fit, point forecast, simulated
// P05/P95 intervals and an optional rolling-origin backtest of one series (DESIGN §3.6).
Command forecastCommand();

} // namespace headroom::cli
