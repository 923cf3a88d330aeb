#include "queueing.h"

#include "engine/common/errors.h"
#include "engine/common/explain_text.h"

#include <algorithm>
#include <cmath>

namespace headroom::engine {

double littleInSystem(double arrivalsPerSecond, double timeInSystemSeconds)
{
    return arrivalsPerSecond * timeInSystemSeconds;
}

int64_t poissonQuantile(double mean, double quantile)
{
    if (!(mean >= 0 && std::isfinite(mean)))
        throw InputError("in_flight_mean", "in_flight_mean must be a finite number at least 0 (got "
                                               + explain::number(mean) + ")");
    if (!(quantile > 0 && quantile < 1))
        throw InputError("in_flight_quantile", "in_flight_quantile must be greater than 0 and below 1 (got "
                                                   + explain::number(quantile) + ")");
    if (mean == 0)
        return 0;
    // The mass outside mean ± 12σ (+ 20) is far below double precision of the quantile.
    const double spread = 12.0 * std::sqrt(mean) + 20.0;
    const int64_t lo = std::max<int64_t>(0, int64_t(std::floor(mean - spread)));
    const int64_t hi = int64_t(std::ceil(mean + spread));
    // p(k) relative to p(lo): p(k+1) = p(k) × mean ÷ (k + 1), started in log space so large
    // means do not underflow exp(−mean).
    const double logStart = double(lo) * std::log(mean) - mean - std::lgamma(double(lo) + 1.0);
    double term = std::exp(logStart);
    double cumulative = 0;
    // Below `lo` the mass is negligible; below-window mass is counted as zero (conservative).
    for (int64_t k = lo; k <= hi; ++k) {
        cumulative += term;
        if (cumulative >= quantile)
            return k;
        term *= mean / double(k + 1);
    }
    return hi;
}

} // namespace headroom::engine
