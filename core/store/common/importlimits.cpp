#include "importlimits.h"

#include <algorithm>

#include "storeerror.h"

#include <QFile>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace headroom::store {

namespace {

QString sizeText(qint64 bytes)
{
    if (bytes >= limits::kMiB && bytes % limits::kMiB == 0)
        return QStringLiteral("%1 MiB").arg(bytes / limits::kMiB);
    return QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace

void checkImportBytes(qint64 bytes, const QString &source, const ImportLimits &limits)
{
    if (bytes > limits.maxBytes)
        throw StoreError(QStringLiteral("%1: the file has %2 bytes; a %4 file may have at most %3 "
                                        "(see \"Import limits\")")
                             .arg(source)
                             .arg(bytes)
                             .arg(sizeText(limits.maxBytes), QLatin1String(limits.kind)));
}

qint64 maxCsvLineBytes(const ImportLimits &limits)
{
    // A field's characters at up to four bytes each (a quote doubled inside quotes is two
    // bytes for one character), its two quotes and the comma after it, then a CRLF.
    return limits::kMaxCsvFields * (4 * qint64(limits.maxFieldChars) + 3) + 2;
}

void checkImportFileKind(const QString &path)
{
#ifdef Q_OS_UNIX
    struct stat status {};
    if (path.isEmpty() || ::stat(QFile::encodeName(path).constData(), &status) != 0)
        return;  // opening the file reports what is wrong
    if (S_ISREG(status.st_mode) || S_ISFIFO(status.st_mode))
        return;
    const QString kind = S_ISDIR(status.st_mode)    ? QStringLiteral("a folder")
                         : S_ISCHR(status.st_mode)  ? QStringLiteral("a character device")
                         : S_ISBLK(status.st_mode)  ? QStringLiteral("a block device")
                         : S_ISSOCK(status.st_mode) ? QStringLiteral("a socket")
                                                    : QStringLiteral("not a file");
    throw StoreError(QStringLiteral("%1: not a regular file (it is %2); import a file, or a pipe").arg(path, kind));
#else
    Q_UNUSED(path);
#endif
}

QByteArray readImportFile(QFile &file, const QString &source, const ImportLimits &limits)
{
    checkImportFileKind(file.fileName());
    if (!file.isSequential())
        checkImportBytes(file.size(), source, limits);
    // One byte past the limit tells a file that grew, or a pipe, from one that fits. Read in
    // blocks: QIODevice::read(n) allocates n bytes first, which would reserve the whole limit
    // (512 MiB for a trace) for a file of a few kilobytes.
    constexpr qint64 kBlock = qint64(4) << 20;
    QByteArray bytes;
    if (!file.isSequential())
        bytes.reserve(qsizetype(std::min(file.size(), limits.maxBytes) + 1));
    while (bytes.size() <= limits.maxBytes) {
        const QByteArray block = file.read(std::min(kBlock, limits.maxBytes + 1 - bytes.size()));
        if (block.isEmpty())
            break;
        bytes += block;
    }
    checkImportBytes(bytes.size(), source, limits);
    return bytes;
}

void failTooManyRows(const QString &source, int line, const ImportLimits &limits)
{
    throw StoreError(QStringLiteral("%1: line %2: more than %3 rows; a %4 file may have at most "
                                    "%3 (see \"Import limits\")")
                         .arg(source)
                         .arg(line)
                         .arg(limits.maxRows)
                         .arg(QLatin1String(limits.kind)));
}

QString shownValue(const QString &value)
{
    const bool cut = value.size() > limits::kShownChars;
    QString out;
    for (QChar c : QStringView(value).left(limits::kShownChars)) {
        const char16_t u = c.unicode();
        if (u == 0)
            out += QStringLiteral("\\0");
        else if (u == u'\n')
            out += QStringLiteral("\\n");
        else if (u == u'\r')
            out += QStringLiteral("\\r");
        else if (u < 0x20 || u == 0x7F)
            out += QStringLiteral("\\x%1").arg(uint(u), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    if (cut)
        out += QStringLiteral("…");
    return out;
}

QString shownValue(const QByteArray &utf8)
{
    // Decode no more than is shown: a character takes at most 4 bytes, so this prefix holds
    // more than kShownChars characters whenever the value is longer.
    return shownValue(QString::fromUtf8(utf8.left(4 * (limits::kShownChars + 1))));
}

} // namespace headroom::store
