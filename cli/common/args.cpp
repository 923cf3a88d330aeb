#include "args.h"

#include <algorithm>
#include <cmath>

namespace headroom::cli {

UsageError::UsageError(const QString &message)
    : std::runtime_error(message.toStdString()), m_message(message)
{
}

Args::Args(const QStringList &args, const std::vector<OptionSpec> &options)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--")) {
            // The end of options: what follows is positional even when it starts with "--".
            m_positionals << args.mid(i + 1);
            break;
        }
        if (!arg.startsWith(QLatin1String("--"))) {
            m_positionals << arg;
            continue;
        }
        QString name = arg.mid(2);
        std::optional<QString> inlineValue;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
        }
        const auto spec = std::find_if(options.begin(), options.end(),
                                       [&](const OptionSpec &o) { return o.name == name; });
        if (spec == options.end())
            throw UsageError(QStringLiteral("unknown option '%1'").arg(flag(name)));
        if (!spec->repeatable && m_values.count(name))
            throw UsageError(QStringLiteral("%1 given more than once").arg(flag(name)));

        if (!spec->takesValue) {
            if (inlineValue)
                throw UsageError(QStringLiteral("%1 takes no value").arg(flag(name)));
            m_values[name];
            continue;
        }
        if (!inlineValue) {
            // A following "--option" is never taken as a value; "-5" is (and fails its range).
            if (i + 1 >= args.size() || args.at(i + 1).startsWith(QLatin1String("--")))
                throw UsageError(QStringLiteral("%1: missing value").arg(flag(name)));
            inlineValue = args.at(++i);
        }
        m_values[name] << *inlineValue;
    }
}

bool Args::has(const QString &name) const
{
    return m_values.count(name) > 0;
}

std::optional<QString> Args::text(const QString &name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end() || it->second.isEmpty())
        return std::nullopt;
    return it->second.constLast();
}

QStringList Args::texts(const QString &name) const
{
    const auto it = m_values.find(name);
    return it == m_values.end() ? QStringList() : it->second;
}

qint64 parseInteger(const QString &flag, const QString &value, qint64 min, qint64 max)
{
    bool ok = false;
    const qint64 n = value.trimmed().toLongLong(&ok);
    if (!ok)
        throw UsageError(QStringLiteral("%1: expected an integer, got '%2'").arg(flag, value));
    if (n < min || n > max) {
        throw UsageError(QStringLiteral("%1: must be between %2 and %3, got %4")
                             .arg(flag).arg(min).arg(max).arg(n));
    }
    return n;
}

std::optional<qint64> Args::integer(const QString &name, qint64 min, qint64 max) const
{
    const auto value = text(name);
    if (!value)
        return std::nullopt;
    return parseInteger(flag(name), *value, min, max);
}

std::vector<qint64> Args::integers(const QString &name, qint64 min, qint64 max) const
{
    std::vector<qint64> result;
    for (const QString &value : texts(name))
        result.push_back(parseInteger(flag(name), value, min, max));
    return result;
}

std::optional<double> Args::number(const QString &name) const
{
    const auto value = text(name);
    if (!value)
        return std::nullopt;
    bool ok = false;
    const double x = value->trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(x))
        throw UsageError(QStringLiteral("%1: expected a number, got '%2'").arg(flag(name), *value));
    return x;
}

} // namespace headroom::cli
