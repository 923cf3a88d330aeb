#include "plancommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"
#include "cli/common/moneyoptions.h"
#include "cli/common/outputfile.h"
#include "scenariocommand.h"

#include "engine/common/errors.h"
#include "engine/fleet/plan.h"
#include "store/fleet/scenarioinputs.h"
#include "store/fleet/scenariojson.h"
#include "store/common/workspace.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <set>

namespace headroom::cli {

namespace {

PlanDeckWriter &deckWriter()
{
    static PlanDeckWriter writer;
    return writer;
}

const char kUsage[] = R"(usage: headroom plan [--scenario NAME | --workload NAME... --job NAME...]
                     [--provider NAME --region NAME] [--as-of DATE] [--start DATE]
                     [--horizon MONTHS] [--gpu ID]... [--weights LIST] [--kv LIST] [--tp LIST]
                     [--own-precisions] [--no-mig] [--pack-min-fleet N]
                     [--commit LIST] [--spot] [--cap GPU=N]... [--max-committed-share F]
                     [--alternatives N] [--create-scenario NAME] [--json]
                     [--deck FILE.pdf [--force]]

The cheapest fleet for every workload and training job of the workspace (README "Portfolio plan"): each
workload on the GPU, weights and KV precision and TP (prefill and decode together or on replicas
of their own) that meet its SLOs at the least cost, the
workloads on one GPU type pooled under one committed base (fixed, whole replicas) with an
elastic top for the rest (spot for all but flagship workloads with --spot), small tenants
packed onto MIG slices of a committed pool, each training job on reserved GPUs of its type or
elastic ones, at the rate card's prices over the term. Exact over that space: every (GPU type,
workload set) pool is priced at every committed count, every MIG pool by the scenario's own
packing, and a dynamic programme assigns the workloads.

Prints the plan (deployments, pools, jobs, cost over the term), why it beats the runner-up,
the runners-up and the cost-against-commitment front; --create-scenario saves the plan as a
fleet scenario that `headroom scenario evaluate` prices to the same cent.

Options:
  --scenario NAME          plan what scenario NAME serves (its workloads and training jobs),
                           at its rate card, as-of date, start, horizon and spot overhead
                           unless given below; prints the scenario's cost beside the plan's
  --workload NAME          a workload to plan (repeatable; default: every workload; more than
                           14 are planned in blocks, see the method line)
  --job NAME               a training job to plan (repeatable; default: every job)
  --provider, --region     the rate card (default: the scenario's, else the workspace's only one)
  --as-of DATE             rates in force at this date (default: the latest cards)
  --start DATE             the term's first day (default: the first of next month)
  --horizon MONTHS         the term, 1..120 (default 12); longer commitments are left out
  --gpu ID                 a GPU to consider (repeatable; default: every GPU the card prices)
  --weights LIST           weights precisions to try (default bf16,fp8,int4)
  --kv LIST                KV cache precisions to try (default bf16,fp8)
  --tp LIST                tensor-parallel degrees to try (default 1,2,4,8)
  --own-precisions         each workload at its profile's weights and KV precision only
  --no-mig                 pack no workload onto MIG slices (default: a workload other than a
                           flagship whose one replica on one slice serves its peak at its SLOs
                           may be, on a GPU type with MIG profiles and no --cap)
  --pack-min-fleet N       pack only when the plan without packing holds at least N GPUs at its
                           peak (default 8; 0: always)
  --commit LIST            commitments for the committed base (default reserved_1y,reserved_3y)
  --spot                   elastic tops may be spot (never a flagship workload's)
  --cap GPU=N              at most N GPUs of the type at any hour (repeatable)
  --max-committed-share F  each committed base at most F of its pool's peak, 0..1 (default 1)
  --alternatives N         runners-up to show, 0..10 (default 3)
  --create-scenario NAME   save the plan as scenario NAME (refused when it exists)
  --json                   print JSON instead of tables
  --deck FILE.pdf          also write the plan's deck: summary (the plan, and the scenario
                           planned beside it), why this plan, the workloads, the pools and jobs,
                           the cost-against-commitment front, warnings and assumptions
  --force                  replace FILE.pdf when it exists

JSON keys: cost_over_term, currency, committed_share, latency_margin, method, lower_bound (no plan
over the space costs less), packing, why [str],
unplaced [str], workloads [{workload, gpu, mig_profile (null: whole GPUs), weights, kv, tp,
peak_gpus, disaggregated, prefill_gpus, binding, ttft_ms, ttft_slo_ms, itl_ms, itl_slo_ms}], pools [{gpu, mig, workloads,
commitment, committed_gpus, elastic, elastic_gpu_hours, peak_gpus, cost_over_term}], jobs [{job, gpu, reserved, tier,
gpus, run_hours, cost_over_term}], runners_up [{cost_over_term, committed_share,
deployments [str]}], front [{max_committed_share, committed_share, cost_over_term}],
scenario (the plan's scenario document), compared {scenario, cost_over_term} with --scenario;
money as exact decimal strings rounded to cents.
)";

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString tierText(engine::PoolTier tier)
{
    return qs(std::string(engine::toString(tier)));
}

QString percentText(double share)
{
    return formatDecimal(share * 100.0, 1, true) + QStringLiteral(" %");
}

template <typename T, typename Parse>
std::vector<T> listOption(const Args &args, const QString &name, Parse parse, const QString &allowed,
                          const std::vector<T> &fallback)
{
    const auto text = args.text(name);
    if (!text)
        return fallback;
    std::vector<T> out;
    for (const QString &item : text->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto value = parse(item.trimmed().toStdString());
        if (!value)
            throw UsageError(QStringLiteral("%1: '%2' is not one of %3").arg(Args::flag(name), item.trimmed(), allowed));
        if (std::find(out.begin(), out.end(), *value) == out.end())
            out.push_back(*value);
    }
    if (out.empty())
        throw UsageError(QStringLiteral("%1: give at least one of %2").arg(Args::flag(name), allowed));
    return out;
}

std::optional<int> parseTp(const std::string &text)
{
    bool ok = false;
    const int tp = QString::fromStdString(text).toInt(&ok);
    if (!ok || tp < 1 || tp > engine::kMaxTensorParallel)
        return std::nullopt;
    return tp;
}

std::optional<engine::PoolTier> parseCommitment(const std::string &text)
{
    const auto tier = engine::parsePoolTier(text);
    if (tier != engine::PoolTier::Reserved1y && tier != engine::PoolTier::Reserved3y)
        return std::nullopt;
    return tier;
}

// "h100-sxm", or "h100-sxm MIG 1g.20gb" for a packed tenant.
QString placeText(const engine::PlannedWorkload &w)
{
    return w.migProfile.empty() ? qs(w.gpuId) : qs(w.gpuId) + QStringLiteral(" MIG ") + qs(w.migProfile);
}

// "280", or "280 (96 prefill)" when prefill and decode run on replicas of their own.
QString peakText(const engine::PlannedWorkload &w)
{
    if (!w.migProfile.empty())
        return QStringLiteral("1 slice");
    return w.disaggregated ? QStringLiteral("%1 (%2 prefill)").arg(formatInteger(w.peakGpus), formatInteger(w.prefillGpus))
                           : formatInteger(w.peakGpus);
}

QString deploymentText(const engine::PlannedWorkload &w)
{
    if (!w.migProfile.empty())
        return QStringLiteral("%1 on %2 %3/%4").arg(qs(w.workload), placeText(w), qs(std::string(engine::toString(w.weights))),
                                                   qs(std::string(engine::toString(w.kv))));
    return QStringLiteral("%1 on %2 %3/%4 TP %5%6").arg(qs(w.workload), qs(w.gpuId), qs(std::string(engine::toString(w.weights))),
                                                       qs(std::string(engine::toString(w.kv))))
        .arg(w.tp)
        .arg(w.disaggregated ? QStringLiteral(" disaggregated") : QString());
}

QJsonObject optionJson(const engine::PlanOption &o)
{
    QJsonArray deployments;
    for (const engine::PlannedWorkload &w : o.workloads)
        deployments.append(deploymentText(w));
    return {{QStringLiteral("cost_over_term"), qs(o.costOverTerm.cents())},
            {QStringLiteral("committed_share"), o.committedShare},
            {QStringLiteral("deployments"), deployments}};
}

QJsonObject resultJson(const engine::PlanResult &r)
{
    const engine::PlanOption &b = r.best;
    QJsonArray workloads;
    for (const engine::PlannedWorkload &w : b.workloads)
        workloads.append(QJsonObject{{QStringLiteral("workload"), qs(w.workload)},
                                     {QStringLiteral("gpu"), qs(w.gpuId)},
                                     {QStringLiteral("mig_profile"),
                                      w.migProfile.empty() ? QJsonValue() : QJsonValue(qs(w.migProfile))},
                                     {QStringLiteral("weights"), qs(std::string(engine::toString(w.weights)))},
                                     {QStringLiteral("kv"), qs(std::string(engine::toString(w.kv)))},
                                     {QStringLiteral("tp"), w.tp},
                                     {QStringLiteral("peak_gpus"), qint64(w.peakGpus)},
                                     {QStringLiteral("disaggregated"), w.disaggregated},
                                     {QStringLiteral("prefill_gpus"), qint64(w.prefillGpus)},
                                     {QStringLiteral("binding"), qs(w.binding)},
                                     {QStringLiteral("ttft_ms"), w.ttftMs},
                                     {QStringLiteral("ttft_slo_ms"), w.ttftSloMs},
                                     {QStringLiteral("itl_ms"), w.itlMs},
                                     {QStringLiteral("itl_slo_ms"), w.itlSloMs}});
    QJsonArray pools;
    for (const engine::PlannedPool &p : b.pools) {
        QJsonArray names;
        for (const std::string &n : p.workloads)
            names.append(qs(n));
        pools.append(QJsonObject{{QStringLiteral("gpu"), qs(p.gpuId)},
                                 {QStringLiteral("mig"), p.mig},
                                 {QStringLiteral("workloads"), names},
                                 {QStringLiteral("commitment"), tierText(p.commitment)},
                                 {QStringLiteral("committed_gpus"), qint64(p.committedGpus)},
                                 {QStringLiteral("elastic"), tierText(p.elastic)},
                                 {QStringLiteral("elastic_gpu_hours"), qint64(p.elasticGpuHours)},
                                 {QStringLiteral("peak_gpus"), qint64(p.peakGpus)},
                                 {QStringLiteral("cost_over_term"), qs(p.costOverTerm.cents())}});
    }
    QJsonArray jobs;
    for (const engine::PlannedJob &j : b.jobs)
        jobs.append(QJsonObject{{QStringLiteral("job"), qs(j.job)},
                                {QStringLiteral("gpu"), qs(j.gpuId)},
                                {QStringLiteral("reserved"), j.reserved},
                                {QStringLiteral("tier"), tierText(j.tier)},
                                {QStringLiteral("gpus"), qint64(j.gpus)},
                                {QStringLiteral("run_hours"), qint64(j.runHours)},
                                {QStringLiteral("cost_over_term"), qs(j.costOverTerm.cents())}});
    QJsonArray runnersUp;
    for (const engine::PlanOption &o : r.runnersUp)
        runnersUp.append(optionJson(o));
    QJsonArray front;
    for (const engine::PlanFrontPoint &p : r.front)
        front.append(QJsonObject{{QStringLiteral("max_committed_share"), p.maxCommittedShare},
                                 {QStringLiteral("committed_share"), p.committedShare},
                                 {QStringLiteral("cost_over_term"), qs(p.costOverTerm.cents())}});
    QJsonArray why, unplaced;
    for (const std::string &line : r.why)
        why.append(qs(line));
    for (const std::string &line : r.unplaced)
        unplaced.append(qs(line));
    return {{QStringLiteral("cost_over_term"), qs(b.costOverTerm.cents())},
            {QStringLiteral("currency"), qs(b.costOverTerm.currency)},
            {QStringLiteral("committed_share"), b.committedShare},
            {QStringLiteral("latency_margin"), b.latencyMargin},
            {QStringLiteral("method"), qs(r.method)},
            {QStringLiteral("lower_bound"), qs(r.lowerBound.cents())},
            {QStringLiteral("packing"), qs(r.packing)},
            {QStringLiteral("why"), why},
            {QStringLiteral("unplaced"), unplaced},
            {QStringLiteral("workloads"), workloads},
            {QStringLiteral("pools"), pools},
            {QStringLiteral("jobs"), jobs},
            {QStringLiteral("runners_up"), runnersUp},
            {QStringLiteral("front"), front}};
}

void writeText(QTextStream &out, const engine::PlanRequest &request, const engine::PlanResult &r)
{
    const engine::PlanOption &b = r.best;
    out << "Plan — " << qs(request.settings.provider) << ' ' << qs(request.settings.region)
        << (request.settings.asOfDate.empty() ? QString() : QStringLiteral(" as of ") + qs(request.settings.asOfDate))
        << ", " << request.settings.horizonMonths << "-month term\n\n";
    Table workloads({{QStringLiteral("Workload")},
                     {QStringLiteral("GPU")},
                     {QStringLiteral("Weights")},
                     {QStringLiteral("KV")},
                     {QStringLiteral("TP"), Table::Align::Right},
                     {QStringLiteral("GPUs at peak"), Table::Align::Right},
                     {QStringLiteral("Bound by")},
                     {QStringLiteral("TTFT / SLO (ms)"), Table::Align::Right},
                     {QStringLiteral("ITL / SLO (ms)"), Table::Align::Right}});
    for (const engine::PlannedWorkload &w : b.workloads)
        workloads.addRow({qs(w.workload), placeText(w), qs(std::string(engine::toString(w.weights))),
                          qs(std::string(engine::toString(w.kv))), QString::number(w.tp), peakText(w),
                          qs(w.binding),
                          formatDecimal(w.ttftMs, 1) + QStringLiteral(" / ") + formatDecimal(w.ttftSloMs, 0),
                          formatDecimal(w.itlMs, 1) + QStringLiteral(" / ") + formatDecimal(w.itlSloMs, 0)});
    workloads.write(out);
    out << '\n';
    Table pools({{QStringLiteral("GPU")},
                 {QStringLiteral("Workloads")},
                 {QStringLiteral("Committed")},
                 {QStringLiteral("GPUs"), Table::Align::Right},
                 {QStringLiteral("Elastic")},
                 {QStringLiteral("Elastic GPU-hours a year"), Table::Align::Right},
                 {QStringLiteral("Most GPUs held"), Table::Align::Right},
                 {QStringLiteral("Over the term"), Table::Align::Right}});
    for (const engine::PlannedPool &p : b.pools) {
        QStringList names;
        for (const std::string &n : p.workloads)
            names << qs(n);
        // A pool of many tenants names a few here; the workloads table and the JSON place every one.
        const QString served = names.size() > 6 ? QStringLiteral("%1 and %2 more").arg(names.mid(0, 3).join(QStringLiteral(", ")))
                                                      .arg(names.size() - 3)
                                                : names.join(QStringLiteral(", "));
        pools.addRow({p.mig ? qs(p.gpuId) + QStringLiteral(" MIG") : qs(p.gpuId), served,
                      p.committedGpus > 0 ? tierText(p.commitment) : QStringLiteral("none"),
                      formatInteger(p.committedGpus), p.mig ? QStringLiteral("none") : tierText(p.elastic),
                      formatInteger(p.elasticGpuHours),
                      formatInteger(p.peakGpus), moneyText(p.costOverTerm)});
    }
    for (const engine::PlannedJob &j : b.jobs)
        pools.addRow({qs(j.gpuId), QStringLiteral("job ") + qs(j.job), j.reserved ? tierText(j.tier) : QStringLiteral("none"),
                      formatInteger(j.reserved ? j.gpus : 0), j.reserved ? QString() : tierText(j.tier),
                      formatInteger(j.reserved ? 0 : j.gpus * j.runHours), formatInteger(j.gpus),
                      moneyText(j.costOverTerm)});
    pools.write(out);
    out << '\n';
    writeFields(out, {{QStringLiteral("Cost over the term"), moneyText(b.costOverTerm)},
                      {QStringLiteral("Committed share of GPU-hours"), percentText(b.committedShare)},
                      {QStringLiteral("Least latency margin"), percentText(b.latencyMargin)},
                      {QStringLiteral("Method"), qs(r.method)},
                      {QStringLiteral("MIG packing"), qs(r.packing)}});
    if (!r.why.empty()) {
        out << "\nWhy this plan:\n";
        for (const std::string &line : r.why)
            out << "  - " << qs(line) << '\n';
    }
    if (!r.runnersUp.empty()) {
        out << "\nRunners-up:\n";
        for (const engine::PlanOption &o : r.runnersUp) {
            QStringList moved;
            for (const engine::PlannedWorkload &w : engine::movedWorkloads(b, o))
                moved << deploymentText(w);
            out << "  - " << moneyText(o.costOverTerm) << " (+" << moneyText(o.costOverTerm - b.costOverTerm)
                << "): " << moved.join(QStringLiteral("; ")) << '\n';
        }
    }
    if (!r.front.empty()) {
        out << "\nCost against commitment (each committed base at most a share of its pool's peak):\n";
        Table front({{QStringLiteral("Most committed"), Table::Align::Right},
                     {QStringLiteral("Committed GPU-hours"), Table::Align::Right},
                     {QStringLiteral("Over the term"), Table::Align::Right}});
        for (const engine::PlanFrontPoint &p : r.front)
            front.addRow({percentText(p.maxCommittedShare), percentText(p.committedShare), moneyText(p.costOverTerm)});
        front.write(out);
    }
    if (!r.unplaced.empty()) {
        out << "\nNot planned:\n";
        for (const std::string &line : r.unplaced)
            out << "  - " << qs(line) << '\n';
    }
}

int runPlan(const QStringList &argList, Context &context)
{
    const Args args(argList, {{QStringLiteral("scenario")},
                              {QStringLiteral("workload"), true, true},
                              {QStringLiteral("job"), true, true},
                              {QStringLiteral("provider")},
                              {QStringLiteral("region")},
                              {QStringLiteral("as-of")},
                              {QStringLiteral("start")},
                              {QStringLiteral("horizon")},
                              {QStringLiteral("gpu"), true, true},
                              {QStringLiteral("weights")},
                              {QStringLiteral("kv")},
                              {QStringLiteral("tp")},
                              {QStringLiteral("commit")},
                              {QStringLiteral("spot"), false},
                              {QStringLiteral("own-precisions"), false},
                              {QStringLiteral("no-mig"), false},
                              {QStringLiteral("pack-min-fleet")},
                              {QStringLiteral("cap"), true, true},
                              {QStringLiteral("max-committed-share")},
                              {QStringLiteral("alternatives")},
                              {QStringLiteral("create-scenario")},
                              {QStringLiteral("json"), false},
                              {QStringLiteral("deck")},
                              {QStringLiteral("force"), false}});
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("plan: unexpected argument '%1'").arg(args.positionals().constFirst()));
    // The deck's file is checked before the work, so that a typo costs nothing.
    const std::optional<QString> deck = args.text(QStringLiteral("deck"));
    store::ExistingFile existing = store::ExistingFile::Refuse;
    if (deck) {
        if (!deck->endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
            throw UsageError(QStringLiteral("--deck %1: the deck is a PDF; give a file name ending in .pdf").arg(*deck));
        if (!deckWriter())
            throw UsageError(QStringLiteral("--deck: this build of headroom cannot paint a deck"));
        existing = checkOutputFile(QStringLiteral("--deck"), *deck, args.has(QStringLiteral("force")));
    } else if (args.has(QStringLiteral("force"))) {
        throw UsageError(QStringLiteral("--force replaces the --deck file: give --deck FILE.pdf"));
    }
    store::Workspace &workspace = context.workspace();
    engine::PlanRequest request;
    request.inputs = store::scenarioInputs(workspace);
    QStringList notes; // what the request leaves out, for the deck

    // What to plan: a scenario's workloads and jobs, the ones named, or all.
    std::optional<engine::Scenario> against;
    const QStringList workloadNames = args.texts(QStringLiteral("workload"));
    const QStringList jobNames = args.texts(QStringLiteral("job"));
    if (const auto name = args.text(QStringLiteral("scenario"))) {
        if (!workloadNames.isEmpty() || !jobNames.isEmpty())
            throw UsageError(QStringLiteral("--scenario plans the scenario's workloads and jobs: leave out --workload and --job"));
        against = findScenario(workspace, *name);
        std::vector<std::string> missingWorkloads, missingJobs;
        request = engine::scenarioPlanRequest(*against, request.inputs, &missingWorkloads, &missingJobs);
        for (const std::string &w : missingWorkloads)
            notes << QStringLiteral("Scenario '%1' names workload '%2', which is not in the workspace: it is left out "
                                    "of the plan.").arg(*name, qs(w));
        for (const std::string &j : missingJobs)
            notes << QStringLiteral("Scenario '%1' names training job '%2', which is not a sizable job of the "
                                    "workspace: it is left out of the plan.").arg(*name, qs(j));
        for (const QString &note : notes)
            context.err() << QStringLiteral("headroom: note: %1\n").arg(note);
    }
    if (!workloadNames.isEmpty()) {
        std::vector<engine::WorkloadProfile> chosen;
        for (const QString &name : workloadNames) {
            const auto it = std::find_if(request.inputs.workloads.begin(), request.inputs.workloads.end(),
                                         [&](const engine::WorkloadProfile &w) { return qs(w.name) == name; });
            if (it == request.inputs.workloads.end())
                throw UsageError(QStringLiteral("--workload: '%1' is not a workload of the workspace").arg(name));
            chosen.push_back(*it);
        }
        request.inputs.workloads = chosen;
    }
    if (!jobNames.isEmpty()) {
        std::vector<engine::TrainingJobLoad> chosen;
        for (const QString &name : jobNames) {
            const auto it = std::find_if(request.inputs.trainingJobs.begin(), request.inputs.trainingJobs.end(),
                                         [&](const engine::TrainingJobLoad &j) { return qs(j.name) == name; });
            if (it == request.inputs.trainingJobs.end())
                throw UsageError(QStringLiteral("--job: '%1' is not a sizable training job of the workspace").arg(name));
            chosen.push_back(*it);
        }
        request.inputs.trainingJobs = chosen;
    }

    request.settings.name = args.text(QStringLiteral("create-scenario")).value_or(QStringLiteral("plan")).toStdString();
    request.settings.description = against ? "The cheapest plan for what scenario \"" + against->name + "\" serves."
                                           : std::string("The cheapest plan for the portfolio at its SLOs.");
    request.settings.author = "headroom plan";
    if (const auto asOf = args.text(QStringLiteral("as-of")))
        request.settings.asOfDate = asOf->toStdString();
    if (const auto start = args.text(QStringLiteral("start")))
        request.settings.startDate = start->toStdString();
    request.settings.horizonMonths =
        int(args.integer(QStringLiteral("horizon"), 1, 120).value_or(against ? against->horizonMonths : 12));

    engine::PortfolioOptions &o = request.options;
    for (const QString &gpu : args.texts(QStringLiteral("gpu"))) {
        if (!engine::findGpu(request.inputs.gpus, gpu.toStdString()))
            throw UsageError(QStringLiteral("--gpu: '%1' is not in the catalog").arg(gpu));
        o.gpuIds.push_back(gpu.toStdString());
    }
    o.weights = listOption(args, QStringLiteral("weights"), engine::parseWeightPrecision, QStringLiteral("bf16, fp8, int4"),
                           o.weights);
    o.kv = listOption(args, QStringLiteral("kv"), engine::parseKvPrecision, QStringLiteral("bf16, fp8"), o.kv);
    o.tps = listOption(args, QStringLiteral("tp"), parseTp, QStringLiteral("1..64"), o.tps);
    o.commitments = listOption(args, QStringLiteral("commit"), parseCommitment, QStringLiteral("reserved_1y, reserved_3y"),
                               o.commitments);
    o.spot = args.has(QStringLiteral("spot"));
    o.ownPrecisions = args.has(QStringLiteral("own-precisions"));
    if (o.ownPrecisions && (args.has(QStringLiteral("weights")) || args.has(QStringLiteral("kv"))))
        throw UsageError(QStringLiteral("--own-precisions keeps each workload's precisions: leave out --weights and --kv"));
    o.packMig = !args.has(QStringLiteral("no-mig"));
    o.packMinFleetGpus = args.integer(QStringLiteral("pack-min-fleet"), 0, 1000000).value_or(o.packMinFleetGpus);
    for (const QString &cap : args.texts(QStringLiteral("cap"))) {
        const qsizetype at = cap.indexOf(QLatin1Char('='));
        bool ok = false;
        const qint64 gpus = at > 0 ? cap.mid(at + 1).toLongLong(&ok) : 0;
        if (at <= 0 || !ok || gpus < 0)
            throw UsageError(QStringLiteral("--cap: expected GPU=N with N ≥ 0, got '%1'").arg(cap));
        o.caps.push_back({cap.left(at).toStdString(), gpus});
    }
    if (const auto share = args.number(QStringLiteral("max-committed-share"))) {
        if (*share < 0 || *share > 1)
            throw UsageError(QStringLiteral("--max-committed-share: expected 0..1, got %1").arg(*share));
        o.maxCommittedShare = *share;
    }
    o.alternatives = int(args.integer(QStringLiteral("alternatives"), 0, 10).value_or(o.alternatives));
    const auto create = args.text(QStringLiteral("create-scenario"));
    if (create && workspace.scenarioSummary(*create))
        throw UsageError(QStringLiteral("--create-scenario: scenario '%1' exists; choose another name").arg(*create));

    // The rate card: as given, or the workspace's only one.
    std::set<std::pair<std::string, std::string>> cards;
    for (const engine::RateCard &card : request.inputs.rateCards)
        cards.insert({card.provider, card.region});
    const auto provider = args.text(QStringLiteral("provider"));
    const auto region = args.text(QStringLiteral("region"));
    if (provider.has_value() != region.has_value())
        throw UsageError(QStringLiteral("--provider and --region go together"));
    if (provider) {
        request.settings.provider = provider->toStdString();
        request.settings.region = region->toStdString();
        if (!cards.count({request.settings.provider, request.settings.region}))
            throw UsageError(QStringLiteral("--provider/--region: the workspace has no rate card %1 %2").arg(*provider, *region));
    } else if (against) {
        // the scenario's card
    } else if (cards.size() == 1) {
        request.settings.provider = cards.begin()->first;
        request.settings.region = cards.begin()->second;
    } else {
        QStringList known;
        for (const auto &[p, r] : cards)
            known << qs(p + " " + r);
        throw UsageError(cards.empty() ? QStringLiteral("the workspace has no rate card to price a plan")
                                       : QStringLiteral("give --provider and --region: the workspace has rate cards %1")
                                             .arg(known.join(QStringLiteral(", "))));
    }
    engine::PlanResult result;
    try {
        result = engine::planPortfolio(request);
    } catch (const engine::InputError &e) {
        throw UsageError(QStringLiteral("plan: %1").arg(qs(e.what())));
    }
    if (create) {
        workspace.putScenario(result.best.scenario);
        context.err() << QStringLiteral("headroom: saved the plan as scenario '%1'\n").arg(*create);
    }
    std::optional<engine::ScenarioResult> compared;
    if (against)
        compared = engine::evaluateScenario(*against, store::scenarioInputs(workspace));
    if (deck) {
        const int pages = deckWriter()(workspace, request, result, compared, notes, *deck, existing);
        context.err() << QStringLiteral("headroom: wrote the plan deck %1: %2 pages\n")
                             .arg(QDir::toNativeSeparators(*deck))
                             .arg(pages);
    }
    if (args.has(QStringLiteral("json"))) {
        QJsonObject json = resultJson(result);
        json.insert(QStringLiteral("scenario"), store::scenarioToJson(result.best.scenario));
        if (compared)
            json.insert(QStringLiteral("compared"),
                        QJsonObject{{QStringLiteral("scenario"), qs(compared->name)},
                                    {QStringLiteral("cost_over_term"), qs(compared->costOverTerm.cents())}});
        context.out() << jsonText(json);
        return 0;
    }
    writeText(context.out(), request, result);
    if (compared) {
        const engine::Money saving = compared->costOverTerm - result.best.costOverTerm;
        context.out() << QStringLiteral("\nScenario \"%1\" costs %2 over the same term: the plan %3 %4.\n")
                             .arg(qs(compared->name), moneyText(compared->costOverTerm),
                                  saving.amount.isNegative() ? QStringLiteral("costs") : QStringLiteral("saves"),
                                  moneyText(saving.amount.isNegative() ? engine::Money{-saving.amount, saving.currency} : saving));
    }
    return 0;
}

} // namespace

void setPlanDeckWriter(PlanDeckWriter writer)
{
    deckWriter() = std::move(writer);
}

Command planCommand()
{
    return {QStringLiteral("plan"),
            QStringLiteral("the cheapest fleet for every workload and training job at their SLOs"),
            QString::fromUtf8(kUsage), &runPlan};
}

} // namespace headroom::cli
