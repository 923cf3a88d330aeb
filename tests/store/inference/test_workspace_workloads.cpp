#include "common/storetestsupport.h"
#include "common/workloadsamples.h"

#include "store/common/workspace.h"

#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

int workloadRows(const QString &path)
{
    RawDatabase raw(path);
    return raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workload")).toInt();
}

int tableCount(const QString &path, const QString &names)
{
    RawDatabase raw(path);
    return raw.scalar(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                                     "AND name IN (%1)")
                          .arg(names))
        .toInt();
}

const QString kPlanningTables = QStringLiteral("'training_job', 'scenario', 'report_item'");

// Takes schema 6 (change tracking) back out of a file.
void dropChangeTracking(RawDatabase &raw)
{
    raw.exec(QStringLiteral("DROP TABLE scenario_history"));
    raw.exec(QStringLiteral("ALTER TABLE scenario DROP COLUMN updated_by"));
    raw.exec(QStringLiteral("ALTER TABLE training_job DROP COLUMN updated_by"));
}

// Takes schemas 8 (serving metrics) and 7 (billing actuals) back out of a file.
void dropActuals(RawDatabase &raw)
{
    for (const char *table : {"serving_metrics_hour", "serving_metrics_import", "serving_optimization"})
        raw.exec(QStringLiteral("DROP TABLE %1").arg(QLatin1String(table)));
    for (const char *table : {"actuals_commitment_rate", "actuals_day", "actuals_on_demand", "actuals_commitment_scope",
                              "actuals_commitment_hour", "actuals_commitment", "actuals_import"})
        raw.exec(QStringLiteral("DROP TABLE %1").arg(QLatin1String(table)));
}

// Turns a current workspace back into schema 3 as released: no training, scenario, report or
// actuals tables, version 3.
void downgradeToVersion3(const QString &path)
{
    RawDatabase raw(path);
    dropStepCostFacts(raw);
    dropActuals(raw);
    raw.exec(QStringLiteral("DROP TABLE scenario_history"));
    raw.exec(QStringLiteral("DROP TABLE training_job"));
    raw.exec(QStringLiteral("DROP TABLE scenario"));
    raw.exec(QStringLiteral("DROP TABLE report_item"));
    raw.exec(QStringLiteral("ALTER TABLE workload DROP COLUMN goodput_source"));
    raw.exec(QStringLiteral("PRAGMA user_version = 3"));
}

// Turns a current workspace back into schema 2 as released: schema 1 tables plus rate_card,
// demand_series and demand_point, version 2.
void downgradeToVersion2(const QString &path)
{
    downgradeToVersion3(path);
    RawDatabase raw(path);
    raw.exec(QStringLiteral("DROP TABLE workload"));
    raw.exec(QStringLiteral("PRAGMA user_version = 2"));
}

} // namespace

TEST_CASE("a new workspace has an empty workload table at the current schema", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("new.headroom"));
    const QString path = location.path();
    {
        Workspace workspace(path);
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        CHECK(workspace.workloads().empty());
        CHECK_FALSE(workspace.workload(QStringLiteral("chatbot")).has_value());
    }
    CHECK(workloadRows(path) == 0);
    RawDatabase raw(path);
    CHECK(raw.schemaVersion() == Workspace::kSchemaVersion);
}

TEST_CASE("opening a schema 2 workspace adds the workload table and keeps catalogs, rate "
          "cards and demand", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("v2.headroom"));
    const QString path = location.path();
    size_t gpuCount = 0;
    size_t cardCount = 0;
    QString createdAt;
    {
        Workspace workspace(path);
        workspace.putGpu(sampleGpu("kept-gpu"));
        REQUIRE(workspace.removeModel(QStringLiteral("llama-3.1-8b")));
        engine::RateCard card = workspace.rateCards().front();
        card.source = "edited in schema 2";
        workspace.putRateCard(card);
        engine::DemandSeries series;
        series.name = "kept demand";
        series.gpus = {engine::Decimal::fromInt(3), *engine::Decimal::parse("4.5")};
        workspace.putDemandSeries(series);
        gpuCount = workspace.gpus().size();
        cardCount = workspace.rateCards().size();
    }
    {
        RawDatabase raw(path);
        createdAt = raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = "
                                              "'created_at'"))
                        .toString();
    }
    downgradeToVersion2(path);

    {
        Workspace workspace(path);
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        CHECK(workspace.gpus().size() == gpuCount);
        const auto kept = workspace.gpu(QStringLiteral("kept-gpu"));
        REQUIRE(kept.has_value());
        CHECK(kept->memoryBytes == 85520809984);
        CHECK_FALSE(workspace.model(QStringLiteral("llama-3.1-8b")).has_value());
        CHECK(workspace.rateCards().size() == cardCount);
        CHECK(workspace.rateCards().front().source == "edited in schema 2");
        const auto demand = workspace.demandSeries(QStringLiteral("kept demand"));
        REQUIRE(demand.has_value());
        CHECK(demand->gpus.back().toString() == "4.5");
        CHECK(workspace.workloads().empty());
        workspace.putWorkload(sampleWorkload());
        CHECK(workspace.workloads().size() == 1);
    }
    RawDatabase raw(path);
    CHECK(raw.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(raw.scalar(QStringLiteral("SELECT value FROM workspace_info WHERE key = 'created_at'"))
              .toString()
          == createdAt);
}

TEST_CASE("opening a schema 3 workspace adds the training, scenario and report tables and "
          "keeps workloads", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("v3.headroom"));
    const QString path = location.path();
    {
        Workspace workspace(path);
        workspace.putWorkload(sampleWorkload("kept"));
    }
    downgradeToVersion3(path);
    REQUIRE(tableCount(path, kPlanningTables) == 0);
    {
        Workspace workspace(path);
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        REQUIRE(workspace.workloads().size() == 1);
        CHECK(workspace.workloads().front().name == "kept");
    }
    CHECK(tableCount(path, kPlanningTables) == 3);
    RawDatabase raw(path);
    CHECK(raw.schemaVersion() == Workspace::kSchemaVersion);
}

TEST_CASE("opening a schema 4 workspace adds the goodput source, every workload reading as measured",
          "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("v4.headroom"));
    const QString path = location.path();
    engine::WorkloadProfile measured = sampleWorkload("measured");
    measured.goodputSource.clear();
    {
        Workspace workspace(path);
        workspace.putWorkload(measured);
    }
    {
        RawDatabase raw(path);
        dropStepCostFacts(raw);
        dropActuals(raw);
        dropChangeTracking(raw);
        raw.exec(QStringLiteral("ALTER TABLE workload DROP COLUMN goodput_source"));
        raw.exec(QStringLiteral("PRAGMA user_version = 4"));
    }
    {
        Workspace workspace(path);
        CHECK(workspace.schemaVersion() == Workspace::kSchemaVersion);
        const auto kept = workspace.workload(QStringLiteral("measured"));
        REQUIRE(kept.has_value());
        CHECK(firstDifference(*kept, measured).empty());
        // A simulated goodput is stored with its source from now on.
        engine::WorkloadProfile simulated = measured;
        simulated.goodputSource = "serving simulation of t.jsonl";
        workspace.putWorkload(simulated);
        CHECK(workspace.workload(QStringLiteral("measured"))->goodputSource == "serving simulation of t.jsonl");
    }
    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT goodput_source FROM workload")).toString()
          == QStringLiteral("serving simulation of t.jsonl"));
}

TEST_CASE("a failing migration 3 is rolled back and leaves the file at schema 2", "[workspace][file]")
{
    WorkspaceLocation location(QStringLiteral("blocked.headroom"));
    const QString path = location.path();
    { Workspace workspace(path); }
    downgradeToVersion2(path);
    {
        RawDatabase raw(path);
        raw.exec(QStringLiteral("CREATE VIEW workload AS SELECT id FROM gpu"));
    }
    CHECK_THAT(storeErrorOf([&] { Workspace workspace(path); }),
               Contains("cannot create the workload table"));
    RawDatabase raw(path);
    CHECK(raw.schemaVersion() == 2);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                                    "AND name = 'workload'"))
              .toInt()
          == 0);
}

TEST_CASE("a workload keeps every field exactly through the workspace file", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("round-trip.headroom"));
    const QString path = location.path();
    const engine::WorkloadProfile full = sampleWorkload("full");
    engine::WorkloadProfile bare = sampleWorkload("bare");
    bare.measuredGoodputTokensPerS.reset();
    bare.goodputSource.clear();
    bare.measuredMaxStreams.reset();
    bare.diurnal = engine::diurnalShape(engine::DiurnalPreset::BusinessHours);
    {
        Workspace workspace(path);
        int changes = 0;
        QObject::connect(&workspace, &Workspace::workloadsChanged, &workspace, [&] { ++changes; });
        workspace.putWorkload(full);
        CHECK(changes == 1);
        workspace.putWorkload(bare);
        CHECK(changes == 2);
    }
    Workspace workspace(path);
    const auto all = workspace.workloads();
    REQUIRE(all.size() == 2);
    CHECK(all[0].name == "bare");
    CHECK(all[1].name == "full");
    CHECK(firstDifference(all[0], bare).empty());
    CHECK(firstDifference(all[1], full).empty());
    const auto stored = workspace.workload(QStringLiteral("full"));
    REQUIRE(stored.has_value());
    CHECK(firstDifference(*stored, full) == "");
    CHECK(stored->sharedPrefixTokens == 123457);
    CHECK(stored->measuredMaxStreams == std::optional<int64_t>(96));
    CHECK_FALSE(workspace.workload(QStringLiteral("bare"))->measuredGoodputTokensPerS);
    CHECK_FALSE(workspace.workload(QStringLiteral("bare"))->measuredMaxStreams);

    RawDatabase raw(path);
    CHECK(raw.scalar(QStringLiteral("SELECT weights || '/' || kv_dtype || '/' || workload_class "
                                    "|| '/' || isolation FROM workload WHERE name = 'full'"))
              .toString()
          == QLatin1String("int4/fp8/internal/regulated"));
    CHECK(raw.scalar(QStringLiteral("SELECT d23 FROM workload WHERE name = 'full'")).toDouble()
          == full.diurnal[23]);
    CHECK(raw.scalar(QStringLiteral("SELECT COUNT(*) FROM workload WHERE name = 'bare' AND "
                                    "measured_goodput_tokens_per_s IS NULL AND "
                                    "measured_max_streams IS NULL"))
              .toInt()
          == 1);
}

TEST_CASE("putting a workload again replaces it by name, and removing it signals once", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("replace.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    workspace.putWorkload(sampleWorkload("a"));
    workspace.putWorkload(sampleWorkload("b"));
    int changes = 0;
    QObject::connect(&workspace, &Workspace::workloadsChanged, &workspace, [&] { ++changes; });

    engine::WorkloadProfile edited = sampleWorkload("a");
    edited.dailyActiveUsers = 5;
    edited.measuredGoodputTokensPerS.reset();
    edited.goodputSource.clear();
    workspace.putWorkload(edited);
    CHECK(changes == 1);
    CHECK(workloadRows(path) == 2);
    CHECK(firstDifference(*workspace.workload(QStringLiteral("a")), edited).empty());

    CHECK(workspace.removeWorkload(QStringLiteral("a")));
    CHECK(changes == 2);
    CHECK_FALSE(workspace.removeWorkload(QStringLiteral("a")));
    CHECK(changes == 2);
    const auto rest = workspace.workloads();
    REQUIRE(rest.size() == 1);
    CHECK(rest[0].name == "b");
}

TEST_CASE("an invalid workload is refused naming the field, and nothing is written", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("invalid.headroom"));
    const QString path = location.path();
    Workspace workspace(path);
    const engine::WorkloadProfile original = sampleWorkload("plan");
    workspace.putWorkload(original);
    int changes = 0;
    QObject::connect(&workspace, &Workspace::workloadsChanged, &workspace, [&] { ++changes; });

    engine::WorkloadProfile hitRate = original;
    hitRate.prefixHitRate = 1.5;
    CHECK(storeErrorOf([&] { workspace.putWorkload(hitRate); })
          == "Workload \"plan\": field \"prefix_hit_rate\": prefix_hit_rate must be between 0 "
             "and 1 (got 1.5)");

    engine::WorkloadProfile percentiles = original;
    percentiles.promptTokens = {2048, 1024};
    CHECK(storeErrorOf([&] { workspace.putWorkload(percentiles); })
          == "Workload \"plan\": field \"prompt_p95\": prompt_p95 (1024) must be at least "
             "prompt_p50 (2048)");

    engine::WorkloadProfile newOne = sampleWorkload("new");
    newOne.tp = 0;
    CHECK_THAT(storeErrorOf([&] { workspace.putWorkload(newOne); }),
               Contains("Workload \"new\": field \"tp\""));

    engine::WorkloadProfile unnamed = original;
    unnamed.name.clear();
    CHECK(storeErrorOf([&] { workspace.putWorkload(unnamed); })
          == "Workload: field \"name\": must not be empty");

    CHECK(changes == 0);
    CHECK(workloadRows(path) == 1);
    CHECK(firstDifference(*workspace.workload(QStringLiteral("plan")), original).empty());
    CHECK_FALSE(workspace.workload(QStringLiteral("new")).has_value());
}

TEST_CASE("a workload copied with Save As comes along", "[workspace][file]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("source.headroom"));
    const QString copyPath = dir.filePath(QStringLiteral("copy.headroom"));
    {
        Workspace workspace(path);
        workspace.putWorkload(sampleWorkload());
        workspace.saveCopyAs(copyPath);
    }
    Workspace copy(copyPath);
    const auto stored = copy.workload(QStringLiteral("support-bot"));
    REQUIRE(stored.has_value());
    CHECK(firstDifference(*stored, sampleWorkload()).empty());
}
