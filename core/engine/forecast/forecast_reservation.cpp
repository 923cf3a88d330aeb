#include "forecast_reservation.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace headroom::engine {

namespace {

constexpr int kMaxPaths = 100;

void report(const ForecastProgress &progress, int done, int total)
{
    if (progress && !progress(done, total))
        throw ForecastCancelled();
}

} // namespace

ReservationHandOff reservationFromForecast(const std::vector<double> &history,
                                           const std::vector<SmoothingModel> &models,
                                           const ReservationForecastOptions &options,
                                           const ForecastProgress &progress)
{
    if (models.empty())
        throw InputError("models", "at least one fitted model is needed");
    if (history.empty())
        throw InputError("history", "the look-back window has no hours");
    for (size_t i = 0; i < history.size(); ++i)
        if (!std::isfinite(history[i]) || history[i] < 0.0)
            throw InputError("history", "hour " + std::to_string(i) + " of the history is "
                                            + std::to_string(history[i]) + ", not a number of GPUs ≥ 0");
    if (options.termHours < 1 || options.termHours > kMaxTermHours)
        throw InputError("term_hours", "the term must be 1 … " + std::to_string(kMaxTermHours)
                                           + " hours, got " + std::to_string(options.termHours));
    if (options.paths < 1 || options.paths > kMaxPaths)
        throw InputError("paths", "simulate 1 … " + std::to_string(kMaxPaths) + " paths, got "
                                      + std::to_string(options.paths));
    if (options.lookbackHours < 0 || size_t(options.lookbackHours) > history.size())
        throw InputError("lookback_hours", "the look-back window must be 0 (all) … "
                                               + std::to_string(history.size()) + " hours, got "
                                               + std::to_string(options.lookbackHours));
    if (options.reservedRate.currency != options.elasticRate.currency)
        throw InputError("currency", "cannot compare " + options.reservedRate.currency + " and "
                                         + options.elasticRate.currency);

    const bool bootstrap = !options.bootstrapFrom.empty();
    if (bootstrap) {
        if (options.bootstrapFrom.size() != models.size())
            throw InputError("bootstrap_from", "expected one training series per model ("
                                                   + std::to_string(models.size()) + "), got "
                                                   + std::to_string(options.bootstrapFrom.size()));
        if (models.front().fitted.size() < 2)
            throw InputError("bootstrap_from", "the models carry no fitted values to take residuals from");
        for (size_t i = 0; i < models.size(); ++i)
            if (options.bootstrapFrom[i].size() != models[i].fitted.size()
                || models[i].fitted.size() != models.front().fitted.size())
                throw InputError("bootstrap_from", "training series " + std::to_string(i + 1)
                                                       + " does not match the fitted values of its model"
                                                         " or of the first model");
    }

    const bool aroundPoint = options.spread == PathSpread::AroundPoint;
    if (aroundPoint && !bootstrap
        && (models.size() != 1 || models.front().fitted.size() != history.size() || history.size() < 2))
        throw InputError("spread", "paths around the point forecast take one model fitted on the history, or "
                                   "several with the series each was fitted on (bootstrap_from)");

    const int steps = int(models.size()) + 2;
    const int term = options.termHours;
    report(progress, 0, steps);

    // Joint bootstrap: one training hour per path step (after the first season), shared by all models.
    std::vector<size_t> hours;
    if (bootstrap) {
        const SmoothingSpec &spec = models.front().spec;
        const size_t length = models.front().fitted.size();
        const size_t first = std::min(length - 1, spec.season == SeasonKind::None ? size_t(1) : size_t(spec.period));
        std::mt19937_64 rng(options.seed);
        std::uniform_int_distribution<size_t> pick(first, length - 1);
        hours.resize(size_t(options.paths) * size_t(term));
        for (size_t &h : hours)
            h = pick(rng);
    }

    // Paths of the total: the models' paths summed path by path, clipped at 0 GPUs.
    SamplePaths total;
    for (size_t i = 0; i < models.size(); ++i) {
        SamplePaths own;
        if (aroundPoint && bootstrap) {
            // Each model's point forecast plus its residual at the training hour shared by all.
            const std::vector<double> point = forecastSmoothing(models[i], term);
            own.horizon = term;
            own.paths = options.paths;
            own.values.resize(hours.size());
            for (size_t v = 0; v < hours.size(); ++v)
                own.values[v] = point[v % size_t(term)] + options.bootstrapFrom[i][hours[v]] - models[i].fitted[hours[v]];
        } else if (aroundPoint) {
            const SmoothingModel &model = models[i];
            const std::vector<double> point = forecastSmoothing(model, term);
            const size_t length = history.size();
            const size_t first = std::min(length - 1, model.spec.season == SeasonKind::None ? size_t(1) : size_t(model.spec.period));
            std::mt19937_64 rng(options.seed + uint64_t(i));
            std::uniform_int_distribution<size_t> pick(first, length - 1);
            own.horizon = term;
            own.paths = options.paths;
            own.values.resize(size_t(options.paths) * size_t(term));
            for (int p = 0; p < options.paths; ++p)
                for (int h = 0; h < term; ++h) {
                    const size_t at = pick(rng);
                    own.values[size_t(p) * size_t(term) + size_t(h)] = point[size_t(h)] + history[at] - model.fitted[at];
                }
        } else if (bootstrap) {
            std::vector<double> innovations(hours.size());
            for (size_t v = 0; v < hours.size(); ++v)
                innovations[v] = options.bootstrapFrom[i][hours[v]] - models[i].fitted[hours[v]];
            own = simulatePathsWith(models[i], term, options.paths, innovations);
        } else {
            own = simulatePaths(models[i], term, options.paths, options.seed + uint64_t(i));
        }
        if (i == 0) {
            total = std::move(own);
        } else {
            for (size_t v = 0; v < total.values.size(); ++v)
                total.values[v] += own.values[v];
        }
        report(progress, int(i) + 1, steps);
    }
    for (double &v : total.values)
        v = std::max(0.0, v);

    ReservationHandOff out;
    out.termHours = term;
    out.paths = options.paths;
    out.forecastMean.assign(size_t(term), 0.0);
    for (int p = 0; p < options.paths; ++p)
        for (int h = 0; h < term; ++h)
            out.forecastMean[size_t(h)] += total.values[size_t(p) * size_t(term) + size_t(h)];
    for (double &v : out.forecastMean)
        v /= double(options.paths);
    std::vector<std::vector<double>> band = pathQuantiles(total, {0.05, 0.95});
    out.forecastP05 = std::move(band[0]);
    out.forecastP95 = std::move(band[1]);

    DemandSeries pooled;
    pooled.name = "forecast";
    pooled.source = std::to_string(options.paths) + " simulated paths of " + std::to_string(term) + " h";
    pooled.gpus.reserve(total.values.size());
    for (double v : total.values)
        pooled.gpus.push_back(Decimal::fromDouble(v));
    out.onForecast = analyseReservation(pooled, options.reservedRate, options.elasticRate);
    report(progress, steps - 1, steps);

    DemandSeries lookback;
    lookback.name = "look-back";
    lookback.source = "history";
    const size_t window = options.lookbackHours == 0 ? history.size() : size_t(options.lookbackHours);
    for (size_t i = history.size() - window; i < history.size(); ++i)
        lookback.gpus.push_back(Decimal::fromDouble(history[i]));
    out.onHistory = analyseReservation(lookback, options.reservedRate, options.elasticRate);

    // Expected cost of reserving R over one term: the pooled cost of R divided by the paths.
    const int64_t pooledHours = int64_t(pooled.gpus.size());
    const auto expected = [&](int64_t reserved) {
        Money pooledCost;
        if (size_t(reserved) < out.onForecast.sweep.size()) {
            pooledCost = out.onForecast.sweep[size_t(reserved)].cost;
        } else {
            // Above the pooled peak nothing spills over: only the reservation is paid.
            pooledCost = options.reservedRate * pooledHours * reserved;
        }
        return Money{pooledCost.amount / int64_t(options.paths), pooledCost.currency};
    };
    out.allOnDemand = expected(0);
    const auto choice = [&](const std::string &rule, int64_t reserved) {
        ReservationChoice c;
        c.rule = rule;
        c.reserved = reserved;
        c.expectedCost = expected(reserved);
        c.saving = shownDifference(out.allOnDemand, c.expectedCost); // as printed: re-adds to the costs shown
        return c;
    };
    out.forecastOptimum = choice("forecast optimum", out.onForecast.optimalReserved);
    out.lookbackOptimum = choice("look-back optimum", out.onHistory.optimalReserved);
    out.choices = {out.forecastOptimum, out.lookbackOptimum,
                   choice("P50 of history", out.onHistory.p50Reserved),
                   choice("P75 of history", out.onHistory.p75Reserved), choice("all on demand", 0)};
    report(progress, steps, steps);
    return out;
}

} // namespace headroom::engine
