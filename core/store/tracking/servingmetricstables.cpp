#include "servingmetricstables.h"

#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"

#include "engine/common/calendar.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>
#include <QVariant>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace headroom::store {

namespace {

QVariant nullable(double value)
{
    return std::isnan(value) ? QVariant(QMetaType::fromType<double>()) : QVariant(value);
}

double readNullable(const QVariant &value)
{
    return value.isNull() ? std::numeric_limits<double>::quiet_NaN() : value.toDouble();
}

const char kHourColumns[] = "deployment, instance, hour, gpus, gpu_util_mean, gpu_util_peak, fb_used_mib_mean, "
                            "kv_cache_mean, running_mean, waiting_mean, waiting_peak, requests, request_seconds, "
                            "generation_tokens, generation_seconds, prompt_tokens, prompt_seconds, ttft_buckets, "
                            "e2e_buckets";

// "0.1=12;0.25=40;+Inf=41": each bound and its cumulative count, written to round-trip.
QString bucketsText(const engine::LatencyHistogram &histogram)
{
    QStringList parts;
    for (const auto &[le, count] : histogram.buckets)
        parts << (std::isinf(le) ? QStringLiteral("+Inf") : QString::number(le, 'g', 17)) + QLatin1Char('=')
                + QString::number(count, 'g', 17);
    // Never a null string: the column is NOT NULL, '' meaning no histogram.
    return parts.isEmpty() ? QStringLiteral("") : parts.join(QLatin1Char(';'));
}

engine::LatencyHistogram parseBuckets(const QString &text, const QString &path, const QString &column)
{
    engine::LatencyHistogram histogram;
    if (text.isEmpty())
        return histogram;
    for (const QString &part : text.split(QLatin1Char(';'))) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        bool okBound = false;
        bool okCount = false;
        const QString bound = part.left(eq);
        const double le = bound == QLatin1String("+Inf") ? std::numeric_limits<double>::infinity() : bound.toDouble(&okBound);
        const double count = part.mid(eq + 1).toDouble(&okCount);
        if (eq < 0 || !(okBound || bound == QLatin1String("+Inf")) || !okCount || !(le > 0.0) || !(count >= 0.0)
            || (!histogram.buckets.empty() && le <= histogram.buckets.back().first))
            throw StoreError(QStringLiteral("%1: serving_metrics_hour.%2 holds '%3', not le=count pairs by rising le")
                                 .arg(path, column, text.left(80)));
        histogram.buckets.emplace_back(le, count);
    }
    return histogram;
}

} // namespace

ServingMetricsTables::ServingMetricsTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

std::vector<ServingMetricsImport> ServingMetricsTables::imports() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT i.id, i.file_name, i.imported_at, i.row_count, i.ignored_rows, "
                                 "(SELECT COUNT(*) FROM serving_metrics_hour h WHERE h.import_id = i.id) "
                                 "FROM serving_metrics_import i ORDER BY i.id DESC"));
    execPrepared(query, m_path, QStringLiteral("cannot read the serving metrics imports"));
    std::vector<ServingMetricsImport> result;
    while (query.next()) {
        ServingMetricsImport entry;
        entry.id = query.value(0).toLongLong();
        entry.fileName = query.value(1).toString();
        entry.importedAt = query.value(2).toString();
        entry.rowCount = query.value(3).toLongLong();
        entry.ignoredRows = query.value(4).toLongLong();
        entry.hourCount = query.value(5).toLongLong();
        result.push_back(entry);
    }
    return result;
}

engine::ServingHours ServingMetricsTables::hours() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    // Oldest import first: a newer import's replica-hour replaces an older one's.
    query.prepare(QStringLiteral("SELECT %1 FROM serving_metrics_hour ORDER BY import_id")
                      .arg(QLatin1String(kHourColumns)));
    execPrepared(query, m_path, QStringLiteral("cannot read the serving metrics"));
    std::map<std::tuple<std::string, std::string, int64_t>, engine::ServingHour> byKey;
    while (query.next()) {
        engine::ServingHour h;
        h.deployment = query.value(0).toString().toStdString();
        h.instance = query.value(1).toString().toStdString();
        h.hour = query.value(2).toLongLong();
        h.gpus = query.value(3).toInt();
        h.gpuUtilMean = readNullable(query.value(4));
        h.gpuUtilPeak = readNullable(query.value(5));
        h.fbUsedMibMean = readNullable(query.value(6));
        h.kvCacheMean = readNullable(query.value(7));
        h.runningMean = readNullable(query.value(8));
        h.waitingMean = readNullable(query.value(9));
        h.waitingPeak = readNullable(query.value(10));
        h.requests = {query.value(11).toDouble(), query.value(12).toDouble()};
        h.generationTokens = {query.value(13).toDouble(), query.value(14).toDouble()};
        h.promptTokens = {query.value(15).toDouble(), query.value(16).toDouble()};
        h.ttft = parseBuckets(query.value(17).toString(), m_path, QStringLiteral("ttft_buckets"));
        h.e2e = parseBuckets(query.value(18).toString(), m_path, QStringLiteral("e2e_buckets"));
        byKey[{h.deployment, h.instance, h.hour}] = std::move(h);
    }
    engine::ServingHours result;
    result.hours.reserve(byKey.size());
    for (auto &[key, h] : byKey)
        result.hours.push_back(std::move(h));
    return result;
}

qint64 ServingMetricsTables::replaceImport(const QString &fileName, const QString &importedAt, qint64 rowCount,
                                           qint64 ignoredRows, const engine::ServingHours &hours) const
{
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    const QString what = QStringLiteral("cannot import the serving metrics of \"%1\"").arg(fileName);
    qint64 id = 1;
    {
        QSqlQuery query(db);
        query.setForwardOnly(true);
        query.prepare(QStringLiteral("SELECT COALESCE(MAX(id), 0) + 1 FROM serving_metrics_import"));
        execPrepared(query, m_path, what);
        if (query.next())
            id = query.value(0).toLongLong();
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("DELETE FROM serving_metrics_import WHERE file_name = ?"));
        query.bindValue(0, fileName);
        execPrepared(query, m_path, what);
    }
    {
        QSqlQuery query(db);
        query.prepare(QStringLiteral("INSERT INTO serving_metrics_import (id, file_name, imported_at, row_count, "
                                     "ignored_rows) VALUES (?, ?, ?, ?, ?)"));
        query.bindValue(0, id);
        query.bindValue(1, fileName);
        query.bindValue(2, importedAt);
        query.bindValue(3, rowCount);
        query.bindValue(4, ignoredRows);
        execPrepared(query, m_path, what);
    }
    QSqlQuery query(db);
    query.prepare(QStringLiteral("INSERT INTO serving_metrics_hour (import_id, %1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                 "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                      .arg(QLatin1String(kHourColumns)));
    for (const engine::ServingHour &h : hours.hours) {
        int i = 0;
        query.bindValue(i++, id);
        query.bindValue(i++, QString::fromStdString(h.deployment));
        query.bindValue(i++, QString::fromStdString(h.instance));
        query.bindValue(i++, qlonglong(h.hour));
        query.bindValue(i++, h.gpus);
        for (double v : {h.gpuUtilMean, h.gpuUtilPeak, h.fbUsedMibMean, h.kvCacheMean, h.runningMean, h.waitingMean,
                         h.waitingPeak})
            query.bindValue(i++, nullable(v));
        for (const engine::CounterHour *c : {&h.requests, &h.generationTokens, &h.promptTokens}) {
            query.bindValue(i++, c->increase);
            query.bindValue(i++, c->seconds);
        }
        query.bindValue(i++, bucketsText(h.ttft));
        query.bindValue(i++, bucketsText(h.e2e));
        execPrepared(query, m_path, what);
    }
    return id;
}

bool ServingMetricsTables::deleteImport(qint64 importId) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM serving_metrics_import WHERE id = ?"));
    query.bindValue(0, importId);
    execPrepared(query, m_path, QStringLiteral("cannot remove serving metrics import %1").arg(importId));
    return query.numRowsAffected() > 0;
}

std::vector<engine::Optimization> ServingMetricsTables::optimizations() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT name, applied_on, note FROM serving_optimization ORDER BY applied_on, name"));
    execPrepared(query, m_path, QStringLiteral("cannot read the optimizations"));
    std::vector<engine::Optimization> result;
    while (query.next()) {
        engine::Optimization o;
        o.name = query.value(0).toString().toStdString();
        const auto date = engine::parseIsoDate(query.value(1).toString().toStdString());
        if (!date)
            throw StoreError(QStringLiteral("%1: optimization \"%2\" has the date '%3', not yyyy-mm-dd")
                                 .arg(m_path, query.value(0).toString(), query.value(1).toString()));
        o.day = engine::daysSinceEpoch(*date);
        o.note = query.value(2).toString().toStdString();
        result.push_back(std::move(o));
    }
    return result;
}

bool ServingMetricsTables::hasOptimization(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT COUNT(*) FROM serving_optimization WHERE name = ?"));
    query.bindValue(0, name);
    execPrepared(query, m_path, QStringLiteral("cannot read the optimizations"));
    return query.next() && query.value(0).toLongLong() > 0;
}

void ServingMetricsTables::insertOptimization(const engine::Optimization &optimization) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("INSERT INTO serving_optimization (name, applied_on, note) VALUES (?, ?, ?)"));
    query.bindValue(0, QString::fromStdString(optimization.name));
    query.bindValue(1, QString::fromStdString(engine::isoDate(engine::dateFromDays(optimization.day))));
    query.bindValue(2, QString::fromStdString(optimization.note));
    execPrepared(query, m_path, QStringLiteral("cannot add optimization \"%1\"").arg(QString::fromStdString(optimization.name)));
}

bool ServingMetricsTables::deleteOptimization(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM serving_optimization WHERE name = ?"));
    query.bindValue(0, name);
    execPrepared(query, m_path, QStringLiteral("cannot remove optimization \"%1\"").arg(name));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
