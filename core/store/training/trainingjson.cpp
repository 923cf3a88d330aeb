#include "trainingjson.h"

#include "store/common/importlimits.h"
#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <QJsonDocument>

namespace headroom::store {

namespace {

QString text(std::string_view value)
{
    return QString::fromUtf8(value.data(), qsizetype(value.size()));
}

} // namespace

const QStringList &trainingJobKeys()
{
    static const QStringList keys = {
        QStringLiteral("name"),
        QStringLiteral("model_id"),
        QStringLiteral("params"),
        QStringLiteral("tokens"),
        QStringLiteral("seq_len"),
        QStringLiteral("global_batch_tokens"),
        QStringLiteral("max_batch_tokens"),
        QStringLiteral("micro_batch"),
        QStringLiteral("attention"),
        QStringLiteral("recompute"),
        QStringLiteral("recompute_fixed"),
        QStringLiteral("vocab_size"),
        QStringLiteral("gpu_id"),
        QStringLiteral("throughput_basis"),
        QStringLiteral("throughput"),
        QStringLiteral("target"),
        QStringLiteral("target_value"),
        QStringLiteral("tp"),
        QStringLiteral("pp"),
        QStringLiteral("ep"),
        QStringLiteral("virtual_stages"),
        QStringLiteral("dp"),
        QStringLiteral("zero_stage"),
        QStringLiteral("intra_node"),
        QStringLiteral("inter_node"),
        QStringLiteral("cpu_cores_per_gpu"),
        QStringLiteral("start_date"),
        QStringLiteral("priority"),
        QStringLiteral("preemptible"),
        QStringLiteral("checkpoint_interval_hours"),
    };
    return keys;
}

QJsonObject trainingJobToJson(const engine::TrainingJob &job)
{
    QJsonObject object;
    object.insert(QStringLiteral("name"), QString::fromStdString(job.name));
    object.insert(QStringLiteral("model_id"), QString::fromStdString(job.modelId));
    object.insert(QStringLiteral("params"), job.params);
    object.insert(QStringLiteral("tokens"), job.tokens);
    object.insert(QStringLiteral("seq_len"), job.seqLen);
    object.insert(QStringLiteral("global_batch_tokens"), job.globalBatchTokens);
    object.insert(QStringLiteral("max_batch_tokens"), job.maxBatchTokens);
    object.insert(QStringLiteral("micro_batch"), job.microBatch);
    object.insert(QStringLiteral("attention"), text(engine::toString(job.attention)));
    object.insert(QStringLiteral("recompute"), text(engine::toString(job.recompute)));
    object.insert(QStringLiteral("recompute_fixed"), job.recomputeFixed);
    object.insert(QStringLiteral("vocab_size"), job.vocabSize);
    object.insert(QStringLiteral("gpu_id"), QString::fromStdString(job.gpuId));
    object.insert(QStringLiteral("throughput_basis"), text(engine::toString(job.throughputBasis)));
    object.insert(QStringLiteral("throughput"), job.throughput);
    object.insert(QStringLiteral("target"), text(engine::toString(job.target)));
    object.insert(QStringLiteral("target_value"), job.targetValue);
    object.insert(QStringLiteral("tp"), job.tp);
    object.insert(QStringLiteral("pp"), job.pp);
    object.insert(QStringLiteral("ep"), job.ep);
    object.insert(QStringLiteral("virtual_stages"), job.virtualStages);
    object.insert(QStringLiteral("dp"), job.dp);
    object.insert(QStringLiteral("zero_stage"), job.zeroStage);
    object.insert(QStringLiteral("intra_node"), text(engine::toString(job.intraNode)));
    object.insert(QStringLiteral("inter_node"), text(engine::toString(job.interNode)));
    object.insert(QStringLiteral("cpu_cores_per_gpu"), job.cpuCoresPerGpu);
    object.insert(QStringLiteral("start_date"), QString::fromStdString(job.startDate));
    object.insert(QStringLiteral("priority"), job.priority);
    object.insert(QStringLiteral("preemptible"), job.preemptible);
    object.insert(QStringLiteral("checkpoint_interval_hours"), job.checkpointIntervalHours);
    return object;
}

engine::TrainingJob trainingJobFromJson(const QJsonObject &object, const QString &sourceName)
{
    const JsonFieldReader in(object, sourceName, QStringLiteral("training job"));
    in.checkKeys(trainingJobKeys(), {QStringLiteral("name"), QStringLiteral("tokens")});
    const engine::TrainingJob defaults;
    engine::TrainingJob job;
    job.name = in.string(QStringLiteral("name"), {});
    if (job.name.empty())
        in.failField(QStringLiteral("name"), QStringLiteral("must not be empty"));
    job.modelId = in.string(QStringLiteral("model_id"), defaults.modelId);
    job.params = in.number(QStringLiteral("params"), defaults.params);
    job.tokens = in.number(QStringLiteral("tokens"), defaults.tokens);
    job.seqLen = in.integer(QStringLiteral("seq_len"), defaults.seqLen);
    job.globalBatchTokens = in.number(QStringLiteral("global_batch_tokens"), defaults.globalBatchTokens);
    job.maxBatchTokens = in.number(QStringLiteral("max_batch_tokens"), defaults.maxBatchTokens);
    job.microBatch = in.integer(QStringLiteral("micro_batch"), defaults.microBatch);
    job.attention = in.choice(QStringLiteral("attention"), defaults.attention, engine::parseAttentionKernel,
                              QStringLiteral("\"flash\", \"eager\""));
    // Older files hold a boolean: true was full recomputation, false none.
    if (in.has(QStringLiteral("recompute")) && in.value(QStringLiteral("recompute")).isBool())
        job.recompute = in.value(QStringLiteral("recompute")).toBool() ? engine::Recomputation::Full
                                                                       : engine::Recomputation::None;
    else if (in.has(QStringLiteral("recompute")) && !in.value(QStringLiteral("recompute")).isString())
        in.failField(QStringLiteral("recompute"),
                     QStringLiteral("expected one of \"none\", \"selective\", \"full\" (or true/false), got ")
                         + jsonTypeName(in.value(QStringLiteral("recompute"))));
    else
        job.recompute = in.choice(QStringLiteral("recompute"), defaults.recompute, engine::parseRecomputation,
                                  QStringLiteral("\"none\", \"selective\", \"full\" (or true/false)"));
    job.recomputeFixed = in.boolean(QStringLiteral("recompute_fixed"), defaults.recomputeFixed);
    job.vocabSize = in.integer(QStringLiteral("vocab_size"), defaults.vocabSize);
    job.gpuId = in.string(QStringLiteral("gpu_id"), defaults.gpuId);
    job.throughputBasis = in.choice(QStringLiteral("throughput_basis"), defaults.throughputBasis,
                                    engine::parseThroughputBasis,
                                    QStringLiteral("\"tflops\", \"mfu\", \"model_tflops\""));
    job.throughput = in.number(QStringLiteral("throughput"), defaults.throughput);
    job.target = in.choice(QStringLiteral("target"), defaults.target, engine::parseTrainingTarget,
                           QStringLiteral("\"days\", \"gpus\""));
    job.targetValue = in.number(QStringLiteral("target_value"), defaults.targetValue);
    job.tp = in.integer(QStringLiteral("tp"), defaults.tp);
    job.pp = in.integer(QStringLiteral("pp"), defaults.pp);
    job.ep = in.integer(QStringLiteral("ep"), defaults.ep);
    job.virtualStages = in.integer(QStringLiteral("virtual_stages"), defaults.virtualStages);
    job.dp = in.integer(QStringLiteral("dp"), defaults.dp);
    job.zeroStage = in.integer(QStringLiteral("zero_stage"), defaults.zeroStage);
    job.intraNode = in.choice(QStringLiteral("intra_node"), defaults.intraNode, engine::parseIntraNodeLink,
                              QStringLiteral("\"nvlink\", \"pcie\""));
    job.interNode = in.choice(QStringLiteral("inter_node"), defaults.interNode, engine::parseInterNodeLink,
                              QStringLiteral("\"infiniband\", \"roce\", \"ethernet\""));
    job.cpuCoresPerGpu = in.integer(QStringLiteral("cpu_cores_per_gpu"), defaults.cpuCoresPerGpu);
    job.startDate = in.string(QStringLiteral("start_date"), defaults.startDate);
    job.priority = in.integer(QStringLiteral("priority"), defaults.priority);
    job.preemptible = in.boolean(QStringLiteral("preemptible"), defaults.preemptible);
    job.checkpointIntervalHours =
        in.number(QStringLiteral("checkpoint_interval_hours"), defaults.checkpointIntervalHours);
    in.checkProblems(engine::validate(job));
    return job;
}

engine::TrainingJob parseTrainingJob(const QByteArray &json, const QString &sourceName)
{
    const QJsonDocument document = parseJsonDocument(json, sourceName, limits::kTrainingJson);
    if (!document.isObject())
        throw StoreError(sourceName + QStringLiteral(": the top level must be one training job object"));
    return trainingJobFromJson(document.object(), sourceName);
}

engine::TrainingJob readTrainingJobFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(
            QStringLiteral("Cannot read training job file %1: %2").arg(quoted(path), file.errorString()));
    return parseTrainingJob(readImportFile(file, path, limits::kTrainingJson), path);
}

QByteArray trainingJobJsonText(const engine::TrainingJob &job)
{
    const QJsonObject object = trainingJobToJson(job);
    QByteArray out = "{\n";
    bool first = true;
    for (const QString &key : trainingJobKeys()) {
        out += first ? "  " : ",\n  ";
        first = false;
        out += jsonScalarText(key) + ": " + jsonScalarText(object.value(key));
    }
    out += "\n}\n";
    return out;
}

} // namespace headroom::store
