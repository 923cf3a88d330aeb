#include "forecastrun.h"

#include "engine/common/errors.h"
#include "forecastcharts.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace headroom::ui {

namespace {

// Rethrows an engine error with the series it concerns named in front.
[[noreturn]] void rethrowFor(const QString &series, const engine::InputError &e)
{
    throw engine::InputError(e.field(), series.toStdString() + ": " + e.what());
}

engine::FitOptions fitOptions(const ForecastSettings &settings)
{
    engine::FitOptions fit;
    fit.initial = settings.initial;
    return fit;
}

} // namespace

std::vector<std::vector<double>> filledSeries(const ForecastInput &input, engine::GapPolicy policy)
{
    std::vector<std::vector<double>> out;
    for (size_t i = 0; i < input.series.size(); ++i) {
        try {
            out.push_back(engine::fillGaps(input.series[i], policy));
        } catch (const engine::InputError &e) {
            rethrowFor(input.names.value(qsizetype(i)), e);
        }
    }
    return out;
}

ForecastRun runForecast(const ForecastInput &input, const ForecastSettings &settings, const RunProgress &progress)
{
    if (input.series.empty())
        throw engine::InputError("primitives", "import a telemetry file, a pod trace or a demand series first");
    if (settings.horizonHours < 1)
        throw engine::InputError("horizon", "the forecast needs at least one hour");
    const std::vector<std::vector<double>> primitives = filledSeries(input, settings.gaps);
    const size_t count = primitives.size();
    const int horizon = settings.horizonHours;
    const std::vector<double> &probabilities = fanProbabilities();

    ForecastRun run;
    run.settings = settings;
    std::vector<double> total(primitives.front().size(), 0.0);
    for (const auto &p : primitives)
        for (size_t h = 0; h < total.size() && h < p.size(); ++h)
            total[h] += p[h];

    // Steps: fit + backtest for each primitive and the total, then the comparison.
    const bool compare = count >= 2;
    const double steps = double(2 * (count + 1)) + (compare ? double(count + 1) : 0.0);
    double done = 0;
    auto step = [&] {
        done += 1;
        if (progress && !progress(done / steps))
            throw engine::ForecastCancelled();
    };

    engine::BacktestOptions backtest;
    backtest.origins = std::max(1, settings.backtestOrigins);
    backtest.horizon = std::max(1, settings.heldOutHours / backtest.origins);
    backtest.quantiles = settings.pinballQuantiles;
    backtest.paths = settings.paths;
    backtest.seed = settings.seed;

    auto describe = [&](const QString &name, const std::vector<double> &values) {
        SeriesForecast s;
        s.name = name;
        s.history = values;
        s.mean = values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
        s.peak = values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
        return s;
    };
    auto runBacktest = [&](SeriesForecast &s) {
        try {
            s.backtest = engine::backtestSmoothing(s.history, settings.spec, fitOptions(settings), backtest);
        } catch (const engine::InputError &e) {
            s.backtestError = QString::fromUtf8(e.what());
        }
        step();
    };

    // The total's fan: quantiles of the summed primitive paths, not the sum of their quantiles.
    engine::DecomposeOptions decompose;
    decompose.fit = fitOptions(settings);
    decompose.floorAtZero = true;
    for (size_t i = 0; i < count; ++i)
        decompose.names.push_back(input.names.value(qsizetype(i)).toStdString());
    decompose.progress = [&](int, int) {
        done += 1;
        return !progress || progress(done / steps);
    };
    const engine::DecomposedForecast decomposed = engine::forecastDecomposed(
        primitives, settings.spec, horizon, probabilities, settings.paths, settings.seed, decompose);

    run.series.push_back(describe(QObject::tr("Total (sum of primitives)"), total));
    for (size_t i = 0; i < count; ++i) {
        SeriesForecast s = describe(input.names.value(qsizetype(i)), primitives[i]);
        s.model = decomposed.models[i];
        s.fan = decomposed.primitiveQuantiles[i];
        runBacktest(s);
        run.series.push_back(std::move(s));
    }

    SeriesForecast &totalSeries = run.series.front();
    try {
        totalSeries.model = engine::fitSmoothing(totalSeries.history, settings.spec, fitOptions(settings));
    } catch (const engine::InputError &e) {
        rethrowFor(totalSeries.name, e);
    }
    totalSeries.fan = decomposed.quantilesOfSum;
    step();
    runBacktest(totalSeries);

    if (compare) {
        engine::CompareOptions options;
        options.holdoutHours = settings.heldOutHours;
        options.paths = settings.paths;
        options.seed = settings.seed;
        options.fit = fitOptions(settings);
        const double before = done;
        try {
            run.comparison = engine::compareDecomposed(primitives, settings.spec, options, [&](int d, int t) {
                return !progress || progress((before + double(count + 1) * double(d) / double(std::max(t, 1))) / steps);
            });
        } catch (const engine::InputError &e) {
            run.comparisonNote = QString::fromUtf8(e.what());
        }
    } else {
        run.comparisonNote = QObject::tr("The comparison needs two or more primitives; this input has one.");
    }
    if (progress)
        progress(1.0);
    return run;
}

engine::ReservationHandOff runReservation(const ForecastRun &run, const engine::ReservationForecastOptions &options,
                                          const RunProgress &progress)
{
    if (run.series.size() < 2)
        throw engine::InputError("models", "fit a forecast first");
    std::vector<engine::SmoothingModel> models;
    engine::ReservationForecastOptions around = options;
    // A term is thousands of hours; the fits saw a few weeks. Paths around each primitive's point
    // forecast with its residuals (drawn at one shared history hour) keep the spread the history
    // showed, where the state-space paths' random-walk levels wander off over a year.
    around.spread = engine::PathSpread::AroundPoint;
    around.bootstrapFrom.clear();
    for (size_t i = 1; i < run.series.size(); ++i) {
        models.push_back(run.series[i].model);
        around.bootstrapFrom.push_back(run.series[i].history);
    }
    return engine::reservationFromForecast(run.series.front().history, models, around, [&](int done, int total) {
        return !progress || progress(double(done) / double(std::max(total, 1)));
    });
}

} // namespace headroom::ui
