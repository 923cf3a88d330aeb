#include "trackstallscommand.h"

#include "cli/common/format.h"
#include "cli/common/moneyoptions.h"
#include "trackservingcommand.h"

#include "engine/tracking/input_stalls.h"
#include "store/tracking/jobtelemetrycsv.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(
       headroom track stalls --telemetry FILE.csv [--last N] [--idle-below F] [--cpu-saturated F]
                              [--rate R [--currency C] | --gpu ID [--provider P]] [--json]

track stalls
  The CPU-to-GPU data-loading stall audit of the last N training jobs (default 5, by their last
  sample): per job the allocated GPU-hours (every GPU sample covers the interval since that
  GPU's previous one), the GPU-hours spent waiting on input and their share, and the CPU cores
  per GPU that would have fed the GPUs. The telemetry is long form (core/store/README.md, "Job
  telemetry CSV"): timestamp,job,node,gpu,metric,value with DCGM_FI_PROF_GR_ENGINE_ACTIVE (or
  DCGM_FI_DEV_GPU_UTIL) per GPU and node_cpu_utilization, dataloader_wait_ratio and cpu_cores per
  node. A GPU interval stalls on input for the node's dataloader_wait_ratio at its end where the
  job reports it; else for 1 − activity when activity < --idle-below (default 0.5) while the
  job's CPU utilization on the node ≥ --cpu-saturated (default 0.9). A GPU idle with its CPU
  quiet waits on something else (communication, checkpoints) and is not counted.
  Recommended cores per GPU = ceil(cores per GPU × allocated ÷ (allocated − stalled)).
  Money: stall GPU-hours as shown (0.1) × --rate, or --gpu's lowest on-demand rate in the
  workspace's rate cards, to the cent.
  --json               {"jobs_seen", "allocated_gpu_hours", "stall_gpu_hours", "rate_per_gpu_hour",
                       "currency", "jobs": [{"job", "first", "last", "nodes", "gpus",
                       "activity_metric", "allocated_gpu_hours", "stall_gpu_hours", "stall_share",
                       "loader_wait_gpu_hours", "cores_per_gpu", "recommended_cores_per_gpu",
                       "stall_cost"}], "ignored_metrics": [{"metric", "rows"}]}
)";

const std::vector<OptionSpec> kOptions = {
    {QStringLiteral("telemetry")}, {QStringLiteral("last")}, {QStringLiteral("idle-below")},
    {QStringLiteral("cpu-saturated")},
};

double ratioOption(const Args &args, const QString &name, double fallback)
{
    const auto value = args.number(name);
    if (!value)
        return fallback;
    if (!(*value > 0 && *value <= 1))
        throw UsageError(QStringLiteral("track stalls: %1 %2: give a ratio in (0, 1]").arg(Args::flag(name)).arg(*value));
    return *value;
}

} // namespace

const std::vector<OptionSpec> &stallsTrackOptions()
{
    return kOptions;
}

QString stallsTrackUsage()
{
    return QString::fromUtf8(kUsage);
}

int runStallsTrack(const Args &args, Context &context)
{
    const auto path = args.text(QStringLiteral("telemetry"));
    if (!path || path->isEmpty())
        throw UsageError(QStringLiteral("track stalls: --telemetry FILE.csv is required"));
    engine::StallOptions options;
    options.idleBelow = ratioOption(args, QStringLiteral("idle-below"), options.idleBelow);
    options.cpuSaturatedAbove = ratioOption(args, QStringLiteral("cpu-saturated"), options.cpuSaturatedAbove);
    options.lastJobs = int(args.integer(QStringLiteral("last"), 1, 10000).value_or(5));
    QString rateSource;
    const std::optional<engine::Money> rate = trackRate(args, context, QStringLiteral("stalls"), &rateSource);
    const store::JobTelemetryFile file = store::readJobTelemetryCsv(*path);
    const engine::StallAudit audit = engine::auditInputStalls(file.samples, options);
    // Stall GPU-hours as shown (0.1) × the rate, to the cent.
    const auto cost = [&](double gpuHours) -> QString {
        if (!rate)
            return {};
        return QString::fromStdString(
            (rate->amount * engine::Decimal::fromDouble(gpuHours).rounded(1)).rounded(2).toString(2));
    };

    if (args.has(QStringLiteral("json"))) {
        QJsonArray jobs;
        for (const engine::JobStalls &j : audit.jobs)
            jobs.append(QJsonObject{
                {QStringLiteral("job"), QString::fromStdString(j.job)},
                {QStringLiteral("first"), isoUtc(j.firstSample)},
                {QStringLiteral("last"), isoUtc(j.lastSample)},
                {QStringLiteral("nodes"), j.nodes},
                {QStringLiteral("gpus"), j.gpus},
                {QStringLiteral("activity_metric"), QString::fromStdString(j.activityMetric)},
                {QStringLiteral("allocated_gpu_hours"), j.allocatedGpuHours},
                {QStringLiteral("stall_gpu_hours"), j.stallGpuHours},
                {QStringLiteral("stall_share"), j.share()},
                {QStringLiteral("loader_wait_gpu_hours"), j.loaderWaitGpuHours},
                {QStringLiteral("cores_per_gpu"), j.coresPerGpu > 0 ? QJsonValue(j.coresPerGpu) : QJsonValue()},
                {QStringLiteral("recommended_cores_per_gpu"),
                 j.recommendedCoresPerGpu > 0 ? QJsonValue(j.recommendedCoresPerGpu) : QJsonValue()},
                {QStringLiteral("stall_cost"), rate ? QJsonValue(cost(j.stallGpuHours)) : QJsonValue()},
            });
        QJsonArray ignored;
        for (const auto &[metric, rows] : file.ignored)
            ignored.append(QJsonObject{{QStringLiteral("metric"), metric}, {QStringLiteral("rows"), rows}});
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("jobs_seen"), qint64(audit.jobsSeen)},
            {QStringLiteral("allocated_gpu_hours"), audit.allocatedGpuHours},
            {QStringLiteral("stall_gpu_hours"), audit.stallGpuHours},
            {QStringLiteral("rate_per_gpu_hour"), rate ? QJsonValue(rateString(*rate)) : QJsonValue()},
            {QStringLiteral("currency"), rate ? QJsonValue(QString::fromStdString(rate->currency)) : QJsonValue()},
            {QStringLiteral("jobs"), jobs},
            {QStringLiteral("ignored_metrics"), ignored},
        });
        return 0;
    }
    QTextStream &out = context.out();
    out << "Data-loading stalls of the last " << audit.jobs.size() << " of " << audit.jobsSeen
        << " jobs: GPU idle (activity < " << options.idleBelow << ") while the job's CPU ≥ " << options.cpuSaturatedAbove
        << ", or the loader's measured wait.\n\n";
    Table table({{QStringLiteral("job")},
                 {QStringLiteral("last sample (UTC)")},
                 {QStringLiteral("GPUs"), Table::Align::Right},
                 {QStringLiteral("GPU-h"), Table::Align::Right},
                 {QStringLiteral("stalled GPU-h"), Table::Align::Right},
                 {QStringLiteral("share"), Table::Align::Right},
                 {QStringLiteral("cores/GPU"), Table::Align::Right},
                 {QStringLiteral("recommended"), Table::Align::Right},
                 {rate ? QStringLiteral("stall cost (%1)").arg(QString::fromStdString(rate->currency)) : QStringLiteral("stall cost"),
                  Table::Align::Right}});
    for (const engine::JobStalls &j : audit.jobs)
        table.addRow({QString::fromStdString(j.job), isoUtc(j.lastSample), QString::number(j.gpus),
                      formatDecimal(j.allocatedGpuHours, 1, true), formatDecimal(j.stallGpuHours, 1, true),
                      QStringLiteral("%1 %").arg(formatDecimal(100.0 * j.share(), 1, true)),
                      j.coresPerGpu > 0 ? formatDecimal(j.coresPerGpu, 1, true) : QStringLiteral("–"),
                      j.recommendedCoresPerGpu > 0 ? QString::number(j.recommendedCoresPerGpu) : QStringLiteral("–"),
                      rate ? cost(j.stallGpuHours) : QStringLiteral("–")});
    table.write(out);
    out << "\nStalled " << formatDecimal(audit.stallGpuHours, 1, true) << " of "
        << formatDecimal(audit.allocatedGpuHours, 1, true) << " allocated GPU-hours";
    if (rate)
        out << " at " << rateString(*rate) << ' ' << QString::fromStdString(rate->currency) << " a GPU-hour (" << rateSource << ')';
    out << ".\n";
    return 0;
}

} // namespace headroom::cli
