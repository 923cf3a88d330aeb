#pragma once

#include <QList>
#include <QPair>
#include <QString>

// Where a team workspace lives on a PostgreSQL server:
//   postgresql://user@host:port/database[?sslmode=…&sslrootcert=…]
// (also postgres://). The password never comes from the URL: libpq reads it from ~/.pgpass
// (or PGPASSFILE) or PGPASSWORD, or the caller supplies one; it is never stored by Headroom.
// The query may set only the libpq keywords listed in serverurl.cpp, each once; every value
// reaches libpq quoted, so no value can add or override a connection setting.
namespace headroom::store {

struct ServerLocation {
    QString user;      // empty: libpq's default (PGUSER, then the OS user)
    QString host;      // name, IPv4 or IPv6 address
    int port = 5432;
    QString database;
    // libpq connection parameters passed through (TLS: sslmode, sslrootcert, sslcert, sslkey,
    // sslcrl; connect_timeout; application_name), in URL order, each key once, values as given
    // (unquoted).
    QList<QPair<QString, QString>> options;

    // postgresql://user@host:port/database?… — never with a password; percent-encoded, so
    // parseServerUrl reads it back to the same location.
    QString url() const;
    // The options as the Qt PostgreSQL driver's connect options ("key='value';…"), every value
    // quoted by libpq's conninfo rules (quoteConnectValue).
    QString connectOptions() const;
};

// True when `location` names a server ("postgresql://" or "postgres://") rather than a file.
bool isServerUrl(const QString &location);

// `value` as a libpq conninfo value: in single quotes, with \ and ' escaped by a backslash.
QString quoteConnectValue(const QString &value);

// A server address as messages, titles and logs may show it: no password, the values of
// secret-looking options masked ("***"), control characters replaced. Also for text that is
// not a valid URL.
QString displayServerUrl(const QString &text);

// Parses a server URL; throws StoreError naming the URL and what is wrong (a password in the
// URL or its query, a missing host or database, a bad port, an unknown or repeated option, a
// value holding another setting). The message never repeats a password.
ServerLocation parseServerUrl(const QString &url);

} // namespace headroom::store
