#include "serverurl.h"

#include "storeerror.h"

#include <QRegularExpression>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <utility>

namespace headroom::store {

namespace {

// The libpq connection keywords a URL may set, and what their values may be; anything else
// (user, dbname, host, options, password, …) is refused rather than passed on, so a URL can
// never change who connects where, nor carry a secret.
enum class ValueKind { SslMode, Path, Seconds, Name };

struct KnownOption {
    QLatin1String key;
    ValueKind kind;
};

const KnownOption kKnownOptions[] = {
    {QLatin1String("sslmode"), ValueKind::SslMode},
    {QLatin1String("sslrootcert"), ValueKind::Path},
    {QLatin1String("sslcert"), ValueKind::Path},
    {QLatin1String("sslkey"), ValueKind::Path},
    {QLatin1String("sslcrl"), ValueKind::Path},
    {QLatin1String("connect_timeout"), ValueKind::Seconds},
    {QLatin1String("application_name"), ValueKind::Name},
};

const QStringList kSslModes = {QStringLiteral("disable"),     QStringLiteral("allow"),
                               QStringLiteral("prefer"),      QStringLiteral("require"),
                               QStringLiteral("verify-ca"),   QStringLiteral("verify-full")};

// connect_timeout: libpq waits forever at 0; a plan tool has no use for more than an hour.
constexpr int kMaxConnectTimeout = 3600;
// PostgreSQL keeps 63 bytes of an application name (NAMEDATALEN − 1).
constexpr int kMaxApplicationName = 63;
// Paths and other values: far beyond any real one, short enough to show.
constexpr int kMaxValueLength = 4096;

const KnownOption *knownOption(const QString &key)
{
    for (const KnownOption &option : kKnownOptions)
        if (key == option.key)
            return &option;
    return nullptr;
}

QString knownOptionList()
{
    QStringList keys;
    for (const KnownOption &option : kKnownOptions)
        keys << option.key;
    return keys.join(QStringLiteral(", "));
}

// A key whose value is a secret, or names where one is kept: never shown.
bool isSecretKey(const QString &key)
{
    return key.contains(QLatin1String("pass"), Qt::CaseInsensitive);
}

// "key=" inside a value: an attempt to smuggle a second setting in (libpq keywords are
// letters and underscores).
bool holdsAssignment(const QString &value)
{
    static const QRegularExpression assignment(QStringLiteral("[A-Za-z_]\\s*="));
    return value.contains(assignment);
}

bool isControl(QChar c)
{
    return c.unicode() < 0x20 || (c.unicode() >= 0x7f && c.unicode() < 0xa0);
}

bool hasControlCharacter(const QString &value)
{
    return std::any_of(value.begin(), value.end(), isControl);
}

// `text` with each control character shown as U+FFFD, so a message cannot move the terminal.
QString printable(const QString &text)
{
    QString out = text;
    std::replace_if(out.begin(), out.end(), isControl, QChar(0xfffd));
    return out;
}

// The query as messages show it: the values of secret keys and of values that hold a setting
// are replaced by "***".
QString maskedQuery(const QUrlQuery &query)
{
    QStringList parts;
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        const bool hide = isSecretKey(key) || isSecretKey(value) || holdsAssignment(value)
                          || hasControlCharacter(value);
        parts << QString::fromLatin1(QUrl::toPercentEncoding(key)) + QLatin1Char('=')
                     + (hide ? QStringLiteral("***") : QString::fromLatin1(QUrl::toPercentEncoding(value)));
    }
    return parts.join(QLatin1Char('&'));
}

[[noreturn]] void refuse(const QString &shown, const QString &problem)
{
    throw StoreError(QStringLiteral("Bad server address %1: %2. Expected "
                                    "postgresql://user@host:port/database[?sslmode=require]")
                         .arg(shown, problem));
}

void checkValue(const QString &shown, const KnownOption &option, const QString &value)
{
    const QString key = option.key;
    if (value.isEmpty())
        refuse(shown, QStringLiteral("option \"%1\" has no value").arg(key));
    if (hasControlCharacter(value))
        refuse(shown, QStringLiteral("option \"%1\" holds a control character").arg(key));
    // The Qt PostgreSQL driver turns every ";" of its connect options into a space.
    if (value.contains(QLatin1Char(';')))
        refuse(shown, QStringLiteral("option \"%1\" must not contain \";\"").arg(key));
    if (holdsAssignment(value))
        refuse(shown, QStringLiteral("option \"%1\" must hold one value, not another setting "
                                     "(\"key=value\"); give each setting as its own ?key=value")
                          .arg(key));
    if (value.size() > kMaxValueLength)
        refuse(shown, QStringLiteral("option \"%1\" is longer than %2 characters").arg(key).arg(kMaxValueLength));
    switch (option.kind) {
    case ValueKind::SslMode:
        if (!kSslModes.contains(value))
            refuse(shown, QStringLiteral("sslmode must be one of %1").arg(kSslModes.join(QStringLiteral(", "))));
        break;
    case ValueKind::Seconds: {
        bool ok = false;
        const int seconds = value.toInt(&ok);
        if (!ok || seconds < 1 || seconds > kMaxConnectTimeout)
            refuse(shown, QStringLiteral("%1 must be a whole number of seconds, 1…%2 (0 would wait forever)")
                              .arg(key)
                              .arg(kMaxConnectTimeout));
        break;
    }
    case ValueKind::Name:
        if (value.toUtf8().size() > kMaxApplicationName)
            refuse(shown, QStringLiteral("%1 must be at most %2 bytes").arg(key).arg(kMaxApplicationName));
        break;
    case ValueKind::Path:
        break;
    }
}

} // namespace

bool isServerUrl(const QString &location)
{
    return location.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive)
        || location.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

QString displayServerUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.scheme().isEmpty() || url.authority().isEmpty()) {
        // Not a URL we can take apart ("//u:p@host", "u:p@host/db", a bad port): show the
        // scheme, host and path only, never what stands before an "@" (a user and password)
        // nor the query.
        qsizetype end = 0;
        while (end < text.size() && text.at(end) != QLatin1Char('?') && text.at(end) != QLatin1Char('#'))
            ++end;
        qsizetype start = text.left(end).indexOf(QLatin1String("://"));
        start = start < 0 ? 0 : start + 3;
        while (start < end && text.at(start) == QLatin1Char('/'))
            ++start;
        qsizetype authorityEnd = text.indexOf(QLatin1Char('/'), start);
        if (authorityEnd < 0 || authorityEnd > end)
            authorityEnd = end;
        const qsizetype at = authorityEnd > start ? text.lastIndexOf(QLatin1Char('@'), authorityEnd - 1) : -1;
        QString out = text.left(start);
        if (at >= start)
            out += QStringLiteral("…@") + text.mid(at + 1, end - at - 1);
        else
            out += text.mid(start, end - start);
        if (end < text.size())
            out += QStringLiteral("?…");
        return QStringLiteral("\"%1\"").arg(printable(out));
    }
    QUrl shown = url.adjusted(QUrl::RemovePassword | QUrl::RemoveQuery | QUrl::RemoveFragment);
    QString out = shown.toString();
    const QUrlQuery query(url);
    if (!query.isEmpty())
        out += QLatin1Char('?') + maskedQuery(query);
    return out;
}

QString ServerLocation::url() const
{
    QUrl out;
    out.setScheme(QStringLiteral("postgresql"));
    out.setUserName(user);
    out.setHost(host);
    out.setPort(port);
    out.setPath(QLatin1Char('/') + database);
    if (!options.isEmpty()) {
        // Each key and value percent-encoded first: a QUrlQuery reads "%41" in what it is given
        // as an encoded "A", so a value holding a literal "%41" would come back as "A".
        QUrlQuery query;
        for (const auto &[key, value] : options)
            query.addQueryItem(QString::fromLatin1(QUrl::toPercentEncoding(key)),
                               QString::fromLatin1(QUrl::toPercentEncoding(value, "/:")));
        out.setQuery(query);
    }
    // Encoded, so the address parses again exactly (a space in a value stays %20).
    return out.toString(QUrl::FullyEncoded);
}

QString quoteConnectValue(const QString &value)
{
    QString quoted = value;
    quoted.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    quoted.replace(QLatin1Char('\''), QLatin1String("\\'"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString ServerLocation::connectOptions() const
{
    QStringList parts;
    for (const auto &[key, value] : options)
        parts << QString::fromLatin1(QUrl::toPercentEncoding(key)) + QLatin1Char('=') + quoteConnectValue(value);
    return parts.join(QLatin1Char(';'));
}

ServerLocation parseServerUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    // What messages show: the URL without a password or secret option values.
    const QString shown = displayServerUrl(text);
    if (!url.isValid())
        refuse(shown, QStringLiteral("it is not a valid URL"));
    if (!isServerUrl(text))
        refuse(shown, QStringLiteral("it must start with postgresql://"));
    if (!url.password().isEmpty())
        refuse(shown, QStringLiteral("it must not contain a password (put it in ~/.pgpass or "
                                     "PGPASSWORD instead)"));
    if (url.hasFragment())
        refuse(shown, QStringLiteral("it must not have a fragment (\"#…\")"));
    ServerLocation location;
    location.user = url.userName();
    location.host = url.host();
    if (location.host.isEmpty())
        refuse(shown, QStringLiteral("it names no host"));
    const int port = url.port(5432);
    if (port < 1 || port > 65535)
        refuse(shown, QStringLiteral("the port must be 1…65535"));
    location.port = port;
    location.database = url.path().mid(1);
    if (location.database.isEmpty() || location.database.contains(QLatin1Char('/')))
        refuse(shown, QStringLiteral("it must name one database after the host (…/database)"));
    // libpq reads a database name holding "=" as a whole connection string.
    if (location.database.contains(QLatin1Char('=')) || hasControlCharacter(location.database))
        refuse(shown, QStringLiteral("the database name must not contain \"=\" or control characters"));
    if (hasControlCharacter(location.user) || hasControlCharacter(location.host))
        refuse(shown, QStringLiteral("the user and host must not contain control characters"));
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (isSecretKey(key))
            refuse(shown, QStringLiteral("it must not contain a password (\"%1\"; put it in ~/.pgpass "
                                         "or PGPASSWORD instead)")
                              .arg(key));
        const KnownOption *option = knownOption(key);
        if (!option)
            refuse(shown, QStringLiteral("unknown option \"%1\" (known: %2)")
                              .arg(printable(key.left(64)), knownOptionList()));
        for (const auto &earlier : std::as_const(location.options))
            if (earlier.first == key)
                refuse(shown, QStringLiteral("option \"%1\" is given twice").arg(key));
        checkValue(shown, *option, value);
        location.options.append({key, value});
    }
    return location;
}

} // namespace headroom::store
