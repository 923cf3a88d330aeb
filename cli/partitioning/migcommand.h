#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom mig validate|layouts|pack --gpu ID ...`: MIG layouts of one GPU type and the
// packing of tenants onto a fleet (DESIGN §3.4).
Command migCommand();

} // namespace headroom::cli
