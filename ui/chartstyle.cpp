#include "chartstyle.h"

#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>

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
    auto *text = new QScatterSeries;
    text->setName(label);
    text->setMarkerSize(1);
    text->setPen(Qt::NoPen);
    text->setBrush(Qt::NoBrush);
    text->append(at, labelAt);
    text->setPointLabelsVisible(true);
    text->setPointLabelsClipping(false);
    text->setPointLabelsColor(color);
    text->setPointLabelsFormat(label);
    for (QXYSeries *s : {static_cast<QXYSeries *>(line), static_cast<QXYSeries *>(text)}) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        for (QLegendMarker *m : chart->legend()->markers(s))
            m->setVisible(false);
    }
}

ChartFigure emptyFigure(const QString &title, const QString &why)
{
    return {title, why, [title](QChart::ChartTheme theme) { return newStyledChart(title, theme); }};
}

} // namespace headroom::ui
