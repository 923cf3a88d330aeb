#include "common/uitestsupport.h"

#include "ui/common/chartpanel.h"
#include "ui/inference/kvpage.h"
#include "ui/inference/servingassumptionsdialog.h"
#include "ui/inference/sizingpage.h"

#include <QBarSeries>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QSet>
#include <QDoubleSpinBox>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QLineSeries>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

engine::WorkloadProfile chatbot()
{
    engine::WorkloadProfile w;
    w.name = "chatbot";
    w.tenant = "consumer";
    w.modelId = "llama-3.1-8b";
    w.gpuId = "h100-sxm";
    w.dailyActiveUsers = 200000;
    w.requestsPerUserPerDay = 15;
    w.peakSessionsPerUser = 0.05;
    w.diurnal = engine::diurnalShape(engine::DiurnalPreset::EveningPeak);
    w.promptTokens = {1500, 6000};
    w.outputTokens = {300, 1000};
    w.prefixHitRate = 0.2;
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    return w;
}

} // namespace

TEST_CASE("Sizing page sizes the selected workload and explains the binding constraint")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    REQUIRE(page.result());
    const auto &r = *page.result();
    CHECK(r.feasible);
    CHECK(r.gpus == r.replicas * r.gpusPerReplica);
    CHECK(r.replicas >= std::max(r.replicasMemory, r.replicasCompute));
    CHECK((r.binding == "memory" || r.binding == "compute"));
    CHECK(page.explanation().contains(QString::fromStdString(r.binding) + "-bound"));
    auto *steps = page.findChild<QTableWidget *>("sizingSteps");
    REQUIRE(steps);
    CHECK(steps->rowCount() == int(r.steps.size()));
    CHECK(steps->rowCount() >= 4);
}

TEST_CASE("Raising the hit rate lowers prefill demand and redraws the hit-rate chart")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    const double before = page.result()->prefillTokensPerS;
    page.findChild<QDoubleSpinBox *>("sizingHitRate")->setValue(50);
    CHECK(page.result()->prefillTokensPerS == Approx(before * 0.625));
    QChart *chart = page.chartPanels().first()->chart();
    QLineSeries *line = nullptr;
    for (QAbstractSeries *s : chart->series())
        if (auto *l = qobject_cast<QLineSeries *>(s); l && l->name().startsWith("GPUs planned"))
            line = l;
    REQUIRE(line);
    CHECK(line->count() >= 10);
    for (int i = 1; i < line->count(); ++i)
        CHECK(line->at(i).y() <= line->at(i - 1).y());
}

TEST_CASE("Disaggregation splits GPUs into prefill and decode pools")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    page.findChild<QCheckBox *>("sizingDisaggregate")->setChecked(true);
    REQUIRE(page.result());
    REQUIRE(page.result()->prefillGpus);
    REQUIRE(page.result()->decodeGpus);
    CHECK(*page.result()->prefillGpus + *page.result()->decodeGpus == page.result()->gpus);
}

TEST_CASE("The GPU type chart has one bar set per precision combination")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    QChart *chart = page.findChild<ui::ChartPanel *>("sizingTypeChart")->chart();
    auto *bars = qobject_cast<QBarSeries *>(chart->series().value(0));
    REQUIRE(bars);
    CHECK(bars->count() >= 4);
    CHECK(page.whatIfs().size() >= (*ws).gpus().size() * 4);
}

TEST_CASE("Editing the workload re-seeds the what-ifs and the numbers change without a restart")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    REQUIRE(page.result());
    REQUIRE(page.result()->feasible);
    const int64_t gpusBefore = page.result()->gpus;
    auto *tp = page.findChild<QSpinBox *>("sizingTp");
    auto *gpu = page.findChild<QComboBox *>("sizingGpu");
    auto *hitRate = page.findChild<QDoubleSpinBox *>("sizingHitRate");
    REQUIRE(tp);
    CHECK(tp->value() == 1);

    // The planner moves the workload to a 70B model at TP 4 on H200 with a 50 % hit rate.
    engine::WorkloadProfile edited = chatbot();
    edited.modelId = "llama-3.1-70b";
    edited.gpuId = "h200";
    edited.tp = 4;
    edited.prefixHitRate = 0.5;
    (*ws).putWorkload(edited);

    CHECK(tp->value() == 4);
    CHECK(gpu->currentData().toString() == "h200");
    CHECK(hitRate->value() == Approx(50));
    REQUIRE(page.result());
    CHECK(page.result()->feasible);
    CHECK(page.result()->gpusPerReplica == 4);
    CHECK(page.result()->gpus != gpusBefore);
    CHECK_FALSE(page.explanation().contains("cannot"));
    CHECK(page.findChild<QLabel *>("sizingGpus")->text().contains("4 per replica"));
}

TEST_CASE("What-ifs changed on the page survive a workload edit until Reset to workload")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    auto *tp = page.findChild<QSpinBox *>("sizingTp");
    auto *reset = page.findChild<QPushButton *>("sizingResetWhatIfs");
    REQUIRE(reset);
    CHECK_FALSE(reset->isEnabled());
    tp->setValue(2);
    CHECK(page.whatIfsEdited());
    CHECK(reset->isEnabled());
    CHECK(page.result()->gpusPerReplica == 2);

    engine::WorkloadProfile edited = chatbot();
    edited.prefixHitRate = 0.4;
    (*ws).putWorkload(edited);
    CHECK(tp->value() == 2); // kept: changed here
    CHECK(page.result()->gpusPerReplica == 2);

    QTest::mouseClick(reset, Qt::LeftButton);
    CHECK_FALSE(page.whatIfsEdited());
    CHECK(tp->value() == 1);
    CHECK(page.findChild<QDoubleSpinBox *>("sizingHitRate")->value() == Approx(40));
    CHECK(page.result()->gpusPerReplica == 1);
}

TEST_CASE("The residency selector switches between requests in flight and sessions held resident")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    auto *residency = page.findChild<QComboBox *>("sizingResidency");
    REQUIRE(residency);
    REQUIRE(page.result());
    const engine::SizingResult request = *page.result();
    CHECK(request.residency == engine::KvResidency::Request);
    CHECK(request.peakStreams == request.inFlightQuantileCount);
    CHECK(page.explanation().contains("KV residency <b>request</b>"));
    CHECK(page.findChild<QLabel *>("sizingInFlight")->text().contains("in flight at P99"));

    residency->setCurrentIndex(residency->findData(int(engine::KvResidency::Session)));
    REQUIRE(page.result());
    const engine::SizingResult session = *page.result();
    CHECK(session.residency == engine::KvResidency::Session);
    // 200,000 users × 0.05 sessions each.
    CHECK(session.peakStreams == 10000);
    CHECK(session.replicasMemory > request.replicasMemory);
    CHECK(session.gpus > request.gpus);
    CHECK(page.explanation().contains("KV residency <b>session</b>"));
    CHECK(page.explanation().contains("choose the residency model"));
    CHECK(page.findChild<QLabel *>("sizingInFlight")->text().contains("sessions held resident"));
    const QLabel *help = page.findChild<QLabel *>("sizingResidencyHelp");
    REQUIRE(help);
    CHECK(help->text().contains("Little's law"));
    CHECK(help->text().contains("between turns"));
}

TEST_CASE("A model that does not fit reads as such: cards, explanation and charts with a message")
{
    TempWorkspace ws;
    engine::WorkloadProfile w = chatbot();
    w.modelId = "llama-3.1-70b";
    w.gpuId = "l4";
    w.tp = 1;
    REQUIRE((*ws).gpu("l4"));
    (*ws).putWorkload(w);
    ui::SizingPage page(*ws);
    REQUIRE(page.result());
    CHECK_FALSE(page.result()->feasible);
    CHECK(page.findChild<QLabel *>("sizingReplicas")->text().contains("does not fit"));
    CHECK(page.findChild<QLabel *>("sizingGpus")->text().contains("exceed memory by"));
    CHECK_FALSE(page.findChild<QLabel *>("sizingReplicas")->text().contains(">0<"));
    CHECK(page.explanation().contains("does not fit on this configuration"));
    // The hit-rate chart has no plan at any rate: a message, not empty axes.
    QChart *chart = page.findChild<ui::ChartPanel *>("sizingHitRateChart")->chart();
    REQUIRE(chart);
    CHECK(chart->series().isEmpty());
    CHECK(chart->axes().isEmpty());
    bool message = false;
    for (QGraphicsItem *item : chart->childItems())
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->toPlainText().contains("No plan"))
            message = true;
    CHECK(message);
}

TEST_CASE("The best option table lists every GPU x precision, sorted by cost per 30-day month")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    const auto &options = page.options();
    CHECK(options.size() == (*ws).gpus().size() * 6);
    auto *table = page.findChild<QTableWidget *>("sizingOptions");
    REQUIRE(table);
    CHECK(table->rowCount() == int(options.size()));
    CHECK(table->horizontalHeaderItem(6)->text() == "Cost per 30-day month");
    REQUIRE(options.front().costPerMonth);
    for (size_t i = 1; i < options.size(); ++i)
        if (options[i].costPerMonth && options[i - 1].costPerMonth)
            CHECK(options[i - 1].costPerMonth->amount <= options[i].costPerMonth->amount);
    // The cheapest row shows its money to the cent.
    CHECK(table->item(0, 6)->text() == QString::fromStdString(options.front().costPerMonth->display()));
    for (int row = 0; row < table->rowCount(); ++row)
        if (!options[size_t(row)].rate && options[size_t(row)].result.feasible)
            CHECK(table->item(row, 6)->text().startsWith("unpriced"));
}

TEST_CASE("The best option table names the card each row is priced at, and compares at one provider on request")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    ui::SizingPage page(*ws);
    auto *table = page.findChild<QTableWidget *>("sizingOptions");
    auto *provider = page.findChild<QComboBox *>("sizingOptionsProvider");
    REQUIRE(table);
    REQUIRE(provider);
    // By default each GPU at its cheapest card: the row says which provider that is.
    CHECK(provider->currentData().toString().isEmpty());
    QSet<QString> providersSeen;
    for (int row = 0; row < table->rowCount(); ++row) {
        const auto &o = page.options()[size_t(row)];
        if (!o.rate)
            continue;
        CHECK(table->item(row, 6)->toolTip().endsWith(QString::fromStdString(o.rate->source)));
        providersSeen << QString::fromStdString(o.rate->source).section(' ', 0, 0);
    }
    REQUIRE(provider->count() >= 3);  // the cheapest of each, and at least two providers
    CHECK(providersSeen.size() >= 2); // rows of one table are priced at different providers

    // One provider: every priced row is that provider's card, the others say it has none.
    provider->setCurrentIndex(1);
    const QString chosen = provider->currentData().toString();
    int priced = 0;
    for (int row = 0; row < table->rowCount(); ++row) {
        const auto &o = page.options()[size_t(row)];
        if (o.rate) {
            ++priced;
            CHECK(QString::fromStdString(o.rate->source).startsWith(chosen + ' '));
            CHECK(table->item(row, 6)->toolTip().contains(" — " + chosen + ' '));
        } else if (o.result.feasible) {
            CHECK(table->item(row, 6)->text() == "no " + chosen + " card");
        }
    }
    CHECK(priced > 0);
}

TEST_CASE("The KV page and Inference sizing agree on streams per replica for the same setup")
{
    TempWorkspace ws;
    engine::WorkloadProfile w = chatbot();
    (*ws).putWorkload(w);
    ui::SizingPage sizing(*ws);
    REQUIRE(sizing.result());
    const engine::SizingResult r = *sizing.result();

    ui::KvPage kv(*ws);
    kv.setVariants({{"llama-3.1-8b", "h100-sxm", engine::WeightPrecision::Bf16, engine::KvPrecision::Bf16}});
    kv.findChild<QLineEdit *>("kvContexts")->setText(QString::number(r.contextTokens));
    REQUIRE(kv.outcomes().size() == 1);
    const auto &outcome = kv.outcomes().front();
    REQUIRE(outcome.error.isEmpty());
    REQUIRE(outcome.result.streams.size() == 1);
    CHECK(outcome.result.streams.front().context == r.contextTokens);
    CHECK(outcome.result.streams.front().streams == r.streamsPerReplica);
    CHECK(outcome.result.poolBytes == r.kvPoolBytes);

    // Both follow one edit of the workspace's serving assumptions.
    engine::ServingAssumptions a = (*ws).servingAssumptions();
    a.memoryUtilization = 0.8;
    a.reserveBytes = 6LL << 30;
    a.blockSize = 32;
    (*ws).setServingAssumptions(a);
    REQUIRE(sizing.result());
    const engine::SizingResult &changed = *sizing.result();
    CHECK(changed.kvPoolBytes < r.kvPoolBytes);
    const auto &after = kv.outcomes().front();
    REQUIRE(after.result.streams.size() == 1);
    CHECK(after.result.poolBytes == changed.kvPoolBytes);
    CHECK(after.result.streams.front().streams == changed.streamsPerReplica);
}

TEST_CASE("The serving assumptions dialog edits the one set every page uses, as one undoable step")
{
    TempWorkspace ws;
    (*ws).putWorkload(chatbot());
    QUndoStack undo;
    ui::SizingPage sizing(*ws, &undo);
    REQUIRE(sizing.result());
    CHECK(sizing.result()->residency == engine::KvResidency::Request);
    auto *summary = sizing.findChild<QLabel *>("sizingServingSummary");
    REQUIRE(summary);
    CHECK(summary->text().contains("KV residency request"));
    const int64_t gpusRequest = sizing.result()->gpus;

    ui::ServingAssumptionsDialog dialog((*ws).servingAssumptions());
    auto *residency = dialog.findChild<QComboBox *>("servingResidency");
    auto *headroom = dialog.findChild<QDoubleSpinBox *>("servingHeadroom");
    REQUIRE(residency);
    REQUIRE(headroom);
    CHECK(headroom->value() == Approx(20.0));
    residency->setCurrentIndex(residency->findData(int(engine::KvResidency::Session)));
    headroom->setValue(30);
    ui::ServingAssumptionsDialog::apply(*ws, &undo, dialog.assumptions());
    CHECK(undo.count() == 1);
    CHECK((*ws).servingAssumptions().residency == engine::KvResidency::Session);
    CHECK((*ws).servingAssumptions().plannedHeadroom == Approx(0.3));
    // the page re-sized at once, with the workspace's residency
    REQUIRE(sizing.result());
    CHECK(sizing.result()->residency == engine::KvResidency::Session);
    CHECK(sizing.result()->gpus > gpusRequest);
    CHECK(summary->text().contains("KV residency session"));
    CHECK(sizing.findChild<QComboBox *>("sizingResidency")->currentData().toInt() == int(engine::KvResidency::Session));

    undo.undo();
    CHECK((*ws).servingAssumptions() == engine::ServingAssumptions{});
    REQUIRE(sizing.result());
    CHECK(sizing.result()->gpus == gpusRequest);
    // Applying what is already stored adds no step.
    ui::ServingAssumptionsDialog::apply(*ws, &undo, (*ws).servingAssumptions());
    CHECK(undo.count() == 1);
}
