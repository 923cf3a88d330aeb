#pragma once

#include "fragcharts.h"
#include "fragmappainter.h"
#include "common/backgroundjob.h"
#include "common/page.h"

#include <memory>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace headroom::ui {

class ChartPanel;
class FragMapView;

// Fragmentation (DESIGN §3.5): placement policies on a cluster trace, run off the GUI thread
// with progress and Cancel, scored as the FGD study does or exactly; allocation, fragmentation
// and unallocated GPUs per policy; FGD's two scorings side by side (failed placements by GPU
// request); and the fragmentation map, scrubbed through the run.
class FragmentationPage : public Page {
    Q_OBJECT
public:
    explicit FragmentationPage(QWidget *parent = nullptr);
    ~FragmentationPage() override;

    QList<ChartPanel *> chartPanels() const override;
    std::optional<ChartFigure> currentFigure() const override;
    QJsonObject currentTableSource() const override;
    void setFiles(const QString &nodes, const QString &tasks);
    void setPolicies(const std::vector<engine::frag::Policy> &policies);
    void setSeeds(int seeds);
    void setScoreMode(engine::frag::ScoreMode mode);
    engine::frag::ScoreMode scoreMode() const;
    void run();
    void cancel();
    bool isRunning() const;
    const std::vector<PolicyRuns> &results() const { return m_results; }
    // FGD over the same seeds with exact and with the study's scoring (whatever the mode chosen).
    const engine::frag::SeedsResult &fgdExact() const { return m_fgdExact; }
    const engine::frag::SeedsResult &fgdStudy() const { return m_fgdStudy; }
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
    void showScoringComparison(double load);
    QWidget *buildScoringTab();
    // `figure` with the source of the run it shows.
    ChartFigure withSource(ChartFigure figure) const;

    QLineEdit *m_nodes = nullptr;
    QLineEdit *m_tasks = nullptr;
    QListWidget *m_policies = nullptr;
    QSpinBox *m_seeds = nullptr;
    QDoubleSpinBox *m_load = nullptr;
    QComboBox *m_mode = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    ChartPanel *m_allocation = nullptr;
    ChartPanel *m_ratio = nullptr;
    ChartPanel *m_unallocated = nullptr;
    ChartPanel *m_scoring = nullptr;
    QTableWidget *m_scoringTable = nullptr;
    QLabel *m_scoringText = nullptr;
    FragMapView *m_map = nullptr;
    QSlider *m_mapSlider = nullptr;
    QLabel *m_mapLabel = nullptr;
    std::vector<PolicyRuns> m_results;
    engine::frag::SeedsResult m_fgdExact;
    engine::frag::SeedsResult m_fgdStudy;
    std::vector<engine::frag::Node> m_mapNodes;
    engine::frag::RunResult m_mapRun;
    QJsonObject m_runSource;
    BackgroundJob m_job;
};

} // namespace headroom::ui
