#include "catalogjson.h"

#include "catalogkeys.h"
#include "engine/catalog/layer_types.h"
#include "engine/common/errors.h"
#include "store/common/importlimits.h"
#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <cmath>
#include <limits>

namespace headroom::store {

namespace {

const QString kGpusKey = QStringLiteral("gpus");
const QString kModelsKey = QStringLiteral("models");

// Reads the fields of one catalog entry; every failure names source, entry and field.
class EntryReader {
public:
    EntryReader(const QString &source, const QString &array, qsizetype index,
                const QJsonObject &object)
        : m_object(object)
    {
        m_location = source + QStringLiteral(": ") + array + QLatin1Char('[')
            + QString::number(index) + QLatin1Char(']');
        const QJsonValue id = object.value(QStringLiteral("id"));
        if (id.isString())
            m_location += QStringLiteral(" (id ") + quotedValue(id.toString()) + QLatin1Char(')');
    }

    [[noreturn]] void fail(const QString &message) const
    {
        throw StoreError(m_location + QStringLiteral(": ") + message);
    }

    [[noreturn]] void failField(const QString &field, const QString &message) const
    {
        fail(QStringLiteral("field ") + quoted(field) + QStringLiteral(": ") + message);
    }

    bool has(const QString &key) const { return m_object.contains(key); }
    const QJsonObject &object() const { return m_object; }
    const QString &location() const { return m_location; }

    void checkKeys(const QStringList &known) const
    {
        QStringList unknown;
        for (auto it = m_object.begin(); it != m_object.end(); ++it) {
            if (!known.contains(it.key()))
                unknown << quotedValue(it.key());
        }
        if (unknown.size() == 1)
            fail(QStringLiteral("unknown field %1 (fields are: %2)")
                     .arg(unknown.first(), known.join(QStringLiteral(", "))));
        if (unknown.size() > 1)
            fail(QStringLiteral("unknown fields %1 (fields are: %2)")
                     .arg(unknown.join(QStringLiteral(", ")), known.join(QStringLiteral(", "))));
        for (const QString &key : known) {
            if (!m_object.contains(key) && !optionalCatalogKeys().contains(key))
                failField(key, QStringLiteral("missing"));
        }
    }

    std::string string(const QString &key) const
    {
        const QJsonValue value = m_object.value(key);
        if (!value.isString())
            failField(key, QStringLiteral("expected a string, got ") + jsonTypeName(value));
        const QString text = value.toString();
        if (text.size() > kMaxJsonStringChars)
            failField(key, jsonStringTooLongMessage(text));
        return text.toStdString();
    }

    double number(const QString &key) const
    {
        const QJsonValue value = m_object.value(key);
        if (!value.isDouble())
            failField(key, QStringLiteral("expected a number, got ") + jsonTypeName(value));
        return value.toDouble();
    }

    int64_t integer64(const QString &key) const
    {
        const double approx = number(key);
        const QJsonValue value = m_object.value(key);
        if (approx != std::trunc(approx))
            failField(key, QStringLiteral("expected a whole number, got %1").arg(approx));
        // toInteger() returns the default when the value is not an exact qint64.
        const qint64 exact = value.toInteger(0);
        if (exact != value.toInteger(1))
            failField(key, QStringLiteral("%1 is out of range").arg(approx));
        return exact;
    }

    int integer(const QString &key) const
    {
        const int64_t value = integer64(key);
        if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
            failField(key, QStringLiteral("%1 is out of range").arg(value));
        return static_cast<int>(value);
    }

    engine::AttentionKind attention(const QString &key) const
    {
        const std::string text = string(key);
        const auto kind = engine::parseAttentionKind(text);
        if (!kind)
            failField(key, QStringLiteral("attention must be one of mha, gqa, mqa, mla (got %1)")
                               .arg(quotedValue(QString::fromStdString(text))));
        return *kind;
    }

    void checkProblems(const std::vector<engine::FieldProblem> &problems) const
    {
        if (!problems.empty())
            failField(QString::fromStdString(problems.front().field),
                      QString::fromStdString(problems.front().message));
    }

private:
    const QJsonObject &m_object;
    QString m_location;
};

engine::GpuSpec readGpu(const EntryReader &in)
{
    in.checkKeys(gpuKeys());
    engine::GpuSpec gpu;
    gpu.id = in.string(QStringLiteral("id"));
    gpu.name = in.string(QStringLiteral("name"));
    gpu.vendor = in.string(QStringLiteral("vendor"));
    if (in.has(QStringLiteral("dra_product_name")))
        gpu.draProductName = in.string(QStringLiteral("dra_product_name"));
    gpu.memoryBytes = in.integer64(QStringLiteral("memory_bytes"));
    gpu.nominalMemoryGB = in.number(QStringLiteral("memory_nominal_gb"));
    gpu.hbmBandwidthGBps = in.number(QStringLiteral("hbm_bandwidth_gbps"));
    gpu.bf16Tflops = in.number(QStringLiteral("bf16_tflops"));
    gpu.fp8Tflops = in.number(QStringLiteral("fp8_tflops"));
    if (in.has(QStringLiteral("fp4_tflops")))
        gpu.fp4Tflops = in.number(QStringLiteral("fp4_tflops"));
    gpu.nvlinkGBps = in.number(QStringLiteral("nvlink_gbps"));
    gpu.pcieGBps = in.number(QStringLiteral("pcie_gbps"));
    gpu.tdpWatts = in.number(QStringLiteral("tdp_w"));
    gpu.gpusPerNode = in.integer(QStringLiteral("gpus_per_node"));
    gpu.source = in.string(QStringLiteral("source"));
    if (in.has(QStringLiteral("efficiency"))) {
        const QJsonValue value = in.object().value(QStringLiteral("efficiency"));
        if (!value.isObject())
            in.failField(QStringLiteral("efficiency"), QStringLiteral("expected an object, got ") + jsonTypeName(value));
        gpu.efficiency = efficiencyFromJson(value.toObject(), in.location());
    }
    if (in.has(QStringLiteral("calibrations")))
        gpu.calibrations = calibrationsFromJson(in.object().value(QStringLiteral("calibrations")), in.location());
    return gpu;
}

engine::ModelSpec readModel(const EntryReader &in)
{
    in.checkKeys(modelKeys());
    engine::ModelSpec model;
    model.id = in.string(QStringLiteral("id"));
    model.name = in.string(QStringLiteral("name"));
    model.paramsTotal = in.number(QStringLiteral("params_total"));
    model.paramsActive = in.number(QStringLiteral("params_active"));
    model.layers = in.integer(QStringLiteral("layers"));
    model.hiddenSize = in.integer(QStringLiteral("hidden_size"));
    model.attentionHeads = in.integer(QStringLiteral("attention_heads"));
    model.kvHeads = in.integer(QStringLiteral("kv_heads"));
    model.headDim = in.integer(QStringLiteral("head_dim"));
    model.attention = in.attention(QStringLiteral("attention"));
    model.kvLoraRank = in.integer(QStringLiteral("kv_lora_rank"));
    model.qkRopeHeadDim = in.integer(QStringLiteral("qk_rope_head_dim"));
    model.slidingWindow = in.integer(QStringLiteral("sliding_window"));
    model.slidingLayers = in.integer(QStringLiteral("sliding_layers"));
    model.maxContext = in.integer64(QStringLiteral("max_context"));
    model.source = in.string(QStringLiteral("source"));
    if (in.has(QStringLiteral("vocab_size")))
        model.vocabSize = in.integer64(QStringLiteral("vocab_size"));
    if (in.has(QStringLiteral("experts")))
        model.experts = in.integer(QStringLiteral("experts"));
    if (in.has(QStringLiteral("experts_per_token")))
        model.expertsPerToken = in.integer(QStringLiteral("experts_per_token"));
    if (in.has(QStringLiteral("layer_types"))) {
        // The text form ("(linear*3,full)*12") or config.json's list of names.
        const QJsonValue value = in.object().value(QStringLiteral("layer_types"));
        QString textForm;
        if (value.isString()) {
            textForm = value.toString();
        } else if (value.isArray()) {
            QStringList names;
            for (const QJsonValue &name : value.toArray()) {
                if (!name.isString())
                    in.failField(QStringLiteral("layer_types"), QStringLiteral("expected layer kinds as text, got ") + jsonTypeName(name));
                names << name.toString();
            }
            textForm = names.join(QLatin1Char(','));
        } else {
            in.failField(QStringLiteral("layer_types"),
                         QStringLiteral("expected text such as \"(linear*3,full)*12\" or a list of kinds, got ") + jsonTypeName(value));
        }
        try {
            model.layerTypes = engine::parseLayerTypes(textForm.toStdString());
        } catch (const engine::InputError &e) {
            in.failField(QStringLiteral("layer_types"), QString::fromUtf8(e.what()));
        }
    }
    if (in.has(QStringLiteral("attention_chunk")))
        model.attentionChunk = in.integer(QStringLiteral("attention_chunk"));
    if (in.has(QStringLiteral("sink_tokens")))
        model.sinkTokens = in.integer(QStringLiteral("sink_tokens"));
    if (in.has(QStringLiteral("state_bytes_per_layer")))
        model.stateBytesPerLayer = in.integer64(QStringLiteral("state_bytes_per_layer"));
    if (in.has(QStringLiteral("tied_embeddings"))) {
        const QJsonValue value = in.object().value(QStringLiteral("tied_embeddings"));
        if (!value.isBool())
            in.failField(QStringLiteral("tied_embeddings"), QStringLiteral("expected true or false, got ") + jsonTypeName(value));
        model.tiedEmbeddings = value.toBool();
    }
    return model;
}

// Parses one array of entries: structure, then duplicate ids, then engine::validate().
template <typename Spec, typename Read>
std::vector<Spec> readEntries(const QJsonObject &root, const QString &key, const QString &source,
                              Read read)
{
    std::vector<Spec> entries;
    if (!root.contains(key))
        return entries;
    const QJsonValue arrayValue = root.value(key);
    if (!arrayValue.isArray())
        throw StoreError(QStringLiteral("%1: %2 must be an array, got %3")
                             .arg(source, quoted(key), jsonTypeName(arrayValue)));
    const QJsonArray array = arrayValue.toArray();
    if (array.size() > limits::kCatalogJson.maxRows)
        throw StoreError(QStringLiteral("%1: %2 has %3 entries; a catalog may have at most %4 "
                                        "(see \"Import limits\")")
                             .arg(source, quoted(key))
                             .arg(array.size())
                             .arg(limits::kCatalogJson.maxRows));
    QHash<QString, qsizetype> firstIndexOfId;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue value = array.at(i);
        const QJsonObject object = value.toObject();
        const EntryReader reader(source, key, i, object);
        if (!value.isObject())
            reader.fail(QStringLiteral("expected an object, got ") + jsonTypeName(value));
        Spec spec = read(reader);
        const QString id = QString::fromStdString(spec.id);
        const auto seen = firstIndexOfId.constFind(id);
        if (seen != firstIndexOfId.constEnd())
            reader.failField(QStringLiteral("id"), QStringLiteral("duplicate id %1 (also %2[%3])")
                                                       .arg(quotedValue(id), key)
                                                       .arg(*seen));
        firstIndexOfId.insert(id, i);
        reader.checkProblems(engine::validate(spec));
        entries.push_back(std::move(spec));
    }
    return entries;
}

void writeEntries(QByteArray &out, const QString &key, const QStringList &order,
                  const std::vector<QJsonObject> &entries)
{
    out += "  " + jsonScalarText(key) + ": [";
    for (size_t i = 0; i < entries.size(); ++i) {
        out += i == 0 ? "\n    {\n" : ",\n    {\n";
        QStringList present;
        for (const QString &key : order) {
            if (entries[i].contains(key))
                present << key;
        }
        for (qsizetype k = 0; k < present.size(); ++k) {
            out += "      " + jsonScalarText(present[k]) + ": " + jsonScalarText(entries[i].value(present[k]));
            out += k + 1 < present.size() ? ",\n" : "\n";
        }
        out += "    }";
    }
    out += entries.empty() ? "]" : "\n  ]";
}

} // namespace

QJsonObject gpuToJson(const engine::GpuSpec &gpu)
{
    QJsonObject object;
    object.insert(QStringLiteral("id"), QString::fromStdString(gpu.id));
    object.insert(QStringLiteral("name"), QString::fromStdString(gpu.name));
    object.insert(QStringLiteral("vendor"), QString::fromStdString(gpu.vendor));
    if (!gpu.draProductName.empty())
        object.insert(QStringLiteral("dra_product_name"), QString::fromStdString(gpu.draProductName));
    object.insert(QStringLiteral("memory_bytes"), qint64(gpu.memoryBytes));
    object.insert(QStringLiteral("memory_nominal_gb"), gpu.nominalMemoryGB);
    object.insert(QStringLiteral("hbm_bandwidth_gbps"), gpu.hbmBandwidthGBps);
    object.insert(QStringLiteral("bf16_tflops"), gpu.bf16Tflops);
    object.insert(QStringLiteral("fp8_tflops"), gpu.fp8Tflops);
    object.insert(QStringLiteral("fp4_tflops"), gpu.fp4Tflops);
    object.insert(QStringLiteral("nvlink_gbps"), gpu.nvlinkGBps);
    object.insert(QStringLiteral("pcie_gbps"), gpu.pcieGBps);
    object.insert(QStringLiteral("tdp_w"), gpu.tdpWatts);
    object.insert(QStringLiteral("gpus_per_node"), gpu.gpusPerNode);
    object.insert(QStringLiteral("source"), QString::fromStdString(gpu.source));
    if (gpu.efficiency)
        object.insert(QStringLiteral("efficiency"), efficiencyToJson(*gpu.efficiency));
    if (!gpu.calibrations.empty())
        object.insert(QStringLiteral("calibrations"), calibrationsToJson(gpu.calibrations));
    return object;
}

QJsonObject modelToJson(const engine::ModelSpec &model)
{
    QJsonObject object;
    object.insert(QStringLiteral("id"), QString::fromStdString(model.id));
    object.insert(QStringLiteral("name"), QString::fromStdString(model.name));
    object.insert(QStringLiteral("params_total"), model.paramsTotal);
    object.insert(QStringLiteral("params_active"), model.paramsActive);
    object.insert(QStringLiteral("layers"), model.layers);
    object.insert(QStringLiteral("hidden_size"), model.hiddenSize);
    object.insert(QStringLiteral("attention_heads"), model.attentionHeads);
    object.insert(QStringLiteral("kv_heads"), model.kvHeads);
    object.insert(QStringLiteral("head_dim"), model.headDim);
    object.insert(QStringLiteral("attention"),
                  QString::fromUtf8(engine::toString(model.attention).data(),
                                    qsizetype(engine::toString(model.attention).size())));
    object.insert(QStringLiteral("kv_lora_rank"), model.kvLoraRank);
    object.insert(QStringLiteral("qk_rope_head_dim"), model.qkRopeHeadDim);
    object.insert(QStringLiteral("sliding_window"), model.slidingWindow);
    object.insert(QStringLiteral("sliding_layers"), model.slidingLayers);
    object.insert(QStringLiteral("max_context"), qint64(model.maxContext));
    object.insert(QStringLiteral("source"), QString::fromStdString(model.source));
    if (model.vocabSize > 0)
        object.insert(QStringLiteral("vocab_size"), qint64(model.vocabSize));
    if (model.experts > 0) {
        object.insert(QStringLiteral("experts"), model.experts);
        object.insert(QStringLiteral("experts_per_token"), model.expertsPerToken);
    }
    if (model.tiedEmbeddings)
        object.insert(QStringLiteral("tied_embeddings"), true);
    if (!model.layerTypes.empty())
        object.insert(QStringLiteral("layer_types"), QString::fromStdString(engine::layerTypesText(model.layerTypes)));
    if (model.attentionChunk > 0)
        object.insert(QStringLiteral("attention_chunk"), model.attentionChunk);
    if (model.sinkTokens > 0)
        object.insert(QStringLiteral("sink_tokens"), model.sinkTokens);
    if (model.stateBytesPerLayer > 0)
        object.insert(QStringLiteral("state_bytes_per_layer"), qint64(model.stateBytesPerLayer));
    return object;
}

QJsonObject efficiencyToJson(const engine::GpuEfficiency &e)
{
    QJsonObject object{
        {QStringLiteral("bandwidth"), e.bandwidth},
        {QStringLiteral("kv_bandwidth"), e.kvBandwidth},
        {QStringLiteral("matmul_small"), e.matmulSmall},
        {QStringLiteral("matmul_peak"), e.matmulPeak},
        {QStringLiteral("matmul_half_tokens"), e.matmulHalfTokens},
        {QStringLiteral("attention"), e.attention},
        {QStringLiteral("allreduce_latency_us"), e.allReduceLatencyUs},
        {QStringLiteral("link"), e.linkEfficiency},
        {QStringLiteral("layer_overhead_us"), e.layerOverheadUs},
        {QStringLiteral("iteration_overhead_ms"), e.iterationOverheadMs},
        {QStringLiteral("sequence_overhead_us"), e.sequenceOverheadUs},
        {QStringLiteral("source"), QString::fromStdString(e.source)},
    };
    if (e.matmulPeakFp8 > 0)
        object.insert(QStringLiteral("matmul_peak_fp8"), e.matmulPeakFp8);
    if (e.matmulHalfTokensFp8 > 0)
        object.insert(QStringLiteral("matmul_half_tokens_fp8"), e.matmulHalfTokensFp8);
    return object;
}

QJsonArray calibrationsToJson(const std::vector<engine::DeploymentProfile> &calibrations)
{
    QJsonArray out;
    for (const engine::DeploymentProfile &p : calibrations)
        out.append(QJsonObject{{QStringLiteral("model"), QString::fromStdString(p.modelId)},
                               {QStringLiteral("tp"), p.tp},
                               {QStringLiteral("weights"), QString::fromUtf8(engine::toString(p.weights).data())},
                               {QStringLiteral("efficiency"), efficiencyToJson(p.efficiency)}});
    return out;
}

std::vector<engine::DeploymentProfile> calibrationsFromJson(const QJsonValue &value, const QString &location)
{
    const auto fail = [&](const QString &where, const QString &message) {
        throw StoreError(location + QStringLiteral(": field \"%1\": ").arg(where) + message);
    };
    if (!value.isArray())
        fail(QStringLiteral("calibrations"), QStringLiteral("expected an array, got ") + jsonTypeName(value));
    std::vector<engine::DeploymentProfile> out;
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString where = QStringLiteral("calibrations[%1]").arg(i);
        if (!array[i].isObject())
            fail(where, QStringLiteral("expected an object, got ") + jsonTypeName(array[i]));
        const QJsonObject o = array[i].toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != QLatin1String("model") && it.key() != QLatin1String("tp")
                && it.key() != QLatin1String("weights") && it.key() != QLatin1String("efficiency"))
                fail(where, QStringLiteral("unknown field %1 (fields are: model, tp, weights, efficiency)")
                                .arg(quotedValue(it.key())));
        engine::DeploymentProfile p;
        if (!o.value(QStringLiteral("model")).isString())
            fail(where + QStringLiteral(".model"), QStringLiteral("expected a model id"));
        p.modelId = o.value(QStringLiteral("model")).toString().toStdString();
        const QJsonValue tp = o.value(QStringLiteral("tp"));
        if (!tp.isDouble() || tp.toDouble() != std::floor(tp.toDouble()))
            fail(where + QStringLiteral(".tp"), QStringLiteral("expected a whole number of GPUs"));
        p.tp = int(std::clamp(tp.toDouble(), -1.0, 1e6));
        const auto weights = engine::parseWeightPrecision(o.value(QStringLiteral("weights")).toString().toStdString());
        if (!weights)
            fail(where + QStringLiteral(".weights"), QStringLiteral("expected bf16, fp16, fp8, int8 or int4"));
        p.weights = *weights;
        if (!o.value(QStringLiteral("efficiency")).isObject())
            fail(where + QStringLiteral(".efficiency"), QStringLiteral("expected an object"));
        p.efficiency = efficiencyFromJson(o.value(QStringLiteral("efficiency")).toObject(), location + QLatin1Char(' ') + where);
        out.push_back(std::move(p));
    }
    return out;
}

engine::GpuEfficiency efficiencyFromJson(const QJsonObject &object, const QString &location)
{
    const auto fail = [&](const QString &message) {
        throw StoreError(location + QStringLiteral(": field \"efficiency\": ") + message);
    };
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!efficiencyKeys().contains(it.key()))
            fail(QStringLiteral("unknown field %1 (fields are: %2)")
                     .arg(quotedValue(it.key()), efficiencyKeys().join(QStringLiteral(", "))));
    }
    const auto number = [&](const char *key) {
        const QJsonValue value = object.value(QLatin1String(key));
        if (!value.isDouble())
            fail(QStringLiteral("%1: expected a number, got %2").arg(QLatin1String(key), jsonTypeName(value)));
        return value.toDouble();
    };
    engine::GpuEfficiency e;
    e.bandwidth = number("bandwidth");
    e.kvBandwidth = number("kv_bandwidth");
    e.matmulSmall = number("matmul_small");
    e.matmulPeak = number("matmul_peak");
    e.matmulHalfTokens = number("matmul_half_tokens");
    e.attention = number("attention");
    e.allReduceLatencyUs = number("allreduce_latency_us");
    e.linkEfficiency = number("link");
    e.layerOverheadUs = number("layer_overhead_us");
    e.iterationOverheadMs = number("iteration_overhead_ms");
    // Optional: profiles saved before it existed hold no per-sequence time.
    e.sequenceOverheadUs = object.contains(QStringLiteral("sequence_overhead_us")) ? number("sequence_overhead_us") : 0.0;
    // Optional, absent meaning 0: without a peak FP8 matmuls use the BF16 pair.
    e.matmulPeakFp8 = object.contains(QStringLiteral("matmul_peak_fp8")) ? number("matmul_peak_fp8") : 0.0;
    e.matmulHalfTokensFp8 = object.contains(QStringLiteral("matmul_half_tokens_fp8")) ? number("matmul_half_tokens_fp8") : 0.0;
    const QJsonValue source = object.value(QStringLiteral("source"));
    if (!source.isString())
        fail(QStringLiteral("source: expected a string, got %1").arg(jsonTypeName(source)));
    e.source = source.toString().toStdString();
    return e;
}

Catalog parseCatalog(const QByteArray &json, const QString &sourceName)
{
    const QJsonDocument document = parseJsonDocument(json, sourceName, limits::kCatalogJson);
    if (!document.isObject())
        throw StoreError(sourceName
                         + QStringLiteral(": the top level must be an object holding \"gpus\" "
                                          "and/or \"models\" arrays"));
    const QJsonObject root = document.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it.key() != kGpusKey && it.key() != kModelsKey)
            throw StoreError(QStringLiteral("%1: unknown top-level key %2 (expected \"gpus\" "
                                            "and/or \"models\")")
                                 .arg(sourceName, quotedValue(it.key())));
    }
    if (!root.contains(kGpusKey) && !root.contains(kModelsKey))
        throw StoreError(sourceName + QStringLiteral(": no \"gpus\" or \"models\" array"));

    Catalog catalog;
    catalog.gpus = readEntries<engine::GpuSpec>(root, kGpusKey, sourceName, readGpu);
    catalog.models = readEntries<engine::ModelSpec>(root, kModelsKey, sourceName, readModel);
    return catalog;
}

Catalog readCatalogFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read catalog file %1: %2")
                             .arg(quoted(path), file.errorString()));
    // Shipped catalogs are named by file name, user files by the path as given.
    const QString sourceName = path.startsWith(QLatin1Char(':')) ? QFileInfo(path).fileName()
                                                                  : path;
    return parseCatalog(readImportFile(file, sourceName, limits::kCatalogJson), sourceName);
}

QByteArray catalogToJson(const Catalog &catalog)
{
    std::vector<QJsonObject> gpus;
    for (const auto &gpu : catalog.gpus)
        gpus.push_back(gpuToJson(gpu));
    std::vector<QJsonObject> models;
    for (const auto &model : catalog.models)
        models.push_back(modelToJson(model));

    // An empty list is left out unless both are empty, so the output always parses.
    const bool writeGpus = !gpus.empty() || models.empty();
    const bool writeModels = !models.empty() || gpus.empty();
    QByteArray out = "{\n";
    if (writeGpus)
        writeEntries(out, kGpusKey, gpuKeys(), gpus);
    if (writeGpus && writeModels)
        out += ",\n";
    if (writeModels)
        writeEntries(out, kModelsKey, modelKeys(), models);
    out += "\n}\n";
    return out;
}

} // namespace headroom::store
