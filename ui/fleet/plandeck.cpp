#include "plandeck.h"

#include "common/chartstyle.h"
#include "common/format.h"
#include "cost/costcharts.h"
#include "engine/common/errors.h"
#include "inference/sizingcharts.h"
#include "report/reportsnapshot.h"
#include "scenariocharts.h"
#include "scenariodeck.h"
#include "store/common/workspace.h"

#include <QDate>
#include <QFileInfo>
#include <QLineSeries>
#include <QLocale>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

namespace headroom::ui {

namespace {

using engine::Money;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString money(const Money &m)
{
    return qs(m.display());
}

QString bindingName(const std::string &binding)
{
    if (binding == "memory")
        return QObject::tr("Memory");
    if (binding == "compute")
        return QObject::tr("Compute");
    if (binding == "ttft")
        return QObject::tr("TTFT");
    if (binding == "itl")
        return QObject::tr("ITL");
    return qs(binding);
}

// "H100 SXM", or its MIG slice for a packed tenant.
QString placeText(const engine::PlannedWorkload &w)
{
    return w.migProfile.empty() ? qs(w.gpuId) : QObject::tr("%1 MIG %2").arg(qs(w.gpuId), qs(w.migProfile));
}

QString deploymentText(const engine::PlannedWorkload &w)
{
    if (!w.migProfile.empty())
        return QObject::tr("%1 on %2 %3/%4")
            .arg(qs(w.workload), placeText(w), upperName(engine::toString(w.weights)), upperName(engine::toString(w.kv)));
    return QObject::tr("%1 on %2 %3/%4 TP %5%6")
        .arg(qs(w.workload), qs(w.gpuId), upperName(engine::toString(w.weights)), upperName(engine::toString(w.kv)))
        .arg(w.tp)
        .arg(w.disaggregated ? QObject::tr(", prefill and decode apart") : QString());
}

// The cost-against-commitment front: the cheapest plan at each most committed share, and the
// plan shown marked at its own cap.
QChart *buildFrontChart(const std::vector<engine::PlanFrontPoint> &front, double chosenShare, double chosenCost,
                        const QString &currency, const QString &title, QChart::ChartTheme theme)
{
    QChart *chart = newStyledChart(title, theme);
    double maxCost = chosenCost, minCost = chosenCost;
    for (const engine::PlanFrontPoint &p : front) {
        maxCost = std::max(maxCost, p.costOverTerm.amount.toDouble());
        minCost = std::min(minCost, p.costOverTerm.amount.toDouble());
    }
    QString unit;
    const double scale = moneyAxisScale(maxCost, currency, &unit);
    auto *x = new QValueAxis;
    x->setTitleText(QObject::tr("Most committed share of each pool's peak (%)"));
    x->setLabelFormat(QStringLiteral("%.0f"));
    // Ticks every 10 % from 0; the range a little wider, so that the points at 0 % and 100 %
    // are drawn whole.
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(10);
    x->setRange(-3, 103);
    auto *y = new QValueAxis;
    y->setTitleText(QObject::tr("Cost over the term (%1)").arg(unit));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    auto *curve = new QLineSeries;
    curve->setName(QObject::tr("Cheapest plan at each cap"));
    curve->setPointsVisible(true);
    for (const engine::PlanFrontPoint &p : front)
        curve->append(100.0 * p.maxCommittedShare, p.costOverTerm.amount.toDouble() / scale);
    chart->addSeries(curve);
    curve->attachAxis(x);
    curve->attachAxis(y);
    QPen pen = curve->pen();
    pen.setWidthF(2.4);
    curve->setPen(pen);

    auto *chosen = new QScatterSeries;
    chosen->setName(QObject::tr("This plan"));
    chosen->setMarkerSize(13);
    chosen->setColor(QColor(0xc0, 0x39, 0x2b));
    chosen->setBorderColor(QColor(0xc0, 0x39, 0x2b).darker(130));
    chosen->append(100.0 * chosenShare, chosenCost / scale);
    chart->addSeries(chosen);
    chosen->attachAxis(x);
    chosen->attachAxis(y);

    const double span = std::max(maxCost - minCost, 0.02 * maxCost) / scale;
    y->setRange(std::max(0.0, minCost / scale - 0.15 * span), maxCost / scale + 0.15 * span);
    y->applyNiceNumbers();
    // Whole numbers on the axis unless its ticks are closer than one unit apart.
    const double step = (y->max() - y->min()) / std::max(1, y->tickCount() - 1);
    y->setLabelFormat(step >= 1 ? QStringLiteral("%.0f") : step >= 0.1 ? QStringLiteral("%.1f") : QStringLiteral("%.2f"));
    return chart;
}

// "the plan saves $736,360.64 (−8.0 %)" against the scenario planned, or costs more.
QString comparisonSentence(const engine::ScenarioResult &compared, const Money &planCost)
{
    const Money saving = engine::shownDifference(compared.costOverTerm, planCost);
    const bool saves = !saving.amount.isNegative();
    const Money magnitude{saves ? saving.amount : -saving.amount, saving.currency};
    const double share = compared.costOverTerm.amount.isZero()
                             ? 0.0
                             : magnitude.amount.toDouble() / compared.costOverTerm.amount.toDouble();
    return QObject::tr("Scenario “%1” costs %2 over the same term: the plan %3 %4 (%5).")
        .arg(qs(compared.name), money(compared.costOverTerm), saves ? QObject::tr("saves") : QObject::tr("costs"),
             money(magnitude), (saves ? QStringLiteral("−") : QStringLiteral("+")) + formatPercent(share));
}

// How the plan was found, as the paragraphs of a text slide, each list headed by what it is:
// the runners-up, what was not planned (unless the deck's warnings say it), the MIG packing
// decision and the method.
QString howText(const PlanExplanation &e, bool withUnplaced)
{
    QStringList paragraphs;
    if (!e.runnersUp.isEmpty()) {
        paragraphs << QObject::tr("Runners-up (cost over the term, each with one workload moved):");
        paragraphs << e.runnersUp;
    }
    if (withUnplaced && !e.unplaced.isEmpty()) {
        paragraphs << QObject::tr("Not planned:");
        paragraphs << e.unplaced;
    }
    paragraphs << QObject::tr("MIG packing. %1").arg(e.packing) << QObject::tr("Method. %1").arg(e.method);
    return paragraphs.join(QStringLiteral("\n\n"));
}

QString termText(const engine::PlanRequest &request)
{
    return QObject::tr("%1 · %2, %3-month term")
        .arg(qs(request.settings.provider), qs(request.settings.region))
        .arg(request.settings.horizonMonths);
}

} // namespace

DeckTable planWorkloadsTable(const engine::PlanOption &plan)
{
    DeckTable t;
    t.columns = {QObject::tr("Workload"), QObject::tr("GPU"), QObject::tr("Weights"), QObject::tr("KV"),
                 QObject::tr("TP"), QObject::tr("GPUs at\npeak"), QObject::tr("Bound\nby"),
                 QObject::tr("TTFT / SLO\n(ms)"), QObject::tr("ITL / SLO\n(ms)")};
    for (const engine::PlannedWorkload &w : plan.workloads)
        t.rows << QStringList{qs(w.workload),
                              placeText(w),
                              upperName(engine::toString(w.weights)),
                              upperName(engine::toString(w.kv)),
                              QString::number(w.tp),
                              !w.migProfile.empty() ? QObject::tr("1 slice")
                              : w.disaggregated     ? QObject::tr("%1 (%2 prefill)").arg(formatCount(w.peakGpus), formatCount(w.prefillGpus))
                                                    : formatCount(w.peakGpus),
                              bindingName(w.binding),
                              QStringLiteral("%1 / %2").arg(formatNumber(w.ttftMs, 1), formatNumber(w.ttftSloMs, 0)),
                              QStringLiteral("%1 / %2").arg(formatNumber(w.itlMs, 1), formatNumber(w.itlSloMs, 0))};
    return t;
}

DeckTable planPoolsTable(const engine::PlanOption &plan)
{
    DeckTable t;
    t.columns = {QObject::tr("GPU"), QObject::tr("Workloads"), QObject::tr("Commitment"), QObject::tr("Committed\nGPUs"),
                 QObject::tr("Elastic\ntier"), QObject::tr("Elastic GPU-\nhours a year"), QObject::tr("Peak\nGPUs"),
                 QObject::tr("Over the\nterm")};
    const QString none = QObject::tr("none");
    for (const engine::PlannedPool &p : plan.pools) {
        QStringList names;
        for (const std::string &n : p.workloads)
            names << qs(n);
        // A pool of many tenants names a few; the workloads table places every one.
        const QString served = names.size() > 6 ? QObject::tr("%1 and %2 more").arg(names.mid(0, 3).join(QStringLiteral(", ")))
                                                      .arg(names.size() - 3)
                                                : names.join(QStringLiteral(", "));
        t.rows << QStringList{p.mig ? QObject::tr("%1 MIG").arg(qs(p.gpuId)) : qs(p.gpuId),
                              served,
                              p.committedGpus > 0 ? tierName(p.commitment) : none,
                              formatCount(p.committedGpus),
                              p.mig ? none : tierName(p.elastic),
                              formatCount(p.elasticGpuHours),
                              formatCount(p.peakGpus),
                              money(p.costOverTerm)};
    }
    for (const engine::PlannedJob &j : plan.jobs)
        t.rows << QStringList{qs(j.gpuId),
                              QObject::tr("Training job %1").arg(qs(j.job)),
                              j.reserved ? tierName(j.tier) : none,
                              formatCount(j.reserved ? j.gpus : 0),
                              j.reserved ? QString() : tierName(j.tier),
                              formatCount(j.reserved ? 0 : j.gpus * j.runHours),
                              formatCount(j.gpus),
                              money(j.costOverTerm)};
    return t;
}

PlanExplanation planExplanation(const PlanReport &plan)
{
    const engine::PlanResult &r = plan.result;
    PlanExplanation e;
    for (const std::string &line : r.why)
        e.why << qs(line);
    for (const engine::PlanOption &o : r.runnersUp) {
        QStringList moved;
        for (const engine::PlannedWorkload &w : engine::movedWorkloads(r.best, o))
            moved << deploymentText(w);
        e.runnersUp << QObject::tr("%1 (+%2): %3")
                           .arg(money(o.costOverTerm), money(engine::shownDifference(o.costOverTerm, r.best.costOverTerm)),
                                moved.join(QStringLiteral("; ")));
    }
    e.unplaced = plan.notes;
    for (const std::string &line : r.unplaced)
        e.unplaced << qs(line);
    e.packing = qs(r.packing);
    e.method = qs(r.method);
    return e;
}

QString planSummaryHtml(const PlanReport &plan)
{
    const engine::PlanRequest &request = plan.request;
    const engine::PlanOption &b = plan.result.best;
    QStringList parts;
    parts << QObject::tr("<b>%1</b> over the %2-month term at %3 · %4")
                 .arg(money(b.costOverTerm))
                 .arg(request.settings.horizonMonths)
                 .arg(qs(request.settings.provider).toHtmlEscaped(), qs(request.settings.region).toHtmlEscaped());
    parts << QObject::tr("committed share of GPU-hours %1").arg(formatPercent(b.committedShare));
    parts << QObject::tr("least latency margin %1").arg(formatPercent(b.latencyMargin));
    QString summary = parts.join(QStringLiteral(" · "));
    if (plan.compared)
        summary += QStringLiteral("<br>") + comparisonSentence(*plan.compared, b.costOverTerm).toHtmlEscaped();
    else if (!plan.comparedError.isEmpty())
        summary += QStringLiteral("<br>")
                   + QObject::tr("The scenario itself cannot be evaluated: %1").arg(plan.comparedError.toHtmlEscaped());
    return summary;
}

ChartFigure planFrontFigure(const PlanReport &plan)
{
    const engine::PlanRequest &request = plan.request;
    const std::vector<engine::PlanFrontPoint> front = plan.result.front;
    const double chosenShare = request.options.maxCommittedShare;
    const double chosenCost = plan.result.best.costOverTerm.amount.toDouble();
    const QString currency = qs(plan.result.best.costOverTerm.currency);
    const QString title = QObject::tr("Cost against commitment");
    return {title,
            QObject::tr("Each point is the cheapest plan whose committed bases hold at most that share of their pool's "
                        "peak GPUs; the red point is the plan shown. %1.")
                .arg(termText(request)),
            [front, chosenShare, chosenCost, currency, title](QChart::ChartTheme theme) {
                return buildFrontChart(front, chosenShare, chosenCost, currency, title, theme);
            }};
}

std::vector<store::ReportItem> planReportItems(const store::Workspace &workspace, const PlanReport &plan)
{
    const engine::PlanOption &b = plan.result.best;
    const QString term = termText(plan.request);
    const PlanExplanation explanation = planExplanation(plan);
    const auto textItem = [](const QString &title, const QString &content) {
        store::ReportItem item;
        item.kind = store::ReportItem::Kind::Text;
        item.title = title;
        item.content = content;
        return item;
    };
    std::vector<store::ReportItem> items;
    items.push_back(textItem(QObject::tr("Plan: why this plan"), explanation.why.join(QStringLiteral("\n\n"))));
    items.push_back(reportItemFromTable(
        QObject::tr("Plan: workloads"),
        QObject::tr("%1 over the %2; committed share of GPU-hours %3, least latency margin %4.")
            .arg(money(b.costOverTerm), term, formatPercent(b.committedShare), formatPercent(b.latencyMargin)),
        planWorkloadsTable(b)));
    items.push_back(reportItemFromTable(QObject::tr("Plan: pools and jobs"), term, planPoolsTable(b)));
    items.push_back(reportItemFromFigure(planFrontFigure(plan)));
    items.push_back(textItem(QObject::tr("Plan: how it was found"), howText(explanation, true)));
    for (store::ReportItem &item : items)
        stampReportItem(item, workspace);
    return items;
}

Deck planDeck(const store::Workspace &workspace, const PlanReport &plan)
{
    const engine::PlanRequest &request = plan.request;
    const engine::PlanResult &r = plan.result;
    const engine::PlanOption &b = r.best;
    const store::ReportSettings settings = workspace.reportSettings();
    Deck deck;
    deck.title = !settings.title.isEmpty() ? settings.title
                 : plan.compared           ? QObject::tr("Portfolio plan for “%1”").arg(qs(plan.compared->name))
                                           : QObject::tr("Portfolio plan");
    deck.subtitle = termText(request);
    deck.author = settings.author;
    deck.date = settings.date.isEmpty() ? QLocale(QLocale::English).toString(QDate::currentDate(), QStringLiteral("d MMMM yyyy"))
                                        : settings.date;
    deck.workspaceName = QFileInfo(workspace.path()).completeBaseName();

    // The summary: the plan evaluated as the scenario it becomes (the same cents) and the
    // scenario planned beside it, recommended as any scenarios are.
    engine::Scenario planScenario = b.scenario;
    planScenario.name = QObject::tr("Plan").toStdString();
    std::vector<engine::ScenarioResult> results{engine::evaluateScenario(planScenario, request.inputs)};
    if (plan.compared)
        results.push_back(*plan.compared);
    summarizeScenarios(results, deck);
    deck.recommendation += QLatin1Char(' ') + residencySentence(workspace.servingAssumptions().residency, true);

    const PlanExplanation explanation = planExplanation(plan);
    DeckItem text;
    text.kind = DeckItem::Kind::Text;
    text.title = QObject::tr("Why this plan");
    text.text = explanation.why.join(QStringLiteral("\n\n"));
    text.bulleted = true;
    deck.items.push_back(text);
    DeckItem workloads = deckTableItem(
        QObject::tr("Plan: workloads"),
        QObject::tr("Each workload on the deployment that meets its SLOs at the least cost. GPUs at peak include the "
                    "planned headroom; TTFT is the P95 prompt's prefill, ITL the decode step at the sized batch."),
        planWorkloadsTable(b));
    workloads.keyFigures = {{QObject::tr("Over the %1-month term").arg(request.settings.horizonMonths), money(b.costOverTerm)},
                            {QObject::tr("GPUs at peak"), formatCount(b.peakGpus)},
                            {QObject::tr("Committed GPU-hours"), formatPercent(b.committedShare)},
                            {QObject::tr("Least latency margin"), formatPercent(b.latencyMargin)}};
    if (plan.compared) {
        // What the plan saves against the scenario planned (its own cost over the same term).
        const Money delta = engine::shownDifference(b.costOverTerm, plan.compared->costOverTerm);
        const bool negative = delta.amount.isNegative();
        workloads.keyFigures.push_back(
            {QObject::tr("Against the scenario"),
             (negative ? QStringLiteral("−") : QStringLiteral("+"))
                 + money(Money{negative ? -delta.amount : delta.amount, delta.currency})});
    }
    deck.items.push_back(std::move(workloads));
    deck.items.push_back(deckTableItem(QObject::tr("Plan: pools and jobs"),
                                       QObject::tr("Committed bases in whole replicas, elastic tops above them; the "
                                                   "rows add up to the plan's %1.")
                                           .arg(money(b.costOverTerm)),
                                       planPoolsTable(b)));
    deck.items.push_back(deckFigureItem(planFrontFigure(plan)));
    text.title = QObject::tr("How the plan was found");
    text.text = howText(explanation, false);
    text.bulleted = false;
    deck.items.push_back(text);

    // What was left out, and the workspace's caveats about what the plan uses.
    deck.warnings << explanation.unplaced;
    if (!plan.comparedError.isEmpty())
        deck.warnings << QObject::tr("The scenario planned cannot be evaluated: %1").arg(plan.comparedError);
    const DeckSubjects subjects = deckSubjects(workspace, deck.items);
    deck.warnings << workspaceWarnings(workspace, subjects);
    deck.assumptions = workspaceAssumptions(workspace, subjects);
    return deck;
}

} // namespace headroom::ui
