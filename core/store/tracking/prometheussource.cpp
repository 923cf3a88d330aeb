#include "prometheussource.h"

#include "store/common/workspace.h"

#include "metricscsv.h"
#include "store/common/serverurl.h"
#include "store/common/storeerror.h"

#include "engine/common/errors.h"

#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QSslSocket>
#include <charconv>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <unordered_set>

namespace headroom::store {

namespace {

constexpr qint64 kHour = 3600;
constexpr qint64 kChunkHours = 24;                  // one query covers at most a day of one metric
constexpr qint64 kMaxAnswerBytes = qint64(1) << 30; // an answer larger than 1 GiB is refused
constexpr qint64 kMaxTokenBytes = 16 * 1024;
constexpr size_t kQueriesAhead = 3;                 // queries asked before the one being read
constexpr int kSkipped = -2;                        // a series past --max-series

QString where(const PrometheusSource &source)
{
    return QStringLiteral("Prometheus at %1").arg(source.url.toString());
}

bool compressedAnswers(const PrometheusSource &source)
{
    if (source.compression != PrometheusSource::Compression::Auto)
        return source.compression == PrometheusSource::Compression::On;
    const QString host = source.url.host();
    return !(host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0 || QHostAddress(host).isLoopback());
}

// One GET of the HTTP API, started: its reply, owned by `network` (an answer larger than 1 GiB
// is aborted as it arrives).
QNetworkReply *startGet(QNetworkAccessManager &network, const PrometheusSource &source, const QString &path,
                        const QString &encodedQuery)
{
    QUrl url = source.url;
    url.setPath(url.path() + path);
    url.setQuery(encodedQuery, QUrl::StrictMode);
    QNetworkRequest request(url);
    request.setTransferTimeout(source.timeoutMs);
    request.setRawHeader("Accept", "application/json");
    if (!compressedAnswers(source))
        request.setRawHeader("Accept-Encoding", "identity");
    if (!source.bearerToken.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + source.bearerToken);
    if (url.scheme() == QLatin1String("https") && !source.verifyTls) {
        QSslConfiguration tls = request.sslConfiguration();
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        request.setSslConfiguration(tls);
    }
    QNetworkReply *reply = network.get(request);
    QObject::connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxAnswerBytes)
            reply->abort();
    });
    return reply;
}

// The body of a started GET's 200 answer, waited for; the reply is deleted. Throws StoreError
// naming the server.
QByteArray finishGet(QNetworkReply *reply, const PrometheusSource &source, const QString &what)
{
    if (!reply->isFinished()) {
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    const std::unique_ptr<QNetworkReply, void (*)(QNetworkReply *)> owned(reply, [](QNetworkReply *r) { r->deleteLater(); });
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    QByteArray body = reply->readAll();
    if (status == 401 || status == 403)
        throw StoreError(QStringLiteral("%1 refused the request (HTTP %2): the bearer token is missing or wrong "
                                        "(--token-file, or HEADROOM_PROMETHEUS_TOKEN)")
                             .arg(where(source))
                             .arg(status));
    if (status == 0) {
        if (reply->error() == QNetworkReply::OperationCanceledError)
            throw StoreError(QStringLiteral("%1: %2 did not finish within %3 s, or its answer was larger than 1 GiB")
                                 .arg(where(source), what)
                                 .arg(source.timeoutMs / 1000.0));
        throw StoreError(QStringLiteral("%1 cannot be reached: %2").arg(where(source), reply->errorString()));
    }
    if (status != 200) {
        const QString error = QJsonDocument::fromJson(body).object().value(QStringLiteral("error")).toString();
        throw StoreError(QStringLiteral("%1: %2 failed (HTTP %3)%4")
                             .arg(where(source), what)
                             .arg(status)
                             .arg(error.isEmpty() ? QString() : QStringLiteral(": ") + error));
    }
    return body;
}

// A query's answer read as it streams by, without a document tree: {"status": "success",
// "data": {"resultType": "matrix", "result": [{"metric": {labels}, "values": [[t, "v"], …]},
// …]}}. Any other shape, or text that is not JSON, is `bad`.
class MatrixReader {
public:
    struct Point {
        double time;
        std::string_view value;
    };
    explicit MatrixReader(const QByteArray &body) : m_p(body.constData()), m_end(body.constData() + body.size()) {}

    // Calls series(nullptr) as each series begins and series(&labels) at its labels, then
    // point(p) for each of its points. Returns
    // false when the answer is not a Prometheus API success with a matrix.
    template <typename OnSeries, typename OnPoint>
    bool read(OnSeries &&series, OnPoint &&point)
    {
        bool success = false, matrix = false, haveResult = false;
        if (!object([&](std::string_view key) {
                if (key == "status") {
                    std::string status;
                    return string(&status) && (success = status == "success", true);
                }
                if (key != "data")
                    return skip();
                return object([&](std::string_view dataKey) {
                    if (dataKey == "resultType") {
                        std::string type;
                        return string(&type) && (matrix = type == "matrix", true);
                    }
                    if (dataKey != "result")
                        return skip();
                    haveResult = true;
                    return array([&] {
                        series(nullptr);  // a series begins: its points need its labels first
                        return object([&](std::string_view seriesKey) {
                            if (seriesKey == "metric") {
                                std::map<std::string, std::string> labels;
                                if (!object([&](std::string_view name) {
                                        std::string value;
                                        if (!string(&value))
                                            return false;
                                        labels.emplace(std::string(name), std::move(value));
                                        return true;
                                    }))
                                    return false;
                                series(&labels);
                                return true;
                            }
                            if (seriesKey != "values")
                                return skip();
                            return array([&] {
                                double time = 0;
                                std::string value;
                                if (!take('[') || !number(&time) || !take(',') || !string(&value) || !take(']'))
                                    return false;
                                return point(Point{time, value});
                            });
                        });
                    });
                });
            }))
            return false;
        space();
        return m_p == m_end && success && matrix && haveResult;
    }

private:
    void space()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool take(char c)
    {
        space();
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    bool peek(char c)
    {
        space();
        return m_p < m_end && *m_p == c;
    }
    // {"key": value, …}: member(key) reads the value.
    template <typename Member>
    bool object(Member &&member)
    {
        if (!take('{'))
            return false;
        if (take('}'))
            return true;
        do {
            std::string key;
            if (!string(&key) || !take(':') || !member(std::string_view(key)))
                return false;
        } while (take(','));
        return take('}');
    }
    template <typename Element>
    bool array(Element &&element)
    {
        if (!take('['))
            return false;
        if (take(']'))
            return true;
        do {
            if (!element())
                return false;
        } while (take(','));
        return take(']');
    }
    bool string(std::string *out)
    {
        if (!take('"'))
            return false;
        out->clear();
        while (m_p < m_end && *m_p != '"') {
            if (*m_p != '\\') {
                out->push_back(*m_p++);
                continue;
            }
            if (++m_p >= m_end)
                return false;
            const char escaped = *m_p++;
            switch (escaped) {
            case '"': case '\\': case '/': out->push_back(escaped); break;
            case 'b': out->push_back('\b'); break;
            case 'f': out->push_back('\f'); break;
            case 'n': out->push_back('\n'); break;
            case 'r': out->push_back('\r'); break;
            case 't': out->push_back('\t'); break;
            case 'u': {
                if (m_end - m_p < 4)
                    return false;
                bool ok = false;
                const uint code = QByteArray(m_p, 4).toUInt(&ok, 16);
                if (!ok)
                    return false;
                m_p += 4;
                out->append(QString(QChar(char16_t(code))).toStdString());
                break;
            }
            default: return false;
            }
        }
        if (m_p >= m_end)
            return false;
        ++m_p;
        return true;
    }
    bool number(double *out)
    {
        space();
        const auto [end, error] = std::from_chars(m_p, m_end, *out);
        if (error != std::errc() || end == m_p)
            return false;
        m_p = end;
        return true;
    }
    // Any JSON value.
    bool skip()
    {
        space();
        if (m_p >= m_end)
            return false;
        if (*m_p == '{')
            return object([&](std::string_view) { return skip(); });
        if (*m_p == '[')
            return array([&] { return skip(); });
        if (*m_p == '"') {
            std::string ignored;
            return string(&ignored);
        }
        const char *start = m_p;
        while (m_p < m_end && (std::isalnum(static_cast<unsigned char>(*m_p)) || *m_p == '-' || *m_p == '+' || *m_p == '.'))
            ++m_p;
        return m_p > start;
    }

    const char *m_p;
    const char *m_end;
};

struct SeriesKey {
    std::string deployment, instance;
    bool operator<(const SeriesKey &other) const
    {
        return std::tie(deployment, instance) < std::tie(other.deployment, other.instance);
    }
};

} // namespace

QUrl parsePrometheusUrl(const QString &text)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    const auto fail = [&](const QString &why) {
        // Shown without a user name, password or query: they may hold secrets.
        throw StoreError(QStringLiteral("Prometheus URL %1: %2").arg(displayServerUrl(text.trimmed()), why));
    };
    if (!url.isValid() || url.isRelative())
        fail(QStringLiteral("not a URL; expected http://host:port or https://host:port"));
    if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        fail(QStringLiteral("the scheme must be http or https"));
    if (url.host().isEmpty())
        fail(QStringLiteral("no host"));
    if (!url.userInfo().isEmpty())
        fail(QStringLiteral("a user name or password in the URL would be kept in logs and history; give a bearer "
                            "token with --token-file or HEADROOM_PROMETHEUS_TOKEN"));
    if (url.hasQuery() || url.hasFragment())
        fail(QStringLiteral("no query or fragment: the server's base URL only"));
    QUrl clean = url;
    QString path = clean.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    clean.setPath(path);
    return clean;
}

QByteArray readBearerToken(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the token file (%2)").arg(path, file.errorString()));
    const QByteArray bytes = file.read(kMaxTokenBytes + 1);
    if (bytes.size() > kMaxTokenBytes)
        throw StoreError(QStringLiteral("%1: larger than 16 KiB; a bearer token file holds the token on one line").arg(path));
    const QByteArray token = bytes.left(bytes.indexOf('\n') < 0 ? bytes.size() : bytes.indexOf('\n')).trimmed();
    if (token.isEmpty())
        throw StoreError(QStringLiteral("%1: the first line is empty; it must hold the bearer token").arg(path));
    for (const char c : token)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            throw StoreError(QStringLiteral("%1: the token holds a control character").arg(path));
    return token;
}

PrometheusSource prometheusSource(const QString &url, const QString &tokenFile, bool verifyTls)
{
    PrometheusSource source;
    source.url = parsePrometheusUrl(url);
    if (!tokenFile.isEmpty())
        source.bearerToken = readBearerToken(tokenFile);
    else if (const QByteArray token = qgetenv("HEADROOM_PROMETHEUS_TOKEN").trimmed(); !token.isEmpty())
        source.bearerToken = token;
    source.verifyTls = verifyTls;
    return source;
}

PrometheusPull pullServingMetrics(const PrometheusSource &source, qint64 fromHour, qint64 toHour,
                                  const std::function<bool(int, int)> &progress)
{
    if (toHour <= fromHour)
        throw StoreError(QStringLiteral("%1: no whole hour to read (from hour %2 to %3)").arg(where(source)).arg(fromHour).arg(toHour));
    const qint64 start = (fromHour - 1) * kHour;  // the hour before: counters' first intervals
    const qint64 end = toHour * kHour;
    const std::vector<std::string_view> names = engine::servingMetricNames();
    const qint64 chunks = (end - start + kChunkHours * kHour - 1) / (kChunkHours * kHour);
    const int total = int(qint64(names.size()) * chunks);

    QNetworkAccessManager network;
    engine::ServingHoursBuilder builder;
    PrometheusPull pull;
    // A replica exporting both names of a renamed gauge at once: the older name's sample stands.
    std::map<SeriesKey, std::unordered_set<qint64>> kvTimes;
    // Every query, in the order their answers are read (metric by metric, each day in turn: the
    // older name of a renamed gauge before the newer). A few are asked ahead, so that the server
    // answers the next while this one is read.
    struct Query {
        size_t metric;
        qint64 chunkEnd;
        QString promql;
        QNetworkReply *reply = nullptr;
    };
    std::vector<Query> queries;
    for (size_t m = 0; m < names.size(); ++m) {
        const QString name = QString::fromUtf8(names[m].data(), qsizetype(names[m].size()));
        for (qint64 chunkStart = start; chunkStart < end; chunkStart += kChunkHours * kHour) {
            const qint64 chunkEnd = std::min(end, chunkStart + kChunkHours * kHour);
            // Every sample in [chunkStart, chunkEnd): the range selector ends 1 ms before chunkEnd.
            queries.push_back({m, chunkEnd, QStringLiteral("{__name__=\"%1\"}[%2ms]").arg(name).arg((chunkEnd - chunkStart) * 1000 - 1)});
        }
    }
    size_t asked = 0;
    const auto askAhead = [&](size_t upTo) {
        for (; asked < std::min(upTo, queries.size()); ++asked) {
            Query &q = queries[asked];
            q.reply = startGet(network, source, QStringLiteral("/api/v1/query"),
                               QStringLiteral("query=") + QString::fromLatin1(QUrl::toPercentEncoding(q.promql))
                                   + QStringLiteral("&time=") + QString::number(double(q.chunkEnd) - 0.001, 'f', 3));
        }
    };
    int done = 0;
    for (size_t next = 0; next < queries.size(); ++next) {
        {
            const std::string_view nameView = names[queries[next].metric];
            const QString name = QString::fromUtf8(nameView.data(), qsizetype(nameView.size()));
            const engine::ServingMetric metric = *engine::parseServingMetric(nameView);
            const bool olderKvName = metric == engine::ServingMetric::KvCacheUsage && nameView == engine::metricName(metric);
            const bool newerKvName = metric == engine::ServingMetric::KvCacheUsage && !olderKvName;
            if (progress && !progress(done, total))
                throw StoreError(QStringLiteral("%1: cancelled").arg(where(source)));
            askAhead(next + kQueriesAhead + 1);
            const QString what = QStringLiteral("the query %1 at %2").arg(queries[next].promql).arg(queries[next].chunkEnd);
            const QByteArray body = finishGet(std::exchange(queries[next].reply, nullptr), source, what);
            ++pull.queries;
            qint64 seriesInAnswer = 0;
            int id = -1;
            std::unordered_set<qint64> *kvSeen = nullptr;
            QString shown;
            const bool read = MatrixReader(body).read(
                [&](const std::map<std::string, std::string> *labelsRead) {
                    if (!labelsRead) {
                        id = -1;
                        return;
                    }
                    const std::map<std::string, std::string> &labels = *labelsRead;
                    if (++seriesInAnswer > source.maxSeriesPerQuery) {
                        id = kSkipped;  // counted for the message below, not read
                        return;
                    }
                    const auto label = [&](const char *name) {
                        const auto it = labels.find(name);
                        return it == labels.end() ? std::string() : it->second;
                    };
                    QJsonObject shownLabels;
                    for (const auto &[name, value] : labels)
                        shownLabels.insert(QString::fromStdString(name), QString::fromStdString(value));
                    shown = QString::fromUtf8(QJsonDocument(shownLabels).toJson(QJsonDocument::Compact));
                    const std::string instance = label("instance");
                    const std::string gpu = label("gpu");
                    std::string deployment = label("deployment");
                    if (deployment.empty())
                        deployment = label("model_name");
                    if (deployment.empty())
                        deployment = "default";
                    if (instance.empty())
                        throw StoreError(QStringLiteral("%1: the series %2 has no instance label; every series must "
                                                        "name its replica")
                                             .arg(where(source), shown));
                    if (engine::isGpuMetric(metric) && gpu.empty())
                        throw StoreError(QStringLiteral("%1: the series %2 has no gpu label; %3 is a per-GPU metric")
                                             .arg(where(source), shown, name));
                    double bound = 0.0;
                    if (engine::isHistogramBucket(metric)) {
                        const std::optional<double> parsed = parseBucketBound(QString::fromStdString(label("le")));
                        if (!parsed)
                            throw StoreError(QStringLiteral("%1: the series %2 has no le label of a positive number "
                                                            "of seconds or +Inf")
                                                 .arg(where(source), shown));
                        bound = *parsed;
                    }
                    const SeriesKey key{deployment, instance};
                    id = builder.series(key.deployment, key.instance, gpu, metric, bound);
                    kvSeen = olderKvName || newerKvName ? &kvTimes[key] : nullptr;
                    ++pull.series;
                },
                [&](const MatrixReader::Point &point) {
                    if (id == kSkipped)
                        return true;
                    if (id < 0)
                        return false;  // values before their labels: not an answer of the API
                    const qint64 epochSeconds = qint64(std::floor(point.time));
                    double value = 0;
                    const char *first = point.value.data();
                    const char *last = first + point.value.size();
                    const auto [end, error] = std::from_chars(first, last, value);
                    if (error != std::errc() || end != last || !std::isfinite(value))
                        throw StoreError(QStringLiteral("%1: the series %2 holds '%3' at %4, not a finite number")
                                             .arg(where(source), shown,
                                                  QString::fromUtf8(first, qsizetype(point.value.size())))
                                             .arg(epochSeconds));
                    if (const QString problem = servingValueProblem(metric, name, value); !problem.isEmpty())
                        throw StoreError(QStringLiteral("%1: the series %2 holds %3 at %4, which %5")
                                             .arg(where(source), shown)
                                             .arg(value)
                                             .arg(epochSeconds)
                                             .arg(problem));
                    if (olderKvName)
                        kvSeen->insert(epochSeconds);
                    else if (newerKvName && kvSeen->count(epochSeconds))
                        return true;
                    builder.add(id, epochSeconds, value, 0);
                    ++pull.samples;
                    return true;
                });
            if (read && seriesInAnswer > source.maxSeriesPerQuery)
                throw StoreError(QStringLiteral("%1: %2 answered %3 series, more than the %4 one query may return; "
                                                "raise --max-series or read a server with fewer targets")
                                     .arg(where(source), what)
                                     .arg(seriesInAnswer)
                                     .arg(source.maxSeriesPerQuery));
            if (!read)
                throw StoreError(QStringLiteral("%1: %2 did not answer as the Prometheus HTTP API does (no \"status\": "
                                                "\"success\" with a matrix); is the URL the server's, without /api/v1?")
                                     .arg(where(source), what));
            ++done;
        }
    }
    if (progress)
        progress(done, total);
    try {
        pull.hours = builder.finish();
    } catch (const engine::InputError &error) {
        throw StoreError(QStringLiteral("%1: %2").arg(where(source), QString::fromUtf8(error.what())));
    }
    std::erase_if(pull.hours.hours, [&](const engine::ServingHour &h) { return h.hour < fromHour || h.hour >= toHour; });
    return pull;
}

namespace {

QString hourText(qint64 hour)
{
    return QDateTime::fromSecsSinceEpoch(hour * 3600, Qt::UTC).toString(QStringLiteral("yyyy-MM-ddTHH:00:00'Z'"));
}

} // namespace

QString pullImportPrefix(const PrometheusSource &source)
{
    return QStringLiteral("prometheus %1:%2 ")
        .arg(source.url.host())
        .arg(source.url.port(source.url.scheme() == QLatin1String("https") ? 443 : 80));
}

qint64 nextPullStart(const Workspace &workspace, const PrometheusSource &source, qint64 toHour)
{
    const QString prefix = pullImportPrefix(source);
    qint64 since = toHour - 7 * 24;
    for (const ServingMetricsImport &import : workspace.servingMetricsImports()) {
        if (!import.fileName.startsWith(prefix))
            continue;
        const QDateTime end = QDateTime::fromString(import.fileName.section(QStringLiteral(".."), 1), Qt::ISODate);
        if (end.isValid())
            since = std::max(since, end.toSecsSinceEpoch() / 3600);
    }
    return since;
}

qint64 storePull(Workspace &workspace, const PrometheusSource &source, const PrometheusPull &pull, qint64 fromHour,
                 qint64 toHour, QString *name)
{
    const QString importName = pullImportPrefix(source) + hourText(fromHour) + QStringLiteral("..") + hourText(toHour);
    if (name)
        *name = importName;
    return workspace.importServingMetrics(importName, pull.samples, 0, pull.hours);
}

} // namespace headroom::store
