#include "teamcommand.h"

#include "args.h"

#include "store/common/serverurl.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QFileInfo>

namespace headroom::cli {

namespace {

const char kPushUsage[] = R"(usage: headroom push --workspace FILE --server URL [--replace]

Copies the whole workspace FILE (catalogs, rate cards, demand series, workloads, training
jobs, scenarios with their versions and times, the report, serving assumptions) to the team
workspace at URL (postgresql://user@host:port/database), in one transaction that also creates
the schema on an empty database: the server holds either all of it or what it held before. The
database must exist; the password comes from ~/.pgpass or PGPASSWORD.

FILE is only read, never written. A file that is not a Headroom workspace (an empty file,
another SQLite database), one at an older schema (open it once with this version to upgrade
it), and one holding a damaged document (a scenario that is not JSON, text that is not UTF-8)
are refused naming what and where, and the server is left as it was.

  --replace   overwrite a server workspace that already exists (without it an existing one is
              left as it is and the command exits 2)
)";

const char kPullUsage[] = R"(usage: headroom pull --server URL --workspace FILE [--replace]

Copies the whole team workspace at URL (postgresql://user@host:port/database) to the workspace
FILE. A new FILE is written as a hidden file beside it (.FILE.<id>.partial) and renamed into
place only when complete, so FILE is either absent or the whole copy; an existing FILE
(--replace) is overwritten in one transaction, so it holds either all of it or what it held
before.

  --replace   overwrite FILE when it already exists (without it an existing file is left as
              it is and the command exits 2)
)";

const std::vector<OptionSpec> kOptions = {{QStringLiteral("replace"), false}};

void report(QTextStream &out, const QString &verb, const store::Workspace &from, const store::Workspace &to)
{
    out << verb << ' ' << from.path() << " to " << to.path() << ": " << to.gpus().size() << " GPUs, "
        << to.models().size() << " models, " << to.rateCards().size() << " rate cards, "
        << to.demandSeriesNames().size() << " demand series, " << to.workloads().size() << " workloads, "
        << to.trainingJobs().size() << " training jobs, " << to.scenarioNames().size() << " scenarios, "
        << to.reportItems().size() << " report items\n";
}

int runPush(const QStringList &arguments, Context &context)
{
    const Args args(arguments, kOptions);
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("push takes no arguments, got '%1'").arg(args.positionals().constFirst()));
    const bool replace = args.has(QStringLiteral("replace"));
    const QString file = context.workspacePath();
    if (!QFileInfo::exists(file))
        throw store::StoreError(QStringLiteral("workspace %1 does not exist; nothing to push").arg(file));
    // Read-only, checked whole before the server is touched.
    const auto source = store::Workspace::openForReading(file);
    source->checkDocuments();
    // An empty database gets its schema in the same transaction as the copy.
    const auto target = store::Workspace::openCopyTarget(context.serverUrl());
    if (!target->isNew() && !replace)
        throw store::StoreError(QStringLiteral("%1 already holds a workspace; add --replace to overwrite it "
                                               "(nothing was changed)")
                                    .arg(target->path()));
    target->replaceContents(*source);
    report(context.out(), QStringLiteral("pushed"), *source, *target);
    return 0;
}

int runPull(const QStringList &arguments, Context &context)
{
    const Args args(arguments, kOptions);
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("pull takes no arguments, got '%1'").arg(args.positionals().constFirst()));
    const bool replace = args.has(QStringLiteral("replace"));
    const QString file = context.workspacePath();
    const QString url = context.serverUrl();
    if (!store::Workspace::exists(url))
        throw store::StoreError(QStringLiteral("%1 holds no Headroom workspace; nothing to pull")
                                    .arg(store::parseServerUrl(url).url()));
    const bool existed = QFileInfo::exists(file) || QFileInfo(file).isSymLink();
    if (existed && !replace)
        throw store::StoreError(QStringLiteral("workspace %1 already exists; add --replace to overwrite it "
                                               "(nothing was changed)")
                                    .arg(file));
    const store::Workspace source(url);
    if (existed) {
        store::Workspace target(file);
        target.replaceContents(source);
        report(context.out(), QStringLiteral("pulled"), source, target);
        return 0;
    }
    // Written beside FILE and renamed into place when complete.
    source.saveCopyAs(file);
    const store::Workspace target(file);
    report(context.out(), QStringLiteral("pulled"), source, target);
    return 0;
}

} // namespace

Command pushCommand()
{
    Command c{QStringLiteral("push"), QStringLiteral("copy a workspace file to a team server (--workspace, --server)"),
              QString::fromUtf8(kPushUsage), &runPush};
    c.copiesBetweenLocations = true;
    return c;
}

Command pullCommand()
{
    Command c{QStringLiteral("pull"), QStringLiteral("copy a team server's workspace to a file (--server, --workspace)"),
              QString::fromUtf8(kPullUsage), &runPull};
    c.copiesBetweenLocations = true;
    return c;
}

} // namespace headroom::cli
