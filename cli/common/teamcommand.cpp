#include "teamcommand.h"

#include "args.h"

#include "store/common/serverurl.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QFile>
#include <QFileInfo>
#include <memory>

namespace headroom::cli {

namespace {

const char kPushUsage[] = R"(usage: headroom push --workspace FILE --server URL [--replace]

Copies the whole workspace FILE (catalogs, rate cards, demand series, workloads, training
jobs, scenarios with their versions and times, the report, serving assumptions) to the team
workspace at URL (postgresql://user@host:port/database), in one transaction: the server holds
either all of it or what it held before. The database must exist; the password comes from
~/.pgpass or PGPASSWORD.

  --replace   overwrite a server workspace that already exists (without it an existing one is
              left as it is and the command exits 2)
)";

const char kPullUsage[] = R"(usage: headroom pull --server URL --workspace FILE [--replace]

Copies the whole team workspace at URL (postgresql://user@host:port/database) to the workspace
FILE, in one transaction: FILE holds either all of it or what it held before. A new FILE is
removed again if the copy fails.

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
    const store::Workspace source(file);
    store::Workspace target(context.serverUrl());
    if (!target.isNew() && !replace)
        throw store::StoreError(QStringLiteral("%1 already holds a workspace; add --replace to overwrite it "
                                               "(nothing was changed)")
                                    .arg(target.path()));
    target.replaceContents(source);
    report(context.out(), QStringLiteral("pushed"), source, target);
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
    auto target = std::make_unique<store::Workspace>(file);
    try {
        target->replaceContents(source);
    } catch (...) {
        if (!existed) {
            target.reset();
            for (const char *suffix : {"", "-wal", "-shm", "-journal"})
                QFile::remove(file + QLatin1String(suffix));
        }
        throw;
    }
    report(context.out(), QStringLiteral("pulled"), source, *target);
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
