#include "engine/common/errors.h"
#include "engine/forecast/forecast_reservation.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace headroom::engine;

namespace {

Money usd(const char *amount) { return Money::parse(amount); }

ReservationForecastOptions rates(int termHours, int paths)
{
    ReservationForecastOptions o;
    o.termHours = termHours;
    o.paths = paths;
    o.reservedRate = usd("2.00");
    o.elasticRate = usd("3.00");
    return o;
}

// A model that repeats `level` GPUs every hour: no trend, no season, no noise.
SmoothingModel flat(double level)
{
    SmoothingModel m;
    m.params = {0.5, 0.0, 0.0, 1.0};
    m.endStates.level = level;
    return m;
}

// 90 days of hourly demand on a straight line from `from` to `to` GPUs with a daily swing of
// ±15 GPUs and N(0, 3²) noise.
std::vector<double> trending(double from, double to)
{
    const int hours = 90 * 24;
    SmoothingModel noise;
    noise.endStates.level = 0.0;
    noise.residualSd = 3.0;
    noise.params = {0.0, 0.0, 0.0, 1.0};
    const std::vector<double> e = simulatePaths(noise, hours, 1, 17).values;
    std::vector<double> y;
    for (int t = 0; t < hours; ++t)
        y.push_back(std::max(0.0, from + (to - from) * t / hours + 15.0 * std::sin(6.283185307179586 * t / 24.0) + e[size_t(t)]));
    return y;
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

TEST_CASE("a flat forecast gives the exact expected cost of each plan", "[forecast][reservation]")
{
    // Every path is 10 GPUs for 100 h: reserving 10 costs 10 × $2 × 100 h = $2,000; all on
    // demand 10 × $3 × 100 h = $3,000. The history sat at 20 GPUs, so its answers reserve 20:
    // $4,000 over the term, $1,000 more than no commitment at all.
    const std::vector<double> history(500, 20.0);
    const ReservationHandOff r = reservationFromForecast(history, {flat(10.0)}, rates(100, 3));
    CHECK(r.termHours == 100);
    CHECK(r.paths == 3);
    CHECK(r.allOnDemand == usd("3000"));
    CHECK(r.forecastOptimum.reserved == 10);
    CHECK(r.forecastOptimum.expectedCost == usd("2000"));
    CHECK(r.forecastOptimum.saving == usd("1000"));
    CHECK(r.lookbackOptimum.reserved == 20);
    CHECK(r.lookbackOptimum.expectedCost == usd("4000"));
    CHECK(r.lookbackOptimum.saving == usd("-1000"));
    REQUIRE(r.choices.size() == 5);
    CHECK(r.choices[0].rule == "forecast optimum");
    CHECK(r.choices[2].rule == "P50 of history");
    CHECK(r.choices[2].reserved == 20);
    CHECK(r.choices[3].expectedCost == usd("4000"));
    CHECK(r.choices[4].reserved == 0);
    CHECK(r.choices[4].expectedCost == usd("3000"));
    CHECK(r.onHistory.optimalReserved == 20);
    CHECK(r.forecastMean == std::vector<double>(100, 10.0));
    CHECK(r.forecastP95 == std::vector<double>(100, 10.0));
}

TEST_CASE("on a rising series the look-back answers cost more than the forecast answer", "[forecast][reservation]")
{
    const std::vector<double> history = trending(100.0, 200.0);
    FitOptions fit;
    fit.fixedParams = SmoothingParams{0.05, 0.001, 0.1, 1.0};
    fit.initial = InitialMethod::Estimated;
    const SmoothingModel model = fitSmoothing(history, {TrendKind::Additive, SeasonKind::Additive, 24}, fit);
    std::vector<std::pair<int, int>> calls;
    ReservationForecastOptions options = rates(kOneYearHours, 8);
    options.lookbackHours = 30 * 24;
    const ReservationHandOff r = reservationFromForecast(history, {model}, options, [&](int done, int total) {
        calls.emplace_back(done, total);
        return true;
    });
    REQUIRE(r.forecastMean.size() == size_t(kOneYearHours));
    CHECK(r.forecastMean.back() > r.forecastMean.front() + 200.0); // the trend goes on
    CHECK(r.forecastOptimum.reserved > r.lookbackOptimum.reserved);
    CHECK(r.forecastOptimum.expectedCost.amount < r.lookbackOptimum.expectedCost.amount);
    CHECK(r.forecastOptimum.expectedCost.amount < r.choices[2].expectedCost.amount); // P50 of history
    CHECK(r.forecastOptimum.expectedCost.amount < r.choices[3].expectedCost.amount); // P75 of history
    CHECK(r.forecastOptimum.saving.amount > Decimal());
    // The expected cost is the pooled cost over all paths divided by the number of paths.
    CHECK((r.forecastOptimum.expectedCost.amount * int64_t(8)).toDouble()
          == Approx(r.onForecast.costAtOptimum.amount.toDouble()).epsilon(1e-12));
    CHECK(calls.back() == std::make_pair(3, 3));
}

TEST_CASE("on a falling series a percentile of history costs more than no commitment", "[forecast][reservation]")
{
    const std::vector<double> history = trending(200.0, 100.0);
    FitOptions fit;
    fit.fixedParams = SmoothingParams{0.05, 0.001, 0.1, 1.0};
    fit.initial = InitialMethod::Estimated;
    const SmoothingModel model = fitSmoothing(history, {TrendKind::Additive, SeasonKind::Additive, 24}, fit);
    const ReservationHandOff r = reservationFromForecast(history, {model}, rates(kOneYearHours, 4));
    const ReservationChoice &p75 = r.choices[3];
    CHECK(p75.rule == "P75 of history");
    CHECK(p75.reserved > 100);
    CHECK(p75.expectedCost.amount > r.allOnDemand.amount);
    CHECK(p75.saving.amount < Decimal());
    CHECK(r.forecastOptimum.reserved < r.lookbackOptimum.reserved);
    CHECK(r.forecastOptimum.expectedCost.amount <= r.allOnDemand.amount);
}

TEST_CASE("decomposed models are summed path by path for the term", "[forecast][reservation]")
{
    const std::vector<double> history(48, 30.0);
    const ReservationHandOff r = reservationFromForecast(history, {flat(10.0), flat(20.0)}, rates(24, 2));
    CHECK(r.forecastMean == std::vector<double>(24, 30.0));
    CHECK(r.forecastOptimum.reserved == 30);
    CHECK(r.forecastOptimum.expectedCost == usd("1440")); // 30 × $2 × 24 h
}

TEST_CASE("the reservation hand-off can be cancelled", "[forecast][reservation]")
{
    const std::vector<double> history(48, 30.0);
    CHECK_THROWS_AS(reservationFromForecast(history, {flat(10.0)}, rates(24, 2), [](int, int) { return false; }),
                    ForecastCancelled);
}

TEST_CASE("bad reservation hand-off input names its field", "[forecast][reservation]")
{
    const std::vector<double> history(48, 30.0);
    CHECK(errorField([&] { reservationFromForecast(history, {}, rates(24, 2)); }) == "models");
    CHECK(errorField([&] { reservationFromForecast({}, {flat(1.0)}, rates(24, 2)); }) == "history");
    CHECK(errorField([&] { reservationFromForecast({1.0, std::nan("")}, {flat(1.0)}, rates(24, 2)); }) == "history");
    CHECK(errorField([&] { reservationFromForecast(history, {flat(1.0)}, rates(0, 2)); }) == "term_hours");
    CHECK(errorField([&] { reservationFromForecast(history, {flat(1.0)}, rates(kMaxTermHours + 1, 2)); })
          == "term_hours");
    CHECK(errorField([&] { reservationFromForecast(history, {flat(1.0)}, rates(24, 0)); }) == "paths");
    ReservationForecastOptions o = rates(24, 2);
    o.lookbackHours = 49;
    CHECK(errorField([&] { reservationFromForecast(history, {flat(1.0)}, o); }) == "lookback_hours");
    o = rates(24, 2);
    o.elasticRate = Money::parse("3.00", "EUR");
    CHECK(errorField([&] { reservationFromForecast(history, {flat(1.0)}, o); }) == "currency");
    o = rates(24, 2);
    o.reservedRate = usd("0");
    CHECK(errorField([&] { reservationFromForecast(history, {flat(1.0)}, o); }) == "reserved_rate");
}

TEST_CASE("a joint residual bootstrap widens the term forecast of primitives that move together", "[forecast][reservation]")
{
    // Two primitives share one noise series: independent draws make their sum too calm.
    SmoothingModel source;
    source.params = {0.0, 0.0, 0.0, 1.0};
    source.residualSd = 4.0;
    const std::vector<double> shared = simulatePaths(source, 24 * 28, 1, 31).values;
    std::vector<double> a, b, history;
    for (size_t t = 0; t < shared.size(); ++t) {
        a.push_back(60.0 + shared[t]);
        b.push_back(40.0 + shared[t]);
        history.push_back(a.back() + b.back());
    }
    FitOptions fit;
    fit.fixedParams = SmoothingParams{0.01, 0.0, 0.0, 1.0};
    const SmoothingSpec spec{TrendKind::None, SeasonKind::None, 0};
    const std::vector<SmoothingModel> models{fitSmoothing(a, spec, fit), fitSmoothing(b, spec, fit)};
    ReservationForecastOptions options = rates(24 * 7, 100);
    auto meanBand = [](const ReservationHandOff &r) {
        double sum = 0.0;
        for (size_t h = 0; h < r.forecastP05.size(); ++h)
            sum += r.forecastP95[h] - r.forecastP05[h];
        return sum / double(r.forecastP05.size());
    };
    const double independent = meanBand(reservationFromForecast(history, models, options));
    options.bootstrapFrom = {a, b};
    const double joint = meanBand(reservationFromForecast(history, models, options));
    // Shared noise of sd 4 on each: the total's sd is 8, independent draws give 4√2.
    CHECK(joint == Approx(2.0 * 1.645 * 8.0).epsilon(0.2));
    CHECK(independent == Approx(2.0 * 1.645 * 4.0 * std::sqrt(2.0)).epsilon(0.2));

    options.bootstrapFrom = {a};
    CHECK(errorField([&] { reservationFromForecast(history, models, options); }) == "bootstrap_from");
    options.bootstrapFrom = {a, std::vector<double>(10, 1.0)};
    CHECK(errorField([&] { reservationFromForecast(history, models, options); }) == "bootstrap_from");
}

// Paths around the point forecast: every hour of the P05–P95 band is the point forecast plus
// a residual of the fit (`residuals`, from the first hour on), so the band stays inside their
// range and is as wide at the end of the term as at its start.
static void checkBandAroundPoint(const ReservationHandOff &around, double point, const std::vector<double> &residuals)
{
    const auto [lowest, highest] = std::minmax_element(residuals.begin() + 1, residuals.end());
    for (const auto &band : {around.forecastP05, around.forecastP95})
        for (double v : band) {
            CHECK(v >= point + *lowest - 1e-9);
            CHECK(v <= point + *highest + 1e-9);
        }
    CHECK(around.forecastP95.back() - around.forecastP05.back()
          == Approx(around.forecastP95.front() - around.forecastP05.front()).margin(1.0));
}

TEST_CASE("paths around the point forecast keep the history's spread over a long term", "[forecast][reservation]")
{
    // 30 days of demand stepping down from 40 to 24 GPUs on day 22, ±2 GPUs of alternating
    // noise: a fitted level-only model, a year's term.
    std::vector<double> history;
    for (int t = 0; t < 30 * 24; ++t)
        history.push_back((t < 22 * 24 ? 40.0 : 24.0) + (t % 2 == 0 ? 2.0 : -2.0));
    const SmoothingModel model = fitSmoothing(history, SmoothingSpec{});
    ReservationForecastOptions o = rates(kOneYearHours, 8);
    o.spread = PathSpread::AroundPoint;
    const ReservationHandOff around = reservationFromForecast(history, {model}, o);
    // Every value is the point forecast plus a residual of the fit: no wander, so the band at
    // the end of the year is as wide as at its start, and within the history's range.
    std::vector<double> residuals;
    for (size_t t = 0; t < history.size(); ++t)
        residuals.push_back(history[t] - model.fitted[t]);
    checkBandAroundPoint(around, forecastSmoothing(model, 1).front(), residuals);
    // With on demand 1.5× the reserved rate the optimum is near the recent level of 24, not the
    // 30-day look-back's mix of 40 and 24.
    CHECK(std::abs(around.forecastOptimum.reserved - 24) <= 3);
    CHECK(around.lookbackOptimum.reserved > 30);

    // The state-space paths of the same fit spread further by the end of the year.
    o.spread = PathSpread::Simulated;
    const ReservationHandOff simulated = reservationFromForecast(history, {model}, o);
    CHECK(simulated.forecastP95.back() - simulated.forecastP05.back()
          > 2 * (around.forecastP95.back() - around.forecastP05.back()));

    // One model fitted on this history only.
    o.spread = PathSpread::AroundPoint;
    CHECK(errorField([&] { reservationFromForecast(history, {model, model}, o); }) == "spread");
    CHECK(errorField([&] { reservationFromForecast(history, {flat(1.0)}, o); }) == "spread");
}

TEST_CASE("paths around the point forecasts of several primitives share each history hour's residuals",
          "[forecast][reservation]")
{
    // Two primitives, 20 and 10 GPUs, each ±2 and ±1 of alternating noise in the same phase:
    // their total is 30 ± 3, the residuals moving together.
    std::vector<double> a, b, total;
    for (int t = 0; t < 30 * 24; ++t) {
        const double sign = t % 2 == 0 ? 1.0 : -1.0;
        a.push_back(20.0 + 2.0 * sign);
        b.push_back(10.0 + 1.0 * sign);
        total.push_back(a.back() + b.back());
    }
    const std::vector<SmoothingModel> models{fitSmoothing(a, SmoothingSpec{}), fitSmoothing(b, SmoothingSpec{})};
    ReservationForecastOptions o = rates(kOneYearHours, 8);
    o.spread = PathSpread::AroundPoint;
    o.bootstrapFrom = {a, b};
    const ReservationHandOff around = reservationFromForecast(total, models, o);
    // Every hour is the summed point forecasts plus both residuals of one history hour.
    std::vector<double> residuals;
    for (size_t t = 0; t < total.size(); ++t)
        residuals.push_back((a[t] - models[0].fitted[t]) + (b[t] - models[1].fitted[t]));
    checkBandAroundPoint(around, forecastSmoothing(models[0], 1).front() + forecastSmoothing(models[1], 1).front(),
                         residuals);
    // The optimum sits near the level of 30.
    CHECK(std::abs(around.forecastOptimum.reserved - 30) <= 3);
    double mean = 0;
    for (double v : around.forecastMean)
        mean += v;
    CHECK(mean / double(around.forecastMean.size()) == Approx(30.0).margin(1.0));

    // Several models need their series.
    o.bootstrapFrom.clear();
    CHECK(errorField([&] { reservationFromForecast(total, models, o); }) == "spread");
}
