#include "entitycommand.h"

#include "store/scenariojson.h"
#include "store/storeerror.h"
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

// Writes `to` over `from` (stored at `fromVersion`; 0 when absent) and returns the version
// written (0 after a removal). Every write is conditional on that version.
int64_t applyScenario(store::Workspace &workspace, const std::optional<engine::Scenario> &from, int64_t fromVersion,
                      const std::optional<engine::Scenario> &to)
{
    if (from && !to) {
        workspace.removeScenario(QString::fromStdString(from->name), fromVersion);
        return 0;
    }
    if (!to)
        return 0;
    if (from && from->name != to->name) {
        // A rename keeps the row (its creation time and version history).
        workspace.renameScenario(QString::fromStdString(from->name), QString::fromStdString(to->name), fromVersion);
        auto renamed = *from;
        renamed.name = to->name;
        if (store::scenarioToJson(renamed) == store::scenarioToJson(*to))
            return fromVersion + 1;
        return workspace.saveScenario(*to, fromVersion + 1);
    }
    return workspace.saveScenario(*to, from ? fromVersion : 0);
}

// A scenario change whose writes are optimistic (see scenarioChange()).
class ScenarioChangeCommand : public QUndoCommand {
public:
    ScenarioChangeCommand(store::Workspace &workspace, std::optional<engine::Scenario> before, int64_t beforeVersion,
                          std::optional<engine::Scenario> after, const QString &text, int mergeField,
                          std::function<void(const QString &)> refused)
        : QUndoCommand(text)
        , m_workspace(workspace)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_beforeVersion(beforeVersion)
        , m_mergeField(mergeField)
        , m_refused(std::move(refused))
    {
    }

    void redo() override
    {
        if (!m_done) {
            m_done = true;  // the first redo's errors go to the caller of push()
            m_afterVersion = applyScenario(m_workspace, m_before, m_beforeVersion, m_after);
            return;
        }
        guarded([&] {
            m_afterVersion = applyScenario(m_workspace, m_before, storedVersion(m_before, m_beforeVersion), m_after);
        });
    }
    void undo() override
    {
        guarded([&] {
            m_beforeVersion = applyScenario(m_workspace, m_after, storedVersion(m_after, m_afterVersion), m_before);
        });
    }
    int id() const override { return m_mergeField < 0 ? -1 : kScenarioEditId; }

    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const ScenarioChangeCommand *>(other);
        if (next->m_mergeField != m_mergeField || !m_after || !next->m_before || !next->m_after
            || next->m_before->name != m_after->name || next->m_after->name != m_after->name
            || next->m_beforeVersion != m_afterVersion)
            return false;
        m_after = next->m_after;
        m_afterVersion = next->m_afterVersion;
        return true;
    }

private:
    // The version to base an undo or redo on: the stored one while the stored document is
    // still `expected` (later steps of this stack wrote newer versions of the same document),
    // else `written`, the version this step last saw, so that another user's change since is
    // refused by the store with their name.
    int64_t storedVersion(const std::optional<engine::Scenario> &expected, int64_t written) const
    {
        if (!expected)
            return written;
        const QString name = QString::fromStdString(expected->name);
        const auto summary = m_workspace.scenarioSummary(name);
        const auto stored = m_workspace.scenario(name);
        if (summary && stored && store::scenarioToJson(*stored) == store::scenarioToJson(*expected))
            return summary->version;
        return written;
    }

    template <typename Write>
    void guarded(Write write)
    {
        try {
            write();
        } catch (const store::StoreError &error) {
            setObsolete(true);
            if (m_refused)
                m_refused(error.message());
        }
    }

    store::Workspace &m_workspace;
    std::optional<engine::Scenario> m_before;
    std::optional<engine::Scenario> m_after;
    int64_t m_beforeVersion = 0;
    int64_t m_afterVersion = 0;
    int m_mergeField;
    std::function<void(const QString &)> m_refused;
    bool m_done = false;
};

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
                             int64_t beforeVersion, std::optional<engine::Scenario> after, const QString &text,
                             int mergeField, std::function<void(const QString &)> refused)
{
    return new ScenarioChangeCommand(workspace, std::move(before), beforeVersion, std::move(after), text, mergeField,
                                     std::move(refused));
}

} // namespace headroom::ui
