#include "csvreader.h"

#include "importlimits.h"
#include "storeerror.h"

#include <QIODevice>
#include <cstdint>
#include <cstring>
#include <functional>

namespace headroom::store {

namespace {

bool isSpace(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t');
}

QString trimmedSpaces(const QString &value)
{
    qsizetype first = 0;
    qsizetype last = value.size();
    while (first < last && isSpace(value.at(first)))
        ++first;
    while (last > first && isSpace(value.at(last - 1)))
        --last;
    return value.mid(first, last - first);
}

class CsvReader {
public:
    using RecordSink = std::function<void(CsvRecord &)>;

    CsvReader(const QString &sourceName, const ImportLimits &limits, RecordSink sink)
        : m_source(sourceName), m_limits(limits), m_sink(std::move(sink))
    {
        m_record.line = 1;
    }

    // Reads the next part of the text. A part must not end between the CR and LF of a line
    // break nor between the two quotes of an escaped quote: the streaming reader cuts parts
    // after a line break.
    void feed(QStringView text)
    {
        m_text = text;
        for (m_pos = 0; m_pos < m_text.size(); ++m_pos) {
            const QChar c = m_text.at(m_pos);
            if (c.isNull())
                fail(QStringLiteral("a NUL byte (this is not a text file, or the value is cut "
                                    "short)"));
            switch (m_state) {
            case State::FieldStart:
            case State::Unquoted:
                if (c == QLatin1Char('"') && trimmedSpaces(m_field).isEmpty()) {
                    m_field.clear();
                    m_state = State::Quoted;
                    m_record.anyQuoted = true;
                    m_fieldQuoted = true;
                } else if (c == QLatin1Char(',')) {
                    endField();
                } else if (isLineBreak(c)) {
                    endRecord();
                } else {
                    appendRun(c);
                    m_state = State::Unquoted;
                }
                break;
            case State::Quoted:
                if (c == QLatin1Char('"')) {
                    if (peek() == QLatin1Char('"')) {
                        append(c);
                        ++m_pos;
                    } else {
                        m_state = State::AfterQuote;
                    }
                } else if (isLineBreak(c)) {
                    append(QLatin1Char('\n'));
                    ++m_line;
                } else {
                    append(c);
                }
                break;
            case State::AfterQuote:
                if (c == QLatin1Char(',')) {
                    endField();
                } else if (isLineBreak(c)) {
                    endRecord();
                } else if (!isSpace(c)) {
                    throw StoreError(QStringLiteral("%1: line %2, value %3: there is text after the closing quote "
                                                    "mark; a quote mark inside a quoted value is written twice (\"\")")
                                         .arg(m_source)
                                         .arg(m_line)
                                         .arg(m_record.fields.size() + 1));
                }
                break;
            }
        }
        m_text = QStringView();
    }

    // The end of the text: the last record may lack its line break.
    void finish()
    {
        if (m_state == State::Quoted)
            throw StoreError(QStringLiteral("%1: line %2: a value opens with a quote mark that is never closed, so "
                                            "the rest of the file would be read as that one value")
                                 .arg(m_source)
                                 .arg(m_record.line));
        if (m_state != State::FieldStart || !m_record.fields.isEmpty())
            endRecord();
    }

    // The line the text fed next starts on.
    int line() const { return m_line; }

    // "<source>: line N: field M: <message>" for the field being read.
    [[noreturn]] void fail(const QString &message) const
    {
        throw StoreError(QStringLiteral("%1: line %2: field %3: %4")
                             .arg(m_source)
                             .arg(m_line)
                             .arg(m_record.fields.size() + 1)
                             .arg(message));
    }

private:
    enum class State { FieldStart, Unquoted, Quoted, AfterQuote };

    QChar peek() const { return m_pos + 1 < m_text.size() ? m_text.at(m_pos + 1) : QChar(); }

    // Consumes the LF of a CRLF pair, so that each break counts once.
    bool isLineBreak(QChar c)
    {
        if (c == QLatin1Char('\r')) {
            if (peek() == QLatin1Char('\n'))
                ++m_pos;
            return true;
        }
        return c == QLatin1Char('\n');
    }

    // Appends `c` and the ordinary characters after it up to the next comma, quote, line
    // break or NUL in one step (the common case of an unquoted field).
    void appendRun(QChar c)
    {
        qsizetype end = m_pos + 1;
        while (end < m_text.size()) {
            const char16_t u = m_text.at(end).unicode();
            if (u == u',' || u == u'"' || u == u'\n' || u == u'\r' || u == 0)
                break;
            ++end;
        }
        if (end - m_pos == 1) {
            append(c);
            return;
        }
        if (m_field.size() + (end - m_pos) > m_limits.maxFieldChars) {
            const qsizetype room = m_limits.maxFieldChars - m_field.size();
            m_field += m_text.mid(m_pos, room);
            m_pos += room;
            append(m_text.at(m_pos)); // throws: the field is full
        }
        if (m_field.isEmpty())
            m_field = m_text.mid(m_pos, end - m_pos).toString();  // one allocation of the exact size
        else
            m_field += m_text.mid(m_pos, end - m_pos);
        m_pos = end - 1;
    }

    void append(QChar c)
    {
        if (m_field.size() >= m_limits.maxFieldChars)
            fail(QStringLiteral("longer than %1 characters; a field of a %2 file may have at most "
                                "%1 (see \"Import limits\"); it starts \"%3\"")
                     .arg(m_limits.maxFieldChars)
                     .arg(QLatin1String(m_limits.kind), shownValue(m_field)));
        m_field += c;
    }

    void endField()
    {
        if (m_record.fields.size() >= limits::kMaxCsvFields)
            fail(QStringLiteral("more than %1 fields on one line; a CSV line may have at most %1 "
                                "(see \"Import limits\")")
                     .arg(limits::kMaxCsvFields));
        const bool edgeSpace = !m_fieldQuoted && !m_field.isEmpty()
            && (isSpace(m_field.front()) || isSpace(m_field.back()));
        m_record.fields << (edgeSpace ? trimmedSpaces(m_field) : std::move(m_field));
        m_field = QString();
        m_fieldQuoted = false;
        m_state = State::FieldStart;
    }

    void endRecord()
    {
        endField();
        if (!m_record.isBlank() && ++m_nonBlankRecords > m_limits.maxRows + 1)
            failTooManyRows(m_source, m_record.line, m_limits);
        m_sink(m_record);
        const qsizetype fields = m_record.fields.size();
        m_record = CsvRecord();
        m_record.fields.reserve(fields); // the next record most likely has as many
        ++m_line;
        m_record.line = m_line;
    }

    QStringView m_text;
    QString m_source;
    const ImportLimits &m_limits;
    RecordSink m_sink;
    qint64 m_nonBlankRecords = 0;   // the header and the data rows
    CsvRecord m_record;
    QString m_field;
    bool m_fieldQuoted = false;
    State m_state = State::FieldStart;
    qsizetype m_pos = 0;
    int m_line = 1;
};

// Length of the longest prefix of `bytes` that is well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing past U+10FFFF). A sequence cut by the end counts as invalid.
qsizetype validUtf8Prefix(const char *bytes, qsizetype size)
{
    const auto *p = reinterpret_cast<const unsigned char *>(bytes);
    qsizetype i = 0;
    while (i < size) {
        // Eight ASCII bytes at a time: the common case of a billing export.
        if (i + 8 <= size) {
            uint64_t word;
            std::memcpy(&word, p + i, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                i += 8;
                continue;
            }
        }
        const unsigned char b = p[i];
        if (b < 0x80) {
            ++i;
            continue;
        }
        int more = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            more = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            more = 2;
            if (b == 0xE0)
                lo = 0xA0;
            else if (b == 0xED)
                hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            more = 3;
            if (b == 0xF0)
                lo = 0x90;
            else if (b == 0xF4)
                hi = 0x8F;
        } else {
            return i;
        }
        if (i + more >= size)
            return i;
        if (p[i + 1] < lo || p[i + 1] > hi)
            return i;
        for (int k = 2; k <= more; ++k)
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
        i += more + 1;
    }
    return size;
}

// The length of the prefix of `bytes` that ends in a line break (LF, CRLF or a lone CR), 0
// when there is none. A CR that is the last byte may be the first half of a CRLF pair, so it
// waits for the next block.
qsizetype completeLinesLength(const QByteArray &bytes)
{
    for (qsizetype i = bytes.size() - 1; i >= 0; --i) {
        const char c = bytes.at(i);
        if (c == '\n' || (c == '\r' && i + 1 < bytes.size()))
            return i + 1;
    }
    return 0;
}

} // namespace

std::vector<CsvRecord> readCsvRecords(const QByteArray &csv, const QString &sourceName,
                                      const ImportLimits &limits)
{
    checkImportBytes(csv.size(), sourceName, limits);
    QByteArray bytes = csv;
    if (bytes.startsWith("\xEF\xBB\xBF"))
        bytes.remove(0, 3);
    const QString text = QString::fromUtf8(bytes);
    std::vector<CsvRecord> records;
    CsvReader reader(sourceName, limits, [&records](CsvRecord &record) { records.push_back(std::move(record)); });
    reader.feed(text);
    reader.finish();
    return records;
}

void streamCsvRecords(QIODevice &device, const QString &sourceName, const ImportLimits &limits,
                      const std::function<void(CsvRecord &)> &onRecord)
{
    constexpr qint64 kBlock = qint64(4) << 20;
    const qint64 maxLine = maxCsvLineBytes(limits);
    CsvReader reader(sourceName, limits, onRecord);
    QByteArray pending;
    qint64 total = 0;
    bool first = true;
    for (;;) {
        const QByteArray block = device.read(kBlock);
        const bool atEnd = block.isEmpty();
        total += block.size();
        checkImportBytes(total, sourceName, limits);
        pending += block;
        if (first && (pending.size() >= 3 || atEnd)) {
            if (pending.startsWith("\xEF\xBB\xBF"))
                pending.remove(0, 3);
            first = false;
        }
        // Whole lines only, so that no UTF-8 sequence, CRLF pair or escaped quote is cut.
        const qsizetype cut = atEnd ? pending.size() : completeLinesLength(pending);
        if (cut > 0) {
            const qsizetype valid = validUtf8Prefix(pending.constData(), cut);
            reader.feed(QString::fromUtf8(pending.constData(), valid));
            if (valid < cut)
                reader.fail(QStringLiteral("not UTF-8 text (byte 0x%1); save the file as UTF-8")
                                .arg(uint(static_cast<unsigned char>(pending.at(valid))), 2, 16,
                                     QLatin1Char('0')));
            pending.remove(0, cut);
        }
        // What is left is one line without its break: bounded, so that input without line
        // breaks (a device, a binary file) is refused before it fills memory.
        if (!atEnd && pending.size() > maxLine)
            throw StoreError(QStringLiteral("%1: line %2: longer than %3 bytes without a line break; a line "
                                            "of a %4 file may have at most %3 (see \"Import limits\")")
                                 .arg(sourceName)
                                 .arg(reader.line())
                                 .arg(maxLine)
                                 .arg(QLatin1String(limits.kind)));
        if (atEnd)
            break;
    }
    reader.finish();
}

QString csvField(const QString &value)
{
    const bool needsQuotes = value.contains(QLatin1Char(',')) || value.contains(QLatin1Char('"'))
        || value.contains(QLatin1Char('\n')) || value.contains(QLatin1Char('\r'))
        || (!value.isEmpty() && (isSpace(value.front()) || isSpace(value.back())));
    if (!needsQuotes)
        return value;
    QString quoted = value;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString CsvTable::field(const CsvRecord &row, const QString &column) const
{
    const auto found = columns.constFind(column);
    return found == columns.constEnd() ? QString() : row.fields.at(found.value());
}

CsvTable readCsvTable(const QByteArray &csv, const QString &sourceName, const ImportLimits &limits,
                      const QStringList &requiredColumns, const QString &emptyHint,
                      const QString &missingHint)
{
    const std::vector<CsvRecord> records = readCsvRecords(csv, sourceName, limits);
    auto it = records.begin();
    while (it != records.end() && it->isBlank())
        ++it;
    if (it == records.end())
        throw StoreError(QStringLiteral("%1: the file is empty; %2").arg(sourceName, emptyHint));
    CsvTable table;
    table.header = *it;
    for (int i = 0; i < table.header.fields.size(); ++i) {
        const QString name = table.header.fields.at(i).trimmed().toLower();
        // A second column of the same name would silently win over the first.
        if (!name.isEmpty() && table.columns.contains(name))
            failCsvField(sourceName, table.header.line, shownValue(table.header.fields.at(i)),
                         QStringLiteral("the column appears twice (fields %1 and %2)")
                             .arg(table.columns.value(name) + 1)
                             .arg(i + 1));
        table.columns.insert(name, i);
    }
    for (const QString &name : requiredColumns)
        if (!table.columns.contains(name))
            failCsvField(sourceName, table.header.line, name,
                         QStringLiteral("missing column; %1 (the header reads \"%2\")")
                             .arg(missingHint, shownValue(table.header.fields.join(QLatin1Char(',')))));
    for (++it; it != records.end(); ++it) {
        if (it->isBlank())
            continue;
        if (it->fields.size() != table.header.fields.size())
            failFieldCount(sourceName, it->line, it->fields.size(), table.header.fields.size());
        table.rows.push_back(*it);
    }
    return table;
}

void failFieldCount(const QString &source, int line, qsizetype got, qsizetype headerColumns)
{
    throw StoreError(QStringLiteral("%1: line %2 has %3 but the header names %4%5")
                         .arg(source)
                         .arg(line)
                         .arg(got == 1 ? QStringLiteral("1 value") : QStringLiteral("%1 values").arg(got))
                         .arg(headerColumns == 1 ? QStringLiteral("1 column")
                                                 : QStringLiteral("%1 columns").arg(headerColumns))
                         .arg(got > headerColumns ? QStringLiteral(" (a value with a comma in it must be in quotes)")
                                                  : QString()));
}

void failCsvField(const QString &source, int line, const QString &field, const QString &message)
{
    throw StoreError(QStringLiteral("%1: line %2: field \"%3\": %4").arg(source).arg(line).arg(field, message));
}

} // namespace headroom::store
