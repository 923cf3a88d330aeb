#include "sizingcharts.h"

#include "common/chartstyle.h"
#include "common/format.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

namespace headroom::ui {

namespace {

constexpr double kNoBar = 0.1; // below the log axis' minimum of 0.5

QString precisionName(engine::WeightPrecision w, engine::KvPrecision kv)
{
    return QStringLiteral("%1/%2").arg(upperName(engine::toString(w)), upperName(engine::toString(kv)));
}

} // namespace

QChart *buildGpusVsHitRateChart(const std::vector<HitRatePoint> &points, double currentHitRate, const QString &title,
                                QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    auto *x = new QValueAxis;
    x->setTitleText(QObject::tr("Prefix cache hit rate (%)"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setRange(0, 100);
    x->setTickCount(11);
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("GPUs needed"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double top = 1;
    const struct {
        QString name;
        int64_t HitRatePoint::*member;
        Qt::PenStyle style;
        qreal width;
    } lines[] = {
        {QObject::tr("GPUs planned (with headroom)"), &HitRatePoint::gpus, Qt::SolidLine, 2.6},
        {QObject::tr("Memory side: resident KV"), &HitRatePoint::memoryGpus, Qt::DotLine, 1.8},
        {QObject::tr("Compute side: prefill + decode"), &HitRatePoint::computeGpus, Qt::DashDotLine, 1.8},
    };
    for (const auto &spec : lines) {
        auto *line = new QLineSeries;
        line->setName(spec.name);
        for (const HitRatePoint &p : points) {
            if (!p.feasible)
                continue;
            line->append(p.hitRate * 100.0, double(p.*spec.member));
            top = std::max(top, double(p.*spec.member));
        }
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        QPen pen = line->pen();
        pen.setWidthF(spec.width);
        pen.setStyle(spec.style);
        line->setPen(pen);
    }
    y->setRange(0, top * 1.1);
    y->applyNiceNumbers();

    addMarkerLine(chart, x, y, currentHitRate * 100.0, 0, y->max(), y->max(),
                  QObject::tr("profile %1 %").arg(currentHitRate * 100.0, 0, 'f', 0), chart->titleBrush().color(), 1.0);
    return chart;
}

QChart *buildGpusByTypeChart(const std::vector<engine::WhatIf> &whatIfs,
                             const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    // categories: GPUs in the order given; sets: precision combinations in first-seen order
    std::vector<std::string> gpuIds;
    std::vector<QString> setNames;
    std::map<QString, std::map<std::string, double>> values;
    for (const engine::WhatIf &w : whatIfs) {
        if (std::find(gpuIds.begin(), gpuIds.end(), w.gpuId) == gpuIds.end())
            gpuIds.push_back(w.gpuId);
        const QString set = precisionName(w.weights, w.kv);
        if (std::find(setNames.begin(), setNames.end(), set) == setNames.end())
            setNames.push_back(set);
        if (w.result.feasible)
            values[set][w.gpuId] = double(w.result.gpus);
    }
    auto *series = new QBarSeries;
    double top = 1;
    for (const QString &name : setNames) {
        auto *set = new QBarSet(name);
        for (const std::string &gpu : gpuIds) {
            const auto it = values[name].find(gpu);
            // A log axis has no zero: a missing bar sits below the axis, out of sight.
            const double v = it == values[name].end() ? kNoBar : it->second;
            *set << v;
            top = std::max(top, v);
        }
        series->append(set);
    }
    auto *x = new QBarCategoryAxis;
    QStringList categories;
    for (const std::string &id : gpuIds) // "a100-sxm-40gb" → "a100-40gb": short enough to read
        categories << QString::fromStdString(id).remove(QStringLiteral("-sxm"));
    x->append(categories);
    x->setTitleText(QObject::tr("GPU type (a missing bar: does not fit or misses the SLO)"));
    // Upright labels: a catalog's worth of GPU types leaves each less than its width.
    x->setLabelsAngle(-90);
    // Counts span orders of magnitude (a model squeezed onto small GPUs needs thousands): log scale.
    auto *y = new QLogValueAxis;
    y->setBase(10);
    y->setTitleText(QObject::tr("GPUs needed (log)"));
    y->setLabelFormat(QStringLiteral("%g"));
    y->setMinorTickCount(8);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    // From 0.5 so that a one-GPU plan shows a bar.
    y->setRange(0.5, std::pow(10.0, std::ceil(std::log10(top * 1.2))));
    return chart;
}

QString residencySentence(engine::KvResidency residency, bool brief)
{
    if (brief)
        return residency == engine::KvResidency::Session ? QObject::tr("KV sized for every open session.")
                                                         : QObject::tr("KV sized for requests in flight.");
    return residency == engine::KvResidency::Session
        ? QObject::tr("Sized for every open session (KV residency: session).")
        : QObject::tr("Sized for requests in flight (KV residency: request).");
}

} // namespace headroom::ui
