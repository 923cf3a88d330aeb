#include "kvchart.h"

#include "common/chartstyle.h"
#include "common/format.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

QChart *buildKvChart(const std::vector<KvCurve> &curves, const std::vector<int64_t> &markers,
                     const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);

    auto *x = new QLogValueAxis;
    x->setBase(2);
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTitleText(QObject::tr("Context length (tokens, log₂ scale)"));
    x->setMinorTickCount(-1);
    auto *y = new QLogValueAxis;
    y->setBase(10);
    y->setLabelFormat(QStringLiteral("%g"));
    y->setMinorTickCount(8);
    y->setTitleText(QObject::tr("Concurrent streams per replica (log)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    double minContext = 1024, maxContext = 1024, maxStreams = 1;
    for (const KvCurve &curve : curves) {
        auto *series = new QLineSeries;
        series->setName(curve.label);
        for (const engine::StreamsAt &p : curve.points) {
            maxContext = std::max(maxContext, double(p.context));
            minContext = std::min(minContext, double(p.context));
            if (p.streams < 1)
                continue; // not even one stream: nothing to draw on a log axis
            series->append(double(p.context), double(p.streams));
            maxStreams = std::max(maxStreams, double(p.streams));
        }
        chart->addSeries(series); // the theme picks the colour here
        QPen pen = series->pen();
        pen.setWidthF(2.4);
        series->setPen(pen);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    x->setRange(minContext, maxContext);
    const double top = std::pow(10.0, std::ceil(std::log10(maxStreams * 1.15)));
    y->setRange(1, top);

    for (int64_t context : markers) {
        if (context < minContext || context > maxContext)
            continue;
        addMarkerLine(chart, x, y, double(context), 1, top, top, formatTokensShort(context),
                      chart->titleBrush().color(), 1.0);
    }
    return chart;
}

} // namespace headroom::ui
