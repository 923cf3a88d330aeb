#pragma once

#include <QSqlDatabase>
#include <QString>

// The workspace schema ladder. Each step moves the file up one version inside one
// transaction together with the PRAGMA user_version bump; steps are only ever appended.
namespace headroom::store {

// The file's schema version (PRAGMA user_version; 0 for a new file). Throws StoreError,
// with a plain message when the file is not an SQLite database at all.
int readSchemaVersion(const QSqlDatabase &db, const QString &path);

// Applies every step above `fromVersion` up to Workspace::kSchemaVersion. A new file
// (fromVersion 0) is seeded from the shipped catalogs in the last step's transaction; step 2
// fills the rate cards from the shipped ratecards.csv, for new and for older files alike.
// Throws StoreError; a failed step is rolled back and leaves the file at its last version.
void migrateWorkspace(const QSqlDatabase &db, const QString &path, int fromVersion);

} // namespace headroom::store
