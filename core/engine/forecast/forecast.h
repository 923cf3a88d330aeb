#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

// Holt-Winters exponential smoothing of an hourly demand series (DESIGN §3.6).
// The recursions are those of statsmodels' ExponentialSmoothing (statsmodels.tsa.holtwinters,
// Hyndman & Athanasopoulos, "Forecasting: Principles and Practice", §8.3):
//   level    l_t = α (y_t − s_{t−m}) + (1 − α)(l_{t−1} + φ b_{t−1})      (÷ s_{t−m} when multiplicative)
//   trend    b_t = β (l_t − l_{t−1}) + (1 − β) φ b_{t−1}
//   season   s_t = γ (y_t − l_{t−1} − φ b_{t−1}) + (1 − γ) s_{t−m}       (÷ (l_{t−1} + φ b_{t−1}) when multiplicative)
//   one step ŷ_t = (l_{t−1} + φ b_{t−1}) + s_{t−m}                        (× s_{t−m} when multiplicative)
// with φ = 1 for an additive trend and b ≡ 0 without one. An h-step forecast is
// l_n + (φ + … + φ^h) b_n combined with the latest seasonal of that phase.
namespace headroom::engine {

enum class TrendKind { None, Additive, Damped };
enum class SeasonKind { None, Additive, Multiplicative };

// The model form. period is the season length in samples (24 daily, 168 weekly for hourly data).
struct SmoothingSpec {
    TrendKind trend = TrendKind::None;
    SeasonKind season = SeasonKind::None;
    int period = 0;
};

// Smoothing parameters, each in [0, 1]; beta is ignored without a trend, gamma without a
// season, phi unless the trend is damped (then in (0, 1]).
struct SmoothingParams {
    double alpha = 0.5;
    double beta = 0.0;
    double gamma = 0.0;
    double phi = 1.0;
};

// Initial states at time 0 (before the first observation), in the series' unit.
// seasonal holds the m states s_{0−m} … s_{−1}, the first applying to the first observation.
struct InitialStates {
    double level = 0.0;
    double trend = 0.0;
    std::vector<double> seasonal;
};

// Where the initial states of a fit come from when they are not known.
//  Heuristic: initialStatesHeuristic, kept fixed while the parameters are fitted (Nelder–Mead
//    within [0, 1], phi within [0.8, 0.98]).
//  Estimated (the default): like statsmodels' initialization_method="estimated", the initial
//    level, trend and seasonal values are fitted together with the parameters, within
//    statsmodels' bounds (alpha in [0, 1], beta in [0, alpha], gamma in [0, 1 − alpha], phi in
//    [0.8, 0.995]): a grid over the parameters with the heuristic states, quasi-Newton descent
//    with exact gradients from the best few grid points, the best refined (see
//    forecast_estimate.h). With fixed parameters only the states are fitted, by least squares
//    (exact for additive models, whose one-step predictions are affine in the states:
//    statsmodels' SSE to 1e-6). The seasonal states are reported normalised (sum 0 additive,
//    mean 1 multiplicative), which leaves every prediction unchanged.
enum class InitialMethod { Heuristic, Estimated };
inline constexpr int kEstimationRounds = 6;

// How to fit: fixed parameters (none fitted) and/or known initial states (else `initial`
// decides).
struct FitOptions {
    std::optional<SmoothingParams> fixedParams;
    std::optional<InitialStates> knownStates;
    int maxEvaluations = 2000;  // SSE evaluations of the heuristic fit's optimizer
    InitialMethod initial = InitialMethod::Estimated; // ignored when knownStates is given
};

// A fitted model: parameters, initial and final states, in-sample one-step predictions.
struct SmoothingModel {
    SmoothingSpec spec;
    SmoothingParams params;
    InitialStates initial;
    InitialStates endStates;        // states after the last observation; seasonal[k] applies k + 1 steps ahead
    std::vector<double> fitted;     // one-step predictions ŷ_t, one per observation
    double sse = 0.0;               // Σ (y_t − ŷ_t)², series unit²
    double residualSd = 0.0;        // √(sse / n), series unit
    int evaluations = 0;            // SSE evaluations spent by the optimizer (0 when fixed)
};

// Simple initial states: without a season l_0 = y_0, b_0 = y_1 − y_0; with one, l_0 = mean of
// the first season, b_0 = mean of (y_{m+i} − y_i) / m over the first two seasons, and
// s_i = y_i − l_0 (additive) or y_i / l_0 (multiplicative), i < m.
InitialStates initialStatesHeuristic(const std::vector<double> &series, const SmoothingSpec &spec);

// The largest magnitude a series value may have: squared one-step errors of larger values
// overflow the SSE.
inline constexpr double kMaxSeriesValue = 1e12;

// Fits the model by minimising the SSE of one-step errors (Nelder–Mead, each trial point
// clamped to the bounds). Throws InputError naming the field: "series" (NaN, infinite or beyond
// ±kMaxSeriesValue,
// shorter than two seasons or two points, non-positive for a multiplicative season),
// "season", "alpha", "beta", "gamma", "phi", "initial_seasonal".
SmoothingModel fitSmoothing(const std::vector<double> &series, const SmoothingSpec &spec,
                            const FitOptions &options = {});

// Point forecast for steps 1 … horizon after the last observation.
std::vector<double> forecastSmoothing(const SmoothingModel &model, int horizon);

// Sample paths of the next `horizon` values: each step draws y = ŷ + ε, ε ~ N(0, sd²) with
// sd = model.residualSd, from std::mt19937_64(seed) through a 128-layer ziggurat (Marsaglia &
// Tsang 2000; the same numbers with every standard library), then updates the states with y.
// Row-major: value(path, step) = values[path × horizon + step].
struct SamplePaths {
    int horizon = 0;
    int paths = 0;
    std::vector<double> values;
};
SamplePaths simulatePaths(const SmoothingModel &model, int horizon, int paths, uint64_t seed);

// Sample paths driven by given innovations instead of normal draws: step s of path p adds
// innovations[p × horizon + s] (series unit) to the one-step prediction, then updates the
// states. Used to replay resampled residuals. Throws InputError("innovations") when the
// count is not paths × horizon or a value is not finite.
SamplePaths simulatePathsWith(const SmoothingModel &model, int horizon, int paths,
                              const std::vector<double> &innovations);

// Per-step empirical quantile (type 7, numpy's default) of the paths, q in [0, 1].
std::vector<double> pathQuantiles(const SamplePaths &paths, double q);
// Several levels at once, [level][step], equal to pathQuantiles per level but cheaper: each
// step's values are gathered once and partially ordered level by level.
std::vector<std::vector<double>> pathQuantiles(const SamplePaths &paths, const std::vector<double> &levels);

// Type-7 quantile of a sample, q in [0, 1].
double sampleQuantile(std::vector<double> values, double q);

// Progress of a long forecasting run (decomposed comparison, reservation hand-off), called
// from the worker thread that runs it: `done` of `total` steps finished. Return false to
// cancel; the run then throws ForecastCancelled at the next step and returns nothing.
using ForecastProgress = std::function<bool(int done, int total)>;

// Thrown when a ForecastProgress callback asked to stop.
class ForecastCancelled : public std::runtime_error {
public:
    ForecastCancelled() : std::runtime_error("the forecast run was cancelled") {}
};

} // namespace headroom::engine
