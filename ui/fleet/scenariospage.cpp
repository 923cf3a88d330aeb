#include "scenariospage.h"

#include "common/chartpanel.h"
#include "common/dialogs.h"
#include "common/entitycommand.h"
#include "common/format.h"
#include "engine/common/errors.h"
#include "report/reportsnapshot.h"
#include "scenariocharts.h"
#include "scenariocomparepanel.h"
#include "scenariodiagramview.h"
#include "scenarioeditor.h"
#include "scenarioevaluationview.h"
#include "scenariohistorydialog.h"
#include "scenarioyamlpanel.h"
#include "store/fleet/scenarioinputs.h"
#include "store/fleet/scenariojson.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QDateTime>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

using engine::Scenario;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString jsonOf(const Scenario &s)
{
    return QString::fromUtf8(store::scenarioJsonText(s));
}

} // namespace

ScenariosPage::ScenariosPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("scenariosPage");
    auto *editorScroll = new QScrollArea(this);
    m_editor = new ScenarioEditor(m_workspace, [this](const QString &label, int mergeField,
                                                      const std::function<void(Scenario &)> &change) {
        return edit(label, mergeField, change);
    });
    connect(m_editor, &ScenarioEditor::inputRejected, this, [this](const QString &message) { setStatus(message, true); });
    editorScroll->setWidget(m_editor);
    editorScroll->setWidgetResizable(true);
    editorScroll->setFrameShape(QFrame::NoFrame);
    m_status = new QLabel(this);
    m_status->setObjectName("scenarioStatus");
    m_status->setWordWrap(true);
    auto *editor = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editor);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(editorScroll, 1);
    auto *retryButton = newRetryButton(this, "scenarioRetry");
    m_refused.setRetryButton(retryButton);
    connect(retryButton, &QPushButton::clicked, this, &ScenariosPage::retrySave);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(retryButton);
    editorLayout->addLayout(statusRow);

    // The list above the editor on the left, the results on the right.
    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(buildList());
    left->addWidget(editor);
    left->setStretchFactor(1, 1);
    left->setSizes({170, 600});
    auto *split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(buildResults());
    split->setStretchFactor(1, 1);
    split->setSizes({540, 860});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(split);

    connect(&m_workspace, &store::Workspace::scenariosChanged, this, &ScenariosPage::refreshList);
    connect(&m_workspace, &store::Workspace::connectionRestored, this, &ScenariosPage::saveAfterReconnect);
    for (auto signal : {&store::Workspace::workloadsChanged, &store::Workspace::trainingJobsChanged,
                        &store::Workspace::gpusChanged, &store::Workspace::modelsChanged,
                        &store::Workspace::rateCardsChanged, &store::Workspace::servingAssumptionsChanged}) {
        connect(&m_workspace, signal, this, [this] {
            refreshChoices();
            loadForm();
            updateCompare();
        });
    }
    refreshChoices();
    refreshList();
}

// ---------------------------------------------------------------------------------------------
// List

QWidget *ScenariosPage::buildList()
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new QTableWidget(0, 5, box);
    m_list->setObjectName("scenarioList");
    m_list->setHorizontalHeaderLabels({tr("Scenario"), tr("Author"), tr("Version"), tr("Updated (UTC)"), tr("By")});
    m_list->verticalHeader()->hide();
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->setMinimumWidth(300);
    m_list->setMinimumHeight(110);
    m_list->setToolTip(tr("Fleet scenarios of this workspace; the version counts every saved change"));
    connect(m_list, &QTableWidget::currentCellChanged, this, [this](int row, int, int previous) {
        if (!m_loading && row != previous)
            loadForm();
    });
    auto *add = new QPushButton(tr("&New"), box);
    add->setToolTip(tr("A new scenario with one reserved pool to start from"));
    auto *duplicate = new QPushButton(tr("D&uplicate"), box);
    duplicate->setToolTip(tr("A copy of the selected scenario, to try a variant"));
    auto *rename = new QPushButton(tr("Rena&me…"), box);
    auto *remove = new QPushButton(tr("&Delete"), box);
    remove->setToolTip(tr("Delete the selected scenario (asks first; Ctrl+Z brings it back)"));
    auto *history = new QPushButton(tr("Histor&y…"), box);
    history->setObjectName("scenarioHistory");
    history->setToolTip(tr("Every saved version of the selected scenario, who saved it and when; restore one"));
    connect(history, &QPushButton::clicked, this, &ScenariosPage::showHistory);
    connect(add, &QPushButton::clicked, this, &ScenariosPage::newScenario);
    connect(duplicate, &QPushButton::clicked, this, &ScenariosPage::duplicateScenario);
    connect(rename, &QPushButton::clicked, this, &ScenariosPage::renameWithDialog);
    connect(remove, &QPushButton::clicked, this, &ScenariosPage::deleteScenario);
    auto *del = new QShortcut(QKeySequence::Delete, m_list, nullptr, nullptr, Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, &ScenariosPage::deleteScenario);
    auto *f2 = new QShortcut(QKeySequence(Qt::Key_F2), m_list, nullptr, nullptr, Qt::WidgetShortcut);
    connect(f2, &QShortcut::activated, this, &ScenariosPage::renameWithDialog);
    layout->addWidget(m_list, 1);
    auto *row1 = new QHBoxLayout;
    row1->addWidget(add);
    row1->addWidget(duplicate);
    layout->addLayout(row1);
    auto *row2 = new QHBoxLayout;
    row2->addWidget(rename);
    row2->addWidget(remove);
    row2->addWidget(history);
    layout->addLayout(row2);
    return box;
}

void ScenariosPage::refreshList()
{
    const QString previous = currentName();
    const bool wasLoading = m_loading;
    m_loading = true;
    const auto summaries = m_workspace.scenarioSummaries();
    m_list->setRowCount(int(summaries.size()));
    for (int i = 0; i < int(summaries.size()); ++i) {
        const auto &s = summaries[size_t(i)];
        auto *name = new QTableWidgetItem(s.name);
        name->setToolTip(s.description);
        m_list->setItem(i, 0, name);
        m_list->setItem(i, 1, new QTableWidgetItem(s.author));
        auto *version = new QTableWidgetItem(QString::number(s.version));
        version->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_list->setItem(i, 2, version);
        const QDateTime updated = QDateTime::fromString(s.updatedAt, Qt::ISODate);
        auto *when = new QTableWidgetItem(updated.isValid() ? updated.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                                            : s.updatedAt);
        when->setToolTip(tr("Created %1, last changed %2").arg(s.createdAt, s.updatedAt));
        m_list->setItem(i, 3, when);
        auto *by = new QTableWidgetItem(s.updatedBy);
        by->setToolTip(tr("Who saved the last change (the database role on a team server, the OS user for a file)"));
        m_list->setItem(i, 4, by);
    }
    QString current = previous;
    if (!m_selectAfterRefresh.isEmpty()) {
        current = m_selectAfterRefresh;
        m_selectAfterRefresh.clear();
    }
    int row = -1;
    for (int i = 0; i < m_list->rowCount(); ++i)
        if (m_list->item(i, 0)->text() == current)
            row = i;
    if (row < 0 && m_list->rowCount() > 0)
        row = 0;
    m_list->setCurrentCell(row, 0);
    m_loading = wasLoading;

    // The compare choices follow the list, keeping what was ticked.
    QStringList names;
    for (const auto &s : summaries)
        names << s.name;
    m_compare->setScenarios(names);
    loadForm();
    updateCompare();
}

QString ScenariosPage::currentName() const
{
    const int row = m_list->currentRow();
    return row >= 0 && m_list->item(row, 0) ? m_list->item(row, 0)->text() : QString();
}

void ScenariosPage::selectScenario(const QString &name)
{
    for (int i = 0; i < m_list->rowCount(); ++i)
        if (m_list->item(i, 0)->text() == name)
            m_list->setCurrentCell(i, 0);
}

void ScenariosPage::newScenario()
{
    Scenario s;
    int n = m_list->rowCount() + 1;
    do {
        s.name = tr("scenario %1").arg(n++).toStdString();
    } while (m_workspace.scenarioSummary(qs(s.name)));
    s.author = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME")).toStdString();
    s.description = tr("A fleet to plan: add pools, assign workloads, compare.").toStdString();
    const auto cards = m_workspace.rateCards();
    if (!cards.empty()) {
        s.provider = cards.front().provider;
        s.region = cards.front().region;
    }
    engine::Pool pool;
    pool.name = "base";
    const auto gpus = m_workspace.gpus();
    pool.gpuId = m_workspace.gpu(QStringLiteral("h100-sxm")) ? "h100-sxm" : (gpus.empty() ? "" : gpus.front().id);
    pool.sizing = engine::PoolSizing::Fixed;
    pool.gpus = 8;
    pool.tier = engine::PoolTier::Reserved1y;
    s.pools.push_back(pool);
    if (push(std::nullopt, s, tr("New scenario %1").arg(qs(s.name))))
        setStatus(tr("Added %1: add pools and assign workloads to them.").arg(qs(s.name)));
}

void ScenariosPage::duplicateScenario()
{
    auto s = m_workspace.scenario(currentName());
    if (!s)
        return;
    const std::string base = s->name + " (copy)";
    s->name = base;
    for (int n = 2; m_workspace.scenarioSummary(qs(s->name)); ++n)
        s->name = base + ' ' + std::to_string(n);
    if (push(std::nullopt, s, tr("Duplicate %1").arg(currentName())))
        setStatus(tr("Duplicated as %1.").arg(qs(s->name)));
}

void ScenariosPage::renameWithDialog()
{
    const QString name = currentName();
    if (name.isEmpty())
        return;
    const QString next = Dialogs::textInput(this, tr("Rename scenario"), tr("New name:"), name);
    if (next.trimmed().isEmpty() || next.trimmed() == name)
        return;
    if (!renameScenario(next.trimmed()))
        Dialogs::warning(this, tr("Rename scenario"), m_lastMessage);
}

bool ScenariosPage::renameScenario(const QString &newName)
{
    return edit(tr("Rename"), -1, [&](Scenario &s) { s.name = newName.trimmed().toStdString(); });
}

void ScenariosPage::deleteScenario()
{
    const auto s = m_workspace.scenario(currentName());
    if (!s)
        return;
    const QString name = currentName();
    if (!Dialogs::question(this, tr("Delete scenario"),
                           tr("Delete the scenario \"%1\"? Edit ▸ Undo brings it back.").arg(name)))
        return;
    if (push(s, std::nullopt, tr("Delete scenario %1").arg(name)))
        setStatus(tr("Deleted %1 (Ctrl+Z brings it back).").arg(name));
}

// ---------------------------------------------------------------------------------------------
// Editor

void ScenariosPage::refreshChoices()
{
    const bool wasLoading = m_loading;
    m_loading = true;
    m_editor->refreshChoices();
    m_loading = wasLoading;
}

void ScenariosPage::loadForm()
{
    if (m_loading)
        return;
    const auto scenario = m_workspace.scenario(currentName());
    const auto summary = m_workspace.scenarioSummary(currentName());
    m_loadedVersion = summary ? summary->version : 0;
    m_shown = scenario;
    if (m_refused.values() && (!scenario || m_refused.values()->name != scenario->name))
        m_refused.clear();
    m_editor->setEnabled(scenario.has_value());
    if (scenario) {
        m_loading = true;
        // Values a conflict refused stay on top of the current version until saved or dropped.
        m_editor->load(m_refused.values() ? *m_refused.values() : *scenario);
        m_loading = false;
    } else if (m_list->rowCount() == 0) {
        setStatus(tr("No scenarios yet: New creates one (or open the demo workspace from the File menu)."));
    }
    evaluate();
}
bool ScenariosPage::edit(const QString &label, int mergeField, const std::function<void(Scenario &)> &change)
{
    if (m_loading)
        return false;
    std::optional<Scenario> before;
    QString lost;
    try {
        before = m_workspace.scenario(currentName());
    } catch (const store::ConnectionLostError &e) {
        // Offline: the edit applies to what the form shows and waits for the connection.
        before = m_shown;
        lost = e.message();
    }
    if (!before)
        return false;
    Scenario after = !lost.isEmpty() && m_refused.values() ? *m_refused.values() : *before;
    change(after);
    if (jsonOf(after) == jsonOf(*before))
        return true;
    if (!lost.isEmpty()) {
        keepUntilReconnected(lost, m_refused.offlineBase() ? m_refused.offlineBase() : before,
                             after.name == before->name ? std::optional(after) : std::nullopt);
        return false;
    }
    if (after.name != before->name && m_workspace.scenarioSummary(qs(after.name))) {
        setStatus(tr("Not saved: a scenario named \"%1\" exists already.").arg(qs(after.name)), true);
        return false;
    }
    if (!push(before, after, tr("%1 of %2").arg(label, currentName()), mergeField))
        return false;
    setStatus(tr("Saved."));
    return true;
}

bool ScenariosPage::push(const std::optional<Scenario> &before, const std::optional<Scenario> &after,
                         const QString &text, int mergeField)
{
    if (after) {
        const auto problems = engine::validate(*after);
        if (!problems.empty()) {
            setStatus(tr("Not saved: %1").arg(fieldProblemsText(problems)), true);
            // Show the stored values again rather than the refused one.
            const bool wasLoading = m_loading;
            m_loading = false;
            if (const auto stored = m_workspace.scenario(currentName())) {
                m_loading = true;
                m_editor->load(*stored);
            }
            m_loading = wasLoading;
            return false;
        }
        m_selectAfterRefresh = qs(after->name);
    }
    const QPointer<ScenariosPage> page(this);
    auto refused = [page](const QString &message) {
        if (page)
            page->showConflict(message, std::nullopt);
    };
    // A new save replaces values a conflict refused earlier (retrySave() passes them in).
    m_refused.clear();
    try {
        m_undoStack->push(scenarioChange(m_workspace, before, before ? m_loadedVersion : 0, after, text, mergeField,
                                         refused));
    } catch (const store::ConflictError &e) {
        m_selectAfterRefresh.clear();
        showConflict(e.message(), before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::ConnectionLostError &e) {
        m_selectAfterRefresh.clear();
        keepUntilReconnected(e.message(), before,
                             before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::StoreError &e) {
        m_selectAfterRefresh.clear();
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return false;
    }
    return true;
}

void ScenariosPage::keepUntilReconnected(const QString &message, const std::optional<Scenario> &base,
                                      const std::optional<Scenario> &refused)
{
    // The form keeps showing the values; nothing can be read until the connection is back.
    if (!refused || !base) {
        setStatus(tr("Not saved: %1.").arg(message), true);
        m_workspace.startReconnecting();
        return;
    }
    // The first edit while offline: later ones pile up on it, all based on this version.
    m_refused.keepOffline(*base, *refused, m_loadedVersion);
    setStatus(tr("Not saved: %1. Your values are kept and saved when the connection is back "
                 "(unless someone changed the scenario meanwhile).")
                  .arg(message),
              true);
    m_workspace.startReconnecting();
}

void ScenariosPage::saveAfterReconnect()
{
    const auto offline = m_refused.takeOffline();
    if (!offline)
        return;
    const Scenario base = offline->base;
    const Scenario mine = offline->values;
    const int64_t version = offline->version;
    std::optional<Scenario> current;
    try {
        current = m_workspace.scenario(qs(mine.name));
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return;
    }
    if (!current) {
        m_refused.clear();
        setStatus(tr("Not saved: \"%1\" was removed while the connection was down.").arg(qs(mine.name)), true);
        return;
    }
    // Based on the version the edit was made on: a change by someone else while the
    // connection was down is refused as a conflict naming them, with the edit replayed on
    // their version for a retry.
    m_loadedVersion = version;
    if (push(current, rebaseEdit(base, mine, *current), tr("Edit of %1 (saved after reconnecting)").arg(qs(mine.name))))
        setStatus(tr("Saved after reconnecting."));
}

// ---------------------------------------------------------------------------------------------
// Evaluation

QWidget *ScenariosPage::buildResults()
{
    m_resultTabs = new QTabWidget(this);
    m_resultTabs->setObjectName("scenarioResultTabs");
    const auto newTable = [this](const char *name) { return newResultsTable(name); };
    m_evaluation = new ScenarioEvaluationView(
        m_workspace, {newTable, [this](const char *name) { return newExplanation(name); }}, this);
    m_compare = new ScenarioComparePanel(m_workspace, newTable, this);
    connect(m_compare, &ScenarioComparePanel::compareUpdated, this, &ScenariosPage::compareUpdated);
    m_yaml = new ScenarioYamlPanel(m_workspace, [this] { return currentName(); }, this);
    connect(m_yaml, &ScenarioYamlPanel::yamlCopied, this, [this] { setStatus(tr("YAML copied to the clipboard.")); });
    connect(m_yaml, &ScenarioYamlPanel::yamlSaved, this,
            [this](const QString &path) { setStatus(tr("Saved %1.").arg(path)); });

    m_resultTabs->addTab(m_evaluation, tr("&Evaluation"));
    m_resultTabs->addTab(m_compare, tr("&Compare"));
    m_resultTabs->addTab(m_yaml, tr("Deplo&yment YAML"));
    return m_resultTabs;
}

void ScenariosPage::evaluate()
{
    m_result.reset();
    m_error.clear();
    const auto scenario = m_workspace.scenario(currentName());
    if (scenario) {
        try {
            m_result = engine::evaluateScenario(*scenario, store::scenarioInputs(m_workspace));
        } catch (const engine::InputError &e) {
            m_error = tr("Cannot evaluate %1: %2").arg(currentName(), QString::fromUtf8(e.what()));
        }
    }
    m_evaluation->showResult(m_result, m_error, currentName());
    if (m_result)
        m_editor->showDefaultStartDate(qs(m_result->startDate));
    m_yaml->refresh(m_result);
    emit evaluated();
}

QStringList ScenariosPage::warningTexts() const
{
    QStringList texts;
    if (m_result)
        for (const auto &w : m_result->warnings)
            texts << qs(w.message);
    return texts;
}

QString ScenariosPage::statusText() const
{
    return m_status->text();
}

// ---------------------------------------------------------------------------------------------
// Compare

void ScenariosPage::setCompared(const QStringList &names)
{
    m_compare->setCompared(names);
}

const std::optional<engine::ScenarioComparison> &ScenariosPage::comparison() const
{
    return m_compare->comparison();
}

const std::vector<engine::ScenarioResult> &ScenariosPage::comparedResults() const
{
    return m_compare->results();
}

QStringList ScenariosPage::compared() const
{
    return m_compare ? m_compare->compared() : QStringList();
}

void ScenariosPage::updateCompare()
{
    if (m_compare)
        m_compare->refresh();
}

// ---------------------------------------------------------------------------------------------
// Deployment YAML

QString ScenariosPage::yamlText() const
{
    return m_yaml->yamlText();
}

void ScenariosPage::showYaml(const QString &kind)
{
    m_yaml->showYaml(kind);
}

bool ScenariosPage::saveYaml(const QString &path, QString *error, store::ExistingFile existing) const
{
    return m_yaml->saveYaml(path, error, existing);
}

void ScenariosPage::saveYamlWithDialog()
{
    m_yaml->saveYamlWithDialog();
}

// ---------------------------------------------------------------------------------------------

QList<ChartPanel *> ScenariosPage::chartPanels() const
{
    return m_compare->chartPanels();
}

std::optional<ChartFigure> ScenariosPage::currentFigure() const
{
    if (m_resultTabs->currentIndex() == 1)
        return m_compare->currentFigure();
    return m_evaluation->diagram()->figure();
}

std::optional<DeckTable> ScenariosPage::currentTable() const
{
    if (m_resultTabs->currentIndex() == 1)
        return m_compare->comparison() ? snapshotTable(*m_compare->table()) : std::nullopt;
    return m_result ? snapshotTable(*m_evaluation->table()) : std::nullopt;
}

QJsonObject ScenariosPage::currentTableSource() const
{
    if (m_resultTabs->currentIndex() == 1) {
        if (!m_compare->comparison())
            return {};
        std::vector<std::string> names;
        for (const QString &name : m_compare->compared())
            names.push_back(name.toStdString());
        return scenarioReportSource(kComparisonTableSource, names);
    }
    return m_result ? scenarioReportSource(kPoolsTableSource, {m_result->name}) : QJsonObject();
}

void ScenariosPage::setStatus(const QString &text, bool error)
{
    m_lastMessage = text;
    m_status->setText(error ? QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text.toHtmlEscaped()) : text);
}

void ScenariosPage::showConflict(const QString &message, const std::optional<Scenario> &refused)
{
    m_refused.clear();
    refreshList();  // the current version, and the version later saves are based on
    if (refused && refused->name == currentName().toStdString()) {
        m_refused.keep(*refused);
        loadForm();
        setStatus(tr("Not saved: %1 The current version is shown with your values on top: "
                     "“Save my values again” saves them over it.")
                      .arg(message),
                  true);
        return;
    }
    setStatus(tr("Not saved: %1 The current version is shown.").arg(message), true);
}

bool ScenariosPage::retrySave()
{
    if (!m_refused.values())
        return false;
    const Scenario wanted = *m_refused.values();
    std::optional<Scenario> before;
    try {
        before = m_workspace.scenario(qs(wanted.name));
    } catch (const store::ConnectionLostError &e) {
        setStatus(tr("Not saved: %1. Your values are kept and saved when the connection is back.").arg(e.message()),
                  true);
        m_workspace.startReconnecting();
        return false;
    }
    if (!before) {
        m_refused.clear();
        setStatus(tr("Not saved: the scenario \"%1\" no longer exists.").arg(qs(wanted.name)), true);
        return false;
    }
    if (!push(before, wanted, tr("Edit of %1 (saved again)").arg(qs(wanted.name))))
        return false;
    setStatus(tr("Saved."));
    return true;
}

void ScenariosPage::showHistory()
{
    const QString name = currentName();
    if (name.isEmpty())
        return;
    ScenarioHistoryDialog dialog(m_workspace, name, this);
    if (dialog.exec() == QDialog::Accepted && dialog.chosenVersion() > 0)
        restoreVersion(dialog.chosenVersion());
}

bool ScenariosPage::restoreVersion(int64_t version)
{
    const QString name = currentName();
    const auto before = m_workspace.scenario(name);
    const auto old = m_workspace.scenarioAtVersion(name, version);
    if (!before || !old) {
        setStatus(tr("Not restored: \"%1\" has no version %2.").arg(name).arg(version), true);
        return false;
    }
    if (!push(before, old, tr("Restore version %1 of %2").arg(version).arg(name)))
        return false;
    setStatus(tr("Restored version %1 as version %2 (Ctrl+Z takes it back).").arg(version).arg(m_loadedVersion));
    return true;
}

} // namespace headroom::ui
