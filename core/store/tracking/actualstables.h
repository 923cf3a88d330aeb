#pragma once

#include "engine/tracking/actuals.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace headroom::store {

// One imported billing file: its summary (engine::ActualsSummary) is what the workspace keeps,
// never the raw charge rows.
struct ActualsImport {
    qint64 id = 0;
    QString fileName;        // the file's name without its folder; unique in the workspace
    QString importedAt;      // ISO 8601 UTC
    qint64 rowCount = 0;     // charge rows the file held
    QStringList currencies;  // in the file's order
};

// SQL access to the actuals_* tables of one open connection: actuals_import, and per import
// actuals_commitment, actuals_commitment_hour, actuals_commitment_scope, actuals_on_demand and
// actuals_day (money as exact decimal text). No validation and no transactions here:
// Workspace decides both.
class ActualsTables {
public:
    ActualsTables(const QString &connectionName, const QString &path);

    std::vector<ActualsImport> imports() const;   // newest (highest id) first
    std::optional<engine::ActualsSummary> summary(qint64 importId) const;

    // Deletes any import named `fileName` and inserts this one under a new id; returns it.
    // Run it inside a transaction.
    qint64 replaceImport(const QString &fileName, const QString &importedAt,
                         const engine::ActualsSummary &summary) const;
    // Whether an import was deleted; its rows go with it (ON DELETE CASCADE).
    bool deleteImport(qint64 importId) const;

private:
    QString m_connectionName;
    QString m_path;
};

} // namespace headroom::store
