#include "miglayoutview.h"
#include "migfigure.h"

#include "common/chartexport.h"

#include "common/theme.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace headroom::ui {

MigLayoutView::MigLayoutView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName("migLayoutView");
    setMinimumWidth(480);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click a GPU to edit its layout; right-click to export the view"));
}

void MigLayoutView::setPicture(MigLayoutPicture picture)
{
    m_picture = std::move(picture);
    setMinimumHeight(int(migPreferredHeight(int(m_picture.layouts.size()))));
    update();
}

void MigLayoutView::setSelected(int gpu)
{
    m_picture.selected = gpu;
    update();
}

ChartFigure MigLayoutView::figure(const QString &caption) const
{
    return migLayoutFigure(m_picture, caption);
}

void MigLayoutView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    m_labels.clear();
    paintMigLayouts(painter, rect(), m_picture, figureInk(chartTheme()), &m_labels);
}

bool MigLayoutView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        if (const PaintedLabel *label = elidedLabelAt(m_labels, help->pos())) {
            QToolTip::showText(help->globalPos(), label->fullText, this, label->box.toAlignedRect());
            return true;
        }
    }
    return QWidget::event(event);
}

void MigLayoutView::mousePressEvent(QMouseEvent *event)
{
    const int gpu = migGpuAt(rect(), m_picture, event->position());
    if (gpu >= 0) {
        setSelected(gpu);
        emit gpuClicked(gpu);
    }
    QWidget::mousePressEvent(event);
}

void MigLayoutView::contextMenuEvent(QContextMenuEvent *event)
{
    execFigureMenu(this, figure(QString()), event->globalPos());
}

} // namespace headroom::ui
