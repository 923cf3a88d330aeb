#include "explain_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace headroom::engine::explain {

namespace {
// Beyond 2^53 a double no longer holds every integer, and past 2^63 it does not fit int64_t
// at all; such values are shown in scientific notation instead of as grouped digits.
constexpr double kLargestGrouped = 9007199254740992.0;
} // namespace

int64_t ceilCount(double value)
{
    if (std::isnan(value))
        return 0;
    if (value >= 9.2e18)
        return std::numeric_limits<int64_t>::max();
    if (value <= -9.2e18)
        return std::numeric_limits<int64_t>::min();
    const double nearest = std::round(value);
    if (std::fabs(value - nearest) <= 1e-9 * std::max(1.0, std::fabs(value)))
        return static_cast<int64_t>(nearest);
    return static_cast<int64_t>(std::ceil(value));
}

std::string grouped(int64_t value)
{
    const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    std::string digits = std::to_string(magnitude);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(size_t(i), ",");
    return value < 0 ? "-" + digits : digits;
}

std::string trimZeros(std::string text)
{
    if (text.find('.') == std::string::npos)
        return text;
    while (text.back() == '0')
        text.pop_back();
    if (text.back() == '.')
        text.pop_back();
    return text;
}

std::string rounded(double value)
{
    if (!std::isfinite(value))
        return "∞";
    if (std::fabs(value) >= kLargestGrouped)
        return scientific(value);
    return grouped(std::llround(value));
}

std::string number(double value)
{
    if (!std::isfinite(value))
        return "∞";
    const double magnitude = std::fabs(value);
    if (magnitude >= 99.5)
        return rounded(value);
    char buffer[32];
    if (magnitude >= 9.995)
        std::snprintf(buffer, sizeof buffer, "%.1f", value);
    else if (magnitude >= 0.9995)
        std::snprintf(buffer, sizeof buffer, "%.2f", value);
    else
        std::snprintf(buffer, sizeof buffer, "%.3g", value);
    return trimZeros(buffer);
}

std::string percent(double fraction)
{
    return number(fraction * 100.0) + " %";
}

std::string bytes(double value)
{
    static constexpr const char *kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int unit = 0;
    while (std::fabs(value) >= 1024.0 && unit < 5) {
        value /= 1024.0;
        ++unit;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, unit == 0 ? "%.0f" : "%.1f", value);
    return trimZeros(buffer) + " " + kUnits[unit];
}

std::string scientific(double value)
{
    if (value == 0 || !std::isfinite(value))
        return number(value);
    const int exponent = int(std::floor(std::log10(std::fabs(value))));
    if (exponent < 6)
        return number(value);
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", value / std::pow(10.0, exponent));
    return trimZeros(buffer) + " × 10^" + std::to_string(exponent);
}

std::string quantity(double value)
{
    if (std::fabs(value) >= 1e12)
        return number(value / 1e12) + " trillion";
    if (std::fabs(value) >= 1e9)
        return number(value / 1e9) + " billion";
    if (std::fabs(value) >= 1e6)
        return number(value / 1e6) + " million";
    return number(value);
}

} // namespace headroom::engine::explain
