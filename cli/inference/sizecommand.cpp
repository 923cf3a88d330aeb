#include "sizecommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/catalog/lookup.h"

#include "engine/inference/inference_sizing.h"
#include "engine/inference/sizing_options.h"
#include "cli/common/moneyoptions.h"
#include "store/inference/workloadjson.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QJsonArray>
#include <QJsonObject>
#include <optional>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom size (--workload NAME | --workload-file FILE.json) [options]
       headroom size --options (--workload NAME | --workload-file FILE.json) [options]

Inference fleet sizing (DESIGN §3.2): from a workload profile to replicas and GPUs. Peak
streams and their KV cache set the replicas for memory; prefill and decode throughput at
the latency SLOs (measured goodput when the profile has it, else a roofline estimate) set
the replicas for compute. The larger wins, with a buffer for P95 traffic and planned
headroom; the table shows which binds, by how much, and every step.

KV residency decides which streams hold KV cache:
  request (default)  only requests in flight: L = peak request rate × W (Little's law),
                     W = queueing allowance + P50 prefill + P50 output × decode step,
                     memory sized for the P99 of Poisson(L); W, batch and replicas are
                     solved together by fixed-point iteration
  session            every open session keeps its conversation resident between turns
                     (DAU × peak sessions per user): more memory, no re-prefill
Both figures are reported whichever is chosen.

WORKLOAD, one of:
  --workload NAME         a workload profile stored in the workspace
  --workload-file FILE    a workload profile as JSON (the format of core/store/README.md)
The model and GPU are taken from the workspace catalog by the ids the profile names.
What-if options (override the profile):
  --gpu ID                a GPU from the workspace catalog
  --weights P             bf16|fp16|fp8|int8|int4
  --kv-dtype P            bf16|fp8
  --hit-rate F            prefix cache hit rate, [0, 1]
  --tp N                  tensor-parallel degree (GPUs per replica)
  --disaggregate          size separate prefill and decode pools
  --kv-residency M        request|session (default: the workspace's serving assumptions,
                          `headroom serving`; request in a new workspace)
Options:
  --options               every catalog GPU × weights × KV precision with its best TP
                          (1, 2, 4, 8 within a node), GPUs, binding side and cost per
                          30-day month at the cheapest on-demand rate card in force
                          today, sorted by cost; GPUs without a card are unpriced
  --provider NAME         with --options: only this provider's rate cards
  --json                  print JSON instead of a table

SLOs that no batch meets, not even one stream, are an answer, not an error: the command
exits 0, `feasible` is false, `binding` names the latency that fails ("ttft" or "itl")
and the reason states the best latency one replica achieves.
)";

constexpr qint64 kMaxTp = 1024;

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> specs;
    for (const char *name : {"workload", "workload-file", "gpu", "weights", "kv-dtype", "hit-rate", "tp",
                             "kv-residency", "provider"})
        specs.push_back({QLatin1String(name)});
    specs.push_back({QStringLiteral("disaggregate"), false});
    specs.push_back({QStringLiteral("options"), false});
    specs.push_back({QStringLiteral("json"), false});
    return specs;
}

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// The what-if flags, checked before any file or workspace is read.
engine::SizingOverrides parseOverrides(const Args &args)
{
    engine::SizingOverrides o;
    if (const auto id = args.text(QStringLiteral("gpu")))
        o.gpuId = id->toStdString();
    if (const auto text = args.text(QStringLiteral("weights"))) {
        o.weights = engine::parseWeightPrecision(text->toStdString());
        if (!o.weights) {
            throw UsageError(QStringLiteral("--weights: unknown precision '%1'; expected "
                                            "bf16, fp16, fp8, int8 or int4").arg(*text));
        }
    }
    if (const auto text = args.text(QStringLiteral("kv-dtype"))) {
        o.kv = engine::parseKvPrecision(text->toStdString());
        if (!o.kv)
            throw UsageError(QStringLiteral("--kv-dtype: unknown precision '%1'; expected bf16 or fp8").arg(*text));
    }
    if (const auto rate = args.number(QStringLiteral("hit-rate"))) {
        if (*rate < 0 || *rate > 1) {
            throw UsageError(QStringLiteral("--hit-rate: must be between 0 and 1, got %1")
                                 .arg(QString::number(*rate, 'g', 6)));
        }
        o.prefixHitRate = *rate;
    }
    if (const auto tp = args.integer(QStringLiteral("tp"), 1, kMaxTp))
        o.tp = int(*tp);
    o.disaggregate = args.has(QStringLiteral("disaggregate"));
    return o;
}

// The workspace's serving assumptions with the --kv-residency choice on top.
engine::ServingAssumptions parseServing(const Args &args, engine::ServingAssumptions serving)
{
    if (const auto text = args.text(QStringLiteral("kv-residency"))) {
        const auto residency = engine::parseKvResidency(text->toStdString());
        if (!residency) {
            throw UsageError(QStringLiteral("--kv-residency: unknown model '%1'; expected request or session")
                                 .arg(*text));
        }
        serving.residency = *residency;
    }
    return serving;
}

// A stored workload by name; an unknown name lists the closest stored ones.
engine::WorkloadProfile storedWorkload(const store::Workspace &workspace, const QString &name)
{
    if (auto workload = workspace.workload(name))
        return *workload;
    QStringList names;
    for (const engine::WorkloadProfile &w : workspace.workloads())
        names << QString::fromStdString(w.name);
    if (names.isEmpty()) {
        throw UsageError(QStringLiteral("unknown workload '%1'; the workspace has no workloads "
                                        "(give --workload-file FILE.json)").arg(name));
    }
    throw UsageError(QStringLiteral("unknown workload '%1'; closest: %2")
                         .arg(name, closestMatches(name, names).join(QLatin1String(", "))));
}

// What the sizing ran on, for the report.
struct SizeSubject {
    engine::WorkloadProfile workload;
    engine::ModelSpec model;
    engine::GpuSpec gpu;
    engine::SizingOverrides overrides;
    engine::ServingAssumptions serving;
};

SizeSubject buildSubject(const Args &args, Context &context)
{
    if (!args.positionals().isEmpty()) {
        throw UsageError(QStringLiteral("size takes no positional arguments, got '%1'")
                             .arg(args.positionals().constFirst()));
    }
    const auto name = args.text(QStringLiteral("workload"));
    const auto file = args.text(QStringLiteral("workload-file"));
    if (name && file)
        throw UsageError(QStringLiteral("give either --workload or --workload-file, not both"));
    if (!name && !file)
        throw UsageError(QStringLiteral("size needs --workload NAME or --workload-file FILE.json"));

    SizeSubject s;
    s.overrides = parseOverrides(args);
    s.serving = parseServing(args, context.workspace().servingAssumptions());
    s.workload = file ? store::readWorkloadFile(*file) : storedWorkload(context.workspace(), *name);

    const store::Workspace &workspace = context.workspace();
    if (s.workload.modelId.empty())
        throw UsageError(QStringLiteral("workload '%1' names no model").arg(QString::fromStdString(s.workload.name)));
    s.model = findModel(workspace, QString::fromStdString(s.workload.modelId));
    const std::string gpuId = s.overrides.gpuId.value_or(s.workload.gpuId);
    if (gpuId.empty()) {
        throw UsageError(QStringLiteral("workload '%1' names no GPU; give --gpu ID")
                             .arg(QString::fromStdString(s.workload.name)));
    }
    s.gpu = findGpu(workspace, QString::fromStdString(gpuId));
    // Catalog look-ups accept any case; the engine gets the catalog's own id.
    s.overrides.gpuId = s.gpu.id;
    return s;
}

engine::WeightPrecision weightsUsed(const SizeSubject &s)
{
    return s.overrides.weights.value_or(s.workload.weights);
}

engine::KvPrecision kvUsed(const SizeSubject &s)
{
    return s.overrides.kv.value_or(s.workload.kv);
}

double hitRateUsed(const SizeSubject &s)
{
    return s.overrides.prefixHitRate.value_or(s.workload.prefixHitRate);
}

int tpUsed(const SizeSubject &s)
{
    return s.overrides.tp.value_or(s.workload.tp);
}

QString percentText(double share)
{
    return formatDecimal(share * 100, 1) + QStringLiteral(" %");
}

QString replicasText(int64_t count)
{
    return countOf(count, QStringLiteral("replica"), QStringLiteral("replicas"));
}

// How far the binding side is ahead of the other: "memory leads by 4 replicas (+50.0 %)".
QString leadText(const QString &side, int64_t binding, int64_t other)
{
    const int64_t ahead = binding - other;
    if (ahead <= 0)
        return QStringLiteral("both sides need the same");
    QString text = QStringLiteral("%1 leads by %2").arg(side, replicasText(ahead));
    if (other > 0)
        text += QStringLiteral(" (+%1)").arg(percentText(double(ahead) / double(other)));
    return text;
}

QString sloText(const SizeSubject &s, const std::string &binding)
{
    return binding == "ttft"
        ? QStringLiteral("time-to-first-token SLO (P95 %1 ms)").arg(formatDecimal(s.workload.ttftP95Ms, 1))
        : QStringLiteral("inter-token latency SLO (P95 %1 ms)").arg(formatDecimal(s.workload.itlP95Ms, 1));
}

// Which constraint binds and by how much, in one line.
QString bindingText(const SizeSubject &s, const engine::SizingResult &r)
{
    if (!r.feasible && r.binding == "ttft")
        return QStringLiteral("ttft: no replica prefills the P95 prompt within the %1").arg(sloText(s, r.binding));
    if (!r.feasible)
        return QStringLiteral("%1: no batch meets the %2, not even one stream").arg(qs(r.binding), sloText(s, r.binding));
    if (r.binding == "memory") {
        return QStringLiteral("memory: %1 to hold the peak's KV cache, %2 for compute; %3")
            .arg(replicasText(r.replicasMemory), formatInteger(r.replicasCompute),
                 leadText(QStringLiteral("memory"), r.replicasMemory, r.replicasCompute));
    }
    if (r.binding == "compute") {
        return QStringLiteral("compute: %1 for prefill and decode throughput, %2 for memory; %3")
            .arg(replicasText(r.replicasCompute), formatInteger(r.replicasMemory),
                 leadText(QStringLiteral("compute"), r.replicasCompute, r.replicasMemory));
    }
    return QStringLiteral("%1: the %2; %3 for memory, %4 for compute")
        .arg(qs(r.binding), sloText(s, r.binding), replicasText(r.replicasMemory),
             formatInteger(r.replicasCompute));
}

QString gpusText(const engine::SizingResult &r)
{
    QString text = QStringLiteral("%1 (%2 per replica)")
                       .arg(formatInteger(r.gpus), countOf(r.gpusPerReplica, QStringLiteral("GPU"),
                                                           QStringLiteral("GPUs")));
    if (r.prefillGpus && r.decodeGpus) {
        text += QStringLiteral(": prefill pool %1, decode pool %2")
                    .arg(formatInteger(*r.prefillGpus), formatInteger(*r.decodeGpus));
    }
    return text;
}

QString subjectLine(const SizeSubject &s)
{
    QString line = QStringLiteral("%1").arg(QString::fromStdString(s.workload.name));
    if (!s.workload.tenant.empty())
        line += QStringLiteral(" (tenant %1)").arg(QString::fromStdString(s.workload.tenant));
    return line + QStringLiteral(": %1 on %2").arg(QString::fromStdString(s.model.id), QString::fromStdString(s.gpu.id));
}

QString servingLine(const SizeSubject &s)
{
    return QStringLiteral("weights %1, KV %2, TP %3, prefix hit rate %4, %5")
        .arg(qs(engine::toString(weightsUsed(s))), qs(engine::toString(kvUsed(s))))
        .arg(tpUsed(s))
        .arg(percentText(hitRateUsed(s)),
             s.overrides.disaggregate ? QStringLiteral("disaggregated prefill and decode")
                                      : QStringLiteral("prefill and decode on the same replicas"));
}

void writeTable(QTextStream &out, const SizeSubject &s, const engine::SizingResult &r)
{
    std::vector<std::pair<QString, QString>> fields = {
        {QStringLiteral("workload"), subjectLine(s)},
        {QStringLiteral("serving"), servingLine(s)},
    };
    writeFields(out, fields);
    out << '\n';

    QString streams = QStringLiteral("%1 (%2); %3 fit one replica's KV pool")
                          .arg(formatInteger(r.peakStreams),
                               r.residency == engine::KvResidency::Session
                                   ? QStringLiteral("sessions held resident")
                                   : QStringLiteral("in-flight P%1").arg(formatDecimal(r.inFlightQuantile * 100, 1)),
                               formatInteger(r.streamsPerReplica));
    if (r.decodeBatch > 0)
        streams += QStringLiteral("; decode batch %1").arg(formatInteger(r.decodeBatch));
    const QString latency = QStringLiteral("prefill of the P95 prompt %1 ms, decode step %2 ms")
                                .arg(formatDecimal(r.prefillTimeMs, 2), formatDecimal(r.decodeStepMs, 2));
    const QString prefill = QStringLiteral("%1 tokens/s at peak after the cache hit rate")
                                .arg(formatDecimal(r.prefillTokensPerS, 1));
    const QString residency =
        QStringLiteral("%1; %2 requests/s × %3 ms in system = %4 in flight (P%5 %6); %7 sessions "
                       "would need %8 for memory, requests in flight %9")
            .arg(r.residency == engine::KvResidency::Session
                     ? QStringLiteral("session (every open session keeps its KV)")
                     : QStringLiteral("request (KV held while a request is in flight)"),
                 formatDecimal(r.peakRequestsPerS, 2), formatDecimal(r.timeInSystemMs, 1),
                 formatDecimal(r.inFlightMean, 1), formatDecimal(r.inFlightQuantile * 100, 1),
                 formatInteger(r.inFlightQuantileCount), formatInteger(r.sessionsResident),
                 replicasText(r.replicasMemorySession), formatInteger(r.replicasMemoryRequest));
    if (!r.feasible) {
        fields = {
            {QStringLiteral("replicas"), QStringLiteral("none meet the SLOs (memory alone needs %1)")
                                             .arg(formatInteger(r.replicasMemory))},
            {QStringLiteral("binding"), bindingText(s, r)},
            {QStringLiteral("infeasible"), QString::fromStdString(r.infeasibleReason)},
            {QStringLiteral("peak streams"), streams},
            {QStringLiteral("KV residency"), residency},
            {QStringLiteral("prefill demand"), prefill},
            {QStringLiteral("latency"), latency},
        };
    } else {
        fields = {
            {QStringLiteral("replicas"), QStringLiteral("%1 (memory %2, compute %3)")
                                             .arg(formatInteger(r.replicas), formatInteger(r.replicasMemory),
                                                  formatInteger(r.replicasCompute))},
            {QStringLiteral("GPUs"), gpusText(r)},
            {QStringLiteral("binding"), bindingText(s, r)},
            {QStringLiteral("peak streams"), streams},
            {QStringLiteral("KV residency"), residency},
            {QStringLiteral("goodput"), QStringLiteral("%1 tokens/s per replica (%2)")
                                            .arg(formatDecimal(r.goodputTokensPerS, 1), qs(r.goodputSource))},
            {QStringLiteral("prefill demand"), prefill},
            {QStringLiteral("latency"), latency},
            {QStringLiteral("utilization"), QStringLiteral("peak %1, average %2 (the rest is planned headroom)")
                                                .arg(percentText(r.peakUtilization),
                                                     percentText(r.averageUtilization))},
        };
    }
    if (!r.residencyWarning.empty())
        fields.push_back({QStringLiteral("warning"), QString::fromStdString(r.residencyWarning)});
    writeFields(out, fields);

    if (r.steps.empty())
        return;
    out << '\n';
    Table table({{QStringLiteral("step")}, {QStringLiteral("formula")}, {QStringLiteral("value")}});
    for (const engine::SizingStep &step : r.steps) {
        table.addRow({QString::fromStdString(step.title), QString::fromStdString(step.formula),
                      QString::fromStdString(step.value)});
    }
    table.write(out);
}

QJsonObject toJson(const SizeSubject &s, const engine::SizingResult &r)
{
    QJsonArray steps;
    for (const engine::SizingStep &step : r.steps) {
        steps.append(QJsonObject{{QStringLiteral("title"), QString::fromStdString(step.title)},
                                 {QStringLiteral("formula"), QString::fromStdString(step.formula)},
                                 {QStringLiteral("value"), QString::fromStdString(step.value)}});
    }
    QJsonObject o{
        {QStringLiteral("workload"), QString::fromStdString(s.workload.name)},
        {QStringLiteral("model"), QString::fromStdString(s.model.id)},
        {QStringLiteral("gpu"), QString::fromStdString(s.gpu.id)},
        {QStringLiteral("weights"), qs(engine::toString(weightsUsed(s)))},
        {QStringLiteral("kv_dtype"), qs(engine::toString(kvUsed(s)))},
        {QStringLiteral("tp"), tpUsed(s)},
        {QStringLiteral("prefix_hit_rate"), hitRateUsed(s)},
        {QStringLiteral("disaggregated"), s.overrides.disaggregate},
        {QStringLiteral("kv_residency"), qs(engine::toString(r.residency))},
        {QStringLiteral("peak_streams"), qint64(r.peakStreams)},
        {QStringLiteral("sessions_resident"), qint64(r.sessionsResident)},
        {QStringLiteral("peak_request_rate_per_s"), r.peakRequestsPerS},
        {QStringLiteral("time_in_system_ms"), r.timeInSystemMs},
        {QStringLiteral("in_flight_mean"), r.inFlightMean},
        {QStringLiteral("in_flight_p99"), qint64(r.inFlightQuantileCount)},
        {QStringLiteral("in_flight_quantile"), r.inFlightQuantile},
        {QStringLiteral("replicas_memory_session"), qint64(r.replicasMemorySession)},
        {QStringLiteral("replicas_memory_request"), qint64(r.replicasMemoryRequest)},
        {QStringLiteral("residency_warning"), r.residencyWarning.empty()
                                                  ? QJsonValue(QJsonValue::Null)
                                                  : QJsonValue(QString::fromStdString(r.residencyWarning))},
        {QStringLiteral("prefill_tokens_per_s"), r.prefillTokensPerS},
        {QStringLiteral("streams_per_replica"), qint64(r.streamsPerReplica)},
        {QStringLiteral("decode_batch"), qint64(r.decodeBatch)},
        {QStringLiteral("prefill_time_ms"), r.prefillTimeMs},
        {QStringLiteral("decode_step_ms"), r.decodeStepMs},
        {QStringLiteral("replicas_memory"), qint64(r.replicasMemory)},
        {QStringLiteral("replicas_compute"), qint64(r.replicasCompute)},
        {QStringLiteral("replicas"), qint64(r.replicas)},
        {QStringLiteral("gpus_per_replica"), r.gpusPerReplica},
        {QStringLiteral("gpus"), qint64(r.gpus)},
        {QStringLiteral("binding"), QString::fromStdString(r.binding)},
        {QStringLiteral("binding_explanation"), bindingText(s, r)},
        {QStringLiteral("goodput_tokens_per_s"), r.goodputTokensPerS},
        {QStringLiteral("goodput_source"), QString::fromStdString(r.goodputSource)},
        {QStringLiteral("peak_utilization"), r.peakUtilization},
        {QStringLiteral("average_utilization"), r.averageUtilization},
        {QStringLiteral("feasible"), r.feasible},
        {QStringLiteral("infeasible_reason"), r.feasible ? QJsonValue(QJsonValue::Null)
                                                         : QJsonValue(QString::fromStdString(r.infeasibleReason))},
        {QStringLiteral("steps"), steps},
    };
    if (r.prefillGpus)
        o.insert(QStringLiteral("prefill_gpus"), qint64(*r.prefillGpus));
    if (r.decodeGpus)
        o.insert(QStringLiteral("decode_gpus"), qint64(*r.decodeGpus));
    return o;
}

// The best-option table: every GPU × precisions with its best TP, sorted by cost.
int runOptions(const Args &args, Context &context, const SizeSubject &subject)
{
    for (const char *what : {"gpu", "weights", "kv-dtype", "tp", "disaggregate"}) {
        if (args.has(QLatin1String(what)))
            throw UsageError(QStringLiteral("--options searches every GPU, precision and TP; drop --%1").arg(QLatin1String(what)));
    }
    const std::string provider = args.text(QStringLiteral("provider")).value_or(QString()).toStdString();
    const std::vector<engine::GpuRate> rates =
        engine::onDemandRates(context.workspace().rateCards(),
                              QDate::currentDate().toString(Qt::ISODate).toStdString(), "USD", provider);
    engine::WorkloadProfile workload = subject.workload;
    if (subject.overrides.prefixHitRate)
        workload.prefixHitRate = *subject.overrides.prefixHitRate;
    const std::vector<engine::SizingOption> options = engine::sizingOptions(
        workload, subject.model, context.workspace().gpus(), rates, subject.serving);

    if (args.has(QStringLiteral("json"))) {
        QJsonArray rows;
        for (const engine::SizingOption &o : options) {
            rows.append(QJsonObject{
                {QStringLiteral("gpu"), QString::fromStdString(o.gpuId)},
                {QStringLiteral("weights"), qs(engine::toString(o.weights))},
                {QStringLiteral("kv_dtype"), qs(engine::toString(o.kv))},
                {QStringLiteral("tp"), o.tp > 0 ? QJsonValue(o.tp) : QJsonValue(QJsonValue::Null)},
                {QStringLiteral("feasible"), o.result.feasible},
                {QStringLiteral("replicas"), qint64(o.result.replicas)},
                {QStringLiteral("gpus"), qint64(o.result.gpus)},
                {QStringLiteral("binding"), QString::fromStdString(o.result.binding)},
                {QStringLiteral("infeasible_reason"), o.result.feasible
                                                          ? QJsonValue(QJsonValue::Null)
                                                          : QJsonValue(QString::fromStdString(o.result.infeasibleReason))},
                {QStringLiteral("rate_per_gpu_hour"), o.rate ? QJsonValue(rateString(o.rate->perGpuHour))
                                                             : QJsonValue(QJsonValue::Null)},
                {QStringLiteral("rate_source"), o.rate ? QJsonValue(QString::fromStdString(o.rate->source))
                                                       : QJsonValue(QStringLiteral("unpriced"))},
                {QStringLiteral("cost_per_month"), o.costPerMonth
                                                       ? QJsonValue(QString::fromStdString(o.costPerMonth->cents()))
                                                       : QJsonValue(QJsonValue::Null)},
            });
        }
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("workload"), QString::fromStdString(subject.workload.name)},
            {QStringLiteral("model"), QString::fromStdString(subject.model.id)},
            {QStringLiteral("kv_residency"), qs(engine::toString(subject.serving.residency))},
            {QStringLiteral("currency"), QStringLiteral("USD")},
            {QStringLiteral("hours_per_month"), qint64(engine::kHoursPerMonth)},
            {QStringLiteral("options"), rows},
        });
        return 0;
    }
    QTextStream &out = context.out();
    out << QStringLiteral("%1: %2, KV residency %3; cost per 30-day month (720 h) at on-demand rates, %4\n\n")
               .arg(QString::fromStdString(subject.workload.name), QString::fromStdString(subject.model.id),
                    qs(engine::toString(subject.serving.residency)),
                    provider.empty() ? QStringLiteral("each GPU at its cheapest card (the rate column names it)")
                                     : QStringLiteral("all at %1's cards").arg(qs(provider)));
    Table table({{QStringLiteral("GPU")}, {QStringLiteral("weights")}, {QStringLiteral("KV")},
                 {QStringLiteral("TP"), Table::Align::Right}, {QStringLiteral("GPUs"), Table::Align::Right}, {QStringLiteral("binding")},
                 {QStringLiteral("per 30-day month"), Table::Align::Right}, {QStringLiteral("rate")}});
    for (const engine::SizingOption &o : options) {
        table.addRow({QString::fromStdString(o.gpuId), qs(engine::toString(o.weights)), qs(engine::toString(o.kv)),
                      o.tp > 0 ? QString::number(o.tp) : QStringLiteral("-"),
                      o.result.feasible ? formatInteger(o.result.gpus) : QStringLiteral("does not fit"),
                      o.result.feasible ? QString::fromStdString(o.result.binding)
                                        : QStringLiteral("%1 (infeasible)").arg(QString::fromStdString(o.result.binding)),
                      o.costPerMonth ? moneyText(*o.costPerMonth) : QStringLiteral("unpriced"),
                      o.rate ? QStringLiteral("%1/GPU-h, %2").arg(rateText(o.rate->perGpuHour),
                                                                 QString::fromStdString(o.rate->source))
                             : QStringLiteral("no rate card")});
    }
    table.write(out);
    return 0;
}

int runSize(const QStringList &argv, Context &context)
{
    const Args args(argv, options());
    const SizeSubject subject = buildSubject(args, context);
    if (args.has(QStringLiteral("options")))
        return runOptions(args, context, subject);
    if (args.has(QStringLiteral("provider")))
        throw UsageError(QStringLiteral("--provider applies to --options only"));
    const engine::SizingResult result =
        engine::sizeInference(subject.workload, subject.model, subject.gpu, subject.overrides, subject.serving);
    if (args.has(QStringLiteral("json")))
        context.out() << jsonText(toJson(subject, result));
    else
        writeTable(context.out(), subject, result);
    return 0;
}

} // namespace

Command sizeCommand()
{
    return {QStringLiteral("size"),
            QStringLiteral("replicas and GPUs for a workload, the binding constraint and why"),
            QString::fromUtf8(kUsage), &runSize};
}

} // namespace headroom::cli
