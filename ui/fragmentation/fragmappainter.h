#pragma once

#include "common/chartexport.h"
#include "engine/fragmentation/frag.h"

#include <QColor>
#include <QRectF>
#include <QJsonObject>
#include <QString>
#include <vector>

class QPainter;

// The fragmentation map: one cell per GPU, one strip per node, nodes grouped by GPU model;
// colour = free share of the GPU, the node's category (for the most popular task type) as a
// mark at the start of its strip. The same painting serves the screen and every export.
namespace headroom::ui {

struct FragMapPicture {
    QString title;
    std::vector<engine::frag::Node> nodes;          // simulated nodes, in the engine's order
    std::vector<engine::frag::NodeSnapshot> state;  // one per node
    QJsonObject source;                             // the run's, for the report (ChartFigure::source)
};

void paintFragMap(QPainter &painter, const QRectF &rect, const FragMapPicture &picture, const FigureInk &ink);
// The node under `pos`, or -1.
int fragNodeAt(const QRectF &rect, const FragMapPicture &picture, const QPointF &pos);
QColor fragCategoryColor(int category);

} // namespace headroom::ui
