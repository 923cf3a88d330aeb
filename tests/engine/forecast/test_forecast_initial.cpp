#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <vector>

using namespace headroom::engine;

namespace {

// A series drawn from the model: paths of a model whose end states are the start states.
std::vector<double> synthetic(const SmoothingSpec &spec, const SmoothingParams &params,
                              const InitialStates &states, double sd, int length, uint64_t seed)
{
    SmoothingModel source;
    source.spec = spec;
    source.params = params;
    source.endStates = states;
    source.residualSd = sd;
    return simulatePaths(source, length, 1, seed).values;
}

// Daily additive season summing to zero: a bump at 14:00.
std::vector<double> dailyBump(double height)
{
    std::vector<double> s;
    for (int h = 0; h < 24; ++h)
        s.push_back(height * std::exp(-(h - 14) * (h - 14) / 32.0));
    const double mean = std::accumulate(s.begin(), s.end(), 0.0) / 24.0;
    for (double &v : s)
        v -= mean;
    return s;
}

} // namespace

TEST_CASE("estimated initial states recover the true states with known parameters", "[forecast][initial]")
{
    // Without noise the one-step errors vanish at the true states, and the predictions are
    // affine in the states: least squares lands on them exactly.
    const SmoothingSpec spec{TrendKind::Additive, SeasonKind::Additive, 24};
    const SmoothingParams truth{0.3, 0.05, 0.2, 1.0};
    const InitialStates states{120.0, 0.25, dailyBump(40.0)};
    const std::vector<double> y = synthetic(spec, truth, states, 0.0, 24 * 10, 1);
    FitOptions options;
    options.fixedParams = truth;
    options.initial = InitialMethod::Estimated;
    const SmoothingModel fit = fitSmoothing(y, spec, options);
    CHECK(fit.initial.level == Approx(120.0).margin(1e-6));
    CHECK(fit.initial.trend == Approx(0.25).margin(1e-6));
    REQUIRE(fit.initial.seasonal.size() == 24);
    for (size_t h = 0; h < 24; ++h) {
        INFO("phase " << h);
        CHECK(fit.initial.seasonal[h] == Approx(states.seasonal[h]).margin(1e-6));
    }
    CHECK(fit.sse < 1e-12);
    CHECK(fit.evaluations > 0);
    // The heuristic starts from the first season and misses the trend's share of it.
    options.initial = InitialMethod::Heuristic;
    CHECK(fitSmoothing(y, spec, options).sse > 1.0);
}

TEST_CASE("estimating the initial states lowers the SSE and recovers the parameters", "[forecast][initial]")
{
    const SmoothingSpec spec{TrendKind::Additive, SeasonKind::Additive, 24};
    const SmoothingParams truth{0.25, 0.02, 0.15, 1.0};
    const InitialStates states{200.0, 0.1, dailyBump(60.0)};
    const std::vector<double> y = synthetic(spec, truth, states, 2.0, 24 * 40, 7);
    FitOptions heuristicOptions;
    heuristicOptions.initial = InitialMethod::Heuristic;
    const SmoothingModel heuristic = fitSmoothing(y, spec, heuristicOptions);
    FitOptions options;
    options.initial = InitialMethod::Estimated;
    const SmoothingModel estimated = fitSmoothing(y, spec, options);
    CHECK(estimated.sse < heuristic.sse);
    CHECK(estimated.params.alpha == Approx(truth.alpha).margin(0.08));
    CHECK(estimated.params.beta == Approx(truth.beta).margin(0.05));
    CHECK(estimated.params.gamma == Approx(truth.gamma).margin(0.08));
    CHECK(estimated.residualSd == Approx(2.0).margin(0.2));
    CHECK(estimated.initial.level == Approx(200.0).margin(5.0));
    const double seasonSum = std::accumulate(estimated.initial.seasonal.begin(), estimated.initial.seasonal.end(), 0.0);
    CHECK(seasonSum == Approx(0.0).margin(1e-6));
    CHECK(estimated.initial.seasonal[14] == Approx(states.seasonal[14]).margin(6.0));
    // The fitted values are those of the reported states and parameters.
    FitOptions replay;
    replay.fixedParams = estimated.params;
    replay.knownStates = estimated.initial;
    CHECK(fitSmoothing(y, spec, replay).sse == Approx(estimated.sse).epsilon(1e-12));
}

TEST_CASE("estimated states of a multiplicative season keep mean one and lower the SSE", "[forecast][initial]")
{
    const SmoothingSpec spec{TrendKind::Damped, SeasonKind::Multiplicative, 24};
    std::vector<double> season;
    for (int h = 0; h < 24; ++h)
        season.push_back(1.0 + 0.4 * std::sin(6.283185307179586 * (h - 8) / 24.0));
    const std::vector<double> y =
        synthetic(spec, {0.2, 0.05, 0.1, 0.95}, {300.0, 0.5, season}, 3.0, 24 * 30, 11);
    FitOptions heuristicOptions;
    heuristicOptions.initial = InitialMethod::Heuristic;
    const SmoothingModel heuristic = fitSmoothing(y, spec, heuristicOptions);
    FitOptions options;
    options.initial = InitialMethod::Estimated;
    const SmoothingModel estimated = fitSmoothing(y, spec, options);
    CHECK(estimated.sse < heuristic.sse);
    const double mean = std::accumulate(estimated.initial.seasonal.begin(), estimated.initial.seasonal.end(), 0.0) / 24.0;
    CHECK(mean == Approx(1.0).epsilon(1e-9));
    for (double s : estimated.initial.seasonal)
        CHECK(s > 0.0);
    // Within statsmodels' bounds for phi.
    CHECK(estimated.params.phi >= 0.8);
    CHECK(estimated.params.phi <= 0.995);
}

TEST_CASE("known initial states take precedence over estimation", "[forecast][initial]")
{
    const SmoothingSpec spec{TrendKind::None, SeasonKind::None, 0};
    const std::vector<double> y{10, 12, 11, 13, 12, 14, 13, 15};
    FitOptions options;
    options.fixedParams = SmoothingParams{0.5, 0.0, 0.0, 1.0};
    options.knownStates = InitialStates{7.0, 0.0, {}};
    options.initial = InitialMethod::Estimated;
    const SmoothingModel fit = fitSmoothing(y, spec, options);
    CHECK(fit.initial.level == 7.0);
    CHECK(fit.evaluations == 0);
    // Without them the level moves to lower the SSE.
    options.knownStates.reset();
    const SmoothingModel estimated = fitSmoothing(y, spec, options);
    CHECK(estimated.initial.level != 10.0);
    options.initial = InitialMethod::Heuristic;
    CHECK(estimated.sse < fitSmoothing(y, spec, options).sse);
}

namespace {

// statsmodels 0.13.5 (Debian python3-statsmodels), /usr/bin/python3:
//   t = np.arange(48); y = np.round(20 + 0.5t + [-3,1,5,-2][t%4] + 3 sin(1.7t), 6)
//   r = ExponentialSmoothing(y, trend="add", damped_trend=D, seasonal="add", seasonal_periods=4,
//         initialization_method="estimated").fit(smoothing_level=.35, smoothing_trend=.12,
//         smoothing_seasonal=.25[, damping_trend=.9])      → fixed parameters, states estimated
//   and .fit() with everything free.
// statsmodels does not normalise the seasonal states; the level absorbs the difference.
const std::vector<double> kSeries{17.0, 24.474994, 25.233377, 16.722556, 20.48234, 25.895461, 25.900376, 19.645589, 23.577485, 26.690222, 27.115808, 23.053003, 25.999379, 27.17409, 29.084605, 26.577175, 27.637819, 27.743088, 31.814918, 29.819984, 28.587248, 28.771, 35.115985, 32.456801, 29.12208, 30.51174, 38.647962, 34.321287, 29.625024, 33.033029, 42.010688, 35.448839, 30.487118, 36.198703, 44.848212, 36.067344, 32.00559, 39.704283, 46.941768, 36.537656, 34.306217, 43.156502, 48.266921, 37.259337, 37.310473, 46.176035, 48.999942, 38.566291};
struct StatsmodelsEstimated {
    TrendKind trend;
    double phi;
    double sse;               // fixed parameters, states estimated
    double level;
    double slope;
    std::vector<double> seasonal;
    double freeSse;           // everything estimated
};
const std::vector<StatsmodelsEstimated> kStatsmodels{
    {TrendKind::Additive, 1.0, 220.21689228521768, 19.969114231651705, 0.5015132978078122,
     {-2.6078340537860822, 1.7954956108760698, 3.405563399664897, -3.3947089733747116}, 51.85489886572351},
    {TrendKind::Damped, 0.9, 231.2177944770387, 19.42325331213396, 0.9752049112941106,
     {-2.6809747370561055, 1.6744400297608213, 3.2469837059561972, -3.587752266665577}, 51.895281828598314},
};

} // namespace

TEST_CASE("estimated initial states with fixed parameters match statsmodels", "[forecast][initial]")
{
    for (const StatsmodelsEstimated &reference : kStatsmodels) {
        INFO((reference.trend == TrendKind::Damped ? "damped" : "additive") << " trend");
        const SmoothingSpec spec{reference.trend, SeasonKind::Additive, 4};
        FitOptions options;
        options.fixedParams = SmoothingParams{0.35, 0.12, 0.25, reference.phi};
        options.initial = InitialMethod::Estimated;
        const SmoothingModel fit = fitSmoothing(kSeries, spec, options);
        CHECK(std::abs(fit.sse - reference.sse) <= 1e-6);
        CHECK(fit.initial.trend == Approx(reference.slope).margin(1e-5));
        // Same states up to the seasonal shift c that leaves every prediction unchanged.
        const double shift = reference.level - fit.initial.level;
        for (size_t k = 0; k < 4; ++k)
            CHECK(fit.initial.seasonal[k] - shift == Approx(reference.seasonal[k]).margin(1e-5));

        // With the parameters free, the fit does at least as well as statsmodels' optimizer.
        FitOptions free;
        free.initial = InitialMethod::Estimated;
        CHECK(fitSmoothing(kSeries, spec, free).sse <= reference.freeSse * (1.0 + 1e-6));
    }
}
