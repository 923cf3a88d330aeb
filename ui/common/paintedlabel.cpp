#include "paintedlabel.h"

#include <QPainter>

namespace headroom::ui {

namespace {

// Half a pixel of slack: antialiased glyph boxes round outwards.
constexpr qreal kSlack = 0.5;

bool overlap(const QRectF &a, const QRectF &b)
{
    const QRectF both = a.intersected(b);
    return both.width() > kSlack && both.height() > kSlack;
}

bool inside(const QRectF &inner, const QRectF &outer)
{
    return outer.adjusted(-kSlack, -kSlack, kSlack, kSlack).contains(inner);
}

QString describe(const QRectF &r)
{
    return QStringLiteral("[%1,%2 %3×%4]")
        .arg(r.left(), 0, 'f', 1)
        .arg(r.top(), 0, 'f', 1)
        .arg(r.width(), 0, 'f', 1)
        .arg(r.height(), 0, 'f', 1);
}

} // namespace

void drawLabel(QPainter &painter, const QRectF &box, int flags, const QString &text, PaintedLabels *labels,
               const QString &fullText)
{
    painter.drawText(box, flags, text);
    if (!labels || text.isEmpty())
        return;
    const QRectF glyphs = painter.boundingRect(box, flags, text);
    const QTransform &t = painter.transform();
    labels->push_back({text, fullText.isEmpty() ? text : fullText, t.mapRect(box), t.mapRect(glyphs)});
}

QStringList paintedLabelProblems(const PaintedLabels &labels, const QRectF &area)
{
    QStringList problems;
    for (size_t i = 0; i < labels.size(); ++i) {
        const PaintedLabel &a = labels[i];
        if (!inside(a.bounds, a.box))
            problems << QStringLiteral("\"%1\" is cut: %2 in %3").arg(a.text, describe(a.bounds), describe(a.box));
        if (!inside(a.bounds, area))
            problems << QStringLiteral("\"%1\" leaves the picture: %2").arg(a.text, describe(a.bounds));
        for (size_t j = i + 1; j < labels.size(); ++j)
            if (overlap(a.bounds, labels[j].bounds))
                problems << QStringLiteral("\"%1\" %2 overlaps \"%3\" %4")
                                .arg(a.text, describe(a.bounds), labels[j].text, describe(labels[j].bounds));
    }
    return problems;
}

const PaintedLabel *elidedLabelAt(const PaintedLabels &labels, const QPointF &pos)
{
    for (const PaintedLabel &label : labels)
        if (label.elided() && label.box.contains(pos))
            return &label;
    return nullptr;
}

} // namespace headroom::ui
