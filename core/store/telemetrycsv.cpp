#include "telemetrycsv.h"

#include "csvreader.h"
#include "storeerror.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <cmath>

namespace headroom::store {

namespace {

const QString kTimestamp = QStringLiteral("timestamp");
const QString kTenant = QStringLiteral("tenant");
const QString kModel = QStringLiteral("model");
const QString kWorkloadType = QStringLiteral("workload_type");
const QString kGpus = QStringLiteral("gpus");

[[noreturn]] void failField(const QString &source, int line, const QString &field, const QString &message)
{
    throw StoreError(QStringLiteral("%1: line %2: field \"%3\": %4").arg(source).arg(line).arg(field, message));
}

} // namespace

std::vector<engine::TelemetrySample> parseTelemetry(const QByteArray &csv, const QString &sourceName)
{
    const std::vector<CsvRecord> records = readCsvRecords(csv, sourceName);
    auto it = records.begin();
    while (it != records.end() && it->isBlank())
        ++it;
    if (it == records.end())
        throw StoreError(QStringLiteral("%1: the file is empty; expected the header "
                                        "timestamp,tenant,model,workload_type,gpus")
                             .arg(sourceName));
    const CsvRecord &header = *it;
    QHash<QString, int> columns;
    for (int i = 0; i < header.fields.size(); ++i)
        columns.insert(header.fields.at(i).trimmed().toLower(), i);
    for (const QString &name : {kTimestamp, kTenant, kModel, kWorkloadType, kGpus})
        if (!columns.contains(name))
            failField(sourceName, header.line, name,
                      QStringLiteral("missing column; the header must name timestamp, tenant, model, "
                                     "workload_type and gpus (got \"%1\")")
                          .arg(header.fields.join(QLatin1Char(','))));

    std::vector<engine::TelemetrySample> samples;
    for (++it; it != records.end(); ++it) {
        const CsvRecord &record = *it;
        if (record.isBlank())
            continue;
        if (record.fields.size() != header.fields.size())
            throw StoreError(QStringLiteral("%1: line %2: expected %3 fields as in the header, got %4")
                                 .arg(sourceName)
                                 .arg(record.line)
                                 .arg(header.fields.size())
                                 .arg(record.fields.size()));
        auto field = [&](const QString &name) { return record.fields.at(columns.value(name)); };
        engine::TelemetrySample sample;
        sample.line = record.line;

        const QString stamp = field(kTimestamp);
        QDateTime time = QDateTime::fromString(stamp, Qt::ISODateWithMs);
        if (!time.isValid())
            failField(sourceName, record.line, kTimestamp,
                      QStringLiteral("'%1' is not an ISO 8601 date and time (e.g. 2026-03-02T14:00:00Z)").arg(stamp));
        if (time.timeSpec() == Qt::LocalTime)
            time.setTimeSpec(Qt::UTC);
        sample.epochSeconds = time.toSecsSinceEpoch();
        if (sample.epochSeconds < 0)
            failField(sourceName, record.line, kTimestamp, QStringLiteral("'%1' is before 1970").arg(stamp));

        for (const QString &name : {kTenant, kModel, kWorkloadType})
            if (field(name).isEmpty())
                failField(sourceName, record.line, name, QStringLiteral("is empty"));
        sample.key.tenant = field(kTenant).toStdString();
        sample.key.model = field(kModel).toStdString();
        sample.key.workloadType = field(kWorkloadType).toStdString();

        const QString gpus = field(kGpus);
        bool ok = false;
        const double value = gpus.toDouble(&ok);
        if (gpus.isEmpty())
            failField(sourceName, record.line, kGpus, QStringLiteral("is empty"));
        if (!ok)
            failField(sourceName, record.line, kGpus, QStringLiteral("'%1' is not a number").arg(gpus));
        if (!std::isfinite(value))
            failField(sourceName, record.line, kGpus, QStringLiteral("'%1' is not a finite number").arg(gpus));
        if (value < 0.0)
            failField(sourceName, record.line, kGpus, QStringLiteral("%1 GPUs is negative").arg(gpus));
        sample.gpus = value;
        samples.push_back(std::move(sample));
    }
    if (samples.empty())
        throw StoreError(QStringLiteral("%1: no samples after the header on line %2").arg(sourceName).arg(header.line));
    return samples;
}

std::vector<engine::TelemetrySample> readTelemetry(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parseTelemetry(file.readAll(), path);
}

} // namespace headroom::store
