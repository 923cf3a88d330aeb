#include "trackingjobs.h"

#include "common/chartstyle.h"
#include "report/reportsnapshot.h"

#include "store/tracking/jobtelemetrycsv.h"

#include <QDateTime>
#include <QDateTimeAxis>
#include <QFileInfo>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

namespace headroom::ui {

namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString utc(int64_t seconds)
{
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString number(double value, int decimals)
{
    return QLocale(QLocale::English).toString(value, 'f', decimals);
}

} // namespace

TrainingJobsRun runTrainingJobs(const QString &path, const std::map<std::string, double> &planned,
                                const std::map<std::string, QString> &planSource, double below)
{
    TrainingJobsRun run;
    run.below = below;
    run.telemetryFile = QFileInfo(path).fileName();
    run.planSource = planSource;
    const store::JobTelemetryFile file = store::readJobTelemetryCsv(path);
    run.stalls = engine::auditInputStalls(file.samples);
    const bool throughput = std::any_of(file.samples.begin(), file.samples.end(), [](const engine::JobSample &s) {
        return s.metric == engine::JobMetric::Throughput;
    });
    if (throughput)
        run.goodput = engine::trackJobGoodput(file.samples, planned, below);
    return run;
}

DeckTable stallAuditTable(const TrainingJobsRun &run)
{
    DeckTable table;
    table.columns = {QObject::tr("Job"),          QObject::tr("Last sample (UTC)"), QObject::tr("GPUs"),
                     QObject::tr("GPU-hours"),    QObject::tr("Stalled GPU-hours"), QObject::tr("Share"),
                     QObject::tr("Cores per GPU"), QObject::tr("Recommended")};
    for (const engine::JobStalls &j : run.stalls.jobs)
        table.rows << QStringList{qs(j.job),
                                  utc(j.lastSample),
                                  QString::number(j.gpus),
                                  number(j.allocatedGpuHours, 1),
                                  number(j.stallGpuHours, 1),
                                  number(100.0 * j.share(), 1) + QStringLiteral(" %"),
                                  j.coresPerGpu > 0 ? number(j.coresPerGpu, 1) : QStringLiteral("–"),
                                  j.recommendedCoresPerGpu > 0 ? QString::number(j.recommendedCoresPerGpu) : QStringLiteral("–")};
    const double share = run.stalls.allocatedGpuHours > 0 ? run.stalls.stallGpuHours / run.stalls.allocatedGpuHours : 0;
    table.rows << QStringList{QObject::tr("Total"), QString(), QString(), number(run.stalls.allocatedGpuHours, 1),
                              number(run.stalls.stallGpuHours, 1), number(100.0 * share, 1) + QStringLiteral(" %"),
                              QString(), QString()};
    return table;
}

DeckTable jobGoodputTable(const TrainingJobsRun &run)
{
    DeckTable table;
    table.columns = {QObject::tr("Job"),       QObject::tr("GPU-hours"),   QObject::tr("Per GPU (/s)"),
                     QObject::tr("Plan (/s)"), QObject::tr("Plan from"),   QObject::tr("Hours below"),
                     QObject::tr("Shortfall GPU-hours")};
    if (!run.goodput)
        return table;
    for (const engine::JobGoodputTrack &j : run.goodput->jobs) {
        const bool plan = j.planned > 0;
        const auto source = run.planSource.find(j.job);
        table.rows << QStringList{qs(j.job),
                                  number(j.gpuHours, 1),
                                  number(j.perGpu, 1),
                                  plan ? number(j.planned, 1) : QStringLiteral("–"),
                                  plan && source != run.planSource.end() ? source->second : QObject::tr("no plan"),
                                  plan ? QString::number(j.hoursBelow) : QStringLiteral("–"),
                                  plan ? number(j.shortfallGpuHours, 1) : QStringLiteral("–")};
    }
    return table;
}

ChartFigure jobGoodputFigure(const TrainingJobsRun &run)
{
    const QString title = QObject::tr("Goodput per GPU against plan");
    std::vector<const engine::JobGoodputTrack *> planned;
    if (run.goodput)
        for (const engine::JobGoodputTrack &j : run.goodput->jobs)
            if (j.planned > 0 && !j.hours.empty())
                planned.push_back(&j);
    if (!run.goodput)
        return emptyFigure(title, QObject::tr("No job in %1 reports training_throughput.").arg(run.telemetryFile));
    if (planned.empty())
        return emptyFigure(title, QObject::tr("No job has a plan: name a workspace training job after it, or give its "
                                              "planned rate."));
    int64_t from = planned.front()->hours.front().hourStart, to = from;
    double top = 1.0;
    for (const auto *j : planned)
        for (const engine::JobGoodputHour &h : j->hours) {
            from = std::min(from, h.hourStart);
            to = std::max(to, h.hourStart + 3600);
            top = std::max(top, h.perGpu / j->planned);
        }
    const QString caption =
        QObject::tr("Each hour's samples (or tokens) a second per GPU ÷ the job's plan, from %1; an hour under %2 % "
                    "of plan is flagged, and its shortfall is GPU-hours × (1 − rate ÷ plan).")
            .arg(run.telemetryFile, QString::number(100.0 * run.below, 'f', 0));
    std::vector<std::pair<QString, std::vector<std::pair<int64_t, double>>>> lines;
    for (const auto *j : planned) {
        std::vector<std::pair<int64_t, double>> points;
        for (const engine::JobGoodputHour &h : j->hours)
            points.emplace_back(h.hourStart + 1800, 100.0 * h.perGpu / j->planned);
        lines.emplace_back(QObject::tr("%1 (%2 hours below)").arg(qs(j->job)).arg(j->hoursBelow), std::move(points));
    }
    const double below = run.below;
    return {title, caption, [lines, title, from, to, top, below](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                QDateTimeAxis *x = utcDateAxis(from, to);
                auto *y = new QValueAxis;
                y->setRange(0, std::ceil(top * 11.0) * 10.0);
                y->setLabelFormat(QStringLiteral("%.0f"));
                y->setTitleText(QObject::tr("% of plan"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                for (const auto &[name, points] : lines) {
                    auto *series = new QLineSeries;
                    series->setName(name);
                    series->setPointsVisible(true);
                    for (const auto &[at, percent] : points)
                        series->append(utcAxisX(at), percent);
                    chart->addSeries(series);
                    series->attachAxis(x);
                    series->attachAxis(y);
                }
                auto *threshold = new QLineSeries;
                threshold->setName(QObject::tr("Flag below %1 %").arg(QString::number(100.0 * below, 'f', 0)));
                threshold->append(utcAxisX(from), 100.0 * below);
                threshold->append(utcAxisX(to), 100.0 * below);
                QPen dashed = threshold->pen();
                dashed.setStyle(Qt::DashLine);
                threshold->setPen(dashed);
                chart->addSeries(threshold);
                threshold->attachAxis(x);
                threshold->attachAxis(y);
                shareSeriesColours(chart, theme);
                return chart;
            }};
}

void appendTrainingJobsPages(Deck &deck, const TrainingJobsRun &run)
{
    deck.items.push_back(deckTableItem(
        QObject::tr("Data-loading stalls: the last %1 training jobs").arg(run.stalls.jobs.size()),
        QObject::tr("From %1: allocated GPU-hours spent waiting on input — a GPU idle (activity under 0.5) while the "
                    "job's cores ran at 90 % or more, or the data loader's measured wait. Recommended cores per GPU = "
                    "⌈cores per GPU × allocated ÷ (allocated − stalled)⌉.")
            .arg(run.telemetryFile),
        stallAuditTable(run)));
    if (!run.goodput)
        return;
    deck.items.push_back(deckTableItem(QObject::tr("Goodput per training job"),
                                       QObject::tr("Samples (or tokens) a second per GPU over the GPU-hours held, from %1; "
                                                   "hours below %2 % of the job's plan and the GPU-hours they fell short.")
                                           .arg(run.telemetryFile, QString::number(100.0 * run.below, 'f', 0)),
                                       jobGoodputTable(run)));
    deck.items.push_back(deckFigureItem(jobGoodputFigure(run)));
}

} // namespace headroom::ui
