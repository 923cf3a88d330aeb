#pragma once

#include "common/chartexport.h"
#include "engine/fleet/scenario.h"

#include <QStringList>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QTabWidget;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// The Compare tab of the Scenarios page: 2–4 ticked scenarios evaluated side by side against
// a baseline, as a table of metrics with deltas and as cost, GPU and utilization charts.
class ScenarioComparePanel : public QWidget {
    Q_OBJECT
public:
    // `newTable` makes the page's read-only results table (Page::newResultsTable).
    ScenarioComparePanel(store::Workspace &workspace, const std::function<QTableWidget *(const char *)> &newTable,
                         QWidget *parent = nullptr);

    // The scenarios that can be ticked, keeping the ticks of those still there.
    void setScenarios(const QStringList &names);
    // 2–4 scenario names, the first being the baseline.
    void setCompared(const QStringList &names);
    QStringList compared() const;
    // Evaluates the ticked scenarios again from the workspace.
    void refresh();

    const std::optional<engine::ScenarioComparison> &comparison() const { return m_comparison; }
    const std::vector<engine::ScenarioResult> &results() const { return m_compareResults; }
    QList<ChartPanel *> chartPanels() const;
    // The chart on the chart tab shown, when there is a comparison.
    std::optional<ChartFigure> currentFigure() const;
    QTableWidget *table() const { return m_compareTable; }

signals:
    void compareUpdated();

private:
    store::Workspace &m_workspace;
    QListWidget *m_compareList = nullptr;
    QComboBox *m_baseline = nullptr;
    QTableWidget *m_compareTable = nullptr;
    QTabWidget *m_compareCharts = nullptr;
    ChartPanel *m_costChart = nullptr;
    ChartPanel *m_gpuChart = nullptr;
    ChartPanel *m_utilChart = nullptr;
    QLabel *m_compareNote = nullptr;
    std::optional<engine::ScenarioComparison> m_comparison;
    std::vector<engine::ScenarioResult> m_compareResults;
};

} // namespace headroom::ui
