#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/training/clusterpanel.h"

#include <QChart>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>

using namespace headroom;

namespace {

bool runAndWait(ui::ClusterPanel &panel)
{
    QSignalSpy done(&panel, &ui::ClusterPanel::finished);
    panel.run();
    if (!done.wait(60000))
        return false;
    return done.first().first().toBool();
}

} // namespace

TEST_CASE("Training sizing Cluster tab: Pollux's workload replayed under three policies, published figures beside",
          "[cluster]")
{
    ui::ClusterPanel panel;
    panel.resize(1000, 700);
    REQUIRE(panel.workload() == "pollux-6");
    REQUIRE(runAndWait(panel));
    REQUIRE(panel.replays().size() == 3);
    const double las = panel.replays()[1].averageJctSeconds;
    const double co = panel.replays()[2].averageJctSeconds;
    CHECK(co < las);
    auto *table = panel.findChild<QTableWidget *>("clusterTable");
    REQUIRE(table);
    REQUIRE(table->rowCount() == 3);
    CHECK(table->item(0, 0)->text() == "Fixed FCFS");
    CHECK(table->item(2, 1)->text() == QString::number(co / 3600.0, 'f', 2));
    CHECK(panel.status().contains("Published (Pollux's artifact, 16 × 4 GPUs), avg JCT: pollux 0.68 h, "
                                  "tiresias 0.96 h, optimus 1.47 h."));
    CHECK(panel.status().contains(QStringLiteral("Co-adaptive cuts the average JCT by")));
    CHECK(panel.status().contains(QStringLiteral("%1 % against Fixed LAS")
                                      .arg(QString::number(100.0 * (1.0 - co / las), 'f', 1))));
    QChart *chart = panel.chart()->chart();
    REQUIRE(chart);
    REQUIRE(chart->series().size() == 3);
    auto *line = qobject_cast<QLineSeries *>(chart->series().at(2));
    REQUIRE(line);
    CHECK(line->count() == 160);
    CHECK(line->at(159).y() == Approx(100.0));

    // The report replays it from the chart's source.
    TempWorkspace ws;
    QString problem;
    const auto redrawn = ui::clusterReportItem(*ws, panel.chart()->figure().source, &problem);
    REQUIRE(redrawn);
    CHECK(problem.isEmpty());
    CHECK(redrawn->title == "Job completion times by policy");
    QJsonObject bad = panel.chart()->figure().source;
    bad.insert("inference_gpus", 64);
    CHECK_FALSE(ui::clusterReportItem(*ws, bad, &problem));
    CHECK(problem.contains("inference may take from 0 to 63"));
}

TEST_CASE("Training sizing Cluster tab: a workload of one's own, a refused one, and Cancel", "[cluster]")
{
    ui::ClusterPanel panel;
    QTemporaryDir dir;
    const QString own = writeFile(dir, "mix.csv", "name,time,application,num_replicas,batch_size\n"
                                                  "a,0,cifar10,2,128\nb,30,imagenet,4,800\n");
    panel.setWorkload(own);
    CHECK(panel.workload() == own);
    panel.findChild<QSpinBox *>("clusterNodes")->setValue(2);
    panel.findChild<QSpinBox *>("clusterInference")->setValue(2);
    REQUIRE(runAndWait(panel));
    auto *table = panel.findChild<QTableWidget *>("clusterTable");
    CHECK(table->rowCount() == 3);
    CHECK_FALSE(panel.status().contains("Published"));   // only for Pollux's own workloads
    CHECK(panel.status().contains("with 2 GPUs kept for inference"));
    for (const auto &r : panel.replays())
        for (const auto &s : r.timeline)
            CHECK(s.busyGpus <= 6);

    const QString unknown = writeFile(dir, "bad.csv", "name,time,application,num_replicas,batch_size\nx,0,gpt9,1,8\n");
    panel.setWorkload(unknown);
    CHECK_FALSE(runAndWait(panel));
    CHECK(panel.status().contains("Not replayed: job x: unknown application"));
    CHECK(panel.replays().size() == 3);   // the last replay's figures stay

    panel.setWorkload("pollux-2");
    panel.findChild<QSpinBox *>("clusterNodes")->setValue(16);
    panel.findChild<QSpinBox *>("clusterInference")->setValue(0);
    QSignalSpy done(&panel, &ui::ClusterPanel::finished);
    panel.run();
    CHECK(panel.findChild<QPushButton *>("clusterCancel")->isEnabled());
    panel.findChild<QPushButton *>("clusterCancel")->click();
    REQUIRE(done.wait(60000));
    CHECK_FALSE(done.first().first().toBool());
    CAPTURE(panel.status().toStdString());
    CHECK(panel.status().contains("Cancelled"));
    CHECK(panel.findChild<QPushButton *>("clusterRun")->isEnabled());
}
