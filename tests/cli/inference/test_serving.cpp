#include "common/clirunner.h"
#include "common/storetestsupport.h"

#include "store/common/workspace.h"

#include <QJsonObject>
#include <catch2/catch.hpp>

// `headroom serving`: the workspace's one set of serving assumptions, and `kv` and `size`
// following it.

TEST_CASE("serving shows the defaults, set changes only what is given and survives")
{
    CliFixture ws;
    RUN_HEADROOM(shown, ws, {"serving", "--json"});
    REQUIRE(shown.exitCode == 0);
    const QJsonObject defaults = parseJsonObject(shown.out);
    CHECK(defaults.value("memory_utilization").toDouble() == 0.9);
    CHECK(defaults.value("reserve_bytes").toInteger() == 2LL << 30);
    CHECK(defaults.value("block_size").toInt() == 16);
    CHECK(defaults.value("in_flight_quantile").toDouble() == 0.99);
    CHECK(defaults.value("kv_residency").toString() == "request");

    RUN_HEADROOM(set, ws, {"serving", "set", "--reserve-gib", "4", "--kv-residency", "session", "--json"});
    REQUIRE(set.exitCode == 0);
    const QJsonObject changed = parseJsonObject(set.out);
    CHECK(changed.value("reserve_bytes").toInteger() == 4LL << 30);
    CHECK(changed.value("kv_residency").toString() == "session");
    CHECK(changed.value("memory_utilization").toDouble() == 0.9);

    RUN_HEADROOM(table, ws, {"serving", "show"});
    REQUIRE(table.exitCode == 0);
    CHECK(table.out.contains("Runtime reserve per GPU:"));
    CHECK(table.out.contains("4.0 GiB"));
    CHECK(table.out.contains("session"));

    RUN_HEADROOM(reset, ws, {"serving", "set", "--defaults", "--json"});
    REQUIRE(reset.exitCode == 0);
    CHECK(parseJsonObject(reset.out) == defaults);
}

TEST_CASE("serving set refuses bad values by flag and changes nothing")
{
    CliFixture ws;
    RUN_HEADROOM(first, ws, {"serving", "set", "--memory-utilization", "0.8"});
    REQUIRE(first.exitCode == 0);
    const struct {
        QStringList args;
        const char *named;
    } cases[] = {
        {{"--memory-utilization", "1.5"}, "--memory-utilization"},
        {{"--in-flight-quantile", "1"}, "--in-flight-quantile"},
        {{"--block-size", "0"}, "--block-size"},
        {{"--reserve-gib", "-1"}, "--reserve-gib"},
        {{"--kv-residency", "pinned"}, "pinned"},
        {{"--planned-headroom", "11"}, "--planned-headroom"},
        {{"--defaults", "--block-size", "32"}, "--defaults"},
        {{}, "at least one option"},
    };
    for (const auto &c : cases) {
        RUN_HEADROOM(bad, ws, {QStringList{"serving", "set"} + c.args});
        INFO(c.args.join(' ').toStdString());
        CHECK(bad.exitCode == 2);
        CHECK(bad.out.isEmpty());
        CHECK(bad.err.contains(c.named));
    }
    RUN_HEADROOM(after, ws, {"serving", "--json"});
    CHECK(parseJsonObject(after.out).value("memory_utilization").toDouble() == 0.8);
    RUN_HEADROOM(unknown, ws, {"serving", "reset"});
    CHECK(unknown.exitCode == 2);
    CHECK(unknown.err.contains("unknown serving action 'reset'"));
}

TEST_CASE("kv and size take their serving defaults from the workspace")
{
    CliFixture ws;
    const QStringList kv{"kv", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--context", "16384", "--json"};
    RUN_HEADROOM(before, ws, {kv});
    REQUIRE(before.exitCode == 0);
    const QJsonObject b = parseJsonObject(before.out);
    CHECK(b.value("reserve_bytes").toInteger() == 2LL << 30);  // the workspace default, as the pages
    RUN_HEADROOM(set, ws, {"serving", "set", "--reserve-gib", "6", "--block-size", "32"});
    REQUIRE(set.exitCode == 0);
    RUN_HEADROOM(after, ws, {kv});
    REQUIRE(after.exitCode == 0);
    const QJsonObject a = parseJsonObject(after.out);
    CHECK(a.value("reserve_bytes").toInteger() == 6LL << 30);
    CHECK(a.value("block_size").toInt() == 32);
    CHECK(a.value("pool_bytes").toInteger() == b.value("pool_bytes").toInteger() - (4LL << 30));
    // a flag still wins for one run
    RUN_HEADROOM(flag, ws, {kv + QStringList{"--reserve-gib", "0"}});
    CHECK(parseJsonObject(flag.out).value("reserve_bytes").toInteger() == 0);

    const QString workload = QStringLiteral(HEADROOM_SOURCE_DIR) + "/data/samples/chatbot-workload.json";
    RUN_HEADROOM(request, ws, {"size", "--workload-file", workload, "--json"});
    REQUIRE(request.exitCode == 0);
    CHECK(parseJsonObject(request.out).value("kv_residency").toString() == "request");
    RUN_HEADROOM(session, ws, {"serving", "set", "--kv-residency", "session"});
    REQUIRE(session.exitCode == 0);
    RUN_HEADROOM(sized, ws, {"size", "--workload-file", workload, "--json"});
    REQUIRE(sized.exitCode == 0);
    const QJsonObject s = parseJsonObject(sized.out);
    CHECK(s.value("kv_residency").toString() == "session");
    CHECK(s.value("peak_streams").toInteger() == s.value("sessions_resident").toInteger());
    RUN_HEADROOM(overridden, ws, {"size", "--workload-file", workload, "--kv-residency", "request", "--json"});
    CHECK(parseJsonObject(overridden.out).value("kv_residency").toString() == "request");
}

namespace {

// Six `serving set` calls at once, each changing a different field, five rounds: after each
// round every call's change is stored. `location` is --workspace FILE or --server URL.
void checkConcurrentServingSets(const CliFixture &ws, const QStringList &location)
{
    struct Change {
        const char *flag;
        const char *key;
        double values[5];
    };
    const Change changes[] = {
        {"--memory-utilization", "memory_utilization", {0.81, 0.82, 0.83, 0.84, 0.85}},
        {"--block-size", "block_size", {32, 64, 128, 8, 256}},
        {"--planned-headroom", "planned_headroom", {0.11, 0.12, 0.13, 0.14, 0.15}},
        {"--in-flight-quantile", "in_flight_quantile", {0.91, 0.92, 0.93, 0.94, 0.95}},
        {"--queueing-allowance-ms", "queueing_allowance_ms", {101, 102, 103, 104, 105}},
        {"--request-overhead-ms", "request_overhead_ms", {11, 12, 13, 14, 15}},
    };
    for (int round = 0; round < 5; ++round) {
        QList<QStringList> calls;
        for (const Change &change : changes)
            calls << location + QStringList{"serving", "set", change.flag, QString::number(change.values[round])};
        const std::vector<CliResult> results = ws.runBareConcurrently(calls);
        for (const CliResult &result : results) {
            INFO(result.err.toStdString());
            CHECK(result.exitCode == 0);
        }
        const CliResult shown = ws.runBare(location + QStringList{"serving", "--json"});
        REQUIRE(shown.exitCode == 0);
        const QJsonObject stored = parseJsonObject(shown.out);
        for (const Change &change : changes) {
            INFO("round " << round << ": " << change.key);
            CHECK(stored.value(QLatin1String(change.key)).toDouble() == change.values[round]);
        }
    }
}

} // namespace

TEST_CASE("six concurrent serving set calls on a file each keep their change")
{
    CliFixture ws;
    REQUIRE(ws.run({"serving"}).exitCode == 0);
    checkConcurrentServingSets(ws, {"--workspace", ws.workspace()});
}

TEST_CASE("six concurrent serving set calls on a server each keep their change", "[server]")
{
    CliFixture ws;
    headroom::store::test::WorkspaceLocation server;
    { headroom::store::Workspace created(server.path()); }
    checkConcurrentServingSets(ws, {"--server", server.path()});
}
