#include "trackingcharts.h"

#include "common/chartstyle.h"
#include "cost/costcharts.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QObject>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr int64_t kDay = 86400;

QString qs(const std::string &text) { return QString::fromStdString(text); }

void attach(QChart *chart, QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

// The actual-cost line: dark blue on the light theme, a lighter blue on dark ones.
QColor actualColor(QChart::ChartTheme theme)
{
    return theme == QChart::ChartThemeLight ? QColor(0x1b, 0x4f, 0x72) : QColor(0x85, 0xc1, 0xe9);
}

// A line's colour, width and dash in one call.
void setLinePen(QLineSeries *series, const QColor &color, qreal width, Qt::PenStyle style = Qt::SolidLine)
{
    QPen pen(color);
    pen.setWidthF(width);
    pen.setStyle(style);
    series->setPen(pen);
}

QString moneyText(const engine::Decimal &amount, const std::string &currency)
{
    return qs(engine::Money{amount, currency}.display());
}

} // namespace

ChartFigure commitmentUtilizationFigure(const CommitmentTrack &track)
{
    const engine::CommitmentUsage &u = track.usage;
    const QString name = qs(u.name.empty() ? u.id : u.name);
    const QString title = QObject::tr("Commitment utilization: %1").arg(name);
    if (track.buckets.empty())
        return emptyFigure(title, QObject::tr("No charged hour."));
    const bool hourly = track.buckets.front().seconds < kDay;
    QString caption = QObject::tr("EffectiveCost of the commitment per %1 (%2): used by resources, and paid for but "
                                  "unused. Utilization %3 %, unused %4 over %5 h used and %6 h unused. Commitment "
                                  "id %7.")
                          .arg(hourly ? QObject::tr("hour") : QObject::tr("UTC day"), qs(u.currency))
                          .arg(QString::number(100.0 * u.utilization, 'f', 1), moneyText(u.unusedCost, u.currency))
                          .arg(u.hoursUsed)
                          .arg(u.hoursUnused)
                          .arg(qs(u.id));
    if (track.termEnd > 0)
        caption += QObject::tr(" The term ends %1.").arg(utcDate(track.termEnd));
    else
        caption += QObject::tr(" Its term end is not in the actuals (no purchase row covering the term).");
    const CommitmentTrack copy = track;
    return {title, caption, [copy, title, hourly](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                const auto &buckets = copy.buckets;
                double top = 0;
                for (const UtilizationBucket &b : buckets)
                    top = std::max(top, (b.used + b.unused).toDouble());
                QString unit;
                const double scale = moneyAxisScale(top, qs(copy.usage.currency), &unit);
                const int64_t from = buckets.front().start;
                int64_t to = buckets.back().start + buckets.back().seconds;
                // A term ending within 90 days of the last charge is drawn, the axis stretched to it:
                // the renewal decision is due.
                const bool termInside = copy.termEnd > from && copy.termEnd <= to + 90 * kDay;
                // Room after the marker for its label.
                if (termInside)
                    to = std::max(to, copy.termEnd + (copy.termEnd - from) / 5);
                QDateTimeAxis *x = utcDateAxis(from, to, hourly ? 7 : 9);
                auto *y = new QValueAxis;
                y->setTitleText(QObject::tr("EffectiveCost per %1 (%2)").arg(hourly ? QObject::tr("hour") : QObject::tr("day"), unit));
                y->setLabelFormat(QStringLiteral("%.2f"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                // Steps: each bucket a flat top over its period.
                auto *zero = new QLineSeries;
                auto *used = new QLineSeries;
                auto *whole = new QLineSeries;
                for (const UtilizationBucket &b : buckets) {
                    const double u0 = b.used.toDouble() / scale;
                    const double w0 = (b.used + b.unused).toDouble() / scale;
                    for (const int64_t t : {b.start, b.start + b.seconds}) {
                        zero->append(utcAxisX(t), 0);
                        used->append(utcAxisX(t), u0);
                        whole->append(utcAxisX(t), w0);
                    }
                }
                auto *usedArea = new QAreaSeries(used, zero);
                usedArea->setName(QObject::tr("Used"));
                usedArea->setColor(QColor(0x2e, 0x86, 0xc1));
                usedArea->setBorderColor(QColor(0x1b, 0x4f, 0x72));
                auto *usedTop = new QLineSeries;
                for (const QPointF &p : used->points())
                    usedTop->append(p);
                auto *unusedArea = new QAreaSeries(whole, usedTop);
                unusedArea->setName(QObject::tr("Unused (paid, idle)"));
                unusedArea->setColor(QColor(0xe6, 0x7e, 0x22));
                unusedArea->setBorderColor(QColor(0xa0, 0x4e, 0x0b));
                attach(chart, usedArea, x, y);
                attach(chart, unusedArea, x, y);
                y->setRange(0, std::max(top / scale * 1.15, 0.01));
                y->applyNiceNumbers();
                if (termInside)
                    addMarkerLine(chart, x, y, utcAxisX(copy.termEnd), y->min(), y->max(), y->max() * 0.93,
                                  QObject::tr("Term ends %1").arg(utcDate(copy.termEnd)), QColor(0xc0, 0x39, 0x2b));
                return chart;
            }};
}

ChartFigure utilizationTrackerFigure(const TrackingResult &result)
{
    const QString title = QObject::tr("Reserve utilization by commitment (%1)").arg(qs(result.currency));
    if (result.commitments.empty())
        return emptyFigure(title, QObject::tr("No usage row in %1 carries a CommitmentDiscountStatus.").arg(qs(result.currency)));
    const QString caption =
        QObject::tr("Utilization = used EffectiveCost ÷ (used + unused), over all the actuals and over the trailing "
                    "%1 h; a commitment under %2 % over the trailing window is flagged under-used.")
            .arg(result.settings.trailingHours)
            .arg(QString::number(100.0 * result.settings.threshold, 'f', 0));
    const TrackingResult copy = result;
    return {title, caption, [copy, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                auto *whole = new QBarSet(QObject::tr("Utilization, all actuals"));
                auto *trailing = new QBarSet(QObject::tr("Utilization, trailing window"));
                QStringList names;
                for (const CommitmentTrack &c : copy.commitments) {
                    QString label = qs(c.usage.name.empty() ? c.usage.id : c.usage.name);
                    if (label.size() > 28)
                        label = label.left(27) + QChar(0x2026);
                    // Categories must be unique: a repeated name gets its position.
                    if (names.contains(label))
                        label += QStringLiteral(" (%1)").arg(names.size() + 1);
                    names << label;
                    *whole << 100.0 * c.usage.utilization;
                    *trailing << 100.0 * c.usage.trailingUtilization;
                }
                whole->setColor(QColor(0x2e, 0x86, 0xc1));
                trailing->setColor(QColor(0x85, 0xc1, 0xe9));
                auto *bars = new QBarSeries;
                bars->append(whole);
                bars->append(trailing);
                auto *x = new QBarCategoryAxis;
                x->append(names);
                auto *y = new QValueAxis;
                y->setRange(0, 110);
                y->setTickCount(12);
                y->setLabelFormat(QStringLiteral("%.0f"));
                y->setTitleText(QObject::tr("Utilization (%)"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                attach(chart, bars, x, y);
                addBarValueLabels(chart, bars, QStringLiteral(" %"));
                // The threshold across every bar: a line on a hidden value axis over the categories.
                auto *span = new QValueAxis;
                span->setRange(0, 1);
                span->setVisible(false);
                chart->addAxis(span, Qt::AlignTop);
                auto *threshold = new QLineSeries;
                threshold->setName(QObject::tr("Under-use threshold %1 %")
                                       .arg(QString::number(100.0 * copy.settings.threshold, 'f', 0)));
                threshold->append(0, 100.0 * copy.settings.threshold);
                threshold->append(1, 100.0 * copy.settings.threshold);
                setLinePen(threshold, QColor(0xc0, 0x39, 0x2b), 1.6, Qt::DashLine);
                attach(chart, threshold, span, y);
                return chart;
            }};
}

ChartFigure anomalyFigure(const TrackingResult &result, int highlighted)
{
    const QString title = QObject::tr("Daily effective cost and anomalies (%1)").arg(qs(result.currency));
    if (!result.daily || result.daily->cost.empty())
        return emptyFigure(title, result.anomalyNote);
    QString caption = QObject::tr("EffectiveCost of every charge by the UTC day it starts. ");
    if (result.anomalies)
        caption += QObject::tr("Holt-Winters with a weekly season fitted on the first %1 days; a day outside its "
                               "one-step P99.5 interval (± %2) is a spike or dip, a run of them or a CUSUM alarm a "
                               "level shift.")
                       .arg(result.anomalies->history)
                       .arg(moneyText(engine::Decimal::fromDouble(result.anomalies->halfWidth).rounded(2), result.currency));
    else
        caption += result.anomalyNote;
    const TrackingResult copy = result;
    return {title, caption, [copy, title, highlighted](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                const engine::DailyCost &daily = *copy.daily;
                double top = 0;
                for (const auto &c : daily.cost)
                    top = std::max(top, c.toDouble());
                QString unit;
                const double scale = moneyAxisScale(top, qs(copy.currency), &unit);
                const int64_t from = daily.firstDay * kDay;
                const int64_t to = (daily.firstDay + int64_t(daily.cost.size())) * kDay;
                QDateTimeAxis *x = utcDateAxis(from, to);
                auto *y = new QValueAxis;
                y->setTitleText(QObject::tr("EffectiveCost per day (%1)").arg(unit));
                y->setLabelFormat(QStringLiteral("%.1f"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                const auto at = [&](size_t i) { return utcAxisX((daily.firstDay + int64_t(i)) * kDay + kDay / 2); };
                auto *line = new QLineSeries;
                line->setName(QObject::tr("Actual"));
                for (size_t i = 0; i < daily.cost.size(); ++i)
                    line->append(at(i), daily.cost[i].toDouble() / scale);
                line->setColor(actualColor(theme));
                attach(chart, line, x, y);
                if (daily.cost.size() == 1) {
                    auto *dot = new QScatterSeries;
                    dot->setName(QObject::tr("Actual"));
                    dot->append(line->points());
                    dot->setColor(actualColor(theme));
                    attach(chart, dot, x, y);
                }
                if (copy.anomalies) {
                    auto *points = new QScatterSeries;
                    points->setName(QObject::tr("Anomaly"));
                    points->setMarkerSize(10);
                    points->setColor(QColor(0xe6, 0x7e, 0x22));
                    for (const engine::Anomaly &a : copy.anomalies->anomalies)
                        points->append(at(size_t(a.index)), daily.cost[size_t(a.index)].toDouble() / scale);
                    attach(chart, points, x, y);
                    if (highlighted >= 0 && highlighted < int(copy.anomalies->anomalies.size())) {
                        const engine::Anomaly &a = copy.anomalies->anomalies[size_t(highlighted)];
                        auto *selected = new QScatterSeries;
                        selected->setObjectName(QStringLiteral("selectedAnomaly"));
                        selected->setName(QObject::tr("Selected"));
                        selected->setMarkerSize(18);
                        selected->setColor(QColor(0xc0, 0x39, 0x2b));
                        selected->append(at(size_t(a.index)), daily.cost[size_t(a.index)].toDouble() / scale);
                        attach(chart, selected, x, y);
                    }
                }
                y->setRange(0, std::max(top / scale * 1.15, 0.01));
                y->applyNiceNumbers();
                return chart;
            }};
}

ChartFigure planFigure(const TrackingResult &result)
{
    const QString title = result.plan ? QObject::tr("Plan versus actual: %1").arg(result.plan->scenario)
                                      : QObject::tr("Plan versus actual");
    if (!result.planResult)
        return emptyFigure(title, result.planNote);
    const engine::PlanVsActual &p = *result.planResult;
    QString caption = QObject::tr("Planned cost per day (the scenario's %1, every digit kept) against the actual "
                                  "EffectiveCost per UTC day; cumulative variance (actual − planned) on the right "
                                  "axis. ")
                          .arg(qs(result.plan->costPerDay.displayRate()));
    if (p.banded)
        caption += QObject::tr("Band: P05–P95 of a Holt-Winters forecast fitted on the first %1 days; %2 % of the %3 "
                               "days since fell inside it%4.")
                       .arg(result.settings.planHistory)
                       .arg(QString::number(100.0 * p.coverage90, 'f', 0))
                       .arg(p.bandedDays)
                       .arg(p.driftDay ? QObject::tr("; drift from %1 (%2 days in a row outside P0.5–P99.5)")
                                             .arg(utcDay(*p.driftDay))
                                             .arg(result.settings.driftPeriods)
                                       : QObject::tr("; no drift"));
    else
        caption += QObject::tr("No forecast band: it needs more than %1 days of actuals.").arg(result.settings.planHistory);
    const TrackingResult copy = result;
    return {title, caption, [copy, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                const engine::PlanVsActual &p = *copy.planResult;
                double top = 0, lowVar = 0, highVar = 0;
                for (const engine::PlanDay &d : p.days) {
                    top = std::max({top, d.actual.toDouble(), d.planned.toDouble(), d.p95.value_or(0.0)});
                    lowVar = std::min(lowVar, d.cumulativeVariance.toDouble());
                    highVar = std::max(highVar, d.cumulativeVariance.toDouble());
                }
                QString unit;
                const double scale = moneyAxisScale(top, qs(p.currency), &unit);
                QString varUnit;
                const double varScale = moneyAxisScale(std::max(std::abs(lowVar), std::abs(highVar)), qs(p.currency), &varUnit);
                const int64_t from = p.days.front().day * kDay;
                const int64_t to = (p.days.back().day + 1) * kDay;
                QDateTimeAxis *x = utcDateAxis(from, to);
                auto *y = new QValueAxis;
                y->setTitleText(QObject::tr("Cost per day (%1)").arg(unit));
                y->setLabelFormat(QStringLiteral("%.1f"));
                auto *yVar = new QValueAxis;
                yVar->setTitleText(QObject::tr("Cumulative variance (%1)").arg(varUnit));
                yVar->setLabelFormat(QStringLiteral("%.1f"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                chart->addAxis(yVar, Qt::AlignRight);
                yVar->setGridLineVisible(false); // the left axis draws the grid; two would not line up
                const auto at = [&](const engine::PlanDay &d) { return utcAxisX(d.day * kDay + kDay / 2); };
                if (p.banded) {
                    auto *lower = new QLineSeries;
                    auto *upper = new QLineSeries;
                    for (const engine::PlanDay &d : p.days)
                        if (d.p05) {
                            lower->append(at(d), *d.p05 / scale);
                            upper->append(at(d), *d.p95 / scale);
                        }
                    auto *band = new QAreaSeries(upper, lower);
                    band->setName(QObject::tr("Forecast P05–P95"));
                    const QColor fill = bandFill(chart, QColor(0x2e, 0x86, 0xc1), 110 / 255.0);
                    band->setColor(fill);
                    band->setBorderColor(fill);
                    upper->setColor(fill);
                    lower->setColor(fill);
                    attach(chart, band, x, y);
                }
                auto *planned = new QLineSeries;
                planned->setName(QObject::tr("Planned"));
                auto *actual = new QLineSeries;
                actual->setName(QObject::tr("Actual"));
                auto *variance = new QLineSeries;
                variance->setName(QObject::tr("Cumulative variance"));
                for (const engine::PlanDay &d : p.days) {
                    planned->append(at(d), d.planned.toDouble() / scale);
                    actual->append(at(d), d.actual.toDouble() / scale);
                    variance->append(at(d), d.cumulativeVariance.toDouble() / varScale);
                }
                setLinePen(planned, QColor(0x27, 0xae, 0x60), 2.0, Qt::DashLine);
                setLinePen(actual, actualColor(theme), 2.2);
                setLinePen(variance, QColor(0xc0, 0x39, 0x2b), 1.4);
                attach(chart, planned, x, y);
                attach(chart, actual, x, y);
                attach(chart, variance, x, yVar);
                y->setRange(0, std::max(top / scale * 1.15, 0.01));
                y->applyNiceNumbers();
                const double pad = std::max((highVar - lowVar) / varScale * 0.1, 0.01);
                yVar->setRange(lowVar / varScale - pad, highVar / varScale + pad);
                yVar->applyNiceNumbers();
                return chart;
            }};
}

namespace {

// A horizontal line across [from, to] at `value`, in the legend under `name`.
void addLevel(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, int64_t from, int64_t to, double value,
              const QString &name, const QColor &color, Qt::PenStyle style)
{
    auto *line = new QLineSeries;
    line->setName(name);
    line->append(utcAxisX(from), value);
    line->append(utcAxisX(to), value);
    setLinePen(line, color, 2.0, style);
    attach(chart, line, x, y);
}

QString perSecondUnit(engine::LoadMeasure measure)
{
    return measure == engine::LoadMeasure::Tokens ? QObject::tr("Generated tokens/s") : QObject::tr("Completed requests/s");
}

} // namespace

ChartFigure servingLoadFigure(const engine::RightsizingResult &result)
{
    const QString title = QObject::tr("Load and capacity: %1").arg(qs(result.deployment));
    if (result.loadByHour.empty())
        return emptyFigure(title, qs(result.explanation));
    const engine::RightsizingResult copy = result;
    return {title, qs(result.explanation), [copy, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                const int64_t from = copy.loadByHour.front().hour * 3600;
                const int64_t to = (copy.loadByHour.back().hour + 1) * 3600;
                const bool hourly = to - from <= 3 * kDay;
                QDateTimeAxis *x = utcDateAxis(from, to, hourly ? 7 : 9);
                auto *y = new QValueAxis;
                // Short: the axis is as tall as the page's chart strip.
                y->setTitleText(copy.load == engine::LoadMeasure::Tokens ? QObject::tr("Tokens/s") : QObject::tr("Requests/s"));
                y->setLabelFormat(QStringLiteral("%.0f"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                double top = 0.0;
                auto *load = new QLineSeries;
                load->setName(perSecondUnit(copy.load)); // every replica together, each clock hour
                for (const engine::HourLoad &h : copy.loadByHour) {
                    // Each hour drawn flat over its clock hour, as the counters credit it.
                    load->append(utcAxisX(h.hour * 3600), h.load);
                    load->append(utcAxisX(h.hour * 3600 + 3600), h.load);
                    top = std::max(top, h.load);
                }
                setLinePen(load, actualColor(theme), 1.4);
                attach(chart, load, x, y);
                const double needed = copy.busyLoad * (1.0 + copy.plannedHeadroom);
                addLevel(chart, x, y, from, to, needed,
                         QObject::tr("Busy load + %1 % headroom").arg(QString::number(copy.plannedHeadroom * 100.0, 'f', 0)),
                         QColor(0xe6, 0x7e, 0x22), Qt::DashLine);
                top = std::max(top, needed);
                if (copy.capacityPerReplica > 0.0) {
                    const double recommended = copy.recommendedReplicas * copy.capacityPerReplica;
                    addLevel(chart, x, y, from, to, recommended,
                             QObject::tr("%n replica(s) recommended", nullptr, copy.recommendedReplicas),
                             QColor(0x1e, 0x84, 0x49), Qt::SolidLine);
                    top = std::max(top, recommended);
                    if (copy.currentReplicas != copy.recommendedReplicas) {
                        const double now = copy.currentReplicas * copy.capacityPerReplica;
                        addLevel(chart, x, y, from, to, now,
                                 QObject::tr("%n replica(s) running", nullptr, copy.currentReplicas),
                                 QColor(0x7f, 0x8c, 0x8d), Qt::DotLine);
                        top = std::max(top, now);
                    }
                }
                y->setRange(0, std::max(top * 1.1, 1.0));
                y->applyNiceNumbers();
                return chart;
            }};
}

ChartFigure goodputFigure(const ServingAnalysis &analysis)
{
    const QString title = QObject::tr("Goodput per GPU by day");
    if (analysis.goodput.empty())
        return emptyFigure(title, QObject::tr("No replica-hour with GPUs (DCGM) and a generation-token counter (vLLM)."));
    QString caption = QObject::tr("Generated tokens ÷ (GPU-hours × 3,600) per UTC day, over every replica-hour with "
                                  "GPUs and a token counter: the figure the benchmark history compares.");
    if (!analysis.benchmarks.empty())
        caption += QObject::tr(" Dashed lines mark the optimizations.");
    const ServingAnalysis copy = analysis;
    return {title, caption, [copy, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                int64_t from = copy.goodput.front().day * kDay;
                int64_t to = (copy.goodput.back().day + 1) * kDay;
                for (const engine::BenchmarkResult &b : copy.benchmarks) {
                    from = std::min(from, b.optimization.day * kDay);
                    to = std::max(to, (b.optimization.day + 1) * kDay);
                }
                QDateTimeAxis *x = utcDateAxis(from, to);
                auto *y = new QValueAxis;
                y->setTitleText(QObject::tr("Tokens/s per GPU"));
                y->setLabelFormat(QStringLiteral("%.0f"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                auto *line = new QLineSeries;
                line->setName(QObject::tr("Goodput per GPU, daily"));
                auto *points = new QScatterSeries;
                points->setName(QObject::tr("Measured day"));
                points->setMarkerSize(7);
                double top = 0.0;
                for (const engine::DailyGoodput &d : copy.goodput) {
                    // At the middle of its day.
                    const double at = utcAxisX(d.day * kDay + kDay / 2);
                    line->append(at, d.goodputPerGpu());
                    points->append(at, d.goodputPerGpu());
                    top = std::max(top, d.goodputPerGpu());
                }
                setLinePen(line, actualColor(theme), 2.0);
                points->setColor(actualColor(theme));
                points->setBorderColor(actualColor(theme));
                attach(chart, line, x, y);
                attach(chart, points, x, y);
                for (QLegendMarker *marker : chart->legend()->markers(points))
                    marker->setVisible(false);
                y->setRange(0, std::max(top * 1.25, 1.0));
                y->applyNiceNumbers();
                for (const engine::BenchmarkResult &b : copy.benchmarks)
                    addMarkerLine(chart, x, y, utcAxisX(b.optimization.day * kDay), y->min(), y->max(), y->max() * 0.95,
                                  qs(b.optimization.name), QColor(0x8e, 0x44, 0xad));
                return chart;
            }};
}

ChartFigure servingUtilizationFigure(const ServingAnalysis &analysis)
{
    const QString title = QObject::tr("Fleet GPU utilization by day");
    if (!analysis.anomalies)
        return emptyFigure(title, analysis.anomalyNote);
    const engine::TelemetryAnomalyReport &r = *analysis.anomalies;
    const QString caption = QObject::tr("Busy GPU-hours ÷ measured GPU-hours per UTC day (DCGM GPU utilization), its "
                                        "one-step Holt-Winters forecast after the first %1 days, and the GPU-hours per "
                                        "day on the right axis; anomalies marked.")
                                .arg(r.utilizationReport.history);
    const engine::TelemetryAnomalyReport copy = r;
    return {title, caption, [copy, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                const int64_t from = copy.days.front().day * kDay;
                const int64_t to = (copy.days.back().day + 1) * kDay;
                QDateTimeAxis *x = utcDateAxis(from, to);
                auto *y = new QValueAxis;
                y->setTitleText(QObject::tr("Utilization (%)"));
                y->setLabelFormat(QStringLiteral("%.0f"));
                auto *yHours = new QValueAxis;
                yHours->setTitleText(QObject::tr("GPU-h a day"));
                yHours->setLabelFormat(QStringLiteral("%.0f"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                chart->addAxis(yHours, Qt::AlignRight);
                yHours->setGridLineVisible(false);
                const auto at = [&](int64_t day) { return utcAxisX(day * kDay + kDay / 2); };
                auto *utilization = new QLineSeries;
                utilization->setName(QObject::tr("Utilization"));
                auto *expected = new QLineSeries;
                expected->setName(QObject::tr("Expected"));
                auto *gpuHours = new QLineSeries;
                gpuHours->setName(QObject::tr("GPU-hours"));
                double topHours = 0.0;
                for (size_t i = 0; i < copy.days.size(); ++i) {
                    const engine::TelemetryDay &d = copy.days[i];
                    if (d.measured())
                        utilization->append(at(d.day), 100.0 * d.utilization());
                    if (i < copy.utilizationReport.expected.size() && std::isfinite(copy.utilizationReport.expected[i]))
                        expected->append(at(d.day), 100.0 * copy.utilizationReport.expected[i]);
                    gpuHours->append(at(d.day), d.gpuHours);
                    topHours = std::max(topHours, d.gpuHours);
                }
                setLinePen(gpuHours, QColor(0x95, 0xa5, 0xa6), 1.4);
                setLinePen(expected, QColor(0x27, 0xae, 0x60), 1.6, Qt::DashLine);
                setLinePen(utilization, actualColor(theme), 2.2);
                attach(chart, gpuHours, x, yHours);
                attach(chart, expected, x, y);
                attach(chart, utilization, x, y);
                auto *utilAnomalies = new QScatterSeries;
                utilAnomalies->setObjectName(QStringLiteral("utilizationAnomalies"));
                utilAnomalies->setName(QObject::tr("Utilization anomaly"));
                utilAnomalies->setMarkerSize(11);
                utilAnomalies->setColor(QColor(0xe6, 0x7e, 0x22));
                auto *hourAnomalies = new QScatterSeries;
                hourAnomalies->setObjectName(QStringLiteral("gpuHourAnomalies"));
                hourAnomalies->setName(QObject::tr("GPU-hours anomaly"));
                hourAnomalies->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
                hourAnomalies->setMarkerSize(10);
                hourAnomalies->setColor(QColor(0xc0, 0x39, 0x2b));
                for (const engine::TelemetryAnomaly &a : copy.anomalies) {
                    const size_t i = size_t(a.day - copy.days.front().day);
                    if (a.series == engine::TelemetrySeries::Utilization)
                        utilAnomalies->append(at(a.day), 100.0 * copy.utilization[i]);
                    else
                        hourAnomalies->append(at(a.day), copy.gpuHours[i]);
                }
                attach(chart, utilAnomalies, x, y);
                attach(chart, hourAnomalies, x, yHours);
                y->setRange(0, 100);
                yHours->setRange(0, std::max(topHours * 1.15, 1.0));
                yHours->applyNiceNumbers();
                return chart;
            }};
}

} // namespace headroom::ui
