#include "kvlevers.h"

#include "common/format.h"
#include "engine/common/errors.h"
#include "kvchart.h"
#include "report/reportsnapshot.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr char kLeverSource[] = "kv-levers";

// A lever in a few words, for the waterfall's axis.
QString shortLabel(const engine::KvLever &lever)
{
    switch (lever.kind) {
    case engine::KvLeverKind::KvHeads:
        return lever.kvHeads == 1 ? QObject::tr("MQA") : QObject::tr("%1 KV heads").arg(lever.kvHeads);
    case engine::KvLeverKind::ShareLayers:
        return QObject::tr("share ×%1").arg(lever.every);
    case engine::KvLeverKind::LocalGlobal:
        return QObject::tr("%1 window, 1 in %2 global").arg(formatTokensShort(lever.window)).arg(lever.every);
    case engine::KvLeverKind::Format:
        return QObject::tr("%1 KV").arg(upperName(engine::toString(lever.format)));
    case engine::KvLeverKind::Latent:
        return QObject::tr("latent %1").arg(lever.width);
    }
    return {};
}

QString money(const engine::Money &m) { return QString::fromStdString(m.display()); }

// 8 → "8", 3.4595 → "3.46", 107.35 → "107.3".
QString factor(double f)
{
    QString t = formatNumber(f, f < 10 ? 2 : 1);
    if (t.contains(QLatin1Char('.'))) {
        while (t.endsWith(QLatin1Char('0')))
            t.chop(1);
        if (t.endsWith(QLatin1Char('.')))
            t.chop(1);
    }
    return t;
}

QJsonObject leverSource(const KvLeverFigureInputs &in)
{
    return {{QStringLiteral("kind"), QLatin1String(kLeverSource)},
            {QStringLiteral("variant"), kvVariantJson(in.variant)},
            {QStringLiteral("levers"), in.levers},
            {QStringLiteral("context"), double(in.context)},
            {QStringLiteral("streams"), double(in.peakStreams)},
            {QStringLiteral("price"), in.price}};
}

struct Waterfall {
    QString title;
    std::vector<QString> labels;
    std::vector<engine::KvLeverStep> steps;
};

void paintWaterfall(QPainter &painter, const QRectF &rect, const Waterfall &w, const FigureInk &ink)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(rect, ink.paper);
    QFont titleFont = painter.font();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    painter.setFont(titleFont);
    painter.setPen(ink.ink);
    const QRectF titleBox(rect.left() + 4, rect.top() + 4, rect.width() - 8, kPaintedTitleHeight - 6);
    painter.drawText(titleBox, Qt::AlignCenter, QFontMetricsF(titleFont).elidedText(w.title, Qt::ElideMiddle, titleBox.width()));
    if (w.steps.empty()) {
        painter.restore();
        return;
    }

    QFont small = painter.font();
    small.setBold(false);
    small.setPointSizeF(8);
    painter.setFont(small);
    const QFontMetricsF metrics(small);
    const qreal line = metrics.height();
    const QRectF plot(rect.left() + 86, rect.top() + kPaintedTitleHeight + 12, rect.width() - 104,
                      rect.height() - kPaintedTitleHeight - 12 - 6 * line - 14);

    double lowest = w.steps.front().bytesPerToken, highest = lowest;
    for (const engine::KvLeverStep &s : w.steps) {
        lowest = std::min(lowest, s.bytesPerToken);
        highest = std::max(highest, s.bytesPerToken);
    }
    const double bottom = std::floor(std::log10(std::max(lowest, 1.0) * 0.7));
    const double top = std::max(bottom + 1, std::ceil(std::log10(highest * 1.3)));
    const auto y = [&](double bytes) {
        return plot.bottom() - (std::log10(std::max(bytes, 1.0)) - bottom) / (top - bottom) * plot.height();
    };

    // Axis: a line per power of ten, labelled in bytes.
    painter.setPen(QPen(ink.grid, 0.8));
    for (double p = bottom; p <= top + 1e-9; p += 1) {
        const qreal at = y(std::pow(10.0, p));
        painter.setPen(QPen(ink.grid, 0.8));
        painter.drawLine(QPointF(plot.left(), at), QPointF(plot.right(), at));
        painter.setPen(ink.muted);
        painter.drawText(QRectF(rect.left(), at - line / 2, plot.left() - rect.left() - 6, line),
                         Qt::AlignRight | Qt::AlignVCenter, QObject::tr("%1 B").arg(formatCount(int64_t(std::pow(10.0, p)))));
    }
    painter.save();
    painter.translate(rect.left() + 10, plot.center().y());
    painter.rotate(-90);
    painter.setPen(ink.muted);
    painter.drawText(QRectF(-plot.height() / 2, -line / 2, plot.height(), line), Qt::AlignCenter,
                     QObject::tr("KV bytes per token (log scale)"));
    painter.restore();

    const int n = int(w.steps.size());
    const qreal slot = plot.width() / n;
    const qreal barWidth = std::min<qreal>(slot * 0.56, 120);
    const QColor shipped(QStringLiteral("#4e79a7")), drop(QStringLiteral("#59a14f")), rise(QStringLiteral("#e15759"));
    for (int i = 0; i < n; ++i) {
        const engine::KvLeverStep &s = w.steps[size_t(i)];
        const qreal centre = plot.left() + slot * (i + 0.5);
        const double from = i == 0 ? std::pow(10.0, bottom) : w.steps[size_t(i - 1)].bytesPerToken;
        const qreal y0 = y(from), y1 = y(s.bytesPerToken);
        QRectF bar(centre - barWidth / 2, std::min(y0, y1), barWidth, std::max<qreal>(std::abs(y1 - y0), 1.5));
        painter.setPen(Qt::NoPen);
        painter.setBrush(i == 0 ? shipped : s.bytesPerToken <= from ? drop : rise);
        painter.drawRect(bar);
        // The level carried to the next step.
        if (i + 1 < n) {
            painter.setPen(QPen(ink.muted, 0.8, Qt::DashLine));
            painter.drawLine(QPointF(bar.right(), y1), QPointF(centre + slot - barWidth / 2, y1));
        }
        // The step's factor beside its bar, and the bytes on the first.
        painter.setPen(ink.ink);
        const QString tag = i == 0 ? QObject::tr("%1 B").arg(formatCount(int64_t(std::llround(s.bytesPerToken))))
                            : s.stepFactor >= 1 ? QObject::tr("÷%1").arg(factor(s.stepFactor))
                                                : QObject::tr("×%1").arg(factor(1 / s.stepFactor));
        painter.drawText(QRectF(centre - slot / 2, bar.top() - line - 2, slot, line), Qt::AlignCenter, tag);

        // Under the axis: what the step is, its bytes, streams, GPUs and money.
        // The step's name takes up to two lines; the figures one each.
        QFont bold = small;
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(ink.ink);
        painter.drawText(QRectF(centre - slot / 2 + 2, plot.bottom() + 6, slot - 4, 2 * line),
                         Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, w.labels[size_t(i)]);
        QStringList under = {QObject::tr("%1 B").arg(formatCount(int64_t(std::llround(s.bytesPerToken)))),
                             QObject::tr("%1 streams").arg(formatCount(s.streamsPerReplica))};
        if (s.replicas > 0)
            under << formatGpus(s.gpus);
        if (s.monthlyCost)
            under << QObject::tr("%1/mo").arg(money(*s.monthlyCost));
        painter.setFont(small);
        painter.setPen(ink.muted);
        for (int k = 0; k < under.size(); ++k)
            painter.drawText(QRectF(centre - slot / 2, plot.bottom() + 6 + (k + 2) * line, slot, line), Qt::AlignCenter,
                             metrics.elidedText(under[k], Qt::ElideRight, slot - 2));
        painter.setFont(small);
    }
    painter.restore();
}

} // namespace

KvLeverOutcome kvLeverOutcome(const store::Workspace &workspace, const engine::ServingAssumptions &serving,
                              const KvLeverFigureInputs &in)
{
    KvLeverOutcome outcome;
    try {
        QStringList parts;
        engine::KvLeverInputs inputs;
        inputs.replica = kvInputs(workspace, serving, KvFigureInputs{}, in.variant, &parts);
        outcome.variantLabel = parts.join(QStringLiteral(" · "));
        inputs.context = in.context;
        inputs.peakStreams = in.peakStreams;
        if (!in.price.trimmed().isEmpty())
            inputs.pricePerGpuHour = engine::Money::parse(in.price.trimmed().toStdString());
        const std::vector<engine::KvLever> levers =
            in.levers.trimmed().isEmpty() ? std::vector<engine::KvLever>{} : engine::parseKvLevers(in.levers.toStdString());
        outcome.steps = engine::kvLeverStack(inputs, levers);
    } catch (const engine::InputError &e) {
        const std::string field = e.field() == "what_if" ? "levers" : e.field() == "amount" ? "price" : e.field();
        outcome.error = QObject::tr("%1: %2").arg(QString::fromStdString(field), QString::fromUtf8(e.what()));
        outcome.steps.clear();
    }
    return outcome;
}

ChartFigure kvLeverFigure(const KvLeverOutcome &outcome, const KvLeverFigureInputs &in)
{
    Waterfall w;
    w.title = QObject::tr("KV cache per token, lever by lever");
    w.steps = outcome.steps;
    std::vector<engine::KvLever> levers;
    if (outcome.error.isEmpty() && !in.levers.trimmed().isEmpty())
        levers = engine::parseKvLevers(in.levers.toStdString());
    w.labels.push_back(QObject::tr("as shipped"));
    for (const engine::KvLever &lever : levers)
        w.labels.push_back(shortLabel(lever));

    QString caption;
    if (!outcome.error.isEmpty()) {
        caption = QObject::tr("%1: %2").arg(outcome.variantLabel.isEmpty() ? QObject::tr("No variant") : outcome.variantLabel, outcome.error);
    } else {
        const engine::KvLeverStep &first = outcome.steps.front(), &last = outcome.steps.back();
        caption = QObject::tr("%1, at %2 tokens a stream: %3 B of KV per token as shipped, %4 B after the levers "
                              "(%5× less); %6 → %7 streams per replica.")
                      .arg(outcome.variantLabel, formatCount(in.context), formatCount(int64_t(std::llround(first.bytesPerToken))),
                           formatCount(int64_t(std::llround(last.bytesPerToken))), formatNumber(last.totalFactor, 1),
                           formatCount(first.streamsPerReplica), formatCount(last.streamsPerReplica));
        if (in.peakStreams > 0 && first.replicas > 0 && last.replicas > 0) {
            caption += QObject::tr(" For %1 concurrent streams: %2 → %3").arg(formatCount(in.peakStreams), formatGpus(first.gpus), formatGpus(last.gpus));
            if (first.monthlyCost && last.monthlyCost)
                caption += QObject::tr(", %1 → %2 a 30-day month at %3 per GPU-hour")
                               .arg(money(*first.monthlyCost), money(*last.monthlyCost),
                                    QString::fromStdString(engine::Money::parse(in.price.trimmed().toStdString()).displayRate()));
            caption += QLatin1Char('.');
        }
        caption += QObject::tr(" Weights, GPU, TP and the KV pool stay as they are.");
    }
    ChartFigure f;
    f.title = w.title;
    f.caption = caption;
    f.paint = [w](QPainter &painter, const QRectF &rect, const FigureInk &ink) { paintWaterfall(painter, rect, w, ink); };
    f.source = leverSource(in);
    return f;
}

std::optional<QString> lowestOnDemandRate(const store::Workspace &workspace, const std::string &gpuId, QString *provider)
{
    const std::string today = QDate::currentDate().toString(Qt::ISODate).toStdString();
    for (const engine::GpuRate &rate : engine::onDemandRates(workspace.rateCards(), today)) {
        if (rate.gpuId == gpuId) {
            *provider = QString::fromStdString(rate.source);
            return QString::fromStdString(rate.perGpuHour.amount.toString());
        }
    }
    return std::nullopt;
}

std::optional<store::ReportItem> kvLeverReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                   QString *problem)
{
    problem->clear();
    if (source.value(QStringLiteral("kind")).toString() != QLatin1String(kLeverSource))
        return std::nullopt;
    const auto variant = kvVariantFromJson(source.value(QStringLiteral("variant")).toObject());
    if (!variant) {
        *problem = QObject::tr("its variant is not one Headroom reads");
        return std::nullopt;
    }
    KvLeverFigureInputs in;
    in.variant = *variant;
    in.levers = source.value(QStringLiteral("levers")).toString();
    in.context = int64_t(source.value(QStringLiteral("context")).toDouble());
    in.peakStreams = int64_t(source.value(QStringLiteral("streams")).toDouble());
    in.price = source.value(QStringLiteral("price")).toString();
    *problem = kvVariantMissing(workspace, in.variant);
    if (!problem->isEmpty())
        return std::nullopt;
    const KvLeverOutcome outcome = kvLeverOutcome(workspace, workspace.servingAssumptions(), in);
    if (!outcome.error.isEmpty()) {
        *problem = outcome.error;
        return std::nullopt;
    }
    return reportItemFromFigure(kvLeverFigure(outcome, in));
}

} // namespace headroom::ui
