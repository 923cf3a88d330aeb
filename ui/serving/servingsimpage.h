#pragma once

#include <QJsonObject>

#include "common/backgroundjob.h"
#include "common/page.h"
#include "engine/serving/serving_study.h"

#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

class QUndoStack;

namespace headroom::ui {

class CalibrationDialog;
class ChartPanel;
class ServingSimChartTabs;

// Serving simulation (DESIGN §3.7b): a request trace replayed on a fleet of replicas with a
// finite prefix cache each and a router in front (engine::simulateServing), run off the GUI
// thread with progress and Cancel. For every router it runs the fleet as set, a sweep of cache
// sizes (with the trace's infinite-cache hit rate as the bound), a sweep of replica counts and
// the search for the fewest replicas reaching the SLO attainment target.
class ServingSimPage : public Page {
    Q_OBJECT
public:
    static constexpr int kRouters = engine::kStudyRouterCount; // round-robin, least-loaded, kv
    static constexpr int kCacheSweepPoints = 7;

    using CachePoint = engine::StudyCachePoint;
    using ReplicaPoint = engine::StudyReplicaPoint;
    // The study (engine::runServingStudy) and what it was run on.
    struct Results : engine::ServingStudy {
        QString traceName;
        QString setup;                              // model · GPU · precisions · TP, pool
        std::string modelId;                        // what the study ran on
        std::string gpuId;
        engine::WeightPrecision weights = engine::WeightPrecision::Bf16;
        engine::KvPrecision kv = engine::KvPrecision::Bf16;
        int tp = 1;
        double seconds = 0;
        QJsonObject source;                         // what the run read, for the report
    };

    // Edits "Use in sizing" makes to a workload go on `undoStack` (written directly without one).
    ServingSimPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);
    ~ServingSimPage() override;

    QList<ChartPanel *> chartPanels() const override;
    std::optional<ChartFigure> currentFigure() const override;
    QJsonObject currentTableSource() const override;

    // Inputs, for tests and the screenshot tool.
    void setTrace(const QString &path, bool azure = false);
    void setRequestLimit(int requests);             // the first N requests; 0 = all
    void setReplicas(int replicas);
    void setTimeScale(double scale);
    void setStepTimes(const QString &path);         // a step-time CSV; empty: the roofline
    // The configuration the inputs describe for `router`, or nullopt with the reason.
    std::optional<engine::ServingSimConfig> configFor(engine::RouterKind router, QString *error) const;
    // The trace as the page reads it (format, generated hashes, request limit); throws StoreError.
    std::vector<engine::TraceRequest> readTrace() const;

    // Opens Calibrate… on the page's model, GPU, precisions, TP and step-time table (not modal).
    CalibrationDialog *openCalibration();

    // Starts a run; false (with the reason in the status line, the results unchanged) when an
    // input is invalid or a run is under way.
    bool run();
    void cancel();
    bool isRunning() const;
    const std::optional<Results> &results() const { return m_results; }
    QString statusText() const;
    QString explanation() const;

    // "Use in sizing": writes the KV-aware router's simulated token hit rate and goodput per
    // replica at the target (labelled as simulated), with the GPU, precisions and TP they
    // were simulated on, into the workload `name` as one undoable edit, after asking. False,
    // with the reason shown, when there are no results, the workload is missing or serves
    // another model, or the user says No.
    bool useInSizing(const QString &workloadName);
    // The workload as Use in sizing would write it, or nullopt with the reason.
    std::optional<engine::WorkloadProfile> simulatedWorkload(const QString &workloadName, QString *error) const;

    static int routerIndex(engine::RouterKind router);
    static engine::RouterKind routerAt(int index);
    static QString routerName(engine::RouterKind router);

signals:
    void finished(bool ok);

private:
    struct Outcome;
    QWidget *buildInputs();
    void refreshCatalogChoices();
    void refreshWorkloadChoices();
    // Model, GPU, precisions and TP from the workload named (empty: as set by hand).
    void takeReplicaFrom(const QString &workloadName);
    // Use in Sizing's workload after a run: the one the replica came from, else the first serving the
    // model simulated.
    void chooseUseWorkload();
    void updateUseButton();
    void showOutcome(std::shared_ptr<Outcome> outcome);
    void updateCharts();
    void updateTable();
    void updateExplanation();
    void setStatusError(const QString &message);

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack = nullptr;
    QLineEdit *m_trace = nullptr;
    QComboBox *m_format = nullptr;
    QSpinBox *m_limit = nullptr;
    QSpinBox *m_sharedPrefix = nullptr;
    QDoubleSpinBox *m_reuse = nullptr;
    QComboBox *m_model = nullptr;
    QComboBox *m_gpu = nullptr;
    QComboBox *m_weights = nullptr;
    QComboBox *m_kvPrecision = nullptr;
    QSpinBox *m_tp = nullptr;
    QSpinBox *m_kvBlocks = nullptr;
    QLineEdit *m_stepTimes = nullptr;
    QSpinBox *m_replicas = nullptr;
    QComboBox *m_router = nullptr;
    QDoubleSpinBox *m_overlap = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QSpinBox *m_blockSize = nullptr;
    QCheckBox *m_prefixCache = nullptr;
    QDoubleSpinBox *m_timeScale = nullptr;
    QSpinBox *m_seed = nullptr;
    QDoubleSpinBox *m_ttftSlo = nullptr;
    QDoubleSpinBox *m_itlSlo = nullptr;
    QDoubleSpinBox *m_target = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QComboBox *m_useWorkload = nullptr;
    QComboBox *m_fromWorkload = nullptr;
    bool m_settingReplica = false;  // set while a workload or the catalog fills the replica fields
    QPushButton *m_useInSizing = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    ServingSimChartTabs *m_charts = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_explanation = nullptr;
    std::optional<Results> m_results;
    BackgroundJob m_job;
};

} // namespace headroom::ui
