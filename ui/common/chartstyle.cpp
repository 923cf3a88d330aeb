#include "chartstyle.h"

#include "chartlabels.h"

#include <QGraphicsTextItem>
#include <QAbstractAxis>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarSeries>
#include <QBarSet>
#include <QLineSeries>
#include <QDateTime>
#include <QDateTimeAxis>
#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

namespace headroom::ui {

QChart *newStyledChart(const QString &title, QChart::ChartTheme theme)
{
    auto *chart = new QChart;
    chart->setTheme(theme);
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(8.5);
    chart->legend()->setFont(legendFont);
    chart->setMargins(QMargins(8, 4, 12, 4));
    return chart;
}

void styleChartForSlide(QChart *chart, qreal minPointSize, const QSizeF &size)
{
    const auto atLeast = [](QFont font, qreal points) {
        if (font.pointSizeF() < points)
            font.setPointSizeF(points);
        return font;
    };
    chart->legend()->setFont(atLeast(chart->legend()->font(), minPointSize));
    QFont title = atLeast(chart->titleFont(), minPointSize);
    title.setBold(true);
    chart->setTitleFont(title);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(atLeast(axis->labelsFont(), minPointSize));
        const QFont titleFont = atLeast(axis->titleFont(), minPointSize);
        axis->setTitleFont(titleFont);
        // A title longer than its axis leaves room for: two lines, split at the middle space.
        const bool vertical = axis->orientation() == Qt::Vertical;
        const qreal room = vertical ? size.height() - 150 : size.width() - 220;
        const QString text = axis->titleText();
        if (!text.contains(QLatin1String("<br>")) && QFontMetricsF(titleFont).horizontalAdvance(text) > room) {
            qsizetype split = -1;
            for (qsizetype i = 0; i < text.size(); ++i) {
                if (text.at(i) == QLatin1Char(' ')
                    && (split < 0 || std::abs(i - text.size() / 2) < std::abs(split - text.size() / 2)))
                    split = i;
            }
            if (split > 0)
                axis->setTitleText(text.left(split).toHtmlEscaped() + QStringLiteral("<br>")
                                   + text.mid(split + 1).toHtmlEscaped());
        }
    }
    if (ChartLabels *found = ChartLabels::find(chart))
        found->setPointSize(std::max(minPointSize, found->font().pointSizeF()));
    // A legend wider than the chart would be cut short at the bottom: list it at the right.
    const QFontMetricsF legend(chart->legend()->font());
    qreal legendWidth = 0;
    const ChartLabels *labels = ChartLabels::find(chart);
    for (QLegendMarker *marker : chart->legend()->markers()) {
        // (Markers are not visible before the chart is shown: leave out marker lines by name.)
        if (!marker->label().isEmpty() && !(labels && labels->isMarkerLine(marker->series())))
            legendWidth += legend.horizontalAdvance(marker->label()) + 2 * legend.height() + 12;
    }
    if (legendWidth > size.width() - 60)
        chart->legend()->setAlignment(Qt::AlignRight);
    // Room for the larger text: a little more margin around the plot.
    chart->setMargins(QMargins(12, 8, 20, 8));
}

namespace {

// Light titles mean a dark theme.
bool darkChart(const QChart *chart)
{
    return chart->titleBrush().color().lightnessF() > 0.5;
}

} // namespace

void addMarkerLine(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, double at, double bottom, double top,
                   double labelAt, const QString &label, const QColor &lightColor, qreal width)
{
    // Marker colours are chosen for a light plot: lighter on a dark one, so the label reads.
    const QColor color = darkChart(chart) ? lightColor.lighter(160) : lightColor;
    auto *line = new QLineSeries;
    line->setName(label);
    QPen pen(color);
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(width);
    line->setPen(pen);
    line->append(at, bottom);
    line->append(at, top);
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
    for (QLegendMarker *m : chart->legend()->markers(line))
        m->setVisible(false);
    // The label beside the line, placed clear of it, of other markers and of the ticks.
    ChartLabels::of(chart)->addMarker(line, at, bottom, top, labelAt, label, color);
}

void addBarValueLabels(QChart *chart, QAbstractBarSeries *series, const QString &suffix)
{
    ChartLabels::of(chart)->addBarValues(series, suffix);
}

namespace {

// The colours a theme gives the first series of each kind, in order.
struct ThemeColours {
    std::vector<QColor> lines, areas, bars;
};

ThemeColours themeColours(QChart::ChartTheme theme)
{
    constexpr int kSeries = 12;
    ThemeColours colours;
    QChart chart;
    chart.setTheme(theme);
    std::vector<QLineSeries *> lines;
    std::vector<QAreaSeries *> areas;
    for (int i = 0; i < kSeries; ++i) {
        lines.push_back(new QLineSeries);
        chart.addSeries(lines.back());
    }
    for (QLineSeries *l : lines)
        colours.lines.push_back(l->color());
    for (auto *s : chart.series())
        chart.removeSeries(s), delete s;
    for (int i = 0; i < kSeries; ++i) {
        areas.push_back(new QAreaSeries(new QLineSeries));
        chart.addSeries(areas.back());
    }
    for (QAreaSeries *a : areas)
        colours.areas.push_back(a->color());
    for (auto *s : chart.series())
        chart.removeSeries(s), delete s;
    auto *bars = new QBarSeries;
    for (int i = 0; i < kSeries; ++i)
        bars->append(new QBarSet(QString::number(i)));
    chart.addSeries(bars);
    for (QBarSet *set : bars->barSets())
        colours.bars.push_back(set->color());
    return colours;
}

// The light theme's colour in the place `colour` has in `from`, or `colour` itself.
QColor lightEquivalent(const QColor &colour, const std::vector<QColor> &from, const std::vector<QColor> &light)
{
    for (size_t i = 0; i < from.size() && i < light.size(); ++i)
        if (from[i].rgb() == colour.rgb())
            return light[i];
    return colour;
}

} // namespace

void shareSeriesColours(QChart *chart, QChart::ChartTheme theme)
{
    if (!chart || theme == QChart::ChartThemeLight)
        return;
    static const ThemeColours light = themeColours(QChart::ChartThemeLight);
    static std::map<int, ThemeColours> others;
    auto found = others.find(int(theme));
    if (found == others.end())
        found = others.emplace(int(theme), themeColours(theme)).first;
    const ThemeColours &from = found->second;
    for (QAbstractSeries *series : chart->series()) {
        if (auto *xy = qobject_cast<QXYSeries *>(series)) {
            xy->setColor(lightEquivalent(xy->color(), from.lines, light.lines));
        } else if (auto *area = qobject_cast<QAreaSeries *>(series)) {
            area->setColor(lightEquivalent(area->color(), from.areas, light.areas));
        } else if (auto *bars = qobject_cast<QAbstractBarSeries *>(series)) {
            for (QBarSet *set : bars->barSets())
                set->setColor(lightEquivalent(set->color(), from.bars, light.bars));
        }
    }
}

ChartFigure emptyFigure(const QString &title, const QString &why)
{
    return {title, why, [title, why](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                if (why.isEmpty())
                    return chart;
                // The reason in the middle of the plot area, in place of empty axes.
                auto *message = new QGraphicsTextItem(chart);
                message->setPlainText(why);
                QFont font = message->font();
                font.setPointSizeF(10.5);
                message->setFont(font);
                message->setDefaultTextColor(chart->titleBrush().color());
                const auto place = [chart, message] {
                    const QRectF area = chart->plotArea().isEmpty() ? chart->rect() : chart->plotArea();
                    message->setTextWidth(std::max<qreal>(120, area.width() * 0.8));
                    const QRectF box = message->boundingRect();
                    message->setPos(area.center().x() - box.width() / 2, area.center().y() - box.height() / 2);
                };
                QObject::connect(chart, &QChart::plotAreaChanged, message, place);
                QObject::connect(chart, &QChart::geometryChanged, message, place);
                place();
                return chart;
            }};
}

QColor bandFill(const QChart *chart, const QColor &base, double strength)
{
    // A dark theme's plot ground is near this grey (the brush itself may be a gradient, whose
    // colour says nothing).
    const bool dark = darkChart(chart);
    const QColor ground = dark ? QColor(0x30, 0x32, 0x3a) : QColor(Qt::white);
    const QColor ink = dark ? base.lighter(150) : base;
    const double t = std::clamp(dark ? strength * 2.0 : strength, 0.0, 1.0);
    return QColor::fromRgbF(ground.redF() + (ink.redF() - ground.redF()) * t,
                            ground.greenF() + (ink.greenF() - ground.greenF()) * t,
                            ground.blueF() + (ink.blueF() - ground.blueF()) * t);
}

double utcAxisX(int64_t epochSeconds)
{
    const double shift = -double(QDateTime::fromSecsSinceEpoch(epochSeconds).offsetFromUtc());
    return (double(epochSeconds) + shift) * 1000.0;
}

QDateTimeAxis *utcDateAxis(int64_t fromEpoch, int64_t toEpoch, int maxTicks)
{
    constexpr int64_t kHour = 3600, kDay = 86400;
    static const int64_t steps[] = {kHour, 2 * kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay,
                                    2 * kDay, 3 * kDay, 7 * kDay, 14 * kDay, 28 * kDay, 56 * kDay, 91 * kDay};
    const auto floorTo = [](int64_t t, int64_t unit) { return t >= 0 ? t / unit * unit : -((-t + unit - 1) / unit) * unit; };
    toEpoch = std::max(toEpoch, fromEpoch + 1);
    int64_t low = fromEpoch, high = toEpoch, step = steps[std::size(steps) - 1];
    for (const int64_t candidate : steps) {
        // Ticks of a day or more start at midnight UTC, shorter ones on a whole multiple of the step.
        const int64_t start = floorTo(fromEpoch, std::min(candidate, kDay));
        const int64_t intervals = (toEpoch - start + candidate - 1) / candidate;
        if (intervals + 1 <= maxTicks || candidate == steps[std::size(steps) - 1]) {
            low = start;
            high = start + intervals * candidate;
            step = candidate;
            break;
        }
    }
    auto *axis = new QDateTimeAxis;
    axis->setFormat(step < kDay ? QStringLiteral("d MMM HH:mm") : QStringLiteral("d MMM"));
    axis->setTitleText(QObject::tr("Date (UTC)"));
    axis->setTickCount(int((high - low) / step) + 1);
    axis->setRange(QDateTime::fromMSecsSinceEpoch(qint64(utcAxisX(low))), QDateTime::fromMSecsSinceEpoch(qint64(utcAxisX(high))));
    return axis;
}

} // namespace headroom::ui
