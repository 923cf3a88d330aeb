#pragma once

#include "engine/tracking/serving_metrics.h"

#include <QByteArray>
#include <QString>
#include <QUrl>
#include <functional>

// Serving and GPU telemetry read from a live Prometheus server (core/store/README.md,
// "Prometheus as a source"): the series the serving metrics CSV carries — DCGM-exporter
// gauges per GPU, vLLM's gauges, counters and latency histogram buckets, vLLM's renamed
// vllm:kv_cache_usage_perc too — read raw through the HTTP API (`/api/v1/query` with a range
// selector, so every stored sample comes back as it was scraped, not resampled) and reduced
// to replica-hours by the same engine::ServingHoursBuilder, with the same counter-reset and
// histogram handling. Labels: `instance` names the replica, `gpu` the GPU of a DCGM series,
// `deployment` (else vLLM's `model_name`, else "default") the group of replicas, `le` a
// bucket's upper bound.
namespace headroom::store {

class Workspace;

struct PrometheusSource {
    QUrl url;                      // http(s)://host[:port][/path prefix], no user, query or fragment
    QByteArray bearerToken;        // sent as "Authorization: Bearer …"; empty: none
    bool verifyTls = true;         // https: the server's certificate is checked unless false
    int timeoutMs = 60000;         // per request, for the whole transfer
    int maxSeriesPerQuery = 20000; // more series in one answer is refused, nothing kept
    // gzip-compressed answers. Auto: not from a loopback host (localhost, 127.0.0.0/8, ::1),
    // where compressing costs both ends more time than the bytes it saves (a week of 512 GPUs:
    // 2.7 s uncompressed, 5.4–6.1 s compressed, bench_prometheus); compressed otherwise.
    enum class Compression { Auto, On, Off };
    Compression compression = Compression::Auto;
};

// The server URL checked: http or https with a host, no user name or password (a token goes
// in a file or the environment, never in the URL), no query or fragment; a trailing "/" is
// dropped. StoreError naming what is wrong, the URL shown without its user name, password or
// query.
QUrl parsePrometheusUrl(const QString &text);
// The bearer token in `path`: its first line, trimmed. StoreError when the file cannot be
// read, is empty, is larger than 16 KiB or holds a control character.
QByteArray readBearerToken(const QString &path);

// The source at `url` (parsePrometheusUrl) with its bearer token read from `tokenFile`
// (readBearerToken), or, without one, from HEADROOM_PROMETHEUS_TOKEN when that is set.
PrometheusSource prometheusSource(const QString &url, const QString &tokenFile = {}, bool verifyTls = true);

struct PrometheusPull {
    engine::ServingHours hours;    // replica-hours of the clock hours asked for only
    qint64 samples = 0;            // samples read, the hour before the first included
    qint64 series = 0;             // series answered, summed over the queries
    int queries = 0;
};

// Reads the clock hours [fromHour, toHour) (hours since 1970-01-01 UTC) of every series the
// serving metrics CSV reads. The hour before fromHour is read too, so that a counter's first
// interval of fromHour has its start; its replica-hours are not returned. `progress` (queries
// done, queries in all) returning false cancels: StoreError "cancelled". StoreError naming
// the server and the query for: a server that cannot be reached or does not answer in time,
// a token it refuses (HTTP 401/403), an answer that is not a Prometheus API success, more
// series in one answer than maxSeriesPerQuery, a series without an instance label (or a DCGM
// series without gpu, a bucket without a valid le), a value the metric cannot have, and two
// samples of one series at one time (a replica exporting both names of a renamed series).
PrometheusPull pullServingMetrics(const PrometheusSource &source, qint64 fromHour, qint64 toHour,
                                  const std::function<bool(int done, int total)> &progress = {});

// Pulls into a workspace, each stored as one serving metrics import named
// "prometheus HOST:PORT FROM..TO" (FROM, TO: hours as 2026-03-02T14:00:00Z, TO exclusive).
QString pullImportPrefix(const PrometheusSource &source);  // "prometheus HOST:PORT "
// Where a pull up to `toHour` starts: after the last hour an earlier pull of the same server
// stored, and at most 7 days before toHour. toHour or later: nothing left to pull.
qint64 nextPullStart(const Workspace &workspace, const PrometheusSource &source, qint64 toHour);
// Stores `pull` of [fromHour, toHour) as one import; returns its id and sets *name.
qint64 storePull(Workspace &workspace, const PrometheusSource &source, const PrometheusPull &pull, qint64 fromHour,
                 qint64 toHour, QString *name = nullptr);

} // namespace headroom::store
