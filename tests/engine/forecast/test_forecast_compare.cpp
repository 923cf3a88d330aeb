#include "engine/common/errors.h"
#include "engine/forecast/forecast_compare.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

// A noisy daily primitive drawn from its own model: level, daily bump, N(0, sd²) noise.
std::vector<double> primitive(double level, double bump, double peakHour, double sd, int hours, uint64_t seed)
{
    SmoothingModel source;
    source.spec = {TrendKind::None, SeasonKind::Additive, 24};
    source.params = {0.1, 0.0, 0.05, 1.0};
    source.endStates.level = level;
    for (int h = 0; h < 24; ++h)
        source.endStates.seasonal.push_back(bump * std::exp(-(h - peakHour) * (h - peakHour) / 18.0) - bump * 0.3);
    source.residualSd = sd;
    return simulatePaths(source, hours, 1, seed).values;
}

template <typename Call>
std::string errorField(Call call)
{
    try {
        call();
    } catch (const InputError &error) {
        return error.field();
    }
    return "no error";
}

} // namespace

TEST_CASE("decomposed and single forecasts are scored on the same held-out window", "[forecast][compare]")
{
    const std::vector<std::vector<double>> primitives{
        primitive(40.0, 20.0, 14.0, 2.0, 24 * 21, 1),
        primitive(25.0, 30.0, 20.0, 3.0, 24 * 21, 2),
        primitive(10.0, 5.0, 3.0, 1.0, 24 * 21, 3),
    };
    CompareOptions options;
    options.holdoutHours = 48;
    options.paths = 400;
    std::vector<std::pair<int, int>> calls;
    const ForecastComparison c =
        compareDecomposed(primitives, {TrendKind::None, SeasonKind::Additive, 24}, options,
                          [&](int done, int total) {
                              calls.emplace_back(done, total);
                              return true;
                          });
    CHECK(c.trainingHours == 24 * 21 - 48);
    REQUIRE(c.actual.size() == 48);
    CHECK(c.actual[5] == Approx(primitives[0][c.trainingHours + 5] + primitives[1][c.trainingHours + 5]
                                + primitives[2][c.trainingHours + 5]));
    CHECK(c.primitiveModels.size() == 3);
    REQUIRE(calls.size() >= 2);
    CHECK(calls.front() == std::make_pair(0, 4));
    CHECK(calls.back() == std::make_pair(4, 4));

    for (const TotalForecast *f : {&c.decomposed, &c.single}) {
        REQUIRE(f->p50.size() == 48);
        for (size_t h = 0; h < 48; ++h) {
            CHECK(f->p05[h] <= f->p50[h]);
            CHECK(f->p50[h] <= f->p75[h]);
            CHECK(f->p75[h] <= f->p95[h]);
            CHECK(f->p95[h] <= f->p99[h]);
        }
        CHECK(f->overall.points == 48);
        CHECK(f->overall.mape > 0.0);
        CHECK(f->overall.mape < 20.0);
        CHECK(f->overall.mase > 0.0);
        CHECK(f->overall.coverage90 >= 0.6);
        CHECK(f->overall.coverageP95 >= f->overall.coverage90);
        CHECK(f->burst.points == int(c.burstHours.size()));
    }
    // Burst hours are exactly the held-out hours above the training P90 of the total.
    std::vector<double> training(c.trainingHours, 0.0);
    for (const auto &p : primitives)
        for (int t = 0; t < c.trainingHours; ++t)
            training[size_t(t)] += p[size_t(t)];
    CHECK(c.burstThreshold == Approx(sampleQuantile(training, 0.9)));
    size_t next = 0;
    for (size_t h = 0; h < c.actual.size(); ++h) {
        const bool listed = next < c.burstHours.size() && c.burstHours[next] == int(h);
        CHECK(listed == (c.actual[h] > c.burstThreshold));
        if (listed)
            ++next;
    }
    CHECK_FALSE(c.burstHours.empty());
}

TEST_CASE("comparison errors match hand-computed values in a burst hour", "[forecast][compare]")
{
    // Exactly periodic primitives (period 4) with fixed parameters: the heuristic states fit
    // without error (α = γ = ½ keep every state a short binary fraction, so the arithmetic
    // is exact), every simulated path equals the point forecast. One held-out hour of
    // primitive A jumps from 20 to 30 GPUs: the total 35 is above the training P90 (25).
    std::vector<double> a, b;
    for (int t = 0; t < 32; ++t) {
        a.push_back(t % 4 == 1 ? 20.0 : 10.0);
        b.push_back(5.0);
    }
    a[24 + 5] = 30.0;
    CompareOptions options;
    options.holdoutHours = 8;
    options.paths = 20;
    options.fit.fixedParams = SmoothingParams{0.5, 0.0, 0.5, 1.0};
    const ForecastComparison c = compareDecomposed({a, b}, {TrendKind::None, SeasonKind::Additive, 4}, options);
    CHECK(c.burstThreshold == Approx(25.0));
    REQUIRE(c.burstHours == std::vector<int>{5});
    for (const TotalForecast *f : {&c.decomposed, &c.single}) {
        CHECK(f->point[5] == Approx(25.0));
        CHECK(f->p95[5] == Approx(25.0));
        CHECK(f->overall.mape == Approx(100.0 * (10.0 / 35.0) / 8.0));
        CHECK(f->overall.smape == Approx(100.0 * (2.0 * 10.0 / 60.0) / 8.0));
        CHECK(f->overall.pinball95 == Approx(0.95 * 10.0 / 8.0));
        CHECK(f->overall.coverage90 == Approx(7.0 / 8.0));
        CHECK(std::isnan(f->overall.mase)); // the seasonal naive scale of a periodic total is 0
        CHECK(f->burst.points == 1);
        CHECK(f->burst.mape == Approx(100.0 * 10.0 / 35.0));
        CHECK(f->burst.pinball50 == Approx(5.0));
        CHECK(f->burst.coverage90 == 0.0);
        CHECK(f->burst.coverageP95 == 0.0);
    }
}

TEST_CASE("a window without burst hours scores them as empty", "[forecast][compare]")
{
    std::vector<double> a;
    for (int t = 0; t < 32; ++t)
        a.push_back(t % 4 == 1 ? 20.0 : 10.0);
    CompareOptions options;
    options.holdoutHours = 8;
    options.paths = 10;
    options.burstQuantile = 0.99;
    options.fit.fixedParams = SmoothingParams{0.5, 0.0, 0.5, 1.0};
    const ForecastComparison c = compareDecomposed({a}, {TrendKind::None, SeasonKind::Additive, 4}, options);
    CHECK(c.burstHours.empty());
    CHECK(c.single.burst.points == 0);
    CHECK(std::isnan(c.single.burst.mape));
    CHECK(c.single.overall.mape == 0.0);
}

TEST_CASE("a comparison can be cancelled from its progress callback", "[forecast][compare]")
{
    const std::vector<std::vector<double>> primitives{primitive(40.0, 20.0, 14.0, 2.0, 24 * 7, 4),
                                                      primitive(20.0, 10.0, 10.0, 2.0, 24 * 7, 5)};
    CompareOptions options;
    options.holdoutHours = 24;
    int calls = 0;
    CHECK_THROWS_AS(compareDecomposed(primitives, {TrendKind::None, SeasonKind::Additive, 24}, options,
                                      [&](int done, int) {
                                          ++calls;
                                          return done < 1;
                                      }),
                    ForecastCancelled);
    CHECK(calls == 2);
}

TEST_CASE("bad comparison input names its field", "[forecast][compare]")
{
    const SmoothingSpec daily{TrendKind::None, SeasonKind::Additive, 24};
    const std::vector<double> week(24 * 7, 10.0);
    CompareOptions options;
    CHECK(errorField([&] { compareDecomposed({}, daily, options); }) == "primitives");
    CHECK(errorField([&] { compareDecomposed({week, std::vector<double>(100, 1.0)}, daily, options); })
          == "primitives");
    options.holdoutHours = 24 * 6; // leaves one day, less than two seasons
    CHECK(errorField([&] { compareDecomposed({week}, daily, options); }) == "holdout");
    options.holdoutHours = 0;
    CHECK(errorField([&] { compareDecomposed({week}, daily, options); }) == "holdout");
    options.holdoutHours = 24;
    options.paths = 5;
    CHECK(errorField([&] { compareDecomposed({week}, daily, options); }) == "paths");
    options.paths = 100;
    options.burstQuantile = 1.0;
    CHECK(errorField([&] { compareDecomposed({week}, daily, options); }) == "burst_quantile");
    options.burstQuantile = 0.9;
    std::vector<double> withZero = week;
    withZero[3] = 0.0;
    try {
        compareDecomposed({week, withZero}, {TrendKind::None, SeasonKind::Multiplicative, 24}, options);
        FAIL("a zero value was accepted for a multiplicative season");
    } catch (const InputError &error) {
        CHECK(error.field() == "series");
        CHECK(std::string(error.what()).find("primitive 2") != std::string::npos);
    }
}

TEST_CASE("a joint residual bootstrap keeps the spread of primitives that move together", "[forecast][compare]")
{
    // Two primitives share the same noise: the total's spread is the sum of theirs, not √2
    // times one. Independent draws understate it; replaying both primitives' residuals of
    // the same training hour keeps it, like the single model of the total.
    const std::vector<double> shared = primitive(0.0, 0.0, 12.0, 3.0, 24 * 28, 21);
    std::vector<double> a, b;
    for (size_t t = 0; t < shared.size(); ++t) {
        const double hour = double(t % 24);
        a.push_back(60.0 + 20.0 * std::exp(-(hour - 14) * (hour - 14) / 18.0) + shared[t]);
        b.push_back(40.0 + 10.0 * std::exp(-(hour - 9) * (hour - 9) / 18.0) + shared[t]);
    }
    const SmoothingSpec spec{TrendKind::None, SeasonKind::Additive, 24};
    CompareOptions options;
    options.holdoutHours = 48;
    options.paths = 2000;
    options.fit.fixedParams = SmoothingParams{0.05, 0.0, 0.05, 1.0};
    auto meanSpread = [](const TotalForecast &f) {
        double sum = 0.0;
        for (size_t h = 0; h < f.p05.size(); ++h)
            sum += f.p95[h] - f.p05[h];
        return sum / double(f.p05.size());
    };
    const ForecastComparison independent = compareDecomposed({a, b}, spec, options);
    options.noise = PathNoise::JointBootstrap;
    const ForecastComparison joint = compareDecomposed({a, b}, spec, options);
    const double single = meanSpread(joint.single);
    CHECK(meanSpread(joint.decomposed) == Approx(single).epsilon(0.15));
    CHECK(meanSpread(independent.decomposed) / single == Approx(1.0 / std::sqrt(2.0)).epsilon(0.15));
    CHECK(joint.decomposed.overall.coverage90 >= independent.decomposed.overall.coverage90);
}
