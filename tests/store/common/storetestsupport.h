#pragma once

#include "engine/catalog/specs.h"
#include "store/common/storeerror.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <catch2/catch.hpp>

namespace headroom::store::test {

// A GPU and a model whose every field differs from the defaults and from each other.
engine::GpuSpec sampleGpu(const std::string &id = "test-gpu");
engine::ModelSpec sampleModel(const std::string &id = "test-model");

QByteArray readBytes(const QString &path);
void writeBytes(const QString &path, const QByteArray &bytes);
QString sourceFile(const QString &relative);  // a file of the repository

// The message of the StoreError that `action` throws; fails the test when none is thrown.
template <typename Action>
std::string storeErrorOf(Action action)
{
    try {
        action();
    } catch (const StoreError &error) {
        return error.message().toStdString();
    }
    FAIL("expected a StoreError");
    return {};
}

// The store suite runs on SQLite files, or on the test server when HEADROOM_STORE_BACKEND is
// "postgresql" (CTest's "store-pg: " tests; scripts/pgserver.sh sets HEADROOM_TEST_SERVER).
bool serverBackend();

// A fresh place for one workspace: a file path in a new temporary folder, or with the server
// backend a new, empty database on HEADROOM_TEST_SERVER, dropped again when this goes. Fails
// the test (never skips it) when the server backend is asked for but the server is unset or
// unreachable. Destroy every Workspace on it first (declare this before them).
class WorkspaceLocation {
public:
    explicit WorkspaceLocation(const QString &fileName = QStringLiteral("workspace.headroom"));
    ~WorkspaceLocation();
    WorkspaceLocation(const WorkspaceLocation &) = delete;
    WorkspaceLocation &operator=(const WorkspaceLocation &) = delete;

    // The path or the server URL, as Workspace takes it.
    const QString &path() const { return m_path; }

private:
    QString m_path;
    QString m_folder;    // the temporary folder (SQLite)
    QString m_database;  // the database made for this test (server)
};

// A separate connection to a workspace (file or server URL), for looking under the store's API.
class RawDatabase {
public:
    explicit RawDatabase(const QString &path);
    ~RawDatabase();
    RawDatabase(const RawDatabase &) = delete;
    RawDatabase &operator=(const RawDatabase &) = delete;

    void exec(const QString &sql) const;
    QVariant scalar(const QString &sql) const;  // first column of the first row
    // Every row the query returns, each as "column=value|…" (NULL as "<null>").
    QStringList rows(const QString &sql) const;
    // The stored schema version: PRAGMA user_version, or the headroom_schema row on a server.
    int schemaVersion() const;

private:
    QString m_connectionName;
    bool m_server = false;
};

// Takes schemas 15 (a report item's source, pin and snapshot time) to 17 back out of a file.
void dropReportItemSources(RawDatabase &raw);
// Takes schema 17 (a GPU's FP4 peak) back out of a file.
void dropFp4Peaks(RawDatabase &raw);
// Takes schemas 16 (a model's per-layer kinds) and 17 back out of a file.
void dropLayerKinds(RawDatabase &raw);
// Takes schemas 14 (a GPU's DRA product name) to 17 back out of a file.
void dropDraProductNames(RawDatabase &raw);
// Takes schemas 13 (a GPU's per-deployment calibrations) to 17 back out of a file.
void dropGpuCalibrations(RawDatabase &raw);
// Takes schemas 12 (a model's expert counts) to 17 back out of a file.
void dropExpertCounts(RawDatabase &raw);
// Takes schemas 11 (the step-cost model's catalog columns) to 17 back out of a file.
void dropStepCostFacts(RawDatabase &raw);

} // namespace headroom::store::test
