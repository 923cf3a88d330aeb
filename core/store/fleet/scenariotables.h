#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace headroom::store {

// A scenario row without its body: what the Scenarios page lists.
struct ScenarioSummary {
    QString name;
    QString description;
    QString author;
    int64_t version = 0;        // 1 on creation, +1 on every edit
    QString createdAt;          // ISO 8601 UTC, kept across edits
    QString updatedAt;          // ISO 8601 UTC of the last edit
    QString updatedBy;          // who made the last edit: database role, or OS user for a file
};

// One kept version of a scenario (scenario_history): who saved it and when.
struct ScenarioVersion {
    int64_t version = 0;
    QString changedBy;  // database role, or OS user for a file ("" before history was kept)
    QString changedAt;  // ISO 8601 UTC
    QString description;  // the document's description at that version
};

// One stored scenario: its summary and its JSON document (scenariojson).
struct ScenarioRow {
    ScenarioSummary summary;
    QByteArray body;
};

// SQL access to the `scenario` table. No validation and no transactions here: Workspace
// decides both.
class ScenarioTables {
public:
    ScenarioTables(const QString &connectionName, const QString &path);

    QStringList names() const;                              // ordered by name, bodies not read
    std::vector<ScenarioSummary> summaries() const;         // ordered by name, bodies not read
    std::optional<ScenarioRow> row(const QString &name) const;
    void insert(const ScenarioRow &row) const;
    void update(const ScenarioRow &row) const;              // by summary.name
    // UPDATE … WHERE name = ? AND version = `loadedVersion`: false when no row matched.
    bool updateIfVersion(const ScenarioRow &row, int64_t loadedVersion) const;
    bool rename(const QString &oldName, const QString &newName) const;
    bool remove(const QString &name) const;

    // scenario_history: every version's body, author and time, by name and version.
    void appendHistory(const ScenarioRow &row) const;       // the row's version as saved
    std::vector<ScenarioVersion> history(const QString &name) const;  // newest first
    std::optional<QByteArray> historyBody(const QString &name, int64_t version) const;
    void renameHistory(const QString &oldName, const QString &newName) const;
    void removeHistory(const QString &name) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
