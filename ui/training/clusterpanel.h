#pragma once

#include "common/backgroundjob.h"
#include "common/chartexport.h"

#include "engine/training/cluster_replay.h"
#include "store/report/reporttables.h"

#include <QJsonObject>
#include <QWidget>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// The Cluster tab of Training sizing (DESIGN §3.5): a job mix replayed on a shared cluster under
// fixed first-come-first-served, least-attained-service and co-adaptive allocation
// (engine/training/cluster_replay.h) — one of Pollux's published workloads or a workload CSV —
// with Run, progress and Cancel. Shows each policy's JCT, queueing, GPU-hours and utilization,
// the published averages beside a shipped workload, and the JCT distributions as a chart.
class ClusterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ClusterPanel(QWidget *parent = nullptr);
    ~ClusterPanel() override;

    // The workload: "pollux-1" … "pollux-8" or a file path.
    QString workload() const;
    void setWorkload(const QString &pathOrName);
    engine::ClusterOptions options() const;
    void run();
    bool isRunning() const;
    const std::vector<engine::ClusterReplay> &replays() const { return m_replays; }
    ChartPanel *chart() const { return m_chart; }
    QString status() const;

signals:
    void finished(bool ok);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void browse();
    void show(const std::vector<engine::ClusterReplay> &replays, const std::map<QString, double> &published);
    void updateButtons();

    QComboBox *m_workload = nullptr;
    QSpinBox *m_nodes = nullptr;
    QSpinBox *m_perNode = nullptr;
    QSpinBox *m_inference = nullptr;
    QDoubleSpinBox *m_interval = nullptr;
    QDoubleSpinBox *m_restart = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    ChartPanel *m_chart = nullptr;
    BackgroundJob m_job;
    std::vector<engine::ClusterReplay> m_replays;
    bool m_ranOnce = false;
};

// The share of jobs finished within each JCT (hours, log axis), one line per policy. Its source
// ({"kind": "cluster-replay", the workload and the cluster}) holds what the report needs to
// replay and draw it again.
ChartFigure clusterFigure(const QString &workload, const engine::ClusterOptions &options,
                          const std::vector<engine::ClusterReplay> &replays);

// The report's redraw of a "cluster-replay" source: the replay run again; nullopt for another
// kind (problem empty) or a source that cannot be replayed (problem says why).
std::optional<store::ReportItem> clusterReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                   QString *problem);

} // namespace headroom::ui
