// Team workspaces from the command line: --server on every verb, and push/pull between a
// workspace file and a PostgreSQL server. The [server] tests run as "cli-pg: " against the
// server scripts/pgserver.sh starts, each in a fresh database, and fail when it is missing.
#include "clirunner.h"
#include "common/storetestsupport.h"

#include "store/common/demoworkspace.h"
#include "store/common/workspace.h"

#include <catch2/catch.hpp>

using headroom::store::test::WorkspaceLocation;
using Catch::Matchers::Contains;

TEST_CASE("a --server URL must be postgresql, and excludes --workspace except for push and pull")
{
    CliFixture f;
    const CliResult bad = f.runBare({"--server", "/tmp/plans.headroom", "catalog", "gpus"});
    CHECK(bad.exitCode == 2);
    CHECK_THAT(bad.err.toStdString(), Contains("--server") && Contains("postgresql://"));

    const CliResult both = f.runBare({"--workspace", f.filePath("w.headroom"), "--server",
                                      "postgresql://127.0.0.1:1/plans", "catalog", "gpus"});
    CHECK(both.exitCode == 2);
    CHECK_THAT(both.err.toStdString(), Contains("not both"));

    const CliResult push = f.runBare({"--workspace", f.filePath("w.headroom"), "push"});
    CHECK(push.exitCode == 2);
    CHECK_THAT(push.err.toStdString(), Contains("push needs both --workspace FILE and --server URL"));

    const CliResult password = f.runBare({"--server", "postgresql://planner:s3cret@127.0.0.1:1/plans", "catalog", "gpus"});
    CHECK(password.exitCode == 2);
    CHECK_THAT(password.err.toStdString(), Contains(".pgpass") && !Contains("s3cret"));
}

TEST_CASE("a --server URL that hides settings or a password is refused without showing the secret")
{
    CliFixture f;
    for (const QString url : {QStringLiteral("postgresql://planner@127.0.0.1:1/plans?password=S3cret"),
                              QStringLiteral("postgresql://planner@127.0.0.1:1/plans?sslpassword=S3cret"),
                              QStringLiteral("postgresql://planner@127.0.0.1:1/plans?application_name=x%20password=S3cret"),
                              QStringLiteral("postgresql://planner@127.0.0.1:1/plans?application_name=x%20user=postgres"),
                              QStringLiteral("postgresql://planner@127.0.0.1:1/plans?sslmode=require&sslmode=disable"),
                              QStringLiteral("mysql://planner:S3cret@127.0.0.1:1/plans")}) {
        const CliResult result = f.runBare({"--server", url, "scenario", "list"});
        INFO(url.toStdString() << "\n" << result.err.toStdString());
        CHECK(result.exitCode == 2);
        CHECK_THAT(result.err.toStdString(), !Contains("S3cret") && !Contains("user=postgres")
                                                 && !Contains("no server is listening"));
    }
}

TEST_CASE("a verb on a server nothing listens at fails with a clear message")
{
    CliFixture f;
    // Port 1 on this machine: no PostgreSQL there.
    const CliResult result = f.runBare({"--server", "postgresql://planner@127.0.0.1:1/plans", "catalog", "gpus"});
    CHECK(result.exitCode == 2);
    CHECK_THAT(result.err.toStdString(),
               Contains("postgresql://planner@127.0.0.1:1/plans") && Contains("no server is listening"));
}

TEST_CASE("push copies a workspace to the server, verbs read it with --server, pull copies it back", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    const QString url = server.path();
    const QString file = headroom::store::createDemoWorkspace(f.filePath("demo.headroom"));

    const CliResult push = f.runBare({"push", "--workspace", file, "--server", url});
    INFO(push.err.toStdString());
    REQUIRE(push.exitCode == 0);
    CHECK_THAT(push.out.toStdString(), Contains("pushed") && Contains(url.toStdString()) && Contains("scenarios"));

    const CliResult fileList = f.runBare({"--workspace", file, "scenario", "list", "--json"});
    const CliResult serverList = f.runBare({"--server", url, "scenario", "list", "--json"});
    REQUIRE(fileList.exitCode == 0);
    REQUIRE(serverList.exitCode == 0);
    CHECK(serverList.out == fileList.out);
    const CliResult serverGpus = f.runBare({"--server", url, "catalog", "gpus", "--json"});
    CHECK(serverGpus.exitCode == 0);
    CHECK(serverGpus.out == f.runBare({"--workspace", file, "catalog", "gpus", "--json"}).out);

    // A second push would overwrite: refused without --replace, the server unchanged.
    const CliResult again = f.runBare({"push", "--workspace", file, "--server", url});
    CHECK(again.exitCode == 2);
    CHECK_THAT(again.err.toStdString(), Contains("already holds a workspace") && Contains("--replace"));
    CHECK(f.runBare({"push", "--workspace", file, "--server", url, "--replace"}).exitCode == 0);

    const QString pulled = f.filePath("pulled.headroom");
    const CliResult pull = f.runBare({"pull", "--server", url, "--workspace", pulled});
    INFO(pull.err.toStdString());
    REQUIRE(pull.exitCode == 0);
    CHECK(f.runBare({"--workspace", pulled, "scenario", "list", "--json"}).out == fileList.out);
    const QString firstScenario = headroom::store::demoScenarioNames().constFirst();
    CHECK(f.runBare({"--workspace", pulled, "scenario", "evaluate", firstScenario, "--json"}).out
          == f.runBare({"--workspace", file, "scenario", "evaluate", firstScenario, "--json"}).out);

    const CliResult overwrite = f.runBare({"pull", "--server", url, "--workspace", pulled});
    CHECK(overwrite.exitCode == 2);
    CHECK_THAT(overwrite.err.toStdString(), Contains("already exists") && Contains("--replace"));
    CHECK(f.runBare({"pull", "--server", url, "--workspace", pulled, "--replace"}).exitCode == 0);
}

TEST_CASE("pull from a database without a workspace creates nothing on either side", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    const QString target = f.filePath("never.headroom");
    const CliResult pull = f.runBare({"pull", "--server", server.path(), "--workspace", target});
    CHECK(pull.exitCode == 2);
    CHECK_THAT(pull.err.toStdString(), Contains("holds no Headroom workspace"));
    CHECK_FALSE(QFile::exists(target));
    CHECK_FALSE(headroom::store::Workspace::exists(server.path()));
}

TEST_CASE("scenario history and restore on the server name the database role", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    const QString url = server.path();
    QString role;
    {
        headroom::store::Workspace workspace(url);
        role = workspace.userName();
        headroom::engine::Scenario s;
        s.name = "team plan";
        s.provider = "AWS";
        s.region = "us-east-1";
        headroom::engine::Pool pool;
        pool.name = "core";
        pool.gpuId = "h100-sxm";
        pool.gpus = 8;
        s.pools = {pool};
        workspace.saveScenario(s, 0);
        s.pools[0].gpus = 24;
        workspace.saveScenario(s, 1);
    }
    const CliResult history = f.runBare({"--server", url, "scenario", "history", "team plan"});
    INFO(history.err.toStdString());
    REQUIRE(history.exitCode == 0);
    CHECK_THAT(history.out.toStdString(), Contains(role.toStdString()));
    const CliResult restore = f.runBare({"--server", url, "scenario", "restore", "team plan", "--version", "1"});
    REQUIRE(restore.exitCode == 0);
    CHECK_THAT(restore.out.toStdString(), Contains("as version 3"));
    headroom::store::Workspace workspace(url);
    CHECK(workspace.scenario(QStringLiteral("team plan"))->pools[0].gpus == 8);
    CHECK(workspace.scenarioHistory(QStringLiteral("team plan")).size() == 3);
    CHECK(workspace.scenarioHistory(QStringLiteral("team plan")).front().changedBy == role);
}

TEST_CASE("push refuses a file whose text holds a NUL character with a clear message", "[server]")
{
    CliFixture f;
    WorkspaceLocation server;
    // Files written before NUL was refused may hold one (SQLite keeps it; PostgreSQL cannot).
    const QString file = f.filePath("nul.headroom");
    { headroom::store::Workspace created(file); }
    {
        headroom::store::test::RawDatabase raw(file);
        raw.exec(QStringLiteral("UPDATE gpu SET name = 'H100' || char(0) || ''');DROP TABLE gpu;--' "
                                "WHERE id = 'h100-sxm'"));
    }
    const CliResult push = f.runBare({"push", "--workspace", file, "--server", server.path()});
    INFO(push.err.toStdString());
    CHECK(push.exitCode == 2);
    CHECK_THAT(push.err.toStdString(), Contains("NUL character") && !Contains("syntax error"));
}
