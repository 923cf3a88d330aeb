#pragma once

#include "engine/scenario.h"

#include <QUndoCommand>
#include <optional>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// One undoable change to a fleet scenario, by name: create or duplicate (no before), delete
// (no after), edit or rename. Undo stores the earlier document again (the stored version
// number keeps counting up: every state written is a new version). Consecutive edits of the
// same field of the same scenario merge into one step, so that dragging a spin box is undone
// at once.
class ScenarioChangeCommand : public QUndoCommand {
public:
    ScenarioChangeCommand(store::Workspace &workspace, std::optional<engine::Scenario> before,
                          std::optional<engine::Scenario> after, const QString &text, int mergeField = -1);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    void apply(const std::optional<engine::Scenario> &from, const std::optional<engine::Scenario> &to);

    store::Workspace &m_workspace;
    std::optional<engine::Scenario> m_before;
    std::optional<engine::Scenario> m_after;
    int m_mergeField;
};

} // namespace headroom::ui
