#include "chartstyle.h"

#include <QGraphicsTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
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
