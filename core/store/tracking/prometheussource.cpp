#include "prometheussource.h"

#include "metricscsv.h"
#include "store/common/storeerror.h"

#include "engine/common/errors.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QSslSocket>
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

QString where(const PrometheusSource &source)
{
    return QStringLiteral("Prometheus at %1").arg(source.url.toString());
}

// One GET of the HTTP API, its JSON "data" object. Throws StoreError naming the server.
QJsonObject getApi(QNetworkAccessManager &network, const PrometheusSource &source, const QString &path,
                   const QString &encodedQuery, const QString &what)
{
    QUrl url = source.url;
    url.setPath(url.path() + path);
    url.setQuery(encodedQuery, QUrl::StrictMode);
    QNetworkRequest request(url);
    request.setTransferTimeout(source.timeoutMs);
    request.setRawHeader("Accept", "application/json");
    if (!source.bearerToken.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + source.bearerToken);
    if (url.scheme() == QLatin1String("https") && !source.verifyTls) {
        QSslConfiguration tls = request.sslConfiguration();
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        request.setSslConfiguration(tls);
    }
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxAnswerBytes)
            reply->abort();
    });
    if (!reply->isFinished())
        loop.exec();
    const std::unique_ptr<QNetworkReply, void (*)(QNetworkReply *)> owned(reply, [](QNetworkReply *r) { r->deleteLater(); });
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
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
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    const QJsonObject answer = document.object();
    if (status != 200) {
        const QString error = answer.value(QStringLiteral("error")).toString();
        throw StoreError(QStringLiteral("%1: %2 failed (HTTP %3)%4")
                             .arg(where(source), what)
                             .arg(status)
                             .arg(error.isEmpty() ? QString() : QStringLiteral(": ") + error));
    }
    if (parseError.error != QJsonParseError::NoError || !document.isObject()
        || answer.value(QStringLiteral("status")).toString() != QLatin1String("success")
        || !answer.value(QStringLiteral("data")).isObject())
        throw StoreError(QStringLiteral("%1: %2 did not answer as the Prometheus HTTP API does (no \"status\": "
                                        "\"success\" with data); is the URL the server's, without /api/v1?")
                             .arg(where(source), what));
    return answer.value(QStringLiteral("data")).toObject();
}

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
        throw StoreError(QStringLiteral("--prometheus '%1': %2").arg(text, why));
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
    int done = 0;
    for (const std::string_view nameView : names) {
        const QString name = QString::fromUtf8(nameView.data(), qsizetype(nameView.size()));
        const engine::ServingMetric metric = *engine::parseServingMetric(nameView);
        const bool olderKvName = metric == engine::ServingMetric::KvCacheUsage && nameView == engine::metricName(metric);
        const bool newerKvName = metric == engine::ServingMetric::KvCacheUsage && !olderKvName;
        for (qint64 chunkStart = start; chunkStart < end; chunkStart += kChunkHours * kHour) {
            if (progress && !progress(done, total))
                throw StoreError(QStringLiteral("%1: cancelled").arg(where(source)));
            const qint64 chunkEnd = std::min(end, chunkStart + kChunkHours * kHour);
            // Every sample in [chunkStart, chunkEnd): the range selector ends 1 ms before chunkEnd.
            const QString promql = QStringLiteral("{__name__=\"%1\"}[%2ms]").arg(name).arg((chunkEnd - chunkStart) * 1000 - 1);
            const QString query = QStringLiteral("query=") + QString::fromLatin1(QUrl::toPercentEncoding(promql))
                + QStringLiteral("&time=") + QString::number(double(chunkEnd) - 0.001, 'f', 3);
            const QString what = QStringLiteral("the query %1 at %2").arg(promql).arg(chunkEnd);
            const QJsonObject data = getApi(network, source, QStringLiteral("/api/v1/query"), query, what);
            ++pull.queries;
            if (data.value(QStringLiteral("resultType")).toString() != QLatin1String("matrix"))
                throw StoreError(QStringLiteral("%1: %2 answered a %3, not a matrix")
                                     .arg(where(source), what, data.value(QStringLiteral("resultType")).toString()));
            const QJsonArray result = data.value(QStringLiteral("result")).toArray();
            if (result.size() > source.maxSeriesPerQuery)
                throw StoreError(QStringLiteral("%1: %2 answered %3 series, more than the %4 one query may return; "
                                                "raise --max-series or read a server with fewer targets")
                                     .arg(where(source), what)
                                     .arg(result.size())
                                     .arg(source.maxSeriesPerQuery));
            pull.series += result.size();
            for (const QJsonValue &seriesValue : result) {
                const QJsonObject series = seriesValue.toObject();
                const QJsonObject labels = series.value(QStringLiteral("metric")).toObject();
                const QString instance = labels.value(QStringLiteral("instance")).toString();
                const QString gpu = labels.value(QStringLiteral("gpu")).toString();
                QString deployment = labels.value(QStringLiteral("deployment")).toString();
                if (deployment.isEmpty())
                    deployment = labels.value(QStringLiteral("model_name")).toString();
                if (deployment.isEmpty())
                    deployment = QStringLiteral("default");
                const QString shown = QString::fromUtf8(QJsonDocument(labels).toJson(QJsonDocument::Compact));
                if (instance.isEmpty())
                    throw StoreError(QStringLiteral("%1: the series %2 has no instance label; every series must name "
                                                    "its replica")
                                         .arg(where(source), shown));
                if (engine::isGpuMetric(metric) && gpu.isEmpty())
                    throw StoreError(QStringLiteral("%1: the series %2 has no gpu label; %3 is a per-GPU metric")
                                         .arg(where(source), shown, name));
                double bound = 0.0;
                if (engine::isHistogramBucket(metric)) {
                    const std::optional<double> parsed = parseBucketBound(labels.value(QStringLiteral("le")).toString());
                    if (!parsed)
                        throw StoreError(QStringLiteral("%1: the series %2 has no le label of a positive number of "
                                                        "seconds or +Inf")
                                             .arg(where(source), shown));
                    bound = *parsed;
                }
                const SeriesKey key{deployment.toStdString(), instance.toStdString()};
                const int id = builder.series(key.deployment, key.instance, gpu.toStdString(), metric, bound);
                std::unordered_set<qint64> *kvSeen = olderKvName || newerKvName ? &kvTimes[key] : nullptr;
                for (const QJsonValue &pointValue : series.value(QStringLiteral("values")).toArray()) {
                    const QJsonArray point = pointValue.toArray();
                    const qint64 epochSeconds = qint64(std::floor(point.at(0).toDouble()));
                    bool ok = false;
                    const double value = point.at(1).toString().toDouble(&ok);
                    if (!ok || !std::isfinite(value))
                        throw StoreError(QStringLiteral("%1: the series %2 holds '%3' at %4, not a finite number")
                                             .arg(where(source), shown, point.at(1).toString())
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
                        continue;
                    builder.add(id, epochSeconds, value, 0);
                    ++pull.samples;
                }
            }
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

} // namespace headroom::store
