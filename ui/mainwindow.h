#pragma once

#include "ui/report/reporttarget.h"

#include <QMainWindow>
#include <QPointer>
#include <memory>

class QMenu;
class QSplitter;
class QStackedWidget;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class CatalogPage;
class CostPage;
class KvPage;
class FragmentationPage;
class ServingSimPage;
class ForecastPage;
class PartitioningPage;
class PlanPage;
class RateCardsPage;
class ReportPage;
class ScenariosPage;
class SizingPage;
class TrainingJobsPage;
class TrainingPage;
class TrackingPage;
class WorkloadsPage;
class Page;
class UserGuideWindow;

// The workbench: navigator on the left (Inputs, Analyses, Outputs), the current page on the
// right, menus for workspace files, undo/redo, chart export and the palette.
class MainWindow : public QMainWindow, public ReportTarget {
    Q_OBJECT
public:
    explicit MainWindow(std::unique_ptr<store::Workspace> workspace, QWidget *parent = nullptr);
    ~MainWindow() override;

    store::Workspace &workspace() const { return *m_workspace; }
    QUndoStack *undoStack() const { return m_undoStack; }
    QTreeWidget *navigator() const { return m_navigator; }
    Page *currentPage() const;
    KvPage *kvPage() const { return m_kvPage; }
    CatalogPage *catalogPage() const { return m_catalogPage; }
    RateCardsPage *rateCardsPage() const { return m_rateCardsPage; }
    CostPage *costPage() const { return m_costPage; }
    WorkloadsPage *workloadsPage() const { return m_workloadsPage; }
    SizingPage *sizingPage() const { return m_sizingPage; }
    TrainingJobsPage *trainingJobsPage() const { return m_trainingJobsPage; }
    TrainingPage *trainingPage() const { return m_trainingPage; }
    PartitioningPage *partitioningPage() const { return m_partitioningPage; }
    FragmentationPage *fragmentationPage() const { return m_fragmentationPage; }
    ServingSimPage *servingSimPage() const { return m_servingSimPage; }
    ReportPage *reportPage() const { return m_reportPage; }
    ForecastPage *forecastPage() const { return m_forecastPage; }
    ScenariosPage *scenariosPage() const { return m_scenariosPage; }
    PlanPage *planPage() const { return m_planPage; }
    TrackingPage *trackingPage() const { return m_trackingPage; }

    // Selects a page by its navigator title; false when it is unknown or not available.
    bool showPage(const QString &title);
    // Replaces the open workspace; on failure keeps the current one and says why.
    bool openWorkspace(const QString &path);
    // File ▸ Connect to Server…: asks for a postgresql:// URL, then for a password when the
    // server wants one that ~/.pgpass does not give (used for this connection only, never
    // stored), and opens the team workspace there; on failure keeps the current one and says why.
    bool connectToServerWithDialog();
    bool connectToServer(const QString &url);
    // File ▸ Publish to Server…: copies this workspace file to a team workspace in one
    // transaction (asking before replacing one that exists), then offers to switch to it.
    bool publishToServerWithDialog();
    bool publishToServer(const QString &url);
    // Builds a fresh demo workspace and opens it on the Scenarios page (File ▸ Open Demo
    // Workspace, `headroom --demo`); on failure keeps the current one and says why.
    bool openDemoWorkspace();
    // "Add to Report": the figure, or the current page's chart (Ctrl+Shift+R) or results
    // table, snapshotted into the report with a status bar message.
    void addFigureToReport(const ChartFigure &figure) override;
    void addItemsToReport(const std::vector<store::ReportItem> &items, const QString &what) override;
    void addCurrentChartToReport();
    void addCurrentTableToReport();
    // When the workspace file was replaced, moved or deleted by another program: says so and
    // offers to reopen it (once per opening); true when it was. Checked every two seconds.
    bool checkWorkspaceFile();
    // File ▸ Open Recent: the remembered workspaces, most recent first; a missing file is
    // listed disabled. Rebuilt each time the menu opens.
    QMenu *recentMenu() const { return m_recentMenu; }
    void rebuildRecentMenu();
    // Help ▸ Keyboard Shortcuts: every menu action with a shortcut, as "Menu ▸ Action  Keys".
    QStringList shortcutList() const;
    // Help ▸ User Guide (F1): the bundled guide opened at the current page's section.
    void showUserGuide();
    UserGuideWindow *userGuide() const;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildNavigator();
    void buildPages();
    void buildMenus();
    void exportCurrentChart(const QString &format);
    void copyCurrentChart();
    void newWorkspace();
    void chooseWorkspace();
    void saveWorkspaceAs();
    // Puts `next` in place of the open workspace and rebuilds the pages.
    void adoptWorkspace(std::unique_ptr<store::Workspace> next);
    // Connects to a team workspace, asking for a password once when the server wants one;
    // nullptr (the reason shown) when it cannot.
    // copyTarget: opened to receive a copy (Workspace::openCopyTarget), creating nothing yet.
    std::unique_ptr<store::Workspace> openServer(const QString &url, const QString &title, bool copyTarget = false);
    // Makes a server workspace's change signals follow other programs' edits.
    void watchWorkspace();
    void updateTitle();
    void showShortcuts();
    void updateChartActions(bool menuOpen);

    std::unique_ptr<store::Workspace> m_workspace;
    QUndoStack *m_undoStack;
    QTreeWidget *m_navigator;
    QStackedWidget *m_stack;
    QSplitter *m_splitter = nullptr;
    QMenu *m_recentMenu = nullptr;
    QTimer *m_fileWatch = nullptr;      // checks the workspace file is still the one opened
    bool m_replacedAsked = false;       // the replaced file was reported for this opening
    QPointer<UserGuideWindow> m_userGuide;
    QList<QAction *> m_chartActions;    // need a chart on the current page
    KvPage *m_kvPage = nullptr;
    CatalogPage *m_catalogPage = nullptr;
    RateCardsPage *m_rateCardsPage = nullptr;
    CostPage *m_costPage = nullptr;
    WorkloadsPage *m_workloadsPage = nullptr;
    SizingPage *m_sizingPage = nullptr;
    TrainingJobsPage *m_trainingJobsPage = nullptr;
    TrainingPage *m_trainingPage = nullptr;
    PartitioningPage *m_partitioningPage = nullptr;
    FragmentationPage *m_fragmentationPage = nullptr;
    ServingSimPage *m_servingSimPage = nullptr;
    ReportPage *m_reportPage = nullptr;
    ForecastPage *m_forecastPage = nullptr;
    ScenariosPage *m_scenariosPage = nullptr;
    PlanPage *m_planPage = nullptr;
    TrackingPage *m_trackingPage = nullptr;
};

} // namespace headroom::ui
