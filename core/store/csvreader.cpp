#include "csvreader.h"

#include "importlimits.h"
#include "storeerror.h"

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
    CsvReader(const QString &text, const QString &sourceName, const ImportLimits &limits)
        : m_text(text), m_source(sourceName), m_limits(limits)
    {
    }

    std::vector<CsvRecord> read()
    {
        m_record.line = 1;
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
                    append(c);
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
                    throw StoreError(QStringLiteral("%1: line %2: field %3: unexpected text after "
                                                    "a closing quote (write a quote inside a "
                                                    "quoted field as \"\")")
                                         .arg(m_source)
                                         .arg(m_line)
                                         .arg(m_record.fields.size() + 1));
                }
                break;
            }
        }
        if (m_state == State::Quoted)
            throw StoreError(QStringLiteral("%1: line %2: a quoted field is not closed")
                                 .arg(m_source)
                                 .arg(m_record.line));
        if (m_state != State::FieldStart || !m_record.fields.isEmpty())
            endRecord();
        return std::move(m_records);
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

    // "<source>: line N: field M: <message>" for the field being read.
    [[noreturn]] void fail(const QString &message) const
    {
        throw StoreError(QStringLiteral("%1: line %2: field %3: %4")
                             .arg(m_source)
                             .arg(m_line)
                             .arg(m_record.fields.size() + 1)
                             .arg(message));
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
        m_record.fields << (m_fieldQuoted ? m_field : trimmedSpaces(m_field));
        m_field.clear();
        m_fieldQuoted = false;
        m_state = State::FieldStart;
    }

    void endRecord()
    {
        endField();
        if (!m_record.isBlank() && ++m_nonBlankRecords > m_limits.maxRows + 1)
            failTooManyRows(m_source, m_record.line, m_limits);
        m_records.push_back(std::move(m_record));
        m_record = CsvRecord();
        ++m_line;
        m_record.line = m_line;
    }

    const QString &m_text;
    QString m_source;
    const ImportLimits &m_limits;
    qint64 m_nonBlankRecords = 0;   // the header and the data rows
    std::vector<CsvRecord> m_records;
    CsvRecord m_record;
    QString m_field;
    bool m_fieldQuoted = false;
    State m_state = State::FieldStart;
    qsizetype m_pos = 0;
    int m_line = 1;
};

} // namespace

std::vector<CsvRecord> readCsvRecords(const QByteArray &csv, const QString &sourceName,
                                      const ImportLimits &limits)
{
    checkImportBytes(csv.size(), sourceName, limits);
    QByteArray bytes = csv;
    if (bytes.startsWith("\xEF\xBB\xBF"))
        bytes.remove(0, 3);
    const QString text = QString::fromUtf8(bytes);
    return CsvReader(text, sourceName, limits).read();
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
    for (int i = 0; i < table.header.fields.size(); ++i)
        table.columns.insert(table.header.fields.at(i).trimmed().toLower(), i);
    for (const QString &name : requiredColumns)
        if (!table.columns.contains(name))
            failCsvField(sourceName, table.header.line, name,
                         QStringLiteral("missing column; %1 (the header reads \"%2\")")
                             .arg(missingHint, shownValue(table.header.fields.join(QLatin1Char(',')))));
    for (++it; it != records.end(); ++it) {
        if (it->isBlank())
            continue;
        if (it->fields.size() != table.header.fields.size())
            throw StoreError(QStringLiteral("%1: line %2: expected %3 fields as in the header, got %4")
                                 .arg(sourceName)
                                 .arg(it->line)
                                 .arg(table.header.fields.size())
                                 .arg(it->fields.size()));
        table.rows.push_back(*it);
    }
    return table;
}

void failCsvField(const QString &source, int line, const QString &field, const QString &message)
{
    throw StoreError(QStringLiteral("%1: line %2: field \"%3\": %4").arg(source).arg(line).arg(field, message));
}

} // namespace headroom::store
