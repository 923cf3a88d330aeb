#pragma once

#include "forecast.h"

#include <cstdint>
#include <string>
#include <vector>

// Forecast accuracy, rolling-origin backtests and decomposed forecasting (DESIGN §3.6;
// Hyndman & Koehler 2006 for MASE, Gneiting & Raftery 2007 for the pinball loss).
namespace headroom::engine {

// Mean absolute percentage error, percent: 100 · mean |y − f| / |y| (y ≠ 0).
double meanAbsolutePercentageError(const std::vector<double> &actual, const std::vector<double> &forecast);
// Symmetric MAPE, percent: 100 · mean 2|y − f| / (|y| + |f|); a point with y = f = 0 counts 0.
double symmetricMape(const std::vector<double> &actual, const std::vector<double> &forecast);
// In-sample mean absolute error of the seasonal naive forecast y_t ≈ y_{t−lag}: the MASE scale.
double seasonalNaiveScale(const std::vector<double> &training, int lag);
// Mean absolute scaled error: mean |y − f| / seasonalNaiveScale(training, lag).
double meanAbsoluteScaledError(const std::vector<double> &actual, const std::vector<double> &forecast,
                               const std::vector<double> &training, int lag);
// Mean pinball loss of quantile forecasts at level q: q (y − f) when y ≥ f, else (1 − q)(f − y).
double pinballLoss(const std::vector<double> &actual, const std::vector<double> &quantileForecast, double q);
// Share of actual values inside [lower, upper] (bounds included), in [0, 1].
double intervalCoverage(const std::vector<double> &actual, const std::vector<double> &lower,
                        const std::vector<double> &upper);

// Rolling origin: `origins` consecutive non-overlapping windows of `horizon` values at the end
// of the series; each is forecast from a model fitted (with the same FitOptions) on all values
// before it. Intervals and quantiles come from `paths` simulated paths.
struct BacktestOptions {
    int origins = 3;
    int horizon = 24;
    std::vector<double> quantiles{0.5, 0.95};  // pinball loss levels
    double intervalLower = 0.05;               // coverage interval [P05, P95] by default
    double intervalUpper = 0.95;
    int paths = 500;
    uint64_t seed = 1;
};

// Metrics pooled over every held-out value; mase uses each window's own training scale
// (lag = the season length, 1 without a season).
struct BacktestResult {
    double mape = 0.0;                 // percent
    double smape = 0.0;                // percent
    double mase = 0.0;
    double coverage = 0.0;             // share in [0, 1]
    std::vector<double> pinball;       // one per BacktestOptions::quantiles, series unit
    int points = 0;                    // held-out values scored
};

// Throws InputError: "backtest" (fewer than one origin, or too little history before the
// first window), "horizon", and the errors of fitSmoothing.
BacktestResult backtestSmoothing(const std::vector<double> &series, const SmoothingSpec &spec,
                                 const FitOptions &fit, const BacktestOptions &options);

// Decomposed forecast of a total: each primitive series is fitted on its own, its paths
// simulated (seed + index), paths summed path by path; quantiles of that sum per step, next to
// the sums of per-primitive quantiles (which overstate the spread of independent primitives).
struct DecomposedForecast {
    std::vector<double> probabilities;
    std::vector<std::vector<double>> quantilesOfSum;  // [probability][step]
    std::vector<std::vector<double>> sumOfQuantiles;  // [probability][step]
    std::vector<double> pointSum;                     // sum of point forecasts per step
    std::vector<SmoothingModel> models;               // one per primitive
    std::vector<std::vector<std::vector<double>>> primitiveQuantiles; // [primitive][probability][step]
};

DecomposedForecast forecastDecomposed(const std::vector<std::vector<double>> &primitives,
                                      const SmoothingSpec &spec, int horizon,
                                      const std::vector<double> &probabilities, int paths,
                                      uint64_t seed, const FitOptions &fit = {});

struct DecomposeOptions {
    FitOptions fit;
    // Demand cannot be negative: simulated GPUs floored at 0, path by path, before summing.
    bool floorAtZero = false;
    // Names of the primitives for error messages ("tenant/model/type"); "primitive N" when absent.
    std::vector<std::string> names;
    // One step per fitted and simulated primitive; false cancels (ForecastCancelled).
    ForecastProgress progress;
};

// The same with options; throws InputError naming the primitive whose fit failed.
DecomposedForecast forecastDecomposed(const std::vector<std::vector<double>> &primitives,
                                      const SmoothingSpec &spec, int horizon,
                                      const std::vector<double> &probabilities, int paths,
                                      uint64_t seed, const DecomposeOptions &options);

} // namespace headroom::engine
