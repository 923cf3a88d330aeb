#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

// Copying a whole workspace between backends (file ⇄ server), table by table.
namespace headroom::store {

// The workspace's tables in an order where every table comes after those it references.
const QStringList &workspaceTables();

// Deletes every row of the target's workspace tables and inserts every row of the source's,
// in one transaction on the target: on any failure the target is left as it was. Both must be
// at the same schema version. Throws StoreError naming the table and the target.
void copyWorkspaceTables(const QSqlDatabase &source, const QString &sourcePath,
                         const QSqlDatabase &target, const QString &targetPath);

} // namespace headroom::store
