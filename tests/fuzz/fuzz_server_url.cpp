// Server URL → ServerLocation → the connect options the Qt PostgreSQL driver hands to libpq.
// Beyond "no crash", every accepted URL must keep the promises serverurl.h makes, or the target
// aborts (a finding): the options parse back, by libpq's conninfo rules, into exactly the URL's
// keys and values, none of them a password, user, database or host; the URL as shown does not
// depend on a password given in the URL or its query; and every refusal shows the URL only so.
#include "fuzzsupport.h"

#include "store/common/serverurl.h"

#include <QList>
#include <QPair>
#include <QUrl>
#include <QUrlQuery>
#include <cstdio>
#include <cstdlib>

namespace {

using Settings = QList<QPair<QString, QString>>;

// libpq's conninfo_parse (fe-connect.c), enough of it to read back what we wrote: keyword,
// optional spaces, "=", optional spaces, a value either in single quotes (backslash escapes
// the next character) or up to the next space (backslash escapes too). False on a parse error.
bool parseConnInfo(const QString &text, Settings &out)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    const auto skipSpaces = [&] {
        while (i < n && text.at(i).isSpace())
            ++i;
    };
    for (;;) {
        skipSpaces();
        if (i >= n)
            return true;
        QString key;
        while (i < n && !text.at(i).isSpace() && text.at(i) != QLatin1Char('='))
            key += text.at(i++);
        skipSpaces();
        if (i >= n || text.at(i) != QLatin1Char('='))
            return false;
        ++i;
        skipSpaces();
        QString value;
        if (i < n && text.at(i) == QLatin1Char('\'')) {
            ++i;
            for (;;) {
                if (i >= n)
                    return false;  // unterminated
                const QChar c = text.at(i++);
                if (c == QLatin1Char('\'')) break;
                if (c == QLatin1Char('\\')) {
                    if (i >= n) return false;
                    value += text.at(i++);
                } else {
                    value += c;
                }
            }
        } else {
            while (i < n && !text.at(i).isSpace()) {
                const QChar c = text.at(i++);
                if (c == QLatin1Char('\\') && i < n)
                    value += text.at(i++);
                else
                    value += c;
            }
        }
        out.append({key, value});
    }
}

// A broken promise is a finding: say which, then abort.
void require(bool promise, const char *what)
{
    if (!promise) {
        std::fprintf(stderr, "fuzz_server_url: broken promise: %s\n", what);
        std::abort();
    }
}

#define PROMISE(condition) require((condition), #condition)

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace headroom::store;
    const QString text = QString::fromUtf8(headroom::fuzz::bytesOf(data, size));
    const QUrl url(text, QUrl::StrictMode);
    const QString password = url.password();

    // Every refusal shows the address as displayServerUrl does, and what it shows must not
    // depend on the secrets: the same URL with its password and every "pass" option's value
    // replaced shows the same. (Checking that the secret's text is absent from what is shown
    // is not the promise: "u:ab%40c@cd" shows "u@cd", which holds "b@c" without revealing it.)
    const QString shown = displayServerUrl(text);
    if (url.isValid()) {
        const auto rebuilt = [&](bool blank) {
            QUrl out = url;
            if (blank && !password.isEmpty())
                out.setPassword(QStringLiteral("x"));
            QUrlQuery query;
            for (auto [key, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded)) {
                if (blank && key.contains(QLatin1String("pass"), Qt::CaseInsensitive))
                    value = QStringLiteral("x");
                query.addQueryItem(QString::fromLatin1(QUrl::toPercentEncoding(key)),
                                   QString::fromLatin1(QUrl::toPercentEncoding(value)));
            }
            if (url.hasQuery())
                out.setQuery(query);
            return out.toString(QUrl::FullyEncoded);
        };
        const QString withSecrets = rebuilt(false);
        const QString withoutSecrets = rebuilt(true);
        if (QUrl(withSecrets, QUrl::StrictMode).isValid() && QUrl(withoutSecrets, QUrl::StrictMode).isValid())
            PROMISE(displayServerUrl(withSecrets) == displayServerUrl(withoutSecrets));
    }
    try {
        const ServerLocation location = parseServerUrl(text);
        PROMISE(password.isEmpty());
        // The driver turns every ";" into a space before libpq reads the string.
        QString connInfo = location.connectOptions();
        connInfo.replace(QLatin1Char(';'), QLatin1Char(' '));
        Settings parsed;
        PROMISE(parseConnInfo(connInfo, parsed));
        PROMISE(parsed == location.options);
        for (const auto &[key, value] : parsed) {
            PROMISE(!key.contains(QLatin1String("pass"), Qt::CaseInsensitive));
            PROMISE(key != QLatin1String("user") && key != QLatin1String("dbname")
                    && key != QLatin1String("host") && key != QLatin1String("hostaddr")
                    && key != QLatin1String("options") && key != QLatin1String("service"));
        }
        // What is shown parses again to the same place.
        const ServerLocation again = parseServerUrl(location.url());
        PROMISE(again.user == location.user && again.host == location.host
                && again.port == location.port && again.database == location.database
                && again.options == location.options);
    } catch (const StoreError &error) {
        PROMISE(error.message().startsWith(QStringLiteral("Bad server address ") + shown + QStringLiteral(": ")));
    }
    return 0;
}
