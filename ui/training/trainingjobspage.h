#pragma once

#include "engine/training/training.h"
#include "common/page.h"
#include "common/refusededit.h"

#include <QString>
#include <cstdint>
#include <optional>

class QLabel;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class NameList;
class TrainingJobForm;

// Training jobs (Inputs): training runs — model or parameter count, tokens, batch, GPU and
// achieved throughput, target window or GPU count, parallelism and ZeRO stage, interconnect,
// schedule and preemption — edited in a form where every change is validated, saved at once
// and undoable (a spin-box drag is one undo step).
class TrainingJobsPage : public Page {
    Q_OBJECT
public:
    TrainingJobsPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);

    QString currentName() const;
    void selectJob(const QString &name);
    void addJob();
    void duplicateJob();
    // Renames the current job (one undo step); false with the reason in the status line.
    bool renameJob(const QString &newName);
    void renameJobWithDialog();
    void deleteJob();
    void importJsonWithDialog();
    void exportJsonWithDialog();
    QString statusText() const;
    // The stored version the form shows; later saves are based on it.
    int64_t loadedVersion() const;
    // True after a save refused by another user's change, until saved again or discarded.
    bool hasRefusedValues() const;
    // Saves the refused values over the version now stored; false with the reason shown.
    bool retrySave();

private:
    QWidget *buildForm();
    void refreshList();
    void refreshCatalogChoices();
    void loadForm();
    void commitField(int index);
    bool pushChange(const std::optional<engine::TrainingJob> &before, const std::optional<engine::TrainingJob> &after,
                    const QString &text, int mergeField = -1);
    void setStatus(const QString &text, bool error = false);
    // Shows why a save was refused and reloads; `refused` (the values that were not saved,
    // for the current job) stays on the form for a retry.
    void showConflict(const QString &message, const std::optional<engine::TrainingJob> &refused);
    // A save failed because the server connection was lost: keeps `refused` on the form and
    // saves it once the workspace has reconnected (saveAfterReconnect).
    void keepUntilReconnected(const QString &message, const std::optional<engine::TrainingJob> &base,
                              const std::optional<engine::TrainingJob> &refused);
    void saveAfterReconnect();

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    NameList *m_list = nullptr;
    TrainingJobForm *m_form = nullptr;
    QLabel *m_status = nullptr;
    int64_t m_loadedVersion = 0;
    std::optional<engine::TrainingJob> m_shown;  // the stored version the form was loaded from
    RefusedEdit<engine::TrainingJob> m_refused;  // values a conflict or a lost connection refused
    bool m_loading = false;
    bool m_emptyNotice = false; // the status says there is nothing to edit
};

} // namespace headroom::ui
