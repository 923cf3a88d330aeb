#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <optional>
#include <vector>

// Text helpers shared by the verbs: aligned tables, numbers with thousands separators,
// binary memory units and "did you mean" suggestions.
namespace headroom::cli {

// A plain-text table; numeric columns are right-aligned, text columns left-aligned.
class Table {
public:
    enum class Align { Left, Right };
    struct Column {
        QString title;
        Align align = Align::Left;
    };

    explicit Table(std::vector<Column> columns);
    void addRow(const QStringList &cells);
    void write(QTextStream &out) const;

private:
    std::vector<Column> m_columns;
    std::vector<QStringList> m_rows;
};

// Label/value lines with the values aligned in one column.
void writeFields(QTextStream &out, const std::vector<std::pair<QString, QString>> &fields);

// 16384 → "16,384".
QString formatInteger(qint64 value);
// A decimal with thousands separators and `decimals` decimals, trailing zeros dropped
// unless `keepZeros`: 3350 → "3,350", 989.5 → "989.5", (8, 1, true) → "8.0".
QString formatDecimal(double value, int decimals, bool keepZeros = false);
// Epoch seconds as ISO 8601 UTC: "2026-03-01T02:00:00Z".
QString isoUtc(qint64 seconds);
// An ISO 8601 date ("2026-03-01", its midnight UTC) or time ("2026-03-01T14:00Z", no offset
// read as UTC) as epoch seconds; nullopt when the text is neither.
std::optional<qint64> parseUtcTime(const QString &text);
// Bytes in GiB (2^30) with one decimal: "57.6 GiB".
QString formatGiB(qint64 bytes);
// Bytes in the largest binary unit that keeps the figure ≥ 1: "256.0 KiB", "2.0 GiB".
QString formatBytes(qint64 bytes);
// "1 GPU", "3 GPUs".
QString countOf(qint64 count, const QString &singular, const QString &plural);

// `text` safe to echo on a terminal: every control character (C0, DEL, C1 — an escape
// sequence's ESC or CSI among them) written as \xHH, so a name read from a file cannot move
// the cursor, recolour or retitle the terminal. Table cells are passed through it; verbs
// echoing names read from files elsewhere write them with it.
QString printable(const QString &text);

// Edit (Levenshtein) distance between two strings.
int editDistance(const QString &a, const QString &b);
// Up to `count` of `known` nearest to `wanted` by edit distance, nearest first.
QStringList closestMatches(const QString &wanted, const QStringList &known, int count = 3);

// Indented JSON text of an object, ending with a newline.
QString jsonText(const QJsonObject &object);

} // namespace headroom::cli
