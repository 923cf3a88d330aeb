#pragma once

#include "engine/fleet/capacity_mix.h"
#include "engine/catalog/ratecard.h"
#include "engine/training/training.h"
#include "common/page.h"
#include "trainingsizing.h"

#include <QString>
#include <map>
#include <optional>
#include <vector>

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

// Training sizing (DESIGN §3.3): GPUs and whole nodes that finish a job in its window (or days
// on a GPU count), GPU-hours and cost at a rate card's price, memory per GPU under each ZeRO
// stage, communication overhead and preemption loss; the cluster shared with the workspace's
// inference workloads, partitioned versus dynamically shared; and capacity growth over 24
// months with the reservation lead time. Recomputes on every input change.
class TrainingPage : public Page {
    Q_OBJECT
public:
    // Price of a GPU-hour taken from the rate card.
    using PriceTerm = TrainingPriceTerm;

    explicit TrainingPage(store::Workspace &workspace, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    QJsonObject currentTableSource() const override;
    void selectJob(const QString &name);
    void selectRateCard(const QString &key); // "" = no price
    const std::optional<engine::TrainingPlan> &plan() const { return m_analysis.plan; }
    const std::optional<engine::MixResult> &mix() const { return m_analysis.mix; }
    const std::vector<engine::GrowthMonth> &growth() const { return m_analysis.growth; }
    const std::vector<engine::DaysPoint> &daysCurve() const { return m_analysis.daysCurve; }
    QString explanation() const;
    QString errorText() const { return m_analysis.error; }

signals:
    void recomputed();

private:
    QWidget *buildInputs();
    void refreshJobs();
    void refreshRateCards();
    void recompute();
    TrainingPageInputs inputs() const;
    void showPlan(const engine::TrainingJob &job, const engine::GpuSpec &gpu);
    void showMix();
    void showError(const QString &message);
    // Sets the panel's figure now when its tab is shown, else when it is shown or asked for.
    void showFigure(ChartPanel *panel, ChartFigure figure);
    void flushFigures() const;

    store::Workspace &m_workspace;
    QComboBox *m_job = nullptr;
    QComboBox *m_rateCard = nullptr;
    QComboBox *m_term = nullptr;
    QSpinBox *m_horizonWeeks = nullptr;
    QSpinBox *m_sharedPool = nullptr;
    QDoubleSpinBox *m_inferenceGrowth = nullptr;
    QDoubleSpinBox *m_trainingGrowth = nullptr;
    QSpinBox *m_installed = nullptr;
    QLabel *m_gpusCard = nullptr;
    QLabel *m_daysCard = nullptr;
    QLabel *m_gpuHoursCard = nullptr;
    QLabel *m_costCard = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    ChartPanel *m_memoryChart = nullptr;
    ChartPanel *m_daysChart = nullptr;
    ChartPanel *m_mixChart = nullptr;
    ChartPanel *m_growthChart = nullptr;
    class GoodputPanel *m_goodput = nullptr;
    class ClusterPanel *m_cluster = nullptr;
    QTableWidget *m_table = nullptr;
    QTableWidget *m_mixTable = nullptr;
    QTableWidget *m_layoutTable = nullptr;   // the search's fastest layouts
    QLabel *m_explanation = nullptr;

    mutable std::map<ChartPanel *, ChartFigure> m_pendingFigures;
    TrainingAnalysis m_analysis;   // what is shown
    bool m_updating = false;
};

} // namespace headroom::ui
