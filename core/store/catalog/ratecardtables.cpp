#include "ratecardtables.h"

#include "catalogkeys.h"

#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>

namespace headroom::store {

namespace {

// The CSV fields, with the GPU column named gpu_id as in the other tables.
const QStringList kColumns = [] {
    QStringList columns = rateCardKeys();
    columns.replace(columns.indexOf(QStringLiteral("gpu")), QStringLiteral("gpu_id"));
    return columns;
}();

const QStringList kKeyColumns = {
    QStringLiteral("provider"),
    QStringLiteral("region"),
    QStringLiteral("gpu_id"),
    QStringLiteral("effective_date"),
};

// The key as RateCard::key() spells it, computed in SQL so that any character may appear
// in a provider or region name. `||` is standard SQL (SQLite and PostgreSQL).
const QString kKeyExpression =
    QStringLiteral("provider || '/' || region || '/' || gpu_id || '@' || effective_date");

QString selectSql(bool byKey)
{
    QString sql = QStringLiteral("SELECT ") + kColumns.join(QStringLiteral(", "))
        + QStringLiteral(" FROM rate_card");
    sql += byKey ? QStringLiteral(" WHERE ") + kKeyExpression + QStringLiteral(" = :key")
                 : QStringLiteral(" ORDER BY provider, region, gpu_id, effective_date");
    return sql;
}

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

QString decimalText(engine::Decimal value)
{
    return QString::fromStdString(value.toString());
}

class RowReader {
public:
    RowReader(const QSqlQuery &query, const QString &path) : m_query(query), m_path(path) {}

    std::string string() { return m_query.value(m_column++).toString().toStdString(); }
    int integer() { return m_query.value(m_column++).toInt(); }

    engine::Decimal decimal(const engine::RateCard &card)
    {
        const int column = m_column++;
        const QString value = m_query.value(column).toString();
        const auto parsed = engine::Decimal::parse(value.toStdString());
        if (!parsed)
            throw StoreError(QStringLiteral("%1: rate card \"%2\": column \"%3\" holds \"%4\", "
                                            "not a decimal number")
                                 .arg(m_path, text(card.key()), kColumns.at(column), value));
        return *parsed;
    }

private:
    const QSqlQuery &m_query;
    QString m_path;
    int m_column = 0;
};

engine::RateCard rateCardFromRow(const QSqlQuery &query, const QString &path)
{
    RowReader in(query, path);
    engine::RateCard card;
    card.provider = in.string();
    card.region = in.string();
    card.gpuId = in.string();
    card.instanceType = in.string();
    card.currency = in.string();
    card.effectiveDate = in.string();
    card.onDemand = in.decimal(card);
    card.reserved1y = in.decimal(card);
    card.reserved1yUpfront = in.decimal(card);
    card.reserved3y = in.decimal(card);
    card.reserved3yUpfront = in.decimal(card);
    card.spot = in.decimal(card);
    card.spotInterruptionRate = in.decimal(card);
    card.reservationLeadWeeks = in.integer();
    card.committedAreExamples = in.integer() != 0;
    card.source = in.string();
    return card;
}

} // namespace

RateCardTables::RateCardTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

std::vector<engine::RateCard> RateCardTables::rateCards() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(false));
    execPrepared(query, m_path, QStringLiteral("cannot read rate cards"));
    std::vector<engine::RateCard> result;
    while (query.next())
        result.push_back(rateCardFromRow(query, m_path));
    return result;
}

std::optional<engine::RateCard> RateCardTables::rateCard(const QString &key) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(true));
    query.bindValue(QStringLiteral(":key"), key);
    execPrepared(query, m_path, QStringLiteral("cannot read rate card \"%1\"").arg(key));
    if (!query.next())
        return std::nullopt;
    return rateCardFromRow(query, m_path);
}

void RateCardTables::upsertRateCard(const engine::RateCard &card) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(upsertSql(QStringLiteral("rate_card"), kColumns, kKeyColumns));
    query.bindValue(QStringLiteral(":provider"), text(card.provider));
    query.bindValue(QStringLiteral(":region"), text(card.region));
    query.bindValue(QStringLiteral(":gpu_id"), text(card.gpuId));
    query.bindValue(QStringLiteral(":instance_type"), text(card.instanceType));
    query.bindValue(QStringLiteral(":currency"), text(card.currency));
    query.bindValue(QStringLiteral(":effective_date"), text(card.effectiveDate));
    query.bindValue(QStringLiteral(":on_demand"), decimalText(card.onDemand));
    query.bindValue(QStringLiteral(":reserved_1y"), decimalText(card.reserved1y));
    query.bindValue(QStringLiteral(":reserved_1y_upfront"), decimalText(card.reserved1yUpfront));
    query.bindValue(QStringLiteral(":reserved_3y"), decimalText(card.reserved3y));
    query.bindValue(QStringLiteral(":reserved_3y_upfront"), decimalText(card.reserved3yUpfront));
    query.bindValue(QStringLiteral(":spot"), decimalText(card.spot));
    query.bindValue(QStringLiteral(":spot_interruption_rate"),
                    decimalText(card.spotInterruptionRate));
    query.bindValue(QStringLiteral(":lead_weeks"), card.reservationLeadWeeks);
    query.bindValue(QStringLiteral(":committed_are_examples"), card.committedAreExamples ? 1 : 0);
    query.bindValue(QStringLiteral(":source"), text(card.source));
    execPrepared(query, m_path,
                 QStringLiteral("cannot save rate card \"%1\"").arg(text(card.key())));
}

bool RateCardTables::deleteRateCard(const QString &key) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM rate_card WHERE ") + kKeyExpression
                  + QStringLiteral(" = :key"));
    query.bindValue(QStringLiteral(":key"), key);
    execPrepared(query, m_path, QStringLiteral("cannot remove rate card \"%1\"").arg(key));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
