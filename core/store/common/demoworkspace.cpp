#include "demoworkspace.h"

#include "store/cost/costcsv.h"
#include "jsonsupport.h"
#include "store/fleet/scenariojson.h"
#include "store/inference/servingtables.h"
#include "storeerror.h"
#include "store/training/trainingjson.h"
#include "store/inference/workloadjson.h"
#include "workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace headroom::store {

namespace {

QByteArray readResource(const QString &name)
{
    QFile file(QStringLiteral(":/demo/") + name);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("demo data %1 is missing from this build").arg(name));
    return file.readAll();
}

// The array under `key` of a shipped demo file, each element an object.
QJsonArray demoArray(const QString &file, const QString &key)
{
    const QJsonDocument doc = parseJsonDocument(readResource(file), QStringLiteral("demo/") + file);
    const QJsonValue value = doc.object().value(key);
    if (!value.isArray())
        throw StoreError(QStringLiteral("demo/%1: expected an array \"%2\"").arg(file, key));
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i)
        if (!array.at(i).isObject())
            throw StoreError(QStringLiteral("demo/%1: %2[%3] is not an object").arg(file, key).arg(i));
    return array;
}

void removeDatabaseFiles(const QString &path)
{
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) {
        const QString file = path + QLatin1String(suffix);
        if (QFileInfo::exists(file) && !QFile::remove(file))
            throw StoreError(QStringLiteral("Cannot replace the demo workspace %1: %2 cannot be removed")
                                 .arg(path, file));
    }
}

} // namespace

QString demoWorkspacePath()
{
    return QFileInfo(Workspace::defaultPath()).dir().filePath(QStringLiteral("demo.headroom"));
}

QString createDemoWorkspace(const QString &path)
{
    // Parse everything first: a damaged demo file leaves the previous demo workspace alone.
    const QString source = QStringLiteral("demo/");
    std::vector<engine::WorkloadProfile> workloads;
    const QJsonArray workloadArray = demoArray(QStringLiteral("workloads.json"), QStringLiteral("workloads"));
    for (qsizetype i = 0; i < workloadArray.size(); ++i)
        workloads.push_back(workloadFromJson(workloadArray.at(i).toObject(),
                                             QStringLiteral("%1workloads.json, workloads[%2]").arg(source).arg(i)));
    std::vector<engine::TrainingJob> jobs;
    const QJsonArray jobArray = demoArray(QStringLiteral("training_jobs.json"), QStringLiteral("training_jobs"));
    for (qsizetype i = 0; i < jobArray.size(); ++i)
        jobs.push_back(trainingJobFromJson(jobArray.at(i).toObject(),
                                           QStringLiteral("%1training_jobs.json, training_jobs[%2]").arg(source).arg(i)));
    std::vector<engine::Scenario> scenarios;
    const QJsonArray scenarioArray = demoArray(QStringLiteral("scenarios.json"), QStringLiteral("scenarios"));
    for (qsizetype i = 0; i < scenarioArray.size(); ++i)
        scenarios.push_back(scenarioFromJson(scenarioArray.at(i).toObject(),
                                             QStringLiteral("%1scenarios.json, scenarios[%2]").arg(source).arg(i)));
    const QJsonDocument scenarioDocument = parseJsonDocument(readResource(QStringLiteral("scenarios.json")),
                                                             source + QStringLiteral("scenarios.json"));
    const engine::ServingAssumptions serving = servingAssumptionsFromJson(
        scenarioDocument.object().value(QStringLiteral("serving_assumptions")).toObject(),
        source + QStringLiteral("scenarios.json, serving_assumptions"));
    const engine::DemandSeries demand =
        parseDemandCsv(readResource(QStringLiteral("chatbot-fleet-demand.csv")), QStringLiteral("chatbot-fleet-demand.csv"));

    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        throw StoreError(QStringLiteral("Cannot create the folder of the demo workspace %1").arg(path));
    removeDatabaseFiles(path);
    Workspace workspace(path);
    workspace.setServingAssumptions(serving);
    for (const auto &w : workloads)
        workspace.putWorkload(w);
    for (const auto &j : jobs)
        workspace.putTrainingJob(j);
    workspace.putDemandSeries(demand);
    for (const auto &s : scenarios)
        workspace.putScenario(s);
    return path;
}

QStringList demoScenarioNames()
{
    QStringList names;
    for (const QJsonValue &v : demoArray(QStringLiteral("scenarios.json"), QStringLiteral("scenarios")))
        names << v.toObject().value(QStringLiteral("name")).toString();
    return names;
}

} // namespace headroom::store
