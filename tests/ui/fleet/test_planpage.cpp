// The Plan page: a scenario's workloads planned in the background, the plan shown as the
// engine computes it, its front charted, and saved as a scenario that evaluates to its cents.
#include "common/uitestsupport.h"

#include "engine/fleet/plan.h"
#include "engine/inference/workload.h"
#include "store/fleet/scenarioinputs.h"
#include "ui/common/chartpanel.h"
#include "ui/common/dialogs.h"
#include "ui/fleet/plandeck.h"
#include "ui/fleet/planpage.h"
#include "ui/mainwindow.h"
#include "ui/report/reportsnapshot.h"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

engine::Decimal dec(const char *text)
{
    return *engine::Decimal::parse(text);
}

// The CLI plan fixture's chat workload: 12 H100s at its peak hour, 6 at night.
engine::WorkloadProfile chat(const std::string &name = "chat")
{
    engine::WorkloadProfile w;
    w.name = name;
    w.tenant = "product";
    w.modelId = "llama-3.1-8b";
    w.dailyActiveUsers = 100000;
    w.requestsPerUserPerDay = 10;
    w.peakSessionsPerUser = 0.1;
    for (int h = 0; h < 24; ++h)
        w.diurnal[size_t(h)] = h < 8 ? 0.5 : 1.0;
    w.promptTokens = {1000, 4000};
    w.outputTokens = {300, 1000};
    w.prefixHitRate = 0.2;
    w.ttftP95Ms = 2000;
    w.itlP95Ms = 50;
    w.trafficVariance = 1.5;
    w.measuredMaxStreams = 1000;
    w.measuredGoodputTokensPerS = 3000;
    w.gpuId = "h100-sxm";
    return w;
}

engine::Scenario scenario(const std::string &name, std::vector<std::string> workloads,
                          const std::string &provider = "Golden")
{
    engine::Pool pool;
    pool.name = "base";
    pool.gpuId = "h100-sxm";
    pool.tier = engine::PoolTier::Owned;
    pool.sizing = engine::PoolSizing::Fixed;
    pool.gpus = 16;
    pool.ownedRatePerGpuHour = dec("3.99");
    pool.workloads = std::move(workloads);
    engine::Scenario s;
    s.name = name;
    s.author = "Planner";
    s.provider = provider;
    s.region = "g";
    s.startDate = "2025-01-01"; // 12 months = 8,760 h
    s.pools = {pool};
    return s;
}

// One workload, the H100 card of DESIGN §3.7 with a 1-year commitment, and the static
// scenario serving it on 16 owned GPUs.
void seed(store::Workspace &workspace)
{
    engine::ServingAssumptions serving;
    serving.residency = engine::KvResidency::Session;
    workspace.setServingAssumptions(serving);
    workspace.putWorkload(chat());
    engine::RateCard card;
    card.provider = "Golden";
    card.region = "g";
    card.gpuId = "h100-sxm";
    card.effectiveDate = "2025-01-01";
    card.onDemand = dec("3.99");
    card.reserved1y = dec("2.50");
    card.source = "DESIGN §3.7";
    workspace.putRateCard(card);
    // A second GPU type, so that the plan has a runner-up.
    card.gpuId = "a100-sxm-80gb";
    card.onDemand = dec("2.40");
    card.reserved1y = dec("1.60");
    workspace.putRateCard(card);
    workspace.putScenario(scenario("static", {"chat"}));
}

// What the page plans for scenario `name` at the form's defaults, built as `headroom plan
// --scenario NAME` builds it.
engine::PlanRequest scenarioRequest(store::Workspace &workspace, const QString &name)
{
    engine::PlanRequest request;
    request.inputs = store::scenarioInputs(workspace);
    const engine::Scenario s = *workspace.scenario(name);
    std::vector<engine::WorkloadProfile> chosen;
    for (const engine::WorkloadProfile &w : request.inputs.workloads)
        if (std::find(s.pools[0].workloads.begin(), s.pools[0].workloads.end(), w.name) != s.pools[0].workloads.end())
            chosen.push_back(w);
    request.inputs.workloads = chosen;
    request.inputs.trainingJobs.clear();
    request.settings = s;
    request.settings.pools.clear();
    request.settings.name = "plan";
    return request;
}

template <typename Series>
Series *seriesNamed(QChart *chart, const QString &name)
{
    for (QAbstractSeries *s : chart->series())
        if (s->name() == name)
            return qobject_cast<Series *>(s);
    return nullptr;
}

// Runs the page and waits for it; whether it completed with a plan.
bool runAndWait(ui::PlanPage &page)
{
    QSignalSpy finished(&page, &ui::PlanPage::finished);
    QTest::mouseClick(page.findChild<QPushButton *>("planRun"), Qt::LeftButton);
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
    REQUIRE_FALSE(page.isRunning());
    return finished.takeFirst().at(0).toBool();
}

// "$559,238.40" → 55923840, "−$10.00" → −1000.
qint64 cents(QString text)
{
    const bool negative = text.startsWith(QStringLiteral("−"));
    text.remove(QRegularExpression(QStringLiteral("[^0-9.]")));
    const QStringList parts = text.split('.');
    REQUIRE(parts.size() == 2);
    const qint64 value = parts[0].toLongLong() * 100 + parts[1].toLongLong();
    return negative ? -value : value;
}

// The last column of a table, re-added to the cent.
qint64 lastColumnCents(const ui::DeckTable &table)
{
    qint64 sum = 0;
    for (const QStringList &row : table.rows)
        sum += cents(row.last());
    return sum;
}

} // namespace

TEST_CASE("Plan page plans a scenario's workloads as the engine does and saves the plan as a scenario of the same cents",
          "[planpage]")
{
    TempWorkspace ws;
    seed(*ws);
    QUndoStack undo;
    ui::PlanPage page(*ws, &undo);
    page.resize(1280, 800);
    page.show();

    auto *target = page.findChild<QComboBox *>("planTarget");
    auto *card = page.findChild<QComboBox *>("planRateCard");
    auto *horizon = page.findChild<QSpinBox *>("planHorizon");
    auto *create = page.findChild<QPushButton *>("planCreateScenario");
    REQUIRE(target);
    REQUIRE(card);
    REQUIRE(horizon);
    REQUIRE(create);
    CHECK(target->itemText(0) == "Every workload");
    CHECK(target->findText("static") == 1);
    CHECK(card->isEnabled());
    CHECK_FALSE(create->isEnabled());

    // A scenario sets the card and the term: shown, not editable.
    target->setCurrentIndex(target->findText("static"));
    CHECK_FALSE(card->isEnabled());
    CHECK(card->currentText() == "Golden · g");
    CHECK_FALSE(horizon->isEnabled());
    CHECK(horizon->value() == 12);

    REQUIRE(runAndWait(page));
    REQUIRE(page.result());
    const engine::PlanResult direct = engine::planPortfolio(scenarioRequest(*ws, "static"));
    CHECK(page.result()->best.costOverTerm == direct.best.costOverTerm);
    const QString cost = QString::fromStdString(direct.best.costOverTerm.display());
    INFO(page.summaryText().toStdString());
    CHECK(page.summaryText().contains(cost + " over the 12-month term"));
    // The scenario's own cost beside the plan's (the CLI fixture's golden figure).
    CHECK(page.summaryText().contains("Scenario “static” costs $559,238.40 over the same term: the plan saves"));

    auto *workloads = page.findChild<QTableWidget *>("planWorkloads");
    REQUIRE(workloads);
    REQUIRE(workloads->rowCount() == 1);
    CHECK(workloads->item(0, 0)->text() == "chat");
    CHECK(workloads->item(0, 1)->text() == QString::fromStdString(direct.best.workloads[0].gpuId));
    CHECK(workloads->horizontalHeaderItem(7)->text() == "TTFT / SLO\n(ms)");
    auto *pools = page.findChild<QTableWidget *>("planPools");
    REQUIRE(pools);
    CHECK(pools->rowCount() == int(direct.best.pools.size() + direct.best.jobs.size()));
    CHECK(pools->item(0, 7)->text() == QString::fromStdString(direct.best.pools[0].costOverTerm.display()));
    auto *explanation = page.findChild<QLabel *>("planExplanation");
    REQUIRE(explanation);
    CHECK(explanation->text().contains("Why this plan"));
    REQUIRE(direct.runnersUp.size() >= 1);
    CHECK(explanation->text().contains("Runners-up"));
    CHECK(explanation->text().contains(QString::fromStdString(direct.runnersUp[0].costOverTerm.display())));
    CHECK(explanation->text().contains("gap 0"));

    // The front: 0 %, 10 %, …, 100 % committed at most, and the plan shown at its own cap.
    REQUIRE(page.chartPanels().size() == 1);
    ui::ChartPanel *panel = page.chartPanels().front();
    CHECK(panel->figure().title == "Cost against commitment");
    QChart *chart = panel->chart();
    REQUIRE(chart);
    auto *front = seriesNamed<QLineSeries>(chart, "Cheapest plan at each cap");
    REQUIRE(front);
    REQUIRE(front->count() == 11);
    CHECK(front->at(0).x() == Approx(0));
    CHECK(front->at(10).x() == Approx(100));
    auto *chosen = seriesNamed<QScatterSeries>(chart, "This plan");
    REQUIRE(chosen);
    REQUIRE(chosen->count() == 1);
    CHECK(chosen->at(0).x() == Approx(100));
    CHECK(chosen->at(0).y() == Approx(front->at(10).y()));
    // ... and it drew ink.
    QApplication::processEvents();
    const QImage image = panel->grab().toImage();
    const QRgb ground = image.pixel(2, 2);
    int inked = 0;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            inked += image.pixel(x, y) != ground;
    CHECK(inked > 200);

    // Create scenario…: the name asked, the plan saved, undoable, and priced to the same cents.
    REQUIRE(create->isEnabled());
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueTextAnswer("planned");
    QTest::mouseClick(create, Qt::LeftButton);
    const auto saved = (*ws).scenario("planned");
    REQUIRE(saved);
    CHECK(saved->name == "planned");
    CHECK(engine::evaluateScenario(*saved, store::scenarioInputs(*ws)).costOverTerm.cents()
          == direct.best.costOverTerm.cents());
    CHECK(page.statusText().contains("Saved the plan as scenario \"planned\""));
    CHECK(undo.count() == 1);
    CHECK(target->findText("planned") >= 0);
    undo.undo();
    CHECK_FALSE((*ws).scenarioSummary("planned"));
    undo.redo();
    CHECK((*ws).scenarioSummary("planned"));

    // An existing name is refused with the reason; nothing is saved.
    ui::Dialogs::takeShownMessages();
    ui::Dialogs::queueTextAnswer("static");
    QTest::mouseClick(create, Qt::LeftButton);
    CHECK(ui::Dialogs::takeShownMessages().join('\n').contains("a scenario named \"static\" exists already"));
    CHECK(undo.count() == 1);
    CHECK(page.createScenario("  ") == false);
    ui::Dialogs::setScripted(false);
}

TEST_CASE("Plan page every-workload mode uses the chosen card and horizon and a cancelled run changes nothing",
          "[planpage]")
{
    TempWorkspace ws;
    seed(*ws);
    QUndoStack undo;
    ui::PlanPage page(*ws, &undo);
    page.show();
    auto *card = page.findChild<QComboBox *>("planRateCard");
    auto *horizon = page.findChild<QSpinBox *>("planHorizon");
    page.selectTarget(QString());
    card->setCurrentIndex(card->findText("Golden · g"));
    REQUIRE(card->currentIndex() >= 0);
    horizon->setValue(6);
    // A scenario's term is shown while it is chosen; the own horizon comes back after.
    page.selectTarget("static");
    CHECK(horizon->value() == 12);
    page.selectTarget(QString());
    CHECK(horizon->value() == 6);

    REQUIRE(runAndWait(page));
    REQUIRE(page.result());
    // A 6-month term leaves the 1-year commitment out: every pool is elastic.
    for (const engine::PlannedPool &p : page.result()->best.pools)
        CHECK(p.committedGpus == 0);
    CHECK(page.summaryText().contains("over the 6-month term at Golden · g"));
    const engine::Money before = page.result()->best.costOverTerm;

    // Cancel as soon as it starts: when the run stops early, the plan shown stays.
    QSignalSpy finished(&page, &ui::PlanPage::finished);
    page.findChild<QCheckBox *>("planSpot")->setChecked(true);
    page.run();
    page.cancel();
    REQUIRE(QTest::qWaitFor([&] { return finished.count() > 0; }, 60000));
    if (!finished.takeFirst().at(0).toBool()) {
        CHECK(page.statusText() == "Cancelled; the previous plan is kept.");
        REQUIRE(page.result());
        CHECK(page.result()->best.costOverTerm == before);
        CHECK(page.findChild<QPushButton *>("planCreateScenario")->isEnabled());
    }
}

TEST_CASE("Plan page plans over 14 workloads in blocks and says why bad input is not planned", "[planpage]")
{
    TempWorkspace ws;
    seed(*ws);
    std::vector<std::string> many;
    for (int i = 1; i <= 15; ++i) {
        many.push_back("chat " + std::to_string(i));
        (*ws).putWorkload(chat(many.back()));
    }
    (*ws).putScenario(scenario("too many", many));
    (*ws).putScenario(scenario("nowhere", {"chat"}, "Nowhere"));
    QUndoStack undo;
    ui::PlanPage page(*ws, &undo);
    page.show();
    auto *workloads = page.findChild<QTableWidget *>("planWorkloads");
    auto *create = page.findChild<QPushButton *>("planCreateScenario");

    // Over 14 workloads: planned in blocks, the method saying so, every workload in the table.
    page.selectTarget("too many");
    REQUIRE(runAndWait(page));
    REQUIRE(page.result());
    CHECK(page.result()->method.find("In blocks: 15 workloads") != std::string::npos);
    CHECK(workloads->rowCount() == 15);
    CHECK(create->isEnabled());
    CHECK(page.findChild<QLabel *>("planExplanation")->text().contains("not proven over the whole space"));
    CHECK(page.summaryText().contains("Scenario “too many” costs"));

    // A scenario on a card the workspace lacks: the engine's reason, named by its field.
    page.selectTarget("nowhere");
    CHECK(page.findChild<QComboBox *>("planRateCard")->currentIndex() == -1);
    CHECK_FALSE(runAndWait(page));
    INFO(page.statusText().toStdString());
    CHECK(page.statusText().startsWith("Not planned (Rate card): the rate card Nowhere g prices none of the GPUs"));
    CHECK_FALSE(page.result());
    CHECK(workloads->rowCount() == 0);
    CHECK_FALSE(create->isEnabled());
}

TEST_CASE("Plan page adds the plan's slides to the report as one undoable step and exports the plan's deck",
          "[planpage]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath("plan.headroom");
    {
        store::Workspace ws(path);
        seed(ws);
    }
    ui::MainWindow window(std::make_unique<store::Workspace>(path));
    window.resize(1280, 800);
    window.show();
    REQUIRE(window.showPage("Plan"));
    auto *page = window.findChild<ui::PlanPage *>();
    REQUIRE(page);
    auto *add = page->findChild<QPushButton *>("planAddToReport");
    auto *exportDeck = page->findChild<QPushButton *>("planExportDeck");
    REQUIRE(add);
    REQUIRE(exportDeck);
    CHECK_FALSE(add->isEnabled());
    CHECK_FALSE(exportDeck->isEnabled());
    CHECK_FALSE(page->addToReport());
    CHECK(page->statusText() == "Not added: run the plan first.");

    page->selectTarget("static");
    REQUIRE(runAndWait(*page));
    REQUIRE(page->shownPlan());
    const engine::PlanOption &best = page->result()->best;
    const QString cost = QString::fromStdString(best.costOverTerm.display());
    CHECK(add->isEnabled());
    CHECK(exportDeck->isEnabled());

    // Add plan to report: five slides, in the deck's order, one step on the window's undo stack.
    const int undoBefore = window.undoStack()->count();
    QTest::mouseClick(add, Qt::LeftButton);
    CHECK(page->statusText().contains("Added the plan's 5 slides to the report"));
    std::vector<store::ReportItem> items = window.workspace().reportItems();
    REQUIRE(items.size() == 5);
    CHECK(items[0].title == "Plan: why this plan");
    CHECK(items[0].kind == store::ReportItem::Kind::Text);
    CHECK(items[0].content.contains("The plan costs " + cost + " over the term"));
    CHECK(items[1].title == "Plan: workloads");
    CHECK(items[1].caption.startsWith(cost + " over the Golden · g, 12-month term"));
    CHECK(items[2].title == "Plan: pools and jobs");
    CHECK(items[3].title == "Cost against commitment");
    CHECK(items[3].kind == store::ReportItem::Kind::Figure);
    CHECK(items[3].content.contains("<svg"));
    CHECK(items[4].title == "Plan: how it was found");
    CHECK(items[4].content.contains("gap 0"));
    for (const store::ReportItem &item : items) {
        CHECK(item.source.isEmpty());  // snapshots of the plan shown, stamped
        CHECK_FALSE(item.takenAt.isEmpty());
        CHECK(item.inputsFingerprint == window.workspace().inputsFingerprint());
    }
    // The stored pools table re-adds to the plan's cost.
    const QJsonObject pools = QJsonDocument::fromJson(items[2].content.toUtf8()).object();
    ui::DeckTable stored;
    for (const QJsonValue &row : pools.value("rows").toArray()) {
        QStringList cells;
        for (const QJsonValue &cell : row.toArray())
            cells << cell.toString();
        stored.rows << cells;
    }
    REQUIRE(stored.rows.size() == int(best.pools.size() + best.jobs.size()));
    CHECK(lastColumnCents(stored) == cents(cost));
    REQUIRE(window.undoStack()->count() == undoBefore + 1);
    window.undoStack()->undo();
    CHECK(window.workspace().reportItems().empty());
    window.undoStack()->redo();
    CHECK(window.workspace().reportItems().size() == 5);

    // The plan's own deck: the plan beside the scenario, recommended, the tables re-adding.
    const ui::Deck deck = ui::planDeck(window.workspace(), *page->shownPlan());
    CHECK(deck.title == QStringLiteral("Portfolio plan for “static”"));
    REQUIRE(deck.summary.size() == 2);
    CHECK(deck.summary[0].name == "Plan");
    CHECK(deck.summary[1].name == "static");
    const auto figure = [](const ui::DeckSummaryEntry &e, const QString &label) {
        for (const auto &[name, value] : e.figures)
            if (name == label)
                return value;
        return QString();
    };
    // The plan evaluated as the scenario it becomes: the same cents.
    CHECK(figure(deck.summary[0], "Over the term") == cost);
    CHECK(figure(deck.summary[1], "Over the term") == "$559,238.40");
    CHECK(deck.recommendation.startsWith("Choose Plan"));
    QStringList titles;
    for (const ui::DeckItem &item : deck.items)
        titles << item.title;
    CHECK(titles == QStringList{"Why this plan", "Plan: workloads", "Plan: pools and jobs", "Cost against commitment",
                                "How the plan was found"});
    CHECK(deck.items[0].bulleted);
    const ui::DeckItem &workloads = deck.items[1];
    REQUIRE(workloads.keyFigures.size() == 5);
    CHECK(workloads.keyFigures[0].second == cost);
    CHECK(cents(workloads.keyFigures[4].second) == cents(cost) - 55923840);
    CHECK(lastColumnCents(deck.items[2].table) == cents(cost));
    CHECK_FALSE(deck.assumptions.empty());

    // Export deck…: written in the background, the status naming the file.
    QSignalSpy exported(page, &ui::PlanPage::deckExported);
    const QString pdf = dir.filePath("plan.pdf");
    page->exportDeck(pdf);
    REQUIRE(QTest::qWaitFor([&] { return exported.count() > 0; }, 60000));
    CHECK(exported.first().at(0).toBool());
    CHECK(page->statusText().contains("Wrote the plan deck to"));
    QProcess text;
    text.start("pdftotext", {pdf, "-"});
    REQUIRE(text.waitForFinished(20000));
    const QString words = QString::fromUtf8(text.readAllStandardOutput());
    CHECK(words.contains("Why this plan"));
    CHECK(words.contains("How the plan was found"));
    CHECK(words.contains(cost));
    CHECK(add->isEnabled());
}
