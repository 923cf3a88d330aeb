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

} // namespace

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
    const TrainingFigures f = trainingFigures(a, in);
    const ChartFigure &figure = kind == QLatin1String("training-memory") ? f.memory
        : kind == QLatin1String("training-days")                         ? f.days
        : kind == QLatin1String("training-mix")                          ? f.mix
                                                                         : f.growth;
    return reportItemFromFigure(figure);
}

} // namespace headroom::ui
