#include "sizingcharts.h"

#include "common/chartstyle.h"
#include "common/format.h"
#include "report/reportsnapshot.h"

#include "engine/common/errors.h"
#include "store/common/workspace.h"

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

namespace {

constexpr char kHitRateSource[] = "sizing-hit-rate";
constexpr char kByTypeSource[] = "sizing-by-type";

QJsonObject sizingSource(const char *kind, const SizingFigureInputs &in)
{
    const engine::SizingOverrides &o = in.overrides;
    return {{QStringLiteral("kind"), QLatin1String(kind)},
            {QStringLiteral("workload"), QString::fromStdString(in.workload.name)},
            {QStringLiteral("gpu"), QString::fromStdString(in.gpu.id)},
            {QStringLiteral("weights"), int(o.weights.value_or(in.workload.weights))},
            {QStringLiteral("kv"), int(o.kv.value_or(in.workload.kv))},
            {QStringLiteral("hit_rate"), o.prefixHitRate.value_or(in.workload.prefixHitRate)},
            {QStringLiteral("tp"), o.tp.value_or(in.workload.tp)},
            {QStringLiteral("disaggregate"), o.disaggregate},
            {QStringLiteral("residency"), int(in.serving.residency)}};
}

} // namespace

ChartFigure sizingHitRateFigure(const SizingFigureInputs &in, const engine::SizingResult &sized)
{
    std::vector<HitRatePoint> points;
    for (int step = 0; step <= 19; ++step) {
        engine::SizingOverrides o = in.overrides;
        o.prefixHitRate = step * 0.05;
        const auto r = engine::sizeInference(in.workload, in.model, in.gpu, o, in.serving);
        points.push_back({step * 0.05, r.gpus, r.replicasMemory * r.gpusPerReplica, r.replicasCompute * r.gpusPerReplica,
                          r.feasible});
    }
    const double current = in.overrides.prefixHitRate.value_or(in.workload.prefixHitRate);
    const QString name = QString::fromStdString(in.workload.name);
    const QString gpuName = QString::fromStdString(in.gpu.name);
    const QString title = QObject::tr("GPUs needed vs cache hit rate — %1").arg(name);
    const bool anyFeasible = std::any_of(points.begin(), points.end(), [](const HitRatePoint &p) { return p.feasible; });
    ChartFigure figure =
        anyFeasible
        ? ChartFigure{title,
                      QObject::tr("Peak GPUs on %1 for %2 at its SLOs as the prefix cache hit rate changes. A higher hit "
                                  "rate removes prefill compute; it cannot shrink the memory side. The dashed line is "
                                  "the rate assumed now. %3")
                          .arg(gpuName, name, residencySentence(in.serving.residency)),
                      [points, current, title](QChart::ChartTheme theme) {
                          return buildGpusVsHitRateChart(points, current, title, theme);
                      }}
        : emptyFigure(title, QObject::tr("No plan at any hit rate on %1: %2")
                                 .arg(gpuName, QString::fromStdString(sized.infeasibleReason)));
    figure.source = sizingSource(kHitRateSource, in);
    return figure;
}

ChartFigure sizingByTypeFigure(const SizingFigureInputs &in, const std::vector<engine::WhatIf> &whatIfs)
{
    const QString title = QObject::tr("GPUs needed by GPU type × precision — %1").arg(QString::fromStdString(in.workload.name));
    const bool anyFits =
        std::any_of(whatIfs.begin(), whatIfs.end(), [](const engine::WhatIf &w) { return w.result.feasible; });
    ChartFigure figure =
        anyFits ? ChartFigure{title,
                              QObject::tr("Weights/KV precision per bar. A missing bar: the model does not fit that GPU "
                                          "or misses the latency SLO. %1")
                                  .arg(residencySentence(in.serving.residency)),
                              [whatIfs, title](QChart::ChartTheme theme) {
                                  return buildGpusByTypeChart(whatIfs, title, theme);
                              }}
                : emptyFigure(title, QObject::tr("The model fits no catalog GPU at TP %1 within the SLOs; the best "
                                                 "options table searches TP 1–8.")
                                         .arg(in.overrides.tp.value_or(in.workload.tp)));
    figure.source = sizingSource(kByTypeSource, in);
    return figure;
}

std::optional<store::ReportItem> sizingReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                  QString *problem)
{
    problem->clear();
    const QString kind = source.value(QStringLiteral("kind")).toString();
    if (kind != QLatin1String(kHitRateSource) && kind != QLatin1String(kByTypeSource))
        return std::nullopt;
    const QString name = source.value(QStringLiteral("workload")).toString();
    const auto workload = workspace.workload(name);
    if (!workload) {
        *problem = QObject::tr("workload \"%1\" no longer exists").arg(name);
        return std::nullopt;
    }
    const auto model = workspace.model(QString::fromStdString(workload->modelId));
    const QString gpuId = source.value(QStringLiteral("gpu")).toString();
    const auto gpu = workspace.gpu(gpuId);
    if (!model || !gpu) {
        *problem = !model ? QObject::tr("model \"%1\" is no longer in the catalog").arg(QString::fromStdString(workload->modelId))
                          : QObject::tr("GPU \"%1\" is no longer in the catalog").arg(gpuId);
        return std::nullopt;
    }
    SizingFigureInputs in{*workload, *model, *gpu, {}, workspace.servingAssumptions()};
    in.overrides.gpuId = gpu->id;
    in.overrides.weights = engine::WeightPrecision(source.value(QStringLiteral("weights")).toInt());
    in.overrides.kv = engine::KvPrecision(source.value(QStringLiteral("kv")).toInt());
    in.overrides.prefixHitRate = source.value(QStringLiteral("hit_rate")).toDouble();
    in.overrides.tp = source.value(QStringLiteral("tp")).toInt();
    in.overrides.disaggregate = source.value(QStringLiteral("disaggregate")).toBool();
    in.serving.residency = engine::KvResidency(source.value(QStringLiteral("residency")).toInt());
    try {
        if (kind == QLatin1String(kHitRateSource))
            return reportItemFromFigure(
                sizingHitRateFigure(in, engine::sizeInference(in.workload, in.model, in.gpu, in.overrides, in.serving)));
        engine::WorkloadProfile variant = in.workload;
        variant.gpuId = in.gpu.id;
        variant.prefixHitRate = *in.overrides.prefixHitRate;
        variant.tp = *in.overrides.tp;
        return reportItemFromFigure(
            sizingByTypeFigure(in, engine::sizingWhatIfs(variant, in.model, workspace.gpus(), in.serving)));
    } catch (const engine::InputError &e) {
        *problem = QObject::tr("workload \"%1\" no longer sizes: %2").arg(name, QString::fromUtf8(e.what()));
        return std::nullopt;
    }
}

} // namespace headroom::ui
