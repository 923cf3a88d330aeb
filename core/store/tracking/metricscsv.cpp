#include "metricscsv.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include "engine/common/errors.h"

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

// How far past the clock a sample may be dated: clocks of exporters and of this machine may
// differ by hours, never by more than a day. A later sample (9999-12-31) would otherwise
// become the "latest hour" every trailing window is measured back from.
constexpr qint64 kMaxSecondsAhead = 86400;

// RFC 3339 / ISO 8601 with "Z" or an offset (none = UTC), or epoch seconds, at most
// `latest` (seconds since 1970).
qint64 parseTime(const QString &stamp, const QString &source, int line, qint64 latest)
{
    const auto checked = [&](qint64 seconds) {
        if (seconds > latest)
            failCsvField(source, line, kTimestamp,
                         QStringLiteral("'%1' is more than a day after the current time (%2); a sample "
                                        "cannot come from the future (check the exporter's clock)")
                             .arg(shownValue(stamp),
                                  QDateTime::fromSecsSinceEpoch(latest - kMaxSecondsAhead, Qt::UTC)
                                      .toString(Qt::ISODate)));
        return seconds;
    };
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
        return checked(qint64(std::floor(seconds)));
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
    return checked(seconds);
}

} // namespace

qint64 MetricsFile::ignoredRows() const
{
    qint64 total = 0;
    for (const auto &entry : ignored)
        total += entry.second;
    return total;
}

namespace {

// Streams the export from `device` (a file is never held whole: a sample costs 24 bytes).
MetricsFile readMetrics(QIODevice &device, const QString &sourceName)
{
    const ImportLimits &limits = limits::kServingMetricsCsv;
    MetricsFile file;
    engine::ServingHoursBuilder builder;
    QHash<QString, int> seriesIndex;
    bool haveHeader = false;
    int headerLine = 0;
    int headerFields = 0;
    int cTime = -1, cInstance = -1, cGpu = -1, cMetric = -1, cValue = -1, cDeployment = -1, cLe = -1;
    QHash<QString, qsizetype> ignoredIndex;
    const qint64 latest = QDateTime::currentSecsSinceEpoch() + kMaxSecondsAhead;

    streamCsvRecords(device, sourceName, limits, [&](CsvRecord &record) {
        if (record.isBlank())
            return;
        if (!haveHeader) {
            haveHeader = true;
            headerLine = record.line;
            headerFields = int(record.fields.size());
            QHash<QString, int> columns;
            for (int i = 0; i < record.fields.size(); ++i) {
                const QString name = record.fields.at(i).trimmed().toLower();
                if (!name.isEmpty() && columns.contains(name))
                    failCsvField(sourceName, record.line, shownValue(record.fields.at(i)),
                                 QStringLiteral("the column appears twice (fields %1 and %2)")
                                     .arg(columns.value(name) + 1)
                                     .arg(i + 1));
                columns.insert(name, i);
            }
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
            failFieldCount(sourceName, record.line, record.fields.size(), headerFields);
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
        const qint64 epochSeconds = parseTime(record.fields.at(cTime), sourceName, record.line, latest);
        // The series: its labels checked and named once, then found by their text.
        const QString instance = record.fields.at(cInstance);
        const QString gpu = record.fields.at(cGpu);
        const QString deployment = cDeployment >= 0 ? record.fields.at(cDeployment) : QString();
        const QString le = engine::isHistogramBucket(*metric) && cLe >= 0 ? record.fields.at(cLe).trimmed() : QString();
        const QString key = deployment + QChar(0x1f) + instance + QChar(0x1f) + gpu + QChar(0x1f) + metricText
            + QChar(0x1f) + le;
        auto known = seriesIndex.constFind(key);
        if (known == seriesIndex.constEnd()) {
            if (instance.isEmpty())
                failCsvField(sourceName, record.line, kInstance, QStringLiteral("is empty"));
            if (engine::isGpuMetric(*metric) && gpu.isEmpty())
                failCsvField(sourceName, record.line, kGpu,
                             QStringLiteral("is empty; %1 is a per-GPU metric").arg(metricText));
            double bound = 0.0;
            if (engine::isHistogramBucket(*metric)) {
                // The bucket's upper bound in seconds: a positive number or +Inf.
                if (cLe < 0)
                    failCsvField(sourceName, record.line, kLe,
                                 QStringLiteral("missing column; %1 is a histogram bucket and needs its upper bound")
                                     .arg(metricText));
                if (le.isEmpty())
                    failCsvField(sourceName, record.line, kLe,
                                 QStringLiteral("is empty; %1 is a histogram bucket and needs its upper bound").arg(metricText));
                const std::optional<double> parsed = parseBucketBound(le);
                if (!parsed)
                    failCsvField(sourceName, record.line, kLe,
                                 QStringLiteral("'%1' is not a positive number of seconds or +Inf").arg(shownValue(le)));
                bound = *parsed;
            }
            const int id = builder.series(deployment.isEmpty() ? std::string("default") : deployment.toStdString(),
                                          instance.toStdString(), gpu.toStdString(), *metric, bound);
            known = seriesIndex.insert(key, id);
        }
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
        if (const QString problem = servingValueProblem(*metric, metricText, value); !problem.isEmpty())
            failCsvField(sourceName, record.line, kValue, shownValue(valueText) + QLatin1Char(' ') + problem);
        builder.add(known.value(), epochSeconds, value, record.line);
    });
    if (!haveHeader)
        throw StoreError(QStringLiteral("%1: the file is empty; expected the header timestamp,instance,gpu,metric,value")
                             .arg(sourceName));
    if (builder.samples() == 0)
        throw StoreError(QStringLiteral("%1: no sample of a known metric after the header on line %2 (%3 rows of other "
                                        "metrics ignored)")
                             .arg(sourceName)
                             .arg(headerLine)
                             .arg(file.ignoredRows()));
    file.samples = qint64(builder.samples());
    try {
        file.hours = builder.finish();
    } catch (const engine::InputError &error) {
        throw StoreError(QStringLiteral("%1: %2").arg(sourceName, QString::fromUtf8(error.what())));
    }
    return file;
}

} // namespace

std::optional<double> parseBucketBound(const QString &le)
{
    if (le == QLatin1String("+Inf") || le == QLatin1String("Inf") || le == QLatin1String("inf"))
        return std::numeric_limits<double>::infinity();
    bool ok = false;
    const double bound = le.toDouble(&ok);
    if (!ok || !std::isfinite(bound) || bound <= 0.0)
        return std::nullopt;
    return bound;
}

QString servingValueProblem(engine::ServingMetric metric, const QString &metricName, double value)
{
    if (value < 0.0)
        return QStringLiteral("is negative; %1 is never below 0").arg(metricName);
    if (metric == engine::ServingMetric::GpuUtil && value > 100.0)
        return QStringLiteral("is above 100; GPU utilization is a percentage");
    if (metric == engine::ServingMetric::KvCacheUsage && value > 1.0)
        return QStringLiteral("is above 1; %1 is a share from 0 to 1").arg(metricName);
    return {};
}

MetricsFile parseMetricsCsv(const QByteArray &csv, const QString &sourceName)
{
    checkImportBytes(csv.size(), sourceName, limits::kServingMetricsCsv);
    QBuffer buffer;
    buffer.setData(csv);
    buffer.open(QIODevice::ReadOnly);
    return readMetrics(buffer, sourceName);
}

MetricsFile readMetricsCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    if (file.isSequential()) {
        // A pipe: its size is unknown, so it is read within the limit first.
        const QByteArray bytes = readImportFile(file, path, limits::kServingMetricsCsv);
        return parseMetricsCsv(bytes, path);
    }
    checkImportBytes(file.size(), path, limits::kServingMetricsCsv);
    return readMetrics(file, path);
}

} // namespace headroom::store
