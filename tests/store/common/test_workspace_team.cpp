// Team editing on either backend: optimistic saves of scenarios and training jobs between two
// Workspace objects on the same file or server, the author and time of every write, the
// scenario history and restore, and change signals following another program's edits.
#include "storetestsupport.h"

#include "store/fleet/scenariojson.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

engine::Scenario plan(const std::string &name, int gpus = 8, const std::string &description = "")
{
    engine::Scenario s;
    s.name = name;
    s.description = description;
    s.provider = "AWS";
    s.region = "us-east-1";
    engine::Pool pool;
    pool.name = "core";
    pool.gpuId = "h100-sxm";
    pool.gpus = gpus;
    s.pools = {pool};
    return s;
}

engine::TrainingJob job(const std::string &name, double tokens = 1e12)
{
    engine::TrainingJob j;
    j.name = name;
    j.modelId = "llama-3.1-8b";
    j.tokens = tokens;
    return j;
}

// The ConflictError `action` throws; fails the test when it throws none.
template <typename Action>
ConflictError conflictOf(Action action)
{
    try {
        action();
    } catch (const ConflictError &error) {
        return error;
    }
    FAIL("expected a ConflictError");
    return ConflictError({}, {}, 0, 0, {}, {});
}

// Runs the event loop until `done` or `ms` have passed; returns the time taken (ms) or -1.
template <typename Done>
qint64 waitFor(Done done, int ms)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (done())
            return timer.elapsed();
        QThread::msleep(5);
    }
    return -1;
}

int pools(const Workspace &workspace, const QString &name)
{
    return workspace.scenario(name)->pools.front().gpus;
}

} // namespace

TEST_CASE("a scenario save based on an old version is refused naming who changed it and when", "[workspace]")
{
    WorkspaceLocation location;
    Workspace alice(location.path());
    Workspace bob(location.path());
    const QString name = QStringLiteral("Q3 plan");
    REQUIRE(alice.saveScenario(plan("Q3 plan", 8), 0) == 1);

    // Both opened version 1; Alice saves first.
    const int64_t opened = bob.scenarioSummary(name)->version;
    REQUIRE(opened == 1);
    CHECK(alice.saveScenario(plan("Q3 plan", 16), opened) == 2);
    const ScenarioSummary stored = *alice.scenarioSummary(name);

    const ConflictError refused = conflictOf([&] { bob.saveScenario(plan("Q3 plan", 32), opened); });
    CHECK(refused.currentVersion() == 2);
    CHECK(refused.loadedVersion() == 1);
    CHECK(refused.changedBy() == alice.userName());
    CHECK(refused.changedAt() == stored.updatedAt);
    const QString when = QDateTime::fromString(stored.updatedAt, Qt::ISODateWithMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    CHECK_THAT(refused.message().toStdString(),
               Contains("Scenario \"Q3 plan\" was changed by " + alice.userName().toStdString() + " at "
                        + when.toStdString() + " UTC after you opened it (version 2, yours 1)"));
    // Nothing of Bob's save was written.
    CHECK(pools(bob, name) == 16);
    CHECK(bob.scenarioSummary(name)->version == 2);
    CHECK(bob.scenarioHistory(name).size() == 2);

    // Retried on the current version, it is saved.
    CHECK(bob.saveScenario(plan("Q3 plan", 32), 2) == 3);
    CHECK(pools(alice, name) == 32);
}

TEST_CASE("creating, renaming, removing and restoring a scenario another writer changed are refused", "[workspace]")
{
    WorkspaceLocation location;
    Workspace alice(location.path());
    Workspace bob(location.path());
    alice.saveScenario(plan("base"), 0);

    SECTION("creating a name another writer created meanwhile")
    {
        const ConflictError refused = conflictOf([&] { bob.saveScenario(plan("base", 4), 0); });
        CHECK(refused.currentVersion() == 1);
        CHECK_THAT(refused.message().toStdString(), Contains("was created by") && Contains("(version 1)"));
        CHECK(pools(alice, QStringLiteral("base")) == 8);
    }
    SECTION("saving a scenario another writer removed")
    {
        REQUIRE(alice.removeScenario(QStringLiteral("base"), 1));
        const ConflictError refused = conflictOf([&] { bob.saveScenario(plan("base", 4), 1); });
        CHECK(refused.currentVersion() == 0);
        CHECK_THAT(refused.message().toStdString(), Contains("was removed by someone else after you opened it"));
        CHECK_FALSE(alice.scenarioSummary(QStringLiteral("base")).has_value());
    }
    SECTION("renaming, removing or restoring from a stale version")
    {
        alice.saveScenario(plan("base", 12), 1);
        CHECK_THAT(conflictOf([&] { bob.renameScenario(QStringLiteral("base"), QStringLiteral("renamed"), 1); })
                       .message()
                       .toStdString(),
                   Contains("(version 2, yours 1)"));
        CHECK_THAT(conflictOf([&] { bob.removeScenario(QStringLiteral("base"), 1); }).message().toStdString(),
                   Contains("(version 2, yours 1)"));
        CHECK_THAT(conflictOf([&] { bob.restoreScenario(QStringLiteral("base"), 1, 1); }).message().toStdString(),
                   Contains("(version 2, yours 1)"));
        CHECK(alice.scenarioNames() == QStringList{QStringLiteral("base")});
        CHECK(alice.scenarioSummary(QStringLiteral("base"))->version == 2);
        CHECK(pools(alice, QStringLiteral("base")) == 12);
        // From the current version they go through.
        bob.renameScenario(QStringLiteral("base"), QStringLiteral("renamed"), 2);
        CHECK(alice.scenarioSummary(QStringLiteral("renamed"))->version == 3);
        CHECK(bob.removeScenario(QStringLiteral("renamed"), 3));
    }
}

TEST_CASE("a training job save based on an old version is refused", "[workspace]")
{
    WorkspaceLocation location;
    Workspace alice(location.path());
    Workspace bob(location.path());
    REQUIRE(alice.saveTrainingJob(job("pretrain"), 0) == 1);
    CHECK(alice.saveTrainingJob(job("pretrain", 2e12), 1) == 2);
    const auto record = bob.trainingJobRecord(QStringLiteral("pretrain"));
    REQUIRE(record.has_value());
    CHECK(record->updatedBy == alice.userName());

    const ConflictError refused = conflictOf([&] { bob.saveTrainingJob(job("pretrain", 3e12), 1); });
    CHECK_THAT(refused.message().toStdString(),
               Contains("Training job \"pretrain\" was changed by " + alice.userName().toStdString())
                   && Contains("(version 2, yours 1)"));
    CHECK(bob.trainingJob(QStringLiteral("pretrain"))->tokens == 2e12);
    CHECK_THAT(conflictOf([&] { bob.saveTrainingJob(job("pretrain"), 0); }).message().toStdString(),
               Contains("was created by"));
    CHECK(bob.saveTrainingJob(job("pretrain", 3e12), 2) == 3);
}

TEST_CASE("writers saving the same version at once: each save applied or refused, none lost", "[workspace]")
{
    WorkspaceLocation location;
    { Workspace(location.path()).saveScenario(plan("race"), 0); }
    constexpr int kWriters = 4;
    constexpr int kRounds = 10;
    std::atomic<int> applied{0};
    std::atomic<int> refused{0};
    std::atomic<int> failed{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w) {
        writers.emplace_back([&, w] {
            Workspace workspace(location.path());
            for (int round = 0; round < kRounds; ++round) {
                const auto summary = workspace.scenarioSummary(QStringLiteral("race"));
                try {
                    workspace.saveScenario(plan("race", 1 + w * 100 + round), summary->version);
                    ++applied;
                } catch (const ConflictError &) {
                    ++refused;
                } catch (const StoreError &) {
                    ++failed;
                }
            }
        });
    }
    for (auto &writer : writers)
        writer.join();
    CHECK(failed == 0);
    CHECK(applied + refused == kWriters * kRounds);
    Workspace check(location.path());
    // Every applied save made exactly one version, each kept in the history.
    CHECK(check.scenarioSummary(QStringLiteral("race"))->version == 1 + applied);
    CHECK(int(check.scenarioHistory(QStringLiteral("race")).size()) == 1 + applied);
}

TEST_CASE("every scenario version is kept with its author and time, and an old one can be restored", "[workspace]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    const QString name = QStringLiteral("fleet");
    const QString before = QDateTime::currentDateTimeUtc().addSecs(-1).toString(Qt::ISODateWithMs);
    workspace.saveScenario(plan("fleet", 8, "first"), 0);
    workspace.saveScenario(plan("fleet", 16, "second"), 1);
    workspace.saveScenario(plan("fleet", 24, "third"), 2);

    const std::vector<ScenarioVersion> history = workspace.scenarioHistory(name);
    REQUIRE(history.size() == 3);
    CHECK(history[0].version == 3);
    CHECK(history[2].version == 1);
    CHECK(history[0].description == "third");
    CHECK(history[2].description == "first");
    for (const auto &version : history) {
        CHECK(version.changedBy == workspace.userName());
        CHECK(version.changedAt >= before);
        CHECK(version.changedAt.endsWith(QLatin1Char('Z')));
    }
    CHECK(workspace.scenarioSummary(name)->updatedBy == workspace.userName());
    CHECK(workspace.scenarioSummary(name)->updatedAt == history[0].changedAt);
    CHECK(workspace.scenarioAtVersion(name, 2)->pools.front().gpus == 16);
    CHECK_FALSE(workspace.scenarioAtVersion(name, 9).has_value());

    // Restoring is a new version holding the old document.
    CHECK(workspace.restoreScenario(name, 1, 3) == 4);
    CHECK(pools(workspace, name) == 8);
    CHECK(workspace.scenario(name)->description == "first");
    CHECK(scenarioToJson(*workspace.scenario(name)) == scenarioToJson(*workspace.scenarioAtVersion(name, 1)));
    CHECK(workspace.scenarioHistory(name).size() == 4);
    CHECK(workspace.scenarioHistory(name).front().description == "first");

    // Bad versions change nothing.
    CHECK_THAT(storeErrorOf([&] { workspace.restoreScenario(name, 7); }),
               Contains("Scenario \"fleet\" has no version 7 (kept versions: 1 to 4)"));
    CHECK_THAT(storeErrorOf([&] { workspace.restoreScenario(QStringLiteral("nope"), 1); }),
               Contains("Scenario \"nope\" does not exist"));
    CHECK(workspace.scenarioSummary(name)->version == 4);

    // The history follows a rename and goes with a removal; a copy starts its own.
    workspace.renameScenario(name, QStringLiteral("fleet 2027"));
    CHECK(workspace.scenarioHistory(name).empty());
    CHECK(workspace.scenarioHistory(QStringLiteral("fleet 2027")).size() == 5);
    CHECK(workspace.scenarioAtVersion(QStringLiteral("fleet 2027"), 2)->name == "fleet 2027");
    workspace.duplicateScenario(QStringLiteral("fleet 2027"), QStringLiteral("copy"));
    CHECK(workspace.scenarioHistory(QStringLiteral("copy")).size() == 1);
    REQUIRE(workspace.removeScenario(QStringLiteral("fleet 2027")));
    CHECK(workspace.scenarioHistory(QStringLiteral("fleet 2027")).empty());
    // A new scenario under the old name starts again at version 1.
    CHECK(workspace.saveScenario(plan("fleet 2027"), 0) == 1);
    CHECK(workspace.scenarioHistory(QStringLiteral("fleet 2027")).size() == 1);
}

TEST_CASE("writes record the database role on a server and the OS user for a file", "[workspace]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    REQUIRE_FALSE(workspace.userName().isEmpty());
    RawDatabase raw(location.path());
    if (serverBackend()) {
        CHECK(workspace.userName() == raw.scalar(QStringLiteral("SELECT current_user")).toString());
    } else {
        const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME"));
        if (!user.isEmpty())
            CHECK(workspace.userName() == user);
    }
    workspace.putScenario(plan("imported"));
    workspace.putTrainingJob(job("imported"));
    CHECK(raw.scalar(QStringLiteral("SELECT updated_by FROM scenario")).toString() == workspace.userName());
    CHECK(raw.scalar(QStringLiteral("SELECT changed_by FROM scenario_history")).toString() == workspace.userName());
    CHECK(raw.scalar(QStringLiteral("SELECT updated_by FROM training_job")).toString() == workspace.userName());
}

TEST_CASE("opening a workspace from before change tracking keeps its scenarios and starts their history", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("v4.headroom"));
    {
        Workspace workspace(location.path());
        workspace.saveScenario(plan("old", 8), 0);
        workspace.saveScenario(plan("old", 12), 1);
        workspace.saveTrainingJob(job("old job"), 0);
    }
    {
        RawDatabase raw(location.path());
        // Schema 5: before change tracking (6), billing actuals (7), serving metrics (8), the
        // actuals' rates and usage hours (9) and the step-cost model's catalog columns (11).
        dropStepCostFacts(raw);
        for (const char *table : {"serving_metrics_hour", "serving_metrics_import", "serving_optimization"})
            raw.exec(QStringLiteral("DROP TABLE %1").arg(QLatin1String(table)));
        for (const char *table : {"actuals_commitment_rate", "actuals_day", "actuals_on_demand", "actuals_commitment_scope",
                                  "actuals_commitment_hour", "actuals_commitment", "actuals_import"})
            raw.exec(QStringLiteral("DROP TABLE %1").arg(QLatin1String(table)));
        raw.exec(QStringLiteral("DROP TABLE scenario_history"));
        raw.exec(QStringLiteral("ALTER TABLE scenario DROP COLUMN updated_by"));
        raw.exec(QStringLiteral("ALTER TABLE training_job DROP COLUMN updated_by"));
        raw.exec(QStringLiteral("PRAGMA user_version = 5"));
    }
    Workspace workspace(location.path());
    CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
    const auto summary = workspace.scenarioSummary(QStringLiteral("old"));
    REQUIRE(summary.has_value());
    CHECK(summary->version == 2);
    CHECK(summary->updatedBy.isEmpty());
    const auto history = workspace.scenarioHistory(QStringLiteral("old"));
    REQUIRE(history.size() == 1);
    CHECK(history[0].version == 2);
    CHECK(history[0].changedAt == summary->updatedAt);
    CHECK(workspace.scenarioAtVersion(QStringLiteral("old"), 2)->pools.front().gpus == 12);
    CHECK(workspace.saveScenario(plan("old", 4), 2) == 3);
    CHECK(workspace.trainingJobRecord(QStringLiteral("old job"))->version == 1);
}

TEST_CASE("another program's edit reaches this workspace's change signals within 2 s", "[workspace]")
{
    WorkspaceLocation location;
    Workspace watcher(location.path());
    Workspace other(location.path());
    watcher.watchForChanges(100);
    CHECK(watcher.changeWatchMode() == (serverBackend() ? QStringLiteral("notify") : QStringLiteral("poll")));
    QSignalSpy scenarios(&watcher, &Workspace::scenariosChanged);
    QSignalSpy jobs(&watcher, &Workspace::trainingJobsChanged);

    other.saveScenario(plan("shared"), 0);
    const qint64 took = waitFor([&] { return scenarios.count() > 0; }, 2000);
    INFO("the change arrived after " << took << " ms");
    CHECK(took >= 0);
    CHECK(watcher.scenarioNames() == QStringList{QStringLiteral("shared")});

    other.saveTrainingJob(job("shared job"), 0);
    CHECK(waitFor([&] { return jobs.count() > 0; }, 2000) >= 0);

    // This workspace's own edits are signalled once, by the edit itself.
    waitFor([] { return false; }, 300);
    const int before = scenarios.count();
    watcher.saveScenario(plan("mine"), 0);
    CHECK(scenarios.count() == before + 1);
    if (serverBackend()) {
        waitFor([] { return false; }, 300);
        CHECK(scenarios.count() == before + 1);
    }
}

TEST_CASE("a poll of the change counters names the tables others changed", "[workspace]")
{
    WorkspaceLocation location;
    Workspace watcher(location.path());
    Workspace other(location.path());
    CHECK_FALSE(watcher.checkForChanges());  // the first look only remembers
    CHECK_FALSE(watcher.checkForChanges());
    QSignalSpy scenarios(&watcher, &Workspace::scenariosChanged);
    QSignalSpy gpus(&watcher, &Workspace::gpusChanged);
    other.saveScenario(plan("polled"), 0);
    CHECK(watcher.checkForChanges());
    CHECK(scenarios.count() == 1);
    // A server names the table; a file only says that something changed.
    CHECK(gpus.count() == (serverBackend() ? 0 : 1));
    CHECK_FALSE(watcher.checkForChanges());
}
