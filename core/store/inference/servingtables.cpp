#include "servingtables.h"

#include "engine/inference/workload.h"
#include "store/common/jsonsupport.h"
#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"

#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlQuery>

namespace headroom::store {

namespace {

const QString kAssumptionsKey = QStringLiteral("serving_assumptions");
const QString kVariantsKey = QStringLiteral("kv_variants");
constexpr size_t kMaxKvVariants = 64;

const QStringList kAssumptionKeys = {
    QStringLiteral("memory_utilization"), QStringLiteral("reserve_bytes"),
    QStringLiteral("block_size"), QStringLiteral("prefill_efficiency"),
    QStringLiteral("decode_bandwidth_efficiency"), QStringLiteral("decode_compute_efficiency"),
    QStringLiteral("planned_headroom"), QStringLiteral("in_flight_quantile"),
    QStringLiteral("queueing_allowance_ms"), QStringLiteral("kv_residency"),
    QStringLiteral("max_num_batched_tokens"), QStringLiteral("max_num_seqs"),
    QStringLiteral("chunked_prefill"), QStringLiteral("prefix_caching"),
    QStringLiteral("request_overhead_ms"), QStringLiteral("reserve_mode"), QStringLiteral("reserve_overrides")};
const QStringList kOverrideKeys = {QStringLiteral("model"), QStringLiteral("gpu"), QStringLiteral("tp"),
                                   QStringLiteral("reserve_bytes"), QStringLiteral("source")};

QString variantSource(const QString &source, qsizetype index)
{
    return QStringLiteral("%1, line %2").arg(source).arg(index + 1);
}

} // namespace

QJsonObject servingAssumptionsToJson(const engine::ServingAssumptions &a)
{
    QJsonArray overrides;
    for (const engine::ReserveOverride &o : a.reserveOverrides)
        overrides.append(QJsonObject{{QStringLiteral("model"), QString::fromStdString(o.modelId)},
                                     {QStringLiteral("gpu"), QString::fromStdString(o.gpuId)},
                                     {QStringLiteral("tp"), o.tp},
                                     {QStringLiteral("reserve_bytes"), qint64(o.reserveBytes)},
                                     {QStringLiteral("source"), QString::fromStdString(o.source)}});
    return QJsonObject{
        {QStringLiteral("reserve_overrides"), overrides},
        {QStringLiteral("memory_utilization"), a.memoryUtilization},
        {QStringLiteral("reserve_bytes"), qint64(a.reserveBytes)},
        {QStringLiteral("block_size"), a.blockSize},
        {QStringLiteral("prefill_efficiency"), a.prefillEfficiency},
        {QStringLiteral("decode_bandwidth_efficiency"), a.decodeBandwidthEfficiency},
        {QStringLiteral("decode_compute_efficiency"), a.decodeComputeEfficiency},
        {QStringLiteral("planned_headroom"), a.plannedHeadroom},
        {QStringLiteral("in_flight_quantile"), a.inFlightQuantile},
        {QStringLiteral("queueing_allowance_ms"), a.queueingAllowanceMs},
        {QStringLiteral("kv_residency"), QString::fromUtf8(engine::toString(a.residency).data())},
        {QStringLiteral("max_num_batched_tokens"), qint64(a.maxNumBatchedTokens)},
        {QStringLiteral("max_num_seqs"), a.maxNumSeqs},
        {QStringLiteral("chunked_prefill"), a.chunkedPrefill},
        {QStringLiteral("prefix_caching"), a.prefixCaching},
        {QStringLiteral("request_overhead_ms"), a.requestOverheadMs},
        {QStringLiteral("reserve_mode"), QString::fromUtf8(engine::toString(a.reserveMode).data())},
    };
}

engine::ServingAssumptions servingAssumptionsFromJson(const QJsonObject &object, const QString &source)
{
    const JsonFieldReader in(object, source, QStringLiteral("serving assumptions"));
    in.checkKeys(kAssumptionKeys, {});
    const engine::ServingAssumptions d;
    engine::ServingAssumptions a;
    a.memoryUtilization = in.number(QStringLiteral("memory_utilization"), d.memoryUtilization);
    a.reserveBytes = in.integer64(QStringLiteral("reserve_bytes"), d.reserveBytes);
    a.blockSize = in.integer(QStringLiteral("block_size"), d.blockSize);
    a.prefillEfficiency = in.number(QStringLiteral("prefill_efficiency"), d.prefillEfficiency);
    a.decodeBandwidthEfficiency = in.number(QStringLiteral("decode_bandwidth_efficiency"), d.decodeBandwidthEfficiency);
    a.decodeComputeEfficiency = in.number(QStringLiteral("decode_compute_efficiency"), d.decodeComputeEfficiency);
    a.plannedHeadroom = in.number(QStringLiteral("planned_headroom"), d.plannedHeadroom);
    a.inFlightQuantile = in.number(QStringLiteral("in_flight_quantile"), d.inFlightQuantile);
    a.queueingAllowanceMs = in.number(QStringLiteral("queueing_allowance_ms"), d.queueingAllowanceMs);
    a.residency = in.choice(QStringLiteral("kv_residency"), d.residency, engine::parseKvResidency,
                            QStringLiteral("request, session"));
    a.maxNumBatchedTokens = in.integer64(QStringLiteral("max_num_batched_tokens"), d.maxNumBatchedTokens);
    a.maxNumSeqs = in.integer(QStringLiteral("max_num_seqs"), d.maxNumSeqs);
    a.chunkedPrefill = in.boolean(QStringLiteral("chunked_prefill"), d.chunkedPrefill);
    a.prefixCaching = in.boolean(QStringLiteral("prefix_caching"), d.prefixCaching);
    a.requestOverheadMs = in.number(QStringLiteral("request_overhead_ms"), d.requestOverheadMs);
    a.reserveMode = in.choice(QStringLiteral("reserve_mode"), d.reserveMode, engine::parseReserveMode,
                              QStringLiteral("flat, vllm_profile"));
    if (in.has(QStringLiteral("reserve_overrides"))) {
        const QJsonValue list = in.value(QStringLiteral("reserve_overrides"));
        if (!list.isArray())
            in.failField(QStringLiteral("reserve_overrides"), QStringLiteral("expected a list, got ") + jsonTypeName(list));
        if (size_t(list.toArray().size()) > engine::kMaxReserveOverrides)
            in.failField(QStringLiteral("reserve_overrides"),
                         QStringLiteral("at most %1 deployments (got %2)").arg(engine::kMaxReserveOverrides).arg(list.toArray().size()));
        qsizetype index = 0;
        for (const QJsonValue &item : list.toArray()) {
            ++index;
            if (!item.isObject())
                in.failField(QStringLiteral("reserve_overrides"),
                             QStringLiteral("entry %1: expected an object, got %2").arg(index).arg(jsonTypeName(item)));
            const QJsonObject entry = item.toObject();
            const JsonFieldReader o(entry, source, QStringLiteral("reserve override %1").arg(index));
            o.checkKeys(kOverrideKeys, {QStringLiteral("model"), QStringLiteral("gpu"), QStringLiteral("tp"),
                                        QStringLiteral("reserve_bytes")});
            engine::ReserveOverride r;
            r.modelId = o.string(QStringLiteral("model"));
            r.gpuId = o.string(QStringLiteral("gpu"));
            r.tp = o.integer(QStringLiteral("tp"), 1);
            r.reserveBytes = o.integer64(QStringLiteral("reserve_bytes"));
            r.source = o.string(QStringLiteral("source"));
            a.reserveOverrides.push_back(std::move(r));
        }
    }
    in.checkProblems(engine::validate(a));
    return a;
}

engine::ServingAssumptions mergeServingAssumptions(const engine::ServingAssumptions &current,
                                                   const engine::ServingAssumptions &from,
                                                   const engine::ServingAssumptions &to)
{
    const QJsonObject before = servingAssumptionsToJson(from);
    const QJsonObject after = servingAssumptionsToJson(to);
    QJsonObject merged = servingAssumptionsToJson(current);
    for (const QString &key : kAssumptionKeys)
        if (after.value(key) != before.value(key))
            merged.insert(key, after.value(key));
    return servingAssumptionsFromJson(merged, QStringLiteral("Serving assumptions"));
}

QJsonArray kvVariantsToJson(const std::vector<engine::KvVariant> &variants)
{
    QJsonArray array;
    for (const engine::KvVariant &v : variants)
        array.append(QJsonObject{{QStringLiteral("model"), QString::fromStdString(v.modelId)},
                                 {QStringLiteral("gpu"), QString::fromStdString(v.gpuId)},
                                 {QStringLiteral("weights"), QString::fromUtf8(engine::toString(v.weights).data())},
                                 {QStringLiteral("kv_dtype"), QString::fromUtf8(engine::toString(v.kv).data())},
                                 {QStringLiteral("tp"), v.tp}});
    return array;
}

std::vector<engine::KvVariant> kvVariantsFromJson(const QJsonArray &array, const QString &source)
{
    std::vector<engine::KvVariant> variants;
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isObject())
            throw StoreError(QStringLiteral("%1: expected an object, got %2")
                                 .arg(variantSource(source, i), jsonTypeName(array.at(i))));
        const QJsonObject object = array.at(i).toObject();
        const JsonFieldReader in(object, variantSource(source, i), QStringLiteral("KV variant"));
        in.checkKeys({QStringLiteral("model"), QStringLiteral("gpu"), QStringLiteral("weights"),
                      QStringLiteral("kv_dtype"), QStringLiteral("tp")},
                     {QStringLiteral("model"), QStringLiteral("gpu")});
        engine::KvVariant v;
        v.modelId = in.string(QStringLiteral("model"));
        v.gpuId = in.string(QStringLiteral("gpu"));
        v.weights = in.choice(QStringLiteral("weights"), v.weights, engine::parseWeightPrecision,
                              QStringLiteral("bf16, fp16, fp8, int8, int4"));
        v.kv = in.choice(QStringLiteral("kv_dtype"), v.kv, engine::parseKvPrecision, QStringLiteral("bf16, fp8"));
        v.tp = in.integer(QStringLiteral("tp"), v.tp);
        in.checkProblems(validate(std::vector<engine::KvVariant>{v}));
        variants.push_back(v);
    }
    if (variants.size() > kMaxKvVariants)
        throw StoreError(QStringLiteral("%1: %2 KV variants, at most %3")
                             .arg(source).arg(variants.size()).arg(kMaxKvVariants));
    return variants;
}

std::vector<engine::FieldProblem> validate(const std::vector<engine::KvVariant> &variants)
{
    std::vector<engine::FieldProblem> problems;
    if (variants.size() > kMaxKvVariants)
        problems.push_back({"variants", "at most " + std::to_string(kMaxKvVariants) + " KV variants (got "
                                            + std::to_string(variants.size()) + ")"});
    for (const engine::KvVariant &v : variants) {
        if (v.modelId.empty())
            problems.push_back({"model", "model must name a catalog model"});
        if (v.gpuId.empty())
            problems.push_back({"gpu", "gpu must name a catalog GPU"});
        if (v.tp < 1 || v.tp > engine::kMaxTp)
            problems.push_back({"tp", "tp must be between 1 and " + std::to_string(engine::kMaxTp) + " (got "
                                          + std::to_string(v.tp) + ")"});
    }
    return problems;
}

ServingTables::ServingTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName)
    , m_path(path)
{
}

std::optional<QString> ServingTables::value(const QString &key) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT value FROM workspace_info WHERE key = :key"));
    query.bindValue(QStringLiteral(":key"), key);
    execPrepared(query, m_path, QStringLiteral("cannot read the %1").arg(key));
    if (!query.next())
        return std::nullopt;
    return query.value(0).toString();
}

void ServingTables::put(const QString &key, const QString &value) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(upsertSql(QStringLiteral("workspace_info"), {QStringLiteral("key"), QStringLiteral("value")},
                            {QStringLiteral("key")}));
    query.bindValue(QStringLiteral(":key"), key);
    query.bindValue(QStringLiteral(":value"), value);
    execPrepared(query, m_path, QStringLiteral("cannot store the %1").arg(key));
}

engine::ServingAssumptions ServingTables::assumptions() const
{
    const auto text = value(kAssumptionsKey);
    if (!text)
        return {};
    const QString source = QStringLiteral("%1: workspace_info \"%2\"").arg(m_path, kAssumptionsKey);
    const QJsonDocument document = parseJsonDocument(text->toUtf8(), source);
    if (!document.isObject())
        throw StoreError(QStringLiteral("%1: expected a JSON object").arg(source));
    return servingAssumptionsFromJson(document.object(), source);
}

void ServingTables::putAssumptions(const engine::ServingAssumptions &assumptions) const
{
    put(kAssumptionsKey,
        QString::fromUtf8(QJsonDocument(servingAssumptionsToJson(assumptions)).toJson(QJsonDocument::Compact)));
}

std::optional<std::vector<engine::KvVariant>> ServingTables::kvVariants() const
{
    const auto text = value(kVariantsKey);
    if (!text)
        return std::nullopt;
    const QString source = QStringLiteral("%1: workspace_info \"%2\"").arg(m_path, kVariantsKey);
    const QJsonDocument document = parseJsonDocument(text->toUtf8(), source);
    if (!document.isArray())
        throw StoreError(QStringLiteral("%1: expected a JSON array").arg(source));
    return kvVariantsFromJson(document.array(), source);
}

void ServingTables::putKvVariants(const std::vector<engine::KvVariant> &variants) const
{
    put(kVariantsKey, QString::fromUtf8(QJsonDocument(kvVariantsToJson(variants)).toJson(QJsonDocument::Compact)));
}

} // namespace headroom::store
