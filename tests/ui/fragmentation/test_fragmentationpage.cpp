#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/fragmentation/fragmapview.h"
#include "ui/fragmentation/fragmentationpage.h"
#include "ui/report/reportsnapshot.h"
#include "store/common/workspace.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QTableWidget>
#include <QSignalSpy>
#include <QSlider>
#include <QTabWidget>
#include <QTest>

using namespace headroom;
namespace frag = engine::frag;

namespace {

struct SmallTrace {
    QTemporaryDir dir;
    QString nodes, tasks;
    SmallTrace()
    {
        nodes = writeFile(dir, "nodes.csv",
                          "sn,cpu_milli,memory_mib,gpu,model\n"
                          "n0,64000,262144,8,V100M32\nn1,64000,262144,8,V100M32\n"
                          "n2,96000,393216,2,T4\nn3,96000,393216,4,P100\n");
        QByteArray tasksCsv = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n";
        for (int i = 0; i < 24; ++i)
            tasksCsv += QStringLiteral("t%1,4000,8192,1,%2,\n").arg(i).arg(i % 3 == 0 ? 1000 : 500).toUtf8();
        tasksCsv += "big,32000,65536,8,1000,\n";
        tasks = writeFile(dir, "tasks.csv", tasksCsv);
    }
};

bool runAndWait(ui::FragmentationPage &page)
{
    QSignalSpy finished(&page, &ui::FragmentationPage::finished);
    page.run();
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
    return finished.first().first().toBool();
}

} // namespace

TEST_CASE("A run off the GUI thread fills the charts and the map for every chosen policy")
{
    SmallTrace trace;
    ui::FragmentationPage page;
    page.setFiles(trace.nodes, trace.tasks);
    page.setPolicies({frag::Policy::Fgd, frag::Policy::FirstFit});
    page.setSeeds(2);
    REQUIRE(runAndWait(page));
    REQUIRE(page.results().size() == 2);
    CHECK(page.results()[0].policy == frag::Policy::Fgd);
    CHECK(page.results()[0].result.runs.size() == 2);
    QChart *allocation = page.chartPanels().first()->chart();
    REQUIRE(allocation);
    int policyLines = 0;
    for (QAbstractSeries *s : allocation->series())
        if (auto *line = qobject_cast<QLineSeries *>(s); line && (line->name() == "FGD" || line->name() == "First-fit")) {
            ++policyLines;
            CHECK(line->count() > 10);
        }
    CHECK(policyLines == 2);
    auto *map = page.findChild<ui::FragMapView *>();
    REQUIRE(map);
    CHECK(map->picture().nodes.size() == 4);
    CHECK(map->picture().state.size() == 4);
    page.findChild<QSlider *>("fragMapSlider")->setValue(0);
    CHECK(map->picture().title.contains("10 %"));
    CHECK(page.statusText().contains("fewest GPUs stranded"));
}

TEST_CASE("The scoring mode is chosen on the page and FGD's two scorings are compared by GPU request")
{
    SmallTrace trace;
    ui::FragmentationPage page;
    CHECK(page.scoreMode() == frag::ScoreMode::Study);  // the study's scoring by default
    CHECK(page.findChild<QComboBox *>("fragMode")->count() == 2);
    page.setFiles(trace.nodes, trace.tasks);
    page.setPolicies({frag::Policy::BestFit});
    page.setScoreMode(frag::ScoreMode::Exact);
    page.setSeeds(3);
    REQUIRE(runAndWait(page));
    REQUIRE(page.results().size() == 1);
    CHECK(page.results()[0].result.runs[0].mode == frag::ScoreMode::Exact);
    // FGD runs in both scorings for the comparison even when it was not chosen.
    REQUIRE(page.fgdExact().runs.size() == 3);
    REQUIRE(page.fgdStudy().runs.size() == 3);
    CHECK(page.fgdExact().runs[0].mode == frag::ScoreMode::Exact);
    CHECK(page.fgdStudy().runs[0].mode == frag::ScoreMode::Study);
    ui::ChartPanel *panel = page.findChild<ui::ChartPanel *>("fragScoringChart");
    REQUIRE(panel);
    QChart *chart = panel->chart();
    REQUIRE(chart);
    auto *bars = qobject_cast<QBarSeries *>(chart->series().value(0));
    REQUIRE(bars);
    REQUIRE(bars->count() == 2);
    CHECK(bars->barSets()[0]->label().startsWith("FGD, exact"));
    CHECK(bars->barSets()[1]->label().startsWith("FGD, the study's"));
    auto *axis = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Horizontal).value(0));
    REQUIRE(axis);
    CHECK(axis->categories() == QStringList{"&lt; 1 GPU", "1 GPU", "2 GPUs", "4 GPUs", "8 GPUs"});
    for (int c = 0; c < 5; ++c) {
        const size_t index = c == 0 ? 0 : size_t(1) << (c - 1);
        CHECK(bars->barSets()[0]->at(c) == Approx(ui::meanFailedAt100(page.fgdExact(), index)));
        CHECK(bars->barSets()[1]->at(c) == Approx(ui::meanFailedAt100(page.fgdStudy(), index)));
    }
    auto *table = page.findChild<QTableWidget *>("fragScoringTable");
    REQUIRE(table);
    CHECK(table->rowCount() == 6);
    CHECK(table->item(5, 2)->text() == QStringLiteral("%1 %").arg(page.fgdStudy().allocatedPctAt100.mean, 0, 'f', 2));
    CHECK(page.findChild<QLabel *>("fragScoringText")->text().contains("Why the coarse score packs better"));
    CHECK(page.chartPanels().size() == 4);
}

TEST_CASE("Cancel stops a long run and keeps the previous results")
{
    ui::FragmentationPage page;
    page.setFiles(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_node_list_gpu_node.csv",
                  HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_pod_list_default.csv");
    page.setSeeds(20);
    QSignalSpy finished(&page, &ui::FragmentationPage::finished);
    page.run();
    REQUIRE(page.isRunning());
    page.cancel();
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
    CHECK_FALSE(finished.first().first().toBool());
    CHECK(page.statusText().contains("Cancelled"));
    CHECK(page.results().empty());
}

TEST_CASE("A malformed trace is reported with its line and nothing runs")
{
    SmallTrace trace;
    const QString bad = writeFile(trace.dir, "bad.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,64000,abc,8,V100M32\n");
    ui::FragmentationPage page;
    page.setFiles(bad, trace.tasks);
    CHECK_FALSE(runAndWait(page));
    CHECK(page.statusText().contains("line 2"));
    CHECK(page.results().empty());
}

TEST_CASE("A fragmentation chart in the report stays current while its trace files are unchanged, and says when "
          "one changed")
{
    SmallTrace trace;
    TempWorkspace ws;
    ui::FragmentationPage page;
    page.setFiles(trace.nodes, trace.tasks);
    page.setPolicies({frag::Policy::Fgd});
    page.setSeeds(1);
    REQUIRE(runAndWait(page));
    const auto figure = page.currentFigure();
    REQUIRE(figure);
    CHECK(figure->source.value("kind").toString() == "fragmentation-run");
    store::ReportItem item = ui::reportItemFromFigure(*figure);
    ui::stampReportItem(item, *ws);
    QString problem;
    // The run reads nothing of the workspace: an edit there leaves the item current, unstamped.
    engine::ServingAssumptions serving = (*ws).servingAssumptions();
    serving.memoryUtilization = 0.8;
    (*ws).setServingAssumptions(serving);
    auto drawn = ui::redrawReportItem(*ws, item, &problem);
    REQUIRE(drawn);
    CHECK(problem.isEmpty());
    CHECK(drawn->content == item.content);
    // The scoring table too.
    page.findChild<QTabWidget *>()->setCurrentIndex(3);
    const auto table = page.currentTable();
    REQUIRE(table);
    CHECK(ui::redrawReportItem(*ws, ui::reportItemFromTable("Fragmentation", {}, *table, page.currentTableSource()),
                               &problem));

    // A task file rewritten since the run: the item is a snapshot that says which file changed.
    QFile tasks(trace.tasks);
    REQUIRE(tasks.open(QIODevice::Append));
    tasks.write("late,4000,8192,1,1000,\n");
    tasks.close();
    CHECK_FALSE(ui::redrawReportItem(*ws, item, &problem));
    CHECK(problem == "the file tasks.csv changed since the run; run it again");
    CHECK(ui::reportItemStamp(item, (*ws).inputsFingerprint(), problem).contains("tasks.csv changed"));
    QFile::remove(trace.tasks);
    CHECK_FALSE(ui::redrawReportItem(*ws, item, &problem));
    CHECK(problem == "the file tasks.csv is no longer there");
}
