#pragma once

#include "store/common/workspace.h"

#include <QUndoCommand>
#include <utility>

namespace headroom::ui {

// One undoable change of a workspace-wide setting (the serving assumptions, the KV page's
// variants): `apply` writes the value. Consecutive changes with the same merge id (≥ 0) fold
// into one step, so that a run of edits on one page is undone at once.
template <typename Value>
class SettingCommand : public QUndoCommand {
public:
    using Apply = void (store::Workspace::*)(const Value &);

    SettingCommand(store::Workspace &workspace, Value before, Value after, Apply apply, const QString &text,
                   int mergeId = -1)
        : QUndoCommand(text)
        , m_workspace(workspace)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_apply(apply)
        , m_mergeId(mergeId)
    {
    }

    void redo() override { (m_workspace.*m_apply)(m_after); }
    void undo() override { (m_workspace.*m_apply)(m_before); }
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand *other) override
    {
        m_after = static_cast<const SettingCommand *>(other)->m_after;
        return true;
    }

private:
    store::Workspace &m_workspace;
    Value m_before;
    Value m_after;
    Apply m_apply;
    int m_mergeId;
};

} // namespace headroom::ui
