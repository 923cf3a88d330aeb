#pragma once

#include <QString>
#include <cstdint>
#include <stdexcept>

namespace headroom::store {

// A workspace or import failure with a message fit for the user: it names the file,
// line/entry and field where there is one. Nothing was changed when it is thrown.
class StoreError : public std::runtime_error {
public:
    explicit StoreError(const QString &message);
    QString message() const { return m_message; }

private:
    QString m_message;
};

// A save refused because another writer changed, created or removed the same document (a
// scenario, a training job) after the caller read it: optimistic concurrency. The message
// names who changed it and when; nothing was changed. `currentVersion` is 0 when the document
// no longer exists, `loadedVersion` 0 when the caller meant to create it.
class ConflictError : public StoreError {
public:
    ConflictError(const QString &message, const QString &name, int64_t loadedVersion,
                  int64_t currentVersion, const QString &changedBy, const QString &changedAt);

    QString name() const { return m_name; }
    int64_t loadedVersion() const { return m_loadedVersion; }
    int64_t currentVersion() const { return m_currentVersion; }
    QString changedBy() const { return m_changedBy; }   // database role or OS user; may be ""
    QString changedAt() const { return m_changedAt; }   // ISO 8601 UTC; "" when removed

private:
    QString m_name;
    int64_t m_loadedVersion;
    int64_t m_currentVersion;
    QString m_changedBy;
    QString m_changedAt;
};

// A step that failed because the connection to the team server was lost (the server stopped,
// the network dropped, an administrator ended the session). Nothing was changed by the step;
// Workspace::reconnect() or startReconnecting() brings the connection back.
class ConnectionLostError : public StoreError {
public:
    using StoreError::StoreError;
};

} // namespace headroom::store
