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

// For a headless run: Qt's own debug, info and warning messages (the SQL drivers' notes such
// as "Unable to free statement", the offscreen platform's) are not written to stderr, where
// they would come before the verb's message; critical and fatal ones still are. With
// HEADROOM_QT_MESSAGES=1 in the environment every message is written.
void quietQtMessages();

// The verb `args` name once the global options are set aside ("cost"), or an empty string.
QString verbOf(const QStringList &args);

// Runs one verb; args exclude the program name. Returns the exit code: 0 on success,
// 2 on bad input or on output that could not be written (stdout on a full disk), with the
// reason written to err. `extraCommands` are verbs a higher layer adds (the report, which
// paints and so lives with the widgets); they are listed in help.
int run(const QStringList &args, QTextStream &out, QTextStream &err,
        const std::vector<Command> &extraCommands = {});

} // namespace headroom::cli
