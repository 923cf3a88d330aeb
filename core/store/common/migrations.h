#pragma once

#include <QSqlDatabase>
#include <QString>

// The workspace schema ladder. The pending steps, the seeding of a new file and the
// schema version bump run in one transaction (on a server under an advisory lock); steps are only ever appended.
namespace headroom::store {

// True for a connection to a PostgreSQL server (QPSQL), false for an SQLite file.
bool isServer(const QSqlDatabase &db);
// The number of tables in the server connection's current schema.
int serverTableCount(const QSqlDatabase &db, const QString &path);

// The file's schema version (PRAGMA user_version; 0 for a new file), or on a server the row
// of headroom_schema (0 when the table is missing). Throws StoreError,
// with a plain message when the file is not an SQLite database at all.
int readSchemaVersion(const QSqlDatabase &db, const QString &path);

// True when the file at `version` lacks schema steps, or was never seeded with the shipped
// catalogs (its creation was cut short by a build that committed each step alone).
bool needsUpgrade(const QSqlDatabase &db, const QString &path, int version);

// Brings the file to Workspace::kSchemaVersion and seeds it, all in one write transaction
// that re-reads the version under the lock: every pending step, then for a new file the
// shipped catalogs (a file whose seeding never finished gets the shipped entries it lacks);
// step 2 fills the rate cards from the shipped ratecards.csv, for new and older files alike.
// Throws StoreError; on any failure the file is left exactly as it was.
void migrateWorkspace(const QSqlDatabase &db, const QString &path);
// The same inside the caller's open transaction (on a server the caller holds
// migrationLockStatement()'s lock): nothing is committed here.
void migrateWorkspaceInTransaction(const QSqlDatabase &db, const QString &path);
// On a server, the statement that takes the transaction-scoped lock every schema creation
// and upgrade holds.
QString migrationLockStatement();

} // namespace headroom::store
