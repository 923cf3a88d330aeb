// push and pull under faults and bad input: kill -9 during a first push or a new pull leaves
// the old state or the whole copy, and push reads its source without writing it, refusing a
// file that is not a workspace or holds damaged documents before the server is touched.
// [server]: run as "cli-pg: " against the server scripts/pgserver.sh starts.
#include "clirunner.h"
#include "common/storetestsupport.h"

#include "store/common/demoworkspace.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QThread>
#include <functional>
#include <memory>

using headroom::store::Workspace;
using headroom::store::test::RawDatabase;
using headroom::store::test::WorkspaceLocation;
using Catch::Matchers::Contains;

namespace {

constexpr int kKills = 30;

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
}

// What a reader of the server sees: its scenarios and GPUs, or "" when it holds no workspace.
QString serverState(const CliFixture &f, const QString &url)
{
    if (!Workspace::exists(url))
        return {};
    return f.runBare({"--server", url, "scenario", "list", "--json"}).out
        + f.runBare({"--server", url, "catalog", "gpus", "--json"}).out;
}

QString fileState(const CliFixture &f, const QString &file)
{
    return f.runBare({"--workspace", file, "scenario", "list", "--json"}).out
        + f.runBare({"--workspace", file, "catalog", "gpus", "--json"}).out;
}

// Waits until no other session is connected to the server's database, so that a killed
// program's transaction has been committed or rolled back before the server is looked at.
void waitForOtherSessions(const QString &url)
{
    RawDatabase raw(url);
    for (int i = 0; i < 500; ++i) {
        if (raw.scalar(QStringLiteral("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                                      "AND pid <> pg_backend_pid()"))
                .toInt()
            == 0)
            return;
        QThread::msleep(10);
    }
    FAIL("a killed program's session is still open after 5 s");
}

// Runs `headroom args` and kills it with SIGKILL after `delayMs` (unless it ended before).
bool runAndKill(const CliFixture &f, const QStringList &args, int delayMs)
{
    QProcess process;
    f.startBare(process, args);
    const bool finished = process.waitForFinished(delayMs);
    if (!finished) {
        process.kill();
        process.waitForFinished(10000);
    }
    return !finished;
}

int elapsedMs(const std::function<void()> &action)
{
    QElapsedTimer timer;
    timer.start();
    action();
    return int(timer.elapsed());
}

} // namespace

TEST_CASE("kill -9 during a first push leaves no workspace on the server or the whole copy", "[server]")
{
    CliFixture f;
    const QString file = headroom::store::createDemoWorkspace(f.filePath("demo.headroom"));
    QString expected;
    int pushMs = 0;
    {
        WorkspaceLocation reference;
        pushMs = elapsedMs([&] {
            REQUIRE(f.runBare({"push", "--workspace", file, "--server", reference.path()}).exitCode == 0);
        });
        expected = serverState(f, reference.path());
    }
    REQUIRE_FALSE(expected.isEmpty());

    auto server = std::make_unique<WorkspaceLocation>();
    int killed = 0, absent = 0, complete = 0;
    for (int run = 0; run < kKills; ++run) {
        // Kills spread over the whole push, process start included, and a little past it.
        const int delay = 20 + run * (pushMs + pushMs / 5) / kKills;
        INFO("run " << run << ", killed after " << delay << " ms of a " << pushMs << " ms push");
        const QString url = server->path();
        if (runAndKill(f, {"push", "--workspace", file, "--server", url}, delay))
            ++killed;
        waitForOtherSessions(url);
        const QString state = serverState(f, url);
        if (state.isEmpty()) {
            // Nothing committed: no tables left behind, and a plain retry is not refused.
            CHECK(RawDatabase(url).scalar(QStringLiteral("SELECT COUNT(*) FROM information_schema.tables "
                                                         "WHERE table_schema = current_schema()"))
                      .toInt()
                  == 0);
            ++absent;
        } else {
            CHECK(state == expected);
            ++complete;
            server = std::make_unique<WorkspaceLocation>();
        }
    }
    WARN("kill -9 during a first push, " << kKills << " runs (a push takes " << pushMs << " ms): " << killed
                                         << " killed; the server held " << absent << " times nothing, "
                                         << complete << " times the whole copy");
    CHECK(absent + complete == kKills);
    CHECK(killed >= kKills / 3);
    // After any kill a retry without --replace succeeds.
    const QString url = server->path();
    const CliResult retry = f.runBare({"push", "--workspace", file, "--server", url});
    INFO(retry.err.toStdString());
    CHECK(retry.exitCode == 0);
    CHECK(serverState(f, url) == expected);
}

TEST_CASE("kill -9 during a pull to a new file leaves no file or the whole copy", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    const QString url = server.path();
    const QString demo = headroom::store::createDemoWorkspace(f.filePath("demo.headroom"));
    REQUIRE(f.runBare({"push", "--workspace", demo, "--server", url}).exitCode == 0);
    const QString reference = f.filePath("reference.headroom");
    const int pullMs = elapsedMs([&] {
        REQUIRE(f.runBare({"pull", "--server", url, "--workspace", reference}).exitCode == 0);
    });
    const QString expected = fileState(f, reference);
    REQUIRE_FALSE(expected.isEmpty());

    const QString folder = f.filePath("pulled");
    REQUIRE(QDir().mkpath(folder));
    int killed = 0, absent = 0, complete = 0;
    for (int run = 0; run < kKills; ++run) {
        const int delay = 20 + run * (pullMs + pullMs / 5) / kKills;
        INFO("run " << run << ", killed after " << delay << " ms of a " << pullMs << " ms pull");
        const QString file = folder + QStringLiteral("/pulled-%1.headroom").arg(run);
        if (runAndKill(f, {"pull", "--server", url, "--workspace", file}, delay))
            ++killed;
        if (!QFileInfo::exists(file)) {
            ++absent;
            // A retry is not refused and completes.
            const CliResult retry = f.runBare({"pull", "--server", url, "--workspace", file});
            INFO(retry.err.toStdString());
            CHECK(retry.exitCode == 0);
        } else {
            ++complete;
        }
        CHECK(QFileInfo(file).size() > 0);
        CHECK(fileState(f, file) == expected);
    }
    WARN("kill -9 during a new pull, " << kKills << " runs (a pull takes " << pullMs << " ms): " << killed
                                       << " killed; the file was " << absent << " times absent, " << complete
                                       << " times complete");
    CHECK(absent + complete == kKills);
    CHECK(killed >= kKills / 3);
}

TEST_CASE("push refuses a source that is not a workspace and changes neither side", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    const QString url = server.path();
    const QString demo = headroom::store::createDemoWorkspace(f.filePath("demo.headroom"));
    REQUIRE(f.runBare({"push", "--workspace", demo, "--server", url}).exitCode == 0);
    const QString before = serverState(f, url);
    REQUIRE_FALSE(before.isEmpty());

    SECTION("an empty file")
    {
        const QString empty = f.writeFile("empty.headroom", QByteArray());
        const CliResult push = f.runBare({"push", "--workspace", empty, "--server", url, "--replace"});
        INFO(push.err.toStdString());
        CHECK(push.exitCode == 2);
        CHECK_THAT(push.err.toStdString(),
                   Contains(empty.toStdString()) && Contains("not a Headroom workspace") && Contains("empty"));
        CHECK_THAT(push.out.toStdString(), !Contains("pushed"));
        CHECK(QFileInfo(empty).size() == 0);
        CHECK_FALSE(QFileInfo::exists(empty + QStringLiteral("-wal")));
    }
    SECTION("an SQLite database of another program")
    {
        const QString other = f.filePath("other.sqlite");
        { RawDatabase(other).exec(QStringLiteral("CREATE TABLE notes (body TEXT)")); }
        const QByteArray hash = fileHash(other);
        const CliResult push = f.runBare({"push", "--workspace", other, "--server", url, "--replace"});
        INFO(push.err.toStdString());
        CHECK(push.exitCode == 2);
        CHECK_THAT(push.err.toStdString(), Contains(other.toStdString()) && Contains("not a Headroom workspace"));
        CHECK(fileHash(other) == hash);
    }
    SECTION("a text file")
    {
        const QString text = f.writeFile("notes.headroom", "just some notes\n");
        const CliResult push = f.runBare({"push", "--workspace", text, "--server", url, "--replace"});
        INFO(push.err.toStdString());
        CHECK(push.exitCode == 2);
        CHECK_THAT(push.err.toStdString(), Contains(text.toStdString()) && Contains("not an SQLite database"));
        CHECK(headroom::store::test::readBytes(text) == "just some notes\n");
    }
    CHECK(serverState(f, url) == before);
}

TEST_CASE("push refuses damaged documents naming them, and never writes its source", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    const QString url = server.path();
    const QString demo = headroom::store::createDemoWorkspace(f.filePath("demo.headroom"));
    REQUIRE(f.runBare({"push", "--workspace", demo, "--server", url}).exitCode == 0);
    const QString before = serverState(f, url);
    const QString scenario = headroom::store::demoScenarioNames().constFirst();

    SECTION("a scenario body that is not JSON")
    {
        const QString file = headroom::store::createDemoWorkspace(f.filePath("broken.headroom"));
        RawDatabase(file).exec(QStringLiteral("UPDATE scenario SET body = '{not json' WHERE name = '%1'").arg(scenario));
        const QByteArray hash = fileHash(file);
        const CliResult push = f.runBare({"push", "--workspace", file, "--server", url, "--replace"});
        INFO(push.err.toStdString());
        CHECK(push.exitCode == 2);
        CHECK_THAT(push.err.toStdString(), Contains(file.toStdString()) && Contains(scenario.toStdString()));
        CHECK(fileHash(file) == hash);
    }
    SECTION("a name that is not UTF-8")
    {
        const QString file = headroom::store::createDemoWorkspace(f.filePath("latin1.headroom"));
        RawDatabase(file).exec(QStringLiteral("UPDATE gpu SET name = CAST(X'48313030FF' AS TEXT) WHERE id = 'h100-sxm'"));
        const QByteArray hash = fileHash(file);
        const CliResult push = f.runBare({"push", "--workspace", file, "--server", url, "--replace"});
        INFO(push.err.toStdString());
        CHECK(push.exitCode == 2);
        CHECK_THAT(push.err.toStdString(), Contains(file.toStdString()) && Contains("table gpu")
                                               && Contains("column name") && Contains("not UTF-8"));
        CHECK(fileHash(file) == hash);
    }
    SECTION("a file at an older schema is refused, not upgraded")
    {
        const QString file = headroom::store::createDemoWorkspace(f.filePath("older.headroom"));
        RawDatabase(file).exec(QStringLiteral("PRAGMA user_version = %1").arg(Workspace::kSchemaVersion - 1));
        const QByteArray hash = fileHash(file);
        const CliResult push = f.runBare({"push", "--workspace", file, "--server", url, "--replace"});
        INFO(push.err.toStdString());
        CHECK(push.exitCode == 2);
        CHECK_THAT(push.err.toStdString(),
                   Contains(file.toStdString())
                       && Contains(QStringLiteral("schema %1").arg(Workspace::kSchemaVersion - 1).toStdString()));
        CHECK(fileHash(file) == hash);
    }
    SECTION("a sound file is pushed and stays byte for byte as it was")
    {
        const QString file = headroom::store::createDemoWorkspace(f.filePath("sound.headroom"));
        const QByteArray hash = fileHash(file);
        const CliResult push = f.runBare({"push", "--workspace", file, "--server", url, "--replace"});
        INFO(push.err.toStdString());
        CHECK(push.exitCode == 0);
        CHECK(fileHash(file) == hash);
        return;
    }
    CHECK(serverState(f, url) == before);
}

TEST_CASE("a server error reaches stderr as the one message, without the SQL driver's notes", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    const QString url = server.path();
    REQUIRE(f.runBare({"--server", url, "catalog", "gpus"}).exitCode == 0);
    {
        RawDatabase raw(url);
        raw.exec(QStringLiteral("DO $$ BEGIN CREATE ROLE headroom_reader LOGIN; "
                                "EXCEPTION WHEN duplicate_object THEN NULL; END $$"));
        raw.exec(QStringLiteral("GRANT SELECT ON ALL TABLES IN SCHEMA public TO headroom_reader"));
    }
    QString readerUrl = url;
    readerUrl.replace(QStringLiteral("://headroom@"), QStringLiteral("://headroom_reader@"));
    REQUIRE(readerUrl != url);
    const CliResult exported = f.runBare({"--server", readerUrl, "export"});
    REQUIRE(exported.exitCode == 0);
    const QString catalog = f.writeFile("catalog.json", exported.out.toUtf8());
    // A change the role may not make: the driver once wrote "Unable to free statement: ERROR:
    // current transaction is aborted …" on stderr before the message.
    const CliResult import = f.runBare({"--server", readerUrl, "import", catalog});
    INFO(import.err.toStdString());
    CHECK(import.exitCode == 2);
    CHECK(import.err.startsWith(QStringLiteral("headroom: ")));
    CHECK_THAT(import.err.toStdString(), Contains("the server role may not change this workspace")
                                             && !Contains("Unable to free statement"));
    CHECK(import.err.count(QLatin1Char('\n')) <= 2);
}
