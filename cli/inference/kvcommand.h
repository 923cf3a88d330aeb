#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom kv`: KV bytes per token, the KV pool and concurrent streams per context
// (DESIGN §3.1) for a catalog model or a raw architecture on a catalog GPU or a memory size.
Command kvCommand();

} // namespace headroom::cli
