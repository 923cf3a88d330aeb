#include "command.h"

#include "store/common/serverurl.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace headroom::cli {

Context::Context(QTextStream &out, QTextStream &err, QString workspacePath, bool createIfMissing,
                 QString serverUrl)
    : m_out(out), m_err(err), m_workspacePath(std::move(workspacePath)), m_serverUrl(std::move(serverUrl)),
      m_createIfMissing(createIfMissing)
{
}

Context::~Context() = default;

store::Workspace &Context::workspace()
{
    if (!m_workspace && store::isServerUrl(m_workspacePath)) {
        // A server workspace is made in its database on first use; nothing to discard after.
        m_workspace = std::make_unique<store::Workspace>(m_workspacePath);
        return *m_workspace;
    }
    if (!m_workspace) {
        const bool exists = QFileInfo::exists(m_workspacePath);
        if (!exists && !m_createIfMissing)
            throw store::StoreError(QStringLiteral("workspace %1 does not exist. Check the path; "
                                                   "`headroom --workspace %1 import FILE.json` creates it, "
                                                   "and so does opening it in the window.")
                                        .arg(m_workspacePath));
        // The default location's folder may not exist yet on a fresh account.
        QDir().mkpath(QFileInfo(m_workspacePath).absolutePath());
        m_workspace = std::make_unique<store::Workspace>(m_workspacePath);
        m_created = !exists;
    }
    return *m_workspace;
}

void Context::discardCreatedWorkspace()
{
    if (!m_created)
        return;
    m_workspace.reset();
    m_created = false;
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        QFile::remove(m_workspacePath + QLatin1String(suffix));
}

} // namespace headroom::cli
