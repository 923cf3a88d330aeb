#pragma once

#include "engine/tracking/serving_metrics.h"

#include <QString>
#include <vector>

namespace headroom::store {

// One imported serving-metrics file: what the workspace keeps is its replica-hours
// (engine::ServingHour), never the samples.
struct ServingMetricsImport {
    qint64 id = 0;
    QString fileName;          // without its folder; unique in the workspace
    QString importedAt;        // ISO 8601 UTC
    qint64 rowCount = 0;       // data rows of the file
    qint64 ignoredRows = 0;    // rows of metrics not read
    qint64 hourCount = 0;      // replica-hours kept
};

// SQL access to serving_metrics_import, serving_metrics_hour and serving_optimization of one
// open connection. No validation and no transactions here: Workspace decides both.
class ServingMetricsTables {
public:
    ServingMetricsTables(const QString &connectionName, const QString &path);

    std::vector<ServingMetricsImport> imports() const;    // newest first
    // Every import's replica-hours; where imports overlap on a replica-hour the newest wins.
    engine::ServingHours hours() const;
    // Deletes any import named `fileName` and inserts this one under a new id. Run it inside a
    // transaction.
    qint64 replaceImport(const QString &fileName, const QString &importedAt, qint64 rowCount, qint64 ignoredRows,
                         const engine::ServingHours &hours) const;
    bool deleteImport(qint64 importId) const;

    std::vector<engine::Optimization> optimizations() const;   // by day, then name
    bool hasOptimization(const QString &name) const;
    void insertOptimization(const engine::Optimization &optimization) const;
    bool deleteOptimization(const QString &name) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
