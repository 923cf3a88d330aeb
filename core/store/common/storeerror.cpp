#include "storeerror.h"

namespace headroom::store {

StoreError::StoreError(const QString &message)
    : std::runtime_error(message.toStdString()), m_message(message)
{
}

ConflictError::ConflictError(const QString &message, const QString &name, int64_t loadedVersion,
                             int64_t currentVersion, const QString &changedBy, const QString &changedAt)
    : StoreError(message)
    , m_name(name)
    , m_loadedVersion(loadedVersion)
    , m_currentVersion(currentVersion)
    , m_changedBy(changedBy)
    , m_changedAt(changedAt)
{
}

} // namespace headroom::store
