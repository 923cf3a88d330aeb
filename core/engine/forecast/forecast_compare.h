#pragma once

#include "forecast.h"

#include <cstdint>
#include <string>
#include <vector>

// Decomposed versus single-model forecasting of a total on the same held-out window
// (DESIGN §3.6): is it worth modelling each primitive, especially in the burst hours that
// break SLOs?
namespace headroom::engine {

// Where the noise of simulated paths comes from.
enum class PathNoise {
    // N(0, residual sd²) drawn independently for every primitive (simulatePaths): right when
    // the primitives' errors are independent; too narrow an interval for the total when they
    // move together (a shared weekly pattern the models miss, a fleet-wide event).
    Independent,
    // Joint residual bootstrap: each step of each path replays the one-step residuals
    // (actual − fitted) of one training hour drawn at random (after the first season, whose
    // residuals carry the start-up of the initial states), the same hour for every primitive
    // and for the total, so the primitives' cross-correlation is kept.
    JointBootstrap
};

struct CompareOptions {
    int holdoutHours = 168;        // last values of every series held out and scored (≥ 1)
    int paths = 500;               // simulated paths per model (≥ 10)
    uint64_t seed = 1;             // primitive i uses seed + i, the total seed + primitive count
    double burstQuantile = 0.90;   // burst hours: held-out hours whose actual total exceeds
                                   // this quantile of the training total, in (0, 1)
    FitOptions fit;                // used for every primitive and for the total
    PathNoise noise = PathNoise::Independent;
};

// Errors of one forecast of the total over a set of held-out hours. The point forecast
// (mean path, i.e. forecastSmoothing, summed over primitives for the decomposed side) is
// scored by MAPE, sMAPE and MASE (scale: seasonal naive on the training total, lag = the
// season, 1 without one; NaN when that scale is 0); the simulated quantiles by pinball loss
// and coverage. MAPE leaves out hours whose actual is 0 (NaN when all are). All NaN, with
// points 0, when the set is empty (no burst hour in the window).
struct ForecastErrors {
    double mape = 0.0;             // percent
    double smape = 0.0;            // percent
    double mase = 0.0;
    double pinball50 = 0.0;        // pinball loss of P50, GPUs
    double pinball95 = 0.0;        // pinball loss of P95, GPUs
    double coverage90 = 0.0;       // share of actuals inside [P05, P95], ideal 0.90
    double coverageP95 = 0.0;      // share of actuals ≤ P95, ideal 0.95
    int points = 0;                // held-out hours scored
};

// One way of forecasting the total: per-step point forecast and quantiles of the total.
struct TotalForecast {
    std::vector<double> point;     // GPUs per hour
    std::vector<double> p05, p50, p75, p95, p99;
    ForecastErrors overall;        // every held-out hour
    ForecastErrors burst;          // burst hours only
};

struct ForecastComparison {
    int trainingHours = 0;
    std::vector<double> actual;    // held-out total, GPUs per hour
    double burstThreshold = 0.0;   // burstQuantile of the training total, GPUs
    std::vector<int> burstHours;   // indices into `actual` above the threshold
    TotalForecast decomposed;      // primitives fitted apart, paths summed, quantiles of the sum
    TotalForecast single;          // one model fitted to the total
    std::vector<SmoothingModel> primitiveModels; // one per primitive, fitted on the training part
    SmoothingModel totalModel;
};

// Fits each primitive and their hour-by-hour total on all but the last holdoutHours values,
// simulates `paths` paths of each over the held-out window (noise as options.noise says),
// sums the primitive paths path by path, and scores both forecasts of the total against the actual
// total. Progress counts one step per fitted model (primitives + 1). Throws InputError:
// "primitives" (none, or of different lengths), "holdout" (< 1, or leaves too little
// training history for the spec), "paths", "burst_quantile", and the errors of fitSmoothing
// with the message prefixed by the primitive's index; ForecastCancelled when cancelled.
ForecastComparison compareDecomposed(const std::vector<std::vector<double>> &primitives,
                                     const SmoothingSpec &spec, const CompareOptions &options,
                                     const ForecastProgress &progress = {});

} // namespace headroom::engine
