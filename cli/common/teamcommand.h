#pragma once

#include "command.h"

namespace headroom::cli {

// `headroom push --workspace FILE --server URL [--replace]`: copies a whole workspace file to
// a team workspace on a PostgreSQL server, in one transaction.
Command pushCommand();
// `headroom pull --server URL --workspace FILE [--replace]`: copies a team workspace on a
// server to a workspace file, in one transaction.
Command pullCommand();

} // namespace headroom::cli
