#include "trainclustercommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"

#include "engine/training/cluster_replay.h"
#include "store/cost/costcsv.h"
#include "store/training/clustertrace.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(
       headroom train cluster [--workload FILE|pollux-1…pollux-8] [--applications DIR]
                              [--nodes N] [--gpus-per-node G] [--inference-gpus K | --inference-series FILE]
                              [--interval S] [--restart S] [--policy LIST]
                              [--jobs] [--json]

train cluster
  A mix of training jobs replayed on a shared cluster of N nodes × G GPUs (default 16 × 4),
  each job progressing as Pollux's measured traces say (Qiao et al., OSDI 2021; the
  applications and workloads of petuum/adaptdl's artifact ship as data/pollux/):
    fixed-fcfs    every job on its own GPUs and batch (num_replicas, batch_size), started
                  strictly first come, first served, to completion
    fixed-las     the same fixed jobs under Tiresias's two-queue least-attained-service
                  (Gu et al., NSDI 2019): a job drops to the second queue after 16 GPU-hours;
                  each interval every job that fits runs, in queue order, the rest wait
    co-adaptive   every --interval seconds (default 60) the GPUs go where they raise the
                  power mean (p = −1) of the jobs' speedups most, as Pollux does, each job's
                  batch and accumulation re-chosen for the most goodput; a job whose GPU count changes makes no progress for --restart
                  seconds (default 30), and the choice weighs that in
  --workload       a workload CSV (name,time,application,num_replicas,batch_size) or a shipped
                   one, pollux-1 … pollux-8 (default pollux-6, the paper's testbed workload)
  --applications   a folder with applications.csv and epochs.csv (default: Pollux's six)
  --policy         a comma-separated list of the policies (default all three, in this order)
  --inference-gpus GPUs served to inference first; training never uses them
  --inference-series an hourly demand CSV (timestamp,gpus or gpus; core/store/README.md) of the
                   GPUs inference holds, from the replay's start and repeated (24 values: a day),
                   rounded up to whole GPUs. A rise preempts training: fixed FCFS jobs latest
                   started first; least-attained-service and co-adaptive on what is left
  --jobs           a row per job: submitted, started, finished, JCT, queue, GPU-hours, restarts
  --json           {"workload", "cluster": {…}, "policies": [{"policy", "average_jct_seconds",
                   "median_jct_seconds", "p99_jct_seconds", "max_jct_seconds",
                   "average_queue_seconds", "makespan_seconds", "gpu_hours", "utilization",
                   "jobs": [{…}] with --jobs}], "jct_reduction": {fixed policy: 1 − co-adaptive ÷ it},
                   "published": {policy: seconds}}
  With a shipped workload the averages Pollux's artifact published for it are shown beside.
)";

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> list;
    for (const char *name : {"workload", "applications", "nodes", "gpus-per-node", "inference-gpus",
                             "inference-series", "interval", "restart", "policy"})
        list.push_back({QLatin1String(name)});
    list.push_back({QStringLiteral("jobs"), false});
    list.push_back({QStringLiteral("json"), false});
    return list;
}

QString hours(double seconds)
{
    return formatDecimal(seconds / 3600.0, 2, true);
}

QJsonObject replayJson(const engine::ClusterReplay &r, bool withJobs)
{
    QJsonObject o{{QStringLiteral("policy"), QLatin1String(engine::clusterPolicyName(r.policy))},
                  {QStringLiteral("average_jct_seconds"), r.averageJctSeconds},
                  {QStringLiteral("median_jct_seconds"), r.medianJctSeconds},
                  {QStringLiteral("p99_jct_seconds"), r.p99JctSeconds},
                  {QStringLiteral("max_jct_seconds"), r.maxJctSeconds},
                  {QStringLiteral("average_queue_seconds"), r.averageQueueSeconds},
                  {QStringLiteral("makespan_seconds"), r.makespanSeconds},
                  {QStringLiteral("gpu_hours"), r.gpuHours},
                  {QStringLiteral("utilization"), r.utilization}};
    if (withJobs) {
        QJsonArray jobs;
        for (const engine::ClusterJobResult &j : r.jobs)
            jobs.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(j.name)},
                                    {QStringLiteral("application"), QString::fromStdString(j.application)},
                                    {QStringLiteral("submit_seconds"), j.submitSeconds},
                                    {QStringLiteral("start_seconds"), j.startSeconds},
                                    {QStringLiteral("finish_seconds"), j.finishSeconds},
                                    {QStringLiteral("jct_seconds"), j.jctSeconds},
                                    {QStringLiteral("queue_seconds"), j.queueSeconds},
                                    {QStringLiteral("gpu_hours"), j.gpuSeconds / 3600.0},
                                    {QStringLiteral("restarts"), qint64(j.restarts)},
                                    {QStringLiteral("peak_gpus"), qint64(j.peakGpus)}});
        o.insert(QStringLiteral("jobs"), jobs);
    }
    return o;
}

} // namespace

QString trainClusterUsage()
{
    return QString::fromUtf8(kUsage);
}

int runTrainCluster(const QStringList &argv, Context &context)
{
    const Args args(argv, options());
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("train cluster: unexpected argument '%1'").arg(args.positionals().constFirst()));
    const QString workloadName = args.text(QStringLiteral("workload")).value_or(QStringLiteral("pollux-6"));
    std::vector<engine::ClusterPolicy> policies;
    const QString policyText =
        args.text(QStringLiteral("policy")).value_or(QStringLiteral("fixed-fcfs,fixed-las,co-adaptive"));
    for (const QString &name : policyText.split(QLatin1Char(','))) {
        std::optional<engine::ClusterPolicy> policy;
        for (auto p : {engine::ClusterPolicy::FixedFcfs, engine::ClusterPolicy::FixedLas, engine::ClusterPolicy::CoAdaptive})
            if (name.trimmed() == QLatin1String(engine::clusterPolicyName(p)))
                policy = p;
        if (!policy)
            throw UsageError(QStringLiteral("train cluster: --policy: '%1' is not fixed-fcfs, fixed-las or co-adaptive")
                                 .arg(name.trimmed()));
        if (std::find(policies.begin(), policies.end(), *policy) != policies.end())
            throw UsageError(QStringLiteral("train cluster: --policy: %1 is given twice").arg(name.trimmed()));
        policies.push_back(*policy);
    }
    engine::ClusterOptions options;
    options.nodes = args.integer(QStringLiteral("nodes"), 1, 100000).value_or(16);
    options.gpusPerNode = args.integer(QStringLiteral("gpus-per-node"), 1, 64).value_or(4);
    options.inferenceGpus = args.integer(QStringLiteral("inference-gpus"), 0, 6400000).value_or(0);
    options.intervalSeconds = args.number(QStringLiteral("interval")).value_or(60.0);
    options.restartSeconds = args.number(QStringLiteral("restart")).value_or(30.0);
    if (const auto series = args.text(QStringLiteral("inference-series"))) {
        if (args.has(QStringLiteral("inference-gpus")))
            throw UsageError(QStringLiteral("train cluster: give --inference-gpus or --inference-series, not both"));
        for (const engine::Decimal &gpus : store::readDemandCsvFile(*series).gpus)
            options.inferenceByHour.push_back(int64_t(std::ceil(gpus.toDouble() - 1e-9)));
    }

    const auto apps = store::readClusterApplications(args.text(QStringLiteral("applications")).value_or(QString()));
    const auto jobs = store::readClusterWorkload(workloadName);
    std::vector<engine::ClusterReplay> replays;
    for (engine::ClusterPolicy policy : policies)
        replays.push_back(engine::replayCluster(apps, jobs, options, policy));
    const auto published = store::publishedAverageJct(workloadName);
    // Co-adaptive's average JCT against each fixed policy's: 1 − co-adaptive ÷ fixed.
    const auto coAdaptive = std::find_if(replays.begin(), replays.end(), [](const auto &r) {
        return r.policy == engine::ClusterPolicy::CoAdaptive;
    });
    std::vector<std::pair<engine::ClusterPolicy, double>> reductions;
    if (coAdaptive != replays.end())
        for (const auto &r : replays)
            if (r.policy != engine::ClusterPolicy::CoAdaptive && r.averageJctSeconds > 0)
                reductions.emplace_back(r.policy, 1.0 - coAdaptive->averageJctSeconds / r.averageJctSeconds);

    if (args.has(QStringLiteral("json"))) {
        QJsonArray list;
        for (const auto &r : replays)
            list.append(replayJson(r, args.has(QStringLiteral("jobs"))));
        QJsonObject reductionJson;
        for (const auto &[policy, value] : reductions)
            reductionJson.insert(QLatin1String(engine::clusterPolicyName(policy)), value);
        QJsonObject pub;
        for (const auto &[policy, seconds] : published)
            pub.insert(policy, seconds);
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("workload"), workloadName},
            {QStringLiteral("cluster"),
             QJsonObject{{QStringLiteral("nodes"), qint64(options.nodes)},
                         {QStringLiteral("gpus_per_node"), qint64(options.gpusPerNode)},
                         {QStringLiteral("inference_gpus"), qint64(options.inferenceGpus)},
                         {QStringLiteral("inference_series_hours"), qint64(options.inferenceByHour.size())},
                         {QStringLiteral("interval_seconds"), options.intervalSeconds},
                         {QStringLiteral("restart_seconds"), options.restartSeconds}}},
            {QStringLiteral("jobs"), qint64(jobs.size())},
            {QStringLiteral("policies"), list},
            {QStringLiteral("jct_reduction"), reductionJson},
            {QStringLiteral("published"), pub}});
        return 0;
    }
    QTextStream &out = context.out();
    const int64_t training = options.nodes * options.gpusPerNode - options.inferenceGpus;
    out << formatInteger(qint64(jobs.size())) << " jobs of " << workloadName << " on " << options.nodes << " × "
        << options.gpusPerNode << " GPUs";
    if (!options.inferenceByHour.empty()) {
        const auto [least, most] = std::minmax_element(options.inferenceByHour.begin(), options.inferenceByHour.end());
        out << " (inference first: " << *least << "–" << *most << " GPUs an hour over "
            << options.inferenceByHour.size() << " hours, repeated)";
    } else if (options.inferenceGpus > 0) {
        out << " (" << options.inferenceGpus << " kept for inference, " << training << " for training)";
    }
    out << ", scheduling every " << formatDecimal(options.intervalSeconds, 0) << " s, restart "
        << formatDecimal(options.restartSeconds, 0) << " s.\n\n";
    Table table({{QStringLiteral("policy")},
                 {QStringLiteral("avg JCT h"), Table::Align::Right},
                 {QStringLiteral("median h"), Table::Align::Right},
                 {QStringLiteral("p99 h"), Table::Align::Right},
                 {QStringLiteral("max h"), Table::Align::Right},
                 {QStringLiteral("avg queue h"), Table::Align::Right},
                 {QStringLiteral("makespan h"), Table::Align::Right},
                 {QStringLiteral("GPU-hours"), Table::Align::Right},
                 {QStringLiteral("utilization"), Table::Align::Right}});
    for (const auto &r : replays)
        table.addRow({QLatin1String(engine::clusterPolicyName(r.policy)), hours(r.averageJctSeconds),
                      hours(r.medianJctSeconds), hours(r.p99JctSeconds), hours(r.maxJctSeconds),
                      hours(r.averageQueueSeconds), hours(r.makespanSeconds), formatDecimal(r.gpuHours, 1, true),
                      formatDecimal(100.0 * r.utilization, 1, true) + QLatin1Char('%')});
    table.write(out);
    if (!reductions.empty()) {
        out << "\nCo-adaptive allocation cuts the average JCT by";
        const char *sep = " ";
        for (const auto &[policy, value] : reductions) {
            out << sep << formatDecimal(100.0 * value, 1, true) << " % against " << engine::clusterPolicyName(policy);
            sep = ", ";
        }
        out << ".\n";
    }
    if (!published.empty()) {
        out << "Published on this workload (Pollux's artifact, results-jobload, 16 × 4 GPUs): average JCT";
        const char *sep = " ";
        for (const char *policy : {"pollux", "tiresias", "optimus"})
            if (published.count(QLatin1String(policy))) {
                out << sep << policy << ' ' << hours(published.at(QLatin1String(policy))) << " h";
                sep = ", ";
            }
        out << ".\n";
    }
    for (const auto &r : replays)
        if (std::any_of(r.jobs.begin(), r.jobs.end(), [](const auto &j) { return j.finishSeconds < 0; }))
            out << "Warning: under " << engine::clusterPolicyName(r.policy)
                << " some jobs had not finished after 30 days; they are left out of the figures.\n";
    if (args.has(QStringLiteral("jobs"))) {
        for (const auto &r : replays) {
            out << '\n' << engine::clusterPolicyName(r.policy) << ":\n";
            Table jobsTable({{QStringLiteral("job")},
                             {QStringLiteral("application")},
                             {QStringLiteral("submitted h"), Table::Align::Right},
                             {QStringLiteral("started h"), Table::Align::Right},
                             {QStringLiteral("finished h"), Table::Align::Right},
                             {QStringLiteral("JCT h"), Table::Align::Right},
                             {QStringLiteral("queue h"), Table::Align::Right},
                             {QStringLiteral("GPU-hours"), Table::Align::Right},
                             {QStringLiteral("most GPUs"), Table::Align::Right},
                             {QStringLiteral("restarts"), Table::Align::Right}});
            for (const auto &j : r.jobs)
                jobsTable.addRow({QString::fromStdString(j.name), QString::fromStdString(j.application),
                                  hours(j.submitSeconds), j.startSeconds < 0 ? QStringLiteral("–") : hours(j.startSeconds),
                                  j.finishSeconds < 0 ? QStringLiteral("–") : hours(j.finishSeconds),
                                  j.finishSeconds < 0 ? QStringLiteral("–") : hours(j.jctSeconds),
                                  j.finishSeconds < 0 ? QStringLiteral("–") : hours(j.queueSeconds),
                                  formatDecimal(j.gpuSeconds / 3600.0, 2, true), QString::number(j.peakGpus),
                                  QString::number(j.restarts)});
            jobsTable.write(out);
        }
    }
    return 0;
}

} // namespace headroom::cli
