#include "workloadcommand.h"

#include "store/workspace.h"

namespace headroom::ui {

namespace {
constexpr int kWorkloadEditId = 0x574b; // merge id of workload field edits
}

WorkloadChangeCommand::WorkloadChangeCommand(store::Workspace &workspace, std::optional<engine::WorkloadProfile> before,
                                             std::optional<engine::WorkloadProfile> after, const QString &text,
                                             int mergeField)
    : QUndoCommand(text)
    , m_workspace(workspace)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeField(mergeField)
{
}

void WorkloadChangeCommand::redo()
{
    apply(m_before, m_after);
}

void WorkloadChangeCommand::undo()
{
    apply(m_after, m_before);
}

void WorkloadChangeCommand::apply(const std::optional<engine::WorkloadProfile> &from,
                                  const std::optional<engine::WorkloadProfile> &to)
{
    if (from && (!to || to->name != from->name))
        m_workspace.removeWorkload(QString::fromStdString(from->name));
    if (to)
        m_workspace.putWorkload(*to);
}

int WorkloadChangeCommand::id() const
{
    return m_mergeField < 0 ? -1 : kWorkloadEditId;
}

bool WorkloadChangeCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const WorkloadChangeCommand *>(other);
    if (next->m_mergeField != m_mergeField || !m_after || !next->m_before || !next->m_after ||
        next->m_before->name != m_after->name || next->m_after->name != m_after->name)
        return false;
    m_after = next->m_after;
    return true;
}

} // namespace headroom::ui
