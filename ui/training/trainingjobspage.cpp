#include "trainingjobspage.h"

#include "common/dialogs.h"
#include "common/format.h"
#include "store/common/exportfile.h"
#include "store/common/storeerror.h"
#include "store/training/trainingjson.h"
#include "store/common/workspace.h"
#include "common/entitycommand.h"
#include "common/namelist.h"
#include "trainingjobform.h"

#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

using engine::TrainingJob;

} // namespace

TrainingJobsPage::TrainingJobsPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("trainingJobsPage");
    m_list = new NameList(this);
    m_list->setObjectName("trainingJobList");
    m_list->setMinimumWidth(200);
    auto *add = new QPushButton(tr("&Add"), this);
    auto *duplicate = new QPushButton(tr("D&uplicate"), this);
    auto *rename = new QPushButton(tr("&Rename…"), this);
    auto *remove = new QPushButton(tr("&Delete"), this);
    auto *importJson = new QPushButton(tr("Import JSON…"), this);
    auto *exportJson = new QPushButton(tr("Export JSON…"), this);
    add->setToolTip(tr("Add a training job with example values"));
    duplicate->setToolTip(tr("Copy the selected job under a new name"));
    rename->setToolTip(tr("Give the selected job another name"));
    remove->setToolTip(tr("Delete the selected job (Ctrl+Z brings it back)"));
    importJson->setToolTip(tr("Read a training job from a JSON file (format in data/samples/training-job.json)"));
    exportJson->setToolTip(tr("Write the selected job as a JSON file"));
    connect(add, &QPushButton::clicked, this, &TrainingJobsPage::addJob);
    connect(duplicate, &QPushButton::clicked, this, &TrainingJobsPage::duplicateJob);
    connect(rename, &QPushButton::clicked, this, &TrainingJobsPage::renameJobWithDialog);
    connect(remove, &QPushButton::clicked, this, &TrainingJobsPage::deleteJob);
    connect(importJson, &QPushButton::clicked, this, &TrainingJobsPage::importJsonWithDialog);
    connect(exportJson, &QPushButton::clicked, this, &TrainingJobsPage::exportJsonWithDialog);

    m_status = new QLabel(this);
    m_status->setObjectName("trainingJobStatus");
    auto *retryButton = newRetryButton(this, "trainingJobRetry");
    m_refused.setRetryButton(retryButton);
    connect(retryButton, &QPushButton::clicked, this, &TrainingJobsPage::retrySave);
    layOutEditorPage(this, m_list, {{add, duplicate}, {rename, remove}, {importJson, exportJson}}, buildForm(),
                     m_status, retryButton);

    connect(m_list, &QListWidget::currentTextChanged, this, [this] { loadForm(); });
    connect(&m_workspace, &store::Workspace::trainingJobsChanged, this, &TrainingJobsPage::refreshList);
    connect(&m_workspace, &store::Workspace::connectionRestored, this, &TrainingJobsPage::saveAfterReconnect);
    connect(&m_workspace, &store::Workspace::modelsChanged, this, &TrainingJobsPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::gpusChanged, this, &TrainingJobsPage::refreshCatalogChoices);
    refreshCatalogChoices();
    refreshList();
}

QWidget *TrainingJobsPage::buildForm()
{
    m_form = new TrainingJobForm(m_workspace);
    connect(m_form, &TrainingJobForm::fieldEdited, this, &TrainingJobsPage::commitField);
    return m_form;
}

void TrainingJobsPage::refreshCatalogChoices()
{
    const bool wasLoading = m_loading;
    m_loading = true;
    m_form->refreshCatalogChoices();
    m_loading = wasLoading;
    loadForm();
}

void TrainingJobsPage::refreshList()
{
    QStringList names;
    for (const auto &job : m_workspace.trainingJobs())
        names << QString::fromStdString(job.name);
    const bool wasLoading = m_loading;
    m_loading = true;
    m_list->setNames(names);
    m_loading = wasLoading;
    loadForm();
}

QString TrainingJobsPage::currentName() const
{
    return m_list->currentName();
}

void TrainingJobsPage::selectJob(const QString &name)
{
    m_list->selectName(name);
}

void TrainingJobsPage::loadForm()
{
    if (m_loading)
        return;
    const auto record = m_workspace.trainingJobRecord(currentName());
    m_loadedVersion = record ? record->version : 0;
    m_shown = record ? std::optional(record->job) : std::nullopt;
    if (m_refused.values() && (!record || m_refused.values()->name != record->job.name))
        m_refused.clear();
    // After a refused save the stored version is shown with the refused values on top.
    const std::optional<TrainingJob> job =
        !record ? std::nullopt : m_refused.values() ? m_refused.values() : std::optional(record->job);
    m_form->setEnabled(job.has_value());
    if (!job) {
        m_form->clearSummary();
        setStatus(m_list->count() == 0 ? tr("No training jobs yet: Add one, or import a JSON job.") : QString());
        m_emptyNotice = true;
        return;
    }
    if (m_emptyNotice)
        setStatus(QString());
    m_loading = true;
    m_form->load(*job);
    m_loading = false;
    m_form->showSummary(*job);
}

void TrainingJobsPage::commitField(int index)
{
    if (m_loading)
        return;
    std::optional<TrainingJob> before;
    QString lost;
    try {
        before = m_workspace.trainingJob(currentName());
    } catch (const store::ConnectionLostError &e) {
        // Offline: the edit applies to what the form shows and waits for the connection.
        before = m_shown;
        lost = e.message();
    }
    if (!before)
        return;
    TrainingJob after = !lost.isEmpty() && m_refused.values() ? *m_refused.values() : *before;
    m_form->storeField(index, after);
    if (store::trainingJobToJson(after) == store::trainingJobToJson(*before))
        return;
    if (!lost.isEmpty()) {
        keepUntilReconnected(lost, m_refused.offlineBase() ? m_refused.offlineBase() : before,
                             after.name == before->name ? std::optional(after) : std::nullopt);
        return;
    }
    if (after.name != before->name && m_workspace.trainingJob(QString::fromStdString(after.name))) {
        setStatus(tr("Not saved: a training job named \"%1\" exists already.").arg(QString::fromStdString(after.name)),
                  true);
        loadForm();
        return;
    }
    if (pushChange(before, after, tr("Edit %1 of %2").arg(m_form->fieldLabel(index), currentName()), index))
        setStatus(tr("Saved."));
}

bool TrainingJobsPage::pushChange(const std::optional<TrainingJob> &before, const std::optional<TrainingJob> &after,
                                  const QString &text, int mergeField)
{
    if (after) {
        const auto problems = engine::validate(*after);
        if (!problems.empty()) {
            setStatus(tr("Not saved: %1").arg(fieldProblemsText(problems)), true);
            return false;
        }
        m_list->selectAfterRefresh(QString::fromStdString(after->name));
    }
    // Writes are based on the version the form shows (another job's, as for an import over
    // it, on the version stored now).
    int64_t beforeVersion = 0;
    if (before) {
        const QString name = QString::fromStdString(before->name);
        const auto record = name == currentName() ? std::nullopt : m_workspace.trainingJobRecord(name);
        beforeVersion = record ? record->version : m_loadedVersion;
    }
    const QPointer<TrainingJobsPage> page(this);
    auto refused = [page](const QString &message) {
        if (page)
            page->showConflict(message, std::nullopt);
    };
    // A new save replaces values a conflict refused earlier (retrySave() passes them in).
    m_refused.clear();
    try {
        m_undoStack->push(trainingJobChange(m_workspace, before, beforeVersion, after, text, mergeField, refused));
    } catch (const store::ConflictError &e) {
        m_list->selectAfterRefresh(QString());
        showConflict(e.message(), before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::ConnectionLostError &e) {
        m_list->selectAfterRefresh(QString());
        keepUntilReconnected(e.message(), before,
                             before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return false;
    }
    return true;
}

void TrainingJobsPage::showConflict(const QString &message, const std::optional<TrainingJob> &refused)
{
    m_refused.clear();
    if (refused && refused->name == currentName().toStdString())
        m_refused.keep(*refused);
    refreshList();  // the current version, and the version later saves are based on
    if (m_refused.values()) {
        setStatus(tr("Not saved: %1 The current version is shown with your values on top: "
                     "“Save my values again” saves them over it.")
                      .arg(message),
                  true);
        return;
    }
    setStatus(tr("Not saved: %1 The current version is shown.").arg(message), true);
}

void TrainingJobsPage::keepUntilReconnected(const QString &message, const std::optional<TrainingJob> &base,
                                      const std::optional<TrainingJob> &refused)
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
                 "(unless someone changed the job meanwhile).")
                  .arg(message),
              true);
    m_workspace.startReconnecting();
}

void TrainingJobsPage::saveAfterReconnect()
{
    const auto offline = m_refused.takeOffline();
    if (!offline)
        return;
    const TrainingJob base = offline->base;
    const TrainingJob mine = offline->values;
    const int64_t version = offline->version;
    std::optional<TrainingJob> current;
    try {
        current = m_workspace.trainingJob(QString::fromStdString(mine.name));
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return;
    }
    if (!current) {
        m_refused.clear();
        setStatus(tr("Not saved: \"%1\" was removed while the connection was down.").arg(QString::fromStdString(mine.name)), true);
        return;
    }
    // Based on the version the edit was made on: a change by someone else while the
    // connection was down is refused as a conflict naming them, with the edit replayed on
    // their version for a retry.
    m_loadedVersion = version;
    if (pushChange(current, rebaseEdit(base, mine, *current), tr("Edit of %1 (saved after reconnecting)").arg(QString::fromStdString(mine.name))))
        setStatus(tr("Saved after reconnecting."));
}

bool TrainingJobsPage::retrySave()
{
    if (!m_refused.values())
        return false;
    const TrainingJob wanted = *m_refused.values();
    std::optional<TrainingJob> before;
    try {
        before = m_workspace.trainingJob(QString::fromStdString(wanted.name));
    } catch (const store::ConnectionLostError &e) {
        setStatus(tr("Not saved: %1. Your values are kept and saved when the connection is back.").arg(e.message()),
                  true);
        m_workspace.startReconnecting();
        return false;
    }
    if (!before) {
        m_refused.clear();
        setStatus(tr("Not saved: the training job \"%1\" no longer exists.").arg(QString::fromStdString(wanted.name)),
                  true);
        return false;
    }
    if (!pushChange(before, wanted, tr("Edit of %1 (saved again)").arg(QString::fromStdString(wanted.name))))
        return false;
    setStatus(tr("Saved."));
    return true;
}

bool TrainingJobsPage::hasRefusedValues() const
{
    return m_refused.values().has_value();
}

int64_t TrainingJobsPage::loadedVersion() const
{
    return m_loadedVersion;
}

void TrainingJobsPage::addJob()
{
    const auto gpus = m_workspace.gpus();
    if (gpus.empty()) {
        setStatus(tr("Add a GPU on the Catalog page first."), true);
        return;
    }
    TrainingJob job;
    int n = m_list->count() + 1;
    do {
        job.name = tr("training job %1").arg(n++).toStdString();
    } while (m_workspace.trainingJob(QString::fromStdString(job.name)));
    if (m_workspace.model(QStringLiteral("llama-3.1-8b")))
        job.modelId = "llama-3.1-8b";
    else
        job.params = 8e9;
    job.gpuId = m_workspace.gpu(QStringLiteral("h100-sxm")) ? "h100-sxm" : gpus.front().id;
    job.tokens = 1e12;
    job.seqLen = 8192;
    job.tp = 1;
    if (pushChange(std::nullopt, job, tr("Add training job %1").arg(QString::fromStdString(job.name))))
        setStatus(tr("Added %1 with example values: replace them with your run's facts.")
                      .arg(QString::fromStdString(job.name)));
}

void TrainingJobsPage::duplicateJob()
{
    auto job = m_workspace.trainingJob(currentName());
    if (!job)
        return;
    const std::string base = job->name + " (copy)";
    job->name = base;
    for (int n = 2; m_workspace.trainingJob(QString::fromStdString(job->name)); ++n)
        job->name = base + ' ' + std::to_string(n);
    pushChange(std::nullopt, *job, tr("Duplicate %1").arg(currentName()));
}

bool TrainingJobsPage::renameJob(const QString &newName)
{
    const auto before = m_workspace.trainingJob(currentName());
    if (!before)
        return false;
    const QString name = newName.trimmed();
    if (name.isEmpty()) {
        setStatus(tr("Not renamed: the name must not be empty."), true);
        return false;
    }
    if (name == currentName())
        return true;
    if (m_workspace.trainingJob(name)) {
        setStatus(tr("Not renamed: a training job named \"%1\" exists already.").arg(name), true);
        return false;
    }
    TrainingJob after = *before;
    after.name = name.toStdString();
    return pushChange(before, after, tr("Rename %1 to %2").arg(currentName(), name));
}

void TrainingJobsPage::renameJobWithDialog()
{
    if (currentName().isEmpty())
        return;
    const QString name = Dialogs::textInput(this, tr("Rename training job"), tr("New name:"), currentName());
    if (!name.isEmpty())
        renameJob(name);
}

void TrainingJobsPage::deleteJob()
{
    const auto job = m_workspace.trainingJob(currentName());
    if (!job)
        return;
    const QString name = currentName();
    if (pushChange(job, std::nullopt, tr("Delete training job %1").arg(name)))
        setStatus(tr("Deleted %1 (Ctrl+Z brings it back).").arg(name));
}

void TrainingJobsPage::importJsonWithDialog()
{
    const QString path = Dialogs::openFileName(this, tr("Import training job"), tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    try {
        const TrainingJob job = store::readTrainingJobFile(path);
        pushChange(m_workspace.trainingJob(QString::fromStdString(job.name)), job,
                   tr("Import training job %1").arg(QString::fromStdString(job.name)));
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Import failed"), tr("Nothing was imported.\n\n%1").arg(e.message()));
    }
}

void TrainingJobsPage::exportJsonWithDialog()
{
    const auto job = m_workspace.trainingJob(currentName());
    if (!job)
        return;
    const QString path = Dialogs::exportFileName(this, tr("Export training job"),
                                                 currentName() + QStringLiteral(".json"), tr("JSON files (*.json)"),
                                                 {QStringLiteral("json")});
    if (path.isEmpty())
        return;
    try {
        store::writeExportFile(path, store::trainingJobJsonText(*job), store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Export failed"), e.message());
        return;
    }
    setStatus(tr("Exported %1 to %2.").arg(currentName(), path));
}

void TrainingJobsPage::setStatus(const QString &text, bool error)
{
    m_emptyNotice = false;
    m_status->setText(error ? QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text.toHtmlEscaped()) : text);
}

QString TrainingJobsPage::statusText() const
{
    return m_status->text();
}

} // namespace headroom::ui