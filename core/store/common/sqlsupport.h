#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

class QSqlError;
class QSqlQuery;

// Small helpers shared by the store's SQL code; every failure becomes a StoreError whose
// message names the workspace file and what was being done.
namespace headroom::store {

// How long a connection waits for another writer's lock before giving up, in milliseconds.
inline constexpr int kBusyTimeoutMs = 5000;
// The longest one statement may run on a server (statement_timeout).
inline constexpr int kServerStatementTimeoutMs = 300000;

// Throws StoreError("<path>: <what>: <driver message>"), explaining a busy, read-only or
// full workspace in plain words.
[[noreturn]] void raiseSqlError(const QString &path, const QString &what, const QSqlError &error);
// Runs a prepared query; throws StoreError("<path>: <what>: <driver message>") on failure.
void execPrepared(QSqlQuery &query, const QString &path, const QString &what);
// INSERT ... ON CONFLICT (keys) DO UPDATE of every other column, with :column placeholders:
// understood by SQLite 3.24+ and PostgreSQL 9.5+.
QString upsertSql(const QString &table, const QStringList &columns, const QStringList &keyColumns);
// Runs one statement on the connection.
void execStatement(const QSqlDatabase &db, const QString &sql, const QString &path,
                   const QString &what);

// A write transaction that rolls back unless commit() was called. On SQLite it takes the
// write lock at once (BEGIN IMMEDIATE), waiting up to kBusyTimeoutMs for another writer.
class SqlTransaction {
public:
    SqlTransaction(const QSqlDatabase &db, const QString &path);
    ~SqlTransaction();
    SqlTransaction(const SqlTransaction &) = delete;
    SqlTransaction &operator=(const SqlTransaction &) = delete;

    void commit();

private:
    QSqlDatabase m_db;
    QString m_path;
    bool m_open = false;
};

} // namespace headroom::store
