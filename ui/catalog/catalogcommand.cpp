#include "catalogcommand.h"

namespace headroom::ui {

CatalogChangeCommand::CatalogChangeCommand(store::Workspace &workspace, CatalogKind kind,
                                           std::vector<Change> changes, const QString &text)
    : QUndoCommand(text)
    , m_workspace(workspace)
    , m_kind(kind)
    , m_changes(std::move(changes))
{
}

void CatalogChangeCommand::redo()
{
    apply(true);
}

void CatalogChangeCommand::undo()
{
    apply(false);
}

void CatalogChangeCommand::apply(bool forward)
{
    std::vector<QJsonObject> puts;
    for (const Change &change : m_changes) {
        const std::optional<QJsonObject> &target = forward ? change.after : change.before;
        if (target)
            puts.push_back(*target);
        else
            removeCatalogEntry(m_workspace, m_kind, change.id);
    }
    if (!puts.empty())
        putCatalogEntries(m_workspace, m_kind, puts);
}

} // namespace headroom::ui
