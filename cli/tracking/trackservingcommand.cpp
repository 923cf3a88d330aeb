#include "trackservingcommand.h"

#include "cli/common/format.h"
#include "cli/common/moneyoptions.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"
#include "engine/tracking/serving_metrics.h"
#include "engine/tracking/telemetry_anomalies.h"
#include "engine/inference/sizing_options.h"
#include "store/tracking/metricscsv.h"
#include "store/tracking/prometheussource.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <cmath>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(
Serving telemetry:
       headroom track import --metrics FILE.csv [--json]
       headroom track pull --prometheus URL [--since TIME] [--until TIME] [--token-file FILE]
                              [--insecure-tls] [--max-series N] [--compression auto|on|off]
                              [--json]
       headroom track rightsizing [--metrics FILE.csv] [--days N] [--load tokens|requests]
                              [--busy-quantile Q] [--max-waiting W] [--headroom H]
                              [--slo-ms MS [--slo-metric ttft|e2e] [--slo-quantile Q]]
                              [--rate R [--currency C] | --gpu ID [--provider P]] [--json]
       headroom track anomalies --metrics FILE.csv [--deployment D] [--period N] [--history N]
                              [--rate R [--currency C] | --gpu ID [--provider P]] [--json]
       headroom track benchmarks [--metrics FILE.csv] [--add NAME --date YYYY-MM-DD [--note T]]
                              [--remove NAME] [--window-days N] [--deployment D]
                              [--rate R [--currency C] | --gpu ID [--provider P]] [--json]

Serving telemetry is a DCGM-exporter / Prometheus range-query export in long form,
timestamp,instance,gpu,metric,value[,deployment][,le] (core/store/README.md, "Serving
metrics CSV"); le carries the upper bound of the latency histograms' bucket rows. Without
--metrics, rightsizing and benchmarks read the metrics imported into the workspace (track
import --metrics); anomalies read them with an empty value (--metrics=). Money needs a rate per GPU-hour: --rate, or --gpu for the
lowest on-demand rate of the workspace's rate cards for that GPU in force today.

track import --metrics
  Reads the export and keeps per replica (instance) and hour: GPUs seen, mean and peak GPU
  utilization, framebuffer used, KV cache usage, running and waiting requests, and the
  increase of the request and token counters (a counter that drops restarted from 0) and of
  every TTFT and end-to-end latency histogram bucket. Rows
  of other metrics are counted and ignored. An import of the same file name is replaced; a
  file with any error changes nothing.
  --json               {"import_id", "file", "rows", "samples", "ignored_rows",
                       "ignored_metrics": [{"metric", "rows"}], "replica_hours", "replicas",
                       "counter_resets"}

track pull --prometheus URL
  Reads the same series from a Prometheus server's HTTP API instead of a file: every stored
  sample of every whole UTC hour from --since to --until, kept per replica-hour exactly as
  track import keeps a file's, into the same tables (rightsizing, benchmarks and anomalies
  read them). The labels instance, gpu, deployment (else model_name) and le stand for the
  CSV's columns; vLLM's renamed vllm:kv_cache_usage_perc is read as vllm:gpu_cache_usage_perc.
  Each pull is one import named "prometheus HOST:PORT FROM..TO"; without --since a pull
  starts after the last hour an earlier pull of the same server stored (else 7 days before
  --until), so only hours not yet stored are read. An error changes nothing.
  --prometheus URL     http(s)://host:port[/prefix]: no user name, password or query in it
  --since TIME         the first hour (yyyy-mm-ddThh[:mm[:ss]]Z, rounded down to the hour)
  --until TIME         the end, exclusive (rounded down); default the start of this hour
  --token-file FILE    a bearer token (its first line); without it HEADROOM_PROMETHEUS_TOKEN,
                       when set; never on the command line
  --insecure-tls       https without checking the server's certificate (TLS is checked by
                       default)
  --max-series N       most series one query may answer; default 20,000
  --compression C      gzip-compressed answers: on, off, or auto (default: off from a loopback
                       host, where it costs more time than it saves; on otherwise, e.g. through
                       a VPN or a port-forward to a remote cluster, say on)
  --json               {"import_id", "name", "from", "to", "queries", "series", "samples",
                       "replica_hours", "replicas", "counter_resets"}

track rightsizing
  Per deployment, whether fewer replicas would hold the measured load:
    busy load L  = nearest-rank quantile Q of the deployment's load per hour
    capacity  C  = the most one replica carried for a whole hour with mean waiting <= W
                   (and, with --slo-ms, its latency quantile within the SLO where the
                   metrics hold that histogram)
    needed    N  = max(1, ceil(L x (1 + H) / C))
    saving       = (R - N) x GPUs per replica x rate x 720 h a month, when N < R
  R is the replicas of the latest hour. No saving when the replicas queued (mean waiting per
  replica > W) in an hour with load >= L, or when such an hour's latency quantile over all
  replicas missed the SLO: the load then understates demand. Latency quantiles are
  Prometheus' histogram_quantile over the bucket counters.
  --days N             only the last N days of metrics; default every day held
  --load M             tokens (generation tokens/s, default) or requests (completed/s)
  --busy-quantile Q    the busy hour's quantile, (0, 1]; default 0.95
  --max-waiting W      mean waiting requests per replica that still counts as no queue;
                       default 0.5
  --headroom H         capacity kept free at the busy hour, [0, 1); default the workspace's
                       planned headroom (serving assumptions)
  --slo-ms MS          a latency SLO in milliseconds (> 0); default none (the queue alone)
  --slo-metric K       ttft (time to first token, default) or e2e (request latency)
  --slo-quantile Q     the SLO's quantile, (0, 1); default 0.95
  --json               {"load", "unit", "busy_quantile", "max_waiting", "planned_headroom",
                       "slo": null | {"metric", "quantile", "ms"},
                       "rate_per_gpu_hour", "currency", "deployments": [{"deployment", "hours",
                       "current_replicas", "gpus_per_replica", "busy_load", "busy_hour",
                       "busy_waiting_per_replica", "capacity_per_replica", "capacity_instance",
                       "capacity_hour", "capacity_latency_ms", "busy_latency_ms", "slo_hours",
                       "recommended_replicas", "gpus_saved", "saturated", "saving_per_month",
                       "explanation"}], "replicas": [{"deployment", "instance", "hours", "gpus",
                       "gpu_util_mean", "gpu_util_peak", "kv_cache_mean", "requests_per_s",
                       "tokens_per_s", "tokens_per_s_peak", "running_mean", "waiting_mean",
                       "waiting_peak", "ttft_p50_ms", "ttft_p95_ms", "e2e_p95_ms"}]}
                       (latencies null where the metrics hold no histogram)

track anomalies --metrics
  Anomalies in GPU utilization measured by the telemetry. Per UTC day, over the replica-hours
  with GPUs (of --deployment D, else the whole fleet):
    GPU-hours      G = sum of GPUs x 1 h
    busy GPU-hours B = sum of GPUs x mean GPU utilization / 100, over the replica-hours with
                       a DCGM_FI_DEV_GPU_UTIL sample (measured GPU-hours M: their GPUs x 1 h)
    utilization    U = B / M   (a replica-hour without a utilization sample is unknown, not
                       idle; a day without any is interpolated and never flagged)
  The first and last day are left out unless the hours cover them from 00:00 to 23:00 UTC.
  Daily U and daily G each go through the detector of track anomalies (default --period 7;
  at least 15 whole days). Size per day: a utilization anomaly (U - expected) x M, busy
  GPU-hours above the forecast (negative: idle); a GPU-hours anomaly G - expected; a level
  shift its mean residual per day. Money = the size rounded to 0.01 GPU-hour x rate, to the
  cent (with --rate or --gpu).
  --deployment D       one deployment only; default the whole fleet
  --json               {"first_date", "last_date", "days", "deployment", "history",
                       "utilization_half_width", "gpu_hours_half_width", "rate_per_gpu_hour",
                       "currency", "partial_days_left_out", "unmeasured_days", "daily": [{"date",
                       "gpu_hours", "measured_gpu_hours", "busy_gpu_hours", "utilization"}],
                       "anomalies": [{"series" ("utilization"|"gpu_hours"), "kind", "date",
                       "end_date", "utilization", "expected_utilization", "gpu_hours",
                       "expected_gpu_hours", "size_gpu_hours", "size_money"}]}
                       (utilization as a share 0-1; size_money and rate null without a rate)

track benchmarks
  The workspace's named optimizations, each with the windows before ([date - N days, date))
  and after ([date, date + N days)) it:
    goodput per GPU     = generation tokens / (GPU-hours x 3600)   tokens/s per GPU
    cost per 1M tokens  = GPU-hours x rate / tokens x 1,000,000
  GPU-hours count every replica-hour with a token measurement as its GPUs x 1 h.
  --add NAME --date D  stores an optimization taking effect on day D (--note T optional)
  --remove NAME        removes one
  --window-days N      days on each side, 1 to 366; default 7
  --deployment D       one deployment only; default all
  --json               {"window_days", "deployment", "rate_per_gpu_hour", "currency",
                       "benchmarks": [{"name", "date", "note", "before": {"from", "to",
                       "replica_hours", "gpu_hours", "tokens", "goodput_per_gpu",
                       "cost_per_1m_tokens", "ttft_p95_ms"}, "after": {...},
                       "goodput_change_percent", "cost_change_percent"}]}
)";

const std::vector<OptionSpec> kOptions = {
    {QStringLiteral("metrics")},       {QStringLiteral("days")},        {QStringLiteral("load")},
    {QStringLiteral("busy-quantile")}, {QStringLiteral("max-waiting")}, {QStringLiteral("headroom")},
    {QStringLiteral("rate")},          {QStringLiteral("gpu")},         {QStringLiteral("provider")},
    {QStringLiteral("add")},           {QStringLiteral("date")},        {QStringLiteral("note")},
    {QStringLiteral("remove")},        {QStringLiteral("window-days")}, {QStringLiteral("deployment")},
    {QStringLiteral("slo-ms")},        {QStringLiteral("slo-metric")},  {QStringLiteral("slo-quantile")},
    {QStringLiteral("prometheus")},    {QStringLiteral("since")},       {QStringLiteral("until")},
    {QStringLiteral("token-file")},    {QStringLiteral("max-series")},  {QStringLiteral("insecure-tls"), false},
    {QStringLiteral("compression")},
};

QString qs(const std::string &text) { return QString::fromStdString(text); }

QJsonValue number(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue();
}

// Seconds as milliseconds in JSON; null without a measurement.
QJsonValue millis(double seconds)
{
    return std::isfinite(seconds) ? QJsonValue(seconds * 1000.0) : QJsonValue();
}

QString shown(double value, int decimals)
{
    return std::isfinite(value) ? formatDecimal(value, decimals, true) : QStringLiteral("–");
}


void rejectOthers(const Args &args, const QString &action, const QStringList &allowed,
                  const std::vector<OptionSpec> &all)
{
    for (const OptionSpec &option : all)
        if (args.has(option.name) && !allowed.contains(option.name) && option.name != QLatin1String("json"))
            throw UsageError(QStringLiteral("track %1: %2 does not apply here (see headroom track --help)")
                                 .arg(action, Args::flag(option.name)));
}

// The replica-hours: the --metrics file, or every import of the workspace.
engine::ServingHours hoursFor(const Args &args, Context &context, const QString &action)
{
    if (const auto path = args.text(QStringLiteral("metrics")); path && !path->isEmpty())
        return store::readMetricsCsv(*path).hours;
    if (context.workspace().servingMetricsImports().empty())
        throw UsageError(QStringLiteral("track %1: give --metrics FILE.csv, or import one first with headroom track "
                                        "import --metrics FILE.csv (the workspace holds no serving metrics)")
                             .arg(action));
    return context.workspace().servingHours();
}

int runPullMetrics(const Args &args, Context &context)
{
    const store::PrometheusSource source = prometheusSource(args);
    const qint64 until = args.has(QStringLiteral("until")) ? hourOption(args, QStringLiteral("until"), QStringLiteral("pull"))
                                                           : QDateTime::currentSecsSinceEpoch() / 3600;
    std::optional<qint64> since;
    if (args.has(QStringLiteral("since")))
        since = hourOption(args, QStringLiteral("since"), QStringLiteral("pull"));
    const PullResult result = pullNewHours(source, context.workspace(), since, until);
    if (result.importId == 0) {
        context.out() << "Nothing to pull: every hour before " << hourIso(until) << " is stored already.\n";
        return 0;
    }
    const store::PrometheusPull &pull = result.pull;
    const qint64 id = result.importId;
    const QString &name = result.name;
    since = result.since;
    const auto replicas = engine::summarizeReplicas(pull.hours);
    if (args.has(QStringLiteral("json"))) {
        context.out() << jsonText(QJsonObject{{QStringLiteral("import_id"), id},
                                              {QStringLiteral("name"), name},
                                              {QStringLiteral("from"), hourIso(*since)},
                                              {QStringLiteral("to"), hourIso(until)},
                                              {QStringLiteral("queries"), pull.queries},
                                              {QStringLiteral("series"), pull.series},
                                              {QStringLiteral("samples"), pull.samples},
                                              {QStringLiteral("replica_hours"), qint64(pull.hours.hours.size())},
                                              {QStringLiteral("replicas"), qint64(replicas.size())},
                                              {QStringLiteral("counter_resets"), qint64(pull.hours.counterResets)}});
        return 0;
    }
    context.out() << "Pulled " << hourIso(*since) << " to " << hourIso(until) << " from " << source.url.toString()
                  << " into " << context.workspace().path() << " as import " << id << ": "
                  << formatInteger(pull.samples) << " samples in " << pull.queries << " queries, "
                  << formatInteger(qint64(pull.hours.hours.size())) << " replica-hours of " << replicas.size()
                  << " replicas.\n";
    return 0;
}

int runImportMetrics(const Args &args, Context &context)
{
    const QString path = *args.text(QStringLiteral("metrics"));
    const store::MetricsFile file = store::readMetricsCsv(path);
    const QString fileName = QFileInfo(path).fileName();
    const qint64 id = context.workspace().importServingMetrics(fileName, file.rows, file.ignoredRows(), file.hours);
    const auto replicas = engine::summarizeReplicas(file.hours);
    if (args.has(QStringLiteral("json"))) {
        QJsonArray ignored;
        for (const auto &[metric, rows] : file.ignored)
            ignored.append(QJsonObject{{QStringLiteral("metric"), metric}, {QStringLiteral("rows"), rows}});
        context.out() << jsonText(QJsonObject{{QStringLiteral("import_id"), id},
                                              {QStringLiteral("file"), fileName},
                                              {QStringLiteral("rows"), file.rows},
                                              {QStringLiteral("samples"), file.samples},
                                              {QStringLiteral("ignored_rows"), file.ignoredRows()},
                                              {QStringLiteral("ignored_metrics"), ignored},
                                              {QStringLiteral("replica_hours"), qint64(file.hours.hours.size())},
                                              {QStringLiteral("replicas"), qint64(replicas.size())},
                                              {QStringLiteral("counter_resets"), qint64(file.hours.counterResets)}});
        return 0;
    }
    context.out() << "Imported " << fileName << " into " << context.workspace().path() << " as import " << id << ": "
                  << formatInteger(file.samples) << " samples, " << formatInteger(qint64(file.hours.hours.size()))
                  << " replica-hours of " << replicas.size() << " replicas";
    if (file.hours.counterResets > 0)
        context.out() << ", " << file.hours.counterResets << " counter restarts";
    context.out() << ".\n";
    for (const auto &[metric, rows] : file.ignored)
        context.out() << "Ignored " << formatInteger(rows) << " rows of " << metric << " (not read).\n";
    return 0;
}

int runRightsizing(const Args &args, Context &context)
{
    const QString action = QStringLiteral("rightsizing");
    engine::ServingHours hours = hoursFor(args, context, action);
    if (const auto days = args.integer(QStringLiteral("days"), 1, 3660))
        hours = engine::lastDays(hours, *days);
    engine::RightsizingOptions options;
    options.plannedHeadroom = context.workspace().servingAssumptions().plannedHeadroom;
    if (const auto load = args.text(QStringLiteral("load"))) {
        if (*load == QLatin1String("tokens"))
            options.load = engine::LoadMeasure::Tokens;
        else if (*load == QLatin1String("requests"))
            options.load = engine::LoadMeasure::Requests;
        else
            throw UsageError(QStringLiteral("--load: expected tokens or requests, got '%1'").arg(*load));
    }
    if (const auto q = args.number(QStringLiteral("busy-quantile")))
        options.busyQuantile = *q;
    if (const auto w = args.number(QStringLiteral("max-waiting")))
        options.maxWaiting = *w;
    if (const auto h = args.number(QStringLiteral("headroom")))
        options.plannedHeadroom = *h;
    if (const auto ms = args.number(QStringLiteral("slo-ms"))) {
        engine::LatencySlo slo;
        slo.seconds = *ms / 1000.0;
        if (const auto kind = args.text(QStringLiteral("slo-metric"))) {
            if (*kind == QLatin1String("ttft"))
                slo.kind = engine::LatencyKind::Ttft;
            else if (*kind == QLatin1String("e2e"))
                slo.kind = engine::LatencyKind::E2e;
            else
                throw UsageError(QStringLiteral("--slo-metric: expected ttft or e2e, got '%1'").arg(*kind));
        }
        if (const auto q = args.number(QStringLiteral("slo-quantile")))
            slo.quantile = *q;
        options.slo = slo;
    } else if (args.has(QStringLiteral("slo-metric")) || args.has(QStringLiteral("slo-quantile"))) {
        throw UsageError(QStringLiteral("--slo-metric and --slo-quantile need --slo-ms, the SLO's latency"));
    }
    QString rateSource;
    options.ratePerGpuHour = trackRate(args, context, action, &rateSource);
    std::vector<engine::RightsizingResult> results;
    try {
        results = engine::rightsize(hours, options);
    } catch (const engine::InputError &error) {
        const QString flag = error.field() == "busy_quantile"   ? QStringLiteral("--busy-quantile")
            : error.field() == "max_waiting"                    ? QStringLiteral("--max-waiting")
            : error.field() == "slo_quantile"                   ? QStringLiteral("--slo-quantile")
            : error.field() == "slo_seconds"                    ? QStringLiteral("--slo-ms")
                                                                : QStringLiteral("--headroom");
        throw UsageError(QStringLiteral("%1: %2").arg(flag, QString::fromUtf8(error.what())));
    }
    const auto replicas = engine::summarizeReplicas(hours);
    const QString unit = options.load == engine::LoadMeasure::Tokens ? QStringLiteral("tokens/s") : QStringLiteral("requests/s");

    if (args.has(QStringLiteral("json"))) {
        QJsonArray deployments;
        for (const auto &r : results)
            deployments.append(QJsonObject{
                {QStringLiteral("deployment"), qs(r.deployment)},
                {QStringLiteral("hours"), qint64(r.hours)},
                {QStringLiteral("current_replicas"), r.currentReplicas},
                {QStringLiteral("gpus_per_replica"), r.gpusPerReplica},
                {QStringLiteral("busy_load"), r.hours ? QJsonValue(r.busyLoad) : QJsonValue()},
                {QStringLiteral("busy_hour"), r.hours ? QJsonValue(hourIso(r.busyHour)) : QJsonValue()},
                {QStringLiteral("busy_waiting_per_replica"), r.busyWaitingPerReplica},
                {QStringLiteral("capacity_per_replica"), r.capacityPerReplica},
                {QStringLiteral("capacity_instance"), r.capacityInstance.empty() ? QJsonValue() : QJsonValue(qs(r.capacityInstance))},
                {QStringLiteral("capacity_hour"), r.capacityInstance.empty() ? QJsonValue() : QJsonValue(hourIso(r.capacityHour))},
                {QStringLiteral("capacity_latency_ms"), millis(r.capacityLatency)},
                {QStringLiteral("busy_latency_ms"), millis(r.busyLatency)},
                {QStringLiteral("slo_hours"), qint64(r.sloHours)},
                {QStringLiteral("recommended_replicas"), r.recommendedReplicas},
                {QStringLiteral("gpus_saved"), r.gpusSaved()},
                {QStringLiteral("saturated"), r.saturated},
                {QStringLiteral("saving_per_month"), r.savingPerMonth ? QJsonValue(qs(r.savingPerMonth->amount.toString(2))) : QJsonValue()},
                {QStringLiteral("explanation"), qs(r.explanation)}});
        QJsonArray replicaList;
        for (const auto &s : replicas)
            replicaList.append(QJsonObject{{QStringLiteral("deployment"), qs(s.deployment)},
                                           {QStringLiteral("instance"), qs(s.instance)},
                                           {QStringLiteral("hours"), qint64(s.hours)},
                                           {QStringLiteral("gpus"), s.gpus},
                                           {QStringLiteral("gpu_util_mean"), number(s.gpuUtilMean)},
                                           {QStringLiteral("gpu_util_peak"), number(s.gpuUtilPeak)},
                                           {QStringLiteral("kv_cache_mean"), number(s.kvCacheMean)},
                                           {QStringLiteral("requests_per_s"), number(s.requestsPerSecond)},
                                           {QStringLiteral("tokens_per_s"), number(s.tokensPerSecond)},
                                           {QStringLiteral("tokens_per_s_peak"), number(s.tokensPerSecondPeak)},
                                           {QStringLiteral("running_mean"), number(s.runningMean)},
                                           {QStringLiteral("waiting_mean"), number(s.waitingMean)},
                                           {QStringLiteral("waiting_peak"), number(s.waitingPeak)},
                                           {QStringLiteral("ttft_p50_ms"), millis(s.ttftP50)},
                                           {QStringLiteral("ttft_p95_ms"), millis(s.ttftP95)},
                                           {QStringLiteral("e2e_p95_ms"), millis(s.e2eP95)}});
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("load"), qs(std::string(engine::toString(options.load)))},
            {QStringLiteral("unit"), unit},
            {QStringLiteral("busy_quantile"), options.busyQuantile},
            {QStringLiteral("max_waiting"), options.maxWaiting},
            {QStringLiteral("planned_headroom"), options.plannedHeadroom},
            {QStringLiteral("slo"), options.slo ? QJsonValue(QJsonObject{
                                                      {QStringLiteral("metric"), options.slo->kind == engine::LatencyKind::Ttft
                                                                                     ? QStringLiteral("ttft") : QStringLiteral("e2e")},
                                                      {QStringLiteral("quantile"), options.slo->quantile},
                                                      {QStringLiteral("ms"), options.slo->seconds * 1000.0}})
                                                : QJsonValue()},
            {QStringLiteral("rate_per_gpu_hour"), options.ratePerGpuHour ? QJsonValue(rateString(*options.ratePerGpuHour)) : QJsonValue()},
            {QStringLiteral("currency"), options.ratePerGpuHour ? QJsonValue(qs(options.ratePerGpuHour->currency)) : QJsonValue()},
            {QStringLiteral("deployments"), deployments},
            {QStringLiteral("replicas"), replicaList}});
        return 0;
    }
    QTextStream &out = context.out();
    Table replicaTable({{QStringLiteral("Deployment")},
                        {QStringLiteral("Replica")},
                        {QStringLiteral("Hours"), Table::Align::Right},
                        {QStringLiteral("GPUs"), Table::Align::Right},
                        {QStringLiteral("GPU util %"), Table::Align::Right},
                        {QStringLiteral("Peak %"), Table::Align::Right},
                        {QStringLiteral("KV cache"), Table::Align::Right},
                        {QStringLiteral("Requests/s"), Table::Align::Right},
                        {QStringLiteral("Tokens/s"), Table::Align::Right},
                        {QStringLiteral("Peak tokens/s"), Table::Align::Right},
                        {QStringLiteral("Waiting"), Table::Align::Right},
                        {QStringLiteral("TTFT P95 ms"), Table::Align::Right},
                        {QStringLiteral("E2E P95 ms"), Table::Align::Right}});
    for (const auto &s : replicas)
        replicaTable.addRow({qs(s.deployment), qs(s.instance), formatInteger(s.hours), QString::number(s.gpus),
                             shown(s.gpuUtilMean, 1), shown(s.gpuUtilPeak, 0), shown(s.kvCacheMean, 2),
                             shown(s.requestsPerSecond, 2), shown(s.tokensPerSecond, 1), shown(s.tokensPerSecondPeak, 1),
                             shown(s.waitingMean, 2), shown(s.ttftP95 * 1000.0, 0), shown(s.e2eP95 * 1000.0, 0)});
    replicaTable.write(out);
    out << '\n';
    Table table({{QStringLiteral("Deployment")},
                 {QStringLiteral("Replicas"), Table::Align::Right},
                 {QStringLiteral("GPUs each"), Table::Align::Right},
                 {QStringLiteral("Busy load"), Table::Align::Right},
                 {QStringLiteral("Per replica"), Table::Align::Right},
                 {QStringLiteral("Needed"), Table::Align::Right},
                 {QStringLiteral("Saving / month"), Table::Align::Right}});
    for (const auto &r : results)
        table.addRow({qs(r.deployment), QString::number(r.currentReplicas), QString::number(r.gpusPerReplica),
                      r.hours ? QStringLiteral("%1 %2").arg(formatDecimal(r.busyLoad, 1, true), unit) : QStringLiteral("–"),
                      r.capacityPerReplica > 0 ? formatDecimal(r.capacityPerReplica, 1, true) : QStringLiteral("–"),
                      QString::number(r.recommendedReplicas) + (r.saturated ? QStringLiteral(" (queueing)") : QString()),
                      r.savingPerMonth ? moneyText(*r.savingPerMonth) : QStringLiteral("–")});
    table.write(out);
    out << '\n';
    for (const auto &r : results)
        out << qs(r.explanation) << '\n';
    if (options.ratePerGpuHour)
        out << "Rate " << rateText(*options.ratePerGpuHour) << " per GPU-hour (" << rateSource << "); a month is 720 h.\n";
    return 0;
}

QJsonObject windowJson(const engine::BenchmarkWindow &w, const std::optional<double> &cost)
{
    return QJsonObject{{QStringLiteral("from"), qs(engine::isoDate(engine::dateFromDays(w.firstDay)))},
                       {QStringLiteral("to"), qs(engine::isoDate(engine::dateFromDays(w.endDay)))},
                       {QStringLiteral("replica_hours"), qint64(w.replicaHours)},
                       {QStringLiteral("gpu_hours"), w.gpuHours},
                       {QStringLiteral("tokens"), w.tokens},
                       {QStringLiteral("goodput_per_gpu"), w.measured() ? QJsonValue(w.goodputPerGpu()) : QJsonValue()},
                       {QStringLiteral("cost_per_1m_tokens"), cost ? QJsonValue(*cost) : QJsonValue()},
                       {QStringLiteral("ttft_p95_ms"), millis(w.ttft.quantile(0.95))}};
}

QString percent(const std::optional<double> &change)
{
    if (!change)
        return QStringLiteral("–");
    return (*change > 0 ? QStringLiteral("+") : QString()) + formatDecimal(*change, 1, true) + QLatin1Char('%');
}

int runBenchmarks(const Args &args, Context &context)
{
    const QString action = QStringLiteral("benchmarks");
    store::Workspace &workspace = context.workspace();
    if (const auto name = args.text(QStringLiteral("add"))) {
        const auto dateText = args.text(QStringLiteral("date"));
        if (!dateText)
            throw UsageError(QStringLiteral("track benchmarks: --add needs --date YYYY-MM-DD"));
        const auto date = engine::parseIsoDate(dateText->toStdString());
        if (!date)
            throw UsageError(QStringLiteral("--date: '%1' is not a date (YYYY-MM-DD)").arg(*dateText));
        workspace.addOptimization({name->trimmed().toStdString(), engine::daysSinceEpoch(*date),
                                   args.text(QStringLiteral("note")).value_or(QString()).toStdString()});
        context.err() << "Added optimization \"" << name->trimmed() << "\" on " << *dateText << ".\n";
    } else if (args.has(QStringLiteral("date")) || args.has(QStringLiteral("note"))) {
        throw UsageError(QStringLiteral("track benchmarks: --date and --note go with --add"));
    }
    if (const auto name = args.text(QStringLiteral("remove"))) {
        if (!workspace.removeOptimization(*name))
            throw UsageError(QStringLiteral("track benchmarks: --remove: no optimization \"%1\"").arg(*name));
        context.err() << "Removed optimization \"" << *name << "\".\n";
    }
    const auto optimizations = workspace.optimizations();
    engine::BenchmarkOptions options;
    if (const auto days = args.integer(QStringLiteral("window-days"), 1, 366))
        options.windowDays = int(*days);
    options.deployment = args.text(QStringLiteral("deployment")).value_or(QString()).toStdString();
    QString rateSource;
    options.ratePerGpuHour = trackRate(args, context, action, &rateSource);
    engine::ServingHours hours;
    if (!optimizations.empty() || args.has(QStringLiteral("metrics")))
        hours = hoursFor(args, context, action);
    if (!options.deployment.empty()) {
        bool known = false;
        for (const auto &h : hours.hours)
            known = known || h.deployment == options.deployment;
        if (!known && !hours.hours.empty())
            throw UsageError(QStringLiteral("--deployment: the metrics hold no deployment '%1'").arg(qs(options.deployment)));
    }
    const auto results = engine::benchmarkHistory(hours, optimizations, options);

    if (args.has(QStringLiteral("json"))) {
        QJsonArray list;
        for (const auto &r : results)
            list.append(QJsonObject{
                {QStringLiteral("name"), qs(r.optimization.name)},
                {QStringLiteral("date"), qs(engine::isoDate(engine::dateFromDays(r.optimization.day)))},
                {QStringLiteral("note"), qs(r.optimization.note)},
                {QStringLiteral("before"), windowJson(r.before, r.costBefore)},
                {QStringLiteral("after"), windowJson(r.after, r.costAfter)},
                {QStringLiteral("goodput_change_percent"), r.goodputChangePercent ? QJsonValue(*r.goodputChangePercent) : QJsonValue()},
                {QStringLiteral("cost_change_percent"), r.costChangePercent ? QJsonValue(*r.costChangePercent) : QJsonValue()}});
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("window_days"), options.windowDays},
            {QStringLiteral("deployment"), options.deployment.empty() ? QJsonValue() : QJsonValue(qs(options.deployment))},
            {QStringLiteral("rate_per_gpu_hour"), options.ratePerGpuHour ? QJsonValue(rateString(*options.ratePerGpuHour)) : QJsonValue()},
            {QStringLiteral("currency"), options.ratePerGpuHour ? QJsonValue(qs(options.ratePerGpuHour->currency)) : QJsonValue()},
            {QStringLiteral("benchmarks"), list}});
        return 0;
    }
    QTextStream &out = context.out();
    if (results.empty()) {
        out << "No optimization in the workspace; add one with --add NAME --date YYYY-MM-DD.\n";
        return 0;
    }
    Table table({{QStringLiteral("Optimization")},
                 {QStringLiteral("Date")},
                 {QStringLiteral("Tokens/s per GPU before"), Table::Align::Right},
                 {QStringLiteral("after"), Table::Align::Right},
                 {QStringLiteral("change"), Table::Align::Right},
                 {QStringLiteral("Cost per 1M tokens before"), Table::Align::Right},
                 {QStringLiteral("after"), Table::Align::Right},
                 {QStringLiteral("change"), Table::Align::Right}});
    const auto cost = [&](const std::optional<double> &value) {
        return value ? rateText(engine::Money{engine::Decimal::fromDouble(std::round(*value * 10000.0) / 10000.0),
                                              options.ratePerGpuHour->currency})
                     : QStringLiteral("–");
    };
    for (const auto &r : results)
        table.addRow({qs(r.optimization.name), qs(engine::isoDate(engine::dateFromDays(r.optimization.day))),
                      r.before.measured() ? formatDecimal(r.before.goodputPerGpu(), 1, true) : QStringLiteral("–"),
                      r.after.measured() ? formatDecimal(r.after.goodputPerGpu(), 1, true) : QStringLiteral("–"),
                      percent(r.goodputChangePercent), cost(r.costBefore), cost(r.costAfter), percent(r.costChangePercent)});
    table.write(out);
    out << "\nWindows of " << options.windowDays << " days before and after each date";
    if (options.ratePerGpuHour)
        out << "; rate " << rateText(*options.ratePerGpuHour) << " per GPU-hour (" << rateSource << ")";
    out << ".\n";
    return 0;
}

// Anomalies in the daily fleet GPU utilization and GPU-hours of the serving telemetry.
int runTelemetryAnomalies(const Args &args, Context &context)
{
    const QString action = QStringLiteral("anomalies");
    const engine::ServingHours hours = hoursFor(args, context, action);
    engine::TelemetryAnomalyOptions options;
    if (const auto period = args.integer(QStringLiteral("period"), 0, 10000))
        options.detector.period = int(*period);
    if (const auto history = args.integer(QStringLiteral("history"), 1, 10'000'000))
        options.detector.history = int(*history);
    options.deployment = args.text(QStringLiteral("deployment")).value_or(QString()).toStdString();
    QString rateSource;
    options.ratePerGpuHour = trackRate(args, context, action, &rateSource);
    engine::TelemetryAnomalyReport report;
    try {
        report = engine::detectTelemetryAnomalies(hours, options);
    } catch (const engine::InputError &error) {
        const QString flag = error.field() == "deployment" ? QStringLiteral("--deployment")
            : error.field() == "period"                    ? QStringLiteral("--period")
            : error.field() == "history"                   ? QStringLiteral("--history")
            : error.field() == "rate"                      ? QStringLiteral("--rate")
                                                           : QStringLiteral("--metrics");
        throw UsageError(QStringLiteral("track anomalies: %1: %2").arg(flag, QString::fromUtf8(error.what())));
    }
    const auto date = [](int64_t day) { return qs(engine::isoDate(engine::dateFromDays(day))); };
    // Sizes as shown: to 0.01 GPU-hour, the figure money is priced from.
    const auto shownSize = [](double size) { return std::round(size * 100.0) / 100.0; };
    if (args.has(QStringLiteral("json"))) {
        QJsonArray daily;
        for (const auto &d : report.days)
            daily.append(QJsonObject{{QStringLiteral("date"), date(d.day)},
                                     {QStringLiteral("gpu_hours"), d.gpuHours},
                                     {QStringLiteral("measured_gpu_hours"), d.measuredGpuHours},
                                     {QStringLiteral("busy_gpu_hours"), d.busyGpuHours},
                                     {QStringLiteral("utilization"), number(d.utilization())}});
        QJsonArray list;
        for (const auto &a : report.anomalies)
            list.append(QJsonObject{
                {QStringLiteral("series"), a.series == engine::TelemetrySeries::Utilization ? QStringLiteral("utilization")
                                                                                            : QStringLiteral("gpu_hours")},
                {QStringLiteral("kind"), QString::fromLatin1(engine::toString(a.kind))},
                {QStringLiteral("date"), date(a.day)},
                {QStringLiteral("end_date"), date(a.endDay)},
                {QStringLiteral("utilization"), a.utilization},
                {QStringLiteral("expected_utilization"), a.expectedUtilization},
                {QStringLiteral("gpu_hours"), a.gpuHours},
                {QStringLiteral("expected_gpu_hours"), a.expectedGpuHours},
                {QStringLiteral("size_gpu_hours"), shownSize(a.sizeGpuHours)},
                {QStringLiteral("size_money"), a.sizeMoney ? QJsonValue(qs(a.sizeMoney->cents())) : QJsonValue()}});
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("first_date"), date(report.days.front().day)},
            {QStringLiteral("last_date"), date(report.days.back().day)},
            {QStringLiteral("days"), qint64(report.days.size())},
            {QStringLiteral("deployment"), options.deployment.empty() ? QJsonValue() : QJsonValue(qs(options.deployment))},
            {QStringLiteral("history"), report.utilizationReport.history},
            {QStringLiteral("utilization_half_width"), report.utilizationReport.halfWidth},
            {QStringLiteral("gpu_hours_half_width"), report.gpuHoursReport.halfWidth},
            {QStringLiteral("rate_per_gpu_hour"), options.ratePerGpuHour ? QJsonValue(rateString(*options.ratePerGpuHour)) : QJsonValue()},
            {QStringLiteral("currency"), options.ratePerGpuHour ? QJsonValue(qs(options.ratePerGpuHour->currency)) : QJsonValue()},
            {QStringLiteral("partial_days_left_out"), report.partialDaysLeftOut},
            {QStringLiteral("unmeasured_days"), report.unmeasuredDays},
            {QStringLiteral("daily"), daily},
            {QStringLiteral("anomalies"), list}});
        return 0;
    }
    QTextStream &out = context.out();
    out << "GPU utilization and GPU-hours per UTC day of "
        << (options.deployment.empty() ? QStringLiteral("the fleet") : QStringLiteral("deployment ") + qs(options.deployment))
        << ", " << report.days.size() << " whole days from " << date(report.days.front().day) << " to "
        << date(report.days.back().day) << "; model fitted on the first " << report.utilizationReport.history
        << " days (P99.5 interval: utilization +/- " << formatDecimal(100.0 * report.utilizationReport.halfWidth, 1, true)
        << " points, GPU-hours +/- " << formatDecimal(report.gpuHoursReport.halfWidth, 1, true) << ").\n";
    if (report.partialDaysLeftOut > 0)
        out << "Partial days at the ends left out: " << report.partialDaysLeftOut << ".\n";
    if (report.unmeasuredDays > 0)
        out << "Days without a utilization sample (interpolated, never flagged): " << report.unmeasuredDays << ".\n";
    if (report.anomalies.empty()) {
        out << "No anomaly.\n";
        return 0;
    }
    std::vector<Table::Column> columns{{QStringLiteral("Series")},
                                       {QStringLiteral("Kind")},
                                       {QStringLiteral("Day")},
                                       {QStringLiteral("Util %"), Table::Align::Right},
                                       {QStringLiteral("Expected %"), Table::Align::Right},
                                       {QStringLiteral("GPU-h"), Table::Align::Right},
                                       {QStringLiteral("Expected GPU-h"), Table::Align::Right},
                                       {QStringLiteral("Size (GPU-h/day)"), Table::Align::Right}};
    if (options.ratePerGpuHour)
        columns.push_back({QStringLiteral("Size (money/day)"), Table::Align::Right});
    Table table(columns);
    for (const auto &a : report.anomalies) {
        QStringList row{a.series == engine::TelemetrySeries::Utilization ? QStringLiteral("utilization") : QStringLiteral("GPU-hours"),
                        QString::fromLatin1(engine::toString(a.kind)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                        a.day == a.endDay ? date(a.day) : QStringLiteral("%1 (confirmed %2)").arg(date(a.day), date(a.endDay)),
                        formatDecimal(100.0 * a.utilization, 1, true),
                        formatDecimal(100.0 * a.expectedUtilization, 1, true),
                        formatDecimal(a.gpuHours, 1, true),
                        formatDecimal(a.expectedGpuHours, 1, true),
                        formatDecimal(shownSize(a.sizeGpuHours), 2, true)};
        if (a.sizeMoney)
            row << moneyText(*a.sizeMoney);
        table.addRow(row);
    }
    table.write(out);
    out << "Size per day: (utilization - expected) x measured GPU-hours for utilization (negative: idle "
           "GPU-hours), GPU-hours - expected for GPU-hours.";
    if (options.ratePerGpuHour)
        out << " Rate " << rateText(*options.ratePerGpuHour) << " per GPU-hour (" << rateSource << ").";
    out << '\n';
    return 0;
}

} // namespace

const std::vector<OptionSpec> &servingTrackOptions()
{
    return kOptions;
}

QString servingTrackUsage()
{
    return QString::fromUtf8(kUsage);
}

bool isServingTrackAction(const QString &action)
{
    return action == QLatin1String("rightsizing") || action == QLatin1String("benchmarks")
        || action == QLatin1String("pull");
}

int runServingTrack(const QString &action, const Args &args, Context &context)
{
    std::vector<OptionSpec> all = kOptions;
    for (const char *shared : {"currency", "focus", "threshold", "trailing-hours", "series", "period", "history",
                               "scenario", "drift-periods"})
        all.push_back({QLatin1String(shared)});
    const QStringList money = {QStringLiteral("rate"), QStringLiteral("currency"), QStringLiteral("gpu"),
                               QStringLiteral("provider")};
    if (action == QLatin1String("import")) {
        rejectOthers(args, action, {QStringLiteral("metrics")}, all);
        return runImportMetrics(args, context);
    }
    if (action == QLatin1String("pull")) {
        rejectOthers(args, action,
                     {QStringLiteral("prometheus"), QStringLiteral("since"), QStringLiteral("until"),
                      QStringLiteral("token-file"), QStringLiteral("insecure-tls"), QStringLiteral("max-series"),
                      QStringLiteral("compression")},
                     all);
        if (!args.has(QStringLiteral("prometheus")))
            throw UsageError(QStringLiteral("track pull: give --prometheus URL"));
        return runPullMetrics(args, context);
    }
    if (action == QLatin1String("anomalies")) {
        rejectOthers(args, action,
                     QStringList{QStringLiteral("metrics"), QStringLiteral("deployment"), QStringLiteral("period"),
                                 QStringLiteral("history")}
                         + money,
                     all);
        return runTelemetryAnomalies(args, context);
    }
    if (action == QLatin1String("rightsizing")) {
        rejectOthers(args, action,
                     QStringList{QStringLiteral("metrics"), QStringLiteral("days"), QStringLiteral("load"),
                                 QStringLiteral("busy-quantile"), QStringLiteral("max-waiting"), QStringLiteral("headroom"),
                                 QStringLiteral("slo-ms"), QStringLiteral("slo-metric"), QStringLiteral("slo-quantile")}
                         + money,
                     all);
        return runRightsizing(args, context);
    }
    rejectOthers(args, action,
                 QStringList{QStringLiteral("metrics"), QStringLiteral("add"), QStringLiteral("date"), QStringLiteral("note"),
                             QStringLiteral("remove"), QStringLiteral("window-days"), QStringLiteral("deployment")}
                     + money,
                 all);
    return runBenchmarks(args, context);
}

store::PrometheusSource prometheusSource(const Args &args)
{
    const auto tokenFile = args.text(QStringLiteral("token-file"));
    // An empty name is a mistake (an unset shell variable), not a request for the environment's token.
    if (tokenFile && tokenFile->isEmpty())
        throw UsageError(QStringLiteral("--token-file needs a file name; leave it out to use HEADROOM_PROMETHEUS_TOKEN"));
    store::PrometheusSource source = store::prometheusSource(*args.text(QStringLiteral("prometheus")),
                                                             tokenFile.value_or(QString()),
                                                             !args.has(QStringLiteral("insecure-tls")));
    if (const auto series = args.integer(QStringLiteral("max-series"), 1, 10000000))
        source.maxSeriesPerQuery = int(*series);
    if (const auto compression = args.text(QStringLiteral("compression"))) {
        if (*compression == QLatin1String("auto"))
            source.compression = store::PrometheusSource::Compression::Auto;
        else if (*compression == QLatin1String("on"))
            source.compression = store::PrometheusSource::Compression::On;
        else if (*compression == QLatin1String("off"))
            source.compression = store::PrometheusSource::Compression::Off;
        else
            throw UsageError(QStringLiteral("--compression: expected auto, on or off, got '%1'").arg(printable(*compression)));
    }
    return source;
}

PullResult pullNewHours(const store::PrometheusSource &source, store::Workspace &workspace, std::optional<qint64> since,
                        qint64 until)
{
    PullResult result;
    result.until = until;
    result.since = since ? *since : store::nextPullStart(workspace, source, until);
    if (result.since >= until)
        return result;
    result.pull = store::pullServingMetrics(source, result.since, until);
    result.importId = store::storePull(workspace, source, result.pull, result.since, until, &result.name);
    return result;
}

qint64 hourOption(const Args &args, const QString &name, const QString &action)
{
    const QString text = *args.text(name);
    const std::optional<qint64> seconds = parseUtcTime(text);
    if (!seconds)
        throw UsageError(QStringLiteral("track %1: %2 '%3' is not an ISO 8601 date or time such as 2026-03-02 or "
                                        "2026-03-02T14:00Z")
                             .arg(action, Args::flag(name), printable(text)));
    return *seconds >= 0 ? *seconds / 3600 : (*seconds - 3599) / 3600;
}

QString hourIso(qint64 hour)
{
    const qint64 day = hour >= 0 ? hour / 24 : (hour - 23) / 24;
    return QStringLiteral("%1T%2:00:00Z")
        .arg(QString::fromStdString(engine::isoDate(engine::dateFromDays(day))))
        .arg(int(hour - day * 24), 2, 10, QLatin1Char('0'));
}

std::optional<engine::Money> trackRate(const Args &args, Context &context, const QString &action, QString *source)
{
    const std::string currency = currencyOption(args);
    if (args.has(QStringLiteral("rate")) && args.has(QStringLiteral("gpu")))
        throw UsageError(QStringLiteral("track %1: give --rate or --gpu, not both").arg(action));
    if (args.has(QStringLiteral("provider")) && !args.has(QStringLiteral("gpu")))
        throw UsageError(QStringLiteral("track %1: --provider needs --gpu").arg(action));
    if (const auto rate = rateOption(args, QStringLiteral("rate"), currency, 1)) {
        *source = QStringLiteral("--rate");
        return rate;
    }
    const auto gpu = args.text(QStringLiteral("gpu"));
    if (!gpu)
        return std::nullopt;
    const std::string provider = args.text(QStringLiteral("provider")).value_or(QString()).toStdString();
    const auto rates = engine::onDemandRates(context.workspace().rateCards(),
                                             QDate::currentDate().toString(Qt::ISODate).toStdString(), currency, provider);
    for (const engine::GpuRate &rate : rates)
        if (rate.gpuId == gpu->toStdString()) {
            *source = QString::fromStdString(rate.source);
            return rate.perGpuHour;
        }
    throw UsageError(QStringLiteral("track %1: --gpu %2: no on-demand rate in %3%4 for it in the workspace's rate cards")
                         .arg(action, *gpu, QString::fromStdString(currency),
                              provider.empty() ? QString() : QStringLiteral(" from %1").arg(QString::fromStdString(provider))));
}


} // namespace headroom::cli
