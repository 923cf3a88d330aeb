#include "traincommand.h"
#include "trainclustercommand.h"
#include "traingoodputcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/catalog/lookup.h"

#include "engine/training/training.h"
#include "store/common/workspace.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>
#include <optional>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom train (--params N | --model ID) --tokens N (--gpus N | --days F)
                      (--tflops-per-gpu F | --mfu F) [options]

Training sizing (DESIGN §3.3): the layout (tp, pp, ep, ZeRO stage, recomputation) is
searched where not given: every layout whose memory fits, those keeping every GPU computing
first, ranked by the modelled step (compute, gradient reduce, tensor-parallel all-reduces,
expert all-to-all, pipeline bubble); the five fastest are listed. Total FLOPs 6·N·D (8·N·D with full activation
recomputation); days for a GPU count, or the fewest GPUs finishing within a window;
memory per GPU for mixed-precision Adam under the ZeRO stage (16Ψ unsharded; ZeRO-1
4Ψ + 12Ψ/N, ZeRO-2 2Ψ + 14Ψ/N, ZeRO-3 16Ψ/N, Ψ = params ÷ (tp·pp), N = data-parallel
degree) plus activations, and the fewest GPUs whose memory holds it. With --mfu the rate
is peak BF16 × MFU, lengthened by data-parallel gradient traffic, tensor-parallel traffic
and the pipeline bubble; with --tflops-per-gpu the rate is taken as measured.

MODEL, one of:
  --params N              parameter count, e.g. 70e9 (architecture estimated from it)
  --model ID              a model from the workspace catalog (--params overrides its count)
  --tokens N              training tokens, e.g. 1.4e12
TARGET, one of:
  --gpus N                days on this many GPUs
  --days F                fewest GPUs finishing within F days
RATE, one of:
  --tflops-per-gpu F      achieved dense TFLOP/s per GPU, as measured (no overhead added),
                          counting every FLOP executed, recomputation included (Megatron-LM)
  --model-tflops-per-gpu F
                          achieved TFLOP/s of model FLOPs (6·N per token, as MFU is reported):
                          recomputation is inside the measurement
  --mfu F                 model FLOPs utilization, (0, 1], before communication; the plan
                          shows the step breakdown and the MFU after communication
Options:
  --gpu ID                GPU from the workspace catalog (default h100-sxm)
  --attention K           flash|eager attention kernel (default flash: no s² scores kept)
  --recompute [R]         none|selective|full activation recomputation (default: searched
                          with the layout, none when the layout is given; bare --recompute =
                          full, 8·N·D with layer inputs only kept)
  --micro-batch N         sequences per GPU per forward pass (default: the largest that fits,
                          gradient accumulation makes up the rest of the batch; 1 with --pp > 1)
  --vocab N               vocabulary size for the fp32 logits (default 128256)
  --zero S                ZeRO stage 0, 1, 2 or 3 (default: searched)
  --tp N                  tensor-parallel degree (default: searched, within the NVLink
                          domain); tp > 1 takes whole nodes
  --pp N                  pipeline-parallel degree (default: searched, up to the layers)
  --virtual-stages N      interleaved pipeline chunks per GPU: bubble (pp − 1) ÷ (v·m) for v
                          times the stage-to-stage sends (default: searched; 1 without pp)
  --ep N                  expert-parallel degree of a mixture of experts (default: searched
                          for a catalog MoE model with expert counts, else 1)
  --seq-len N             tokens per sequence (default 4096)
  --global-batch-tokens N tokens per optimizer step (default: follows the fleet, 4 Mi tokens
                          raised until every replica is fed, at most the ceiling)
  --max-batch-tokens N    ceiling of the batch that follows the fleet (default 16777216)
  --inter-node LINK       infiniband|roce|ethernet between nodes (default infiniband)
  --json                  print JSON instead of a table

JSON keys: total_flops, days, gpus, gpu_hours, memory_per_gpu_bytes, min_gpus_for_memory,
and gpus_node_rounded, nodes, memory_fits, efficiency, implied_mfu, gpu, tp, pp, ep, dp, virtual_stages,
zero_stage, attention, recompute, global_batch_tokens, batch_follows_fleet, micro_batch,
grad_accumulation_steps, activations_bytes, layout_searched, layouts (the search's five
fastest: tp, pp, ep, dp, zero_stage, recompute, global_batch_tokens, computing_gpus, days,
modelled_days, memory_per_gpu_bytes, activations_bytes, step_seconds and its parts),
warnings, explanation.
gpu_hours are paid on whole nodes when tp > 1 (gpus_node_rounded × days × 24).
)";

constexpr qint64 kMaxDegree = 4096;
constexpr qint64 kMaxGpus = 1'000'000;
constexpr qint64 kMaxSeqLen = 16'777'216;

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> specs;
    for (const char *name : {"params", "model", "tokens", "gpus", "days", "tflops-per-gpu", "model-tflops-per-gpu", "mfu",
                             "gpu", "zero", "tp", "pp", "ep", "virtual-stages", "seq-len", "global-batch-tokens", "max-batch-tokens",
                             "inter-node", "attention", "recompute", "micro-batch", "vocab"})
        specs.push_back({QLatin1String(name)});
    specs.push_back({QStringLiteral("json"), false});
    return specs;
}

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

// One of two flags that exclude each other; exactly one must be given.
QString exactlyOne(const Args &args, const char *first, const char *second)
{
    const bool a = args.has(QLatin1String(first));
    const bool b = args.has(QLatin1String(second));
    if (a && b)
        throw UsageError(QStringLiteral("give either --%1 or --%2, not both").arg(QLatin1String(first), QLatin1String(second)));
    if (!a && !b)
        throw UsageError(QStringLiteral("train needs --%1 or --%2").arg(QLatin1String(first), QLatin1String(second)));
    return QLatin1String(a ? first : second);
}

// The job from the flags, checked before the workspace is opened.
engine::TrainingJob buildJob(const Args &args)
{
    if (!args.positionals().isEmpty()) {
        throw UsageError(QStringLiteral("train takes no positional arguments, got '%1'")
                             .arg(args.positionals().constFirst()));
    }
    engine::TrainingJob job;
    job.name = "train";
    if (const auto model = args.text(QStringLiteral("model")))
        job.modelId = model->toStdString();
    if (const auto params = args.number(QStringLiteral("params")))
        job.params = *params;
    else if (job.modelId.empty())
        throw UsageError(QStringLiteral("train needs --params N or --model ID"));
    const auto tokens = args.number(QStringLiteral("tokens"));
    if (!tokens)
        throw UsageError(QStringLiteral("train needs --tokens N"));
    job.tokens = *tokens;

    if (exactlyOne(args, "gpus", "days") == QLatin1String("gpus")) {
        job.target = engine::TrainingTarget::GpuCount;
        job.targetValue = double(*args.integer(QStringLiteral("gpus"), 1, kMaxGpus));
    } else {
        job.target = engine::TrainingTarget::WindowDays;
        job.targetValue = *args.number(QStringLiteral("days"));
        if (!(job.targetValue > 0))
            throw UsageError(QStringLiteral("--days: must be greater than 0, got %1").arg(job.targetValue));
    }
    const int rates = int(args.has(QStringLiteral("tflops-per-gpu"))) + int(args.has(QStringLiteral("mfu")))
                      + int(args.has(QStringLiteral("model-tflops-per-gpu")));
    if (rates > 1)
        throw UsageError(QStringLiteral("give one of --tflops-per-gpu, --model-tflops-per-gpu or --mfu"));
    if (rates == 0)
        throw UsageError(QStringLiteral("train needs --tflops-per-gpu or --mfu (or --model-tflops-per-gpu)"));
    if (args.has(QStringLiteral("mfu"))) {
        job.throughputBasis = engine::ThroughputBasis::Mfu;
        job.throughput = *args.number(QStringLiteral("mfu"));
        if (!(job.throughput > 0 && job.throughput <= 1))
            throw UsageError(QStringLiteral("--mfu: must be greater than 0 and at most 1, got %1").arg(job.throughput));
    } else {
        const bool model = args.has(QStringLiteral("model-tflops-per-gpu"));
        const QString flag = model ? QStringLiteral("model-tflops-per-gpu") : QStringLiteral("tflops-per-gpu");
        job.throughputBasis = model ? engine::ThroughputBasis::AchievedModelTflops
                                    : engine::ThroughputBasis::AchievedTflops;
        job.throughput = *args.number(flag);
        if (!(job.throughput > 0))
            throw UsageError(QStringLiteral("--%1: must be greater than 0, got %2").arg(flag).arg(job.throughput));
    }
    if (const auto kernel = args.text(QStringLiteral("attention"))) {
        const auto parsed = engine::parseAttentionKernel(kernel->toLower().toStdString());
        if (!parsed)
            throw UsageError(QStringLiteral("--attention: unknown kernel '%1'; expected flash or eager").arg(*kernel));
        job.attention = *parsed;
    }
    if (const auto recompute = args.text(QStringLiteral("recompute"))) {
        const auto parsed = engine::parseRecomputation(recompute->toLower().toStdString());
        if (!parsed) {
            throw UsageError(QStringLiteral("--recompute: unknown recomputation '%1'; expected none, selective or full")
                                 .arg(*recompute));
        }
        job.recompute = *parsed;
        job.recomputeFixed = true;
    }
    job.microBatch = int(args.integer(QStringLiteral("micro-batch"), 1, kMaxSeqLen).value_or(0));
    job.vocabSize = int(args.integer(QStringLiteral("vocab"), 1, kMaxSeqLen).value_or(0));
    // Not given: searched (0; ZeRO −1).
    job.zeroStage = int(args.integer(QStringLiteral("zero"), 0, 3).value_or(-1));
    job.tp = int(args.integer(QStringLiteral("tp"), 1, kMaxDegree).value_or(0));
    job.pp = int(args.integer(QStringLiteral("pp"), 1, kMaxDegree).value_or(0));
    job.ep = int(args.integer(QStringLiteral("ep"), 1, kMaxDegree).value_or(0));
    job.virtualStages = int(args.integer(QStringLiteral("virtual-stages"), 1, kMaxDegree).value_or(0));
    job.seqLen = int(args.integer(QStringLiteral("seq-len"), 1, kMaxSeqLen).value_or(job.seqLen));
    job.globalBatchTokens = 0;
    if (const auto batch = args.number(QStringLiteral("global-batch-tokens"))) {
        if (!(*batch > 0))
            throw UsageError(QStringLiteral("--global-batch-tokens: must be greater than 0, got %1").arg(*batch));
        job.globalBatchTokens = *batch;
    }
    if (const auto ceiling = args.number(QStringLiteral("max-batch-tokens"))) {
        if (!(*ceiling > 0))
            throw UsageError(QStringLiteral("--max-batch-tokens: must be greater than 0, got %1").arg(*ceiling));
        job.maxBatchTokens = *ceiling;
    }
    if (const auto link = args.text(QStringLiteral("inter-node"))) {
        const auto parsed = engine::parseInterNodeLink(link->toLower().toStdString());
        if (!parsed) {
            throw UsageError(QStringLiteral("--inter-node: unknown link '%1'; expected infiniband, roce or ethernet")
                                 .arg(*link));
        }
        job.interNode = *parsed;
    }
    job.gpuId = args.text(QStringLiteral("gpu")).value_or(QStringLiteral("h100-sxm")).toStdString();
    // Flag names in the messages, before the workspace is touched.
    const std::vector<engine::FieldProblem> problems = engine::validate(job);
    if (!problems.empty()) {
        const engine::FieldProblem &p = problems.front();
        const QString field = qs(p.field);
        QString flag = field;
        if (field == QLatin1String("seq_len"))
            flag = QStringLiteral("seq-len");
        else if (field == QLatin1String("micro_batch"))
            flag = QStringLiteral("micro-batch");
        else if (field == QLatin1String("vocab_size"))
            flag = QStringLiteral("vocab");
        else if (field == QLatin1String("global_batch_tokens"))
            flag = QStringLiteral("global-batch-tokens");
        else if (field == QLatin1String("virtual_stages"))
            flag = QStringLiteral("virtual-stages");
        else if (field == QLatin1String("max_batch_tokens"))
            flag = QStringLiteral("max-batch-tokens");
        else if (field == QLatin1String("zero_stage"))
            flag = QStringLiteral("zero");
        else if (field == QLatin1String("target_value"))
            flag = job.target == engine::TrainingTarget::GpuCount ? QStringLiteral("gpus") : QStringLiteral("days");
        else if (field == QLatin1String("throughput"))
            flag = job.throughputBasis == engine::ThroughputBasis::Mfu ? QStringLiteral("mfu")
                   : job.throughputBasis == engine::ThroughputBasis::AchievedModelTflops
                       ? QStringLiteral("model-tflops-per-gpu")
                       : QStringLiteral("tflops-per-gpu");
        throw UsageError(QStringLiteral("--%1: %2").arg(flag, qs(p.message)));
    }
    return job;
}

QString scientific(double value)
{
    if (value <= 0 || !std::isfinite(value))
        return formatDecimal(value, 2);
    const int exponent = int(std::floor(std::log10(value)));
    if (exponent < 6)
        return formatDecimal(value, 2);
    return QStringLiteral("%1 × 10^%2").arg(QString::number(value / std::pow(10.0, exponent), 'f', 2)).arg(exponent);
}

// Counts as "70 billion", "1.4 trillion".
QString quantityText(double value)
{
    if (value >= 1e12)
        return formatDecimal(value / 1e12, 2) + QStringLiteral(" trillion");
    if (value >= 1e9)
        return formatDecimal(value / 1e9, 2) + QStringLiteral(" billion");
    if (value >= 1e6)
        return formatDecimal(value / 1e6, 2) + QStringLiteral(" million");
    return formatDecimal(value, 0);
}

QString bytesText(double bytes)
{
    return formatBytes(qint64(std::llround(bytes)));
}

void writeTable(QTextStream &out, const engine::TrainingJob &job, const engine::GpuSpec &gpu,
                const engine::TrainingPlan &plan)
{
    const engine::MemoryBreakdown &m = plan.memory;
    QString target = job.target == engine::TrainingTarget::WindowDays
        ? QStringLiteral("fewest GPUs finishing within %1 days").arg(formatDecimal(job.targetValue, 2))
        : QStringLiteral("days on %1 GPUs").arg(formatInteger(qint64(job.targetValue)));
    QString rate;
    if (job.throughputBasis == engine::ThroughputBasis::AchievedTflops)
        rate = QStringLiteral("%1 TFLOP/s per GPU, as measured").arg(formatDecimal(job.throughput, 1));
    else if (job.throughputBasis == engine::ThroughputBasis::AchievedModelTflops)
        rate = QStringLiteral("%1 TFLOP/s of model FLOPs per GPU, as measured (MFU %2 %)")
                   .arg(formatDecimal(job.throughput, 1), formatDecimal(plan.impliedMfu * 100, 1));
    else
        rate = QStringLiteral("%1 TFLOP/s per GPU (peak %2 × MFU %3 × communication efficiency %4 % = MFU %5 %)")
                   .arg(formatDecimal(plan.effectiveTflopsPerGpu, 1), formatDecimal(gpu.bf16Tflops, 0),
                        formatDecimal(job.throughput, 3), formatDecimal(plan.comm.efficiency * 100, 1),
                        formatDecimal(plan.impliedMfu * 100, 1));
    const engine::TrainingLayout &layout = plan.layout;
    QString gpus = formatInteger(plan.gpusRaw);
    if (plan.nodeRounded && plan.gpusNodeRounded != plan.gpusRaw)
        gpus += QStringLiteral(" → %1 on %2 whole nodes of %3 (tp > 1 keeps NVLink inside a node)")
                    .arg(formatInteger(plan.gpusNodeRounded), formatInteger(plan.nodes))
                    .arg(gpu.gpusPerNode);
    else if (plan.nodeRounded)
        gpus += QStringLiteral(" on %1 whole nodes of %2 (tp > 1 keeps NVLink inside a node)")
                    .arg(formatInteger(plan.nodes))
                    .arg(gpu.gpusPerNode);
    else
        gpus += QStringLiteral(" on %1 nodes of %2").arg(formatInteger(plan.nodes)).arg(gpu.gpusPerNode);
    if (plan.gpus != plan.gpusRaw)
        gpus += QStringLiteral("; %1 compute").arg(formatInteger(plan.gpus));

    std::vector<std::pair<QString, QString>> fields = {
        {QStringLiteral("model"), QStringLiteral("%1 parameters, %2 tokens%3")
                                      .arg(quantityText(plan.params), quantityText(plan.tokens),
                                           QStringLiteral(", %1 attention, recomputation %2")
                                               .arg(qs(std::string(engine::toString(job.attention))),
                                                    qs(std::string(engine::toString(plan.layout.recompute)))))},
        {QStringLiteral("layout"), QStringLiteral("%1, tp %2 × pp %3%4 × dp %5, ZeRO-%6, recomputation %7%8")
                                       .arg(qs(gpu.id))
                                       .arg(layout.tp)
                                       .arg(layout.virtualStages > 1
                                                ? QStringLiteral("%1 (%2 interleaved chunks per GPU)")
                                                      .arg(layout.pp)
                                                      .arg(layout.virtualStages)
                                                : QString::number(layout.pp))
                                       .arg(layout.ep > 1 ? QStringLiteral(" × ep %1").arg(layout.ep) : QString())
                                       .arg(plan.dataParallel)
                                       .arg(layout.zeroStage)
                                       .arg(qs(std::string(engine::toString(layout.recompute))),
                                            plan.searched ? QStringLiteral(" (searched: %1 layouts tried, %2 fit)")
                                                                .arg(formatInteger(plan.layoutsEvaluated),
                                                                     formatInteger(plan.layoutsFitting))
                                                          : QString())},
        {QStringLiteral("batch"), QStringLiteral("%1 tokens per step%2")
                                      .arg(formatInteger(qint64(std::llround(layout.globalBatchTokens))),
                                           plan.batchFollowsFleet ? QStringLiteral(" (follows the fleet)") : QString())},
        {QStringLiteral("target"), target},
        {QStringLiteral("total compute"), scientific(plan.totalFlops) + QStringLiteral(" FLOPs")},
        {QStringLiteral("rate"), rate},
        {QStringLiteral("GPUs"), gpus},
        {QStringLiteral("days"), formatDecimal(plan.days, 2) + QStringLiteral(" days")},
        {QStringLiteral("GPU-hours"), formatDecimal(plan.gpuHours, 0) + QStringLiteral(" GPU-hours")},
        {QStringLiteral("memory per GPU"),
         QStringLiteral("%1 of %2 usable%3: weights %4, gradients %5, optimizer %6, activations %7")
             .arg(bytesText(m.totalBytes()), bytesText(double(plan.usableMemoryBytes)),
                  m.fits ? QString() : QStringLiteral(" — does not fit"), bytesText(m.weightsBytes),
                  bytesText(m.gradientsBytes), bytesText(m.optimizerBytes), bytesText(m.activationsBytes))},
        {QStringLiteral("micro-batch"), QStringLiteral("%1 sequences, %2 gradient-accumulation steps")
                                            .arg(formatInteger(plan.microBatch), formatInteger(plan.gradAccumulationSteps))},
        {QStringLiteral("min GPUs (memory)"), formatInteger(plan.minGpusForMemory)},
    };
    writeFields(out, fields);
    for (const std::string &warning : plan.warnings)
        out << "\nwarning: " << qs(warning) << '\n';
    if (!plan.layouts.empty()) {
        out << "\nfastest layouts (modelled step; every one fits memory):\n";
        out << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9\n")
                   .arg(QStringLiteral("tp"), 3)
                   .arg(QStringLiteral("pp×v"), 6)
                   .arg(QStringLiteral("ep"), 4)
                   .arg(QStringLiteral("dp"), 6)
                   .arg(QStringLiteral("ZeRO"), 5)
                   .arg(QStringLiteral("recompute"), -10)
                   .arg(QStringLiteral("memory/GPU"), 11)
                   .arg(QStringLiteral("step s"), 9)
                   .arg(QStringLiteral("days"), 9);
        for (const engine::LayoutCandidate &c : plan.layouts) {
            out << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7 %8 %9\n")
                       .arg(c.layout.tp, 3)
                       .arg(c.layout.virtualStages > 1 ? QStringLiteral("%1×%2").arg(c.layout.pp).arg(c.layout.virtualStages)
                                                       : QString::number(c.layout.pp),
                            6)
                       .arg(c.layout.ep, 4)
                       .arg(qint64(c.dataParallel), 6)
                       .arg(c.layout.zeroStage, 5)
                       .arg(qs(std::string(engine::toString(c.layout.recompute))), -10)
                       .arg(bytesText(c.memory.totalBytes()), 11)
                       .arg(formatDecimal(c.comm.stepSeconds, 2), 9)
                       .arg(formatDecimal(c.days, 2), 9);
        }
    }
    out << "\nhow:\n";
    for (const std::string &line : plan.explanation)
        out << "  " << qs(line) << '\n';
}

QJsonObject toJson(const engine::TrainingJob &job, const engine::GpuSpec &gpu, const engine::TrainingPlan &plan)
{
    QJsonArray explanation;
    for (const std::string &line : plan.explanation)
        explanation.append(qs(line));
    QJsonArray warnings;
    for (const std::string &line : plan.warnings)
        warnings.append(qs(line));
    QJsonArray layouts;
    for (const engine::LayoutCandidate &c : plan.layouts) {
        layouts.append(QJsonObject{
            {QStringLiteral("tp"), c.layout.tp},
            {QStringLiteral("pp"), c.layout.pp},
            {QStringLiteral("ep"), c.layout.ep},
            {QStringLiteral("virtual_stages"), c.layout.virtualStages},
            {QStringLiteral("pp_seconds"), c.comm.ppSeconds},
            {QStringLiteral("dp"), qint64(c.dataParallel)},
            {QStringLiteral("zero_stage"), c.layout.zeroStage},
            {QStringLiteral("recompute"), qs(std::string(engine::toString(c.layout.recompute)))},
            {QStringLiteral("global_batch_tokens"), c.layout.globalBatchTokens},
            {QStringLiteral("computing_gpus"), qint64(c.computingGpus)},
            {QStringLiteral("days"), c.days},
            {QStringLiteral("modelled_days"), c.modelledDays},
            {QStringLiteral("memory_per_gpu_bytes"), c.memory.totalBytes()},
            {QStringLiteral("activations_bytes"), c.memory.activationsBytes},
            {QStringLiteral("step_seconds"), c.comm.stepSeconds},
            {QStringLiteral("compute_seconds"), c.comm.computeSeconds},
            {QStringLiteral("dp_exposed_seconds"), c.comm.dpExposedSeconds},
            {QStringLiteral("tp_seconds"), c.comm.tpSeconds},
            {QStringLiteral("ep_seconds"), c.comm.epSeconds},
            {QStringLiteral("bubble_seconds"), c.comm.bubbleSeconds + c.comm.imbalanceSeconds},
        });
    }
    const engine::TrainingLayout &layout = plan.layout;
    return QJsonObject{
        {QStringLiteral("total_flops"), plan.totalFlops},
        {QStringLiteral("days"), plan.days},
        {QStringLiteral("gpus"), qint64(plan.gpusRaw)},
        {QStringLiteral("gpu_hours"), plan.gpuHours},
        {QStringLiteral("memory_per_gpu_bytes"), plan.memory.totalBytes()},
        {QStringLiteral("min_gpus_for_memory"), qint64(plan.minGpusForMemory)},
        {QStringLiteral("gpus_node_rounded"), qint64(plan.gpusNodeRounded)},
        {QStringLiteral("nodes"), qint64(plan.nodes)},
        {QStringLiteral("memory_fits"), plan.memory.fits},
        {QStringLiteral("efficiency"), plan.comm.efficiency},
        {QStringLiteral("gpu"), qs(gpu.id)},
        {QStringLiteral("implied_mfu"), plan.impliedMfu},
        {QStringLiteral("tp"), layout.tp},
        {QStringLiteral("pp"), layout.pp},
        {QStringLiteral("ep"), layout.ep},
        {QStringLiteral("virtual_stages"), layout.virtualStages},
        {QStringLiteral("dp"), qint64(plan.dataParallel)},
        {QStringLiteral("zero_stage"), layout.zeroStage},
        {QStringLiteral("attention"), qs(std::string(engine::toString(job.attention)))},
        {QStringLiteral("recompute"), qs(std::string(engine::toString(layout.recompute)))},
        {QStringLiteral("global_batch_tokens"), layout.globalBatchTokens},
        {QStringLiteral("batch_follows_fleet"), plan.batchFollowsFleet},
        {QStringLiteral("layout_searched"), plan.searched},
        {QStringLiteral("layouts"), layouts},
        {QStringLiteral("warnings"), warnings},
        {QStringLiteral("micro_batch"), qint64(plan.microBatch)},
        {QStringLiteral("grad_accumulation_steps"), qint64(plan.gradAccumulationSteps)},
        {QStringLiteral("activations_bytes"), plan.memory.activationsBytes},
        {QStringLiteral("explanation"), explanation},
    };
}

int runTrain(const QStringList &argv, Context &context)
{
    if (!argv.isEmpty() && argv.constFirst() == QLatin1String("goodput"))
        return runTrainGoodput(argv.mid(1), context);
    if (!argv.isEmpty() && argv.constFirst() == QLatin1String("cluster"))
        return runTrainCluster(argv.mid(1), context);
    // A bare --recompute (last, or followed by another option) keeps its old meaning: full.
    QStringList normalized = argv;
    for (qsizetype i = 0; i < normalized.size(); ++i) {
        if (normalized.at(i) == QLatin1String("--recompute")
            && (i + 1 >= normalized.size() || normalized.at(i + 1).startsWith(QLatin1String("--"))))
            normalized[i] = QStringLiteral("--recompute=full");
    }
    const Args args(normalized, options());
    engine::TrainingJob job = buildJob(args);
    const store::Workspace &workspace = context.workspace();
    const engine::GpuSpec gpu = findGpu(workspace, QString::fromStdString(job.gpuId));
    job.gpuId = gpu.id;
    std::optional<engine::ModelSpec> model;
    if (!job.modelId.empty()) {
        model = findModel(workspace, QString::fromStdString(job.modelId));
        job.modelId = model->id;
    }
    const engine::TrainingPlan plan = engine::sizeTraining(job, gpu, model ? &*model : nullptr);
    if (args.has(QStringLiteral("json")))
        context.out() << jsonText(toJson(job, gpu, plan));
    else
        writeTable(context.out(), job, gpu, plan);
    return 0;
}

} // namespace

Command trainCommand()
{
    return {QStringLiteral("train"),
            QStringLiteral("GPUs for a training window or days for a GPU count, memory per GPU by ZeRO stage"),
            QString::fromUtf8(kUsage) + trainGoodputUsage() + trainClusterUsage(), &runTrain};
}

} // namespace headroom::cli
