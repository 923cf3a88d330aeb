#pragma once

#include <cstdint>
#include <vector>

// A measured step-time table (DESIGN §3.7b): the alternative to the roofline step model of the
// serving simulation when a replica's iteration times have been measured.
//
// Shape and interpolation, exactly:
// - Decode points (batch b, context tokens c, ms) form a full grid: every distinct batch
//   B_1 < … < B_m appears with every distinct context C_1 < … < C_n, once. decodeMs(b, c) is
//   bilinear in b × c over the grid cell holding (b, c); beyond the measured range the edge
//   cell is extended (linear extrapolation from the last, or first, segment in each
//   dimension). A dimension measured at one value only is constant in it.
// - Prefill points (tokens p, ms): prefillMs(p) is piecewise linear through them, extended
//   linearly from the first / last segment beyond the range; one point: proportional to p
//   (p ÷ p_1 × ms_1).
// - Results are never below 0.
// - Iteration time of the serving simulation = decodeMs(decodes, mean decode context), 0 with
//   no decodes, + prefillMs(prefill tokens), 0 with no prefill tokens. A decode point is the
//   time of a decode-only iteration (weights and KV read included); a prefill point is the
//   time prefill tokens add to an iteration.
namespace headroom::engine {

struct StepTimeTable {
    struct DecodePoint {
        int64_t batch = 0;          // ≥ 1
        int64_t contextTokens = 0;  // ≥ 0, mean context of the batch
        double ms = 0;              // > 0
    };
    struct PrefillPoint {
        int64_t tokens = 0;         // ≥ 1
        double ms = 0;              // > 0
    };
    std::vector<DecodePoint> decode;
    std::vector<PrefillPoint> prefill;
};

// InputError "step_times" naming the point ("decode row 3: …", rows counted from 1 in each
// list) for: no decode or no prefill point, batch < 1, context < 0, tokens < 1, ms not a
// finite number above 0, a duplicate point, and a decode grid with a missing (batch, context).
void validate(const StepTimeTable &table);

// The table prepared for lookups (validated on construction; InputError as validate()).
class StepTimeModel {
public:
    explicit StepTimeModel(const StepTimeTable &table);
    // Seconds, by the rules above: 0 for batch ≤ 0 / tokens ≤ 0.
    double decodeSeconds(int64_t batch, double contextTokens) const;
    double prefillSeconds(double tokens) const;

private:
    std::vector<double> m_batches;   // sorted distinct
    std::vector<double> m_contexts;  // sorted distinct
    std::vector<double> m_decodeMs;  // [batch index × contexts + context index]
    std::vector<double> m_tokens;    // sorted
    std::vector<double> m_prefillMs;
};

// One-off lookups (prepare a StepTimeModel for many).
double tableDecodeSeconds(const StepTimeTable &table, int64_t batch, double contextTokens);
double tablePrefillSeconds(const StepTimeTable &table, double tokens);

} // namespace headroom::engine
