#pragma once

#include "store/common/exportfile.h"

#include <QString>

namespace headroom::cli {

// Checks the file a verb is about to write (`flag` as typed, "--out") before any work is done:
// a symbolic link, a folder or special file, and an existing file without --force (`force`)
// are refused with a UsageError (exit 2) that says how to go on; nothing is touched. Returns
// the mode to write with.
store::ExistingFile checkOutputFile(const QString &flag, const QString &path, bool force);

} // namespace headroom::cli
