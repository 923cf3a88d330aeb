#include "jobtelemetrycsv.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include "engine/common/errors.h"
#include "engine/training/training.h"

#include <QDateTime>
#include <QFile>
#include <cmath>

namespace headroom::store {

namespace {

const QStringList kRequired = {QStringLiteral("timestamp"), QStringLiteral("job"), QStringLiteral("node"),
                               QStringLiteral("gpu"),       QStringLiteral("metric"), QStringLiteral("value")};

qint64 parseStamp(const QString &source, int line, const QString &text)
{
    bool digits = !text.isEmpty();
    for (QChar c : text)
        digits = digits && c.isDigit();
    if (digits) {
        bool ok = false;
        const qint64 seconds = text.toLongLong(&ok);
        if (ok && seconds <= 253402300799LL)
            return seconds;
    }
    const QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid() || time.timeSpec() == Qt::LocalTime)
        failCsvField(source, line, QStringLiteral("timestamp"),
                     QStringLiteral("'%1' is neither ISO 8601 with Z or an offset (2026-03-01T14:00:00Z) nor epoch "
                                    "seconds")
                         .arg(shownValue(text)));
    return time.toSecsSinceEpoch();
}

} // namespace

JobTelemetryFile parseJobTelemetryCsv(const QByteArray &csv, const QString &source)
{
    const CsvTable table = readCsvTable(csv, source, limits::kJobTelemetryCsv, kRequired,
                                        QStringLiteral("a job telemetry file starts with the header "
                                                       "timestamp,job,node,gpu,metric,value"),
                                        QStringLiteral("see core/store/README.md, \"Job telemetry CSV\""));
    JobTelemetryFile file;
    for (const CsvRecord &row : table.rows) {
        ++file.rows;
        const QString metricText = table.field(row, QStringLiteral("metric"));
        const auto metric = engine::parseJobMetric(metricText.toStdString());
        if (!metric) {
            auto it = std::find_if(file.ignored.begin(), file.ignored.end(),
                                   [&](const auto &entry) { return entry.first == metricText; });
            if (it == file.ignored.end())
                file.ignored.emplace_back(metricText, 1);
            else
                ++it->second;
            continue;
        }
        engine::JobSample sample;
        sample.line = row.line;
        sample.metric = *metric;
        sample.epochSeconds = parseStamp(source, row.line, table.field(row, QStringLiteral("timestamp")));
        sample.job = table.field(row, QStringLiteral("job")).toStdString();
        sample.node = table.field(row, QStringLiteral("node")).toStdString();
        if (sample.job.empty())
            failCsvField(source, row.line, QStringLiteral("job"), QStringLiteral("empty; every sample names its job"));
        if (sample.node.empty())
            failCsvField(source, row.line, QStringLiteral("node"), QStringLiteral("empty; every sample names its node"));
        const QString gpu = table.field(row, QStringLiteral("gpu"));
        if (engine::isGpuMetric(*metric)) {
            bool ok = false;
            sample.gpu = gpu.toInt(&ok);
            if (!ok || sample.gpu < 0)
                failCsvField(source, row.line, QStringLiteral("gpu"),
                             QStringLiteral("'%1' is not a GPU index; %2 is per GPU").arg(shownValue(gpu), metricText));
        }
        bool ok = false;
        sample.value = table.field(row, QStringLiteral("value")).toDouble(&ok);
        if (!ok || !std::isfinite(sample.value))
            failCsvField(source, row.line, QStringLiteral("value"),
                         QStringLiteral("'%1' is not a number").arg(shownValue(table.field(row, QStringLiteral("value")))));
        file.samples.push_back(std::move(sample));
    }
    if (file.samples.empty())
        throw StoreError(QStringLiteral("%1: no sample of a metric the stall audit reads (DCGM_FI_PROF_GR_ENGINE_ACTIVE, "
                                        "DCGM_FI_DEV_GPU_UTIL, node_cpu_utilization, dataloader_wait_ratio, cpu_cores)")
                             .arg(source));
    return file;
}

JobTelemetryFile readJobTelemetryCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parseJobTelemetryCsv(readImportFile(file, path, limits::kJobTelemetryCsv), path);
}

std::map<std::string, double> plannedTrainingRates(const Workspace &workspace, const std::vector<std::string> &jobs)
{
    std::map<std::string, double> rates;
    for (const std::string &name : jobs) {
        const auto job = workspace.trainingJob(QString::fromStdString(name));
        if (!job)
            continue;
        const auto gpu = workspace.gpu(QString::fromStdString(job->gpuId));
        const auto model = job->modelId.empty() ? std::nullopt : workspace.model(QString::fromStdString(job->modelId));
        if (!gpu)
            continue;
        try {
            const engine::TrainingPlan plan = engine::sizeTraining(*job, *gpu, model ? &*model : nullptr);
            if (plan.days > 0 && plan.gpus > 0)
                rates[name] = plan.tokens / (plan.days * 86400.0 * double(plan.gpus));
        } catch (const engine::InputError &) {
            // A job its sizing refuses has no plan to hold the telemetry against.
        }
    }
    return rates;
}

} // namespace headroom::store
