#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"
#include "engine/forecast/forecast_backtest.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;

TEST_CASE("accuracy metrics match hand-computed values", "[forecast][backtest]")
{
    const std::vector<double> actual{100, 200, 50};
    const std::vector<double> forecast{110, 180, 50};
    // 100 · (10/100 + 20/200 + 0) / 3
    CHECK(meanAbsolutePercentageError(actual, forecast) == Approx(20.0 / 3.0).epsilon(1e-12));
    // 100 · (20/210 + 40/380 + 0) / 3 = 6.683375104...
    CHECK(symmetricMape(actual, forecast) == Approx(6.6833751044277).epsilon(1e-12));
    // scale: lag-1 differences of {10, 14, 12, 18} are 4, 2, 6 → 4; MAE 30/3 = 10
    CHECK(seasonalNaiveScale({10, 14, 12, 18}, 1) == 4.0);
    CHECK(seasonalNaiveScale({10, 14, 12, 18}, 2) == 3.0); // |12 − 10|, |18 − 14|
    CHECK(meanAbsoluteScaledError(actual, forecast, {10, 14, 12, 18}, 1) == 2.5);
    // q = 0.9: over-forecast by 10 costs 0.1 · 10, under-forecast by 20 costs 0.9 · 20
    CHECK(pinballLoss(actual, forecast, 0.9) == Approx(19.0 / 3.0).epsilon(1e-12));
    CHECK(pinballLoss(actual, forecast, 0.5) == Approx(5.0).epsilon(1e-12));
    CHECK(intervalCoverage(actual, {95, 190, 50}, {105, 210, 60}) == 1.0); // bounds included
    CHECK(intervalCoverage(actual, {95, 190, 50}, {105, 199, 60}) == Approx(2.0 / 3.0));
}

TEST_CASE("bad metric input names its field", "[forecast][backtest]")
{
    CHECK_THROWS_AS(meanAbsolutePercentageError({1, 2}, {1}), InputError);
    try {
        meanAbsolutePercentageError({0, 2}, {1, 2});
        FAIL("a zero actual value must be refused");
    } catch (const InputError &error) {
        CHECK(error.field() == "actual");
    }
    try {
        meanAbsoluteScaledError({1}, {2}, {5, 5, 5}, 1);
        FAIL("a zero MASE scale must be refused");
    } catch (const InputError &error) {
        CHECK(error.field() == "training");
    }
}

TEST_CASE("a backtest of an exact trend scores its held-out window by hand", "[forecast][backtest]")
{
    // Holt, α = β = 0.5, l0 = 8, b0 = 2: the training values 10, 12, 14, 16 are predicted
    // exactly (sd 0), so the forecast is 18, 20 with degenerate intervals; actual 19, 19.
    FitOptions fit;
    fit.fixedParams = SmoothingParams{0.5, 0.5, 0.0, 1.0};
    fit.knownStates = InitialStates{8.0, 2.0, {}};
    BacktestOptions options;
    options.origins = 1;
    options.horizon = 2;
    options.quantiles = {0.5, 0.95};
    const BacktestResult r = backtestSmoothing({10, 12, 14, 16, 19, 19},
                                               {TrendKind::Additive, SeasonKind::None, 0}, fit, options);
    CHECK(r.points == 2);
    CHECK(r.mape == Approx(100.0 / 19.0).epsilon(1e-12));                   // (1/19 + 1/19) / 2
    CHECK(r.smape == Approx(50.0 * (2.0 / 37.0 + 2.0 / 39.0)).epsilon(1e-12));
    CHECK(r.mase == Approx(0.5).epsilon(1e-12));                             // MAE 1, scale 2
    REQUIRE(r.pinball.size() == 2);
    CHECK(r.pinball[0] == Approx(0.5).epsilon(1e-12));                       // (0.5 + 0.5) / 2
    CHECK(r.pinball[1] == Approx(0.5).epsilon(1e-12));                       // (0.95 + 0.05) / 2
    CHECK(r.coverage == 0.0);                                                // 19 ∉ [18, 18], [20, 20]
}

TEST_CASE("a two-origin backtest refits at each origin", "[forecast][backtest]")
{
    // Simple smoothing α = 0.5, l0 = 10 on 10, 12, 11, 13, 12 with windows of one value:
    // origin 3: level 11 → forecast 11, actual 13; scale (2 + 1) / 2 = 1.5
    // origin 4: level 12 → forecast 12, actual 12; scale (2 + 1 + 2) / 3
    FitOptions fit;
    fit.fixedParams = SmoothingParams{0.5, 0.0, 0.0, 1.0};
    fit.knownStates = InitialStates{10.0, 0.0, {}};
    BacktestOptions options;
    options.origins = 2;
    options.horizon = 1;
    const BacktestResult r = backtestSmoothing({10, 12, 11, 13, 12}, {}, fit, options);
    CHECK(r.points == 2);
    CHECK(r.mape == Approx(100.0 / 13.0).epsilon(1e-12));       // (2/13 + 0) / 2
    CHECK(r.smape == Approx(100.0 / 12.0).epsilon(1e-12));      // (4/24 + 0) / 2
    CHECK(r.mase == Approx(2.0 / 3.0).epsilon(1e-12));          // (2/1.5 + 0) / 2
    CHECK(r.coverage >= 0.0);
    CHECK(r.coverage <= 1.0);
}

TEST_CASE("a backtest without enough history is refused", "[forecast][backtest]")
{
    BacktestOptions options;
    options.origins = 3;
    options.horizon = 2;
    try {
        backtestSmoothing({1, 2, 3, 4, 5, 6}, {}, {}, options);
        FAIL("no history left to fit on");
    } catch (const InputError &error) {
        CHECK(error.field() == "backtest");
    }
}

TEST_CASE("quantiles of summed primitives differ from sums of quantiles", "[forecast][decomposed]")
{
    // Ten independent primitives with the same noise level: P95 of the total lies about
    // √10 · 1.645 sd above its median, the sum of P95s about 10 · 1.645 sd.
    std::vector<std::vector<double>> primitives;
    for (int i = 0; i < 10; ++i) {
        std::vector<double> y;
        for (int t = 0; t < 200; ++t)
            y.push_back(50.0 + 3.0 * std::sin(0.37 * t * (i + 1) + i) + 2.0 * std::cos(1.3 * t + 0.5 * i));
        primitives.push_back(y);
    }
    FitOptions fit;
    fit.fixedParams = SmoothingParams{0.2, 0.0, 0.0, 1.0};
    const DecomposedForecast d = forecastDecomposed(primitives, {}, 24, {0.5, 0.95, 0.99}, 4000, 3, fit);
    REQUIRE(d.models.size() == 10);
    REQUIRE(d.quantilesOfSum.size() == 3);
    for (size_t k = 0; k < 24; ++k) {
        INFO("step " << k + 1);
        const double spreadOfSum = d.quantilesOfSum[1][k] - d.quantilesOfSum[0][k];
        const double sumOfSpreads = d.sumOfQuantiles[1][k] - d.sumOfQuantiles[0][k];
        CHECK(spreadOfSum > 0.0);
        CHECK(sumOfSpreads / spreadOfSum == Approx(std::sqrt(10.0)).epsilon(0.15));
        CHECK(d.quantilesOfSum[2][k] < d.sumOfQuantiles[2][k]);
        CHECK(d.quantilesOfSum[0][k] == Approx(d.pointSum[k]).epsilon(0.01));
    }
}

TEST_CASE("a decomposed forecast floors demand at zero, keeps each primitive's quantiles, names a failing "
          "primitive and can be cancelled",
          "[forecast][decomposed]")
{
    // Two primitives hovering near zero: unfloored paths go negative, floored ones cannot.
    std::vector<std::vector<double>> primitives(2);
    for (int t = 0; t < 120; ++t) {
        primitives[0].push_back(1.0 + 2.0 * std::sin(0.9 * t));
        primitives[1].push_back(0.5 + 1.5 * std::cos(1.7 * t));
    }
    DecomposeOptions options;
    options.fit.fixedParams = SmoothingParams{0.3, 0.0, 0.0, 1.0};
    const std::vector<double> probabilities{0.01, 0.5, 0.99};
    const DecomposedForecast raw = forecastDecomposed(primitives, {}, 12, probabilities, 500, 7, options);
    options.floorAtZero = true;
    int steps = 0;
    options.progress = [&steps](int done, int total) {
        CHECK(total == 2);
        steps = done;
        return true;
    };
    const DecomposedForecast floored = forecastDecomposed(primitives, {}, 12, probabilities, 500, 7, options);
    CHECK(steps == 2);
    REQUIRE(raw.primitiveQuantiles.size() == 2);
    REQUIRE(floored.primitiveQuantiles.size() == 2);
    CHECK(raw.primitiveQuantiles[0][0].back() < 0.0);   // P01 of primitive 1 at step 12
    for (const auto &primitive : floored.primitiveQuantiles)
        for (double q : primitive[0])
            CHECK(q >= 0.0);
    for (double q : floored.quantilesOfSum[0])
        CHECK(q >= 0.0);
    // Floored at zero, the upper quantiles stay where they were.
    CHECK(floored.primitiveQuantiles[1][2].back() == Approx(raw.primitiveQuantiles[1][2].back()));

    options.progress = [](int done, int) { return done < 1; };
    CHECK_THROWS_AS(forecastDecomposed(primitives, {}, 12, probabilities, 500, 7, options), ForecastCancelled);

    options.progress = {};
    options.names = {"acme/llama/chat", "acme/llama/batch"};
    primitives[1][5] = std::nan("");
    try {
        forecastDecomposed(primitives, {}, 12, probabilities, 500, 7, options);
        FAIL("a NaN in a primitive must be refused");
    } catch (const InputError &error) {
        CHECK_THAT(error.what(), Catch::Matchers::StartsWith("acme/llama/batch: "));
    }
}
