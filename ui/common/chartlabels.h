#pragma once

#include "labelplacer.h"

#include <QColor>
#include <QFont>
#include <QObject>
#include <QPointer>
#include <vector>

class QAbstractAxis;
class QAbstractBarSeries;
class QAbstractSeries;
class QChart;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLineSeries;

namespace headroom::ui {

// The value and marker labels of one chart, drawn as text items over the plot and placed by
// placeLabels() each time the plot area changes, so that a label never covers its own line,
// another marker, a bar or another label, and stays inside the plot (off the axis ticks).
// Every chart that labels markers or bars goes through it (addMarkerLine, addBarValueLabels).
class ChartLabels : public QObject {
public:
    // The chart's labels, created on first use (owned by the chart).
    static ChartLabels *of(QChart *chart);
    // The chart's labels if it has any, else nullptr.
    static ChartLabels *find(const QChart *chart);

    // A label for a vertical marker line from `bottom` to `top` at x = `at`, placed beside it
    // no higher than `labelAt`.
    void addMarker(QLineSeries *line, double at, double bottom, double top, double labelAt, const QString &text,
                   const QColor &color);
    // Each bar's value at its end (stacked: in its segment), with one number format for the
    // whole series and `suffix` after it, in `color` (invalid: the bar set's label colour inside
    // a segment; the chart's text colour outside a bar).
    void addBarValues(QAbstractBarSeries *series, const QString &suffix, const QColor &color = QColor());
    // Point size of the labels; by default the chart's axis label size.
    void setPointSize(qreal size);

    // A marker line added through addMarker (kept out of the legend).
    bool isMarkerLine(const QAbstractSeries *series) const;

    // Places the labels for the chart's current plot area.
    void relayout();

    const std::vector<LabelRequest> &requests() const { return m_requests; }
    const std::vector<PlacedLabel> &placed() const { return m_placed; }
    const LabelObstacles &obstacles() const { return m_obstacles; }
    QRectF bounds() const { return m_bounds; }
    QFont font() const;

private:
    explicit ChartLabels(QChart *chart);

    struct Marker {
        QPointer<QLineSeries> line;
        double at, bottom, top, labelAt;
        QString text;
        QColor color;
    };
    struct Bars {
        QPointer<QAbstractBarSeries> series;
        QString suffix;
        QColor color;
    };

    QGraphicsSimpleTextItem *textItem(size_t index);

    QChart *m_chart;
    std::vector<Marker> m_markers;
    std::vector<Bars> m_bars;
    qreal m_pointSize = 0;
    std::vector<LabelRequest> m_requests;
    std::vector<PlacedLabel> m_placed;
    LabelObstacles m_obstacles;
    QRectF m_bounds;
    std::vector<QGraphicsRectItem *> m_items;  // backdrops, each the parent of its text
};

// The text of each value of a series in one format: as many decimals as the largest value
// needs for three significant digits (0 from 100 up, 1 from 10, else 2; none when all are
// whole), grouped thousands, then `suffix`.
QStringList seriesValueTexts(const std::vector<double> &values, const QString &suffix = QString());

} // namespace headroom::ui
