#pragma once

#include "engine/inference_sizing.h"
#include "page.h"

#include <QString>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// Inference sizing (DESIGN §3.2): replicas and GPUs for a workload at its SLOs, which
// constraint binds, the what-ifs (GPU, precision, hit rate, TP, disaggregation), and how the
// number came about step by step.
class SizingPage : public Page {
    Q_OBJECT
public:
    explicit SizingPage(store::Workspace &workspace, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    void selectWorkload(const QString &name);
    const std::optional<engine::SizingResult> &result() const { return m_result; }
    const std::vector<engine::WhatIf> &whatIfs() const { return m_whatIfs; }
    QString explanation() const;

signals:
    void recomputed();

private:
    QWidget *buildInputs();
    void refreshWorkloads();
    void refreshCatalogChoices();
    void loadWorkloadDefaults();
    void recompute();
    void showResult(const engine::WorkloadProfile &workload, const engine::SizingResult &r);

    store::Workspace &m_workspace;
    QComboBox *m_workload = nullptr;
    QComboBox *m_gpu = nullptr;
    QComboBox *m_weights = nullptr;
    QComboBox *m_kv = nullptr;
    QDoubleSpinBox *m_hitRate = nullptr;
    QSpinBox *m_tp = nullptr;
    QCheckBox *m_disaggregate = nullptr;
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
    bool m_updating = false;
};

} // namespace headroom::ui
