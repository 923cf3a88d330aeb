#pragma once

#include "engine/cost/cost.h"
#include "forecast.h"
#include "engine/common/money.h"

#include <cstdint>
#include <string>
#include <vector>

// The forecast as input to the reservation decision (DESIGN §3.6, §3.7): reserve for the
// demand expected over the commitment term, not for the look-back window.
namespace headroom::engine {

inline constexpr int kOneYearHours = 8760;      // a common year; a term's real hours come from termHours()
inline constexpr int kThreeYearHours = 26280;   // three common years
inline constexpr int kMaxTermHours = 26304;     // 36 calendar months holding a 29 February

// How the term's demand paths are drawn.
//  Simulated: the models' own state-space paths (forecast.h simulatePaths): the level takes a
//    random step every hour, so the spread grows with the horizon.
//  AroundPoint: the point forecast (level, trend and season as fitted) plus, hour by hour, a
//    residual of the fit drawn at random from the history (after the first season): the
//    hour-to-hour spread the history showed, not growing. For a term thousands of hours long
//    fitted on a few weeks, where an hourly random-walk level says more about the model than
//    about the demand. One model fitted on the history; or several (a decomposed forecast) with
//    bootstrapFrom, each drawing its residual at the same training hour, so the primitives'
//    residuals keep their cross-correlation.
enum class PathSpread { Simulated, AroundPoint };

struct ReservationForecastOptions {
    // Commitment term, 1 … 26,304 h: the real hours of 12 or 36 calendar months from the term's
    // start (termHours(start, months): 8,760 or 8,784 a year).
    int termHours = kOneYearHours;
    int paths = 16;                // simulated demand paths over the term, 1 … 100
    uint64_t seed = 1;             // model i uses seed + i
    Money reservedRate;            // per GPU-hour of the commitment (paid every hour)
    Money elasticRate;             // per GPU-hour above the reservation (on-demand / blended)
    int lookbackHours = 0;         // last hours of the history used by the look-back answer; 0 = all
    // Empty: path noise N(0, residual sd²) drawn independently per model. Otherwise the series
    // each model was fitted on (same order and length as their fitted values): a joint residual
    // bootstrap (see PathNoise::JointBootstrap in forecast_compare.h) replays the residuals of
    // one training hour, the same for every model, keeping the models' cross-correlation.
    std::vector<std::vector<double>> bootstrapFrom;
    PathSpread spread = PathSpread::Simulated;
};

// A reservation and what it costs over the term, evaluated on the forecast.
struct ReservationChoice {
    std::string rule;              // "forecast optimum", "look-back optimum", "P50 of history", ...
    int64_t reserved = 0;          // GPUs committed
    Money expectedCost;            // mean over simulated paths of the term's cost
    Money saving;                  // all-on-demand cost minus expectedCost, both in cents as shown (negative: worse)
};

// The forecast distribution drives the cost optimizer. The `paths` simulated term-long paths
// (negative simulated values clipped to 0 GPUs: demand cannot be negative) are pooled into one
// hourly series of paths × termHours values; analyseReservation on it gives, for every
// reservation R, the pooled cost, which divided by `paths` is the expected cost of R over
// one term (the cost of R is linear in hours, so pooling equals averaging over paths).
// Pooling whole paths keeps trend and season in every path. Demand is rounded to 1e-9 GPU
// (the cost engine's exact Decimal). Choices are ordered: forecast optimum, look-back
// optimum, P50 of history, P75 of history, all on demand (R = 0).
struct ReservationHandOff {
    int termHours = 0;
    int paths = 0;
    std::vector<ReservationChoice> choices;
    ReservationChoice forecastOptimum;      // = choices[0]
    ReservationChoice lookbackOptimum;      // optimum of the history, costed on the forecast
    Money allOnDemand;                      // R = 0 over the term, expected
    ReserveAnalysis onForecast;             // analyseReservation on the pooled paths (costs pooled)
    ReserveAnalysis onHistory;              // analyseReservation on the look-back window
    std::vector<double> forecastMean;       // mean simulated demand per hour of the term, GPUs
    std::vector<double> forecastP05, forecastP95; // per hour of the term, GPUs
};

// `models` are fitted models whose simulated paths are summed path by path (one model for a
// single forecast of the total, one per primitive for a decomposed one); `history` is the
// hourly total they were fitted on (GPUs, ≥ 0). Progress counts one step per simulated model
// and one for each analysis. Throws InputError: "models" (none), "history" (empty, NaN or
// negative), "term_hours", "paths", "lookback_hours", "bootstrap_from" (one series per model,
// each as long as its model's fitted values), "spread" (AroundPoint with several models and no
// bootstrapFrom, or one model whose fitted values are not as long as the history), and analyseReservation's errors
// ("reserved_rate", "elastic_rate", "demand"); ForecastCancelled when cancelled.
ReservationHandOff reservationFromForecast(const std::vector<double> &history,
                                           const std::vector<SmoothingModel> &models,
                                           const ReservationForecastOptions &options,
                                           const ForecastProgress &progress = {});

} // namespace headroom::engine
