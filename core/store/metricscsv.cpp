#include "metricscsv.h"

#include "csvreader.h"
#include "importlimits.h"
#include "storeerror.h"

#include "engine/errors.h"

#include <QBuffer>
#include <QDateTime>
#include <QFile>
#include <QHash>
#include <cmath>
#include <limits>

namespace headroom::store {

namespace {

const QString kTimestamp = QStringLiteral("timestamp");
const QString kInstance = QStringLiteral("instance");
const QString kGpu = QStringLiteral("gpu");
const QString kMetric = QStringLiteral("metric");
const QString kValue = QStringLiteral("value");
const QString kDeployment = QStringLiteral("deployment");
const QString kLe = QStringLiteral("le");

// RFC 3339 / ISO 8601 with "Z" or an offset (none = UTC), or epoch seconds.
qint64 parseTime(const QString &stamp, const QString &source, int line)
{
    bool isNumber = !stamp.isEmpty();
    for (QChar c : stamp)
        if (!(c.isDigit() || c == QLatin1Char('.')))
            isNumber = false;
    if (isNumber) {
        bool ok = false;
        const double seconds = stamp.toDouble(&ok);
        // Up to the year 9999.
        if (!ok || !std::isfinite(seconds) || seconds > 253402300799.0)
            failCsvField(source, line, kTimestamp,
                         QStringLiteral("'%1' is not epoch seconds").arg(shownValue(stamp)));
        return qint64(std::floor(seconds));
    }
    QDateTime time = QDateTime::fromString(stamp, Qt::ISODateWithMs);
    if (!time.isValid())
        failCsvField(source, line, kTimestamp,
                     QStringLiteral("'%1' is neither RFC 3339 (e.g. 2026-03-02T14:00:00Z) nor epoch seconds")
                         .arg(shownValue(stamp)));
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeSpec(Qt::UTC);
    const qint64 seconds = time.toSecsSinceEpoch();
    if (seconds < 0)
        failCsvField(source, line, kTimestamp, QStringLiteral("'%1' is before 1970").arg(shownValue(stamp)));
    return seconds;
}

} // namespace

qint64 MetricsFile::ignoredRows() const
{
    qint64 total = 0;
    for (const auto &entry : ignored)
        total += entry.second;
    return total;
}

MetricsFile parseMetricsCsv(const QByteArray &csv, const QString &sourceName)
{
    const ImportLimits &limits = limits::kServingMetricsCsv;
    checkImportBytes(csv.size(), sourceName, limits);
    QBuffer buffer;
    buffer.setData(csv);
    buffer.open(QIODevice::ReadOnly);

    MetricsFile file;
    std::vector<engine::MetricSample> samples;
    bool haveHeader = false;
    int headerLine = 0;
    int headerFields = 0;
    int cTime = -1, cInstance = -1, cGpu = -1, cMetric = -1, cValue = -1, cDeployment = -1, cLe = -1;
    QHash<QString, qsizetype> ignoredIndex;

    streamCsvRecords(buffer, sourceName, limits, [&](CsvRecord &record) {
        if (record.isBlank())
            return;
        if (!haveHeader) {
            haveHeader = true;
            headerLine = record.line;
            headerFields = int(record.fields.size());
            QHash<QString, int> columns;
            for (int i = 0; i < record.fields.size(); ++i)
                columns.insert(record.fields.at(i).trimmed().toLower(), i);
            for (const QString &name : {kTimestamp, kInstance, kGpu, kMetric, kValue})
                if (!columns.contains(name))
                    failCsvField(sourceName, record.line, name,
                                 QStringLiteral("missing column; the header must name timestamp, instance, gpu, "
                                                "metric and value (it reads \"%1\")")
                                     .arg(shownValue(record.fields.join(QLatin1Char(',')))));
            cTime = columns.value(kTimestamp);
            cInstance = columns.value(kInstance);
            cGpu = columns.value(kGpu);
            cMetric = columns.value(kMetric);
            cValue = columns.value(kValue);
            cDeployment = columns.value(kDeployment, -1);
            cLe = columns.value(kLe, -1);
            return;
        }
        if (record.fields.size() != headerFields)
            throw StoreError(QStringLiteral("%1: line %2: expected %3 fields as in the header, got %4")
                                 .arg(sourceName)
                                 .arg(record.line)
                                 .arg(headerFields)
                                 .arg(record.fields.size()));
        ++file.rows;
        if (file.rows > limits.maxRows)
            failTooManyRows(sourceName, record.line, limits);
        const QString metricText = record.fields.at(cMetric);
        const auto metric = engine::parseServingMetric(metricText.toStdString());
        if (!metric) {
            if (metricText.isEmpty())
                failCsvField(sourceName, record.line, kMetric, QStringLiteral("is empty"));
            auto found = ignoredIndex.constFind(metricText);
            if (found == ignoredIndex.constEnd()) {
                ignoredIndex.insert(metricText, qsizetype(file.ignored.size()));
                file.ignored.emplace_back(metricText, 1);
            } else {
                ++file.ignored[size_t(found.value())].second;
            }
            return;
        }
        engine::MetricSample sample;
        sample.line = record.line;
        sample.metric = *metric;
        sample.epochSeconds = parseTime(record.fields.at(cTime), sourceName, record.line);
        const QString instance = record.fields.at(cInstance);
        if (instance.isEmpty())
            failCsvField(sourceName, record.line, kInstance, QStringLiteral("is empty"));
        sample.instance = instance.toStdString();
        const QString gpu = record.fields.at(cGpu);
        if (engine::isGpuMetric(*metric) && gpu.isEmpty())
            failCsvField(sourceName, record.line, kGpu,
                         QStringLiteral("is empty; %1 is a per-GPU metric").arg(metricText));
        sample.gpu = gpu.toStdString();
        if (engine::isHistogramBucket(*metric)) {
            // The bucket's upper bound in seconds: a positive number or +Inf.
            const QString le = cLe >= 0 ? record.fields.at(cLe).trimmed() : QString();
            if (cLe < 0)
                failCsvField(sourceName, record.line, kLe,
                             QStringLiteral("missing column; %1 is a histogram bucket and needs its upper bound").arg(metricText));
            if (le.isEmpty())
                failCsvField(sourceName, record.line, kLe,
                             QStringLiteral("is empty; %1 is a histogram bucket and needs its upper bound").arg(metricText));
            if (le == QLatin1String("+Inf") || le == QLatin1String("Inf") || le == QLatin1String("inf")) {
                sample.le = std::numeric_limits<double>::infinity();
            } else {
                bool ok = false;
                sample.le = le.toDouble(&ok);
                if (!ok || !std::isfinite(sample.le) || sample.le <= 0.0)
                    failCsvField(sourceName, record.line, kLe,
                                 QStringLiteral("'%1' is not a positive number of seconds or +Inf").arg(shownValue(le)));
            }
        }
        const QString deployment = cDeployment >= 0 ? record.fields.at(cDeployment) : QString();
        sample.deployment = deployment.isEmpty() ? std::string("default") : deployment.toStdString();

        const QString valueText = record.fields.at(cValue);
        if (valueText.isEmpty())
            failCsvField(sourceName, record.line, kValue, QStringLiteral("is empty"));
        bool ok = false;
        const double value = valueText.toDouble(&ok);
        if (!ok)
            failCsvField(sourceName, record.line, kValue, QStringLiteral("'%1' is not a number").arg(shownValue(valueText)));
        if (!std::isfinite(value))
            failCsvField(sourceName, record.line, kValue,
                         QStringLiteral("'%1' is not a finite number").arg(shownValue(valueText)));
        if (value < 0.0)
            failCsvField(sourceName, record.line, kValue,
                         QStringLiteral("%1 is negative; %2 is never below 0").arg(shownValue(valueText), metricText));
        if (*metric == engine::ServingMetric::GpuUtil && value > 100.0)
            failCsvField(sourceName, record.line, kValue,
                         QStringLiteral("%1 is above 100; GPU utilization is a percentage").arg(shownValue(valueText)));
        if (*metric == engine::ServingMetric::KvCacheUsage && value > 1.0)
            failCsvField(sourceName, record.line, kValue,
                         QStringLiteral("%1 is above 1; vllm:gpu_cache_usage_perc is a share from 0 to 1")
                             .arg(shownValue(valueText)));
        sample.value = value;
        samples.push_back(std::move(sample));
    });
    if (!haveHeader)
        throw StoreError(QStringLiteral("%1: the file is empty; expected the header timestamp,instance,gpu,metric,value")
                             .arg(sourceName));
    if (samples.empty())
        throw StoreError(QStringLiteral("%1: no sample of a known metric after the header on line %2 (%3 rows of other "
                                        "metrics ignored)")
                             .arg(sourceName)
                             .arg(headerLine)
                             .arg(file.ignoredRows()));
    file.samples = qint64(samples.size());
    try {
        file.hours = engine::aggregateServingHours(std::move(samples));
    } catch (const engine::InputError &error) {
        throw StoreError(QStringLiteral("%1: %2").arg(sourceName, QString::fromUtf8(error.what())));
    }
    return file;
}

MetricsFile readMetricsCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parseMetricsCsv(readImportFile(file, path, limits::kServingMetricsCsv), path);
}

} // namespace headroom::store
