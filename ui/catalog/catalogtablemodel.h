#pragma once

#include "catalogfields.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QJsonObject>
#include <vector>

class QUndoStack;

namespace headroom::ui {

// A catalog table (GPUs or models) over the workspace. Edits are validated by the store's
// catalog parser and pushed as undo commands; the model refreshes from the workspace's
// change signals.
class CatalogTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kIdRole = Qt::UserRole + 2;

    CatalogTableModel(store::Workspace &workspace, CatalogKind kind, QUndoStack *undoStack,
                      QObject *parent = nullptr);

    CatalogKind kind() const { return m_kind; }
    const QJsonObject &entry(int row) const { return m_rows.at(size_t(row)); }
    int rowOfId(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

signals:
    // An edit was refused; the message names the field and the valid range.
    void editRejected(const QString &message);

private:
    void reload();
    void findSupersededRateCards();
    const CatalogField &fieldAt(int column) const;

    store::Workspace &m_workspace;
    CatalogKind m_kind;
    QUndoStack *m_undoStack;
    std::vector<int> m_columns; // indexes into catalogFields(kind)
    std::vector<QJsonObject> m_rows;
    QHash<QString, QString> m_supersededBy; // rate card id → effective date of the newer card in force
};

// Shown value of a field (stored value ÷ scale) and its inverse.
QVariant shownValue(const CatalogField &field, const QJsonValue &stored);
QJsonValue storedValue(const CatalogField &field, const QVariant &shown);

} // namespace headroom::ui
