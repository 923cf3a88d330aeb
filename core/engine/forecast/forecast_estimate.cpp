#include "forecast_estimate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace headroom::engine {

namespace {

bool hasSeason(const SmoothingSpec &spec) { return spec.season != SeasonKind::None; }
bool hasTrend(const SmoothingSpec &spec) { return spec.trend != TrendKind::None; }
bool isDamped(const SmoothingSpec &spec) { return spec.trend == TrendKind::Damped; }

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The search vector: transformed parameters, then the states in units of the series' scale
// (seasonal factors of a multiplicative season as they are).
//   alpha = sin²u₀, beta = alpha·sin²u₁, gamma = (1 − alpha)·sin²u₂,
//   phi = 0.8 + 0.195·sin²u₃.
class Layout {
public:
    Layout(const SmoothingSpec &spec, double scale, double trendScale)
        : m_spec(spec), m_scale(scale), m_trendScale(trendScale)
    {
        m_params = 1 + (hasTrend(spec) ? 1 : 0) + (hasSeason(spec) ? 1 : 0) + (isDamped(spec) ? 1 : 0);
        m_states = 1 + (hasTrend(spec) ? 1 : 0) + (hasSeason(spec) ? size_t(spec.period) : 0);
    }

    size_t size() const { return m_params + m_states; }

    static double unit(double u) { return std::sin(u) * std::sin(u); }
    static double unitSlope(double u) { return std::sin(2.0 * u); }
    static double inverse(double p) { return std::asin(std::sqrt(std::clamp(p, 0.0, 1.0))); }

    std::vector<double> pack(const SmoothingParams &p, const InitialStates &s) const
    {
        std::vector<double> x;
        x.reserve(size());
        x.push_back(inverse(p.alpha));
        if (hasTrend(m_spec))
            x.push_back(inverse(p.alpha > 0 ? p.beta / p.alpha : 0.0));
        if (hasSeason(m_spec))
            x.push_back(inverse(p.alpha < 1 ? p.gamma / (1.0 - p.alpha) : 0.0));
        if (isDamped(m_spec))
            x.push_back(inverse((p.phi - kEstimatedPhiLower) / (kEstimatedPhiUpper - kEstimatedPhiLower)));
        x.push_back(s.level / m_scale);
        if (hasTrend(m_spec))
            x.push_back(s.trend / m_trendScale);
        for (double v : s.seasonal)
            x.push_back(seasonScale() == 1.0 ? v : v / m_scale);
        return x;
    }

    void unpack(const std::vector<double> &x, SmoothingParams &p, InitialStates &s) const
    {
        size_t i = 0;
        p.alpha = unit(x[i++]);
        p.beta = hasTrend(m_spec) ? p.alpha * unit(x[i++]) : 0.0;
        p.gamma = hasSeason(m_spec) ? (1.0 - p.alpha) * unit(x[i++]) : 0.0;
        p.phi = isDamped(m_spec) ? kEstimatedPhiLower + (kEstimatedPhiUpper - kEstimatedPhiLower) * unit(x[i++]) : 1.0;
        s.level = x[i++] * m_scale;
        s.trend = hasTrend(m_spec) ? x[i++] * m_trendScale : 0.0;
        s.seasonal.resize(hasSeason(m_spec) ? size_t(m_spec.period) : 0);
        for (double &v : s.seasonal)
            v = x[i++] * seasonScale();
    }

    // d objective / d x from d SSE / d (alpha, beta, gamma, phi, level, trend, seasonal…).
    void chain(const std::vector<double> &x, const std::vector<double> &g, double norm,
               std::vector<double> &out) const
    {
        out.assign(size(), 0.0);
        size_t i = 0;
        const double alpha = unit(x[0]);
        const double bStar = hasTrend(m_spec) ? unit(x[1]) : 0.0;
        const double gStar = hasSeason(m_spec) ? unit(x[1 + (hasTrend(m_spec) ? 1 : 0)]) : 0.0;
        out[i] = (g[0] + g[1] * bStar - g[2] * gStar) * unitSlope(x[i]) * norm;
        ++i;
        if (hasTrend(m_spec)) {
            out[i] = g[1] * alpha * unitSlope(x[i]) * norm;
            ++i;
        }
        if (hasSeason(m_spec)) {
            out[i] = g[2] * (1.0 - alpha) * unitSlope(x[i]) * norm;
            ++i;
        }
        if (isDamped(m_spec)) {
            out[i] = g[3] * (kEstimatedPhiUpper - kEstimatedPhiLower) * unitSlope(x[i]) * norm;
            ++i;
        }
        out[i++] = g[4] * m_scale * norm;
        if (hasTrend(m_spec))
            out[i++] = g[5] * m_trendScale * norm;
        for (size_t k = 0; k + 6 < g.size() && i < out.size(); ++k)
            out[i++] = g[6 + k] * seasonScale() * norm;
    }

private:
    double seasonScale() const { return m_spec.season == SeasonKind::Multiplicative ? 1.0 : m_scale; }

    SmoothingSpec m_spec;
    double m_scale;
    double m_trendScale;
    size_t m_params = 0;
    size_t m_states = 0;
};

// Limited-memory BFGS (Nocedal 1980; two-loop recursion, 8 pairs) with a backtracking Armijo
// line search, on an unconstrained objective with its gradient.
class Minimizer {
public:
    template <typename F>
    static double run(F &&f, std::vector<double> &x, int maxIterations, double tolerance, int &evaluations)
    {
        constexpr size_t kPairs = 8;
        const size_t d = x.size();
        std::vector<double> g(d), gNew(d), xNew(d), dir(d), alphaHist(kPairs);
        std::vector<std::vector<double>> sHist, yHist;
        std::vector<double> rho;
        double fx = f(x, &g);
        ++evaluations;
        if (!std::isfinite(fx))
            return fx;
        int quiet = 0;
        for (int it = 0; it < maxIterations; ++it) {
            // Direction −H·g by the two-loop recursion.
            dir = g;
            const size_t k = sHist.size();
            for (size_t j = k; j-- > 0;) {
                alphaHist[j] = rho[j] * std::inner_product(sHist[j].begin(), sHist[j].end(), dir.begin(), 0.0);
                for (size_t i = 0; i < d; ++i)
                    dir[i] -= alphaHist[j] * yHist[j][i];
            }
            if (k > 0) {
                const double sy = 1.0 / rho[k - 1];
                const double yy = std::inner_product(yHist[k - 1].begin(), yHist[k - 1].end(), yHist[k - 1].begin(), 0.0);
                const double gammaScale = sy / yy;
                for (double &v : dir)
                    v *= gammaScale;
            }
            for (size_t j = 0; j < k; ++j) {
                const double beta = rho[j] * std::inner_product(yHist[j].begin(), yHist[j].end(), dir.begin(), 0.0);
                for (size_t i = 0; i < d; ++i)
                    dir[i] += sHist[j][i] * (alphaHist[j] - beta);
            }
            for (double &v : dir)
                v = -v;
            double slope = std::inner_product(g.begin(), g.end(), dir.begin(), 0.0);
            if (!(slope < 0.0)) {
                sHist.clear();
                yHist.clear();
                rho.clear();
                for (size_t i = 0; i < d; ++i)
                    dir[i] = -g[i];
                slope = std::inner_product(g.begin(), g.end(), dir.begin(), 0.0);
                if (!(slope < 0.0))
                    break;
            }
            double step = 1.0;
            if (k == 0) {
                double largest = 0.0;
                for (double v : dir)
                    largest = std::max(largest, std::abs(v));
                step = std::min(1.0, 0.1 / std::max(largest, 1e-300));
            }
            double fNew = kInfinity;
            bool accepted = false;
            for (int tries = 0; tries < 40; ++tries) {
                for (size_t i = 0; i < d; ++i)
                    xNew[i] = x[i] + step * dir[i];
                fNew = f(xNew, &gNew);
                ++evaluations;
                if (std::isfinite(fNew) && fNew <= fx + 1e-4 * step * slope) {
                    accepted = true;
                    break;
                }
                step *= 0.5;
            }
            if (!accepted)
                break;
            std::vector<double> s(d), y(d);
            for (size_t i = 0; i < d; ++i) {
                s[i] = xNew[i] - x[i];
                y[i] = gNew[i] - g[i];
            }
            const double sy = std::inner_product(s.begin(), s.end(), y.begin(), 0.0);
            if (sy > 1e-16) {
                if (sHist.size() == kPairs) {
                    sHist.erase(sHist.begin());
                    yHist.erase(yHist.begin());
                    rho.erase(rho.begin());
                }
                sHist.push_back(std::move(s));
                yHist.push_back(std::move(y));
                rho.push_back(1.0 / sy);
            }
            const double gain = fx - fNew;
            x.swap(xNew);
            g.swap(gNew);
            fx = fNew;
            // Three steps in a row gaining under `tolerance` of the objective: converged.
            quiet = gain <= tolerance * std::max(1e-300, std::abs(fx)) ? quiet + 1 : 0;
            if (quiet >= 3)
                break;
        }
        return fx;
    }
};

template <SeasonKind S, bool Trend>
double sseWithGradient(const std::vector<double> &series, const SmoothingSpec &spec, const SmoothingParams &params,
                       const InitialStates &states, std::vector<double> *gradient)
{
    const size_t n = series.size();
    constexpr bool trend = Trend;
    constexpr SeasonKind season = S;
    const size_t m = season == SeasonKind::None ? 0 : size_t(spec.period);
    const double alpha = params.alpha, beta = trend ? params.beta : 0.0, gamma = m ? params.gamma : 0.0;
    const double phi = isDamped(spec) ? params.phi : 1.0;

    thread_local std::vector<double> levels, trends, factors, ring, ringBar;
    levels.resize(n);
    trends.resize(n);
    factors.resize(n);
    ring.assign(states.seasonal.begin(), states.seasonal.end());
    ring.resize(m);
    double l = states.level, b = trend ? states.trend : 0.0;
    double sse = 0.0;
    constexpr bool multiplicative = season == SeasonKind::Multiplicative;
    size_t pos = 0;
    for (size_t t = 0; t < n; ++t) {
        const double y = series[t];
        const double s = m ? ring[pos] : 0.0;
        const double base = l + phi * b;
        double yhat = base, level = 0.0;
        if constexpr (season == SeasonKind::Additive) {
            yhat = base + s;
            level = alpha * (y - s) + (1.0 - alpha) * base;
            ring[pos] = gamma * (y - base) + (1.0 - gamma) * s;
        } else if constexpr (multiplicative) {
            if (!(s > 0.0) || !(base > 0.0))
                return kInfinity;
            yhat = base * s;
            level = alpha * y / s + (1.0 - alpha) * base;
            ring[pos] = gamma * y / base + (1.0 - gamma) * s;
        } else {
            level = alpha * y + (1.0 - alpha) * base;
        }
        const double e = y - yhat;
        sse += e * e;
        levels[t] = l;
        trends[t] = b;
        factors[t] = s;
        if constexpr (trend)
            b = beta * (level - l) + (1.0 - beta) * phi * b;
        l = level;
        if (m && ++pos == m)
            pos = 0;
    }
    if (!gradient)
        return sse;

    std::vector<double> &g = *gradient;
    g.assign(6 + m, 0.0);
    ringBar.assign(m, 0.0);
    double lBar = 0.0, bBar = 0.0;
    double gA = 0.0, gB = 0.0, gG = 0.0, gP = 0.0;
    pos = m ? (n % m) : 0;
    for (size_t t = n; t-- > 0;) {
        if (m)
            pos = pos == 0 ? m - 1 : pos - 1;
        const double y = series[t];
        const double lOld = levels[t], bOld = trends[t], s = factors[t];
        const double base = lOld + phi * bOld;
        double yhat = base, level = 0.0;
        if constexpr (season == SeasonKind::Additive) {
            yhat = base + s;
            level = alpha * (y - s) + (1.0 - alpha) * base;
        } else if constexpr (multiplicative) {
            yhat = base * s;
            level = alpha * y / s + (1.0 - alpha) * base;
        } else {
            level = alpha * y + (1.0 - alpha) * base;
        }
        const double e = y - yhat;
        double levelBar = lBar;                 // adjoint of the new level
        const double trendBar = bBar;           // of the new trend
        const double seasonBar = m ? ringBar[pos] : 0.0;
        double prevLevelBar = 0.0, prevTrendBar = 0.0, factorBar = 0.0, baseBar = 0.0;
        if constexpr (trend) {
            levelBar += beta * trendBar;
            prevLevelBar -= beta * trendBar;
            prevTrendBar += (1.0 - beta) * phi * trendBar;
            gB += (level - lOld - phi * bOld) * trendBar;
            gP += (1.0 - beta) * bOld * trendBar;
        }
        if constexpr (season == SeasonKind::Additive) {
            baseBar -= gamma * seasonBar;
            factorBar += (1.0 - gamma) * seasonBar;
            gG += (y - base - s) * seasonBar;
            factorBar -= alpha * levelBar;
            baseBar += (1.0 - alpha) * levelBar;
            gA += (y - s - base) * levelBar;
            baseBar += -2.0 * e;
            factorBar += -2.0 * e;
        } else if constexpr (multiplicative) {
            baseBar -= gamma * y / (base * base) * seasonBar;
            factorBar += (1.0 - gamma) * seasonBar;
            gG += (y / base - s) * seasonBar;
            factorBar -= alpha * y / (s * s) * levelBar;
            baseBar += (1.0 - alpha) * levelBar;
            gA += (y / s - base) * levelBar;
            baseBar += -2.0 * e * s;
            factorBar += -2.0 * e * base;
        } else {
            baseBar += (1.0 - alpha) * levelBar;
            gA += (y - base) * levelBar;
            baseBar += -2.0 * e;
        }
        prevLevelBar += baseBar;
        if constexpr (trend) {
            prevTrendBar += phi * baseBar;
            gP += bOld * baseBar;
        }
        lBar = prevLevelBar;
        bBar = prevTrendBar;
        if (m)
            ringBar[pos] = factorBar;
    }
    g[0] = gA;
    g[1] = trend ? gB : 0.0;
    g[2] = m ? gG : 0.0;
    g[3] = isDamped(spec) ? gP : 0.0;
    g[4] = lBar;
    g[5] = trend ? bBar : 0.0;
    for (size_t k = 0; k < m; ++k)
        g[6 + k] = ringBar[k];
    return sse;
}

} // namespace

double smoothingSseWithGradient(const std::vector<double> &series, const SmoothingSpec &spec,
                                const SmoothingParams &params, const InitialStates &states,
                                std::vector<double> *gradient)
{
    const bool trend = hasTrend(spec);
    switch (spec.season) {
    case SeasonKind::Additive:
        return trend ? sseWithGradient<SeasonKind::Additive, true>(series, spec, params, states, gradient)
                     : sseWithGradient<SeasonKind::Additive, false>(series, spec, params, states, gradient);
    case SeasonKind::Multiplicative:
        return trend ? sseWithGradient<SeasonKind::Multiplicative, true>(series, spec, params, states, gradient)
                     : sseWithGradient<SeasonKind::Multiplicative, false>(series, spec, params, states, gradient);
    case SeasonKind::None:
        break;
    }
    return trend ? sseWithGradient<SeasonKind::None, true>(series, spec, params, states, gradient)
                 : sseWithGradient<SeasonKind::None, false>(series, spec, params, states, gradient);
}

JointEstimate estimateJointly(const std::vector<double> &series, const SmoothingSpec &spec,
                              const InitialStates &heuristic)
{
    const size_t n = series.size();
    double meanAbs = 0.0;
    for (double y : series)
        meanAbs += std::abs(y);
    const double scale = std::max(1e-9, meanAbs / double(n));
    const double norm = 1.0 / (double(n) * scale * scale);
    const Layout layout(spec, scale, scale);
    JointEstimate out;

    SmoothingParams params;
    InitialStates states;
    std::vector<double> rawGradient;
    auto objective = [&](const std::vector<double> &x, std::vector<double> *gradient) {
        layout.unpack(x, params, states);
        const double sse = smoothingSseWithGradient(series, spec, params, states, gradient ? &rawGradient : nullptr);
        if (gradient && std::isfinite(sse))
            layout.chain(x, rawGradient, norm, *gradient);
        return sse * norm;
    };

    // Grid over the parameters with the heuristic states.
    struct Start {
        double value;
        std::vector<double> x;
    };
    std::vector<Start> starts;
    const std::vector<double> alphas{0.02, 0.1, 0.25, 0.5, 0.75, 0.95};
    const std::vector<double> betaShares = hasTrend(spec) ? std::vector<double>{0.01, 0.1, 0.4} : std::vector<double>{0.0};
    const std::vector<double> gammaShares = hasSeason(spec) ? std::vector<double>{0.01, 0.1, 0.4} : std::vector<double>{0.0};
    const std::vector<double> phis = isDamped(spec) ? std::vector<double>{0.9, 0.99} : std::vector<double>{1.0};
    for (double a : alphas)
        for (double bs : betaShares)
            for (double gs : gammaShares)
                for (double phi : phis) {
                    const SmoothingParams p{a, a * bs, (1.0 - a) * gs, phi};
                    std::vector<double> x = layout.pack(p, heuristic);
                    const double value = objective(x, nullptr);
                    ++out.evaluations;
                    if (std::isfinite(value))
                        starts.push_back({value, std::move(x)});
                }
    // statsmodels' own start: alpha = 0.5 / m, beta = alpha / 10, gamma = (1 − alpha) / 20,
    // phi = 0.99.
    {
        const double a = 0.5 / std::max(1, hasSeason(spec) ? spec.period : 1);
        const SmoothingParams p{a, 0.1 * a, 0.05 * (1.0 - a), 0.99};
        std::vector<double> x = layout.pack(p, heuristic);
        const double value = objective(x, nullptr);
        ++out.evaluations;
        if (std::isfinite(value))
            starts.push_back({value, std::move(x)});
    }
    std::sort(starts.begin(), starts.end(), [](const Start &a, const Start &b) { return a.value < b.value; });

    // The states make the problem badly conditioned (the parameters move slowly while the
    // states settle), so the search is given more starts and iterations where each costs
    // little: series × states below 20,000 (e.g. monthly data), against hourly series with a
    // daily or weekly season.
    const bool small = double(n) * double(layout.size()) <= 20000.0;
    const size_t kStarts = small ? 4 : 2;
    const int kShortIterations = small ? 60 : 25;
    const double kTolerance = small ? 1e-11 : 1e-10;
    constexpr int kRefineIterations = 2000;
    std::vector<double> best;
    double bestValue = kInfinity;
    // The best few starts (grid points and statsmodels' start), each improved briefly, and a
    // nearly deterministic one (every smoothing parameter 0.001): with the heuristic states it
    // scores badly on the grid, yet with fitted states it is often the optimum.
    std::vector<std::vector<double>> chosen;
    for (size_t i = 0; i < starts.size() && chosen.size() < kStarts; ++i)
        chosen.push_back(starts[i].x);
    chosen.push_back(layout.pack(SmoothingParams{0.001, 0.000001, 0.000999, 0.98}, heuristic));
    // And a level that moves with a season that does not (gamma at its bound, where statsmodels
    // often ends, e.g. its co2 data with a multiplicative season): descents from the grid may
    // settle in a basin away from that edge, depending on the last bits of exp and log.
    if (hasSeason(spec))
        chosen.push_back(layout.pack(SmoothingParams{0.7, 0.007, 0.000001, 0.98}, heuristic));
    for (const std::vector<double> &start : chosen) {
        // The states that fit the start's parameters best, then the joint descent.
        SmoothingParams p;
        InitialStates s;
        layout.unpack(start, p, s);
        // One step is exact for additive models (predictions affine in the states).
        const int steps = spec.season == SeasonKind::Multiplicative ? 4 : 1;
        std::vector<double> x = layout.pack(p, leastSquaresStates(series, spec, p, s, steps, out.evaluations));
        const double value = Minimizer::run(objective, x, kShortIterations, kTolerance, out.evaluations);
        if (value < bestValue) {
            bestValue = value;
            best = x;
        }
    }
    if (best.empty()) {
        best = layout.pack(SmoothingParams{0.5, 0.05, 0.05, 0.99}, heuristic);
        bestValue = objective(best, nullptr);
        ++out.evaluations;
    }
    Minimizer::run(objective, best, kRefineIterations, kTolerance, out.evaluations);
    layout.unpack(best, out.params, out.states);
    out.sse = smoothingSseWithGradient(series, spec, out.params, out.states, nullptr);
    ++out.evaluations;
    return out;
}

} // namespace headroom::engine
