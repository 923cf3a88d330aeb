#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/report/reportdeck.h"
#include "ui/tracking/trackingdeck.h"
#include "ui/tracking/trackingjobspanel.h"
#include "ui/tracking/trackingpage.h"

#include <QChart>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>

using namespace headroom;

namespace {

const QString kSample = QStringLiteral(HEADROOM_SOURCE_DIR "/data/samples/job-telemetry.csv");

QString cell(QTableWidget *table, int row, int column)
{
    auto *item = table->item(row, column);
    return item ? item->text() : QString();
}

bool loadAndWait(ui::TrackingJobsPanel &panel, const QString &path)
{
    QSignalSpy done(&panel, &ui::TrackingJobsPanel::finished);
    panel.load(path);
    REQUIRE(done.wait(60000));
    return done.first().first().toBool();
}

// The demo's support-assistant-finetune is sized at 2 × 10¹⁰ tokens in 2.8193 days on 10 GPUs:
// 8,210.6 tokens a second per GPU. Two GPUs for two hours at 8,000 tokens a second each, then
// one hour at 4,000: the last hour is below 90 % of plan.
QByteArray demoJobTelemetry()
{
    QByteArray csv = "timestamp,job,node,gpu,metric,value\n";
    for (int minute = 0; minute <= 180; minute += 5) {
        const QString stamp = QStringLiteral("2026-03-01T%1:%2:00Z")
                                  .arg(minute / 60, 2, 10, QLatin1Char('0'))
                                  .arg(minute % 60, 2, 10, QLatin1Char('0'));
        const bool slow = minute > 120;
        for (int gpu = 0; gpu < 2; ++gpu)
            csv += QStringLiteral("%1,support-assistant-finetune,n1,%2,DCGM_FI_PROF_GR_ENGINE_ACTIVE,%3\n")
                       .arg(stamp)
                       .arg(gpu)
                       .arg(slow ? 0.45 : 0.9)
                       .toUtf8();
        csv += QStringLiteral("%1,support-assistant-finetune,n1,,training_throughput,%2\n").arg(stamp).arg(slow ? 8000 : 16000).toUtf8();
    }
    return csv;
}

} // namespace

TEST_CASE("Tracking ▸ Training jobs: the sample's stall audit and goodput, read on a worker", "[trackingjobs]")
{
    DemoWindow demo;
    ui::TrackingPage *page = demo.window->trackingPage();
    page->showTrainingJobs();
    ui::TrackingJobsPanel *panel = page->trainingJobsPanel();
    REQUIRE(panel);
    REQUIRE(loadAndWait(*panel, kSample));
    auto *stalls = panel->findChild<QTableWidget *>("trackingJobsStalls");
    REQUIRE(stalls->rowCount() == 4);   // three jobs and the total
    CHECK(cell(stalls, 0, 0) == "llama-ft");
    CHECK(cell(stalls, 0, 4) == "4.8");
    CHECK(cell(stalls, 0, 7) == "9");
    CHECK(cell(stalls, 3, 3) == "91.0");
    CHECK(cell(stalls, 3, 4) == "5.3");
    auto *goodput = panel->findChild<QTableWidget *>("trackingJobsGoodput");
    REQUIRE(goodput->rowCount() == 2);
    CHECK(cell(goodput, 0, 2) == "2,683.3");
    CHECK(cell(goodput, 0, 4) == "no plan");
    CHECK(panel->statusText().contains("5.3 of 91.0 allocated GPU-hours (5.8 %) of the last 3 jobs waited on input"));
    CHECK(panel->statusText().contains("No job has a plan to hold its goodput to"));
    // The page's table and chart are the panel's, for Export and Add to Report.
    REQUIRE(page->currentTable());
    CHECK(page->currentTable()->rows.size() == 4);
    CHECK(page->chartPanels().size() == 1);

    // A bad file: the reason, and the last figures stay.
    QTemporaryDir dir;
    const QString bad = writeFile(dir, "bad.csv", "timestamp,job,node,gpu,metric,value\n2026-03-01T00:00:00Z,j,n,0,DCGM_FI_PROF_GR_ENGINE_ACTIVE,7\n");
    CHECK_FALSE(loadAndWait(*panel, bad));
    CHECK(panel->statusText().contains("Not read: line 2: DCGM_FI_PROF_GR_ENGINE_ACTIVE"));
    CHECK(stalls->rowCount() == 4);
}

TEST_CASE("Tracking ▸ Training jobs: the plan of the workspace training job, its hours below, and the deck",
          "[trackingjobs]")
{
    DemoWindow demo;
    ui::TrackingJobsPanel *panel = demo.window->trackingPage()->trainingJobsPanel();
    QTemporaryDir dir;
    const QString path = writeFile(dir, "demo-job.csv", demoJobTelemetry());
    REQUIRE(loadAndWait(*panel, path));
    auto *goodput = panel->findChild<QTableWidget *>("trackingJobsGoodput");
    REQUIRE(goodput->rowCount() == 1);
    CHECK(cell(goodput, 0, 4) == "training job");
    CHECK(cell(goodput, 0, 5) == "1");            // the third hour, 4,000 a GPU
    CHECK(panel->statusText().contains("1 of 1 jobs with a plan: 1 hours below it"));
    REQUIRE(panel->run());
    const engine::JobGoodputTrack &j = panel->run()->goodput->jobs.front();
    CHECK(j.planned == Approx(8210.6).margin(0.5));
    CHECK(j.hours[2].perGpu == Approx(4000));
    CHECK(j.shortfallGpuHours == Approx(2.0 * (1 - 4000 / j.planned)));
    QChart *chart = panel->chartPanels().first()->chart();
    REQUIRE(chart);
    auto *line = qobject_cast<QLineSeries *>(chart->series().first());
    REQUIRE(line);
    CHECK(line->count() == 3);
    CHECK(line->at(2).y() == Approx(100.0 * 4000 / j.planned));

    // The tracking deck carries the audit, the goodput table and the chart, also without billing.
    ui::TrackingDeckOptions options;
    options.trainingJobs = *panel->run();
    const ui::Deck deck = ui::trackingDeck(demo.window->workspace(), options);
    REQUIRE(deck.items.size() == 3);
    CHECK(deck.items[0].title == "Data-loading stalls: the last 1 training jobs");
    CHECK(deck.items[1].table.rows.first().at(5) == "1");
    CHECK(deck.items[2].kind == ui::DeckItem::Kind::Figure);
    CHECK(deck.subtitle.startsWith("Training jobs from demo-job.csv"));
}
