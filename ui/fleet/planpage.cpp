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
#include "plandeck.h"
#include "report/reportsnapshot.h"
#include "report/reporttarget.h"
#include "scenariocharts.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/fleet/scenarioinputs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
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

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString errorHtml(const QString &text)
{
    return QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text.toHtmlEscaped());
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

} // namespace

// What a run hands back to the GUI thread.
struct PlanPage::Outcome {
    PlanReport plan;                               // request, result, the scenario's evaluation, notes
    std::optional<engine::Scenario> against;       // the scenario planned, if one was
    engine::ScenarioInputs scenarioInputs;         // what evaluating it reads: the whole workspace
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
    m_target->setToolTip(tr("Every workload and training job of the workspace (more than 14 workloads are planned in "
                            "blocks), or what one scenario serves, at its rate card, as-of date, start, horizon and "
                            "spot overhead"));
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
    m_addToReport = new QPushButton(tr("Add plan to &report"), panel);
    m_addToReport->setObjectName("planAddToReport");
    m_addToReport->setToolTip(tr("Add the plan's slides to the report: why this plan, the workloads, the pools and "
                                 "jobs, and the front (Edit ▸ Undo takes them back)"));
    connect(m_addToReport, &QPushButton::clicked, this, &PlanPage::addToReport);
    m_exportDeck = new QPushButton(tr("Export &deck…"), panel);
    m_exportDeck->setObjectName("planExportDeck");
    m_exportDeck->setToolTip(tr("Write the plan's own deck as a PDF: summary, why this plan, tables, front, "
                                "warnings and assumptions"));
    connect(m_exportDeck, &QPushButton::clicked, this, &PlanPage::exportDeckWithDialog);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    layout->addWidget(box);
    layout->addWidget(optionsBox);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    auto *results = new QHBoxLayout;
    results->addWidget(m_addToReport);
    results->addWidget(m_exportDeck);
    layout->addWidget(m_create);
    layout->addLayout(results);
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
    m_target->addItem(tr("Every workload"), QString());
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
    engine::PlanRequest &request = outcome.plan.request;
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
            outcome.plan.notes << tr("Workload \"%1\" of the scenario is not in the workspace.").arg(qs(w));
        for (const std::string &j : missingJobs)
            outcome.plan.notes << tr("Training job \"%1\" of the scenario is not in the workspace or cannot be sized.")
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
    if (request.inputs.workloads.empty() && request.inputs.trainingJobs.empty()) {
        *why = name.isEmpty() ? tr("The workspace has no workloads or training jobs to plan.")
                              : tr("The scenario \"%1\" serves no workload or training job of the workspace: nothing "
                                   "to plan. %2")
                                    .arg(name, outcome.plan.notes.join(QLatin1Char(' ')))
                                    .trimmed();
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
            outcome->plan.result =
                engine::planPortfolio(outcome->plan.request, [&](double f) { return progress.report(f); });
        } catch (const engine::InputError &e) {
            outcome->error = tr("Not planned (%1): %2").arg(fieldLabel(e.field()), QString::fromUtf8(e.what()));
            return;
        } catch (const engine::PlanCancelled &) {
            outcome->cancelled = true;
            return;
        }
        if (outcome->against) {
            try {
                outcome->plan.compared = engine::evaluateScenario(*outcome->against, outcome->scenarioInputs);
            } catch (const engine::InputError &e) {
                outcome->plan.comparedError = QString::fromUtf8(e.what());
            }
        }
    };
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    setResultActionsEnabled(false);
    m_progress->setValue(0);
    setStatus(outcome->against
                  ? tr("Planning what \"%1\" serves…").arg(qs(outcome->against->name))
                  : tr("Planning %1…").arg(formatCountOf(int64_t(outcome->plan.request.inputs.workloads.size()),
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
        setResultActionsEnabled(m_shown != nullptr);
        setStatus(m_shown ? tr("Cancelled; the previous plan is kept.") : tr("Cancelled."));
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
    m_shown = std::make_unique<PlanReport>(std::move(outcome->plan));
    showResult();
    setResultActionsEnabled(true);
    setStatus(tr("Planned: %1 deployments sized, %2 pools priced.")
                  .arg(formatCount(m_shown->result.candidates), formatCount(m_shown->result.groupsPriced)));
    emit finished(true);
}

void PlanPage::showResult()
{
    const PlanReport &plan = *m_shown;
    m_summary->setText(planSummaryHtml(plan));
    fillResultsTable(*m_workloads, planWorkloadsTable(plan.result.best), 4);
    fillResultsTable(*m_pools, planPoolsTable(plan.result.best), 3);
    // The pools' text columns (tiers) left-aligned again among the numbers.
    for (int row = 0; row < m_pools->rowCount(); ++row)
        if (QTableWidgetItem *item = m_pools->item(row, 4))
            item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    for (int row = 0; row < m_workloads->rowCount(); ++row)
        if (QTableWidgetItem *item = m_workloads->item(row, 6))
            item->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);

    const PlanExplanation e = planExplanation(plan);
    const auto list = [](const QStringList &items) {
        QString html = QStringLiteral("<ul style='margin-top:2px'>");
        for (const QString &item : items)
            html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
        return html + QStringLiteral("</ul>");
    };
    QString html;
    if (!e.why.isEmpty())
        html += tr("<b>Why this plan</b>") + list(e.why);
    if (!e.runnersUp.isEmpty())
        html += tr("<b>Runners-up</b> (cost over the term, each with one workload moved)") + list(e.runnersUp);
    if (!e.unplaced.isEmpty())
        html += tr("<b>Not planned</b>") + list(e.unplaced);
    html += tr("<p><b>MIG packing.</b> %1</p>").arg(e.packing.toHtmlEscaped());
    html += tr("<p><b>Method.</b> %1</p>").arg(e.method.toHtmlEscaped());
    m_explanation->setText(html);
    m_front->setFigure(planFrontFigure(plan));
}

void PlanPage::clearResults()
{
    m_shown.reset();
    setResultActionsEnabled(false);
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
    if (!m_shown)
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
    if (!m_shown) {
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
        engine::Scenario scenario = m_shown->result.best.scenario;
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

void PlanPage::setResultActionsEnabled(bool enabled)
{
    for (QPushButton *button : {m_create, m_addToReport, m_exportDeck})
        button->setEnabled(enabled);
}

bool PlanPage::addToReport()
{
    ReportTarget *target = ReportTarget::of(this);
    if (!m_shown || !target) {
        setStatus(m_shown ? tr("Not added: this page is not in a window with a report.")
                          : tr("Not added: run the plan first."),
                  true);
        return false;
    }
    const std::vector<store::ReportItem> items = planReportItems(m_workspace, *m_shown);
    target->addItemsToReport(items, tr("the plan"));
    setStatus(tr("Added the plan's %1 slides to the report (Edit ▸ Undo takes them back).").arg(items.size()));
    return true;
}

void PlanPage::exportDeckWithDialog()
{
    if (!m_shown)
        return;
    const QString path = Dialogs::exportFileName(this, tr("Export plan deck"), QDir::home().filePath(QStringLiteral("plan.pdf")),
                                                 tr("PDF document (*.pdf)"), {QStringLiteral("pdf")});
    if (!path.isEmpty())
        exportDeck(path);
}

void PlanPage::exportDeck(const QString &path)
{
    if (!m_shown || isRunning())
        return;
    Deck deck;
    try {
        deck = planDeck(m_workspace, *m_shown);
    } catch (const std::exception &e) {
        // The workspace changed under the plan (a rate card removed, say): the plan is stale.
        setStatus(tr("Not exported: %1 Run the plan again.").arg(QString::fromUtf8(e.what())), true);
        emit deckExported(false, m_lastMessage);
        return;
    }
    auto outcome = std::make_shared<std::pair<bool, QString>>(false, QString());
    auto work = [deck = std::move(deck), path, outcome](const JobProgress &progress) {
        QString error;
        const bool written = writeDeckPdf(
            deck, path, &error, [&](int done, int total) { return progress.report(double(done) / total); },
            store::ExistingFile::Replace);
        *outcome = {written, written ? path : error};
    };
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    setResultActionsEnabled(false);
    m_progress->setValue(0);
    setStatus(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
    m_job.start(this, m_progress, work, [this, outcome] {
        m_run->setEnabled(true);
        m_cancel->setEnabled(false);
        setResultActionsEnabled(true);
        const auto [written, message] = *outcome;
        if (written)
            setStatus(tr("Wrote the plan deck to %1.").arg(QDir::toNativeSeparators(message)));
        else
            setStatus(message.isEmpty() ? tr("Cancelled; no deck written.") : tr("Not exported: %1").arg(message), true);
        emit deckExported(written, m_lastMessage);
    });
}

const engine::PlanResult *PlanPage::result() const
{
    return m_shown ? &m_shown->result : nullptr;
}

QList<ChartPanel *> PlanPage::chartPanels() const
{
    return {m_front};
}

std::optional<DeckTable> PlanPage::currentTable() const
{
    if (!m_shown)
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
