#pragma once

#include "trackinganalysis.h"
#include "trackingsource.h"

#include "common/page.h"

#include <QThread>
#include <atomic>
#include <memory>
#include <utility>
#include <vector>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableWidget;
class QTabWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;
class TrackingChargebackPanel;
class TrackingJobsPanel;
class TrackingServingPanel;
class MetricsSourceConnection;

// Tracking (DESIGN §3.7c): plan versus actual from billing actuals kept in the workspace.
// A FOCUS export is imported on a worker thread (progress, Cancel; nothing stored when it
// fails or is cancelled); the page then shows, in one currency at a time, each commitment's
// used and unused cost over time with its term end, the commitments table with the under-used
// flag, the daily cost with its anomalies (selecting a row marks the point) and a scenario's
// planned cost per day against the actuals with the forecast band.
class TrackingPage : public Page {
    Q_OBJECT
public:
    TrackingPage(store::Workspace &workspace, QWidget *parent = nullptr);
    ~TrackingPage() override;

    QList<ChartPanel *> chartPanels() const override;
    std::optional<DeckTable> currentTable() const override;
    QJsonObject currentTableSource() const override;

    // Reads and stores `path` on the worker thread; finished() tells when it is over.
    void importFile(const QString &path);
    void importWithDialog();
    void cancel();
    bool isRunning() const;

    // The import shown (an actuals_import id), or 0 when there is none.
    qint64 shownImport() const { return m_importId; }
    const std::optional<TrackingResult> &result() const { return m_result; }
    QString statusText() const;
    int highlightedAnomaly() const { return m_highlighted; }
    // The Serving section (serving metrics, rightsizing, benchmark history).
    TrackingServingPanel *servingPanel() const { return m_serving; }
    TrackingChargebackPanel *chargebackPanel() const { return m_chargeback; }
    void showChargeback();
    void showTrainingJobs();
    TrackingJobsPanel *trainingJobsPanel() const { return m_jobs; }
    void showServing();
    // File ▸ Connect Metrics Source…: the dialog, then connect (or disconnect) and remember it
    // for this workspace file. A source remembered for the workspace is connected when the page
    // opens it.
    void connectMetricsSourceWithDialog();
    MetricsSourceConnection *metricsSource() const { return m_metricsSource; }

signals:
    // An import ended: stored, or cancelled / refused (the status line says why).
    void finished(bool stored);

private:
    QWidget *buildInputs();
    QWidget *buildResults();
    void refreshImports();
    void refreshScenarios();
    void loadImport();
    void recompute();
    void fillCards();
    void fillCommitments();
    void fillAnomalies();
    void showCommitmentChart();
    // What the billing charts are drawn from, for the report.
    BillingFigureSource figureSource() const;
    void highlightAnomaly(int index);
    void updateButtons();

    store::Workspace &m_workspace;
    // inputs
    QComboBox *m_imports = nullptr;
    QPushButton *m_import = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QComboBox *m_currency = nullptr;
    QDoubleSpinBox *m_threshold = nullptr;
    QSpinBox *m_trailingDays = nullptr;
    QComboBox *m_scenario = nullptr;
    QSpinBox *m_driftDays = nullptr;
    // results
    QStackedWidget *m_resultsStack = nullptr;
    QLabel *m_empty = nullptr;
    QLabel *m_cardCost = nullptr;
    QLabel *m_cardUtilization = nullptr;
    QLabel *m_cardUnused = nullptr;
    QLabel *m_cardOverflow = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    QComboBox *m_commitmentChoice = nullptr;
    ChartPanel *m_utilizationChart = nullptr;
    ChartPanel *m_trackerChart = nullptr;
    ChartPanel *m_planChart = nullptr;
    ChartPanel *m_anomalyChart = nullptr;
    QTabWidget *m_tableTabs = nullptr;
    QTableWidget *m_commitments = nullptr;
    QTableWidget *m_nextTerm = nullptr;
    QTableWidget *m_anomalies = nullptr;
    QTableWidget *m_planDays = nullptr;
    QLabel *m_explanation = nullptr;
    QTabWidget *m_sections = nullptr;
    MetricsSourceConnection *m_metricsSource = nullptr;
    QLabel *m_sourceStatus = nullptr;
    QPushButton *m_sourceRefresh = nullptr;
    QWidget *m_sourceStrip = nullptr;
    void showSourceState();
    TrackingServingPanel *m_serving = nullptr;
    TrackingChargebackPanel *m_chargeback = nullptr;
    TrackingJobsPanel *m_jobs = nullptr;

    qint64 m_importId = 0;
    std::optional<engine::ActualsSummary> m_actuals;
    std::optional<TrackingResult> m_result;
    std::optional<std::vector<engine::CommitmentRecommendation>> m_nextTerms;
    std::pair<qint64, int64_t> m_nextTermsKey{0, 0};   // import id and trailing hours they are for
    int m_highlighted = -1;
    bool m_updating = false;
    std::unique_ptr<QThread> m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
};

} // namespace headroom::ui
