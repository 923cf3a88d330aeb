#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <vector>

// RFC 4180 comma-separated values: fields in double quotes may hold commas, line breaks and
// doubled quotes (""); lines end in LF or CRLF; the last line may lack its line break.
namespace headroom::store {

struct CsvRecord {
    int line = 0;           // 1-based line on which the record starts
    QStringList fields;     // unquoted fields trimmed of spaces and tabs; quoted ones verbatim
    bool anyQuoted = false;

    // An empty line.
    bool isBlank() const { return fields.size() == 1 && fields.first().isEmpty() && !anyQuoted; }
};

// UTF-8 text (a leading byte-order mark is skipped) to records, one per line or quoted span.
// Throws StoreError("<source>: line N: ...") for an unclosed quote or text after a closing quote.
std::vector<CsvRecord> readCsvRecords(const QByteArray &csv, const QString &sourceName);

// One field for writing: quoted when it holds a comma, quote, line break or edge spaces.
QString csvField(const QString &value);

} // namespace headroom::store
