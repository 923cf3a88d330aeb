#pragma once

#include <cstdint>
#include <random>

namespace headroom::engine::frag {

// A seeded random stream that gives the same numbers with every standard library:
// std::mt19937 is fully specified, and bounded draws use rejection instead of a
// library distribution.
class SeededRandom {
public:
    explicit SeededRandom(uint32_t seed) : m_engine(seed) {}

    // Uniform in [0, n); n ≥ 1.
    uint32_t below(uint32_t n)
    {
        const uint64_t range = uint64_t(1) << 32;
        const uint64_t limit = range - range % n;
        uint64_t draw = m_engine();
        while (draw >= limit)
            draw = m_engine();
        return uint32_t(draw % n);
    }

private:
    std::mt19937 m_engine;
};

} // namespace headroom::engine::frag
