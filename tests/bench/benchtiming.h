#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

// Timing helper of the benchmark executables: median and minimum of repeated runs.
namespace headroom::bench {

struct Timing {
    double medianMicros = 0;
    double minMicros = 0;
    double medianMillis() const { return medianMicros / 1000.0; }
    double minMillis() const { return minMicros / 1000.0; }
};

// Runs `body` `warmup` times untimed, then `repetitions` times timed; per-iteration median and minimum.
template <typename Body>
Timing measure(int warmup, int repetitions, Body body)
{
    using Clock = std::chrono::steady_clock;
    for (int i = 0; i < warmup; ++i)
        body();
    std::vector<double> samples;
    samples.reserve(size_t(repetitions));
    for (int i = 0; i < repetitions; ++i) {
        const auto start = Clock::now();
        body();
        samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
    std::sort(samples.begin(), samples.end());
    return {samples[samples.size() / 2], samples.front()};
}

} // namespace headroom::bench
