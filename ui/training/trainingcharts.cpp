#include "trainingcharts.h"

#include "common/chartstyle.h"
#include "common/format.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QDate>
#include <QLocale>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr double kGiB = double(int64_t(1) << 30);

const QColor kWeightsColor(0x3b, 0x6e, 0xb4);
const QColor kGradientsColor(0xe0, 0x8a, 0x2e);
const QColor kOptimizerColor(0x4a, 0x9a, 0x5b);
const QColor kActivationsColor(0x8e, 0x5e, 0xa8);
const QColor kInferenceColor(0x3b, 0x6e, 0xb4);
const QColor kTrainingColor(0xe0, 0x8a, 0x2e);
const QColor kIdleColor(0xa8, 0xad, 0xb4);
const QColor kLimitColor(0xc0, 0x39, 0x2b);
const QColor kUsableColor(0x7f, 0x8c, 0x8d);

// Adds the series, and the axes when the chart does not have them yet.
void attach(QChart *chart, QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *y)
{
    if (!chart->axes().contains(x))
        chart->addAxis(x, Qt::AlignBottom);
    if (!chart->axes().contains(y))
        chart->addAxis(y, Qt::AlignLeft);
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

QLineSeries *styledLine(const QString &name, const QColor &color, Qt::PenStyle style, qreal width)
{
    auto *line = new QLineSeries;
    line->setName(name);
    QPen pen(color);
    pen.setStyle(style);
    pen.setWidthF(width);
    line->setPen(pen);
    return line;
}

// A log axis range from `low` to `high` widened to whole decades (or 1-2-5 steps).
void setLogRange(QLogValueAxis *axis, double low, double high)
{
    const double from = std::pow(10.0, std::floor(std::log10(std::max(low, 1e-9))));
    const double to = std::pow(10.0, std::ceil(std::log10(std::max(high, from * 10))));
    axis->setRange(from, to);
}

// "2026-03" → "Mar 26"; other labels ("M3") as they are.
QString shortMonth(const std::string &label)
{
    const QDate date = QDate::fromString(QString::fromStdString(label) + QStringLiteral("-01"), Qt::ISODate);
    return date.isValid() ? QLocale(QLocale::English).toString(date, QStringLiteral("MMM yy"))
                          : QString::fromStdString(label);
}

} // namespace

QString formatScaledCount(double value)
{
    static const struct {
        double scale;
        const char *suffix;
    } kScales[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    for (const auto &s : kScales) {
        if (std::abs(value) >= s.scale)
            return QStringLiteral("%1 %2").arg(QString::number(value / s.scale, 'g', 4), QLatin1String(s.suffix));
    }
    return QString::number(value, 'f', 0);
}

QChart *buildZeroMemoryChart(const std::array<engine::MemoryBreakdown, 4> &stages, int chosenStage,
                             int64_t gpuMemoryBytes, int64_t usableMemoryBytes, const QString &title,
                             QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    const struct {
        QString name;
        double (*get)(const engine::MemoryBreakdown &);
        QColor color;
    } parts[] = {
        {QObject::tr("Weights"), [](const engine::MemoryBreakdown &m) { return m.weightsBytes; }, kWeightsColor},
        {QObject::tr("Gradients"), [](const engine::MemoryBreakdown &m) { return m.gradientsBytes; },
         kGradientsColor},
        {QObject::tr("Optimizer"),
         [](const engine::MemoryBreakdown &m) { return m.optimizerBytes; }, kOptimizerColor},
        {QObject::tr("Activations"), [](const engine::MemoryBreakdown &m) { return m.activationsBytes; },
         kActivationsColor},
    };
    auto *series = new QStackedBarSeries;
    double top = double(gpuMemoryBytes) / kGiB;
    for (const auto &part : parts) {
        auto *set = new QBarSet(part.name);
        set->setColor(part.color);
        set->setBorderColor(part.color.darker(120));
        for (const auto &stage : stages)
            *set << part.get(stage) / kGiB;
        series->append(set);
    }
    for (const auto &stage : stages)
        top = std::max(top, stage.totalBytes() / kGiB);
    series->setBarWidth(0.6);

    auto *x = new QBarCategoryAxis;
    QStringList categories;
    for (int stage = 0; stage < int(stages.size()); ++stage) {
        const auto &m = stages[size_t(stage)];
        // Short enough for a quarter of a narrow plot: the axis title explains the marks.
        QString label = QObject::tr("ZeRO-%1").arg(stage) + (m.fits ? QObject::tr(" ✓") : QObject::tr(" ✗"));
        if (stage == chosenStage)
            label += QObject::tr("<br>chosen");
        categories << label;
    }
    x->append(categories);
    x->setTitleText(QObject::tr("ZeRO stage at the plan's GPU count (✓ fits, ✗ too big)"));
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("GiB per GPU"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    attach(chart, series, x, y);
    y->setRange(0, top * 1.12);
    y->applyNiceNumbers();

    const double lastX = double(stages.size()) - 0.5;
    auto *memory = styledLine(QObject::tr("GPU %1").arg(formatGiB(gpuMemoryBytes, 0)), kLimitColor,
                              Qt::SolidLine, 2.0);
    memory->append(-0.5, double(gpuMemoryBytes) / kGiB);
    memory->append(lastX, double(gpuMemoryBytes) / kGiB);
    attach(chart, memory, x, y);
    auto *usable = styledLine(QObject::tr("Usable %1").arg(formatGiB(usableMemoryBytes, 0)),
                              kUsableColor, Qt::DashLine, 1.6);
    usable->append(-0.5, double(usableMemoryBytes) / kGiB);
    usable->append(lastX, double(usableMemoryBytes) / kGiB);
    attach(chart, usable, x, y);
    return chart;
}

QChart *buildDaysVersusGpusChart(const std::vector<engine::DaysPoint> &points, std::optional<double> windowDays,
                                 int64_t planGpus, double planDays, const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    auto *x = new QLogValueAxis;
    x->setBase(10);
    x->setTitleText(QObject::tr("GPUs (log)"));
    x->setLabelFormat(QStringLiteral("%g"));
    x->setMinorTickCount(8);
    auto *y = new QLogValueAxis;
    y->setBase(10);
    y->setTitleText(QObject::tr("Wall-clock days (log)"));
    y->setLabelFormat(QStringLiteral("%g"));
    y->setMinorTickCount(8);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const QColor lineColor = chart->titleBrush().color();
    auto *fits = styledLine(QObject::tr("Days, states fit"), kWeightsColor, Qt::SolidLine, 2.4);
    auto *tooBig = styledLine(QObject::tr("Days, too big"), kWeightsColor, Qt::DotLine, 1.6);
    double minX = 1e18, maxX = 1, minY = 1e18, maxY = 1e-9;
    for (const engine::DaysPoint &p : points) {
        if (p.gpus <= 0 || !(p.days > 0))
            continue;
        (p.fitsMemory ? fits : tooBig)->append(double(p.gpus), p.days);
        minX = std::min(minX, double(p.gpus));
        maxX = std::max(maxX, double(p.gpus));
        minY = std::min(minY, p.days);
        maxY = std::max(maxY, p.days);
    }
    // The not-fitting part joins the fitting curve where it starts.
    if (tooBig->count() > 0 && fits->count() > 0)
        tooBig->append(fits->at(0));
    chart->addSeries(fits);
    chart->addSeries(tooBig);
    fits->attachAxis(x);
    fits->attachAxis(y);
    tooBig->attachAxis(x);
    tooBig->attachAxis(y);
    if (tooBig->count() == 0)
        for (QLegendMarker *m : chart->legend()->markers(tooBig))
            m->setVisible(false);
    if (planGpus > 0 && planDays > 0) {
        minX = std::min(minX, double(planGpus));
        maxX = std::max(maxX, double(planGpus));
        minY = std::min(minY, planDays);
        maxY = std::max(maxY, planDays);
    }
    if (windowDays) {
        minY = std::min(minY, *windowDays);
        maxY = std::max(maxY, *windowDays);
    }
    if (minX > maxX) {
        minX = 1;
        maxX = 10;
        minY = 1;
        maxY = 10;
    }
    setLogRange(x, minX, maxX);
    setLogRange(y, minY, maxY);

    if (windowDays) {
        auto *window = styledLine(QObject::tr("Target window %1 days").arg(*windowDays, 0, 'g', 4), kLimitColor,
                                  Qt::DashLine, 1.6);
        window->append(x->min(), *windowDays);
        window->append(x->max(), *windowDays);
        attach(chart, window, x, y);
    }
    if (planGpus > 0 && planDays > 0) {
        auto *plan = new QScatterSeries;
        plan->setName(QObject::tr("Plan: %1, %2 days").arg(formatGpus(planGpus)).arg(planDays, 0, 'f', 1));
        plan->setMarkerSize(11);
        plan->setColor(kGradientsColor);
        plan->setBorderColor(lineColor);
        plan->append(double(planGpus), planDays);
        attach(chart, plan, x, y);
    }
    return chart;
}

QChart *buildMixTimelineChart(const engine::MixResult &mix, const QString &title, QChart::ChartTheme theme,
                              int maxPoints)
{
    QChart *chart = newStyledChart(title, theme);
    const auto &timeline = mix.dynamic.timeline;
    const int64_t hours = int64_t(timeline.size());
    const int64_t bin = std::max<int64_t>(1, (hours + maxPoints - 1) / std::max(1, maxPoints));
    auto *x = new QValueAxis;
    x->setTitleText(bin > 1 ? QObject::tr("Week of the plan (%1-hour averages)").arg(bin)
                            : QObject::tr("Week of the plan (hourly)"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("GPUs"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    // Cumulative boundaries: inference, + training, + idle = the shared pool.
    auto *inferenceTop = new QLineSeries;
    auto *trainingTop = new QLineSeries;
    auto *idleTop = new QLineSeries;
    auto *base = new QLineSeries;
    for (int64_t start = 0; start < hours; start += bin) {
        const int64_t end = std::min(hours, start + bin);
        double inference = 0, training = 0, idle = 0;
        for (int64_t h = start; h < end; ++h) {
            inference += timeline[size_t(h)].inference;
            training += timeline[size_t(h)].training;
            idle += timeline[size_t(h)].idle;
        }
        const double n = double(end - start);
        // Each bin is drawn as a step at its start and its end, so averages read as levels.
        for (const double at : {double(start), double(end)}) {
            const double week = at / 168.0;
            base->append(week, 0);
            inferenceTop->append(week, inference / n);
            trainingTop->append(week, (inference + training) / n);
            idleTop->append(week, (inference + training + idle) / n);
        }
    }
    const struct {
        QString name;
        QLineSeries *upper;
        QLineSeries *lower;
        QColor color;
    } layers[] = {
        {QObject::tr("Inference (has priority)"), inferenceTop, base, kInferenceColor},
        {QObject::tr("Training (fills what is left)"), trainingTop, inferenceTop, kTrainingColor},
        {QObject::tr("Idle"), idleTop, trainingTop, kIdleColor},
    };
    for (const auto &layer : layers) {
        auto *area = new QAreaSeries(layer.upper, layer.lower);
        area->setName(layer.name);
        QColor fill = layer.color;
        fill.setAlpha(200);
        area->setBrush(fill);
        area->setPen(Qt::NoPen);
        attach(chart, area, x, y);
    }
    const double weeks = std::max(1.0, double(hours) / 168.0);
    x->setRange(0, weeks);
    x->setTickCount(std::min(13, int(std::ceil(weeks)) + 1));
    const double top = double(std::max(mix.dynamic.gpus, mix.partitioned.gpus));
    y->setRange(0, std::max(1.0, top * 1.08));
    y->applyNiceNumbers();
    if (mix.partitioned.gpus > 0) {
        auto *partitioned = styledLine(QObject::tr("Partitioned cluster: %1").arg(formatGpus(mix.partitioned.gpus)),
                                       kLimitColor, Qt::DashLine, 1.6);
        partitioned->append(0, double(mix.partitioned.gpus));
        partitioned->append(weeks, double(mix.partitioned.gpus));
        attach(chart, partitioned, x, y);
    }
    return chart;
}

QChart *buildGrowthChart(const std::vector<engine::GrowthMonth> &months, int64_t installedGpus, const QString &title,
                         QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    auto *series = new QStackedBarSeries;
    auto *inference = new QBarSet(QObject::tr("Inference GPUs needed"));
    auto *training = new QBarSet(QObject::tr("Training GPUs needed"));
    inference->setColor(kInferenceColor);
    training->setColor(kTrainingColor);
    auto *adds = styledLine(QObject::tr("Installed after additions"), kLimitColor, Qt::SolidLine, 1.8);
    QStringList categories;
    double top = 1;
    int64_t installed = installedGpus;
    int firstAdd = -1;
    for (size_t i = 0; i < months.size(); ++i) {
        const auto &m = months[i];
        *inference << m.inferenceGpus;
        *training << m.trainingGpus;
        categories << shortMonth(m.label);
        installed += m.capacityToAdd;
        if (m.capacityToAdd > 0 && firstAdd < 0)
            firstAdd = int(i);
        adds->append(double(i), double(installed));
        top = std::max({top, m.inferenceGpus + m.trainingGpus, double(installed)});
    }
    series->append(inference);
    series->append(training);
    series->setBarWidth(0.75);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(QObject::tr("Month"));
    QFont small = x->labelsFont();
    small.setPointSizeF(7.5);
    x->setLabelsFont(small);
    x->setLabelsAngle(-90);
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("GPUs"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    attach(chart, series, x, y);
    attach(chart, adds, x, y);
    y->setRange(0, top * 1.15);
    y->applyNiceNumbers();
    if (firstAdd >= 0) {
        const auto &m = months[size_t(firstAdd)];
        // Overdue: at the left edge of the first month, clear of the axis line.
        const double orderAt = std::max(-0.3, double(m.orderByMonth));
        // The legend names the date; the count and lead time are in the page's explanation.
        const QString label = m.orderByMonth < 0 ? QObject::tr("Order now (overdue)")
                                                 : QObject::tr("Order by %1").arg(shortMonth(m.orderByLabel));
        // Purple, apart from the red capacity line, so the legend tells them apart.
        auto *order = styledLine(label, QColor(0x8e, 0x44, 0xad), Qt::DashLine, 1.6);
        order->append(orderAt, 0);
        order->append(orderAt, y->max());
        attach(chart, order, x, y);
    }
    return chart;
}

} // namespace headroom::ui
