#pragma once

#include <QList>
#include <QPair>
#include <QString>

// Where a team workspace lives on a PostgreSQL server:
//   postgresql://user@host:port/database[?sslmode=…&sslrootcert=…]
// (also postgres://). The password never comes from the URL: libpq reads it from ~/.pgpass
// or PGPASSWORD, or the caller supplies one; it is never stored by Headroom.
namespace headroom::store {

struct ServerLocation {
    QString user;      // empty: libpq's default (PGUSER, then the OS user)
    QString host;      // name, IPv4 or IPv6 address
    int port = 5432;
    QString database;
    // libpq connection parameters passed through (TLS: sslmode, sslrootcert, sslcert, sslkey,
    // sslcrl; connect_timeout; application_name), in URL order.
    QList<QPair<QString, QString>> options;

    // postgresql://user@host:port/database?… — never with a password.
    QString url() const;
    // The options as the Qt PostgreSQL driver's connect options ("key=value;…").
    QString connectOptions() const;
};

// True when `location` names a server ("postgresql://" or "postgres://") rather than a file.
bool isServerUrl(const QString &location);

// Parses a server URL; throws StoreError naming the URL and what is wrong (a password in the
// URL, a missing host or database, a bad port, an unknown option). The message never repeats
// a password.
ServerLocation parseServerUrl(const QString &url);

} // namespace headroom::store
