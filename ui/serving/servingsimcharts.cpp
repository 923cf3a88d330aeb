#include "servingsimcharts.h"

#include "common/theme.h"

#include "common/chartstyle.h"
#include "common/format.h"

#include <QContextMenuEvent>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <iterator>
#include <cmath>
#include <limits>

namespace headroom::ui {

QChart *buildSimLineChart(const SimLineChart &spec, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(spec.title, theme);
    QAbstractAxis *x = nullptr;
    if (spec.logX) {
        auto *logX = new QLogValueAxis;
        logX->setBase(4);
        logX->setLabelFormat(QStringLiteral("%.0f"));
        logX->setMinorTickCount(-1);
        x = logX;
    } else {
        auto *valueX = new QValueAxis;
        valueX->setLabelFormat(QStringLiteral("%.0f"));
        x = valueX;
    }
    x->setTitleText(spec.xTitle);
    QAbstractAxis *y = nullptr;
    if (spec.logY) {
        auto *logY = new QLogValueAxis;
        logY->setBase(10);
        logY->setLabelFormat(QStringLiteral("%.7g")); // 1000000, not 1e+06 beside 100000
        logY->setMinorTickCount(8);
        y = logY;
    } else {
        auto *valueY = new QValueAxis;
        valueY->setLabelFormat(QStringLiteral("%g"));
        y = valueY;
    }
    y->setTitleText(spec.yTitle);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    double xMin = 0, xMax = 1, yMax = 0, yLow = std::numeric_limits<double>::infinity();
    bool any = false;
    // Dashed lines take the colour of the solid line of the same name before them, if any.
    std::vector<std::pair<QString, QColor>> colours;
    for (const SimLine &line : spec.lines) {
        auto *series = new QLineSeries;
        series->setName(line.name);
        for (const QPointF &p : line.points) {
            if ((spec.logX && p.x() <= 0) || (spec.logY && p.y() <= 0))
                continue;
            series->append(p);
            if (!any) {
                xMin = xMax = p.x();
                any = true;
            }
            xMin = std::min(xMin, p.x());
            xMax = std::max(xMax, p.x());
            yMax = std::max(yMax, p.y());
            yLow = std::min(yLow, p.y());
        }
        chart->addSeries(series);
        QPen pen = series->pen();
        pen.setWidthF(line.dashed ? 1.8 : 2.4);
        if (line.dashed) {
            pen.setStyle(Qt::DashLine);
            pen.setColor(chart->titleBrush().color());
        }
        series->setPen(pen);
        series->setPointsVisible(!line.dashed && series->count() <= 12);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    if (xMin == xMax) {
        xMin = spec.logX ? xMin / 2 : xMin - 1;
        xMax = spec.logX ? xMax * 2 : xMax + 1;
    }
    x->setRange(xMin, xMax);
    if (auto *valueX = qobject_cast<QValueAxis *>(x)) {
        // Whole numbers on a count axis.
        if (xMax - xMin <= 16 && xMax - xMin >= 1 && std::floor(xMin) == xMin && std::floor(xMax) == xMax)
            valueX->setTickCount(int(xMax - xMin) + 1);
        else
            valueX->applyNiceNumbers();
    }
    double bottom = spec.yMin, top = 1;
    if (spec.logY) {
        bottom = std::pow(10.0, std::floor(std::log10(std::isfinite(yLow) ? yLow : 1.0)));
        top = std::pow(10.0, std::ceil(std::log10(std::max(yMax * 1.05, bottom * 10))));
        y->setRange(bottom, top);
    } else {
        top = spec.yMax ? *spec.yMax : (yMax > 0 ? yMax * 1.12 : 1);
        y->setRange(spec.yMin, top);
        if (auto *valueY = qobject_cast<QValueAxis *>(y))
            valueY->applyNiceNumbers();
        auto *valueY = qobject_cast<QValueAxis *>(y);
        bottom = valueY->min();
        top = valueY->max();
    }
    if (spec.markerX && *spec.markerX >= xMin && *spec.markerX <= xMax) {
        addMarkerLine(chart, x, y, *spec.markerX, bottom, top, top, spec.markerLabel,
                      chart->titleBrush().color(), 1.0);
    }
    return chart;
}

namespace {

// The heat strip's colour for a share of the busiest value: from the paper to deep blue on a
// light page, from the paper to light blue on a dark one, so the busy cells stand out on both.
QColor shade(double share, const QColor &paper)
{
    share = std::clamp(share, 0.0, 1.0);
    const bool dark = paper.lightnessF() < 0.5;
    const QColor low = dark ? paper.lighter(115) : QColor(0xf4, 0xf8, 0xfc);
    const QColor high = dark ? QColor(0x9e, 0xca, 0xe1) : QColor(0x08, 0x30, 0x6b);
    return QColor::fromRgbF(low.redF() + (high.redF() - low.redF()) * share,
                            low.greenF() + (high.greenF() - low.greenF()) * share,
                            low.blueF() + (high.blueF() - low.blueF()) * share);
}

QString valueText(double value, bool percent)
{
    return percent ? QStringLiteral("%1 %").arg(std::lround(value * 100)) : QString::number(value, 'g', 4);
}

// A round step for time ticks over `span` seconds, at most six ticks, and the unit it is
// written in (seconds, minutes or hours, the same for every tick).
struct TimeStep {
    double seconds;
    double unit;
    const char *suffix;
};

TimeStep timeStep(double span)
{
    static const double steps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
    double step = steps[std::size(steps) - 1];
    for (double candidate : steps)
        if (span / candidate <= 6) {
            step = candidate;
            break;
        }
    if (step < 60)
        return {step, 1, " s"};
    if (step < 3600)
        return {step, 60, " min"};
    return {step, 3600, " h"};
}

} // namespace

void paintHeatStrip(QPainter &painter, const QRectF &rect, const HeatStrip &strip, const FigureInk &colours)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(rect, colours.paper);
    const QColor ink = colours.ink, muted = colours.muted;

    QFont titleFont = painter.font();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    QFont font = painter.font();
    font.setPointSizeF(8.5);
    painter.setFont(titleFont);
    painter.setPen(ink);
    const QRectF titleRect(rect.left(), rect.top() + 4, rect.width(), kPaintedTitleHeight - 4);
    painter.drawText(titleRect, Qt::AlignCenter, strip.title);
    painter.setFont(font);

    const int replicas = int(strip.rows.size());
    const size_t samples = strip.timesS.size();
    if (replicas == 0 || samples == 0) {
        painter.setPen(muted);
        painter.drawText(rect, Qt::AlignCenter, QObject::tr("Run the simulation to see each replica's load over time."));
        painter.restore();
        return;
    }
    const qreal keyHeight = 34;
    const QRectF plot(rect.left() + 82, titleRect.bottom() + 10, rect.width() - 82 - 24,
                      rect.bottom() - titleRect.bottom() - 10 - 40 - keyHeight);
    const qreal rowHeight = plot.height() / replicas;
    const double t0 = strip.timesS.front();
    const double t1 = std::max(strip.timesS.back(), t0 + 1e-9);
    const double maxValue = strip.maxValue > 0 ? strip.maxValue : 1;
    for (int r = 0; r < replicas; ++r) {
        const auto &row = strip.rows[size_t(r)];
        const qreal top = plot.top() + r * rowHeight;
        for (size_t s = 0; s < samples && s < row.size(); ++s) {
            // Each sample holds until the next one.
            const double from = strip.timesS[s];
            const double to = s + 1 < samples ? strip.timesS[s + 1] : t1;
            const qreal left = plot.left() + (from - t0) / (t1 - t0) * plot.width();
            const qreal right = plot.left() + (to - t0) / (t1 - t0) * plot.width();
            painter.fillRect(QRectF(left, top, std::max<qreal>(right - left, 0.8), rowHeight), shade(row[s] / maxValue, colours.paper));
        }
        if (replicas <= 24 || r % ((replicas + 23) / 24) == 0) {
            painter.setPen(muted);
            painter.drawText(QRectF(rect.left() + 4, top, 74, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                             QObject::tr("replica %1").arg(r + 1));
        }
    }
    painter.setPen(QPen(muted, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    // Time axis: ticks at round times since the first arrival, all in one unit.
    const TimeStep step = timeStep(t1 - t0);
    for (double at = 0; at <= t1 - t0 + 1e-9; at += step.seconds) {
        const qreal x = plot.left() + at / (t1 - t0) * plot.width();
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        painter.drawText(QRectF(x - 40, plot.bottom() + 5, 80, 16), Qt::AlignCenter,
                         QString::number(at / step.unit, 'g', 4) + QLatin1String(step.suffix));
    }
    painter.setPen(ink);
    painter.drawText(QRectF(plot.left(), plot.bottom() + 20, plot.width(), 16), Qt::AlignCenter,
                     QObject::tr("Simulated time since the first arrival"));
    // Colour key.
    const QRectF key(plot.left(), plot.bottom() + 44, std::min<qreal>(260, plot.width() / 2), 10);
    for (int i = 0; i < 64; ++i)
        painter.fillRect(QRectF(key.left() + key.width() * i / 64, key.top(), key.width() / 64 + 0.5, key.height()),
                         shade(i / 63.0, colours.paper));
    painter.setPen(QPen(muted, 1));
    painter.drawRect(key);
    painter.drawText(QRectF(key.right() + 8, key.top() - 4, plot.right() - key.right() - 8, 18),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QObject::tr("%1: 0 to %2").arg(strip.valueLabel, valueText(maxValue, strip.percent)));
    painter.restore();
}

} // namespace headroom::ui
