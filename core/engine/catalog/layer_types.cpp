#include "layer_types.h"

#include "engine/common/errors.h"

#include <cctype>
#include <string>

namespace headroom::engine {

namespace {

constexpr size_t kMaxLayers = 100000;

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    std::vector<LayerKind> parse()
    {
        std::vector<LayerKind> kinds = list(0);
        skipSpace();
        if (m_pos < m_text.size())
            fail(m_text[m_pos] == ')' ? "a ')' without its '('" : "an unexpected '" + std::string(1, m_text[m_pos]) + "'");
        return kinds;
    }

private:
    [[noreturn]] void fail(const std::string &what) const
    {
        throw InputError("layer_types", "layer_types: " + what + " at character " + std::to_string(m_pos + 1) + " of \""
                                            + std::string(m_text) + "\"");
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }

    std::vector<LayerKind> list(int depth)
    {
        std::vector<LayerKind> out;
        for (;;) {
            std::vector<LayerKind> unit = item(depth);
            skipSpace();
            size_t times = 1;
            if (m_pos < m_text.size() && m_text[m_pos] == '*') {
                ++m_pos;
                skipSpace();
                const size_t start = m_pos;
                while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos])) && m_pos - start < 7)
                    ++m_pos;
                if (m_pos == start)
                    fail("a count after '*'");
                times = std::stoul(std::string(m_text.substr(start, m_pos - start)));
                if (times < 1 || times > kMaxLayers)
                    fail("a count of " + std::to_string(times) + " (1 to 100,000)");
            }
            if (out.size() + unit.size() * times > kMaxLayers)
                fail("more than 100,000 layers");
            for (size_t i = 0; i < times; ++i)
                out.insert(out.end(), unit.begin(), unit.end());
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            return out;
        }
    }

    std::vector<LayerKind> item(int depth)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '(') {
            if (depth >= 8)
                fail("groups nested more than 8 deep");
            ++m_pos;
            std::vector<LayerKind> inner = list(depth + 1);
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ')')
                fail("a '(' without its ')'");
            ++m_pos;
            return inner;
        }
        const size_t start = m_pos;
        while (m_pos < m_text.size() && (std::isalpha(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
            ++m_pos;
        const std::string_view word = m_text.substr(start, m_pos - start);
        if (word.empty())
            fail("a layer kind (full, sliding, chunked or linear)");
        // config.json spells them full_attention, sliding_attention, linear_attention.
        std::string_view name = word;
        if (name.size() > 10 && name.substr(name.size() - 10) == "_attention")
            name = name.substr(0, name.size() - 10);
        const auto kind = parseLayerKind(name);
        if (!kind) {
            m_pos = start;
            fail("an unknown layer kind \"" + std::string(word) + "\" (full, sliding, chunked or linear)");
        }
        return {*kind};
    }

    std::string_view m_text;
    size_t m_pos = 0;
};

std::string runLength(const std::vector<LayerKind> &kinds, size_t from, size_t to)
{
    std::string out;
    for (size_t i = from; i < to;) {
        size_t j = i;
        while (j < to && kinds[j] == kinds[i])
            ++j;
        if (!out.empty())
            out += ',';
        out += toString(kinds[i]);
        if (j - i > 1)
            out += '*' + std::to_string(j - i);
        i = j;
    }
    return out;
}

} // namespace

std::vector<LayerKind> parseLayerTypes(std::string_view text)
{
    bool blank = true;
    for (char c : text)
        blank = blank && std::isspace(static_cast<unsigned char>(c));
    if (blank)
        return {};
    return Parser(text).parse();
}

std::string layerTypesText(const std::vector<LayerKind> &kinds)
{
    const size_t n = kinds.size();
    if (n == 0)
        return {};
    for (size_t period = 1; period < n; ++period) {
        if (n % period != 0)
            continue;
        bool repeats = true;
        for (size_t i = period; i < n && repeats; ++i)
            repeats = kinds[i] == kinds[i - period];
        if (!repeats)
            continue;
        const std::string unit = runLength(kinds, 0, period);
        if (period == 1)
            return unit + '*' + std::to_string(n);
        return '(' + unit + ")*" + std::to_string(n / period);
    }
    return runLength(kinds, 0, n);
}

} // namespace headroom::engine
