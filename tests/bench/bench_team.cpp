// Times a team workspace on a local PostgreSQL server (run it beside one:
// `bash scripts/pgserver.sh build/tests/bench/bench_team`, which sets HEADROOM_TEST_SERVER):
// opening a workspace of 10,000 scenarios and listing them (target < 1 s), one scenario edit
// round trip (target < 20 ms), one save refused as a conflict, and 20 concurrent writers × 100
// optimistic edits of one scenario, counting every edit as applied or refused and checking that
// none was lost. Works in a database of its
// own, created and dropped here.

#include "benchtiming.h"
#include "engine/fleet/scenario.h"
#include "store/common/demoworkspace.h"
#include "store/fleet/scenariojson.h"
#include "store/common/serverurl.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

using namespace headroom;
using headroom::bench::measure;

namespace {

constexpr int kScenarios = 10000;
constexpr int kWriters = 20;
constexpr int kEdits = 100;

bool exec(const QString &connection, const QString &sql)
{
    QSqlQuery query(QSqlDatabase::database(connection));
    if (query.exec(sql))
        return true;
    std::fprintf(stderr, "bench_team: %s: %s\n", qPrintable(sql.left(80)), qPrintable(query.lastError().text()));
    return false;
}

QString openConnection(const store::ServerLocation &location, const QString &name)
{
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    db.setHostName(location.host);
    db.setPort(location.port);
    db.setDatabaseName(location.database);
    db.setUserName(location.user);
    if (!db.open()) {
        std::fprintf(stderr, "bench_team: cannot connect to %s: %s\n", qPrintable(location.url()),
                     qPrintable(db.lastError().text()));
        std::exit(1);
    }
    return name;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString serverUrl = qEnvironmentVariable("HEADROOM_TEST_SERVER");
    if (serverUrl.isEmpty()) {
        std::fprintf(stderr, "bench_team: set HEADROOM_TEST_SERVER, e.g. run it through scripts/pgserver.sh\n");
        return 1;
    }
    store::ServerLocation server = store::parseServerUrl(serverUrl);
    const QString admin = openConnection(server, QStringLiteral("bench-admin"));
    const QString database = QStringLiteral("headroom_bench_%1").arg(QCoreApplication::applicationPid());
    if (!exec(admin, QStringLiteral("CREATE DATABASE %1").arg(database)))
        return 1;
    server.database = database;
    const QString url = server.url();
    int status = 0;
    try {
        QTemporaryDir dir;
        const QString demo = store::createDemoWorkspace(dir.filePath(QStringLiteral("demo.headroom")));
        const QString name = store::demoScenarioNames().constFirst();
        engine::Scenario scenario;
        {
            const store::Workspace source(demo);
            store::Workspace target(url);
            target.replaceContents(source);
            scenario = *target.scenario(name);
        }
        // 10,000 scenario rows written in one statement, as a long-lived workspace would hold them.
        {
            const QString fill = openConnection(server, QStringLiteral("bench-fill"));
            QString body = QString::fromUtf8(store::scenarioJsonText(scenario));
            body.replace(QLatin1Char('\''), QStringLiteral("''"));
            exec(fill, QStringLiteral("INSERT INTO scenario (name, description, author, version, created_at, updated_at, body) "
                                      "SELECT format('bulk %s', lpad(i::text, 5, '0')), 'bench', 'bench', 1, "
                                      "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '%2' "
                                      "FROM generate_series(1, %1) AS i")
                           .arg(kScenarios)
                           .arg(body));
            QSqlDatabase::database(fill).close();
            QSqlDatabase::removeDatabase(fill);
        }
        size_t listed = 0;
        const auto open = measure(1, 10, [&] {
            store::Workspace workspace(url);
            listed = workspace.scenarioSummaries().size();
        });
        std::printf("open a server workspace with %zu scenarios and list them: median %.1f ms, min %.1f ms "
                    "(target < 1000 ms) %s\n",
                    listed, open.medianMillis(), open.minMillis(), open.medianMillis() < 1000 ? "OK" : "SLOW");

        store::Workspace workspace(url);
        const QString scenarioName = QString::fromStdString(scenario.name);
        int edit = 0;
        int64_t version = workspace.scenarioSummary(scenarioName)->version;
        const auto roundTrip = measure(10, 200, [&] {
            scenario.description = "edit " + std::to_string(++edit);
            version = workspace.saveScenario(scenario, version);
        });
        std::printf("one scenario edit round trip (UPDATE ... WHERE version = loaded, history row, commit): "
                    "median %.2f ms, min %.2f ms (target < 20 ms) %s\n",
                    roundTrip.medianMillis(), roundTrip.minMillis(), roundTrip.medianMillis() < 20 ? "OK" : "SLOW");
        int conflicts = 0;
        const auto refusal = measure(10, 200, [&] {
            try {
                workspace.saveScenario(scenario, version - 1);
            } catch (const store::ConflictError &) {
                ++conflicts;
            }
        });
        std::printf("one save refused as a conflict (stale version, author and time read back, rolled back): "
                    "median %.2f ms, min %.2f ms; %d of %d refused %s\n",
                    refusal.medianMillis(), refusal.minMillis(), conflicts, 210, conflicts == 210 ? "OK" : "WRONG");

        const int64_t before = workspace.scenarioSummary(scenarioName)->version;
        const size_t historyBefore = workspace.scenarioHistory(scenarioName).size();
        std::atomic<int> applied{0};
        std::atomic<int> refused{0};
        std::atomic<int> failed{0};
        QElapsedTimer timer;
        timer.start();
        std::vector<std::thread> writers;
        for (int w = 0; w < kWriters; ++w) {
            writers.emplace_back([&, w] {
                store::Workspace mine(url);
                engine::Scenario copy = scenario;
                for (int i = 0; i < kEdits; ++i) {
                    // Each edit is based on the version this writer just read, as an editor's is.
                    const int64_t loaded = mine.scenarioSummary(scenarioName)->version;
                    copy.description = "writer " + std::to_string(w) + " edit " + std::to_string(i);
                    try {
                        mine.saveScenario(copy, loaded);
                        ++applied;
                    } catch (const store::ConflictError &) {
                        ++refused;
                    } catch (const store::StoreError &) {
                        ++failed;
                    }
                }
            });
        }
        for (auto &writer : writers)
            writer.join();
        const double millis = double(timer.nsecsElapsed()) / 1e6;
        const int64_t after = workspace.scenarioSummary(scenarioName)->version;
        const size_t historyAfter = workspace.scenarioHistory(scenarioName).size();
        const int64_t lost = applied - (after - before);
        const bool kept = historyAfter - historyBefore == size_t(applied.load());
        std::printf("%d writers x %d optimistic edits of one scenario: %d applied, %d refused as conflicts, "
                    "%d failed otherwise, %lld lost (version %lld -> %lld, %zu history rows added) in %.0f ms %s\n",
                    kWriters, kEdits, applied.load(), refused.load(), failed.load(), (long long)lost,
                    (long long)before, (long long)after, historyAfter - historyBefore, millis,
                    lost == 0 && kept && failed == 0 && applied + refused == kWriters * kEdits ? "OK" : "LOST");
        if (lost != 0 || !kept || failed != 0)
            status = 1;
    } catch (const store::StoreError &error) {
        std::fprintf(stderr, "bench_team: %s\n", qPrintable(error.message()));
        status = 1;
    }
    exec(admin, QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(database));
    return status;
}
