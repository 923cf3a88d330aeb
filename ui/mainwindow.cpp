#include "mainwindow.h"
#include "ui/common/wheelguard.h"

#include "ui/catalog/catalogpage.h"
#include "ui/common/chartpanel.h"
#include "ui/cost/costpage.h"
#include "ui/common/dialogs.h"
#include "ui/common/format.h"
#include "ui/forecast/forecastpage.h"
#include "ui/fragmentation/fragmentationpage.h"
#include "ui/inference/kvpage.h"
#include "ui/partitioning/partitioningpage.h"
#include "ui/catalog/ratecardspage.h"
#include "ui/tracking/trackingpage.h"
#include "ui/report/reportpage.h"
#include "ui/fleet/planpage.h"
#include "ui/fleet/scenariospage.h"
#include "ui/inference/servingassumptionsdialog.h"
#include "ui/serving/servingsimpage.h"
#include "ui/inference/sizingpage.h"
#include "ui/training/trainingjobspage.h"
#include "ui/training/trainingpage.h"
#include "ui/inference/workloadspage.h"
#include "store/common/demoworkspace.h"
#include "store/common/storeerror.h"
#include "store/common/serverurl.h"
#include "store/common/workspace.h"
#include "ui/common/settings.h"
#include "ui/common/theme.h"
#include "ui/common/userguide.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QCoreApplication>
#include <QFileInfo>
#include <QTimer>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTreeWidget>
#include <QUndoStack>
#include <functional>

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
    {"Outputs", "Plan", "The cheapest fleet for the workloads at their SLOs, saved as a scenario"},
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
    WheelGuard::install(); // the wheel scrolls forms instead of editing their inputs
    m_splitter = new QSplitter(this);
    m_splitter->setObjectName("mainSplitter");
    m_splitter->addWidget(m_navigator);
    m_splitter->addWidget(m_stack);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({200, 1200});
    setCentralWidget(m_splitter);

    buildNavigator();
    buildPages();
    buildMenus();
    watchWorkspace();
    updateTitle();
    resize(1440, 900);
    // The size, place and navigator width the window had when it was last closed.
    restoreGeometry(settings::state(QStringLiteral("mainWindow/geometry")));
    m_splitter->restoreState(settings::state(QStringLiteral("mainWindow/splitter")));
    settings::addRecentWorkspace(m_workspace->path());
    showPage(QStringLiteral("KV & concurrency"));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    settings::setState(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings::setState(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
    QMainWindow::closeEvent(event);
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
    m_servingSimPage = new ServingSimPage(*m_workspace, m_undoStack, m_stack);
    m_trainingJobsPage = new TrainingJobsPage(*m_workspace, m_undoStack, m_stack);
    m_trainingPage = new TrainingPage(*m_workspace, m_stack);
    m_costPage = new CostPage(*m_workspace, m_stack);
    m_partitioningPage = new PartitioningPage(*m_workspace, m_stack);
    m_fragmentationPage = new FragmentationPage(m_stack);
    m_reportPage = new ReportPage(*m_workspace, m_undoStack, m_stack);
    m_forecastPage = new ForecastPage(*m_workspace, m_undoStack, m_stack);
    m_scenariosPage = new ScenariosPage(*m_workspace, m_undoStack, m_stack);
    m_planPage = new PlanPage(*m_workspace, m_undoStack, m_stack);
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
        {QStringLiteral("Plan"), m_planPage},
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
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName("recentMenu");
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    QAction *saveAs = file->addAction(tr("Save Workspace &As…"), this, &MainWindow::saveWorkspaceAs);
    // The platform's Save As keys; some platforms have none, then the common Ctrl+Shift+S.
    const QList<QKeySequence> saveAsKeys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    saveAs->setShortcuts(saveAsKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(tr("Ctrl+Shift+S"))} : saveAsKeys);
    file->addAction(tr("Connect to &Server…"), this, &MainWindow::connectToServerWithDialog);
    file->addAction(tr("&Publish to Server…"), this, &MainWindow::publishToServerWithDialog)
        ->setObjectName("publishToServer");
    file->addAction(tr("Open &Demo Workspace"), this, &MainWindow::openDemoWorkspace)
        ->setToolTip(tr("A complete example: workloads and fleet scenarios to explore (rebuilt each time)"));
    file->addSeparator();
    QMenu *importMenu = file->addMenu(tr("&Import"));
    importMenu->setObjectName("importMenu");
    importMenu->addAction(tr("vLLM Start-up &Log…"), this, [this] {
                  showPage(QStringLiteral("KV & concurrency"));
                  m_kvPage->checkVllmLog();
              })
        ->setObjectName("importVllmLog");
    file->addAction(tr("Connect &Metrics Source…"), this, [this] {
            showPage(QStringLiteral("Tracking"));
            m_trackingPage->connectMetricsSourceWithDialog();
        })
        ->setObjectName("connectMetricsSource");
    QMenu *exportMenu = file->addMenu(tr("&Export Chart"));
    exportMenu->setObjectName("exportChartMenu");
    m_chartActions << exportMenu->menuAction();
    exportMenu->addAction(tr("As &PDF…"), QKeySequence(tr("Ctrl+E")), this,
                          [this] { exportCurrentChart(QStringLiteral("pdf")); });
    exportMenu->addAction(tr("As P&NG…"), this, [this] { exportCurrentChart(QStringLiteral("png")); });
    exportMenu->addAction(tr("As &SVG…"), this, [this] { exportCurrentChart(QStringLiteral("svg")); });
    m_chartActions << file->addAction(tr("&Copy Chart"), QKeySequence(tr("Ctrl+Shift+C")), this,
                                      &MainWindow::copyCurrentChart);
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
    m_chartActions << edit->addAction(tr("Add Chart to &Report"), QKeySequence(tr("Ctrl+Shift+R")), this,
                                      &MainWindow::addCurrentChartToReport);
    // Chart actions are shown disabled in an open menu when the page has no chart; their
    // shortcuts stay live (and say so in the status bar) since pages gain charts as they run.
    for (QMenu *menu : {file, edit}) {
        connect(menu, &QMenu::aboutToShow, this, [this] { updateChartActions(true); });
        connect(menu, &QMenu::aboutToHide, this, [this] { updateChartActions(false); });
    }
    edit->addAction(tr("Add Results &Table to Report"), this, &MainWindow::addCurrentTableToReport);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto *themes = new QActionGroup(this);
    QAction *light = view->addAction(tr("&Light Palette"), this, [] {
        applyTheme(Theme::Light);
        settings::setTheme(Theme::Light);
    });
    QAction *dark = view->addAction(tr("&Dark Palette"), this, [] {
        applyTheme(Theme::Dark);
        settings::setTheme(Theme::Dark);
    });
    for (QAction *a : {light, dark}) {
        a->setCheckable(true);
        themes->addAction(a);
    }
    (currentTheme() == Theme::Dark ? dark : light)->setChecked(true);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(tr("&User Guide"), this, &MainWindow::showUserGuide);
    guide->setObjectName("helpUserGuide");
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setShortcutContext(Qt::ApplicationShortcut);
    help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts)->setObjectName("helpShortcuts");
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
            // After the pages are rebuilt the item can already be current, which emits nothing.
            m_stack->setCurrentIndex(item->data(0, kPageRole).toInt());
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

void MainWindow::addItemsToReport(const std::vector<store::ReportItem> &items, const QString &what)
{
    const int count = m_reportPage->addItems(items, what);
    statusBar()->showMessage(tr("Added %1 to the report (%2).").arg(what, ReportPage::itemCountText(count)), 5000);
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
    const int count = m_reportPage->addTable(title, QString(), *table, page->currentTableSource());
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
    adoptWorkspace(std::move(next));
    return true;
}

void MainWindow::adoptWorkspace(std::unique_ptr<store::Workspace> next)
{
    const QString current = m_navigator->currentItem() ? m_navigator->currentItem()->text(0) : QString();
    m_undoStack->clear();
    m_workspace.swap(next);
    buildPages();
    next.reset();
    watchWorkspace();
    updateTitle();
    settings::addRecentWorkspace(m_workspace->path());
    if (!showPage(current))
        showPage(QStringLiteral("KV & concurrency"));
}

bool MainWindow::connectToServerWithDialog()
{
    const QString url = Dialogs::textInput(
        this, tr("Connect to Server"),
        tr("Team workspace URL (postgresql://user@host:port/database); the password comes from ~/.pgpass "
           "or is asked for next:"),
        m_workspace->isServer() ? m_workspace->path() : QStringLiteral("postgresql://"));
    if (url.trimmed().isEmpty())
        return false;
    return connectToServer(url.trimmed());
}

bool MainWindow::connectToServer(const QString &url)
{
    std::unique_ptr<store::Workspace> next = openServer(url, tr("Connect to Server"));
    if (!next)
        return false;
    adoptWorkspace(std::move(next));
    return true;
}

std::unique_ptr<store::Workspace> MainWindow::openServer(const QString &url, const QString &title, bool copyTarget)
{
    if (!store::isServerUrl(url)) {
        Dialogs::warning(this, title,
                         tr("%1 is not a server URL: give postgresql://user@host:port/database.")
                             .arg(store::displayServerUrl(url)));
        return nullptr;
    }
    store::ServerCredentials credentials;
    std::unique_ptr<store::Workspace> next;
    // A copy's target: an empty database gets its schema in the copy's own transaction.
    const auto open = [&] {
        return copyTarget ? store::Workspace::openCopyTarget(url, credentials)
                          : std::make_unique<store::Workspace>(url, credentials);
    };
    try {
        next = open();
    } catch (const store::StoreError &first) {
        // The server wants a password libpq could not find: ask once, for this connection only.
        const bool needsPassword = first.message().contains(QLatin1String("asks for a password"))
                                   || first.message().contains(QLatin1String("refused the password"));
        if (!needsPassword) {
            Dialogs::warning(this, tr("Cannot connect to the server"), first.message());
            return nullptr;
        }
        credentials.password = Dialogs::passwordInput(
            this, title,
            tr("Password for %1 (used for this connection only, never stored):").arg(store::parseServerUrl(url).url()));
        if (credentials.password.isEmpty())
            return nullptr;
        try {
            next = open();
        } catch (const store::StoreError &second) {
            credentials.password.fill(QLatin1Char('\0'));
            Dialogs::warning(this, tr("Cannot connect to the server"), second.message());
            return nullptr;
        }
        credentials.password.fill(QLatin1Char('\0'));
    }
    return next;
}

bool MainWindow::publishToServerWithDialog()
{
    if (m_workspace->isServer()) {
        Dialogs::warning(this, tr("Publish to Server"),
                         tr("This is already the team workspace %1. To copy it to a file, run "
                            "headroom pull --server URL --workspace FILE.")
                             .arg(m_workspace->path()));
        return false;
    }
    const QString url = Dialogs::textInput(
        this, tr("Publish to Server"),
        tr("Copy this workspace, with every scenario and its history, to the team workspace at "
           "(postgresql://user@host:port/database; the database must exist):"),
        QStringLiteral("postgresql://"));
    if (url.trimmed().isEmpty())
        return false;
    return publishToServer(url.trimmed());
}

bool MainWindow::publishToServer(const QString &url)
{
    const QString title = tr("Publish to Server");
    // Damaged documents are refused before the server is touched, as push refuses them.
    try {
        m_workspace->checkDocuments();
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Not published"), tr("Nothing on the server was changed.\n\n%1").arg(e.message()));
        return false;
    }
    std::unique_ptr<store::Workspace> target = openServer(url, title, true);
    if (!target)
        return false;
    if (!target->isNew()
        && !Dialogs::question(this, title,
                              tr("%1 already holds a team workspace (%2). Replace everything in it with %3? "
                                 "Its present contents and history are lost for everyone.")
                                  .arg(target->path(), formatCountOf(int64_t(target->scenarioNames().size()),
                                                                     QT_TRANSLATE_NOOP("headroom::ui", "%n scenario(s)")),
                                       QFileInfo(m_workspace->path()).fileName())))
        return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        target->replaceContents(*m_workspace);
    } catch (const store::StoreError &e) {
        QApplication::restoreOverrideCursor();
        Dialogs::warning(this, tr("Not published"), tr("Nothing on the server was changed.\n\n%1").arg(e.message()));
        return false;
    }
    QApplication::restoreOverrideCursor();
    const QString done = tr("Published %1 to %2: %3, %4, %5.")
                             .arg(QFileInfo(m_workspace->path()).fileName(), target->path(),
                                  formatCountOf(int64_t(target->scenarioNames().size()), QT_TRANSLATE_NOOP("headroom::ui", "%n scenario(s)")),
                                  formatCountOf(int64_t(target->workloads().size()), QT_TRANSLATE_NOOP("headroom::ui", "%n workload(s)")),
                                  formatCountOf(int64_t(target->trainingJobs().size()),
                                                QT_TRANSLATE_NOOP("headroom::ui", "%n training job(s)")));
    if (Dialogs::question(this, title, done + QLatin1Char(' ') + tr("Work on the team workspace now?")))
        adoptWorkspace(std::move(target));
    else
        statusBar()->showMessage(done, 10000);
    return true;
}

bool MainWindow::openDemoWorkspace()
{
    const QString path = store::demoWorkspacePath();
    const QFileInfo current(m_workspace->path());
    const bool demoOpen = current == QFileInfo(path)
        || (current.dir() == QFileInfo(path).dir()
            && current.fileName() == QStringLiteral("demo-%1.headroom").arg(QCoreApplication::applicationPid()));
    if (demoOpen) {
        showPage(QStringLiteral("Scenarios"));
        statusBar()->showMessage(tr("The demo workspace is open; it is rebuilt when opened from another workspace."),
                                 5000);
        return true;
    }
    QString opened;
    try {
        opened = store::openDemoWorkspace(path);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Cannot open the demo workspace"), e.message());
        return false;
    }
    if (!openWorkspace(opened))
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

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = settings::recentWorkspaces();
    int number = 0;
    for (const QString &path : recent) {
        const bool server = path.contains(QLatin1String("://"));
        QString label = server ? path : QDir::toNativeSeparators(path);
        label.replace(QLatin1Char('&'), QLatin1String("&&"));
        QAction *action = m_recentMenu->addAction(
            ++number < 10 ? QStringLiteral("&%1 %2").arg(number).arg(label) : label, this,
            [this, path, server] { server ? connectToServer(path) : openWorkspace(path); });
        if (!server && !QFileInfo::exists(path)) {
            action->setEnabled(false);
            action->setToolTip(tr("%1 no longer exists").arg(path));
        }
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No recent workspaces"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction *clear = m_recentMenu->addAction(tr("&Clear Menu"), this, [] { settings::clearRecentWorkspaces(); });
    clear->setEnabled(!recent.isEmpty());
    m_recentMenu->menuAction()->setEnabled(true);
}

QStringList MainWindow::shortcutList() const
{
    QStringList lines;
    std::function<void(const QMenu *, const QString &)> walk = [&](const QMenu *menu, const QString &prefix) {
        for (QAction *action : menu->actions()) {
            const QString name = prefix + action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
            if (action->menu())
                walk(action->menu(), name + QStringLiteral(" ▸ "));
            else if (!action->shortcut().isEmpty())
                lines << QStringLiteral("%1\t%2").arg(name, action->shortcut().toString(QKeySequence::NativeText));
        }
    };
    for (QAction *top : menuBar()->actions())
        if (top->menu())
            walk(top->menu(), top->text().remove(QLatin1Char('&')) + QStringLiteral(" ▸ "));
    return lines;
}

void MainWindow::showShortcuts()
{
    QStringList rows;
    for (const QString &line : shortcutList()) {
        const QStringList parts = line.split(QLatin1Char('\t'));
        rows << QStringLiteral("<tr><td>%1</td><td>&nbsp;&nbsp;<b>%2</b></td></tr>")
                    .arg(parts.value(0).toHtmlEscaped(), parts.value(1).toHtmlEscaped());
    }
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard Shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(tr("<p>Tab and Shift+Tab move between fields; arrow keys move in the navigator and tables.</p>"
                   "<table>%1</table>")
                    .arg(rows.join(QString())));
    box.exec();
}

UserGuideWindow *MainWindow::userGuide() const
{
    return m_userGuide.data();
}

void MainWindow::showUserGuide()
{
    // F1: the guide at the current page's section; one window, reused.
    if (!m_userGuide)
        m_userGuide = new UserGuideWindow(this);
    m_userGuide->show();
    m_userGuide->raise();
    m_userGuide->activateWindow();
    const QTreeWidgetItem *item = m_navigator->currentItem();
    m_userGuide->showSection(item ? UserGuideWindow::anchorForPage(item->text(0)) : QString());
}

void MainWindow::updateChartActions(bool menuOpen)
{
    Page *page = currentPage();
    const bool hasChart = !menuOpen || (page && page->currentFigure().has_value());
    for (QAction *action : m_chartActions)
        action->setEnabled(hasChart);
}

bool MainWindow::checkWorkspaceFile()
{
    if (m_replacedAsked || !m_workspace->fileReplaced())
        return false;
    m_replacedAsked = true;
    const QString path = m_workspace->path();
    setWindowTitle(tr("%1 (replaced: edits are not saved) — Headroom").arg(QFileInfo(path).fileName()));
    statusBar()->showMessage(tr("%1 was replaced, moved or deleted by another program: edits here are not saved. "
                                "Reopen it, or File ▸ Save Workspace As… to keep this one.")
                                 .arg(path));
    if (Dialogs::question(this, tr("Workspace file replaced"),
                          tr("%1 was replaced, moved or deleted by another program since this window opened it. "
                             "Edits here can no longer be saved into it.\n\nReopen the file now there? (No keeps "
                             "this window's view; File ▸ Save Workspace As… saves it elsewhere.)")
                              .arg(path))
        && QFileInfo::exists(path))
        openWorkspace(path);
    return true;
}

void MainWindow::watchWorkspace()
{
    // A file replaced under the window (another program rebuilt or moved it) is noticed within
    // two seconds; every write refuses meanwhile.
    m_replacedAsked = false;
    if (!m_workspace->isServer()) {
        if (!m_fileWatch) {
            m_fileWatch = new QTimer(this);
            m_fileWatch->setInterval(2000);
            connect(m_fileWatch, &QTimer::timeout, this, [this] { checkWorkspaceFile(); });
        }
        m_fileWatch->start();
        return;
    }
    if (m_fileWatch)
        m_fileWatch->stop();
    // On a team server, pages follow other people's edits (NOTIFY, or polling every 1.5 s).
    // A lost connection is retried in the background; edits made meanwhile wait on their page.
    connect(m_workspace.get(), &store::Workspace::connectionLost, this, [this](const QString &reason) {
        statusBar()->showMessage(tr("Offline: %1. Unsaved edits are kept.").arg(reason));
    });
    connect(m_workspace.get(), &store::Workspace::connectionRestored, this, [this] {
        statusBar()->showMessage(tr("Connected again to %1.").arg(m_workspace->path()), 8000);
    });
    try {
        m_workspace->watchForChanges(1500);
    } catch (const store::StoreError &e) {
        statusBar()->showMessage(tr("Changes by others are not followed: %1").arg(e.message()), 8000);
    }
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
