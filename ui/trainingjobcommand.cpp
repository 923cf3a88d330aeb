#include "trainingjobcommand.h"

#include "store/workspace.h"

namespace headroom::ui {

namespace {
constexpr int kTrainingJobEditId = 0x544a; // merge id of training job field edits
}

TrainingJobChangeCommand::TrainingJobChangeCommand(store::Workspace &workspace,
                                                   std::optional<engine::TrainingJob> before,
                                                   std::optional<engine::TrainingJob> after, const QString &text,
                                                   int mergeField)
    : QUndoCommand(text)
    , m_workspace(workspace)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeField(mergeField)
{
}

void TrainingJobChangeCommand::redo()
{
    apply(m_before, m_after);
}

void TrainingJobChangeCommand::undo()
{
    apply(m_after, m_before);
}

void TrainingJobChangeCommand::apply(const std::optional<engine::TrainingJob> &from,
                                     const std::optional<engine::TrainingJob> &to)
{
    if (from && (!to || to->name != from->name))
        m_workspace.removeTrainingJob(QString::fromStdString(from->name));
    if (to)
        m_workspace.putTrainingJob(*to);
}

int TrainingJobChangeCommand::id() const
{
    return m_mergeField < 0 ? -1 : kTrainingJobEditId;
}

bool TrainingJobChangeCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const TrainingJobChangeCommand *>(other);
    if (next->m_mergeField != m_mergeField || !m_after || !next->m_before || !next->m_after ||
        next->m_before->name != m_after->name || next->m_after->name != m_after->name)
        return false;
    m_after = next->m_after;
    return true;
}

} // namespace headroom::ui
