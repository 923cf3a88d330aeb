#pragma once

#include "engine/training.h"

#include <QUndoCommand>
#include <optional>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// One undoable change to a training job, by name: add (no before), delete (no after), edit or
// rename. Consecutive edits of the same field of the same job merge into one step, so that
// dragging a spin box is undone at once.
class TrainingJobChangeCommand : public QUndoCommand {
public:
    TrainingJobChangeCommand(store::Workspace &workspace, std::optional<engine::TrainingJob> before,
                             std::optional<engine::TrainingJob> after, const QString &text, int mergeField = -1);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    void apply(const std::optional<engine::TrainingJob> &from, const std::optional<engine::TrainingJob> &to);

    store::Workspace &m_workspace;
    std::optional<engine::TrainingJob> m_before;
    std::optional<engine::TrainingJob> m_after;
    int m_mergeField;
};

} // namespace headroom::ui
