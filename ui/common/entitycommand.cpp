#include "entitycommand.h"

#include "store/scenariojson.h"
#include "store/workspace.h"

namespace headroom::ui {

namespace {

// Merge ids of field edits, one per entity type.
constexpr int kWorkloadEditId = 0x574b;
constexpr int kTrainingJobEditId = 0x544a;
constexpr int kScenarioEditId = 0x5343;

void applyWorkload(store::Workspace &workspace, const std::optional<engine::WorkloadProfile> &from,
                   const std::optional<engine::WorkloadProfile> &to)
{
    if (from && (!to || to->name != from->name))
        workspace.removeWorkload(QString::fromStdString(from->name));
    if (to)
        workspace.putWorkload(*to);
}

void applyTrainingJob(store::Workspace &workspace, const std::optional<engine::TrainingJob> &from,
                      const std::optional<engine::TrainingJob> &to)
{
    if (from && (!to || to->name != from->name))
        workspace.removeTrainingJob(QString::fromStdString(from->name));
    if (to)
        workspace.putTrainingJob(*to);
}

void applyScenario(store::Workspace &workspace, const std::optional<engine::Scenario> &from,
                   const std::optional<engine::Scenario> &to)
{
    if (from && !to) {
        workspace.removeScenario(QString::fromStdString(from->name));
        return;
    }
    if (!to)
        return;
    if (from && from->name != to->name) {
        // A rename keeps the row (its creation time and version history).
        workspace.renameScenario(QString::fromStdString(from->name), QString::fromStdString(to->name));
        auto renamed = *from;
        renamed.name = to->name;
        if (store::scenarioToJson(renamed) == store::scenarioToJson(*to))
            return;
    }
    workspace.putScenario(*to);
}

} // namespace

QUndoCommand *workloadChange(store::Workspace &workspace, std::optional<engine::WorkloadProfile> before,
                             std::optional<engine::WorkloadProfile> after, const QString &text, int mergeField)
{
    return new EntityChangeCommand<engine::WorkloadProfile>(workspace, std::move(before), std::move(after), text,
                                                            mergeField, kWorkloadEditId, &applyWorkload);
}

QUndoCommand *trainingJobChange(store::Workspace &workspace, std::optional<engine::TrainingJob> before,
                                std::optional<engine::TrainingJob> after, const QString &text, int mergeField)
{
    return new EntityChangeCommand<engine::TrainingJob>(workspace, std::move(before), std::move(after), text,
                                                        mergeField, kTrainingJobEditId, &applyTrainingJob);
}

QUndoCommand *scenarioChange(store::Workspace &workspace, std::optional<engine::Scenario> before,
                             std::optional<engine::Scenario> after, const QString &text, int mergeField)
{
    return new EntityChangeCommand<engine::Scenario>(workspace, std::move(before), std::move(after), text, mergeField,
                                                     kScenarioEditId, &applyScenario);
}

} // namespace headroom::ui
