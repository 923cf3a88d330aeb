#pragma once

#include "scenarioeditor.h"

#include <QTableWidget>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The GPU pools of the scenario editor, one row each with its editors: name, GPU, sizing,
// GPU count, tier, sharing, MIG layout and owned rate, shown in three views so that each fits
// a narrow editor (GPUs; pricing; sharing — the pool's name in each). Every change goes to the
// editor's save function as one undoable step; a pool cell's changes merge with the previous
// step of the same cell.
class ScenarioPoolsTable : public QTableWidget {
    Q_OBJECT
public:
    ScenarioPoolsTable(store::Workspace &workspace, ScenarioEditor::SaveEdit saveEdit, QWidget *parent = nullptr);

    // Shows the pools of `scenario`, rebuilding the rows when their number changed.
    void load(const engine::Scenario &scenario);
    // Adds an elastic on-demand pool when a static one exists, else a static one.
    void addPool();
    // Removes the pool of the selected row (the last when none is selected).
    void removePool();

    enum View { GpusView, PricingView, SharingView };
    // The names of the views, in order.
    static QStringList viewNames();
    // Shows the columns of `view` (a View).
    void showView(int view);

signals:
    // A value was not saved because it could not be read; `message` says why.
    void inputRejected(const QString &message);

private:
    void editPool(int row, const QString &label, int mergeField, const std::function<void(engine::Pool &)> &change);

    store::Workspace &m_workspace;
    ScenarioEditor::SaveEdit m_saveEdit;
};

} // namespace headroom::ui
