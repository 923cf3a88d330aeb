#include "planpage.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "common/entitycommand.h"
#include "common/fields.h"
#include "common/format.h"
#include "cost/costcharts.h"
#include "engine/common/errors.h"
#include "engine/fleet/plan.h"
#include "report/reportsnapshot.h"
#include "scenariocharts.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/fleet/scenarioinputs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineSeries>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QTableWidget>
#include <QUndoStack>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

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

QString errorHtml(const QString &text)
{
    return QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text.toHtmlEscaped());
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

// The form label of a field engine::InputError names, so that a message points at the input.
QString fieldLabel(const std::string &field)
{
    if (field == "workloads")
        return QObject::tr("Plan for");
    if (field == "settings.rate_card" || field == "settings.provider" || field == "settings.region")
        return QObject::tr("Rate card");
    if (field == "settings.horizon_months")
        return QObject::tr("Horizon");
    if (field == "max_committed_share")
        return QObject::tr("Most committed share");
    if (field == "options.caps")
        return QObject::tr("GPU caps");
    return qs(field);
}

DeckTable workloadsTable(const engine::PlanOption &plan)
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

// The pools of the plan, then its training jobs (a reserved job is a pool of its own; an
// elastic one runs on its GPU type's elastic top).
DeckTable poolsTable(const engine::PlanOption &plan)
{
    DeckTable t;
    t.columns = {QObject::tr("GPU"), QObject::tr("Workloads"), QObject::tr("Commitment"), QObject::tr("Committed\nGPUs"),
                 QObject::tr("Elastic\ntier"), QObject::tr("Elastic GPU-\nhours a year"), QObject::tr("Most GPUs\nheld"),
                 QObject::tr("Over the\nterm")};
    const QString none = QObject::tr("none");
    for (const engine::PlannedPool &p : plan.pools) {
        QStringList names;
        for (const std::string &n : p.workloads)
            names << qs(n);
        t.rows << QStringList{p.mig ? QObject::tr("%1 MIG").arg(qs(p.gpuId)) : qs(p.gpuId),
                              names.join(QStringLiteral(", ")),
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

// Why the plan wins, the runners-up with what each moves, what was left out and the method.
QString explanationHtml(const engine::PlanResult &r, const QStringList &notes)
{
    const auto list = [](const QStringList &items) {
        QString html = QStringLiteral("<ul style='margin-top:2px'>");
        for (const QString &item : items)
            html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
        return html + QStringLiteral("</ul>");
    };
    QString html;
    QStringList why;
    for (const std::string &line : r.why)
        why << qs(line);
    if (!why.isEmpty())
        html += QObject::tr("<b>Why this plan</b>") + list(why);
    QStringList runners;
    for (const engine::PlanOption &o : r.runnersUp) {
        QStringList moved;
        for (const engine::PlannedWorkload &w : o.workloads) {
            const auto mine = std::find_if(r.best.workloads.begin(), r.best.workloads.end(),
                                           [&](const engine::PlannedWorkload &x) { return x.workload == w.workload; });
            if (mine == r.best.workloads.end() || mine->gpuId != w.gpuId || mine->weights != w.weights
                || mine->kv != w.kv || mine->tp != w.tp || mine->migProfile != w.migProfile
                || mine->disaggregated != w.disaggregated)
                moved << deploymentText(w);
        }
        runners << QObject::tr("%1 (+%2): %3")
                       .arg(money(o.costOverTerm), money(engine::shownDifference(o.costOverTerm, r.best.costOverTerm)),
                            moved.join(QStringLiteral("; ")));
    }
    if (!runners.isEmpty())
        html += QObject::tr("<b>Runners-up</b> (cost over the term, each with one workload moved)") + list(runners);
    QStringList unplaced = notes;
    for (const std::string &line : r.unplaced)
        unplaced << qs(line);
    if (!unplaced.isEmpty())
        html += QObject::tr("<b>Not planned</b>") + list(unplaced);
    html += QObject::tr("<p><b>MIG packing.</b> %1</p>").arg(qs(r.packing).toHtmlEscaped());
    html += QObject::tr("<p><b>Method.</b> %1</p>").arg(qs(r.method).toHtmlEscaped());
    return html;
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

} // namespace

// What a run hands back to the GUI thread.
struct PlanPage::Outcome {
    engine::PlanRequest request;
    std::optional<engine::PlanResult> result;
    std::optional<engine::Scenario> against;       // the scenario planned, if one was
    engine::ScenarioInputs scenarioInputs;         // what evaluating it reads: the whole workspace
    std::optional<engine::ScenarioResult> compared; // its own evaluation
    QString comparedError;
    QStringList notes;                             // what the form left out, for the explanation
    QString error;
    bool cancelled = false;
};

PlanPage::PlanPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("planPage");
    layOutPage(buildInputs(), buildResults(), 340);
    for (auto signal : {&store::Workspace::scenariosChanged, &store::Workspace::rateCardsChanged})
        connect(&m_workspace, signal, this, &PlanPage::refreshChoices);
    refreshChoices();
    clearResults();
}

PlanPage::~PlanPage() = default;

QWidget *PlanPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    auto *box = new QGroupBox(tr("What to plan"), panel);
    auto *form = new QFormLayout(box);
    m_target = new QComboBox(box);
    m_target->setObjectName("planTarget");
    m_target->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_target->setMinimumContentsLength(16);
    m_target->setToolTip(tr("Every workload and training job of the workspace (at most 14 workloads), or what one "
                            "scenario serves, at its rate card, as-of date, start, horizon and spot overhead"));
    connect(m_target, &QComboBox::currentIndexChanged, this, &PlanPage::targetChanged);
    m_rateCard = new QComboBox(box);
    m_rateCard->setObjectName("planRateCard");
    m_rateCard->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rateCard->setMinimumContentsLength(16);
    connect(m_rateCard, &QComboBox::currentIndexChanged, this, [this] {
        if (m_rateCard->isEnabled() && !m_refreshing)
            m_ownCard = m_rateCard->currentData().toStringList();
    });
    m_horizon = newSpinBox(box, "planHorizon", 1, 120, 12, QString(),
                           tr("The term the plan is costed over, in calendar months from the first of next month; a "
                              "commitment longer than it is left out"));
    connect(m_horizon, &QSpinBox::valueChanged, this, [this](int months) {
        if (m_horizon->isEnabled() && !m_refreshing)
            m_ownHorizon = months;
    });
    form->addRow(tr("Plan for:"), m_target);
    form->addRow(tr("Rate card:"), m_rateCard);
    form->addRow(tr("Horizon (months):"), m_horizon);

    auto *optionsBox = new QGroupBox(tr("Options"), panel);
    auto *options = new QFormLayout(optionsBox);
    m_spot = new QCheckBox(tr("Spot for all but flagship workloads"), optionsBox);
    m_spot->setObjectName("planSpot");
    m_spot->setToolTip(tr("Elastic tops may run on spot where it is cheaper; a flagship workload's overflow stays "
                          "on demand"));
    m_ownPrecisions = new QCheckBox(tr("Keep each workload's precisions"), optionsBox);
    m_ownPrecisions->setObjectName("planOwnPrecisions");
    m_ownPrecisions->setToolTip(tr("Each workload at its profile's weights and KV precision only; otherwise BF16, FP8 "
                                   "and INT4 weights and BF16 and FP8 KV are tried"));
    m_packMig = new QCheckBox(tr("Pack small tenants onto MIG slices"), optionsBox);
    m_packMig->setObjectName("planPackMig");
    m_packMig->setChecked(true);
    m_packMig->setToolTip(tr("A workload other than a flagship whose one replica on one MIG slice serves its peak at its "
                             "SLOs may share committed GPUs with others, on a GPU type with MIG profiles; not when the "
                             "fleet without packing holds fewer than %1 GPUs at its peak")
                              .arg(engine::kSmallFleetGpus));
    m_maxCommitted = newSpinBox(optionsBox, "planMaxCommitted", 0, 100, 100, QString(),
                                tr("Each pool's committed base holds at most this share of the pool's peak GPUs; "
                                   "less commitment costs more but risks less if demand falls"));
    m_maxCommitted->setSingleStep(10);
    options->addRow(m_spot);
    options->addRow(m_ownPrecisions);
    options->addRow(m_packMig);
    auto *shareLabel = new QLabel(tr("Most committed share of a pool's peak (%):"), optionsBox);
    shareLabel->setWordWrap(true);
    shareLabel->setBuddy(m_maxCommitted);
    options->addRow(shareLabel, m_maxCommitted);

    m_run = new QPushButton(tr("&Run"), panel);
    m_run->setObjectName("planRun");
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_run->setToolTip(tr("Find the cheapest plan (Ctrl+Return); it runs in the background"));
    m_cancel = new QPushButton(tr("&Cancel"), panel);
    m_cancel->setObjectName("planCancel");
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &PlanPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &PlanPage::cancel);
    m_progress = new QProgressBar(panel);
    m_progress->setObjectName("planProgress");
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(panel);
    m_status->setObjectName("planStatus");
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::RichText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_create = new QPushButton(tr("Create &scenario…"), panel);
    m_create->setObjectName("planCreateScenario");
    m_create->setToolTip(tr("Save the plan shown as a fleet scenario (Edit ▸ Undo takes it back)"));
    m_create->setEnabled(false);
    connect(m_create, &QPushButton::clicked, this, &PlanPage::createScenarioWithDialog);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    layout->addWidget(box);
    layout->addWidget(optionsBox);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_create);
    layout->addStretch();
    setStatus(tr("Choose what to plan, then Run."));
    return panel;
}

QWidget *PlanPage::buildResults()
{
    m_summary = new QLabel(this);
    m_summary->setObjectName("planSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_front = new ChartPanel(this);
    m_front->setObjectName("planFrontChart");
    m_workloads = newResultsTable("planWorkloads");
    m_pools = newResultsTable("planPools");
    m_tables = new QTabWidget(this);
    m_tables->setObjectName("planTables");
    m_tables->addTab(m_workloads, tr("&Workloads"));
    m_tables->addTab(m_pools, tr("&Pools and jobs"));
    m_explanation = newExplanation("planExplanation");
    m_explanation->setTextFormat(Qt::RichText);
    auto *results = new QWidget(this);
    auto *layout = new QVBoxLayout(results);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(resultsColumn(m_front, m_tables, m_explanation), 1);
    return results;
}

void PlanPage::refreshChoices()
{
    m_refreshing = true;
    const QString target = m_target->currentData().toString();
    m_target->clear();
    m_target->addItem(tr("Every workload (at most %1)").arg(engine::kMaxPlanWorkloads), QString());
    for (const store::ScenarioSummary &s : m_workspace.scenarioSummaries())
        m_target->addItem(s.name, s.name);
    m_target->setCurrentIndex(std::max(0, m_target->findData(target)));

    std::set<std::pair<std::string, std::string>> cards;
    for (const engine::RateCard &c : m_workspace.rateCards())
        cards.insert({c.provider, c.region});
    m_rateCard->clear();
    for (const auto &[provider, region] : cards)
        m_rateCard->addItem(QStringLiteral("%1 · %2").arg(qs(provider), qs(region)), QStringList{qs(provider), qs(region)});
    m_refreshing = false;
    targetChanged();
}

void PlanPage::targetChanged()
{
    if (m_refreshing)
        return;
    const QString name = m_target->currentData().toString();
    std::optional<engine::Scenario> scenario;
    try {
        if (!name.isEmpty())
            scenario = m_workspace.scenario(name);
    } catch (const store::StoreError &) {
        // Unreadable now (a lost server connection): Run says why.
    }
    const bool own = !scenario;
    m_refreshing = true; // the combo and spin box show the scenario's values, not a choice
    m_rateCard->setEnabled(own);
    m_horizon->setEnabled(own);
    if (own) {
        m_rateCard->setToolTip(tr("The provider and region whose prices the plan pays"));
        m_rateCard->setCurrentIndex(std::max(0, m_rateCard->findData(m_ownCard)));
        m_horizon->setValue(m_ownHorizon);
        m_refreshing = false;
        m_ownCard = m_rateCard->currentData().toStringList();
        return;
    }
    // The scenario's card and term, shown but not editable: the plan is compared with it.
    const QStringList card{qs(scenario->provider), qs(scenario->region)};
    m_rateCard->setPlaceholderText(tr("%1 · %2 (not in the workspace)").arg(card[0], card[1]));
    m_rateCard->setCurrentIndex(m_rateCard->findData(card));
    m_rateCard->setToolTip(tr("The scenario's rate card: the plan is priced as the scenario is"));
    m_horizon->setValue(scenario->horizonMonths);
    m_refreshing = false;
}

void PlanPage::selectTarget(const QString &scenarioName)
{
    m_target->setCurrentIndex(std::max(0, m_target->findData(scenarioName)));
}

bool PlanPage::buildRequest(Outcome &outcome, QString *why) const
{
    engine::PlanRequest &request = outcome.request;
    request.inputs = store::scenarioInputs(m_workspace);
    const QString name = m_target->currentData().toString();
    if (!name.isEmpty()) {
        outcome.against = m_workspace.scenario(name);
        if (!outcome.against) {
            *why = tr("The scenario \"%1\" no longer exists.").arg(name);
            return false;
        }
        const engine::Scenario &against = *outcome.against;
        // The scenario is evaluated with everything it names, as the Scenarios page does.
        outcome.scenarioInputs = request.inputs;
        std::vector<std::string> missingWorkloads, missingJobs;
        request = engine::scenarioPlanRequest(against, outcome.scenarioInputs, &missingWorkloads, &missingJobs);
        for (const std::string &w : missingWorkloads)
            outcome.notes << tr("Workload \"%1\" of the scenario is not in the workspace.").arg(qs(w));
        for (const std::string &j : missingJobs)
            outcome.notes << tr("Training job \"%1\" of the scenario is not in the workspace or cannot be sized.")
                                 .arg(qs(j));
        request.settings.description = "The cheapest plan for what scenario \"" + against.name + "\" serves.";
    } else {
        const QStringList card = m_rateCard->currentData().toStringList();
        if (card.size() != 2) {
            *why = tr("The workspace has no rate card to price a plan: add one on the Rate cards page.");
            return false;
        }
        request.settings.provider = card[0].toStdString();
        request.settings.region = card[1].toStdString();
        request.settings.horizonMonths = m_horizon->value();
        request.settings.description = "The cheapest plan for the portfolio at its SLOs.";
    }
    const size_t workloads = request.inputs.workloads.size();
    if (workloads == 0 && request.inputs.trainingJobs.empty()) {
        *why = name.isEmpty() ? tr("The workspace has no workloads or training jobs to plan.")
                              : tr("The scenario \"%1\" serves no workload or training job of the workspace: nothing "
                                   "to plan. %2")
                                    .arg(name, outcome.notes.join(QLatin1Char(' ')))
                                    .trimmed();
        return false;
    }
    if (workloads > engine::kMaxPlanWorkloads) {
        *why = tr("%1 workloads to plan: a plan covers at most %2 at once. Plan a scenario that serves fewer.")
                   .arg(workloads)
                   .arg(engine::kMaxPlanWorkloads);
        return false;
    }
    request.settings.name = "plan";
    request.settings.author = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME")).toStdString();
    auto &o = request.options;
    o.spot = m_spot->isChecked();
    o.ownPrecisions = m_ownPrecisions->isChecked();
    o.packMig = m_packMig->isChecked();
    o.maxCommittedShare = m_maxCommitted->value() / 100.0;
    return true;
}

void PlanPage::run()
{
    if (isRunning())
        return;
    auto outcome = std::make_shared<Outcome>();
    QString why;
    bool ready = false;
    try {
        ready = buildRequest(*outcome, &why);
    } catch (const store::StoreError &e) {
        why = e.message();
    }
    if (!ready) {
        clearResults();
        setStatus(tr("Not planned: %1").arg(why), true);
        emit finished(false);
        return;
    }
    auto work = [outcome](const JobProgress &progress) {
        try {
            outcome->result = engine::planPortfolio(outcome->request, [&](double f) { return progress.report(f); });
        } catch (const engine::InputError &e) {
            outcome->error = tr("Not planned (%1): %2").arg(fieldLabel(e.field()), QString::fromUtf8(e.what()));
            return;
        } catch (const engine::PlanCancelled &) {
            outcome->cancelled = true;
            return;
        }
        if (outcome->against) {
            try {
                outcome->compared = engine::evaluateScenario(*outcome->against, outcome->scenarioInputs);
            } catch (const engine::InputError &e) {
                outcome->comparedError = QString::fromUtf8(e.what());
            }
        }
    };
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_create->setEnabled(false);
    m_progress->setValue(0);
    setStatus(outcome->against
                  ? tr("Planning what \"%1\" serves…").arg(qs(outcome->against->name))
                  : tr("Planning %1…").arg(formatCountOf(int64_t(outcome->request.inputs.workloads.size()),
                                                         QT_TRANSLATE_NOOP("headroom::ui", "%n workload(s)"))));
    m_job.start(this, m_progress, work, [this, outcome] { showOutcome(outcome); });
}

void PlanPage::cancel()
{
    if (!isRunning())
        return;
    m_job.cancel();
    setStatus(tr("Cancelling…"));
}

bool PlanPage::isRunning() const
{
    return m_job.isRunning();
}

void PlanPage::showOutcome(const std::shared_ptr<Outcome> &outcome)
{
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    if (outcome->cancelled) {
        m_progress->setValue(0);
        m_create->setEnabled(m_result != nullptr);
        setStatus(m_result ? tr("Cancelled; the previous plan is kept.") : tr("Cancelled."));
        emit finished(false);
        return;
    }
    if (!outcome->error.isEmpty()) {
        m_progress->setValue(0);
        clearResults();
        setStatus(outcome->error, true);
        emit finished(false);
        return;
    }
    m_progress->setValue(1000);
    m_result = std::make_unique<engine::PlanResult>(*outcome->result);
    showResult(*outcome);
    m_create->setEnabled(true);
    setStatus(tr("Planned: %1 deployments sized, %2 pools priced.")
                  .arg(formatCount(m_result->candidates), formatCount(m_result->groupsPriced)));
    emit finished(true);
}

void PlanPage::showResult(const Outcome &outcome)
{
    const engine::PlanRequest &request = outcome.request;
    const engine::PlanResult &r = *outcome.result;
    const engine::PlanOption &b = r.best;
    QStringList parts;
    parts << tr("<b>%1</b> over the %2-month term at %3 · %4").arg(money(b.costOverTerm)).arg(request.settings.horizonMonths)
                 .arg(qs(request.settings.provider).toHtmlEscaped(), qs(request.settings.region).toHtmlEscaped());
    parts << tr("committed share of GPU-hours %1").arg(formatPercent(b.committedShare));
    parts << tr("least latency margin %1").arg(formatPercent(b.latencyMargin));
    QString summary = parts.join(QStringLiteral(" · "));
    if (outcome.compared) {
        const Money saving = engine::shownDifference(outcome.compared->costOverTerm, b.costOverTerm);
        const bool saves = !saving.amount.isNegative();
        const Money magnitude{saves ? saving.amount : -saving.amount, saving.currency};
        const double share = outcome.compared->costOverTerm.amount.isZero()
                                 ? 0.0
                                 : magnitude.amount.toDouble() / outcome.compared->costOverTerm.amount.toDouble();
        summary += QStringLiteral("<br>")
                   + tr("Scenario “%1” costs %2 over the same term: the plan %3 %4 (%5).")
                         .arg(qs(outcome.compared->name).toHtmlEscaped(), money(outcome.compared->costOverTerm),
                              saves ? tr("saves") : tr("costs"), money(magnitude),
                              (saves ? QStringLiteral("−") : QStringLiteral("+")) + formatPercent(share));
    } else if (!outcome.comparedError.isEmpty()) {
        summary += QStringLiteral("<br>") + tr("The scenario itself cannot be evaluated: %1").arg(outcome.comparedError.toHtmlEscaped());
    }
    m_summary->setText(summary);

    fillResultsTable(*m_workloads, workloadsTable(b), 4);
    fillResultsTable(*m_pools, poolsTable(b), 3);
    // The pools' text columns (tiers) left-aligned again among the numbers.
    for (int row = 0; row < m_pools->rowCount(); ++row)
        if (QTableWidgetItem *item = m_pools->item(row, 4))
            item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    for (int row = 0; row < m_workloads->rowCount(); ++row)
        if (QTableWidgetItem *item = m_workloads->item(row, 6))
            item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_explanation->setText(explanationHtml(r, outcome.notes));

    const std::vector<engine::PlanFrontPoint> front = r.front;
    const double chosenShare = request.options.maxCommittedShare;
    const double chosenCost = b.costOverTerm.amount.toDouble();
    const QString currency = qs(b.costOverTerm.currency);
    const QString title = tr("Cost against commitment");
    m_front->setFigure({title,
                        tr("Each point is the cheapest plan whose committed bases hold at most that share of their "
                           "pool's peak GPUs; the red point is the plan shown. %1 · %2, %3-month term.")
                            .arg(qs(request.settings.provider), qs(request.settings.region))
                            .arg(request.settings.horizonMonths),
                        [front, chosenShare, chosenCost, currency, title](QChart::ChartTheme theme) {
                            return buildFrontChart(front, chosenShare, chosenCost, currency, title, theme);
                        }});
}

void PlanPage::clearResults()
{
    m_result.reset();
    m_create->setEnabled(false);
    m_summary->setText(tr("Run to find the cheapest fleet for the workloads at their SLOs."));
    m_workloads->clear();
    m_workloads->setRowCount(0);
    m_workloads->setColumnCount(0);
    m_pools->clear();
    m_pools->setRowCount(0);
    m_pools->setColumnCount(0);
    m_explanation->clear();
    m_front->setFigure(emptyFigure(tr("Cost against commitment"), tr("Run the plan to see it.")));
}

void PlanPage::createScenarioWithDialog()
{
    if (!m_result)
        return;
    const QString name =
        Dialogs::textInput(this, tr("Create scenario"), tr("Name of the new scenario:"), tr("Planned fleet"));
    if (name.trimmed().isEmpty())
        return;
    if (!createScenario(name))
        Dialogs::warning(this, tr("Create scenario"), m_lastMessage);
}

bool PlanPage::createScenario(const QString &name)
{
    const QString trimmed = name.trimmed();
    if (!m_result) {
        setStatus(tr("Not saved: run the plan first."), true);
        return false;
    }
    if (trimmed.isEmpty()) {
        setStatus(tr("Not saved: give the scenario a name."), true);
        return false;
    }
    try {
        if (m_workspace.scenarioSummary(trimmed)) {
            setStatus(tr("Not saved: a scenario named \"%1\" exists already; choose another name.").arg(trimmed), true);
            return false;
        }
        engine::Scenario scenario = m_result->best.scenario;
        scenario.name = trimmed.toStdString();
        const auto problems = engine::validate(scenario);
        if (!problems.empty()) {
            setStatus(tr("Not saved: %1").arg(fieldProblemsText(problems)), true);
            return false;
        }
        const QPointer<PlanPage> page(this);
        auto refused = [page](const QString &message) {
            if (page)
                page->setStatus(tr("Not undone: %1").arg(message), true);
        };
        m_undoStack->push(scenarioChange(m_workspace, std::nullopt, 0, scenario,
                                         tr("Create scenario %1 from the plan").arg(trimmed), -1, refused));
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return false;
    }
    setStatus(tr("Saved the plan as scenario \"%1\" (Edit ▸ Undo takes it back); the Scenarios page shows it.")
                  .arg(trimmed));
    return true;
}

QList<ChartPanel *> PlanPage::chartPanels() const
{
    return {m_front};
}

std::optional<DeckTable> PlanPage::currentTable() const
{
    if (!m_result)
        return std::nullopt;
    return snapshotTable(m_tables->currentIndex() == 1 ? *m_pools : *m_workloads);
}

QString PlanPage::statusText() const
{
    return m_lastMessage;
}

QString PlanPage::summaryText() const
{
    return QTextDocumentFragment::fromHtml(m_summary->text()).toPlainText();
}

void PlanPage::setStatus(const QString &text, bool error)
{
    m_lastMessage = text;
    m_status->setText(error ? errorHtml(text) : text.toHtmlEscaped());
}

} // namespace headroom::ui
