#include "sqlsupport.h"

#include "storeerror.h"

#include <QSqlError>
#include <QSqlQuery>

namespace headroom::store {

namespace {

[[noreturn]] void raise(const QString &path, const QString &what, const QSqlError &error)
{
    throw StoreError(QStringLiteral("%1: %2: %3").arg(path, what, error.text()));
}

} // namespace

void execPrepared(QSqlQuery &query, const QString &path, const QString &what)
{
    if (!query.exec())
        raise(path, what, query.lastError());
}

void execStatement(const QSqlDatabase &db, const QString &sql, const QString &path,
                   const QString &what)
{
    QSqlQuery query(db);
    if (!query.exec(sql))
        raise(path, what, query.lastError());
}

SqlTransaction::SqlTransaction(const QSqlDatabase &db, const QString &path)
    : m_db(db), m_path(path)
{
    if (!m_db.transaction())
        raise(m_path, QStringLiteral("cannot start a transaction"), m_db.lastError());
    m_open = true;
}

SqlTransaction::~SqlTransaction()
{
    if (m_open)
        m_db.rollback();
}

void SqlTransaction::commit()
{
    if (!m_db.commit()) {
        const QSqlError error = m_db.lastError();
        m_db.rollback();
        m_open = false;
        raise(m_path, QStringLiteral("cannot commit"), error);
    }
    m_open = false;
}

QString upsertSql(const QString &table, const QStringList &columns, const QStringList &keyColumns)
{
    QStringList placeholders;
    QStringList updates;
    for (const QString &column : columns) {
        placeholders << QLatin1Char(':') + column;
        if (!keyColumns.contains(column))
            updates << column + QStringLiteral(" = excluded.") + column;
    }
    return QStringLiteral("INSERT INTO %1 (%2) VALUES (%3) ON CONFLICT (%4) DO UPDATE SET %5")
        .arg(table, columns.join(QStringLiteral(", ")), placeholders.join(QStringLiteral(", ")),
             keyColumns.join(QStringLiteral(", ")), updates.join(QStringLiteral(", ")));
}

} // namespace headroom::store
