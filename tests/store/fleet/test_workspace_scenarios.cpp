#include "common/storetestsupport.h"

#include "store/fleet/scenariojson.h"
#include "store/common/workspace.h"

#include <QTemporaryDir>
#include <QThread>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

// Every field away from its default.
engine::Scenario fullScenario(const std::string &name = "core-and-flex")
{
    engine::Scenario s;
    s.name = name;
    s.description = "Reserved base, on-demand bursts";
    s.author = "Capacity team";
    s.horizonMonths = 36;
    s.provider = "AWS";
    s.region = "us-east-1";
    s.asOfDate = "2026-03-01";
    s.needDate = "2026-09-01";
    s.startDate = "2026-10-01";
    s.spotOverhead = *engine::Decimal::parse("0.125");
    engine::Pool core;
    core.name = "core";
    core.gpuId = "h100-sxm";
    core.sizing = engine::PoolSizing::Auto;
    core.tier = engine::PoolTier::Reserved3y;
    core.workloads = {"chat", "search"};
    core.trainingJobs = {"finetune"};
    engine::Pool tenants;
    tenants.name = "tenants";
    tenants.gpuId = "h100-sxm";
    tenants.gpus = 14;
    tenants.tier = engine::PoolTier::Owned;
    tenants.partitioning = engine::Partitioning::Mig;
    tenants.migProfiles = {"3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"};
    tenants.ownedRatePerGpuHour = *engine::Decimal::parse("1.2345678");
    engine::Pool auto_mig = tenants;
    auto_mig.name = "auto-mig";
    auto_mig.migProfiles.clear();
    auto_mig.ownedRatePerGpuHour.reset();
    auto_mig.tier = engine::PoolTier::Reserved1y;
    engine::Pool flex;
    flex.name = "flex";
    flex.gpuId = "h100-sxm";
    flex.sizing = engine::PoolSizing::Fixed;
    flex.gpus = 120;
    flex.tier = engine::PoolTier::Spot;
    flex.workloads = {"chat"};
    flex.deployments = {{"chat", engine::WeightPrecision::Fp8, engine::KvPrecision::Fp8, 2, {}, true}};
    auto_mig.workloads = {"wiki"};
    auto_mig.deployments = {{"wiki", engine::WeightPrecision::Int4, engine::KvPrecision::Bf16, 1, "2g.20gb", false}};
    s.pools = {core, tenants, auto_mig, flex};
    s.autoscale.hpaTolerance = 0.15;
    s.autoscale.cooldownSeconds = 900;
    s.autoscale.pollingIntervalSeconds = 30;
    s.autoscale.drainToZero = false;
    s.autoscale.maxQueueDelayMs = 750.5;
    s.autoscale.metric = "sglang:num_queue_reqs";
    s.autoscale.prometheusAddress = "http://prometheus:9090";
    s.autoscale.kubernetesNamespace = "serving";
    s.autoscale.fallbackGpuIds = {"a100-sxm-80gb", "l40s"};
    s.policy.reserveAt = engine::ReservePolicy::P75;
    s.policy.packMigTenants = false;
    return s;
}

// Counts a workspace's scenariosChanged signals.
struct ChangeCounter {
    explicit ChangeCounter(Workspace &workspace)
    {
        QObject::connect(&workspace, &Workspace::scenariosChanged, [this] { ++m_count; });
    }
    int count() const { return m_count; }

private:
    int m_count = 0;
};

struct ScratchWorkspace {
    WorkspaceLocation location{QStringLiteral("w.headroom")};
    QString path = location.path();
};

// Inserts `count` scenarios straight into the table, as a large workspace would hold them.
void insertMany(const QString &path, int count)
{
    const QByteArray body = scenarioJsonText(fullScenario("bulk"));
    RawDatabase raw(path);
    QString escaped = QString::fromUtf8(body);
    escaped.replace(QLatin1Char('\''), QStringLiteral("''"));
    // "scenario 00001" …: printf on SQLite, format and lpad on PostgreSQL.
    const QString name = serverBackend() ? QStringLiteral("format('scenario %s', lpad(i::text, 5, '0'))")
                                         : QStringLiteral("printf('scenario %05d', i)");
    raw.exec(QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %1) "
                            "INSERT INTO scenario (name, description, author, version, created_at, updated_at, body) "
                            "SELECT %3, 'bulk', 'bench', 1, '2026-01-01T00:00:00.000Z', "
                            "'2026-01-01T00:00:00.000Z', '%2' FROM n")
                 .arg(count)
                 .arg(escaped, name));
}

} // namespace

TEST_CASE("A scenario round-trips through its JSON document exactly", "[scenariojson][workspace]")
{
    const engine::Scenario s = fullScenario();
    const QByteArray text = scenarioJsonText(s);
    const engine::Scenario back = parseScenario(text, QStringLiteral("s.json"));
    CHECK(scenarioJsonText(back) == text);
    CHECK(back.name == s.name);
    CHECK(back.horizonMonths == 36);
    CHECK(back.startDate == "2026-10-01");
    CHECK(text.contains("\"start_date\": \"2026-10-01\""));
    CHECK(back.spotOverhead == s.spotOverhead);
    REQUIRE(back.pools.size() == 4);
    CHECK(back.pools[0].sizing == engine::PoolSizing::Auto);
    CHECK(back.pools[0].tier == engine::PoolTier::Reserved3y);
    CHECK(back.pools[0].trainingJobs == std::vector<std::string>{"finetune"});
    CHECK(back.pools[1].migProfiles == s.pools[1].migProfiles);
    CHECK(back.pools[1].ownedRatePerGpuHour == s.pools[1].ownedRatePerGpuHour);
    CHECK(back.pools[2].migAuto());
    CHECK(back.pools[3].tier == engine::PoolTier::Spot);
    CHECK(back.pools[3].deployments == s.pools[3].deployments);
    CHECK(back.pools[2].deployments == s.pools[2].deployments);
    CHECK(text.contains("\"mig_profile\": \"2g.20gb\""));
    CHECK(text.contains("\"disaggregated\": true"));
    CHECK(back.pools[0].deployments.empty());
    CHECK(text.contains("\"deployments\": ["));
    CHECK(back.autoscale.hpaTolerance == 0.15);
    CHECK(back.autoscale.maxQueueDelayMs == 750.5);
    CHECK(back.autoscale.fallbackGpuIds == s.autoscale.fallbackGpuIds);
    CHECK_FALSE(back.autoscale.drainToZero);
    CHECK(back.policy.reserveAt == engine::ReservePolicy::P75);
    CHECK_FALSE(back.policy.packMigTenants);
    CHECK(text.contains("\"mig_layout\": \"auto\""));
    CHECK(text.contains("\"spot_overhead\": \"0.125\""));
}

TEST_CASE("Bad scenario JSON is refused naming the field", "[scenariojson][workspace]")
{
    const auto errorOf = [](const QByteArray &json) {
        return storeErrorOf([&] { parseScenario(json, QStringLiteral("bad.json")); });
    };
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": "
                       "[{\"name\": \"p\", \"gpu\": \"h100-sxm\", \"gpus\": 2, \"tier\": \"reserved\"}]}"),
               Contains("bad.json") && Contains("pools[0].tier") && Contains("reserved_1y"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": "
                       "[{\"name\": \"p\", \"gpu\": \"h100-sxm\", \"gpus\": \"two\"}]}"),
               Contains("pools[0].gpus") && Contains("expected a number"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": [], "
                       "\"colour\": 1}"),
               Contains("\"colour\"") && Contains("unknown key"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"pools\": []}"), Contains("\"rate_card\""));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": [], "
                       "\"horizon_months\": 0}"),
               Contains("horizon_months") && Contains("between 1 and 120"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": [], "
                       "\"spot_overhead\": 0.1}"),
               Contains("spot_overhead") && Contains("as a string"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": "
                       "[{\"name\": \"p\", \"gpu\": \"g\", \"gpus\": 1, \"partitioning\": \"mig\", \"mig_layout\": "
                       "\"7g\"}]}"),
               Contains("pools[0].mig_layout"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": [], "
                       "\"autoscale\": {\"hpa_tolerance\": 2}}"),
               Contains("autoscale.hpa_tolerance"));
    const QByteArray deployed = "{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": "
                                "[{\"name\": \"p\", \"gpu\": \"g\", \"gpus\": 1, \"workloads\": [\"chat\"], \"deployments\": ";
    CHECK_THAT(errorOf(deployed + "[{\"workload\": \"chat\", \"weights\": \"fp4\"}]}]}"),
               Contains("pools[0].deployments[0].weights") && Contains("bf16, fp8, int4"));
    CHECK_THAT(errorOf(deployed + "[{\"workload\": \"chat\", \"tp\": 0}]}]}"),
               Contains("pools[0].deployments[0].tp") && Contains("1..64"));
    CHECK_THAT(errorOf(deployed + "[{\"workload\": \"search\"}]}]}"),
               Contains("pools[0].deployments[0].workload") && Contains("does not list"));
    CHECK_THAT(errorOf(deployed + "[{\"workload\": \"chat\"}, {\"workload\": \"chat\"}]}]}"),
               Contains("pools[0].deployments[1].workload") && Contains("two deployments"));
    CHECK_THAT(errorOf(deployed + "{\"workload\": \"chat\"}}]}"), Contains("pools[0].deployments") && Contains("array"));
    CHECK_THAT(errorOf(deployed + "[{\"workload\": \"chat\", \"disaggregated\": \"yes\"}]}]}"),
               Contains("pools[0].deployments[0].disaggregated") && Contains("true or false"));
    CHECK_THAT(errorOf(deployed + "[{\"workload\": \"chat\", \"mig_profile\": \"1g.10gb\"}]}]}"),
               Contains("pools[0].deployments[0].mig_profile") && Contains("partitioned as exclusive"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": "
                       "[{\"name\": \"p\", \"gpu\": \"g\", \"gpus\": 1, \"tier\": \"reserved_1y\", \"partitioning\": \"mig\", "
                       "\"workloads\": [\"chat\"], \"deployments\": [{\"workload\": \"chat\", \"disaggregated\": true}]}]}"),
               Contains("pools[0].deployments[0].disaggregated") && Contains("cannot split prefill and decode"));
    CHECK_THAT(errorOf("{\"name\": "), Contains("bad.json") && Contains("line 1"));
    CHECK_THAT(errorOf("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": [], "
                       "\"start_date\": \"2025-02-29\"}"),
               Contains("start_date") && Contains("2025-02-29"));
}

TEST_CASE("A scenario without a start date keeps none and evaluates from the month after its as-of date", "[scenariojson][workspace]")
{
    const engine::Scenario s = parseScenario(
        "{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\", \"as_of\": \"2027-06-14\"}, "
        "\"pools\": []}",
        QStringLiteral("old.json"));
    CHECK(s.startDate.empty());
    CHECK_FALSE(scenarioJsonText(s).contains("start_date"));
    CHECK(engine::isoDate(engine::scenarioStartDate(s)) == "2027-07-01");
}

TEST_CASE("Scenarios are stored with a version and timestamps", "[workspace][scenarios]")
{
    ScratchWorkspace scratch;
    Workspace workspace(scratch.path);
    ChangeCounter changed(workspace);
    CHECK(workspace.scenarioNames().isEmpty());

    workspace.putScenario(fullScenario());
    CHECK(changed.count() == 1);
    CHECK(workspace.scenarioNames() == QStringList{QStringLiteral("core-and-flex")});
    const auto first = workspace.scenarioSummary(QStringLiteral("core-and-flex"));
    REQUIRE(first);
    CHECK(first->version == 1);
    CHECK(first->description == QStringLiteral("Reserved base, on-demand bursts"));
    CHECK(first->author == QStringLiteral("Capacity team"));
    CHECK(first->createdAt == first->updatedAt);
    CHECK(first->createdAt.endsWith(QLatin1Char('Z')));
    const auto stored = workspace.scenario(QStringLiteral("core-and-flex"));
    REQUIRE(stored);
    CHECK(scenarioJsonText(*stored) == scenarioJsonText(fullScenario()));

    QThread::msleep(5);
    engine::Scenario edited = fullScenario();
    edited.description = "Edited";
    workspace.putScenario(edited);
    const auto second = workspace.scenarioSummary(QStringLiteral("core-and-flex"));
    CHECK(second->version == 2);
    CHECK(second->createdAt == first->createdAt);
    CHECK(second->updatedAt > first->updatedAt);
    CHECK(workspace.scenario(QStringLiteral("core-and-flex"))->description == "Edited");
    const auto summaries = workspace.scenarioSummaries();
    REQUIRE(summaries.size() == 1);
    CHECK(summaries[0].description == QStringLiteral("Edited"));
    CHECK(changed.count() == 2);

    SECTION("an invalid scenario changes nothing")
    {
        engine::Scenario bad = fullScenario();
        bad.horizonMonths = 0;
        CHECK_THAT(storeErrorOf([&] { workspace.putScenario(bad); }),
                   Contains("core-and-flex") && Contains("horizon_months"));
        CHECK(workspace.scenarioSummary(QStringLiteral("core-and-flex"))->version == 2);
        CHECK(changed.count() == 2);
    }
    SECTION("reopening keeps everything")
    {
        Workspace reopened(scratch.path);
        CHECK(reopened.scenarioSummary(QStringLiteral("core-and-flex"))->version == 2);
        CHECK(reopened.scenario(QStringLiteral("core-and-flex"))->description == "Edited");
    }
}

TEST_CASE("Scenarios are renamed, duplicated and removed", "[workspace][scenarios]")
{
    ScratchWorkspace scratch;
    Workspace workspace(scratch.path);
    workspace.putScenario(fullScenario("a"));
    workspace.putScenario(fullScenario("b"));
    ChangeCounter changed(workspace);

    workspace.renameScenario(QStringLiteral("a"), QStringLiteral("renamed"));
    CHECK(workspace.scenarioNames() == QStringList({QStringLiteral("b"), QStringLiteral("renamed")}));
    CHECK(workspace.scenario(QStringLiteral("renamed"))->name == "renamed");
    CHECK(workspace.scenarioSummary(QStringLiteral("renamed"))->version == 2);
    CHECK_FALSE(workspace.scenario(QStringLiteral("a")));

    workspace.duplicateScenario(QStringLiteral("b"), QStringLiteral("b copy"));
    const auto copy = workspace.scenario(QStringLiteral("b copy"));
    REQUIRE(copy);
    CHECK(copy->name == "b copy");
    CHECK(copy->pools.size() == 4);
    CHECK(workspace.scenarioSummary(QStringLiteral("b copy"))->version == 1);
    CHECK(changed.count() == 2);

    CHECK_THAT(storeErrorOf([&] { workspace.renameScenario(QStringLiteral("b"), QStringLiteral("renamed")); }),
               Contains("already exists"));
    CHECK_THAT(storeErrorOf([&] { workspace.duplicateScenario(QStringLiteral("gone"), QStringLiteral("x")); }),
               Contains("\"gone\" does not exist"));
    CHECK_THAT(storeErrorOf([&] { workspace.renameScenario(QStringLiteral("b"), QStringLiteral(" ")); }),
               Contains("must not be blank"));
    CHECK_THAT(storeErrorOf([&] { workspace.renameScenario(QStringLiteral("b"), QString()); }),
               Contains("must not be empty"));
    CHECK(workspace.scenarioNames().size() == 3);
    CHECK(changed.count() == 2);

    CHECK(workspace.removeScenario(QStringLiteral("b")));
    CHECK_FALSE(workspace.removeScenario(QStringLiteral("b")));
    CHECK(workspace.scenarioNames() == QStringList({QStringLiteral("b copy"), QStringLiteral("renamed")}));
    CHECK(changed.count() == 3);
}

TEST_CASE("A scenario keeps the names of workloads and rate cards that are gone", "[workspace][scenarios]")
{
    ScratchWorkspace scratch;
    Workspace workspace(scratch.path);
    engine::Scenario s = fullScenario();
    s.provider = "Deleted provider";
    s.pools[0].workloads = {"deleted workload"};
    workspace.putScenario(s);
    const auto stored = workspace.scenario(QStringLiteral("core-and-flex"));
    REQUIRE(stored);
    CHECK(stored->provider == "Deleted provider");
    CHECK(stored->pools[0].workloads == std::vector<std::string>{"deleted workload"});
}

TEST_CASE("A workspace with 10,000 scenarios lists them without reading bodies", "[workspace][scenarios]")
{
    ScratchWorkspace scratch;
    { Workspace create(scratch.path); }
    insertMany(scratch.path, 10000);
    Workspace workspace(scratch.path);
    const QStringList names = workspace.scenarioNames();
    REQUIRE(names.size() == 10000);
    CHECK(names.front() == QStringLiteral("scenario 00001"));
    CHECK(names.back() == QStringLiteral("scenario 10000"));
    const auto summaries = workspace.scenarioSummaries();
    REQUIRE(summaries.size() == 10000);
    CHECK(summaries[42].author == QStringLiteral("bench"));
    // The body is read (and its name taken from the row) only when the scenario is opened.
    CHECK(workspace.scenario(QStringLiteral("scenario 00042"))->pools.size() == 4);
}
