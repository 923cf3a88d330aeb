#pragma once

#include "store/report/reporttables.h"

#include <QUndoCommand>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// Adds a report item at the end of the deck; undo removes it again.
class ReportAddCommand : public QUndoCommand {
public:
    ReportAddCommand(store::Workspace &workspace, store::ReportItem item);
    void redo() override;
    void undo() override;

private:
    store::Workspace &m_workspace;
    store::ReportItem m_item;
    int m_position = -1;
};

// Moves the item at `from` to `to` (positions after the move); undo moves it back.
class ReportMoveCommand : public QUndoCommand {
public:
    ReportMoveCommand(store::Workspace &workspace, int from, int to, const QString &title);
    void redo() override;
    void undo() override;

private:
    store::Workspace &m_workspace;
    int m_from;
    int m_to;
};

// Removes the item at `position`; undo puts the same item back at the same place.
class ReportRemoveCommand : public QUndoCommand {
public:
    ReportRemoveCommand(store::Workspace &workspace, int position, store::ReportItem item);
    void redo() override;
    void undo() override;

private:
    store::Workspace &m_workspace;
    int m_position;
    store::ReportItem m_item;
};

// Puts `after` in place of `before` at `position` (pin, unpin); undo puts `before` back.
class ReportReplaceCommand : public QUndoCommand {
public:
    ReportReplaceCommand(store::Workspace &workspace, int position, store::ReportItem before, store::ReportItem after,
                         const QString &text);
    void redo() override;
    void undo() override;

private:
    store::Workspace &m_workspace;
    int m_position;
    store::ReportItem m_before;
    store::ReportItem m_after;
};

// Changes the deck's title, author and date. Typing in one field merges into one step.
class ReportSettingsCommand : public QUndoCommand {
public:
    ReportSettingsCommand(store::Workspace &workspace, store::ReportSettings before, store::ReportSettings after,
                          int field);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    store::Workspace &m_workspace;
    store::ReportSettings m_before;
    store::ReportSettings m_after;
    int m_field;
};

} // namespace headroom::ui
