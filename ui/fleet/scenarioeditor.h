#pragma once

#include "engine/fleet/scenario.h"

#include <QString>
#include <QWidget>
#include <functional>
#include <vector>

class QComboBox;
class QFormLayout;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ScenarioPoolsTable;

// The Scenarios page's editor of one scenario: identity and term, rate card, GPU pools,
// workload and training-job assignment, autoscaling and the reserve-and-pack policy. It
// shows a scenario (load) and hands every change to the page's save function, which makes
// it one undoable step; it never writes to the workspace itself.
class ScenarioEditor : public QWidget {
    Q_OBJECT
public:
    // Applies a change to the stored scenario as one undoable step, merging with the previous
    // step of the same merge field (-1: never merged). False when nothing was saved.
    using SaveEdit = std::function<bool(const QString &label, int mergeField,
                                        const std::function<void(engine::Scenario &)> &change)>;

    ScenarioEditor(store::Workspace &workspace, SaveEdit saveEdit, QWidget *parent = nullptr);

    // Shows `scenario` in every field without saving anything.
    void load(const engine::Scenario &scenario);
    // Refills the rate card choices from the workspace, keeping the one chosen.
    void refreshChoices();
    // The start date used when the field is empty, shown as its placeholder (yyyy-mm-dd).
    void showDefaultStartDate(const QString &date);

signals:
    // A value was not saved because it could not be read; `message` says why.
    void inputRejected(const QString &message);

private:
    // One editor bound to a part of the scenario.
    struct Binding {
        std::function<void(const engine::Scenario &)> load;
        QString label;
    };
    void addLine(QFormLayout *form, const QString &label, const char *name, const QString &tip,
                 std::function<QString(const engine::Scenario &)> get,
                 std::function<void(engine::Scenario &, const QString &)> set);
    void loadAssignments(const engine::Scenario &scenario);
    bool edit(const QString &label, int mergeField, const std::function<void(engine::Scenario &)> &change);

    store::Workspace &m_workspace;
    SaveEdit m_saveEdit;
    QComboBox *m_rateCard = nullptr;
    ScenarioPoolsTable *m_pools = nullptr;
    QTableWidget *m_assign = nullptr;
    std::string m_assignScenario;  // the scenario whose rows m_assign shows, in their shown order
    std::vector<Binding> m_bindings;
    bool m_loading = false;
};

} // namespace headroom::ui
