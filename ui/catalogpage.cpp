#include "catalogpage.h"

#include "catalogcommand.h"
#include "catalogentrydialog.h"
#include "catalogtablemodel.h"
#include "dialogs.h"
#include "store/catalogjson.h"
#include "store/storeerror.h"
#include "store/workspace.h"

#include <QAction>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace headroom::ui {

CatalogPage::CatalogPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
    , m_tabs(new QTabWidget(this))
    , m_status(new QLabel(this))
{
    setObjectName("catalogPage");
    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto makeAction = [&](const QString &text, const QString &name, const QKeySequence &key,
                         void (CatalogPage::*slot)()) {
        QAction *a = toolbar->addAction(text, this, slot);
        a->setObjectName(name);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
        return a;
    };
    makeAction(tr("Add…"), "catalogAdd", QKeySequence(tr("Ctrl+Shift+N")), &CatalogPage::addWithDialog);
    makeAction(tr("Edit…"), "catalogEdit", QKeySequence(tr("Ctrl+Return")), &CatalogPage::editSelectedWithDialog);
    makeAction(tr("Delete"), "catalogDelete", QKeySequence::Delete, &CatalogPage::deleteSelected);
    toolbar->addSeparator();
    makeAction(tr("Import JSON…"), "catalogImport", QKeySequence(tr("Ctrl+I")), &CatalogPage::importJson);
    makeAction(tr("Export JSON…"), "catalogExport", QKeySequence(), &CatalogPage::exportJson);

    m_tabs->addTab(buildTab(CatalogKind::Gpus), tr("&GPUs"));
    m_tabs->addTab(buildTab(CatalogKind::Models), tr("&Models"));
    m_status->setObjectName("catalogStatus");
    m_status->setWordWrap(true);

    auto *hint = new QLabel(tr("Double-click a cell to edit it; every change is saved at once and "
                               "can be undone (Ctrl+Z)."), this);
    hint->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(toolbar);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);
    layout->addWidget(hint);
}

QWidget *CatalogPage::buildTab(CatalogKind kind)
{
    Tab &t = kind == CatalogKind::Gpus ? m_gpuTab : m_modelTab;
    auto *widget = new QWidget(m_tabs);
    t.model = new CatalogTableModel(m_workspace, kind, m_undoStack, this);
    t.proxy = new QSortFilterProxyModel(this);
    t.proxy->setSourceModel(t.model);
    t.proxy->setSortRole(CatalogTableModel::kSortRole);
    t.proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    t.proxy->setFilterKeyColumn(-1);
    t.view = new QTableView(widget);
    t.view->setObjectName(kind == CatalogKind::Gpus ? "gpuTable" : "modelTable");
    t.view->setModel(t.proxy);
    t.view->setSortingEnabled(true);
    t.view->sortByColumn(0, Qt::AscendingOrder);
    t.view->setSelectionBehavior(QAbstractItemView::SelectRows);
    t.view->setSelectionMode(QAbstractItemView::SingleSelection);
    t.view->setAlternatingRowColors(true);
    t.view->verticalHeader()->hide();
    t.view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    t.view->horizontalHeader()->setStretchLastSection(true);
    t.view->resizeColumnsToContents();
    connect(t.model, &QAbstractItemModel::modelReset, t.view, [view = t.view] {
        view->resizeColumnsToContents();
    });
    connect(t.model, &CatalogTableModel::editRejected, this, [this](const QString &message) {
        m_status->setText(tr("<span style='color:#c0392b'>Not changed: %1</span>").arg(message.toHtmlEscaped()));
    });
    auto *filter = new QLineEdit(widget);
    filter->setObjectName(kind == CatalogKind::Gpus ? "gpuFilter" : "modelFilter");
    filter->setPlaceholderText(tr("Filter %1…").arg(catalogKindName(kind, 2)));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, t.proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto *layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(filter);
    layout->addWidget(t.view);
    return widget;
}

const CatalogPage::Tab &CatalogPage::tab(CatalogKind kind) const
{
    return kind == CatalogKind::Gpus ? m_gpuTab : m_modelTab;
}

CatalogTableModel *CatalogPage::tableModel(CatalogKind kind) const
{
    return tab(kind).model;
}

QTableView *CatalogPage::tableView(CatalogKind kind) const
{
    return tab(kind).view;
}

void CatalogPage::showKind(CatalogKind kind)
{
    m_tabs->setCurrentIndex(kind == CatalogKind::Gpus ? 0 : 1);
}

CatalogKind CatalogPage::currentKind() const
{
    return m_tabs->currentIndex() == 0 ? CatalogKind::Gpus : CatalogKind::Models;
}

QString CatalogPage::selectedId() const
{
    const Tab &t = tab(currentKind());
    const QModelIndex index = t.view->currentIndex();
    return index.isValid() ? index.data(CatalogTableModel::kIdRole).toString() : QString();
}

bool CatalogPage::putEntry(CatalogKind kind, const QJsonObject &entry, QString *error)
{
    try {
        validateCatalogEntry(kind, entry);
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    const QString id = entry.value(QStringLiteral("id")).toString();
    const auto before = catalogEntry(m_workspace, kind, id);
    const QString text = before ? tr("Edit %1 %2").arg(catalogKindName(kind, 1), id)
                                : tr("Add %1 %2").arg(catalogKindName(kind, 1), id);
    try {
        m_undoStack->push(new CatalogChangeCommand(m_workspace, kind, {{id, before, entry}}, text));
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    m_status->setText(text);
    return true;
}

void CatalogPage::addWithDialog()
{
    const CatalogKind kind = currentKind();
    QJsonObject initial;
    if (auto selected = catalogEntry(m_workspace, kind, selectedId())) {
        initial = *selected;
        initial.insert(QStringLiteral("id"), QString());
        initial.insert(QStringLiteral("name"), QString());
    }
    CatalogEntryDialog dialog(kind, initial, false, this);
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        if (catalogEntry(m_workspace, kind, dialog.entry().value(QStringLiteral("id")).toString())) {
            Dialogs::warning(this, dialog.windowTitle(),
                             tr("A %1 with id \"%2\" exists already; choose another id or edit it.")
                                 .arg(catalogKindName(kind, 1), dialog.entry().value(QStringLiteral("id")).toString()));
            continue;
        }
        if (putEntry(kind, dialog.entry(), &error))
            return;
        Dialogs::warning(this, dialog.windowTitle(), error);
    }
}

void CatalogPage::editSelectedWithDialog()
{
    const CatalogKind kind = currentKind();
    const auto selected = catalogEntry(m_workspace, kind, selectedId());
    if (!selected) {
        m_status->setText(tr("Select a %1 to edit.").arg(catalogKindName(kind, 1)));
        return;
    }
    CatalogEntryDialog dialog(kind, *selected, true, this);
    if (dialog.exec() == QDialog::Accepted && dialog.entry() != *selected) {
        QString error;
        if (!putEntry(kind, dialog.entry(), &error))
            Dialogs::warning(this, dialog.windowTitle(), error);
    }
}

void CatalogPage::deleteSelected()
{
    const CatalogKind kind = currentKind();
    const QString id = selectedId();
    const auto selected = catalogEntry(m_workspace, kind, id);
    if (!selected) {
        m_status->setText(tr("Select a %1 to delete.").arg(catalogKindName(kind, 1)));
        return;
    }
    const QString text = tr("Delete %1 %2").arg(catalogKindName(kind, 1), id);
    m_undoStack->push(new CatalogChangeCommand(m_workspace, kind, {{id, selected, std::nullopt}}, text));
    m_status->setText(text + tr(" (Ctrl+Z brings it back)"));
}

void CatalogPage::importJson()
{
    const QString path = Dialogs::openFileName(this, tr("Import catalog JSON"), tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    store::Catalog catalog;
    try {
        catalog = store::readCatalogFile(path);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Import failed"), tr("Nothing was imported.\n\n%1").arg(e.message()));
        return;
    }
    m_undoStack->beginMacro(tr("Import %1").arg(path));
    auto push = [&](CatalogKind kind, const std::vector<QJsonObject> &entries) {
        if (entries.empty())
            return;
        std::vector<CatalogChangeCommand::Change> changes;
        for (const QJsonObject &e : entries) {
            const QString id = e.value(QStringLiteral("id")).toString();
            changes.push_back({id, catalogEntry(m_workspace, kind, id), e});
        }
        m_undoStack->push(new CatalogChangeCommand(m_workspace, kind, std::move(changes),
                                                   tr("Import %1").arg(catalogKindName(kind, 2))));
    };
    std::vector<QJsonObject> gpus, models;
    for (const auto &g : catalog.gpus)
        gpus.push_back(store::gpuToJson(g));
    for (const auto &m : catalog.models)
        models.push_back(store::modelToJson(m));
    push(CatalogKind::Gpus, gpus);
    push(CatalogKind::Models, models);
    m_undoStack->endMacro();
    m_status->setText(tr("Imported %1 GPUs and %2 models from %3.").arg(gpus.size()).arg(models.size()).arg(path));
}

void CatalogPage::exportJson()
{
    const QString path = Dialogs::saveFileName(this, tr("Export catalog JSON"), tr("catalog.json"),
                                               tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        Dialogs::warning(this, tr("Export failed"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    file.write(store::catalogToJson({m_workspace.gpus(), m_workspace.models()}));
    m_status->setText(tr("Exported the catalog to %1.").arg(path));
}

} // namespace headroom::ui
