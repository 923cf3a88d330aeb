#include "traingoodputcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/common/moneyoptions.h"

#include "engine/common/errors.h"
#include "engine/training/coadaptive.h"

#include <QJsonArray>
#include <QJsonObject>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(
       headroom train goodput --alpha-c S --beta-c S [--alpha-r S --beta-r S] [--alpha-n S --beta-n S]
                              [--gamma G] --noise-scale PHI --initial-batch M0 --max-batch M
                              --max-micro-batch m [--gpus-per-node N] [--max-gpus N]
                              [--fixed-gpus N --work SAMPLES [--cheapest] [--rate R [--currency C]]]
                              [--json]

train goodput
  A data-parallel job's goodput as Pollux defines it (Qiao et al., OSDI 2021; petuum/adaptdl):
    goodput = M / T_step × (PHI + M0) / (PHI + M),  M = N × m × (s + 1)
    T_step  = s × T_grad + (T_grad^G + T_sync^G)^(1/G),  T_grad = alpha_c + beta_c × m
    T_sync  = alpha_r + beta_r × max(N − 2, 0) on one node, alpha_n + beta_n × … across nodes
  N GPUs, m the per-GPU micro-batch, s gradient accumulation steps; goodput in M0-equivalent
  samples per second. For each N up to --max-gpus (default 16, at most 4,096) the m and s with the
  most goodput, searched exactly over m = 1 … --max-micro-batch (at most 65,536) and every s
  keeping M0 ≤ M ≤ --max-batch (at most 1,048,576).
  The times are the job's measured ones (adaptdl fits them from its step times); PHI is the
  gradient noise scale in samples (measured during training as adaptdl's gradient_noise_scale
  does, or a published value).
  --fixed-gpus N --work SAMPLES   the job's fixed choice (N GPUs at batch M0) against the
                       adaptive one (the fastest within --max-gpus; --cheapest: the fewest
                       GPU-hours) for SAMPLES M0-equivalent samples: hours and GPU-hours, and
                       with --rate the money (GPU-hours rounded to 0.01 × the rate, to the cent)
  --json               {"curve": [{"gpus", "nodes", "micro_batch", "accumulation", "batch",
                       "step_seconds", "throughput", "efficiency", "goodput", "speedup"}],
                       "best": {…}, "comparison": {"fixed": {…}, "adaptive": {…}, "fixed_hours",
                       "adaptive_hours", "fixed_gpu_hours", "adaptive_gpu_hours", "fixed_cost",
                       "adaptive_cost", "currency"} or null}
)";

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> list;
    for (const char *name : {"alpha-c", "beta-c", "alpha-r", "beta-r", "alpha-n", "beta-n", "gamma", "noise-scale",
                             "initial-batch", "max-batch", "max-micro-batch", "gpus-per-node", "max-gpus", "fixed-gpus",
                             "work", "rate", "currency"})
        list.push_back({QLatin1String(name)});
    list.push_back({QStringLiteral("cheapest"), false});
    list.push_back({QStringLiteral("json"), false});
    return list;
}

double seconds(const Args &args, const char *name, bool required)
{
    const auto value = args.number(QLatin1String(name));
    if (!value && required)
        throw UsageError(QStringLiteral("train goodput: --%1 is required (seconds)").arg(QLatin1String(name)));
    return value.value_or(0.0);
}

QJsonObject pointJson(const engine::GoodputPoint &p, double oneGpu)
{
    return {{QStringLiteral("gpus"), qint64(p.gpus)},
            {QStringLiteral("nodes"), qint64(p.nodes)},
            {QStringLiteral("micro_batch"), qint64(p.microBatch)},
            {QStringLiteral("accumulation"), qint64(p.accumulation)},
            {QStringLiteral("batch"), qint64(p.batch)},
            {QStringLiteral("step_seconds"), p.stepSeconds},
            {QStringLiteral("throughput"), p.throughput},
            {QStringLiteral("efficiency"), p.efficiency},
            {QStringLiteral("goodput"), p.goodput},
            {QStringLiteral("speedup"), oneGpu > 0 ? QJsonValue(p.goodput / oneGpu) : QJsonValue()}};
}

} // namespace

QString trainGoodputUsage()
{
    return QString::fromUtf8(kUsage);
}

int runTrainGoodput(const QStringList &argv, Context &context)
{
    const Args args(argv, options());
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("train goodput: unexpected argument '%1'").arg(args.positionals().constFirst()));
    engine::GoodputJob job;
    job.perf.alphaCompute = seconds(args, "alpha-c", true);
    job.perf.betaCompute = seconds(args, "beta-c", true);
    job.perf.alphaIntra = seconds(args, "alpha-r", false);
    job.perf.betaIntra = seconds(args, "beta-r", false);
    job.perf.alphaInter = args.has(QStringLiteral("alpha-n")) ? seconds(args, "alpha-n", false) : job.perf.alphaIntra;
    job.perf.betaInter = args.has(QStringLiteral("beta-n")) ? seconds(args, "beta-n", false) : job.perf.betaIntra;
    job.perf.gamma = args.number(QStringLiteral("gamma")).value_or(1.0);
    const auto phi = args.number(QStringLiteral("noise-scale"));
    if (!phi)
        throw UsageError(QStringLiteral("train goodput: --noise-scale is required (the gradient noise scale, samples)"));
    job.noiseScale = *phi;
    // Bounds that keep the exact search under about 10^8 evaluations (a second or so).
    const auto initial = args.integer(QStringLiteral("initial-batch"), 1, 1 << 20);
    const auto maxBatch = args.integer(QStringLiteral("max-batch"), 1, 1 << 20);
    const auto micro = args.integer(QStringLiteral("max-micro-batch"), 1, 1 << 16);
    if (!initial || !maxBatch || !micro)
        throw UsageError(QStringLiteral("train goodput: --initial-batch, --max-batch and --max-micro-batch are required"));
    job.initialBatch = *initial;
    job.maxBatch = *maxBatch;
    job.maxMicroBatch = *micro;
    job.gpusPerNode = int(args.integer(QStringLiteral("gpus-per-node"), 1, 1024).value_or(8));
    const int64_t maxGpus = args.integer(QStringLiteral("max-gpus"), 1, 4096).value_or(16);
    engine::validate(job);

    const std::vector<engine::GoodputPoint> curve = engine::goodputCurve(job, maxGpus);
    const double oneGpu = curve.front().goodput;
    const engine::GoodputPoint *best = nullptr;
    for (const engine::GoodputPoint &p : curve)
        if (p.goodput > 0 && (!best || p.goodput > best->goodput))
            best = &p;
    if (!best)
        throw UsageError(QStringLiteral("train goodput: no GPU count up to %1 can make a batch from %2 to %3 with "
                                        "micro-batches of at most %4")
                             .arg(maxGpus)
                             .arg(job.initialBatch)
                             .arg(job.maxBatch)
                             .arg(job.maxMicroBatch));

    std::optional<engine::AdaptiveComparison> comparison;
    std::optional<engine::Money> rate;
    const std::string currency = currencyOption(args);
    if (args.has(QStringLiteral("fixed-gpus")) || args.has(QStringLiteral("work"))) {
        const auto fixed = args.integer(QStringLiteral("fixed-gpus"), 1, maxGpus);
        const auto work = args.number(QStringLiteral("work"));
        if (!fixed || !work)
            throw UsageError(QStringLiteral("train goodput: --fixed-gpus and --work go together"));
        comparison = engine::compareFixedAdaptive(job, *fixed, maxGpus, *work, args.has(QStringLiteral("cheapest")));
        rate = rateOption(args, QStringLiteral("rate"), currency, 1);
    } else if (args.has(QStringLiteral("rate")) || args.has(QStringLiteral("cheapest"))) {
        throw UsageError(QStringLiteral("train goodput: --rate and --cheapest need --fixed-gpus and --work"));
    }
    // GPU-hours as shown (0.01) × the rate, to the cent.
    const auto cost = [&](double gpuHours) {
        const engine::Decimal shown = engine::Decimal::fromDouble(gpuHours).rounded(2);
        return (rate->amount * shown).rounded(2);
    };

    if (args.has(QStringLiteral("json"))) {
        QJsonArray points;
        for (const engine::GoodputPoint &p : curve)
            points.append(pointJson(p, oneGpu));
        QJsonValue compared;
        if (comparison) {
            QJsonObject c{{QStringLiteral("fixed"), pointJson(comparison->fixed, oneGpu)},
                          {QStringLiteral("adaptive"), pointJson(comparison->adaptive, oneGpu)},
                          {QStringLiteral("fixed_hours"), comparison->fixedHours},
                          {QStringLiteral("adaptive_hours"), comparison->adaptiveHours},
                          {QStringLiteral("fixed_gpu_hours"), comparison->fixedGpuHours},
                          {QStringLiteral("adaptive_gpu_hours"), comparison->adaptiveGpuHours},
                          {QStringLiteral("fixed_cost"), rate ? QJsonValue(QString::fromStdString(cost(comparison->fixedGpuHours).toString(2))) : QJsonValue()},
                          {QStringLiteral("adaptive_cost"), rate ? QJsonValue(QString::fromStdString(cost(comparison->adaptiveGpuHours).toString(2))) : QJsonValue()},
                          {QStringLiteral("currency"), QString::fromStdString(currency)}};
            compared = c;
        }
        context.out() << jsonText(QJsonObject{{QStringLiteral("curve"), points},
                                              {QStringLiteral("best"), pointJson(*best, oneGpu)},
                                              {QStringLiteral("comparison"), compared}});
        return 0;
    }
    QTextStream &out = context.out();
    Table table({{QStringLiteral("GPUs"), Table::Align::Right},
                 {QStringLiteral("nodes"), Table::Align::Right},
                 {QStringLiteral("micro-batch"), Table::Align::Right},
                 {QStringLiteral("accum"), Table::Align::Right},
                 {QStringLiteral("batch"), Table::Align::Right},
                 {QStringLiteral("step s"), Table::Align::Right},
                 {QStringLiteral("samples/s"), Table::Align::Right},
                 {QStringLiteral("efficiency"), Table::Align::Right},
                 {QStringLiteral("goodput"), Table::Align::Right},
                 {QStringLiteral("speedup"), Table::Align::Right}});
    for (const engine::GoodputPoint &p : curve) {
        if (p.goodput <= 0) {
            table.addRow({QString::number(p.gpus), {}, {}, {}, {}, {}, {}, {}, QStringLiteral("–"), {}});
            continue;
        }
        table.addRow({QString::number(p.gpus), QString::number(p.nodes), QString::number(p.microBatch),
                      QString::number(p.accumulation), formatInteger(p.batch), formatDecimal(p.stepSeconds, 4, true),
                      formatDecimal(p.throughput, 2, true), formatDecimal(p.efficiency, 4, true),
                      formatDecimal(p.goodput, 2, true), oneGpu > 0 ? formatDecimal(p.goodput / oneGpu, 2, true) : QString()});
    }
    table.write(out);
    out << "\nMost goodput: " << best->gpus << " GPUs at batch " << formatInteger(best->batch) << " (micro-batch "
        << best->microBatch << " × " << best->accumulation + 1 << " steps), " << formatDecimal(best->goodput, 2, true)
        << " M0-samples/s.\n";
    if (comparison) {
        out << "Fixed " << comparison->fixed.gpus << " GPUs at batch " << formatInteger(comparison->fixed.batch) << ": "
            << formatDecimal(comparison->fixedHours, 2, true) << " h, " << formatDecimal(comparison->fixedGpuHours, 2, true)
            << " GPU-hours";
        if (rate)
            out << ", " << QString::fromStdString(cost(comparison->fixedGpuHours).toString(2)) << ' '
                << QString::fromStdString(currency);
        out << ".\nAdaptive " << comparison->adaptive.gpus << " GPUs at batch " << formatInteger(comparison->adaptive.batch)
            << ": " << formatDecimal(comparison->adaptiveHours, 2, true) << " h, "
            << formatDecimal(comparison->adaptiveGpuHours, 2, true) << " GPU-hours";
        if (rate)
            out << ", " << QString::fromStdString(cost(comparison->adaptiveGpuHours).toString(2)) << ' '
                << QString::fromStdString(currency);
        out << (args.has(QStringLiteral("cheapest")) ? " (the fewest GPU-hours).\n" : " (the fastest).\n");
    }
    return 0;
}

} // namespace headroom::cli
