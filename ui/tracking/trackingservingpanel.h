#pragma once

#include "trackingserving.h"

#include <QList>
#include <QWidget>
#include <optional>

class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// The Serving section of the Tracking page: serving metrics imported into the workspace
// (DCGM-exporter / vLLM range-query CSV), each deployment's rightsizing with its saving and
// reasoning, the replicas' measured figures, anomalies in the fleet's daily GPU utilization and
// GPU-hours, and the benchmark history of named optimizations, which are added and removed here. Every table exports to CSV.
class TrackingServingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrackingServingPanel(store::Workspace &workspace, QWidget *parent = nullptr);

    // Reads `path` and stores its replica-hours; false (and the status says why) on error.
    bool importFile(const QString &path);
    void importWithDialog();
    // Validates and stores an optimization; false (and the status says why) when refused.
    bool addOptimization(const QString &name, const QDate &date, const QString &note = {});
    bool removeSelectedOptimization();
    // Writes the table on the visible tab to `path` as CSV; false with the status on error.
    bool exportCurrentTable(const QString &path);

    const ServingAnalysis &analysis() const { return m_analysis; }
    QString statusText() const;
    QTableWidget *rightsizingView() const { return m_rightsizing; }
    QTableWidget *benchmarkView() const { return m_benchmarks; }
    QTableWidget *replicasView() const { return m_replicas; }
    QTableWidget *anomaliesView() const { return m_anomalies; }
    // The table on the visible tab, as shown.
    std::optional<DeckTable> currentTable() const;
    QJsonObject currentTableSource() const;
    void setRateGpu(const QString &gpuId);
    // The load-and-capacity, goodput and utilization charts, the one on the visible tab first.
    QList<ChartPanel *> chartPanels() const;

private:
    void refreshRates();
    void refreshImports();
    void recompute();
    void updateButtons();
    void showLoadChart();
    void showExplanation();

    store::Workspace &m_workspace;
    QComboBox *m_imports = nullptr;
    QPushButton *m_import = nullptr;
    QPushButton *m_remove = nullptr;
    QComboBox *m_rateGpu = nullptr;
    QSpinBox *m_trailingDays = nullptr;
    QSpinBox *m_windowDays = nullptr;
    QSpinBox *m_ttftSlo = nullptr;
    QLineEdit *m_name = nullptr;
    QDateEdit *m_date = nullptr;
    QLineEdit *m_note = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_removeOptimization = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    ChartPanel *m_loadChart = nullptr;
    ChartPanel *m_goodputChart = nullptr;
    ChartPanel *m_utilizationChart = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_rightsizing = nullptr;
    QTableWidget *m_replicas = nullptr;
    QTableWidget *m_benchmarks = nullptr;
    QTableWidget *m_anomalies = nullptr;
    QLabel *m_explanation = nullptr;
    ServingAnalysis m_analysis;
    ServingSettings m_settings;   // what m_analysis was computed with
    bool m_updating = false;
};

} // namespace headroom::ui
