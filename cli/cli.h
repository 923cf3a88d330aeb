#pragma once

#include <QStringList>
#include <QTextStream>

// Headless sub-commands (DESIGN §6): `headroom <verb> [options]`.
namespace headroom::cli {

// True when args[0] names a verb (or --help/--version) that runs without a display.
bool isCliInvocation(const QStringList &args);

// Runs one verb; args exclude the program name. Returns the exit code: 0 on success,
// 2 on bad input with the reason written to err.
int run(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace headroom::cli
