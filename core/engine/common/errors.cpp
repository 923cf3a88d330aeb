#include "errors.h"

#include <utility>

namespace headroom::engine {

InputError::InputError(std::string field, const std::string &message)
    : std::invalid_argument(message), m_field(std::move(field))
{
}

} // namespace headroom::engine
