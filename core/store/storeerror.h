#pragma once

#include <QString>
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

} // namespace headroom::store
