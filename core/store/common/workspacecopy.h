#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <functional>

// Copying a whole workspace between backends (file ⇄ server), table by table.
namespace headroom::store {

// The workspace's tables in an order where every table comes after those it references.
const QStringList &workspaceTables();

// Deletes every row of the target's workspace tables and inserts every row of the source's,
// in one transaction on the target: on any failure the target is left as it was. Both must be
// at the same schema version. `prepareTarget`, when given, runs first inside that transaction
// (e.g. to create the target's schema). Throws StoreError naming the table and the workspace.
void copyWorkspaceTables(const QSqlDatabase &source, const QString &sourcePath,
                         const QSqlDatabase &target, const QString &targetPath,
                         const std::function<void()> &prepareTarget = {});

// SHA-256 (hex) of the rows of every workspace table an analysis reads, in a fixed order:
// not the report's items and settings, scenario history, versions or edit times.
QString workspaceInputsFingerprint(const QSqlDatabase &db, const QString &path);

// Throws StoreError("<path>: table T, row R, column C: not UTF-8 text ...") for the first text
// value of an SQLite workspace whose bytes are not well-formed UTF-8. Does nothing on a server,
// whose database enforces its encoding.
void checkWorkspaceText(const QSqlDatabase &db, const QString &path);

} // namespace headroom::store
