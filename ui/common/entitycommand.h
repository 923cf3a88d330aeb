#pragma once

#include "engine/fleet/scenario.h"
#include "engine/training/training.h"
#include "engine/inference/workload.h"

#include <QUndoCommand>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// One undoable change to a named workspace entity without a stored version (a workload):
// add (no before), delete (no after), edit or rename. `apply` writes one state over the other
// in the workspace. Consecutive edits of the same field of the same entity merge into one
// step (same merge id, field and name), so that dragging a spin box is undone at once.
template <typename Entity>
class EntityChangeCommand : public QUndoCommand {
public:
    using Apply = void (*)(store::Workspace &, const std::optional<Entity> &from, const std::optional<Entity> &to);

    EntityChangeCommand(store::Workspace &workspace, std::optional<Entity> before, std::optional<Entity> after,
                        const QString &text, int mergeField, int mergeId, Apply apply)
        : QUndoCommand(text)
        , m_workspace(workspace)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_mergeField(mergeField)
        , m_mergeId(mergeId)
        , m_apply(apply)
    {
    }

    void redo() override { m_apply(m_workspace, m_before, m_after); }
    void undo() override { m_apply(m_workspace, m_after, m_before); }
    int id() const override { return m_mergeField < 0 ? -1 : m_mergeId; }

    bool mergeWith(const QUndoCommand *other) override
    {
        // Equal ids mean the same entity type: each type has its own merge id.
        const auto *next = static_cast<const EntityChangeCommand *>(other);
        if (next->m_mergeField != m_mergeField || !m_after || !next->m_before || !next->m_after
            || next->m_before->name != m_after->name || next->m_after->name != m_after->name)
            return false;
        m_after = next->m_after;
        return true;
    }

private:
    store::Workspace &m_workspace;
    std::optional<Entity> m_before;
    std::optional<Entity> m_after;
    int m_mergeField;
    int m_mergeId;
    Apply m_apply;
};

// The change commands of each entity; `mergeField` ≥ 0 names the edited field for merging.
QUndoCommand *workloadChange(store::Workspace &workspace, std::optional<engine::WorkloadProfile> before,
                             std::optional<engine::WorkloadProfile> after, const QString &text, int mergeField = -1);
// Scenarios and training jobs: undo stores the earlier document again, so the stored version
// number keeps counting up.
// Every write is optimistic: the first is based on `beforeVersion` (the version the page
// showed; 0 for a new document), later undos and redos on the version the previous step
// wrote. The first redo throws store::ConflictError / StoreError to the caller; a later undo
// or redo that is refused (another user changed the scenario meanwhile) changes nothing,
// drops the step from the stack and calls `refused` with the reason.
QUndoCommand *trainingJobChange(store::Workspace &workspace, std::optional<engine::TrainingJob> before,
                                int64_t beforeVersion, std::optional<engine::TrainingJob> after, const QString &text,
                                int mergeField = -1, std::function<void(const QString &)> refused = {});
QUndoCommand *scenarioChange(store::Workspace &workspace, std::optional<engine::Scenario> before,
                             int64_t beforeVersion, std::optional<engine::Scenario> after, const QString &text,
                             int mergeField = -1, std::function<void(const QString &)> refused = {});

// An edit made on `base` replayed on `current` (the version stored now): every top-level field
// of the document that `mine` changed from `base` takes mine's value, the others keep current's.
// Used when an edit waited for a lost server connection.
engine::Scenario rebaseEdit(const engine::Scenario &base, const engine::Scenario &mine, const engine::Scenario &current);
engine::TrainingJob rebaseEdit(const engine::TrainingJob &base, const engine::TrainingJob &mine,
                               const engine::TrainingJob &current);

} // namespace headroom::ui
