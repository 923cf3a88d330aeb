#include "entitycommand.h"

#include "store/fleet/scenariojson.h"
#include "store/training/trainingjson.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QJsonObject>

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

// The same for a training job; a rename is one write that keeps the row's creation time.
int64_t applyTrainingJob(store::Workspace &workspace, const std::optional<engine::TrainingJob> &from,
                         int64_t fromVersion, const std::optional<engine::TrainingJob> &to)
{
    if (from && !to) {
        workspace.removeTrainingJob(QString::fromStdString(from->name), fromVersion);
        return 0;
    }
    if (!to)
        return 0;
    if (!from)
        return workspace.saveTrainingJob(*to, 0);
    return workspace.saveTrainingJob(*to, fromVersion,
                                     from->name != to->name ? QString::fromStdString(from->name) : QString());
}

// What the versioned command needs of each entity type: how to write one state over
// another, and the stored document with its version.
struct ScenarioKind {
    using Entity = engine::Scenario;
    static constexpr int kEditId = kScenarioEditId;
    static int64_t apply(store::Workspace &workspace, const std::optional<Entity> &from, int64_t fromVersion,
                         const std::optional<Entity> &to)
    {
        return applyScenario(workspace, from, fromVersion, to);
    }
    // The stored version while the stored document is still `expected`, else nullopt.
    static std::optional<int64_t> versionIfStored(const store::Workspace &workspace, const Entity &expected)
    {
        const QString name = QString::fromStdString(expected.name);
        const auto summary = workspace.scenarioSummary(name);
        const auto stored = workspace.scenario(name);
        if (summary && stored && store::scenarioToJson(*stored) == store::scenarioToJson(expected))
            return summary->version;
        return std::nullopt;
    }
};

struct TrainingJobKind {
    using Entity = engine::TrainingJob;
    static constexpr int kEditId = kTrainingJobEditId;
    static int64_t apply(store::Workspace &workspace, const std::optional<Entity> &from, int64_t fromVersion,
                         const std::optional<Entity> &to)
    {
        return applyTrainingJob(workspace, from, fromVersion, to);
    }
    static std::optional<int64_t> versionIfStored(const store::Workspace &workspace, const Entity &expected)
    {
        const auto record = workspace.trainingJobRecord(QString::fromStdString(expected.name));
        if (record && store::trainingJobToJson(record->job) == store::trainingJobToJson(expected))
            return record->version;
        return std::nullopt;
    }
};

// A change whose writes are optimistic (see scenarioChange()).
template <typename Kind>
class VersionedChangeCommand : public QUndoCommand {
public:
    using Entity = typename Kind::Entity;

    VersionedChangeCommand(store::Workspace &workspace, std::optional<Entity> before, int64_t beforeVersion,
                           std::optional<Entity> after, const QString &text, int mergeField,
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
            m_afterVersion = Kind::apply(m_workspace, m_before, m_beforeVersion, m_after);
            return;
        }
        guarded([&] {
            m_afterVersion = Kind::apply(m_workspace, m_before, storedVersion(m_before, m_beforeVersion), m_after);
        });
    }
    void undo() override
    {
        guarded([&] {
            m_beforeVersion = Kind::apply(m_workspace, m_after, storedVersion(m_after, m_afterVersion), m_before);
        });
    }
    int id() const override { return m_mergeField < 0 ? -1 : Kind::kEditId; }

    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const VersionedChangeCommand *>(other);
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
    int64_t storedVersion(const std::optional<Entity> &expected, int64_t written) const
    {
        if (!expected)
            return written;
        return Kind::versionIfStored(m_workspace, *expected).value_or(written);
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
    std::optional<Entity> m_before;
    std::optional<Entity> m_after;
    int64_t m_beforeVersion = 0;
    int64_t m_afterVersion = 0;
    int m_mergeField;
    std::function<void(const QString &)> m_refused;
    bool m_done = false;
};

} // namespace

namespace {

QJsonObject rebaseFields(const QJsonObject &base, const QJsonObject &mine, QJsonObject current)
{
    for (auto field = mine.begin(); field != mine.end(); ++field)
        if (base.value(field.key()) != field.value())
            current.insert(field.key(), field.value());
    for (auto field = base.begin(); field != base.end(); ++field)
        if (!mine.contains(field.key()))
            current.remove(field.key());
    return current;
}

} // namespace

engine::Scenario rebaseEdit(const engine::Scenario &base, const engine::Scenario &mine, const engine::Scenario &current)
{
    return store::scenarioFromJson(
        rebaseFields(store::scenarioToJson(base), store::scenarioToJson(mine), store::scenarioToJson(current)),
        QStringLiteral("the edit to scenario \"%1\"").arg(QString::fromStdString(mine.name)));
}

engine::TrainingJob rebaseEdit(const engine::TrainingJob &base, const engine::TrainingJob &mine,
                               const engine::TrainingJob &current)
{
    return store::trainingJobFromJson(
        rebaseFields(store::trainingJobToJson(base), store::trainingJobToJson(mine), store::trainingJobToJson(current)),
        QStringLiteral("the edit to training job \"%1\"").arg(QString::fromStdString(mine.name)));
}

QUndoCommand *workloadChange(store::Workspace &workspace, std::optional<engine::WorkloadProfile> before,
                             std::optional<engine::WorkloadProfile> after, const QString &text, int mergeField)
{
    return new EntityChangeCommand<engine::WorkloadProfile>(workspace, std::move(before), std::move(after), text,
                                                            mergeField, kWorkloadEditId, &applyWorkload);
}

QUndoCommand *trainingJobChange(store::Workspace &workspace, std::optional<engine::TrainingJob> before,
                                int64_t beforeVersion, std::optional<engine::TrainingJob> after, const QString &text,
                                int mergeField, std::function<void(const QString &)> refused)
{
    return new VersionedChangeCommand<TrainingJobKind>(workspace, std::move(before), beforeVersion, std::move(after),
                                                       text, mergeField, std::move(refused));
}

QUndoCommand *scenarioChange(store::Workspace &workspace, std::optional<engine::Scenario> before,
                             int64_t beforeVersion, std::optional<engine::Scenario> after, const QString &text,
                             int mergeField, std::function<void(const QString &)> refused)
{
    return new VersionedChangeCommand<ScenarioKind>(workspace, std::move(before), beforeVersion, std::move(after), text,
                                                    mergeField, std::move(refused));
}

} // namespace headroom::ui
