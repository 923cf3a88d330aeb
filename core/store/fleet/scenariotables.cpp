#include "scenariotables.h"

#include "store/common/sqlsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
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
    summary.updatedBy = query.value(6).toString();
    return summary;
}

const QString kSummaryColumns = QStringLiteral("name, description, author, version, created_at, updated_at, updated_by");

void bindRow(QSqlQuery &query, const ScenarioRow &row)
{
    query.bindValue(QStringLiteral(":name"), row.summary.name);
    query.bindValue(QStringLiteral(":description"), row.summary.description);
    query.bindValue(QStringLiteral(":author"), row.summary.author);
    query.bindValue(QStringLiteral(":version"), qlonglong(row.summary.version));
    query.bindValue(QStringLiteral(":created_at"), row.summary.createdAt);
    query.bindValue(QStringLiteral(":updated_at"), row.summary.updatedAt);
    query.bindValue(QStringLiteral(":updated_by"), row.summary.updatedBy);
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
    row.body = query.value(7).toString().toUtf8();
    return row;
}

void ScenarioTables::insert(const ScenarioRow &row) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("INSERT INTO scenario (%1, body) VALUES (:name, :description, :author, "
                                 ":version, :created_at, :updated_at, :updated_by, :body)")
                      .arg(kSummaryColumns));
    bindRow(query, row);
    execPrepared(query, m_path, QStringLiteral("cannot store scenario \"%1\"").arg(row.summary.name));
}

void ScenarioTables::update(const ScenarioRow &row) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("UPDATE scenario SET description = :description, author = :author, "
                                 "version = :version, created_at = :created_at, updated_at = :updated_at, "
                                 "updated_by = :updated_by, body = :body WHERE name = :name"));
    bindRow(query, row);
    execPrepared(query, m_path, QStringLiteral("cannot store scenario \"%1\"").arg(row.summary.name));
}

bool ScenarioTables::updateIfVersion(const ScenarioRow &row, int64_t loadedVersion) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("UPDATE scenario SET description = :description, author = :author, "
                                 "version = :version, created_at = :created_at, updated_at = :updated_at, "
                                 "updated_by = :updated_by, body = :body "
                                 "WHERE name = :name AND version = :loaded_version"));
    bindRow(query, row);
    query.bindValue(QStringLiteral(":loaded_version"), qlonglong(loadedVersion));
    execPrepared(query, m_path, QStringLiteral("cannot store scenario \"%1\"").arg(row.summary.name));
    return query.numRowsAffected() > 0;
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

void ScenarioTables::appendHistory(const ScenarioRow &row) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("INSERT INTO scenario_history (name, version, changed_by, changed_at, body) "
                                 "VALUES (:name, :version, :changed_by, :changed_at, :body)"));
    query.bindValue(QStringLiteral(":name"), row.summary.name);
    query.bindValue(QStringLiteral(":version"), qlonglong(row.summary.version));
    query.bindValue(QStringLiteral(":changed_by"), row.summary.updatedBy);
    query.bindValue(QStringLiteral(":changed_at"), row.summary.updatedAt);
    query.bindValue(QStringLiteral(":body"), QString::fromUtf8(row.body));
    execPrepared(query, m_path,
                 QStringLiteral("cannot keep version %1 of scenario \"%2\"").arg(row.summary.version).arg(row.summary.name));
}

std::vector<ScenarioVersion> ScenarioTables::history(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT version, changed_by, changed_at, body FROM scenario_history "
                                 "WHERE name = :name ORDER BY version DESC"));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot read the history of scenario \"%1\"").arg(name));
    std::vector<ScenarioVersion> versions;
    while (query.next()) {
        ScenarioVersion version;
        version.version = query.value(0).toLongLong();
        version.changedBy = query.value(1).toString();
        version.changedAt = query.value(2).toString();
        // The description only, without validating the whole document.
        const QJsonObject body = QJsonDocument::fromJson(query.value(3).toString().toUtf8()).object();
        version.description = body.value(QStringLiteral("description")).toString();
        versions.push_back(version);
    }
    return versions;
}

std::optional<QByteArray> ScenarioTables::historyBody(const QString &name, int64_t version) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT body FROM scenario_history WHERE name = :name AND version = :version"));
    query.bindValue(QStringLiteral(":name"), name);
    query.bindValue(QStringLiteral(":version"), qlonglong(version));
    execPrepared(query, m_path, QStringLiteral("cannot read version %1 of scenario \"%2\"").arg(version).arg(name));
    if (!query.next())
        return std::nullopt;
    return query.value(0).toString().toUtf8();
}

void ScenarioTables::renameHistory(const QString &oldName, const QString &newName) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("UPDATE scenario_history SET name = :new_name WHERE name = :old_name"));
    query.bindValue(QStringLiteral(":new_name"), newName);
    query.bindValue(QStringLiteral(":old_name"), oldName);
    execPrepared(query, m_path, QStringLiteral("cannot rename the history of scenario \"%1\"").arg(oldName));
}

void ScenarioTables::removeHistory(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM scenario_history WHERE name = :name"));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot remove the history of scenario \"%1\"").arg(name));
}

} // namespace headroom::store
