// Report benchmark (DESIGN §7): a 12-page PDF deck — title, assumptions, eight vector
// charts, a table and the warnings — built from a workspace and written, offscreen.
#include "benchtiming.h"

#include "engine/fleet/scenario.h"
#include "store/common/demoworkspace.h"
#include "store/common/workspace.h"
#include "store/fleet/scenarioinputs.h"
#include "ui/fleet/scenariocharts.h"
#include "ui/common/chartpanel.h"
#include "ui/cost/costpage.h"
#include "ui/inference/kvpage.h"
#include "ui/training/trainingpage.h"
#include "ui/report/reportdeck.h"
#include "ui/report/reportsnapshot.h"

#include <QApplication>
#include <QTemporaryDir>
#include <cstdio>

using namespace headroom;

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir dir;
    store::Workspace workspace(dir.filePath("bench.headroom"));

    // Eight figures from real pages, snapshotted as the Report page stores them.
    ui::KvPage kv(workspace);
    ui::CostPage cost(workspace);
    std::vector<ui::ChartFigure> figures;
    for (ui::ChartPanel *panel : kv.chartPanels() + cost.chartPanels())
        figures.push_back(panel->figure());
    for (size_t i = 0; workspace.reportItems().size() < 8; ++i) {
        store::ReportItem item = ui::reportItemFromFigure(figures[i % figures.size()]);
        ui::stampReportItem(item, workspace);
        workspace.appendReportItem(item);
    }
    ui::DeckTable table;
    table.columns = {"Pool", "GPUs", "Utilization", "Cost / month"};
    for (int row = 0; row < 15; ++row)
        table.rows << QStringList{QString("pool-%1").arg(row), QString::number(8 * (row + 1)), "71 %", "$49,139.71"};
    store::ReportItem pools = ui::reportItemFromTable("Pools", "Fifteen pools.", table);
    ui::stampReportItem(pools, workspace);
    workspace.appendReportItem(pools);

    const ui::Deck deck = ui::workspaceDeck(workspace);
    const int pages = ui::DeckLayout(deck).pageCount();
    const QString path = dir.filePath("deck.pdf");
    QString error;
    const bench::Timing write = bench::measure(1, 5, [&] {
        if (!ui::writeDeckPdf(deck, path, &error, {}, store::ExistingFile::Replace))
            std::fprintf(stderr, "%s\n", qPrintable(error));
    });
    const bench::Timing full = bench::measure(1, 5, [&] {
        if (!ui::writeDeckPdf(ui::workspaceDeck(workspace), path, &error, {}, store::ExistingFile::Replace))
            std::fprintf(stderr, "%s\n", qPrintable(error));
    });
    const bench::Timing snapshot = bench::measure(1, 5, [&] { ui::reportItemFromFigure(figures.front()); });
    std::printf("%-58s median %8.1f ms  min %8.1f ms  (target < 3000 ms) %s\n",
                qPrintable(QString("write a %1-page deck").arg(pages)), write.medianMillis(), write.minMillis(),
                write.medianMillis() < 3000 ? "OK" : "MISSED");
    std::printf("%-58s median %8.1f ms  min %8.1f ms  (target < 3000 ms) %s\n",
                qPrintable(QString("read the workspace's report and write its %1 pages").arg(pages)),
                full.medianMillis(), full.minMillis(), full.medianMillis() < 3000 ? "OK" : "MISSED");
    std::printf("%-58s median %8.1f ms  min %8.1f ms\n", "snapshot one chart as SVG (Add to Report)",
                snapshot.medianMillis(), snapshot.minMillis());

    // One state: the demo's five scenario diagrams and a comparison chart drawn again from the
    // workspace at every deck build, against the same six items pinned (snapshots), and the
    // digest of the workspace's inputs every frozen item is checked against.
    store::Workspace demo(store::createDemoWorkspace(dir.filePath("demo.headroom")));
    const engine::ScenarioInputs inputs = store::scenarioInputs(demo);
    std::vector<engine::ScenarioResult> results;
    for (const QString &name : demo.scenarioNames())
        results.push_back(engine::evaluateScenario(*demo.scenario(name), inputs));
    const auto addLive = [&](const ui::ChartFigure &figure) {
        store::ReportItem item = ui::reportItemFromFigure(figure);
        ui::stampReportItem(item, demo);
        demo.appendReportItem(item);
    };
    for (const engine::ScenarioResult &result : results)
        addLive(ui::scenarioDiagramFigure(result));
    addLive(ui::costByTierFigure({results[0], results[1]}));
    const bench::Timing live = bench::measure(1, 5, [&] { ui::workspaceDeck(demo); });
    const std::vector<store::ReportItem> items = demo.reportItems();
    for (size_t i = 0; i < items.size(); ++i)
        demo.replaceReportItem(int(i), ui::pinnedReportItem(demo, items[i]));
    const bench::Timing pinned = bench::measure(1, 5, [&] { ui::workspaceDeck(demo); });
    const bench::Timing fingerprint = bench::measure(1, 5, [&] { demo.inputsFingerprint(); });
    std::printf("%-58s median %8.1f ms  min %8.1f ms\n", "demo deck, 6 scenario items drawn again (live)",
                live.medianMillis(), live.minMillis());
    std::printf("%-58s median %8.1f ms  min %8.1f ms  (live / pinned %.2f)\n", "demo deck, the same 6 items pinned",
                pinned.medianMillis(), pinned.minMillis(), live.medianMillis() / pinned.medianMillis());
    std::printf("%-58s median %8.1f ms  min %8.1f ms\n", "inputs fingerprint of the demo workspace",
                fingerprint.medianMillis(), fingerprint.minMillis());

    // The pages' own items: the chart and the results table of Cost & reservations (a year of
    // hourly demand priced again), Training sizing and KV & concurrency, drawn again at every
    // build against the same six pinned.
    while (demo.removeReportItem(0)) {
    }
    {
        ui::CostPage cost(demo);
        ui::TrainingPage training(demo);
        ui::KvPage kvDemo(demo);
        for (ui::Page *page : std::initializer_list<ui::Page *>{&cost, &training, &kvDemo}) {
            addLive(*page->currentFigure());
            store::ReportItem table = ui::reportItemFromTable(QStringLiteral("Results"), QString(),
                                                              *page->currentTable(), page->currentTableSource());
            ui::stampReportItem(table, demo);
            demo.appendReportItem(table);
        }
    }
    const bench::Timing pagesLive = bench::measure(1, 5, [&] { ui::workspaceDeck(demo); });
    const std::vector<store::ReportItem> pageItems = demo.reportItems();
    for (size_t i = 0; i < pageItems.size(); ++i)
        demo.replaceReportItem(int(i), ui::pinnedReportItem(demo, pageItems[i]));
    const bench::Timing pagesPinned = bench::measure(1, 5, [&] { ui::workspaceDeck(demo); });
    std::printf("%-58s median %8.1f ms  min %8.1f ms\n", "demo deck, 3 pages' charts and tables drawn again",
                pagesLive.medianMillis(), pagesLive.minMillis());
    std::printf("%-58s median %8.1f ms  min %8.1f ms  (live / pinned %.2f)\n", "demo deck, the same 6 items pinned",
                pagesPinned.medianMillis(), pagesPinned.minMillis(),
                pagesLive.medianMillis() / pagesPinned.medianMillis());
    return pages == 12 && pageItems.size() == 6 ? 0 : 1;
}
