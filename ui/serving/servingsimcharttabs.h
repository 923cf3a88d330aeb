#pragma once

#include "common/chartexport.h"
#include "servingsimpage.h"

#include <QList>
#include <QObject>
#include <optional>

class QComboBox;
class QTabWidget;

namespace headroom::ui {

class ChartPanel;
class PaintedFigureView;

// The chart tabs of the Serving simulation page: prefix hit rate against cache size, TTFT P95
// and SLO attainment against replicas, and the per-replica load over time as a heat strip
// (requests in flight or KV pool held) for the router shown. Its widgets are children of the
// page; tabs() is the tab widget to lay out.
class ServingSimChartTabs : public QObject {
    Q_OBJECT
public:
    explicit ServingSimChartTabs(QWidget *page);

    QTabWidget *tabs() const { return m_tabs; }
    QList<ChartPanel *> chartPanels() const;
    // The figure of the tab shown.
    std::optional<ChartFigure> currentFigure() const;
    // Draws `results` (empty charts saying why when there are none), the heat strip for the
    // router at `shownRouter`.
    void show(const std::optional<ServingSimPage::Results> &results, int shownRouter);

signals:
    // The heat strip's metric was switched.
    void stripMetricChanged();

private:
    QTabWidget *m_tabs = nullptr;
    ChartPanel *m_hitChart = nullptr;
    ChartPanel *m_ttftChart = nullptr;
    ChartPanel *m_attainmentChart = nullptr;
    PaintedFigureView *m_strip = nullptr;
    QComboBox *m_stripMetric = nullptr;
};

} // namespace headroom::ui
