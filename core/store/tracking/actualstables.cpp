#include "actualstables.h"

#include "engine/common/errors.h"
#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>
#include <algorithm>
#include <map>
#include <tuple>

namespace headroom::store {

namespace {

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

QString money(const engine::Decimal &value)
{
    return QString::fromStdString(value.toString());
}

// The amount as stored text, refused (StoreError naming the workspace and table) when it could
// not be read back: summarizeActuals bounds its sums, this keeps any other caller from storing
// an amount that would make every later read of the import fail.
QString storedMoney(const engine::Decimal &value, const QString &path, const char *table)
{
    QString stored = money(value);
    if (!engine::Decimal::parse(stored.toStdString()))
        throw StoreError(QStringLiteral("%1: cannot store %2 in table %3: more than 27 digits before the "
                                        "decimal point; nothing was imported")
                             .arg(path, stored, QLatin1String(table)));
    return stored;
}

QString statusName(engine::CommitmentStatus status)
{
    return status == engine::CommitmentStatus::Used ? QStringLiteral("used") : QStringLiteral("unused");
}

} // namespace

ActualsTables::ActualsTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

std::vector<ActualsImport> ActualsTables::imports() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT id, file_name, imported_at, row_count, currencies "
                                 "FROM actuals_import ORDER BY id DESC"));
    execPrepared(query, m_path, QStringLiteral("cannot read the actuals imports"));
    std::vector<ActualsImport> result;
    while (query.next()) {
        ActualsImport entry;
        entry.id = query.value(0).toLongLong();
        entry.fileName = query.value(1).toString();
        entry.importedAt = query.value(2).toString();
        entry.rowCount = query.value(3).toLongLong();
        const QString currencies = query.value(4).toString();
        entry.currencies = currencies.isEmpty() ? QStringList() : currencies.split(QLatin1Char(','));
        result.push_back(entry);
    }
    return result;
}

std::optional<engine::ActualsSummary> ActualsTables::summary(qint64 importId) const
{
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    const QString what = QStringLiteral("cannot read actuals import %1").arg(importId);
    engine::ActualsSummary summary;
    std::map<std::string, uint32_t> currencyIndex;
    {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(QStringLiteral("SELECT row_count, currencies FROM actuals_import WHERE id = ?"));
        query.bindValue(0, importId);
        execPrepared(query, m_path, what);
        if (!query.next())
            return std::nullopt;
        summary.rows = query.value(0).toLongLong();
        const QString currencies = query.value(1).toString();
        if (!currencies.isEmpty())
            for (const QString &code : currencies.split(QLatin1Char(','))) {
                currencyIndex[code.toStdString()] = uint32_t(summary.currencies.size());
                summary.currencies.push_back(code.toStdString());
            }
    }
    const auto currencyOf = [&](const QVariant &value) {
        const auto it = currencyIndex.find(value.toString().toStdString());
        if (it == currencyIndex.end())
            throw StoreError(QStringLiteral("%1: actuals import %2 names currency \"%3\", which it does not list")
                                 .arg(m_path)
                                 .arg(importId)
                                 .arg(value.toString()));
        return it->second;
    };
    const auto decimalOf = [&](const QVariant &value, const QString &table) {
        const auto parsed = engine::Decimal::parse(value.toString().toStdString());
        if (!parsed)
            throw StoreError(QStringLiteral("%1: actuals import %2, table %3 holds \"%4\", not a decimal number")
                                 .arg(m_path)
                                 .arg(importId)
                                 .arg(table, value.toString()));
        return *parsed;
    };
    const auto select = [&](QSqlQuery &query, const QString &sql) {
        query.setForwardOnly(true);
        query.prepare(sql);
        query.bindValue(0, importId);
        execPrepared(query, m_path, what);
    };
    {
        QSqlQuery query(db);
        select(query, QStringLiteral("SELECT position, commitment_id, name, category, type, term_end "
                                     "FROM actuals_commitment WHERE import_id = ? ORDER BY position"));
        while (query.next()) {
            if (query.value(0).toLongLong() != qlonglong(summary.commitments.size()))
                throw StoreError(QStringLiteral("%1: actuals import %2 has no commitment at position %3")
                                     .arg(m_path)
                                     .arg(importId)
                                     .arg(summary.commitments.size()));
            summary.commitments.push_back({query.value(1).toString().toStdString(), query.value(2).toString().toStdString(),
                                           query.value(3).toString().toStdString(), query.value(4).toString().toStdString()});
            summary.termEnds.push_back(query.value(5).toLongLong());
        }
    }
    {
        QSqlQuery query(db);
        select(query, QStringLiteral("SELECT commitment_position, currency, hour, status, effective_cost "
                                     "FROM actuals_commitment_hour WHERE import_id = ?"));
        while (query.next()) {
            engine::CommitmentHourCost hour;
            hour.commitment = uint32_t(query.value(0).toLongLong());
            hour.currency = currencyOf(query.value(1));
            hour.hour = query.value(2).toLongLong();
            const QString status = query.value(3).toString();
            hour.status = status == QLatin1String("used") ? engine::CommitmentStatus::Used
                                                           : engine::CommitmentStatus::Unused;
            hour.effectiveCost = decimalOf(query.value(4), QStringLiteral("actuals_commitment_hour"));
            summary.commitmentHours.push_back(hour);
        }
        std::sort(summary.commitmentHours.begin(), summary.commitmentHours.end(),
                  [](const engine::CommitmentHourCost &a, const engine::CommitmentHourCost &b) {
                      return std::tie(a.commitment, a.currency, a.hour, a.status)
                          < std::tie(b.commitment, b.currency, b.hour, b.status);
                  });
    }
    {
        QSqlQuery query(db);
        select(query, QStringLiteral("SELECT commitment_position, currency, service, region "
                                     "FROM actuals_commitment_scope WHERE import_id = ?"));
        while (query.next())
            summary.scopes.push_back({uint32_t(query.value(0).toLongLong()), currencyOf(query.value(1)),
                                      query.value(2).toString().toStdString(), query.value(3).toString().toStdString()});
        std::sort(summary.scopes.begin(), summary.scopes.end(), [](const engine::CommitmentScope &a, const engine::CommitmentScope &b) {
            return std::tie(a.commitment, a.currency, a.service, a.region)
                < std::tie(b.commitment, b.currency, b.service, b.region);
        });
    }
    {
        QSqlQuery query(db);
        select(query, QStringLiteral("SELECT currency, service, region, first_hour, last_hour, effective_cost "
                                     "FROM actuals_on_demand WHERE import_id = ?"));
        while (query.next())
            summary.onDemand.push_back({currencyOf(query.value(0)), query.value(1).toString().toStdString(),
                                        query.value(2).toString().toStdString(), query.value(3).toLongLong(),
                                        query.value(4).toLongLong(),
                                        decimalOf(query.value(5), QStringLiteral("actuals_on_demand"))});
        std::sort(summary.onDemand.begin(), summary.onDemand.end(), [](const engine::OnDemandCost &a, const engine::OnDemandCost &b) {
            return std::tie(a.currency, a.service, a.region, a.firstHour, a.lastHour)
                < std::tie(b.currency, b.service, b.region, b.firstHour, b.lastHour);
        });
    }
    {
        QSqlQuery query(db);
        select(query, QStringLiteral("SELECT currency, day, effective_cost, billed_cost, row_count, consumed_hours "
                                     "FROM actuals_day WHERE import_id = ?"));
        while (query.next())
            summary.days.push_back({currencyOf(query.value(0)), query.value(1).toLongLong(),
                                    decimalOf(query.value(2), QStringLiteral("actuals_day")),
                                    decimalOf(query.value(3), QStringLiteral("actuals_day")), query.value(4).toLongLong(),
                                    decimalOf(query.value(5), QStringLiteral("actuals_day"))});
        std::sort(summary.days.begin(), summary.days.end(), [](const engine::DayCost &a, const engine::DayCost &b) {
            return std::tie(a.currency, a.day) < std::tie(b.currency, b.day);
        });
    }
    {
        QSqlQuery query(db);
        select(query, QStringLiteral("SELECT commitment_position, currency, used_effective_cost, used_list_cost "
                                     "FROM actuals_commitment_rate WHERE import_id = ?"));
        while (query.next())
            summary.rates.push_back({uint32_t(query.value(0).toLongLong()), currencyOf(query.value(1)),
                                     decimalOf(query.value(2), QStringLiteral("actuals_commitment_rate")),
                                     decimalOf(query.value(3), QStringLiteral("actuals_commitment_rate"))});
        std::sort(summary.rates.begin(), summary.rates.end(), [](const engine::CommitmentRate &a, const engine::CommitmentRate &b) {
            return std::tie(a.commitment, a.currency) < std::tie(b.commitment, b.currency);
        });
    }
    try {
        engine::validate(summary);
    } catch (const engine::InputError &error) {
        throw StoreError(QStringLiteral("%1: actuals import %2: %3").arg(m_path).arg(importId).arg(QString::fromUtf8(error.what())));
    }
    return summary;
}

qint64 ActualsTables::replaceImport(const QString &fileName, const QString &importedAt,
                                    const engine::ActualsSummary &summary) const
{
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    const QString what = QStringLiteral("cannot save the actuals of \"%1\"").arg(fileName);
    // The new id is taken before the old import goes, so a replaced import's id is not reused.
    qint64 id = 1;
    {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(QStringLiteral("SELECT COALESCE(MAX(id), 0) + 1 FROM actuals_import"));
        execPrepared(query, m_path, what);
        if (query.next())
            id = query.value(0).toLongLong();
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("DELETE FROM actuals_import WHERE file_name = ?"));
        query.bindValue(0, fileName);
        execPrepared(query, m_path, what);
    }
    QStringList currencies;
    for (const std::string &code : summary.currencies)
        currencies << text(code);
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO actuals_import (id, file_name, imported_at, row_count, currencies) "
                                     "VALUES (?, ?, ?, ?, ?)"));
        query.bindValue(0, id);
        query.bindValue(1, fileName);
        query.bindValue(2, importedAt);
        query.bindValue(3, qlonglong(summary.rows));
        query.bindValue(4, currencies.join(QLatin1Char(',')));
        execPrepared(query, m_path, what);
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO actuals_commitment (import_id, position, commitment_id, name, "
                                     "category, type, term_end) VALUES (?, ?, ?, ?, ?, ?, ?)"));
        for (size_t i = 1; i < summary.commitments.size(); ++i) {
            const engine::FocusCommitment &c = summary.commitments[i];
            query.bindValue(0, id);
            query.bindValue(1, qlonglong(i));
            query.bindValue(2, text(c.id));
            query.bindValue(3, text(c.name));
            query.bindValue(4, text(c.category));
            query.bindValue(5, text(c.type));
            query.bindValue(6, qlonglong(summary.termEnds.at(i)));
            execPrepared(query, m_path, what);
        }
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO actuals_commitment_hour (import_id, commitment_position, currency, "
                                     "hour, status, effective_cost) VALUES (?, ?, ?, ?, ?, ?)"));
        for (const engine::CommitmentHourCost &h : summary.commitmentHours) {
            query.bindValue(0, id);
            query.bindValue(1, qlonglong(h.commitment));
            query.bindValue(2, currencies.at(h.currency));
            query.bindValue(3, qlonglong(h.hour));
            query.bindValue(4, statusName(h.status));
            query.bindValue(5, storedMoney(h.effectiveCost, m_path, "actuals_commitment_hour"));
            execPrepared(query, m_path, what);
        }
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO actuals_commitment_scope (import_id, commitment_position, currency, "
                                     "service, region) VALUES (?, ?, ?, ?, ?)"));
        for (const engine::CommitmentScope &s : summary.scopes) {
            query.bindValue(0, id);
            query.bindValue(1, qlonglong(s.commitment));
            query.bindValue(2, currencies.at(s.currency));
            query.bindValue(3, text(s.service));
            query.bindValue(4, text(s.region));
            execPrepared(query, m_path, what);
        }
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO actuals_on_demand (import_id, currency, service, region, first_hour, "
                                     "last_hour, effective_cost) VALUES (?, ?, ?, ?, ?, ?, ?)"));
        for (const engine::OnDemandCost &o : summary.onDemand) {
            query.bindValue(0, id);
            query.bindValue(1, currencies.at(o.currency));
            query.bindValue(2, text(o.service));
            query.bindValue(3, text(o.region));
            query.bindValue(4, qlonglong(o.firstHour));
            query.bindValue(5, qlonglong(o.lastHour));
            query.bindValue(6, storedMoney(o.effectiveCost, m_path, "actuals_on_demand"));
            execPrepared(query, m_path, what);
        }
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO actuals_day (import_id, currency, day, effective_cost, billed_cost, "
                                     "row_count, consumed_hours) VALUES (?, ?, ?, ?, ?, ?, ?)"));
        for (const engine::DayCost &d : summary.days) {
            query.bindValue(0, id);
            query.bindValue(1, currencies.at(d.currency));
            query.bindValue(2, qlonglong(d.day));
            query.bindValue(3, storedMoney(d.effectiveCost, m_path, "actuals_day"));
            query.bindValue(4, storedMoney(d.billedCost, m_path, "actuals_day"));
            query.bindValue(5, qlonglong(d.rows));
            query.bindValue(6, storedMoney(d.consumedHours, m_path, "actuals_day"));
            execPrepared(query, m_path, what);
        }
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO actuals_commitment_rate (import_id, commitment_position, currency, "
                                     "used_effective_cost, used_list_cost) VALUES (?, ?, ?, ?, ?)"));
        for (const engine::CommitmentRate &r : summary.rates) {
            query.bindValue(0, id);
            query.bindValue(1, qlonglong(r.commitment));
            query.bindValue(2, currencies.at(r.currency));
            query.bindValue(3, storedMoney(r.usedEffectiveCost, m_path, "actuals_commitment_rate"));
            query.bindValue(4, storedMoney(r.usedListCost, m_path, "actuals_commitment_rate"));
            execPrepared(query, m_path, what);
        }
    }
    return id;
}

bool ActualsTables::deleteImport(qint64 importId) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM actuals_import WHERE id = ?"));
    query.bindValue(0, importId);
    execPrepared(query, m_path, QStringLiteral("cannot remove actuals import %1").arg(importId));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
