#include "step_time_table.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace headroom::engine {

namespace {

std::string number(double v)
{
    std::string s = std::to_string(v);
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    if (!s.empty() && s.back() == '.')
        s.pop_back();
    return s;
}

[[noreturn]] void fail(const char *list, size_t row, const std::string &message)
{
    throw InputError("step_times", std::string(list) + " row " + std::to_string(row + 1) + ": " + message);
}

// The segment of the sorted `axis` used for x: indices (i0, i1) and the weight of i1, which
// lies outside [0, 1] beyond the range (linear extrapolation from the edge segment).
struct Segment {
    size_t i0 = 0;
    size_t i1 = 0;
    double w = 0;
};

Segment segmentOf(const std::vector<double> &axis, double x)
{
    if (axis.size() == 1)
        return {0, 0, 0};
    size_t i1 = size_t(std::upper_bound(axis.begin(), axis.end(), x) - axis.begin());
    i1 = std::clamp<size_t>(i1, 1, axis.size() - 1);
    const size_t i0 = i1 - 1;
    return {i0, i1, (x - axis[i0]) / (axis[i1] - axis[i0])};
}

} // namespace

void validate(const StepTimeTable &table)
{
    if (table.decode.empty())
        throw InputError("step_times", "the step-time table needs at least one decode point");
    if (table.prefill.empty())
        throw InputError("step_times", "the step-time table needs at least one prefill point");
    std::set<int64_t> batches;
    std::set<int64_t> contexts;
    std::set<std::pair<int64_t, int64_t>> seen;
    for (size_t i = 0; i < table.decode.size(); ++i) {
        const StepTimeTable::DecodePoint &p = table.decode[i];
        if (p.batch < 1)
            fail("decode", i, "batch must be at least 1 (got " + std::to_string(p.batch) + ")");
        if (p.contextTokens < 0)
            fail("decode", i, "context_tokens must be at least 0 (got " + std::to_string(p.contextTokens) + ")");
        if (!std::isfinite(p.ms) || p.ms <= 0)
            fail("decode", i, "ms must be a finite number above 0 (got " + number(p.ms) + ")");
        if (!seen.insert({p.batch, p.contextTokens}).second)
            fail("decode", i, "batch " + std::to_string(p.batch) + " at context_tokens "
                 + std::to_string(p.contextTokens) + " appears twice");
        batches.insert(p.batch);
        contexts.insert(p.contextTokens);
    }
    for (int64_t b : batches)
        for (int64_t c : contexts)
            if (!seen.count({b, c}))
                throw InputError("step_times", "the decode points must form a grid: batch " + std::to_string(b)
                                 + " has no point at context_tokens " + std::to_string(c));
    std::set<int64_t> tokens;
    for (size_t i = 0; i < table.prefill.size(); ++i) {
        const StepTimeTable::PrefillPoint &p = table.prefill[i];
        if (p.tokens < 1)
            fail("prefill", i, "prefill_tokens must be at least 1 (got " + std::to_string(p.tokens) + ")");
        if (!std::isfinite(p.ms) || p.ms <= 0)
            fail("prefill", i, "ms must be a finite number above 0 (got " + number(p.ms) + ")");
        if (!tokens.insert(p.tokens).second)
            fail("prefill", i, "prefill_tokens " + std::to_string(p.tokens) + " appears twice");
    }
}

StepTimeModel::StepTimeModel(const StepTimeTable &table)
{
    validate(table);
    std::map<std::pair<int64_t, int64_t>, double> ms;
    for (const StepTimeTable::DecodePoint &p : table.decode) {
        m_batches.push_back(double(p.batch));
        m_contexts.push_back(double(p.contextTokens));
        ms[{p.batch, p.contextTokens}] = p.ms;
    }
    for (std::vector<double> *axis : {&m_batches, &m_contexts}) {
        std::sort(axis->begin(), axis->end());
        axis->erase(std::unique(axis->begin(), axis->end()), axis->end());
    }
    for (double b : m_batches)
        for (double c : m_contexts)
            m_decodeMs.push_back(ms.at({int64_t(b), int64_t(c)}));
    std::vector<StepTimeTable::PrefillPoint> points = table.prefill;
    std::sort(points.begin(), points.end(), [](const auto &a, const auto &b) { return a.tokens < b.tokens; });
    for (const StepTimeTable::PrefillPoint &p : points) {
        m_tokens.push_back(double(p.tokens));
        m_prefillMs.push_back(p.ms);
    }
}

double StepTimeModel::decodeSeconds(int64_t batch, double contextTokens) const
{
    if (batch <= 0)
        return 0;
    const Segment sb = segmentOf(m_batches, double(batch));
    const Segment sc = segmentOf(m_contexts, contextTokens);
    const size_t n = m_contexts.size();
    auto at = [&](size_t ib, size_t ic) { return m_decodeMs[ib * n + ic]; };
    const double low = at(sb.i0, sc.i0) * (1 - sc.w) + at(sb.i0, sc.i1) * sc.w;
    const double high = at(sb.i1, sc.i0) * (1 - sc.w) + at(sb.i1, sc.i1) * sc.w;
    return std::max(0.0, low * (1 - sb.w) + high * sb.w) / 1000.0;
}

double StepTimeModel::prefillSeconds(double tokens) const
{
    if (tokens <= 0)
        return 0;
    if (m_tokens.size() == 1)
        return tokens / m_tokens[0] * m_prefillMs[0] / 1000.0;
    const Segment s = segmentOf(m_tokens, tokens);
    return std::max(0.0, m_prefillMs[s.i0] * (1 - s.w) + m_prefillMs[s.i1] * s.w) / 1000.0;
}

double tableDecodeSeconds(const StepTimeTable &table, int64_t batch, double contextTokens)
{
    return StepTimeModel(table).decodeSeconds(batch, contextTokens);
}

double tablePrefillSeconds(const StepTimeTable &table, double tokens)
{
    return StepTimeModel(table).prefillSeconds(tokens);
}

} // namespace headroom::engine
