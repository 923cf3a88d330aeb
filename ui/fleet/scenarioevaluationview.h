#pragma once

#include "engine/fleet/scenario.h"

#include <QSplitter>
#include <QString>
#include <functional>
#include <optional>

class QLabel;
class QListWidget;
class QTabWidget;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ScenarioDiagramView;

// The Evaluation tab of the Scenarios page: the static base / elastic top diagram above two
// views of the pools — capacity (GPUs, peak need, planned headroom, spare GPUs, utilization)
// and cost (rate, exact cost per day, 30-day month and term) — a summary in words and the
// warnings of one evaluated scenario.
class ScenarioEvaluationView : public QSplitter {
    Q_OBJECT
public:
    // The page's read-only results table and explanation label (Page::newResultsTable,
    // Page::newExplanation), made with the given object names.
    struct ResultWidgets {
        std::function<QTableWidget *(const char *objectName)> table;
        std::function<QLabel *(const char *objectName)> explanation;
    };

    ScenarioEvaluationView(store::Workspace &workspace, const ResultWidgets &make, QWidget *parent = nullptr);

    // Shows the evaluation of scenario `name`, or `error` when there is none.
    void showResult(const std::optional<engine::ScenarioResult> &result, const QString &error, const QString &name);

    ScenarioDiagramView *diagram() const { return m_diagram; }
    QTableWidget *capacityTable() const { return m_capacityTable; }
    QTableWidget *costTable() const { return m_costTable; }
    // The table of the view shown (capacity or cost).
    QTableWidget *table() const;

private:
    void showCapacity(const engine::ScenarioResult &r);
    void showCost(const engine::ScenarioResult &r, const engine::ScenarioMoneyTable &money);

    store::Workspace &m_workspace;
    ScenarioDiagramView *m_diagram = nullptr;
    QTabWidget *m_tableTabs = nullptr;
    QTableWidget *m_capacityTable = nullptr;
    QTableWidget *m_costTable = nullptr;
    QListWidget *m_warnings = nullptr;
    QLabel *m_summary = nullptr;
};

} // namespace headroom::ui
