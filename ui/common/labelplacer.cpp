#include "labelplacer.h"

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

namespace headroom::ui {

namespace {

// Boxes that share only an edge do not overlap; neither do lines grazing an edge.
constexpr qreal kTouch = 0.5;

bool boxesOverlap(const QRectF &a, const QRectF &b)
{
    return a.adjusted(kTouch, kTouch, -kTouch, -kTouch).intersects(b.adjusted(kTouch, kTouch, -kTouch, -kTouch));
}

qreal overlapArea(const QRectF &a, const QRectF &b)
{
    const QRectF common = a.intersected(b);
    return common.isValid() ? common.width() * common.height() : 0;
}

bool inside(const QRectF &bounds, const QRectF &box)
{
    return bounds.isNull() || bounds.adjusted(-kTouch, -kTouch, kTouch, kTouch).contains(box);
}

} // namespace

bool lineCrossesBox(const QLineF &line, const QRectF &box)
{
    // Liang-Barsky clipping against the box shrunk by the touch tolerance.
    const QRectF r = box.normalized().adjusted(kTouch, kTouch, -kTouch, -kTouch);
    if (r.width() <= 0 || r.height() <= 0)
        return false;
    const qreal dx = line.dx(), dy = line.dy();
    qreal t0 = 0, t1 = 1;
    const qreal p[4] = {-dx, dx, -dy, dy};
    const qreal q[4] = {line.x1() - r.left(), r.right() - line.x1(), line.y1() - r.top(), r.bottom() - line.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const qreal t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    return true;
}

std::vector<PlacedLabel> placeLabels(const QRectF &bounds, const std::vector<LabelRequest> &requests,
                                     const LabelObstacles &obstacles)
{
    std::vector<PlacedLabel> placed;
    placed.reserve(requests.size());
    for (const LabelRequest &request : requests) {
        PlacedLabel best{request.text, {}, false};
        int bestSoft = std::numeric_limits<int>::max();
        qreal leastOverlap = std::numeric_limits<qreal>::max();
        QRectF leastBad;
        for (const QPointF &corner : request.candidates) {
            const QRectF box(corner, request.size);
            qreal overlap = 0;
            if (!inside(bounds, box))
                overlap += request.size.width() * request.size.height() - overlapArea(bounds, box) + 1;
            for (const PlacedLabel &other : placed)
                overlap += boxesOverlap(box, other.box) ? overlapArea(box, other.box) + 1 : 0;
            for (const QRectF &obstacle : obstacles.boxes) {
                if (obstacle != request.ownBox && boxesOverlap(box, obstacle))
                    overlap += overlapArea(box, obstacle) + 1;
            }
            for (const QLineF &line : obstacles.lines)
                overlap += lineCrossesBox(line, box) ? 1 : 0;
            for (const QLineF &line : request.ownLines)
                overlap += lineCrossesBox(line, box) ? 1 : 0;
            if (overlap > 0) {
                if (overlap < leastOverlap) {
                    leastOverlap = overlap;
                    leastBad = box;
                }
                continue;
            }
            int soft = 0;
            for (const QLineF &line : obstacles.softLines)
                soft += lineCrossesBox(line, box) ? 1 : 0;
            if (soft < bestSoft) {
                bestSoft = soft;
                best.box = box;
                best.clear = true;
                if (soft == 0)
                    break;
            }
        }
        if (!best.clear)
            best.box = leastBad.isNull() && !request.candidates.empty() ? QRectF(request.candidates.front(), request.size)
                                                                        : leastBad;
        placed.push_back(best);
    }
    return placed;
}

QStringList labelCollisions(const std::vector<PlacedLabel> &labels, const std::vector<LabelRequest> &requests,
                            const LabelObstacles &obstacles)
{
    QStringList found;
    for (size_t i = 0; i < labels.size(); ++i) {
        const QRectF &box = labels[i].box;
        for (size_t j = i + 1; j < labels.size(); ++j) {
            if (boxesOverlap(box, labels[j].box))
                found << QObject::tr("'%1' overlaps '%2'").arg(labels[i].text, labels[j].text);
        }
        const QRectF own = i < requests.size() ? requests[i].ownBox : QRectF();
        for (const QRectF &obstacle : obstacles.boxes) {
            if (obstacle != own && boxesOverlap(box, obstacle))
                found << QObject::tr("'%1' overlaps a box at (%2, %3)")
                             .arg(labels[i].text)
                             .arg(obstacle.x(), 0, 'f', 0)
                             .arg(obstacle.y(), 0, 'f', 0);
        }
        for (const QLineF &line : obstacles.lines) {
            if (lineCrossesBox(line, box))
                found << QObject::tr("'%1' is crossed by a line or tick").arg(labels[i].text);
        }
        if (i < requests.size()) {
            for (const QLineF &line : requests[i].ownLines) {
                if (lineCrossesBox(line, box))
                    found << QObject::tr("'%1' is struck through by its own line").arg(labels[i].text);
            }
        }
    }
    return found;
}

std::vector<QPointF> besideVerticalLine(qreal x, qreal top, qreal bottom, const QSizeF &size, qreal gap)
{
    std::vector<QPointF> candidates;
    const qreal step = std::max<qreal>(4, size.height() / 2);
    for (qreal y = top; y + size.height() <= bottom + kTouch; y += step) {
        candidates.emplace_back(x + gap, y);
        candidates.emplace_back(x - gap - size.width(), y);
    }
    // Markers closer together than a label is wide: further out, past the neighbouring lines
    // (the label keeps its line's colour).
    for (int k = 1; k <= 6; ++k) {
        const qreal out = k * size.width() / 3;
        for (qreal y = top; y + size.height() <= bottom + kTouch; y += step) {
            candidates.emplace_back(x + gap + out, y);
            candidates.emplace_back(x - gap - size.width() - out, y);
        }
    }
    return candidates;
}

std::vector<QPointF> atBarEnd(const QRectF &bar, const QSizeF &size, qreal top, qreal gap)
{
    const qreal left = bar.center().x() - size.width() / 2;
    std::vector<QPointF> candidates{{left, bar.top() - gap - size.height()}};
    if (bar.height() >= size.height() + 2 * gap && bar.width() >= size.width() + 2)
        candidates.emplace_back(left, bar.top() + gap);
    const qreal step = std::max<qreal>(4, size.height() / 2);
    for (qreal y = bar.top() - gap - size.height() - step; y >= top - kTouch; y -= step)
        candidates.emplace_back(left, y);
    return candidates;
}

std::vector<QPointF> onSegment(const QRectF &segment, const QSizeF &size, qreal gap)
{
    const qreal y = segment.center().y() - size.height() / 2;
    const qreal bottom = segment.bottom() - size.height();
    const qreal top = segment.top();
    return {{segment.center().x() - size.width() / 2, y},
            {segment.right() + gap, y},
            {segment.right() + gap, bottom},
            {segment.right() + gap, top},
            {segment.left() - gap - size.width(), y},
            {segment.left() - gap - size.width(), bottom},
            {segment.center().x() - size.width() / 2, segment.top() - gap - size.height()}};
}

} // namespace headroom::ui
