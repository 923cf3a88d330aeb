#include "kvcommand.h"
#include "servingcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/catalog/lookup.h"
#include "cli/common/moneyoptions.h"

#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv.h"
#include "engine/inference/kv_levers.h"
#include "engine/inference/vllm_log.h"
#include "store/inference/vllmlogfile.h"
#include "store/common/workspace.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom kv MODEL MEMORY [options]

KV cache bytes per token, the KV pool left after the weights and concurrent streams per
context (vLLM-style block paging), for one GPU of a tensor-parallel group.

MODEL, one of:
  --model ID              a model from the workspace catalog
  --layers N --kv-heads N --head-dim N --params N
                          a raw architecture; also:
    --heads N             attention heads (default: --kv-heads)
    --mla-rank N --rope-dim N
                          multi-head latent attention (DeepSeek-V2/V3): KV latent rank and
                          decoupled RoPE key size; --kv-heads and --head-dim become optional
    --window N --sliding-layers N
                          N of the layers use a sliding window of that many tokens
MEMORY, one of:
  --gpu ID                a GPU from the workspace catalog
  --memory-gib F          GPU memory in GiB (2^30 bytes)
Options:
  --tp N                  tensor-parallel degree (default 1)
  --weights P             bf16|fp16|fp8|int8|int4 (default bf16)
  --kv-dtype P            bf16|fp8 (default bf16)
  --util F                share of memory the server may use, (0, 1]
  --block N               tokens per KV block
  --reserve-gib F         activation peak and runtime overhead per GPU in GiB, flat
                          (these three default to the workspace's serving assumptions,
                          `headroom serving`: 0.9, 16 and 2 GiB unless changed there)
  --reserve-mode M        flat (the reserve above) or vllm_profile: the activation peak
                          of vLLM's profiling pass at the workspace's max_num_batched_tokens
                          and max_num_seqs, plus its non-torch memory, for the catalog
                          model and TP (default: the workspace's; --reserve-gib means flat)
  --prefix-tokens N       shared prompt prefix held once, not per stream (default 0)
  --context N             context to report streams at; repeat for more (default 4096 and
                          16384, plus the model's max context with --model)
  --what-if LEVERS        apply attention-architecture levers in order, comma-separated,
                          and show each step's KV bytes per token, streams per replica,
                          replicas and money at the largest context: mqa, kv-heads=N
                          (fewer K/V heads), share=K (every K adjacent layers share one
                          KV), local=WINDOW/N (a WINDOW-token local window, one layer in N
                          global), latent=D (an MLA-style latent of D values), bf16, fp8,
                          int8, int4 (int8/int4 with a scale and zero point per vector).
                          Character.AI's stack: mqa,local=1024/6,share=2,int8
    --streams N           peak concurrent streams the replicas must hold
    --price USD           price per GPU-hour, for money per 30-day month
  --vllm-log FILE         a vLLM server's start-up log for this deployment: its weights and
                          KV cache against the analysis (its gpu_memory_utilization where it
                          prints one), and the reserve that makes the analysis hold its KV
                          cache, to set with `headroom serving set --reserve-gib`
    --save                keep that reserve in the workspace for this model, GPU and TP
                          (`--model` and `--gpu`); other deployments keep theirs
  --json                  print JSON instead of a table
)";

const QStringList kArchitectureFlags = {
    QStringLiteral("layers"),   QStringLiteral("kv-heads"), QStringLiteral("head-dim"),
    QStringLiteral("params"),   QStringLiteral("heads"),    QStringLiteral("mla-rank"),
    QStringLiteral("rope-dim"), QStringLiteral("window"),   QStringLiteral("sliding-layers"),
};

constexpr qint64 kIntMax = std::numeric_limits<int>::max();

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> specs;
    for (const QString &name : kArchitectureFlags)
        specs.push_back({name});
    for (const char *name : {"model", "gpu", "memory-gib", "tp", "weights", "kv-dtype", "util",
                             "block", "reserve-gib", "reserve-mode", "prefix-tokens", "what-if", "streams", "price", "vllm-log"})
        specs.push_back({QLatin1String(name)});
    specs.push_back({QStringLiteral("context"), true, true});
    specs.push_back({QStringLiteral("json"), false});
    specs.push_back({QStringLiteral("save"), false});
    return specs;
}

// The engine names a field as the catalog spells it; say which flag sets it when that differs.
QString flagForField(const std::string &field)
{
    static const std::map<std::string, QString> flags = {
        {"attention_heads", QStringLiteral("--heads")},
        {"kv_heads", QStringLiteral("--kv-heads")},
        {"head_dim", QStringLiteral("--head-dim")},
        {"kv_lora_rank", QStringLiteral("--mla-rank")},
        {"qk_rope_head_dim", QStringLiteral("--rope-dim")},
        {"sliding_layers", QStringLiteral("--sliding-layers")},
        {"sliding_window", QStringLiteral("--window")},
        {"memory", QStringLiteral("--memory-gib")},
        {"reserve", QStringLiteral("--reserve-gib")},
        {"prefix", QStringLiteral("--prefix-tokens")},
    };
    const auto it = flags.find(field);
    return it == flags.end() ? QString() : it->second;
}

bool isModelField(const std::string &field)
{
    return field == "layers" || field == "params" || field == "attention_heads"
        || field == "kv_heads" || field == "head_dim" || field == "kv_lora_rank"
        || field == "qk_rope_head_dim" || field == "sliding_layers" || field == "sliding_window";
}

double positiveNumber(const Args &args, const QString &name, double fallback, bool allowZero)
{
    const double value = args.number(name).value_or(fallback);
    if (value < 0 || (!allowZero && value == 0)) {
        throw UsageError(QStringLiteral("%1: must be %2 0, got %3")
                             .arg(Args::flag(name),
                                  allowZero ? QStringLiteral("at least") : QStringLiteral("greater than"),
                                  formatDecimal(value, 6)));
    }
    return value;
}

qint64 gibToBytes(double gib)
{
    return std::llround(gib * double(engine::kGiB));
}

// Flags that must come in pairs, e.g. --mla-rank with --rope-dim.
void requirePair(const Args &args, const QString &a, const QString &b)
{
    if (args.has(a) != args.has(b)) {
        const QString given = args.has(a) ? a : b;
        const QString missing = args.has(a) ? b : a;
        throw UsageError(QStringLiteral("%1 needs %2").arg(Args::flag(given), Args::flag(missing)));
    }
}

qint64 requiredInteger(const Args &args, const QString &name, qint64 min, const QString &why)
{
    const auto value = args.integer(name, min, kIntMax);
    if (!value)
        throw UsageError(QStringLiteral("%1 is required %2").arg(Args::flag(name), why));
    return *value;
}

// A model described on the command line rather than taken from the catalog.
engine::ModelSpec rawModel(const Args &args, int64_t maxContext)
{
    const QString why = QStringLiteral("for a raw architecture (or give --model ID)");
    requirePair(args, QStringLiteral("mla-rank"), QStringLiteral("rope-dim"));
    requirePair(args, QStringLiteral("window"), QStringLiteral("sliding-layers"));
    const bool mla = args.has(QStringLiteral("mla-rank"));

    engine::ModelSpec m;
    m.id = "custom";
    m.name = "custom architecture";
    m.layers = int(requiredInteger(args, QStringLiteral("layers"), 1, why));
    m.paramsTotal = args.number(QStringLiteral("params")).value_or(0);
    if (!args.has(QStringLiteral("params")))
        throw UsageError(QStringLiteral("--params is required %1").arg(why));
    if (!(m.paramsTotal > 0))
        throw UsageError(QStringLiteral("--params: must be greater than 0, got %1")
                             .arg(formatDecimal(m.paramsTotal, 6)));
    m.paramsActive = m.paramsTotal;
    m.maxContext = maxContext;

    if (mla) {
        m.attention = engine::AttentionKind::Mla;
        m.kvLoraRank = int(*args.integer(QStringLiteral("mla-rank"), 1, kIntMax));
        m.qkRopeHeadDim = int(*args.integer(QStringLiteral("rope-dim"), 0, kIntMax));
        const auto kvHeads = args.integer(QStringLiteral("kv-heads"), 1, kIntMax);
        m.attentionHeads = int(args.integer(QStringLiteral("heads"), 1, kIntMax).value_or(kvHeads.value_or(1)));
        m.kvHeads = int(kvHeads.value_or(m.attentionHeads));
        // The latent cache does not depend on the per-head size.
        m.headDim = int(args.integer(QStringLiteral("head-dim"), 1, kIntMax).value_or(1));
    } else {
        const QString gqaWhy = QStringLiteral("for a raw architecture without --mla-rank");
        m.kvHeads = int(requiredInteger(args, QStringLiteral("kv-heads"), 1, gqaWhy));
        m.headDim = int(requiredInteger(args, QStringLiteral("head-dim"), 1, gqaWhy));
        m.attentionHeads = int(args.integer(QStringLiteral("heads"), 1, kIntMax).value_or(m.kvHeads));
        m.attention = m.kvHeads == m.attentionHeads ? engine::AttentionKind::Mha
            : m.kvHeads == 1                        ? engine::AttentionKind::Mqa
                                                    : engine::AttentionKind::Gqa;
    }
    m.hiddenSize = m.attentionHeads * m.headDim;
    if (args.has(QStringLiteral("window"))) {
        m.slidingWindow = int(*args.integer(QStringLiteral("window"), 1, kIntMax));
        m.slidingLayers = int(*args.integer(QStringLiteral("sliding-layers"), 0, m.layers));
        if (m.slidingLayers == 0)
            m.slidingWindow = 0;
    }
    return m;
}

// What the analysis ran on, for the report.
struct KvSubject {
    engine::KvInputs inputs;
    bool catalogModel = false;
    std::optional<engine::GpuSpec> gpu;
    std::optional<engine::RuntimeMemory> profile; // the reserve, when vLLM's profile sets it
    std::optional<engine::ReserveOverride> measured; // the reserve, when the workspace keeps one for the deployment
};

KvSubject buildInputs(const Args &args, Context &context)
{
    if (!args.positionals().isEmpty()) {
        throw UsageError(QStringLiteral("kv takes no positional arguments, got '%1'")
                             .arg(args.positionals().constFirst()));
    }
    KvSubject s;
    engine::KvInputs &in = s.inputs;

    std::vector<qint64> contexts = args.integers(QStringLiteral("context"), 1,
                                                 std::numeric_limits<qint64>::max() / 2);
    const bool defaultContexts = contexts.empty();
    if (defaultContexts)
        contexts = {4096, 16384};

    QStringList architecture;
    for (const QString &name : kArchitectureFlags) {
        if (args.has(name))
            architecture << Args::flag(name);
    }
    if (const auto id = args.text(QStringLiteral("model"))) {
        if (!architecture.isEmpty()) {
            throw UsageError(QStringLiteral("--model cannot be combined with %1")
                                 .arg(architecture.join(QLatin1String(", "))));
        }
        in.model = findModel(context.workspace(), *id);
        s.catalogModel = true;
        if (defaultContexts && in.model.maxContext > 0)
            contexts.push_back(in.model.maxContext);
    } else if (architecture.isEmpty()) {
        throw UsageError(QStringLiteral("kv needs --model ID or a raw architecture "
                                        "(--layers, --kv-heads, --head-dim, --params)"));
    }
    std::sort(contexts.begin(), contexts.end());
    contexts.erase(std::unique(contexts.begin(), contexts.end()), contexts.end());
    in.contexts.assign(contexts.begin(), contexts.end());
    if (!s.catalogModel)
        in.model = rawModel(args, contexts.back());

    const auto gpuId = args.text(QStringLiteral("gpu"));
    const bool hasMemory = args.has(QStringLiteral("memory-gib"));
    if (gpuId && hasMemory)
        throw UsageError(QStringLiteral("give either --gpu or --memory-gib, not both"));
    if (gpuId) {
        s.gpu = findGpu(context.workspace(), *gpuId);
        in.gpuMemoryBytes = s.gpu->memoryBytes;
    } else if (hasMemory) {
        in.gpuMemoryBytes = gibToBytes(positiveNumber(args, QStringLiteral("memory-gib"), 0, false));
    } else {
        throw UsageError(QStringLiteral("kv needs --gpu ID or --memory-gib F"));
    }

    if (const auto text = args.text(QStringLiteral("weights"))) {
        const auto p = engine::parseWeightPrecision(text->toStdString());
        if (!p) {
            throw UsageError(QStringLiteral("--weights: unknown precision '%1'; expected "
                                            "bf16, fp16, fp8, int8 or int4").arg(*text));
        }
        in.weights = *p;
    }
    if (const auto text = args.text(QStringLiteral("kv-dtype"))) {
        const auto p = engine::parseKvPrecision(text->toStdString());
        if (!p) {
            throw UsageError(QStringLiteral("--kv-dtype: unknown precision '%1'; expected bf16 or fp8")
                                 .arg(*text));
        }
        in.kv = *p;
    }
    // Unset serving options come from the workspace's serving assumptions (`headroom serving`),
    // so `kv`, `size` and the pages agree on streams per replica for the same setup.
    const bool allServingGiven = args.has(QStringLiteral("util")) && args.has(QStringLiteral("block"))
        && args.has(QStringLiteral("reserve-gib"));
    const engine::ServingAssumptions serving =
        allServingGiven ? engine::ServingAssumptions{} : context.workspace().servingAssumptions();
    in.utilization = args.number(QStringLiteral("util")).value_or(serving.memoryUtilization);
    if (!(in.utilization > 0 && in.utilization <= 1)) {
        throw UsageError(QStringLiteral("--util: must be greater than 0 and at most 1, got %1")
                             .arg(formatDecimal(in.utilization, 6)));
    }
    in.tp = int(args.integer(QStringLiteral("tp"), 1, kIntMax).value_or(1));
    in.blockSize = int(args.integer(QStringLiteral("block"), 1, kIntMax).value_or(serving.blockSize));
    in.reserveBytes = args.has(QStringLiteral("reserve-gib"))
        ? gibToBytes(positiveNumber(args, QStringLiteral("reserve-gib"), 0, true))
        : serving.reserveBytes;
    // The workspace's reserve for this deployment — its measured one, else its mode — unless
    // --reserve-gib or --reserve-mode says otherwise.
    engine::ServingAssumptions effective = serving;
    if (const auto parsed = reserveModeOption(args)) {
        if (*parsed == engine::ReserveMode::VllmProfile && args.has(QStringLiteral("reserve-gib")))
            throw UsageError(QStringLiteral("give either --reserve-gib or --reserve-mode vllm_profile, not both"));
        effective.reserveMode = *parsed;
        effective.reserveOverrides.clear();
    }
    if (!args.has(QStringLiteral("reserve-gib"))) {
        if (effective.reserveMode == engine::ReserveMode::VllmProfile && (!s.catalogModel || in.model.hiddenSize < 1))
            throw UsageError(QStringLiteral("vLLM's profile reserve needs a catalog model (--model) for its hidden "
                                            "size and vocabulary; give --reserve-gib for a raw architecture"));
        engine::GpuSpec memoryOnly;
        memoryOnly.memoryBytes = in.gpuMemoryBytes;
        if (s.catalogModel || effective.reserveMode == engine::ReserveMode::VllmProfile) {
            const engine::RuntimeReserve reserve =
                engine::runtimeReserve(effective, in.model, s.gpu ? *s.gpu : memoryOnly, in.tp);
            in.reserveBytes = reserve.bytes;
            s.profile = reserve.profile;
            s.measured = reserve.measured;
        }
    }
    in.sharedPrefixTokens = args.integer(QStringLiteral("prefix-tokens"), 0,
                                         std::numeric_limits<qint64>::max() / 2).value_or(0);
    return s;
}

QString modelLabel(const KvSubject &s)
{
    const engine::ModelSpec &m = s.inputs.model;
    QString label = s.catalogModel
        ? QStringLiteral("%1 (%2)").arg(QString::fromStdString(m.id), QString::fromStdString(m.name))
        : QStringLiteral("custom");
    label += QStringLiteral(", %1, %2 layers, %3B params")
                 .arg(QString::fromStdString(std::string(engine::toString(m.attention))).toUpper())
                 .arg(m.layers)
                 .arg(formatDecimal(m.paramsTotal / 1e9, 2));
    return label;
}

QString gpuLabel(const KvSubject &s)
{
    const QString memory = formatGiB(s.inputs.gpuMemoryBytes);
    if (!s.gpu)
        return memory;
    return QStringLiteral("%1 (%2), %3").arg(QString::fromStdString(s.gpu->id),
                                             QString::fromStdString(s.gpu->name), memory);
}

// One sentence saying what limits concurrency, e.g. "memory-bound: 14 streams of 16,384
// tokens fit in 57.6 GiB of KV pool".
QString explanation(const engine::KvInputs &in, const engine::KvResult &r)
{
    if (!r.fits) {
        return QStringLiteral("does not fit: %1 need %2 more than the %3 usable")
            .arg(in.reserveBytes > 0 ? QStringLiteral("weights and reserve") : QStringLiteral("weights"),
                 formatGiB(r.shortfallBytes), formatGiB(r.usableBytes));
    }
    const auto best = std::find_if(r.streams.rbegin(), r.streams.rend(),
                                   [](const engine::StreamsAt &s) { return s.streams > 0; });
    if (best == r.streams.rend()) {
        const engine::StreamsAt &first = r.streams.front();
        return QStringLiteral("memory-bound: not one stream of %1 tokens (%2) fits in %3 of KV pool")
            .arg(formatInteger(first.context), formatBytes(first.bytesPerStream), formatGiB(r.poolBytes));
    }
    return QStringLiteral("memory-bound: %1 of %2 tokens %3 in %4 of KV pool")
        .arg(countOf(best->streams, QStringLiteral("stream"), QStringLiteral("streams")),
             formatInteger(best->context), best->streams == 1 ? QStringLiteral("fits") : QStringLiteral("fit"),
             formatGiB(r.poolBytes));
}

// The lever stack `--what-if` asks for, counted at the largest context of the table.
struct WhatIf {
    engine::KvLeverInputs inputs;
    std::vector<engine::KvLeverStep> steps;
};

std::optional<WhatIf> whatIf(const Args &args, const KvSubject &s)
{
    const auto text = args.text(QStringLiteral("what-if"));
    if (!text) {
        for (const char *name : {"streams", "price"}) {
            if (args.has(QLatin1String(name)))
                throw UsageError(QStringLiteral("--%1 goes with --what-if").arg(QLatin1String(name)));
        }
        return std::nullopt;
    }
    WhatIf w;
    w.inputs.replica = s.inputs;
    w.inputs.context = s.inputs.contexts.back();
    w.inputs.peakStreams = args.integer(QStringLiteral("streams"), 0, std::numeric_limits<qint64>::max() / 2).value_or(0);
    w.inputs.pricePerGpuHour = rateOption(args, QStringLiteral("price"), "USD", 1);
    try {
        w.steps = engine::kvLeverStack(w.inputs, engine::parseKvLevers(text->toStdString()));
    } catch (const engine::InputError &e) {
        if (e.field() != "what_if")
            throw;
        throw UsageError(QStringLiteral("--what-if: %1").arg(QString::fromStdString(e.what())));
    }
    return w;
}

QString factorText(double factor)
{
    return QStringLiteral("%1×").arg(formatDecimal(factor, 2));
}

void writeWhatIf(QTextStream &out, const WhatIf &w)
{
    const bool replicas = w.inputs.peakStreams > 0;
    const bool money = replicas && w.inputs.pricePerGpuHour;
    out << '\n'
        << QStringLiteral("what if, at %1 tokens a stream%2:")
               .arg(formatInteger(w.inputs.context),
                    replicas ? QStringLiteral(" and %1 concurrent streams").arg(formatInteger(w.inputs.peakStreams))
                             : QString())
        << '\n';
    std::vector<Table::Column> columns = {{QStringLiteral("step")},
                                          {QStringLiteral("KV B/token"), Table::Align::Right},
                                          {QStringLiteral("step ×"), Table::Align::Right},
                                          {QStringLiteral("total ×"), Table::Align::Right},
                                          {QStringLiteral("streams/replica"), Table::Align::Right}};
    if (replicas) {
        columns.push_back({QStringLiteral("replicas"), Table::Align::Right});
        columns.push_back({QStringLiteral("GPUs"), Table::Align::Right});
    }
    if (money)
        columns.push_back({QStringLiteral("per month"), Table::Align::Right});
    Table table(columns);
    for (const engine::KvLeverStep &step : w.steps) {
        QStringList row = {QString::fromStdString(step.label), formatDecimal(step.bytesPerToken, 1),
                           factorText(step.stepFactor), factorText(step.totalFactor),
                           formatInteger(step.streamsPerReplica)};
        if (replicas) {
            row << (step.replicas > 0 ? formatInteger(step.replicas) : QStringLiteral("none fits"))
                << (step.replicas > 0 ? formatInteger(step.gpus) : QStringLiteral("-"));
        }
        if (money)
            row << (step.monthlyCost ? moneyText(*step.monthlyCost) : QStringLiteral("-"));
        table.addRow(row);
    }
    table.write(out);
    out << QStringLiteral("weights, GPU, TP and pool as above; only the KV cache changes") << '\n';
}

QJsonArray whatIfJson(const WhatIf &w)
{
    QJsonArray steps;
    for (const engine::KvLeverStep &step : w.steps) {
        steps.append(QJsonObject{{QStringLiteral("step"), QString::fromStdString(step.label)},
                                 {QStringLiteral("kv_bytes_per_token"), step.bytesPerToken},
                                 {QStringLiteral("step_factor"), step.stepFactor},
                                 {QStringLiteral("total_factor"), step.totalFactor},
                                 {QStringLiteral("streams_per_replica"), qint64(step.streamsPerReplica)},
                                 {QStringLiteral("replicas"), qint64(step.replicas)},
                                 {QStringLiteral("gpus"), qint64(step.gpus)},
                                 {QStringLiteral("monthly_cost"), step.monthlyCost ? QJsonValue(QString::fromStdString(step.monthlyCost->cents()))
                                                                                  : QJsonValue(QJsonValue::Null)}});
    }
    return steps;
}

// `--vllm-log`: the log and the deployment's analysis held against it.
struct LogCheck {
    QString path;
    engine::VllmStartupLog log;
    engine::VllmLogComparison comparison;
};

// Bytes in GiB to two decimals, as vLLM logs them: "53.29 GiB".
QString gib2(int64_t bytes)
{
    return QStringLiteral("%1 GiB").arg(formatDecimal(double(bytes) / double(engine::kGiB), 2, true));
}

QString signedPercent(double share)
{
    return QStringLiteral("%1%2 %").arg(share >= 0 ? QStringLiteral("+") : QString(), formatDecimal(share * 100, 1));
}

std::optional<LogCheck> logCheck(const Args &args, KvSubject &s)
{
    const auto path = args.text(QStringLiteral("vllm-log"));
    if (!path)
        return std::nullopt;
    LogCheck check;
    check.path = *path;
    check.log = store::readVllmStartupLog(*path);
    // The deployment as the log ran it: its utilization, unless --util says otherwise.
    if (check.log.utilization && !args.has(QStringLiteral("util"))) {
        if (!(*check.log.utilization > 0 && *check.log.utilization <= 1))
            throw UsageError(QStringLiteral("--vllm-log: the log's gpu_memory_utilization %1 is not in (0, 1]")
                                 .arg(formatDecimal(*check.log.utilization, 4)));
        s.inputs.utilization = *check.log.utilization;
    }
    try {
        check.comparison = engine::compareWithLog(s.inputs, check.log);
    } catch (const engine::InputError &e) {
        if (e.field() != "log")
            throw;
        throw UsageError(QStringLiteral("--vllm-log %1: %2").arg(*path, QString::fromStdString(e.what())));
    }
    return check;
}

void writeLogCheck(QTextStream &out, const LogCheck &c, const engine::KvInputs &in, bool saved)
{
    const engine::VllmLogComparison &v = c.comparison;
    std::vector<std::pair<QString, QString>> fields;
    fields.emplace_back(QStringLiteral("vLLM log"), c.path);
    if (c.log.weightsGiB) {
        fields.emplace_back(QStringLiteral("weights"),
                            QStringLiteral("logged %1 GiB, analysis %2 (%3)")
                                .arg(formatDecimal(*c.log.weightsGiB, 2, true), gib2(v.predictedWeightsBytes),
                                     v.weightsErrorShare ? signedPercent(*v.weightsErrorShare) : QString()));
    }
    fields.emplace_back(QStringLiteral("KV cache"),
                        QStringLiteral("logged %1%2, analysis %3 with a %4 reserve (%5)")
                            .arg(gib2(v.loggedKvBytes),
                                 v.kvFromTokens ? QStringLiteral(" (from its token count)") : QString(),
                                 gib2(v.predictedKvBytes), gib2(in.reserveBytes), signedPercent(v.kvErrorShare)));
    fields.emplace_back(QStringLiteral("KV tokens"),
                        QStringLiteral("logged %1, analysis %2")
                            .arg(v.loggedTokens ? formatInteger(*v.loggedTokens) : QStringLiteral("-"),
                                 formatInteger(v.predictedTokens)));
    if (c.log.nonTorchGiB || c.log.activationPeakGiB) {
        fields.emplace_back(QStringLiteral("logged runtime"),
                            QStringLiteral("non-torch %1 GiB, activation peak %2 GiB")
                                .arg(c.log.nonTorchGiB ? formatDecimal(*c.log.nonTorchGiB, 2, true) : QStringLiteral("-"),
                                     c.log.activationPeakGiB ? formatDecimal(*c.log.activationPeakGiB, 2, true)
                                                             : QStringLiteral("-")));
    }
    writeFields(out, fields);
    if (v.impliedReserveBytes < 0) {
        out << QStringLiteral("vLLM kept %1 more KV cache than the analysis has room for: check the GPU, --tp, "
                              "--weights and --util against the deployment")
                   .arg(formatGiB(-v.impliedReserveBytes))
            << '\n';
        return;
    }
    // GiB to six decimals is within a KiB, well inside one block.
    const QString reserve = QString::number(double(v.impliedReserveBytes) / double(engine::kGiB), 'f', 6);
    if (saved)
        out << QStringLiteral("kept a reserve of %1 GiB per GPU for this deployment in the workspace (headroom serving "
                              "show lists it)")
                   .arg(reserve)
            << '\n';
    else
        out << QStringLiteral("a reserve of %1 GiB per GPU makes the analysis hold the logged KV cache (add --save to "
                              "keep it for this deployment only; for all): headroom serving set --reserve-gib %1")
                   .arg(reserve)
            << '\n';
}

QJsonObject logCheckJson(const LogCheck &c)
{
    const engine::VllmLogComparison &v = c.comparison;
    const auto optional = [](const auto &value) { return value ? QJsonValue(double(*value)) : QJsonValue(QJsonValue::Null); };
    return {{QStringLiteral("file"), c.path},
            {QStringLiteral("logged_weights_gib"), optional(c.log.weightsGiB)},
            {QStringLiteral("logged_kv_bytes"), qint64(v.loggedKvBytes)},
            {QStringLiteral("kv_from_tokens"), v.kvFromTokens},
            {QStringLiteral("logged_kv_tokens"), v.loggedTokens ? QJsonValue(qint64(*v.loggedTokens)) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("predicted_kv_bytes"), qint64(v.predictedKvBytes)},
            {QStringLiteral("predicted_kv_tokens"), qint64(v.predictedTokens)},
            {QStringLiteral("kv_error_share"), v.kvErrorShare},
            {QStringLiteral("weights_error_share"), optional(v.weightsErrorShare)},
            {QStringLiteral("implied_reserve_bytes"), qint64(v.impliedReserveBytes)}};
}

void writeTable(QTextStream &out, const KvSubject &s, const engine::KvResult &r)
{
    const engine::KvInputs &in = s.inputs;
    QString perToken = QStringLiteral("%1 B (%2 KiB)")
                           .arg(formatInteger(r.kvBytesPerToken),
                                QString::number(double(r.kvBytesPerToken) / double(engine::kKiB), 'f', 1));
    if (r.perToken.slidingLayers > 0) {
        perToken += QStringLiteral("; sliding-window layers hold at most %1 tokens")
                        .arg(formatInteger(r.perToken.window));
    }
    if (r.perToken.chunkedLayers > 0)
        perToken += QStringLiteral("; chunked layers hold at most one %1-token chunk").arg(formatInteger(r.perToken.chunk));
    if (r.perToken.stateBytes > 0)
        perToken += QStringLiteral("; plus %1 of linear-layer state per stream").arg(formatBytes(r.perToken.stateBytes));
    std::vector<std::pair<QString, QString>> fields = {
        {QStringLiteral("model"), modelLabel(s)},
        {QStringLiteral("GPU"), gpuLabel(s)},
        {QStringLiteral("precision"),
         QStringLiteral("weights %1, KV %2, TP %3")
             .arg(QString::fromStdString(std::string(engine::toString(in.weights))),
                  QString::fromStdString(std::string(engine::toString(in.kv))))
             .arg(in.tp)},
        {QStringLiteral("KV per token"), perToken},
        {QStringLiteral("weights"), formatGiB(r.weightsBytes) + QStringLiteral(" per GPU")},
        {QStringLiteral("usable"), QStringLiteral("%1 (%2 % of memory)")
                                       .arg(formatGiB(r.usableBytes), formatDecimal(in.utilization * 100, 2))},
    };
    if (s.measured)
        fields.emplace_back(QStringLiteral("reserve"), QStringLiteral("%1 measured for this deployment (%2)")
                                                           .arg(formatGiB(in.reserveBytes),
                                                                QString::fromStdString(s.measured->source)));
    else if (s.profile)
        fields.emplace_back(QStringLiteral("reserve"),
                            QStringLiteral("%1 (vLLM's profile): activation peak %2 (%3 tokens, %4 sequences) + "
                                           "non-torch %5")
                                .arg(formatGiB(in.reserveBytes), formatGiB(s.profile->activationPeakBytes),
                                     formatInteger(s.profile->maxBatchedTokens), formatInteger(s.profile->maxSeqs),
                                     formatGiB(s.profile->nonTorchBytes)));
    else if (in.reserveBytes > 0)
        fields.emplace_back(QStringLiteral("reserve"), formatGiB(in.reserveBytes));
    fields.emplace_back(QStringLiteral("KV pool"), formatGiB(r.poolBytes));
    if (r.prefixBytes > 0) {
        fields.emplace_back(QStringLiteral("shared prefix"),
                            QStringLiteral("%1 tokens held once (%2)")
                                .arg(formatInteger(r.prefixTokens), formatBytes(r.prefixBytes)));
    }
    fields.emplace_back(QStringLiteral("blocks"), QStringLiteral("%1 of %2 tokens (%3 each)")
                                                      .arg(formatInteger(r.blocks), formatInteger(r.blockSize),
                                                           formatBytes(r.blockBytes)));
    writeFields(out, fields);
    out << '\n';

    const auto beyondMax = [&](const engine::StreamsAt &at) {
        return s.catalogModel && in.model.maxContext > 0 && at.context > in.model.maxContext;
    };
    const bool anyBeyond = std::any_of(r.streams.begin(), r.streams.end(), beyondMax);
    std::vector<Table::Column> columns = {{QStringLiteral("context"), Table::Align::Right},
                                          {QStringLiteral("streams"), Table::Align::Right},
                                          {QStringLiteral("bytes per stream"), Table::Align::Right}};
    if (anyBeyond)
        columns.push_back({QStringLiteral("note")});
    Table table(columns);
    for (const engine::StreamsAt &at : r.streams) {
        table.addRow({formatInteger(at.context), formatInteger(at.streams), formatBytes(at.bytesPerStream),
                      beyondMax(at) ? QStringLiteral("beyond max context %1").arg(formatInteger(in.model.maxContext))
                                    : QString()});
    }
    table.write(out);
    out << '\n' << explanation(in, r) << '\n';
}

QJsonObject toJson(const KvSubject &s, const engine::KvResult &r)
{
    const engine::KvInputs &in = s.inputs;
    QJsonArray streams;
    for (const engine::StreamsAt &at : r.streams) {
        streams.append(QJsonObject{{QStringLiteral("context"), qint64(at.context)},
                                   {QStringLiteral("streams"), qint64(at.streams)},
                                   {QStringLiteral("bytes_per_stream"), qint64(at.bytesPerStream)}});
    }
    return QJsonObject{
        {QStringLiteral("model"), s.catalogModel ? QJsonValue(QString::fromStdString(in.model.id))
                                                 : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("gpu"), s.gpu ? QJsonValue(QString::fromStdString(s.gpu->id))
                                      : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("memory_bytes"), qint64(in.gpuMemoryBytes)},
        {QStringLiteral("weights"), QString::fromStdString(std::string(engine::toString(in.weights)))},
        {QStringLiteral("kv_dtype"), QString::fromStdString(std::string(engine::toString(in.kv)))},
        {QStringLiteral("tp"), in.tp},
        {QStringLiteral("util"), in.utilization},
        {QStringLiteral("kv_bytes_per_token"), qint64(r.kvBytesPerToken)},
        {QStringLiteral("state_bytes_per_stream"), qint64(r.perToken.stateBytes)},
        {QStringLiteral("weights_bytes"), qint64(r.weightsBytes)},
        {QStringLiteral("usable_bytes"), qint64(r.usableBytes)},
        {QStringLiteral("reserve_bytes"), qint64(in.reserveBytes)},
        {QStringLiteral("reserve_mode"), s.measured ? QStringLiteral("measured")
                                         : s.profile ? QStringLiteral("vllm_profile")
                                                     : QStringLiteral("flat")},
        {QStringLiteral("activation_peak_bytes"),
         s.profile ? QJsonValue(qint64(s.profile->activationPeakBytes)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("non_torch_bytes"),
         s.profile ? QJsonValue(qint64(s.profile->nonTorchBytes)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("pool_bytes"), qint64(r.poolBytes)},
        {QStringLiteral("fits"), r.fits},
        {QStringLiteral("shortfall_bytes"), qint64(r.shortfallBytes)},
        {QStringLiteral("block_size"), r.blockSize},
        {QStringLiteral("block_bytes"), qint64(r.blockBytes)},
        {QStringLiteral("blocks"), qint64(r.blocks)},
        {QStringLiteral("prefix_bytes"), qint64(r.prefixBytes)},
        {QStringLiteral("streams"), streams},
        {QStringLiteral("explanation"), explanation(in, r)},
    };
}

int runKv(const QStringList &argv, Context &context)
{
    const Args args(argv, options());
    KvSubject subject = buildInputs(args, context);
    const std::optional<LogCheck> logged = logCheck(args, subject);
    if (args.has(QStringLiteral("save"))) {
        if (!logged)
            throw UsageError(QStringLiteral("--save keeps the reserve of a --vllm-log FILE"));
        if (!subject.catalogModel || !subject.gpu)
            throw UsageError(QStringLiteral("--save needs the deployment from the catalog: --model and --gpu"));
        if (logged->comparison.impliedReserveBytes < 0)
            throw UsageError(QStringLiteral("--save: vLLM kept more KV cache than the analysis has room for; nothing saved "
                                            "(check the GPU, --tp, --weights and --util against the deployment)"));
        engine::ReserveOverride measured;
        measured.modelId = subject.inputs.model.id;
        measured.gpuId = subject.gpu->id;
        measured.tp = subject.inputs.tp;
        measured.reserveBytes = logged->comparison.impliedReserveBytes;
        measured.source = QStringLiteral("vLLM log %1").arg(QFileInfo(logged->path).fileName()).toStdString();
        context.workspace().updateServingAssumptions(
            [&](const engine::ServingAssumptions &stored) { return engine::withReserveOverride(stored, measured); });
    }
    engine::KvResult result;
    try {
        result = engine::analyseKv(subject.inputs);
    } catch (const engine::InputError &e) {
        // Name the flag that sets the field; a catalog model's fields are not flags.
        const QString flag = flagForField(e.field());
        const bool fromFlags = !subject.catalogModel || !isModelField(e.field());
        if (flag.isEmpty() || !fromFlags)
            throw;
        throw UsageError(QStringLiteral("%1 (%2)").arg(QString::fromStdString(e.what()), flag));
    }
    const std::optional<WhatIf> levers = whatIf(args, subject);
    if (args.has(QStringLiteral("json"))) {
        QJsonObject json = toJson(subject, result);
        if (levers) {
            json.insert(QStringLiteral("what_if_context"), qint64(levers->inputs.context));
            json.insert(QStringLiteral("what_if"), whatIfJson(*levers));
        }
        if (logged) {
            QJsonObject check = logCheckJson(*logged);
            check.insert(QStringLiteral("saved"), args.has(QStringLiteral("save")));
            json.insert(QStringLiteral("vllm_log"), check);
        }
        context.out() << jsonText(json);
    } else {
        writeTable(context.out(), subject, result);
        if (levers)
            writeWhatIf(context.out(), *levers);
        if (logged) {
            context.out() << '\n';
            writeLogCheck(context.out(), *logged, subject.inputs, args.has(QStringLiteral("save")));
        }
    }
    return 0;
}

} // namespace

Command kvCommand()
{
    return {QStringLiteral("kv"),
            QStringLiteral("KV cache per token, KV pool and concurrent streams per context"),
            QString::fromUtf8(kUsage), &runKv};
}

} // namespace headroom::cli
