#include "fragcharts.h"

#include "common/format.h"
#include "common/chartstyle.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <utility>

namespace headroom::ui {

namespace {

QChart *buildPercentChart(const std::vector<PolicyRuns> &runs, const QString &title, QChart::ChartTheme theme,
                          const QString &yTitle, engine::frag::Spread engine::frag::PointSpread::*member, bool ideal)
{
    QChart *chart = newStyledChart(title, theme);
    auto *x = new QValueAxis;
    x->setTitleText(QObject::tr("Arrived workload (% of cluster GPU capacity)"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto *y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double maxX = 100, maxY = 1;
    for (const PolicyRuns &run : runs) {
        auto *line = new QLineSeries;
        line->setName(policyName(run.policy));
        for (const auto &p : run.result.points) {
            line->append(p.arrivedPct.mean, (p.*member).mean);
            maxX = std::max(maxX, p.arrivedPct.mean);
            maxY = std::max(maxY, (p.*member).mean);
        }
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        QPen pen(policyColor(run.policy));
        pen.setWidthF(run.policy == engine::frag::Policy::Fgd ? 2.8 : 1.8);
        line->setPen(pen);
    }
    if (ideal) {
        auto *line = new QLineSeries;
        line->setName(QObject::tr("Ideal: all arrived work allocated"));
        line->append(0, 0);
        line->append(100, 100);
        line->append(maxX, 100);
        QPen pen(QColor(0x70, 0x70, 0x70));
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    // Below ~50 % arrived every policy places everything: start where they can differ.
    x->setRange(50, std::ceil(maxX / 10) * 10);
    x->setTickCount(int(std::ceil(maxX / 10)) - 4);
    // Ticks on round values: every 10 % from 50 to 100, or every 10 or 20 from 0 (a share of
    // at most 100 % stays within 100).
    if (ideal) {
        y->setRange(50, 100);
        y->setTickCount(6);
    } else {
        double top = std::max(10.0, std::ceil(maxY * 1.1 / 10) * 10);
        if (maxY <= 100)
            top = std::min(top, 100.0);
        const double step = top <= 50 ? 10 : 20;
        top = std::ceil(top / step) * step;
        y->setRange(0, top);
        y->setTickCount(int(top / step) + 1);
    }
    return chart;
}

// A category axis below and a value axis from 0 to a little above `top` at the left, both
// attached to the bar series; returns them for further series.
std::pair<QBarCategoryAxis *, QValueAxis *> attachBarAxes(QChart *chart, QBarSeries *series, const QStringList &categories, const QString &xTitle,
                   const QString &yTitle, double top)
{
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(xTitle);
    auto *y = new QValueAxis;
    y->setTitleText(yTitle);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    y->setRange(0, top * 1.15);
    y->applyNiceNumbers();
    return {x, y};
}

} // namespace

QColor policyColor(engine::frag::Policy policy)
{
    using engine::frag::Policy;
    switch (policy) {
    case Policy::Fgd:
        return QColor(0xd6, 0x27, 0x28);
    case Policy::BestFit:
        return QColor(0x1f, 0x77, 0xb4);
    case Policy::DotProduct:
        return QColor(0x2c, 0xa0, 0x2c);
    case Policy::Packing:
        return QColor(0x94, 0x67, 0xbd);
    case Policy::Clustering:
        return QColor(0x8c, 0x56, 0x4b);
    case Policy::FirstFit:
        return QColor(0xff, 0x7f, 0x0e);
    case Policy::Random:
        return QColor(0x7f, 0x7f, 0x7f);
    }
    return Qt::black;
}

QString policyName(engine::frag::Policy policy)
{
    using engine::frag::Policy;
    switch (policy) {
    case Policy::Fgd:
        return QObject::tr("FGD");
    case Policy::BestFit:
        return QObject::tr("Best-fit");
    case Policy::DotProduct:
        return QObject::tr("Dot-product");
    case Policy::Packing:
        return QObject::tr("GPU packing");
    case Policy::Clustering:
        return QObject::tr("GPU clustering");
    case Policy::FirstFit:
        return QObject::tr("First-fit");
    case Policy::Random:
        return QObject::tr("Random");
    }
    return {};
}

QChart *buildAllocationChart(const std::vector<PolicyRuns> &runs, const QString &title, QChart::ChartTheme theme)
{
    return buildPercentChart(runs, title, theme, QObject::tr("Allocated GPU (% of capacity)"),
                             &engine::frag::PointSpread::allocatedPct, true);
}

QChart *buildFragRatioChart(const std::vector<PolicyRuns> &runs, const QString &title, QChart::ChartTheme theme)
{
    return buildPercentChart(runs, title, theme, QObject::tr("Fragmentation ratio (% of idle GPU)"),
                             &engine::frag::PointSpread::fragRatioPct, false);
}

QChart *buildUnallocatedChart(const std::vector<PolicyRuns> &runs, const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    chart->legend()->hide();
    auto *set = new QBarSet(QObject::tr("Unallocated GPUs at 100 % arrived (mean)"));
    QStringList categories;
    double top = 1;
    for (const PolicyRuns &run : runs) {
        const auto &s = run.result.unallocatedGpusAt100;
        *set << s.mean;
        categories << QStringLiteral("%1<br>%2 ± %3").arg(policyName(run.policy)).arg(s.mean, 0, 'f', 0).arg(s.sd, 0, 'f', s.sd < 10 ? 1 : 0);
        top = std::max(top, s.mean + s.sd);
    }
    set->setColor(QColor(0x4c, 0x78, 0xa8));
    auto *series = new QBarSeries;
    series->append(set);
    const auto [x, y] = attachBarAxes(chart, series, categories,
                                      QObject::tr("Policy (mean ± standard deviation over seeds)"),
                                      QObject::tr("Unallocated GPUs"), top);
    // whiskers: ± one standard deviation, drawn at the bar centres (category index)
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto &s = runs[i].result.unallocatedGpusAt100;
        if (s.sd <= 0)
            continue;
        auto *whisker = new QLineSeries;
        whisker->append(double(i), s.mean - s.sd);
        whisker->append(double(i), s.mean + s.sd);
        QPen pen(QColor(0x20, 0x20, 0x20));
        pen.setWidthF(2);
        whisker->setPen(pen);
        chart->addSeries(whisker);
        whisker->attachAxis(x);
        whisker->attachAxis(y);
    }
    return chart;
}

std::vector<size_t> requestClasses(const std::vector<const engine::frag::SeedsResult *> &results)
{
    std::vector<size_t> classes = {0, 1, 2, 4, 8};
    for (const engine::frag::SeedsResult *result : results) {
        for (const engine::frag::RunResult &run : result->runs) {
            for (size_t i = 0; i < run.failedByGpusAt100.size(); ++i) {
                if (run.failedByGpusAt100[i] > 0 && std::find(classes.begin(), classes.end(), i) == classes.end())
                    classes.push_back(i);
            }
        }
    }
    std::sort(classes.begin(), classes.end());
    return classes;
}

QString requestClassName(size_t index)
{
    if (index == 0)
        return QObject::tr("< 1 GPU");
    return formatGpus(int64_t(index));
}

double meanFailedAt100(const engine::frag::SeedsResult &result, size_t index)
{
    if (result.runs.empty())
        return 0;
    double sum = 0;
    for (const engine::frag::RunResult &run : result.runs)
        sum += index < run.failedByGpusAt100.size() ? double(run.failedByGpusAt100[index]) : 0.0;
    return sum / double(result.runs.size());
}

QChart *buildFgdScoringChart(const engine::frag::SeedsResult &exact, const engine::frag::SeedsResult &study,
                             const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    const std::vector<size_t> classes = requestClasses({&exact, &study});
    auto *exactSet = new QBarSet(QObject::tr("FGD, exact scores: %1 % allocated at 100 % arrived")
                                     .arg(exact.allocatedPctAt100.mean, 0, 'f', 2));
    auto *studySet = new QBarSet(QObject::tr("FGD, the study's whole-number scores: %1 %")
                                     .arg(study.allocatedPctAt100.mean, 0, 'f', 2));
    exactSet->setColor(QColor(0x4c, 0x78, 0xa8));
    studySet->setColor(policyColor(engine::frag::Policy::Fgd));
    QStringList categories;
    double top = 1;
    for (const size_t c : classes) {
        const double e = meanFailedAt100(exact, c);
        const double s = meanFailedAt100(study, c);
        *exactSet << e;
        *studySet << s;
        top = std::max({top, e, s});
        categories << requestClassName(c).toHtmlEscaped(); // the axis draws rich text: "< 1 GPU" escaped
    }
    auto *series = new QBarSeries;
    series->append(exactSet);
    series->append(studySet);
    attachBarAxes(chart, series, categories, QObject::tr("GPU request of the task"),
                  QObject::tr("Failed tasks (mean over seeds)"), top);
    return chart;
}

} // namespace headroom::ui
