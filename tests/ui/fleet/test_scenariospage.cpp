#include "common/uitestsupport.h"

#include "store/common/demoworkspace.h"
#include "store/fleet/scenariojson.h"
#include "ui/common/chartexport.h"
#include "ui/common/chartpanel.h"
#include "ui/common/dialogs.h"
#include "ui/common/format.h"
#include "ui/mainwindow.h"
#include "ui/fleet/scenariocharts.h"
#include "ui/fleet/scenariospage.h"

#include <QBarSet>
#include <QCheckBox>
#include <QBarSeries>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QTabWidget>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

// The demo workspace (workloads, rate cards and five scenarios) in a temporary folder.
struct DemoWorkspace {
    QTemporaryDir dir;
    std::unique_ptr<store::Workspace> workspace;

    DemoWorkspace()
    {
        REQUIRE(dir.isValid());
        workspace = std::make_unique<store::Workspace>(store::createDemoWorkspace(dir.filePath("demo.headroom")));
    }
    store::Workspace &operator*() { return *workspace; }
};

QStringList listedNames(const QTableWidget *list)
{
    QStringList names;
    for (int i = 0; i < list->rowCount(); ++i)
        names << list->item(i, 0)->text();
    return names;
}

QString tableText(const QTableWidget *table)
{
    QStringList cells;
    for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < table->columnCount(); ++c)
            if (table->item(r, c))
                cells << table->item(r, c)->text();
    return cells.join(QLatin1Char('|'));
}

std::vector<double> values(const QBarSet *set)
{
    std::vector<double> v;
    for (int i = 0; i < set->count(); ++i)
        v.push_back(set->at(i));
    return v;
}

QBarSet *setNamed(const QList<QBarSet *> &sets, const QString &label)
{
    for (QBarSet *s : sets)
        if (s->label() == label)
            return s;
    FAIL("no bar set " << label.toStdString());
    return nullptr;
}

} // namespace

TEST_CASE("Scenarios page: new, duplicate, rename and delete, each undoable")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    auto *list = page.findChild<QTableWidget *>("scenarioList");
    REQUIRE(list);
    CHECK(list->rowCount() == 0);

    page.newScenario();
    CHECK(listedNames(list) == QStringList{"scenario 1"});
    CHECK(page.currentName() == "scenario 1");
    REQUIRE((*ws).scenarioSummary("scenario 1"));
    CHECK((*ws).scenarioSummary("scenario 1")->version == 1);
    CHECK(list->item(0, 2)->text() == "1");
    REQUIRE(page.result());
    CHECK(page.result()->pools.size() == 1);

    page.duplicateScenario();
    CHECK(listedNames(list) == QStringList{"scenario 1", "scenario 1 (copy)"});
    CHECK(page.currentName() == "scenario 1 (copy)");

    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueTextAnswer("reserved only");
    page.renameWithDialog();
    CHECK(listedNames(list) == QStringList{"reserved only", "scenario 1"});
    CHECK(page.currentName() == "reserved only");
    CHECK((*ws).scenarioSummary("reserved only")->version == 2);

    // A rename onto an existing name is refused with the reason; nothing changes.
    ui::Dialogs::queueTextAnswer("scenario 1");
    page.renameWithDialog();
    QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("exists already"));
    CHECK(listedNames(list) == QStringList{"reserved only", "scenario 1"});

    // Delete asks first: No keeps the scenario, Yes removes it, Undo brings it back.
    ui::Dialogs::queueQuestionAnswer(false);
    page.deleteScenario();
    shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("reserved only"));
    CHECK((*ws).scenarioSummary("reserved only"));
    ui::Dialogs::queueQuestionAnswer(true);
    page.deleteScenario();
    ui::Dialogs::setScripted(false);
    CHECK_FALSE((*ws).scenarioSummary("reserved only"));
    CHECK(listedNames(list) == QStringList{"scenario 1"});

    undo.undo(); // delete
    CHECK((*ws).scenarioSummary("reserved only"));
    undo.undo(); // rename
    CHECK(listedNames(list) == QStringList{"scenario 1", "scenario 1 (copy)"});
    undo.undo(); // duplicate
    CHECK(listedNames(list) == QStringList{"scenario 1"});
    undo.redo();
    undo.redo();
    CHECK(listedNames(list) == QStringList{"reserved only", "scenario 1"});
}

TEST_CASE("Scenarios page: editing a pool re-evaluates at once, with exact money")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Support bot static");
    REQUIRE(page.result());
    CHECK(page.result()->costPerDay.cents() == "1532.16");
    auto *table = page.findChild<QTableWidget *>("scenarioCostTable");
    REQUIRE(table);
    CHECK(tableText(table).contains("$1,532.16"));
    CHECK(tableText(table).contains("$45,964.80")); // 30 days

    QSignalSpy evaluated(&page, &ui::ScenariosPage::evaluated);
    auto *gpus = page.findChild<QSpinBox *>("poolGpus0");
    REQUIRE(gpus);
    CHECK(gpus->value() == 16);
    gpus->setValue(20);
    CHECK(evaluated.count() >= 1);
    REQUIRE(page.result());
    CHECK(page.result()->pools.at(0).gpus == 20);
    CHECK(page.result()->costPerDay.cents() == "1915.20"); // 20 × $3.99 × 24 h
    CHECK(tableText(table).contains("$1,915.20"));
    CHECK((*ws).scenario("Support bot static")->pools.at(0).gpus == 20);

    // Switching the pool to on-demand makes it elastic: billed for the 240 GPU-hours a day it uses.
    auto *tier = page.findChild<QComboBox *>("poolTier0");
    REQUIRE(tier);
    tier->setCurrentIndex(tier->findData(int(engine::PoolTier::OnDemand)));
    REQUIRE(page.result());
    CHECK(page.result()->pools.at(0).role == engine::PoolRole::ElasticTop);
    CHECK(page.result()->costPerDay.cents() == "957.60");
}

TEST_CASE("Scenarios page: undo and redo of edits restore the stored scenario, drags merge")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Code fleet 64 GPUs");
    const engine::Scenario original = *(*ws).scenario("Code fleet 64 GPUs");
    const int64_t version = (*ws).scenarioSummary("Code fleet 64 GPUs")->version;

    auto *gpus = page.findChild<QSpinBox *>("poolGpus0");
    REQUIRE(gpus);
    for (int v : {65, 66, 67, 68})
        gpus->setValue(v); // a drag: one undo step
    CHECK(undo.count() == 1);
    CHECK((*ws).scenario("Code fleet 64 GPUs")->pools.at(0).gpus == 68);
    CHECK((*ws).scenarioSummary("Code fleet 64 GPUs")->version == version + 4);

    auto *author = page.findChild<QLineEdit *>("scenarioAuthor");
    REQUIRE(author);
    author->setText("Capacity review board");
    emit author->editingFinished();
    CHECK(undo.count() == 2);
    CHECK((*ws).scenarioSummary("Code fleet 64 GPUs")->author == "Capacity review board");

    undo.undo();
    CHECK((*ws).scenarioSummary("Code fleet 64 GPUs")->author == QString::fromStdString(original.author));
    CHECK(author->text() == QString::fromStdString(original.author));
    undo.undo();
    CHECK(store::scenarioJsonText(*(*ws).scenario("Code fleet 64 GPUs")) == store::scenarioJsonText(original));
    CHECK(gpus->value() == 64);
    REQUIRE(page.result());
    CHECK(page.result()->costPerDay.cents() == "6128.64");
    undo.redo();
    CHECK((*ws).scenario("Code fleet 64 GPUs")->pools.at(0).gpus == 68);
    CHECK(page.result()->pools.at(0).gpus == 68);
}

TEST_CASE("Scenarios page: invalid edits are refused with the field named, nothing saved")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Support bot static");
    auto *name = page.findChild<QLineEdit *>("scenarioName");
    REQUIRE(name);
    name->setText("Support bot elastic");
    emit name->editingFinished();
    CHECK(page.statusText().contains("exists already"));
    CHECK(undo.count() == 0);

    auto *gpus = page.findChild<QSpinBox *>("poolGpus0");
    gpus->setValue(0); // a fixed static pool needs at least one GPU
    CHECK(page.statusText().contains("pools[0]"));
    CHECK(undo.count() == 0);
    CHECK((*ws).scenario("Support bot static")->pools.at(0).gpus == 16);
    CHECK(gpus->value() == 16);
}

TEST_CASE("Scenarios page: a deleted workload is warned about and the scenario kept")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Support bot elastic");
    REQUIRE((*ws).removeWorkload("support-assistant"));
    REQUIRE(page.result());
    CHECK((*ws).scenarioSummary("Support bot elastic"));
    bool warned = false;
    for (const auto &w : page.result()->warnings)
        warned = warned || (w.code == "missing_workload" && w.message.find("support-assistant") != std::string::npos);
    CHECK(warned);
    auto *assignments = page.findChild<QTableWidget *>("scenarioAssignments");
    REQUIRE(assignments);
    CHECK(tableText(assignments).contains("support-assistant (missing)"));
    auto *warnings = page.findChild<QListWidget *>("scenarioWarnings");
    REQUIRE(warnings);
    CHECK(warnings->count() >= 1);
}

TEST_CASE("Scenarios page: assigning a workload to a pool is saved and evaluated")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Code fleet 64 GPUs");
    auto *assignments = page.findChild<QTableWidget *>("scenarioAssignments");
    REQUIRE(assignments);
    int row = -1;
    for (int r = 0; r < assignments->rowCount(); ++r)
        if (assignments->item(r, 0)->text() == "support-assistant")
            row = r;
    REQUIRE(row >= 0);
    assignments->item(row, 1)->setCheckState(Qt::Checked);
    const auto stored = (*ws).scenario("Code fleet 64 GPUs");
    CHECK(stored->pools.at(0).workloads == std::vector<std::string>{"code-assistant", "support-assistant"});
    REQUIRE(page.result());
    CHECK(page.result()->utilization > 926.0 / 1536.0);
    undo.undo();
    CHECK((*ws).scenario("Code fleet 64 GPUs")->pools.at(0).workloads == std::vector<std::string>{"code-assistant"});
}

TEST_CASE("Scenarios page: ticking a workload leaves every row where it was, so the next click lands on the row meant")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Code fleet 64 GPUs");
    auto *assignments = page.findChild<QTableWidget *>("scenarioAssignments");
    REQUIRE(assignments);
    auto names = [&] {
        QStringList shown;
        for (int r = 0; r < assignments->rowCount(); ++r)
            shown << assignments->item(r, 0)->text();
        return shown;
    };
    const QStringList before = names();
    REQUIRE(before.size() >= 3);
    // The scenario's own workload first, then the rest: tick the last row, then the one above it.
    const int last = assignments->rowCount() - 1;
    const QString lastName = before[last];
    assignments->item(last, 1)->setCheckState(Qt::Checked);
    CHECK(names() == before);
    assignments->item(last - 1, 1)->setCheckState(Qt::Checked);
    CHECK(names() == before);
    const auto stored = (*ws).scenario("Code fleet 64 GPUs");
    const auto &assigned = stored->pools.at(0).workloads;
    auto holds = [&](const QString &label) {
        const std::string name = label.section(' ', 0, 0).toStdString();
        return std::find(assigned.begin(), assigned.end(), name) != assigned.end()
            || std::find(stored->pools.at(0).trainingJobs.begin(), stored->pools.at(0).trainingJobs.end(), name)
                   != stored->pools.at(0).trainingJobs.end();
    };
    CHECK(holds(lastName));
    CHECK(holds(before[last - 1]));
    // Another scenario, and back: the used rows come first again.
    page.selectScenario("Support bot static");
    page.selectScenario("Code fleet 64 GPUs");
    CHECK(names().indexOf(lastName) < last);
}

TEST_CASE("Scenarios page: comparing static and elastic shows the deltas and the charts' data")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.setCompared({"Support bot static", "Support bot elastic"});
    CHECK(page.compared() == QStringList{"Support bot static", "Support bot elastic"});
    REQUIRE(page.comparison());
    const auto *day = page.comparison()->find("cost_per_day");
    REQUIRE(day);
    CHECK(day->values.at(0).toString(2) == "1532.16");
    CHECK(day->values.at(1).toString(2) == "957.60");
    CHECK(day->deltas.at(1).toString(2) == "-574.56");
    auto *table = page.findChild<QTableWidget *>("scenarioCompareTable");
    REQUIRE(table);
    CHECK(tableText(table).contains(QStringLiteral("−$574.56")));
    CHECK(tableText(table).contains(QStringLiteral("−$17,236.80")));
    CHECK(table->horizontalHeaderItem(1)->text().contains("baseline"));

    const auto panels = page.chartPanels();
    REQUIRE(panels.size() == 3);
    // Monthly cost by tier, USD thousands: owned $45,964.80 for static, on-demand $28,728.00 for elastic.
    auto *cost = qobject_cast<QBarSeries *>(panels[0]->chart()->series().value(0));
    REQUIRE(cost);
    const auto costOwned = values(setNamed(cost->barSets(), "Owned"));
    const auto costOnDemand = values(setNamed(cost->barSets(), "On-demand"));
    CHECK(costOwned.at(0) == Approx(45.9648));
    CHECK(costOwned.at(1) == Approx(0));
    CHECK(costOnDemand.at(0) == Approx(0));
    CHECK(costOnDemand.at(1) == Approx(28.728));
    // GPUs by pool: 16 static GPUs against an elastic peak of 16.
    auto *gpus = qobject_cast<QStackedBarSeries *>(panels[1]->chart()->series().value(0));
    REQUIRE(gpus);
    CHECK(values(setNamed(gpus->barSets(), "dedicated (static)")) == std::vector<double>{16, 0});
    CHECK(values(setNamed(gpus->barSets(), "queue-scaled (elastic peak)")) == std::vector<double>{0, 16});
    // Utilization: 240 of 384 GPU-hours a day used on the static fleet; the elastic one pays for what it uses.
    auto *util = qobject_cast<QBarSeries *>(panels[2]->chart()->series().value(0));
    REQUIRE(util);
    CHECK(values(setNamed(util->barSets(), "Whole fleet")).at(0) == Approx(62.5));
    CHECK(values(setNamed(util->barSets(), "Whole fleet")).at(1) == Approx(100));

    // The baseline can be switched: the deltas turn around.
    auto *baseline = page.findChild<QComboBox *>("scenarioBaseline");
    REQUIRE(baseline);
    baseline->setCurrentIndex(baseline->findText("Support bot elastic"));
    REQUIRE(page.comparison());
    CHECK(page.comparison()->find("cost_per_day")->deltas.at(1).toString(2) == "574.56");

    // One scenario is not a comparison; five are too many.
    page.setCompared({"Support bot static"});
    CHECK_FALSE(page.comparison());
    page.setCompared({"Chatbot core + flex", "Internal MIG tenants", "Code fleet 64 GPUs", "Support bot static",
                      "Support bot elastic"});
    CHECK_FALSE(page.comparison());
    CHECK(page.findChild<QLabel *>("scenarioCompareNote")->text().contains("at most 4"));
}

TEST_CASE("Scenario figures: the diagram paints the pools and the comparison figures export")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Chatbot core + flex");
    REQUIRE(page.result());
    const auto figure = page.currentFigure();
    REQUIRE(figure);
    CHECK(figure->title.contains("Chatbot core + flex"));
    REQUIRE(figure->paint);
    QImage image(ui::kFigureWidth, ui::kFigureHeight, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    ui::renderFigure(painter, QRectF(0, 0, ui::kFigureWidth, ui::kFigureHeight), *figure);
    painter.end();
    // The reserved core is painted in the reserved colour near the bottom of the plot.
    const QColor reserved = ui::tierColor(engine::PoolTier::Reserved1y);
    int reservedPixels = 0;
    for (int y = ui::kFigureHeight / 2; y < ui::kFigureHeight - 100; ++y)
        for (int x = 80; x < 560; x += 4)
            reservedPixels += image.pixelColor(x, y) == reserved;
    CHECK(reservedPixels > 1000);

    QTemporaryDir dir;
    page.setCompared({"Chatbot core + flex", "Support bot elastic", "Code fleet 64 GPUs"});
    REQUIRE(page.comparedResults().size() == 3);
    for (const auto &f : {ui::costByTierFigure(page.comparedResults()), ui::gpusByPoolFigure(page.comparedResults()),
                          ui::utilizationFigure(page.comparedResults()), *figure}) {
        QString error;
        const QString path = dir.filePath(f.title.left(12).replace(' ', '-') + ".pdf");
        CHECK(ui::exportFigure(f, path, &error));
        CHECK(QFileInfo(path).size() > 1000);
    }
}

TEST_CASE("Scenarios page: the elastic pool's KEDA and DRA YAML, saved or refused")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Support bot elastic");
    page.showYaml("keda");
    CHECK(page.yamlText().contains("kind: ScaledObject"));
    CHECK(page.yamlText().contains("minReplicaCount: 0"));
    CHECK(page.yamlText().contains("vllm:num_requests_waiting"));
    page.showYaml("dra");
    CHECK(page.yamlText().contains("kind: ResourceClaimTemplate"));
    CHECK(page.yamlText().contains("firstAvailable"));
    // Exact product names, not substrings: "A100" would also take an A100 40GB.
    CHECK(page.yamlText().contains(R"(productName == \"NVIDIA H100 80GB HBM3\")"));
    CHECK(page.yamlText().contains(R"(productName == \"NVIDIA A100-SXM4-80GB\")"));
    CHECK_FALSE(page.yamlText().contains("contains("));

    QTemporaryDir dir;
    QString error;
    CHECK(page.saveYaml(dir.filePath("claim.yaml"), &error));
    CHECK(QFileInfo(dir.filePath("claim.yaml")).size() > 50);
    CHECK_FALSE(page.saveYaml(dir.filePath("missing/folder/claim.yaml"), &error));
    CHECK(error.contains("claim.yaml"));

    // An existing file is replaced only when asked (the dialog confirms it first).
    const auto contents = [](const QString &path) {
        QFile file(path);
        REQUIRE(file.open(QIODevice::ReadOnly));
        return file.readAll();
    };
    const QByteArray saved = contents(dir.filePath("claim.yaml"));
    {
        QFile file(dir.filePath("claim.yaml"));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("previous: claim\n");
    }
    CHECK_FALSE(page.saveYaml(dir.filePath("claim.yaml"), &error));
    CHECK(error.contains("already exists"));
    CHECK(contents(dir.filePath("claim.yaml")) == "previous: claim\n");
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueFileAnswer(dir.filePath("claim.yaml"));
    ui::Dialogs::queueQuestionAnswer(false);
    page.saveYamlWithDialog();
    CHECK(ui::Dialogs::takeShownMessages().size() == 1);
    CHECK(contents(dir.filePath("claim.yaml")) == "previous: claim\n");
    ui::Dialogs::queueFileAnswer(dir.filePath("claim"));
    ui::Dialogs::queueQuestionAnswer(true);
    page.saveYamlWithDialog();
    CHECK(ui::Dialogs::takeShownMessages().first().contains("claim.yaml already exists"));
    CHECK(contents(dir.filePath("claim.yaml")) == saved);
    // A symbolic link is refused; the file it points to is not written.
    REQUIRE(QFile::link(dir.filePath("claim.yaml"), dir.filePath("link.yml")));
    CHECK_FALSE(page.saveYaml(dir.filePath("link.yml"), &error, store::ExistingFile::Replace));
    CHECK(error.contains("symbolic link"));
    ui::Dialogs::queueFileAnswer(dir.filePath("link.yml"));
    ui::Dialogs::queueQuestionAnswer(true);
    page.saveYamlWithDialog();
    CHECK(ui::Dialogs::takeShownMessages().first().contains("symbolic link"));
    CHECK(contents(dir.filePath("claim.yaml")) == saved);
    ui::Dialogs::setScripted(false);

    // A fleet without an elastic pool has nothing to deploy, and says so.
    page.selectScenario("Support bot static");
    CHECK(page.yamlText().isEmpty());
    CHECK_FALSE(page.saveYaml(dir.filePath("none.yaml"), &error));
}

TEST_CASE("File ▸ Open Demo Workspace opens the demo on the Scenarios page")
{
    QTemporaryDir dir;
    ui::MainWindow window(std::make_unique<store::Workspace>(dir.filePath("w.headroom")));
    REQUIRE(window.openDemoWorkspace());
    CHECK(window.workspace().path() == store::demoWorkspacePath());
    CHECK(window.currentPage() == window.scenariosPage());
    CHECK(window.workspace().scenarioNames().size() == 5);
    CHECK(window.scenariosPage()->findChild<QTableWidget *>("scenarioList")->rowCount() == 5);
}

TEST_CASE("Scenarios page: the demo's reserved core over its 12 calendar months, rate exact, columns re-adding")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Chatbot core + flex");
    REQUIRE(page.result());
    const engine::ScenarioResult &r = *page.result();
    // No start date stored: the first of the month after the card's as-of date 2025-06-01.
    CHECK(r.startDate == "2025-07-01");
    CHECK(r.termHours == 8760);
    const engine::PoolResult &core = r.pools.at(0);
    REQUIRE(core.gpus == 240);
    auto *table = page.findChild<QTableWidget *>("scenarioCostTable");
    REQUIRE(table);
    CHECK(table->item(0, 1)->text() == "$3.8192 USD");
    CHECK(table->item(0, 2)->text() == "$21,998.59");       // 240 × 3.8192 × 24
    CHECK(table->item(0, 4)->text() == "$8,029,486.08");   // 240 × 3.8192 × 8,760 h
    // Every money column's Fleet row is the sum of the rows shown above it.
    const int fleet = table->rowCount() - 1;
    for (int column : {2, 3, 4}) {
        INFO("column " << column);
        qint64 sum = 0;
        for (int row = 0; row < fleet; ++row) {
            QString digits = table->item(row, column)->text();
            digits.remove(QRegularExpression(QStringLiteral("[^0-9]")));
            sum += digits.toLongLong();
        }
        QString total = table->item(fleet, column)->text();
        total.remove(QRegularExpression(QStringLiteral("[^0-9]")));
        CHECK(sum == total.toLongLong());
    }

    // A start date in a leap year: 8,784 h.
    auto *start = page.findChild<QLineEdit *>("scenarioStartDate");
    REQUIRE(start);
    start->setText("2028-01-01");
    emit start->editingFinished();
    REQUIRE(page.result());
    CHECK((*ws).scenario("Chatbot core + flex")->startDate == "2028-01-01");
    CHECK(page.result()->termHours == 8784);
    CHECK(page.result()->pools.at(0).costOverTerm.cents() == "8051484.67");
    // A bad date is refused, the field named, nothing saved.
    start->setText("2028-02-30");
    emit start->editingFinished();
    CHECK((*ws).scenario("Chatbot core + flex")->startDate == "2028-01-01");
}

TEST_CASE("Scenarios page: the capacity view shows planned headroom and spare GPUs apart, and both views fit")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Chatbot core + flex");
    REQUIRE(page.result());
    auto *table = page.findChild<QTableWidget *>("scenarioCapacityTable");
    REQUIRE(table);
    REQUIRE(table->rowCount() == int(page.result()->pools.size()) + 1);
    for (int row = 0; row < int(page.result()->pools.size()); ++row) {
        const engine::PoolResult &p = page.result()->pools.at(size_t(row));
        INFO(p.name);
        CHECK(table->item(row, 0)->text().toStdString() == p.name);
        CHECK(table->item(row, 1)->text() == QString::number(p.gpus));
        CHECK(table->item(row, 2)->text() == QString::number(p.peakNeedGpus));
        CHECK(table->item(row, 3)->text() == QString::number(p.plannedHeadroomGpus));
        CHECK(table->item(row, 4)->text() == QString::number(p.spareAtPeak));
        // Planned and spare add up to the headroom at peak the summary states.
        CHECK(p.plannedHeadroomGpus + p.spareAtPeak == p.headroomAtPeak);
        CHECK(table->item(row, 3)->toolTip().contains(
            QStringLiteral("At the busiest hour %1 free").arg(ui::formatGpus(p.headroomAtPeak))));
    }
    // The demo's on-demand flex pool: 70 GPUs for a need of 70 at the peak, 48 of them planned headroom.
    CHECK(table->item(1, 0)->text() == "flex on-demand");
    CHECK(table->item(1, 2)->text() == "70");
    CHECK(table->item(1, 3)->text() == "48");
    CHECK(table->item(1, 4)->text() == "0");
    CHECK(table->item(table->rowCount() - 1, 1)->text() == "240 + 80");

    // In the window at 1280 × 800 the Evaluation tab gets about 515 px: both views whole.
    auto *tabs = page.findChild<QTabWidget *>("scenarioTableTabs");
    REQUIRE(tabs);
    page.resize(1070, 740);
    page.show();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QApplication::processEvents();
        auto *shown = qobject_cast<QTableWidget *>(tabs->currentWidget());
        REQUIRE(shown);
        INFO(shown->objectName().toStdString() << " in " << shown->viewport()->width() << " px");
        CHECK(shown->viewport()->width() <= 560);
        CHECK(shown->horizontalHeader()->length() <= shown->viewport()->width());
    }
}

TEST_CASE("Scenarios page: a 3-year reservation over a 12-month horizon shows the whole obligation and warns")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Internal MIG tenants");
    auto *horizon = page.findChild<QSpinBox *>("scenarioHorizon");
    REQUIRE(horizon);
    horizon->setValue(12);
    REQUIRE(page.result());
    const engine::PoolResult &base = page.result()->pools.at(0);
    REQUIRE(base.commitment);
    CHECK_FALSE(base.commitment->coversTerm);
    CHECK(base.commitment->termMonths == 36);
    bool warned = false;
    auto *warnings = page.findChild<QListWidget *>("scenarioWarnings");
    REQUIRE(warnings);
    for (int i = 0; i < warnings->count(); ++i)
        warned = warned || warnings->item(i)->text().contains("owed in full");
    CHECK(warned);
    auto *summary = page.findChild<QLabel *>("scenarioSummary");
    REQUIRE(summary);
    CHECK(summary->text().contains(QString::fromStdString(base.commitment->total.display())));
    CHECK(summary->text().contains("owed in full"));
}

TEST_CASE("Scenarios page: the KEDA tolerance is marked as needing Kubernetes 1.33 and can be left out")
{
    DemoWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Support bot elastic");
    page.showYaml("keda");
    auto *tolerance = page.findChild<QCheckBox *>("scenarioYamlTolerance");
    REQUIRE(tolerance);
    CHECK(tolerance->isChecked());
    CHECK(tolerance->isEnabled());
    CHECK(page.yamlText().count("tolerance: 0.100  # needs Kubernetes 1.33+ with the HPAConfigurableTolerance "
                                "feature gate") == 2);
    QTest::keyClick(tolerance, Qt::Key_Space);
    CHECK_FALSE(tolerance->isChecked());
    CHECK(page.yamlText().contains("kind: ScaledObject"));
    CHECK_FALSE(page.yamlText().contains("tolerance"));
    CHECK(page.yamlText().contains("stabilizationWindowSeconds: 600"));
    page.showYaml("dra");
    CHECK_FALSE(tolerance->isEnabled()); // a claim has no tolerance
}

TEST_CASE("Scenarios page: a DRA claim keeps 8 alternatives and says which were left out, or names a GPU it cannot select")
{
    DemoWorkspace ws;
    QUndoStack undo;
    auto scenario = (*ws).scenario("Support bot elastic");
    REQUIRE(scenario);
    scenario->autoscale.fallbackGpuIds.clear();
    for (const engine::GpuSpec &gpu : (*ws).gpus()) {
        if (gpu.id != "h100-sxm" && !gpu.draProductName.empty())
            scenario->autoscale.fallbackGpuIds.push_back(gpu.id);
    }
    QStringList omitted; // the fallbacks after the pool's GPU and the first 7
    for (size_t i = 7; i < scenario->autoscale.fallbackGpuIds.size(); ++i)
        omitted << QString::fromStdString(scenario->autoscale.fallbackGpuIds[i]);
    REQUIRE(omitted.size() >= 2);
    (*ws).putScenario(*scenario);
    ui::ScenariosPage page(*ws, &undo);
    page.selectScenario("Support bot elastic");
    page.showYaml("dra");
    CHECK(page.yamlText().startsWith("# resource.k8s.io/v1 takes at most 8 firstAvailable subrequests; left out, "
                                     "in order:\n# " + omitted.join(", ") + "\n"));
    auto *note = page.findChild<QLabel *>("scenarioYamlNote");
    REQUIRE(note);
    CHECK(note->text().contains("A DRA request takes at most 8 alternatives; left out: " + omitted.join(", ") + "."));

    engine::GpuSpec custom = *(*ws).gpu("l4");
    custom.id = "my-l4";
    custom.draProductName.clear();
    (*ws).putGpu(custom);
    scenario->autoscale.fallbackGpuIds = {"my-l4"};
    (*ws).putScenario(*scenario);
    page.selectScenario("Chatbot core + flex");
    page.selectScenario("Support bot elastic");
    page.showYaml("dra");
    CHECK(page.yamlText().isEmpty());
    CHECK(note->text().contains("Cannot write the YAML: autoscale.fallback_gpus[0]: fallback GPU \"my-l4\""));
    CHECK(note->text().contains("has no DRA product name"));
}
