#include "workloadtables.h"

#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>
#include <QVariant>

namespace headroom::store {

namespace {

QString diurnalColumn(int hour)
{
    return QStringLiteral("d%1").arg(hour, 2, 10, QLatin1Char('0'));
}

// The columns of `workload` in the order rows are read.
const QStringList &workloadColumns()
{
    static const QStringList columns = [] {
        QStringList list = {
            QStringLiteral("name"),
            QStringLiteral("tenant"),
            QStringLiteral("model_id"),
            QStringLiteral("weights"),
            QStringLiteral("kv_dtype"),
            QStringLiteral("workload_class"),
            QStringLiteral("daily_active_users"),
            QStringLiteral("requests_per_user_per_day"),
            QStringLiteral("peak_sessions_per_user"),
        };
        for (int hour = 0; hour < 24; ++hour)
            list << diurnalColumn(hour);
        list << QStringLiteral("prompt_p50") << QStringLiteral("prompt_p95")
             << QStringLiteral("output_p50") << QStringLiteral("output_p95")
             << QStringLiteral("prefix_hit_rate") << QStringLiteral("shared_prefix_tokens")
             << QStringLiteral("ttft_p95_ms") << QStringLiteral("itl_p95_ms")
             << QStringLiteral("traffic_variance")
             << QStringLiteral("measured_goodput_tokens_per_s")
             << QStringLiteral("measured_max_streams") << QStringLiteral("isolation")
             << QStringLiteral("gpu_id") << QStringLiteral("tp") << QStringLiteral("goodput_source");
        return list;
    }();
    return columns;
}

QString selectSql(bool byName)
{
    QString sql = QStringLiteral("SELECT ") + workloadColumns().join(QStringLiteral(", "))
        + QStringLiteral(" FROM workload");
    sql += byName ? QStringLiteral(" WHERE name = :name") : QStringLiteral(" ORDER BY name");
    return sql;
}

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

QString text(std::string_view value)
{
    return QString::fromUtf8(value.data(), qsizetype(value.size()));
}

// Reads one row in the order of workloadColumns(); an enum text this build does not know is
// reported with the workload and column.
class RowReader {
public:
    RowReader(const QSqlQuery &query, const QString &path) : m_query(query), m_path(path) {}

    QVariant next() { return m_query.value(m_column++); }
    std::string string() { return next().toString().toStdString(); }
    double number() { return next().toDouble(); }

    template <typename Enum, typename Parse>
    Enum choice(const QString &column, Parse parse)
    {
        const QString value = next().toString();
        const std::optional<Enum> parsed = parse(value.toStdString());
        if (!parsed)
            throw StoreError(QStringLiteral("%1: workload \"%2\" holds an unknown %3 \"%4\"")
                                 .arg(m_path, m_query.value(0).toString(), column, value));
        return *parsed;
    }

private:
    const QSqlQuery &m_query;
    QString m_path;
    int m_column = 0;
};

engine::WorkloadProfile workloadFromRow(const QSqlQuery &query, const QString &path)
{
    RowReader in(query, path);
    engine::WorkloadProfile workload;
    workload.name = in.string();
    workload.tenant = in.string();
    workload.modelId = in.string();
    workload.weights = in.choice<engine::WeightPrecision>(QStringLiteral("weights"),
                                                          engine::parseWeightPrecision);
    workload.kv = in.choice<engine::KvPrecision>(QStringLiteral("kv_dtype"),
                                                 engine::parseKvPrecision);
    workload.workloadClass = in.choice<engine::WorkloadClass>(QStringLiteral("workload_class"),
                                                              engine::parseWorkloadClass);
    workload.dailyActiveUsers = in.number();
    workload.requestsPerUserPerDay = in.number();
    workload.peakSessionsPerUser = in.number();
    for (double &share : workload.diurnal)
        share = in.number();
    workload.promptTokens.p50 = in.number();
    workload.promptTokens.p95 = in.number();
    workload.outputTokens.p50 = in.number();
    workload.outputTokens.p95 = in.number();
    workload.prefixHitRate = in.number();
    workload.sharedPrefixTokens = in.next().toLongLong();
    workload.ttftP95Ms = in.number();
    workload.itlP95Ms = in.number();
    workload.trafficVariance = in.number();
    if (const QVariant goodput = in.next(); !goodput.isNull())
        workload.measuredGoodputTokensPerS = goodput.toDouble();
    if (const QVariant streams = in.next(); !streams.isNull())
        workload.measuredMaxStreams = streams.toLongLong();
    workload.isolation = in.choice<engine::Isolation>(QStringLiteral("isolation"),
                                                      engine::parseIsolation);
    workload.gpuId = in.string();
    workload.tp = in.next().toInt();
    workload.goodputSource = in.string();
    return workload;
}

} // namespace

WorkloadTables::WorkloadTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

std::vector<engine::WorkloadProfile> WorkloadTables::workloads() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(false));
    execPrepared(query, m_path, QStringLiteral("cannot read workloads"));
    std::vector<engine::WorkloadProfile> result;
    while (query.next())
        result.push_back(workloadFromRow(query, m_path));
    return result;
}

std::optional<engine::WorkloadProfile> WorkloadTables::workload(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(true));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot read workload \"%1\"").arg(name));
    if (!query.next())
        return std::nullopt;
    return workloadFromRow(query, m_path);
}

void WorkloadTables::upsertWorkload(const engine::WorkloadProfile &workload) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(upsertSql(QStringLiteral("workload"), workloadColumns(), {QStringLiteral("name")}));
    query.bindValue(QStringLiteral(":name"), text(workload.name));
    query.bindValue(QStringLiteral(":tenant"), text(workload.tenant));
    query.bindValue(QStringLiteral(":model_id"), text(workload.modelId));
    query.bindValue(QStringLiteral(":weights"), text(engine::toString(workload.weights)));
    query.bindValue(QStringLiteral(":kv_dtype"), text(engine::toString(workload.kv)));
    query.bindValue(QStringLiteral(":workload_class"),
                    text(engine::toString(workload.workloadClass)));
    query.bindValue(QStringLiteral(":daily_active_users"), workload.dailyActiveUsers);
    query.bindValue(QStringLiteral(":requests_per_user_per_day"), workload.requestsPerUserPerDay);
    query.bindValue(QStringLiteral(":peak_sessions_per_user"), workload.peakSessionsPerUser);
    for (int hour = 0; hour < 24; ++hour)
        query.bindValue(QLatin1Char(':') + diurnalColumn(hour), workload.diurnal[size_t(hour)]);
    query.bindValue(QStringLiteral(":prompt_p50"), workload.promptTokens.p50);
    query.bindValue(QStringLiteral(":prompt_p95"), workload.promptTokens.p95);
    query.bindValue(QStringLiteral(":output_p50"), workload.outputTokens.p50);
    query.bindValue(QStringLiteral(":output_p95"), workload.outputTokens.p95);
    query.bindValue(QStringLiteral(":prefix_hit_rate"), workload.prefixHitRate);
    query.bindValue(QStringLiteral(":shared_prefix_tokens"),
                    qlonglong(workload.sharedPrefixTokens));
    query.bindValue(QStringLiteral(":ttft_p95_ms"), workload.ttftP95Ms);
    query.bindValue(QStringLiteral(":itl_p95_ms"), workload.itlP95Ms);
    query.bindValue(QStringLiteral(":traffic_variance"), workload.trafficVariance);
    query.bindValue(QStringLiteral(":measured_goodput_tokens_per_s"),
                    workload.measuredGoodputTokensPerS
                        ? QVariant(*workload.measuredGoodputTokensPerS)
                        : QVariant(QMetaType::fromType<double>()));
    query.bindValue(QStringLiteral(":measured_max_streams"),
                    workload.measuredMaxStreams
                        ? QVariant(qlonglong(*workload.measuredMaxStreams))
                        : QVariant(QMetaType::fromType<qlonglong>()));
    query.bindValue(QStringLiteral(":isolation"), text(engine::toString(workload.isolation)));
    query.bindValue(QStringLiteral(":gpu_id"), text(workload.gpuId));
    query.bindValue(QStringLiteral(":tp"), workload.tp);
    query.bindValue(QStringLiteral(":goodput_source"), text(workload.goodputSource));
    execPrepared(query, m_path,
                 QStringLiteral("cannot save workload \"%1\"").arg(text(workload.name)));
}

bool WorkloadTables::deleteWorkload(const QString &name) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM workload WHERE name = :name"));
    query.bindValue(QStringLiteral(":name"), name);
    execPrepared(query, m_path, QStringLiteral("cannot remove workload \"%1\"").arg(name));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
