#pragma once

#include "catalogfields.h"

#include <QDialog>
#include <QJsonObject>
#include <map>

class QLabel;

namespace headroom::ui {

// Form for one catalog entry, built from the catalog fields (units, ranges, tooltips).
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
    QLabel *m_error;
};

} // namespace headroom::ui
