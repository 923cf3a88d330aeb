#pragma once

#include "common/backgroundjob.h"
#include "common/page.h"

#include <QString>
#include <QStringList>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QUndoStack;

namespace headroom::engine {
struct PlanResult;
}

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;
struct PlanReport;

// Plan (Outputs, README "Portfolio plan"): the cheapest fleet for every workload of the
// workspace (over 14 in blocks: engine::planPortfolio) or for what one scenario serves, at its SLOs and the rate card's
// prices, found by engine::planPortfolio off the GUI thread with progress and Cancel. Shows the
// deployments, the pools and training jobs, why the plan wins, the runners-up and the
// cost-against-commitment front; "Create scenario…" saves the plan as a fleet scenario (one
// undoable step) that evaluateScenario prices to the same cent.
class PlanPage : public Page {
    Q_OBJECT
public:
    PlanPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);
    ~PlanPage() override;

    QList<ChartPanel *> chartPanels() const override;
    // The table on the tab shown (workloads, or pools and jobs), as displayed.
    std::optional<DeckTable> currentTable() const override;

    // Plans what scenario `name` serves; an empty name plans every workload and training job.
    void selectTarget(const QString &scenarioName);
    void run();
    void cancel();
    bool isRunning() const;

    // The last plan shown; null before a run, after bad input or a cancelled first run.
    const engine::PlanResult *result() const;
    const PlanReport *shownPlan() const { return m_shown.get(); }
    QString statusText() const;
    QString summaryText() const;

    // Asks for a name (Dialogs::textInput) and saves the plan under it.
    void createScenarioWithDialog();
    // Saves the plan shown as scenario `name` through the undo stack; false, with the reason
    // in the status, when there is no plan, the name is empty or taken, or the store refuses.
    bool createScenario(const QString &name);

    // Adds the plan's slides (planReportItems) to the window's report as one undoable step;
    // false, saying why in the status, without a plan shown or a window with a report.
    bool addToReport();
    // Asks for the PDF (Dialogs::exportFileName) and exports the plan's deck there.
    void exportDeckWithDialog();
    // Writes planDeck of the plan shown to `path` in the background, replacing a file there
    // (the caller has confirmed it), with progress and Cancel; deckExported tells the outcome.
    void exportDeck(const QString &path);

signals:
    // A run ended: completed with a plan shown, or not (bad input, cancelled).
    void finished(bool completed);
    void deckExported(bool written, const QString &message);

private:
    struct Outcome;
    QWidget *buildInputs();
    QWidget *buildResults();
    void refreshChoices();
    void targetChanged();
    // The request the form describes, or the reason it cannot be planned (in `why`).
    // Fills outcome->request (and ->against, ->notes); false with the reason in `why`.
    bool buildRequest(Outcome &outcome, QString *why) const;
    void showOutcome(const std::shared_ptr<Outcome> &outcome);
    void showResult();
    void setResultActionsEnabled(bool enabled);
    void clearResults();
    void setStatus(const QString &text, bool error = false);

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    QComboBox *m_target = nullptr;
    QComboBox *m_rateCard = nullptr;
    QSpinBox *m_horizon = nullptr;
    QCheckBox *m_spot = nullptr;
    QCheckBox *m_ownPrecisions = nullptr;
    QCheckBox *m_packMig = nullptr;
    QSpinBox *m_maxCommitted = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_create = nullptr;
    QPushButton *m_addToReport = nullptr;
    QPushButton *m_exportDeck = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_summary = nullptr;
    ChartPanel *m_front = nullptr;
    QTableWidget *m_workloads = nullptr;
    QTableWidget *m_pools = nullptr;
    QTabWidget *m_tables = nullptr;
    QLabel *m_explanation = nullptr;
    QString m_lastMessage;       // the status as plain text
    // The card and horizon chosen for "every workload", kept while a scenario shows its own.
    QStringList m_ownCard;       // provider, region
    int m_ownHorizon = 12;
    bool m_refreshing = false;
    std::unique_ptr<PlanReport> m_shown;
    BackgroundJob m_job;
};

} // namespace headroom::ui
