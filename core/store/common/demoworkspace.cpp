#include "demoworkspace.h"

#include "store/cost/costcsv.h"
#include "jsonsupport.h"
#include "store/fleet/scenariojson.h"
#include "store/inference/servingtables.h"
#include "storeerror.h"
#include "store/training/trainingjson.h"
#include "store/inference/workloadjson.h"
#include "workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <map>
#include <memory>
#include <vector>

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

namespace {

// The demo locks this process holds and the private demos it made, released and removed at exit.
struct HeldDemos {
    std::map<QString, std::unique_ptr<QLockFile>> locks;
    std::vector<QString> privateDemos;
    ~HeldDemos()
    {
        for (const QString &path : privateDemos) {
            for (const char *suffix : {"", "-wal", "-shm", "-journal"})
                QFile::remove(path + QLatin1String(suffix));
        }
        locks.clear();
        for (const QString &path : privateDemos)
            QFile::remove(path + QStringLiteral(".lock"));
    }
};

HeldDemos &heldDemos()
{
    static HeldDemos held;
    return held;
}

// Takes the lock of the demo at `path` for this process; false when another live process has it.
bool holdDemo(const QString &path)
{
    HeldDemos &held = heldDemos();
    if (held.locks.count(path))
        return true;
    auto lock = std::make_unique<QLockFile>(path + QStringLiteral(".lock"));
    lock->setStaleLockTime(0); // only a dead holder's lock is stale, however old
    if (!lock->tryLock(0))
        return false;
    held.locks.emplace(path, std::move(lock));
    return true;
}

// Private demos beside `shared` whose process is gone (their lock is free).
void removeAbandonedDemos(const QString &shared)
{
    const QDir dir = QFileInfo(shared).dir();
    for (const QString &name : dir.entryList({QStringLiteral("demo-*.headroom")}, QDir::Files)) {
        const QString path = dir.filePath(name);
        if (heldDemos().locks.count(path))
            continue;
        QLockFile lock(path + QStringLiteral(".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue;
        removeDatabaseFiles(path);
        lock.unlock();
    }
}

} // namespace

QString openDemoWorkspace(const QString &path)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        throw StoreError(QStringLiteral("Cannot create the folder of the demo workspace %1").arg(path));
    removeAbandonedDemos(path);
    if (holdDemo(path))
        return createDemoWorkspace(path);
    const QString own = QFileInfo(path).dir().filePath(
        QStringLiteral("demo-%1.headroom").arg(QCoreApplication::applicationPid()));
    if (!holdDemo(own))
        throw StoreError(QStringLiteral("Cannot open a private demo workspace %1: its lock is held").arg(own));
    heldDemos().privateDemos.push_back(own);
    return createDemoWorkspace(own);
}

QStringList demoScenarioNames()
{
    QStringList names;
    for (const QJsonValue &v : demoArray(QStringLiteral("scenarios.json"), QStringLiteral("scenarios")))
        names << v.toObject().value(QStringLiteral("name")).toString();
    return names;
}

} // namespace headroom::store
