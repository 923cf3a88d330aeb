#pragma once

#include "actuals.h"
#include "engine/forecast/forecast_reservation.h"
#include "engine/common/money.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// The next term of a commitment (DESIGN §3.7c): the measured hourly demand the commitment
// served, forecast over the next term and handed to the reservation optimizer
// (reservationFromForecast, with paths around the point forecast: PathSpread::AroundPoint),
// which says how much to commit.
//
// Unit. FOCUS states a commitment's size in its own unit (dollars per hour for a spend
// commitment, instance or GPU hours for a usage one), and overflow rows are priced on demand.
// Both are brought to money per hour at the committed price:
//   commitment size C = the largest Σ EffectiveCost(Used + Unused) of one clock hour (a
//                       charge covering several hours spread evenly over them)
//   demand d_h        = EffectiveCost(Used)_h + overflow_h × committed ÷ on-demand price
// where overflow_h is the on-demand EffectiveCost analyseCommitments counts as overflow (Usage
// rows without a commitment, not priced Committed, in a service and region the commitment
// covers, in hours it had nothing unused), a row's cost spread evenly over its hours and
// shared evenly between the commitments covering its service and region. The price ratio is
// Σ ListCost ÷ Σ EffectiveCost of the commitment's Used rows (CommitmentRate) unless given.
// The optimizer works in whole units of C ÷ 1000 (0.1 % of the commitment): reserved rate
// = C ÷ 1000 per unit-hour, elastic rate = that × the price ratio.
namespace headroom::engine {

struct RenewalOptions {
    int termHours = kOneYearHours;  // the next term, 1 … 26,304 hours
    int historyHours = 720;         // trailing hours of measured demand the forecast is fitted on, ≥ 2
    int paths = 16;                 // simulated paths over the term, 1 … 100
    uint64_t seed = 1;
    double onDemandRatio = 0.0;     // on-demand ÷ committed price; 0 = from the ListCost of Used rows
    int64_t asOf = 0;               // epoch seconds days to renewal count from; 0 = end of the last charged hour
};

// What drives the recommendation. The forecast does when it was fitted on enough hours to hold
// its daily season and one day more to check it on (kForecastHours), and on that held-out day
// did no worse than repeating the day before (a backtest MASE ≤ 1). Otherwise the measured
// hours do: they are taken to repeat over the next term, and the forecast's answer is kept
// beside for comparison.
enum class RenewalBasis { Forecast, Measured };
inline constexpr int kForecastHours = 72;

struct CommitmentRecommendation {
    std::string id;
    std::string name;
    std::string currency;
    bool available = false;         // false: no recommendation, `reasoning` says why
    std::string reasoning;          // the why, in words, with the figures (and a caution under a week of history)
    int64_t termEnd = 0;            // epoch seconds; 0 when the file does not say
    std::optional<int64_t> daysToRenewal; // whole days from asOf to termEnd (negative: expired)
    double onDemandRatio = 0.0;     // on-demand ÷ committed price used
    int historyHours = 0;           // hours of measured demand fitted
    Decimal currentPerHour;         // C, money per hour at the committed price
    Decimal recommendedPerHour;     // the optimizer's choice, same unit
    Decimal measuredMeanPerHour;    // mean of d_h over the history
    Decimal measuredPeakPerHour;    // largest d_h over the history
    // The figures below follow `basis`.
    RenewalBasis basis = RenewalBasis::Forecast;
    std::string basisReason;        // why the measured hours drive it; empty when the forecast does
    double currentUtilization = 0.0;      // expected over the next term at the current size
    double recommendedUtilization = 0.0;  // expected at the recommended size (0 when it is 0)
    Money currentTermCost;          // expected cost of the covered demand over the term, current size
    Money recommendedTermCost;      // the same at the recommended size
    Money savingPerTerm;            // currentTermCost − recommendedTermCost (negative: dearer)
    double measuredUtilization = 0.0;     // of the current size over the measured hours
    // The forecast's own answer, whatever the basis.
    Decimal forecastRecommendedPerHour;
    double forecastUtilization = 0.0;     // expected at forecastRecommendedPerHour (0 when it is 0)
    Money forecastSavingPerTerm;
    std::optional<double> backtestMase;   // of the forecast on the last measured day, when it could be checked
    std::vector<double> demandPerHour; // d_h over the history, money per hour (for charts)
};

// One recommendation per commitment and currency of analyseCommitments, in its order. Throws
// InputError: "term_hours", "history_hours", "paths", "on_demand_ratio" (negative or not
// finite), and the optimizer's errors.
std::vector<CommitmentRecommendation> recommendCommitments(const ActualsSummary &actuals,
                                                           const RenewalOptions &options = {});

} // namespace headroom::engine
