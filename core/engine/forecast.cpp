#include "forecast.h"

#include "errors.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>

namespace headroom::engine {

namespace {

constexpr double kPhiLower = 0.8;
constexpr double kPhiUpper = 0.98;
constexpr double kStartAlpha = 0.5;
constexpr double kStartBeta = 0.1;
constexpr double kStartGamma = 0.1;
constexpr double kStartPhi = 0.9;
constexpr double kSimplexStep = 0.1;
constexpr double kRestartStep = 0.05;

bool hasSeason(const SmoothingSpec &spec) { return spec.season != SeasonKind::None; }
bool hasTrend(const SmoothingSpec &spec) { return spec.trend != TrendKind::None; }

// The Holt-Winters state and its one-step recursion (see forecast.h). The seasonal states sit
// in a ring: m_season[m_pos] applies to the next observation.
class HoltWintersFilter {
public:
    HoltWintersFilter(const SmoothingSpec &spec, const SmoothingParams &params,
                      const InitialStates &states)
        : m_season(spec.season), m_hasTrend(hasTrend(spec)), m_alpha(params.alpha),
          m_beta(params.beta), m_gamma(params.gamma),
          m_phi(spec.trend == TrendKind::Damped ? params.phi : 1.0), m_level(states.level),
          m_trend(m_hasTrend ? states.trend : 0.0), m_seasonal(states.seasonal)
    {
        if (m_seasonal.empty())
            m_seasonal.assign(1, 0.0);
    }

    double predict() const
    {
        const double base = m_level + m_phi * m_trend;
        switch (m_season) {
        case SeasonKind::Additive: return base + m_seasonal[m_pos];
        case SeasonKind::Multiplicative: return base * m_seasonal[m_pos];
        case SeasonKind::None: break;
        }
        return base;
    }

    void update(double y)
    {
        const double dampedTrend = m_phi * m_trend;
        const double base = m_level + dampedTrend;
        const double seasonOld = m_seasonal[m_pos];
        double level = 0.0;
        switch (m_season) {
        case SeasonKind::Additive:
            level = m_alpha * y - m_alpha * seasonOld + (1.0 - m_alpha) * base;
            m_seasonal[m_pos] = m_gamma * y - m_gamma * base + (1.0 - m_gamma) * seasonOld;
            break;
        case SeasonKind::Multiplicative:
            level = m_alpha * y / seasonOld + (1.0 - m_alpha) * base;
            m_seasonal[m_pos] = m_gamma * y / base + (1.0 - m_gamma) * seasonOld;
            break;
        case SeasonKind::None:
            level = m_alpha * y + (1.0 - m_alpha) * base;
            break;
        }
        if (m_hasTrend)
            m_trend = m_beta * (level - m_level) + (1.0 - m_beta) * dampedTrend;
        m_level = level;
        if (++m_pos == m_seasonal.size())
            m_pos = 0;
    }

    // Point forecast `step` ≥ 1 steps ahead of the current state.
    double forecast(int step, double phiSum) const
    {
        const double base = m_level + phiSum * m_trend;
        const double s = m_seasonal[(m_pos + size_t(step - 1)) % m_seasonal.size()];
        switch (m_season) {
        case SeasonKind::Additive: return base + s;
        case SeasonKind::Multiplicative: return base * s;
        case SeasonKind::None: break;
        }
        return base;
    }

    double phi() const { return m_phi; }

    InitialStates states(bool withSeason) const
    {
        InitialStates out;
        out.level = m_level;
        out.trend = m_trend;
        if (withSeason) {
            out.seasonal.reserve(m_seasonal.size());
            for (size_t k = 0; k < m_seasonal.size(); ++k)
                out.seasonal.push_back(m_seasonal[(m_pos + k) % m_seasonal.size()]);
        }
        return out;
    }

private:
    SeasonKind m_season;
    bool m_hasTrend;
    double m_alpha;
    double m_beta;
    double m_gamma;
    double m_phi;
    double m_level;
    double m_trend;
    std::vector<double> m_seasonal;
    size_t m_pos = 0;
};

double sumOfSquaredErrors(const std::vector<double> &series, const SmoothingSpec &spec,
                          const SmoothingParams &params, const InitialStates &states)
{
    HoltWintersFilter filter(spec, params, states);
    double sse = 0.0;
    for (double y : series) {
        const double e = y - filter.predict();
        sse += e * e;
        filter.update(y);
    }
    return sse;
}

void requireUnit(const char *field, double value, double lower = 0.0, double upper = 1.0)
{
    if (!(value >= lower && value <= upper))
        throw InputError(field, std::string(field) + " must be in [" + std::to_string(lower) + ", "
                                    + std::to_string(upper) + "], got " + std::to_string(value));
}

void validateSeries(const std::vector<double> &series, const SmoothingSpec &spec)
{
    if (hasSeason(spec) && spec.period < 2)
        throw InputError("season", "the season length must be at least 2 samples");
    for (size_t i = 0; i < series.size(); ++i)
        if (!std::isfinite(series[i]))
            throw InputError("series", "value " + std::to_string(i) + " is not a finite number");
    if (hasSeason(spec) && series.size() < 2 * size_t(spec.period))
        throw InputError("series", "a seasonal model needs at least two seasons ("
                                       + std::to_string(2 * spec.period) + " values), got "
                                       + std::to_string(series.size()));
    if (series.size() < 2)
        throw InputError("series", "at least two values are needed, got "
                                       + std::to_string(series.size()));
    if (spec.season == SeasonKind::Multiplicative)
        for (size_t i = 0; i < series.size(); ++i)
            if (series[i] <= 0.0)
                throw InputError("series", "a multiplicative season needs positive values; value "
                                               + std::to_string(i) + " is "
                                               + std::to_string(series[i]));
}

void validateParams(const SmoothingSpec &spec, const SmoothingParams &params)
{
    requireUnit("alpha", params.alpha);
    if (hasTrend(spec))
        requireUnit("beta", params.beta);
    if (hasSeason(spec))
        requireUnit("gamma", params.gamma);
    if (spec.trend == TrendKind::Damped && !(params.phi > 0.0 && params.phi <= 1.0))
        throw InputError("phi", "phi must be in (0, 1], got " + std::to_string(params.phi));
}

void validateStates(const SmoothingSpec &spec, const InitialStates &states)
{
    if (!std::isfinite(states.level))
        throw InputError("initial_level", "the initial level is not a finite number");
    if (hasTrend(spec) && !std::isfinite(states.trend))
        throw InputError("initial_trend", "the initial trend is not a finite number");
    if (!hasSeason(spec))
        return;
    if (states.seasonal.size() != size_t(spec.period))
        throw InputError("initial_seasonal", "expected " + std::to_string(spec.period)
                                                 + " initial seasonal values, got "
                                                 + std::to_string(states.seasonal.size()));
    for (double s : states.seasonal)
        if (!std::isfinite(s) || (spec.season == SeasonKind::Multiplicative && s <= 0.0))
            throw InputError("initial_seasonal", "initial seasonal values must be finite"
                                                 " (and positive for a multiplicative season)");
}

// Nelder–Mead simplex minimisation (Nelder & Mead 1965; reflection 1, expansion 2,
// contraction ½, shrink ½) with every trial point clamped into [lower, upper].
struct Minimum {
    std::vector<double> x;
    double value = 0.0;
    int evaluations = 0;
};

Minimum nelderMead(const std::function<double(const std::vector<double> &)> &f,
                   std::vector<double> start, const std::vector<double> &lower,
                   const std::vector<double> &upper, double step, int maxEvaluations)
{
    const size_t d = start.size();
    Minimum out;
    auto clamp = [&](std::vector<double> &x) {
        for (size_t i = 0; i < d; ++i)
            x[i] = std::clamp(x[i], lower[i], upper[i]);
    };
    auto eval = [&](const std::vector<double> &x) {
        ++out.evaluations;
        const double v = f(x);
        return std::isfinite(v) ? v : HUGE_VAL;
    };
    clamp(start);
    std::vector<std::vector<double>> simplex(d + 1, start);
    for (size_t i = 0; i < d; ++i) {
        double &c = simplex[i + 1][i];
        c = (c + step <= upper[i]) ? c + step : c - step;
    }
    std::vector<double> values(d + 1);
    for (size_t i = 0; i <= d; ++i)
        values[i] = eval(simplex[i]);
    std::vector<size_t> order(d + 1);
    std::vector<double> centroid(d), trial(d), second(d);
    while (out.evaluations < maxEvaluations) {
        for (size_t i = 0; i <= d; ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
        const size_t best = order.front(), worst = order.back(), nextWorst = order[d - 1];
        double spread = 0.0;
        for (size_t i = 0; i <= d; ++i)
            for (size_t j = 0; j < d; ++j)
                spread = std::max(spread, std::abs(simplex[i][j] - simplex[best][j]));
        if (values[worst] - values[best] <= 1e-12 * std::max(1.0, std::abs(values[best]))
            && spread < 1e-7)
            break;
        std::fill(centroid.begin(), centroid.end(), 0.0);
        for (size_t i = 0; i <= d; ++i)
            if (i != worst)
                for (size_t j = 0; j < d; ++j)
                    centroid[j] += simplex[i][j] / double(d);
        auto along = [&](double t, std::vector<double> &x) {
            for (size_t j = 0; j < d; ++j)
                x[j] = centroid[j] + t * (simplex[worst][j] - centroid[j]);
            clamp(x);
        };
        along(-1.0, trial);
        const double reflected = eval(trial);
        if (reflected < values[best]) {
            along(-2.0, second);
            const double expanded = eval(second);
            if (expanded < reflected) {
                simplex[worst] = second;
                values[worst] = expanded;
            } else {
                simplex[worst] = trial;
                values[worst] = reflected;
            }
            continue;
        }
        if (reflected < values[nextWorst]) {
            simplex[worst] = trial;
            values[worst] = reflected;
            continue;
        }
        const bool outside = reflected < values[worst];
        along(outside ? -0.5 : 0.5, second);
        const double contracted = eval(second);
        if (contracted < (outside ? reflected : values[worst])) {
            simplex[worst] = second;
            values[worst] = contracted;
            continue;
        }
        for (size_t i = 0; i <= d; ++i) {
            if (i == best)
                continue;
            for (size_t j = 0; j < d; ++j)
                simplex[i][j] = simplex[best][j] + 0.5 * (simplex[i][j] - simplex[best][j]);
            values[i] = eval(simplex[i]);
        }
    }
    const size_t best = size_t(std::min_element(values.begin(), values.end()) - values.begin());
    out.x = simplex[best];
    out.value = values[best];
    return out;
}

} // namespace

InitialStates initialStatesHeuristic(const std::vector<double> &series, const SmoothingSpec &spec)
{
    validateSeries(series, spec);
    InitialStates states;
    if (!hasSeason(spec)) {
        states.level = series[0];
        states.trend = hasTrend(spec) ? series[1] - series[0] : 0.0;
        return states;
    }
    const size_t m = size_t(spec.period);
    double first = 0.0, slope = 0.0;
    for (size_t i = 0; i < m; ++i) {
        first += series[i];
        slope += (series[m + i] - series[i]) / double(m);
    }
    states.level = first / double(m);
    states.trend = hasTrend(spec) ? slope / double(m) : 0.0;
    states.seasonal.reserve(m);
    for (size_t i = 0; i < m; ++i)
        states.seasonal.push_back(spec.season == SeasonKind::Multiplicative
                                      ? series[i] / states.level
                                      : series[i] - states.level);
    return states;
}

SmoothingModel fitSmoothing(const std::vector<double> &series, const SmoothingSpec &spec,
                            const FitOptions &options)
{
    validateSeries(series, spec);
    SmoothingModel model;
    model.spec = spec;
    model.initial = options.knownStates ? *options.knownStates : initialStatesHeuristic(series, spec);
    if (!hasTrend(spec))
        model.initial.trend = 0.0;
    if (!hasSeason(spec))
        model.initial.seasonal.clear();
    validateStates(spec, model.initial);

    if (options.fixedParams) {
        model.params = *options.fixedParams;
        validateParams(spec, model.params);
    } else {
        // Free parameters in order alpha, [beta], [gamma], [phi].
        std::vector<double> start{kStartAlpha}, lower{0.0}, upper{1.0};
        if (hasTrend(spec)) {
            start.push_back(kStartBeta);
            lower.push_back(0.0);
            upper.push_back(1.0);
        }
        if (hasSeason(spec)) {
            start.push_back(kStartGamma);
            lower.push_back(0.0);
            upper.push_back(1.0);
        }
        if (spec.trend == TrendKind::Damped) {
            start.push_back(kStartPhi);
            lower.push_back(kPhiLower);
            upper.push_back(kPhiUpper);
        }
        auto unpack = [&](const std::vector<double> &x) {
            SmoothingParams p;
            size_t i = 0;
            p.alpha = x[i++];
            if (hasTrend(spec))
                p.beta = x[i++];
            if (hasSeason(spec))
                p.gamma = x[i++];
            if (spec.trend == TrendKind::Damped)
                p.phi = x[i++];
            return p;
        };
        auto objective = [&](const std::vector<double> &x) {
            return sumOfSquaredErrors(series, spec, unpack(x), model.initial);
        };
        const int budget = std::max(10, options.maxEvaluations);
        Minimum best = nelderMead(objective, start, lower, upper, kSimplexStep, budget / 2);
        // One restart from the optimum guards against a simplex collapsed onto a bound.
        Minimum again = nelderMead(objective, best.x, lower, upper, kRestartStep,
                                   budget - best.evaluations);
        model.evaluations = best.evaluations + again.evaluations;
        model.params = unpack(again.value <= best.value ? again.x : best.x);
        if (spec.trend != TrendKind::Damped)
            model.params.phi = 1.0;
    }

    HoltWintersFilter filter(spec, model.params, model.initial);
    model.fitted.reserve(series.size());
    model.sse = 0.0;
    for (double y : series) {
        const double yhat = filter.predict();
        model.fitted.push_back(yhat);
        model.sse += (y - yhat) * (y - yhat);
        filter.update(y);
    }
    model.residualSd = std::sqrt(model.sse / double(series.size()));
    model.endStates = filter.states(hasSeason(spec));
    return model;
}

std::vector<double> forecastSmoothing(const SmoothingModel &model, int horizon)
{
    if (horizon < 0)
        throw InputError("horizon", "the horizon must be ≥ 0 steps");
    const HoltWintersFilter filter(model.spec, model.params, model.endStates);
    std::vector<double> out;
    out.reserve(size_t(horizon));
    double phiPower = 1.0, phiSum = 0.0;
    for (int step = 1; step <= horizon; ++step) {
        phiPower *= filter.phi();
        phiSum += phiPower;
        out.push_back(filter.forecast(step, phiSum));
    }
    return out;
}

SamplePaths simulatePaths(const SmoothingModel &model, int horizon, int paths, uint64_t seed)
{
    if (horizon < 1)
        throw InputError("horizon", "the horizon must be at least 1 step");
    if (paths < 1)
        throw InputError("paths", "at least one sample path is needed");
    SamplePaths out;
    out.horizon = horizon;
    out.paths = paths;
    out.values.resize(size_t(horizon) * size_t(paths));
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    const double sd = model.residualSd;
    for (int p = 0; p < paths; ++p) {
        HoltWintersFilter filter(model.spec, model.params, model.endStates);
        double *row = out.values.data() + size_t(p) * size_t(horizon);
        for (int step = 0; step < horizon; ++step) {
            const double y = filter.predict() + sd * noise(rng);
            row[step] = y;
            filter.update(y);
        }
    }
    return out;
}

double sampleQuantile(std::vector<double> values, double q)
{
    if (values.empty())
        throw InputError("sample", "a quantile needs at least one value");
    requireUnit("quantile", q);
    const double h = double(values.size() - 1) * q;
    const size_t lower = static_cast<size_t>(std::floor(h));
    std::nth_element(values.begin(), values.begin() + lower, values.end());
    const double low = values[lower];
    if (lower + 1 >= values.size())
        return low;
    const double high = *std::min_element(values.begin() + lower + 1, values.end());
    return low + (h - double(lower)) * (high - low);
}

std::vector<double> pathQuantiles(const SamplePaths &paths, double q)
{
    requireUnit("quantile", q);
    std::vector<double> out(size_t(paths.horizon));
    std::vector<double> column(size_t(paths.paths));
    for (int step = 0; step < paths.horizon; ++step) {
        for (int p = 0; p < paths.paths; ++p)
            column[size_t(p)] = paths.values[size_t(p) * size_t(paths.horizon) + size_t(step)];
        out[size_t(step)] = sampleQuantile(column, q);
    }
    return out;
}

} // namespace headroom::engine
