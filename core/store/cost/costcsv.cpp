#include "costcsv.h"

#include "store/catalog/catalogkeys.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <map>

namespace headroom::store {

namespace {

constexpr int64_t kSecondsPerHour = 3600;
// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds.
constexpr int64_t kFirstSecond = -62'135'596'800;
constexpr int64_t kLastSecond = 253'402'300'799;

const QString kGpusColumn = QStringLiteral("gpus");
const QString kTimestampColumn = QStringLiteral("timestamp");

// The rate card columns in the order rateCardsToCsv writes them.
const QStringList &kRateCardColumns = rateCardKeys();

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

QString quotedList(const QStringList &names)
{
    QStringList quoted;
    for (const QString &name : names)
        quoted << QLatin1Char('"') + name + QLatin1Char('"');
    return quoted.join(QStringLiteral(", "));
}

[[noreturn]] void failAt(const QString &source, int line, const QString &message)
{
    throw StoreError(QStringLiteral("%1: line %2: %3").arg(source).arg(line).arg(message));
}

[[noreturn]] void failField(const QString &source, int line, const QString &field,
                            const QString &message)
{
    failAt(source, line, QStringLiteral("field \"%1\": %2").arg(field, message));
}

std::optional<engine::Decimal> parseDecimal(const QString &value)
{
    return engine::Decimal::parse(value.toStdString());
}

QString isoHour(int64_t epochSeconds)
{
    return QDateTime::fromSecsSinceEpoch(epochSeconds, Qt::UTC).toString(Qt::ISODate);
}

// Records without the blank lines at the end of the file.
std::vector<CsvRecord> withoutTrailingBlankLines(std::vector<CsvRecord> records)
{
    while (!records.empty() && records.back().isBlank())
        records.pop_back();
    return records;
}

// --- rate cards -------------------------------------------------------------------------

class RateCardRow {
public:
    RateCardRow(const CsvRecord &record, const QHash<QString, int> &columns, const QString &source)
        : m_record(record), m_columns(columns), m_source(source)
    {
    }

    QString value(const QString &column) const
    {
        return m_record.fields.at(m_columns.value(column));
    }
    std::string string(const QString &column) const { return value(column).toStdString(); }

    engine::Decimal decimal(const QString &column) const
    {
        const QString raw = value(column);
        const auto parsed = parseDecimal(raw);
        if (!parsed)
            failField(m_source, m_record.line, column,
                      QStringLiteral("expected a decimal number, got \"%1\"").arg(shownValue(raw)));
        return *parsed;
    }

    int wholeNumber(const QString &column) const
    {
        const QString raw = value(column);
        bool ok = false;
        const int parsed = raw.toInt(&ok);
        if (!ok)
            failField(m_source, m_record.line, column,
                      QStringLiteral("expected a whole number, got \"%1\"").arg(shownValue(raw)));
        return parsed;
    }

    bool flag(const QString &column) const
    {
        const QString raw = value(column).toLower();
        if (raw == QLatin1String("1") || raw == QLatin1String("true"))
            return true;
        if (raw == QLatin1String("0") || raw == QLatin1String("false"))
            return false;
        failField(m_source, m_record.line, column,
                  QStringLiteral("expected 1 or 0, got \"%1\"").arg(shownValue(value(column))));
    }

private:
    const CsvRecord &m_record;
    const QHash<QString, int> &m_columns;
    QString m_source;
};

QHash<QString, int> readRateCardHeader(const CsvRecord &header, const QString &source)
{
    QHash<QString, int> columns;
    for (int index = 0; index < header.fields.size(); ++index) {
        const QString name = header.fields.at(index).toLower();
        if (!kRateCardColumns.contains(name))
            failAt(source, header.line,
                   QStringLiteral("unknown column \"%1\" (the columns are %2)")
                       .arg(shownValue(header.fields.at(index)), kRateCardColumns.join(QStringLiteral(", "))));
        if (columns.contains(name))
            failAt(source, header.line, QStringLiteral("column \"%1\" appears twice").arg(shownValue(name)));
        columns.insert(name, index);
    }
    QStringList missing;
    for (const QString &name : kRateCardColumns) {
        if (!columns.contains(name))
            missing << name;
    }
    if (!missing.isEmpty())
        failAt(source, header.line,
               QStringLiteral("missing %1 %2")
                   .arg(missing.size() == 1 ? QStringLiteral("column") : QStringLiteral("columns"),
                        quotedList(missing)));
    return columns;
}

engine::RateCard readRateCard(const RateCardRow &row)
{
    engine::RateCard card;
    card.provider = row.string(QStringLiteral("provider"));
    card.region = row.string(QStringLiteral("region"));
    card.gpuId = row.string(QStringLiteral("gpu"));
    card.instanceType = row.string(QStringLiteral("instance_type"));
    card.currency = row.string(QStringLiteral("currency"));
    card.effectiveDate = row.string(QStringLiteral("effective_date"));
    card.onDemand = row.decimal(QStringLiteral("on_demand"));
    card.reserved1y = row.decimal(QStringLiteral("reserved_1y"));
    card.reserved1yUpfront = row.decimal(QStringLiteral("reserved_1y_upfront"));
    card.reserved3y = row.decimal(QStringLiteral("reserved_3y"));
    card.reserved3yUpfront = row.decimal(QStringLiteral("reserved_3y_upfront"));
    card.spot = row.decimal(QStringLiteral("spot"));
    card.spotInterruptionRate = row.decimal(QStringLiteral("spot_interruption_rate"));
    card.reservationLeadWeeks = row.wholeNumber(QStringLiteral("lead_weeks"));
    card.committedAreExamples = row.flag(QStringLiteral("committed_are_examples"));
    card.source = row.string(QStringLiteral("source"));
    return card;
}

QString describeProblems(const std::vector<engine::FieldProblem> &problems)
{
    QStringList parts;
    for (const auto &problem : problems)
        parts << QStringLiteral("field \"%1\": %2").arg(text(problem.field), text(problem.message));
    return parts.join(QStringLiteral("; "));
}

// --- demand -----------------------------------------------------------------------------

// ISO 8601 (UTC when no offset is given) or whole Unix seconds.
std::optional<int64_t> parseTimestamp(const QString &value)
{
    static const QRegularExpression unixSeconds(QStringLiteral("^[+-]?[0-9]+$"));
    if (unixSeconds.match(value).hasMatch()) {
        bool ok = false;
        const qlonglong seconds = value.toLongLong(&ok);
        // Years 1 to 9999, as an ISO 8601 time can say; hour steps cannot overflow.
        if (!ok || seconds < kFirstSecond || seconds > kLastSecond)
            return std::nullopt;
        return seconds;
    }
    QDateTime time = QDateTime::fromString(value, Qt::ISODate);
    if (!time.isValid())
        return std::nullopt;
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeSpec(Qt::UTC);
    const int64_t seconds = time.toSecsSinceEpoch();
    if (seconds < kFirstSecond || seconds > kLastSecond)
        return std::nullopt;
    return seconds;
}

bool isDemandHeader(const CsvRecord &record)
{
    const QStringList &fields = record.fields;
    if (fields.size() == 1)
        return fields.at(0).compare(kGpusColumn, Qt::CaseInsensitive) == 0;
    return fields.size() == 2 && fields.at(0).compare(kTimestampColumn, Qt::CaseInsensitive) == 0
        && fields.at(1).compare(kGpusColumn, Qt::CaseInsensitive) == 0;
}

QString demandColumnsText(int columns)
{
    return columns == 1 ? QStringLiteral("1 field (gpus)")
                        : QStringLiteral("2 fields (timestamp,gpus)");
}

} // namespace

std::vector<engine::RateCard> parseRateCardsCsv(const QByteArray &csv, const QString &sourceName)
{
    std::vector<CsvRecord> records;
    for (CsvRecord &record : readCsvRecords(csv, sourceName, limits::kRateCardCsv)) {
        if (!record.isBlank())
            records.push_back(std::move(record));
    }
    if (records.empty())
        throw StoreError(QStringLiteral("%1: the file is empty; expected a header row with the "
                                        "columns %2")
                             .arg(sourceName, kRateCardColumns.join(QStringLiteral(", "))));
    const CsvRecord &header = records.front();
    const QHash<QString, int> columns = readRateCardHeader(header, sourceName);
    if (records.size() == 1)
        throw StoreError(QStringLiteral("%1: no rate cards after the header on line %2")
                             .arg(sourceName)
                             .arg(header.line));

    std::vector<engine::RateCard> cards;
    std::map<std::string, int> firstLineOfKey;
    for (size_t index = 1; index < records.size(); ++index) {
        const CsvRecord &record = records[index];
        if (record.fields.size() != header.fields.size())
            failFieldCount(sourceName, record.line, record.fields.size(), header.fields.size());
        engine::RateCard card = readRateCard(RateCardRow(record, columns, sourceName));
        const auto problems = engine::validate(card);
        if (!problems.empty())
            failAt(sourceName, record.line, describeProblems(problems));
        const auto [first, inserted] = firstLineOfKey.emplace(card.key(), record.line);
        if (!inserted)
            failAt(sourceName, record.line,
                   QStringLiteral("rate card \"%1\" appears more than once (first on line %2)")
                       .arg(text(card.key()))
                       .arg(first->second));
        cards.push_back(std::move(card));
    }
    return cards;
}

QByteArray rateCardsToCsv(const std::vector<engine::RateCard> &cards)
{
    const auto decimal = [](engine::Decimal value) { return text(value.toString()); };
    QString out = kRateCardColumns.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const auto &card : cards) {
        const QStringList fields = {
            text(card.provider),
            text(card.region),
            text(card.gpuId),
            text(card.instanceType),
            text(card.currency),
            text(card.effectiveDate),
            decimal(card.onDemand),
            decimal(card.reserved1y),
            decimal(card.reserved1yUpfront),
            decimal(card.reserved3y),
            decimal(card.reserved3yUpfront),
            decimal(card.spot),
            decimal(card.spotInterruptionRate),
            QString::number(card.reservationLeadWeeks),
            card.committedAreExamples ? QStringLiteral("1") : QStringLiteral("0"),
            text(card.source),
        };
        QStringList quoted;
        for (const QString &field : fields)
            quoted << csvField(field);
        out += quoted.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

engine::DemandSeries parseDemandCsv(const QByteArray &csv, const QString &sourceName)
{
    const std::vector<CsvRecord> records =
        withoutTrailingBlankLines(readCsvRecords(csv, sourceName, limits::kDemandCsv));
    if (records.empty())
        throw StoreError(QStringLiteral("%1: the file is empty; expected a \"gpus\" column or "
                                        "\"timestamp,gpus\" columns with one row per hour")
                             .arg(sourceName));

    const int columns = int(records.front().fields.size());
    if (columns > 2)
        failAt(sourceName, records.front().line,
               QStringLiteral("expected 1 field (gpus) or 2 (timestamp,gpus), got %1")
                   .arg(columns));
    const bool hasHeader = isDemandHeader(records.front());
    const size_t firstData = hasHeader ? 1 : 0;
    if (firstData == records.size())
        throw StoreError(QStringLiteral("%1: no data rows after the header on line %2")
                             .arg(sourceName)
                             .arg(records.front().line));

    if (records.size() - firstData > size_t(limits::kDemandCsv.maxRows))
        failTooManyRows(sourceName, records[firstData + size_t(limits::kDemandCsv.maxRows)].line,
                        limits::kDemandCsv);

    engine::DemandSeries series;
    series.name = QFileInfo(sourceName).completeBaseName().toStdString();
    series.source = sourceName.toStdString();
    series.gpus.reserve(records.size() - firstData);
    int64_t previousTime = 0;
    int previousLine = 0;
    for (size_t index = firstData; index < records.size(); ++index) {
        const CsvRecord &record = records[index];
        if (record.isBlank())
            failAt(sourceName, record.line,
                   QStringLiteral("empty line (every hour needs a value; remove the line or "
                                  "give the hour its value)"));
        if (record.fields.size() != columns)
            failAt(sourceName, record.line,
                   QStringLiteral("expected %1, got %2")
                       .arg(demandColumnsText(columns))
                       .arg(record.fields.size()));

        if (columns == 2) {
            const QString raw = record.fields.at(0);
            const auto time = parseTimestamp(raw);
            if (!time)
                failField(sourceName, record.line, kTimestampColumn,
                          QStringLiteral("expected an ISO 8601 UTC time such as "
                                         "2024-01-01T10:00:00Z or Unix seconds, in the years 1 "
                                         "to 9999, got \"%1\"")
                              .arg(shownValue(raw)));
            if (index == firstData) {
                series.startEpochSeconds = *time;
            } else {
                const int64_t expected = previousTime + kSecondsPerHour;
                const int64_t step = *time - previousTime;
                if (*time > expected && step % kSecondsPerHour == 0) {
                    const int64_t lastMissing = *time - kSecondsPerHour;
                    const QString missing = expected == lastMissing
                        ? QStringLiteral("hour %1 is missing").arg(isoHour(expected))
                        : QStringLiteral("hours %1 to %2 are missing")
                              .arg(isoHour(expected), isoHour(lastMissing));
                    failAt(sourceName, record.line,
                           QStringLiteral("gap: %1 (series must be hourly without gaps)")
                               .arg(missing));
                }
                if (*time != expected)
                    failField(sourceName, record.line, kTimestampColumn,
                              QStringLiteral("expected %1, one hour after line %2, got \"%3\"")
                                  .arg(isoHour(expected))
                                  .arg(previousLine)
                                  .arg(shownValue(raw)));
            }
            previousTime = *time;
            previousLine = record.line;
        }

        const QString raw = record.fields.back();
        const auto gpus = parseDecimal(raw);
        if (!gpus) {
            const bool headerLike = index == 0 && columns == 1;
            failField(sourceName, record.line, kGpusColumn,
                      headerLike ? QStringLiteral("expected a decimal number or the header "
                                                  "\"gpus\", got \"%1\"")
                                       .arg(shownValue(raw))
                                 : QStringLiteral("expected a decimal number, got \"%1\"")
                                       .arg(shownValue(raw)));
        }
        if (gpus->isNegative())
            failField(sourceName, record.line, kGpusColumn,
                      QStringLiteral("must be ≥ 0 (got %1)").arg(shownValue(raw)));
        series.gpus.push_back(*gpus);
    }
    return series;
}

engine::DemandSeries readDemandCsvFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read the demand file %1: %2")
                             .arg(path, file.errorString()));
    return parseDemandCsv(readImportFile(file, path, limits::kDemandCsv), path);
}

QByteArray demandToCsv(const engine::DemandSeries &series)
{
    const bool timestamps = series.startEpochSeconds != 0;
    QString out = timestamps ? kTimestampColumn + QLatin1Char(',') + kGpusColumn : kGpusColumn;
    out += QLatin1Char('\n');
    int64_t time = series.startEpochSeconds;
    for (const engine::Decimal &value : series.gpus) {
        if (timestamps) {
            out += isoHour(time) + QLatin1Char(',');
            time += kSecondsPerHour;
        }
        out += text(value.toString()) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

} // namespace headroom::store
