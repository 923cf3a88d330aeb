#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/training/goodputpanel.h"

#include <QChart>
#include <QJsonObject>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QSpinBox>

using namespace headroom;

TEST_CASE("Training sizing Goodput tab: the hand-computed optimum, recomputed as a field changes, refused input said")
{
    ui::GoodputPanel panel;
    panel.resize(900, 600);
    panel.show();
    // The engine test's hand job, up to 8 GPUs: the most goodput on 8 GPUs at batch 512.
    panel.findChild<QSpinBox *>("goodputMaxGpus")->setValue(8);
    REQUIRE(panel.curve().size() == 8);
    CHECK(panel.curve()[1].goodput == Approx(128.0 / 0.79));
    CHECK(panel.curve()[3].batch == 252);
    CHECK(panel.summary().contains("Most goodput: 8 GPUs at batch 512"));
    QChart *chart = panel.chart()->chart();
    REQUIRE(chart);
    auto *goodput = qobject_cast<QLineSeries *>(chart->series().first());
    REQUIRE(goodput);
    CHECK(goodput->count() == 8);
    CHECK(goodput->at(3).y() == Approx(4.0 * 63 * 1128 / (0.79 * 1252)));

    // The report draws it again from its source, which holds the job's figures.
    TempWorkspace ws;
    QString problem;
    const auto redrawn = ui::goodputReportItem(*ws, panel.chart()->figure().source, &problem);
    REQUIRE(redrawn);
    CHECK(problem.isEmpty());
    CHECK(redrawn->title == "Goodput against GPUs (Pollux)");
    QJsonObject bad = panel.chart()->figure().source;
    bad.insert("gamma", 40);
    CHECK_FALSE(ui::goodputReportItem(*ws, bad, &problem));
    CHECK(problem.contains("gamma must be from 1"));

    // A larger noise scale makes large batches pay: more goodput on 8 GPUs.
    const double before = panel.curve().back().goodput;
    panel.findChild<QDoubleSpinBox *>("goodputNoise")->setValue(100000);
    CHECK(panel.curve().back().goodput > before);

    // A largest batch under M₀ is refused with the reason, and nothing is drawn from it.
    panel.findChild<QSpinBox *>("goodputMaxBatch")->setValue(64);
    CHECK(panel.curve().empty());
    CHECK(panel.summary().contains("at least the initial batch (128)"));
}
