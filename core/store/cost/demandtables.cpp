#include "demandtables.h"

#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"

#include <QSqlDatabase>
#include <QSqlQuery>

namespace headroom::store {

namespace {

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

} // namespace

DemandTables::DemandTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

QStringList DemandTables::names() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT name FROM demand_series ORDER BY name"));
    execPrepared(query, m_path, QStringLiteral("cannot read demand series"));
    QStringList result;
    while (query.next())
        result << query.value(0).toString();
    return result;
}

std::optional<engine::DemandSeries> DemandTables::series(const QString &name) const
{
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    const QString what = QStringLiteral("cannot read demand series \"%1\"").arg(name);
    engine::DemandSeries result;
    {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(QStringLiteral(
            "SELECT name, start_epoch, source FROM demand_series WHERE name = :name"));
        query.bindValue(QStringLiteral(":name"), name);
        execPrepared(query, m_path, what);
        if (!query.next())
            return std::nullopt;
        result.name = query.value(0).toString().toStdString();
        result.startEpochSeconds = query.value(1).toLongLong();
        result.source = query.value(2).toString().toStdString();
    }

    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT hour_index, gpus FROM demand_point "
                                 "WHERE series_name = :name ORDER BY hour_index"));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, what);
    while (query.next()) {
        const qlonglong hour = query.value(0).toLongLong();
        if (hour != qlonglong(result.gpus.size()))
            throw StoreError(QStringLiteral("%1: demand series \"%2\" has no value for hour %3")
                                 .arg(m_path, name)
                                 .arg(result.gpus.size()));
        const QString value = query.value(1).toString();
        const auto parsed = engine::Decimal::parse(value.toStdString());
        if (!parsed)
            throw StoreError(QStringLiteral("%1: demand series \"%2\", hour %3 holds \"%4\", "
                                            "not a decimal number")
                                 .arg(m_path, name)
                                 .arg(hour)
                                 .arg(value));
        result.gpus.push_back(*parsed);
    }
    return result;
}

void DemandTables::replaceSeries(const engine::DemandSeries &series) const
{
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    const QString name = text(series.name);
    const QString what = QStringLiteral("cannot save demand series \"%1\"").arg(name);
    deleteSeries(name);
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO demand_series (name, start_epoch, source) "
                                     "VALUES (:name, :start_epoch, :source)"));
        query.bindValue(QStringLiteral(":name"), name);
        query.bindValue(QStringLiteral(":start_epoch"), qlonglong(series.startEpochSeconds));
        query.bindValue(QStringLiteral(":source"), text(series.source));
        execPrepared(query, m_path, what);
    }

    QSqlQuery query(db);
    query.prepare(QStringLiteral("INSERT INTO demand_point (series_name, hour_index, gpus) "
                                 "VALUES (?, ?, ?)"));
    for (size_t hour = 0; hour < series.gpus.size(); ++hour) {
        query.bindValue(0, name);
        query.bindValue(1, qlonglong(hour));
        query.bindValue(2, QString::fromStdString(series.gpus[hour].toString()));
        execPrepared(query, m_path, what);
    }
}

bool DemandTables::deleteSeries(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM demand_series WHERE name = :name"));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot remove demand series \"%1\"").arg(name));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
