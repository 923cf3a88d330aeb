#pragma once

#include "catalogfields.h"

#include <QJsonObject>
#include <QWidget>
#include <vector>

class QSortFilterProxyModel;
class QTableView;
class QUndoStack;

namespace headroom::ui {

class CatalogTableModel;

// One editable table of the workspace (GPUs, models or rate cards): a filter, a sortable
// view, and add / edit / delete through the entry form — every change one undo step.
class CatalogPanel : public QWidget {
    Q_OBJECT
public:
    CatalogPanel(store::Workspace &workspace, CatalogKind kind, QUndoStack *undoStack, QWidget *parent = nullptr);

    CatalogKind kind() const { return m_kind; }
    CatalogTableModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString selectedId() const;

    // Opens the form for a new entry, prefilled from the selection with its identity cleared.
    void addWithDialog();
    void editSelectedWithDialog();
    void deleteSelected();
    // Adds or replaces one entry as one undo step; false with the reason when invalid.
    bool putEntry(const QJsonObject &entry, QString *error);
    // Adds or replaces several entries as one undo step (an import).
    void putEntries(const std::vector<QJsonObject> &entries, const QString &text);

signals:
    void statusMessage(const QString &message);

private:
    store::Workspace &m_workspace;
    CatalogKind m_kind;
    QUndoStack *m_undoStack;
    CatalogTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
};

} // namespace headroom::ui
