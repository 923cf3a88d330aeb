#include "forecast_compare.h"

#include "engine/common/errors.h"
#include "forecast_backtest.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace headroom::engine {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void report(const ForecastProgress &progress, int done, int total)
{
    if (progress && !progress(done, total))
        throw ForecastCancelled();
}

// Fits one series, naming it in the error message.
SmoothingModel fitNamed(const std::vector<double> &series, const SmoothingSpec &spec,
                        const FitOptions &fit, const std::string &name)
{
    try {
        return fitSmoothing(series, spec, fit);
    } catch (const InputError &e) {
        throw InputError(e.field(), name + ": " + e.what());
    }
}

// The errors over the held-out hours listed in `index` (all of them when `all`).
ForecastErrors score(const std::vector<double> &actual, const TotalForecast &f,
                     const std::vector<int> &index, bool all, double maseScale)
{
    std::vector<size_t> at;
    if (all) {
        for (size_t i = 0; i < actual.size(); ++i)
            at.push_back(i);
    } else {
        for (int i : index)
            at.push_back(size_t(i));
    }
    ForecastErrors e;
    e.points = int(at.size());
    if (at.empty()) {
        e.mape = e.smape = e.mase = e.pinball50 = e.pinball95 = e.coverage90 = e.coverageP95 = kNaN;
        return e;
    }
    double ape = 0.0, sape = 0.0, ae = 0.0, pin50 = 0.0, pin95 = 0.0;
    int apeCount = 0, inside = 0, below = 0;
    auto pinball = [](double y, double q, double level) {
        const double d = y - q;
        return d >= 0.0 ? level * d : (level - 1.0) * d;
    };
    for (size_t i : at) {
        const double y = actual[i], point = f.point[i];
        const double err = std::abs(y - point);
        if (y != 0.0) {
            ape += err / std::abs(y);
            ++apeCount;
        }
        const double denominator = std::abs(y) + std::abs(point);
        if (denominator > 0.0)
            sape += 2.0 * err / denominator;
        ae += err;
        pin50 += pinball(y, f.p50[i], 0.5);
        pin95 += pinball(y, f.p95[i], 0.95);
        if (y >= f.p05[i] && y <= f.p95[i])
            ++inside;
        if (y <= f.p95[i])
            ++below;
    }
    const double n = double(at.size());
    e.mape = apeCount > 0 ? 100.0 * ape / double(apeCount) : kNaN;
    e.smape = 100.0 * sape / n;
    e.mase = maseScale > 0.0 ? ae / n / maseScale : kNaN;
    e.pinball50 = pin50 / n;
    e.pinball95 = pin95 / n;
    e.coverage90 = double(inside) / n;
    e.coverageP95 = double(below) / n;
    return e;
}

void fillQuantiles(const SamplePaths &paths, TotalForecast &f)
{
    std::vector<std::vector<double>> q = pathQuantiles(paths, {0.05, 0.50, 0.75, 0.95, 0.99});
    f.p05 = std::move(q[0]);
    f.p50 = std::move(q[1]);
    f.p75 = std::move(q[2]);
    f.p95 = std::move(q[3]);
    f.p99 = std::move(q[4]);
}

// Innovations replaying the residuals of `model` on `series` at the drawn training hours.
std::vector<double> replayedResiduals(const SmoothingModel &model, const std::vector<double> &series,
                                      const std::vector<size_t> &hours)
{
    std::vector<double> out(hours.size());
    for (size_t v = 0; v < hours.size(); ++v)
        out[v] = series[hours[v]] - model.fitted[hours[v]];
    return out;
}

SamplePaths pathsOf(const SmoothingModel &model, const std::vector<double> &series, int horizon,
                    const CompareOptions &options, uint64_t seed, const std::vector<size_t> &hours)
{
    if (options.noise == PathNoise::JointBootstrap)
        return simulatePathsWith(model, horizon, options.paths, replayedResiduals(model, series, hours));
    return simulatePaths(model, horizon, options.paths, seed);
}

} // namespace

ForecastComparison compareDecomposed(const std::vector<std::vector<double>> &primitives,
                                     const SmoothingSpec &spec, const CompareOptions &options,
                                     const ForecastProgress &progress)
{
    if (primitives.empty())
        throw InputError("primitives", "at least one primitive series is needed");
    const size_t n = primitives.front().size();
    for (size_t i = 1; i < primitives.size(); ++i)
        if (primitives[i].size() != n)
            throw InputError("primitives", "primitive " + std::to_string(i + 1) + " has "
                                               + std::to_string(primitives[i].size()) + " hours, primitive 1 has "
                                               + std::to_string(n));
    if (options.holdoutHours < 1)
        throw InputError("holdout", "the held-out window must be at least 1 hour");
    if (options.paths < 10)
        throw InputError("paths", "at least 10 simulated paths are needed, got " + std::to_string(options.paths));
    if (!(options.burstQuantile > 0.0 && options.burstQuantile < 1.0))
        throw InputError("burst_quantile", "the burst quantile must be in (0, 1)");
    const size_t minimumTraining = spec.season == SeasonKind::None ? 2 : 2 * size_t(std::max(spec.period, 1));
    if (n < size_t(options.holdoutHours) + minimumTraining)
        throw InputError("holdout", "holding out " + std::to_string(options.holdoutHours) + " of "
                                        + std::to_string(n) + " hours leaves less than the "
                                        + std::to_string(minimumTraining) + " hours the model needs to fit");

    const size_t training = n - size_t(options.holdoutHours);
    const int horizon = options.holdoutHours;
    const int steps = int(primitives.size()) + 1;
    ForecastComparison out;
    out.trainingHours = int(training);
    std::vector<double> totalTraining(training, 0.0);
    out.actual.assign(size_t(horizon), 0.0);
    for (const std::vector<double> &p : primitives) {
        for (size_t t = 0; t < training; ++t)
            totalTraining[t] += p[t];
        for (size_t h = 0; h < size_t(horizon); ++h)
            out.actual[h] += p[training + h];
    }
    report(progress, 0, steps);

    // Joint bootstrap: one training hour per path step, shared by every model.
    std::vector<size_t> hours;
    if (options.noise == PathNoise::JointBootstrap) {
        const size_t first = spec.season == SeasonKind::None ? 1 : size_t(spec.period);
        std::mt19937_64 rng(options.seed);
        std::uniform_int_distribution<size_t> pick(first, training - 1);
        hours.resize(size_t(options.paths) * size_t(horizon));
        for (size_t &h : hours)
            h = pick(rng);
    }

    // Decomposed: every primitive on its own, paths summed path by path.
    out.decomposed.point.assign(size_t(horizon), 0.0);
    SamplePaths summed;
    for (size_t i = 0; i < primitives.size(); ++i) {
        const std::vector<double> part(primitives[i].begin(), primitives[i].begin() + long(training));
        out.primitiveModels.push_back(fitNamed(part, spec, options.fit, "primitive " + std::to_string(i + 1)));
        const SmoothingModel &model = out.primitiveModels.back();
        const std::vector<double> point = forecastSmoothing(model, horizon);
        for (size_t h = 0; h < point.size(); ++h)
            out.decomposed.point[h] += point[h];
        const SamplePaths own = pathsOf(model, part, horizon, options, options.seed + uint64_t(i), hours);
        if (i == 0) {
            summed = own;
        } else {
            for (size_t v = 0; v < summed.values.size(); ++v)
                summed.values[v] += own.values[v];
        }
        report(progress, int(i) + 1, steps);
    }
    fillQuantiles(summed, out.decomposed);

    // Single: one model of the total.
    out.totalModel = fitNamed(totalTraining, spec, options.fit, "total");
    out.single.point = forecastSmoothing(out.totalModel, horizon);
    fillQuantiles(pathsOf(out.totalModel, totalTraining, horizon, options,
                          options.seed + uint64_t(primitives.size()), hours),
                  out.single);

    out.burstThreshold = sampleQuantile(totalTraining, options.burstQuantile);
    for (size_t h = 0; h < out.actual.size(); ++h)
        if (out.actual[h] > out.burstThreshold)
            out.burstHours.push_back(int(h));
    const int lag = spec.season == SeasonKind::None ? 1 : spec.period;
    const double scale = seasonalNaiveScale(totalTraining, lag);
    for (TotalForecast *f : {&out.decomposed, &out.single}) {
        f->overall = score(out.actual, *f, out.burstHours, true, scale);
        f->burst = score(out.actual, *f, out.burstHours, false, scale);
    }
    report(progress, steps, steps);
    return out;
}

} // namespace headroom::engine
