#pragma once

#include "common/chartexport.h"
#include "common/paintedlabel.h"
#include "engine/fleet/scenario.h"

#include <QColor>
#include <QRectF>
#include <QString>
#include <vector>

class QPainter;

// Figures of the Scenarios page and of the report deck: engine scenario results in,
// ChartFigure out. The page, every export and the PDF deck draw through the same functions.
namespace headroom::ui {

// Display name of a pool tier ("Reserved 1 y", "On-demand") and of a partitioning mode
// ("MIG", "Time-slice"), and the colour every scenario figure gives a tier.
QString tierName(engine::PoolTier tier);
QString partitioningName(engine::Partitioning partitioning);
QColor tierColor(engine::PoolTier tier);

// The fleet of one scenario on the day of its peak hour (UTC hours on the x axis, GPUs up):
// static base pools as stacked bands at the bottom (tint = provisioned, solid = used),
// elastic pools above as the GPUs they run each hour inside a dashed outline of their cap,
// a dashed peak-demand line, and a legend giving each pool's GPUs, GPU type, tier,
// partitioning, utilization and cost per month. Custom painted.
ChartFigure scenarioDiagramFigure(const engine::ScenarioResult &result);
// `labels`, when given, receives every text placed (for tooltips and layout checks).
void paintScenarioDiagram(QPainter &painter, const QRectF &rect, const engine::ScenarioResult &result,
                          const FigureInk &ink, PaintedLabels *labels = nullptr);

// Grouped bars of cost per 30-day month by tier, one group per scenario (2–4 results of one
// currency; one result gives one group).
ChartFigure costByTierFigure(const std::vector<engine::ScenarioResult> &results);
// GPUs of each scenario stacked by pool: static pools' provisioned GPUs, elastic pools' peak.
ChartFigure gpusByPoolFigure(const std::vector<engine::ScenarioResult> &results);
// Utilization (used ÷ provisioned GPU-hours, %) of the static base and of the whole fleet,
// one group per scenario.
ChartFigure utilizationFigure(const std::vector<engine::ScenarioResult> &results);

// Report sources of these figures and of the scenario tables: {"kind": K, "scenarios": [names]},
// drawn again by scenarioReportItem (scenariodeck.h). The diagram names one scenario.
inline constexpr char kScenarioDiagramSource[] = "scenario-diagram";
inline constexpr char kCostByTierSource[] = "scenario-cost-by-tier";
inline constexpr char kGpusByPoolSource[] = "scenario-gpus-by-pool";
inline constexpr char kUtilizationSource[] = "scenario-utilization";
inline constexpr char kPoolsTableSource[] = "scenario-pools-table";
inline constexpr char kComparisonTableSource[] = "scenario-comparison-table";
QJsonObject scenarioReportSource(const char *kind, const std::vector<std::string> &scenarios);

// The chart builders behind the three comparison figures, in a theme (screen) or light (export).
QChart *buildCostByTierChart(const std::vector<engine::ScenarioResult> &results, const QString &title,
                             QChart::ChartTheme theme);
QChart *buildGpusByPoolChart(const std::vector<engine::ScenarioResult> &results, const QString &title,
                             QChart::ChartTheme theme);
QChart *buildUtilizationChart(const std::vector<engine::ScenarioResult> &results, const QString &title,
                              QChart::ChartTheme theme);

} // namespace headroom::ui
