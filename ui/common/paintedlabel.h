#pragma once

#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

class QPainter;

namespace headroom::ui {

// A text a custom painter placed: the box it was given and the rectangle its glyphs take, both
// in the painter's device coordinates. Views keep the labels of their last paint for tooltips
// (the full text of an elided label) and for tests that check nothing is cut or overlapping.
struct PaintedLabel {
    QString text;       // as drawn, possibly elided
    QString fullText;   // the whole text
    QRectF box;         // where it was allowed to go
    QRectF bounds;      // where its glyphs went
    bool elided() const { return text != fullText; }
};
using PaintedLabels = std::vector<PaintedLabel>;

// Draws `text` in `box` with alignment `flags` (text beyond the box is clipped, as
// QPainter::drawText clips) and records it in `labels` when given. `fullText`, when the text
// was shortened to fit, is the text a tooltip shows.
void drawLabel(QPainter &painter, const QRectF &box, int flags, const QString &text, PaintedLabels *labels,
               const QString &fullText = QString());

// What is wrong with a set of placed labels, one line each: a label whose glyphs leave its box
// (cut) or `area` (outside the picture), and two labels whose glyphs overlap. Empty when fine.
QStringList paintedLabelProblems(const PaintedLabels &labels, const QRectF &area);

// The label at `pos` whose text was shortened, for its tooltip; null when there is none.
const PaintedLabel *elidedLabelAt(const PaintedLabels &labels, const QPointF &pos);

} // namespace headroom::ui
