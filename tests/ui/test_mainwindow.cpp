#include "uitestsupport.h"

#include "ui/catalog/catalogpage.h"
#include "ui/common/dialogs.h"
#include "ui/cost/forecastpage.h"
#include "ui/inference/kvpage.h"
#include "ui/mainwindow.h"
#include "ui/training/trainingjobspage.h"
#include "ui/training/trainingpage.h"

#include <QApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QTreeWidget>
#include <cstdio>
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
                                 "Cost & reservations", "Scenarios", "Tracking", "Report"});
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
