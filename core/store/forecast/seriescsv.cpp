#include "seriescsv.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QDateTime>
#include <QFile>
#include <cmath>
#include <optional>

namespace headroom::store {

namespace {

const QString kTimestampColumn = QStringLiteral("timestamp");
const QString kValueColumn = QStringLiteral("value");

[[noreturn]] void failAt(const QString &source, int line, const QString &message)
{
    throw StoreError(QStringLiteral("%1: line %2: %3").arg(source).arg(line).arg(message));
}

[[noreturn]] void failField(const QString &source, int line, const QString &field,
                            const QString &message)
{
    failAt(source, line, QStringLiteral("field \"%1\": %2").arg(field, message));
}

QByteArray readWholeFile(const QString &path, const ImportLimits &limits)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return readImportFile(file, path, limits);
}

// A finite number, or nullopt with `problem` saying why not.
std::optional<double> parseFinite(const QString &text, QString &problem)
{
    if (text.isEmpty()) {
        problem = QStringLiteral("the value is empty");
        return std::nullopt;
    }
    if (text.contains(QChar(0))) {
        problem = QStringLiteral("'%1' holds a NUL byte").arg(shownValue(text));
        return std::nullopt;
    }
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok) {
        problem = QStringLiteral("'%1' is not a number").arg(shownValue(text));
        return std::nullopt;
    }
    if (!std::isfinite(value)) {
        problem = QStringLiteral("'%1' is not a finite number").arg(shownValue(text));
        return std::nullopt;
    }
    return value;
}

std::optional<QDateTime> parseIsoTime(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        return std::nullopt;
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeSpec(Qt::UTC);
    return time;
}

bool isHeader(const CsvRecord &record)
{
    const QStringList &fields = record.fields;
    if (fields.size() == 1)
        return fields.at(0).compare(kValueColumn, Qt::CaseInsensitive) == 0;
    return fields.size() == 2 && fields.at(0).compare(kTimestampColumn, Qt::CaseInsensitive) == 0
        && fields.at(1).compare(kValueColumn, Qt::CaseInsensitive) == 0;
}

} // namespace

std::vector<double> readValueSeries(const QString &path)
{
    return parseValueSeries(readWholeFile(path, limits::kSeriesCsv), path);
}

std::vector<double> readNumberLines(const QString &path)
{
    return parseNumberLines(readWholeFile(path, limits::kNumberLines), path);
}

std::vector<double> parseValueSeries(const QByteArray &csv, const QString &path)
{
    std::vector<CsvRecord> records = readCsvRecords(csv, path, limits::kSeriesCsv);
    while (!records.empty() && records.back().isBlank())
        records.pop_back();
    if (records.empty())
        throw StoreError(QStringLiteral("%1: the file is empty; expected a \"value\" column or "
                                        "\"timestamp,value\" columns")
                             .arg(path));
    const qsizetype columns = records.front().fields.size();
    if (columns > 2)
        failAt(path, records.front().line,
               QStringLiteral("expected 1 field (value) or 2 (timestamp,value), got %1").arg(columns));
    const size_t firstData = isHeader(records.front()) ? 1 : 0;
    if (firstData == records.size())
        throw StoreError(QStringLiteral("%1: no values after the header on line %2")
                             .arg(path)
                             .arg(records.front().line));

    std::vector<double> values;
    values.reserve(records.size() - firstData);
    std::optional<QDateTime> previousTime;
    int previousLine = 0;
    for (size_t index = firstData; index < records.size(); ++index) {
        const CsvRecord &record = records[index];
        if (record.fields.size() != columns)
            failAt(path, record.line,
                   QStringLiteral("expected %1 field%2 as on line %3, got %4")
                       .arg(columns)
                       .arg(columns == 1 ? QString() : QStringLiteral("s"))
                       .arg(records.front().line)
                       .arg(record.fields.size()));
        if (columns == 2) {
            const QString &stamp = record.fields.at(0);
            const std::optional<QDateTime> time = parseIsoTime(stamp);
            if (!time)
                failField(path, record.line, kTimestampColumn,
                          QStringLiteral("'%1' is not an ISO 8601 date and time").arg(shownValue(stamp)));
            if (previousTime && !(*time > *previousTime))
                failField(path, record.line, kTimestampColumn,
                          QStringLiteral("%1 is not after %2 on line %3; timestamps must increase strictly")
                              .arg(shownValue(stamp), previousTime->toString(Qt::ISODate))
                              .arg(previousLine));
            previousTime = time;
            previousLine = record.line;
        }
        QString problem;
        const std::optional<double> value = parseFinite(record.fields.constLast(), problem);
        if (!value)
            failField(path, record.line, kValueColumn, problem);
        values.push_back(*value);
    }
    return values;
}

std::vector<double> parseNumberLines(const QByteArray &text, const QString &path)
{
    checkImportBytes(text.size(), path, limits::kNumberLines);
    if (text.count('\n') > limits::kNumberLines.maxRows)
        failTooManyRows(path, int(limits::kNumberLines.maxRows + 1), limits::kNumberLines);
    QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty())
        lines.removeLast();
    if (lines.isEmpty())
        throw StoreError(QStringLiteral("%1: the file is empty; expected one number per line").arg(path));
    std::vector<double> values;
    values.reserve(size_t(lines.size()));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString text = lines.at(i).trimmed();
        if (i == 0 && text.startsWith(QChar(0xFEFF)))
            text = text.mid(1).trimmed();
        QString problem;
        const std::optional<double> value = parseFinite(text, problem);
        if (!value)
            failAt(path, int(i + 1), problem);
        values.push_back(*value);
    }
    return values;
}

} // namespace headroom::store
