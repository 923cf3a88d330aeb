#pragma once

#include "engine/workload.h"

#include <QUndoCommand>
#include <optional>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// One undoable change to a workload profile, by name: add (no before), delete (no after),
// edit or rename. Consecutive edits of the same field of the same workload merge into one
// step, so that dragging a spin box is undone at once.
class WorkloadChangeCommand : public QUndoCommand {
public:
    WorkloadChangeCommand(store::Workspace &workspace, std::optional<engine::WorkloadProfile> before,
                          std::optional<engine::WorkloadProfile> after, const QString &text, int mergeField = -1);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    void apply(const std::optional<engine::WorkloadProfile> &from, const std::optional<engine::WorkloadProfile> &to);

    store::Workspace &m_workspace;
    std::optional<engine::WorkloadProfile> m_before;
    std::optional<engine::WorkloadProfile> m_after;
    int m_mergeField;
};

} // namespace headroom::ui
