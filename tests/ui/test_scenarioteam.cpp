// The Scenarios page with a second writer on the same workspace: a save based on an old
// version is refused naming who changed it and when, the page reloads and keeps the refused
// values for a retry, undo stays consistent, the History dialog restores a version, the list
// shows who changed each scenario, and the page follows another program's edits.
#include "uitestsupport.h"

#include "store/demoworkspace.h"
#include "store/scenariojson.h"
#include "ui/common/dialogs.h"
#include "ui/fleet/scenariohistorydialog.h"
#include "ui/fleet/scenariospage.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

const QString kName = QStringLiteral("Code fleet 64 GPUs");

// The demo workspace in a temporary folder, open twice: "mine" for the page, "theirs" as
// another program on the same file.
struct SharedWorkspace {
    QTemporaryDir dir;
    std::unique_ptr<store::Workspace> mine;
    std::unique_ptr<store::Workspace> theirs;

    SharedWorkspace()
    {
        REQUIRE(dir.isValid());
        const QString path = store::createDemoWorkspace(dir.filePath("demo.headroom"));
        mine = std::make_unique<store::Workspace>(path);
        theirs = std::make_unique<store::Workspace>(path);
    }

    // Another user's change to the description, saved on the current version.
    int64_t theyDescribe(const std::string &description)
    {
        engine::Scenario s = *theirs->scenario(kName);
        s.description = description;
        return theirs->saveScenario(s, theirs->scenarioSummary(kName)->version);
    }
};

} // namespace

TEST_CASE("Scenarios page: a save refused by another user's change names them, reloads and keeps my value")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws.mine, &undo);
    page.selectScenario(kName);
    const int64_t opened = page.loadedVersion();
    REQUIRE(opened == ws.mine->scenarioSummary(kName)->version);

    // They save while my page still shows the version I opened (no refresh on a file).
    const int64_t theirs = ws.theyDescribe("their description");
    auto *gpus = page.findChild<QSpinBox *>("poolGpus0");
    REQUIRE(gpus);
    gpus->setValue(70);

    CHECK(page.statusText().contains(QStringLiteral("was changed by %1 at").arg(ws.theirs->userName())));
    CHECK(page.statusText().contains(QStringLiteral("(version %1, yours %2)").arg(theirs).arg(opened)));
    CHECK(undo.count() == 0);
    // Nothing of mine was written; the page shows their version with my value on top.
    CHECK(ws.mine->scenario(kName)->pools.at(0).gpus == 64);
    CHECK(ws.mine->scenario(kName)->description == "their description");
    CHECK(page.loadedVersion() == theirs);
    CHECK(page.hasRefusedValues());
    CHECK(gpus->value() == 70);
    CHECK(page.findChild<QLineEdit *>("scenarioDescription")->text() == "their description");
    auto *retry = page.findChild<QPushButton *>("scenarioRetry");
    REQUIRE(retry);
    CHECK(retry->isVisibleTo(&page));

    // Retrying saves my value over their version, keeping their description.
    QTest::mouseClick(retry, Qt::LeftButton);
    CHECK_FALSE(page.hasRefusedValues());
    CHECK_FALSE(retry->isVisibleTo(&page));
    CHECK(ws.mine->scenario(kName)->pools.at(0).gpus == 70);
    CHECK(ws.mine->scenario(kName)->description == "their description");
    CHECK(ws.mine->scenarioSummary(kName)->version == theirs + 1);
    CHECK(undo.count() == 1);

    // Undo takes back my change only: their version comes back as a new version.
    undo.undo();
    CHECK(ws.mine->scenario(kName)->pools.at(0).gpus == 64);
    CHECK(ws.mine->scenario(kName)->description == "their description");
    CHECK(ws.mine->scenarioSummary(kName)->version == theirs + 2);
    CHECK(gpus->value() == 64);
}

TEST_CASE("Scenarios page: undo of my edit is refused when another user changed the scenario since")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws.mine, &undo);
    page.selectScenario(kName);
    auto *gpus = page.findChild<QSpinBox *>("poolGpus0");
    REQUIRE(gpus);
    gpus->setValue(72);
    REQUIRE(undo.count() == 1);
    const int64_t theirs = ws.theyDescribe("changed after my edit");

    undo.undo();
    // Their version stays; the step that could not be undone is dropped from the stack.
    CHECK(ws.mine->scenarioSummary(kName)->version == theirs);
    CHECK(ws.mine->scenario(kName)->pools.at(0).gpus == 72);
    CHECK(ws.mine->scenario(kName)->description == "changed after my edit");
    CHECK(undo.count() == 0);
    CHECK(page.statusText().contains(QStringLiteral("was changed by %1").arg(ws.theirs->userName())));
    CHECK(page.loadedVersion() == theirs);
    CHECK(page.findChild<QLineEdit *>("scenarioDescription")->text() == "changed after my edit");
}

TEST_CASE("Scenarios page: the list shows who changed each scenario, the History dialog restores a version")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws.mine, &undo);
    page.selectScenario(kName);
    auto *list = page.findChild<QTableWidget *>("scenarioList");
    REQUIRE(list);
    REQUIRE(list->columnCount() == 5);
    CHECK(list->horizontalHeaderItem(4)->text() == "By");
    CHECK(list->item(list->currentRow(), 4)->text() == ws.mine->userName());

    const int64_t first = page.loadedVersion();
    page.findChild<QSpinBox *>("poolGpus0")->setValue(80);
    const int64_t edited = page.loadedVersion();
    REQUIRE(edited == first + 1);

    {
        ui::ScenarioHistoryDialog dialog(*ws.mine, kName, &page);
        auto *table = dialog.findChild<QTableWidget *>("historyTable");
        REQUIRE(table);
        CHECK(table->rowCount() == int(ws.mine->scenarioHistory(kName).size()));
        CHECK(table->item(0, 0)->text() == QStringLiteral("%1 (current)").arg(edited));
        CHECK(table->item(0, 2)->text() == ws.mine->userName());
        auto *restore = dialog.findChild<QPushButton *>("restoreVersion");
        REQUIRE(restore);
        table->selectRow(0);
        CHECK_FALSE(restore->isEnabled());  // the current version needs no restoring
        table->selectRow(1);
        CHECK(restore->isEnabled());
        ui::Dialogs::setScripted(true);
        ui::Dialogs::queueQuestionAnswer(false);
        CHECK_FALSE(dialog.restore(first));
        ui::Dialogs::queueQuestionAnswer(true);
        CHECK(dialog.restore(first));
        ui::Dialogs::setScripted(false);
        CHECK(dialog.chosenVersion() == first);
        CHECK(dialog.result() == QDialog::Accepted);
    }
    REQUIRE(page.restoreVersion(first));
    CHECK(ws.mine->scenario(kName)->pools.at(0).gpus == 64);
    CHECK(ws.mine->scenarioSummary(kName)->version == edited + 1);
    CHECK(page.statusText().contains(QStringLiteral("Restored version %1 as version %2").arg(first).arg(edited + 1)));
    undo.undo();
    CHECK(ws.mine->scenario(kName)->pools.at(0).gpus == 80);
    CHECK(ws.mine->scenarioHistory(kName).size() == ws.mine->scenarioHistory(kName).front().version);
}

TEST_CASE("Scenarios page: another program's edit shows up within 2 s when the workspace is watched")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws.mine, &undo);
    page.selectScenario(kName);
    ws.mine->watchForChanges(200);
    const int64_t theirs = ws.theyDescribe("seen by the other page");
    auto *description = page.findChild<QLineEdit *>("scenarioDescription");
    REQUIRE(description);
    CHECK(QTest::qWaitFor([&] { return description->text() == "seen by the other page"; }, 2000));
    CHECK(page.loadedVersion() == theirs);
    // Now based on their version, my edit is saved.
    page.findChild<QSpinBox *>("poolGpus0")->setValue(66);
    CHECK(ws.theirs->scenario(kName)->pools.at(0).gpus == 66);
    CHECK(ws.theirs->scenarioSummary(kName)->version == theirs + 1);
}
