#pragma once

#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

namespace headroom::cli {

// A bad command line (unknown option, missing or malformed value, unknown id). The CLI
// reports it on stderr and exits with code 2; nothing has been changed.
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const QString &message);
    QString message() const { return m_message; }

private:
    QString m_message;
};

// One option a verb accepts, spelled without the leading dashes ("kv-heads").
struct OptionSpec {
    QString name;
    bool takesValue = true;
    bool repeatable = false;
};

// The parsed arguments of one verb: options by name and positional arguments in order.
// Accepts "--name value" and "--name=value"; after "--" every argument is positional (a name
// that starts with "-" or "--"). Typed getters throw UsageError with messages
// such as "--layers: expected an integer, got 'abc'".
class Args {
public:
    Args(const QStringList &args, const std::vector<OptionSpec> &options);

    bool has(const QString &name) const;
    const QStringList &positionals() const { return m_positionals; }

    // Last value given for the option, or nullopt when absent.
    std::optional<QString> text(const QString &name) const;
    // Every value given for a repeatable option, in order.
    QStringList texts(const QString &name) const;

    // Integer option checked against [min, max]; nullopt when absent.
    std::optional<qint64> integer(const QString &name, qint64 min, qint64 max) const;
    // Every value of a repeatable integer option, each checked against [min, max].
    std::vector<qint64> integers(const QString &name, qint64 min, qint64 max) const;
    // Finite decimal option; nullopt when absent. Range checks are the caller's.
    std::optional<double> number(const QString &name) const;

    // The option as typed: "layers" → "--layers".
    static QString flag(const QString &name) { return QStringLiteral("--") + name; }

private:
    std::map<QString, QStringList> m_values;
    QStringList m_positionals;
};

// Parses one integer value for `flag`, checked against [min, max].
qint64 parseInteger(const QString &flag, const QString &value, qint64 min, qint64 max);

} // namespace headroom::cli
