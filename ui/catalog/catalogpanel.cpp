#include "catalogpanel.h"

#include "catalogcommand.h"
#include "catalogentrydialog.h"
#include "catalogtablemodel.h"
#include "common/dialogs.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

// The catalog's rows as the view shows them: sorted and filtered, each header's unit on a line
// of its own ("Memory\n(GiB)"), so that a column is as narrow as its figures.
class UnitsUnderHeaders : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        QVariant data = QSortFilterProxyModel::headerData(section, orientation, role);
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole)
            return data.toString().replace(QStringLiteral(" ("), QStringLiteral("\n("));
        return data;
    }
};

} // namespace

CatalogPanel::CatalogPanel(store::Workspace &workspace, CatalogKind kind, QUndoStack *undoStack, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_kind(kind)
    , m_undoStack(undoStack)
    , m_model(new CatalogTableModel(workspace, kind, undoStack, this))
    , m_proxy(new UnitsUnderHeaders(this))
    , m_view(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CatalogTableModel::kSortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(0, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // One line per entry, as a spreadsheet: columns as wide as their contents (units under the
    // headers keep figure columns narrow); a grid wider than the page scrolls sideways.
    m_view->resizeColumnsToContents();
    connect(m_model, &QAbstractItemModel::modelReset, m_view, [this] { m_view->resizeColumnsToContents(); });
    connect(m_model, &CatalogTableModel::editRejected, this, [this](const QString &message) {
        emit statusMessage(tr("<span style='color:#c0392b'>Not changed: %1</span>").arg(message.toHtmlEscaped()));
    });

    auto *filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter %1…").arg(catalogKindName(kind, 2)));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(filter);
    layout->addWidget(m_view);
}

QString CatalogPanel::selectedId() const
{
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? index.data(CatalogTableModel::kIdRole).toString() : QString();
}

bool CatalogPanel::putEntry(const QJsonObject &entry, QString *error)
{
    try {
        validateCatalogEntry(m_kind, entry);
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    const QString id = catalogEntryId(m_kind, entry);
    const auto before = catalogEntry(m_workspace, m_kind, id);
    const QString text = before ? tr("Edit %1 %2").arg(catalogKindName(m_kind, 1), id)
                                : tr("Add %1 %2").arg(catalogKindName(m_kind, 1), id);
    try {
        m_undoStack->push(new CatalogChangeCommand(m_workspace, m_kind, {{id, before, entry}}, text));
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    emit statusMessage(text);
    return true;
}

void CatalogPanel::putEntries(const std::vector<QJsonObject> &entries, const QString &text)
{
    if (entries.empty())
        return;
    std::vector<CatalogChangeCommand::Change> changes;
    for (const QJsonObject &e : entries) {
        const QString id = catalogEntryId(m_kind, e);
        changes.push_back({id, catalogEntry(m_workspace, m_kind, id), e});
    }
    m_undoStack->push(new CatalogChangeCommand(m_workspace, m_kind, std::move(changes), text));
}

void CatalogPanel::addWithDialog()
{
    QJsonObject initial;
    if (auto selected = catalogEntry(m_workspace, m_kind, selectedId())) {
        initial = *selected;
        for (const CatalogField &f : catalogFields(m_kind))
            if (f.identity || f.key == QLatin1String("name"))
                initial.insert(f.key, QString());
    }
    CatalogEntryDialog dialog(m_kind, initial, false, this);
    while (dialog.exec() == QDialog::Accepted) {
        const QString id = catalogEntryId(m_kind, dialog.entry());
        if (catalogEntry(m_workspace, m_kind, id)) {
            Dialogs::warning(this, dialog.windowTitle(),
                             tr("A %1 \"%2\" exists already; change its identity or edit the existing one.")
                                 .arg(catalogKindName(m_kind, 1), id));
            continue;
        }
        QString error;
        if (putEntry(dialog.entry(), &error))
            return;
        Dialogs::warning(this, dialog.windowTitle(), error);
    }
}

void CatalogPanel::editSelectedWithDialog()
{
    const auto selected = catalogEntry(m_workspace, m_kind, selectedId());
    if (!selected) {
        emit statusMessage(tr("Select a %1 to edit.").arg(catalogKindName(m_kind, 1)));
        return;
    }
    CatalogEntryDialog dialog(m_kind, *selected, true, this);
    if (dialog.exec() == QDialog::Accepted && dialog.entry() != *selected) {
        QString error;
        if (!putEntry(dialog.entry(), &error))
            Dialogs::warning(this, dialog.windowTitle(), error);
    }
}

void CatalogPanel::deleteSelected()
{
    const QString id = selectedId();
    const auto selected = catalogEntry(m_workspace, m_kind, id);
    if (!selected) {
        emit statusMessage(tr("Select a %1 to delete.").arg(catalogKindName(m_kind, 1)));
        return;
    }
    const QString text = tr("Delete %1 %2").arg(catalogKindName(m_kind, 1), id);
    m_undoStack->push(new CatalogChangeCommand(m_workspace, m_kind, {{id, selected, std::nullopt}}, text));
    emit statusMessage(text + tr(" (Ctrl+Z brings it back)"));
}

} // namespace headroom::ui
