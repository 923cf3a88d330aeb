#pragma once

#include "catalogfields.h"
#include "common/page.h"

#include <QJsonObject>
#include <functional>

class QLabel;
class QTableView;
class QTabWidget;
class QToolBar;
class QUndoStack;

namespace headroom::ui {

class CatalogPanel;
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

    void addWithDialog();
    void editSelectedWithDialog();
    void deleteSelected();
    void importJson();
    void exportJson();

private:
    CatalogPanel *panel(CatalogKind kind) const;
    CatalogPanel *currentPanel() const;

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    QTabWidget *m_tabs;
    QLabel *m_status;
    CatalogPanel *m_gpus;
    CatalogPanel *m_models;
};

// Adds the Add / Edit / Delete actions of a page's current panel to a toolbar, with shortcuts
// scoped to the page.
void addEditActions(QToolBar *toolbar, QWidget *page, const std::function<CatalogPanel *()> &panel);

} // namespace headroom::ui
