#pragma once

#include <cstdint>
#include <string>

// How numbers read in the engine's plain-language explanations ("20,160", "25.2", "0.125",
// "57.6 GiB", "5.88 × 10^23", "70 billion"). Shared by every analysis that explains itself.
namespace headroom::engine::explain {

// ceil() that forgives binary floating-point noise: 2048.0000000001 GPUs are 2,048. Saturates
// at the int64_t range (NaN gives 0) instead of overflowing.
int64_t ceilCount(double value);
// Thousands separators: "-1,234,567".
std::string grouped(int64_t value);
// Rounded to a whole number with separators ("1,235"); in scientific notation from 2^53 up,
// where a double no longer holds every integer; "∞" when not finite.
std::string rounded(double value);
// "1.50" → "1.5", "2.00" → "2".
std::string trimZeros(std::string text);
// Thousands separators from 100 up, three significant digits below; "∞" when not finite.
std::string number(double value);
// A fraction as a percentage: 0.25 → "25 %".
std::string percent(double fraction);
// Memory in binary units (DESIGN §2): "57.6 GiB".
std::string bytes(double value);
// Large magnitudes as "5.88 × 10^23" (below a million: number()).
std::string scientific(double value);
// Parameter and token counts as "70 billion", "1.4 trillion".
std::string quantity(double value);

} // namespace headroom::engine::explain
