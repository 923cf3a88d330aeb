#include "catalogtablemodel.h"

#include "catalogcommand.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QColor>
#include <QDate>
#include <QLocale>
#include <QUndoStack>
#include <cmath>

namespace headroom::ui {

QVariant shownValue(const CatalogField &field, const QJsonValue &stored)
{
    switch (field.type) {
    case CatalogField::Type::Text:
    case CatalogField::Type::Decimal:
    case CatalogField::Type::Choice:
        return stored.toString();
    case CatalogField::Type::Integer:
        return stored.toInteger();
    case CatalogField::Type::Number:
        return stored.toDouble() / field.scale;
    }
    return {};
}

QJsonValue storedValue(const CatalogField &field, const QVariant &shown)
{
    switch (field.type) {
    case CatalogField::Type::Text:
    case CatalogField::Type::Decimal:
    case CatalogField::Type::Choice:
        return shown.toString().trimmed();
    case CatalogField::Type::Integer:
        return shown.toLongLong();
    case CatalogField::Type::Number: {
        const double value = shown.toDouble() * field.scale;
        // Scaled integers (bytes, parameter counts) stay integers.
        return field.scale > 1 ? QJsonValue(double(std::llround(value))) : QJsonValue(value);
    }
    }
    return {};
}

CatalogTableModel::CatalogTableModel(store::Workspace &workspace, CatalogKind kind, QUndoStack *undoStack,
                                     QObject *parent)
    : QAbstractTableModel(parent)
    , m_workspace(workspace)
    , m_kind(kind)
    , m_undoStack(undoStack)
{
    const auto &fields = catalogFields(kind);
    for (int i = 0; i < int(fields.size()); ++i)
        if (fields[size_t(i)].inTable)
            m_columns.push_back(i);
    switch (kind) {
    case CatalogKind::Gpus:
        connect(&m_workspace, &store::Workspace::gpusChanged, this, &CatalogTableModel::reload);
        break;
    case CatalogKind::Models:
        connect(&m_workspace, &store::Workspace::modelsChanged, this, &CatalogTableModel::reload);
        break;
    case CatalogKind::RateCards:
        connect(&m_workspace, &store::Workspace::rateCardsChanged, this, &CatalogTableModel::reload);
        break;
    }
    m_rows = catalogEntries(m_workspace, m_kind);
    findSupersededRateCards();
}

void CatalogTableModel::reload()
{
    beginResetModel();
    m_rows = catalogEntries(m_workspace, m_kind);
    findSupersededRateCards();
    endResetModel();
}

void CatalogTableModel::findSupersededRateCards()
{
    m_supersededBy.clear();
    if (m_kind != CatalogKind::RateCards)
        return;
    const QString today = QDate::currentDate().toString(Qt::ISODate);
    auto history = [](const QJsonObject &o) {
        return catalogEntryId(CatalogKind::RateCards, o).section(QLatin1Char('@'), 0, 0);
    };
    for (const QJsonObject &card : m_rows) {
        const QString date = card.value(QStringLiteral("effective_date")).toString();
        QString newest;
        for (const QJsonObject &other : m_rows) {
            const QString otherDate = other.value(QStringLiteral("effective_date")).toString();
            if (history(other) == history(card) && otherDate > date && otherDate <= today && otherDate > newest)
                newest = otherDate;
        }
        if (!newest.isEmpty())
            m_supersededBy.insert(catalogEntryId(m_kind, card), newest);
    }
}

const CatalogField &CatalogTableModel::fieldAt(int column) const
{
    return catalogFields(m_kind).at(size_t(m_columns.at(size_t(column))));
}

int CatalogTableModel::rowOfId(const QString &id) const
{
    for (int row = 0; row < int(m_rows.size()); ++row)
        if (catalogEntryId(m_kind, m_rows[size_t(row)]) == id)
            return row;
    return -1;
}

int CatalogTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CatalogTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant CatalogTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const CatalogField &field = fieldAt(index.column());
    const QJsonObject &row = m_rows[size_t(index.row())];
    const QVariant shown = shownValue(field, entryValue(row, field));
    switch (role) {
    case Qt::DisplayRole:
        if (field.type == CatalogField::Type::Number)
            return QLocale(QLocale::English).toString(shown.toDouble(), 'f', field.decimals);
        if (field.type == CatalogField::Type::Integer)
            return QLocale(QLocale::English).toString(shown.toLongLong());
        return shown;
    case Qt::EditRole:
        return shown;
    case kSortRole:
        return field.type == CatalogField::Type::Decimal ? QVariant(shown.toString().toDouble()) : shown;
    case Qt::ToolTipRole:
        if (const auto it = m_supersededBy.find(catalogEntryId(m_kind, row)); it != m_supersededBy.end())
            return tr("History: superseded by the card effective %1").arg(it.value());
        return field.key == QLatin1String("source") ? shown : QVariant(field.tooltip);
    case Qt::ForegroundRole:
        if (m_supersededBy.contains(catalogEntryId(m_kind, row)))
            return QColor(Qt::gray);
        return {};
    case Qt::TextAlignmentRole:
        return field.type == CatalogField::Type::Number || field.type == CatalogField::Type::Integer ||
                       field.type == CatalogField::Type::Decimal
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case kIdRole:
        return catalogEntryId(m_kind, row);
    default:
        return {};
    }
}

QVariant CatalogTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return fieldAt(section).header();
    if (role == Qt::ToolTipRole)
        return fieldAt(section).tooltip;
    return {};
}

Qt::ItemFlags CatalogTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    // A presence field (the serving profile) changes in the entry form, with its values.
    if (index.isValid() && !fieldAt(index.column()).identity && !fieldAt(index.column()).presence)
        f |= Qt::ItemIsEditable;
    return f;
}

bool CatalogTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || !(flags(index) & Qt::ItemIsEditable))
        return false;
    const CatalogField &field = fieldAt(index.column());
    const QJsonObject before = m_rows[size_t(index.row())];
    QJsonObject after = before;
    setEntryValue(after, field, storedValue(field, value));
    if (after == before)
        return false;
    try {
        validateCatalogEntry(m_kind, after);
    } catch (const store::StoreError &e) {
        emit editRejected(e.message());
        return false;
    }
    const QString id = catalogEntryId(m_kind, before);
    m_undoStack->push(new CatalogChangeCommand(m_workspace, m_kind, {{id, before, after}},
                                               tr("Edit %1 of %2").arg(field.label, id)));
    return true;
}

} // namespace headroom::ui
