#pragma once

#include <QLineF>
#include <QRectF>
#include <QString>
#include <vector>

namespace headroom::ui {

// What a chart's value and marker labels must stay clear of, in scene coordinates: boxes
// (bars, text already there) and line segments (marker lines, tick marks). Soft lines (data
// curves) are avoided when a clear place exists, but may be crossed.
struct LabelObstacles {
    std::vector<QRectF> boxes;
    std::vector<QLineF> lines;
    std::vector<QLineF> softLines;
};

// One label to place: its size and the places it may go (top-left corners, best first).
// It never covers its own lines (the marker it names) nor, when set, sits outside `bounds`.
struct LabelRequest {
    QString text;
    QSizeF size;
    std::vector<QPointF> candidates;
    std::vector<QLineF> ownLines;
    QRectF ownBox;  // a bar the label may sit on (its value written inside its end)
};

struct PlacedLabel {
    QString text;
    QRectF box;
    bool clear = true;  // false: no candidate was free; placed at the least-bad spot
};

// Places labels one by one in the order given: each takes its first candidate inside
// `bounds` that overlaps no label placed before it, no obstacle box or line and none of its
// own lines, preferring ones that cross the fewest soft lines. A label with no free
// candidate goes where it overlaps least and is marked not clear.
std::vector<PlacedLabel> placeLabels(const QRectF &bounds, const std::vector<LabelRequest> &requests,
                                     const LabelObstacles &obstacles);

// Every overlap among placed labels and between a label and an obstacle or one of its own
// lines, in words ("'P50 234' overlaps 'P75 240'"); empty when the placement is clean.
QStringList labelCollisions(const std::vector<PlacedLabel> &labels, const std::vector<LabelRequest> &requests,
                            const LabelObstacles &obstacles);

// Candidates beside a vertical marker line at x from `top` downwards: right of the line,
// then left, sliding down by the label's height until `bottom`.
std::vector<QPointF> besideVerticalLine(qreal x, qreal top, qreal bottom, const QSizeF &size, qreal gap = 6);
// Candidates for a value at the end of a bar (`bar` in scene coordinates, growing upwards):
// just above it, inside its top, then higher in steps of the label's height.
std::vector<QPointF> atBarEnd(const QRectF &bar, const QSizeF &size, qreal top, qreal gap = 4);
// Candidates for a value on a stacked segment: centred in it, then to its right or left.
std::vector<QPointF> onSegment(const QRectF &segment, const QSizeF &size, qreal gap = 4);

// A line crosses the inside of a box (touching its edge does not count).
bool lineCrossesBox(const QLineF &line, const QRectF &box);

} // namespace headroom::ui
