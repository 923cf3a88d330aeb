#include "paintedfigureview.h"

#include "theme.h"

#include <QContextMenuEvent>
#include <QPainter>

namespace headroom::ui {

PaintedFigureView::PaintedFigureView(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(360, 260);
}

void PaintedFigureView::setFigure(ChartFigure figure)
{
    m_figure = std::move(figure);
    update();
}

void PaintedFigureView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (m_figure.paint)
        renderFigure(painter, QRectF(rect()), m_figure, chartTheme());
}

void PaintedFigureView::contextMenuEvent(QContextMenuEvent *event)
{
    execFigureMenu(this, m_figure, event->globalPos());
}

} // namespace headroom::ui
