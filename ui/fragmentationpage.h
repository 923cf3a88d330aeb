#pragma once

#include "fragcharts.h"
#include "fragmappainter.h"
#include "page.h"

#include <QThread>
#include <atomic>
#include <memory>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QTabWidget;

namespace headroom::ui {

class ChartPanel;
class FragMapView;

// Fragmentation (DESIGN §3.5): placement policies on a cluster trace, run off the GUI thread
// with progress and Cancel; allocation, fragmentation and unallocated GPUs per policy; and
// the fragmentation map, scrubbed through the run.
class FragmentationPage : public Page {
    Q_OBJECT
public:
    explicit FragmentationPage(QWidget *parent = nullptr);
    ~FragmentationPage() override;

    QList<ChartPanel *> chartPanels() const override;
    std::optional<ChartFigure> currentFigure() const override;
    void setFiles(const QString &nodes, const QString &tasks);
    void setPolicies(const std::vector<engine::frag::Policy> &policies);
    void setSeeds(int seeds);
    void run();
    void cancel();
    bool isRunning() const;
    const std::vector<PolicyRuns> &results() const { return m_results; }
    QString statusText() const;

    // Arrived percents at which the map keeps the cluster state.
    static std::vector<int> mapPercents();

signals:
    void finished(bool completed);

private:
    struct Outcome;
    QWidget *buildInputs();
    void showResults(std::shared_ptr<Outcome> outcome);
    void showMap();

    QLineEdit *m_nodes = nullptr;
    QLineEdit *m_tasks = nullptr;
    QListWidget *m_policies = nullptr;
    QSpinBox *m_seeds = nullptr;
    QDoubleSpinBox *m_load = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    ChartPanel *m_allocation = nullptr;
    ChartPanel *m_ratio = nullptr;
    ChartPanel *m_unallocated = nullptr;
    FragMapView *m_map = nullptr;
    QSlider *m_mapSlider = nullptr;
    QLabel *m_mapLabel = nullptr;
    std::vector<PolicyRuns> m_results;
    std::vector<engine::frag::Node> m_mapNodes;
    engine::frag::RunResult m_mapRun;
    std::unique_ptr<QThread> m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
};

} // namespace headroom::ui
