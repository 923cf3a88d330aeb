#include "chartstyle.h"

#include "chartlabels.h"

#include <QGraphicsTextItem>
#include <QAbstractAxis>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <algorithm>

namespace headroom::ui {

QChart *newStyledChart(const QString &title, QChart::ChartTheme theme)
{
    auto *chart = new QChart;
    chart->setTheme(theme);
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont legendFont = chart->legend()->font();
    legendFont.setPointSizeF(8.5);
    chart->legend()->setFont(legendFont);
    chart->setMargins(QMargins(8, 4, 12, 4));
    return chart;
}

void styleChartForSlide(QChart *chart, qreal minPointSize, const QSizeF &size)
{
    const auto atLeast = [](QFont font, qreal points) {
        if (font.pointSizeF() < points)
            font.setPointSizeF(points);
        return font;
    };
    chart->legend()->setFont(atLeast(chart->legend()->font(), minPointSize));
    QFont title = atLeast(chart->titleFont(), minPointSize);
    title.setBold(true);
    chart->setTitleFont(title);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsFont(atLeast(axis->labelsFont(), minPointSize));
        const QFont titleFont = atLeast(axis->titleFont(), minPointSize);
        axis->setTitleFont(titleFont);
        // A title longer than its axis leaves room for: two lines, split at the middle space.
        const bool vertical = axis->orientation() == Qt::Vertical;
        const qreal room = vertical ? size.height() - 150 : size.width() - 220;
        const QString text = axis->titleText();
        if (!text.contains(QLatin1String("<br>")) && QFontMetricsF(titleFont).horizontalAdvance(text) > room) {
            qsizetype split = -1;
            for (qsizetype i = 0; i < text.size(); ++i) {
                if (text.at(i) == QLatin1Char(' ')
                    && (split < 0 || std::abs(i - text.size() / 2) < std::abs(split - text.size() / 2)))
                    split = i;
            }
            if (split > 0)
                axis->setTitleText(text.left(split).toHtmlEscaped() + QStringLiteral("<br>")
                                   + text.mid(split + 1).toHtmlEscaped());
        }
    }
    if (ChartLabels *found = ChartLabels::find(chart))
        found->setPointSize(std::max(minPointSize, found->font().pointSizeF()));
    // A legend wider than the chart would be cut short at the bottom: list it at the right.
    const QFontMetricsF legend(chart->legend()->font());
    qreal legendWidth = 0;
    const ChartLabels *labels = ChartLabels::find(chart);
    for (QLegendMarker *marker : chart->legend()->markers()) {
        // (Markers are not visible before the chart is shown: leave out marker lines by name.)
        if (!marker->label().isEmpty() && !(labels && labels->isMarkerLine(marker->series())))
            legendWidth += legend.horizontalAdvance(marker->label()) + 2 * legend.height() + 12;
    }
    if (legendWidth > size.width() - 60)
        chart->legend()->setAlignment(Qt::AlignRight);
    // Room for the larger text: a little more margin around the plot.
    chart->setMargins(QMargins(12, 8, 20, 8));
}

void addMarkerLine(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, double at, double bottom, double top,
                   double labelAt, const QString &label, const QColor &color, qreal width)
{
    auto *line = new QLineSeries;
    line->setName(label);
    QPen pen(color);
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(width);
    line->setPen(pen);
    line->append(at, bottom);
    line->append(at, top);
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
    for (QLegendMarker *m : chart->legend()->markers(line))
        m->setVisible(false);
    // The label beside the line, placed clear of it, of other markers and of the ticks.
    ChartLabels::of(chart)->addMarker(line, at, bottom, top, labelAt, label, color);
}

void addBarValueLabels(QChart *chart, QAbstractBarSeries *series, const QString &suffix)
{
    ChartLabels::of(chart)->addBarValues(series, suffix);
}

ChartFigure emptyFigure(const QString &title, const QString &why)
{
    return {title, why, [title, why](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                if (why.isEmpty())
                    return chart;
                // The reason in the middle of the plot area, in place of empty axes.
                auto *message = new QGraphicsTextItem(chart);
                message->setPlainText(why);
                QFont font = message->font();
                font.setPointSizeF(10.5);
                message->setFont(font);
                message->setDefaultTextColor(chart->titleBrush().color());
                const auto place = [chart, message] {
                    const QRectF area = chart->plotArea().isEmpty() ? chart->rect() : chart->plotArea();
                    message->setTextWidth(std::max<qreal>(120, area.width() * 0.8));
                    const QRectF box = message->boundingRect();
                    message->setPos(area.center().x() - box.width() / 2, area.center().y() - box.height() / 2);
                };
                QObject::connect(chart, &QChart::plotAreaChanged, message, place);
                QObject::connect(chart, &QChart::geometryChanged, message, place);
                place();
                return chart;
            }};
}

} // namespace headroom::ui
