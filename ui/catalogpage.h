#pragma once

#include "catalogfields.h"
#include "page.h"

#include <QJsonObject>

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;
class QUndoStack;

namespace headroom::ui {

class CatalogTableModel;

// Catalog (Inputs): the workspace's GPUs and models in sortable, filterable tables. Add,
// edit in place or in a form, delete, import and export JSON — all undoable.
class CatalogPage : public Page {
    Q_OBJECT
public:
    CatalogPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);

    CatalogTableModel *tableModel(CatalogKind kind) const;
    QTableView *tableView(CatalogKind kind) const;
    void showKind(CatalogKind kind);
    CatalogKind currentKind() const;

    // Opens the form for a new entry of the current kind, prefilled from the selection.
    void addWithDialog();
    void editSelectedWithDialog();
    void deleteSelected();
    void importJson();
    void exportJson();

    // Adds or replaces one entry as one undo step; false with the reason when invalid.
    bool putEntry(CatalogKind kind, const QJsonObject &entry, QString *error);

private:
    struct Tab {
        CatalogTableModel *model = nullptr;
        QSortFilterProxyModel *proxy = nullptr;
        QTableView *view = nullptr;
    };
    QWidget *buildTab(CatalogKind kind);
    QString selectedId() const;
    const Tab &tab(CatalogKind kind) const;

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    QTabWidget *m_tabs;
    QLabel *m_status;
    Tab m_gpuTab;
    Tab m_modelTab;
};

} // namespace headroom::ui
