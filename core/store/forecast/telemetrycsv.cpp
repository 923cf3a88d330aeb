#include "telemetrycsv.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QDateTime>
#include <QFile>
#include <QLocale>
#include <cmath>

namespace headroom::store {

namespace {

const QString kTimestamp = QStringLiteral("timestamp");
const QString kTenant = QStringLiteral("tenant");
const QString kModel = QStringLiteral("model");
const QString kWorkloadType = QStringLiteral("workload_type");
const QString kGpus = QStringLiteral("gpus");

} // namespace

std::vector<engine::TelemetrySample> parseTelemetry(const QByteArray &csv, const QString &sourceName)
{
    const CsvTable table = readCsvTable(
        csv, sourceName, limits::kTelemetryCsv, {kTimestamp, kTenant, kModel, kWorkloadType, kGpus},
        QStringLiteral("expected the header timestamp,tenant,model,workload_type,gpus"),
        QStringLiteral("the header must name timestamp, tenant, model, workload_type and gpus"));

    std::vector<engine::TelemetrySample> samples;
    for (const CsvRecord &record : table.rows) {
        auto field = [&](const QString &name) { return table.field(record, name); };
        engine::TelemetrySample sample;
        sample.line = record.line;

        const QString stamp = field(kTimestamp);
        QDateTime time = QDateTime::fromString(stamp, Qt::ISODateWithMs);
        if (!time.isValid())
            failCsvField(sourceName, record.line, kTimestamp,
                      QStringLiteral("'%1' is not an ISO 8601 date and time (e.g. 2026-03-02T14:00:00Z)").arg(shownValue(stamp)));
        if (time.timeSpec() == Qt::LocalTime)
            time.setTimeSpec(Qt::UTC);
        sample.epochSeconds = time.toSecsSinceEpoch();
        if (sample.epochSeconds < 0)
            failCsvField(sourceName, record.line, kTimestamp, QStringLiteral("'%1' is before 1970").arg(shownValue(stamp)));

        for (const QString &name : {kTenant, kModel, kWorkloadType})
            if (field(name).isEmpty())
                failCsvField(sourceName, record.line, name, QStringLiteral("is empty"));
        sample.key.tenant = field(kTenant).toStdString();
        sample.key.model = field(kModel).toStdString();
        sample.key.workloadType = field(kWorkloadType).toStdString();

        const QString gpus = field(kGpus);
        bool ok = false;
        const double value = gpus.toDouble(&ok);
        if (gpus.isEmpty())
            failCsvField(sourceName, record.line, kGpus, QStringLiteral("is empty"));
        if (!ok)
            failCsvField(sourceName, record.line, kGpus, QStringLiteral("'%1' is not a number").arg(shownValue(gpus)));
        if (!std::isfinite(value))
            failCsvField(sourceName, record.line, kGpus, QStringLiteral("'%1' is not a finite number").arg(shownValue(gpus)));
        if (value < 0.0)
            failCsvField(sourceName, record.line, kGpus, QStringLiteral("%1 GPUs is negative").arg(shownValue(gpus)));
        if (value > limits::kMaxTelemetryGpus)
            failCsvField(sourceName, record.line, kGpus,
                         QStringLiteral("%1 GPUs is more than %2, the most one sample may count")
                             .arg(shownValue(gpus), QLocale(QLocale::English).toString(qint64(limits::kMaxTelemetryGpus))));
        sample.gpus = value;
        samples.push_back(std::move(sample));
    }
    if (samples.empty())
        throw StoreError(QStringLiteral("%1: no samples after the header on line %2").arg(sourceName).arg(table.header.line));
    return samples;
}

std::vector<engine::TelemetrySample> readTelemetry(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parseTelemetry(readImportFile(file, path, limits::kTelemetryCsv), path);
}

} // namespace headroom::store
