#include "sqlsupport.h"

#include "storeerror.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace headroom::store {

namespace {

// The advisory lock key every write transaction on a server takes ("HDRW" in ASCII).
constexpr qint64 kServerWriteLockKey = 0x48445257;

// SQLite primary result codes (sqlite3.h) that call for a word of explanation.
enum SqliteCode { kBusy = 5, kLocked = 6, kReadOnly = 8, kIoError = 10, kFull = 13 };

// What the user can do about a failure, or an empty string when the driver says it all.
QString advice(int code)
{
    switch (code) {
    case kBusy:
    case kLocked:
        return QStringLiteral("the workspace is busy: another program kept it locked for longer "
                              "than %1 s. Try again when it has finished")
            .arg(kBusyTimeoutMs / 1000);
    case kReadOnly:
        return QStringLiteral("the workspace file or its folder is read-only");
    case kFull:
        return QStringLiteral("the disk is full. Free some space and try again");
    case kIoError:
        return QStringLiteral("the disk could not be written (it may be full or failing)");
    default:
        return {};
    }
}

// True when a server error means the connection is gone: SQLSTATE class 08 (connection
// exception) or 57P (operator intervention, e.g. the session was terminated), or libpq's words
// for a closed or missing connection, which come without a SQLSTATE.
bool connectionLost(const QString &sqlState, const QString &detail)
{
    return sqlState.startsWith(QLatin1String("08")) || sqlState.startsWith(QLatin1String("57P"))
           || detail.contains(QLatin1String("server closed the connection"))
           || detail.contains(QLatin1String("no connection to the server"))
           || detail.contains(QLatin1String("terminating connection"))
           || detail.contains(QLatin1String("could not send data to server"))
           || detail.contains(QLatin1String("could not receive data from server"));
}

// The same for a PostgreSQL server, by SQLSTATE class.
QString serverAdvice(const QString &sqlState, const QString &detail)
{
    if (connectionLost(sqlState, detail))
        return QStringLiteral("the connection to the server was lost; nothing was changed by "
                              "this step");
    if (sqlState == QLatin1String("55P03"))
        return QStringLiteral("the workspace is busy: another program kept it locked for longer "
                              "than %1 s. Try again when it has finished")
            .arg(kBusyTimeoutMs / 1000);
    if (sqlState == QLatin1String("40001") || sqlState == QLatin1String("40P01"))
        return QStringLiteral("another user's change collided with this one; try again");
    if (sqlState == QLatin1String("57014"))
        return QStringLiteral("the server spent more than %1 s on one statement and cancelled it; "
                              "nothing was changed by this step")
            .arg(kServerStatementTimeoutMs / 1000);
    if (sqlState == QLatin1String("42501"))
        return QStringLiteral("the server role may not change this workspace");
    return {};
}

[[noreturn]] void raise(const QString &path, const QString &what, const QSqlError &error)
{
    // Qt appends its own words ("Unable to fetch row") to SQLite's; SQLite's are the useful part.
    const QString detail = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    // PostgreSQL reports a five-character SQLSTATE; SQLite a number below 10000 whose low byte
    // (extended result codes) is the primary code.
    const QString code = error.nativeErrorCode();
    const bool server = code.size() == 5 || connectionLost(QString(), detail);
    const QString hint = server ? serverAdvice(code, detail) : advice(code.toInt() & 0xff);
    if (server && connectionLost(code, detail))
        throw ConnectionLostError(QStringLiteral("%1: %2: %3 (%4)").arg(path, what, hint, detail.trimmed()));
    if (hint.isEmpty())
        throw StoreError(QStringLiteral("%1: %2: %3").arg(path, what, detail));
    throw StoreError(QStringLiteral("%1: %2: %3 (%4)").arg(path, what, hint, detail));
}

bool isSqlite(const QSqlDatabase &db)
{
    return db.driverName() == QLatin1String("QSQLITE");
}

} // namespace

void execPrepared(QSqlQuery &query, const QString &path, const QString &what)
{
    // No text in a workspace holds U+0000: SQLite would keep it, PostgreSQL's text cannot, and
    // the Qt PostgreSQL driver writes values into the statement text, where it would end the
    // statement. Every importer refuses it first; this is the last guard for every writer.
    const QVariantList values = query.boundValues();
    for (const QVariant &value : values)
        if (value.typeId() == QMetaType::QString && value.toString().contains(QChar(0)))
            throw StoreError(QStringLiteral("%1: %2: a text holds the NUL character (U+0000), which "
                                            "no text in a workspace may hold; nothing was changed")
                                 .arg(path, what));
    // A statement the server could not prepare (a lock timeout while it was parsed, a lost
    // connection) leaves its error here; exec() would run an empty EXECUTE and report a syntax
    // error in its place.
    if (query.lastError().type() != QSqlError::NoError)
        raise(path, what, query.lastError());
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
    if (isSqlite(m_db)) {
        // BEGIN IMMEDIATE takes the write lock now, waiting up to the busy timeout for another
        // writer. A plain BEGIN would read first and then fail at once with "database is
        // locked" when another connection committed in between.
        QSqlQuery begin(m_db);
        if (!begin.exec(QStringLiteral("BEGIN IMMEDIATE")))
            raise(m_path, QStringLiteral("cannot start a transaction"), begin.lastError());
    } else if (!m_db.transaction()) {
        raise(m_path, QStringLiteral("cannot start a transaction"), m_db.lastError());
    } else if (m_db.driverName() == QLatin1String("QPSQL")) {
        // PostgreSQL's READ COMMITTED would let two writers read the same row version and
        // both write version + 1. One workspace-wide writer at a time, as on SQLite: a
        // transaction-scoped advisory lock, waited for up to kBusyTimeoutMs.
        QSqlQuery lock(m_db);
        if (!lock.exec(QStringLiteral("SET LOCAL lock_timeout = %1").arg(kBusyTimeoutMs))
            || !lock.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kServerWriteLockKey))) {
            const QSqlError error = lock.lastError();
            lock.finish();
            m_db.rollback();
            raise(m_path, QStringLiteral("cannot start a transaction"), error);
        }
    }
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

void raiseSqlError(const QString &path, const QString &what, const QSqlError &error)
{
    raise(path, what, error);
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
