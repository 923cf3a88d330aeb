#include "vllmlogfile.h"

#include "engine/common/errors.h"
#include "store/common/importlimits.h"
#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"

#include <QFile>

namespace headroom::store {

engine::VllmStartupLog readVllmStartupLog(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("Cannot read vLLM log %1: %2").arg(quoted(path), file.errorString()));
    const QByteArray text = readImportFile(file, path, limits::kVllmLog);
    try {
        return engine::parseVllmStartupLog(std::string_view(text.constData(), size_t(text.size())));
    } catch (const engine::InputError &e) {
        throw StoreError(QStringLiteral("%1: %2").arg(path, QString::fromUtf8(e.what())));
    }
}

} // namespace headroom::store
