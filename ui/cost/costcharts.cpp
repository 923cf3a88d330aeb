#include "costcharts.h"

#include "common/format.h"

#include "common/chartstyle.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

namespace headroom::ui {

namespace {

void attach(QChart *chart, QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace

double moneyAxisScale(double maxValue, const QString &currency, QString *unitTitle)
{
    if (maxValue >= 2e6) {
        *unitTitle = QObject::tr("%1 M").arg(currency); // millions, short enough for an axis title
        return 1e6;
    }
    if (maxValue >= 2e3) {
        *unitTitle = QObject::tr("%1 k").arg(currency); // thousands
        return 1e3;
    }
    *unitTitle = currency;
    return 1;
}

QChart *buildReserveSweepChart(const engine::ReserveAnalysis &analysis, const QString &currency,
                               const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    double maxCost = 0;
    for (const auto &p : analysis.sweep)
        maxCost = std::max(maxCost, p.cost.amount.toDouble());
    QString unit;
    const double scale = moneyAxisScale(maxCost, currency, &unit);

    auto *x = new QValueAxis;
    x->setTitleText(QObject::tr("Reserved GPUs"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("Total cost (%1)").arg(unit));
    y->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    auto *curve = new QLineSeries;
    curve->setName(QObject::tr("Total cost: reserved + elastic"));
    double minCost = maxCost;
    for (const auto &p : analysis.sweep) {
        const double cost = p.cost.amount.toDouble();
        curve->append(double(p.reserved), cost / scale);
        minCost = std::min(minCost, cost);
    }
    attach(chart, curve, x, y);
    QPen pen = curve->pen();
    pen.setWidthF(2.4);
    curve->setPen(pen);

    const double last = analysis.sweep.empty() ? 1.0 : double(analysis.sweep.back().reserved);
    x->setRange(0, std::max(1.0, last));
    x->applyNiceNumbers();
    y->setRange(minCost / scale * 0.9, maxCost / scale * 1.05);
    y->applyNiceNumbers();
    const double bottom = y->min(), top = y->max();
    // Labels at staggered heights so that close markers stay readable.
    const double step = (top - bottom) * 0.07;
    addMarkerLine(chart, x, y, double(analysis.optimalReserved), bottom, top, top,
              QObject::tr("optimum %1").arg(analysis.optimalReserved), QColor(0x1e, 0x88, 0x4c));
    addMarkerLine(chart, x, y, double(analysis.p50Reserved), bottom, top, top - step,
              QObject::tr("P50 %1").arg(analysis.p50Reserved), QColor(0x8e, 0x44, 0xad));
    addMarkerLine(chart, x, y, double(analysis.p75Reserved), bottom, top, top - 2 * step,
              QObject::tr("P75 %1").arg(analysis.p75Reserved), QColor(0xc0, 0x39, 0x2b));
    return chart;
}

QChart *buildWeekStackChart(const std::vector<engine::HourBreakdown> &hours, int firstHour, const QString &title,
                            QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    auto *x = new QValueAxis;
    x->setTitleText(QObject::tr("Hour of the series (1 week shown)"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("GPUs"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const int count = std::min<int>(168, std::max<int>(0, int(hours.size()) - firstHour));
    const struct {
        QString name;
        QColor color;
        engine::Decimal engine::HourBreakdown::*member;
    } layers[] = {
        {QObject::tr("Reserved, used"), QColor(0x2e, 0x86, 0xc1), &engine::HourBreakdown::reservedUsed},
        {QObject::tr("Reserved, idle"), QColor(0xa9, 0xcc, 0xe3), &engine::HourBreakdown::reservedIdle},
        {QObject::tr("On-demand"), QColor(0xe6, 0x7e, 0x22), &engine::HourBreakdown::onDemand},
        {QObject::tr("Spot"), QColor(0x27, 0xae, 0x60), &engine::HourBreakdown::spot},
    };
    std::vector<double> base(size_t(count) + 1, 0.0);
    double top = 1;
    for (const auto &layer : layers) {
        auto *lower = new QLineSeries;
        auto *upper = new QLineSeries;
        bool any = false;
        for (int i = 0; i < count; ++i) {
            const double v = (hours[size_t(firstHour + i)].*layer.member).toDouble();
            any = any || v > 0;
            // Steps: each hour is a flat band from its start to the next hour.
            for (double h : {double(firstHour + i), double(firstHour + i + 1)}) {
                lower->append(h, base[size_t(i)]);
                upper->append(h, base[size_t(i)] + v);
            }
            base[size_t(i)] += v;
            top = std::max(top, base[size_t(i)]);
        }
        if (!any) {
            delete lower;
            delete upper;
            continue;
        }
        auto *area = new QAreaSeries(upper, lower);
        area->setName(layer.name);
        area->setColor(layer.color);
        area->setBorderColor(layer.color.darker(115));
        attach(chart, area, x, y);
    }
    x->setRange(firstHour, firstHour + std::max(count, 1));
    x->setTickCount(8);
    y->setRange(0, top * 1.08);
    y->applyNiceNumbers();
    return chart;
}

QChart *buildMonthlySpendChart(const std::vector<engine::MonthSpend> &months, const QString &currency,
                               const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    double maxValue = 0;
    bool upfront = false;
    for (const engine::MonthSpend &m : months) {
        maxValue = std::max({maxValue, m.reserved.amount.toDouble(), m.elastic.amount.toDouble(),
                             m.upfront.amount.toDouble()});
        upfront = upfront || !m.upfront.amount.isZero();
    }
    QString unit;
    const double scale = moneyAxisScale(maxValue, currency, &unit);
    auto *reserved = new QBarSet(QObject::tr("Reserved"));
    auto *elastic = new QBarSet(QObject::tr("Elastic (on-demand + spot)"));
    auto *upfrontSet = upfront ? new QBarSet(QObject::tr("Upfront (paid at signing)")) : nullptr;
    if (upfrontSet)
        upfrontSet->setColor(QColor(0x1b, 0x4f, 0x72));
    reserved->setColor(QColor(0x2e, 0x86, 0xc1));
    elastic->setColor(QColor(0xe6, 0x7e, 0x22));
    QStringList categories;
    for (size_t i = 0; i < months.size(); ++i) {
        *reserved << months[i].reserved.amount.toDouble() / scale;
        *elastic << months[i].elastic.amount.toDouble() / scale;
        if (upfrontSet)
            *upfrontSet << months[i].upfront.amount.toDouble() / scale;
        categories << (months[i].label.empty() ? QObject::tr("M%1").arg(i + 1) : QString::fromStdString(months[i].label));
    }
    auto *series = new QBarSeries;
    series->append(reserved);
    series->append(elastic);
    if (upfrontSet)
        series->append(upfrontSet);
    const bool calendar = !months.empty() && !months.front().label.empty();
    QAbstractAxis *x = nullptr;
    if (categories.size() <= kMonthsLabelledSingly) {
        auto *each = new QBarCategoryAxis;
        each->append(categories);
        // A year of months side by side leaves each label less than its width: upright, they stay whole.
        if (categories.size() > 8)
            each->setLabelsAngle(-90);
        each->setTitleText(calendar ? QObject::tr("Calendar month") : QObject::tr("30-day month of the series"));
        x = each;
    } else {
        // Years of months leave a bar less room than a label's height: one label per quarter, centred on
        // its three bars, names the quarter by its first month.
        auto *quarters = new QCategoryAxis;
        quarters->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
        const int count = int(categories.size());
        for (int first = 0; first < count; first += 3)
            quarters->append(categories[first], std::min(first + 3, count) - 0.5);
        quarters->setStartValue(-0.5);
        quarters->setRange(-0.5, count - 0.5);
        quarters->setLabelsAngle(-90);
        quarters->setGridLineVisible(false);
        quarters->setTitleText(calendar ? QObject::tr("Calendar month (three per label)")
                                        : QObject::tr("30-day month of the series (three per label)"));
        x = quarters;
    }
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("Spend per month (%1)").arg(unit));
    y->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, series, x, y);
    y->setRange(0, std::max(maxValue / scale * 1.1, 1e-9));
    y->applyNiceNumbers();
    return chart;
}

} // namespace headroom::ui
