// Times a whole fleet scenario evaluation (DESIGN §3.9, §7): 10 workloads over a year of
// hourly demand with a reservation optimization, target < 10 ms; and opening a workspace
// holding 10,000 scenarios and listing them, target < 1 s.

#include "benchtiming.h"
#include "benchworkloads.h"
#include "engine/fleet/scenario.h"
#include "store/fleet/scenariojson.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <cstdio>

using namespace headroom;

using headroom::bench::Timing;
using headroom::bench::measure;

namespace {

constexpr double kEvaluateTargetMillis = 10.0;
constexpr double kListTargetMillis = 1000.0;
constexpr int kScenarios = 10000;

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.headroom"));

    engine::ScenarioInputs inputs;
    {
        store::Workspace workspace(path);
        for (const engine::WorkloadProfile &w : bench::tenWorkloads())
            workspace.putWorkload(w);
        inputs = store::scenarioInputs(workspace);
    }
    engine::Scenario scenario;
    scenario.name = "bench";
    scenario.provider = "AWS";
    scenario.region = "us-east-1";
    engine::Pool core;
    core.name = "core";
    core.gpuId = "h100-sxm";
    core.sizing = engine::PoolSizing::Auto;
    core.tier = engine::PoolTier::Reserved1y;
    engine::Pool flex = core;
    flex.name = "flex";
    flex.tier = engine::PoolTier::OnDemand;
    for (const engine::WorkloadProfile &w : inputs.workloads) {
        core.workloads.push_back(w.name);
        flex.workloads.push_back(w.name);
    }
    scenario.pools = {core, flex};

    const engine::ScenarioResult result = engine::evaluateScenario(scenario, inputs);
    volatile int64_t sink = 0;
    const Timing evaluate = measure(3, 50, [&] {
        sink = sink + engine::evaluateScenario(scenario, inputs).staticGpus;
    });
    std::printf("scenario evaluation, 10 workloads x %d hours, reservation optimized: median %.2f ms, "
                "min %.2f ms (target < %.0f ms) %s\n",
                inputs.hours, evaluate.medianMillis(), evaluate.minMillis(), kEvaluateTargetMillis,
                evaluate.medianMillis() < kEvaluateTargetMillis ? "OK" : "SLOW");
    std::printf("  core %lld reserved GPUs, flex peak %lld GPUs, %s per day, %zu warnings\n",
                static_cast<long long>(result.pools[0].gpus), static_cast<long long>(result.pools[1].gpus),
                result.costPerDay.display().c_str(), result.warnings.size());

    // 10,000 scenario rows written in one statement, as a long-lived workspace would hold them.
    {
        const QString connection = QStringLiteral("bench-fill");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connection);
            db.setDatabaseName(path);
            db.open();
            QString body = QString::fromUtf8(store::scenarioJsonText(scenario));
            body.replace(QLatin1Char('\''), QStringLiteral("''"));
            QSqlQuery query(db);
            query.exec(QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %1) "
                                      "INSERT INTO scenario (name, description, author, version, created_at, "
                                      "updated_at, body) SELECT printf('scenario %05d', i), 'bench', 'bench', 1, "
                                      "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '%2' FROM n")
                           .arg(kScenarios)
                           .arg(body));
            db.close();
        }
        QSqlDatabase::removeDatabase(connection);
    }
    QElapsedTimer timer;
    timer.start();
    size_t listed = 0;
    {
        store::Workspace workspace(path);
        listed = workspace.scenarioSummaries().size();
    }
    const double listMillis = double(timer.nsecsElapsed()) / 1e6;
    std::printf("open a workspace with %zu scenarios and list them: %.1f ms (target < %.0f ms) %s\n", listed,
                listMillis, kListTargetMillis, listMillis < kListTargetMillis ? "OK" : "SLOW");
    return 0;
}
