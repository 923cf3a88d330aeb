#pragma once

#include "engine/common/errors.h"
#include "store/common/storeerror.h"

#include <QByteArray>
#include <QString>
#include <cstddef>
#include <cstdint>

// What every importer fuzz target shares: the input as a QByteArray without a copy, and the
// rule that a clear refusal (StoreError, InputError) is a correct answer. Any other exception
// escapes to libFuzzer and is reported as a crash, as are sanitizer findings, leaks and
// timeouts.
namespace headroom::fuzz {

inline QByteArray bytesOf(const uint8_t *data, size_t size)
{
    return QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
}

inline const QString kSource = QStringLiteral("fuzz-input");

// Runs `body`, accepting the importers' own refusals.
template <typename Body>
void refusalsAreFine(Body body)
{
    try {
        body();
    } catch (const store::StoreError &) {
    } catch (const engine::InputError &) {
    }
}

} // namespace headroom::fuzz
