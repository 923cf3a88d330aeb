#pragma once

#include "forecast.h"

#include <vector>

// Joint estimation of the Holt-Winters smoothing parameters and initial states, as
// statsmodels' ExponentialSmoothing(..., initialization_method="estimated").fit() does, within
// its bounds: alpha in [0, 1], beta in [0, alpha], gamma in [0, 1 − alpha], phi in
// [0.8, 0.995], initial states free (positive seasonal factors for a multiplicative season).
namespace headroom::engine {

inline constexpr double kEstimatedPhiLower = 0.8;
inline constexpr double kEstimatedPhiUpper = 0.995;

// SSE of the one-step errors and, when `gradient` is not null, its exact gradient by reverse
// accumulation through the recursions (one forward and one backward pass over the series).
// Gradient order: alpha, beta, gamma, phi, level, trend, seasonal[0 … m−1] (entries of parts
// the model does not use are 0). Returns +∞ for a multiplicative season whose factor or base
// is not positive somewhere.
double smoothingSseWithGradient(const std::vector<double> &series, const SmoothingSpec &spec,
                                const SmoothingParams &params, const InitialStates &states,
                                std::vector<double> *gradient);

// Least-squares initial states for fixed parameters (Levenberg–Marquardt on the one-step
// predictions, exact in one step for additive models), starting from `start`; at most
// `iterations` steps. Defined with the filter in forecast.cpp.
InitialStates leastSquaresStates(const std::vector<double> &series, const SmoothingSpec &spec,
                                 const SmoothingParams &params, const InitialStates &start, int iterations,
                                 int &evaluations);

struct JointEstimate {
    SmoothingParams params;
    InitialStates states;
    double sse = 0.0;
    int evaluations = 0;   // SSE (and gradient) evaluations
};

// Minimises the SSE over the parameters and initial states together: a grid over alpha,
// beta/alpha, gamma/(1 − alpha) and phi with the heuristic states; quasi-Newton (L-BFGS with
// exact gradients, bounds kept by p = lower + (upper − lower)·sin²u) from the best few grid
// points and from statsmodels' own start; the best of them refined further.
JointEstimate estimateJointly(const std::vector<double> &series, const SmoothingSpec &spec,
                              const InitialStates &heuristic);

} // namespace headroom::engine
