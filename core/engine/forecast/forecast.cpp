#include "forecast.h"

#include "engine/common/errors.h"
#include "engine/common/explain_text.h"
#include "forecast_estimate.h"

#include <Eigen/Dense>

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
    for (size_t i = 0; i < series.size(); ++i) {
        if (!std::isfinite(series[i]))
            throw InputError("series", "value " + std::to_string(i) + " is not a finite number");
        // Squared errors of larger values overflow the SSE (inf) and the intervals (NaN).
        if (std::abs(series[i]) > kMaxSeriesValue)
            throw InputError("series", "value " + std::to_string(i) + " (" + explain::scientific(series[i])
                                           + ") is beyond ±10^12, the largest a series may hold");
    }
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

// ---- Standard normal draws for sample paths ---------------------------------------------

// Marsaglia & Tsang's ziggurat (J. Stat. Software 5(8), 2000) with 128 layers, fed by
// std::mt19937_64: each 64-bit draw gives the layer (low 7 bits) and a signed 32-bit abscissa
// (high 32 bits), so the two are independent (avoiding the index/value correlation Leong et
// al. 2005 found in the original). About 99 % of draws take the fast path: one generator call,
// one compare, one multiply — several times cheaper than std::normal_distribution's polar method.
class ZigguratNormal {
public:
    ZigguratNormal()
    {
        constexpr double m1 = 2147483648.0;  // 2^31
        double dn = kR, tn = dn;
        const double q = kV / std::exp(-0.5 * dn * dn);
        m_k[0] = uint32_t((dn / q) * m1);
        m_k[1] = 0;
        m_w[0] = q / m1;
        m_w[127] = dn / m1;
        m_f[0] = 1.0;
        m_f[127] = std::exp(-0.5 * dn * dn);
        for (int i = 126; i >= 1; --i) {
            dn = std::sqrt(-2.0 * std::log(kV / dn + std::exp(-0.5 * dn * dn)));
            m_k[i + 1] = uint32_t((dn / tn) * m1);
            tn = dn;
            m_f[i] = std::exp(-0.5 * dn * dn);
            m_w[i] = dn / m1;
        }
    }

    double operator()(std::mt19937_64 &rng) const
    {
        for (;;) {
            const uint64_t bits = rng();
            const size_t layer = size_t(bits & 127u);
            const int32_t hz = static_cast<int32_t>(static_cast<uint32_t>(bits >> 32));
            const double x = double(hz) * m_w[layer];
            const uint32_t magnitude = hz < 0 ? uint32_t(-int64_t(hz)) : uint32_t(hz);
            if (magnitude < m_k[layer])
                return x;
            if (layer == 0) {
                // The tail beyond r: Marsaglia's exponential rejection.
                double tx = 0.0, ty = 0.0;
                do {
                    tx = -std::log(uniform(rng)) / kR;
                    ty = -std::log(uniform(rng));
                } while (ty + ty < tx * tx);
                return hz > 0 ? kR + tx : -kR - tx;
            }
            if (m_f[layer] + uniform(rng) * (m_f[layer - 1] - m_f[layer]) < std::exp(-0.5 * x * x))
                return x;
        }
    }

private:
    static constexpr double kR = 3.442619855899;        // start of the tail
    static constexpr double kV = 9.91256303526217e-3;   // area of each layer
    // Uniform in (0, 1), never 0 (its log is taken).
    static double uniform(std::mt19937_64 &rng) { return (double(rng() >> 11) + 0.5) * 0x1.0p-53; }

    uint32_t m_k[128] = {};
    double m_w[128] = {};
    double m_f[128] = {};
};

const ZigguratNormal &standardNormal()
{
    static const ZigguratNormal normal;
    return normal;
}

// ---- Fitting the parameters and estimating the initial states ------------------------------

// Free parameters in order alpha, [beta], [gamma], [phi].
struct ParamLayout {
    SmoothingSpec spec;
    std::vector<double> lower, upper;

    explicit ParamLayout(const SmoothingSpec &s) : spec(s)
    {
        lower.push_back(0.0);
        upper.push_back(1.0);
        if (hasTrend(spec)) {
            lower.push_back(0.0);
            upper.push_back(1.0);
        }
        if (hasSeason(spec)) {
            lower.push_back(0.0);
            upper.push_back(1.0);
        }
        if (spec.trend == TrendKind::Damped) {
            lower.push_back(kPhiLower);
            upper.push_back(kPhiUpper);
        }
    }

    std::vector<double> pack(const SmoothingParams &p) const
    {
        std::vector<double> x{p.alpha};
        if (hasTrend(spec))
            x.push_back(p.beta);
        if (hasSeason(spec))
            x.push_back(p.gamma);
        if (spec.trend == TrendKind::Damped)
            x.push_back(p.phi);
        return x;
    }

    SmoothingParams unpack(const std::vector<double> &x) const
    {
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
    }
};

struct ParamFit {
    SmoothingParams params;
    double sse = 0.0;
    int evaluations = 0;
};

// Minimises the SSE over the parameters with the initial states fixed: a bounded simplex
// from `start`, then one restart from its optimum (guards against a simplex collapsed onto a
// bound). The start point is in the first simplex, so the result is never worse than it.
ParamFit fitParams(const std::vector<double> &series, const SmoothingSpec &spec,
                   const InitialStates &states, const SmoothingParams &start, int budget)
{
    const ParamLayout layout(spec);
    auto objective = [&](const std::vector<double> &x) {
        return sumOfSquaredErrors(series, spec, layout.unpack(x), states);
    };
    budget = std::max(10, budget);
    Minimum best = nelderMead(objective, layout.pack(start), layout.lower, layout.upper, kSimplexStep,
                              budget / 2);
    Minimum again = nelderMead(objective, best.x, layout.lower, layout.upper, kRestartStep,
                               budget - best.evaluations);
    ParamFit out;
    out.evaluations = best.evaluations + again.evaluations;
    const bool second = again.value <= best.value;
    out.params = layout.unpack(second ? again.x : best.x);
    out.sse = second ? again.value : best.value;
    if (spec.trend != TrendKind::Damped)
        out.params.phi = 1.0;
    return out;
}

// The initial states as one vector: level, [trend], seasonal values.
std::vector<double> packStates(const SmoothingSpec &spec, const InitialStates &s)
{
    std::vector<double> x{s.level};
    if (hasTrend(spec))
        x.push_back(s.trend);
    x.insert(x.end(), s.seasonal.begin(), s.seasonal.end());
    return x;
}

InitialStates unpackStates(const SmoothingSpec &spec, const std::vector<double> &x)
{
    InitialStates s;
    size_t i = 0;
    s.level = x[i++];
    if (hasTrend(spec))
        s.trend = x[i++];
    s.seasonal.assign(x.begin() + long(i), x.end());
    return s;
}

// Seasonal states normalised to sum 0 (additive) or mean 1 (multiplicative), with the level
// and trend compensating so that every one-step prediction stays the same: the Holt-Winters
// recursions are invariant under l → l − c, s → s + c (additive) and under
// l → l / k, b → b / k, s → k s (multiplicative).
void normaliseSeason(const SmoothingSpec &spec, InitialStates &s)
{
    if (s.seasonal.empty())
        return;
    double sum = 0.0;
    for (double v : s.seasonal)
        sum += v;
    const double mean = sum / double(s.seasonal.size());
    if (spec.season == SeasonKind::Additive) {
        for (double &v : s.seasonal)
            v -= mean;
        s.level += mean;
    } else if (spec.season == SeasonKind::Multiplicative && mean > 0.0) {
        for (double &v : s.seasonal)
            v /= mean;
        s.level *= mean;
        s.trend *= mean;
    }
}

// One-step predictions for the given states.
void predictions(const std::vector<double> &series, const SmoothingSpec &spec,
                 const SmoothingParams &params, const InitialStates &states, std::vector<double> &out)
{
    HoltWintersFilter filter(spec, params, states);
    out.resize(series.size());
    for (size_t t = 0; t < series.size(); ++t) {
        out[t] = filter.predict();
        filter.update(series[t]);
    }
}

struct StateFit {
    InitialStates states;
    double sse = 0.0;
    int evaluations = 0;
};

// Least squares over the initial states with the parameters fixed: Levenberg–Marquardt on a
// forward-difference Jacobian of the one-step predictions (exact for additive models, whose
// predictions are affine in the states, so the first step lands on the optimum). The season
// direction that leaves the predictions unchanged is removed by normaliseSeason after each step.
StateFit fitStates(const std::vector<double> &series, const SmoothingSpec &spec,
                   const SmoothingParams &params, const InitialStates &start, int iterations)
{
    StateFit out;
    out.states = start;
    out.sse = sumOfSquaredErrors(series, spec, params, start);
    ++out.evaluations;
    const size_t n = series.size();
    std::vector<double> base, shifted;
    double lambda = 1e-9;
    for (int it = 0; it < iterations; ++it) {
        const std::vector<double> x = packStates(spec, out.states);
        const size_t d = x.size();
        predictions(series, spec, params, out.states, base);
        Eigen::MatrixXd jacobian(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
        for (size_t j = 0; j < d; ++j) {
            std::vector<double> probe = x;
            const double h = spec.season == SeasonKind::Multiplicative
                                 ? 1e-6 * std::max(1e-3, std::abs(x[j]))
                                 : std::max(1.0, std::abs(x[j]));
            probe[j] += h;
            predictions(series, spec, params, unpackStates(spec, probe), shifted);
            ++out.evaluations;
            for (size_t t = 0; t < n; ++t)
                jacobian(long(t), long(j)) = (shifted[t] - base[t]) / h;
        }
        Eigen::VectorXd residual(static_cast<Eigen::Index>(n));
        for (size_t t = 0; t < n; ++t)
            residual(long(t)) = series[t] - base[t];
        const Eigen::MatrixXd normal = jacobian.transpose() * jacobian;
        const Eigen::VectorXd gradient = jacobian.transpose() * residual;
        const double scale = std::max(1e-12, normal.diagonal().maxCoeff());
        bool improved = false;
        for (int attempt = 0; attempt < 8 && !improved; ++attempt, lambda *= 100.0) {
            Eigen::MatrixXd damped = normal;
            for (size_t j = 0; j < d; ++j)
                damped(long(j), long(j)) += lambda * scale;
            const Eigen::VectorXd step = damped.ldlt().solve(gradient);
            if (!step.allFinite())
                continue;
            std::vector<double> trial = x;
            for (size_t j = 0; j < d; ++j)
                trial[j] += step(long(j));
            InitialStates candidate = unpackStates(spec, trial);
            if (spec.season == SeasonKind::Multiplicative
                && std::any_of(candidate.seasonal.begin(), candidate.seasonal.end(),
                               [](double v) { return !(v > 0.0); }))
                continue;
            normaliseSeason(spec, candidate);
            const double sse = sumOfSquaredErrors(series, spec, params, candidate);
            ++out.evaluations;
            if (std::isfinite(sse) && sse < out.sse) {
                const double gain = out.sse - sse;
                out.states = candidate;
                out.sse = sse;
                improved = true;
                lambda = std::max(1e-12, lambda / 1e4);
                if (gain <= 1e-10 * std::max(1.0, sse))
                    return out;
            }
        }
        if (!improved)
            break;
    }
    return out;
}

} // namespace

InitialStates leastSquaresStates(const std::vector<double> &series, const SmoothingSpec &spec,
                                 const SmoothingParams &params, const InitialStates &start, int iterations,
                                 int &evaluations)
{
    InitialStates normalised = start;
    normaliseSeason(spec, normalised);
    const StateFit fit = fitStates(series, spec, params, normalised, iterations);
    evaluations += fit.evaluations;
    return fit.states;
}

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

    const bool estimate = !options.knownStates && options.initial == InitialMethod::Estimated;
    if (options.fixedParams) {
        model.params = *options.fixedParams;
        validateParams(spec, model.params);
        if (estimate) {
            normaliseSeason(spec, model.initial);
            const StateFit states = fitStates(series, spec, model.params, model.initial, 4 * kEstimationRounds);
            model.initial = states.states;
            model.evaluations = states.evaluations;
        }
    } else if (estimate) {
        normaliseSeason(spec, model.initial);
        const JointEstimate joint = estimateJointly(series, spec, model.initial);
        model.params = joint.params;
        model.initial = joint.states;
        normaliseSeason(spec, model.initial);
        model.evaluations = joint.evaluations;
    } else {
        const SmoothingParams start{kStartAlpha, kStartBeta, kStartGamma, kStartPhi};
        const ParamFit fit = fitParams(series, spec, model.initial, start, options.maxEvaluations);
        model.evaluations = fit.evaluations;
        model.params = fit.params;
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
    const ZigguratNormal &noise = standardNormal();
    const double sd = model.residualSd;
    // The noise of a group of paths is drawn first, path after path (the same stream as one
    // path at a time), then the group's filters step in lockstep: their recursions are
    // independent, so the processor overlaps them instead of waiting on one chain.
    constexpr int kGroup = 4;
    const HoltWintersFilter start(model.spec, model.params, model.endStates);
    for (int first = 0; first < paths; first += kGroup) {
        const int group = std::min(kGroup, paths - first);
        double *rows = out.values.data() + size_t(first) * size_t(horizon);
        for (size_t v = 0; v < size_t(group) * size_t(horizon); ++v)
            rows[v] = sd * noise(rng);
        HoltWintersFilter filters[kGroup] = {start, start, start, start};
        for (int step = 0; step < horizon; ++step) {
            for (int g = 0; g < group; ++g) {
                double &cell = rows[size_t(g) * size_t(horizon) + size_t(step)];
                cell += filters[g].predict();
                filters[g].update(cell);
            }
        }
    }
    return out;
}

SamplePaths simulatePathsWith(const SmoothingModel &model, int horizon, int paths,
                              const std::vector<double> &innovations)
{
    if (horizon < 1)
        throw InputError("horizon", "the horizon must be at least 1 step");
    if (paths < 1)
        throw InputError("paths", "at least one sample path is needed");
    if (innovations.size() != size_t(horizon) * size_t(paths))
        throw InputError("innovations", "expected " + std::to_string(size_t(horizon) * size_t(paths))
                                            + " innovations (paths × horizon), got "
                                            + std::to_string(innovations.size()));
    SamplePaths out;
    out.horizon = horizon;
    out.paths = paths;
    out.values.resize(innovations.size());
    for (int p = 0; p < paths; ++p) {
        HoltWintersFilter filter(model.spec, model.params, model.endStates);
        const size_t row = size_t(p) * size_t(horizon);
        for (int step = 0; step < horizon; ++step) {
            const double e = innovations[row + size_t(step)];
            if (!std::isfinite(e))
                throw InputError("innovations", "innovation " + std::to_string(row + size_t(step))
                                                    + " is not a finite number");
            const double y = filter.predict() + e;
            out.values[row + size_t(step)] = y;
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

std::vector<std::vector<double>> pathQuantiles(const SamplePaths &paths, const std::vector<double> &levels)
{
    for (double q : levels)
        requireUnit("quantile", q);
    if (paths.paths < 1)
        throw InputError("sample", "a quantile needs at least one value");
    std::vector<size_t> order(levels.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return levels[a] < levels[b]; });
    std::vector<std::vector<double>> out(levels.size(), std::vector<double>(size_t(paths.horizon)));
    const size_t n = size_t(paths.paths);
    const size_t horizon = size_t(paths.horizon);

    // The levels of one step's values (reordered in place). Order statistics are found left
    // to right: after nth_element at j, everything from j + 1 on is ≥ column[j], so the next
    // level only partitions that remainder.
    auto levelsOf = [&](std::vector<double>::iterator column, size_t step) {
        size_t settled = 0;
        for (size_t i : order) {
            const double h = double(n - 1) * levels[i];
            const size_t lower = static_cast<size_t>(std::floor(h));
            if (lower >= settled) {
                std::nth_element(column + long(settled), column + long(lower), column + long(n));
                settled = lower + 1;
            }
            const double low = column[long(lower)];
            double value = low;
            if (lower + 1 < n) {
                const double high = *std::min_element(column + long(lower) + 1, column + long(n));
                value = low + (h - double(lower)) * (high - low);
            }
            out[i][step] = value;
        }
    };

    // Steps are gathered a block at a time, so each path's row is read a cache line at a time.
    constexpr size_t kBlock = 8;
    std::vector<double> block(kBlock * n);
    for (size_t first = 0; first < horizon; first += kBlock) {
        const size_t width = std::min(kBlock, horizon - first);
        for (size_t p = 0; p < n; ++p) {
            const double *row = paths.values.data() + p * horizon + first;
            for (size_t k = 0; k < width; ++k)
                block[k * n + p] = row[k];
        }
        for (size_t k = 0; k < width; ++k)
            levelsOf(block.begin() + long(k * n), first + k);
    }
    return out;
}

} // namespace headroom::engine
