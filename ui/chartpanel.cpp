#include "chartpanel.h"

#include "dialogs.h"
#include "theme.h"

#include <QChart>
#include <QChartView>
#include <QContextMenuEvent>
#include <QDir>
#include <QMenu>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {
QString suggestedFileName(const QString &title, const QString &format)
{
    QString base = title.toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    base.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (base.isEmpty())
        base = QStringLiteral("chart");
    return QDir::home().filePath(base + QLatin1Char('.') + format);
}
} // namespace

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
    m_view->setChart(m_figure.build(chartTheme()));
    delete old;
    emit chartRebuilt();
}

void ChartPanel::exportWithDialog(const QString &format)
{
    const QString filter = format == QLatin1String("pdf")   ? tr("PDF document (*.pdf)")
                           : format == QLatin1String("svg") ? tr("SVG image (*.svg)")
                                                            : tr("PNG image (*.png)");
    QString path = Dialogs::saveFileName(this, tr("Export chart"),
                                         suggestedFileName(m_figure.title, format), filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1Char('.') + format, Qt::CaseInsensitive))
        path += QLatin1Char('.') + format;
    QString error;
    if (!exportFigure(m_figure, path, &error))
        Dialogs::warning(this, tr("Export failed"), error);
}

void ChartPanel::copyToClipboard()
{
    copyFigure(m_figure);
}

void ChartPanel::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    menu.addAction(tr("Export as PDF…"), this, [this] { exportWithDialog(QStringLiteral("pdf")); });
    menu.addAction(tr("Export as PNG…"), this, [this] { exportWithDialog(QStringLiteral("png")); });
    menu.addAction(tr("Export as SVG…"), this, [this] { exportWithDialog(QStringLiteral("svg")); });
    menu.addSeparator();
    menu.addAction(tr("Copy"), this, &ChartPanel::copyToClipboard);
    menu.exec(event->globalPos());
}

void ChartPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

} // namespace headroom::ui
