#pragma once

#include <QSaveFile>
#include <QString>

class QByteArray;

// Writing an export (JSON, CSV, YAML, PDF, SVG, PNG) to a file the user named.
namespace headroom::store {

// What an export does when its target already exists as a file.
enum class ExistingFile { Refuse, Replace };

// What is at an export's target path now.
enum class ExportTarget {
    Missing,     // nothing: the export creates the file
    File,        // a regular file the export would replace
    SymLink,     // a symbolic link (dangling or not): never written through
    Other        // a folder, device or pipe: never written to
};
ExportTarget exportTarget(const QString &path);

// An export's output file, whole or not at all: the bytes go to a temporary file in the
// target's folder that commit() renames over the target. Destroyed without a commit (an error,
// a cancel, an exception) it removes the temporary file and leaves the target as it was.
// The constructor and commit() refuse, with a StoreError naming the file and saying what to do,
// a target that is a symbolic link or not a regular file, and an existing file unless
// `existing` is Replace; commit() checks again just before the rename.
class ExportFile {
public:
    ExportFile(const QString &path, ExistingFile existing);
    ExportFile(const ExportFile &) = delete;
    ExportFile &operator=(const ExportFile &) = delete;

    // The device to write to (QPdfWriter, QSvgGenerator and QImage::save take it).
    QIODevice &device() { return m_file; }
    void commit();

private:
    QString m_path;
    ExistingFile m_existing;
    QSaveFile m_file;
};

// Throws the StoreError ExportFile would for `path`; returns what is there.
ExportTarget checkExportTarget(const QString &path, ExistingFile existing);

// Writes `bytes` to `path` through an ExportFile.
void writeExportFile(const QString &path, const QByteArray &bytes, ExistingFile existing);

} // namespace headroom::store
