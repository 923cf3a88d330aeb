#include "catalogtables.h"

#include "store/common/sqlsupport.h"
#include "catalogjson.h"
#include "catalogkeys.h"
#include "engine/catalog/layer_types.h"
#include "engine/common/errors.h"
#include "store/common/storeerror.h"

#include <QSqlDatabase>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QStringList>

namespace headroom::store {

namespace {

QString selectSql(const QString &table, const QStringList &columns, bool byId)
{
    QString sql = QStringLiteral("SELECT ") + columns.join(QStringLiteral(", "))
        + QStringLiteral(" FROM ") + table;
    sql += byId ? QStringLiteral(" WHERE id = :id") : QStringLiteral(" ORDER BY id");
    return sql;
}

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

engine::GpuSpec gpuFromRow(const QSqlQuery &query, const QString &path)
{
    engine::GpuSpec gpu;
    int column = 0;
    gpu.id = query.value(column++).toString().toStdString();
    gpu.name = query.value(column++).toString().toStdString();
    gpu.vendor = query.value(column++).toString().toStdString();
    gpu.draProductName = query.value(column++).toString().toStdString();
    gpu.memoryBytes = query.value(column++).toLongLong();
    gpu.nominalMemoryGB = query.value(column++).toDouble();
    gpu.hbmBandwidthGBps = query.value(column++).toDouble();
    gpu.bf16Tflops = query.value(column++).toDouble();
    gpu.fp8Tflops = query.value(column++).toDouble();
    gpu.fp4Tflops = query.value(column++).toDouble();
    gpu.nvlinkGBps = query.value(column++).toDouble();
    gpu.pcieGBps = query.value(column++).toDouble();
    gpu.tdpWatts = query.value(column++).toDouble();
    gpu.gpusPerNode = query.value(column++).toInt();
    gpu.source = query.value(column++).toString().toStdString();
    const QByteArray efficiency = query.value(column++).toString().toUtf8();
    if (!efficiency.isEmpty())
        gpu.efficiency = efficiencyFromJson(QJsonDocument::fromJson(efficiency).object(),
                                            QStringLiteral("%1: GPU \"%2\"").arg(path, text(gpu.id)));
    const QByteArray calibrations = query.value(column++).toString().toUtf8();
    if (!calibrations.isEmpty())
        gpu.calibrations = calibrationsFromJson(QJsonDocument::fromJson(calibrations).array(),
                                                QStringLiteral("%1: GPU \"%2\"").arg(path, text(gpu.id)));
    return gpu;
}

engine::ModelSpec modelFromRow(const QSqlQuery &query, const QString &path)
{
    engine::ModelSpec model;
    int column = 0;
    model.id = query.value(column++).toString().toStdString();
    model.name = query.value(column++).toString().toStdString();
    model.paramsTotal = query.value(column++).toDouble();
    model.paramsActive = query.value(column++).toDouble();
    model.layers = query.value(column++).toInt();
    model.hiddenSize = query.value(column++).toInt();
    model.attentionHeads = query.value(column++).toInt();
    model.kvHeads = query.value(column++).toInt();
    model.headDim = query.value(column++).toInt();
    const QString attention = query.value(column++).toString();
    const auto kind = engine::parseAttentionKind(attention.toStdString());
    if (!kind)
        throw StoreError(QStringLiteral("%1: model \"%2\" has an unknown attention kind \"%3\"")
                             .arg(path, text(model.id), attention));
    model.attention = *kind;
    model.kvLoraRank = query.value(column++).toInt();
    model.qkRopeHeadDim = query.value(column++).toInt();
    model.slidingWindow = query.value(column++).toInt();
    model.slidingLayers = query.value(column++).toInt();
    model.maxContext = query.value(column++).toLongLong();
    model.source = query.value(column++).toString().toStdString();
    model.vocabSize = query.value(column++).toLongLong();
    model.tiedEmbeddings = query.value(column++).toInt() != 0;
    model.experts = query.value(column++).toInt();
    model.expertsPerToken = query.value(column++).toInt();
    const QString layerTypes = query.value(column++).toString();
    try {
        model.layerTypes = engine::parseLayerTypes(layerTypes.toStdString());
    } catch (const engine::InputError &e) {
        throw StoreError(QStringLiteral("%1: model \"%2\": %3").arg(path, text(model.id), QString::fromUtf8(e.what())));
    }
    model.attentionChunk = query.value(column++).toInt();
    model.sinkTokens = query.value(column++).toInt();
    model.stateBytesPerLayer = query.value(column++).toLongLong();
    return model;
}

} // namespace

CatalogTables::CatalogTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

std::vector<engine::GpuSpec> CatalogTables::gpus() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(QStringLiteral("gpu"), gpuKeys(), false));
    execPrepared(query, m_path, QStringLiteral("cannot read GPUs"));
    std::vector<engine::GpuSpec> result;
    while (query.next())
        result.push_back(gpuFromRow(query, m_path));
    return result;
}

std::optional<engine::GpuSpec> CatalogTables::gpu(const QString &id) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(QStringLiteral("gpu"), gpuKeys(), true));
    query.bindValue(QStringLiteral(":id"), id);
    execPrepared(query, m_path, QStringLiteral("cannot read GPU \"%1\"").arg(id));
    if (!query.next())
        return std::nullopt;
    return gpuFromRow(query, m_path);
}

std::vector<engine::ModelSpec> CatalogTables::models() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(QStringLiteral("model"), modelKeys(), false));
    execPrepared(query, m_path, QStringLiteral("cannot read models"));
    std::vector<engine::ModelSpec> result;
    while (query.next())
        result.push_back(modelFromRow(query, m_path));
    return result;
}

std::optional<engine::ModelSpec> CatalogTables::model(const QString &id) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    query.prepare(selectSql(QStringLiteral("model"), modelKeys(), true));
    query.bindValue(QStringLiteral(":id"), id);
    execPrepared(query, m_path, QStringLiteral("cannot read model \"%1\"").arg(id));
    if (!query.next())
        return std::nullopt;
    return modelFromRow(query, m_path);
}

void CatalogTables::upsertGpu(const engine::GpuSpec &gpu) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(upsertSql(QStringLiteral("gpu"), gpuKeys(), {QStringLiteral("id")}));
    query.bindValue(QStringLiteral(":id"), text(gpu.id));
    query.bindValue(QStringLiteral(":name"), text(gpu.name));
    query.bindValue(QStringLiteral(":vendor"), text(gpu.vendor));
    query.bindValue(QStringLiteral(":dra_product_name"), text(gpu.draProductName));
    query.bindValue(QStringLiteral(":memory_bytes"), qlonglong(gpu.memoryBytes));
    query.bindValue(QStringLiteral(":memory_nominal_gb"), gpu.nominalMemoryGB);
    query.bindValue(QStringLiteral(":hbm_bandwidth_gbps"), gpu.hbmBandwidthGBps);
    query.bindValue(QStringLiteral(":bf16_tflops"), gpu.bf16Tflops);
    query.bindValue(QStringLiteral(":fp8_tflops"), gpu.fp8Tflops);
    query.bindValue(QStringLiteral(":fp4_tflops"), gpu.fp4Tflops);
    query.bindValue(QStringLiteral(":nvlink_gbps"), gpu.nvlinkGBps);
    query.bindValue(QStringLiteral(":pcie_gbps"), gpu.pcieGBps);
    query.bindValue(QStringLiteral(":tdp_w"), gpu.tdpWatts);
    query.bindValue(QStringLiteral(":gpus_per_node"), gpu.gpusPerNode);
    query.bindValue(QStringLiteral(":source"), text(gpu.source));
    query.bindValue(QStringLiteral(":efficiency"),
                    gpu.efficiency ? QString::fromUtf8(QJsonDocument(efficiencyToJson(*gpu.efficiency)).toJson(QJsonDocument::Compact))
                                   : QStringLiteral(""));
    query.bindValue(QStringLiteral(":calibrations"),
                    gpu.calibrations.empty()
                        ? QStringLiteral("")
                        : QString::fromUtf8(QJsonDocument(calibrationsToJson(gpu.calibrations)).toJson(QJsonDocument::Compact)));
    execPrepared(query, m_path, QStringLiteral("cannot save GPU \"%1\"").arg(text(gpu.id)));
}

void CatalogTables::upsertModel(const engine::ModelSpec &model) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(upsertSql(QStringLiteral("model"), modelKeys(), {QStringLiteral("id")}));
    query.bindValue(QStringLiteral(":id"), text(model.id));
    query.bindValue(QStringLiteral(":name"), text(model.name));
    query.bindValue(QStringLiteral(":params_total"), model.paramsTotal);
    query.bindValue(QStringLiteral(":params_active"), model.paramsActive);
    query.bindValue(QStringLiteral(":layers"), model.layers);
    query.bindValue(QStringLiteral(":hidden_size"), model.hiddenSize);
    query.bindValue(QStringLiteral(":attention_heads"), model.attentionHeads);
    query.bindValue(QStringLiteral(":kv_heads"), model.kvHeads);
    query.bindValue(QStringLiteral(":head_dim"), model.headDim);
    const std::string_view attention = engine::toString(model.attention);
    query.bindValue(QStringLiteral(":attention"),
                    QString::fromLatin1(attention.data(), qsizetype(attention.size())));
    query.bindValue(QStringLiteral(":kv_lora_rank"), model.kvLoraRank);
    query.bindValue(QStringLiteral(":qk_rope_head_dim"), model.qkRopeHeadDim);
    query.bindValue(QStringLiteral(":sliding_window"), model.slidingWindow);
    query.bindValue(QStringLiteral(":sliding_layers"), model.slidingLayers);
    query.bindValue(QStringLiteral(":max_context"), qlonglong(model.maxContext));
    query.bindValue(QStringLiteral(":source"), text(model.source));
    query.bindValue(QStringLiteral(":vocab_size"), qlonglong(model.vocabSize));
    query.bindValue(QStringLiteral(":tied_embeddings"), model.tiedEmbeddings ? 1 : 0);
    query.bindValue(QStringLiteral(":experts"), model.experts);
    query.bindValue(QStringLiteral(":experts_per_token"), model.expertsPerToken);
    query.bindValue(QStringLiteral(":layer_types"), QString::fromStdString(engine::layerTypesText(model.layerTypes)));
    query.bindValue(QStringLiteral(":attention_chunk"), model.attentionChunk);
    query.bindValue(QStringLiteral(":sink_tokens"), model.sinkTokens);
    query.bindValue(QStringLiteral(":state_bytes_per_layer"), qlonglong(model.stateBytesPerLayer));
    execPrepared(query, m_path, QStringLiteral("cannot save model \"%1\"").arg(text(model.id)));
}

bool CatalogTables::deleteGpu(const QString &id) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM gpu WHERE id = :id"));
    query.bindValue(QStringLiteral(":id"), id);
    execPrepared(query, m_path, QStringLiteral("cannot remove GPU \"%1\"").arg(id));
    return query.numRowsAffected() > 0;
}

bool CatalogTables::deleteModel(const QString &id) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("DELETE FROM model WHERE id = :id"));
    query.bindValue(QStringLiteral(":id"), id);
    execPrepared(query, m_path, QStringLiteral("cannot remove model \"%1\"").arg(id));
    return query.numRowsAffected() > 0;
}

} // namespace headroom::store
