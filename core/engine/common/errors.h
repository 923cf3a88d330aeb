#pragma once

#include <stdexcept>
#include <string>

namespace headroom::engine {

// Raised when an analysis input is out of its valid range. field() names the input
// (as the CLI flag / JSON key spells it, e.g. "kv_heads"), what() says what is wrong.
class InputError : public std::invalid_argument {
public:
    InputError(std::string field, const std::string &message);
    const std::string &field() const { return m_field; }

private:
    std::string m_field;
};

} // namespace headroom::engine
