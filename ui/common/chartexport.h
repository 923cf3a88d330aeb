#pragma once

#include "store/common/exportfile.h"

#include <QChart>
#include <QRectF>
#include <QString>
#include <QJsonObject>
#include <functional>

class QPainter;
class QPoint;
class QWidget;

namespace headroom::ui {

// A chart as it leaves the application: the same builder draws it on screen (in the
// palette's theme) and in every export (always the light theme, for documents), with its
// title inside the chart and a caption underneath.
// The colours a custom-painted figure draws with: the paper, text, secondary text, grid lines
// and the backdrop behind labels that sit on data. Light for documents and the light palette,
// dark for the dark palette on screen; series colours do not change with it.
struct FigureInk {
    QColor paper;
    QColor ink;
    QColor muted;
    QColor grid;
    QColor backdrop;
};
FigureInk figureInk(QChart::ChartTheme theme);

struct ChartFigure {
    QString title;
    QString caption;
    std::function<QChart *(QChart::ChartTheme)> build; // new chart, caller owns it
    // A custom-painted view (MIG layouts, fragmentation map) instead of a chart: draws into
    // the rect with the ink given (the palette's on screen, light in every export).
    std::function<void(QPainter &, const QRectF &, const FigureInk &)> paint = {};
    // How the report draws it again from the workspace at every export ({"kind": ..., ...},
    // see redrawReportItem); empty for a figure of a page's own inputs, kept as a snapshot.
    QJsonObject source = {};
};

// Custom-painted views draw their title in a band this tall at the top of their rect, as a
// chart does; the report clips it off because its page carries the title.
constexpr qreal kPaintedTitleHeight = 30;

// Export canvas: 16:9, 960 × 540 at 96 dpi (10 × 5.625 in).
constexpr int kFigureWidth = 960;
constexpr int kFigureHeight = 540;

// Draws the chart and its caption into `target` on any paint device, in `theme` (light for
// documents; the palette's chartTheme() on screen).
void renderFigure(QPainter &painter, const QRectF &target, const ChartFigure &figure,
                  QChart::ChartTheme theme = QChart::ChartThemeLight);

// Writes PDF (vector, text kept as text), SVG or PNG, chosen by the file suffix, through a
// store::ExportFile: the file appears whole or not at all, a symbolic link at `path` is refused,
// and an existing file unless `existing` is Replace. Returns false with a message naming the
// file when it cannot be written.
bool exportFigure(const ChartFigure &figure, const QString &path, QString *error,
                  store::ExistingFile existing = store::ExistingFile::Refuse);
// Puts the figure on the clipboard as a PNG image and as SVG.
void copyFigure(const ChartFigure &figure);

// Asks for a file name (suggested from the title) with Dialogs::exportFileName, which adds the
// suffix and confirms replacing a file, and writes the figure; a failure is shown with the reason.
void exportFigureWithDialog(QWidget *parent, const ChartFigure &figure, const QString &format);
// The Export as PDF / PNG / SVG and Copy menu of a chart or view.
void execFigureMenu(QWidget *parent, const ChartFigure &figure, const QPoint &globalPos);

} // namespace headroom::ui
