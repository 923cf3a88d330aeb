#include "fragmapview.h"

#include "common/format.h"
#include "common/theme.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace headroom::ui {

FragMapView::FragMapView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName("fragMap");
    setMinimumSize(600, 360);
}

void FragMapView::setPicture(FragMapPicture picture)
{
    m_picture = std::move(picture);
    update();
}

ChartFigure FragMapView::figure() const
{
    ChartFigure f;
    f.title = m_picture.title;
    f.caption = tr("One cell per GPU, one strip per node, grouped by GPU model. Dark: allocated; orange: partly "
                   "free — a fragment for tasks that need more; pale: free. The mark before each strip is the "
                   "node's category for the most popular task type.");
    f.source = m_picture.source;
    const FragMapPicture picture = m_picture;
    f.paint = [picture](QPainter &painter, const QRectF &rect, const FigureInk &ink) {
        paintFragMap(painter, rect, picture, ink);
    };
    return f;
}

void FragMapView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paintFragMap(painter, rect(), m_picture, figureInk(chartTheme()));
}

bool FragMapView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int node = fragNodeAt(rect(), m_picture, help->pos());
        if (node < 0) {
            QToolTip::hideText();
            return true;
        }
        const auto &n = m_picture.nodes[size_t(node)];
        QStringList free;
        const engine::frag::NodeSnapshot *state =
            node < int(m_picture.state.size()) ? &m_picture.state[size_t(node)] : nullptr;
        for (int gpu = 0; gpu < n.gpus; ++gpu)
            free << QString::number((state && gpu < int(state->freeMilli.size()) ? state->freeMilli[size_t(gpu)] : 1000) / 1000.0, 'f', 2);
        QToolTip::showText(help->globalPos(),
                           tr("%1 (%2, %3)\nfree share per GPU: %4\ncategory: %5\nfragment: %6 GPU")
                               .arg(QString::fromStdString(n.id), QString::fromStdString(n.gpuModel))
                               .arg(formatGpus(n.gpus))
                               .arg(free.join(QStringLiteral(", ")),
                                    state ? QString::fromStdString(std::string(engine::frag::toString(
                                                engine::frag::NodeCategory(state->category))))
                                          : QString())
                               .arg(state ? state->fragmentMilli / 1000.0 : 0.0, 0, 'f', 2),
                           this);
        return true;
    }
    return QWidget::event(event);
}

void FragMapView::contextMenuEvent(QContextMenuEvent *event)
{
    execFigureMenu(this, figure(), event->globalPos());
}

} // namespace headroom::ui
