#include "kvchart.h"

#include "format.h"
#include "theme.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

namespace headroom::ui {

QChart *buildKvChart(const std::vector<KvCurve> &curves, const std::vector<int64_t> &markers,
                     const QString &title)
{
    auto *chart = new QChart;
    chart->setTheme(chartTheme());
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(8, 4, 12, 4));

    auto *x = new QLogValueAxis;
    x->setBase(2);
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTitleText(QObject::tr("Context length (tokens, log₂ scale)"));
    x->setMinorTickCount(-1);
    auto *y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(QObject::tr("Concurrent streams per replica"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    double minContext = 1024, maxContext = 1024, maxStreams = 1;
    for (const KvCurve &curve : curves) {
        auto *series = new QLineSeries;
        series->setName(curve.label);
        for (const engine::StreamsAt &p : curve.points) {
            series->append(double(p.context), double(p.streams));
            maxContext = std::max(maxContext, double(p.context));
            minContext = std::min(minContext, double(p.context));
            maxStreams = std::max(maxStreams, double(p.streams));
        }
        QPen pen = series->pen();
        pen.setWidthF(2.2);
        series->setPen(pen);
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    x->setRange(minContext, maxContext);
    y->setRange(0, maxStreams * 1.08);
    y->applyNiceNumbers();
    const double top = y->max();

    for (int64_t context : markers) {
        if (context < minContext || context > maxContext)
            continue;
        auto *line = new QLineSeries;
        line->setName(QObject::tr("%1 tokens").arg(formatCount(context)));
        QPen pen(chart->titleBrush().color());
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.0);
        line->setPen(pen);
        line->append(double(context), 0);
        line->append(double(context), top);
        auto *label = new QScatterSeries;
        label->setName(line->name());
        label->setMarkerSize(1);
        label->setPen(Qt::NoPen);
        label->setBrush(Qt::NoBrush);
        label->append(double(context), top);
        label->setPointLabelsVisible(true);
        label->setPointLabelsClipping(false);
        label->setPointLabelsColor(chart->titleBrush().color());
        label->setPointLabelsFormat(formatTokensShort(context));
        for (QXYSeries *s : {static_cast<QXYSeries *>(line), static_cast<QXYSeries *>(label)}) {
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
            for (QLegendMarker *marker : chart->legend()->markers(s))
                marker->setVisible(false);
        }
    }
    return chart;
}

} // namespace headroom::ui
