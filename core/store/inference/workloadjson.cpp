#include "workloadjson.h"

#include "store/common/importlimits.h"
#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <QJsonArray>
#include <QStringList>

namespace headroom::store {

namespace {

using engine::DiurnalPreset;

// Every key of the workload JSON in the order files are written; see README.md.
const QStringList &workloadKeys()
{
    static const QStringList keys = {
        QStringLiteral("name"),
        QStringLiteral("tenant"),
        QStringLiteral("model"),
        QStringLiteral("weights"),
        QStringLiteral("kv_dtype"),
        QStringLiteral("class"),
        QStringLiteral("daily_active_users"),
        QStringLiteral("requests_per_user_per_day"),
        QStringLiteral("peak_sessions_per_user"),
        QStringLiteral("diurnal"),
        QStringLiteral("prompt_p50"),
        QStringLiteral("prompt_p95"),
        QStringLiteral("output_p50"),
        QStringLiteral("output_p95"),
        QStringLiteral("prefix_hit_rate"),
        QStringLiteral("shared_prefix_tokens"),
        QStringLiteral("ttft_p95_ms"),
        QStringLiteral("itl_p95_ms"),
        QStringLiteral("traffic_variance"),
        QStringLiteral("measured_goodput_tokens_per_s"),
        QStringLiteral("measured_max_streams"),
        QStringLiteral("goodput_source"),
        QStringLiteral("isolation"),
        QStringLiteral("gpu"),
        QStringLiteral("tp"),
    };
    return keys;
}

// Keys without a default.
const QStringList &requiredKeys()
{
    static const QStringList keys = {
        QStringLiteral("name"),       QStringLiteral("model"),
        QStringLiteral("gpu"),        QStringLiteral("daily_active_users"),
        QStringLiteral("requests_per_user_per_day"),
        QStringLiteral("prompt_p50"), QStringLiteral("prompt_p95"),
        QStringLiteral("output_p50"), QStringLiteral("output_p95"),
    };
    return keys;
}

struct PresetName {
    DiurnalPreset preset;
    const char *name;
};

constexpr PresetName kPresetNames[] = {
    {DiurnalPreset::BusinessHours, "business_hours"},
    {DiurnalPreset::EveningPeak, "evening_peak"},
    {DiurnalPreset::Flat, "flat"},
};

constexpr DiurnalPreset kDefaultDiurnal = DiurnalPreset::Flat;

QString presetNameList()
{
    QStringList names;
    for (const PresetName &entry : kPresetNames)
        names << quoted(QLatin1String(entry.name));
    return names.join(QStringLiteral(", "));
}

QString text(std::string_view value)
{
    return QString::fromUtf8(value.data(), qsizetype(value.size()));
}

// The diurnal curve: a preset name or 24 hourly numbers; the default preset when absent.
std::array<double, 24> readDiurnal(const JsonFieldReader &in, const QString &key)
{
    if (!in.has(key))
        return engine::diurnalShape(kDefaultDiurnal);
    const QJsonValue value = in.value(key);
    if (value.isString()) {
        for (const PresetName &entry : kPresetNames) {
            if (value.toString() == QLatin1String(entry.name))
                return engine::diurnalShape(entry.preset);
        }
        in.failField(key, QStringLiteral("unknown preset %1 (presets are %2, or give an array "
                                      "of 24 hourly numbers)")
                           .arg(quotedValue(value.toString()), presetNameList()));
    }
    if (!value.isArray())
        in.failField(key, QStringLiteral("expected an array of 24 hourly numbers or a preset "
                                      "name, got ")
                           + jsonTypeName(value));
    const QJsonArray array = value.toArray();
    if (array.size() != 24)
        in.failField(key, QStringLiteral("expected 24 hourly numbers, got %1").arg(array.size()));
    std::array<double, 24> shape{};
    for (int hour = 0; hour < 24; ++hour) {
        const QJsonValue share = array.at(hour);
        if (!share.isDouble())
            in.failField(key, QStringLiteral("hour %1: expected a number, got %2")
                               .arg(hour)
                               .arg(jsonTypeName(share)));
        shape[size_t(hour)] = share.toDouble();
    }
    return shape;
}

// A diurnal curve that is exactly a preset is written as the preset's name.
QJsonValue diurnalToJson(const std::array<double, 24> &diurnal)
{
    for (const PresetName &entry : kPresetNames) {
        if (engine::diurnalShape(entry.preset) == diurnal)
            return QString::fromLatin1(entry.name);
    }
    QJsonArray array;
    for (double share : diurnal)
        array.append(share);
    return array;
}

} // namespace

QJsonObject workloadToJson(const engine::WorkloadProfile &workload)
{
    QJsonObject object;
    object.insert(QStringLiteral("name"), QString::fromStdString(workload.name));
    object.insert(QStringLiteral("tenant"), QString::fromStdString(workload.tenant));
    object.insert(QStringLiteral("model"), QString::fromStdString(workload.modelId));
    object.insert(QStringLiteral("weights"), text(engine::toString(workload.weights)));
    object.insert(QStringLiteral("kv_dtype"), text(engine::toString(workload.kv)));
    object.insert(QStringLiteral("class"), text(engine::toString(workload.workloadClass)));
    object.insert(QStringLiteral("daily_active_users"), workload.dailyActiveUsers);
    object.insert(QStringLiteral("requests_per_user_per_day"), workload.requestsPerUserPerDay);
    object.insert(QStringLiteral("peak_sessions_per_user"), workload.peakSessionsPerUser);
    object.insert(QStringLiteral("diurnal"), diurnalToJson(workload.diurnal));
    object.insert(QStringLiteral("prompt_p50"), workload.promptTokens.p50);
    object.insert(QStringLiteral("prompt_p95"), workload.promptTokens.p95);
    object.insert(QStringLiteral("output_p50"), workload.outputTokens.p50);
    object.insert(QStringLiteral("output_p95"), workload.outputTokens.p95);
    object.insert(QStringLiteral("prefix_hit_rate"), workload.prefixHitRate);
    object.insert(QStringLiteral("shared_prefix_tokens"), qint64(workload.sharedPrefixTokens));
    object.insert(QStringLiteral("ttft_p95_ms"), workload.ttftP95Ms);
    object.insert(QStringLiteral("itl_p95_ms"), workload.itlP95Ms);
    object.insert(QStringLiteral("traffic_variance"), workload.trafficVariance);
    if (workload.measuredGoodputTokensPerS)
        object.insert(QStringLiteral("measured_goodput_tokens_per_s"),
                      *workload.measuredGoodputTokensPerS);
    if (workload.measuredMaxStreams)
        object.insert(QStringLiteral("measured_max_streams"),
                      qint64(*workload.measuredMaxStreams));
    if (!workload.goodputSource.empty())
        object.insert(QStringLiteral("goodput_source"), QString::fromStdString(workload.goodputSource));
    object.insert(QStringLiteral("isolation"), text(engine::toString(workload.isolation)));
    object.insert(QStringLiteral("gpu"), QString::fromStdString(workload.gpuId));
    object.insert(QStringLiteral("tp"), workload.tp);
    return object;
}

engine::WorkloadProfile workloadFromJson(const QJsonObject &object, const QString &sourceName)
{
    const JsonFieldReader in(object, sourceName, QStringLiteral("workload"));
    in.checkKeys(workloadKeys(), requiredKeys());
    const engine::WorkloadProfile defaults;
    engine::WorkloadProfile workload;
    workload.name = in.string(QStringLiteral("name"));
    workload.tenant = in.string(QStringLiteral("tenant"));
    workload.modelId = in.string(QStringLiteral("model"));
    workload.weights = in.choice(QStringLiteral("weights"), defaults.weights,
                                 engine::parseWeightPrecision,
                                 QStringLiteral("\"bf16\", \"fp16\", \"fp8\", \"int8\", \"int4\""));
    workload.kv = in.choice(QStringLiteral("kv_dtype"), defaults.kv, engine::parseKvPrecision,
                            QStringLiteral("\"bf16\", \"fp8\""));
    workload.workloadClass =
        in.choice(QStringLiteral("class"), defaults.workloadClass, engine::parseWorkloadClass,
                  QStringLiteral("\"flagship\", \"internal\", \"batch\", \"embedding\""));
    workload.dailyActiveUsers = in.number(QStringLiteral("daily_active_users"));
    workload.requestsPerUserPerDay = in.number(QStringLiteral("requests_per_user_per_day"));
    workload.peakSessionsPerUser =
        in.number(QStringLiteral("peak_sessions_per_user"), defaults.peakSessionsPerUser);
    workload.diurnal = readDiurnal(in, QStringLiteral("diurnal"));
    workload.promptTokens.p50 = in.number(QStringLiteral("prompt_p50"));
    workload.promptTokens.p95 = in.number(QStringLiteral("prompt_p95"));
    workload.outputTokens.p50 = in.number(QStringLiteral("output_p50"));
    workload.outputTokens.p95 = in.number(QStringLiteral("output_p95"));
    workload.prefixHitRate = in.number(QStringLiteral("prefix_hit_rate"), defaults.prefixHitRate);
    workload.sharedPrefixTokens =
        in.integer64(QStringLiteral("shared_prefix_tokens"), defaults.sharedPrefixTokens);
    workload.ttftP95Ms = in.number(QStringLiteral("ttft_p95_ms"), defaults.ttftP95Ms);
    workload.itlP95Ms = in.number(QStringLiteral("itl_p95_ms"), defaults.itlP95Ms);
    workload.trafficVariance =
        in.number(QStringLiteral("traffic_variance"), defaults.trafficVariance);
    if (in.has(QStringLiteral("measured_goodput_tokens_per_s")))
        workload.measuredGoodputTokensPerS =
            in.number(QStringLiteral("measured_goodput_tokens_per_s"));
    if (in.has(QStringLiteral("measured_max_streams")))
        workload.measuredMaxStreams = in.integer64(QStringLiteral("measured_max_streams"));
    if (in.has(QStringLiteral("goodput_source")))
        workload.goodputSource = in.string(QStringLiteral("goodput_source"));
    workload.isolation =
        in.choice(QStringLiteral("isolation"), defaults.isolation, engine::parseIsolation,
                  QStringLiteral("\"none\", \"soft\", \"regulated\""));
    workload.gpuId = in.string(QStringLiteral("gpu"));
    workload.tp = in.integer(QStringLiteral("tp"), defaults.tp);

    in.checkProblems(engine::validate(workload));
    return workload;
}

engine::WorkloadProfile parseWorkload(const QByteArray &json, const QString &sourceName)
{
    const QJsonDocument document = parseJsonDocument(json, sourceName, limits::kWorkloadJson);
    if (!document.isObject())
        throw StoreError(sourceName
                         + QStringLiteral(": the top level must be one workload object"));
    return workloadFromJson(document.object(), sourceName);
}

engine::WorkloadProfile readWorkloadFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read workload file %1: %2")
                             .arg(quoted(path), file.errorString()));
    return parseWorkload(readImportFile(file, path, limits::kWorkloadJson), path);
}

QByteArray workloadJsonText(const engine::WorkloadProfile &workload)
{
    const QJsonObject object = workloadToJson(workload);
    QByteArray out = "{\n";
    bool first = true;
    for (const QString &key : workloadKeys()) {
        if (!object.contains(key))
            continue;
        out += first ? "  " : ",\n  ";
        first = false;
        out += jsonScalarText(key) + ": ";
        const QJsonValue value = object.value(key);
        if (value.isArray()) {
            QByteArrayList items;
            for (const QJsonValue &item : value.toArray())
                items << jsonScalarText(item);
            out += '[' + items.join(", ") + ']';
        } else {
            out += jsonScalarText(value);
        }
    }
    out += "\n}\n";
    return out;
}

} // namespace headroom::store
