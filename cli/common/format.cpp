#include "format.h"

#include "engine/inference/kv.h"

#include <QDateTime>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace headroom::cli {

Table::Table(std::vector<Column> columns) : m_columns(std::move(columns)) {}

void Table::addRow(const QStringList &cells)
{
    QStringList shown;
    for (const QString &cell : cells)
        shown << printable(cell);
    m_rows.push_back(shown);
}

void Table::write(QTextStream &out) const
{
    std::vector<qsizetype> widths;
    for (const Column &c : m_columns)
        widths.push_back(c.title.size());
    for (const QStringList &row : m_rows) {
        for (size_t i = 0; i < widths.size() && i < size_t(row.size()); ++i)
            widths[i] = std::max(widths[i], row.at(qsizetype(i)).size());
    }

    const auto writeLine = [&](const QStringList &cells) {
        QString line;
        for (size_t i = 0; i < m_columns.size(); ++i) {
            const QString cell = i < size_t(cells.size()) ? cells.at(qsizetype(i)) : QString();
            if (i > 0)
                line += QLatin1String("  ");
            const bool right = m_columns[i].align == Align::Right;
            line += right ? cell.rightJustified(widths[i]) : cell.leftJustified(widths[i]);
        }
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out << line << '\n';
    };

    QStringList titles;
    for (const Column &c : m_columns)
        titles << c.title;
    writeLine(titles);
    for (const QStringList &row : m_rows)
        writeLine(row);
}

void writeFields(QTextStream &out, const std::vector<std::pair<QString, QString>> &fields)
{
    qsizetype width = 0;
    for (const auto &[label, value] : fields)
        width = std::max(width, label.size());
    for (const auto &[label, value] : fields)
        out << label.leftJustified(width + 2) << value << '\n';
}

QString printable(const QString &text)
{
    const auto isControl = [](QChar c) { return c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() < 0xa0); };
    if (std::none_of(text.begin(), text.end(), isControl))
        return text;
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        if (isControl(c))
            out += QStringLiteral("\\x") + QString::number(c.unicode(), 16).toUpper().rightJustified(2, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

QString formatInteger(qint64 value)
{
    QString digits = QString::number(value < 0 ? -value : value);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return value < 0 ? QLatin1Char('-') + digits : digits;
}

QString isoUtc(qint64 seconds)
{
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate);
}

std::optional<qint64> parseUtcTime(const QString &text)
{
    QDateTime time = QDateTime::fromString(text, Qt::ISODate);
    if (!time.isValid()) {
        const QDate date = QDate::fromString(text, Qt::ISODate);
        if (!date.isValid())
            return std::nullopt;
        time = QDateTime(date, QTime(0, 0), Qt::UTC);
    }
    if (time.timeSpec() == Qt::LocalTime)
        time.setTimeSpec(Qt::UTC);
    return time.toSecsSinceEpoch();
}

QString formatDecimal(double value, int decimals, bool keepZeros)
{
    QString text = QString::number(std::abs(value), 'f', decimals);
    if (!keepZeros && text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    for (qsizetype i = (dot < 0 ? text.size() : dot) - 3; i > 0; i -= 3)
        text.insert(i, QLatin1Char(','));
    const bool negative = value < 0 && std::any_of(text.begin(), text.end(), [](QChar c) {
                              return c.isDigit() && c != QLatin1Char('0');
                          });
    return negative ? QLatin1Char('-') + text : text;
}

QString formatGiB(qint64 bytes)
{
    return QString::number(double(bytes) / double(engine::kGiB), 'f', 1) + QLatin1String(" GiB");
}

QString formatBytes(qint64 bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes);
    int unit = 0;
    while (unit < 4 && std::abs(value) >= 1024.0) {
        value /= 1024.0;
        ++unit;
    }
    if (unit == 0)
        return formatInteger(bytes) + QLatin1String(" B");
    return QString::number(value, 'f', 1) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString countOf(qint64 count, const QString &singular, const QString &plural)
{
    return formatInteger(count) + QLatin1Char(' ') + (count == 1 ? singular : plural);
}

int editDistance(const QString &a, const QString &b)
{
    std::vector<int> previous(size_t(b.size()) + 1);
    std::iota(previous.begin(), previous.end(), 0);
    std::vector<int> current(previous.size());
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int substitution = previous[size_t(j - 1)] + (a.at(i - 1) == b.at(j - 1) ? 0 : 1);
            current[size_t(j)] = std::min({previous[size_t(j)] + 1, current[size_t(j - 1)] + 1,
                                           substitution});
        }
        std::swap(previous, current);
    }
    return previous.back();
}

QStringList closestMatches(const QString &wanted, const QStringList &known, int count)
{
    // Ties go to the candidate closer in length (a typo more than a missing part), then by id.
    struct Ranked {
        int distance;
        qsizetype lengthGap;
        QString id;
    };
    std::vector<Ranked> ranked;
    for (const QString &candidate : known) {
        ranked.push_back({editDistance(wanted.toLower(), candidate.toLower()),
                          std::abs(candidate.size() - wanted.size()), candidate});
    }
    std::sort(ranked.begin(), ranked.end(), [](const Ranked &x, const Ranked &y) {
        return std::tie(x.distance, x.lengthGap, x.id) < std::tie(y.distance, y.lengthGap, y.id);
    });
    QStringList result;
    for (size_t i = 0; i < ranked.size() && result.size() < count; ++i)
        result << ranked[i].id;
    return result;
}

QString jsonText(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

} // namespace headroom::cli
