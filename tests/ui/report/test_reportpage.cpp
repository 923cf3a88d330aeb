#include "common/uitestsupport.h"

#include "engine/catalog/ratecard.h"
#include "engine/inference/workload.h"
#include "ui/common/chartpanel.h"
#include "store/common/demoworkspace.h"
#include "ui/common/dialogs.h"
#include "ui/inference/kvpage.h"
#include "ui/fleet/scenariospage.h"
#include "ui/mainwindow.h"
#include "ui/report/reportdeck.h"
#include "ui/report/reportpage.h"
#include "ui/report/reportsnapshot.h"

#include <QAction>
#include <functional>
#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QImage>
#include <QPainter>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QChart>
#include <QUndoStack>

using namespace headroom;

namespace {

QString runTool(const QString &tool, const QStringList &args)
{
    REQUIRE_FALSE(QStandardPaths::findExecutable(tool).isEmpty());
    QProcess p;
    p.start(tool, args);
    REQUIRE(p.waitForFinished(20000));
    REQUIRE(p.exitCode() == 0);
    return QString::fromUtf8(p.readAllStandardOutput());
}

int pdfPages(const QString &path)
{
    const QString info = runTool("pdfinfo", {path});
    const QRegularExpressionMatch match = QRegularExpression("Pages:\\s+(\\d+)").match(info);
    REQUIRE(match.hasMatch());
    return match.captured(1).toInt();
}

QString pdfText(const QString &path)
{
    return runTool("pdftotext", {"-layout", path, "-"});
}

// `pdffonts` rows after its two header lines; the "emb" column is the third from the right.
QStringList pdfFontRows(const QString &path)
{
    QStringList rows = runTool("pdffonts", {path}).split('\n', Qt::SkipEmptyParts);
    REQUIRE(rows.size() > 2);
    return rows.mid(2);
}

store::ReportItem textItem(const QString &title)
{
    store::ReportItem item;
    item.kind = store::ReportItem::Kind::Text;
    item.title = title;
    item.content = "About " + title;
    return item;
}

QStringList titles(const store::Workspace &workspace)
{
    QStringList result;
    for (const auto &item : workspace.reportItems())
        result << item.title;
    return result;
}

QAction *actionWithShortcut(QWidget &window, const QKeySequence &keys)
{
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcut() == keys)
            return action;
    }
    return nullptr;
}

bool waitForExport(QSignalSpy &finished)
{
    return QTest::qWaitFor([&] { return finished.count() > 0; }, 30000);
}

} // namespace

TEST_CASE("Add to Report from a chart panel stores a vector snapshot, says so and undoes", "[report]")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    REQUIRE(window.showPage("KV & concurrency"));
    ui::ChartPanel *panel = window.kvPage()->chartPanels().first();
    REQUIRE(panel->addToReport());

    auto items = window.workspace().reportItems();
    REQUIRE(items.size() == 1);
    CHECK(items[0].kind == store::ReportItem::Kind::Figure);
    CHECK(items[0].title == panel->figure().title);
    CHECK(items[0].caption == panel->figure().caption);
    CHECK(items[0].content.contains("<svg"));
    CHECK(items[0].content.contains("Context length"));  // axis titles stay text in the SVG
    CHECK(window.statusBar()->currentMessage().contains("to the report (1 item)"));
    CHECK(window.reportPage()->itemList()->count() == 1);

    window.undoStack()->undo();
    CHECK(window.workspace().reportItems().empty());
    CHECK(window.reportPage()->itemList()->count() == 0);
    window.undoStack()->redo();
    CHECK(window.workspace().reportItems().size() == 1);

    // Ctrl+Shift+R adds the current page's figure, custom-painted views too.
    QAction *add = actionWithShortcut(window, QKeySequence("Ctrl+Shift+R"));
    REQUIRE(add);
    REQUIRE(window.showPage("Partitioning"));
    add->trigger();
    items = window.workspace().reportItems();
    REQUIRE(items.size() == 2);
    CHECK(items[1].kind == store::ReportItem::Kind::Figure);
    CHECK(items[1].content.contains("<svg"));
    CHECK(window.statusBar()->currentMessage().contains("(2 items)"));

    // A page's results table, as shown.
    REQUIRE(window.showPage("KV & concurrency"));
    const auto table = window.kvPage()->currentTable();
    REQUIRE(table.has_value());
    window.addCurrentTableToReport();
    items = window.workspace().reportItems();
    REQUIRE(items.size() == 3);
    CHECK(items[2].kind == store::ReportItem::Kind::Table);
    CHECK(items[2].title == "KV & concurrency: results");
    CHECK(items[2].content.contains(table->columns.first()));

    // The Report page has nothing to add and says so instead of failing.
    REQUIRE(window.showPage("Report"));
    add->trigger();
    CHECK(window.workspace().reportItems().size() == 3);
    CHECK(window.statusBar()->currentMessage().contains("no chart"));
}

TEST_CASE("Report items reorder with the buttons and Alt+arrows, Delete removes, all undoable", "[report]")
{
    TempWorkspace ws;
    for (const char *title : {"Alpha", "Bravo", "Charlie"})
        (*ws).appendReportItem(textItem(title));
    QUndoStack stack;
    ui::ReportPage page(*ws, &stack);
    page.resize(1200, 800);
    page.show();
    REQUIRE(QTest::qWaitForWindowExposed(&page));
    QListWidget *list = page.itemList();
    REQUIRE(list->count() == 3);

    list->setCurrentRow(0);
    QTest::mouseClick(page.findChild<QPushButton *>("reportDown"), Qt::LeftButton);
    CHECK(titles(*ws) == QStringList{"Bravo", "Alpha", "Charlie"});
    CHECK(list->currentRow() == 1);

    QApplication::setActiveWindow(&page);
    list->setFocus();
    REQUIRE(QTest::qWaitFor([&] { return list->hasFocus(); }, 2000));
    QTest::keyClick(list, Qt::Key_Down, Qt::AltModifier);
    CHECK(titles(*ws) == QStringList{"Bravo", "Charlie", "Alpha"});
    QTest::keyClick(list, Qt::Key_Up, Qt::AltModifier);
    QTest::keyClick(list, Qt::Key_Up, Qt::AltModifier);
    CHECK(titles(*ws) == QStringList{"Alpha", "Bravo", "Charlie"});
    CHECK(list->currentRow() == 0);

    QTest::keyClick(list, Qt::Key_Delete);
    CHECK(titles(*ws) == QStringList{"Bravo", "Charlie"});
    CHECK(stack.count() == 5);

    stack.undo();
    CHECK(titles(*ws) == QStringList{"Alpha", "Bravo", "Charlie"});
    stack.undo();
    stack.undo();
    CHECK(titles(*ws) == QStringList{"Bravo", "Charlie", "Alpha"});
    while (stack.canUndo())
        stack.undo();
    CHECK(titles(*ws) == QStringList{"Alpha", "Bravo", "Charlie"});

    // A drag within the list moves the row in the list model first; the move is then stored.
    const int steps = stack.index();
    REQUIRE(list->model()->moveRows(QModelIndex(), 0, 1, QModelIndex(), 3));
    REQUIRE(QTest::qWaitFor([&] { return titles(*ws) == QStringList{"Bravo", "Charlie", "Alpha"}; }, 2000));
    CHECK(stack.index() == steps + 1);
    stack.undo();
    CHECK(titles(*ws) == QStringList{"Alpha", "Bravo", "Charlie"});

    // Title page fields are stored as they are typed, and typing undoes as one step.
    auto *title = page.findChild<QLineEdit *>("reportTitle");
    REQUIRE(title);
    title->setFocus();
    QTest::keyClicks(title, "Q3 plan");
    CHECK((*ws).reportSettings().title == "Q3 plan");
    const int before = stack.index();
    stack.undo();
    CHECK((*ws).reportSettings().title.isEmpty());
    CHECK(stack.index() == before - 1);
}

TEST_CASE("The report exports to a 16:9 vector PDF deck with embedded fonts, title, captions and money", "[report]")
{
    TempWorkspace ws;
    (*ws).setReportSettings({"Q3 GPU capacity plan", "Ana Ruiz", "2 December 2026"});
    ui::KvPage kv(*ws);
    const ui::ChartFigure figure = kv.chartPanels().first()->figure();
    (*ws).appendReportItem(ui::reportItemFromFigure(figure));
    ui::DeckTable longTable;
    longTable.columns = {"Hour", "GPU", "GPUs", "Cost"};
    for (int hour = 0; hour < 30; ++hour)
        longTable.rows << QStringList{QString::number(hour), "h100-sxm", QString::number(100 + hour),
                                       QString("$%1.50").arg(1000 + hour)};
    (*ws).appendReportItem(ui::reportItemFromTable("Hourly fleet", "Thirty hours around the peak.", longTable));

    QUndoStack stack;
    ui::ReportPage page(*ws, &stack);
    page.itemList()->setCurrentRow(0);
    // title, summary, the chart, the 30-row table on two pages (17 + 13 rows), warnings (the
    // shipped committed rates of the H100 cards are examples), then the assumptions of what the
    // items use (the table names h100-sxm: its rate cards) as an appendix
    CHECK(page.deckPageCount() == 7);
    CHECK(page.previewPage() == 2);

    QTemporaryDir dir;
    const QString path = dir.filePath("deck.pdf");
    QSignalSpy finished(&page, &ui::ReportPage::exportFinished);
    page.startExport(path);
    REQUIRE(waitForExport(finished));
    REQUIRE(finished.first().at(0).toBool());

    CHECK(pdfPages(path) == 7);
    const QString info = runTool("pdfinfo", {path});
    CHECK(info.contains("960 x 540 pts"));  // 13.333 × 7.5 in, 16:9
    const QString text = pdfText(path);
    INFO(text.toStdString());
    CHECK(text.contains("Q3 GPU capacity plan"));
    CHECK(text.contains("Ana Ruiz"));
    CHECK(text.contains("Summary"));
    CHECK(text.contains("Appendix: assumptions"));
    CHECK(text.indexOf("Appendix: assumptions") > text.indexOf("Thirty hours around the peak."));
    CHECK(text.contains("$6.88"));  // AWS H100 on-demand rate in force
    // Every rate with all the digits its card holds: AWS 1-year, GCP per GPU from $87.8325 / 8.
    CHECK(text.contains("$4.2656"));
    CHECK(text.contains("$10.9790625"));
    CHECK(text.contains("$3.8192"));
    CHECK(text.contains(figure.title));
    CHECK(text.contains(figure.caption.left(40)));
    CHECK(text.contains("Thirty hours around the peak."));
    CHECK(text.contains("Hourly fleet (continued)"));
    CHECK(text.contains("$1029.50"));
    CHECK(text.contains("Warnings"));
    CHECK(text.contains(QRegularExpression("7\\s*/\\s*7")));
    for (const QString &row : pdfFontRows(path)) {
        INFO(row.toStdString());
        const QStringList columns = row.simplified().split(' ');
        REQUIRE(columns.size() >= 5);
        CHECK(columns.at(columns.size() - 5) == "yes");  // emb
    }
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    CHECK_FALSE(file.readAll().contains("/Subtype /Image"));
}

TEST_CASE("A failed or cancelled export says why and leaves the previous file as it was", "[report]")
{
    TempWorkspace ws;
    for (int i = 0; i < 40; ++i)
        (*ws).appendReportItem(textItem(QString("Note %1").arg(i)));
    QUndoStack stack;
    ui::ReportPage page(*ws, &stack);
    ui::Dialogs::setScripted(true);
    ui::Dialogs::takeShownMessages();

    QTemporaryDir dir;
    const QString unwritable = dir.filePath("no/such/folder/deck.pdf");
    QSignalSpy finished(&page, &ui::ReportPage::exportFinished);
    page.startExport(unwritable);
    REQUIRE(waitForExport(finished));
    CHECK_FALSE(finished.first().at(0).toBool());
    CHECK(finished.first().at(1).toString().contains(unwritable));
    const QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains(unwritable));
    CHECK((*ws).reportItems().size() == 40);

    const QString existing = dir.filePath("deck.pdf");
    {
        QFile file(existing);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("previous deck");
    }
    finished.clear();
    page.startExport(existing);
    page.cancelExport();
    REQUIRE(waitForExport(finished));
    CHECK_FALSE(finished.first().at(0).toBool());
    CHECK(finished.first().at(1).toString().contains("cancelled"));
    QFile file(existing);
    REQUIRE(file.open(QIODevice::ReadOnly));
    CHECK(file.readAll() == "previous deck");
    CHECK(ui::Dialogs::takeShownMessages().isEmpty());
    ui::Dialogs::setScripted(false);
}

TEST_CASE("Deck warnings say each problem once, naming everything it concerns")
{
    TempWorkspace ws;
    // Three workloads on a GPU the catalog lacks, one on a model it lacks.
    for (const char *name : {"alpha", "beta", "gamma"}) {
        engine::WorkloadProfile w;
        w.name = name;
        w.modelId = "llama-3.1-8b";
        w.gpuId = "h100-sxm";
        w.dailyActiveUsers = 1000;
        w.requestsPerUserPerDay = 5;
        w.diurnal = engine::diurnalShape(engine::DiurnalPreset::Flat);
        w.promptTokens = {500, 2000};
        w.outputTokens = {100, 400};
        (*ws).putWorkload(w);
    }
    REQUIRE((*ws).removeGpu(QStringLiteral("h100-sxm")));
    const QStringList warnings = ui::workspaceWarnings(*ws);
    QStringList examples, gpu;
    for (const QString &line : warnings) {
        if (line.contains("are examples"))
            examples << line;
        if (line.contains("on the GPU"))
            gpu << line;
    }
    // The shipped rate cards in force with example committed rates: one line, counted.
    REQUIRE(examples.size() == 1);
    CHECK(examples.front().contains(QRegularExpression("The committed rates of \\d+ rate cards \\(")));
    REQUIRE(gpu.size() == 1);
    CHECK(gpu.front() == "3 workloads (alpha, beta and gamma) run on the GPU h100-sxm, which is not in the catalog.");
    QStringList unique = warnings;
    CHECK(unique.removeDuplicates() == 0);
}

TEST_CASE("Typing a report title swaps the title page's words without building the deck anew", "[report]")
{
    // The demo's scenarios in the deck: building it evaluates every one over its horizon, which
    // each keystroke used to repeat (bench_ui: "a keystroke in Title").
    QTemporaryDir dir;
    const QString path = dir.filePath("demo.headroom");
    store::createDemoWorkspace(path);
    store::Workspace workspace(path);
    for (const QString &name : workspace.scenarioNames())
        workspace.appendReportItem(textItem(name + ": plan"));
    QUndoStack stack;
    ui::ReportPage page(workspace, &stack);
    page.show();
    const int builds = page.deckBuilds();
    const int pages = page.deckPageCount();
    auto *title = page.findChild<QLineEdit *>("reportTitle");
    REQUIRE(title);
    QTest::keyClicks(title, "Q3 plan");
    QTest::keyClicks(page.findChild<QLineEdit *>("reportAuthor"), "Ana");
    CHECK(workspace.reportSettings().title == "Q3 plan");
    CHECK(workspace.reportSettings().author == "Ana");
    CHECK(page.deckBuilds() == builds);
    CHECK(page.deckPageCount() == pages);

    // What the preview shows is what a deck built anew shows: title page and a footer.
    const ui::DeckLayout fresh(ui::workspaceDeck(workspace));
    REQUIRE(page.deckLayout());
    for (const int p : {0, 1}) {
        QImage shown(1280, 720, QImage::Format_ARGB32), built(1280, 720, QImage::Format_ARGB32);
        shown.fill(Qt::white);
        built.fill(Qt::white);
        QPainter a(&shown), b(&built);
        page.deckLayout()->paintPage(a, p);
        fresh.paintPage(b, p);
        a.end();
        b.end();
        CHECK(shown == built);
    }

    // Undo puts the title back, still without a new build; adding an item builds it anew.
    while (workspace.reportSettings().author == "Ana")
        stack.undo();
    CHECK(workspace.reportSettings().author.isEmpty());
    CHECK(page.deckBuilds() == builds);
    workspace.appendReportItem(textItem("Another"));
    CHECK(page.deckBuilds() == builds + 1);
}

TEST_CASE("Scenario charts and tables follow the workspace into the deck, Pin freezes one and undo lets it follow "
          "again",
          "[report]")
{
    DemoWindow demo;
    ui::MainWindow &window = *demo.window;
    REQUIRE(window.showPage("Scenarios"));
    window.scenariosPage()->selectScenario("Support bot elastic");
    window.addCurrentChartToReport();
    window.addCurrentTableToReport();
    store::Workspace &workspace = window.workspace();
    auto items = workspace.reportItems();
    REQUIRE(items.size() == 2);
    CHECK(items[0].source == R"({"kind":"scenario-diagram","scenarios":["Support bot elastic"]})");
    CHECK(items[1].source == R"({"kind":"scenario-pools-table","scenarios":["Support bot elastic"]})");
    CHECK(items[0].inputsFingerprint == workspace.inputsFingerprint());
    CHECK_FALSE(items[0].takenAt.isEmpty());

    REQUIRE(window.showPage("Report"));
    ui::ReportPage *page = window.reportPage();
    auto *pin = page->findChild<QPushButton *>("reportPin");
    REQUIRE(pin);
    page->itemList()->setCurrentRow(0);
    CHECK(pin->text() == "&Pin");
    CHECK(page->itemList()->item(0)->toolTip().contains("Drawn again from the workspace at every export."));
    QTest::mouseClick(pin, Qt::LeftButton);
    CHECK(workspace.reportItems()[0].pinned);
    CHECK(page->itemList()->item(0)->text().endsWith("(pinned)"));
    CHECK(page->itemList()->currentRow() == 0);
    CHECK(pin->text() == "Un&pin");
    CHECK(window.undoStack()->undoText() == "Pin “" + items[0].title + "”");

    // An edit of the workspace while the Report page is shown builds its deck anew: the table
    // follows, the pinned diagram is stamped.
    const int builds = page->deckBuilds();
    auto workload = *workspace.workload("support-assistant");
    workload.dailyActiveUsers *= 1.25;
    workspace.putWorkload(workload);
    QTRY_COMPARE(page->deckBuilds(), builds + 1);
    const ui::Deck deck = ui::workspaceDeck(workspace);
    CHECK(deck.items[0].caption.startsWith("Pinned as of "));
    CHECK_FALSE(deck.items[1].caption.contains("changed since"));

    // Undo unpins: the diagram is drawn from the workspace again.
    window.undoStack()->undo();
    CHECK_FALSE(workspace.reportItems()[0].pinned);
    CHECK(pin->text() == "&Pin");
    CHECK_FALSE(ui::workspaceDeck(workspace).items[0].caption.contains("changed since"));
}

TEST_CASE("An Inference sizing chart in the report follows an edit of its workload, as the page does", "[report]")
{
    DemoWindow demo;
    ui::MainWindow &window = *demo.window;
    REQUIRE(window.showPage("Inference sizing"));
    ui::Page *page = window.currentPage();
    const auto before = page->currentFigure();
    REQUIRE(before);
    window.addCurrentChartToReport();
    store::Workspace &workspace = window.workspace();
    const store::ReportItem item = workspace.reportItems().at(0);
    CHECK(item.source.contains(R"("kind":"sizing-hit-rate")"));
    const QJsonObject source = QJsonDocument::fromJson(item.source.toUtf8()).object();
    const QString name = source.value("workload").toString();
    REQUIRE(workspace.workload(name));
    CHECK(ui::workspaceDeck(workspace).items[0].svg == ui::deckFigureItem(*before).svg);

    // Twice the users: the page draws more GPUs, and so does the deck.
    auto workload = *workspace.workload(name);
    workload.dailyActiveUsers *= 2;
    workspace.putWorkload(workload);
    QApplication::processEvents();
    const auto after = page->currentFigure();
    REQUIRE(after);
    const ui::DeckItem drawn = ui::workspaceDeck(workspace).items[0];
    CHECK(drawn.svg == ui::deckFigureItem(*after).svg);
    CHECK(drawn.svg != ui::deckFigureItem(*before).svg);
    CHECK(drawn.caption.contains("Sized for requests in flight (KV residency: request)."));

    // Its workload removed, the chart keeps its snapshot and says why.
    REQUIRE(workspace.removeWorkload(name));
    CHECK(ui::workspaceDeck(workspace).items[0].caption.contains(
        QStringLiteral("cannot be drawn again from the workspace (workload \"%1\" no longer exists)").arg(name)));
}

namespace {

// Adds the chart `pageName` shows on the demo workspace to the report, makes `edit`, and
// checks that the deck draws the item again as the page now draws it: one state.
void checkChartFollowsEdit(const QString &pageName, const char *kind,
                           const std::function<void(store::Workspace &)> &edit)
{
    INFO(pageName.toStdString());
    DemoWindow demo;
    ui::MainWindow &window = *demo.window;
    REQUIRE(window.showPage(pageName));
    ui::Page *page = window.currentPage();
    const auto before = page->currentFigure();
    REQUIRE(before);
    window.addCurrentChartToReport();
    store::Workspace &workspace = window.workspace();
    REQUIRE(workspace.reportItems().size() == 1);
    CHECK(workspace.reportItems().at(0).source.contains(QStringLiteral(R"("kind":"%1")").arg(kind)));
    CHECK(ui::workspaceDeck(workspace).items[0].svg == ui::deckFigureItem(*before).svg);

    edit(workspace);
    QApplication::processEvents();
    const auto after = page->currentFigure();
    REQUIRE(after);
    const ui::DeckItem drawn = ui::workspaceDeck(workspace).items[0];
    CHECK(drawn.svg != ui::deckFigureItem(*before).svg);
    CHECK(drawn.svg == ui::deckFigureItem(*after).svg);
    CHECK(drawn.caption == after->caption);
}

// Adds the results table `pageName` shows on the demo workspace to the report, makes `edit`,
// and checks that the deck lays the table out again as the page now shows it.
void checkTableFollowsEdit(const QString &pageName, const char *kind,
                           const std::function<void(store::Workspace &)> &edit,
                           const std::function<void(ui::Page &)> &prepare = {})
{
    INFO(pageName.toStdString());
    DemoWindow demo;
    ui::MainWindow &window = *demo.window;
    REQUIRE(window.showPage(pageName));
    ui::Page *page = window.currentPage();
    if (prepare)
        prepare(*page);
    const auto before = page->currentTable();
    REQUIRE(before);
    window.addCurrentTableToReport();
    store::Workspace &workspace = window.workspace();
    REQUIRE(workspace.reportItems().size() == 1);
    const store::ReportItem added = workspace.reportItems().at(0);
    CHECK(added.source.contains(QStringLiteral(R"("kind":"%1")").arg(kind)));
    CHECK(ui::workspaceDeck(workspace).items[0].table.rows == before->rows);

    edit(workspace);
    QApplication::processEvents();
    const auto after = page->currentTable();
    REQUIRE(after);
    REQUIRE(after->rows != before->rows);
    const ui::DeckItem drawn = ui::workspaceDeck(workspace).items[0];
    CHECK(drawn.title == added.title);
    CHECK(drawn.table.columns == after->columns);
    CHECK(drawn.table.rows == after->rows);
}

// Every H100 SXM rate card's 1-year commitment at 55 % of its on-demand price.
void cheaperH100Commitments(store::Workspace &workspace)
{
    for (engine::RateCard card : workspace.rateCards()) {
        if (card.gpuId != "h100-sxm")
            continue;
        card.reserved1y = engine::Decimal::fromDouble(card.onDemand.toDouble() * 0.55).rounded(4);
        workspace.putRateCard(card);
    }
}

} // namespace

TEST_CASE("The Cost charts and options table in the report follow an edit of the rate card as the page does",
          "[report]")
{
    checkChartFollowsEdit("Cost & reservations", "cost-sweep", cheaperH100Commitments);
    checkTableFollowsEdit("Cost & reservations", "cost-table", cheaperH100Commitments);
}

TEST_CASE("The KV concurrency chart and table in the report follow the serving assumptions as the page does",
          "[report]")
{
    const auto lessMemory = [](store::Workspace &workspace) {
        engine::ServingAssumptions serving = workspace.servingAssumptions();
        serving.memoryUtilization = 0.8;
        workspace.setServingAssumptions(serving);
    };
    checkChartFollowsEdit("KV & concurrency", "kv-concurrency", lessMemory);
    checkTableFollowsEdit("KV & concurrency", "kv-table", lessMemory);
}

TEST_CASE("The Training sizing chart and table in the report follow an edit of its job as the page does", "[report]")
{
    const auto otherTp = [](store::Workspace &workspace) {
        engine::TrainingJob job = workspace.trainingJobs().front();
        job.tp = job.tp == 8 ? 4 : 8;
        workspace.putTrainingJob(job);
    };
    checkChartFollowsEdit("Training sizing", "training-memory", otherTp);
    checkTableFollowsEdit("Training sizing", "training-table", otherTp);
}

TEST_CASE("Every chart and results table the pages show on the demo workspace names the source the report draws "
          "it again from", "[report]")
{
    DemoWindow demo;
    ui::MainWindow &window = *demo.window;
    QStringList without;
    QStringList checked;
    for (QTreeWidgetItemIterator it(window.navigator()); *it; ++it) {
        if (!(*it)->parent() || !window.showPage((*it)->text(0)))
            continue;
        QApplication::processEvents();
        ui::Page *page = window.currentPage();
        const QString name = (*it)->text(0);
        for (ui::ChartPanel *panel : page->chartPanels()) {
            // A chart that draws data (not the reason it has none) must say where it comes from.
            if (!panel->chart() || panel->chart()->series().isEmpty())
                continue;
            checked << name;
            if (panel->figure().source.isEmpty())
                without << QStringLiteral("%1: chart \"%2\"").arg(name, panel->figure().title);
        }
        // A painted figure (the MIG layout) too.
        if (const auto figure = page->currentFigure(); figure && figure->paint) {
            checked << name;
            if (figure->source.isEmpty())
                without << QStringLiteral("%1: figure \"%2\"").arg(name, figure->title);
        }
        if (page->currentTable()) {
            checked << name;
            if (page->currentTableSource().isEmpty())
                without << QStringLiteral("%1: results table").arg(name);
        }
    }
    checked.removeDuplicates();
    CAPTURE(checked.join(", ").toStdString());
    CHECK(checked.size() >= 6);
    CHECK(without.join("; ").toStdString() == "");
}
