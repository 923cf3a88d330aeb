#pragma once

#include "engine/training/training.h"

#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {

// A stored training job with its bookkeeping: version 1 when created, +1 on every replace;
// ISO 8601 UTC timestamps of creation and of the last change.
struct TrainingJobRecord {
    engine::TrainingJob job;
    int64_t version = 0;
    QString createdAt;
    QString updatedAt;
    QString updatedBy;  // who made the last change: database role, or OS user for a file
};

// SQL access to the `training_job` table of one open connection (schema 4): one row per job,
// its JSON document in `body`. No validation and no transactions here: Workspace decides both.
class TrainingTables {
public:
    TrainingTables(const QString &connectionName, const QString &path);

    std::vector<TrainingJobRecord> records() const;  // ordered by name
    std::optional<TrainingJobRecord> record(const QString &name) const;

    // Insert, or replace the row with the same name (all columns as given).
    void upsertRecord(const TrainingJobRecord &record) const;
    // UPDATE … WHERE name = ? AND version = `loadedVersion`: false when no row matched.
    // Overwrites the row named `storedName` (the record's own name when empty; a rename
    // otherwise) if it is still at `loadedVersion`; false when it is not.
    bool updateIfVersion(const TrainingJobRecord &record, int64_t loadedVersion, const QString &storedName = {}) const;
    // Whether a row was deleted.
    bool deleteJob(const QString &name) const;
    // Removes the row if it is still at `loadedVersion`; false when it is not.
    bool deleteIfVersion(const QString &name, int64_t loadedVersion) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
