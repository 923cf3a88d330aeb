#include "chartlabels.h"

#include "chartexport.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QBarSet>
#include <QBrush>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QLocale>
#include <QPen>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr char kProperty[] = "headroomChartLabels";
// Room around the text inside its backdrop.
constexpr qreal kPad = 2;
// Data curves are sampled to this many segments at most when they count as soft obstacles.
constexpr int kMaxSegments = 400;

void addPolyline(std::vector<QLineF> &lines, QChart *chart, const QList<QPointF> &points, QAbstractSeries *series)
{
    if (points.size() < 2)
        return;
    const int stride = std::max<int>(1, int(points.size()) / kMaxSegments);
    QPointF previous = chart->mapToPosition(points.front(), series);
    for (int i = stride; i < points.size(); i += stride) {
        const QPointF next = chart->mapToPosition(points.at(i), series);
        lines.emplace_back(previous, next);
        previous = next;
    }
    const QPointF last = chart->mapToPosition(points.back(), series);
    if (last != previous)
        lines.emplace_back(previous, last);
}

} // namespace

QStringList seriesValueTexts(const std::vector<double> &values, const QString &suffix)
{
    double largest = 0;
    bool whole = true;
    for (double v : values) {
        largest = std::max(largest, std::abs(v));
        whole = whole && std::abs(v - std::round(v)) < 1e-9;
    }
    const int decimals = whole || largest >= 100 ? 0 : largest >= 10 ? 1 : 2;
    const QLocale english(QLocale::English);
    QStringList texts;
    for (double v : values)
        texts << english.toString(v, 'f', decimals) + suffix;
    return texts;
}

ChartLabels::ChartLabels(QChart *chart)
    : QObject(chart)
    , m_chart(chart)
{
    chart->setProperty(kProperty, QVariant::fromValue<QObject *>(this));
    connect(chart, &QChart::plotAreaChanged, this, &ChartLabels::relayout);
}

ChartLabels *ChartLabels::of(QChart *chart)
{
    if (ChartLabels *labels = find(chart))
        return labels;
    return new ChartLabels(chart);
}

ChartLabels *ChartLabels::find(const QChart *chart)
{
    return chart ? static_cast<ChartLabels *>(chart->property(kProperty).value<QObject *>()) : nullptr;
}

void ChartLabels::addMarker(QLineSeries *line, double at, double bottom, double top, double labelAt,
                            const QString &text, const QColor &color)
{
    m_markers.push_back({line, at, bottom, top, labelAt, text, color});
    relayout();
}

bool ChartLabels::isMarkerLine(const QAbstractSeries *series) const
{
    return std::any_of(m_markers.begin(), m_markers.end(), [series](const Marker &m) { return m.line == series; });
}

void ChartLabels::addBarValues(QAbstractBarSeries *series, const QString &suffix, const QColor &color)
{
    series->setLabelsVisible(false);
    m_bars.push_back({series, suffix, color});
    relayout();
}

void ChartLabels::setPointSize(qreal size)
{
    m_pointSize = size;
    relayout();
}

QFont ChartLabels::font() const
{
    QFont font;
    const auto axes = m_chart->axes();
    if (!axes.isEmpty())
        font = axes.front()->labelsFont();
    if (m_pointSize > 0)
        font.setPointSizeF(m_pointSize);
    return font;
}

QGraphicsSimpleTextItem *ChartLabels::textItem(size_t index)
{
    while (m_items.size() <= index) {
        auto *backdrop = new QGraphicsRectItem(m_chart);
        backdrop->setPen(Qt::NoPen);
        backdrop->setZValue(20);
        new QGraphicsSimpleTextItem(backdrop);
        m_items.push_back(backdrop);
    }
    m_items[index]->setVisible(true);
    return static_cast<QGraphicsSimpleTextItem *>(m_items[index]->childItems().front());
}

void ChartLabels::relayout()
{
    m_requests.clear();
    m_obstacles = {};
    m_bounds = m_chart->plotArea();
    const QFont labelFont = font();
    const QFontMetricsF metrics(labelFont);
    const auto sizeOf = [&metrics](const QString &text) {
        return QSizeF(metrics.horizontalAdvance(text) + 2 * kPad, metrics.height() + kPad);
    };
    std::vector<QColor> colors;
    std::vector<QColor> outsideColors;  // bar labels that do not fit in their bar
    const QColor ink = m_chart->titleBrush().color();

    // Data curves are soft obstacles; marker lines and bars hard ones.
    std::vector<QAbstractSeries *> markerLines;
    for (const Marker &m : m_markers)
        markerLines.push_back(m.line);
    for (QAbstractSeries *series : m_chart->series()) {
        if (std::find(markerLines.begin(), markerLines.end(), series) != markerLines.end() || !series->isVisible())
            continue;
        if (auto *xy = qobject_cast<QXYSeries *>(series); xy && series->type() != QAbstractSeries::SeriesTypeScatter)
            addPolyline(m_obstacles.softLines, m_chart, xy->points(), series);
        else if (auto *area = qobject_cast<QAreaSeries *>(series); area && area->upperSeries())
            addPolyline(m_obstacles.softLines, m_chart, area->upperSeries()->points(), series);
    }
    for (const Marker &m : m_markers) {
        if (!m.line)
            continue;
        m_obstacles.lines.emplace_back(m_chart->mapToPosition(QPointF(m.at, m.bottom), m.line),
                                       m_chart->mapToPosition(QPointF(m.at, m.top), m.line));
    }

    // Bars: their rectangles (hard obstacles for every label but their own) and a label each.
    struct BarLabel {
        QString text;
        QRectF bar;
        bool stacked;
        QColor color;  // inside a bar
        QColor outside;
    };
    std::vector<BarLabel> barLabels;
    for (const Bars &b : m_bars) {
        if (!b.series)
            continue;
        const QList<QBarSet *> sets = b.series->barSets();
        const bool stacked = qobject_cast<QStackedBarSeries *>(b.series) != nullptr;
        std::vector<double> values;
        for (QBarSet *set : sets)
            for (int i = 0; i < set->count(); ++i)
                values.push_back(set->at(i));
        const QStringList texts = seriesValueTexts(values, b.suffix);
        const qreal width = b.series->barWidth();
        int categories = 0;
        for (QBarSet *set : sets)
            categories = std::max(categories, int(set->count()));
        std::vector<double> base(size_t(categories), 0.0);
        int text = 0;
        for (int s = 0; s < sets.size(); ++s) {
            QBarSet *set = sets.at(s);
            for (int i = 0; i < set->count(); ++i, ++text) {
                const double v = set->at(i);
                double left = i - width / 2, right = i + width / 2;
                if (!stacked) {
                    left = i - width / 2 + s * width / sets.size();
                    right = left + width / sets.size();
                }
                const double from = stacked ? base[size_t(i)] : 0.0;
                const double to = from + v;
                if (stacked)
                    base[size_t(i)] = to;
                const QRectF bar = QRectF(m_chart->mapToPosition(QPointF(left, to), b.series),
                                          m_chart->mapToPosition(QPointF(right, from), b.series))
                                       .normalized();
                m_obstacles.boxes.push_back(bar);
                // A bar of zero is no bar (a tier a scenario does not use): nothing to label.
                if (v == 0)
                    continue;
                barLabels.push_back({texts.at(text), bar, stacked, b.color.isValid() ? b.color : set->labelColor(),
                                     b.color.isValid() ? b.color : ink});
            }
        }
    }

    for (const Marker &m : m_markers) {
        if (!m.line)
            continue;
        const QPointF topPoint = m_chart->mapToPosition(QPointF(m.at, m.top), m.line);
        const QPointF bottomPoint = m_chart->mapToPosition(QPointF(m.at, m.bottom), m.line);
        const qreal highest = std::max(std::min(topPoint.y(), bottomPoint.y()),
                                       m_chart->mapToPosition(QPointF(m.at, m.labelAt), m.line).y());
        LabelRequest request;
        request.text = m.text;
        request.size = sizeOf(m.text);
        request.candidates = besideVerticalLine(topPoint.x(), std::max(highest, m_bounds.top()) + 2,
                                                std::min(std::max(topPoint.y(), bottomPoint.y()), m_bounds.bottom()),
                                                request.size);
        request.ownLines = {QLineF(topPoint, bottomPoint)};
        m_requests.push_back(request);
        colors.push_back(m.color);
        outsideColors.push_back(m.color);
    }
    for (const BarLabel &b : barLabels) {
        LabelRequest request;
        request.text = b.text;
        request.size = sizeOf(b.text);
        request.candidates = b.stacked ? onSegment(b.bar, request.size) : atBarEnd(b.bar, request.size, m_bounds.top());
        request.ownBox = b.bar;
        m_requests.push_back(request);
        colors.push_back(b.color);
        outsideColors.push_back(b.outside);
    }

    m_placed = m_bounds.isEmpty() ? std::vector<PlacedLabel>{} : placeLabels(m_bounds, m_requests, m_obstacles);
    const QColor paper = figureInk(m_chart->theme()).backdrop;
    for (size_t i = 0; i < m_placed.size(); ++i) {
        QGraphicsSimpleTextItem *text = textItem(i);
        QGraphicsRectItem *backdrop = m_items[i];
        backdrop->setRect(QRectF(QPointF(0, 0), m_placed[i].box.size()));
        backdrop->setPos(m_placed[i].box.topLeft());
        // Text inside a stacked segment sits on the bar's colour: no backdrop there.
        const bool onBar = m_requests[i].ownBox.isValid() && m_requests[i].ownBox.contains(m_placed[i].box);
        backdrop->setBrush(onBar ? QBrush(Qt::NoBrush) : QBrush(paper));
        text->setFont(labelFont);
        text->setText(m_placed[i].text);
        text->setBrush(onBar ? colors[i] : outsideColors[i]);
        text->setPos(kPad, kPad / 2);
    }
    for (size_t i = m_placed.size(); i < m_items.size(); ++i)
        m_items[i]->setVisible(false);
}

} // namespace headroom::ui
