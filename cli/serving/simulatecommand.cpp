#include "simulatecommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/catalog/lookup.h"

#include "engine/serving/serving_sim.h"
#include "store/serving/steptimecsv.h"
#include "store/inference/workloadjson.h"
#include "store/common/workspace.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <cmath>
#include <limits>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom simulate --trace FILE --format mooncake|azure
         (--model ID --gpu ID [--weights P] [--kv-dtype P] [--tp N] | --kv-blocks N)
         [--step-times FILE] --replicas N [--router round-robin|least-loaded|kv]
         [--overlap-weight F] [--temperature F] [--block-size N] [--no-prefix-cache]
         [--max-num-seqs N] [--max-num-batched-tokens N] [--no-chunked-prefill]
         [--request-overhead-ms F] [--time-scale F | --concurrency N] [--seed N]
         [--ttft-slo-ms F --itl-slo-ms F]
         [--find-replicas [--attainment F] | --sweep PARAMETER=V1,V2,...] [--json]

Replays a request trace, event by event, on a fleet of replicas with continuous batching,
chunked prefill, a KV pool per replica with a prefix cache (LRU over unreferenced blocks;
blocks of running requests are never evicted) and preemption by recompute when the pool runs
out. Reports the prefix hit rate the fleet actually gets (the trace's infinite-cache rate is
only its upper bound), TTFT, inter-token latency and end-to-end percentiles, queue wait,
preemptions, per-replica load and the share of requests within the SLOs.

options:
  --trace FILE            the request trace (required)
  --format F              mooncake (JSONL with 512-token hash_ids) or azure (CSV, no hashes)
  --model ID --gpu ID     the replica: the KV pool from the kv analysis (memory utilization and
                          reserve from the workspace's serving assumptions) and iteration times
                          from the step-cost model of the sizing analysis: one forward pass over
                          every scheduled token, with the GPU's measured efficiency profile
  --weights P             bf16|fp16|fp8|int8|int4 (default bf16)
  --kv-dtype P            bf16|fp8 (default bf16)
  --tp N                  GPUs per replica, tensor parallel (default 1)
  --kv-blocks N           N blocks of --block-size tokens per replica instead of the model/GPU
                          memory; with --model and --gpu too, they set only the step times;
                          without them (and without --step-times) only the cache is
                          simulated (no latencies)
  --step-times FILE       measured step times (CSV: phase,batch,context_tokens,prefill_tokens,ms)
                          instead of the roofline: decode times bilinear over the batch ×
                          context grid, prefill times piecewise linear, both extended linearly
                          beyond the measured range; --model and --gpu then only size the pool
  --replicas N            replicas in the fleet (required, at least 1)
  --router R              round-robin, least-loaded (fewest active blocks) or kv (default):
                          cost = overlap weight × new prefill blocks + active blocks, as NVIDIA
                          Dynamo's KV router
  --overlap-weight F      weight of new prefill blocks in the kv router's cost (default 1)
  --temperature F         0 (default): the lowest cost; above 0: a replica drawn with
                          probability ∝ exp(−cost ÷ F)
  --block-size N          tokens per KV block, 1–1024 (default: mooncake 512, the trace's hash
                          block; azure the workspace's block size, 16 as vLLM's)
  --no-prefix-cache       no prefix caching: every prompt is computed in full
  --max-num-seqs N        requests running at once per replica (default: the workspace's serving
                          assumptions, else vLLM's for the GPU: 1,024 on GPUs of 70 GiB and more
                          but A100s, else 256)
  --max-num-batched-tokens N
                          tokens one iteration schedules (default: the workspace's, else vLLM's:
                          8,192 on those GPUs, else 2,048)
  --no-chunked-prefill    prompts are prefilled whole, in iterations of their own
  --request-overhead-ms F fixed time of every request outside the GPU (API server, tokenizer),
                          added to TTFT and E2E (default: the workspace's serving assumptions)
  --time-scale F          arrival-rate multiplier: 2 replays the trace twice as fast (default 1)
  --concurrency N         closed loop, as `vllm bench serve --max-concurrency N`: N requests in
                          flight, the next in trace order sent when one completes (timestamps
                          ignored; needs step times)
  --seed N                seed of the router's sampling (default 1)
  --ttft-slo-ms F         time-to-first-token SLO; with --itl-slo-ms
  --itl-slo-ms F          inter-token latency SLO (a request's mean gap between tokens)
  --find-replicas         also find the fewest replicas (1 to --max-replicas, default 256)
                          whose SLO attainment reaches --attainment (default 0.99)
  --sweep P=V1,V2,...     one run per value of block-size, overlap-weight, temperature or
                          kv-blocks (the other options as given; with --model and --gpu and no
                          --kv-blocks, each block size gets the pool the memory holds at it),
                          run on two threads; one row (JSON: one point) per value
  --shared-prefix N       azure: tokens of system prompt every request shares (default 0)
  --hit-rate F            azure: share of each prompt reusable from earlier requests (default 0)
  --json                  print JSON instead of a table

Azure traces have no prefix hashes: they are generated from --shared-prefix and --hit-rate at
the block size simulated (the smallest of a block-size sweep), so a shared system prompt hits
block by block (block i of a prompt of n tokens is the shared system prompt when it ends within the first
--shared-prefix tokens, reusable context when it ends within the first hit-rate × n tokens,
else unique to the request). Exit code 2 on bad input, with the reason on stderr.
)";

constexpr qint64 kIntMax = std::numeric_limits<int>::max();

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> specs;
    for (const char *name : {"trace", "format", "model", "gpu", "weights", "kv-dtype", "tp", "kv-blocks",
                             "replicas", "router", "overlap-weight", "temperature", "block-size", "time-scale",
                             "seed", "ttft-slo-ms", "itl-slo-ms", "attainment", "max-replicas", "shared-prefix",
                             "hit-rate", "step-times", "sweep", "max-num-seqs", "max-num-batched-tokens",
                             "request-overhead-ms", "concurrency"})
        specs.push_back({QLatin1String(name)});
    for (const char *name : {"no-prefix-cache", "no-chunked-prefill", "find-replicas", "json"})
        specs.push_back({QLatin1String(name), false});
    return specs;
}

double numberAtLeast(const Args &args, const QString &name, double fallback, double min, bool inclusive)
{
    const double value = args.number(name).value_or(fallback);
    if (inclusive ? value < min : value <= min) {
        throw UsageError(QStringLiteral("%1: must be %2 %3, got %4")
                             .arg(Args::flag(name), inclusive ? QStringLiteral("at least") : QStringLiteral("above"),
                                  formatDecimal(min, 6), QString::number(value, 'g', 6)));
    }
    return value;
}

bool azureTrace(const Args &args)
{
    return args.text(QStringLiteral("format")) == QStringLiteral("azure");
}

// Tokens per KV block by default: Mooncake's hash block, else the workspace's block size.
int defaultBlockSize(const Args &args, Context &context)
{
    return azureTrace(args) ? context.workspace().servingAssumptions().blockSize : engine::kTraceBlockTokens;
}

// The block size generated prefix hashes cover: the one simulated, the smallest of a sweep.
int hashBlockSize(const Args &args, Context &context)
{
    int block = int(args.integer(QStringLiteral("block-size"), 1, engine::kMaxBlockSize).value_or(defaultBlockSize(args, context)));
    if (const auto text = args.text(QStringLiteral("sweep")); text && text->startsWith(QStringLiteral("block-size="))) {
        for (const QString &part : text->mid(11).split(QLatin1Char(','))) {
            bool ok = false;
            const int value = part.trimmed().toInt(&ok);
            if (ok && value >= 1)
                block = std::min(block, value);
        }
    }
    return block;
}

std::vector<engine::TraceRequest> readTrace(const Args &args, int hashBlock)
{
    const auto path = args.text(QStringLiteral("trace"));
    if (!path)
        throw UsageError(QStringLiteral("--trace FILE is required"));
    const auto format = args.text(QStringLiteral("format"));
    if (!format)
        throw UsageError(QStringLiteral("--format is required: mooncake or azure"));
    const bool generated = args.has(QStringLiteral("shared-prefix")) || args.has(QStringLiteral("hit-rate"));
    if (*format == QLatin1String("mooncake")) {
        if (generated)
            throw UsageError(QStringLiteral("--shared-prefix and --hit-rate apply to azure traces; mooncake "
                                            "traces carry their own prefix hashes"));
        return store::readMooncakeTrace(*path);
    }
    if (*format != QLatin1String("azure"))
        throw UsageError(QStringLiteral("--format: unknown trace format '%1'; known: mooncake, azure").arg(*format));
    const qint64 prefix = args.integer(QStringLiteral("shared-prefix"), 0, kIntMax).value_or(0);
    const double hitRate = args.number(QStringLiteral("hit-rate")).value_or(0);
    if (hitRate < 0 || hitRate > 1)
        throw UsageError(QStringLiteral("--hit-rate: must be between 0 and 1, got %1").arg(QString::number(hitRate, 'g', 6)));
    return engine::withGeneratedHashes(store::readAzureTrace(*path), prefix, hitRate, hashBlock);
}

engine::RouterKind parseRouter(const Args &args)
{
    const QString text = args.text(QStringLiteral("router")).value_or(QStringLiteral("kv"));
    const auto router = engine::parseRouterKind(text.toStdString());
    if (!router)
        throw UsageError(QStringLiteral("--router: unknown router '%1'; known: round-robin, least-loaded, kv").arg(text));
    return *router;
}

// One swept option: its name as the flag spells it and its values, in the order given.
struct Sweep {
    QString parameter;
    std::vector<double> values;
};

// One value of a sweep in place of the option: block-size, overlap-weight, temperature or kv-blocks.
struct Override {
    QString parameter;
    double value = 0;
};

std::optional<Sweep> parseSweep(const Args &args)
{
    const auto text = args.text(QStringLiteral("sweep"));
    if (!text)
        return std::nullopt;
    const qsizetype eq = text->indexOf(QLatin1Char('='));
    const QString hint = QStringLiteral("expected PARAMETER=V1,V2,... with PARAMETER block-size, overlap-weight, "
                                        "temperature or kv-blocks");
    if (eq < 0)
        throw UsageError(QStringLiteral("--sweep: '%1': %2").arg(*text, hint));
    Sweep sweep;
    sweep.parameter = text->left(eq).trimmed();
    const bool integral = sweep.parameter == QLatin1String("block-size") || sweep.parameter == QLatin1String("kv-blocks");
    if (!integral && sweep.parameter != QLatin1String("overlap-weight") && sweep.parameter != QLatin1String("temperature"))
        throw UsageError(QStringLiteral("--sweep: unknown parameter '%1'; %2").arg(sweep.parameter, hint));
    if (args.has(sweep.parameter))
        throw UsageError(QStringLiteral("--sweep %1 and --%1 do not go together").arg(sweep.parameter));
    const QStringList parts = text->mid(eq + 1).split(QLatin1Char(','));
    if (parts.size() > 64)
        throw UsageError(QStringLiteral("--sweep: at most 64 values, got %1").arg(parts.size()));
    for (const QString &part : parts) {
        const QString flag = QStringLiteral("--sweep %1").arg(sweep.parameter);
        if (sweep.parameter == QLatin1String("block-size")) {
            sweep.values.push_back(double(parseInteger(flag, part.trimmed(), 1, engine::kMaxBlockSize)));
        } else if (sweep.parameter == QLatin1String("kv-blocks")) {
            sweep.values.push_back(double(parseInteger(flag, part.trimmed(), 1, kIntMax)));
        } else {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok || !std::isfinite(v) || v < 0)
                throw UsageError(QStringLiteral("%1: '%2' is not a number at least 0").arg(flag, part.trimmed()));
            sweep.values.push_back(v);
        }
    }
    return sweep;
}

// The fleet from the options: pool, step model, router and SLOs; `override` replaces one
// option's value (a point of a sweep).
engine::ServingSimConfig buildConfig(const Args &args, Context &context, const std::optional<Override> &override = {})
{
    const auto overridden = [&](const char *name) -> std::optional<double> {
        if (override && override->parameter == QLatin1String(name))
            return override->value;
        return std::nullopt;
    };
    engine::ServingSimConfig c;
    c.replicas = int(args.integer(QStringLiteral("replicas"), 1, 4096).value_or(0));
    if (!args.has(QStringLiteral("replicas")))
        throw UsageError(QStringLiteral("--replicas N is required"));
    c.blockSize = int(args.integer(QStringLiteral("block-size"), 1, engine::kMaxBlockSize).value_or(defaultBlockSize(args, context)));
    if (azureTrace(args))
        c.traceBlockSize = hashBlockSize(args, context);
    if (const auto v = overridden("block-size"))
        c.blockSize = int(*v);
    c.prefixCache = !args.has(QStringLiteral("no-prefix-cache"));
    c.router = parseRouter(args);
    c.overlapWeight = overridden("overlap-weight").value_or(numberAtLeast(args, QStringLiteral("overlap-weight"), 1.0, 0, true));
    c.temperature = overridden("temperature").value_or(numberAtLeast(args, QStringLiteral("temperature"), 0.0, 0, true));
    c.timeScale = numberAtLeast(args, QStringLiteral("time-scale"), 1.0, 0, false);
    c.seed = uint64_t(args.integer(QStringLiteral("seed"), 0, std::numeric_limits<qint64>::max()).value_or(1));
    const int tp = int(args.integer(QStringLiteral("tp"), 1, 64).value_or(1));
    c.gpusPerReplica = tp;

    const bool hasTtft = args.has(QStringLiteral("ttft-slo-ms"));
    if (hasTtft != args.has(QStringLiteral("itl-slo-ms")))
        throw UsageError(QStringLiteral("--ttft-slo-ms and --itl-slo-ms go together"));
    if (hasTtft) {
        c.ttftSloMs = numberAtLeast(args, QStringLiteral("ttft-slo-ms"), 0, 0, false);
        c.itlSloMs = numberAtLeast(args, QStringLiteral("itl-slo-ms"), 0, 0, false);
    }

    const auto modelId = args.text(QStringLiteral("model"));
    const auto gpuId = args.text(QStringLiteral("gpu"));
    std::optional<qint64> kvBlocks = args.integer(QStringLiteral("kv-blocks"), 1, kIntMax);
    if (const auto v = overridden("kv-blocks"))
        kvBlocks = qint64(*v);
    if (modelId.has_value() != gpuId.has_value())
        throw UsageError(QStringLiteral("--model and --gpu go together"));
    if (!modelId && !kvBlocks)
        throw UsageError(QStringLiteral("simulate needs --model ID --gpu ID, or --kv-blocks N"));
    if (const auto path = args.text(QStringLiteral("step-times")))
        c.stepTable = store::readStepTimes(*path);
    if (modelId) {
        const engine::ServingAssumptions serving = context.workspace().servingAssumptions();
        engine::KvInputs in;
        in.model = findModel(context.workspace(), *modelId);
        const engine::GpuSpec gpu = findGpu(context.workspace(), *gpuId);
        in.gpuMemoryBytes = gpu.memoryBytes;
        if (const auto text = args.text(QStringLiteral("weights"))) {
            const auto p = engine::parseWeightPrecision(text->toStdString());
            if (!p)
                throw UsageError(QStringLiteral("--weights: unknown precision '%1'; expected bf16, fp16, fp8, int8 or int4").arg(*text));
            in.weights = *p;
        }
        if (const auto text = args.text(QStringLiteral("kv-dtype"))) {
            const auto p = engine::parseKvPrecision(text->toStdString());
            if (!p)
                throw UsageError(QStringLiteral("--kv-dtype: unknown precision '%1'; expected bf16 or fp8").arg(*text));
            in.kv = *p;
        }
        in.tp = tp;
        in.utilization = serving.memoryUtilization;
        in.reserveBytes = engine::runtimeReserveBytes(serving, in.model, gpu, tp);
        in.blockSize = c.blockSize;
        const engine::KvResult kv = engine::analyseKv(in);
        c.kvBlocksPerReplica = kvBlocks ? *kvBlocks : engine::kvBlocksPerReplica(in);
        engine::applyServingAssumptions(c, serving, in.model, gpu, in.weights, kv, tp);
    } else {
        for (const char *flag : {"weights", "kv-dtype", "tp"})
            if (args.has(QLatin1String(flag)))
                throw UsageError(QStringLiteral("--%1 needs --model and --gpu").arg(QLatin1String(flag)));
        c.kvBlocksPerReplica = *kvBlocks;
    }
    if (const auto v = args.integer(QStringLiteral("max-num-seqs"), 1, engine::kMaxNumSeqs))
        c.maxBatch = int(*v);
    if (const auto v = args.integer(QStringLiteral("max-num-batched-tokens"), 1, engine::kMaxBatchedTokens))
        c.tokenBudget = *v;
    if (args.has(QStringLiteral("no-chunked-prefill")))
        c.chunkedPrefill = false;
    if (const auto v = args.integer(QStringLiteral("concurrency"), 1, kIntMax)) {
        if (args.has(QStringLiteral("time-scale")))
            throw UsageError(QStringLiteral("--concurrency and --time-scale do not go together: a closed loop ignores the timestamps"));
        if (!c.stepModel && !c.stepTable)
            throw UsageError(QStringLiteral("--concurrency needs step times: give --model and --gpu, or --step-times"));
        c.concurrency = int(*v);
    }
    if (args.has(QStringLiteral("request-overhead-ms")))
        c.requestOverheadMs = numberAtLeast(args, QStringLiteral("request-overhead-ms"), 0, 0, true);
    return c;
}

QJsonValue percentiles(const engine::ServingSimResult &r, const engine::LatencyPercentiles &p)
{
    if (!r.timed)
        return QJsonValue(QJsonValue::Null);
    return QJsonObject{{QStringLiteral("p50"), p.p50}, {QStringLiteral("p95"), p.p95}, {QStringLiteral("p99"), p.p99}};
}

QJsonValue stepModelJson(const engine::ServingSimResult &r)
{
    if (r.stepModel == engine::StepModelKind::None)
        return QJsonValue(QJsonValue::Null);
    return QString::fromLatin1(engine::toString(r.stepModel).data());
}

// The keys of one run; runtime_s is left to the caller (a sweep times its runs together).
QJsonObject toJson(const engine::ServingSimConfig &c, const engine::ServingSimResult &r)
{
    QJsonArray perReplica;
    for (const engine::ReplicaServingLoad &load : r.perReplica) {
        perReplica.append(QJsonObject{{QStringLiteral("requests"), qint64(load.requests)},
                                      {QStringLiteral("hit_rate_blocks"), load.hitRateBlocks},
                                      {QStringLiteral("preemptions"), qint64(load.preemptions)}});
    }
    const QJsonValue null(QJsonValue::Null);
    return QJsonObject{
        {QStringLiteral("requests"), qint64(r.requests)},
        {QStringLiteral("completed"), qint64(r.completed)},
        {QStringLiteral("rejected"), qint64(r.rejected)},
        {QStringLiteral("replicas"), c.replicas},
        {QStringLiteral("router"), QString::fromLatin1(engine::toString(c.router).data())},
        {QStringLiteral("kv_blocks_per_replica"), qint64(c.kvBlocksPerReplica)},
        {QStringLiteral("block_size"), c.blockSize},
        {QStringLiteral("timed"), r.timed},
        {QStringLiteral("step_model"), stepModelJson(r)},
        {QStringLiteral("hit_rate_blocks"), r.hitRateBlocks},
        {QStringLiteral("hit_rate_tokens"), r.hitRateTokens},
        {QStringLiteral("ttft_ms"), percentiles(r, r.ttftMs)},
        {QStringLiteral("itl_ms"), percentiles(r, r.itlMs)},
        {QStringLiteral("e2e_ms"), percentiles(r, r.e2eMs)},
        {QStringLiteral("queue_wait_ms"), percentiles(r, r.queueWaitMs)},
        {QStringLiteral("mean_ttft_ms"), r.timed ? QJsonValue(r.meanTtftMs) : null},
        {QStringLiteral("mean_itl_ms"), r.timed ? QJsonValue(r.meanItlMs) : null},
        {QStringLiteral("mean_e2e_ms"), r.timed ? QJsonValue(r.meanE2eS * 1000.0) : null},
        {QStringLiteral("output_tokens_per_s"), r.timed ? QJsonValue(r.outputTokensPerS) : null},
        {QStringLiteral("concurrency"), c.concurrency > 0 ? QJsonValue(c.concurrency) : null},
        {QStringLiteral("slo_attainment"), r.sloAttainment ? QJsonValue(*r.sloAttainment) : null},
        {QStringLiteral("goodput_per_s"), r.sloAttainment ? QJsonValue(r.goodputPerS) : null},
        {QStringLiteral("preemptions"), qint64(r.preemptions)},
        {QStringLiteral("load_max_over_mean"), r.loadMaxOverMean},
        {QStringLiteral("mean_in_flight"), r.timed ? QJsonValue(r.meanInFlight) : null},
        {QStringLiteral("gpu_seconds"), r.timed ? QJsonValue(r.gpuSeconds) : null},
        {QStringLiteral("per_replica"), perReplica},
    };
}

QString ms(double value)
{
    return formatDecimal(value, value < 100 ? 1 : 0) + QStringLiteral(" ms");
}

QString percentilesText(const engine::LatencyPercentiles &p)
{
    return QStringLiteral("P50 %1, P95 %2, P99 %3").arg(ms(p.p50), ms(p.p95), ms(p.p99));
}

QString percent(double share)
{
    return formatDecimal(share * 100, 1, true) + QStringLiteral(" %");
}

void writeTable(QTextStream &out, const QString &trace, const engine::ServingSimConfig &c,
                const engine::ServingSimResult &r, const std::optional<std::optional<int>> &needed, double target)
{
    std::vector<std::pair<QString, QString>> fields{
        {QStringLiteral("trace"), QStringLiteral("%1: %2 requests, %3 completed, %4 rejected (larger than a pool)")
                                      .arg(QFileInfo(trace).fileName(), formatInteger(r.requests),
                                           formatInteger(r.completed), formatInteger(r.rejected))},
        {QStringLiteral("fleet"), QStringLiteral("%1 × %2 blocks of %3 tokens, router %4%5")
                                      .arg(countOf(c.replicas, QStringLiteral("replica"), QStringLiteral("replicas")),
                                           formatInteger(c.kvBlocksPerReplica), QString::number(c.blockSize),
                                           QString::fromLatin1(engine::toString(c.router).data()),
                                           c.prefixCache ? QString() : QStringLiteral(", no prefix cache"))},
        {QStringLiteral("prefix hit rate"), QStringLiteral("%1 of blocks, %2 of prompt tokens")
                                                .arg(percent(r.hitRateBlocks), percent(r.hitRateTokens))},
    };
    if (r.timed) {
        fields.push_back({QStringLiteral("step times"), r.stepModel == engine::StepModelKind::Table
                                                            ? QStringLiteral("measured table (--step-times)")
                                                            : QStringLiteral("step-cost model of the model on the GPU")});
        fields.push_back({QStringLiteral("TTFT"), percentilesText(r.ttftMs)});
        fields.push_back({QStringLiteral("inter-token latency"), percentilesText(r.itlMs)});
        fields.push_back({QStringLiteral("end to end"), percentilesText(r.e2eMs)});
        fields.push_back({QStringLiteral("queue wait"), percentilesText(r.queueWaitMs)});
        if (r.sloAttainment) {
            fields.push_back({QStringLiteral("SLO attainment"),
                              QStringLiteral("%1 of requests within TTFT %2 and ITL %3 (goodput %4 requests/s)")
                                  .arg(percent(*r.sloAttainment), ms(*c.ttftSloMs), ms(*c.itlSloMs),
                                       formatDecimal(r.goodputPerS, 3))});
        }
        fields.push_back({QStringLiteral("in flight"), QStringLiteral("mean %1 requests over %2 s")
                                                           .arg(formatDecimal(r.meanInFlight, 2),
                                                                formatDecimal(r.lastCompletionS - r.firstArrivalS, 1))});
        fields.push_back({QStringLiteral("GPU-seconds"), formatDecimal(r.gpuSeconds, 0)});
    } else {
        fields.push_back({QStringLiteral("latencies"), QStringLiteral("not computed: give --model and --gpu, or --step-times, for "
                                                                       "step times (only the cache was simulated)")});
    }
    fields.push_back({QStringLiteral("preemptions"), formatInteger(r.preemptions)});
    fields.push_back({QStringLiteral("load balance"), QStringLiteral("busiest replica %1 × the mean requests")
                                                          .arg(formatDecimal(r.loadMaxOverMean, 3, true))});
    if (needed) {
        fields.push_back({QStringLiteral("replicas needed"),
                          *needed ? QStringLiteral("%1 hold %2 of requests within SLO")
                                        .arg(QString::number(**needed), percent(target))
                                  : QStringLiteral("none up to the largest count tried reaches %1").arg(percent(target))});
    }
    writeFields(out, fields);
    out << '\n';
    Table table({{QStringLiteral("replica"), Table::Align::Right},
                 {QStringLiteral("requests"), Table::Align::Right},
                 {QStringLiteral("hit rate (blocks)"), Table::Align::Right},
                 {QStringLiteral("preemptions"), Table::Align::Right}});
    for (size_t i = 0; i < r.perReplica.size(); ++i) {
        const engine::ReplicaServingLoad &load = r.perReplica[i];
        table.addRow({QString::number(i + 1), formatInteger(load.requests), percent(load.hitRateBlocks),
                      formatInteger(load.preemptions)});
    }
    table.write(out);
}

QString valueText(double value)
{
    return QString::number(value, 'g', 12);
}

// One run per value of the swept option, on two threads; JSON {"sweep": {"parameter",
// "points": [{"value", <the keys of one run>}], "runtime_s"}} or one table row per value.
int runSweep(const Args &args, Context &context, const Sweep &sweep, const std::vector<engine::TraceRequest> &trace)
{
    std::vector<engine::ServingSimConfig> configs;
    for (double value : sweep.values)
        configs.push_back(buildConfig(args, context, Override{sweep.parameter, value}));
    QElapsedTimer timer;
    timer.start();
    const std::vector<engine::ServingSimResult> results = engine::simulateServingMany(trace, configs, 2);
    const double runtimeS = double(timer.nsecsElapsed()) / 1e9;
    if (args.has(QStringLiteral("json"))) {
        QJsonArray points;
        for (size_t i = 0; i < results.size(); ++i) {
            QJsonObject point = toJson(configs[i], results[i]);
            point.insert(QStringLiteral("value"), sweep.values[i]);
            points.append(point);
        }
        context.out() << jsonText(QJsonObject{{QStringLiteral("sweep"),
                                               QJsonObject{{QStringLiteral("parameter"), sweep.parameter},
                                                           {QStringLiteral("points"), points},
                                                           {QStringLiteral("runtime_s"), runtimeS}}}});
        return 0;
    }
    const bool timed = !results.empty() && results.front().timed;
    const bool slo = !configs.empty() && configs.front().ttftSloMs.has_value();
    std::vector<Table::Column> columns{{sweep.parameter, Table::Align::Right},
                                       {QStringLiteral("blocks/replica"), Table::Align::Right},
                                       {QStringLiteral("hit rate (blocks)"), Table::Align::Right},
                                       {QStringLiteral("hit rate (tokens)"), Table::Align::Right}};
    if (timed) {
        columns.push_back({QStringLiteral("TTFT P95"), Table::Align::Right});
        columns.push_back({QStringLiteral("ITL P95"), Table::Align::Right});
        if (slo)
            columns.push_back({QStringLiteral("SLO attainment"), Table::Align::Right});
    }
    columns.push_back({QStringLiteral("preemptions"), Table::Align::Right});
    columns.push_back({QStringLiteral("load max/mean"), Table::Align::Right});
    Table table(columns);
    for (size_t i = 0; i < results.size(); ++i) {
        const engine::ServingSimResult &r = results[i];
        QStringList row{valueText(sweep.values[i]), formatInteger(configs[i].kvBlocksPerReplica),
                        percent(r.hitRateBlocks), percent(r.hitRateTokens)};
        if (timed) {
            row << ms(r.ttftMs.p95) << ms(r.itlMs.p95);
            if (slo)
                row << (r.sloAttainment ? percent(*r.sloAttainment) : QStringLiteral("–"));
        }
        row << formatInteger(r.preemptions) << formatDecimal(r.loadMaxOverMean, 3, true);
        table.addRow(row);
    }
    context.out() << QStringLiteral("%1: %2 requests, %3 × router %4, sweep of %5%6\n\n")
                         .arg(QFileInfo(*args.text(QStringLiteral("trace"))).fileName(),
                              formatInteger(results.empty() ? 0 : results.front().requests),
                              countOf(configs.front().replicas, QStringLiteral("replica"), QStringLiteral("replicas")),
                              QString::fromLatin1(engine::toString(configs.front().router).data()), sweep.parameter,
                              !timed ? QStringLiteral(" (cache only: no step times)")
                              : results.front().stepModel == engine::StepModelKind::Table
                                  ? QStringLiteral(" (step times from the table)")
                                  : QStringLiteral(" (step-cost model times)"));
    table.write(context.out());
    return 0;
}

int runSimulate(const QStringList &argv, Context &context)
{
    const Args args(argv, options());
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("simulate takes no positional arguments (the trace goes after --trace), got '%1'")
                             .arg(args.positionals().constFirst()));
    const std::optional<Sweep> sweep = parseSweep(args);
    const engine::ServingSimConfig config = buildConfig(
        args, context, sweep ? std::optional<Override>(Override{sweep->parameter, sweep->values.front()}) : std::nullopt);
    const bool find = args.has(QStringLiteral("find-replicas"));
    if (sweep && find)
        throw UsageError(QStringLiteral("--sweep and --find-replicas do not go together"));
    if (!find && (args.has(QStringLiteral("attainment")) || args.has(QStringLiteral("max-replicas"))))
        throw UsageError(QStringLiteral("--attainment and --max-replicas go with --find-replicas"));
    const double target = args.number(QStringLiteral("attainment")).value_or(0.99);
    if (!(target > 0 && target <= 1))
        throw UsageError(QStringLiteral("--attainment: must be above 0 and at most 1, got %1").arg(QString::number(target, 'g', 6)));
    const int maxReplicas = int(args.integer(QStringLiteral("max-replicas"), 1, 4096).value_or(256));
    if (find && !config.stepModel && !config.stepTable)
        throw UsageError(QStringLiteral("--find-replicas needs step times: give --model and --gpu, or --step-times"));
    if (find && !config.ttftSloMs)
        throw UsageError(QStringLiteral("--find-replicas needs --ttft-slo-ms and --itl-slo-ms"));
    const std::vector<engine::TraceRequest> trace = readTrace(args, hashBlockSize(args, context));
    if (sweep)
        return runSweep(args, context, *sweep, trace);

    QElapsedTimer timer;
    timer.start();
    const engine::ServingSimResult result = engine::simulateServing(trace, config);
    const double runtimeS = double(timer.nsecsElapsed()) / 1e9;
    std::optional<std::optional<int>> needed;
    if (find)
        needed = engine::findReplicas(trace, config, target, maxReplicas);

    if (args.has(QStringLiteral("json"))) {
        QJsonObject json = toJson(config, result);
        json.insert(QStringLiteral("runtime_s"), runtimeS);
        if (needed)
            json.insert(QStringLiteral("replicas_needed"), *needed ? QJsonValue(**needed) : QJsonValue(QJsonValue::Null));
        context.out() << jsonText(json);
    } else {
        writeTable(context.out(), *args.text(QStringLiteral("trace")), config, result, needed, target);
    }
    return 0;
}

} // namespace

Command simulateCommand()
{
    return {QStringLiteral("simulate"),
            QStringLiteral("replay a request trace on replicas with prefix caches and a router"),
            QString::fromUtf8(kUsage), &runSimulate};
}

} // namespace headroom::cli
