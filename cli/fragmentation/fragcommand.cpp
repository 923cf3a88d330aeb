#include "fragcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/common/progress.h"

#include "engine/fragmentation/frag.h"
#include "store/fragmentation/fragtrace.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>

namespace headroom::cli {

namespace {

namespace frag = engine::frag;

constexpr int kTableStepPct = 10;
constexpr size_t kReplayTableRows = 20;
constexpr qint64 kMaxSeed = 4294967295LL;

const char kUsage[] = R"(usage: headroom frag --nodes FILE --tasks FILE --policy POLICY [--load F] [--seed N]
                     [--reserve N] [--mode study|exact] [--json] [--progress]
       headroom frag --replay --nodes FILE --tasks FILE --policy POLICY [--duration-scale F]
                     [--seed N] [--reserve N] [--mode study|exact] [--json] [--progress]

Replays a task list onto a cluster with one placement policy, as the FGD study does
(Weng et al., ATC 2023): nodes with GPUs only; the tasks shuffled with the seed, then tasks
drawn from them again until the requested GPU reaches LOAD × capacity; tasks never leave and
a task that fits no node is dropped and counted by size. After every whole percent of
arrived GPU it records the allocated GPU, the fragment (free GPU that the popular task types
cannot use) as a share of capacity and as a share of idle GPU.

policies:
  fgd          Fragmentation Gradient Descent: where node fragmentation grows least
  bestfit      least CPU and GPU left on the node
  dotprod      Tetris: least dot product of request and free resources
  packing      partly used GPUs first, then partly used nodes, then idle nodes
  clustering   nodes holding the same GPU request first
  firstfit     the first node that fits
  random       any node that fits, drawn with the seed
options:
  --nodes FILE      node list CSV: sn,cpu_milli,memory_mib,gpu,model
  --tasks FILE      task list CSV: name,cpu_milli,memory_mib,num_gpu,gpu_milli[,gpu_spec,...]
  --policy POLICY   placement policy (required)
  --load F          requested GPU as a multiple of capacity, (0, 10] (default 1.3)
  --seed N          shuffle and sampling seed, 0..4294967295 (default 0)
  --reserve N       reserve-and-pack: hold N whole 8-GPU nodes for 8-GPU tasks (default 0)
  --mode MODE       scoring: study (default) scores as the study's Kubernetes plugins do,
                    whole numbers 0-100 with ties going to a node ranking drawn from the
                    seed, which reproduces its published results; exact uses real-valued
                    scores and breaks ties by node order
  --json            print JSON instead of a table
  --progress        write progress to standard error at every 10 % (on a terminal it is
                    shown in place without this option)

replay mode (--replay):
  Plays the tasks by their creation_time and deletion_time (seconds) instead. A task runs
  for its lifetime (deletion - creation) from the moment it is placed; one with deletion
  <= creation, or without times, never leaves. A task that finds no room waits in a FIFO
  queue of its size class (CPU-only, fractional, one GPU, multi-GPU); after every
  departure the queues are tried in arrival order, a class stopping at its first task that
  still does not fit while the other classes go on. A task that fits no node of the empty
  cluster is never queued and counts as never placed, as does one still waiting at the end.
  Reports allocation, fragmentation and queue depth at up to 500 moments evenly in time,
  the deepest queue and the mean wait per class.
  --replay             replay by creation and deletion times (--load does not apply)
  --duration-scale F   multiply every lifetime by F, (0, 1000000] (default 1)
)";

QString pct(double value)
{
    return formatDecimal(value, 2, true) + QStringLiteral(" %");
}

QString modeName(frag::ScoreMode mode)
{
    return QString::fromUtf8(frag::toString(mode).data(), qsizetype(frag::toString(mode).size()));
}

QJsonObject toJson(const frag::RunResult &run)
{
    QJsonArray points;
    for (const frag::Point &p : run.points) {
        points.append(QJsonObject{{QStringLiteral("arrived_pct"), p.arrivedPct},
                                  {QStringLiteral("allocated_pct"), p.allocatedPct},
                                  {QStringLiteral("frag_ratio_pct"), p.fragRatioPct},
                                  {QStringLiteral("frag_amount_pct"), p.fragAmountPct}});
    }
    QJsonArray failedByGpus;
    for (const int64_t count : run.failedByGpusAt100)
        failedByGpus.append(qint64(count));
    return QJsonObject{
        {QStringLiteral("policy"), QString::fromUtf8(frag::toString(run.policy).data(),
                                                     qsizetype(frag::toString(run.policy).size()))},
        {QStringLiteral("mode"), modeName(run.mode)},
        {QStringLiteral("seed"), qint64(run.seed)},
        {QStringLiteral("gpus"), qint64(run.gpus)},
        {QStringLiteral("points"), points},
        {QStringLiteral("at_100"), QJsonObject{{QStringLiteral("allocated_pct"), run.allocatedPctAt100},
                                               {QStringLiteral("unallocated_gpus"), run.unallocatedGpusAt100}}},
        {QStringLiteral("failed"), QJsonObject{{QStringLiteral("cpu_only"), qint64(run.failed.cpuOnly)},
                                               {QStringLiteral("fractional"), qint64(run.failed.fractional)},
                                               {QStringLiteral("one_gpu"), qint64(run.failed.oneGpu)},
                                               {QStringLiteral("multi_gpu"), qint64(run.failed.multiGpu)}}},
        {QStringLiteral("failed_by_gpus_at_100"), failedByGpus},
        {QStringLiteral("runtime_s"), run.runtimeS},
    };
}

QString policyName(frag::Policy policy)
{
    return QString::fromUtf8(frag::toString(policy).data(), qsizetype(frag::toString(policy).size()));
}

QJsonObject byClass(const frag::ClassCounts &counts)
{
    return QJsonObject{{QStringLiteral("cpu_only"), qint64(counts[size_t(frag::SizeClass::CpuOnly)])},
                       {QStringLiteral("fractional"), qint64(counts[size_t(frag::SizeClass::Fractional)])},
                       {QStringLiteral("one_gpu"), qint64(counts[size_t(frag::SizeClass::OneGpu)])},
                       {QStringLiteral("multi_gpu"), qint64(counts[size_t(frag::SizeClass::MultiGpu)])}};
}

QJsonObject byClass(const frag::ClassSeconds &seconds)
{
    return QJsonObject{{QStringLiteral("cpu_only"), seconds[size_t(frag::SizeClass::CpuOnly)]},
                       {QStringLiteral("fractional"), seconds[size_t(frag::SizeClass::Fractional)]},
                       {QStringLiteral("one_gpu"), seconds[size_t(frag::SizeClass::OneGpu)]},
                       {QStringLiteral("multi_gpu"), seconds[size_t(frag::SizeClass::MultiGpu)]}};
}

QJsonObject toJson(const frag::ReplayResult &replay, frag::ScoreMode scoring)
{
    QJsonArray points;
    for (const frag::ReplayPoint &p : replay.points) {
        points.append(QJsonObject{{QStringLiteral("time_s"), qint64(p.timeS)},
                                  {QStringLiteral("allocated_pct"), p.allocatedPct},
                                  {QStringLiteral("frag_ratio_pct"), p.fragRatioPct},
                                  {QStringLiteral("queued"), byClass(p.queued)}});
    }
    return QJsonObject{
        {QStringLiteral("policy"), policyName(replay.policy)},
        {QStringLiteral("mode"), QStringLiteral("replay")},
        {QStringLiteral("scoring"), modeName(scoring)},
        {QStringLiteral("seed"), qint64(replay.seed)},
        {QStringLiteral("gpus"), qint64(replay.gpus)},
        {QStringLiteral("points"), points},
        {QStringLiteral("max_queue"), byClass(replay.maxQueue)},
        {QStringLiteral("mean_wait_s"), byClass(replay.meanWaitS)},
        {QStringLiteral("max_wait_s"), byClass(replay.maxWaitS)},
        {QStringLiteral("placed"), byClass(replay.placed)},
        {QStringLiteral("never_placed"), byClass(replay.neverPlaced)},
        {QStringLiteral("runtime_s"), replay.runtimeS},
    };
}

QString classLine(const frag::ClassCounts &counts)
{
    return QStringLiteral("%1 CPU-only, %2 fractional, %3 one-GPU, %4 multi-GPU")
        .arg(formatInteger(counts[size_t(frag::SizeClass::CpuOnly)]), formatInteger(counts[size_t(frag::SizeClass::Fractional)]),
             formatInteger(counts[size_t(frag::SizeClass::OneGpu)]), formatInteger(counts[size_t(frag::SizeClass::MultiGpu)]));
}

QString classLine(const frag::ClassSeconds &seconds)
{
    const auto s = [&](frag::SizeClass c) { return formatDecimal(seconds[size_t(c)], 1, true) + QStringLiteral(" s"); };
    return QStringLiteral("%1 CPU-only, %2 fractional, %3 one-GPU, %4 multi-GPU")
        .arg(s(frag::SizeClass::CpuOnly), s(frag::SizeClass::Fractional), s(frag::SizeClass::OneGpu),
             s(frag::SizeClass::MultiGpu));
}

void writeReplayTable(QTextStream &out, const frag::ReplayResult &replay, frag::ScoreMode scoring,
                      const QString &nodesPath, const QString &tasksPath, size_t taskCount)
{
    writeFields(out, {
        {QStringLiteral("policy"), policyName(replay.policy) + QStringLiteral(", %1 scoring, replay by creation and deletion times").arg(modeName(scoring))},
        {QStringLiteral("cluster"), countOf(replay.gpus, QStringLiteral("GPU"), QStringLiteral("GPUs"))
                                        + QStringLiteral(" in ") + QFileInfo(nodesPath).fileName()},
        {QStringLiteral("tasks"), QStringLiteral("%1 in %2; %3 never leave")
                                      .arg(formatInteger(qint64(taskCount)), QFileInfo(tasksPath).fileName(),
                                           formatInteger(replay.permanent))},
        {QStringLiteral("placed"), classLine(replay.placed)},
        {QStringLiteral("never placed"), classLine(replay.neverPlaced)
                                             + QStringLiteral(" (%1 fit no node)").arg(formatInteger(replay.unplaceable))},
        {QStringLiteral("deepest queue"), classLine(replay.maxQueue)},
        {QStringLiteral("mean wait"), classLine(replay.meanWaitS)},
        {QStringLiteral("runtime"), formatDecimal(replay.runtimeS, 3, true) + QStringLiteral(" s")},
    });
    out << '\n';
    Table table({{QStringLiteral("time"), Table::Align::Right},
                 {QStringLiteral("allocated"), Table::Align::Right},
                 {QStringLiteral("fragment / idle"), Table::Align::Right},
                 {QStringLiteral("queued CPU-only"), Table::Align::Right},
                 {QStringLiteral("fractional"), Table::Align::Right},
                 {QStringLiteral("one GPU"), Table::Align::Right},
                 {QStringLiteral("multi-GPU"), Table::Align::Right}});
    const size_t step = std::max<size_t>(1, replay.points.size() / kReplayTableRows);
    for (size_t i = 0; i < replay.points.size(); ++i) {
        if (i % step != 0 && i + 1 != replay.points.size())
            continue;
        const frag::ReplayPoint &p = replay.points[i];
        table.addRow({formatInteger(p.timeS) + QStringLiteral(" s"), pct(p.allocatedPct), pct(p.fragRatioPct),
                      formatInteger(p.queued[size_t(frag::SizeClass::CpuOnly)]),
                      formatInteger(p.queued[size_t(frag::SizeClass::Fractional)]),
                      formatInteger(p.queued[size_t(frag::SizeClass::OneGpu)]),
                      formatInteger(p.queued[size_t(frag::SizeClass::MultiGpu)])});
    }
    table.write(out);
}

void writeTable(QTextStream &out, const frag::RunResult &run, const QString &nodesPath, const QString &tasksPath,
                size_t nodeCount, size_t taskCount)
{
    const QString policy = QString::fromUtf8(frag::toString(run.policy).data(), qsizetype(frag::toString(run.policy).size()));
    writeFields(out, {
        {QStringLiteral("policy"), QStringLiteral("%1, seed %2, %3 scoring").arg(policy).arg(run.seed).arg(modeName(run.mode))},
        {QStringLiteral("cluster"), QStringLiteral("%1 with GPUs of %2 in %3")
                                        .arg(countOf(qint64(run.nodeIndices.size()), QStringLiteral("node"), QStringLiteral("nodes")),
                                             formatInteger(qint64(nodeCount)), QFileInfo(nodesPath).fileName())
                                        + QStringLiteral(", ") + countOf(run.gpus, QStringLiteral("GPU"), QStringLiteral("GPUs"))},
        {QStringLiteral("tasks"), QStringLiteral("%1 in %2; %3 arrived")
                                      .arg(formatInteger(qint64(taskCount)), QFileInfo(tasksPath).fileName(),
                                           formatInteger(run.arrivedTasks))},
        {QStringLiteral("target workload"), QStringLiteral("%1 task types covering %2 % of tasks")
                                                .arg(run.workload.types.size())
                                                .arg(formatDecimal(100.0 * double(run.workload.coveredTasks)
                                                                       / double(std::max<int64_t>(run.workload.totalTasks, 1)), 1, true))},
        {QStringLiteral("at 100 % arrived"), QStringLiteral("%1 allocated, %2 GPUs unallocated")
                                                 .arg(pct(run.allocatedPctAt100), formatDecimal(run.unallocatedGpusAt100, 1, true))},
        {QStringLiteral("failed placements"), QStringLiteral("%1 CPU-only, %2 fractional, %3 one-GPU, %4 multi-GPU")
                                                  .arg(formatInteger(run.failed.cpuOnly), formatInteger(run.failed.fractional),
                                                       formatInteger(run.failed.oneGpu), formatInteger(run.failed.multiGpu))},
        {QStringLiteral("runtime"), formatDecimal(run.runtimeS, 3, true) + QStringLiteral(" s")},
    });
    out << '\n';
    Table table({{QStringLiteral("arrived"), Table::Align::Right},
                 {QStringLiteral("allocated"), Table::Align::Right},
                 {QStringLiteral("fragment / idle"), Table::Align::Right},
                 {QStringLiteral("fragment / capacity"), Table::Align::Right}});
    for (size_t i = 0; i < run.points.size(); ++i) {
        if (i % kTableStepPct != 0 && i + 1 != run.points.size())
            continue;
        const frag::Point &p = run.points[i];
        table.addRow({pct(p.arrivedPct), pct(p.allocatedPct), pct(p.fragRatioPct), pct(p.fragAmountPct)});
    }
    table.write(out);
}

int runFrag(const QStringList &argv, Context &context)
{
    const Args args(argv, {{QStringLiteral("nodes")}, {QStringLiteral("tasks")}, {QStringLiteral("policy")},
                           {QStringLiteral("load")}, {QStringLiteral("seed")}, {QStringLiteral("reserve")},
                           {QStringLiteral("replay"), false}, {QStringLiteral("duration-scale")}, {QStringLiteral("mode")},
                           {QStringLiteral("json"), false}, {QStringLiteral("progress"), false}});
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("frag takes no positional arguments, got '%1'").arg(args.positionals().constFirst()));
    const auto nodesPath = args.text(QStringLiteral("nodes"));
    const auto tasksPath = args.text(QStringLiteral("tasks"));
    if (!nodesPath || nodesPath->isEmpty())
        throw UsageError(QStringLiteral("--nodes is required: a node list CSV (sn,cpu_milli,memory_mib,gpu,model)"));
    if (!tasksPath || tasksPath->isEmpty())
        throw UsageError(QStringLiteral("--tasks is required: a task list CSV (name,cpu_milli,memory_mib,num_gpu,gpu_milli,...)"));
    QStringList policyNames;
    for (const frag::Policy p : frag::allPolicies())
        policyNames << QString::fromUtf8(frag::toString(p).data(), qsizetype(frag::toString(p).size()));
    const auto policyText = args.text(QStringLiteral("policy"));
    if (!policyText)
        throw UsageError(QStringLiteral("--policy is required: %1").arg(policyNames.join(QStringLiteral(", "))));
    frag::RunOptions options;
    if (!frag::parsePolicy(policyText->toStdString(), &options.policy)) {
        QString message = QStringLiteral("--policy: unknown policy '%1'; known: %2").arg(*policyText, policyNames.join(QStringLiteral(", ")));
        const QStringList near = closestMatches(*policyText, policyNames, 1);
        if (!near.isEmpty() && editDistance(*policyText, near.constFirst()) <= 3)
            message += QStringLiteral(" (did you mean '%1'?)").arg(near.constFirst());
        throw UsageError(message);
    }
    const bool replayMode = args.has(QStringLiteral("replay"));
    if (replayMode && args.has(QStringLiteral("load")))
        throw UsageError(QStringLiteral("--load does not apply to --replay: a replay plays every task once by its times"));
    if (!replayMode && args.has(QStringLiteral("duration-scale")))
        throw UsageError(QStringLiteral("--duration-scale applies only to --replay"));
    if (const auto load = args.number(QStringLiteral("load"))) {
        if (!(*load > 0 && *load <= 10))
            throw UsageError(QStringLiteral("--load: must be above 0 and at most 10, got %1").arg(*load));
        options.load = *load;
    }
    options.seed = uint32_t(args.integer(QStringLiteral("seed"), 0, kMaxSeed).value_or(0));
    options.reservedWholeNodes = int(args.integer(QStringLiteral("reserve"), 0, 100000).value_or(0));
    if (const auto mode = args.text(QStringLiteral("mode"))) {
        if (!frag::parseScoreMode(mode->toStdString(), &options.mode))
            throw UsageError(QStringLiteral("--mode: unknown scoring mode '%1'; known: study, exact").arg(*mode));
    }

    const std::vector<frag::Node> nodes = store::readFragNodes(*nodesPath);
    const std::vector<frag::Task> tasks = store::readFragTasks(*tasksPath);
    Progress progress(context.err(), QStringLiteral("frag"), args.has(QStringLiteral("progress")));
    const auto report = [&progress](double fraction) { return progress(fraction); };
    if (replayMode) {
        frag::ReplayOptions replayOptions;
        replayOptions.policy = options.policy;
        replayOptions.seed = options.seed;
        replayOptions.reservedWholeNodes = options.reservedWholeNodes;
        replayOptions.mode = options.mode;
        if (const auto scale = args.number(QStringLiteral("duration-scale"))) {
            if (!(*scale > 0 && *scale <= 1e6))
                throw UsageError(QStringLiteral("--duration-scale: must be above 0 and at most 1000000, got %1").arg(*scale));
            replayOptions.durationScale = *scale;
        }
        const frag::ReplayResult replay = frag::replay(nodes, tasks, replayOptions, report);
        progress.finish();
        if (args.has(QStringLiteral("json")))
            context.out() << jsonText(toJson(replay, options.mode));
        else
            writeReplayTable(context.out(), replay, options.mode, *nodesPath, *tasksPath, tasks.size());
        return 0;
    }
    const frag::RunResult run = frag::simulate(nodes, tasks, options, report);
    progress.finish();
    if (args.has(QStringLiteral("json")))
        context.out() << jsonText(toJson(run));
    else
        writeTable(context.out(), run, *nodesPath, *tasksPath, nodes.size(), tasks.size());
    return 0;
}

} // namespace

Command fragCommand()
{
    return {QStringLiteral("frag"),
            QStringLiteral("GPU fragmentation: replay a task trace with FGD or a baseline policy"),
            QString::fromUtf8(kUsage), &runFrag};
}

} // namespace headroom::cli
