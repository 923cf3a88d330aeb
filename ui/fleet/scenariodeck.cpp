#include "scenariodeck.h"

#include "common/format.h"
#include "inference/sizingcharts.h"
#include "report/reportsnapshot.h"
#include "scenariocharts.h"

#include "engine/common/errors.h"
#include "engine/fleet/scenario.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QFileInfo>
#include <QJsonArray>
#include <QLocale>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <set>

namespace headroom::ui {

namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

// "37.5 %", "40 %": one decimal where it is not zero, so 37.5 % is not shown as 37 %.
QString percent(double ratio)
{
    const double tenths = std::round(ratio * 1000.0) / 10.0;
    const bool whole = std::fabs(tenths - std::round(tenths)) < 1e-9;
    return QStringLiteral("%1 %").arg(QLocale(QLocale::English).toString(tenths, 'f', whole ? 0 : 1));
}

// "60 % (48 % busy)": GPU-hours running replicas, and the share the traffic keeps busy.
QString utilizationText(double utilization, double busy)
{
    return QObject::tr("%1 (%2 busy)").arg(percent(utilization), percent(busy));
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
        text = percent(magnitude.toDouble()).replace(QStringLiteral(" %"), QStringLiteral(" pp"));
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
                                  utilizationText(pool.utilization, pool.busyUtilization),
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
                              utilizationText(result.utilization, result.busyUtilization),
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

// "8 reserved 1 y and 4 owned": the GPUs of the pools of one role, by tier, in tier order.
QString gpusByTier(const engine::ScenarioResult &result, engine::PoolRole role)
{
    QStringList parts;
    for (engine::PoolTier tier : engine::allPoolTiers()) {
        int64_t gpus = 0;
        std::set<std::string> types;
        for (const engine::PoolResult &pool : result.pools) {
            if (pool.role == role && pool.tier == tier) {
                gpus += pool.gpus;
                types.insert(pool.gpuId);
            }
        }
        if (gpus == 0)
            continue;
        QStringList typeNames;
        for (const std::string &type : types)
            typeNames << qs(type);
        parts << QObject::tr("%1 %2 %3").arg(count(gpus), typeNames.join(QStringLiteral("/")), tierName(tier).toLower());
    }
    if (parts.size() <= 1)
        return parts.value(0);
    return QObject::tr("%1 and %2").arg(parts.mid(0, parts.size() - 1).join(QStringLiteral(", ")), parts.last());
}

bool allPriced(const engine::ScenarioResult &result)
{
    return std::all_of(result.pools.begin(), result.pools.end(),
                       [](const engine::PoolResult &p) { return p.priced || p.gpus == 0; });
}

} // namespace

namespace {

// The demand a scenario serves: the workloads and training jobs its pools carry, sorted.
std::set<std::pair<bool, std::string>> servedDemand(const engine::ScenarioResult &result)
{
    std::set<std::pair<bool, std::string>> served;
    for (const engine::PoolResult &pool : result.pools)
        for (const engine::PoolWorkload &w : pool.workloads)
            served.insert({w.training, w.name});
    return served;
}

// "chat and code-assistant", "chat, code and the training job pretrain".
QString demandText(const std::set<std::pair<bool, std::string>> &served)
{
    QStringList names;
    for (const auto &[training, name] : served)
        names << (training ? QObject::tr("the training job %1").arg(qs(name)) : qs(name));
    if (names.isEmpty())
        return QObject::tr("no workload");
    if (names.size() == 1)
        return names.front();
    return QObject::tr("%1 and %2").arg(names.mid(0, names.size() - 1).join(QStringLiteral(", ")), names.last());
}

// Demand the scenario leaves unserved or cannot size: it does not meet its SLOs, whatever it costs.
const engine::ScenarioWarning *servingGap(const engine::ScenarioResult &result)
{
    for (const engine::ScenarioWarning &w : result.warnings)
        if (w.code == "unserved_demand" || w.code == "infeasible_workload" || w.code == "missing_workload"
            || w.code == "missing_training_job" || w.code == "missing_model")
            return &w;
    return nullptr;
}

// What the scenario commits to: its reserved pools' whole commitments, or nothing.
QString commitmentText(const engine::ScenarioResult &result)
{
    QStringList parts;
    for (const engine::PoolResult &pool : result.pools)
        if (pool.commitment && pool.priced && pool.gpus > 0)
            parts << QObject::tr("%1 %2 for %3 from %4")
                         .arg(count(pool.gpus), qs(pool.gpuId),
                              pool.commitment->termMonths == 36 ? QObject::tr("3 years") : QObject::tr("1 year"),
                              qs(pool.commitment->startDate));
    if (parts.isEmpty())
        return QObject::tr("It commits to nothing: every GPU is owned, on-demand or spot.");
    return QObject::tr("It commits to %1 reserved (%2), owed whatever the use.")
        .arg(money(result.commitmentsOwed), parts.join(QStringLiteral("; ")));
}

// The risks the deck should not hide: its warnings, the first in full.
QString risksText(const engine::ScenarioResult &result)
{
    if (result.warnings.empty())
        return QObject::tr("Its evaluation raised no warnings.");
    QString first = qs(result.warnings.front().message).trimmed();
    if (!first.endsWith(QLatin1Char('.')))
        first += QLatin1Char('.');
    if (result.warnings.size() == 1)
        return QObject::tr("Risk: %1").arg(first);
    return QObject::tr("Risks: %1 And %2 more on its warnings page.").arg(first).arg(result.warnings.size() - 1);
}

// The term in words, "2026-01-01 to 2027-01-01".
QString termText(const engine::ScenarioResult &result)
{
    return QObject::tr("%1 to %2").arg(qs(result.startDate), qs(result.endDate));
}

// The recommendation among scenarios that serve the same demand; `brief` (one of several demands)
// leaves out what the chosen one commits to and its risks but for a count of its warnings.
QString recommendWithin(const std::vector<const engine::ScenarioResult *> &group, bool brief)
{
    std::vector<const engine::ScenarioResult *> candidates;
    QStringList leftOut;
    for (const engine::ScenarioResult *r : group) {
        if (const engine::ScenarioWarning *gap = servingGap(*r))
            leftOut << QObject::tr("%1 is left out: %2").arg(qs(r->name), qs(gap->message).trimmed());
        else if (!allPriced(*r))
            leftOut << QObject::tr("%1 is left out: some of its pools are unpriced.").arg(qs(r->name));
        else
            candidates.push_back(r);
    }
    for (QString &line : leftOut)
        if (!line.endsWith(QLatin1Char('.')))
            line += QLatin1Char('.');
    const QString after = leftOut.isEmpty() ? QString() : QLatin1Char(' ') + leftOut.join(QLatin1Char(' '));
    if (candidates.empty())
        return QObject::tr("No recommendation: none of these scenarios serves all its demand fully priced.") + after;
    if (candidates.size() == 1) {
        const engine::ScenarioResult &r = *candidates.front();
        const engine::ScenarioMoneyTable shown = engine::scenarioMoneyTable(r);
        return QObject::tr("Go ahead with %1: %2 per 30-day month and %3 over the term (%4), at %5 fleet utilization. "
                           "%6 %7")
                   .arg(qs(r.name), money(shown.perMonth.total), money(shown.overTerm.total), termText(r),
                        utilizationText(r.utilization, r.busyUtilization), commitmentText(r), risksText(r))
            + after;
    }
    const std::string currency = candidates.front()->costPerMonth.currency;
    if (std::any_of(candidates.begin(), candidates.end(),
                    [&](const engine::ScenarioResult *r) { return r->costPerMonth.currency != currency; }))
        return QObject::tr("No recommendation: these scenarios are priced in different currencies, so their costs "
                           "cannot be compared.")
            + after;
    std::stable_sort(candidates.begin(), candidates.end(), [](const engine::ScenarioResult *a, const engine::ScenarioResult *b) {
        return engine::scenarioMoneyTable(*a).perMonth.total.amount < engine::scenarioMoneyTable(*b).perMonth.total.amount;
    });
    const engine::ScenarioResult &best = *candidates[0];
    const engine::ScenarioResult &next = *candidates[1];
    const engine::ScenarioMoneyTable bestMoney = engine::scenarioMoneyTable(best);
    const engine::ScenarioMoneyTable nextMoney = engine::scenarioMoneyTable(next);
    const engine::Decimal saving = nextMoney.perMonth.total.amount - bestMoney.perMonth.total.amount;
    QString text;
    if (saving.isZero()) {
        text = QObject::tr("%1 and %2 cost the same per month (%3): choose on utilization, %4 against %5.")
                   .arg(qs(best.name), qs(next.name), money(bestMoney.perMonth.total), percent(best.utilization),
                        percent(next.utilization));
    } else {
        const double share = saving.toDouble() / nextMoney.perMonth.total.amount.toDouble();
        text = brief ? QObject::tr("Choose %1: %2 per 30-day month, %3 (%4) less than %5.")
                           .arg(qs(best.name), money(bestMoney.perMonth.total),
                                money(engine::Money{saving, currency}), percent(share), qs(next.name))
                     : QObject::tr("Choose %1: %2 per 30-day month, %3 (%4) less than %5, the next cheapest, at "
                                   "the same demand and SLOs.")
                           .arg(qs(best.name), money(bestMoney.perMonth.total),
                                money(engine::Money{saving, currency}), percent(share), qs(next.name));
        if (!brief && best.startDate == next.startDate && best.endDate == next.endDate) {
            const engine::Decimal termSaving = nextMoney.overTerm.total.amount - bestMoney.overTerm.total.amount;
            text += QLatin1Char(' ')
                + (termSaving.isNegative()
                       ? QObject::tr("Over the term (%1) it costs %2 more: %3 against %4, its commitment outlasting "
                                     "the months compared.")
                             .arg(termText(best), money(engine::Money{-termSaving, currency}),
                                  money(bestMoney.overTerm.total), money(nextMoney.overTerm.total))
                       : QObject::tr("Over the term (%1): %2 against %3, %4 less.")
                             .arg(termText(best), money(bestMoney.overTerm.total), money(nextMoney.overTerm.total),
                                  money(engine::Money{termSaving, currency})));
        }
    }
    if (brief)
        return text
            + (best.warnings.empty() ? QString()
               : best.warnings.size() == 1
                   ? QObject::tr(" Check its warning first.")
                   : QObject::tr(" Check its %1 warnings first.").arg(best.warnings.size()))
            + after;
    return text + QLatin1Char(' ') + commitmentText(best) + QLatin1Char(' ') + risksText(best) + after;
}

} // namespace

void summarizeScenarios(const std::vector<engine::ScenarioResult> &results, Deck &deck)
{
    for (const engine::ScenarioResult &r : results) {
        const engine::ScenarioMoneyTable shown = engine::scenarioMoneyTable(r);
        const QString base = gpusByTier(r, engine::PoolRole::StaticBase);
        const QString top = gpusByTier(r, engine::PoolRole::ElasticTop);
        QString shape;
        if (!base.isEmpty() && !top.isEmpty())
            shape = QObject::tr("Run a static base of %1 GPUs and burst to %2 GPUs at the peak hour").arg(base, top);
        else if (!base.isEmpty())
            shape = QObject::tr("Run a static fleet of %1 GPUs, with no elastic top").arg(base);
        else if (!top.isEmpty())
            shape = QObject::tr("Run everything elastic: %1 GPUs at the peak hour").arg(top);
        else
            shape = QObject::tr("Run no GPUs");
        const QString decision = QObject::tr("%1, for %2 per 30-day month at %3 fleet utilization%4.")
                                     .arg(shape, money(shown.perMonth.total), percent(r.utilization),
                                          allPriced(r) ? QString() : QObject::tr(" (some pools are unpriced)"));
        DeckSummaryEntry entry{qs(r.name), decision, {}};
        entry.figures = {{QObject::tr("Per 30-day month"), money(shown.perMonth.total)},
                         {QObject::tr("Over the term"), money(shown.overTerm.total)},
                         {QObject::tr("GPUs static + peak"),
                          QStringLiteral("%1 + %2").arg(count(r.staticGpus), count(r.elasticPeakGpus))},
                         {QObject::tr("Utilization"), utilizationText(r.utilization, r.busyUtilization)}};
        if (!r.warnings.empty())
            entry.figures.push_back({QObject::tr("Warnings"), count(int64_t(r.warnings.size()))});
        deck.summary.push_back(std::move(entry));
    }
    if (results.empty())
        return;
    // Scenarios are compared only with those serving the same demand: one recommendation per demand.
    std::vector<std::pair<std::set<std::pair<bool, std::string>>, std::vector<const engine::ScenarioResult *>>> groups;
    for (const engine::ScenarioResult &r : results) {
        const auto served = servedDemand(r);
        auto group = std::find_if(groups.begin(), groups.end(), [&](const auto &g) { return g.first == served; });
        if (group == groups.end())
            groups.push_back({served, {&r}});
        else
            group->second.push_back(&r);
    }
    if (groups.size() == 1) {
        deck.recommendation = recommendWithin(groups.front().second, false);
        return;
    }
    QStringList parts, alone;
    for (const auto &[served, group] : groups) {
        if (group.size() == 1)
            alone << qs(group.front()->name);
        else
            parts << QObject::tr("%1: %2").arg(demandText(served), recommendWithin(group, true));
    }
    QString text = QObject::tr("Compared only where the demand is the same.");
    if (!parts.isEmpty())
        text += QLatin1Char(' ') + parts.join(QLatin1Char(' '));
    if (!alone.isEmpty())
        text += QLatin1Char(' ')
            + (alone.size() == 1 ? QObject::tr("%1 serves other demand.").arg(alone.front())
                                 : QObject::tr("%1 and %2 serve other demand.")
                                       .arg(alone.mid(0, alone.size() - 1).join(QStringLiteral(", ")), alone.last()));
    deck.recommendation = text;
}

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
    QStringList exampleCards;
    for (const std::string &key : cardKeys) {
        if (const auto card = workspace.rateCard(qs(key))) {
            const auto rate = [&](const engine::Decimal &amount) {
                return amount.isZero() ? QStringLiteral("—") : qs(engine::Money{amount, card->currency}.displayRate());
            };
            cards.table.rows << QStringList{qs(card->provider),      qs(card->region),        qs(card->gpuId),
                                            qs(card->effectiveDate), rate(card->onDemand),    rate(card->reserved1y),
                                            rate(card->reserved3y),  rate(card->spot),
                                            formatCountOf(card->reservationLeadWeeks, QT_TRANSLATE_NOOP("headroom::ui", "%n week(s)"))};
            if (card->committedAreExamples && (!card->reserved1y.isZero() || !card->reserved3y.isZero()))
                exampleCards << QStringLiteral("%1 / %2 / %3").arg(qs(card->provider), qs(card->region), qs(card->gpuId));
        }
    }
    // One caveat naming every card with example committed rates, not one line per card.
    exampleCards.removeDuplicates();
    if (exampleCards.size() == 1)
        deck.warnings << QObject::tr("The committed rates of %1 are examples, not negotiated prices: replace them "
                                     "with your quote before deciding on a reservation.")
                             .arg(exampleCards.front());
    else if (exampleCards.size() > 1)
        deck.warnings << QObject::tr("The committed rates of %1 rate cards (%2) are examples, not negotiated prices: "
                                     "replace them with your quotes before deciding on a reservation.")
                             .arg(exampleCards.size())
                             .arg(exampleCards.join(QStringLiteral(", ")));
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
                               "30-day month; the term is its real hours, %1 h from %2; utilization is GPU-hours running "
                               "replicas ÷ provisioned, busy the share of them the traffic uses.")
                       .arg(count(r.termHours), qs(r.startDate));
        const engine::ScenarioMoneyTable shown = engine::scenarioMoneyTable(r);
        DeckItem pools = deckTableItem(QObject::tr("%1: pools").arg(name), caption.trimmed(), poolsTable(r));
        pools.keyFigures = {
            {QObject::tr("Cost per 30-day month"), money(shown.perMonth.total)},
            {QObject::tr("Over the %1-month term").arg(s.horizonMonths), money(shown.overTerm.total)},
            {QObject::tr("GPUs: static + elastic peak"),
             QStringLiteral("%1 + %2").arg(count(r.staticGpus), count(r.elasticPeakGpus))},
            {QObject::tr("Fleet utilization"), utilizationText(r.utilization, r.busyUtilization)},
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
    summarizeScenarios(results, deck);
    deck.recommendation += QLatin1Char(' ') + residencySentence(workspace.servingAssumptions().residency, true);
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

std::optional<store::ReportItem> scenarioReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                    const store::ReportItem &stored, QString *problem)
{
    problem->clear();
    const QString kind = source.value(QStringLiteral("kind")).toString();
    const bool table = kind == QLatin1String(kPoolsTableSource) || kind == QLatin1String(kComparisonTableSource);
    const bool comparison = kind == QLatin1String(kCostByTierSource) || kind == QLatin1String(kGpusByPoolSource)
        || kind == QLatin1String(kUtilizationSource) || kind == QLatin1String(kComparisonTableSource);
    if (!table && !comparison && kind != QLatin1String(kScenarioDiagramSource))
        return std::nullopt;
    std::vector<engine::ScenarioResult> results;
    try {
        const engine::ScenarioInputs inputs = store::scenarioInputs(workspace);
        for (const QJsonValue &name : source.value(QStringLiteral("scenarios")).toArray()) {
            const auto scenario = workspace.scenario(name.toString());
            if (!scenario) {
                *problem = QObject::tr("scenario \"%1\" no longer exists").arg(name.toString());
                return std::nullopt;
            }
            results.push_back(engine::evaluateScenario(*scenario, inputs));
        }
    } catch (const engine::InputError &e) {
        *problem = QObject::tr("its scenarios no longer evaluate: %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    if (results.empty() || (!comparison && results.size() != 1) || (comparison && results.size() > 4)) {
        *problem = QObject::tr("its source names %1 scenarios").arg(results.size());
        return std::nullopt;
    }
    if (kind == QLatin1String(kScenarioDiagramSource))
        return reportItemFromFigure(scenarioDiagramFigure(results.front()));
    if (kind == QLatin1String(kCostByTierSource))
        return reportItemFromFigure(costByTierFigure(results));
    if (kind == QLatin1String(kGpusByPoolSource))
        return reportItemFromFigure(gpusByPoolFigure(results));
    if (kind == QLatin1String(kUtilizationSource))
        return reportItemFromFigure(utilizationFigure(results));
    try {
        const DeckTable cells = kind == QLatin1String(kPoolsTableSource)
            ? poolsTable(results.front())
            : comparisonTable(engine::compareScenarios(results));
        return reportItemFromTable(stored.title, stored.caption, cells);
    } catch (const engine::InputError &e) {
        *problem = QObject::tr("its scenarios cannot be compared: %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
}

} // namespace headroom::ui
