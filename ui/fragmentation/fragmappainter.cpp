#include "fragmappainter.h"

#include "common/chartexport.h"

#include <QObject>
#include <QPainter>
#include <algorithm>
#include <map>

namespace headroom::ui {

namespace {

constexpr qreal kTitleHeight = kPaintedTitleHeight;
constexpr qreal kLegendLine = 15;     // one line of the legend; it wraps onto more when narrow
constexpr qreal kGroupLabelHeight = 11; // room above the first strips for their GPU model's name
constexpr qreal kMark = 3;        // category mark width
constexpr qreal kColumnGap = 8;

struct Geometry {
    QRectF area;
    qreal cell = 4;
    int rowsPerColumn = 1;
    int maxGpus = 1;
    std::vector<int> order;        // node indices sorted by GPU model, then id
    std::vector<int> slot;         // flow position of each node (groups separated by a gap slot)

    QRectF strip(int node) const
    {
        const int position = slot[size_t(node)];
        const int column = position / rowsPerColumn;
        const int row = position % rowsPerColumn;
        const qreal columnWidth = kMark + 1 + maxGpus * cell + kColumnGap;
        return {area.left() + column * columnWidth, area.top() + row * (cell + 1), kMark + 1 + maxGpus * cell, cell};
    }
};

// Text of the map (group names, legend): 7 pt.
QFont smallFont()
{
    QFont font;
    font.setPointSizeF(7);
    return font;
}

// The legend: swatch colour and text, a gap before the node categories.
struct LegendEntry {
    QColor color;
    QString text;
    bool gapBefore = false;
};
std::vector<LegendEntry> legendEntries();

// Each entry's top-left in a legend that starts at `origin` and wraps at `right`.
std::vector<QPointF> legendPositions(const QPointF &origin, qreal right)
{
    const QFontMetricsF metrics(smallFont());
    std::vector<QPointF> positions;
    qreal x = origin.x(), y = origin.y();
    for (const LegendEntry &entry : legendEntries()) {
        const qreal width = 13 + metrics.horizontalAdvance(entry.text);
        if (entry.gapBefore)
            x += 10;
        if (x + width > right && x > origin.x()) {
            x = origin.x();
            y += kLegendLine;
        }
        positions.emplace_back(x, y);
        x += width + 5;
    }
    return positions;
}

qreal legendHeight(const QRectF &rect)
{
    const std::vector<QPointF> positions = legendPositions(QPointF(rect.left() + 8, 0), rect.right() - 8);
    return positions.back().y() + kLegendLine + 9;
}

Geometry geometryFor(const QRectF &rect, const FragMapPicture &picture)
{
    Geometry g;
    g.area = rect.adjusted(8, kTitleHeight + kGroupLabelHeight, -8, -legendHeight(rect));
    const int n = int(picture.nodes.size());
    for (const auto &node : picture.nodes)
        g.maxGpus = std::max(g.maxGpus, node.gpus);
    g.order.resize(size_t(n));
    for (int i = 0; i < n; ++i)
        g.order[size_t(i)] = i;
    std::stable_sort(g.order.begin(), g.order.end(), [&](int a, int b) {
        return picture.nodes[size_t(a)].gpuModel < picture.nodes[size_t(b)].gpuModel;
    });
    g.slot.assign(size_t(n), 0);
    int position = 0;
    std::string model;
    for (int i : g.order) {
        if (position > 0 && picture.nodes[size_t(i)].gpuModel != model)
            ++position; // one empty slot between GPU models
        model = picture.nodes[size_t(i)].gpuModel;
        g.slot[size_t(i)] = position++;
    }
    const int slotCount = std::max(position, 1);
    for (qreal cell = 14; cell >= 1.5; cell -= 0.5) {
        const int rows = std::max(1, int(g.area.height() / (cell + 1)));
        const int columns = (slotCount + rows - 1) / rows;
        const qreal width = columns * (kMark + 1 + g.maxGpus * cell + kColumnGap);
        g.cell = cell;
        g.rowsPerColumn = rows;
        if (width <= g.area.width())
            break;
    }
    return g;
}

QColor freeColor(int freeMilli)
{
    // allocated (0 free) dark blue → fully free pale; partly free GPUs in orange tones stand out
    if (freeMilli <= 0)
        return QColor(0x1f, 0x3b, 0x73);
    if (freeMilli >= 1000)
        return QColor(0xe8, 0xee, 0xf4);
    const int t = freeMilli * 255 / 1000;
    return QColor(255, 200 - t / 3, 60 + t / 2);
}

std::vector<LegendEntry> legendEntries()
{
    std::vector<LegendEntry> entries{{freeColor(0), QObject::tr("allocated")},
                                     {freeColor(250), QObject::tr("partly free (fragment risk)")}, // the shade of a quarter free, the most common
                                     {freeColor(1000), QObject::tr("free")}};
    for (int c = 0; c < 7; ++c)
        entries.push_back({fragCategoryColor(c),
                           QString::fromStdString(std::string(engine::frag::toString(engine::frag::NodeCategory(c)))),
                           c == 0});
    return entries;
}

} // namespace

QColor fragCategoryColor(int category)
{
    static const QColor colors[] = {QColor(0x7f, 0x00, 0x00), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                    QColor(0xff, 0x7f, 0x0e), QColor(0x98, 0xdf, 0x8a), QColor(0xff, 0xbb, 0x78),
                                    QColor(0x94, 0x67, 0xbd)};
    return category >= 0 && category < 7 ? colors[category] : QColor(Qt::gray);
}

int fragNodeAt(const QRectF &rect, const FragMapPicture &picture, const QPointF &pos)
{
    const Geometry g = geometryFor(rect, picture);
    for (int i = 0; i < int(picture.nodes.size()); ++i)
        if (g.strip(i).contains(pos))
            return i;
    return -1;
}

void paintFragMap(QPainter &painter, const QRectF &rect, const FragMapPicture &picture, const FigureInk &ink)
{
    painter.save();
    painter.fillRect(rect, ink.paper);
    QFont font = painter.font();
    font.setPointSizeF(12);
    font.setBold(true);
    painter.setFont(font);
    painter.setPen(ink.ink);
    painter.drawText(QRectF(rect.left(), rect.top() + 3, rect.width(), kTitleHeight - 5), Qt::AlignCenter, picture.title);

    const Geometry g = geometryFor(rect, picture);
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < int(picture.nodes.size()); ++i) {
        const QRectF strip = g.strip(i);
        const engine::frag::NodeSnapshot *state = i < int(picture.state.size()) ? &picture.state[size_t(i)] : nullptr;
        painter.setBrush(fragCategoryColor(state ? state->category : -1));
        painter.drawRect(QRectF(strip.left(), strip.top(), kMark, strip.height()));
        for (int gpu = 0; gpu < picture.nodes[size_t(i)].gpus; ++gpu) {
            const int free = state && gpu < int(state->freeMilli.size()) ? state->freeMilli[size_t(gpu)] : 1000;
            painter.setBrush(freeColor(free));
            painter.drawRect(QRectF(strip.left() + kMark + 1 + gpu * g.cell, strip.top(), g.cell - 0.4, strip.height()));
        }
    }
    // group labels: the first strip of each GPU model
    painter.setFont(smallFont());
    painter.setPen(ink.ink);
    std::string model;
    for (int i : g.order) {
        if (picture.nodes[size_t(i)].gpuModel == model)
            continue;
        model = picture.nodes[size_t(i)].gpuModel;
        const QRectF strip = g.strip(i);
        painter.drawText(QPointF(strip.left(), strip.top() - 1), QString::fromStdString(model));
    }
    // legend, wrapped onto as many lines as the width needs
    const qreal legendTop = rect.bottom() - legendHeight(rect) + 6;
    const std::vector<LegendEntry> entries = legendEntries();
    const std::vector<QPointF> positions = legendPositions(QPointF(rect.left() + 8, legendTop), rect.right() - 8);
    for (size_t i = 0; i < entries.size(); ++i) {
        const QPointF at = positions[i];
        painter.setPen(Qt::NoPen);
        painter.setBrush(entries[i].color);
        painter.drawRect(QRectF(at.x(), at.y(), 10, 10));
        painter.setPen(ink.ink);
        painter.drawText(QPointF(at.x() + 13, at.y() + 9), entries[i].text);
    }
    painter.restore();
}

} // namespace headroom::ui
