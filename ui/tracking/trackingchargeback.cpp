#include "trackingchargeback.h"

#include "common/chartstyle.h"
#include "report/reportsnapshot.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QDateTimeAxis>
#include <QDateTime>
#include <QLineSeries>
#include <QObject>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <set>

namespace headroom::ui {

namespace {

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString perMillion(const engine::Decimal &cost, double tokens)
{
    const auto value = engine::costPerMillion(cost, tokens);
    return value ? qs(value->toString(4)) : QStringLiteral("–");
}

// "19822.32" → "19,822.32", "-2517.12" → "−2,517.12": exact text, digits grouped.
QString grouped(const std::string &text)
{
    QString t = QString::fromStdString(text);
    const bool negative = t.startsWith(QLatin1Char('-'));
    if (negative)
        t.remove(0, 1);
    const qsizetype point = t.indexOf(QLatin1Char('.'));
    for (qsizetype i = (point < 0 ? t.size() : point) - 3; i > 0; i -= 3)
        t.insert(i, QLatin1Char(','));
    return negative ? QChar(0x2212) + t : t;
}

QString hours(double value)
{
    return grouped(QString::number(value, 'f', 2).toStdString());
}

QString keyTitle(engine::ChargebackBy by)
{
    switch (by) {
    case engine::ChargebackBy::Tenant: return QObject::tr("Tenant");
    case engine::ChargebackBy::Model: return QObject::tr("Model");
    case engine::ChargebackBy::Namespace: return QObject::tr("Namespace");
    }
    return QObject::tr("Tenant");
}

QString period(const ChargebackRun &run)
{
    const auto iso = [](int64_t s) { return QDateTime::fromSecsSinceEpoch(s, Qt::UTC).toString(Qt::ISODate); };
    return QObject::tr("%1 to %2").arg(iso(run.options.from), iso(run.options.to));
}

QString basisText(const ChargebackRun &run)
{
    return QObject::tr("MIG by %1 slices, idle capacity %2")
        .arg(qs(engine::toString(run.options.basis)),
             run.options.idle == engine::IdleShare::Apart ? QObject::tr("apart") : QObject::tr("spread pro rata"));
}

} // namespace

QString chargebackMoney(const engine::Decimal &amount)
{
    return grouped(amount.toString(2));
}

DeckTable chargebackTable(const ChargebackRun &run)
{
    DeckTable table{{keyTitle(run.by), QObject::tr("Slice-hours"), QObject::tr("Claim-hours"),
                     QObject::tr("Cost (%1)").arg(qs(run.result.currency)), QObject::tr("Quota split"),
                     QObject::tr("Quota − cost"), QObject::tr("Per 1M in"), QObject::tr("Per 1M out"),
                     QObject::tr("Per 1M all")},
                    {}};
    engine::Decimal total, quota;
    double slices = 0, claims = 0;
    for (const engine::ChargebackLine &line : run.result.table(run.by).lines) {
        total += line.cost;
        quota += line.quotaCost;
        slices += line.sliceHours;
        claims += line.claimHours;
        table.rows << QStringList{qs(line.key),
                                  line.idle ? QString() : hours(line.sliceHours),
                                  line.idle ? QString() : hours(line.claimHours),
                                  chargebackMoney(line.cost),
                                  chargebackMoney(line.quotaCost),
                                  chargebackMoney(line.quotaDifference),
                                  perMillion(line.cost, line.inputTokens),
                                  perMillion(line.cost, line.outputTokens),
                                  perMillion(line.cost, line.inputTokens + line.outputTokens)};
    }
    table.rows << QStringList{QObject::tr("Total"), hours(slices), hours(claims), chargebackMoney(total), chargebackMoney(quota),
                              chargebackMoney(engine::Decimal()), {}, {}, {}};
    return table;
}

ChartFigure chargebackFigure(const ChargebackRun &run)
{
    const QString title = QObject::tr("Chargeback by %1: slice-hours against the quota's claim count (%2)")
                              .arg(keyTitle(run.by).toLower(), qs(run.result.currency));
    const QString caption =
        QObject::tr("%1, %2. Slice-hours: each charge split by the share of the GPU each claim held and for how long; "
                    "quota split: the same charged amounts divided by claim-hours, as a Kueue quota counts claims. "
                    "Invoice %3 %4; both bars of every %5 re-add to it.")
            .arg(period(run), basisText(run), qs(run.result.invoice.toString(2)), qs(run.result.currency),
                 keyTitle(run.by).toLower());
    const engine::ChargebackTable table = run.result.table(run.by);
    return {title, caption, [table, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                auto *slices = new QBarSet(QObject::tr("By slice-hours"));
                auto *quota = new QBarSet(QObject::tr("As a quota counts claims"));
                QStringList names;
                double top = 0;
                for (const engine::ChargebackLine &line : table.lines) {
                    QString label = line.idle ? QObject::tr("idle") : qs(line.key);
                    if (label.size() > 24)
                        label = label.left(23) + QChar(0x2026);
                    while (names.contains(label))
                        label += QLatin1Char(' ');
                    names << label;
                    *slices << line.cost.toDouble();
                    *quota << line.quotaCost.toDouble();
                    top = std::max({top, line.cost.toDouble(), line.quotaCost.toDouble()});
                }
                slices->setColor(QColor(0x2e, 0x86, 0xc1));
                quota->setColor(QColor(0xe6, 0x7e, 0x22));
                auto *bars = new QBarSeries;
                bars->append(slices);
                bars->append(quota);
                auto *x = new QBarCategoryAxis;
                x->append(names);
                auto *y = new QValueAxis;
                y->setRange(0, top > 0 ? top * 1.15 : 1.0);
                y->applyNiceNumbers();
                y->setLabelFormat(QStringLiteral("%.0f"));
                y->setTitleText(QObject::tr("Cost"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                chart->addSeries(bars);
                bars->attachAxis(x);
                bars->attachAxis(y);
                addBarValueLabels(chart, bars);
                return chart;
            }};
}

ChartFigure chargebackTrendFigure(const ChargebackRun &run)
{
    const engine::ChargebackTable table = run.result.table(run.by);
    const bool tokens = std::any_of(table.lines.begin(), table.lines.end(),
                                    [](const engine::ChargebackLine &l) { return l.hasTokens; });
    const QString title = tokens ? QObject::tr("Cost per million tokens by day (%1)").arg(qs(run.result.currency))
                                 : QObject::tr("Allocated cost by day (%1)").arg(qs(run.result.currency));
    std::set<int64_t> daySet;
    for (const engine::ChargebackLine &line : table.lines)
        for (const engine::ChargebackDay &d : line.days)
            daySet.insert(d.day);
    if (daySet.empty())
        return emptyFigure(title, QObject::tr("No charge in the period."));
    const std::vector<int64_t> days(daySet.begin(), daySet.end());
    const QString caption =
        tokens ? QObject::tr("Each day's allocated cost ÷ the tokens (input and output) the key's deployments served that "
                             "day × 10^6; days without tokens are left out. %1.")
                     .arg(period(run))
               : QObject::tr("Each day's allocated cost (the charges starting that day, UTC); the days of a key re-add "
                             "to its cost. No serving metrics name the claims' deployments. %1.")
                     .arg(period(run));
    return {title, caption, [table, tokens, days, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                // Each day's point at its noon, on a date axis over the whole days.
                QDateTimeAxis *x = utcDateAxis(days.front() * 86400, (days.back() + 1) * 86400);
                auto *y = new QValueAxis;
                y->setLabelFormat(QStringLiteral("%.2f"));
                y->setTitleText(tokens ? QObject::tr("Cost per 1M tokens") : QObject::tr("Cost per day"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                double top = 0;
                for (const engine::ChargebackLine &line : table.lines) {
                    if (tokens && !line.hasTokens)
                        continue;
                    auto *series = new QLineSeries;
                    series->setName(qs(line.key));
                    series->setPointsVisible(true);
                    for (const engine::ChargebackDay &d : line.days) {
                        const double at = utcAxisX(d.day * 86400 + 43200);
                        double value = d.cost.toDouble();
                        if (tokens) {
                            const auto perM = engine::costPerMillion(d.cost, d.inputTokens + d.outputTokens);
                            if (!perM)
                                continue;
                            value = perM->toDouble();
                        }
                        series->append(at, value);
                        top = std::max(top, value);
                    }
                    chart->addSeries(series);
                    series->attachAxis(x);
                    series->attachAxis(y);
                }
                y->setRange(0, top > 0 ? top * 1.15 : 1.0);
                y->applyNiceNumbers();
                shareSeriesColours(chart, theme);
                return chart;
            }};
}

void appendChargebackPages(Deck &deck, const ChargebackRun &run)
{
    const QString heading = QObject::tr("Chargeback by %1").arg(keyTitle(run.by).toLower());
    deck.items.push_back(deckTableItem(
        heading,
        QObject::tr("%1 of %2 (%3 charges of the pool, %4 GPU-hours), claims from %5; %6. Rounded down to the cent, "
                    "the cents left over to the largest remainders: each column re-adds to the invoice, %7 %8.")
            .arg(period(run), run.focusFile)
            .arg(run.result.charges)
            .arg(QString::number(run.result.poolGpuHours, 'f', 1), run.claimsFile, basisText(run),
                 qs(run.result.invoice.toString(2)), qs(run.result.currency)),
        chargebackTable(run)));
    deck.items.push_back(deckFigureItem(chargebackFigure(run)));
    deck.items.push_back(deckFigureItem(chargebackTrendFigure(run)));
    DeckItem config;
    config.kind = DeckItem::Kind::Text;
    config.title = QObject::tr("Kueue configuration that counts slices");
    config.text = run.kueueConfig;
    deck.items.push_back(config);
    for (const std::string &warning : run.result.warnings)
        deck.warnings << qs(warning);
}

} // namespace headroom::ui
