#include "outputfile.h"

#include "args.h"

#include "store/common/storeerror.h"

namespace headroom::cli {

store::ExistingFile checkOutputFile(const QString &flag, const QString &path, bool force)
{
    const store::ExistingFile existing = force ? store::ExistingFile::Replace : store::ExistingFile::Refuse;
    try {
        store::checkExportTarget(path, existing);
    } catch (const store::StoreError &e) {
        const bool exists = store::exportTarget(path) == store::ExportTarget::File;
        throw UsageError(QStringLiteral("%1: %2%3").arg(flag, e.message(),
                                                         exists ? QStringLiteral("; give --force to replace it")
                                                                : QString()));
    }
    return existing;
}

} // namespace headroom::cli
