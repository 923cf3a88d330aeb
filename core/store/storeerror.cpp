#include "storeerror.h"

namespace headroom::store {

StoreError::StoreError(const QString &message)
    : std::runtime_error(message.toStdString()), m_message(message)
{
}

} // namespace headroom::store
