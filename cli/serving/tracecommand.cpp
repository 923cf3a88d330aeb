#include "tracecommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"

#include "engine/serving/trace.h"
#include "store/inference/workloadjson.h"

#include <QFileInfo>
#include <QJsonObject>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom import-trace FILE --format azure|mooncake [--json]

Reads a request trace and reports what a workload profile needs from it: the arrival rate
(mean per second over the trace, peak requests in one clock minute), prompt and output
token percentiles (P50, P95) and, for traces with prefix-block hashes, the prefix hit rate
an infinite cache would see: the share of 512-token prefix blocks that are a leading block
already seen earlier in the trace. Nothing is written to the workspace.

formats:
  azure                   Azure LLM inference trace CSV: TIMESTAMP,ContextTokens,GeneratedTokens
  mooncake                Mooncake JSONL: {"timestamp" (ms), "input_length", "output_length",
                          "hash_ids"} per line
options:
  --format F              the trace format (required)
  --json                  print JSON instead of a table

A malformed line rejects the whole trace and the message names its line number; an empty
trace is an error too.
)";

enum class TraceFormat { Azure, Mooncake };

TraceFormat parseFormat(const Args &args)
{
    const auto text = args.text(QStringLiteral("format"));
    if (!text)
        throw UsageError(QStringLiteral("--format is required: azure or mooncake"));
    if (*text == QLatin1String("azure"))
        return TraceFormat::Azure;
    if (*text == QLatin1String("mooncake"))
        return TraceFormat::Mooncake;
    throw UsageError(QStringLiteral("--format: unknown trace format '%1'; known: azure, mooncake").arg(*text));
}

QString formatName(TraceFormat format)
{
    return format == TraceFormat::Azure ? QStringLiteral("azure") : QStringLiteral("mooncake");
}

QJsonObject percentilesJson(const engine::TokenPercentiles &p)
{
    return QJsonObject{{QStringLiteral("p50"), p.p50}, {QStringLiteral("p95"), p.p95}};
}

QJsonObject toJson(const QString &path, TraceFormat format, const engine::TraceStats &t)
{
    return QJsonObject{
        {QStringLiteral("file"), QFileInfo(path).fileName()},
        {QStringLiteral("format"), formatName(format)},
        {QStringLiteral("requests"), qint64(t.requests)},
        {QStringLiteral("duration_s"), t.durationS},
        {QStringLiteral("rate_mean_per_s"), t.rateMeanPerS},
        {QStringLiteral("rate_peak_per_min"), qint64(t.ratePeakPerMin)},
        {QStringLiteral("prompt_tokens"), percentilesJson(t.promptTokens)},
        {QStringLiteral("output_tokens"), percentilesJson(t.outputTokens)},
        {QStringLiteral("prefix_hit_rate"), t.prefixHitRate ? QJsonValue(*t.prefixHitRate)
                                                            : QJsonValue(QJsonValue::Null)},
    };
}

// "3,600.5 s (60.0 min)"; minutes only past one minute, hours past one hour.
QString durationText(double seconds)
{
    QString text = formatDecimal(seconds, 1) + QStringLiteral(" s");
    if (seconds >= 3600)
        text += QStringLiteral(" (%1 h)").arg(formatDecimal(seconds / 3600, 2, true));
    else if (seconds >= 60)
        text += QStringLiteral(" (%1 min)").arg(formatDecimal(seconds / 60, 1, true));
    return text;
}

QString percentilesText(const engine::TokenPercentiles &p)
{
    return QStringLiteral("P50 %1, P95 %2").arg(formatDecimal(p.p50, 1), formatDecimal(p.p95, 1));
}

void writeTable(QTextStream &out, const QString &path, TraceFormat format, const engine::TraceStats &t)
{
    const QString hitRate = t.prefixHitRate
        ? QStringLiteral("%1 % of prefix blocks were seen earlier in the trace (infinite cache)")
              .arg(formatDecimal(*t.prefixHitRate * 100, 1, true))
        : QStringLiteral("unknown: this format has no prefix-block hashes");
    writeFields(out, {
        {QStringLiteral("trace"), QStringLiteral("%1 (%2)").arg(QFileInfo(path).fileName(), formatName(format))},
        {QStringLiteral("requests"), formatInteger(t.requests)},
        {QStringLiteral("duration"), durationText(t.durationS)},
        {QStringLiteral("arrival rate"), QStringLiteral("mean %1 per s, peak %2 in one minute")
                                             .arg(formatDecimal(t.rateMeanPerS, 3), formatInteger(t.ratePeakPerMin))},
        {QStringLiteral("prompt tokens"), percentilesText(t.promptTokens)},
        {QStringLiteral("output tokens"), percentilesText(t.outputTokens)},
        {QStringLiteral("prefix hit rate"), hitRate},
    });
}

int runImportTrace(const QStringList &argv, Context &context)
{
    const Args args(argv, {{QStringLiteral("format")}, {QStringLiteral("json"), false}});
    const QStringList &files = args.positionals();
    if (files.isEmpty())
        throw UsageError(QStringLiteral("import-trace needs a trace FILE"));
    if (files.size() > 1)
        throw UsageError(QStringLiteral("import-trace reads one file, got %1").arg(files.size()));
    const QString &path = files.constFirst();
    const TraceFormat format = parseFormat(args);

    const std::vector<engine::TraceRequest> requests =
        format == TraceFormat::Azure ? store::readAzureTrace(path) : store::readMooncakeTrace(path);
    if (requests.empty())
        throw UsageError(QStringLiteral("%1: no requests").arg(path));
    const engine::TraceStats stats = engine::analyseTrace(requests);

    if (args.has(QStringLiteral("json")))
        context.out() << jsonText(toJson(path, format, stats));
    else
        writeTable(context.out(), path, format, stats);
    return 0;
}

} // namespace

Command importTraceCommand()
{
    return {QStringLiteral("import-trace"),
            QStringLiteral("arrival rate, token percentiles and prefix hit rate of a request trace"),
            QString::fromUtf8(kUsage), &runImportTrace};
}

} // namespace headroom::cli
