#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom import FILE.json`: adds or replaces catalog entries, all or nothing.
Command importCommand();
// `headroom export [gpus|models|catalog] [--out FILE]`: catalog JSON to stdout or a file.
Command exportCommand();

} // namespace headroom::cli
