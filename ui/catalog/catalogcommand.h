#pragma once

#include "catalogfields.h"

#include <QJsonObject>
#include <QUndoCommand>
#include <optional>
#include <vector>

namespace headroom::ui {

// One undoable change to catalog entries: each change names an entry by its stable id and
// holds its state before and after (nullopt = absent). Covers add, edit, delete and import.
class CatalogChangeCommand : public QUndoCommand {
public:
    struct Change {
        QString id;
        std::optional<QJsonObject> before;
        std::optional<QJsonObject> after;
    };

    CatalogChangeCommand(store::Workspace &workspace, CatalogKind kind, std::vector<Change> changes,
                         const QString &text);

    void redo() override;
    void undo() override;

private:
    void apply(bool forward);

    store::Workspace &m_workspace;
    CatalogKind m_kind;
    std::vector<Change> m_changes;
};

} // namespace headroom::ui
