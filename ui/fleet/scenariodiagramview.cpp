#include "scenariodiagramview.h"

#include "scenariocharts.h"

#include "common/theme.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace headroom::ui {

ScenarioDiagramView::ScenarioDiagramView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName("scenarioDiagram");
    setMinimumSize(480, 260);
    setToolTip(tr("Static base and elastic top on the day of the peak; right-click to export"));
}

void ScenarioDiagramView::setResult(std::optional<engine::ScenarioResult> result)
{
    m_result = std::move(result);
    update();
}

std::optional<ChartFigure> ScenarioDiagramView::figure() const
{
    if (!m_result)
        return std::nullopt;
    return scenarioDiagramFigure(*m_result);
}

void ScenarioDiagramView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const FigureInk ink = figureInk(chartTheme());
    m_labels.clear();
    if (!m_result) {
        painter.fillRect(rect(), ink.paper);
        painter.setPen(ink.muted);
        painter.drawText(rect(), Qt::AlignCenter, tr("Select or create a scenario to see its fleet."));
        return;
    }
    paintScenarioDiagram(painter, rect(), *m_result, ink, &m_labels);
}

bool ScenarioDiagramView::event(QEvent *event)
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

void ScenarioDiagramView::contextMenuEvent(QContextMenuEvent *event)
{
    if (const auto f = figure())
        execFigureMenu(this, *f, event->globalPos());
}

} // namespace headroom::ui
