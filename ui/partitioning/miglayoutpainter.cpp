#include "miglayoutpainter.h"

#include "common/chartexport.h"

#include <QFontMetricsF>
#include <QGuiApplication>
#include <QHash>
#include <QObject>
#include <QPainter>
#include <vector>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr qreal kTitleHeight = kPaintedTitleHeight;
constexpr qreal kLegendPointSize = 7.5;
constexpr qreal kRowHeight = 46;      // preferred, one column
constexpr qreal kMinRowHeight = 30;   // below this the rows flow into more columns
constexpr qreal kLabelWidth = 52;

struct Grid {
    QRectF area;
    int columns = 1;
    int rowsPerColumn = 1;
    qreal rowHeight = kRowHeight;
    qreal columnWidth = 0;

    QRectF row(int gpu) const
    {
        const int column = gpu / rowsPerColumn;
        const int line = gpu % rowsPerColumn;
        return {area.left() + column * columnWidth, area.top() + line * rowHeight, columnWidth - 10, rowHeight};
    }
};

QFont legendFont()
{
    QFont font = QGuiApplication::font();
    font.setPointSizeF(kLegendPointSize);
    return font;
}

QString legendText(int memorySlices, int computeSlices)
{
    return QObject::tr("Each row: %1 memory slices (top) and %2 compute slices (bottom); blocks are MIG "
                       "instances (tenant · profile); hatched = free.")
        .arg(memorySlices)
        .arg(computeSlices);
}

// The legend's box at the foot of `rect`: as many lines as the text needs at that width.
QRectF legendBox(const QRectF &rect)
{
    const QFontMetricsF metrics(legendFont());
    const qreal width = rect.width() - 16;
    const QRectF needed = metrics.boundingRect(QRectF(0, 0, width, 1000), Qt::TextWordWrap, legendText(8, 7));
    const qreal height = std::ceil(needed.height()) + 6;
    return {rect.left() + 8, rect.bottom() - height, width, height};
}

Grid gridFor(const QRectF &rect, int gpus)
{
    Grid g;
    g.area = rect.adjusted(8, kTitleHeight, -8, 0);
    g.area.setBottom(legendBox(rect).top() - 2);
    const int n = std::max(gpus, 1);
    g.rowsPerColumn = std::max(1, int(std::floor(g.area.height() / kMinRowHeight)));
    g.columns = (n + g.rowsPerColumn - 1) / g.rowsPerColumn;
    g.rowsPerColumn = (n + g.columns - 1) / g.columns;
    g.rowHeight = std::min(kRowHeight, g.area.height() / g.rowsPerColumn);
    g.columnWidth = g.area.width() / g.columns;
    return g;
}

QColor tenantColor(const QString &tenant)
{
    if (tenant.isEmpty())
        return QColor(0x9e, 0xa7, 0xb3);
    const uint hash = qHash(tenant, 7u);
    return QColor::fromHsv(int(hash % 360), 110 + int(hash / 360 % 60), 200 + int(hash / 21600 % 40));
}

} // namespace

qreal migPreferredHeight(int gpus)
{
    return kTitleHeight + 2 * QFontMetricsF(legendFont()).lineSpacing() + 8 + std::max(gpus, 1) * kRowHeight + 8;
}

int migGpuAt(const QRectF &rect, const MigLayoutPicture &picture, const QPointF &pos)
{
    const Grid g = gridFor(rect, int(picture.layouts.size()));
    for (int i = 0; i < int(picture.layouts.size()); ++i)
        if (g.row(i).contains(pos))
            return i;
    return -1;
}

QString migBlockLabel(const QFontMetricsF &metrics, const QString &tenant, const QString &profile, qreal width)
{
    if (tenant.isEmpty())
        return metrics.elidedText(profile, Qt::ElideRight, width);
    const QString full = QStringLiteral("%1 · %2").arg(tenant, profile);
    if (metrics.horizontalAdvance(full) <= width)
        return full;
    // Too narrow for both: the tenant whole says whose block it is (the block's width already
    // says the profile); a long tenant is shortened in the middle beside its profile while both
    // stay readable; else the whole label is shortened in the middle.
    if (metrics.horizontalAdvance(tenant) <= width)
        return tenant;
    const QString tail = QStringLiteral(" · ") + profile;
    const qreal room = width - metrics.horizontalAdvance(tail);
    if (room >= metrics.horizontalAdvance(QStringLiteral("abcd…wxyz")))
        return metrics.elidedText(tenant, Qt::ElideMiddle, room) + tail;
    return metrics.elidedText(full, Qt::ElideMiddle, width);
}

void paintMigLayouts(QPainter &painter, const QRectF &rect, const MigLayoutPicture &picture, const FigureInk &ink,
                     PaintedLabels *labels)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false); // axis-aligned blocks: crisp and fast
    painter.fillRect(rect, ink.paper);
    QFont titleFont = painter.font();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    painter.setFont(titleFont);
    painter.setPen(ink.ink);
    const QRectF titleBox(rect.left() + 4, rect.top() + 4, rect.width() - 8, kTitleHeight - 6);
    drawLabel(painter, titleBox, Qt::AlignCenter,
              QFontMetricsF(titleFont).elidedText(picture.title, Qt::ElideMiddle, titleBox.width()), labels,
              picture.title);

    const int memorySlices = picture.profiles ? picture.profiles->memorySlices : 8;
    const int computeSlices = picture.profiles ? picture.profiles->computeSlices : 7;
    const Grid grid = gridFor(rect, int(picture.layouts.size()));
    QFont small = painter.font();
    small.setBold(false);
    small.setPointSizeF(grid.rowHeight < 38 ? 6.5 : 7.5);
    painter.setFont(small);
    const QFontMetricsF metrics(small);

    for (int gpu = 0; gpu < int(picture.layouts.size()); ++gpu) {
        const QRectF row = grid.row(gpu);
        const QRectF label(row.left(), row.top(), kLabelWidth, row.height() - 4);
        const QRectF bands(row.left() + kLabelWidth, row.top() + 1, row.width() - kLabelWidth, row.height() - 6);
        const qreal memoryHeight = bands.height() * 0.62;
        const QRectF memoryBand(bands.left(), bands.top(), bands.width(), memoryHeight);
        const QRectF computeBand(bands.left(), bands.top() + memoryHeight + 2, bands.width(),
                                 bands.height() - memoryHeight - 2);
        const qreal memoryCell = memoryBand.width() / memorySlices;
        const qreal computeCell = computeBand.width() / computeSlices;

        painter.setPen(ink.ink);
        drawLabel(painter, label, Qt::AlignVCenter | Qt::AlignLeft, QObject::tr("GPU %1").arg(gpu + 1), labels);
        // free slices: hatched (only those no instance covers)
        std::vector<bool> memoryUsed(size_t(memorySlices), false), computeUsed(size_t(computeSlices), false);
        for (const engine::MigInstance &instance : picture.layouts[size_t(gpu)]) {
            const engine::MigProfile *profile = picture.profiles ? picture.profiles->find(instance.profile) : nullptr;
            const int memory = profile ? profile->memorySlices : 1;
            const int compute = profile ? profile->computeSlices : 1;
            for (int s = instance.start; s < std::min(memorySlices, instance.start + memory); ++s)
                memoryUsed[size_t(std::max(s, 0))] = true;
            const int computeStart = std::max(0, std::min(instance.start, computeSlices - compute));
            for (int s = computeStart; s < std::min(computeSlices, computeStart + compute); ++s)
                computeUsed[size_t(s)] = true;
        }
        painter.setPen(QPen(ink.grid, 0.8));
        painter.setBrush(QBrush(ink.muted, Qt::BDiagPattern));
        for (int s = 0; s < memorySlices; ++s)
            if (!memoryUsed[size_t(s)])
                painter.drawRect(QRectF(memoryBand.left() + s * memoryCell, memoryBand.top(), memoryCell, memoryBand.height()));
        for (int s = 0; s < computeSlices; ++s)
            if (!computeUsed[size_t(s)])
                painter.drawRect(
                    QRectF(computeBand.left() + s * computeCell, computeBand.top(), computeCell, computeBand.height()));

        for (const engine::MigInstance &instance : picture.layouts[size_t(gpu)]) {
            const engine::MigProfile *profile =
                picture.profiles ? picture.profiles->find(instance.profile) : nullptr;
            const int memory = profile ? profile->memorySlices : 1;
            const int compute = profile ? profile->computeSlices : 1;
            const QColor color = tenantColor(QString::fromStdString(instance.tenant));
            painter.setPen(QPen(color.darker(150), 1.0));
            painter.setBrush(color);
            const QRectF memoryBlock(memoryBand.left() + instance.start * memoryCell + 1, memoryBand.top() + 1,
                                     memory * memoryCell - 2, memoryBand.height() - 2);
            const int computeStart = std::min(instance.start, computeSlices - compute);
            const QRectF computeBlock(computeBand.left() + computeStart * computeCell + 1, computeBand.top() + 1,
                                      compute * computeCell - 2, computeBand.height() - 2);
            painter.drawRect(memoryBlock);
            painter.drawRect(computeBlock);
            // Dark text on light blocks, white on dark ones (by relative luminance).
            const double luminance = 0.2126 * color.redF() + 0.7152 * color.greenF() + 0.0722 * color.blueF();
            painter.setPen(luminance < 0.45 ? QColor(Qt::white) : QColor(0x15, 0x15, 0x15));
            const QString tenant = QString::fromStdString(instance.tenant);
            const QString profileName = QString::fromStdString(instance.profile);
            drawLabel(painter, memoryBlock.adjusted(3, 0, -3, 0), Qt::AlignCenter,
                      migBlockLabel(metrics, tenant, profileName, memoryBlock.width() - 6), labels,
                      tenant.isEmpty() ? profileName : QStringLiteral("%1 · %2").arg(tenant, profileName));
        }
        if (gpu == picture.selected) {
            painter.setPen(QPen(QColor(0x1f, 0x6f, 0xd1), 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(row.adjusted(-2, -1, 2, -3));
        }
    }

    // legend: wrapped onto as many lines as the width needs
    painter.setFont(legendFont());
    painter.setPen(ink.muted);
    drawLabel(painter, legendBox(rect), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
              legendText(memorySlices, computeSlices), labels);
    painter.restore();
}

} // namespace headroom::ui
