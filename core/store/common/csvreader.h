#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QIODevice;

// RFC 4180 comma-separated values: fields in double quotes may hold commas, line breaks and
// doubled quotes (""); lines end in LF, CRLF or CR alike; the last line may lack its line break.
namespace headroom::store {

struct ImportLimits;

struct CsvRecord {
    int line = 0;           // 1-based line on which the record starts
    QStringList fields;     // unquoted fields trimmed of spaces and tabs; quoted ones verbatim
    bool anyQuoted = false;

    // An empty line.
    bool isBlank() const { return fields.size() == 1 && fields.first().isEmpty() && !anyQuoted; }
};

// UTF-8 text (a leading byte-order mark is skipped) to records, one per line or quoted span.
// Throws StoreError("<source>: line N: ...") for an unclosed quote or text after a closing quote,
// a NUL byte, and a file, field, row count or field count past `limits` (checked as the text
// is read, before the records grow past them).
std::vector<CsvRecord> readCsvRecords(const QByteArray &csv, const QString &sourceName,
                                      const ImportLimits &limits);

// The same, streamed: reads `device` in blocks of whole lines and hands each record to
// `onRecord` as soon as it is complete, so a file much larger than memory can be read. A line
// longer than maxCsvLineBytes(limits) is refused as soon as that much of it has been read
// ("<source>: line N: longer than X bytes ..."), so memory stays bounded whatever the input.
// Stricter than readCsvRecords: bytes that are not well-formed UTF-8 are refused with
// "<source>: line N: field M: not UTF-8 text (byte 0xHH)". Records already handed over stay
// with the caller, who discards them when this throws.
void streamCsvRecords(QIODevice &device, const QString &sourceName, const ImportLimits &limits,
                      const std::function<void(CsvRecord &)> &onRecord);

// A CSV file with a header row: columns by name (trimmed, lower case) and the non-blank data
// records after the header, each with as many fields as the header.
struct CsvTable {
    CsvRecord header;
    QHash<QString, int> columns;
    std::vector<CsvRecord> rows;

    // The row's field in the named column; empty when the file has no such column.
    QString field(const CsvRecord &row, const QString &column) const;
};

// Reads a CSV file with a header. Throws StoreError naming the source: "the file is empty;
// <emptyHint>" without a header, "line N: field "x": missing column; <missingHint>" for a
// required column the header lacks, "line N: expected K fields as in the header, got M".
CsvTable readCsvTable(const QByteArray &csv, const QString &sourceName, const ImportLimits &limits,
                      const QStringList &requiredColumns, const QString &emptyHint,
                      const QString &missingHint);

// Throws StoreError("<source>: line N: field "x": <message>").
// "<source>: line N has G values but the header names H columns", with a hint about commas when a
// row has more values than the header.
[[noreturn]] void failFieldCount(const QString &source, int line, qsizetype got, qsizetype headerColumns);

[[noreturn]] void failCsvField(const QString &source, int line, const QString &field, const QString &message);

// One field for writing: quoted when it holds a comma, quote, line break or edge spaces.
QString csvField(const QString &value);

} // namespace headroom::store
