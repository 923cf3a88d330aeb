// Failing commands change nothing and say why: unknown options before the verb, mistyped
// workspace paths, bad scenario documents, and running out of memory.
#include "clirunner.h"

#include "cli/common/cli.h"
#include "cli/common/command.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QProcess>
#include <QTextStream>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

using namespace headroom::cli;

namespace {

const QByteArray kScenario = R"({"name": "chatbot", "rate_card": {"provider": "AWS", "region": "us-east-1"},
  "pools": [{"name": "core", "gpu": "h100-sxm", "gpus": 8}]})";

// Runs `headroom ARGS` as a user who cannot write files it does not own: "nobody" when the
// tests run as root, else the current user.
CliResult runUnprivileged(const CliFixture &fixture, const QStringList &args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        env.remove(QLatin1String(name));
    env.insert(QStringLiteral("HOME"), fixture.filePath(QStringLiteral("home")));
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(fixture.filePath(QString()));
    process.setChildProcessModifier([] {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
            ::_exit(99);
    });
    process.start(QStringLiteral(HEADROOM_BINARY), args);
    REQUIRE(process.waitForStarted(10000));
    REQUIRE(process.waitForFinished(60000));
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

} // namespace

TEST_CASE("an unknown option before the verb exits 2 naming it instead of opening the window")
{
    CHECK(isCliInvocation({"--servr", "http://x", "catalog", "gpus"}));
    CHECK(isCliInvocation({"-x"}));
    // Qt's own window options still reach the window.
    CHECK_FALSE(isCliInvocation({"-platform", "offscreen"}));
    CHECK_FALSE(isCliInvocation({"--style=fusion"}));
    CHECK_FALSE(isCliInvocation({"-reverse"}));

    CliFixture ws;
    const CliResult r = ws.runBare({"--servr", "http://localhost:8080", "catalog", "gpus"});
    INFO(r.err.toStdString());
    CHECK(r.exitCode == 2);
    CHECK(r.err.startsWith("headroom: unknown option '--servr'"));
    CHECK_FALSE(r.err.contains("display"));
    CHECK(r.out.isEmpty());
    CHECK_FALSE(QFile::exists(ws.filePath("home/.local/share/Headroom/headroom/workspace.headroom")));
}

TEST_CASE("a verb that reads refuses a --workspace path that does not exist and creates nothing")
{
    CliFixture ws;
    const QString typo = ws.filePath("wokrspace.headroom");
    for (const QStringList &verb : {QStringList{"catalog", "gpus"}, QStringList{"scenario", "list"},
                                    QStringList{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm"},
                                    QStringList{"export"}}) {
        const CliResult r = ws.runBare(QStringList{"--workspace", typo} + verb);
        INFO(verb.join(' ').toStdString() << ": " << r.err.toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains(QStringLiteral("workspace %1 does not exist").arg(typo)));
        CHECK(r.out.isEmpty());
        CHECK_FALSE(QFile::exists(typo));
    }
}

TEST_CASE("import creates a missing workspace, and a failing import leaves none behind")
{
    CliFixture ws;
    const QString fresh = ws.filePath("fresh.headroom");
    const QString bad = ws.writeFile("bad.json", R"({"gpus": [{"id": "x"}]})");
    const CliResult failed = ws.runBare({"--workspace", fresh, "import", bad});
    INFO(failed.err.toStdString());
    CHECK(failed.exitCode == 2);
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        CHECK_FALSE(QFile::exists(fresh + suffix));

    const QString good = ws.writeFile("scenario.json", kScenario);
    const CliResult imported = ws.runBare({"--workspace", fresh, "import", good});
    INFO(imported.err.toStdString());
    CHECK(imported.exitCode == 0);
    CHECK(QFile::exists(fresh));
    const CliResult listed = ws.runBare({"--workspace", fresh, "scenario", "list"});
    CHECK(listed.exitCode == 0);
    CHECK(listed.out.contains("chatbot"));
}

TEST_CASE("a failing verb does not leave a new default workspace behind")
{
    CliFixture ws;
    const CliResult r = ws.runBare({"scenario", "evaluate", "no such scenario"});
    INFO(r.err.toStdString());
    CHECK(r.exitCode == 2);
    CHECK_FALSE(QFile::exists(ws.filePath("home/.local/share/Headroom/headroom/workspace.headroom")));
}

TEST_CASE("importing a scenario document without pools or name, or with a blank name, exits 2 naming it")
{
    CliFixture ws;
    QByteArray noPools = kScenario;
    noPools.replace(R"(,
  "pools": [{"name": "core", "gpu": "h100-sxm", "gpus": 8}])", "");
    REQUIRE_FALSE(noPools.contains("pools"));
    QByteArray noName = kScenario;
    noName.replace(R"("name": "chatbot", )", "");
    QByteArray blank = kScenario;
    blank.replace(R"("chatbot")", R"("   ")");

    const struct {
        const char *file;
        QByteArray content;
        const char *expected;
    } cases[] = {
        {"no-pools.json", noPools, R"(field "pools": is missing)"},
        {"no-name.json", noName, R"(field "name": is missing)"},
        {"blank-name.json", blank, "must not be blank"},
    };
    for (const auto &c : cases) {
        const QString file = ws.writeFile(c.file, c.content);
        RUN_HEADROOM(r, ws, {"import", file});
        CHECK(r.exitCode == 2);
        CHECK(r.err.contains(c.file));
        CHECK(r.err.contains(c.expected));
        CHECK_FALSE(r.err.contains("\"gpus\""));
    }
    RUN_HEADROOM(listed, ws, {"scenario", "list", "--json"});
    CHECK(listed.exitCode == 0);
    CHECK_FALSE(listed.out.contains("chatbot"));
}

TEST_CASE("running out of memory exits 2 with a message")
{
    const Command hungry{QStringLiteral("hungry"), QStringLiteral("needs too much memory"), QString(),
                         [](const QStringList &, Context &) -> int { throw std::bad_alloc(); }};
    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    CHECK(run({"hungry"}, out, err, {hungry}) == 2);
    CHECK(errText.startsWith("headroom: out of memory"));
}

TEST_CASE("a read-only workspace answers verbs that read, and import fails with exit 2 naming it")
{
    CliFixture ws;
    RUN_HEADROOM(created, ws, {"scenario", "list"});
    REQUIRE(created.exitCode == 0);
    const QByteArray folder = QFile::encodeName(ws.filePath(QString()));
    const QByteArray file = QFile::encodeName(ws.workspace());
    const QString scenario = ws.writeFile("scenario.json", kScenario);
    REQUIRE(::chmod(file.constData(), 0444) == 0);
    REQUIRE(::chmod(folder.constData(), 0555) == 0);  // no -wal or -shm can be made beside it

    const CliResult listed = runUnprivileged(ws, {"--workspace", ws.workspace(), "catalog", "gpus"});
    const CliResult imported = runUnprivileged(ws, {"--workspace", ws.workspace(), "import", scenario});
    ::chmod(folder.constData(), 0755);
    ::chmod(file.constData(), 0644);
    INFO(listed.err.toStdString() << imported.err.toStdString());
    CHECK(listed.exitCode == 0);
    CHECK(listed.out.contains("h100-sxm"));
    CHECK(imported.exitCode == 2);
    CHECK(imported.err.contains(QStringLiteral("workspace %1 is read-only").arg(ws.workspace())));
    RUN_HEADROOM(after, ws, {"scenario", "list"});
    CHECK_FALSE(after.out.contains("chatbot"));
}
