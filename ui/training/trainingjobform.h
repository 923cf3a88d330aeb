#pragma once

#include "engine/training/training.h"

#include <QString>
#include <QWidget>
#include <functional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The Training jobs page's form for one job: model and data, GPUs and speed, target,
// parallelism and memory, interconnect and capacity, with the job's compute in words below.
// Each field is bound to a part of the job by index: fieldEdited(index) tells that the user
// changed it, storeField(index, job) writes it into a job; the page saves.
class TrainingJobForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainingJobForm(store::Workspace &workspace, QWidget *parent = nullptr);

    // Shows `job` in every field (each change emits fieldEdited; the page ignores it while loading).
    void load(const engine::TrainingJob &job);
    // Writes field `index` as shown into `job`.
    void storeField(int index, engine::TrainingJob &job) const;
    // The field's name for undo texts ("priority").
    QString fieldLabel(int index) const;
    // The compute of `job` (6·N·D or 8·N·D FLOPs) in words; clearSummary for none.
    void showSummary(const engine::TrainingJob &job);
    void clearSummary();
    // Refills the model and GPU choices from the catalog, keeping the ones chosen.
    void refreshCatalogChoices();

signals:
    void fieldEdited(int index);

private:
    // One form editor bound to a field of the job.
    struct Binding {
        std::function<void(const engine::TrainingJob &)> load;
        std::function<void(engine::TrainingJob &)> store;
        QString label;
    };
    int bind(const QString &label, std::function<void(const engine::TrainingJob &)> load,
             std::function<void(engine::TrainingJob &)> store);
    double peakTflops(const std::string &gpuId) const;

    store::Workspace &m_workspace;
    QComboBox *m_model = nullptr;
    QComboBox *m_gpu = nullptr;
    QLabel *m_summary = nullptr;
    std::vector<Binding> m_bindings;
};

} // namespace headroom::ui
