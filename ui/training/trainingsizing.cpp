#include "trainingsizing.h"

#include "trainingcharts.h"

#include "common/chartstyle.h"
#include "common/format.h"
#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "report/reportsnapshot.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr int kHoursPerWeek = 168;

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

QString flops(double value)
{
    const int exponent = int(std::floor(std::log10(std::max(value, 1.0))));
    return QStringLiteral("%1 × 10^%2").arg(value / std::pow(10.0, exponent), 0, 'f', 2).arg(exponent);
}

QString days(double value)
{
    return formatNumber(value, value < 10 ? 2 : 1);
}

QString termName(TrainingPriceTerm term)
{
    return trainingTermName(term).toLower();
}

void planMix(const store::Workspace &workspace, const TrainingPageInputs &in, const engine::TrainingJob &job,
             const engine::GpuSpec &gpu, TrainingAnalysis &a)
{
    engine::MixInput input;
    input.horizonHours = int64_t(in.horizonWeeks) * kHoursPerWeek;
    input.sharedPoolGpus = in.sharedPool;

    // Inference: workloads planned on this GPU type, their provisioned GPUs shaped by the day.
    QStringList skipped;
    for (const auto &w : workspace.workloads()) {
        if (w.gpuId != job.gpuId)
            continue;
        const auto model = workspace.model(text(w.modelId));
        if (!model) {
            skipped << text(w.name);
            continue;
        }
        try {
            const engine::SizingResult r = engine::sizeInference(w, *model, gpu);
            if (!r.feasible) {
                skipped << text(w.name);
                continue;
            }
            const std::array<double, 24> day = engine::hourlyGpuNeed(w, double(r.gpus));
            engine::InferenceDemand demand;
            demand.name = w.name;
            demand.gpusPerHour.assign(day.begin(), day.end());
            input.inference.push_back(std::move(demand));
        } catch (const engine::InputError &) {
            skipped << text(w.name);
        }
    }

    // Training: every job on this GPU type from the earliest start date on.
    std::vector<std::pair<engine::TrainingJob, engine::TrainingPlan>> plans;
    for (const auto &other : workspace.trainingJobs()) {
        if (other.gpuId != job.gpuId)
            continue;
        if (other.name == job.name) {
            plans.emplace_back(job, *a.plan);
            continue;
        }
        std::optional<engine::ModelSpec> model;
        if (!other.modelId.empty())
            model = workspace.model(text(other.modelId));
        try {
            plans.emplace_back(other, engine::sizeTraining(other, gpu, model ? &*model : nullptr));
        } catch (const engine::InputError &) {
            skipped << text(other.name);
        }
    }
    QDate start;
    for (const auto &[j, plan] : plans) {
        const QDate date = QDate::fromString(text(j.startDate), Qt::ISODate);
        if (date.isValid() && (!start.isValid() || date < start))
            start = date;
    }
    if (!start.isValid())
        start = QDate::currentDate();
    a.mixStartDate = start.toString(Qt::ISODate).toStdString();
    input.startDate = a.mixStartDate;
    for (const auto &[j, plan] : plans) {
        engine::TrainingDemand demand;
        demand.name = j.name;
        demand.gpus = plan.gpusNodeRounded;
        demand.minGpus = std::min(plan.minGpusForMemory, plan.gpusNodeRounded);
        demand.gpuHours = plan.gpuHours;
        const QDate date = QDate::fromString(text(j.startDate), Qt::ISODate);
        demand.earliestStartHour = date.isValid() ? std::max<int64_t>(0, start.daysTo(date) * 24) : 0;
        demand.priority = j.priority;
        input.training.push_back(demand);
    }
    if (!skipped.isEmpty())
        a.notes.append(QObject::tr("Left out of the mixed cluster (cannot be sized on %1): %2.")
                          .arg(text(gpu.name), skipped.join(QStringLiteral(", "))));
    try {
        a.mix = engine::planMixedCluster(input);
    } catch (const engine::InputError &e) {
        a.notes.append(QObject::tr("Mixed cluster not planned — %1: %2").arg(text(e.field()), QString::fromUtf8(e.what())));
    }
}

void planGrowth(const TrainingPageInputs &in, TrainingAnalysis &a)
{
    engine::GrowthInput input;
    input.leadWeeks = a.leadWeeks;
    input.startMonth = a.mixStartDate.substr(0, 7);
    double inferenceNow = 0, trainingNow = double(a.plan->gpusNodeRounded);
    int64_t installed = in.installed;
    if (a.mix) {
        // The dynamically shared pool: inference at its peak, training in what remains.
        inferenceNow = double(a.mix->dynamic.inferenceGpus);
        trainingNow = double(a.mix->dynamic.trainingGpus);
        if (installed < 0)
            installed = a.mix->dynamic.gpus;
    }
    input.installedGpus = std::max<int64_t>(0, installed);
    a.installedGpus = input.installedGpus;
    engine::GrowthStream inference;
    inference.name = "inference";
    inference.kind = engine::WorkloadKind::Inference;
    inference.gpusNow = inferenceNow;
    inference.monthlyGrowth = in.inferenceGrowth / 100.0;
    engine::GrowthStream training;
    training.name = "training";
    training.kind = engine::WorkloadKind::Training;
    training.gpusNow = trainingNow;
    training.monthlyGrowth = in.trainingGrowth / 100.0;
    input.streams = {inference, training};
    try {
        a.growth = engine::planGrowth(input);
        int64_t added = 0;
        const engine::GrowthMonth *first = nullptr;
        for (const engine::GrowthMonth &month : a.growth) {
            added += month.capacityToAdd;
            if (!first && month.capacityToAdd > 0)
                first = &month;
        }
        if (first)
            a.notes.append(QObject::tr("Growth: %1 to add over %2 beyond the %3 installed; the first %4 in %5, "
                             "to be ordered by %6 (lead time %7)%8.")
                              .arg(formatGpus(added),
                                   formatCountOf(int64_t(a.growth.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n month(s)")))
                              .arg(formatCount(input.installedGpus), formatCount(first->capacityToAdd),
                                   text(first->label), text(first->orderByLabel))
                              .arg(formatCountOf(input.leadWeeks, QT_TRANSLATE_NOOP("headroom::ui", "%n week(s)")))
                              .arg(first->orderByMonth < 0 ? QObject::tr(" — already overdue") : QString()));
        else
            a.notes.append(QObject::tr("Growth: the %1 installed cover all %2.")
                              .arg(formatGpus(input.installedGpus),
                                   formatCountOf(int64_t(a.growth.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n month(s)"))));
    } catch (const engine::InputError &e) {
        a.notes.append(QObject::tr("Growth not planned — %1: %2").arg(text(e.field()), QString::fromUtf8(e.what())));
    }
}

} // namespace

QJsonObject trainingSource(const char *kind, const TrainingPageInputs &in)
{
    return {{QStringLiteral("kind"), QLatin1String(kind)},
            {QStringLiteral("job"), in.job},
            {QStringLiteral("rate_card"), in.rateCard},
            {QStringLiteral("term"), int(in.term)},
            {QStringLiteral("horizon_weeks"), in.horizonWeeks},
            {QStringLiteral("shared_pool"), in.sharedPool},
            {QStringLiteral("inference_growth"), in.inferenceGrowth},
            {QStringLiteral("training_growth"), in.trainingGrowth},
            {QStringLiteral("installed"), in.installed}};
}

QString trainingTermName(TrainingPriceTerm term)
{
    switch (term) {
    case TrainingPriceTerm::Reserved1y:
        return QObject::tr("1-year commitment");
    case TrainingPriceTerm::Reserved3y:
        return QObject::tr("3-year commitment");
    case TrainingPriceTerm::Spot:
        return QObject::tr("Spot");
    case TrainingPriceTerm::OnDemand:
        break;
    }
    return QObject::tr("On-demand");
}

TrainingAnalysis analyseTraining(const store::Workspace &workspace, const TrainingPageInputs &in)
{
    TrainingAnalysis a;
    auto job = workspace.trainingJob(in.job);
    if (!job) {
        a.error = QObject::tr("No training job to size yet: add one on the Training jobs page.");
        return a;
    }
    const auto gpu = workspace.gpu(text(job->gpuId));
    std::optional<engine::ModelSpec> model;
    if (!job->modelId.empty())
        model = workspace.model(text(job->modelId));
    if (!gpu || (!job->modelId.empty() && !model)) {
        a.error = !gpu ? QObject::tr("The job's GPU \"%1\" is not in the catalog.").arg(text(job->gpuId))
                       : QObject::tr("The job's model \"%1\" is not in the catalog.").arg(text(job->modelId));
        return a;
    }

    engine::TrainingPricing pricing;
    const auto rateCard = in.rateCard.isEmpty() ? std::nullopt : workspace.rateCard(in.rateCard);
    if (rateCard && rateCard->gpuId != job->gpuId) {
        a.notes << QObject::tr("The rate card is for %1, the job runs on %2: no cost shown.")
                     .arg(text(rateCard->gpuId), text(job->gpuId));
    } else if (rateCard) {
        const TrainingPriceTerm term = in.term;
        engine::Decimal rate = rateCard->onDemand;
        const engine::Decimal chosen = term == TrainingPriceTerm::Reserved1y ? rateCard->reserved1y
            : term == TrainingPriceTerm::Reserved3y                          ? rateCard->reserved3y
            : term == TrainingPriceTerm::Spot                                ? rateCard->spot
                                                                     : rateCard->onDemand;
        if (chosen.isZero())
            a.notes << QObject::tr("The card offers no %1 rate: priced on-demand.").arg(termName(in.term));
        else
            rate = chosen;
        pricing.ratePerGpuHour = engine::Money{rate, rateCard->currency};
        a.rate = pricing.ratePerGpuHour;
        pricing.interruptionsPerGpuHour = rateCard->spotInterruptionRate.toDouble();
        if (job->preemptible && pricing.interruptionsPerGpuHour <= 0)
            a.notes << QObject::tr("The card gives no spot interruption rate: no preemption loss is expected.");
    }
    try {
        const engine::ModelSpec *modelPtr = model ? &*model : nullptr;
        a.plan = engine::sizeTraining(*job, *gpu, modelPtr, pricing);
        // The layout planned (the search's where the job leaves it open) for the curve and
        // every figure below.
        const engine::TrainingLayout &layout = a.plan->layout;
        job->tp = layout.tp;
        job->pp = layout.pp;
        job->ep = layout.ep;
        job->zeroStage = layout.zeroStage;
        job->virtualStages = layout.virtualStages;
        job->recompute = layout.recompute;
        job->globalBatchTokens = layout.globalBatchTokens;
        a.daysCurve = engine::daysVersusGpus(engine::resolveTraining(*job, *gpu, modelPtr), 40);
    } catch (const engine::InputError &e) {
        a.plan.reset();
        a.error = QObject::tr("Cannot size %1 — %2: %3").arg(text(job->name), text(e.field()), QString::fromUtf8(e.what()));
        return a;
    }
    a.leadWeeks = rateCard ? rateCard->reservationLeadWeeks : 0;
    planMix(workspace, in, *job, *gpu, a);
    planGrowth(in, a);
    a.job = *job;
    a.gpu = *gpu;
    return a;
}

TrainingFigures trainingFigures(const TrainingAnalysis &a, const TrainingPageInputs &in)
{
    TrainingFigures f;
    if (!a.error.isEmpty()) {
        const QString why = QObject::tr("Nothing to show: %1").arg(a.error);
        f.memory = emptyFigure(QObject::tr("Memory per GPU by ZeRO stage"), why);
        f.days = emptyFigure(QObject::tr("Days versus GPUs"), why);
        f.mix = emptyFigure(QObject::tr("Mixed cluster"), why);
        f.growth = emptyFigure(QObject::tr("Capacity growth"), why);
    } else {
        const engine::TrainingJob &job = *a.job;
        const engine::GpuSpec &gpu = *a.gpu;

        const engine::TrainingPlan p = *a.plan;
        const QString name = text(job.name);
        const QString memoryTitle = QObject::tr("Memory per GPU by ZeRO stage — %1").arg(name);
        f.memory = ChartFigure{memoryTitle,
             QObject::tr("Mixed-precision Adam on %1 of %2 (TP %3, PP %4): 16 bytes per parameter unsharded, optimizer "
                "states, then gradients, then weights sharded over the data-parallel ranks by ZeRO-1, 2 and 3. "
                "Weights and gradients in BF16, optimizer states in FP32. Activations per Korthikanti et al. (2022), "
                "%5 attention, recomputation %6, micro-batch %7.")
                 .arg(formatGpus(p.gpus), text(gpu.name))
                 .arg(job.tp)
                 .arg(job.pp)
                 .arg(text(std::string(engine::toString(job.attention))), text(std::string(engine::toString(job.recompute))))
                 .arg(p.microBatch),
             [p, memoryTitle, total = gpu.memoryBytes](QChart::ChartTheme theme) {
                 return buildZeroMemoryChart(p.memoryByStage, p.memory.zeroStage, total, p.usableMemoryBytes, memoryTitle,
                                             theme);
             }};

        const std::vector<engine::DaysPoint> curve = a.daysCurve;
        const std::optional<double> window =
            job.target == engine::TrainingTarget::WindowDays ? std::optional<double>(job.targetValue) : std::nullopt;
        const QString daysTitle = QObject::tr("Days versus GPUs — %1").arg(name);
        f.days = ChartFigure{daysTitle,
             QObject::tr("Wall-clock days for %1 FLOPs on %2 as GPUs are added (multiples of TP × PP = %3), with communication "
                "overhead by interconnect; dotted where the ZeRO-%4 model states do not fit.")
                 .arg(flops(p.totalFlops), text(gpu.name))
                 .arg(job.tp * job.pp)
                 .arg(job.zeroStage),
             [curve, window, gpus = p.gpus, planDays = p.days, daysTitle](QChart::ChartTheme theme) {
                 return buildDaysVersusGpusChart(curve, window, gpus, planDays, daysTitle, theme);
             }};

        if (a.mix) {
            const engine::MixResult mix = *a.mix;
            const QString mixTitle = QObject::tr("Shared cluster over %1 — %2").arg(formatCountOf(in.horizonWeeks, QT_TRANSLATE_NOOP("headroom::ui", "%n week(s)")), text(gpu.name));
            f.mix = ChartFigure{mixTitle,
                 QObject::tr("Dynamic sharing of %1 from %2: inference takes its hourly need first, training jobs fill the "
                    "rest by priority. A hard split needs %3.")
                     .arg(formatGpus(mix.dynamic.gpus), text(a.mixStartDate), formatGpus(mix.partitioned.gpus)),
                 [mix, mixTitle](QChart::ChartTheme theme) { return buildMixTimelineChart(mix, mixTitle, theme); }};
        } else {
            f.mix = emptyFigure(QObject::tr("Shared cluster"), QObject::tr("The mixed cluster could not be planned."));
        }

        if (!a.growth.empty()) {
            const std::vector<engine::GrowthMonth> months = a.growth;
            const int lead = a.leadWeeks;
            const int64_t installed = a.installedGpus;
            const QString growthTitle = QObject::tr("Capacity over %1 — %2").arg(formatCountOf(int64_t(months.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n month(s)")), text(gpu.name));
            f.growth = ChartFigure{growthTitle,
                 QObject::tr("Inference grows %1 %/month, training %2 %/month, compounded; the line is the capacity installed "
                    "after each month's additions. Reservation lead time %3.")
                     .arg(in.inferenceGrowth, 0, 'f', 1)
                     .arg(in.trainingGrowth, 0, 'f', 1)
                     .arg(formatCountOf(lead, QT_TRANSLATE_NOOP("headroom::ui", "%n week(s)"))),
                 [months, installed, growthTitle](QChart::ChartTheme theme) {
                     return buildGrowthChart(months, installed, growthTitle, theme);
                 }};
        } else {
            f.growth = emptyFigure(QObject::tr("Capacity growth"), QObject::tr("The growth plan could not be computed."));
        }
    }
    f.memory.source = trainingSource("training-memory", in);
    f.days.source = trainingSource("training-days", in);
    f.mix.source = trainingSource("training-mix", in);
    f.growth.source = trainingSource("training-growth", in);
    return f;
}

QString trainingNodesText(const TrainingAnalysis &a)
{
    const engine::TrainingPlan &p = *a.plan;
    return p.nodeRounded
        ? QObject::tr("%1 of %2 (NVLink for TP %3)")
              .arg(formatCountOf(p.nodes, QT_TRANSLATE_NOOP("headroom::ui", "%n whole node(s)")))
              .arg(a.gpu->gpusPerNode)
              .arg(a.job->tp)
        : QObject::tr("as much as %1; no tensor parallelism, any GPUs will do")
              .arg(formatCountOf(p.nodes, QT_TRANSLATE_NOOP("headroom::ui", "%n node(s)")));
}

QString trainingCostProduct(const TrainingAnalysis &a, const TrainingPageInputs &in)
{
    const engine::TrainingPlan &p = *a.plan;
    return p.cost && a.rate ? QObject::tr("%1 GPU-hours × %2 (%3)")
                                  .arg(formatCount(p.billedGpuHours), text(a.rate->displayRate()), termName(in.term))
                            : QString();
}

DeckTable trainingResultsTable(const TrainingAnalysis &a, const TrainingPageInputs &in)
{
    DeckTable table{{QObject::tr("Result"), QObject::tr("Value")}, {}};
    if (!a.error.isEmpty())
        return table;
    const engine::TrainingJob &job = *a.job;
    const engine::GpuSpec &gpu = *a.gpu;
    const engine::TrainingPlan &p = *a.plan;
    const QString nodes = trainingNodesText(a);
    const QString product = trainingCostProduct(a, in);
    std::vector<std::pair<QString, QString>> rows;
    for (const std::string &warning : p.warnings)
        rows.push_back({QObject::tr("Warning"), text(warning)});
    rows.push_back({QObject::tr("Layout"), QObject::tr("TP %1 × PP %2%3 × DP %4, ZeRO-%5, recomputation %6, %7 tokens per step%8%9")
                                      .arg(job.tp)
                                      .arg(job.virtualStages > 1 ? QObject::tr("%1 (%2 interleaved chunks per GPU)")
                                                                       .arg(job.pp)
                                                                       .arg(job.virtualStages)
                                                                 : QString::number(job.pp))
                                      .arg(job.ep > 1 ? QObject::tr(" × EP %1").arg(job.ep) : QString())
                                      .arg(formatCount(p.dataParallel))
                                      .arg(job.zeroStage)
                                      .arg(text(std::string(engine::toString(job.recompute))),
                                           formatScaledCount(p.layout.globalBatchTokens),
                                           p.batchFollowsFleet ? QObject::tr(" (follows the fleet)") : QString(),
                                           p.searched ? QObject::tr(" — searched: %1 layouts tried, %2 fit")
                                                            .arg(formatCount(p.layoutsEvaluated),
                                                                 formatCount(p.layoutsFitting))
                                                      : QString())});
    rows.push_back({QObject::tr("Total compute"), QObject::tr("%1 FLOPs (%2 per token × %3 tokens)")
                                              .arg(flops(p.totalFlops), flops(p.totalFlops / p.tokens),
                                                   formatScaledCount(p.tokens))});
    rows.push_back({QObject::tr("GPUs (raw)"), QObject::tr("%1 — %2 data-parallel replicas × TP %3 × PP %4")
                                          .arg(formatCount(p.gpusRaw), formatCount(p.dataParallel))
                                          .arg(job.tp)
                                          .arg(job.pp)});
    rows.push_back({QObject::tr("GPUs (whole nodes)"), QObject::tr("%1 — %2").arg(formatCount(p.gpusNodeRounded), nodes)});
    rows.push_back({QObject::tr("Wall-clock time"), QObject::tr("%1 days on %2").arg(days(p.days), formatGpus(p.gpus))});
    rows.push_back({QObject::tr("GPU-hours"), formatCount(int64_t(std::llround(p.gpuHours)))});
    rows.push_back({QObject::tr("Cost"), p.cost ? QObject::tr("%1 = %2").arg(product, text(p.cost->display()))
                                       : QObject::tr("— (choose a rate card for %1)").arg(text(gpu.id))});
    rows.push_back({QObject::tr("Throughput per GPU"), QObject::tr("%1 TFLOP/s of %2 peak BF16 (%3 of peak)")
                                                  .arg(formatNumber(p.effectiveTflopsPerGpu, 1), formatNumber(p.peakTflopsPerGpu, 0),
                                                       formatPercent(p.peakTflopsPerGpu > 0 ? p.effectiveTflopsPerGpu / p.peakTflopsPerGpu : 0))});
    rows.push_back({QObject::tr("Memory per GPU (ZeRO-%1)").arg(p.memory.zeroStage),
                    QObject::tr("%1 of %2 usable — weights %3, gradients %4, optimizer %5, activations %6")
                        .arg(formatGiB(int64_t(p.memory.totalBytes())), formatGiB(p.usableMemoryBytes),
                             formatGiB(int64_t(p.memory.weightsBytes)), formatGiB(int64_t(p.memory.gradientsBytes)),
                             formatGiB(int64_t(p.memory.optimizerBytes)), formatGiB(int64_t(p.memory.activationsBytes)))});
    rows.push_back({QObject::tr("Min GPUs for memory"), p.minGpusForMemory > 0 ? formatCount(p.minGpusForMemory) : QObject::tr("none fits")});
    if (p.comm.applied)
        rows.push_back({QObject::tr("Communication overhead"),
                        QObject::tr("%1 lost (efficiency %2): per step %3 s compute, %4 s exposed gradient traffic over %5, "
                           "%6 s tensor-parallel over %7, %8 s pipeline bubble")
                            .arg(formatPercent(1 - p.comm.efficiency), formatPercent(p.comm.efficiency))
                            .arg(p.comm.computeSeconds, 0, 'f', 2)
                            .arg(p.comm.dpExposedSeconds, 0, 'f', 2)
                            .arg(text(p.comm.dpLink))
                            .arg(p.comm.tpSeconds, 0, 'f', 2)
                            .arg(text(p.comm.tpLink))
                            .arg(p.comm.bubbleSeconds, 0, 'f', 2)});
    else
        rows.push_back({QObject::tr("Communication overhead"), QObject::tr("none added: achieved TFLOP/s taken as measured")});
    if (p.preemption)
        rows.push_back({QObject::tr("Preemption loss"),
                        p.preemption->makesProgress
                            ? QObject::tr("%1 of wall time lost (%2 interruptions, %3 h each) → %4 days, %5 GPU-hours")
                                  .arg(formatPercent(p.preemption->lostFraction))
                                  .arg(p.preemption->expectedInterruptions, 0, 'f', 1)
                                  .arg(p.preemption->lossPerInterruptionHours, 0, 'f', 2)
                                  .arg(days(p.preemption->effectiveDays))
                                  .arg(formatCount(int64_t(std::llround(p.preemption->effectiveGpuHours))))
                            : QObject::tr("interruptions come faster than checkpoints: the job never finishes")});
    else
        rows.push_back({QObject::tr("Preemption loss"), QObject::tr("none: not preemptible")});
    rows.push_back({QObject::tr("CPU cores"), QObject::tr("%1 (%2 per GPU)").arg(formatCount(p.cpuCores)).arg(job.cpuCoresPerGpu)});
    rows.push_back({QObject::tr("Largest sensible fleet"), QObject::tr("%1 → %2 days (%3)")
                                                      .arg(formatGpus(p.fleetLimit.gpus), days(p.fleetLimit.days),
                                                           text(p.fleetLimit.reason))});
    for (const auto &[result, value] : rows)
        table.rows << QStringList{result, value};
    return table;
}

std::optional<store::ReportItem> trainingReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                    QString *problem)
{
    problem->clear();
    const QString kind = source.value(QStringLiteral("kind")).toString();
    if (!kind.startsWith(QLatin1String("training-")))
        return std::nullopt;
    TrainingPageInputs in;
    in.job = source.value(QStringLiteral("job")).toString();
    in.rateCard = source.value(QStringLiteral("rate_card")).toString();
    in.term = TrainingPriceTerm(std::clamp(source.value(QStringLiteral("term")).toInt(), 0, 3));
    in.horizonWeeks = source.value(QStringLiteral("horizon_weeks")).toInt(in.horizonWeeks);
    in.sharedPool = source.value(QStringLiteral("shared_pool")).toInt(in.sharedPool);
    in.inferenceGrowth = source.value(QStringLiteral("inference_growth")).toDouble();
    in.trainingGrowth = source.value(QStringLiteral("training_growth")).toDouble();
    in.installed = source.value(QStringLiteral("installed")).toInt(in.installed);
    if (!workspace.trainingJob(in.job)) {
        *problem = QObject::tr("training job \"%1\" no longer exists").arg(in.job);
        return std::nullopt;
    }
    const TrainingAnalysis a = analyseTraining(workspace, in);
    if (!a.error.isEmpty()) {
        *problem = a.error;
        return std::nullopt;
    }
    if (kind == QLatin1String("training-table"))
        return reportItemFromTable(QString(), QString(), trainingResultsTable(a, in), source);
    const TrainingFigures f = trainingFigures(a, in);
    const ChartFigure &figure = kind == QLatin1String("training-memory") ? f.memory
        : kind == QLatin1String("training-days")                         ? f.days
        : kind == QLatin1String("training-mix")                          ? f.mix
                                                                         : f.growth;
    return reportItemFromFigure(figure);
}

} // namespace headroom::ui
