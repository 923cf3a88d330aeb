#pragma once

#include "engine/catalog/specs.h"

#include <QString>
#include <cstdint>
#include <string_view>
#include <vector>

// Display formatting with units: GiB = 2^30 bytes for memory, thousands separators for counts.
namespace headroom::ui {

QString formatGiB(int64_t bytes, int decimals = 1);  // "57.6 GiB"
QString formatKiB(int64_t bytes, int decimals = 0);  // "256 KiB"
QString formatCount(int64_t value);                  // "16,384"
QString formatNumber(double value, int decimals);    // "1,234.5"
QString formatPercent(double share, int decimals = 1); // 0.375 → "37.5 %"
// A count with its noun in the right number, through tr() with %n so that a translation gives
// each language its forms, and the count grouped as formatCount does:
// formatCountOf(16384, QT_TRANSLATE_NOOP("headroom::ui", "%n GPU(s)")) → "16,384 GPUs", 1 → "1 GPU".
QString formatCountOf(int64_t value, const char *numerusText);
QString formatGpus(int64_t gpus);
// `text` on two lines, broken at the space nearest its middle, when longer than `longerThan`
// characters ("Support bot\nstatic"); unchanged when shorter or without a space.
QString twoLines(const QString &text, int longerThan = 12);                    // "1 GPU", "6,212 GPUs"
QString formatTokensShort(int64_t tokens);           // "16K", "1M", "1,500"
double toGiB(int64_t bytes);
QString upperName(std::string_view name);
// Validation problems as one line: "field: message; field: message". With `labels` (field key →
// the label the form shows), in words: every key in a message is replaced by its label and the
// "field:" prefix is left out where the message names the field ("Output P95 (100) must be at
// least Output P50 (400)").
QString fieldProblemsText(const std::vector<engine::FieldProblem> &problems,
                          const std::vector<std::pair<QString, QString>> &labels = {});           // "bf16" → "BF16"

} // namespace headroom::ui
