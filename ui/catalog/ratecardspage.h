#pragma once

#include "common/page.h"

class QLabel;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class CatalogPanel;

// Rate cards (Inputs): provider prices per GPU-hour with their history by effective date.
// Add, edit, delete (undoable); import and export CSV.
class RateCardsPage : public Page {
    Q_OBJECT
public:
    RateCardsPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);

    CatalogPanel *panel() const { return m_panel; }
    void importCsv();
    void exportCsv();

private:
    store::Workspace &m_workspace;
    CatalogPanel *m_panel;
    QLabel *m_status;
};

} // namespace headroom::ui
