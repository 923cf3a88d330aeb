#pragma once

#include "command.h"

#include <QStringList>
#include <QTextStream>
#include <optional>
#include <vector>

// Headless sub-commands (DESIGN §6): `headroom <verb> [options]`.
namespace headroom::cli {

// True when args[0] names a verb (or --help/--version) that runs without a display.
bool isCliInvocation(const QStringList &args);

// The workspace a desktop launcher passes (`headroom FILE`): the only argument besides the
// global options, not a verb, and either an existing file or a name ending in ".headroom".
std::optional<QString> workspaceArgument(const QStringList &args);

// What the window opens: `--workspace PATH` or a lone workspace file (an empty workspace means
// the default one), or the demo. Throws UsageError when the two ways conflict or lack a value.
struct WindowOptions {
    QString workspace;
    bool demo = false;
};
WindowOptions windowOptions(const QStringList &args);

// The verb `args` name once the global options are set aside ("cost"), or an empty string.
QString verbOf(const QStringList &args);

// Runs one verb; args exclude the program name. Returns the exit code: 0 on success,
// 2 on bad input or on output that could not be written (stdout on a full disk), with the
// reason written to err. `extraCommands` are verbs a higher layer adds (the report, which
// paints and so lives with the widgets); they are listed in help.
int run(const QStringList &args, QTextStream &out, QTextStream &err,
        const std::vector<Command> &extraCommands = {});

} // namespace headroom::cli
