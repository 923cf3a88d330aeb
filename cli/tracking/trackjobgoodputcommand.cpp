#include "trackjobgoodputcommand.h"

#include "cli/common/format.h"
#include "cli/common/moneyoptions.h"
#include "trackservingcommand.h"

#include "engine/common/errors.h"
#include "engine/tracking/job_goodput.h"
#include "store/tracking/jobtelemetrycsv.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>
#include <set>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(
       headroom track goodput --telemetry FILE.csv [--planned JOB=RATE]... [--below F] [--hours]
                              [--rate R [--currency C] | --gpu ID [--provider P]] [--json]

track goodput
  Goodput per training job over time: from the same job telemetry as `track stalls`, with
  training_throughput per node (samples or tokens a second the job processed there), each job's
  rate per GPU hour by hour (samples ÷ GPU-seconds held, intervals split at the hour) beside its
  GPU-hours, and the hours it fell below --below (default 0.9) of its planned rate. The plan:
  --planned JOB=RATE (samples a second per GPU, repeatable), else the workspace's training job of
  the same name — tokens ÷ (days × 86,400 × GPUs) of its sizing, so that job's throughput must be
  in tokens. Shortfall GPU-hours = Σ over the hours below: GPU-hours × (1 − rate ÷ plan); money
  as shown (0.1) × --rate or --gpu's lowest on-demand rate, to the cent.
  --hours              a row per job and hour
  --json               {"below", "rate_per_gpu_hour", "currency", "jobs": [{"job", "gpu_hours",
                       "samples", "per_gpu", "planned", "plan_source", "hours_below",
                       "shortfall_gpu_hours", "shortfall_cost", "hours": [{"hour", "gpu_hours",
                       "samples", "per_gpu", "below", "shortfall_gpu_hours"}]}],
                       "without_throughput": [job]}
)";

const std::vector<OptionSpec> kOptions = {
    {QStringLiteral("planned"), true, true}, {QStringLiteral("below")}, {QStringLiteral("hours"), false},
};

} // namespace

const std::vector<OptionSpec> &jobGoodputTrackOptions()
{
    return kOptions;
}

QString jobGoodputTrackUsage()
{
    return QString::fromUtf8(kUsage);
}

int runJobGoodputTrack(const Args &args, Context &context)
{
    const auto path = args.text(QStringLiteral("telemetry"));
    if (!path || path->isEmpty())
        throw UsageError(QStringLiteral("track goodput: --telemetry FILE.csv is required"));
    const double below = args.number(QStringLiteral("below")).value_or(0.9);
    std::map<std::string, double> planned;
    std::map<std::string, QString> planSource;
    for (const QString &entry : args.texts(QStringLiteral("planned"))) {
        const qsizetype eq = entry.lastIndexOf(QLatin1Char('='));
        bool ok = false;
        const double rate = eq > 0 ? entry.mid(eq + 1).toDouble(&ok) : 0.0;
        if (eq <= 0 || !ok || !(rate > 0) || !std::isfinite(rate))
            throw UsageError(QStringLiteral("track goodput: --planned '%1': give JOB=RATE, the job's planned samples a "
                                            "second per GPU (more than 0)")
                                 .arg(entry));
        planned[entry.left(eq).toStdString()] = rate;
        planSource[entry.left(eq).toStdString()] = QStringLiteral("--planned");
    }
    QString rateSource;
    const std::optional<engine::Money> rate = trackRate(args, context, QStringLiteral("goodput"), &rateSource);
    const store::JobTelemetryFile file = store::readJobTelemetryCsv(*path);
    // Jobs without a plan given: the workspace's training job of that name, as sized.
    std::set<std::string> names;
    std::vector<std::string> unplanned;
    for (const engine::JobSample &s : file.samples)
        if (names.insert(s.job).second && !planned.count(s.job))
            unplanned.push_back(s.job);
    for (const auto &[name, planRate] : store::plannedTrainingRates(context.workspace(), unplanned)) {
        planned[name] = planRate;
        planSource[name] = QStringLiteral("training job");
    }
    const engine::JobGoodputTracking tracking = engine::trackJobGoodput(file.samples, planned, below);
    const auto cost = [&](double gpuHours) -> QString {
        if (!rate)
            return {};
        return QString::fromStdString(
            (rate->amount * engine::Decimal::fromDouble(gpuHours).rounded(1)).rounded(2).toString(2));
    };

    if (args.has(QStringLiteral("json"))) {
        QJsonArray jobs;
        for (const engine::JobGoodputTrack &j : tracking.jobs) {
            QJsonArray hours;
            for (const engine::JobGoodputHour &h : j.hours)
                hours.append(QJsonObject{{QStringLiteral("hour"), isoUtc(h.hourStart)},
                                         {QStringLiteral("gpu_hours"), h.gpuHours},
                                         {QStringLiteral("samples"), h.samples},
                                         {QStringLiteral("per_gpu"), h.perGpu},
                                         {QStringLiteral("below"), h.below},
                                         {QStringLiteral("shortfall_gpu_hours"), h.shortfallGpuHours}});
            jobs.append(QJsonObject{
                {QStringLiteral("job"), QString::fromStdString(j.job)},
                {QStringLiteral("gpu_hours"), j.gpuHours},
                {QStringLiteral("samples"), j.samples},
                {QStringLiteral("per_gpu"), j.perGpu},
                {QStringLiteral("planned"), j.planned > 0 ? QJsonValue(j.planned) : QJsonValue()},
                {QStringLiteral("plan_source"), j.planned > 0 ? QJsonValue(planSource[j.job]) : QJsonValue()},
                {QStringLiteral("hours_below"), j.hoursBelow},
                {QStringLiteral("shortfall_gpu_hours"), j.shortfallGpuHours},
                {QStringLiteral("shortfall_cost"), rate ? QJsonValue(cost(j.shortfallGpuHours)) : QJsonValue()},
                {QStringLiteral("hours"), hours}});
        }
        QJsonArray without;
        for (const std::string &name : tracking.withoutThroughput)
            without.append(QString::fromStdString(name));
        context.out() << jsonText(QJsonObject{
            {QStringLiteral("below"), below},
            {QStringLiteral("rate_per_gpu_hour"), rate ? QJsonValue(rateString(*rate)) : QJsonValue()},
            {QStringLiteral("currency"), rate ? QJsonValue(QString::fromStdString(rate->currency)) : QJsonValue()},
            {QStringLiteral("jobs"), jobs},
            {QStringLiteral("without_throughput"), without}});
        return 0;
    }
    QTextStream &out = context.out();
    out << "Goodput per GPU of " << tracking.jobs.size() << " jobs; an hour is flagged below "
        << formatDecimal(100.0 * below, 1) << " % of the job's plan.\n\n";
    Table table({{QStringLiteral("job")},
                 {QStringLiteral("GPU-h"), Table::Align::Right},
                 {QStringLiteral("per GPU /s"), Table::Align::Right},
                 {QStringLiteral("planned /s"), Table::Align::Right},
                 {QStringLiteral("plan from")},
                 {QStringLiteral("hours below"), Table::Align::Right},
                 {QStringLiteral("shortfall GPU-h"), Table::Align::Right},
                 {rate ? QStringLiteral("shortfall (%1)").arg(QString::fromStdString(rate->currency)) : QStringLiteral("shortfall"),
                  Table::Align::Right}});
    for (const engine::JobGoodputTrack &j : tracking.jobs)
        table.addRow({QString::fromStdString(j.job), formatDecimal(j.gpuHours, 1, true), formatDecimal(j.perGpu, 1, true),
                      j.planned > 0 ? formatDecimal(j.planned, 1, true) : QStringLiteral("–"),
                      j.planned > 0 ? planSource[j.job] : QStringLiteral("no plan"),
                      j.planned > 0 ? QString::number(j.hoursBelow) : QStringLiteral("–"),
                      j.planned > 0 ? formatDecimal(j.shortfallGpuHours, 1, true) : QStringLiteral("–"),
                      rate && j.planned > 0 ? cost(j.shortfallGpuHours) : QStringLiteral("–")});
    table.write(out);
    if (args.has(QStringLiteral("hours"))) {
        out << '\n';
        Table hours({{QStringLiteral("job")},
                     {QStringLiteral("hour (UTC)")},
                     {QStringLiteral("GPU-h"), Table::Align::Right},
                     {QStringLiteral("per GPU /s"), Table::Align::Right},
                     {QStringLiteral("below plan")},
                     {QStringLiteral("shortfall GPU-h"), Table::Align::Right}});
        for (const engine::JobGoodputTrack &j : tracking.jobs)
            for (const engine::JobGoodputHour &h : j.hours)
                hours.addRow({QString::fromStdString(j.job), isoUtc(h.hourStart), formatDecimal(h.gpuHours, 2, true),
                              formatDecimal(h.perGpu, 1, true), h.below ? QStringLiteral("yes") : QString(),
                              h.below ? formatDecimal(h.shortfallGpuHours, 2, true) : QString()});
        hours.write(out);
    }
    if (!tracking.withoutThroughput.empty()) {
        QStringList names;
        for (const std::string &name : tracking.withoutThroughput)
            names << QString::fromStdString(name);
        out << "\nNo training_throughput from: " << names.join(QStringLiteral(", ")) << ".\n";
    }
    for (const auto &[name, rateValue] : planned) {
        (void)rateValue;
        if (!names.count(name))
            out << "Warning: --planned names " << QString::fromStdString(name) << ", which the telemetry does not hold.\n";
    }
    return 0;
}

} // namespace headroom::cli
