#include "format.h"

#include <QCoreApplication>
#include <algorithm>
#include <limits>

#include <QRegularExpression>

#include <QLocale>
#include <QStringList>

namespace headroom::ui {

namespace {
const QLocale &displayLocale()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}
} // namespace

double toGiB(int64_t bytes)
{
    return double(bytes) / double(int64_t(1) << 30);
}

QString formatGiB(int64_t bytes, int decimals)
{
    return displayLocale().toString(toGiB(bytes), 'f', decimals) + QStringLiteral(" GiB");
}

QString formatKiB(int64_t bytes, int decimals)
{
    return displayLocale().toString(double(bytes) / 1024.0, 'f', decimals) + QStringLiteral(" KiB");
}

QString formatCount(int64_t value)
{
    return displayLocale().toString(qlonglong(value));
}

QString formatNumber(double value, int decimals)
{
    return displayLocale().toString(value, 'f', decimals);
}

QString formatPercent(double share, int decimals)
{
    return formatNumber(share * 100.0, decimals) + QStringLiteral(" %");
}

QString formatCountOf(int64_t value, const char *numerusText)
{
    // tr() puts the plain number where %n was; show it grouped instead.
    const int n = int(std::clamp<int64_t>(value, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
    QString text = QCoreApplication::translate("headroom::ui", numerusText, nullptr, n);
    const QString plain = QString::number(n);
    const int at = text.indexOf(plain);
    if (at >= 0)
        text.replace(at, plain.size(), formatCount(value));
    return text;
}

QString formatGpus(int64_t gpus)
{
    return formatCountOf(gpus, QT_TRANSLATE_NOOP("headroom::ui", "%n GPU(s)"));
}

QString formatTokensShort(int64_t tokens)
{
    if (tokens >= (1 << 20) && tokens % (1 << 20) == 0)
        return QString::number(tokens >> 20) + QLatin1Char('M');
    if (tokens >= 1024 && tokens % 1024 == 0)
        return QString::number(tokens >> 10) + QLatin1Char('K');
    return formatCount(tokens);
}

QString upperName(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size())).toUpper();
}

QString fieldProblemsText(const std::vector<engine::FieldProblem> &problems,
                          const std::vector<std::pair<QString, QString>> &labels)
{
    QStringList lines;
    for (const auto &p : problems) {
        const QString field = QString::fromStdString(p.field);
        QString message = QString::fromStdString(p.message);
        if (labels.empty()) {
            lines << QStringLiteral("%1: %2").arg(field, message);
            continue;
        }
        const bool namesField = message.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(field)));
        QString label = field;
        for (const auto &[key, text] : labels) {
            message.replace(QRegularExpression(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(key))), text);
            if (key == field)
                label = text;
        }
        lines << (namesField ? message : QStringLiteral("%1: %2").arg(label, message));
    }
    return lines.join(QStringLiteral("; "));
}

QString twoLines(const QString &text, int longerThan)
{
    if (text.size() <= longerThan)
        return text;
    const qsizetype middle = text.size() / 2;
    qsizetype best = -1;
    for (qsizetype i = 0; i < text.size(); ++i)
        if (text.at(i) == QLatin1Char(' ') && (best < 0 || std::abs(i - middle) < std::abs(best - middle)))
            best = i;
    if (best < 0)
        return text;
    return text.left(best) + QLatin1Char('\n') + text.mid(best + 1);
}

} // namespace headroom::ui
