#include "yamlscalar.h"

#include "engine/common/errors.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cstdint>

namespace headroom::store {

namespace {

bool isAsciiLetter(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isAsciiDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

// Booleans of YAML 1.1 (y|n|yes|no|on|off|true|false) and 1.2, and the null words, compared
// without case (a superset of the cases either version resolves).
bool isReservedWord(const std::string &text)
{
    static const std::array<const char *, 9> words = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"};
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
    return std::any_of(words.begin(), words.end(), [&](const char *w) { return lower == w; });
}

// Decodes one UTF-8 sequence at `i`; -1 when the bytes are not UTF-8.
int32_t decodeUtf8(const std::string &text, size_t &i)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    int length = 0;
    int32_t code = 0;
    if (lead < 0x80) {
        ++i;
        return lead;
    } else if ((lead & 0xe0) == 0xc0) {
        length = 2;
        code = lead & 0x1f;
    } else if ((lead & 0xf0) == 0xe0) {
        length = 3;
        code = lead & 0x0f;
    } else if ((lead & 0xf8) == 0xf0) {
        length = 4;
        code = lead & 0x07;
    } else {
        return -1;
    }
    if (i + size_t(length) > text.size())
        return -1;
    for (int k = 1; k < length; ++k) {
        if ((byte(i + size_t(k)) & 0xc0) != 0x80)
            return -1;
        code = (code << 6) | (byte(i + size_t(k)) & 0x3f);
    }
    static const int32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return -1;
    i += size_t(length);
    return code;
}

} // namespace

bool isPlainYamlSafe(const std::string &text)
{
    if (text.empty() || !isAsciiLetter(static_cast<unsigned char>(text.front())) || isReservedWord(text))
        return false;
    for (size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const bool last = i + 1 == text.size();
        if (isAsciiLetter(c) || isAsciiDigit(c) || c == '.' || c == '_' || c == '/' || c == '-')
            continue;
        if (c == ':' && !last && text[i + 1] != ' ')
            continue;
        if (c == ' ' && !last && text[i + 1] != ' ')
            continue;
        return false;
    }
    return true;
}

bool needsYamlEscapes(const std::string &text)
{
    for (size_t i = 0; i < text.size();) {
        const int32_t code = decodeUtf8(text, i);
        if (code < 0 || code < 0x20 || code == 0x7f || (code >= 0x80 && code <= 0x9f) || code == 0x2028
            || code == 0x2029 || code == 0xfeff || code == 0xfffe || code == 0xffff)
            return true;
    }
    return false;
}

void emitYamlString(YAML::Emitter &out, const std::string &text)
{
    for (size_t i = 0; i < text.size();) {
        const size_t at = i;
        if (decodeUtf8(text, i) < 0)
            throw engine::InputError("text", "cannot write YAML: a text is not valid UTF-8 (byte " + std::to_string(at + 1)
                                                 + " of " + std::to_string(text.size()) + ")");
    }
    if (isPlainYamlSafe(text)) {
        out << text;
        return;
    }
    if (needsYamlEscapes(text))
        out << YAML::EscapeNonAscii;
    out << YAML::DoubleQuoted << text;
}

} // namespace headroom::store
