#include "exportfile.h"

#include "storeerror.h"

#include <QByteArray>
#include <QDir>
#include <QFileInfo>

namespace headroom::store {

ExportTarget exportTarget(const QString &path)
{
    const QFileInfo info(path);
    if (info.isSymLink())
        return ExportTarget::SymLink;
    if (!info.exists())
        return ExportTarget::Missing;
    return info.isFile() ? ExportTarget::File : ExportTarget::Other;
}

ExportTarget checkExportTarget(const QString &path, ExistingFile existing)
{
    const QString shown = QDir::toNativeSeparators(path);
    const ExportTarget target = exportTarget(path);
    switch (target) {
    case ExportTarget::SymLink:
        throw StoreError(QStringLiteral("Cannot write %1: it is a symbolic link (to %2), and an export never writes "
                                        "through a link; name the file it points to, or another file")
                             .arg(shown, QDir::toNativeSeparators(QFileInfo(path).symLinkTarget())));
    case ExportTarget::Other:
        throw StoreError(QStringLiteral("Cannot write %1: it is a folder or a special file, not a file; name a file")
                             .arg(shown));
    case ExportTarget::File:
        if (existing == ExistingFile::Refuse)
            throw StoreError(QStringLiteral("%1 already exists and was left as it is").arg(shown));
        break;
    case ExportTarget::Missing:
        break;
    }
    return target;
}

ExportFile::ExportFile(const QString &path, ExistingFile existing)
    : m_path(path), m_existing(existing), m_file(path)
{
    checkExportTarget(path, existing);
    // A failed write must never leave the target half written: no writing in place.
    m_file.setDirectWriteFallback(false);
    if (!m_file.open(QIODevice::WriteOnly))
        throw StoreError(
            QStringLiteral("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), m_file.errorString()));
}

void ExportFile::commit()
{
    try {
        checkExportTarget(m_path, m_existing);
    } catch (const StoreError &) {
        m_file.cancelWriting();
        throw;
    }
    if (!m_file.commit())
        throw StoreError(
            QStringLiteral("Cannot write %1: %2").arg(QDir::toNativeSeparators(m_path), m_file.errorString()));
}

void writeExportFile(const QString &path, const QByteArray &bytes, ExistingFile existing)
{
    ExportFile file(path, existing);
    if (file.device().write(bytes) != bytes.size())
        throw StoreError(QStringLiteral("Cannot write %1: %2")
                             .arg(QDir::toNativeSeparators(path), file.device().errorString()));
    file.commit();
}

} // namespace headroom::store
