#include "tracereaders.h"

#include "store/common/importlimits.h"
#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"
#include "store/inference/workloadjson.h"

#include <QByteArrayView>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <cmath>
#include <algorithm>
#include <limits>
#include <optional>

namespace headroom::store {

namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kSecondsPerDay = 86'400;
constexpr double kMillisPerSecond = 1000.0;

const char *const kAzureFields[] = {"TIMESTAMP", "ContextTokens", "GeneratedTokens"};
const QByteArray kAzureHeader = "TIMESTAMP,ContextTokens,GeneratedTokens";

// Azure timestamps are held as 64-bit nanoseconds since 1970, which reach 2262; the span
// between two requests must fit too, so years before 1970 or after 2200 are refused.
constexpr int kFirstAzureYear = 1970;
constexpr int kLastAzureYear = 2200;
// Mooncake timestamps: at most 100 years of milliseconds.
constexpr double kMaxMooncakeMs = 100.0 * 365.25 * 86'400'000.0;

// A value as shown in an error message: quoted, cut after limits::kShownChars characters.
QString shown(QByteArrayView value)
{
    return quoted(shownValue(QByteArray::fromRawData(value.data(), value.size())));
}

// Requests to reserve room for: one per line break, but never more than the row limit.
size_t expectedRequests(const QByteArray &text, const ImportLimits &limits)
{
    return size_t(std::min<qint64>(text.count('\n') + 1, limits.maxRows));
}

QByteArrayView trimmed(QByteArrayView value)
{
    qsizetype first = 0;
    qsizetype last = value.size();
    while (first < last && (value[first] == ' ' || value[first] == '\t'))
        ++first;
    while (last > first && (value[last - 1] == ' ' || value[last - 1] == '\t'))
        --last;
    return value.sliced(first, last - first);
}

// Splits text into lines at LF, dropping a CR before it; the last line may lack its LF.
class LineSplitter {
public:
    explicit LineSplitter(const QByteArray &text) : m_text(text)
    {
        if (m_text.startsWith("\xEF\xBB\xBF"))
            m_pos = 3;
    }

    bool next(QByteArrayView &line)
    {
        if (m_pos >= m_text.size())
            return false;
        qsizetype end = m_text.indexOf('\n', m_pos);
        const qsizetype nextPos = end < 0 ? m_text.size() : end + 1;
        if (end < 0)
            end = m_text.size();
        if (end > m_pos && m_text.at(end - 1) == '\r')
            --end;
        line = QByteArrayView(m_text.constData() + m_pos, end - m_pos);
        m_pos = nextPos;
        ++m_number;
        return true;
    }

    int number() const { return m_number; }

private:
    const QByteArray &m_text;
    qsizetype m_pos = 0;
    int m_number = 0;
};

// Errors of one trace line: "<source>: line N: ...".
class LineErrors {
public:
    explicit LineErrors(const QString &source) : m_source(source) {}

    void setLine(int line) { m_line = line; }

    [[noreturn]] void fail(const QString &message) const
    {
        throw StoreError(QStringLiteral("%1: line %2: %3").arg(m_source).arg(m_line).arg(message));
    }

    [[noreturn]] void failField(const char *field, const QString &message) const
    {
        fail(QStringLiteral("field \"%1\": %2").arg(QLatin1String(field), message));
    }

    [[noreturn]] void failEmpty() const
    {
        throw StoreError(m_source + QStringLiteral(": no requests"));
    }

private:
    QString m_source;
    int m_line = 0;
};

// Digits only, no sign; false on anything else or on overflow.
bool parseWholeNumber(QByteArrayView text, int64_t &value)
{
    if (text.isEmpty())
        return false;
    int64_t result = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return false;
        const int digit = c - '0';
        if (result > (std::numeric_limits<int64_t>::max() - digit) / 10)
            return false;
        result = result * 10 + digit;
    }
    value = result;
    return true;
}

// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant, "chrono-Compatible
// Low-Level Date Algorithms", days_from_civil).
int64_t daysFromCivil(int64_t year, int month, int day)
{
    year -= month <= 2 ? 1 : 0;
    const int64_t era = (year >= 0 ? year : year - 399) / 400;
    const int64_t yearOfEra = year - era * 400;
    const int64_t dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    const int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
}

int daysInMonth(int64_t year, int month)
{
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

// Reads fixed-width fields of a timestamp left to right.
class TimestampCursor {
public:
    explicit TimestampCursor(QByteArrayView text) : m_text(text) {}

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }

    bool digits(int count, int &value)
    {
        if (m_pos + count > m_text.size())
            return false;
        int result = 0;
        for (int i = 0; i < count; ++i) {
            const char c = m_text[m_pos + i];
            if (c < '0' || c > '9')
                return false;
            result = result * 10 + (c - '0');
        }
        m_pos += count;
        value = result;
        return true;
    }

    bool expect(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }

    // Up to 9 digits after the decimal point, as nanoseconds.
    bool fraction(int64_t &nanos)
    {
        int64_t result = 0;
        int count = 0;
        while (!atEnd() && peek() >= '0' && peek() <= '9') {
            if (++count > 9)
                return false;
            result = result * 10 + (m_text[m_pos++] - '0');
        }
        for (int i = count; i < 9; ++i)
            result *= 10;
        nanos = result;
        return count > 0;
    }

private:
    QByteArrayView m_text;
    qsizetype m_pos = 0;
};

// "YYYY-MM-DD HH:MM:SS[.fffffffff][Z|±hh:mm]" (or a T between date and time) to nanoseconds
// since 1970-01-01 UTC.
std::optional<int64_t> parseTimestampNanos(QByteArrayView text)
{
    TimestampCursor in(text);
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!in.digits(4, year) || !in.expect('-') || !in.digits(2, month) || !in.expect('-')
        || !in.digits(2, day))
        return std::nullopt;
    if (!in.expect(' ') && !in.expect('T'))
        return std::nullopt;
    if (!in.digits(2, hour) || !in.expect(':') || !in.digits(2, minute) || !in.expect(':')
        || !in.digits(2, second))
        return std::nullopt;
    if (year < kFirstAzureYear || year > kLastAzureYear)
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23
        || minute > 59 || second > 59)
        return std::nullopt;
    int64_t nanos = 0;
    if (in.expect('.') && !in.fraction(nanos))
        return std::nullopt;
    int64_t offsetSeconds = 0;
    if (in.expect('Z')) {
        // UTC
    } else if (in.peek() == '+' || in.peek() == '-') {
        const int sign = in.peek() == '-' ? -1 : 1;
        in.expect(in.peek());
        int offsetHours = 0, offsetMinutes = 0;
        if (!in.digits(2, offsetHours) || !in.expect(':') || !in.digits(2, offsetMinutes)
            || offsetHours > 23 || offsetMinutes > 59)
            return std::nullopt;
        offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60);
    }
    if (!in.atEnd())
        return std::nullopt;
    const int64_t seconds = daysFromCivil(year, month, day) * kSecondsPerDay + hour * 3600
        + minute * 60 + second - offsetSeconds;
    return seconds * kNanosPerSecond + nanos;
}

// The four-digit year a timestamp starts with, or -1.
int leadingYear(QByteArrayView text)
{
    int year = 0;
    TimestampCursor in(text);
    return in.digits(4, year) && in.expect('-') ? year : -1;
}

// Refuses a line longer than the limit before it is split or parsed.
void checkLineLength(QByteArrayView line, const ImportLimits &limits, const LineErrors &errors)
{
    if (line.size() > limits.maxFieldChars)
        errors.fail(QStringLiteral("the line has %1 bytes; a line of a %3 file may have at most %2 "
                                   "(see \"Import limits\")")
                        .arg(line.size())
                        .arg(limits.maxFieldChars)
                        .arg(QLatin1String(limits.kind)));
}

void checkAzureHeader(QByteArrayView line, const LineErrors &errors)
{
    QByteArray normalised;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= line.size(); ++i) {
        if (i == line.size() || line[i] == ',') {
            if (start > 0)
                normalised += ',';
            normalised += trimmed(line.sliced(start, i - start)).toByteArray();
            start = i + 1;
        }
    }
    if (normalised != kAzureHeader)
        errors.fail(QStringLiteral("expected the header %1, got %2")
                        .arg(QLatin1String(kAzureHeader), shown(line)));
}

// Refuses a request's token count past limits::kMaxRequestTokens before anything is sized by it.
void checkRequestTokens(int64_t tokens, const char *name, const LineErrors &errors)
{
    if (tokens > limits::kMaxRequestTokens)
        errors.failField(name, QStringLiteral("%1 tokens; a request may have at most %2 (see \"Import limits\")")
                                   .arg(tokens)
                                   .arg(limits::kMaxRequestTokens));
}

int64_t tokenCount(QByteArrayView field, const char *name, const LineErrors &errors)
{
    int64_t value = 0;
    if (!parseWholeNumber(field, value))
        errors.failField(name, QStringLiteral("expected a whole number, got ") + shown(field));
    checkRequestTokens(value, name, errors);
    return value;
}

// A JSON number that is a whole number ≥ 0 and an exact 64-bit integer.
int64_t jsonCount(const QJsonValue &value, const char *name, const LineErrors &errors)
{
    if (value.isUndefined())
        errors.failField(name, QStringLiteral("missing"));
    if (!value.isDouble())
        errors.failField(name, QStringLiteral("expected a whole number, got ")
                                   + jsonTypeName(value));
    const double approx = value.toDouble();
    if (approx != std::trunc(approx) || approx < 0)
        errors.failField(name, QStringLiteral("expected a whole number ≥ 0, got %1").arg(approx));
    if (approx > double(limits::kMaxRequestTokens))
        errors.failField(name, QStringLiteral("%1 tokens; a request may have at most %2 (see \"Import limits\")")
                                   .arg(QString::fromUtf8(jsonScalarText(value)))
                                   .arg(limits::kMaxRequestTokens));
    const qint64 exact = value.toInteger(0);
    if (exact != value.toInteger(1))
        errors.failField(name, QStringLiteral("%1 is out of range").arg(approx));
    return exact;
}

} // namespace

std::vector<engine::TraceRequest> parseAzureTrace(const QByteArray &csv, const QString &sourceName)
{
    const ImportLimits &limits = limits::kAzureTrace;
    checkImportBytes(csv.size(), sourceName, limits);
    LineErrors errors(sourceName);
    LineSplitter lines(csv);
    QByteArrayView line;
    bool headerSeen = false;
    while (!headerSeen && lines.next(line)) {
        errors.setLine(lines.number());
        checkLineLength(line, limits, errors);
        if (trimmed(line).isEmpty())
            continue;
        checkAzureHeader(line, errors);
        headerSeen = true;
    }

    std::vector<engine::TraceRequest> requests;
    requests.reserve(expectedRequests(csv, limits));
    int64_t firstNanos = 0;
    int64_t previousNanos = 0;
    int previousLine = 0;
    while (lines.next(line)) {
        errors.setLine(lines.number());
        checkLineLength(line, limits, errors);
        if (trimmed(line).isEmpty())
            continue;
        if (qint64(requests.size()) >= limits.maxRows)
            failTooManyRows(sourceName, lines.number(), limits);
        QByteArrayView fields[3];
        int count = 0;
        qsizetype start = 0;
        for (qsizetype i = 0; i <= line.size(); ++i) {
            if (i == line.size() || line[i] == ',') {
                if (count < 3)
                    fields[count] = trimmed(line.sliced(start, i - start));
                ++count;
                start = i + 1;
            }
        }
        if (count != 3)
            errors.fail(QStringLiteral("expected 3 fields (%1), got %2")
                            .arg(QLatin1String(kAzureHeader))
                            .arg(count));

        const std::optional<int64_t> nanos = parseTimestampNanos(fields[0]);
        const int year = leadingYear(fields[0]);
        if (!nanos && year >= 0 && (year < kFirstAzureYear || year > kLastAzureYear))
            errors.failField(kAzureFields[0],
                             QStringLiteral("%1 is outside the years %2 to %3 a trace may span")
                                 .arg(shown(fields[0]))
                                 .arg(kFirstAzureYear)
                                 .arg(kLastAzureYear));
        if (!nanos)
            errors.failField(kAzureFields[0],
                             QStringLiteral("expected a time like 2023-11-16 18:15:46.6805900, "
                                            "got ")
                                 + shown(fields[0]));
        if (requests.empty())
            firstNanos = *nanos;
        else if (*nanos < previousNanos)
            errors.failField(kAzureFields[0],
                             QStringLiteral("%1 is earlier than line %2 (requests must be in "
                                            "time order)")
                                 .arg(shown(fields[0]))
                                 .arg(previousLine));
        previousNanos = *nanos;
        previousLine = lines.number();

        engine::TraceRequest request;
        request.timestampS = double(*nanos - firstNanos) / double(kNanosPerSecond);
        request.promptTokens = tokenCount(fields[1], kAzureFields[1], errors);
        request.outputTokens = tokenCount(fields[2], kAzureFields[2], errors);
        requests.push_back(std::move(request));
    }
    if (requests.empty())
        errors.failEmpty();
    return requests;
}

std::vector<engine::TraceRequest> parseMooncakeTrace(const QByteArray &jsonl,
                                                     const QString &sourceName)
{
    const ImportLimits &limits = limits::kMooncakeTrace;
    checkImportBytes(jsonl.size(), sourceName, limits);
    LineErrors errors(sourceName);
    LineSplitter lines(jsonl);
    QByteArrayView line;
    std::vector<engine::TraceRequest> requests;
    requests.reserve(expectedRequests(jsonl, limits));
    double previousMs = 0;
    int previousLine = 0;
    const QString timestampKey = QStringLiteral("timestamp");
    const QString inputKey = QStringLiteral("input_length");
    const QString outputKey = QStringLiteral("output_length");
    const QString hashKey = QStringLiteral("hash_ids");
    while (lines.next(line)) {
        errors.setLine(lines.number());
        checkLineLength(line, limits, errors);
        if (trimmed(line).isEmpty())
            continue;
        if (qint64(requests.size()) >= limits.maxRows)
            failTooManyRows(sourceName, lines.number(), limits);
        QJsonParseError parseError;
        const QJsonDocument document =
            QJsonDocument::fromJson(QByteArray::fromRawData(line.data(), line.size()),
                                    &parseError);
        if (parseError.error != QJsonParseError::NoError)
            errors.fail(QStringLiteral("not valid JSON at column %1: %2")
                            .arg(parseError.offset + 1)
                            .arg(jsonProblem(parseError)));
        if (!document.isObject())
            errors.fail(QStringLiteral("expected a JSON object, got ")
                        + (document.isArray() ? QStringLiteral("an array")
                                              : QStringLiteral("a scalar")));
        const QJsonObject object = document.object();

        const QJsonValue timestamp = object.value(timestampKey);
        if (timestamp.isUndefined())
            errors.failField("timestamp", QStringLiteral("missing"));
        if (!timestamp.isDouble())
            errors.failField("timestamp", QStringLiteral("expected a number of milliseconds, got ")
                                              + jsonTypeName(timestamp));
        const double ms = timestamp.toDouble();
        if (!std::isfinite(ms) || ms < 0 || ms > kMaxMooncakeMs)
            errors.failField("timestamp", QStringLiteral("must be between 0 and %1 ms (100 years), "
                                                         "got %2")
                                              .arg(kMaxMooncakeMs, 0, 'f', 0)
                                              .arg(QString::fromUtf8(jsonScalarText(timestamp))));
        if (!requests.empty() && ms < previousMs)
            errors.failField("timestamp", QStringLiteral("%1 is earlier than line %2 (requests "
                                                         "must be in time order)")
                                              .arg(ms)
                                              .arg(previousLine));
        previousMs = ms;
        previousLine = lines.number();

        engine::TraceRequest request;
        request.timestampS = ms / kMillisPerSecond;
        request.promptTokens = jsonCount(object.value(inputKey), "input_length", errors);
        request.outputTokens = jsonCount(object.value(outputKey), "output_length", errors);

        const QJsonValue hashes = object.value(hashKey);
        if (!hashes.isUndefined()) {
            if (!hashes.isArray())
                errors.failField("hash_ids", QStringLiteral("expected an array of block hashes, "
                                                            "got ")
                                                 + jsonTypeName(hashes));
            const QJsonArray array = hashes.toArray();
            if (array.size() > limits::kMaxMooncakeHashIds)
                errors.failField("hash_ids", QStringLiteral("%1 block hashes; a request may have at "
                                                            "most %2 (see \"Import limits\")")
                                                 .arg(array.size())
                                                 .arg(limits::kMaxMooncakeHashIds));
            request.blockHashes.reserve(size_t(array.size()));
            for (qsizetype i = 0; i < array.size(); ++i) {
                const QJsonValue hash = array.at(i);
                const double approx = hash.toDouble();
                const qint64 exact = hash.toInteger(0);
                if (!hash.isDouble() || approx != std::trunc(approx) || exact != hash.toInteger(1))
                    errors.failField("hash_ids",
                                     QStringLiteral("item %1: expected a whole number, got %2")
                                         .arg(i)
                                         .arg(hash.isDouble() ? QString::number(approx)
                                                              : jsonTypeName(hash)));
                request.blockHashes.push_back(exact);
            }
        }
        requests.push_back(std::move(request));
    }
    if (requests.empty())
        errors.failEmpty();
    return requests;
}

std::vector<engine::TraceRequest> readAzureTrace(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read trace file %1: %2")
                             .arg(quoted(path), file.errorString()));
    return parseAzureTrace(readImportFile(file, path, limits::kAzureTrace), path);
}

std::vector<engine::TraceRequest> readMooncakeTrace(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read trace file %1: %2")
                             .arg(quoted(path), file.errorString()));
    return parseMooncakeTrace(readImportFile(file, path, limits::kMooncakeTrace), path);
}

} // namespace headroom::store
