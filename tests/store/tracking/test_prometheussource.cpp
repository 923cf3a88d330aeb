// Serving metrics pulled from Prometheus's HTTP API: the URL and token rules and the
// server's refusals against a scripted HTTP server here, and (tagged [prometheus], run as
// "store-prom: " beside the private server scripts/promserver.sh starts) the pulled
// replica-hours against the CSV import of the very same generated samples.
#include "common/storetestsupport.h"
#include "prometheussupport.h"

#include "store/common/storeerror.h"
#include "store/tracking/metricscsv.h"
#include "store/tracking/prometheussource.h"

#include <QTemporaryDir>
#include <QUrlQuery>

using namespace headroom;
using namespace headroom::store;

namespace {

QString errorOf(const std::function<void()> &run)
{
    try {
        run();
    } catch (const StoreError &error) {
        return error.message();
    }
    return {};
}

const QByteArray kEmptyMatrix = R"({"status":"success","data":{"resultType":"matrix","result":[]}})";

} // namespace

TEST_CASE("A Prometheus URL is the server's base: http or https without credentials or query or fragment", "[prometheus-api]")
{
    CHECK(parsePrometheusUrl(QStringLiteral("http://127.0.0.1:9090/")).toString() == "http://127.0.0.1:9090");
    CHECK(parsePrometheusUrl(QStringLiteral("https://metrics.example.com/prom//")).toString()
          == "https://metrics.example.com/prom");
    CHECK(errorOf([] { parsePrometheusUrl(QStringLiteral("https://ops:secret@metrics.example.com")); })
              .contains("a user name or password in the URL"));
    CHECK(errorOf([] { parsePrometheusUrl(QStringLiteral("http://h:9090/api/v1/query?query=up")); })
              .contains("no query or fragment"));
    CHECK(errorOf([] { parsePrometheusUrl(QStringLiteral("ftp://h")); }).contains("http or https"));
    CHECK(errorOf([] { parsePrometheusUrl(QStringLiteral("metrics:9090")); }).contains("http"));
}

TEST_CASE("A bearer token file gives its first line trimmed and an empty or oversized one is refused", "[prometheus-api]")
{
    QTemporaryDir dir;
    const auto write = [&](const char *name, const QByteArray &bytes) {
        QFile file(dir.filePath(QLatin1String(name)));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        return file.fileName();
    };
    CHECK(readBearerToken(write("t", "  abc.def-123 \nsecond line\n")) == "abc.def-123");
    CHECK(errorOf([&] { readBearerToken(write("e", "\n")); }).contains("the first line is empty"));
    CHECK(errorOf([&] { readBearerToken(write("b", QByteArray(20000, 'x'))); }).contains("larger than 16 KiB"));
    CHECK(errorOf([&] { readBearerToken(dir.filePath("missing")); }).contains("cannot read the token file"));
}

TEST_CASE("A pull sends the bearer token and raw range selectors and names a refused token or a server that is "
          "not Prometheus or cannot be reached",
          "[prometheus-api]")
{
    const QByteArray token = "s3cr3t-token";
    FakeHttpServer server([&](const QByteArray &request) {
        if (!request.contains("\r\nAuthorization: Bearer " + token + "\r\n"))
            return FakeHttpServer::reply(401, R"({"status":"error","error":"unauthorized"})");
        return FakeHttpServer::reply(200, kEmptyMatrix);
    });
    PrometheusSource source;
    source.url = server.url();

    // No token: refused, named.
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1002); })
              .contains("refused the request (HTTP 401): the bearer token is missing or wrong"));
    // The right token: every metric the CSV reads, over the hours asked and the one before.
    source.bearerToken = token;
    server.requests.clear();
    const PrometheusPull pull = pullServingMetrics(source, 1000, 1002);
    CHECK(pull.hours.hours.empty());
    CHECK(pull.queries == int(engine::servingMetricNames().size()));
    // The refused pull's other queries were in flight when it stopped; the server may read
    // them only later, without a token. Count the ones a pull with the token sent.
    const auto sentWithToken = [&] {
        QList<QByteArray> requests;
        for (const QByteArray &request : server.requests)
            if (request.contains("\r\nAuthorization: Bearer " + token + "\r\n"))
                requests << request;
        return requests;
    };
    const QList<QByteArray> sent = sentWithToken();
    REQUIRE(pull.queries == sent.size());
    const auto sentFor = [&](const QByteArray &metric) {
        for (const QByteArray &request : sent)
            if (request.contains(metric))
                return request;
        return QByteArray();
    };
    const QByteArray first = sentFor("DCGM_FI_DEV_GPU_UTIL");
    REQUIRE_FALSE(first.isEmpty());
    const QUrlQuery query(QUrl(QString::fromLatin1(first.mid(4, first.indexOf(" HTTP/") - 4))).query(QUrl::FullyEncoded));
    CHECK(query.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded)
          == QStringLiteral("{__name__=\"DCGM_FI_DEV_GPU_UTIL\"}[10799999ms]"));
    CHECK(query.queryItemValue(QStringLiteral("time")) == QStringLiteral("3607199.999"));
    CHECK_FALSE(sentFor("e2e_request_latency_seconds_bucket").isEmpty());
    // A loopback server's answers come uncompressed (auto); asked for, compressed.
    CHECK(first.contains("\r\nAccept-Encoding: identity\r\n"));
    source.compression = PrometheusSource::Compression::On;
    server.requests.clear();
    pullServingMetrics(source, 1000, 1001);
    const QList<QByteArray> compressed = sentWithToken();
    REQUIRE_FALSE(compressed.isEmpty());
    CHECK_FALSE(compressed.front().contains("Accept-Encoding: identity"));
    CHECK(compressed.front().contains("gzip"));
    source.compression = PrometheusSource::Compression::Auto;

    // An answer that is not the API's.
    FakeHttpServer web([](const QByteArray &) { return FakeHttpServer::reply(200, "<html>Grafana</html>"); });
    source.url = web.url();
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); })
              .contains("did not answer as the Prometheus HTTP API does"));
    // A PromQL error is quoted.
    FakeHttpServer failing([](const QByteArray &) {
        return FakeHttpServer::reply(422, R"({"status":"error","errorType":"execution","error":"query processing would load too many samples"})");
    });
    source.url = failing.url();
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); })
              .contains("failed (HTTP 422): query processing would load too many samples"));
    // Nothing listening.
    source.url = QUrl(QStringLiteral("http://127.0.0.1:1"));
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); }).contains("Prometheus at http://127.0.0.1:1 cannot be reached"));
}

TEST_CASE("A pulled series without its labels or with a value the metric cannot have is refused, naming it",
          "[prometheus-api]")
{
    QByteArray answer;
    FakeHttpServer server([&](const QByteArray &request) {
        return FakeHttpServer::reply(200, request.contains("DCGM_FI_DEV_GPU_UTIL") ? answer : kEmptyMatrix);
    });
    PrometheusSource source;
    source.url = server.url();
    answer = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","instance":"r1:8000"},"values":[[3600000,"50"]]}]}})";
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); }).contains("has no gpu label"));
    answer = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","instance":"r1:8000","gpu":"0"},"values":[[3600000,"150"]]}]}})";
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); }).contains("is above 100; GPU utilization is a percentage"));
    answer = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","gpu":"0"},"values":[[3600000,"50"]]}]}})";
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); }).contains("has no instance label"));
    answer = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"DCGM_FI_DEV_GPU_UTIL","instance":"r","gpu":"0"},"values":[[3600000,"NaN"]]}]}})";
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); }).contains("not a finite number"));
    source.maxSeriesPerQuery = 1;
    answer = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"instance":"r","gpu":"0"},"values":[]},{"metric":{"instance":"r","gpu":"1"},"values":[]}]}})";
    CHECK(errorOf([&] { pullServingMetrics(source, 1000, 1001); })
              .contains("answered 2 series, more than the 1 one query may return"));
}

TEST_CASE("Pulled from a real Prometheus the replica-hours equal the CSV import of the same samples", "[prometheus]")
{
    const PrometheusTestServer server = prometheusTestServer();
    const MetricsFile csv = readMetricsCsv(server.csv);
    PrometheusSource source;
    source.url = server.url;
    const PrometheusPull pull = pullServingMetrics(source, server.startHour, server.startHour + server.hours);
    // The generated series hold resets, a gap, a renamed gauge and two deployments.
    REQUIRE(csv.hours.counterResets > 0);
    CHECK(pull.samples == csv.samples);
    CHECK(pull.hours.counterResets == csv.hours.counterResets);
    requireSameHours(pull.hours, csv.hours);

    // A window inside: its hours are the CSV's hours of that window, counters' first
    // intervals included (their start is in the hour before).
    const PrometheusPull inner = pullServingMetrics(source, server.startHour + 2, server.startHour + 4);
    engine::ServingHours expected = csv.hours;
    std::erase_if(expected.hours, [&](const engine::ServingHour &h) {
        return h.hour < server.startHour + 2 || h.hour >= server.startHour + 4;
    });
    expected.counterResets = inner.hours.counterResets;
    requireSameHours(inner.hours, expected);

    // Too many series for one query: refused, named.
    source.maxSeriesPerQuery = 2;
    CHECK(errorOf([&] { pullServingMetrics(source, server.startHour, server.startHour + 1); })
              .contains("more than the 2 one query may return"));
}
