#include "serverurl.h"

#include "storeerror.h"

#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

namespace headroom::store {

namespace {

// The libpq parameters a URL may carry; anything else is refused rather than ignored.
const QStringList kKnownOptions = {
    QStringLiteral("sslmode"),     QStringLiteral("sslrootcert"),     QStringLiteral("sslcert"),
    QStringLiteral("sslkey"),      QStringLiteral("sslcrl"),          QStringLiteral("connect_timeout"),
    QStringLiteral("application_name"),
};

const QStringList kSslModes = {QStringLiteral("disable"),     QStringLiteral("allow"),
                               QStringLiteral("prefer"),      QStringLiteral("require"),
                               QStringLiteral("verify-ca"),   QStringLiteral("verify-full")};

[[noreturn]] void refuse(const QString &shown, const QString &problem)
{
    throw StoreError(QStringLiteral("Bad server address %1: %2. Expected "
                                    "postgresql://user@host:port/database[?sslmode=require]")
                         .arg(shown, problem));
}

} // namespace

bool isServerUrl(const QString &location)
{
    return location.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive)
        || location.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
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
        QUrlQuery query;
        query.setQueryItems(options);
        out.setQuery(query);
    }
    return out.toString();
}

QString ServerLocation::connectOptions() const
{
    QStringList parts;
    for (const auto &[key, value] : options)
        parts << key + QLatin1Char('=') + value;
    return parts.join(QLatin1Char(';'));
}

ServerLocation parseServerUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    // What messages show: the URL with any password removed.
    const QString shown = url.isValid() ? url.toString(QUrl::RemovePassword)
                                        : QStringLiteral("\"%1\"").arg(text.section(QLatin1Char('@'), -1));
    if (!url.isValid())
        refuse(shown, QStringLiteral("it is not a valid URL"));
    if (!isServerUrl(text))
        refuse(shown, QStringLiteral("it must start with postgresql://"));
    if (!url.password().isEmpty())
        refuse(shown, QStringLiteral("it must not contain a password (put it in ~/.pgpass or "
                                     "PGPASSWORD instead)"));
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
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (!kKnownOptions.contains(key))
            refuse(shown, QStringLiteral("unknown option \"%1\" (known: %2)")
                              .arg(key, kKnownOptions.join(QStringLiteral(", "))));
        if (key == QLatin1String("sslmode") && !kSslModes.contains(value))
            refuse(shown, QStringLiteral("sslmode must be one of %1")
                              .arg(kSslModes.join(QStringLiteral(", "))));
        if (value.contains(QLatin1Char(';')))
            refuse(shown, QStringLiteral("option \"%1\" must not contain \";\"").arg(key));
        location.options.append({key, value});
    }
    return location;
}

} // namespace headroom::store
