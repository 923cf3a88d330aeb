#include "forecastcharts.h"

#include "common/chartstyle.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr double kMsPerHour = 3600.0 * 1000.0;

void attach(QChart *chart, QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

// Index of probability p in fanProbabilities().
size_t fanIndex(double p)
{
    const auto &all = fanProbabilities();
    return size_t(std::find(all.begin(), all.end(), p) - all.begin());
}

} // namespace

const std::vector<double> &fanProbabilities()
{
    static const std::vector<double> probabilities{0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
    return probabilities;
}

QChart *buildFanChart(const FanChartData &data, const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    const bool dated = data.startEpochSeconds > 0;
    // x of hour h of the series: a utcDateAxis x (ms, labels reading UTC), else the hour itself.
    const double originX = dated ? utcAxisX(data.startEpochSeconds) : 0.0;
    auto xOf = [&](double hour) { return dated ? originX + hour * kMsPerHour : hour; };
    const int history = int(data.history.size());
    const int first = std::clamp(data.firstShownHour, 0, std::max(0, history - 1));
    const int steps = data.quantiles.empty() ? 0 : int(data.quantiles.front().size());

    QAbstractAxis *x = nullptr;
    if (dated) {
        x = utcDateAxis(data.startEpochSeconds + int64_t(first) * 3600,
                        data.startEpochSeconds + int64_t(history + std::max(steps, 1)) * 3600);
    } else {
        auto *axis = new QValueAxis;
        axis->setTitleText(QObject::tr("Hour of the series"));
        axis->setLabelFormat(QStringLiteral("%.0f"));
        axis->setRange(first, history + std::max(steps, 1));
        // Ticks on whole days (or weeks), about eight of them.
        const double span = double(history + std::max(steps, 1) - first);
        const double days = std::max(1.0, std::ceil(span / 24.0 / 8.0));
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
        axis->setTickInterval(24.0 * (days > 4 ? 7.0 * std::ceil(days / 7.0) : days));
        x = axis;
    }
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("GPUs"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    double top = 1;
    const QColor band(0x2e, 0x86, 0xc1);
    const struct {
        double lower, upper;
        int alpha;
        QString name;
    } bands[] = {
        {0.01, 0.99, 55, QObject::tr("P01–P99")},
        {0.05, 0.95, 75, QObject::tr("P05–P95")},
        {0.25, 0.75, 115, QObject::tr("P25–P75")},
    };
    if (data.quantiles.size() == fanProbabilities().size() && steps > 0) {
        for (const auto &b : bands) {
            const std::vector<double> &lowerValues = data.quantiles[fanIndex(b.lower)];
            const std::vector<double> &upperValues = data.quantiles[fanIndex(b.upper)];
            auto *lower = new QLineSeries;
            auto *upper = new QLineSeries;
            for (int k = 0; k < steps; ++k) {
                lower->append(xOf(history + k), lowerValues[size_t(k)]);
                upper->append(xOf(history + k), upperValues[size_t(k)]);
                top = std::max(top, upperValues[size_t(k)]);
            }
            auto *area = new QAreaSeries(upper, lower);
            area->setName(b.name);
            // Fill, edge and the bounding lines in one colour, so that the legend's swatch shows it.
            const QColor fill = bandFill(chart, band, b.alpha / 255.0);
            area->setColor(fill);
            area->setBorderColor(fill);
            upper->setColor(fill);
            lower->setColor(fill);
            attach(chart, area, x, y);
        }
    }

    auto *past = new QLineSeries;
    past->setName(QObject::tr("History"));
    for (int h = first; h < history; ++h) {
        past->append(xOf(h), data.history[size_t(h)]);
        top = std::max(top, data.history[size_t(h)]);
    }
    // The past in grey, the forecast in blue: the two lines stay apart in print and in the legend.
    QPen pastPen(theme == QChart::ChartThemeDark ? QColor(0xbd, 0xc3, 0xc7) : QColor(0x5d, 0x6d, 0x7e));
    pastPen.setWidthF(1.6);
    past->setPen(pastPen);
    attach(chart, past, x, y);

    if (data.quantiles.size() == fanProbabilities().size() && steps > 0) {
        auto *median = new QLineSeries;
        median->setName(QObject::tr("Forecast P50"));
        const std::vector<double> &p50 = data.quantiles[fanIndex(0.5)];
        for (int k = 0; k < steps; ++k)
            median->append(xOf(history + k), p50[size_t(k)]);
        QPen pen(theme == QChart::ChartThemeDark ? QColor(0xae, 0xd6, 0xf1) : QColor(0x0b, 0x3c, 0x5d));
        pen.setWidthF(2.8);
        median->setPen(pen);
        attach(chart, median, x, y);
    }

    y->setRange(0, top * 1.12);
    y->applyNiceNumbers();
    if (steps > 0)
        addMarkerLine(chart, x, y, xOf(history), y->min(), y->max(), y->max() * 0.97,
                      QObject::tr("forecast origin"), QColor(0xc0, 0x39, 0x2b), 1.6);
    return chart;
}

QChart *buildErrorBarsChart(const ErrorBarsData &data, const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    const QColor colors[] = {QColor(0x2e, 0x86, 0xc1), QColor(0xe6, 0x7e, 0x22), QColor(0x27, 0xae, 0x60)};
    auto *series = new QBarSeries;
    double top = 0;
    for (int m = 0; m < data.methods.size() && size_t(m) < data.values.size(); ++m) {
        auto *set = new QBarSet(data.methods[m]);
        set->setColor(colors[m % 3]);
        for (double v : data.values[size_t(m)]) {
            *set << v;
            top = std::max(top, v);
        }
        series->append(set);
    }
    auto *x = new QBarCategoryAxis;
    x->append(data.categories);
    auto *y = new QValueAxis;
    y->setTitleText(data.unit);
    y->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, series, x, y);
    y->setRange(0, std::max(top * 1.15, 1e-9));
    y->applyNiceNumbers();
    return chart;
}

} // namespace headroom::ui
