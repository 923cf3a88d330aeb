#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom link-time --bytes N (--link NAME | --gbps F)`: seconds to move bytes over an
// interconnect (DESIGN §3.4: cold swaps and the interconnect tax).
Command linkTimeCommand();

} // namespace headroom::cli
