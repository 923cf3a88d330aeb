#pragma once

#include "engine/inference/workload.h"
#include "common/page.h"

#include <QString>
#include <functional>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QTableWidget;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class NameList;

// Workloads (Inputs): workload profiles — users, requests, a 24-hour diurnal shape, token
// percentiles, cache hit rate, SLOs, measured goodput — edited in a form where every change
// is validated, saved at once and undoable. Request traces refine a profile.
class WorkloadsPage : public Page {
    Q_OBJECT
public:
    WorkloadsPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);

    QString currentName() const;
    void selectWorkload(const QString &name);
    void addWorkload();
    void duplicateWorkload();
    void deleteWorkload();
    // Reads an Azure CSV or Mooncake JSONL trace and refines the current profile (one undo
    // step); false with the reason.
    bool importTrace(const QString &path, QString *error);
    void importTraceWithDialog();
    void importJsonWithDialog();
    void exportJsonWithDialog();
    QString statusText() const;

private:
    // One form editor bound to a field of the profile.
    struct Binding {
        QWidget *editor = nullptr;
        std::function<void(const engine::WorkloadProfile &)> load;
        std::function<void(engine::WorkloadProfile &)> store;
        QString label;
    };
    QWidget *buildForm();
    void addNumber(QFormLayout *form, const QString &label, const char *name, const QString &suffix,
                   double min, double max, int decimals, const QString &tip,
                   std::function<double(const engine::WorkloadProfile &)> get,
                   std::function<void(engine::WorkloadProfile &, double)> set);
    void bind(QWidget *editor, const QString &label, std::function<void(const engine::WorkloadProfile &)> load,
              std::function<void(engine::WorkloadProfile &)> store);
    void refreshList();
    void refreshCatalogChoices();
    void loadForm();
    void commitField(int index);
    // Workload JSON keys and the labels of their fields, for messages in words.
    static std::vector<std::pair<QString, QString>> fieldLabels();
    bool pushChange(const std::optional<engine::WorkloadProfile> &before,
                    const std::optional<engine::WorkloadProfile> &after, const QString &text, int mergeField = -1);
    void setStatus(const QString &text, bool error = false);

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    NameList *m_list = nullptr;
    QWidget *m_form = nullptr;
    QComboBox *m_model = nullptr;
    QComboBox *m_gpu = nullptr;
    QComboBox *m_diurnalPreset = nullptr;
    QTableWidget *m_diurnal = nullptr;
    QLabel *m_status = nullptr;
    std::vector<Binding> m_bindings;
    bool m_loading = false;
};

} // namespace headroom::ui
