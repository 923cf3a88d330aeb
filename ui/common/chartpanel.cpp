#include "chartpanel.h"

#include "chartstyle.h"

#include "report/reporttarget.h"
#include "theme.h"

#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QVBoxLayout>

namespace headroom::ui {


ChartPanel::ChartPanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new QChartView(this))
{
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setContextMenuPolicy(Qt::NoContextMenu);
    m_view->setMinimumSize(360, 260);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

void ChartPanel::setFigure(ChartFigure figure)
{
    m_figure = std::move(figure);
    rebuild();
}

QChart *ChartPanel::chart() const
{
    return m_view->chart();
}

void ChartPanel::rebuild()
{
    if (!m_figure.build)
        return;
    QChart *old = m_view->chart();
    QChart *chart = m_figure.build(chartTheme());
    shareSeriesColours(chart, chartTheme());
    m_view->setChart(chart);
    delete old;
    emit chartRebuilt();
}

void ChartPanel::exportWithDialog(const QString &format)
{
    exportFigureWithDialog(this, m_figure, format);
}

void ChartPanel::copyToClipboard()
{
    copyFigure(m_figure);
}

bool ChartPanel::addToReport()
{
    ReportTarget *target = ReportTarget::of(this);
    if (!target)
        return false;
    target->addFigureToReport(m_figure);
    return true;
}

void ChartPanel::contextMenuEvent(QContextMenuEvent *event)
{
    execFigureMenu(this, m_figure, event->globalPos());
}

void ChartPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

} // namespace headroom::ui
