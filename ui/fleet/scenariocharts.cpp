#include "scenariocharts.h"

#include "common/chartstyle.h"
#include "cost/costcharts.h"
#include "common/format.h"
#include "common/paintedlabel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QFontMetricsF>
#include <QJsonArray>
#include <QLegendMarker>
#include <QPainter>
#include <QPainterPath>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <optional>

namespace headroom::ui {

namespace {

using engine::PoolResult;
using engine::PoolRole;
using engine::PoolTier;
using engine::ScenarioResult;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString percent(double ratio)
{
    return QStringLiteral("%1 %").arg(ratio * 100.0, 0, 'f', 0);
}

QString currencyOf(const std::vector<ScenarioResult> &results)
{
    for (const auto &r : results)
        return qs(r.costPerMonth.currency);
    return QStringLiteral("USD");
}

QString namesList(const std::vector<ScenarioResult> &results)
{
    QStringList names;
    for (const auto &r : results)
        names << qs(r.name);
    return names.join(QStringLiteral(", "));
}

// The diagram's title: what the scenario has of a static base and an elastic top.
QString diagramTitle(const ScenarioResult &result)
{
    const bool base = std::any_of(result.pools.begin(), result.pools.end(),
                                  [](const PoolResult &p) { return p.role == PoolRole::StaticBase; });
    const bool top = std::any_of(result.pools.begin(), result.pools.end(),
                                 [](const PoolResult &p) { return p.role == PoolRole::ElasticTop; });
    if (base && !top)
        return QObject::tr("%1: static pools").arg(qs(result.name));
    if (top && !base)
        return QObject::tr("%1: elastic pools").arg(qs(result.name));
    return QObject::tr("%1: static base and elastic top").arg(qs(result.name));
}

// "240 static + up to 80 GPUs elastic", or only the part the scenario has.
QString fleetGpusText(const ScenarioResult &result)
{
    if (result.staticGpus > 0 && result.elasticPeakGpus > 0)
        return QObject::tr("%1 static + up to %2 elastic").arg(formatCount(result.staticGpus), formatGpus(result.elasticPeakGpus));
    if (result.elasticPeakGpus > 0)
        return QObject::tr("up to %1 elastic").arg(formatGpus(result.elasticPeakGpus));
    return QObject::tr("%1 static").arg(formatGpus(result.staticGpus));
}

QBarCategoryAxis *scenarioAxis(const std::vector<ScenarioResult> &results)
{
    auto *x = new QBarCategoryAxis;
    QStringList names;
    for (const auto &r : results)
        names << twoLines(qs(r.name)).toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>"));
    x->append(names);
    return x;
}

void attach(QChart *chart, QAbstractSeries *series, QAbstractAxis *x, QAbstractAxis *y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

// Used ÷ provisioned GPU-hours over the pools with `role`, or over all when no role is given.
double utilizationOf(const ScenarioResult &result, const std::optional<PoolRole> &role)
{
    engine::Decimal used, provisioned;
    for (const auto &p : result.pools) {
        if (role && p.role != *role)
            continue;
        used += p.gpuHoursUsed;
        provisioned += p.gpuHoursProvisioned;
    }
    return provisioned.isZero() ? 0.0 : used.toDouble() / provisioned.toDouble();
}

// A tick step of 1, 2 or 5 × 10^n giving about `ticks` intervals up to `top`.
double niceStep(double top, int ticks)
{
    const double raw = std::max(top, 1.0) / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * magnitude)
            return std::max(1.0, m * magnitude);
    return std::max(1.0, 10 * magnitude);
}

// Value labels above bars: dark on light charts, light on dark ones.
QColor valueLabelColor(QChart::ChartTheme theme)
{
    const bool dark = theme == QChart::ChartThemeDark || theme == QChart::ChartThemeBlueCerulean ||
                      theme == QChart::ChartThemeHighContrast;
    return dark ? QColor(0xec, 0xf0, 0xf1) : QColor(0x2c, 0x3e, 0x50);
}

} // namespace

QString tierName(PoolTier tier)
{
    switch (tier) {
    case PoolTier::Owned:
        return QObject::tr("Owned");
    case PoolTier::Reserved1y:
        return QObject::tr("Reserved 1 y");
    case PoolTier::Reserved3y:
        return QObject::tr("Reserved 3 y");
    case PoolTier::OnDemand:
        return QObject::tr("On-demand");
    case PoolTier::Spot:
        return QObject::tr("Spot");
    }
    return {};
}

QString partitioningName(engine::Partitioning partitioning)
{
    switch (partitioning) {
    case engine::Partitioning::Exclusive:
        return QObject::tr("Exclusive");
    case engine::Partitioning::Mig:
        return QObject::tr("MIG");
    case engine::Partitioning::TimeSlice:
        return QObject::tr("Time-slice");
    case engine::Partitioning::Mps:
        return QObject::tr("MPS");
    }
    return {};
}

QColor tierColor(PoolTier tier)
{
    switch (tier) {
    case PoolTier::Owned:
        return QColor(0x6c, 0x7a, 0x89);
    case PoolTier::Reserved1y:
        return QColor(0x2e, 0x86, 0xc1);
    case PoolTier::Reserved3y:
        return QColor(0x8e, 0x44, 0xad);
    case PoolTier::OnDemand:
        return QColor(0xe6, 0x7e, 0x22);
    case PoolTier::Spot:
        return QColor(0x27, 0xae, 0x60);
    }
    return Qt::gray;
}

namespace {

// The first of `texts` (longest first) that fits `width`, else the last shortened in the middle.
QString firstThatFits(const QFontMetricsF &fm, const QStringList &texts, qreal width)
{
    for (const QString &text : texts)
        if (fm.horizontalAdvance(text) <= width)
            return text;
    return fm.elidedText(texts.last(), Qt::ElideMiddle, width);
}

// Parts joined with " · " into as few lines as fit `width`; a part too wide even alone is its own line.
QStringList wrapParts(const QFontMetricsF &fm, const QStringList &parts, qreal width)
{
    QStringList lines;
    for (const QString &part : parts) {
        if (!lines.isEmpty() && fm.horizontalAdvance(lines.last() + QStringLiteral(" · ") + part) <= width)
            lines.last() += QStringLiteral(" · ") + part;
        else
            lines << part;
    }
    return lines;
}

} // namespace

void paintScenarioDiagram(QPainter &painter, const QRectF &rect, const ScenarioResult &result, const FigureInk &colours,
                          PaintedLabels *labels)
{
    // Every label placed so far (the caller's list when it wants them): later labels avoid them.
    PaintedLabels own;
    PaintedLabels *placed = labels ? labels : &own;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(rect, colours.paper);
    const QColor ink = colours.ink, muted = colours.muted, grid = colours.grid;

    QFont titleFont = painter.font();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    QFont font = painter.font();
    font.setPointSizeF(8.5);
    QFont bold = font;
    bold.setBold(true);
    QFont small = font;
    small.setPointSizeF(7.5);

    painter.setFont(titleFont);
    painter.setPen(ink);
    const QRectF titleRect(rect.left(), rect.top() + 4, rect.width(), kPaintedTitleHeight - 4);
    {
        const QString title = diagramTitle(result);
        drawLabel(painter, titleRect, Qt::AlignCenter,
                  QFontMetricsF(titleFont).elidedText(title, Qt::ElideMiddle, titleRect.width() - 8), placed, title);
    }

    // The peak hour over the evaluated hours and the day that holds it.
    size_t hours = 0;
    for (const auto &p : result.pools)
        hours = std::max(hours, p.hourlyUsed.size());
    auto usedAt = [](const PoolResult &p, size_t t) -> int64_t { return t < p.hourlyUsed.size() ? p.hourlyUsed[t] : 0; };
    size_t peakHour = 0;
    int64_t peakTotal = 0;
    for (size_t t = 0; t < hours; ++t) {
        int64_t total = 0;
        for (const auto &p : result.pools)
            total += usedAt(p, t);
        if (total > peakTotal) {
            peakTotal = total;
            peakHour = t;
        }
    }
    const size_t dayStart = peakHour / 24 * 24;

    int64_t staticTotal = 0, elasticTotal = 0;
    for (const auto &p : result.pools)
        (p.role == PoolRole::StaticBase ? staticTotal : elasticTotal) += p.gpus;
    const double top = std::max<double>({double(staticTotal + elasticTotal), double(peakTotal), 1.0}) * 1.1;
    const double step = niceStep(top, 6);
    const double yMax = std::ceil(top / step) * step;

    // Plot on the left, legend on the right.
    const qreal legendWidth = std::max<qreal>(250, rect.width() * 0.34);
    const QRectF plot(rect.left() + 56, titleRect.bottom() + 14, rect.width() - legendWidth - 56 - 18,
                      rect.bottom() - titleRect.bottom() - 14 - 46);
    auto yOf = [&](double gpus) { return plot.bottom() - gpus / yMax * plot.height(); };
    auto xOf = [&](double hour) { return plot.left() + hour / 24.0 * plot.width(); };

    // Grid and axes.
    painter.setFont(font);
    for (double v = 0; v <= yMax + 1e-9; v += step) {
        const qreal y = yOf(v);
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(muted);
        drawLabel(painter, QRectF(plot.left() - 52, y - 8, 46, 16), Qt::AlignRight | Qt::AlignVCenter,
                  formatCount(int64_t(v)), placed);
    }
    const int hourStep = plot.width() >= 380 ? 3 : 6;
    for (int h = 0; h <= 24; h += hourStep) {
        const qreal x = xOf(h);
        painter.setPen(QPen(grid, 1));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        painter.setPen(muted);
        // Low enough that 00:00 stays clear of the y axis's 0 at the same corner.
        drawLabel(painter, QRectF(x - 20, plot.bottom() + 7, 40, 16), Qt::AlignCenter,
                  QStringLiteral("%1:00").arg(h, 2, 10, QLatin1Char('0')), placed);
    }
    // The x-axis caption: centred under the plot, moved sideways to stay between the picture's
    // left edge and the legend, shortened in the middle only when even that is too narrow.
    {
        painter.setPen(ink);
        const QString caption = hours > 0 ? QObject::tr("Hour of the peak day, UTC (day %1 of %2)")
                                                .arg(dayStart / 24 + 1)
                                                .arg((hours + 23) / 24)
                                          : QObject::tr("Hour of the day, UTC");
        const QFontMetricsF fm(painter.font());
        const qreal spanLeft = rect.left() + 4, spanRight = plot.right() + 12;
        // Narrow: the same in fewer words, the day still named.
        const QString shorter = hours > 0 ? QObject::tr("Hour, UTC (day %1 of %2)")
                                                .arg(dayStart / 24 + 1)
                                                .arg((hours + 23) / 24)
                                          : QObject::tr("Hour, UTC");
        const QString shown = firstThatFits(fm, {caption, shorter}, spanRight - spanLeft);
        const qreal width = std::ceil(fm.horizontalAdvance(shown)) + 4;
        const qreal left = std::clamp(plot.center().x() - width / 2, spanLeft, spanRight - width);
        drawLabel(painter, QRectF(left, plot.bottom() + 24, width, 18), Qt::AlignCenter, shown, placed,
                  shown.contains(QChar(0x2026)) ? caption : shown);
    }
    painter.save();
    painter.translate(rect.left() + 12, plot.center().y());
    painter.rotate(-90);
    drawLabel(painter, QRectF(-plot.height() / 2, -8, plot.height(), 16), Qt::AlignCenter, QObject::tr("GPUs"), placed);
    painter.restore();

    // A stepped band from `base` up by the GPUs used each hour of the peak day.
    auto usedPath = [&](const PoolResult &p, const std::vector<double> &base) {
        QPainterPath path;
        path.moveTo(xOf(0), yOf(base[0]));
        for (int h = 0; h < 24; ++h) {
            const double v = base[size_t(h)] + double(usedAt(p, dayStart + size_t(h)));
            path.lineTo(xOf(h), yOf(v));
            path.lineTo(xOf(h + 1), yOf(v));
        }
        for (int h = 23; h >= 0; --h) {
            path.lineTo(xOf(h + 1), yOf(base[size_t(h)]));
            path.lineTo(xOf(h), yOf(base[size_t(h)]));
        }
        path.closeSubpath();
        return path;
    };

    // Static base: one band per pool, its provisioned GPUs tinted, the used part solid.
    double base = 0;
    for (const auto &p : result.pools) {
        if (p.role != PoolRole::StaticBase || p.gpus <= 0)
            continue;
        const QColor color = tierColor(p.tier);
        const QRectF band(QPointF(plot.left(), yOf(base + double(p.gpus))), QPointF(plot.right(), yOf(base)));
        // Provisioned but idle: a light tint, lighter and stronger on a dark page so it shows.
        const bool dark = colours.paper.lightnessF() < 0.5;
        QColor tint = dark ? color.lighter(140) : color;
        tint.setAlpha(dark ? 95 : 55);
        painter.fillRect(band, tint);
        painter.fillPath(usedPath(p, std::vector<double>(24, base)), color);
        painter.setPen(QPen(color.darker(130), 1.2));
        painter.drawLine(band.topLeft(), band.topRight());
        if (band.height() >= 16) {
            painter.setFont(bold);
            painter.setPen(Qt::white);
            const QRectF box = band.adjusted(8, 0, -8, 0);
            const QString text = QObject::tr("%1 · %2").arg(qs(p.name), formatGpus(p.gpus));
            const QString shownText = firstThatFits(QFontMetricsF(bold), {text, qs(p.name)}, box.width());
            drawLabel(painter, box, Qt::AlignLeft | Qt::AlignBottom,
                      shownText, placed, shownText.contains(QChar(0x2026)) ? text : shownText);
        }
        base += double(p.gpus);
    }

    // Elastic top: stacked above the base, GPUs used each hour inside a dashed outline of the cap.
    std::vector<double> elasticBase(24, base);
    double capBase = base;
    for (const auto &p : result.pools) {
        if (p.role != PoolRole::ElasticTop)
            continue;
        const QColor color = tierColor(p.tier);
        QColor fill = color;
        fill.setAlpha(200);
        painter.fillPath(usedPath(p, elasticBase), fill);
        for (int h = 0; h < 24; ++h)
            elasticBase[size_t(h)] += double(usedAt(p, dayStart + size_t(h)));
        if (p.gpus > 0) {
            const QRectF cap(QPointF(plot.left(), yOf(capBase + double(p.gpus))), QPointF(plot.right(), yOf(capBase)));
            QPen dashed(color.darker(120), 1.4, Qt::DashLine);
            painter.setPen(dashed);
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(cap);
            if (cap.height() >= 18) {
                painter.setFont(bold);
                const bool darkPaper = colours.paper.lightnessF() < 0.5;
                const QRectF box = cap.adjusted(8, 3, -8, -3);
                const QString text = QObject::tr("%1 · up to %2").arg(qs(p.name), formatGpus(p.gpus));
                // One line when it fits, else the cap under the name when the band holds two lines.
                const QFontMetricsF boldMetrics(bold);
                QString shown = text;
                if (boldMetrics.horizontalAdvance(text) > box.width()) {
                    const QString stacked = QObject::tr("%1\nup to %2").arg(qs(p.name), formatGpus(p.gpus));
                    const bool room = box.height() >= 2 * boldMetrics.height()
                        && boldMetrics.horizontalAdvance(qs(p.name)) <= box.width()
                        && boldMetrics.horizontalAdvance(QObject::tr("up to %1").arg(formatGpus(p.gpus))) <= box.width();
                    shown = room ? stacked
                                 : firstThatFits(boldMetrics, {QObject::tr("%1 ≤ %2").arg(qs(p.name)).arg(p.gpus), qs(p.name)},
                                                 box.width());
                }
                // On a halo of the page's colour, so that grid lines and the used area under it do
                // not cross the words.
                QColor halo = colours.paper;
                halo.setAlpha(215);
                painter.fillRect(painter.boundingRect(box, Qt::AlignLeft | Qt::AlignTop, shown).adjusted(-3, -1, 3, 1), halo);
                painter.setPen(darkPaper ? color.lighter(140) : color.darker(140));
                drawLabel(painter, box, Qt::AlignLeft | Qt::AlignTop, shown, placed,
                          shown.contains(QChar(0x2026)) ? text : shown);
            }
            capBase += double(p.gpus);
        }
    }

    // Peak demand.
    if (peakTotal > 0) {
        const QColor red = colours.paper.lightnessF() < 0.5 ? QColor(0xf1, 0x94, 0x8a) : QColor(0xc0, 0x39, 0x2b);
        const qreal y = yOf(double(peakTotal));
        painter.setPen(QPen(red, 1.6, Qt::DashLine));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setFont(bold);
        const QString label = QObject::tr("peak demand %1 at %2:00")
                                  .arg(formatGpus(peakTotal))
                                  .arg(int(peakHour % 24), 2, 10, QLatin1Char('0'));
        // Right above the line, else below it, else further off or at the left: the first place
        // inside the plot clear of the pool labels already drawn.
        const QFontMetricsF fm(bold);
        const QString shown = firstThatFits(fm,
                                            {label,
                                             QObject::tr("peak %1 at %2:00")
                                                 .arg(formatGpus(peakTotal))
                                                 .arg(int(peakHour % 24), 2, 10, QLatin1Char('0')),
                                             QObject::tr("peak %1").arg(formatGpus(peakTotal))},
                                            plot.width() - 20);
        const qreal width = std::ceil(fm.horizontalAdvance(shown)) + 12;
        const qreal h = std::ceil(fm.height()) + 2;
        const qreal right = plot.right() - width - 4, left = plot.left() + 4;
        const QRectF candidates[] = {{right, y - h - 2, width, h},     {right, y + 2, width, h},
                                     {left, y - h - 2, width, h},      {left, y + 2, width, h},
                                     {right, y - 2 * h - 4, width, h}, {right, y + h + 4, width, h}};
        QRectF labelRect = candidates[0];
        for (const QRectF &candidate : candidates) {
            const bool inPlot = plot.contains(candidate);
            const bool clear = std::none_of(placed->begin(), placed->end(), [&](const PaintedLabel &l) {
                return l.bounds.intersects(painter.transform().mapRect(candidate));
            });
            if (inPlot && clear) {
                labelRect = candidate;
                break;
            }
        }
        painter.fillRect(labelRect, colours.backdrop);
        painter.setPen(red);
        drawLabel(painter, labelRect, Qt::AlignCenter, shown, placed, shown.contains(QChar(0x2026)) ? label : shown);
    }
    painter.setPen(QPen(ink, 1));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    painter.drawLine(plot.bottomLeft(), plot.topLeft());

    // Legend: one entry per pool, then the totals. Each entry is its name in bold and its
    // details in smaller type, wrapped at the " · " between them; only when even that runs out of
    // height are the details kept to one line each, shortened with the whole text in a tooltip.
    const QRectF legend(plot.right() + 18, plot.top(), legendWidth - 8, rect.bottom() - plot.top() - 8);
    const QFontMetricsF fm(font), smallMetrics(small), boldMetrics(bold);
    const qreal line = fm.height() + 1, smallLine = smallMetrics.height() + 1;
    const qreal textWidth = legend.width() - 18;
    struct PoolEntry {
        QString heading;
        std::vector<QStringList> details; // groups of parts, each group on its own line(s)
    };
    std::vector<PoolEntry> entries;
    for (const auto &p : result.pools) {
        PoolEntry e;
        e.heading = QObject::tr("%1 (%2)").arg(qs(p.name), p.role == PoolRole::StaticBase ? QObject::tr("static base")
                                                                                         : QObject::tr("elastic top"));
        const QString gpus = p.role == PoolRole::StaticBase
                                 ? QObject::tr("%1 × %2").arg(formatCount(p.gpus), qs(p.gpuId))
                                 : QObject::tr("0–%1 × %2").arg(formatCount(p.gpus), qs(p.gpuId));
        QStringList kind{gpus, tierName(p.tier)};
        if (p.partitioning != engine::Partitioning::Exclusive) // whole GPUs go without saying
            kind << partitioningName(p.partitioning);
        const QString money = p.priced ? QObject::tr("%1 per 30-day month").arg(qs(p.costPerMonth.display()))
                                       : QObject::tr("not priced by the rate card");
        e.details = {kind, {QObject::tr("%1 utilized").arg(percent(p.utilization)), money}};
        entries.push_back(std::move(e));
    }
    // The fleet's totals as the pools table prints them: the sums of the pools' cents.
    const engine::ScenarioMoneyTable shown = engine::scenarioMoneyTable(result);
    const QString fleetLine = QObject::tr("Fleet: %1 per 30-day month").arg(qs(shown.perMonth.total.display()));
    const QStringList fleetDetails{QObject::tr("%1 per day").arg(qs(shown.perDay.total.display())),
                                   QObject::tr("%1 utilized").arg(percent(result.utilization)),
                                   fleetGpusText(result)};
    auto detailLines = [&](const std::vector<QStringList> &groups, bool wrap) {
        QStringList lines;
        for (const QStringList &group : groups)
            lines << (wrap ? wrapParts(smallMetrics, group, textWidth) : QStringList{group.join(QStringLiteral(" · "))});
        return lines;
    };
    auto legendHeight = [&](bool wrap) {
        qreal height = 0;
        for (const PoolEntry &e : entries)
            height += line + detailLines(e.details, wrap).size() * smallLine + 6;
        height += 6 + line + detailLines({fleetDetails}, wrap).size() * smallLine;
        return height + (result.warnings.empty() ? 0 : smallLine);
    };
    const bool wrap = legendHeight(true) <= legend.height();
    qreal y = legend.top();
    for (size_t i = 0; i < entries.size(); ++i) {
        const PoolEntry &e = entries[i];
        const auto &p = result.pools[i];
        const QStringList details = detailLines(e.details, wrap);
        if (y + line + details.size() * smallLine > legend.bottom() - line - 2 * smallLine)
            break;
        const QColor color = tierColor(p.tier);
        const QRectF swatch(legend.left(), y + 2, 12, 12);
        if (p.role == PoolRole::StaticBase) {
            painter.fillRect(swatch, color);
        } else {
            QColor fill = color;
            fill.setAlpha(200);
            painter.fillRect(swatch, fill);
            painter.setPen(QPen(color.darker(120), 1, Qt::DashLine));
            painter.drawRect(swatch);
        }
        const QRectF text(legend.left() + 18, y, textWidth, line);
        painter.setFont(bold);
        painter.setPen(ink);
        drawLabel(painter, text, Qt::AlignLeft | Qt::AlignVCenter,
                  boldMetrics.elidedText(e.heading, Qt::ElideMiddle, text.width()), placed, e.heading);
        y += line;
        painter.setFont(small);
        painter.setPen(muted);
        for (const QString &detail : details) {
            drawLabel(painter, QRectF(text.left(), y, textWidth, smallLine), Qt::AlignLeft | Qt::AlignVCenter,
                      smallMetrics.elidedText(detail, Qt::ElideMiddle, textWidth), placed, detail);
            y += smallLine;
        }
        y += 6;
    }
    painter.setPen(QPen(grid, 1));
    painter.drawLine(QPointF(legend.left(), y), QPointF(legend.right(), y));
    y += 6;
    painter.setFont(bold);
    painter.setPen(ink);
    drawLabel(painter, QRectF(legend.left(), y, legend.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
              boldMetrics.elidedText(fleetLine, Qt::ElideMiddle, legend.width()), placed, fleetLine);
    y += line;
    painter.setFont(small);
    painter.setPen(muted);
    const QStringList fleetLines = wrap ? wrapParts(smallMetrics, fleetDetails, legend.width())
                                        : QStringList{fleetDetails.join(QStringLiteral(" · "))};
    for (const QString &detail : fleetLines) {
        drawLabel(painter, QRectF(legend.left(), y, legend.width(), smallLine), Qt::AlignLeft | Qt::AlignVCenter,
                  smallMetrics.elidedText(detail, Qt::ElideMiddle, legend.width()), placed, detail);
        y += smallLine;
    }
    if (!result.warnings.empty()) {
        painter.setPen(QColor(0xb0, 0x60, 0x00));
        painter.setFont(small);
        drawLabel(painter, QRectF(legend.left(), y, legend.width(), smallLine),
                  Qt::AlignLeft | Qt::AlignVCenter,
                  QObject::tr("%n warning(s) with the evaluation", nullptr, int(result.warnings.size())), placed);
    }
    painter.restore();
}

ChartFigure scenarioDiagramFigure(const ScenarioResult &result)
{
    ChartFigure figure;
    figure.source = scenarioReportSource(kScenarioDiagramSource, {result.name});
    figure.title = diagramTitle(result);
    QStringList caption{QObject::tr("GPUs per hour on the day of the peak.")};
    for (const auto &p : result.pools) {
        if (p.role == PoolRole::StaticBase) {
            caption << QObject::tr("Static pools (owned or reserved) are paid every hour: tint = provisioned, solid "
                                   "= in use.");
            break;
        }
    }
    for (const auto &p : result.pools) {
        if (p.role == PoolRole::ElasticTop) {
            caption << QObject::tr("Elastic pools run only the GPUs the demand above the base needs, inside the "
                                   "dashed outline of their cap.");
            break;
        }
    }
    figure.caption = caption.join(QLatin1Char(' '));
    figure.paint = [result](QPainter &painter, const QRectF &rect, const FigureInk &ink) {
        paintScenarioDiagram(painter, rect, result, ink);
    };
    return figure;
}

QChart *buildCostByTierChart(const std::vector<ScenarioResult> &results, const QString &title,
                             QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    double maxValue = 0;
    for (const auto &r : results)
        for (const auto &t : r.costByTier)
            maxValue = std::max(maxValue, t.perMonth.amount.toDouble());
    QString unit;
    const double scale = moneyAxisScale(maxValue, currencyOf(results), &unit);
    auto *series = new QBarSeries;
    int bars = 0;
    for (PoolTier tier : engine::allPoolTiers()) {
        bool present = false;
        for (const auto &r : results)
            for (const auto &t : r.costByTier)
                present = present || t.tier == tier;
        if (!present)
            continue;
        auto *set = new QBarSet(tierName(tier));
        set->setLabelColor(valueLabelColor(theme));
        set->setColor(tierColor(tier));
        set->setBorderColor(tierColor(tier).darker(115));
        for (const auto &r : results) {
            double v = 0;
            for (const auto &t : r.costByTier)
                if (t.tier == tier)
                    v = t.perMonth.amount.toDouble() / scale;
            *set << v;
            ++bars;
        }
        series->append(set);
    }
    auto *x = scenarioAxis(results);
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("Per 30-day month (%1)").arg(unit));
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setRange(0, std::max(1.0, maxValue / scale * 1.15));
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, series, x, y);
    if (bars <= 16)
        addBarValueLabels(chart, series);
    return chart;
}

QChart *buildGpusByPoolChart(const std::vector<ScenarioResult> &results, const QString &title,
                             QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    // Pool names in first-seen order; a pool absent from a scenario has no GPUs there.
    std::vector<std::string> names;
    for (const auto &r : results)
        for (const auto &p : r.pools)
            if (std::find(names.begin(), names.end(), p.name) == names.end())
                names.push_back(p.name);
    auto *series = new QStackedBarSeries;
    double maxTotal = 0;
    std::vector<double> totals(results.size(), 0.0);
    for (size_t n = 0; n < names.size(); ++n) {
        QString label = qs(names[n]);
        std::optional<PoolRole> role;
        bool mixed = false;
        for (const auto &r : results)
            for (const auto &p : r.pools)
                if (p.name == names[n]) {
                    mixed = mixed || (role && *role != p.role);
                    role = p.role;
                }
        if (role && !mixed)
            label += *role == PoolRole::StaticBase ? QObject::tr(" (static)") : QObject::tr(" (elastic peak)");
        auto *set = new QBarSet(label);
        // Static pools in blues and purples, elastic in oranges and greens, distinct per pool.
        const QColor staticColors[] = {QColor(0x2e, 0x86, 0xc1), QColor(0x1b, 0x4f, 0x72), QColor(0x8e, 0x44, 0xad),
                                       QColor(0x5d, 0xad, 0xe2)};
        const QColor elasticColors[] = {QColor(0xe6, 0x7e, 0x22), QColor(0x27, 0xae, 0x60), QColor(0xf1, 0xc4, 0x0f),
                                        QColor(0xd3, 0x54, 0x00)};
        const bool elastic = role && *role == PoolRole::ElasticTop;
        set->setColor(elastic ? elasticColors[n % 4] : staticColors[n % 4]);
        for (size_t i = 0; i < results.size(); ++i) {
            double v = 0;
            for (const auto &p : results[i].pools)
                if (p.name == names[n])
                    v += double(p.gpus);
            *set << v;
            totals[i] += v;
        }
        series->append(set);
    }
    for (double t : totals)
        maxTotal = std::max(maxTotal, t);
    auto *x = scenarioAxis(results);
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("GPUs (static: provisioned, elastic: peak in use)"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setRange(0, std::max(1.0, maxTotal * 1.08));
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, series, x, y);
    addBarValueLabels(chart, series);
    return chart;
}

QChart *buildUtilizationChart(const std::vector<ScenarioResult> &results, const QString &title,
                              QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    auto *staticSet = new QBarSet(QObject::tr("Static base"));
    staticSet->setColor(tierColor(PoolTier::Reserved1y));
    auto *fleetSet = new QBarSet(QObject::tr("Whole fleet"));
    fleetSet->setColor(QColor(0x16, 0xa0, 0x85));
    for (QBarSet *set : {staticSet, fleetSet})
        set->setLabelColor(valueLabelColor(theme));
    for (const auto &r : results) {
        *staticSet << utilizationOf(r, PoolRole::StaticBase) * 100.0;
        *fleetSet << r.utilization * 100.0;
    }
    auto *series = new QBarSeries;
    series->append(staticSet);
    series->append(fleetSet);
    auto *x = scenarioAxis(results);
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("Utilization: used ÷ paid GPU-hours (%)"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setRange(0, 110);
    y->setTickCount(12);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    attach(chart, series, x, y);
    addBarValueLabels(chart, series, QStringLiteral(" %"));
    return chart;
}

QJsonObject scenarioReportSource(const char *kind, const std::vector<std::string> &scenarios)
{
    QJsonArray names;
    for (const std::string &name : scenarios)
        names.append(QString::fromStdString(name));
    return {{QStringLiteral("kind"), QLatin1String(kind)}, {QStringLiteral("scenarios"), names}};
}

namespace {
std::vector<std::string> namesOf(const std::vector<ScenarioResult> &results)
{
    std::vector<std::string> names;
    for (const ScenarioResult &result : results)
        names.push_back(result.name);
    return names;
}
} // namespace

ChartFigure costByTierFigure(const std::vector<ScenarioResult> &results)
{
    ChartFigure figure;
    figure.source = scenarioReportSource(kCostByTierSource, namesOf(results));
    figure.title = QObject::tr("Monthly cost by tier");
    figure.caption = QObject::tr("Cost per 30-day month of %1, split by how the GPUs are paid for: owned and "
                                 "reserved every hour, on-demand and spot per GPU-hour used.")
                         .arg(namesList(results));
    figure.build = [results, title = figure.title](QChart::ChartTheme theme) {
        return buildCostByTierChart(results, title, theme);
    };
    return figure;
}

ChartFigure gpusByPoolFigure(const std::vector<ScenarioResult> &results)
{
    ChartFigure figure;
    figure.source = scenarioReportSource(kGpusByPoolSource, namesOf(results));
    figure.title = QObject::tr("GPUs by pool");
    figure.caption = QObject::tr("GPUs of %1 by pool: static pools as provisioned, elastic pools at their peak "
                                 "hour (they drain off-peak).")
                         .arg(namesList(results));
    figure.build = [results, title = figure.title](QChart::ChartTheme theme) {
        return buildGpusByPoolChart(results, title, theme);
    };
    return figure;
}

ChartFigure utilizationFigure(const std::vector<ScenarioResult> &results)
{
    ChartFigure figure;
    figure.source = scenarioReportSource(kUtilizationSource, namesOf(results));
    figure.title = QObject::tr("Utilization");
    figure.caption = QObject::tr("GPU-hours used ÷ GPU-hours paid for, of %1. Elastic pools are billed for what "
                                 "they use, so idle capacity sits in the static base.")
                         .arg(namesList(results));
    figure.build = [results, title = figure.title](QChart::ChartTheme theme) {
        return buildUtilizationChart(results, title, theme);
    };
    return figure;
}

} // namespace headroom::ui
