#include "kvchart.h"

#include "common/chartstyle.h"
#include "common/format.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

namespace headroom::ui {

std::vector<QString> kvLegendNames(const std::vector<QStringList> &differingParts)
{
    size_t columns = 0;
    for (const QStringList &parts : differingParts)
        columns = std::max(columns, size_t(parts.size()));
    std::vector<QStringList> shortened(differingParts.size());
    for (size_t c = 0; c < columns; ++c) {
        std::vector<QString> values;
        for (const QStringList &parts : differingParts) {
            QString value = parts.value(qsizetype(c));
            const QStringList halves = value.split(QLatin1Char('/'));
            if (halves.size() == 2 && halves[0] == halves[1])
                value = halves[0];
            values.push_back(value);
        }
        // The fewest leading words that keep distinct values distinct.
        size_t maxWords = 1;
        for (const QString &v : values)
            maxWords = std::max(maxWords, size_t(v.split(QLatin1Char(' '), Qt::SkipEmptyParts).size()));
        auto prefix = [](const QString &value, size_t words) {
            return value.split(QLatin1Char(' '), Qt::SkipEmptyParts).mid(0, qsizetype(words)).join(QLatin1Char(' '));
        };
        for (size_t words = 1; words <= maxWords; ++words) {
            std::map<QString, QString> fullOf;
            bool distinct = true;
            for (const QString &v : values) {
                const auto [it, inserted] = fullOf.emplace(prefix(v, words), v);
                distinct = distinct && (inserted || it->second == v);
            }
            if (distinct || words == maxWords) {
                for (size_t i = 0; i < values.size(); ++i)
                    shortened[i] << prefix(values[i], words);
                break;
            }
        }
    }
    std::vector<QString> names;
    std::map<QString, int> seen;
    for (const QStringList &parts : shortened) {
        QString name = parts.join(QStringLiteral(" · "));
        const int count = ++seen[name];
        if (count > 1)
            name += QStringLiteral(" (%1)").arg(count);
        names.push_back(name);
    }
    return names;
}

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
    y->setTitleText(QObject::tr("Streams per replica (log)"));
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
