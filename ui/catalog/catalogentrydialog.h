#pragma once

#include "catalogfields.h"

#include <QDialog>
#include <QJsonObject>
#include <functional>
#include <map>
#include <vector>

class QLabel;

namespace headroom::ui {

// Form for one catalog entry, built from the catalog fields (units, ranges, tooltips), one
// tab per page of fields (a GPU's specifications and its serving profile).
// OK validates through the store's parser and stays open with the message when invalid.
class CatalogEntryDialog : public QDialog {
    Q_OBJECT
public:
    CatalogEntryDialog(CatalogKind kind, const QJsonObject &initial, bool editingExisting,
                       QWidget *parent = nullptr);

    QJsonObject entry() const;
    QString errorText() const;

    void accept() override;

private:
    CatalogKind m_kind;
    QJsonObject m_initial;
    std::map<QString, QWidget *> m_editors;
    std::map<QString, double> m_shownAtStart; // each number's editor value as the form opened
    std::vector<std::function<void()>> m_enablers; // per presence field: enables its object's editors
    QLabel *m_error;
};

} // namespace headroom::ui
