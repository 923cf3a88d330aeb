#include "forecast_backtest.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace headroom::engine {

namespace {

void requireMatching(const std::vector<double> &actual, const std::vector<double> &other,
                     const char *field)
{
    if (actual.empty())
        throw InputError("actual", "no values to score");
    if (other.size() != actual.size())
        throw InputError(field, std::string(field) + " has " + std::to_string(other.size())
                                    + " values for " + std::to_string(actual.size()) + " actual values");
}

} // namespace

double meanAbsolutePercentageError(const std::vector<double> &actual, const std::vector<double> &forecast)
{
    requireMatching(actual, forecast, "forecast");
    double sum = 0.0;
    for (size_t i = 0; i < actual.size(); ++i) {
        if (actual[i] == 0.0)
            throw InputError("actual", "MAPE is undefined for a zero actual value (value "
                                           + std::to_string(i) + ")");
        sum += std::abs(actual[i] - forecast[i]) / std::abs(actual[i]);
    }
    return 100.0 * sum / double(actual.size());
}

double symmetricMape(const std::vector<double> &actual, const std::vector<double> &forecast)
{
    requireMatching(actual, forecast, "forecast");
    double sum = 0.0;
    for (size_t i = 0; i < actual.size(); ++i) {
        const double denominator = std::abs(actual[i]) + std::abs(forecast[i]);
        if (denominator > 0.0)
            sum += 2.0 * std::abs(actual[i] - forecast[i]) / denominator;
    }
    return 100.0 * sum / double(actual.size());
}

double seasonalNaiveScale(const std::vector<double> &training, int lag)
{
    if (lag < 1 || training.size() <= size_t(lag))
        throw InputError("training", "the MASE scale needs more than " + std::to_string(lag)
                                         + " training values");
    double sum = 0.0;
    for (size_t t = size_t(lag); t < training.size(); ++t)
        sum += std::abs(training[t] - training[t - size_t(lag)]);
    return sum / double(training.size() - size_t(lag));
}

double meanAbsoluteScaledError(const std::vector<double> &actual, const std::vector<double> &forecast,
                               const std::vector<double> &training, int lag)
{
    requireMatching(actual, forecast, "forecast");
    const double scale = seasonalNaiveScale(training, lag);
    if (scale == 0.0)
        throw InputError("training", "the training values repeat exactly: the MASE scale is zero");
    double sum = 0.0;
    for (size_t i = 0; i < actual.size(); ++i)
        sum += std::abs(actual[i] - forecast[i]);
    return sum / double(actual.size()) / scale;
}

double pinballLoss(const std::vector<double> &actual, const std::vector<double> &quantileForecast, double q)
{
    requireMatching(actual, quantileForecast, "quantile_forecast");
    if (!(q >= 0.0 && q <= 1.0))
        throw InputError("quantile", "the quantile level must be in [0, 1]");
    double sum = 0.0;
    for (size_t i = 0; i < actual.size(); ++i) {
        const double d = actual[i] - quantileForecast[i];
        sum += d >= 0.0 ? q * d : (q - 1.0) * d;
    }
    return sum / double(actual.size());
}

double intervalCoverage(const std::vector<double> &actual, const std::vector<double> &lower,
                        const std::vector<double> &upper)
{
    requireMatching(actual, lower, "lower");
    requireMatching(actual, upper, "upper");
    size_t inside = 0;
    for (size_t i = 0; i < actual.size(); ++i)
        if (actual[i] >= lower[i] && actual[i] <= upper[i])
            ++inside;
    return double(inside) / double(actual.size());
}

BacktestResult backtestSmoothing(const std::vector<double> &series, const SmoothingSpec &spec,
                                 const FitOptions &fit, const BacktestOptions &options)
{
    if (options.origins < 1)
        throw InputError("backtest", "a backtest needs at least one origin");
    if (options.horizon < 1)
        throw InputError("horizon", "the backtest horizon must be at least 1 step");
    const size_t held = size_t(options.origins) * size_t(options.horizon);
    if (series.size() <= held)
        throw InputError("backtest", std::to_string(options.origins) + " windows of "
                                         + std::to_string(options.horizon)
                                         + " leave no history to fit on");
    const int lag = spec.season == SeasonKind::None ? 1 : spec.period;

    std::vector<double> actual, point, scaledErrors, lower, upper;
    std::vector<std::vector<double>> quantiles(options.quantiles.size());
    for (int k = 0; k < options.origins; ++k) {
        const size_t origin = series.size() - size_t(options.origins - k) * size_t(options.horizon);
        const std::vector<double> training(series.begin(), series.begin() + long(origin));
        const SmoothingModel model = fitSmoothing(training, spec, fit);
        const std::vector<double> forecast = forecastSmoothing(model, options.horizon);
        const SamplePaths paths = simulatePaths(model, options.horizon, options.paths,
                                                options.seed + uint64_t(k));
        const double scale = seasonalNaiveScale(training, lag);
        if (scale == 0.0)
            throw InputError("series", "the history before window " + std::to_string(k + 1)
                                           + " repeats exactly: the MASE scale is zero");
        const std::vector<double> low = pathQuantiles(paths, options.intervalLower);
        const std::vector<double> high = pathQuantiles(paths, options.intervalUpper);
        for (size_t qi = 0; qi < options.quantiles.size(); ++qi) {
            const std::vector<double> q = pathQuantiles(paths, options.quantiles[qi]);
            quantiles[qi].insert(quantiles[qi].end(), q.begin(), q.end());
        }
        for (int step = 0; step < options.horizon; ++step) {
            const double y = series[origin + size_t(step)];
            actual.push_back(y);
            point.push_back(forecast[size_t(step)]);
            scaledErrors.push_back(std::abs(y - forecast[size_t(step)]) / scale);
            lower.push_back(low[size_t(step)]);
            upper.push_back(high[size_t(step)]);
        }
    }

    BacktestResult result;
    result.points = int(actual.size());
    result.mape = meanAbsolutePercentageError(actual, point);
    result.smape = symmetricMape(actual, point);
    double scaledSum = 0.0;
    for (double e : scaledErrors)
        scaledSum += e;
    result.mase = scaledSum / double(scaledErrors.size());
    result.coverage = intervalCoverage(actual, lower, upper);
    for (size_t qi = 0; qi < options.quantiles.size(); ++qi)
        result.pinball.push_back(pinballLoss(actual, quantiles[qi], options.quantiles[qi]));
    return result;
}

DecomposedForecast forecastDecomposed(const std::vector<std::vector<double>> &primitives,
                                      const SmoothingSpec &spec, int horizon,
                                      const std::vector<double> &probabilities, int paths,
                                      uint64_t seed, const FitOptions &fit)
{
    DecomposeOptions options;
    options.fit = fit;
    return forecastDecomposed(primitives, spec, horizon, probabilities, paths, seed, options);
}

DecomposedForecast forecastDecomposed(const std::vector<std::vector<double>> &primitives,
                                      const SmoothingSpec &spec, int horizon,
                                      const std::vector<double> &probabilities, int paths,
                                      uint64_t seed, const DecomposeOptions &options)
{
    if (primitives.empty())
        throw InputError("primitives", "at least one primitive series is needed");
    DecomposedForecast out;
    out.probabilities = probabilities;
    out.pointSum.assign(size_t(horizon > 0 ? horizon : 0), 0.0);
    out.quantilesOfSum.assign(probabilities.size(), {});
    out.sumOfQuantiles.assign(probabilities.size(), std::vector<double>(out.pointSum.size(), 0.0));
    const int count = int(primitives.size());
    SamplePaths total;
    for (size_t i = 0; i < primitives.size(); ++i) {
        try {
            out.models.push_back(fitSmoothing(primitives[i], spec, options.fit));
        } catch (const InputError &e) {
            const std::string name = i < options.names.size() ? options.names[i] : "primitive " + std::to_string(i + 1);
            throw InputError(e.field(), name + ": " + e.what());
        }
        const SmoothingModel &model = out.models.back();
        const std::vector<double> point = forecastSmoothing(model, horizon);
        SamplePaths own = simulatePaths(model, horizon, paths, seed + uint64_t(i));
        if (options.floorAtZero)
            for (double &value : own.values)
                value = std::max(0.0, value);
        for (size_t step = 0; step < point.size(); ++step)
            out.pointSum[step] += point[step];
        out.primitiveQuantiles.emplace_back();
        for (size_t pi = 0; pi < probabilities.size(); ++pi) {
            std::vector<double> q = pathQuantiles(own, probabilities[pi]);
            for (size_t step = 0; step < q.size(); ++step)
                out.sumOfQuantiles[pi][step] += q[step];
            out.primitiveQuantiles.back().push_back(std::move(q));
        }
        if (i == 0) {
            total = std::move(own);
        } else {
            for (size_t v = 0; v < total.values.size(); ++v)
                total.values[v] += own.values[v];
        }
        if (options.progress && !options.progress(int(i) + 1, count))
            throw ForecastCancelled();
    }
    for (size_t pi = 0; pi < probabilities.size(); ++pi)
        out.quantilesOfSum[pi] = pathQuantiles(total, probabilities[pi]);
    return out;
}

} // namespace headroom::engine
