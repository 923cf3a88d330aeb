#pragma once

#include "common/backgroundjob.h"
#include "engine/serving/calibration.h"

#include <QDialog>
#include <QStringList>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// Calibrate (Serving simulation ▸ Calibrate…): the step-cost model of one deployment fitted to
// its own measurements — a step-time CSV and `vllm bench serve` result files — off the GUI
// thread with progress and Cancel (engine::calibrate). Shows every point measured against
// predicted with the fitted and the prior coefficients, as a table and as a chart (exportable),
// and the coefficients; "Save for this deployment" keeps the fit as the deployment's calibrated profile,
// as an undoable catalog edit.
class CalibrationDialog : public QDialog {
    Q_OBJECT
public:
    CalibrationDialog(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);
    ~CalibrationDialog() override;

    // Inputs, for the page that opens the dialog, tests and the screenshot tool.
    void setDeployment(const QString &modelId, const QString &gpuId, engine::WeightPrecision weights,
                       engine::KvPrecision kv, int tp);
    void setStepTimes(const QString &path);
    void addBenchResult(const QString &path);
    // Calibrates on the served hours of `deployment` in the workspace's imported metrics
    // (empty: none); false when the workspace holds no such deployment.
    bool setServedHours(const QString &deployment);
    // Replica-hours with fewer completed requests are not replayed.
    static constexpr int64_t kMinServedHourRequests = 50;

    // Starts a fit; false with the reason in the status line when an input is bad or a fit runs.
    bool fit();
    void cancel();
    bool isFitting() const { return m_job.isRunning(); }
    // Saves the last fit as its deployment's calibrated profile (the model at its TP and weights
    // on the GPU), undoably; false when there is none.
    bool save();

    const std::optional<engine::CalibrationResult> &result() const { return m_result; }
    QString status() const;
    ChartPanel *chartPanel() const { return m_chart; }

signals:
    void fitFinished();

private:
    void fillCatalogs();
    void showResult();
    void setStatus(const QString &text);

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    QComboBox *m_model;
    QComboBox *m_gpu;
    QComboBox *m_weights;
    QComboBox *m_kv;
    QSpinBox *m_tp;
    QLineEdit *m_stepTimes;
    QListWidget *m_benches;
    QComboBox *m_servedHours;            // a deployment of the Tracking page's metrics, or none
    QPushButton *m_fitButton;
    QPushButton *m_cancelButton;
    QPushButton *m_saveButton;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTableWidget *m_points;
    QTableWidget *m_coefficients;
    ChartPanel *m_chart;

    BackgroundJob m_job;
    // What the running fit works on and leaves behind (read once it has finished).
    engine::CalibrationInputs m_inputs;
    engine::CalibrationResult m_pending;
    QString m_error;
    QString m_deployment;
    QString m_shortName;
    QStringList m_sources;
    std::string m_gpuId;
    engine::DeploymentProfile m_target;        // the deployment being fitted (no efficiency yet)
    std::optional<engine::CalibrationResult> m_result;
    QString m_resultDeployment;
    QString m_resultShortName;
    QStringList m_resultSources;
    std::string m_resultGpuId;
    engine::DeploymentProfile m_resultTarget;
};

} // namespace headroom::ui
