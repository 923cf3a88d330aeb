#include "scenariodeck.h"

#include "common/format.h"
#include "report/reportsnapshot.h"
#include "scenariocharts.h"

#include "engine/scenario.h"
#include "store/scenarioinputs.h"
#include "store/storeerror.h"
#include "store/workspace.h"

#include <QDate>
#include <QFileInfo>
#include <QLocale>
#include <QObject>
#include <algorithm>
#include <set>

namespace headroom::ui {

namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString percent(double ratio)
{
    return QStringLiteral("%1 %").arg(QLocale(QLocale::English).toString(ratio * 100.0, 'f', 0));
}

QString count(int64_t value)
{
    return QLocale(QLocale::English).toString(qlonglong(value));
}

QString money(const engine::Money &amount)
{
    return qs(amount.display());
}

// A compared value as the table shows it.
QString metricValue(const engine::ComparisonMetric &metric, engine::Decimal value, bool signedDelta)
{
    QString text;
    const bool negative = value.isNegative();
    const engine::Decimal magnitude = negative ? -value : value;
    if (metric.unit == "money")
        text = money(engine::Money{magnitude, metric.currency.empty() ? std::string("USD") : metric.currency});
    else if (metric.unit == "ratio" && signedDelta)
        text = QStringLiteral("%1 pp").arg(QLocale(QLocale::English).toString(magnitude.toDouble() * 100.0, 'f', 0));
    else if (metric.unit == "ratio")
        text = percent(magnitude.toDouble());
    else
        text = count(magnitude.rounded(0).toIntegerTruncated());
    if (!signedDelta)
        return negative ? QStringLiteral("−") + text : text;
    if (value.isZero())
        return QStringLiteral("±0");
    return (negative ? QStringLiteral("−") : QStringLiteral("+")) + text;
}

DeckTable poolsTable(const engine::ScenarioResult &result)
{
    // Money as printed: figures in cents, totals the sums of the figures shown.
    const engine::ScenarioMoneyTable money = engine::scenarioMoneyTable(result);
    DeckTable table;
    table.columns = {QObject::tr("Pool"),         QObject::tr("GPU"),        QObject::tr("Tier"),
                     QObject::tr("Sharing"),      QObject::tr("GPUs"),       QObject::tr("Utilization"),
                     QObject::tr("Peak headroom: planned + spare"), QObject::tr("Rate / GPU-h"), QObject::tr("Cost / day"),
                     QObject::tr("Cost / 30-day month"), QObject::tr("Over the term")};
    for (const engine::PoolResult &pool : result.pools) {
        const auto at = std::find(money.pools.begin(), money.pools.end(), pool.name);
        const size_t shown = size_t(at - money.pools.begin());
        const bool priced = pool.priced && at != money.pools.end();
        table.rows << QStringList{qs(pool.name),
                                  qs(pool.gpuId),
                                  tierName(pool.tier),
                                  partitioningName(pool.partitioning),
                                  count(pool.gpus) + (pool.role == engine::PoolRole::ElasticTop ? QObject::tr(" peak") : QString()),
                                  percent(pool.utilization),
                                  QObject::tr("%1 + %2").arg(count(pool.plannedHeadroomGpus), count(pool.spareAtPeak)),
                                  priced ? qs(pool.ratePerGpuHour.displayRate()) : QObject::tr("unpriced"),
                                  priced ? qs(money.perDay.parts[shown].display()) : QObject::tr("unpriced"),
                                  priced ? qs(money.perMonth.parts[shown].display()) : QObject::tr("unpriced"),
                                  priced ? qs(money.overTerm.parts[shown].display()) : QObject::tr("unpriced")};
    }
    table.rows << QStringList{QObject::tr("Fleet"),
                              QString(),
                              QString(),
                              QString(),
                              count(result.staticGpus + result.elasticPeakGpus),
                              percent(result.utilization),
                              QString(),
                              QString(),
                              qs(money.perDay.total.display()),
                              qs(money.perMonth.total.display()),
                              qs(money.overTerm.total.display())};
    return table;
}

DeckTable comparisonTable(const engine::ScenarioComparison &comparison)
{
    DeckTable table;
    table.columns << QObject::tr("Metric");
    for (size_t i = 0; i < comparison.scenarios.size(); ++i) {
        table.columns << qs(comparison.scenarios[i]);
        if (i > 0)
            table.columns << QObject::tr("Δ");
    }
    for (const engine::ComparisonMetric &metric : comparison.metrics) {
        QStringList row{qs(metric.label)};
        for (size_t i = 0; i < metric.values.size(); ++i) {
            row << metricValue(metric, metric.values[i], false);
            if (i > 0)
                row << metricValue(metric, metric.deltas[i], true);
        }
        table.rows << row;
    }
    return table;
}

QString reservePolicyName(engine::ReservePolicy policy)
{
    switch (policy) {
    case engine::ReservePolicy::CriticalFractile:
        return QObject::tr("critical fractile");
    case engine::ReservePolicy::P50:
        return QObject::tr("P50 of demand");
    case engine::ReservePolicy::P75:
        return QObject::tr("P75 of demand");
    case engine::ReservePolicy::Fixed:
        return QObject::tr("fixed counts");
    }
    return {};
}

} // namespace

Deck scenarioDeck(const store::Workspace &workspace, const QStringList &scenarioNames)
{
    std::vector<engine::Scenario> scenarios;
    for (const QString &name : scenarioNames) {
        auto scenario = workspace.scenario(name);
        if (!scenario) {
            const QStringList known = workspace.scenarioNames();
            throw store::StoreError(QObject::tr("Workspace %1 has no scenario named \"%2\"; it has: %3")
                                        .arg(workspace.path(), name,
                                             known.isEmpty() ? QObject::tr("none") : known.join(QStringLiteral(", "))));
        }
        scenarios.push_back(std::move(*scenario));
    }
    const engine::ScenarioInputs inputs = store::scenarioInputs(workspace);
    std::vector<engine::ScenarioResult> results;
    for (const engine::Scenario &scenario : scenarios)
        results.push_back(engine::evaluateScenario(scenario, inputs));

    const store::ReportSettings settings = workspace.reportSettings();
    Deck deck;
    deck.title = settings.title.isEmpty()
        ? (scenarios.size() == 1 ? QObject::tr("Fleet scenario: %1").arg(scenarioNames.front())
                                 : QObject::tr("Fleet scenarios compared"))
        : settings.title;
    deck.subtitle = scenarioNames.join(QStringLiteral("  ·  "));
    deck.author = settings.author.isEmpty() ? qs(scenarios.front().author) : settings.author;
    deck.date = settings.date.isEmpty() ? QLocale(QLocale::English).toString(QDate::currentDate(), QStringLiteral("d MMMM yyyy"))
                                        : settings.date;
    deck.workspaceName = QFileInfo(workspace.path()).completeBaseName();

    // Assumptions: the scenarios' terms, the cards they are priced from, the workloads served.
    DeckSection terms{QObject::tr("Scenarios"), {}};
    terms.table.columns = {QObject::tr("Scenario"), QObject::tr("Description"), QObject::tr("Prices"),
                           QObject::tr("Term"), QObject::tr("Static pools sized at")};
    std::set<std::string> cardKeys;
    std::set<std::string> workloadNames;
    for (size_t i = 0; i < scenarios.size(); ++i) {
        const engine::Scenario &s = scenarios[i];
        terms.table.rows << QStringList{qs(s.name), qs(s.description),
                                        QStringLiteral("%1 %2%3").arg(qs(s.provider), qs(s.region),
                                                                      s.asOfDate.empty() ? QString()
                                                                                         : QObject::tr(" as of %1").arg(qs(s.asOfDate))),
                                        QObject::tr("%1 from %2 to %3 (%4 h)")
                                            .arg(formatCountOf(s.horizonMonths, QT_TRANSLATE_NOOP("headroom::ui", "%n month(s)")))
                                            .arg(qs(results[i].startDate), qs(results[i].endDate),
                                                 count(results[i].termHours)),
                                        reservePolicyName(s.policy.reserveAt)};
        for (const engine::PoolResult &pool : results[i].pools) {
            if (!pool.rateCardKey.empty())
                cardKeys.insert(pool.rateCardKey);
        }
        for (const engine::Pool &pool : s.pools)
            workloadNames.insert(pool.workloads.begin(), pool.workloads.end());
    }
    std::vector<DeckSection> workspaceSections = workspaceAssumptions(workspace);
    DeckSection cards{QObject::tr("Rate cards used (per GPU-hour)"), {workspaceSections[0].table.columns, {}}};
    for (const std::string &key : cardKeys) {
        if (const auto card = workspace.rateCard(qs(key))) {
            const auto rate = [&](const engine::Decimal &amount) {
                return amount.isZero() ? QStringLiteral("—") : qs(engine::Money{amount, card->currency}.displayRate());
            };
            cards.table.rows << QStringList{qs(card->provider),      qs(card->region),        qs(card->gpuId),
                                            qs(card->effectiveDate), rate(card->onDemand),    rate(card->reserved1y),
                                            rate(card->reserved3y),  rate(card->spot),
                                            formatCountOf(card->reservationLeadWeeks, QT_TRANSLATE_NOOP("headroom::ui", "%n week(s)"))};
            // A caveat for every scenario priced from the card.
            if (card->committedAreExamples && (!card->reserved1y.isZero() || !card->reserved3y.isZero()))
                deck.warnings << QObject::tr("The committed rates of %1 / %2 / %3 are examples, not negotiated "
                                             "prices: replace them with your quote before deciding on a reservation.")
                                     .arg(qs(card->provider), qs(card->region), qs(card->gpuId));
        }
    }
    DeckSection workloads{QObject::tr("Workloads served"), {workspaceSections[1].table.columns, {}}};
    for (const QStringList &row : workspaceSections[1].table.rows) {
        if (workloadNames.count(row.front().toStdString()))
            workloads.table.rows << row;
    }
    deck.assumptions = {terms, cards, workloads};

    for (size_t i = 0; i < scenarios.size(); ++i) {
        const engine::Scenario &s = scenarios[i];
        const engine::ScenarioResult &r = results[i];
        const QString name = qs(s.name);
        QString caption = qs(s.description);
        if (!caption.isEmpty() && !caption.endsWith(QLatin1Char('.')))
            caption += QLatin1Char('.');
        caption += QObject::tr(" GPUs: static pools as provisioned, elastic pools at their peak hour. Per month is a "
                               "30-day month; the term is its real hours, %1 h from %2; utilization is GPU-hours used "
                               "÷ provisioned.")
                       .arg(count(r.termHours), qs(r.startDate));
        const engine::ScenarioMoneyTable shown = engine::scenarioMoneyTable(r);
        DeckItem pools = deckTableItem(QObject::tr("%1: pools").arg(name), caption.trimmed(), poolsTable(r));
        pools.keyFigures = {
            {QObject::tr("Cost per 30-day month"), money(shown.perMonth.total)},
            {QObject::tr("Over the %1-month term").arg(s.horizonMonths), money(shown.overTerm.total)},
            {QObject::tr("GPUs: static + elastic peak"),
             QStringLiteral("%1 + %2").arg(count(r.staticGpus), count(r.elasticPeakGpus))},
            {QObject::tr("Fleet utilization"), percent(r.utilization)},
        };
        // Commitments that outlast the horizon are owed in full: say how much.
        const bool outlasts = std::any_of(r.pools.begin(), r.pools.end(), [](const engine::PoolResult &p) {
            return p.priced && p.commitment && !p.commitment->coversTerm && p.gpus > 0;
        });
        if (outlasts)
            pools.keyFigures.push_back({QObject::tr("Commitments owed in full"), money(r.commitmentsOwed)});
        deck.items.push_back(std::move(pools));
        deck.items.push_back(deckFigureItem(scenarioDiagramFigure(r)));
        if (!r.warnings.empty()) {
            DeckItem warnings;
            warnings.kind = DeckItem::Kind::Text;
            warnings.bulleted = true;
            warnings.title = QObject::tr("%1: warnings").arg(name);
            QStringList lines;
            for (const engine::ScenarioWarning &w : r.warnings)
                lines << (w.pool.empty() || w.message.find(w.pool) != std::string::npos
                              ? qs(w.message)
                              : QStringLiteral("%1: %2").arg(qs(w.pool), qs(w.message)));
            warnings.text = lines.join(QStringLiteral("\n\n"));
            deck.items.push_back(std::move(warnings));
        }
    }
    if (results.size() >= 2 && results.size() <= 4) {
        const engine::ScenarioComparison comparison = engine::compareScenarios(results);
        deck.items.push_back(deckTableItem(QObject::tr("Scenarios compared"),
                                       QObject::tr("Δ: the difference against %1, the first scenario; utilization "
                                                   "in percentage points (pp).")
                                           .arg(scenarioNames.front()),
                                       comparisonTable(comparison)));
        deck.items.push_back(deckFigureItem(costByTierFigure(results)));
        deck.items.push_back(deckFigureItem(gpusByPoolFigure(results)));
        deck.items.push_back(deckFigureItem(utilizationFigure(results)));
    }
    return deck;
}

} // namespace headroom::ui
