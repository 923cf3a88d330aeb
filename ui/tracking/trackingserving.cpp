#include "trackingserving.h"

#include "trackingcharts.h"

#include "report/reportsnapshot.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"
#include "engine/inference/sizing_options.h"
#include "store/common/csvreader.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QLocale>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString number(double value, int decimals)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    return QLocale(QLocale::English).toString(value, 'f', decimals);
}

QString percent(const std::optional<double> &change)
{
    if (!change)
        return QStringLiteral("–");
    return (*change > 0 ? QStringLiteral("+") : QString()) + number(*change, 1) + QStringLiteral(" %");
}

QString money(const std::optional<engine::Money> &value)
{
    return value ? qs(value->display()) : QStringLiteral("–");
}

QString costPerMillion(const std::optional<double> &cost, const std::optional<engine::Money> &rate)
{
    if (!cost || !rate)
        return QStringLiteral("–");
    return QStringLiteral("%1 %2").arg(number(*cost, 4), qs(rate->currency));
}

QString day(int64_t days) { return qs(engine::isoDate(engine::dateFromDays(days))); }

} // namespace

ServingAnalysis analyseServing(const store::Workspace &workspace, const ServingSettings &settings)
{
    ServingAnalysis analysis;
    analysis.windowDays = settings.windowDays;
    analysis.trailingDays = settings.trailingDays;
    analysis.plannedHeadroom = workspace.servingAssumptions().plannedHeadroom;
    if (!settings.gpuId.isEmpty()) {
        const auto rates = engine::onDemandRates(workspace.rateCards(),
                                                 QDate::currentDate().toString(Qt::ISODate).toStdString(), "USD");
        for (const engine::GpuRate &rate : rates)
            if (rate.gpuId == settings.gpuId.toStdString()) {
                analysis.rate = rate.perGpuHour;
                analysis.rateSource = qs(rate.gpuId + ", " + rate.source);
            }
    }
    const engine::ServingHours all = workspace.servingHours();
    analysis.hasMetrics = !all.hours.empty();
    const auto optimizations = workspace.optimizations();
    if (analysis.hasMetrics) {
        const engine::ServingHours recent = engine::lastDays(all, settings.trailingDays);
        engine::RightsizingOptions options;
        options.plannedHeadroom = analysis.plannedHeadroom;
        options.ratePerGpuHour = analysis.rate;
        if (settings.ttftSloMs > 0)
            analysis.slo = options.slo = engine::LatencySlo{engine::LatencyKind::Ttft, 0.95, settings.ttftSloMs / 1000.0};
        analysis.rightsizing = engine::rightsize(recent, options);
        analysis.replicas = engine::summarizeReplicas(recent);
        analysis.goodput = engine::dailyGoodput(all);
        engine::TelemetryAnomalyOptions anomalyOptions;
        anomalyOptions.ratePerGpuHour = analysis.rate;
        try {
            const auto days = engine::dailyTelemetry(all);
            const int needed = engine::telemetryAnomalyMinimumDays(anomalyOptions.detector);
            if (int(days.size()) < needed)
                analysis.anomalyNote = QObject::tr("Utilization anomalies need at least %1 whole days (00:00 to 23:00 UTC) "
                                                   "of serving metrics: two weeks to fit the weekly model on and a day "
                                                   "after them. These metrics hold %2.")
                                           .arg(needed)
                                           .arg(days.size());
            else
                analysis.anomalies = engine::detectTelemetryAnomalies(all, anomalyOptions);
        } catch (const engine::InputError &e) {
            analysis.anomalyNote = QObject::tr("No utilization anomalies: %1.").arg(QString::fromUtf8(e.what()));
        }
    } else {
        analysis.anomalyNote = QObject::tr("No serving metrics in this workspace.");
    }
    engine::BenchmarkOptions options;
    options.windowDays = settings.windowDays;
    options.ratePerGpuHour = analysis.rate;
    analysis.benchmarks = engine::benchmarkHistory(all, optimizations, options);
    return analysis;
}

DeckTable rightsizingTable(const ServingAnalysis &analysis)
{
    DeckTable table;
    table.columns = {QObject::tr("Deployment"), QObject::tr("Replicas now"), QObject::tr("GPUs each"),
                     QObject::tr("Busy load (tokens/s)"), QObject::tr("Per replica (tokens/s)"),
                     QObject::tr("Needed"), QObject::tr("GPUs saved"), QObject::tr("Saving / month")};
    for (const auto &r : analysis.rightsizing)
        table.rows << QStringList{qs(r.deployment),
                                  QString::number(r.currentReplicas),
                                  QString::number(r.gpusPerReplica),
                                  r.hours ? number(r.busyLoad, 1) : QStringLiteral("–"),
                                  r.capacityPerReplica > 0 ? number(r.capacityPerReplica, 1) : QStringLiteral("–"),
                                  QString::number(r.recommendedReplicas)
                                      + (!r.saturated ? QString()
                                         : r.slo && r.busyLatency > r.slo->seconds ? QObject::tr(" (SLO missed)")
                                                                                    : QObject::tr(" (queueing)")),
                                  QString::number(r.gpusSaved()),
                                  money(r.savingPerMonth)};
    return table;
}

DeckTable replicasTable(const ServingAnalysis &analysis, bool forSlide)
{
    if (forSlide) {
        // Twelve columns fit a slide: the deployment only when there are several, the two TTFT
        // quantiles in one cell, no peak queue.
        bool several = false;
        for (const auto &s : analysis.replicas)
            several = several || s.deployment != analysis.replicas.front().deployment;
        DeckTable table;
        table.columns = {QObject::tr("Replica"), QObject::tr("Hours"), QObject::tr("GPUs"), QObject::tr("GPU util %"),
                         QObject::tr("Peak %"), QObject::tr("KV cache"), QObject::tr("Requests/s"),
                         QObject::tr("Tokens/s"), QObject::tr("Peak tokens/s"), QObject::tr("Waiting"),
                         QObject::tr("TTFT P50 / P95 (ms)"), QObject::tr("E2E P95 (s)")};
        for (const auto &s : analysis.replicas)
            table.rows << QStringList{several ? qs(s.deployment + " · " + s.instance) : qs(s.instance),
                                      QString::number(s.hours),   QString::number(s.gpus),
                                      number(s.gpuUtilMean, 1),   number(s.gpuUtilPeak, 0),
                                      number(s.kvCacheMean, 2),   number(s.requestsPerSecond, 2),
                                      number(s.tokensPerSecond, 1), number(s.tokensPerSecondPeak, 1),
                                      number(s.waitingMean, 2),
                                      number(s.ttftP50 * 1000.0, 0) + QStringLiteral(" / ") + number(s.ttftP95 * 1000.0, 0),
                                      number(s.e2eP95, 2)};
        return table;
    }
    DeckTable table;
    table.columns = {QObject::tr("Deployment"), QObject::tr("Replica"), QObject::tr("Hours"), QObject::tr("GPUs"),
                     QObject::tr("GPU util %"), QObject::tr("Peak %"), QObject::tr("KV cache"),
                     QObject::tr("Requests/s"), QObject::tr("Tokens/s"), QObject::tr("Peak tokens/s"),
                     QObject::tr("Waiting"), QObject::tr("Peak waiting"), QObject::tr("TTFT P50 (ms)"),
                     QObject::tr("TTFT P95 (ms)"), QObject::tr("E2E P95 (s)")};
    for (const auto &s : analysis.replicas)
        table.rows << QStringList{qs(s.deployment),           qs(s.instance),
                                  QString::number(s.hours),   QString::number(s.gpus),
                                  number(s.gpuUtilMean, 1),   number(s.gpuUtilPeak, 0),
                                  number(s.kvCacheMean, 2),   number(s.requestsPerSecond, 2),
                                  number(s.tokensPerSecond, 1), number(s.tokensPerSecondPeak, 1),
                                  number(s.waitingMean, 2),   number(s.waitingPeak, 0),
                                  number(s.ttftP50 * 1000.0, 0), number(s.ttftP95 * 1000.0, 0),
                                  number(s.e2eP95, 2)};
    return table;
}

DeckTable benchmarkTable(const ServingAnalysis &analysis)
{
    DeckTable table;
    table.columns = {QObject::tr("Optimization"), QObject::tr("Date"),
                     QObject::tr("Tokens/s per GPU before"), QObject::tr("After"), QObject::tr("Change"),
                     QObject::tr("Cost per 1M tokens before"), QObject::tr("After"), QObject::tr("Change"),
                     QObject::tr("TTFT P95 before (ms)"), QObject::tr("After")};
    for (const auto &b : analysis.benchmarks)
        table.rows << QStringList{qs(b.optimization.name),
                                  day(b.optimization.day),
                                  b.before.measured() ? number(b.before.goodputPerGpu(), 1) : QStringLiteral("–"),
                                  b.after.measured() ? number(b.after.goodputPerGpu(), 1) : QStringLiteral("–"),
                                  percent(b.goodputChangePercent),
                                  costPerMillion(b.costBefore, analysis.rate),
                                  costPerMillion(b.costAfter, analysis.rate),
                                  percent(b.costChangePercent),
                                  number(b.ttftP95Before * 1000.0, 0),
                                  number(b.ttftP95After * 1000.0, 0)};
    return table;
}

namespace {

QString signedNumber(double value, int decimals)
{
    const double rounded = std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
    return (rounded > 0 ? QStringLiteral("+") : QString()) + number(rounded == 0.0 ? 0.0 : rounded, decimals);
}

} // namespace

DeckTable telemetryAnomalyTable(const ServingAnalysis &analysis)
{
    DeckTable table;
    table.columns = {QObject::tr("Series"), QObject::tr("Kind"), QObject::tr("Day"),
                     QObject::tr("Utilization %"), QObject::tr("Expected %"),
                     QObject::tr("GPU-hours"), QObject::tr("Expected GPU-hours"),
                     QObject::tr("Size (GPU-h/day)")};
    if (analysis.rate)
        table.columns << QObject::tr("Size (%1/day)").arg(qs(analysis.rate->currency));
    if (!analysis.anomalies)
        return table;
    for (const engine::TelemetryAnomaly &a : analysis.anomalies->anomalies) {
        QStringList row{a.series == engine::TelemetrySeries::Utilization ? QObject::tr("Utilization") : QObject::tr("GPU-hours"),
                        anomalyKindName(a.kind),
                        a.day == a.endDay ? day(a.day) : QObject::tr("%1 (confirmed %2)").arg(day(a.day), day(a.endDay)),
                        number(100.0 * a.utilization, 1),
                        number(100.0 * a.expectedUtilization, 1),
                        number(a.gpuHours, 1),
                        number(a.expectedGpuHours, 1),
                        signedNumber(a.sizeGpuHours, 2)};
        if (analysis.rate)
            row << money(a.sizeMoney);
        table.rows << row;
    }
    return table;
}

QString telemetryAnomalyExplanation(const ServingAnalysis &analysis)
{
    if (!analysis.anomalies)
        return analysis.anomalyNote;
    const engine::TelemetryAnomalyReport &r = *analysis.anomalies;
    QStringList paragraphs;
    paragraphs << QObject::tr("Per UTC day over every replica-hour with GPUs: GPU-hours = Σ GPUs × 1 h; busy GPU-hours = "
                              "Σ GPUs × mean GPU utilization ÷ 100 over the replica-hours with a DCGM_FI_DEV_GPU_UTIL "
                              "sample; fleet utilization = busy ÷ the GPU-hours of those replica-hours (a replica-hour "
                              "without a utilization sample is unknown, not idle).");
    paragraphs << QObject::tr("Each daily series runs through Holt-Winters with a weekly season fitted on the first %1 "
                              "days: a day outside its one-step P99.5 interval (utilization ± %2 points, GPU-hours ± %3) "
                              "is a spike or a dip; three in a row or a CUSUM alarm (k 0.5, h 8 standard deviations) a "
                              "level shift. Size of a utilization anomaly = (utilization − expected) × the day's measured "
                              "GPU-hours: busy GPU-hours above the forecast, idle GPU-hours below it; of a GPU-hours "
                              "anomaly = GPU-hours − expected. A level shift is sized per day.")
                      .arg(r.utilizationReport.history)
                      .arg(number(100.0 * r.utilizationReport.halfWidth, 1))
                      .arg(number(r.gpuHoursReport.halfWidth, 1));
    if (analysis.rate)
        paragraphs.back() += QObject::tr(" Money = the size in GPU-hours as shown × %1 per GPU-hour (%2), to the cent.")
                                 .arg(qs(analysis.rate->displayRate()), analysis.rateSource);
    else
        paragraphs.back() += QObject::tr(" No rate chosen: sizes are not priced.");
    QString found = QObject::tr("%1 whole days from %2 to %3: %4.")
                        .arg(r.days.size())
                        .arg(day(r.days.front().day), day(r.days.back().day))
                        .arg(r.anomalies.empty()       ? QObject::tr("no anomaly")
                             : r.anomalies.size() == 1 ? QObject::tr("1 anomaly")
                                                       : QObject::tr("%1 anomalies").arg(r.anomalies.size()));
    if (r.partialDaysLeftOut > 0)
        found += QObject::tr(" Partial days at the ends left out: %1.").arg(r.partialDaysLeftOut);
    if (r.unmeasuredDays > 0)
        found += QObject::tr(" Days without a utilization sample (carried by interpolation, never flagged): %1.")
                     .arg(r.unmeasuredDays);
    paragraphs << found;
    return paragraphs.join(QStringLiteral("\n\n"));
}

QString rightsizingExplanation(const ServingAnalysis &analysis)
{
    QStringList paragraphs;
    paragraphs << QObject::tr("Needed replicas = ⌈busy-hour load × (1 + planned headroom %1) ÷ the most one replica "
                              "carried for a whole hour with at most 0.5 requests waiting⌉; the busy hour is the P95 "
                              "of the deployment's hourly generated tokens/s. No saving is claimed where requests "
                              "queued at the busy hours. A month is 720 h.")
                      .arg(number(analysis.plannedHeadroom, 2));
    if (analysis.slo)
        paragraphs.back() += QObject::tr(" With the TTFT SLO (P95 ≤ %1 ms), an hour counts toward a replica's capacity "
                                         "only if its TTFT P95 met it, and busy hours whose P95 across the replicas "
                                         "missed it count as queueing. Quantiles are Prometheus' histogram_quantile "
                                         "over vllm:time_to_first_token_seconds_bucket.")
                                  .arg(number(analysis.slo->seconds * 1000.0, 0));
    for (const auto &r : analysis.rightsizing)
        paragraphs << qs(r.explanation);
    if (analysis.rate)
        paragraphs << QObject::tr("Rate: %1 per GPU-hour (%2).").arg(qs(analysis.rate->displayRate()), analysis.rateSource);
    else
        paragraphs << QObject::tr("No rate chosen: savings and costs are not priced.");
    return paragraphs.join(QStringLiteral("\n\n"));
}

QByteArray deckTableCsv(const DeckTable &table)
{
    QString text;
    QStringList header;
    for (const QString &column : table.columns)
        header << store::csvField(column);
    text += header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const QStringList &row : table.rows) {
        QStringList cells;
        for (const QString &cell : row)
            cells << store::csvField(cell);
        text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return text.toUtf8();
}

void appendServingPages(Deck &deck, const store::Workspace &workspace, const ServingSettings &settings)
{
    const ServingAnalysis analysis = analyseServing(workspace, settings);
    if (!settings.gpuId.isEmpty() && !analysis.rate)
        deck.warnings << QObject::tr("No on-demand rate in USD for GPU %1 in the rate cards: the serving pages are not priced.")
                             .arg(settings.gpuId);
    if (analysis.hasMetrics) {
        DeckItem item;
        item.kind = DeckItem::Kind::Table;
        item.title = QObject::tr("Rightsizing from measured goodput");
        item.caption = rightsizingExplanation(analysis);
        item.table = rightsizingTable(analysis);
        int gpusSaved = 0;
        std::optional<engine::Money> saving;
        for (const auto &r : analysis.rightsizing) {
            gpusSaved += r.gpusSaved();
            if (r.savingPerMonth)
                saving = saving ? *saving + *r.savingPerMonth : *r.savingPerMonth;
        }
        item.keyFigures = {{QObject::tr("GPUs that could go"), QString::number(gpusSaved)},
                           {QObject::tr("Saving per month"), money(saving)}};
        deck.items.push_back(item);
        // The load against capacity of each deployment (the first four: a fleet of more is
        // better read in the table above).
        for (size_t i = 0; i < std::min<size_t>(analysis.rightsizing.size(), 4); ++i)
            if (!analysis.rightsizing[i].loadByHour.empty())
                deck.items.push_back(deckFigureItem(servingLoadFigure(analysis.rightsizing[i])));
        DeckItem replicas;
        replicas.kind = DeckItem::Kind::Table;
        replicas.title = QObject::tr("Serving replicas (last %1 days)").arg(settings.trailingDays);
        replicas.caption = QObject::tr("Per replica over the hours measured: GPU utilization (DCGM), KV cache usage, "
                                       "completed requests and generated tokens per second, requests waiting, time to "
                                       "first token and end-to-end latency quantiles from the histogram buckets "
                                       "(vLLM).");
        QStringList deployments;
        for (const auto &s : analysis.replicas)
            if (!deployments.contains(qs(s.deployment)))
                deployments << qs(s.deployment);
        if (deployments.size() == 1)
            replicas.caption += QObject::tr(" Deployment: %1.").arg(deployments.front());
        replicas.table = replicasTable(analysis, true);
        deck.items.push_back(replicas);
    }
    if (analysis.anomalies) {
        deck.items.push_back(deckFigureItem(servingUtilizationFigure(analysis)));
        DeckItem item;
        item.kind = DeckItem::Kind::Table;
        item.title = QObject::tr("Utilization anomalies from GPU telemetry");
        item.caption = telemetryAnomalyExplanation(analysis);
        item.table = telemetryAnomalyTable(analysis);
        double idle = 0.0;
        for (const auto &a : analysis.anomalies->anomalies)
            if (a.series == engine::TelemetrySeries::Utilization && a.kind != engine::AnomalyKind::LevelShift && a.sizeGpuHours < 0)
                idle -= std::round(a.sizeGpuHours * 100.0) / 100.0;   // as shown
        item.keyFigures = {{QObject::tr("Anomalies"), QString::number(analysis.anomalies->anomalies.size())},
                           {QObject::tr("Idle GPU-hours on dip days"), number(idle, 2)}};
        deck.items.push_back(item);
    }
    if (!analysis.benchmarks.empty()) {
        DeckItem item;
        item.kind = DeckItem::Kind::Table;
        item.title = QObject::tr("Benchmark history");
        item.caption = QObject::tr("Each optimization against the %1 days before it: goodput per GPU = generated tokens "
                                   "÷ (GPU-hours × 3,600); cost per 1M tokens = GPU-hours × rate ÷ tokens × 1,000,000.%2")
                           .arg(analysis.windowDays)
                           .arg(analysis.rate ? QObject::tr(" Rate %1 per GPU-hour (%2).")
                                                    .arg(qs(analysis.rate->displayRate()), analysis.rateSource)
                                              : QObject::tr(" No rate chosen: costs are not priced."));
        const bool anyMeasured = std::any_of(analysis.benchmarks.begin(), analysis.benchmarks.end(),
                                             [](const engine::BenchmarkResult &b) {
                                                 return b.before.measured() || b.after.measured();
                                             });
        if (!anyMeasured)
            item.caption += QObject::tr(" No window around any optimization has replica-hours with GPUs and a "
                                        "vllm:generation_tokens_total counter, so none can be measured yet: "
                                        "import the vLLM metrics of those days.");
        item.table = benchmarkTable(analysis);
        deck.items.push_back(item);
        if (!analysis.goodput.empty())
            deck.items.push_back(deckFigureItem(goodputFigure(analysis)));
    }
}

} // namespace headroom::ui
