#include "trainingtables.h"

#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"
#include "trainingjson.h"

#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>
#include <QVariant>

namespace headroom::store {

namespace {

const QStringList kColumns = {QStringLiteral("name"), QStringLiteral("version"), QStringLiteral("created_at"),
                              QStringLiteral("updated_at"), QStringLiteral("body"), QStringLiteral("updated_by")};

QString selectSql(bool byName)
{
    QString sql = QStringLiteral("SELECT ") + kColumns.join(QStringLiteral(", ")) + QStringLiteral(" FROM training_job");
    sql += byName ? QStringLiteral(" WHERE name = :name") : QStringLiteral(" ORDER BY name");
    return sql;
}

TrainingJobRecord recordFromRow(const QSqlQuery &query, const QString &path)
{
    const QString name = query.value(0).toString();
    const QString source = QStringLiteral("%1: training_job row \"%2\"").arg(path, name);
    TrainingJobRecord record;
    record.job = parseTrainingJob(query.value(4).toString().toUtf8(), source);
    if (QString::fromStdString(record.job.name) != name)
        throw StoreError(QStringLiteral("%1: the body names the job \"%2\"")
                             .arg(source, QString::fromStdString(record.job.name)));
    record.version = query.value(1).toLongLong();
    record.createdAt = query.value(2).toString();
    record.updatedAt = query.value(3).toString();
    record.updatedBy = query.value(5).toString();
    return record;
}

} // namespace

TrainingTables::TrainingTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

std::vector<TrainingJobRecord> TrainingTables::records() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(false));
    execPrepared(query, m_path, QStringLiteral("cannot read training jobs"));
    std::vector<TrainingJobRecord> result;
    while (query.next())
        result.push_back(recordFromRow(query, m_path));
    return result;
}

std::optional<TrainingJobRecord> TrainingTables::record(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(true));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot read training job \"%1\"").arg(name));
    if (!query.next())
        return std::nullopt;
    return recordFromRow(query, m_path);
}

namespace {

void bindRecord(QSqlQuery &query, const TrainingJobRecord &record)
{
    query.bindValue(QStringLiteral(":name"), QString::fromStdString(record.job.name));
    query.bindValue(QStringLiteral(":version"), qlonglong(record.version));
    query.bindValue(QStringLiteral(":created_at"), record.createdAt);
    query.bindValue(QStringLiteral(":updated_at"), record.updatedAt);
    query.bindValue(QStringLiteral(":updated_by"), record.updatedBy);
    query.bindValue(QStringLiteral(":body"),
                    QString::fromUtf8(QJsonDocument(trainingJobToJson(record.job)).toJson(QJsonDocument::Compact)));
}

} // namespace

bool TrainingTables::updateIfVersion(const TrainingJobRecord &record, int64_t loadedVersion,
                                     const QString &storedName) const
{
    const QString name = QString::fromStdString(record.job.name);
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("UPDATE training_job SET name = :name, version = :version, created_at = :created_at, "
                                 "updated_at = :updated_at, updated_by = :updated_by, body = :body "
                                 "WHERE name = :stored_name AND version = :loaded_version"));
    bindRecord(query, record);
    query.bindValue(QStringLiteral(":stored_name"), storedName.isEmpty() ? name : storedName);
    query.bindValue(QStringLiteral(":loaded_version"), qlonglong(loadedVersion));
    execPrepared(query, m_path, QStringLiteral("cannot save training job \"%1\"").arg(name));
    return query.numRowsAffected() > 0;
}

void TrainingTables::upsertRecord(const TrainingJobRecord &record) const
{
    const QString name = QString::fromStdString(record.job.name);
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(upsertSql(QStringLiteral("training_job"), kColumns, {QStringLiteral("name")}));
    bindRecord(query, record);
    execPrepared(query, m_path, QStringLiteral("cannot save training job \"%1\"").arg(name));
}

bool TrainingTables::deleteJob(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM training_job WHERE name = :name"));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot remove training job \"%1\"").arg(name));
    return query.numRowsAffected() > 0;
}

bool TrainingTables::deleteIfVersion(const QString &name, int64_t loadedVersion) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM training_job WHERE name = :name AND version = :loaded_version"));
    query.bindValue(QStringLiteral(":name"), name);
    query.bindValue(QStringLiteral(":loaded_version"), qlonglong(loadedVersion));
    execPrepared(query, m_path, QStringLiteral("cannot remove training job \"%1\"").arg(name));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
