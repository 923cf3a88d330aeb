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
    bool rename(const QString &oldName, const QString &newName) const;
    bool remove(const QString &name) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
