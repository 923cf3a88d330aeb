#include "servingcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"

#include "engine/inference/inference_sizing.h"
#include "store/inference/servingtables.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QJsonObject>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom serving [show] [--json]
       headroom serving set [options]
       headroom serving set --defaults

The workspace's serving assumptions: one set, used by `kv`, `size`, `scenario` and the KV,
Inference sizing and Scenarios pages (Edit → Serving Assumptions in the app). `show` prints
them; `set` changes the ones given and keeps the rest; `--defaults` restores every default.

options of set (defaults in brackets):
  --memory-utilization F          share of GPU memory the server may use, (0, 1] [0.9]
  --reserve-mode flat|vllm_profile
                                  runtime memory per GPU: the flat reserve, or the activation
                                  peak and non-torch memory vLLM's profiling pass finds for the
                                  model, TP and the scheduler limits below [flat]
  --clear-measured                forget the reserves kept per deployment from vLLM logs
                                  (`kv --vllm-log FILE --save`, the KV page's Check against a
                                  vLLM log); `show` lists them
  --reserve-gib F                 the flat reserve: activation peak + runtime overhead per GPU,
                                  0–1024 GiB; sets --reserve-mode flat unless given [2]
  --block-size N                  tokens per paged KV block, 1–1024 [16]
  --prefill-efficiency F          for GPUs without a measured profile in the catalog: share of
                                  peak dense TFLOPS large passes reach, (0, 1] [0.5]
  --decode-bandwidth-efficiency F likewise, share of HBM bandwidth weights and KV stream at [0.7]
  --decode-compute-efficiency F   likewise, share of peak TFLOPS a one-token pass reaches [0.5]
  --max-num-batched-tokens N      tokens one iteration schedules; 0: vLLM's default for the GPU
                                  (8,192 on GPUs of 70 GiB and more but A100s, else 2,048) [0]
  --max-num-seqs N                requests running at once per replica; 0: vLLM's default
                                  (1,024 on those GPUs, else 256) [0]
  --chunked-prefill on|off        prompts split into chunks that ride with decodes [on]
  --prefix-caching on|off         KV of shared prompt prefixes reused [on]
  --request-overhead-ms F         fixed time of every request outside the GPU passes (API
                                  server, tokenizer), added to TTFT, 0–60,000 ms [50]
  --planned-headroom F            capacity kept free at peak by design, 0–10 (0.2 = 20 %) [0.2]
  --in-flight-quantile F          quantile of requests in flight memory is sized for, (0, 1) [0.99]
  --queueing-allowance-ms F       wait before prefill counted in the time in system, ms [200]
  --kv-residency M                request|session: which streams hold KV cache [request]
  --json                          print the result as JSON (the workspace's stored form)

`headroom serving set --kv-residency session` sizes every workload for its open sessions
held resident; `kv` and `size` still take per-run options on top.
)";

struct Field {
    const char *flag;
    const char *key;   // as engine::validate names it
};

const Field kFields[] = {
    {"memory-utilization", "memory_utilization"},
    {"reserve-mode", "reserve_mode"},
    {"reserve-gib", "reserve_bytes"},
    {"block-size", "block_size"},
    {"prefill-efficiency", "prefill_efficiency"},
    {"decode-bandwidth-efficiency", "decode_bandwidth_efficiency"},
    {"decode-compute-efficiency", "decode_compute_efficiency"},
    {"planned-headroom", "planned_headroom"},
    {"in-flight-quantile", "in_flight_quantile"},
    {"queueing-allowance-ms", "queueing_allowance_ms"},
    {"kv-residency", "kv_residency"},
    {"max-num-batched-tokens", "max_num_batched_tokens"},
    {"max-num-seqs", "max_num_seqs"},
    {"chunked-prefill", "chunked_prefill"},
    {"prefix-caching", "prefix_caching"},
    {"request-overhead-ms", "request_overhead_ms"},
    {"clear-measured", "reserve_overrides"},
};

QString flagFor(const std::string &key)
{
    for (const Field &f : kFields)
        if (key == f.key)
            return Args::flag(QLatin1String(f.flag));
    return QString::fromStdString(key);
}

void print(const engine::ServingAssumptions &a, bool json, Context &context)
{
    if (json) {
        context.out() << jsonText(store::servingAssumptionsToJson(a));
        return;
    }
    const std::pair<QString, QString> rows[] = {
        {QStringLiteral("Memory utilization"), formatDecimal(a.memoryUtilization, 3)},
        {QStringLiteral("Runtime reserve per GPU"),
         a.reserveMode == engine::ReserveMode::VllmProfile
             ? QStringLiteral("vLLM's profile (activation peak + non-torch memory per model)")
             : QStringLiteral("%1, flat").arg(formatGiB(a.reserveBytes))},
        {QStringLiteral("KV block size"), QStringLiteral("%1 tokens").arg(a.blockSize)},
        {QStringLiteral("Prefill efficiency"), formatDecimal(a.prefillEfficiency, 3)},
        {QStringLiteral("Decode bandwidth efficiency"), formatDecimal(a.decodeBandwidthEfficiency, 3)},
        {QStringLiteral("Decode compute efficiency"), formatDecimal(a.decodeComputeEfficiency, 3)},
        {QStringLiteral("Planned headroom"), QStringLiteral("%1 %").arg(formatDecimal(a.plannedHeadroom * 100, 2))},
        {QStringLiteral("In-flight quantile"), QStringLiteral("P%1").arg(formatDecimal(a.inFlightQuantile * 100, 3))},
        {QStringLiteral("Queueing allowance"), QStringLiteral("%1 ms").arg(formatDecimal(a.queueingAllowanceMs, 3))},
        {QStringLiteral("KV residency"), QString::fromUtf8(engine::toString(a.residency).data())},
        {QStringLiteral("Max batched tokens"), a.maxNumBatchedTokens > 0 ? formatInteger(a.maxNumBatchedTokens)
                                                                           : QStringLiteral("vLLM's default for the GPU")},
        {QStringLiteral("Max running requests"), a.maxNumSeqs > 0 ? formatInteger(a.maxNumSeqs)
                                                                   : QStringLiteral("vLLM's default for the GPU")},
        {QStringLiteral("Chunked prefill"), a.chunkedPrefill ? QStringLiteral("on") : QStringLiteral("off")},
        {QStringLiteral("Prefix caching"), a.prefixCaching ? QStringLiteral("on") : QStringLiteral("off")},
        {QStringLiteral("Request overhead"), QStringLiteral("%1 ms").arg(formatDecimal(a.requestOverheadMs, 3))},
    };
    for (const auto &[label, value] : rows)
        context.out() << QStringLiteral("%1  %2\n").arg(label + QLatin1Char(':'), -29).arg(value);
    for (const engine::ReserveOverride &o : a.reserveOverrides)
        context.out() << QStringLiteral("%1  %2 for %3 on %4 at TP %5 (%6)\n")
                             .arg(QStringLiteral("Measured reserve:"), -29)
                             .arg(formatGiB(o.reserveBytes), QString::fromStdString(o.modelId),
                                  QString::fromStdString(o.gpuId))
                             .arg(o.tp)
                             .arg(QString::fromStdString(o.source));
}

// The number given with --FLAG, or `current` when the flag is absent (validate() checks the range).
double numberOr(const Args &args, const char *flag, double current)
{
    return args.number(QLatin1String(flag)).value_or(current);
}

// on|off given with --FLAG, or `current` when the flag is absent.
bool onOff(const Args &args, const char *flag, bool current)
{
    const auto text = args.text(QLatin1String(flag));
    if (!text)
        return current;
    if (*text == QLatin1String("on"))
        return true;
    if (*text == QLatin1String("off"))
        return false;
    throw UsageError(QStringLiteral("%1: expected on or off, got '%2'").arg(Args::flag(QLatin1String(flag)), *text));
}

engine::ServingAssumptions applySet(const Args &args, engine::ServingAssumptions a)
{
    if (args.has(QStringLiteral("defaults"))) {
        for (const Field &f : kFields)
            if (args.has(QLatin1String(f.flag)))
                throw UsageError(QStringLiteral("give either --defaults or %1, not both").arg(Args::flag(QLatin1String(f.flag))));
        return {};
    }
    bool any = false;
    for (const Field &f : kFields)
        any = any || args.has(QLatin1String(f.flag));
    if (!any)
        throw UsageError(QStringLiteral("serving set needs at least one option (see headroom serving --help)"));
    a.memoryUtilization = numberOr(args, "memory-utilization", a.memoryUtilization);
    if (const auto gib = args.number(QStringLiteral("reserve-gib"))) {
        if (!(*gib >= 0 && *gib <= 1024))
            throw UsageError(QStringLiteral("--reserve-gib: must be between 0 and 1024, got %1").arg(formatDecimal(*gib, 6)));
        a.reserveBytes = qint64(*gib * double(qint64(1) << 30) + 0.5);
        a.reserveMode = engine::ReserveMode::Flat;
    }
    if (args.has(QStringLiteral("clear-measured")))
        a.reserveOverrides.clear();
    if (const auto mode = reserveModeOption(args))
        a.reserveMode = *mode;
    if (const auto block = args.integer(QStringLiteral("block-size"), 1, 1024))
        a.blockSize = int(*block);
    a.prefillEfficiency = numberOr(args, "prefill-efficiency", a.prefillEfficiency);
    a.decodeBandwidthEfficiency = numberOr(args, "decode-bandwidth-efficiency", a.decodeBandwidthEfficiency);
    a.decodeComputeEfficiency = numberOr(args, "decode-compute-efficiency", a.decodeComputeEfficiency);
    a.plannedHeadroom = numberOr(args, "planned-headroom", a.plannedHeadroom);
    a.inFlightQuantile = numberOr(args, "in-flight-quantile", a.inFlightQuantile);
    a.queueingAllowanceMs = numberOr(args, "queueing-allowance-ms", a.queueingAllowanceMs);
    if (const auto v = args.integer(QStringLiteral("max-num-batched-tokens"), 0, engine::kMaxBatchedTokens))
        a.maxNumBatchedTokens = *v;
    if (const auto v = args.integer(QStringLiteral("max-num-seqs"), 0, engine::kMaxNumSeqs))
        a.maxNumSeqs = int(*v);
    a.chunkedPrefill = onOff(args, "chunked-prefill", a.chunkedPrefill);
    a.prefixCaching = onOff(args, "prefix-caching", a.prefixCaching);
    a.requestOverheadMs = numberOr(args, "request-overhead-ms", a.requestOverheadMs);
    if (const auto text = args.text(QStringLiteral("kv-residency"))) {
        const auto residency = engine::parseKvResidency(text->toStdString());
        if (!residency)
            throw UsageError(QStringLiteral("--kv-residency: unknown model '%1'; expected request or session").arg(*text));
        a.residency = *residency;
    }
    if (const auto problems = engine::validate(a); !problems.empty())
        throw UsageError(QStringLiteral("%1: %2").arg(flagFor(problems.front().field),
                                                      QString::fromStdString(problems.front().message)));
    return a;
}

int runServing(const QStringList &argv, Context &context)
{
    std::vector<OptionSpec> specs{{QStringLiteral("json"), false}, {QStringLiteral("defaults"), false}};
    for (const Field &f : kFields)
        specs.push_back({QLatin1String(f.flag), std::string_view(f.flag) != "clear-measured"});
    const Args args(argv, specs);
    const QStringList &positionals = args.positionals();
    const QString action = positionals.value(0, QStringLiteral("show"));
    if (positionals.size() > 1)
        throw UsageError(QStringLiteral("serving takes one action (show or set), got '%1'").arg(positionals.join(QLatin1Char(' '))));
    const bool json = args.has(QStringLiteral("json"));
    if (action == QLatin1String("show")) {
        for (const Field &f : kFields)
            if (args.has(QLatin1String(f.flag)))
                throw UsageError(QStringLiteral("%1 changes an assumption: use `headroom serving set %1 ...`")
                                     .arg(Args::flag(QLatin1String(f.flag))));
        if (args.has(QStringLiteral("defaults")))
            throw UsageError(QStringLiteral("--defaults belongs to `headroom serving set`"));
        print(context.workspace().servingAssumptions(), json, context);
        return 0;
    }
    if (action != QLatin1String("set"))
        throw UsageError(QStringLiteral("unknown serving action '%1'; expected show or set").arg(action));
    // Read, change and write in one write transaction: concurrent `serving set` calls that
    // change different fields all keep their change.
    const engine::ServingAssumptions updated = context.workspace().updateServingAssumptions(
        [&](const engine::ServingAssumptions &stored) { return applySet(args, stored); });
    print(updated, json, context);
    return 0;
}

} // namespace

std::optional<engine::ReserveMode> reserveModeOption(const Args &args)
{
    const auto text = args.text(QStringLiteral("reserve-mode"));
    if (!text)
        return std::nullopt;
    const auto mode = engine::parseReserveMode(text->toStdString());
    if (!mode)
        throw UsageError(QStringLiteral("--reserve-mode: unknown mode '%1'; expected flat or vllm_profile").arg(*text));
    return mode;
}

Command servingCommand()
{
    return {QStringLiteral("serving"), QStringLiteral("show or set the workspace's serving assumptions"),
            QString::fromUtf8(kUsage), &runServing};
}

} // namespace headroom::cli
