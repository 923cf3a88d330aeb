#include "reportcommand.h"

#include "store/common/workspace.h"

#include <QObject>

namespace headroom::ui {

namespace {

constexpr int kReportSettingsEditId = 0x5253; // merge id of report title/author/date typing

} // namespace

ReportAddCommand::ReportAddCommand(store::Workspace &workspace, store::ReportItem item)
    : m_workspace(workspace), m_item(std::move(item))
{
    setText(QObject::tr("Add “%1” to the report").arg(m_item.title));
}

void ReportAddCommand::redo()
{
    if (m_position < 0)
        m_position = m_workspace.appendReportItem(m_item);
    else
        m_workspace.insertReportItem(m_position, m_item);
}

void ReportAddCommand::undo()
{
    m_workspace.removeReportItem(m_position);
}

ReportMoveCommand::ReportMoveCommand(store::Workspace &workspace, int from, int to, const QString &title)
    : m_workspace(workspace), m_from(from), m_to(to)
{
    setText(QObject::tr("Move “%1” in the report").arg(title));
}

void ReportMoveCommand::redo()
{
    m_workspace.moveReportItem(m_from, m_to);
}

void ReportMoveCommand::undo()
{
    m_workspace.moveReportItem(m_to, m_from);
}

ReportRemoveCommand::ReportRemoveCommand(store::Workspace &workspace, int position, store::ReportItem item)
    : m_workspace(workspace), m_position(position), m_item(std::move(item))
{
    setText(QObject::tr("Remove “%1” from the report").arg(m_item.title));
}

void ReportRemoveCommand::redo()
{
    m_workspace.removeReportItem(m_position);
}

void ReportRemoveCommand::undo()
{
    m_workspace.insertReportItem(m_position, m_item);
}

ReportReplaceCommand::ReportReplaceCommand(store::Workspace &workspace, int position, store::ReportItem before,
                                           store::ReportItem after, const QString &text)
    : m_workspace(workspace), m_position(position), m_before(std::move(before)), m_after(std::move(after))
{
    setText(text);
}

void ReportReplaceCommand::redo()
{
    m_workspace.replaceReportItem(m_position, m_after);
}

void ReportReplaceCommand::undo()
{
    m_workspace.replaceReportItem(m_position, m_before);
}

ReportSettingsCommand::ReportSettingsCommand(store::Workspace &workspace, store::ReportSettings before,
                                             store::ReportSettings after, int field)
    : m_workspace(workspace), m_before(std::move(before)), m_after(std::move(after)), m_field(field)
{
    setText(QObject::tr("Edit the report title page"));
}

void ReportSettingsCommand::redo()
{
    m_workspace.setReportSettings(m_after);
}

void ReportSettingsCommand::undo()
{
    m_workspace.setReportSettings(m_before);
}

int ReportSettingsCommand::id() const
{
    return kReportSettingsEditId;
}

bool ReportSettingsCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const ReportSettingsCommand *>(other);
    if (next->m_field != m_field || &next->m_workspace != &m_workspace)
        return false;
    m_after = next->m_after;
    return true;
}

} // namespace headroom::ui
