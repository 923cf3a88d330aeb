// The global --demo option end to end: every verb can work on the freshly built demo workspace.
#include "clirunner.h"

#include <catch2/catch.hpp>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

namespace {

const QStringList kDemoScenarios{"Chatbot core + flex", "Internal MIG tenants", "Code fleet 64 GPUs",
                                 "Support bot static", "Support bot elastic"};

QString demoPath(const CliFixture &fixture)
{
    return fixture.filePath("home/.local/share/Headroom/headroom/demo.headroom");
}

} // namespace

TEST_CASE("headroom --demo scenario list lists the demo scenarios")
{
    CliFixture fixture;
    const CliResult r = fixture.runBare({"--demo", "scenario", "list"});
    INFO(r.out.toStdString() << r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    for (const QString &name : kDemoScenarios)
        CHECK(r.out.contains(name));
    CHECK(QFileInfo::exists(demoPath(fixture)));
}

TEST_CASE("headroom --demo scenario evaluate prints the static and elastic support bot costs")
{
    CliFixture fixture;
    const CliResult fixed = fixture.runBare({"scenario", "evaluate", "Support bot static", "--json", "--demo"});
    INFO(fixed.out.toStdString() << fixed.err.toStdString());
    REQUIRE(fixed.exitCode == 0);
    CHECK(parseJsonObject(fixed.out).value("cost_per_day").toString() == "1532.16");
    const CliResult elastic = fixture.runBare({"--demo", "scenario", "evaluate", "Support bot elastic", "--json"});
    REQUIRE(elastic.exitCode == 0);
    const QJsonObject json = parseJsonObject(elastic.out);
    CHECK(json.value("cost_per_day").toString() == "957.60");
    CHECK(json.value("pools").toArray().at(0).toObject().value("tier").toString() == "on_demand");
}

TEST_CASE("the --demo option works with every verb, on a demo workspace rebuilt each time")
{
    CliFixture fixture;
    const CliResult list = fixture.runBare({"--demo", "catalog", "gpus"});
    INFO(list.err.toStdString());
    REQUIRE(list.exitCode == 0);
    CHECK(list.out.contains("h100-sxm"));
    // An import into the demo workspace is not kept: the next --demo starts over.
    const QString gpu = fixture.writeFile("gpu.json", catalogJson("demo-test-gpu", {}));
    REQUIRE(fixture.runBare({"--demo", "import", gpu}).exitCode == 0);
    const CliResult exported = fixture.runBare({"--demo", "export", "gpus"});
    REQUIRE(exported.exitCode == 0);
    CHECK_FALSE(exported.out.contains("demo-test-gpu"));
    CHECK(exported.out.contains("h100-sxm"));
}

TEST_CASE("the --demo and --workspace options together are refused")
{
    CliFixture fixture;
    const CliResult r = fixture.run({"--demo", "catalog", "gpus"});
    CHECK(r.exitCode == 2);
    CHECK(r.err.contains("--demo and --workspace"));
    CHECK(r.out.isEmpty());
}

TEST_CASE("headroom help documents --demo")
{
    CliFixture fixture;
    const CliResult r = fixture.runBare({"help"});
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.contains("--demo"));
    CHECK(r.out.contains("demo.headroom"));
}
