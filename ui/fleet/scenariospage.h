#pragma once

#include "engine/fleet/scenario.h"
#include "common/page.h"
#include "common/refusededit.h"
#include "store/common/exportfile.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

class QLabel;
class QTabWidget;
class QTableWidget;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;
class ScenarioComparePanel;
class ScenarioEditor;
class ScenarioEvaluationView;
class ScenarioYamlPanel;

// Scenarios (Outputs, DESIGN §3.9): fleet scenarios listed with author, version and last
// change; an editor for identity, rate card, GPU pools, workload and training-job assignment,
// autoscaling and the reserve-and-pack policy, where every edit is saved at once and undoable;
// a live evaluation (pools, GPUs, utilization, exact cost, warnings, the static base / elastic
// top diagram); a comparison of 2–4 scenarios against a baseline; and the KEDA / DRA YAML a
// platform team deploys for the elastic tier.
class ScenariosPage : public Page {
    Q_OBJECT
public:
    ScenariosPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    // The diagram on the Evaluation tab, the shown comparison chart on the Compare tab.
    std::optional<ChartFigure> currentFigure() const override;
    // The comparison table on the Compare tab, else the evaluated pools.
    std::optional<DeckTable> currentTable() const override;
    QJsonObject currentTableSource() const override;

    QString currentName() const;
    void selectScenario(const QString &name);
    void newScenario();
    void duplicateScenario();
    // Asks for the new name; renameScenario(name) does it directly. False with the reason shown.
    void renameWithDialog();
    bool renameScenario(const QString &newName);
    // Asks for confirmation first.
    void deleteScenario();

    // The stored version the editor shows; every save is based on it and refused (with who
    // changed it and when) if someone else saved another version meanwhile. The page then
    // shows the current version with the refused values on top, for retrySave().
    int64_t loadedVersion() const { return m_loadedVersion; }
    bool hasRefusedValues() const { return m_refused.values().has_value(); }
    // Saves the refused values over the version now shown (one undoable step).
    bool retrySave();
    // The History dialog of the selected scenario: versions, authors, times, Restore.
    void showHistory();
    // Saves version `version`'s document again as a new version (one undoable step).
    bool restoreVersion(int64_t version);

    // The evaluation of the selected scenario, or the reason it could not be evaluated.
    const std::optional<engine::ScenarioResult> &result() const { return m_result; }
    QString errorText() const { return m_error; }
    QStringList warningTexts() const;
    QString statusText() const;

    // Compare mode: 2–4 scenario names, the first being the baseline.
    void setCompared(const QStringList &names);
    QStringList compared() const;
    const std::optional<engine::ScenarioComparison> &comparison() const;
    const std::vector<engine::ScenarioResult> &comparedResults() const;

    // The deployment YAML shown (KEDA ScaledObject or DRA ResourceClaimTemplate).
    QString yamlText() const;
    void showYaml(const QString &kind); // "keda" | "dra"
    // Writes the YAML shown through a store::ExportFile (whole or not at all; never through a
    // symbolic link; an existing file only with Replace).
    bool saveYaml(const QString &path, QString *error,
                  store::ExistingFile existing = store::ExistingFile::Refuse) const;
    // Asks for a file with Dialogs::exportFileName (confirming a replace) and saves the YAML.
    void saveYamlWithDialog();

signals:
    void evaluated();
    void compareUpdated();

private:
    QWidget *buildList();
    QWidget *buildResults();
    void refreshList();
    void refreshChoices();
    void loadForm();
    // Applies `change` to the stored scenario as one undoable step (merging with the previous
    // step of the same `mergeField`); invalid results are refused with the reason shown.
    bool edit(const QString &label, int mergeField, const std::function<void(engine::Scenario &)> &change);
    bool push(const std::optional<engine::Scenario> &before, const std::optional<engine::Scenario> &after,
              const QString &text, int mergeField = -1);
    void evaluate();
    void updateCompare();
    void setStatus(const QString &text, bool error = false);
    // A save refused by a conflict: the message, the current version reloaded, `refused` (the
    // values the user wanted) shown on top of it for a retry.
    void showConflict(const QString &message, const std::optional<engine::Scenario> &refused);
    // A save failed because the server connection was lost: keeps `refused` on the form and
    // saves it once the workspace has reconnected (saveAfterReconnect).
    void keepUntilReconnected(const QString &message, const std::optional<engine::Scenario> &base,
                              const std::optional<engine::Scenario> &refused);
    void saveAfterReconnect();

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    QTableWidget *m_list = nullptr;
    ScenarioEditor *m_editor = nullptr;
    QLabel *m_status = nullptr;
    QString m_lastMessage; // the status as plain text
    bool m_loading = false;
    QString m_selectAfterRefresh;
    int64_t m_loadedVersion = 0;
    std::optional<engine::Scenario> m_shown;  // the stored version the form was loaded from
    RefusedEdit<engine::Scenario> m_refused;

    QTabWidget *m_resultTabs = nullptr;
    ScenarioEvaluationView *m_evaluation = nullptr;
    std::optional<engine::ScenarioResult> m_result;
    QString m_error;
    ScenarioComparePanel *m_compare = nullptr;
    ScenarioYamlPanel *m_yaml = nullptr;
};

} // namespace headroom::ui
