#include "scenariocommand.h"

#include "store/scenariojson.h"
#include "store/workspace.h"

namespace headroom::ui {

namespace {
constexpr int kScenarioEditId = 0x5343; // merge id of scenario field edits
}

ScenarioChangeCommand::ScenarioChangeCommand(store::Workspace &workspace, std::optional<engine::Scenario> before,
                                             std::optional<engine::Scenario> after, const QString &text,
                                             int mergeField)
    : QUndoCommand(text)
    , m_workspace(workspace)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeField(mergeField)
{
}

void ScenarioChangeCommand::redo()
{
    apply(m_before, m_after);
}

void ScenarioChangeCommand::undo()
{
    apply(m_after, m_before);
}

void ScenarioChangeCommand::apply(const std::optional<engine::Scenario> &from, const std::optional<engine::Scenario> &to)
{
    if (from && !to) {
        m_workspace.removeScenario(QString::fromStdString(from->name));
        return;
    }
    if (!to)
        return;
    if (from && from->name != to->name) {
        // A rename keeps the row (its creation time and version history).
        m_workspace.renameScenario(QString::fromStdString(from->name), QString::fromStdString(to->name));
        auto renamed = *from;
        renamed.name = to->name;
        if (store::scenarioToJson(renamed) == store::scenarioToJson(*to))
            return;
    }
    m_workspace.putScenario(*to);
}

int ScenarioChangeCommand::id() const
{
    return m_mergeField < 0 ? -1 : kScenarioEditId;
}

bool ScenarioChangeCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const ScenarioChangeCommand *>(other);
    if (next->m_mergeField != m_mergeField || !m_after || !next->m_before || !next->m_after ||
        next->m_before->name != m_after->name || next->m_after->name != m_after->name)
        return false;
    m_after = next->m_after;
    return true;
}

} // namespace headroom::ui
