#pragma once

#include "engine/inference/inference_sizing.h"
#include "engine/inference/sizing_options.h"
#include "common/page.h"

#include <QString>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// Inference sizing (DESIGN §3.2): replicas and GPUs for a workload at its SLOs, which
// constraint binds, the what-ifs (GPU, precision, hit rate, TP, disaggregation), the KV
// residency model, the best options by cost, and how the number came about step by step.
// The what-ifs start from the workload and follow its edits until changed here; "Reset to
// workload" takes them back.
class SizingPage : public Page {
    Q_OBJECT
public:
    // The serving assumptions dialog pushes its change onto `undoStack`.
    SizingPage(store::Workspace &workspace, QUndoStack *undoStack = nullptr, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    void selectWorkload(const QString &name);
    const std::optional<engine::SizingResult> &result() const { return m_result; }
    const std::vector<engine::WhatIf> &whatIfs() const { return m_whatIfs; }
    const std::vector<engine::SizingOption> &options() const { return m_options; }
    bool whatIfsEdited() const { return m_whatIfsEdited; }
    QString explanation() const;

signals:
    void recomputed();

private:
    QWidget *buildInputs();
    void refreshProviders();
    void fillProviders();
    void refreshWorkloads();
    void refreshCatalogChoices();
    void loadWorkloadDefaults();
    void seedWhatIfs(const engine::WorkloadProfile &workload);
    void whatIfEdited();
    void resetToWorkload();
    void recompute();
    void servingAssumptionsChanged();
    void showInfeasible(const engine::SizingResult &r);
    void showOptions();
    void showResult(const engine::WorkloadProfile &workload, const engine::SizingResult &r);

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack = nullptr;
    engine::ServingAssumptions m_serving;
    QLabel *m_servingSummary = nullptr;
    QComboBox *m_workload = nullptr;
    QComboBox *m_gpu = nullptr;
    QComboBox *m_weights = nullptr;
    QComboBox *m_kv = nullptr;
    QDoubleSpinBox *m_hitRate = nullptr;
    QSpinBox *m_tp = nullptr;
    QCheckBox *m_disaggregate = nullptr;
    QComboBox *m_residency = nullptr;
    QPushButton *m_reset = nullptr;
    QLabel *m_whatIfState = nullptr;
    QLabel *m_inFlightCard = nullptr;
    QTableWidget *m_optionTable = nullptr;
    QComboBox *m_optionProvider = nullptr;  // "" = each GPU's cheapest card
    QLabel *m_replicasCard = nullptr;
    QLabel *m_gpusCard = nullptr;
    QLabel *m_bindingCard = nullptr;
    QLabel *m_goodputCard = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    ChartPanel *m_hitRateChart = nullptr;
    ChartPanel *m_typeChart = nullptr;
    QTableWidget *m_steps = nullptr;
    QLabel *m_explanation = nullptr;
    std::optional<engine::SizingResult> m_result;
    std::vector<engine::WhatIf> m_whatIfs;
    std::vector<engine::SizingOption> m_options;
    QString m_seededWorkload;            // the workload the what-ifs were seeded from
    bool m_updating = false;
    bool m_whatIfsEdited = false;        // changed on this page since the last seeding
};

} // namespace headroom::ui
