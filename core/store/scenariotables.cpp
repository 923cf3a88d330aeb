#include "scenariotables.h"

#include "sqlsupport.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace headroom::store {

namespace {

ScenarioSummary summaryFrom(const QSqlQuery &query)
{
    ScenarioSummary summary;
    summary.name = query.value(0).toString();
    summary.description = query.value(1).toString();
    summary.author = query.value(2).toString();
    summary.version = query.value(3).toLongLong();
    summary.createdAt = query.value(4).toString();
    summary.updatedAt = query.value(5).toString();
    return summary;
}

const QString kSummaryColumns = QStringLiteral("name, description, author, version, created_at, updated_at");

void bindRow(QSqlQuery &query, const ScenarioRow &row)
{
    query.bindValue(QStringLiteral(":name"), row.summary.name);
    query.bindValue(QStringLiteral(":description"), row.summary.description);
    query.bindValue(QStringLiteral(":author"), row.summary.author);
    query.bindValue(QStringLiteral(":version"), qlonglong(row.summary.version));
    query.bindValue(QStringLiteral(":created_at"), row.summary.createdAt);
    query.bindValue(QStringLiteral(":updated_at"), row.summary.updatedAt);
    query.bindValue(QStringLiteral(":body"), QString::fromUtf8(row.body));
}

} // namespace

ScenarioTables::ScenarioTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

QStringList ScenarioTables::names() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT name FROM scenario ORDER BY name"));
    execPrepared(query, m_path, QStringLiteral("cannot list the scenarios"));
    QStringList names;
    while (query.next())
        names << query.value(0).toString();
    return names;
}

std::vector<ScenarioSummary> ScenarioTables::summaries() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT %1 FROM scenario ORDER BY name").arg(kSummaryColumns));
    execPrepared(query, m_path, QStringLiteral("cannot list the scenarios"));
    std::vector<ScenarioSummary> summaries;
    while (query.next())
        summaries.push_back(summaryFrom(query));
    return summaries;
}

std::optional<ScenarioRow> ScenarioTables::row(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT %1, body FROM scenario WHERE name = :name").arg(kSummaryColumns));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot read scenario \"%1\"").arg(name));
    if (!query.next())
        return std::nullopt;
    ScenarioRow row;
    row.summary = summaryFrom(query);
    row.body = query.value(6).toString().toUtf8();
    return row;
}

void ScenarioTables::insert(const ScenarioRow &row) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("INSERT INTO scenario (%1, body) VALUES (:name, :description, :author, "
                                 ":version, :created_at, :updated_at, :body)")
                      .arg(kSummaryColumns));
    bindRow(query, row);
    execPrepared(query, m_path, QStringLiteral("cannot store scenario \"%1\"").arg(row.summary.name));
}

void ScenarioTables::update(const ScenarioRow &row) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("UPDATE scenario SET description = :description, author = :author, "
                                 "version = :version, created_at = :created_at, updated_at = :updated_at, "
                                 "body = :body WHERE name = :name"));
    bindRow(query, row);
    execPrepared(query, m_path, QStringLiteral("cannot store scenario \"%1\"").arg(row.summary.name));
}

bool ScenarioTables::rename(const QString &oldName, const QString &newName) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("UPDATE scenario SET name = :new_name WHERE name = :old_name"));
    query.bindValue(QStringLiteral(":new_name"), newName);
    query.bindValue(QStringLiteral(":old_name"), oldName);
    execPrepared(query, m_path, QStringLiteral("cannot rename scenario \"%1\"").arg(oldName));
    return query.numRowsAffected() > 0;
}

bool ScenarioTables::remove(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM scenario WHERE name = :name"));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot remove scenario \"%1\"").arg(name));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
