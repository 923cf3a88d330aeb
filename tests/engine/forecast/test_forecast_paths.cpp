#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace headroom::engine;

namespace {

// Standard normal draws: paths of a model that forecasts 0 with residual sd 1 and never
// updates its level (α = 0).
std::vector<double> draws(int count, uint64_t seed)
{
    SmoothingModel model;
    model.params = {0.0, 0.0, 0.0, 1.0};
    model.residualSd = 1.0;
    return simulatePaths(model, count, 1, seed).values;
}

double normalTail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

} // namespace

TEST_CASE("path noise is standard normal in its moments and tails", "[forecast][paths]")
{
    const int n = 2'000'000;
    const std::vector<double> z = draws(n, 2026);
    double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
    for (double v : z) {
        sum += v;
        sum2 += v * v;
        sum4 += v * v * v * v;
    }
    const double mean = sum / n, variance = sum2 / n - mean * mean;
    CHECK(std::abs(mean) < 4.0 / std::sqrt(double(n)));        // 4 standard errors
    CHECK(variance == Approx(1.0).margin(0.005));
    CHECK(sum4 / n == Approx(3.0).margin(0.03));                // kurtosis of a normal
    // Tail shares against the normal CDF, including the ziggurat's tail beyond 3.44.
    for (double cut : {0.5, 1.0, 1.645, 1.96, 2.576, 3.0, 3.5, 4.0}) {
        INFO("cut " << cut);
        const double above = double(std::count_if(z.begin(), z.end(), [&](double v) { return v > cut; })) / n;
        const double below = double(std::count_if(z.begin(), z.end(), [&](double v) { return v < -cut; })) / n;
        const double p = normalTail(cut);
        const double se = std::sqrt(p * (1.0 - p) / n);
        CHECK(std::abs(above - p) < 5.0 * se);
        CHECK(std::abs(below - p) < 5.0 * se);
    }
    // Consecutive draws are uncorrelated.
    double lag = 0.0;
    for (int i = 1; i < n; ++i)
        lag += z[size_t(i)] * z[size_t(i - 1)];
    CHECK(std::abs(lag / n) < 4.0 / std::sqrt(double(n)));
}

TEST_CASE("path noise is reproducible for a seed and differs between seeds", "[forecast][paths]")
{
    CHECK(draws(1000, 5) == draws(1000, 5));
    CHECK(draws(1000, 5) != draws(1000, 6));
}

TEST_CASE("several path quantiles at once equal one level at a time", "[forecast][paths]")
{
    SmoothingModel model;
    model.spec = {TrendKind::Additive, SeasonKind::None, 0};
    model.params = {0.4, 0.1, 0.0, 1.0};
    model.endStates.level = 50.0;
    model.endStates.trend = 0.5;
    model.residualSd = 2.0;
    for (int paths : {1, 2, 7, 101}) {
        INFO(paths << " paths");
        const SamplePaths p = simulatePaths(model, 30, paths, 9);
        const std::vector<double> levels{0.95, 0.05, 0.5, 0.5, 0.0, 1.0, 0.99, 0.75};
        const std::vector<std::vector<double>> together = pathQuantiles(p, levels);
        REQUIRE(together.size() == levels.size());
        for (size_t i = 0; i < levels.size(); ++i)
            CHECK(together[i] == pathQuantiles(p, levels[i]));
    }
    CHECK_THROWS_AS(pathQuantiles(simulatePaths(model, 3, 5, 1), std::vector<double>{0.5, 1.5}), InputError);
}
