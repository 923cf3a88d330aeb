#include "scenariodiagramview.h"

#include "scenariocharts.h"

#include "common/theme.h"

#include <QContextMenuEvent>
#include <QPainter>

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
    if (!m_result) {
        painter.fillRect(rect(), ink.paper);
        painter.setPen(ink.muted);
        painter.drawText(rect(), Qt::AlignCenter, tr("Select or create a scenario to see its fleet."));
        return;
    }
    paintScenarioDiagram(painter, rect(), *m_result, ink);
}

void ScenarioDiagramView::contextMenuEvent(QContextMenuEvent *event)
{
    if (const auto f = figure())
        execFigureMenu(this, *f, event->globalPos());
}

} // namespace headroom::ui
