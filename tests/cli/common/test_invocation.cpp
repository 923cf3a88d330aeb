// How `headroom` decides between the window and a verb, help and version, the global
// --workspace option, and the shared option parser and formatting helpers.
#include "clirunner.h"

#include "cli/common/args.h"
#include "cli/common/cli.h"
#include "cli/common/format.h"

#include <catch2/catch.hpp>

#include <QBuffer>
#include <QCoreApplication>
#include <QTextStream>
#include <QDir>
#include <QFile>
#include <QScopeGuard>

using namespace headroom::cli;

TEST_CASE("isCliInvocation: verbs, help and word-like arguments run headless, the rest opens the GUI")
{
    CHECK(isCliInvocation({"kv", "--model", "x"}));
    CHECK(isCliInvocation({"catalog", "gpus"}));
    CHECK(isCliInvocation({"import", "file.json"}));
    CHECK(isCliInvocation({"export"}));
    CHECK(isCliInvocation({"help"}));
    CHECK(isCliInvocation({"--help"}));
    CHECK(isCliInvocation({"-h"}));
    CHECK(isCliInvocation({"--version"}));
    CHECK(isCliInvocation({"frobnicate"}));
    CHECK(isCliInvocation({"--workspace", "/tmp/w.headroom", "kv"}));
    CHECK(isCliInvocation({"--workspace=/tmp/w.headroom", "catalog", "gpus"}));

    CHECK_FALSE(isCliInvocation({}));
    CHECK_FALSE(isCliInvocation({"--workspace", "/tmp/w.headroom"}));
    CHECK_FALSE(isCliInvocation({"--workspace"}));
    // A verb with a dangling --workspace still runs headless, to report the missing value.
    CHECK(isCliInvocation({"catalog", "gpus", "--workspace"}));
    CHECK_FALSE(isCliInvocation({"-platform", "offscreen"}));
    CHECK_FALSE(isCliInvocation({"--reverse"}));
    CHECK_FALSE(isCliInvocation({"/home/me/plan.headroom"}));
}

TEST_CASE("a workspace file given alone opens in the window, while a verb name still wins")
{
    const QString dir = QDir::tempPath() + QStringLiteral("/headroom-open-%1").arg(QCoreApplication::applicationPid());
    REQUIRE(QDir().mkpath(dir));
    const auto cleanup = qScopeGuard([&] { QDir(dir).removeRecursively(); });

    // Named like a workspace: opened even before it exists (the window reports what is wrong).
    CHECK(workspaceArgument({"plan.headroom"}) == std::optional<QString>("plan.headroom"));
    CHECK(workspaceArgument({"/srv/plans/Q3 Plan.HEADROOM"}) == std::optional<QString>("/srv/plans/Q3 Plan.HEADROOM"));
    CHECK_FALSE(isCliInvocation({"plan.headroom"}));

    // Any existing file, whatever its name, as a launcher passes it with %f.
    const QString plain = dir + QStringLiteral("/capacity");
    QFile f(plain);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.close();
    CHECK(workspaceArgument({plain}) == std::optional<QString>(plain));
    CHECK_FALSE(isCliInvocation({plain}));

    // A verb name wins over a file called like it; options, several words and folders are not workspaces.
    QFile verbNamed(dir + QStringLiteral("/kv"));
    REQUIRE(verbNamed.open(QIODevice::WriteOnly));
    verbNamed.close();
    QDir::setCurrent(dir);
    const auto back = qScopeGuard([] { QDir::setCurrent(QDir::tempPath()); });
    CHECK_FALSE(workspaceArgument({"kv"}));
    CHECK(isCliInvocation({"kv"}));
    CHECK_FALSE(workspaceArgument({"help"}));
    CHECK_FALSE(workspaceArgument({"--version"}));
    CHECK_FALSE(workspaceArgument({"plan.headroom", "kv"}));
    CHECK_FALSE(workspaceArgument({dir}));
    CHECK_FALSE(workspaceArgument({}));
    // Beside the global options it is still the file (windowOptions refuses it with --demo).
    CHECK(workspaceArgument({"--demo", "plan.headroom"}) == std::optional<QString>("plan.headroom"));
}

TEST_CASE("the window opens --workspace, a lone workspace file or the demo, and refuses both at once")
{
    CHECK(windowOptions({}).workspace.isEmpty());
    CHECK_FALSE(windowOptions({}).demo);
    CHECK(windowOptions({"--workspace", "a.headroom"}).workspace == "a.headroom");
    CHECK(windowOptions({"plan.headroom"}).workspace == "plan.headroom");
    CHECK(windowOptions({"--demo"}).demo);
    CHECK_THROWS_AS(windowOptions({"--workspace", "a.headroom", "b.headroom"}), UsageError);
    CHECK_THROWS_AS(windowOptions({"--demo", "plan.headroom"}), UsageError);
    CHECK_THROWS_AS(windowOptions({"--demo", "--workspace", "a.headroom"}), UsageError);
    CHECK_THROWS_AS(windowOptions({"--workspace"}), UsageError);
}

TEST_CASE("help, --help, a verb's --help and --version exit 0")
{
    CliFixture ws;
    for (const QString &flag : {QString("--help"), QString("help"), QString("-h")}) {
        const CliResult r = ws.runBare({flag});
        INFO(flag.toStdString() << ": " << r.err.toStdString());
        CHECK(r.exitCode == 0);
        CHECK(r.out.startsWith("usage: headroom"));
        for (const char *verb : {"kv", "catalog", "import", "export"})
            CHECK(r.out.contains(QString("\n  %1 ").arg(verb)));
    }

    const CliResult kvHelp = ws.runBare({"kv", "--help"});
    CHECK(kvHelp.exitCode == 0);
    CHECK(kvHelp.out.startsWith("usage: headroom kv"));
    CHECK(kvHelp.out.contains("--mla-rank"));
    CHECK(ws.runBare({"help", "export"}).out.startsWith("usage: headroom export"));

    const CliResult version = ws.runBare({"--version"});
    CHECK(version.exitCode == 0);
    CHECK(version.out == "headroom 0.1.0\n");
}

TEST_CASE("output that cannot be written exits 2 with a message, from every kind of verb")
{
    CliFixture ws;
    // A cron job piping this into kubectl must not take an empty file for the answer.
    const QList<QStringList> verbs = {
        {"--demo", "autoscale", "--scenario", "Support bot elastic", "--emit", "keda"},
        {"--demo", "scenario", "list", "--json"},
        {"--workspace", ws.workspace(), "catalog", "gpus"},
        {"--workspace", ws.workspace(), "export"},
        {"--version"},
        {"help"},
    };
    ws.run({"catalog", "gpus"});
    for (const QStringList &args : verbs) {
        INFO(args.join(' ').toStdString());
        REQUIRE(ws.runBare(args).exitCode == 0);
        const CliResult full = ws.runBareTo(args, QStringLiteral("/dev/full"));
        INFO(full.err.toStdString());
        CHECK(full.exitCode == 2);
        CHECK_THAT(full.err.toStdString(),
                   Catch::Matchers::Contains("headroom: cannot write the output")
                       && Catch::Matchers::Contains("No space left on device"));
    }
}

TEST_CASE("run() reports a stream that refuses writes")
{
    QByteArray sink;
    QBuffer readOnly(&sink);
    REQUIRE(readOnly.open(QIODevice::ReadOnly));
    QTextStream out(&readOnly);
    QString errText;
    QTextStream err(&errText);
    CHECK(run({"--version"}, out, err) == 2);
    CHECK(errText.startsWith("headroom: cannot write the output"));
}

TEST_CASE("an unknown verb exits 2 and lists the known ones")
{
    CliFixture ws;
    const CliResult r = ws.runBare({"--workspace", ws.workspace(), "frobnicate", "--json"});
    CHECK(r.exitCode == 2);
    CHECK(r.out.isEmpty());
    CHECK(r.err.trimmed() == "headroom: unknown command 'frobnicate'; known: kv, size, cost, catalog, import, import-trace, export, mig, link-time, frag, forecast, train, scenario, plan, autoscale, serving, simulate, calibrate, track, push, pull, report");
    CHECK_FALSE(QFile::exists(ws.workspace()));
}

TEST_CASE("the --workspace option may come anywhere, and without it the default workspace is created")
{
    CliFixture ws;
    const QString file = ws.writeFile("catalog.json", catalogJson("test-gpu-96", {}));
    const CliResult imported = ws.runBare({"import", file, "--workspace", ws.workspace()});
    INFO(imported.err.toStdString());
    REQUIRE(imported.exitCode == 0);
    CHECK(QFile::exists(ws.workspace()));
    const CliResult listed = ws.runBare({"catalog", "--workspace=" + ws.workspace(), "gpus"});
    CHECK(listed.out.contains("test-gpu-96"));

    // The fixture points HOME and XDG_DATA_HOME into its own folder.
    const CliResult byDefault = ws.runBare({"catalog", "gpus"});
    INFO(byDefault.err.toStdString());
    REQUIRE(byDefault.exitCode == 0);
    CHECK_FALSE(byDefault.out.contains("test-gpu-96"));
    CHECK(QFile::exists(ws.filePath("home/.local/share/Headroom/headroom/workspace.headroom")));

    const CliResult missing = ws.runBare({"catalog", "gpus", "--workspace"});
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.contains("--workspace: missing value"));
}

TEST_CASE("the option parser reads flags, inline values, repeats and positionals")
{
    const std::vector<OptionSpec> specs = {{"layers"}, {"util"}, {"context", true, true}, {"json", false}};
    const Args args({"gpus", "--layers", "64", "--util=0.92", "--context", "4096", "--context", "16384",
                     "--json"},
                    specs);
    CHECK(args.positionals() == QStringList{"gpus"});
    CHECK(args.integer("layers", 1, 1000) == 64);
    CHECK(args.number("util") == Approx(0.92));
    CHECK(args.integers("context", 1, 1 << 20) == std::vector<qint64>{4096, 16384});
    CHECK(args.has("json"));
    CHECK_FALSE(args.integer("missing-but-unread", 0, 1).has_value());

    CHECK_THROWS_WITH(Args({"--layers"}, specs), "--layers: missing value");
    CHECK_THROWS_WITH(Args({"--layers", "--json"}, specs), "--layers: missing value");
    CHECK_THROWS_WITH(Args({"--size", "3"}, specs), "unknown option '--size'");
    CHECK_THROWS_WITH(Args({"--layers", "1", "--layers", "2"}, specs), "--layers given more than once");
    CHECK_THROWS_WITH(Args({"--json=yes"}, specs), "--json takes no value");
    CHECK_THROWS_WITH(Args({"--layers", "abc"}, specs).integer("layers", 1, 10),
                      "--layers: expected an integer, got 'abc'");
    CHECK_THROWS_WITH(Args({"--layers", "0"}, specs).integer("layers", 1, 10),
                      "--layers: must be between 1 and 10, got 0");
    CHECK_THROWS_WITH(Args({"--util", "nan"}, specs).number("util"), "--util: expected a number, got 'nan'");
}

TEST_CASE("formatting helpers: thousands, binary units, closest ids")
{
    CHECK(formatInteger(0) == "0");
    CHECK(formatInteger(16384) == "16,384");
    CHECK(formatInteger(-1234567) == "-1,234,567");
    CHECK(formatDecimal(3350, 1) == "3,350");
    CHECK(formatDecimal(989.5, 1) == "989.5");
    CHECK(formatDecimal(0.92 * 100, 2) == "92");
    CHECK(formatDecimal(8.0, 1, true) == "8.0");
    CHECK(formatDecimal(1026.44, 1, true) == "1,026.4");
    CHECK(formatDecimal(-0.01, 1) == "0");
    CHECK(formatDecimal(-1234.5, 1) == "-1,234.5");
    CHECK(formatGiB(61847529062) == "57.6 GiB");
    CHECK(formatBytes(262144) == "256.0 KiB");
    CHECK(formatBytes(512) == "512 B");
    CHECK(formatBytes(qint64(4) << 30) == "4.0 GiB");
    CHECK(countOf(1, "GPU", "GPUs") == "1 GPU");
    CHECK(countOf(2, "GPU", "GPUs") == "2 GPUs");

    CHECK(editDistance("kitten", "sitting") == 3);
    CHECK(editDistance("", "abc") == 3);
    CHECK(editDistance("h100-sxm", "h100-sxm") == 0);
    const QStringList known = {"llama-3.1-70b", "mistral-7b", "llama-3.1-8b", "deepseek-v3", "qwen2.5-7b"};
    const QStringList closest = closestMatches("llama-3.1-7b", known);
    REQUIRE(closest.size() == 3);
    CHECK(closest.mid(0, 2) == QStringList{"llama-3.1-8b", "llama-3.1-70b"});
    CHECK(closestMatches("x", {"a"}, 3) == QStringList{"a"});
}

TEST_CASE("without a display the window does not open: the message points to the headless commands")
{
    CliFixture fixture;
    const CliResult result = fixture.runBare({});
    INFO(result.err.toStdString());
    CHECK(result.exitCode == 1);
    CHECK(result.err.contains("no display found"));
    CHECK(result.err.contains("xvfb-run"));
    CHECK(result.err.contains("headroom --help"));
    CHECK(result.out.isEmpty());
}
