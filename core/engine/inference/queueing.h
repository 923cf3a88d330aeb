#pragma once

#include <cstdint>

// Queueing helpers for sizing (DESIGN §3.2): Little's law and the number in system of an
// M/G/∞ queue, which is Poisson with mean L = arrival rate × time in system.
namespace headroom::engine {

// Little's law: mean number in system L = λ × W (requests/s × seconds).
double littleInSystem(double arrivalsPerSecond, double timeInSystemSeconds);

// The smallest k with P(N ≤ k) ≥ quantile for N ~ Poisson(mean): the count to size for when
// arrivals are close to Poisson. mean ≥ 0 and finite, quantile in (0, 1); throws InputError
// ("in_flight_mean" / "in_flight_quantile") otherwise. Exact summation of the probability mass
// around the mean (log-space start, ± 12 standard deviations), so it stays exact for large means.
int64_t poissonQuantile(double mean, double quantile);

} // namespace headroom::engine
