#pragma once

#include "actuals.h"
#include "tracking.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// Anomalies in the imported actuals (DESIGN §3.7c): the daily spend of one currency
// (Σ EffectiveCost) and the daily usage hours (Σ ConsumedQuantity of Usage rows in a unit of
// hours, DayCost::consumedHours: GPU-hours when the SKUs are billed per GPU, resource-hours
// otherwise) each run through detectAnomalies; every anomaly found in either series carries
// its size in both.
namespace headroom::engine {

enum class AnomalySeries { Spend, Usage };

struct ActualsAnomaly {
    AnomalySeries series = AnomalySeries::Spend;  // the series it was found in
    AnomalyKind kind = AnomalyKind::Spike;
    int64_t day = 0;            // days since 1970-01-01: the day, or the first day of a shift
    int64_t endDay = 0;         // the day, or the day the shift was confirmed
    Decimal spend;              // the day's EffectiveCost (a shift: mean per day)
    Decimal expectedSpend;      // the forecast of it
    Decimal moneySize;          // spend − expectedSpend, per day, rounded to cents
    double usageHours = 0.0;    // the same for the usage hours
    double expectedUsageHours = 0.0;
    double usageHoursSize = 0.0; // per day
};

struct ActualsAnomalyReport {
    std::string currency;
    int64_t firstDay = 0;
    std::vector<double> spend;       // per day from firstDay (days without rows 0)
    std::vector<double> usageHours;  // per day
    AnomalyReport spendReport;
    AnomalyReport usageReport;       // empty (history 0) when no row states usage hours
    std::vector<ActualsAnomaly> anomalies; // by day, spend before usage on one day
};

// The mean of the observations and of their one-step forecasts (AnomalyReport::expected) over
// samples [first, last], samples without a forecast skipped; (0, 0) when none has one. How an
// anomaly found in one series is sized in another series over the same samples.
std::pair<double, double> meanObservedAndExpected(const std::vector<double> &values, const std::vector<double> &expected,
                                                  int first, int last);

// Both series over every day from the currency's first to its last charged day. An anomaly
// keeps the detector's figures in the series it was found in (a shift: its mean level and
// size per day) and is sized in the other as observation − one-step forecast, averaged over
// the same days (a shift: its first day to the day it was confirmed). Throws InputError("currency") when no row is in that currency and
// detectAnomalies' errors ("series" when there are too few days).
ActualsAnomalyReport detectActualsAnomalies(const ActualsSummary &actuals, const std::string &currency,
                                            const AnomalyOptions &options);

} // namespace headroom::engine
