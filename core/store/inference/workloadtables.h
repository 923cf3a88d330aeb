#pragma once

#include "engine/inference/workload.h"

#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {

// SQL access to the `workload` table of one open connection (schema 3). No validation and
// no transactions here: Workspace decides both.
class WorkloadTables {
public:
    WorkloadTables(const QString &connectionName, const QString &path);

    std::vector<engine::WorkloadProfile> workloads() const;  // ordered by name
    std::optional<engine::WorkloadProfile> workload(const QString &name) const;

    // Insert, or replace the row with the same name.
    void upsertWorkload(const engine::WorkloadProfile &workload) const;
    // Whether a row was deleted.
    bool deleteWorkload(const QString &name) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
