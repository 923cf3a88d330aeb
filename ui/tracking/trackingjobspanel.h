#pragma once

#include "common/backgroundjob.h"
#include "trackingjobs.h"

#include <QWidget>
#include <optional>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// The Training jobs section of the Tracking page (DESIGN §3.7c): a job telemetry file read on a
// worker thread (progress, Cancel), then the data-loading stall audit of the last five jobs and
// each job's goodput per GPU against its plan — the workspace training job of the same name, as
// Training sizing sizes it — hour by hour.
class TrackingJobsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrackingJobsPanel(store::Workspace &workspace, QWidget *parent = nullptr);

    void load(const QString &telemetryPath);
    bool isRunning() const;
    const std::optional<TrainingJobsRun> &run() const { return m_run; }
    QString statusText() const;
    std::optional<DeckTable> currentTable() const;
    QList<ChartPanel *> chartPanels() const;

signals:
    void finished(bool loaded);

private:
    void show(const TrainingJobsRun &run);
    void updateButtons();

    store::Workspace &m_workspace;
    QLineEdit *m_path = nullptr;
    QDoubleSpinBox *m_below = nullptr;
    QPushButton *m_load = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_stalls = nullptr;
    QTableWidget *m_goodput = nullptr;
    ChartPanel *m_chart = nullptr;
    BackgroundJob m_job;
    std::optional<TrainingJobsRun> m_run;
};

} // namespace headroom::ui
