#include "kvchart.h"

#include "common/chartstyle.h"
#include "common/format.h"
#include "engine/catalog/specs.h"
#include "engine/common/errors.h"
#include "report/reportsnapshot.h"
#include "store/common/workspace.h"

#include <QJsonArray>
#include <QJsonObject>

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


namespace {

constexpr int64_t kCurveStart = 1024;
constexpr char kKvSource[] = "kv-concurrency";
constexpr char kKvTableSource[] = "kv-table";

QString precisionName(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

QJsonObject kvSource(const KvFigureInputs &in)
{
    QJsonArray variants;
    for (const engine::KvVariant &v : in.variants)
        variants.append(kvVariantJson(v));
    QJsonArray contexts;
    for (int64_t c : in.contexts)
        contexts.append(double(c));
    return {{QStringLiteral("kind"), QLatin1String(kKvSource)},
            {QStringLiteral("variants"), variants},
            {QStringLiteral("prefix"), double(in.sharedPrefixTokens)},
            {QStringLiteral("contexts"), contexts}};
}

} // namespace

QJsonObject kvVariantJson(const engine::KvVariant &v)
{
    return {{QStringLiteral("model"), QString::fromStdString(v.modelId)},
            {QStringLiteral("gpu"), QString::fromStdString(v.gpuId)},
            {QStringLiteral("weights"), precisionName(engine::toString(v.weights))},
            {QStringLiteral("kv"), precisionName(engine::toString(v.kv))},
            {QStringLiteral("tp"), v.tp}};
}

std::optional<engine::KvVariant> kvVariantFromJson(const QJsonObject &o)
{
    engine::KvVariant variant;
    variant.modelId = o.value(QStringLiteral("model")).toString().toStdString();
    variant.gpuId = o.value(QStringLiteral("gpu")).toString().toStdString();
    const auto weights = engine::parseWeightPrecision(o.value(QStringLiteral("weights")).toString().toStdString());
    const auto kv = engine::parseKvPrecision(o.value(QStringLiteral("kv")).toString().toStdString());
    variant.tp = o.value(QStringLiteral("tp")).toInt();
    if (!weights || !kv || variant.tp < 1)
        return std::nullopt;
    variant.weights = *weights;
    variant.kv = *kv;
    return variant;
}

QString kvVariantMissing(const store::Workspace &workspace, const engine::KvVariant &v)
{
    const QString model = QString::fromStdString(v.modelId), gpu = QString::fromStdString(v.gpuId);
    if (!model.isEmpty() && !workspace.model(model))
        return QObject::tr("model \"%1\" is no longer in the catalog").arg(model);
    if (!gpu.isEmpty() && !workspace.gpu(gpu))
        return QObject::tr("GPU \"%1\" is no longer in the catalog").arg(gpu);
    return {};
}

QString reserveText(const engine::RuntimeReserve &reserve)
{
    if (reserve.measured)
        return QObject::tr("reserve %1 measured (%2)")
            .arg(formatGiB(reserve.bytes, 2), QString::fromStdString(reserve.measured->source));
    if (!reserve.profile)
        return QObject::tr("reserve %1").arg(formatGiB(reserve.bytes, 2));
    return QObject::tr("reserve %1 from vLLM's profile: activation peak %2 at %3 tokens and %4 requests + "
                       "non-torch %5")
        .arg(formatGiB(reserve.bytes, 2), formatGiB(reserve.profile->activationPeakBytes, 2),
             formatCount(reserve.profile->maxBatchedTokens), formatCount(reserve.profile->maxSeqs),
             formatGiB(reserve.profile->nonTorchBytes, 2));
}

engine::KvInputs kvInputs(const store::Workspace &workspace, const engine::ServingAssumptions &serving,
                          const KvFigureInputs &figure, const engine::KvVariant &variant, QStringList *labelParts,
                          engine::RuntimeReserve *reserve)
{
    engine::KvInputs in;
    const auto model = workspace.model(QString::fromStdString(variant.modelId));
    const auto gpu = workspace.gpu(QString::fromStdString(variant.gpuId));
    if (!model || !gpu)
        throw engine::InputError(model ? "gpu" : "model",
                                 model ? "choose a GPU from the catalog" : "choose a model from the catalog");
    in.model = *model;
    in.gpuMemoryBytes = gpu->memoryBytes;
    in.weights = variant.weights;
    in.kv = variant.kv;
    in.utilization = serving.memoryUtilization;
    in.tp = variant.tp;
    in.blockSize = serving.blockSize;
    const engine::RuntimeReserve runtime = engine::runtimeReserve(serving, *model, *gpu, variant.tp);
    in.reserveBytes = runtime.bytes;
    if (reserve)
        *reserve = runtime;
    in.sharedPrefixTokens = figure.sharedPrefixTokens;
    in.contexts = figure.contexts;
    *labelParts = {QString::fromStdString(model->name), QString::fromStdString(gpu->name),
                   QObject::tr("%1/%2")
                       .arg(upperName(engine::toString(variant.weights)), upperName(engine::toString(variant.kv))),
                   QObject::tr("TP %1").arg(variant.tp)};
    return in;
}

std::vector<KvOutcome> kvOutcomes(const store::Workspace &workspace, const engine::ServingAssumptions &serving,
                                  const KvFigureInputs &in)
{
    std::vector<KvOutcome> outcomes;
    for (const engine::KvVariant &variant : in.variants) {
        KvOutcome outcome;
        outcome.variant = variant;
        try {
            const engine::KvInputs kv = kvInputs(workspace, serving, in, variant, &outcome.labelParts, &outcome.reserve);
            outcome.label = outcome.labelParts.join(QStringLiteral(" · "));
            outcome.result = engine::analyseKv(kv);
            outcome.maxContext = kv.model.maxContext;
            const int64_t maxContext = std::max<int64_t>(kv.model.maxContext, kCurveStart * 2);
            outcome.curve = engine::concurrencyCurve(kv, kCurveStart, maxContext, kKvCurvePoints);
        } catch (const engine::InputError &e) {
            outcome.error = QObject::tr("%1: %2").arg(QString::fromStdString(e.field()), QString::fromUtf8(e.what()));
        }
        outcomes.push_back(std::move(outcome));
    }
    return outcomes;
}

ChartFigure kvFigure(std::vector<KvOutcome> &outcomes, const KvFigureInputs &in,
                     const engine::ServingAssumptions &serving)
{
    // The legend names only what differs between variants; what they share goes in the title.
    std::vector<bool> shared(4, true);
    const KvOutcome *first = nullptr;
    for (const KvOutcome &o : outcomes) {
        if (!o.error.isEmpty())
            continue;
        if (!first)
            first = &o;
        for (int i = 0; i < 4; ++i)
            shared[size_t(i)] = shared[size_t(i)] && o.labelParts.value(i) == first->labelParts.value(i);
    }
    QStringList common;
    std::vector<QStringList> differing;
    for (KvOutcome &o : outcomes) {
        if (!o.error.isEmpty())
            continue;
        QStringList parts;
        for (int i = 0; i < 4; ++i)
            if (!shared[size_t(i)])
                parts << o.labelParts.value(i);
        o.shortLabel = parts.isEmpty() ? o.label : parts.join(QStringLiteral(" · "));
        differing.push_back(parts.isEmpty() ? o.labelParts : parts);
    }
    // The legend sits under a chart a few hundred pixels wide: its names are the shortest that
    // still tell the variants apart; the table beside it gives each variant in full.
    const std::vector<QString> legendNames = kvLegendNames(differing);
    std::vector<KvCurve> curves;
    for (const KvOutcome &o : outcomes) {
        if (!o.error.isEmpty())
            continue;
        QString label = legendNames[curves.size()];
        if (!o.result.fits)
            label += QObject::tr(" — does not fit");
        curves.push_back({label, o.curve});
    }
    if (first && curves.size() > 1)
        for (int i = 0; i < 4; ++i)
            if (shared[size_t(i)] && !(i == 3 && first->variant.tp == 1)) // TP 1 goes without saying
                common << first->labelParts.value(i);
    const QString title = common.isEmpty() ? QObject::tr("Concurrent streams vs context length")
                                           : QObject::tr("Concurrent streams vs context length — %1")
                                                 .arg(common.join(QStringLiteral(" · ")));
    // On the chart, what the variants share goes on a second line: a narrow chart cuts one long line.
    const QString chartTitle = common.isEmpty()
        ? title.toHtmlEscaped()
        : QObject::tr("<center>Concurrent streams vs context length<br>%1</center>")
              .arg(common.join(QStringLiteral(" · ")).toHtmlEscaped());
    const std::vector<int64_t> contexts = in.contexts;
    ChartFigure figure{title,
                       QObject::tr("Precision as weights/KV cache (one name when equal); the table names each variant "
                                   "in full. Streams per GPU group of TP GPUs. Block-paged KV cache (block %1 tokens), "
                                   "memory utilization %2, %3. Dashed lines mark the chosen contexts. "
                                   "Source: Headroom kv engine on the workspace catalog.")
                           .arg(serving.blockSize)
                           .arg(serving.memoryUtilization, 0, 'f', 2)
                           .arg(serving.reserveMode == engine::ReserveMode::VllmProfile
                                    ? QObject::tr("runtime reserve per variant from vLLM's profile (activation peak "
                                                  "at the batched-token and request limits + non-torch memory)")
                                    : QObject::tr("reserve %1 per GPU").arg(formatGiB(serving.reserveBytes))),
                       [curves, contexts, chartTitle](QChart::ChartTheme theme) {
                           return buildKvChart(curves, contexts, chartTitle, theme);
                       }};
    figure.source = kvSource(in);
    return figure;
}

DeckTable kvTable(const std::vector<KvOutcome> &outcomes, const KvFigureInputs &in,
                  const engine::ServingAssumptions &serving)
{
    DeckTable table;
    table.columns = QStringList{QObject::tr("Variant"), QObject::tr("KV / token\nper GPU"),
                                QObject::tr("Weights\nper GPU"), QObject::tr("KV pool\nper GPU"),
                                QObject::tr("Blocks\n(%1 tokens)").arg(serving.blockSize)};
    for (int64_t c : in.contexts)
        table.columns << QObject::tr("Streams @\n%1 tokens").arg(formatCount(c));
    for (const KvOutcome &o : outcomes) {
        QStringList row{o.label.isEmpty()        ? QObject::tr("(incomplete variant)")
                        : o.shortLabel.isEmpty() ? o.label
                                                 : o.shortLabel};
        if (!o.error.isEmpty()) {
            row << o.error;
        } else {
            const engine::KvResult &r = o.result;
            row << formatKiB(r.kvBytesPerToken, r.kvBytesPerToken % 1024 ? 2 : 0) << formatGiB(r.weightsBytes, 2)
                << (r.fits ? formatGiB(r.poolBytes, 2) : QObject::tr("−%1 (short)").arg(formatGiB(r.shortfallBytes, 2)))
                << formatCount(r.blocks);
            for (const engine::StreamsAt &s : r.streams)
                row << (s.context > o.maxContext ? QObject::tr("n/a (max %1)").arg(formatCount(o.maxContext))
                                                 : formatCount(s.streams));
        }
        while (row.size() < table.columns.size())
            row << QString();
        table.rows << row;
    }
    return table;
}

std::optional<store::ReportItem> kvReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                              QString *problem)
{
    problem->clear();
    const QString kind = source.value(QStringLiteral("kind")).toString();
    if (kind != QLatin1String(kKvSource) && kind != QLatin1String(kKvTableSource))
        return std::nullopt;
    KvFigureInputs in;
    for (const QJsonValue &value : source.value(QStringLiteral("variants")).toArray()) {
        const auto variant = kvVariantFromJson(value.toObject());
        if (!variant) {
            *problem = QObject::tr("its variant %1 is not one Headroom reads").arg(in.variants.size() + 1);
            return std::nullopt;
        }
        in.variants.push_back(*variant);
    }
    in.sharedPrefixTokens = int64_t(source.value(QStringLiteral("prefix")).toDouble());
    for (const QJsonValue &c : source.value(QStringLiteral("contexts")).toArray())
        in.contexts.push_back(int64_t(c.toDouble()));
    const engine::ServingAssumptions serving = workspace.servingAssumptions();
    // A variant whose model or GPU left the catalog would silently drop out of the chart.
    for (const engine::KvVariant &v : in.variants) {
        *problem = kvVariantMissing(workspace, v);
        if (!problem->isEmpty())
            return std::nullopt;
    }
    std::vector<KvOutcome> outcomes = kvOutcomes(workspace, serving, in);
    const ChartFigure figure = kvFigure(outcomes, in, serving);
    if (kind == QLatin1String(kKvTableSource))
        return reportItemFromTable(QString(), QString(), kvTable(outcomes, in, serving), source);
    return reportItemFromFigure(figure);
}

} // namespace headroom::ui
