#include "command.h"

#include "store/workspace.h"

#include <QDir>
#include <QFileInfo>

namespace headroom::cli {

Context::Context(QTextStream &out, QTextStream &err, QString workspacePath)
    : m_out(out), m_err(err), m_workspacePath(std::move(workspacePath))
{
}

Context::~Context() = default;

store::Workspace &Context::workspace()
{
    if (!m_workspace) {
        // The default location's folder may not exist yet on a fresh account.
        QDir().mkpath(QFileInfo(m_workspacePath).absolutePath());
        m_workspace = std::make_unique<store::Workspace>(m_workspacePath);
    }
    return *m_workspace;
}

} // namespace headroom::cli
