#pragma once

#include "common/chartexport.h"
#include "common/paintedlabel.h"
#include "engine/partitioning/mig.h"

#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <vector>

class QPainter;

// The MIG layout view: one row per GPU with its 8 memory slices above its 7 compute slices,
// instances as coloured blocks labelled with tenant and profile, free slices hatched. The
// same painting serves the screen and every export.
namespace headroom::ui {

struct MigLayoutPicture {
    QString title;
    const engine::MigGpuProfiles *profiles = nullptr;
    std::vector<engine::MigLayout> layouts;  // one per GPU
    int selected = -1;                      // highlighted GPU
};

// `labels`, when given, receives every text placed (for tooltips and layout checks).
void paintMigLayouts(QPainter &painter, const QRectF &rect, const MigLayoutPicture &picture, const FigureInk &ink,
                     PaintedLabels *labels = nullptr);
// A block's label "tenant · profile" in `width`: whole when it fits, else the tenant alone
// ("tool-01"; the block's width says the profile), else a long tenant shortened in the middle
// beside its profile ("customer…-prod · 3g.40gb"), else the whole label shortened in the middle
// ("to…10gb"); the view shows the whole label as a tooltip.
QString migBlockLabel(const QFontMetricsF &metrics, const QString &tenant, const QString &profile, qreal width);
// Index of the GPU row at `pos` in a picture painted into `rect`, or -1.
int migGpuAt(const QRectF &rect, const MigLayoutPicture &picture, const QPointF &pos);
// Height that shows every GPU in one column at a readable size.
qreal migPreferredHeight(int gpus);

} // namespace headroom::ui
