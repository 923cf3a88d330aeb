#include "uitestsupport.h"

#include "ui/catalog/catalogpage.h"
#include "ui/common/dialogs.h"
#include "ui/cost/costpage.h"
#include "ui/common/settings.h"
#include "ui/common/userguide.h"
#include "ui/forecast/forecastpage.h"
#include "ui/inference/kvpage.h"
#include "ui/mainwindow.h"
#include "ui/tracking/trackingpage.h"
#include "ui/training/trainingjobspage.h"
#include "ui/training/trainingpage.h"
#include "store/common/demoworkspace.h"
#include "store/common/serverurl.h"
#include "common/storetestsupport.h"

#include <QAction>
#include <QApplication>
#include <QAbstractButton>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QListWidget>
#include <QScrollBar>
#include <QRegularExpression>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextBrowser>
#include <QFontDatabase>
#include <QFontInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTreeWidget>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace headroom;

TEST_CASE("Main window: navigator lists every page, only built ones are enabled")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    QTreeWidget *nav = window.navigator();
    QStringList enabled, disabled;
    for (QTreeWidgetItemIterator it(nav); *it; ++it) {
        if (!(*it)->parent())
            continue;
        ((*it)->flags() & Qt::ItemIsEnabled ? enabled : disabled) << (*it)->text(0);
    }
    CHECK(enabled == QStringList{"Workloads", "Training jobs", "Rate cards", "Catalog", "KV & concurrency",
                                 "Inference sizing", "Serving simulation", "Training sizing", "Partitioning", "Fragmentation", "Forecast",
                                 "Cost & reservations", "Scenarios", "Plan", "Tracking", "Report"});
    CHECK(disabled.size() == 0);
    CHECK(window.currentPage() == window.kvPage());
    CHECK(window.showPage("Catalog"));
    CHECK(window.currentPage() == window.catalogPage());
    CHECK(window.showPage("Forecast"));
    CHECK(window.currentPage() == window.forecastPage());
    CHECK(window.showPage("Training sizing"));
    CHECK(window.currentPage() == window.trainingPage());
    CHECK(window.showPage("Training jobs"));
    CHECK(window.currentPage() == window.trainingJobsPage());
    CHECK_FALSE(window.showPage("No such page"));
    CHECK(window.windowTitle().contains("w.headroom"));
}

TEST_CASE("Opening a workspace that cannot be read keeps the current one and says why")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    QFile junk(dir.filePath("junk.headroom"));
    REQUIRE(junk.open(QIODevice::WriteOnly));
    junk.write(QByteArray(4096, 'x'));
    junk.close();
    ui::Dialogs::setScripted(true);
    CHECK_FALSE(window.openWorkspace(junk.fileName()));
    const QStringList shown = ui::Dialogs::takeShownMessages();
    ui::Dialogs::setScripted(false);
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("junk.headroom"));
    CHECK(window.workspace().path().endsWith("w.headroom"));

    CHECK(window.openWorkspace(dir.filePath("second.headroom")));
    CHECK(window.workspace().path().endsWith("second.headroom"));
    CHECK(window.kvPage()->outcomes().size() == 4);
}

TEST_CASE("After opening a workspace the page shown is the one the sidebar highlights")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    auto *navigator = window.findChild<QTreeWidget *>("navigator");
    REQUIRE(navigator);
    for (const char *title : {"Cost & reservations", "Catalog", "Tracking"}) {
        REQUIRE(window.showPage(title));
        REQUIRE(window.openWorkspace(dir.filePath(QStringLiteral("%1.headroom").arg(title[0]))));
        REQUIRE(navigator->currentItem());
        CHECK(navigator->currentItem()->text(0) == QString::fromUtf8(title));
        const QString name = QString::fromUtf8(title);
        const QWidget *expected = name == "Catalog"    ? static_cast<QWidget *>(window.catalogPage())
                                  : name == "Tracking" ? static_cast<QWidget *>(window.trackingPage())
                                                       : static_cast<QWidget *>(window.costPage());
        CHECK(static_cast<QWidget *>(window.currentPage()) == expected);
    }
}

TEST_CASE("The application font resolves to an installed family, so exported text is not lost")
{
    CHECK_FALSE(QFontDatabase::families().isEmpty());
    const QFontInfo info(QApplication::font());
    CHECK_FALSE(info.family().isEmpty());
    CHECK(QFontDatabase::families().contains(info.family()));
}

TEST_CASE("A workspace that cannot be written opens in the window, and the title says it is read-only")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("locked.headroom");
    { store::Workspace created(path); }
    const QByteArray folder = QFile::encodeName(dir.path());
    const QByteArray file = QFile::encodeName(path);
    REQUIRE(::chmod(file.constData(), 0444) == 0);
    REQUIRE(::chmod(folder.constData(), 0555) == 0);

    // A child that cannot write the file: "nobody" when the tests run as root.
    std::fflush(nullptr);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
            ::_exit(3);
        try {
            ui::MainWindow window(std::make_unique<store::Workspace>(path));
            ::_exit(window.windowTitle() == QStringLiteral("locked.headroom (read-only) — Headroom") ? 0 : 1);
        } catch (...) {
            ::_exit(2);
        }
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    ::chmod(folder.constData(), 0755);
    ::chmod(file.constData(), 0644);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);  // 1: wrong title, 2: the window could not open it

    ui::MainWindow window(std::make_unique<store::Workspace>(path));
    CHECK(window.windowTitle() == QStringLiteral("locked.headroom — Headroom"));
}

TEST_CASE("Open Recent lists the workspaces opened, most recent first, missing ones disabled")
{
    ui::settings::clearRecentWorkspaces();
    QTemporaryDir dir;
    const QString first = dir.filePath("first.headroom");
    ui::MainWindow window(std::make_unique<store::Workspace>(first));
    CHECK(ui::settings::recentWorkspaces() == QStringList{first});
    const QString second = dir.filePath("second.headroom");
    REQUIRE(window.openWorkspace(second));
    REQUIRE(window.openWorkspace(first));
    CHECK(ui::settings::recentWorkspaces() == (QStringList{first, second}));

    // At most ten, the oldest dropped; opening one again moves it to the front.
    for (int i = 0; i < 11; ++i)
        ui::settings::addRecentWorkspace(dir.filePath(QStringLiteral("w%1.headroom").arg(i)));
    QStringList recent = ui::settings::recentWorkspaces();
    REQUIRE(recent.size() == ui::settings::kMaxRecentWorkspaces);
    CHECK(recent.front() == dir.filePath("w10.headroom"));
    CHECK_FALSE(recent.contains(first));
    ui::settings::addRecentWorkspace(second);
    CHECK(ui::settings::recentWorkspaces().front() == second);

    // The menu: w0 … w10 were never created, so only `second` can be opened.
    window.rebuildRecentMenu();
    QStringList enabled;
    int disabled = 0;
    for (QAction *action : window.recentMenu()->actions()) {
        if (action->isSeparator() || action->text() == "&Clear Menu")
            continue;
        if (action->isEnabled())
            enabled << action->text();
        else
            ++disabled;
    }
    CHECK(enabled == QStringList{QStringLiteral("&1 %1").arg(QDir::toNativeSeparators(second))});
    CHECK(disabled == 9);
    ui::settings::clearRecentWorkspaces();
    window.rebuildRecentMenu();
    CHECK(window.recentMenu()->actions().first()->text() == "No recent workspaces");
}

TEST_CASE("The window remembers its size and navigator width, and the palette, between runs")
{
    QTemporaryDir dir;
    {
        ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
        window.resize(1280, 800);
        window.show();
        window.findChild<QSplitter *>("mainSplitter")->setSizes({260, 1000});
        window.close();
    }
    ui::MainWindow again(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    again.show();
    INFO("restored " << again.width() << " x " << again.height() << ", smallest the window can be "
                     << again.minimumSizeHint().width() << " x " << again.minimumSizeHint().height());
    CHECK(again.size() == QSize(1280, 800));
    // Restored through the splitter's own layout, which may round by a few pixels.
    CHECK(std::abs(again.findChild<QSplitter *>("mainSplitter")->sizes().first() - 260) <= 4);

    ui::settings::setTheme(ui::Theme::Dark);
    CHECK(ui::settings::theme() == ui::Theme::Dark);
    ui::settings::setTheme(ui::Theme::Light);
    CHECK(ui::settings::theme() == ui::Theme::Light);
}

TEST_CASE("File dialogs start in the folder last used")
{
    QTemporaryDir dir;
    ui::settings::rememberFolderOf(dir.filePath("deck.pdf"));
    CHECK(ui::settings::lastFolder() == dir.path());
    // A folder that has gone since falls back to the home folder.
    QTemporaryDir gone;
    const QString path = gone.path();
    ui::settings::rememberFolderOf(gone.filePath("x.csv"));
    gone.remove();
    CHECK(ui::settings::lastFolder() == QDir::homePath());
    CHECK_FALSE(path.isEmpty());
}

TEST_CASE("Help lists every shortcut, and chart actions are disabled in a menu where the page has no chart")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    const QStringList shortcuts = window.shortcutList();
    // Save As has keys on every platform (Ctrl+Shift+S where the platform defines none).
    const auto saveAs = std::find_if(shortcuts.begin(), shortcuts.end(),
                                     [](const QString &line) { return line.startsWith("File ▸ Save Workspace As\t"); });
    REQUIRE(saveAs != shortcuts.end());
    CHECK(saveAs->section('\t', 1).size() > 0);
    CHECK(shortcuts.contains("File ▸ Export Chart ▸ As PDF\tCtrl+E"));
    CHECK(shortcuts.contains("Edit ▸ Add Chart to Report\tCtrl+Shift+R"));

    auto *exportMenu = window.findChild<QMenu *>("exportChartMenu");
    REQUIRE(exportMenu);
    auto *file = qobject_cast<QMenu *>(exportMenu->parent());
    REQUIRE(file);
    REQUIRE(window.showPage("Workloads")); // a form, no chart
    emit file->aboutToShow();
    CHECK_FALSE(exportMenu->menuAction()->isEnabled());
    emit file->aboutToHide();
    CHECK(exportMenu->menuAction()->isEnabled()); // the shortcut stays live
    REQUIRE(window.showPage("KV & concurrency"));
    emit file->aboutToShow();
    CHECK(exportMenu->menuAction()->isEnabled());
    emit file->aboutToHide();
}

TEST_CASE("F1 opens the user guide at the current page's section, and every page has one")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    window.resize(1280, 800);
    window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&window));
    CHECK(window.shortcutList().contains("Help ▸ User Guide\tF1"));

    QStringList titles;
    for (QTreeWidgetItemIterator it(window.navigator()); *it; ++it)
        if ((*it)->parent())
            titles << (*it)->text(0);
    REQUIRE(titles.size() == 16);

    QStringList anchorsSeen;
    for (const QString &title : titles) {
        INFO(title.toStdString());
        REQUIRE(window.showPage(title));
        window.activateWindow();
        QTest::keyClick(&window, Qt::Key_F1);
        ui::UserGuideWindow *guide = window.userGuide();
        REQUIRE(guide);
        CHECK(guide->isVisible());
        const QString anchor = ui::UserGuideWindow::anchorForPage(title);
        CHECK(guide->currentAnchor() == anchor);
        CHECK(guide->anchors().contains(anchor));
        CHECK(guide->browser()->source().fileName() == "userguide.html");
        // The section is what the reader sees: its heading is at the top of the view.
        QApplication::processEvents();
        const QTextCursor heading = guide->browser()->document()->find(QRegularExpression("^" + QRegularExpression::escape(title) + "$"));
        REQUIRE_FALSE(heading.isNull());
        const QRect at = guide->browser()->cursorRect(heading);
        const QScrollBar *bar = guide->browser()->verticalScrollBar();
        CHECK(at.top() >= -2);
        CHECK(at.bottom() <= guide->browser()->viewport()->height());
        // At the top of the view, unless the guide's end is reached first.
        CHECK((at.top() < guide->browser()->viewport()->height() / 3 || bar->value() == bar->maximum()));
        anchorsSeen << anchor;
    }
    // One window, reused; every page's anchor is different.
    CHECK(window.findChildren<ui::UserGuideWindow *>().size() == 1);
    anchorsSeen.removeDuplicates();
    CHECK(anchorsSeen.size() == titles.size());

    ui::UserGuideWindow *guide = window.userGuide();
    // Every internal link of the guide goes to an anchor that exists, the contents list has
    // one entry per page, and every section says what it answers and gives its inputs.
    const QStringList anchors = guide->anchors();
    const QStringList links = guide->internalLinks();
    CHECK(links.size() >= titles.size());
    for (const QString &link : links) {
        INFO("link #" << link.toStdString());
        CHECK(anchors.contains(link));
    }
    CHECK(guide->contents()->count() == titles.size());
    const QString text = guide->browser()->toPlainText();
    CHECK(text.count("What it answers:") == titles.size());
    CHECK(text.count("Inputs:") == titles.size());
    // Formulas the engine computes, with the golden examples.
    CHECK(text.contains("2 × layers × ceil(kv_heads ÷ TP) × head_dim × kv_bytes"));
    CHECK(text.contains("P(demand > R) = reserved rate ÷ elastic rate"));
    CHECK(text.contains("ZeRO-1 4Ψ' + 12Ψ'/N"));

    // Back returns to the previous section, Forward goes there again.
    const QString last = guide->currentAnchor();
    guide->showSection("kv-concurrency");
    CHECK(guide->currentAnchor() == "kv-concurrency");
    guide->browser()->backward();
    CHECK(guide->currentAnchor() == last);
    guide->browser()->forward();
    CHECK(guide->currentAnchor() == "kv-concurrency");
    // An unknown section opens the guide at the top.
    guide->showSection("no-such-section");
    CHECK(guide->currentAnchor().isEmpty());
}

namespace {

// Texts of labels, buttons and check boxes on the current page narrower than they need: their
// text is cut. Word-wrapped and rich-text labels reflow, scrolled contents are not cut.
QStringList clippedTexts(QWidget *page)
{
    QStringList clipped;
    for (QWidget *w : page->findChildren<QWidget *>()) {
        if (!w->isVisibleTo(page) || w->width() <= 0)
            continue;
        QString text;
        if (auto *label = qobject_cast<QLabel *>(w)) {
            if (label->wordWrap() || label->text().isEmpty() || Qt::mightBeRichText(label->text())
                || !label->pixmap().isNull())
                continue;
            text = label->text();
        } else if (auto *button = qobject_cast<QAbstractButton *>(w)) {
            if (button->text().isEmpty())
                continue;
            text = button->text();
        } else {
            continue;
        }
        if (w->width() < w->minimumSizeHint().width())
            clipped << QStringLiteral("%1 \"%2\": %3 px of %4").arg(w->objectName(), text).arg(w->width())
                           .arg(w->minimumSizeHint().width());
    }
    return clipped;
}

} // namespace

TEST_CASE("No label, button or check box text is cut on any page at 1280×800 or 1440×900")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    for (const QSize size : {QSize(1280, 800), QSize(1440, 900)}) {
        window.resize(size);
        window.show();
        for (QTreeWidgetItemIterator it(window.navigator()); *it; ++it) {
            if (!(*it)->parent())
                continue;
            const QString title = (*it)->text(0);
            REQUIRE(window.showPage(title));
            QApplication::processEvents();
            INFO(title.toStdString() << " at " << size.width() << "×" << size.height());
            CHECK(clippedTexts(window.currentPage()).join("; ").toStdString() == "");
        }
    }
    // The check sees a cut text: a label squeezed below its text's width.
    auto *squeezed = new QLabel(QStringLiteral("a label much wider than ten pixels"), window.currentPage());
    squeezed->setObjectName("squeezed");
    squeezed->setGeometry(0, 0, 10, 20);
    squeezed->show();
    const QStringList caught = clippedTexts(window.currentPage());
    REQUIRE(caught.size() == 1);
    CHECK(caught.front().startsWith("squeezed \"a label much wider"));
    delete squeezed;
}

TEST_CASE("File > Import > vLLM Start-up Log opens the KV page and checks the log against its selected variant")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    window.showPage(QStringLiteral("Scenarios"));
    auto *action = window.findChild<QAction *>("importVllmLog");
    REQUIRE(action);
    // vllm-project/vllm pull request #10511: Meta-Llama-3-8B on one H100, V0's memory profile.
    QFile file(dir.filePath("v0.log"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("INFO worker.py:243] total_gpu_memory     79.22GiB\n"
               "INFO worker.py:243] gpu_memory_utilization       0.90\n"
               "INFO worker.py:243] model weights take   14.96GiB\n"
               "INFO worker.py:243] available_kv_cache_memory    53.29GiB\n");
    file.close();
    ui::Dialogs::setScripted(true);
    ui::Dialogs::takeShownMessages();
    ui::Dialogs::queueFileAnswer(file.fileName());
    ui::Dialogs::queueQuestionAnswer(true);
    action->trigger();
    const QStringList shown = ui::Dialogs::takeShownMessages();
    ui::Dialogs::setScripted(false);
    CHECK(window.currentPage() == window.kvPage());
    REQUIRE(shown.size() == 1);
    CHECK(shown.front().contains("vLLM kept 53.29 GiB of KV cache"));
    const engine::ServingAssumptions adopted = window.workspace().servingAssumptions();
    REQUIRE(adopted.reserveOverrides.size() == 1);
    CHECK(adopted.reserveOverrides[0].gpuId == "h100-sxm");
    CHECK(adopted.reserveOverrides[0].source == "vLLM log v0.log");
}

TEST_CASE("File > Connect to Server refuses a non-server URL and an unreachable server, keeping the workspace")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    const QString before = window.workspace().path();
    ui::Dialogs::setScripted(true);

    ui::Dialogs::queueTextAnswer(QString());  // Cancel: nothing happens, nothing is said
    CHECK_FALSE(window.connectToServerWithDialog());
    CHECK(ui::Dialogs::takeShownMessages().isEmpty());

    ui::Dialogs::queueTextAnswer(QStringLiteral("http://db.example.com/plans"));
    CHECK_FALSE(window.connectToServerWithDialog());
    QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("postgresql://user@host:port/database"));

    // Port 1 on this machine: no PostgreSQL there. No password is asked for.
    ui::Dialogs::queueTextAnswer(QStringLiteral("postgresql://planner@127.0.0.1:1/plans"));
    ui::Dialogs::queueTextAnswer(QStringLiteral("must stay queued"));
    CHECK_FALSE(window.connectToServerWithDialog());
    shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("no server is listening"));
    CHECK(ui::Dialogs::textInput(nullptr, {}, {}, {}) == "must stay queued");
    ui::Dialogs::setScripted(false);

    CHECK(window.workspace().path() == before);
    CHECK(window.windowTitle().contains("w.headroom"));
}

// Needs the private server of scripts/pgserver.sh: runs as "ui-pg: " only.
TEST_CASE("File > Connect to Server asks for the password the server wants and shows the server", "[server]")
{
    const QString serverUrl = qEnvironmentVariable("HEADROOM_TEST_SERVER");
    REQUIRE_FALSE(serverUrl.isEmpty());
    store::ServerLocation location = store::parseServerUrl(serverUrl);
    const QString database = QStringLiteral("ui_connect_%1").arg(QCoreApplication::applicationPid());
    {
        QSqlDatabase admin = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("ui-admin"));
        admin.setHostName(location.host);
        admin.setPort(location.port);
        admin.setDatabaseName(location.database);
        admin.setUserName(location.user);
        REQUIRE(admin.open());
        QSqlQuery query(admin);
        REQUIRE(query.exec(QStringLiteral("CREATE DATABASE %1 OWNER headroom_password").arg(database)));
    }
    QSqlDatabase::removeDatabase(QStringLiteral("ui-admin"));
    location.database = database;
    location.user = QStringLiteral("headroom_password");
    const QString url = location.url();

    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueTextAnswer(url);
    ui::Dialogs::queueTextAnswer(QStringLiteral("wrong-password"));
    CHECK_FALSE(window.connectToServerWithDialog());
    QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("refused the password"));
    CHECK_FALSE(window.workspace().isServer());

    ui::Dialogs::queueTextAnswer(url);
    ui::Dialogs::queueTextAnswer(QStringLiteral("right-password"));
    CHECK(window.connectToServerWithDialog());
    ui::Dialogs::setScripted(false);
    CHECK(ui::Dialogs::takeShownMessages().isEmpty());
    CHECK(window.workspace().isServer());
    CHECK(window.workspace().userName() == "headroom_password");
    CHECK(window.windowTitle().contains(url));
    CHECK_FALSE(window.windowTitle().contains("right-password"));
    CHECK(window.workspace().changeWatchMode() == "notify");
}

TEST_CASE("File > Publish to Server copies the open file to a team workspace and asks before replacing one",
          "[server]")
{
    store::test::WorkspaceLocation server;
    REQUIRE(store::isServerUrl(server.path()));
    QTemporaryDir dir;
    const QString demo = store::createDemoWorkspace(dir.filePath("demo.headroom"));
    const QStringList scenarios = store::Workspace(demo).scenarioNames();
    REQUIRE_FALSE(scenarios.isEmpty());

    ui::MainWindow window(std::make_unique<store::Workspace>(demo));
    ui::Dialogs::setScripted(true);
    // A new database: no question before the copy; then "work on the team workspace now?" — no.
    ui::Dialogs::queueQuestionAnswer(false);
    REQUIRE(window.publishToServer(server.path()));
    QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().startsWith(QStringLiteral("Published demo.headroom to %1: %2 scenarios,")
                                       .arg(server.path())
                                       .arg(scenarios.size())));
    CHECK(shown.first().endsWith("Work on the team workspace now?"));
    CHECK_FALSE(window.workspace().isServer());
    CHECK(store::Workspace(server.path()).scenarioNames() == scenarios);

    // From another file: the server already holds a workspace, so replacing it is asked first.
    ui::MainWindow other(std::make_unique<store::Workspace>(dir.filePath("empty.headroom")));
    ui::Dialogs::queueQuestionAnswer(false);
    CHECK_FALSE(other.publishToServer(server.path()));
    shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains(QStringLiteral("already holds a team workspace (%1 scenarios)").arg(scenarios.size())));
    CHECK(store::Workspace(server.path()).scenarioNames() == scenarios);
    ui::Dialogs::queueQuestionAnswer(true);   // replace
    ui::Dialogs::queueQuestionAnswer(true);   // and switch to it
    REQUIRE(other.publishToServer(server.path()));
    CHECK(ui::Dialogs::takeShownMessages().size() == 2);
    CHECK(other.workspace().isServer());
    CHECK(other.workspace().scenarioNames().isEmpty());
    CHECK(other.windowTitle().contains(server.path()));

    // A window already on the server is told to pull instead; a bad URL is refused.
    CHECK_FALSE(other.publishToServerWithDialog());
    shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("headroom pull"));
    CHECK_FALSE(window.publishToServer(QStringLiteral("http://db.example.com/plans")));
    shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("postgresql://user@host:port/database"));
    ui::Dialogs::setScripted(false);
}

TEST_CASE("File > Publish to Server refuses a damaged file before the server holds any workspace", "[server]")
{
    store::test::WorkspaceLocation server;
    QTemporaryDir dir;
    const QString demo = store::createDemoWorkspace(dir.filePath("demo.headroom"));
    // Text that is not UTF-8 (the window shows it as U+FFFD; the server could not hold it).
    store::test::RawDatabase(demo).exec(
        QStringLiteral("UPDATE gpu SET name = CAST(X'48313030FF' AS TEXT) WHERE id = 'h100-sxm'"));
    ui::MainWindow window(std::make_unique<store::Workspace>(demo));
    ui::Dialogs::setScripted(true);
    // Once the server database was given a seeded workspace on opening, before the copy.
    CHECK_FALSE(window.publishToServer(server.path()));
    const QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains(QStringLiteral("Nothing on the server was changed")));
    CHECK(shown.first().contains(QStringLiteral("not UTF-8")));
    CHECK_FALSE(store::Workspace::exists(server.path()));
    ui::Dialogs::setScripted(false);
}

TEST_CASE("A window whose workspace file was replaced says so, refuses edits and offers to reopen")
{
    QTemporaryDir dir;
    const QString path = dir.filePath("plan.headroom");
    ui::MainWindow window(std::make_unique<store::Workspace>(path));
    window.workspace().putGpu(store::test::sampleGpu("mine"));
    CHECK_FALSE(window.checkWorkspaceFile());   // nothing happened yet

    // Another program rebuilds the file, as `headroom --demo …` did to an open demo.
    for (const char *suffix : {"", "-wal", "-shm"})
        QFile::remove(path + QLatin1String(suffix));
    {
        store::Workspace other(path);
        other.putGpu(store::test::sampleGpu("theirs"));
    }
    // An edit is refused with the reason; the file now there stays as the other program left it.
    CHECK_THROWS_AS(window.workspace().putGpu(store::test::sampleGpu("lost")), store::StoreError);

    // Declined: the window keeps its view, says so in its title, and asks only once.
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueQuestionAnswer(false);
    CHECK(window.checkWorkspaceFile());
    CHECK(window.windowTitle().contains(QStringLiteral("replaced")));
    CHECK(window.workspace().gpu(QStringLiteral("mine")));
    CHECK_FALSE(window.checkWorkspaceFile());

    // Reopened (a new opening asks again when it happens again): the other program's file.
    REQUIRE(window.openWorkspace(path));
    CHECK(window.workspace().gpu(QStringLiteral("theirs")));
    CHECK_FALSE(window.workspace().gpu(QStringLiteral("lost")));
    for (const char *suffix : {"", "-wal", "-shm"})
        QFile::remove(path + QLatin1String(suffix));
    { store::Workspace again(path); }
    ui::Dialogs::queueQuestionAnswer(true);
    CHECK(window.checkWorkspaceFile());
    CHECK_FALSE(window.workspace().fileReplaced());
    window.workspace().putGpu(store::test::sampleGpu("saved"));
    CHECK(store::Workspace(path).gpu(QStringLiteral("saved")));
    ui::Dialogs::setScripted(false);
}
