#include "mainwindow.h"

#include "catalog/catalogpage.h"
#include "common/chartpanel.h"
#include "cost/costpage.h"
#include "common/dialogs.h"
#include "cost/forecastpage.h"
#include "fleet/fragmentationpage.h"
#include "inference/kvpage.h"
#include "fleet/partitioningpage.h"
#include "catalog/ratecardspage.h"
#include "outputs/trackingpage.h"
#include "report/reportpage.h"
#include "fleet/scenariospage.h"
#include "inference/servingassumptionsdialog.h"
#include "inference/servingsimpage.h"
#include "inference/sizingpage.h"
#include "training/trainingjobspage.h"
#include "training/trainingpage.h"
#include "inference/workloadspage.h"
#include "store/demoworkspace.h"
#include "store/storeerror.h"
#include "store/workspace.h"
#include "common/theme.h"

#include <QActionGroup>
#include <QApplication>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTreeWidget>
#include <QUndoStack>

namespace headroom::ui {

namespace {

constexpr int kPageRole = Qt::UserRole + 1;

struct NavEntry {
    const char *group;
    const char *title;
    const char *tip;
};

// The navigator of DESIGN §5. Entries without a page yet are listed, disabled.
const NavEntry kNavigator[] = {
    {"Inputs", "Workloads", "Workload profiles: users, tokens, cache hit rate, SLOs"},
    {"Inputs", "Training jobs", "Training runs: model size, tokens, target window"},
    {"Inputs", "Rate cards", "Provider prices: on-demand, committed and spot rates"},
    {"Inputs", "Catalog", "GPU and model catalogs of this workspace"},
    {"Analyses", "KV & concurrency", "Concurrent streams per GPU versus context length"},
    {"Analyses", "Inference sizing", "Replicas and GPUs for a workload at its SLOs"},
    {"Analyses", "Serving simulation", "A request trace replayed on a fleet: prefix cache, routing, TTFT"},
    {"Analyses", "Training sizing", "GPUs for a target window, memory per GPU"},
    {"Analyses", "Partitioning", "MIG layouts, packing tenants, time-slicing"},
    {"Analyses", "Fragmentation", "Scheduler policies on a real cluster trace"},
    {"Analyses", "Forecast", "Demand forecasting with backtests"},
    {"Analyses", "Cost & reservations", "Reserved versus elastic cost"},
    {"Outputs", "Scenarios", "Fleet scenarios compared side by side"},
    {"Outputs", "Tracking", "Plan versus actual from billing: commitment use, anomalies, drift"},
    {"Outputs", "Report", "Multi-page PDF deck"},
};

} // namespace

MainWindow::MainWindow(std::unique_ptr<store::Workspace> workspace, QWidget *parent)
    : QMainWindow(parent)
    , m_workspace(std::move(workspace))
    , m_undoStack(new QUndoStack(this))
    , m_navigator(new QTreeWidget(this))
    , m_stack(new QStackedWidget(this))
{
    setObjectName("mainWindow");
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_navigator);
    splitter->addWidget(m_stack);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({200, 1200});
    setCentralWidget(splitter);

    buildNavigator();
    buildPages();
    buildMenus();
    updateTitle();
    resize(1440, 900);
    showPage(QStringLiteral("KV & concurrency"));
}

MainWindow::~MainWindow()
{
    // Pages hold references into the workspace: destroy them first.
    m_undoStack->clear();
    delete m_stack;
}

void MainWindow::buildNavigator()
{
    m_navigator->setObjectName("navigator");
    m_navigator->setHeaderHidden(true);
    m_navigator->setRootIsDecorated(false);
    m_navigator->setMinimumWidth(180);
    QTreeWidgetItem *group = nullptr;
    QString groupName;
    for (const NavEntry &entry : kNavigator) {
        if (groupName != QLatin1String(entry.group)) {
            groupName = QLatin1String(entry.group);
            group = new QTreeWidgetItem(m_navigator, {tr(entry.group)});
            group->setFlags(Qt::ItemIsEnabled);
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setExpanded(true);
        }
        auto *item = new QTreeWidgetItem(group, {tr(entry.title)});
        item->setToolTip(0, tr(entry.tip));
        item->setData(0, kPageRole, -1);
        item->setFlags(Qt::NoItemFlags);
    }
    m_navigator->expandAll();
    connect(m_navigator, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item && item->data(0, kPageRole).toInt() >= 0)
            m_stack->setCurrentIndex(item->data(0, kPageRole).toInt());
    });
}

void MainWindow::buildPages()
{
    while (m_stack->count() > 0) {
        QWidget *old = m_stack->widget(0);
        m_stack->removeWidget(old);
        delete old;
    }
    m_catalogPage = new CatalogPage(*m_workspace, m_undoStack, m_stack);
    m_rateCardsPage = new RateCardsPage(*m_workspace, m_undoStack, m_stack);
    m_workloadsPage = new WorkloadsPage(*m_workspace, m_undoStack, m_stack);
    m_kvPage = new KvPage(*m_workspace, m_undoStack, m_stack);
    m_sizingPage = new SizingPage(*m_workspace, m_undoStack, m_stack);
    m_servingSimPage = new ServingSimPage(*m_workspace, m_stack);
    m_trainingJobsPage = new TrainingJobsPage(*m_workspace, m_undoStack, m_stack);
    m_trainingPage = new TrainingPage(*m_workspace, m_stack);
    m_costPage = new CostPage(*m_workspace, m_stack);
    m_partitioningPage = new PartitioningPage(*m_workspace, m_stack);
    m_fragmentationPage = new FragmentationPage(m_stack);
    m_reportPage = new ReportPage(*m_workspace, m_undoStack, m_stack);
    m_forecastPage = new ForecastPage(*m_workspace, m_undoStack, m_stack);
    m_scenariosPage = new ScenariosPage(*m_workspace, m_undoStack, m_stack);
    m_trackingPage = new TrackingPage(*m_workspace, m_stack);
    const std::pair<QString, Page *> pages[] = {
        {QStringLiteral("Workloads"), m_workloadsPage},
        {QStringLiteral("Training jobs"), m_trainingJobsPage},
        {QStringLiteral("Catalog"), m_catalogPage},
        {QStringLiteral("Rate cards"), m_rateCardsPage},
        {QStringLiteral("KV & concurrency"), m_kvPage},
        {QStringLiteral("Inference sizing"), m_sizingPage},
        {QStringLiteral("Serving simulation"), m_servingSimPage},
        {QStringLiteral("Training sizing"), m_trainingPage},
        {QStringLiteral("Partitioning"), m_partitioningPage},
        {QStringLiteral("Fragmentation"), m_fragmentationPage},
        {QStringLiteral("Forecast"), m_forecastPage},
        {QStringLiteral("Cost & reservations"), m_costPage},
        {QStringLiteral("Scenarios"), m_scenariosPage},
        {QStringLiteral("Tracking"), m_trackingPage},
        {QStringLiteral("Report"), m_reportPage},
    };
    for (const auto &[title, page] : pages) {
        const int index = m_stack->addWidget(page);
        const auto found = m_navigator->findItems(title, Qt::MatchExactly | Qt::MatchRecursive);
        for (QTreeWidgetItem *item : found) {
            item->setData(0, kPageRole, index);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        }
    }
    for (QTreeWidgetItemIterator it(m_navigator); *it; ++it) {
        QTreeWidgetItem *item = *it;
        if (item->parent() && item->data(0, kPageRole).toInt() < 0)
            item->setToolTip(0, item->toolTip(0) + tr(" — not available in this version"));
    }
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Workspace…"), QKeySequence::New, this, &MainWindow::newWorkspace);
    file->addAction(tr("&Open Workspace…"), QKeySequence::Open, this, &MainWindow::chooseWorkspace);
    file->addAction(tr("Save Workspace &As…"), QKeySequence::SaveAs, this, &MainWindow::saveWorkspaceAs);
    file->addAction(tr("Open &Demo Workspace"), this, &MainWindow::openDemoWorkspace)
        ->setToolTip(tr("A complete example: workloads and fleet scenarios to explore (rebuilt each time)"));
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export Chart"));
    exportMenu->addAction(tr("As &PDF…"), QKeySequence(tr("Ctrl+E")), this,
                          [this] { exportCurrentChart(QStringLiteral("pdf")); });
    exportMenu->addAction(tr("As P&NG…"), this, [this] { exportCurrentChart(QStringLiteral("png")); });
    exportMenu->addAction(tr("As &SVG…"), this, [this] { exportCurrentChart(QStringLiteral("svg")); });
    file->addAction(tr("&Copy Chart"), QKeySequence(tr("Ctrl+Shift+C")), this, &MainWindow::copyCurrentChart);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_undoStack->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_undoStack->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction *serving = edit->addAction(tr("&Serving Assumptions…"), this, [this] {
        ServingAssumptionsDialog::edit(*m_workspace, m_undoStack, this);
    });
    serving->setObjectName("editServingAssumptions");
    edit->addSeparator();
    edit->addAction(tr("Add Chart to &Report"), QKeySequence(tr("Ctrl+Shift+R")), this,
                    &MainWindow::addCurrentChartToReport);
    edit->addAction(tr("Add Results &Table to Report"), this, &MainWindow::addCurrentTableToReport);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto *themes = new QActionGroup(this);
    QAction *light = view->addAction(tr("&Light Palette"), this, [] { applyTheme(Theme::Light); });
    QAction *dark = view->addAction(tr("&Dark Palette"), this, [] { applyTheme(Theme::Dark); });
    for (QAction *a : {light, dark}) {
        a->setCheckable(true);
        themes->addAction(a);
    }
    (currentTheme() == Theme::Dark ? dark : light)->setChecked(true);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Headroom"), this, [this] {
        QMessageBox::about(this, tr("About Headroom"),
                           tr("<b>Headroom %1</b><p>GPU capacity planning for AI inference and "
                              "training: KV-cache concurrency, sizing, partitioning and cost, "
                              "explained.</p><p>Workspace: %2</p>")
                               .arg(QApplication::applicationVersion(), m_workspace->path()));
    });
}

Page *MainWindow::currentPage() const
{
    return qobject_cast<Page *>(m_stack->currentWidget());
}

bool MainWindow::showPage(const QString &title)
{
    const auto found = m_navigator->findItems(title, Qt::MatchExactly | Qt::MatchRecursive);
    for (QTreeWidgetItem *item : found) {
        if (item->data(0, kPageRole).toInt() >= 0) {
            m_navigator->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

void MainWindow::exportCurrentChart(const QString &format)
{
    Page *page = currentPage();
    const auto figure = page ? page->currentFigure() : std::nullopt;
    if (!figure) {
        statusBar()->showMessage(tr("This page has no chart to export."), 4000);
        return;
    }
    exportFigureWithDialog(this, *figure, format);
}

void MainWindow::copyCurrentChart()
{
    Page *page = currentPage();
    const auto figure = page ? page->currentFigure() : std::nullopt;
    if (!figure) {
        statusBar()->showMessage(tr("This page has no chart to copy."), 4000);
        return;
    }
    copyFigure(*figure);
    statusBar()->showMessage(tr("Chart copied to the clipboard."), 3000);
}

void MainWindow::addFigureToReport(const ChartFigure &figure)
{
    const int count = m_reportPage->addFigure(figure);
    statusBar()->showMessage(tr("Added “%1” to the report (%2).").arg(figure.title, ReportPage::itemCountText(count)),
                             5000);
}

void MainWindow::addCurrentChartToReport()
{
    Page *page = currentPage();
    const auto figure = page ? page->currentFigure() : std::nullopt;
    if (!figure) {
        statusBar()->showMessage(tr("This page has no chart to add to the report."), 4000);
        return;
    }
    addFigureToReport(*figure);
}

void MainWindow::addCurrentTableToReport()
{
    Page *page = currentPage();
    const auto table = page ? page->currentTable() : std::nullopt;
    if (!table) {
        statusBar()->showMessage(tr("This page has no results table to add to the report."), 4000);
        return;
    }
    const QString pageName = m_navigator->currentItem() ? m_navigator->currentItem()->text(0) : tr("Results");
    const QString title = tr("%1: results").arg(pageName);
    const int count = m_reportPage->addTable(title, QString(), *table);
    statusBar()->showMessage(tr("Added “%1” to the report (%2).").arg(title, ReportPage::itemCountText(count)), 5000);
}

bool MainWindow::openWorkspace(const QString &path)
{
    std::unique_ptr<store::Workspace> next;
    try {
        next = std::make_unique<store::Workspace>(path);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Cannot open workspace"), e.message());
        return false;
    }
    const QString current = m_navigator->currentItem() ? m_navigator->currentItem()->text(0) : QString();
    m_undoStack->clear();
    m_workspace.swap(next);
    buildPages();
    next.reset();
    updateTitle();
    if (!showPage(current))
        showPage(QStringLiteral("KV & concurrency"));
    return true;
}

bool MainWindow::openDemoWorkspace()
{
    const QString path = store::demoWorkspacePath();
    if (QFileInfo(m_workspace->path()) == QFileInfo(path)) {
        showPage(QStringLiteral("Scenarios"));
        statusBar()->showMessage(tr("The demo workspace is open; it is rebuilt when opened from another workspace."),
                                 5000);
        return true;
    }
    try {
        store::createDemoWorkspace(path);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Cannot open the demo workspace"), e.message());
        return false;
    }
    if (!openWorkspace(path))
        return false;
    showPage(QStringLiteral("Scenarios"));
    return true;
}

void MainWindow::newWorkspace()
{
    const QString path = Dialogs::saveFileName(this, tr("New workspace"), QString(),
                                               tr("Headroom workspace (*.headroom)"));
    if (path.isEmpty())
        return;
    if (QFileInfo::exists(path)) {
        Dialogs::warning(this, tr("New workspace"),
                         tr("%1 already exists. Choose a new file name, or open it with File ▸ Open.").arg(path));
        return;
    }
    openWorkspace(path);
}

void MainWindow::chooseWorkspace()
{
    const QString path = Dialogs::openFileName(this, tr("Open workspace"),
                                               tr("Headroom workspace (*.headroom);;All files (*)"));
    if (!path.isEmpty())
        openWorkspace(path);
}

void MainWindow::saveWorkspaceAs()
{
    QString path = Dialogs::saveFileName(this, tr("Save workspace as"), m_workspace->path(),
                                         tr("Headroom workspace (*.headroom)"));
    if (path.isEmpty())
        return;
    try {
        m_workspace->saveCopyAs(path);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Save workspace as"), e.message());
        return;
    }
    openWorkspace(path);
}

void MainWindow::updateTitle()
{
    // A workspace that cannot be written is read only: say so before an edit fails.
    const bool readOnly = m_workspace->isReadOnly();
    setWindowTitle((readOnly ? tr("%1 (read-only) — Headroom") : tr("%1 — Headroom"))
                       .arg(m_workspace->isServer() ? m_workspace->path()
                                                    : QFileInfo(m_workspace->path()).fileName()));
    statusBar()->showMessage(readOnly ? tr("Workspace: %1 (read-only: edits cannot be saved)")
                                            .arg(m_workspace->path())
                                      : tr("Workspace: %1").arg(m_workspace->path()));
}

} // namespace headroom::ui
