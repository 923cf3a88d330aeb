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
                                 "Inference sizing", "Training sizing", "Partitioning", "Fragmentation", "Forecast",
                                 "Cost & reservations", "Scenarios", "Report"});
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
