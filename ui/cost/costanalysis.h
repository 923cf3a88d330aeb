#pragma once

#include "common/chartexport.h"
#include "engine/cost/cost.h"
#include "report/reportdeck.h"
#include "store/report/reporttables.h"

#include <QDate>
#include <QJsonObject>
#include <QString>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

// What the Cost & reservations page computes and draws, as free functions of the workspace and
// the page's inputs: the page, its export and the report share them.
namespace headroom::ui {

// The page's inputs.
struct CostPageInputs {
    QString demandSeries;           // a stored series; empty: the generated shape below
    double baselineGpus = 200;
    double peakGpus = 320;
    int peakHour = 14;              // UTC
    double weekendFactor = 0.6;
    double growthPercent = 0;       // per 30 days
    double noisePercent = 5;
    int horizonMonths = 12;         // 0: one week
    QDate startDate;                // of a generated series, or of one without timestamps
    int seed = 1;
    QString rateCard;               // rate card key
    int termYears = 1;              // 1 or 3
    // Prices per GPU-hour as typed; none: the card's.
    std::optional<QString> onDemandRate, reservedRate, spotRate;
    double spotSharePercent = 0;
    double spotOverheadPercent = 10;
    bool useOptimum = true;
    int reserved = 0;               // the plan's reserved GPUs when not the optimum
    int week = 1;                   // of the hourly chart
};

// One line of the options table.
struct CostOption {
    QString name;
    int64_t reserved = 0;
    engine::PlanCost cost;
};

// The reservation analysed: the options, the chosen plan's hours and months, and what its
// commitment binds. Throws engine::InputError (field keys as the engine names them).
struct CostAnalysis {
    engine::DemandSeries demand;
    engine::CivilDate seriesStart;      // 00:00 UTC of hour 0
    QString currency;
    bool threeYear = false;
    bool ratesFromCard = true;          // every price is the rate card's
    engine::PlanRates rates;
    engine::Money reservedRate, elasticRate;
    engine::Decimal upfrontShare;
    engine::ReserveAnalysis analysis;
    std::vector<CostOption> options;    // all on-demand, P50, P75, optimum[, your plan]
    std::vector<engine::Sensitivity> sensitivity;
    std::optional<engine::CommitmentObligation> commitment; // the optimum's, whole term
    int64_t chosenReserved = 0;
    engine::PlanCost chosen;            // with its hours
    std::vector<engine::MonthSpend> months;
    engine::Money upfrontPaid;          // the chosen plan's, in the first month
    int weeks = 1;                      // of the series
    int week = 1;                       // shown, within 1..weeks
};
CostAnalysis analyseCost(const store::Workspace &workspace, const CostPageInputs &in);

// The page's three figures, each carrying its report source {"kind": "cost-sweep" | "cost-week"
// | "cost-month", …the inputs}, and its options table (source kind "cost-table").
struct CostFigures {
    ChartFigure sweep, week, month;
};
CostFigures costFigures(const CostAnalysis &a, const CostPageInputs &in);
DeckTable costTable(const CostAnalysis &a);
QJsonObject costSource(const char *kind, const CostAnalysis &a, const CostPageInputs &in);

// A report item of one of those figures or the table drawn again from the workspace; nullopt
// with *problem when its inputs no longer compute, nullopt with *problem empty for other kinds.
std::optional<store::ReportItem> costReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                QString *problem);

} // namespace headroom::ui
