#pragma once

#include "engine/types.h"

#include <QString>
#include <cstdint>
#include <string_view>
#include <vector>

// Display formatting with units: GiB = 2^30 bytes for memory, thousands separators for counts.
namespace headroom::ui {

QString formatGiB(int64_t bytes, int decimals = 1);  // "57.6 GiB"
QString formatKiB(int64_t bytes, int decimals = 0);  // "256 KiB"
QString formatCount(int64_t value);                  // "16,384"
QString formatTokensShort(int64_t tokens);           // "16K", "1M", "1,500"
double toGiB(int64_t bytes);
QString upperName(std::string_view name);
// Validation problems as one line: "field: message; field: message".
QString fieldProblemsText(const std::vector<engine::FieldProblem> &problems);           // "bf16" → "BF16"

} // namespace headroom::ui
