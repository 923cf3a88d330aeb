#include "catalogpage.h"

#include "common/format.h"
#include "catalogpanel.h"
#include "catalogtablemodel.h"
#include "common/dialogs.h"
#include "store/catalog/catalogjson.h"
#include "store/common/exportfile.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace headroom::ui {

void addEditActions(QToolBar *toolbar, QWidget *page, const std::function<CatalogPanel *()> &panel)
{
    auto add = [&](const QString &text, const char *name, const QKeySequence &key, void (CatalogPanel::*slot)()) {
        QAction *a = toolbar->addAction(text, page, [panel, slot] { (panel()->*slot)(); });
        a->setObjectName(QLatin1String(name));
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        page->addAction(a);
    };
    add(QObject::tr("Add…"), "entryAdd", QKeySequence(QObject::tr("Ctrl+Shift+N")), &CatalogPanel::addWithDialog);
    add(QObject::tr("Edit…"), "entryEdit", QKeySequence(QObject::tr("Ctrl+Return")), &CatalogPanel::editSelectedWithDialog);
    add(QObject::tr("Delete"), "entryDelete", QKeySequence::Delete, &CatalogPanel::deleteSelected);
}

CatalogPage::CatalogPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
    , m_tabs(new QTabWidget(this))
    , m_status(new QLabel(this))
    , m_gpus(new CatalogPanel(workspace, CatalogKind::Gpus, undoStack, this))
    , m_models(new CatalogPanel(workspace, CatalogKind::Models, undoStack, this))
{
    setObjectName("catalogPage");
    m_gpus->view()->setObjectName("gpuTable");
    m_models->view()->setObjectName("modelTable");
    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    addEditActions(toolbar, this, [this] { return currentPanel(); });
    toolbar->addSeparator();
    QAction *import = toolbar->addAction(tr("Import JSON…"), this, &CatalogPage::importJson);
    import->setShortcut(QKeySequence(tr("Ctrl+I")));
    import->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(import);
    toolbar->addAction(tr("Export JSON…"), this, &CatalogPage::exportJson);

    m_tabs->addTab(m_gpus, tr("&GPUs"));
    m_tabs->addTab(m_models, tr("&Models"));
    m_status->setObjectName("catalogStatus");
    m_status->setWordWrap(true);
    for (CatalogPanel *p : {m_gpus, m_models})
        connect(p, &CatalogPanel::statusMessage, m_status, &QLabel::setText);

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

CatalogPanel *CatalogPage::panel(CatalogKind kind) const
{
    return kind == CatalogKind::Models ? m_models : m_gpus;
}

CatalogPanel *CatalogPage::currentPanel() const
{
    return panel(currentKind());
}

CatalogTableModel *CatalogPage::tableModel(CatalogKind kind) const
{
    return panel(kind)->model();
}

QTableView *CatalogPage::tableView(CatalogKind kind) const
{
    return panel(kind)->view();
}

void CatalogPage::showKind(CatalogKind kind)
{
    m_tabs->setCurrentWidget(panel(kind));
}

CatalogKind CatalogPage::currentKind() const
{
    return m_tabs->currentWidget() == m_models ? CatalogKind::Models : CatalogKind::Gpus;
}

void CatalogPage::addWithDialog()
{
    currentPanel()->addWithDialog();
}

void CatalogPage::editSelectedWithDialog()
{
    currentPanel()->editSelectedWithDialog();
}

void CatalogPage::deleteSelected()
{
    currentPanel()->deleteSelected();
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
    std::vector<QJsonObject> gpus, models;
    for (const auto &g : catalog.gpus)
        gpus.push_back(store::gpuToJson(g));
    for (const auto &m : catalog.models)
        models.push_back(store::modelToJson(m));
    m_undoStack->beginMacro(tr("Import %1").arg(path));
    m_gpus->putEntries(gpus, tr("Import GPUs"));
    m_models->putEntries(models, tr("Import models"));
    m_undoStack->endMacro();
    m_status->setText(tr("Imported %1 and %2 from %3.").arg(formatGpus(gpus.size()), formatCountOf(models.size(), QT_TRANSLATE_NOOP("headroom::ui", "%n model(s)")), path));
}

void CatalogPage::exportJson()
{
    const QString path = Dialogs::exportFileName(this, tr("Export catalog JSON"), tr("catalog.json"),
                                                 tr("JSON files (*.json)"), {QStringLiteral("json")});
    if (path.isEmpty())
        return;
    try {
        store::writeExportFile(path, store::catalogToJson({m_workspace.gpus(), m_workspace.models()}),
                               store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Export failed"), e.message());
        return;
    }
    m_status->setText(tr("Exported the catalog to %1.").arg(path));
}

} // namespace headroom::ui
