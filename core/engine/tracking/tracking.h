#pragma once

#include "actuals.h"
#include "focus.h"
#include "engine/common/money.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Plan versus actual (DESIGN §3.7c): how well commitments are used, where a series leaves its
// forecast (anomalies) and how far actual spend drifts from a plan. Input is billing actuals
// (FOCUS rows) or a plain series; every money figure stays in its own currency.
namespace headroom::engine {

// ---- Commitment utilization ------------------------------------------------------------

struct CommitmentOptions {
    double threshold = 0.8;         // under-used below this trailing utilization, (0, 1]
    int64_t trailingHours = 720;    // the trailing window, hours back from the last charged hour
};

// One commitment in one currency. Figures come from the Usage rows carrying a
// CommitmentDiscountStatus:
//   utilization = Σ EffectiveCost(Used) ÷ (Σ EffectiveCost(Used) + Σ EffectiveCost(Unused))
// hoursUsed / hoursUnused count the distinct clock hours covered by at least one Used / Unused
// row (an hour partly used counts in both). unusedCost is the money paid for commitment that
// went unused.
struct CommitmentUsage {
    std::string id;
    std::string name;
    std::string currency;
    int64_t hoursUsed = 0;
    int64_t hoursUnused = 0;
    Decimal usedCost;
    Decimal unusedCost;
    double utilization = 0.0;               // [0, 1]
    double trailingUtilization = 0.0;       // over the last options.trailingHours
    int64_t firstHour = 0;                  // epoch seconds of the first and last charged hour
    int64_t lastHour = 0;
    bool underUsed = false;                 // trailingUtilization < options.threshold
};

struct CommitmentReport {
    std::vector<CommitmentUsage> commitments;   // by id, then currency
    // On-demand overflow: EffectiveCost of Usage rows without a commitment and not priced as
    // Committed, in a service (ServiceName, else ServiceCategory) and region that a
    // commitment covers, charged in hours in which that commitment had nothing unused —
    // demand the commitment could not absorb. One entry per currency that has any.
    std::vector<Money> onDemandOverflow;
};

// Throws InputError("threshold") outside (0, 1], InputError("trailing_hours") below 1. The
// FocusCharges form summarizes the rows (summarizeActuals) and reads the summary.
CommitmentReport analyseCommitments(const ActualsSummary &actuals, const CommitmentOptions &options = {});
CommitmentReport analyseCommitments(const FocusCharges &charges, const CommitmentOptions &options = {});

// One UTC day of one commitment in one currency: EffectiveCost of the Used and Unused rows
// starting that day, and the distinct hours with a Used / Unused row.
struct CommitmentDay {
    int64_t day = 0;                        // days since 1970-01-01
    Decimal usedCost;
    Decimal unusedCost;
    int hoursUsed = 0;
    int hoursUnused = 0;
};
// Every day from the commitment's first to its last charged hour (days without rows zero).
// Throws InputError("commitment") when the commitment has no hour in that currency.
std::vector<CommitmentDay> commitmentDays(const ActualsSummary &actuals, const std::string &id,
                                          const std::string &currency);

// ---- Daily actuals ---------------------------------------------------------------------

// Σ EffectiveCost of every row in `currency`, by the UTC day its charge period starts.
struct DailyCost {
    std::string currency;
    int64_t firstDay = 0;                   // days since 1970-01-01
    std::vector<Decimal> cost;              // one per day from firstDay, days without rows 0
};
// Throws InputError("currency") when no row is in that currency.
DailyCost dailyEffectiveCost(const ActualsSummary &actuals, const std::string &currency);
DailyCost dailyEffectiveCost(const FocusCharges &charges, const std::string &currency);

// ---- Anomalies -------------------------------------------------------------------------

struct AnomalyOptions {
    int period = 24;            // season length in samples (24 hourly, 7 daily); 0 for none
    int history = 0;            // samples the model is fitted on; 0 = max(2 × period, n / 4)
    double cusumDrift = 0.5;    // CUSUM reference value k, in residual standard deviations
    // CUSUM decision interval h, in residual standard deviations. With k = 0.5 and h = 8 a
    // clean series raises a false alarm about once in 9,500 samples (Siegmund's average run
    // length, both sides); a 2σ shift is confirmed after about 5 samples, a 1σ one after 16.
    double cusumLimit = 8.0;
};

enum class AnomalyKind { Spike, Dip, LevelShift };
// "spike", "dip", "level_shift" (as the CLI's JSON writes them).
std::string_view toString(AnomalyKind kind);

// A point outside the one-step P99.5 interval (Spike above, Dip below), or a level shift.
struct Anomaly {
    AnomalyKind kind = AnomalyKind::Spike;
    int index = 0;              // the point, or the first point of the shift
    int endIndex = 0;           // the point, or where CUSUM confirmed the shift
    double value = 0.0;         // the observation (the shift's mean level after it)
    double expected = 0.0;      // the forecast (the mean level expected over the shift)
    double lower = 0.0;         // the P99.5 interval (points only)
    double upper = 0.0;
    double size = 0.0;          // value − expected, series unit (per sample for a shift)
};

struct AnomalyReport {
    int history = 0;
    double residualSd = 0.0;    // of the fit on the history, series unit
    double halfWidth = 0.0;     // of the P99.5 interval: 2.807 × residualSd
    std::vector<Anomaly> anomalies; // by index
    // The one-step forecast of every sample after the history (the level shifts found so far
    // included), series unit; NaN over the history.
    std::vector<double> expected;
};

// Holt-Winters (no trend, additive season of `period`, statsmodels-style estimated start)
// fitted on the first `history` samples; each later sample is compared with its one-step
// forecast ŷ ± z·sd, z = 2.807 (the normal 0.25 % and 99.75 % points), sd the fit's residual
// standard deviation scaled by √(n ÷ (n − p)) for its p fitted values. A flagged sample is
// replaced by its forecast before the model moves on, so a spike does not drag the level.
// Level shifts: three samples in a row outside the band on one side, or a two-sided tabular
// CUSUM of the standardised residuals of the samples inside the band (reference k, limit h)
// crossing its limit; the shift starts at the first of the three, or after the sums last
// stood at zero. Its size is the mean residual over its first max(period, 12) samples, and
// the model then follows the new level. Throws InputError("series") when the series is too short
// (history + 1 samples, history ≥ 2 seasons) or not finite, InputError("period"/"history").
AnomalyReport detectAnomalies(const std::vector<double> &series, const AnomalyOptions &options = {});

// ---- Plan versus actual ------------------------------------------------------------------

struct PlanOptions {
    int driftPeriods = 3;       // k: drift after k consecutive days outside the P99 band
    int history = 14;           // days of actuals the forecast band is fitted on
    int paths = 2000;           // simulated paths for the band
    uint64_t seed = 1;
};

struct PlanDay {
    int64_t day = 0;                        // days since 1970-01-01
    Decimal planned;
    Decimal actual;
    Decimal variance;                       // actual − planned
    Decimal cumulativeVariance;             // Σ variance up to this day
    std::optional<double> p005, p05, p95, p995; // forecast band (days after the history)
    bool outsideP99 = false;                // actual outside [P0.5, P99.5]
};

struct PlanVsActual {
    std::string currency;
    std::vector<PlanDay> days;
    Decimal totalPlanned;
    Decimal totalActual;
    Decimal cumulativeVariance;             // totalActual − totalPlanned
    bool banded = false;                    // enough history for a forecast band
    double coverage90 = 0.0;                // share of banded days inside [P05, P95]
    int bandedDays = 0;
    std::optional<int64_t> driftDay;        // first day of the first run of k days outside P99
};

// Compares a constant planned cost per day (a scenario's costPerDay) with the daily actuals.
// With at least options.history + 1 days, a Holt-Winters model (weekly season when the
// history holds two weeks) fitted on the first `history` days is simulated over the rest:
// its P05–P95 band gives the coverage so far, its P0.5–P99.5 band the drift test. Throws
// InputError("currency") when the plan and the actuals differ in currency,
// InputError("drift_periods") below 1, InputError("history") below 2.
PlanVsActual comparePlan(const Money &plannedPerDay, const DailyCost &actuals, const PlanOptions &options = {});

} // namespace headroom::engine
