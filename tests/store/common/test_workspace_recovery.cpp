// Opening files that are not quite normal: a workspace whose creation an older build cut
// short (schema steps committed, catalogs never seeded), read-only files and folders, and
// scenario names that are only blanks.
#include "faultsupport.h"
#include "storetestsupport.h"

#include "store/fleet/scenariojson.h"
#include "store/common/workspace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

struct Counts {
    size_t gpus = 0;
    size_t models = 0;
    size_t rateCards = 0;
};

Counts countsOf(const Workspace &workspace)
{
    return {workspace.gpus().size(), workspace.models().size(), workspace.rateCards().size()};
}

// What an older build left when it was killed after committing schema steps but before the
// last step seeded the catalogs: the tables up to `version`, rate cards (step 2), no GPUs, no
// models and an empty workspace_info.
void makeHalfCreated(const QString &path, int version)
{
    { Workspace workspace(path); }
    RawDatabase raw(path);
    raw.exec(QStringLiteral("DELETE FROM gpu"));
    raw.exec(QStringLiteral("DELETE FROM model"));
    raw.exec(QStringLiteral("DELETE FROM workspace_info"));
    if (version < 11)  // schema 11: the step-cost model's catalog columns (and 12's)
        dropStepCostFacts(raw);
    else if (version < 12)  // schema 12: a model's expert counts (and 13's)
        dropExpertCounts(raw);
    else if (version < 13)  // schema 13: a GPU's per-deployment calibrations (and 14's)
        dropGpuCalibrations(raw);
    else if (version < 14)  // schema 14: a GPU's DRA product name (and 15's)
        dropDraProductNames(raw);
    else if (version < 15)  // schema 15: a report item's source, pin and snapshot time (and 16's)
        dropReportItemSources(raw);
    else if (version < 16)  // schema 16: a model's per-layer kinds (and 17's)
        dropLayerKinds(raw);
    else if (version < 17)  // schema 17: a GPU's FP4 peak
        dropFp4Peaks(raw);
    if (version < 9) {  // schema 9: commitment rates and usage hours of the actuals
        raw.exec(QStringLiteral("DROP TABLE actuals_commitment_rate"));
        if (version >= 7)
            raw.exec(QStringLiteral("ALTER TABLE actuals_day DROP COLUMN consumed_hours"));
    }
    if (version < 8) {  // schema 8: serving metrics and optimizations
        for (const char *table : {"serving_metrics_hour", "serving_metrics_import", "serving_optimization"})
            raw.exec(QStringLiteral("DROP TABLE %1").arg(QLatin1String(table)));
    }
    if (version < 7) {  // schema 7: billing actuals
        for (const char *table : {"actuals_day", "actuals_on_demand", "actuals_commitment_scope",
                                  "actuals_commitment_hour", "actuals_commitment", "actuals_import"})
            raw.exec(QStringLiteral("DROP TABLE %1").arg(QLatin1String(table)));
    }
    if (version < 6) {  // schema 6: change tracking
        raw.exec(QStringLiteral("DROP TABLE scenario_history"));
        raw.exec(QStringLiteral("ALTER TABLE scenario DROP COLUMN updated_by"));
        raw.exec(QStringLiteral("ALTER TABLE training_job DROP COLUMN updated_by"));
    }
    if (version < 4) {
        raw.exec(QStringLiteral("DROP TABLE training_job"));
        raw.exec(QStringLiteral("DROP TABLE scenario"));
        raw.exec(QStringLiteral("DROP TABLE report_item"));
    }
    if (version < 3)
        raw.exec(QStringLiteral("DROP TABLE workload"));
    else if (version < 5)
        raw.exec(QStringLiteral("ALTER TABLE workload DROP COLUMN goodput_source"));
    raw.exec(QStringLiteral("PRAGMA user_version = %1").arg(version));
}

QByteArray digest(const QString &path)
{
    return QCryptographicHash::hash(readBytes(path), QCryptographicHash::Sha256);
}

engine::Scenario smallScenario(const std::string &name)
{
    engine::Scenario s;
    s.name = name;
    s.provider = "AWS";
    s.region = "us-east-1";
    engine::Pool pool;
    pool.name = "core";
    pool.gpuId = "h100-sxm";
    pool.gpus = 8;
    s.pools = {pool};
    return s;
}

// Opens the workspace in a child that cannot write what it does not own, reads the catalog
// and tries one edit. Returns "<GPU count>\n<the edit's error>", or the open's error.
std::string readAndTryToWrite(const QString &path)
{
    return runUnprivileged([&] {
        Workspace workspace(path);
        const std::string gpus = std::to_string(workspace.gpus().size());
        try {
            workspace.putScenario(smallScenario("not saved"));
        } catch (const StoreError &error) {
            return gpus + "\n" + error.message().toStdString();
        }
        return gpus + "\nsaved";
    });
}

// As root the child runs as "nobody": give it the folder (`ownFolder`) or the file.
void handTo(const QString &path, bool unprivileged)
{
    if (::geteuid() == 0 && unprivileged)
        REQUIRE(::chown(QFile::encodeName(path).constData(), 65534, 65534) == 0);
}

void setMode(const QString &path, mode_t mode)
{
    REQUIRE(::chmod(QFile::encodeName(path).constData(), mode) == 0);
}

} // namespace

TEST_CASE("a workspace whose seeding an older build never finished gets the shipped catalogs when opened", "[workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    Counts shipped;
    {
        Workspace reference(dir.filePath(QStringLiteral("reference.headroom")));
        shipped = countsOf(reference);
    }
    for (const int version : {2, 3, 4, 5, 6, 7}) {
        const QString path = dir.filePath(QStringLiteral("half-%1.headroom").arg(version));
        makeHalfCreated(path, version);
        INFO("left at schema " << version);
        {
            // The user imported a GPU of a shipped id into the empty catalog: it is kept.
            RawDatabase raw(path);
            REQUIRE(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM gpu")).toInt() == 0);
        }
        {
            Workspace workspace(path);
            engine::GpuSpec own = sampleGpu("h100-sxm");
            own.name = "My own H100";
            if (version >= 4)
                workspace.putGpu(own);  // only possible once the file opens
        }
        // Undo the seeding the open above did, to check the repair keeps a user's entry.
        if (version >= 4) {
            RawDatabase raw(path);
            raw.exec(QStringLiteral("DELETE FROM gpu WHERE id <> 'h100-sxm'"));
            raw.exec(QStringLiteral("DELETE FROM model"));
            raw.exec(QStringLiteral("DELETE FROM workspace_info"));
        }
        Workspace workspace(path);
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        const Counts repaired = countsOf(workspace);
        CHECK(repaired.gpus == shipped.gpus);
        CHECK(repaired.models == shipped.models);
        CHECK(repaired.rateCards == shipped.rateCards);
        if (version >= 4)
            CHECK(workspace.gpu(QStringLiteral("h100-sxm"))->name == "My own H100");
        RawDatabase raw(path);
        CHECK_THAT(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = 'seeded_from'"))
                       .toString()
                       .toStdString(),
                   Contains("opened again"));
        CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workspace_info WHERE key = 'created_at'")).toInt() == 1);
    }
}

TEST_CASE("opening a complete workspace seeds nothing again and changes none of its catalog", "[workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("normal.headroom"));
    QString seededFrom;
    size_t gpus = 0;
    {
        Workspace workspace(path);
        REQUIRE(workspace.removeGpu(QStringLiteral("h100-sxm")));
        gpus = workspace.gpus().size();
    }
    {
        RawDatabase raw(path);
        seededFrom = raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = 'seeded_from'")).toString();
    }
    Workspace workspace(path);
    CHECK(workspace.gpus().size() == gpus);
    CHECK_FALSE(workspace.gpu(QStringLiteral("h100-sxm")));
    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = 'seeded_from'")).toString()
          == seededFrom);
    CHECK_THAT(seededFrom.toStdString(), !Contains("opened again"));
}

TEST_CASE("a read-only workspace file is read, and an edit is refused with a clear message", "[workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("mine"));
    REQUIRE(QDir().mkpath(folder));
    const QString path = folder + QStringLiteral("/locked.headroom");
    size_t gpus = 0;
    {
        Workspace workspace(path);
        gpus = workspace.gpus().size();
    }
    setMode(dir.path(), 0755);
    handTo(folder, true);
    setMode(path, 0444);
    const QByteArray before = digest(path);

    const QStringList report = QString::fromStdString(readAndTryToWrite(path)).split(QLatin1Char('\n'));
    INFO(report.join(QLatin1Char('\n')).toStdString());
    REQUIRE(report.size() == 2);
    CHECK(report[0].toULongLong() == gpus);
    CHECK_THAT(report[1].toStdString(), Contains("read-only") && Contains(path.toStdString())
                                            && Contains("Cannot save scenario \"not saved\""));
    CHECK(digest(path) == before);
    setMode(path, 0644);
}

TEST_CASE("a workspace in a read-only folder is read, and an edit is refused with a clear message", "[workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("shared"));
    REQUIRE(QDir().mkpath(folder));
    const QString path = folder + QStringLiteral("/plans.headroom");
    size_t gpus = 0;
    {
        Workspace workspace(path);
        gpus = workspace.gpus().size();
    }
    setMode(dir.path(), 0755);
    handTo(path, true);
    setMode(folder, 0555);
    const QByteArray before = digest(path);

    const QStringList report = QString::fromStdString(readAndTryToWrite(path)).split(QLatin1Char('\n'));
    INFO(report.join(QLatin1Char('\n')).toStdString());
    REQUIRE(report.size() == 2);
    CHECK(report[0].toULongLong() == gpus);
    CHECK_THAT(report[1].toStdString(), Contains("read-only") && Contains(path.toStdString()));
    CHECK(digest(path) == before);
    CHECK(QDir(folder).entryList(QDir::Files) == QStringList{QStringLiteral("plans.headroom")});
    setMode(folder, 0755);
}

TEST_CASE("a read-only workspace whose seeding never finished is refused, naming the file", "[workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("half.headroom"));
    makeHalfCreated(path, Workspace::kSchemaVersion);
    setMode(dir.path(), 0755);
    setMode(path, 0444);
    const QByteArray before = digest(path);
    const std::string report = runUnprivileged([&] {
        Workspace workspace(path);
        return std::string("opened with ") + std::to_string(workspace.gpus().size()) + " GPUs";
    });
    CHECK_THAT(report, Contains("StoreError") && Contains(path.toStdString()) && Contains("never finished")
                           && Contains("read-only"));
    CHECK(digest(path) == before);
}

TEST_CASE("a scenario name of only blanks is refused, on import and on save", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("w.headroom"));
    Workspace workspace(location.path());
    CHECK_THAT(storeErrorOf([&] { workspace.putScenario(smallScenario("   ")); }),
               Contains("name") && Contains("blank"));
    CHECK_THAT(storeErrorOf([&] { workspace.putScenario(smallScenario("\t\n")); }), Contains("blank"));
    CHECK_THAT(storeErrorOf([&] { workspace.putScenario(smallScenario("\xC2\xA0")); }), Contains("blank"));
    CHECK(workspace.scenarioNames().isEmpty());

    QByteArray json = scenarioJsonText(smallScenario("placeholder"));
    json.replace("\"placeholder\"", "\"  \"");
    CHECK_THAT(storeErrorOf([&] { parseScenario(json, QStringLiteral("blank.json")); }),
               Contains("blank.json") && Contains("\"name\"") && Contains("blank"));
}

TEST_CASE("a scenario document missing name or pools is read as a scenario, naming what is missing", "[workspace]")
{
    QJsonObject object = scenarioToJson(smallScenario("chatbot"));
    REQUIRE(isScenarioJson(object));
    object.remove(QStringLiteral("pools"));
    CHECK(isScenarioJson(object));
    CHECK_THAT(storeErrorOf([&] { scenarioFromJson(object, QStringLiteral("no-pools.json")); }),
               Contains("no-pools.json") && Contains("\"pools\"") && Contains("is missing"));
    object = scenarioToJson(smallScenario("chatbot"));
    object.remove(QStringLiteral("name"));
    CHECK(isScenarioJson(object));
    CHECK_THAT(storeErrorOf([&] { scenarioFromJson(object, QStringLiteral("no-name.json")); }),
               Contains("\"name\"") && Contains("is missing"));
    // A catalog stays a catalog.
    CHECK_FALSE(isScenarioJson(QJsonDocument::fromJson(R"({"gpus": [], "name": "x"})").object()));
    CHECK_FALSE(isScenarioJson(QJsonDocument::fromJson(R"({"models": []})").object()));
}
