#include "cli.h"

#include "args.h"
#include "cli/fleet/autoscalecommand.h"
#include "cli/fleet/plancommand.h"
#include "cli/catalog/catalogcommand.h"
#include "command.h"
#include "cli/cost/costcommand.h"
#include "cli/forecast/forecastcommand.h"
#include "cli/fragmentation/fragcommand.h"
#include "cli/inference/kvcommand.h"
#include "cli/partitioning/linkcommand.h"
#include "cli/inference/servingcommand.h"
#include "cli/serving/calibratecommand.h"
#include "cli/serving/simulatecommand.h"
#include "cli/partitioning/migcommand.h"
#include "cli/fleet/scenariocommand.h"
#include "cli/inference/sizecommand.h"
#include "cli/serving/tracecommand.h"
#include "cli/tracking/trackcommand.h"
#include "cli/training/traincommand.h"
#include "teamcommand.h"
#include "cli/catalog/transfercommand.h"

#include "engine/common/errors.h"
#include "store/common/demoworkspace.h"
#include "store/common/serverurl.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QFileInfo>
#include <QIODevice>
#include <QScopeGuard>
#include <new>
#include <optional>
#include <vector>

namespace headroom::cli {

namespace {

const std::vector<Command> &commands()
{
    static const std::vector<Command> all = {kvCommand(), sizeCommand(), costCommand(),
                                             catalogCommand(), importCommand(), importTraceCommand(),
                                             exportCommand(), migCommand(), linkTimeCommand(), fragCommand(),
                                             forecastCommand(), trainCommand(), scenarioCommand(), planCommand(),
                                             autoscaleCommand(), servingCommand(), simulateCommand(), calibrateCommand(),
                                             trackCommand(), pushCommand(), pullCommand()};
    return all;
}

// Verbs a higher layer adds for the run in progress (see run()).
const std::vector<Command> *g_extraCommands = nullptr;

// The built-in verbs followed by the added ones.
std::vector<Command> allCommands()
{
    std::vector<Command> all = commands();
    if (g_extraCommands)
        all.insert(all.end(), g_extraCommands->begin(), g_extraCommands->end());
    return all;
}

const Command *findCommand(const QString &name)
{
    for (const Command &c : commands()) {
        if (c.name == name)
            return &c;
    }
    if (g_extraCommands) {
        for (const Command &c : *g_extraCommands) {
            if (c.name == name)
                return &c;
        }
    }
    return nullptr;
}

QStringList commandNames()
{
    QStringList names;
    for (const Command &c : allCommands())
        names << c.name;
    return names;
}

bool isHelpFlag(const QString &arg)
{
    return arg == QLatin1String("--help") || arg == QLatin1String("-h");
}

// The arguments without the global --workspace, --server and --demo options, and what they gave.
struct GlobalOptions {
    QStringList rest;
    std::optional<QString> workspace;
    std::optional<QString> server;
    bool demo = false;
};

// Throws UsageError for "--workspace" or "--server" without a value unless `lenient`, which
// drops it.
GlobalOptions splitGlobalOptions(const QStringList &args, bool lenient = false)
{
    GlobalOptions g;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--")) {
            g.rest << args.mid(i); // the verb's own end of options
            break;
        }
        if (arg == QLatin1String("--workspace") || arg == QLatin1String("--server")) {
            if (i + 1 >= args.size() || args.at(i + 1).startsWith(QLatin1String("--"))) {
                if (lenient)
                    continue;
                throw UsageError(QStringLiteral("%1: missing value").arg(arg));
            }
            (arg == QLatin1String("--server") ? g.server : g.workspace) = args.at(++i);
        } else if (arg.startsWith(QLatin1String("--workspace="))) {
            g.workspace = arg.mid(int(qstrlen("--workspace=")));
        } else if (arg.startsWith(QLatin1String("--server="))) {
            g.server = arg.mid(int(qstrlen("--server=")));
        } else if (arg == QLatin1String("--demo")) {
            g.demo = true;
        } else {
            g.rest << arg;
        }
    }
    if (g.workspace && g.workspace->isEmpty() && !lenient)
        throw UsageError(QStringLiteral("--workspace: missing value"));
    if (g.server && g.server->isEmpty() && !lenient)
        throw UsageError(QStringLiteral("--server: missing value"));
    if (g.server && !g.server->isEmpty() && !store::isServerUrl(*g.server) && !lenient)
        throw UsageError(QStringLiteral("--server: expected postgresql://user@host:port/database, got %1")
                             .arg(store::displayServerUrl(*g.server)));
    if (g.workspace && g.demo && !lenient)
        throw UsageError(QStringLiteral("--demo and --workspace exclude each other: --demo works on a fresh demo "
                                        "workspace"));
    if (g.server && g.demo && !lenient)
        throw UsageError(QStringLiteral("--demo and --server exclude each other: --demo works on a fresh demo "
                                        "workspace"));
    return g;
}

void writeHelp(QTextStream &out)
{
    out << "usage: headroom [--workspace PATH | --server URL | --demo] VERB [options]\n"
           "       headroom               (no arguments: open the workbench window)\n"
           "       headroom FILE.headroom (open that workspace in the window)\n\n"
           "GPU capacity planning for AI inference and training, headless.\n\n"
           "verbs:\n";
    qsizetype width = 0;
    for (const Command &c : allCommands())
        width = std::max(width, c.name.size());
    for (const Command &c : allCommands())
        out << "  " << c.name.leftJustified(width + 2) << c.summary << '\n';
    out << "  " << QStringLiteral("help").leftJustified(width + 2) << "this list, or a verb's usage\n\n"
        << "options:\n"
           "  --workspace PATH  workspace file (default " << store::Workspace::defaultPath()
        << ");\n"
           "                    the default is created and seeded with the shipped catalogs on\n"
           "                    first use; a missing PATH only by import\n"
           "  --server URL      a team workspace on PostgreSQL: postgresql://user@host:port/db\n"
           "                    [?sslmode=require]; the password comes from ~/.pgpass or\n"
           "                    PGPASSWORD (never from the URL)\n"
           "  --demo            work on the demo workspace, rebuilt fresh from the shipped examples\n"
           "                    (" << store::demoWorkspacePath() << ")\n"
           "  --version         print the version\n\n"
           "`headroom VERB --help` prints a verb's options. Exit code 0 on success, 2 on bad input.\n";
}

int dispatch(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const GlobalOptions global = splitGlobalOptions(args);
    const QStringList &rest = global.rest;
    if (rest.isEmpty()) {
        writeHelp(err);
        return 2;
    }
    const QString &verb = rest.constFirst();
    if (verb == QLatin1String("--version")) {
        out << "headroom " << HEADROOM_VERSION << '\n';
        return 0;
    }
    if (isHelpFlag(verb) || verb == QLatin1String("help")) {
        if (rest.size() > 1) {
            if (const Command *c = findCommand(rest.at(1))) {
                out << c->usage;
                return 0;
            }
            throw UsageError(QStringLiteral("unknown command '%1'; known: %2")
                                 .arg(rest.at(1), commandNames().join(QLatin1String(", "))));
        }
        writeHelp(out);
        return 0;
    }
    const Command *command = findCommand(verb);
    if (!command && verb.startsWith(QLatin1Char('-')))
        throw UsageError(QStringLiteral("unknown option '%1' (global options: --workspace PATH, --server URL, --demo, --help, "
                                        "--version; a verb's own options come after the verb)")
                             .arg(verb));
    if (!command) {
        throw UsageError(QStringLiteral("unknown command '%1'; known: %2")
                             .arg(verb, commandNames().join(QLatin1String(", "))));
    }
    const QStringList verbArgs = rest.mid(1);
    if (std::any_of(verbArgs.begin(), verbArgs.end(), isHelpFlag)) {
        out << command->usage;
        return 0;
    }
    if (command->copiesBetweenLocations) {
        if (!global.workspace || !global.server)
            throw UsageError(QStringLiteral("%1 needs both --workspace FILE and --server URL").arg(verb));
    } else if (global.workspace && global.server) {
        throw UsageError(QStringLiteral("give --workspace or --server, not both (push and pull take both)"));
    }
    QString workspacePath;
    if (global.demo)
        workspacePath = store::openDemoWorkspace();
    else if (global.server && !command->copiesBetweenLocations)
        workspacePath = *global.server;
    else
        workspacePath = global.workspace.value_or(store::Workspace::defaultPath());
    // The default workspace is created on first use, as the window does; a --workspace path
    // that does not exist is created only by a verb that writes into it.
    Context context(out, err, workspacePath, !global.workspace || command->createsWorkspace,
                    global.server.value_or(QString()));
    int code = 2;
    try {
        code = command->run(verbArgs, context);
    } catch (...) {
        context.discardCreatedWorkspace();
        throw;
    }
    if (code != 0)
        context.discardCreatedWorkspace();
    return code;
}

// Flushes both streams and checks that everything the verb wrote arrived: output that could
// not be written (a full disk, a closed pipe or terminal) turns success into exit code 2, so a
// script never takes a cut file for a whole one.
int finishOutput(QTextStream &out, QTextStream &err, int code)
{
    out.flush();
    if (out.status() != QTextStream::Ok) {
        const QString reason = out.device() ? out.device()->errorString() : QString();
        err << "headroom: cannot write the output"
            << (reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason))
            << "; what was written is incomplete\n";
        if (code == 0)
            code = 2;
    }
    err.flush();
    if (err.status() != QTextStream::Ok && code == 0)
        code = 2;
    return code;
}

} // namespace

std::optional<QString> workspaceArgument(const QStringList &args)
{
    const QStringList rest = splitGlobalOptions(args, true).rest;
    if (rest.size() != 1)
        return std::nullopt;
    const QString &first = rest.constFirst();
    // A verb name always wins over a file of the same name in the current folder.
    if (first.isEmpty() || first.startsWith(QLatin1Char('-')) || findCommand(first)
        || first == QLatin1String("help"))
        return std::nullopt;
    if (first.endsWith(QLatin1String(".headroom"), Qt::CaseInsensitive) || QFileInfo(first).isFile())
        return first;
    return std::nullopt;
}

WindowOptions windowOptions(const QStringList &args)
{
    const GlobalOptions global = splitGlobalOptions(args);
    WindowOptions w;
    w.demo = global.demo;
    if (global.workspace && global.server)
        throw UsageError(QStringLiteral("give --workspace or --server, not both"));
    w.workspace = global.server ? *global.server : global.workspace.value_or(QString());
    if (const auto file = workspaceArgument(args)) {
        if (global.workspace)
            throw UsageError(QStringLiteral("give the workspace once, either as --workspace or as a file"));
        if (global.demo)
            throw UsageError(QStringLiteral("--demo and a workspace file exclude each other: --demo opens a fresh "
                                            "demo workspace"));
        w.workspace = *file;
    }
    return w;
}

namespace {

// Options QGuiApplication and QApplication read themselves (either "-name" or "--name"); the
// ones that take a value are followed by it.
bool isQtWindowOption(const QString &arg)
{
    static const QStringList names = {
        QStringLiteral("platform"), QStringLiteral("platformpluginpath"), QStringLiteral("platformtheme"),
        QStringLiteral("plugin"), QStringLiteral("qwindowgeometry"), QStringLiteral("qwindowicon"),
        QStringLiteral("qwindowtitle"), QStringLiteral("reverse"), QStringLiteral("session"),
        QStringLiteral("display"), QStringLiteral("geometry"), QStringLiteral("style"),
        QStringLiteral("stylesheet"), QStringLiteral("widgetcount"), QStringLiteral("nograb"),
        QStringLiteral("dograb"), QStringLiteral("qmljsdebugger"), QStringLiteral("name"),
        QStringLiteral("title"), QStringLiteral("visual"), QStringLiteral("ncols"), QStringLiteral("cmap"),
        QStringLiteral("im"), QStringLiteral("inputstyle"), QStringLiteral("noxim"), QStringLiteral("sync"),
        QStringLiteral("fn"), QStringLiteral("font"), QStringLiteral("bg"), QStringLiteral("background"),
        QStringLiteral("fg"), QStringLiteral("foreground"), QStringLiteral("btn"), QStringLiteral("button"),
        QStringLiteral("testability"), QStringLiteral("nativewindowstyle"), QStringLiteral("dialogs"),
        QStringLiteral("fontengine"), QStringLiteral("qdebug"), QStringLiteral("graphicssystem")};
    QString name = arg.mid(arg.startsWith(QLatin1String("--")) ? 2 : 1);
    name.truncate(name.indexOf(QLatin1Char('=')) >= 0 ? name.indexOf(QLatin1Char('=')) : name.size());
    return names.contains(name);
}

} // namespace

bool isCliInvocation(const QStringList &args)
{
    const QStringList rest = splitGlobalOptions(args, true).rest;
    if (rest.isEmpty() || workspaceArgument(args))
        return false;
    const QString &first = rest.constFirst();
    if (findCommand(first) || first == QLatin1String("help") || isHelpFlag(first)
        || first == QLatin1String("--version"))
        return true;
    // An option neither the command line nor Qt's window knows (`--servr URL catalog gpus`)
    // is reported rather than silently opening a window.
    if (first.startsWith(QLatin1Char('-')) && first.size() > 1)
        return !isQtWindowOption(first);
    // Anything word-like is meant as a verb: report it rather than open a window.
    return !first.isEmpty() && first.at(0).isLetter();
}

void quietQtMessages()
{
    if (qEnvironmentVariableIntValue("HEADROOM_QT_MESSAGES") != 0)
        return;
    static const QtMessageHandler standard = qInstallMessageHandler(nullptr);
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &context, const QString &message) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            standard(type, context, message);
    });
}

QString verbOf(const QStringList &args)
{
    const QStringList rest = splitGlobalOptions(args, true).rest;
    return rest.isEmpty() ? QString() : rest.constFirst();
}

int run(const QStringList &args, QTextStream &out, QTextStream &err, const std::vector<Command> &extraCommands)
{
    g_extraCommands = &extraCommands;
    const auto forget = qScopeGuard([] { g_extraCommands = nullptr; });
    int code = 2;
    try {
        code = dispatch(args, out, err);
    } catch (const UsageError &e) {
        err << "headroom: " << e.message() << '\n';
    } catch (const engine::InputError &e) {
        err << "headroom: " << QString::fromStdString(e.what()) << '\n';
    } catch (const store::StoreError &e) {
        err << "headroom: " << e.message() << '\n';
    } catch (const std::bad_alloc &) {
        // The input asked for more memory than this machine has: bad input, not a crash.
        err << "headroom: out of memory: the input needs more memory than is available; use a "
               "smaller input or a shorter span\n";
    } catch (const std::exception &e) {
        err << "headroom: internal error: " << QString::fromStdString(e.what()) << '\n';
        code = 1;
    }
    return finishOutput(out, err, code);
}

} // namespace headroom::cli
