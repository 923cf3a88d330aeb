// The Scenarios and Training jobs pages with a second writer on the same workspace: a save
// based on an old version is refused naming who changed it and when, the page reloads and keeps
// the refused values for a retry, undo stays consistent, the History dialog restores a version,
// the list shows who changed each scenario, and the page follows another program's edits.
// Tagged [team]: they run on a workspace file ("ui: ") and again as two programs on the
// PostgreSQL server of scripts/pgserver.sh ("ui-pg: ", HEADROOM_STORE_BACKEND=postgresql).
#include "common/uitestsupport.h"

#include "common/storetestsupport.h"

#include "store/common/demoworkspace.h"
#include "store/fleet/scenariojson.h"
#include "ui/common/dialogs.h"
#include "ui/fleet/scenariohistorydialog.h"
#include "ui/fleet/scenariospage.h"
#include "ui/training/trainingjobspage.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

const QString kName = QStringLiteral("Code fleet 64 GPUs");

// The demo workspace in a temporary folder (or copied into a fresh database on the test
// server), open twice: "mine" for the page, "theirs" as another program on it.
struct SharedWorkspace {
    store::test::WorkspaceLocation location{QStringLiteral("demo.headroom")};
    std::unique_ptr<store::Workspace> mine;
    std::unique_ptr<store::Workspace> theirs;

    SharedWorkspace()
    {
        if (store::test::serverBackend()) {
            QTemporaryDir dir;
            REQUIRE(dir.isValid());
            const store::Workspace demo(store::createDemoWorkspace(dir.filePath("demo.headroom")));
            mine = std::make_unique<store::Workspace>(location.path());
            mine->replaceContents(demo);
        } else {
            mine = std::make_unique<store::Workspace>(store::createDemoWorkspace(location.path()));
        }
        theirs = std::make_unique<store::Workspace>(location.path());
        REQUIRE(mine->isServer() == store::test::serverBackend());
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

TEST_CASE("Scenarios page: a save refused by another user's change names them, reloads and keeps my value", "[team]")
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

TEST_CASE("Scenarios page: undo of my edit is refused when another user changed the scenario since", "[team]")
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

TEST_CASE("Scenarios page: the list shows who changed each scenario, the History dialog restores a version", "[team]")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws.mine, &undo);
    page.selectScenario(kName);
    auto *list = page.findChild<QTableWidget *>("scenarioList");
    REQUIRE(list);
    REQUIRE(list->columnCount() == 5);
    CHECK(list->horizontalHeaderItem(4)->text() == "By");

    const int64_t first = page.loadedVersion();
    page.findChild<QSpinBox *>("poolGpus0")->setValue(80);
    const int64_t edited = page.loadedVersion();
    REQUIRE(edited == first + 1);
    CHECK(list->item(list->currentRow(), 4)->text() == ws.mine->userName());

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
    CHECK(int64_t(ws.mine->scenarioHistory(kName).size()) == ws.mine->scenarioHistory(kName).front().version);
}

TEST_CASE("Scenarios page: another program's edit shows up within 2 s when the workspace is watched", "[team]")
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

namespace {

// Another user's change to a training job's token count, saved on the current version.
int64_t theyChangeTokens(store::Workspace &theirs, const QString &name, double tokens)
{
    const auto record = theirs.trainingJobRecord(name);
    REQUIRE(record);
    engine::TrainingJob job = record->job;
    job.tokens = tokens;
    return theirs.saveTrainingJob(job, record->version);
}

} // namespace

TEST_CASE("Training jobs page: a save refused by another user's change names them and keeps my value for a retry",
          "[team]")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws.mine, &undo);
    const auto jobs = ws.mine->trainingJobs();
    REQUIRE_FALSE(jobs.empty());
    const QString name = QString::fromStdString(jobs.front().name);
    page.selectJob(name);
    const int64_t opened = page.loadedVersion();
    REQUIRE(opened == ws.mine->trainingJobRecord(name)->version);
    const double tokens = jobs.front().tokens;
    const int seqLen = jobs.front().seqLen;

    const int64_t theirs = theyChangeTokens(*ws.theirs, name, tokens * 2);
    auto *seq = page.findChild<QSpinBox *>("trainingJobSeqLen");
    REQUIRE(seq);
    REQUIRE(seq->value() == seqLen);
    seq->setValue(seqLen == 4096 ? 2048 : 4096);
    const int mine = seq->value();

    CHECK(page.statusText().contains(QStringLiteral("was changed by %1 at").arg(ws.theirs->userName())));
    CHECK(page.statusText().contains(QStringLiteral("(version %1, yours %2)").arg(theirs).arg(opened)));
    CHECK(undo.count() == 0);
    CHECK(ws.mine->trainingJob(name)->seqLen == seqLen);
    CHECK(ws.mine->trainingJob(name)->tokens == tokens * 2);
    CHECK(page.loadedVersion() == theirs);
    CHECK(page.hasRefusedValues());
    CHECK(seq->value() == mine);
    auto *retry = page.findChild<QPushButton *>("trainingJobRetry");
    REQUIRE(retry);
    CHECK(retry->isVisibleTo(&page));

    // The retry saves my value over their version and keeps their token count.
    QTest::mouseClick(retry, Qt::LeftButton);
    CHECK_FALSE(page.hasRefusedValues());
    CHECK_FALSE(retry->isVisibleTo(&page));
    CHECK(ws.mine->trainingJob(name)->seqLen == mine);
    CHECK(ws.mine->trainingJob(name)->tokens == tokens * 2);
    CHECK(ws.mine->trainingJobRecord(name)->version == theirs + 1);
    CHECK(ws.mine->trainingJobRecord(name)->updatedBy == ws.mine->userName());

    // Undo takes back my change only, as a new version.
    REQUIRE(undo.count() == 1);
    undo.undo();
    CHECK(ws.mine->trainingJob(name)->seqLen == seqLen);
    CHECK(ws.mine->trainingJob(name)->tokens == tokens * 2);
    CHECK(ws.mine->trainingJobRecord(name)->version == theirs + 2);

    // Their change after my edit: my undo is refused with their name and dropped.
    seq->setValue(mine);
    REQUIRE(undo.count() == 1);  // the edit replaced the undone step
    const int64_t later = theyChangeTokens(*ws.theirs, name, tokens * 3);
    undo.undo();
    CHECK(ws.mine->trainingJob(name)->seqLen == mine);
    CHECK(ws.mine->trainingJobRecord(name)->version == later);
    CHECK(undo.count() == 0);
    CHECK(page.statusText().contains(QStringLiteral("was changed by %1").arg(ws.theirs->userName())));
}

TEST_CASE("Training jobs page: rename and delete are refused when another user changed the job", "[team]")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws.mine, &undo);
    const QString name = QString::fromStdString(ws.mine->trainingJobs().front().name);
    page.selectJob(name);
    const auto created = ws.mine->trainingJobRecord(name)->createdAt;

    theyChangeTokens(*ws.theirs, name, 3e12);
    CHECK_FALSE(page.renameJob(QStringLiteral("renamed job")));
    CHECK(page.statusText().contains(QStringLiteral("was changed by %1").arg(ws.theirs->userName())));
    CHECK_FALSE(ws.mine->trainingJob(QStringLiteral("renamed job")));
    CHECK(page.currentName() == name);

    // Based on the version now shown, the rename is one write keeping the creation time.
    const int64_t shown = page.loadedVersion();
    REQUIRE(page.renameJob(QStringLiteral("renamed job")));
    const auto renamed = ws.mine->trainingJobRecord(QStringLiteral("renamed job"));
    REQUIRE(renamed);
    CHECK(renamed->version == shown + 1);
    CHECK(renamed->createdAt == created);
    CHECK_FALSE(ws.mine->trainingJob(name));

    theyChangeTokens(*ws.theirs, QStringLiteral("renamed job"), 4e12);
    page.deleteJob();
    CHECK(ws.mine->trainingJob(QStringLiteral("renamed job")));
    CHECK(page.statusText().contains(QStringLiteral("was changed by %1").arg(ws.theirs->userName())));
    page.deleteJob();
    CHECK_FALSE(ws.mine->trainingJob(QStringLiteral("renamed job")));
    undo.undo();
    CHECK(ws.mine->trainingJob(QStringLiteral("renamed job"))->tokens == 4e12);
}

TEST_CASE("Scenarios page: an edit made when the server connection is lost is kept and saved on reconnecting",
          "[server]")
{
    SharedWorkspace ws;
    REQUIRE(ws.mine->isServer());
    QUndoStack undo;
    ui::ScenariosPage page(*ws.mine, &undo);
    page.selectScenario(kName);
    const int64_t opened = page.loadedVersion();
    {
        // An administrator ends every session on the database (as a dropped network would).
        const store::test::RawDatabase admin(ws.location.path());
        admin.exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE datname = current_database() AND pid <> pg_backend_pid()"));
    }
    auto *gpus = page.findChild<QSpinBox *>("poolGpus0");
    REQUIRE(gpus);
    gpus->setValue(68);
    CHECK(page.statusText().contains("the connection to the server was lost"));
    CHECK(page.statusText().contains("Your values are kept"));
    CHECK(page.hasRefusedValues());
    CHECK(gpus->value() == 68);
    CHECK(undo.count() == 0);

    // The workspace reconnects by itself and the page saves the kept edit on the version it was
    // made on.
    CHECK(QTest::qWaitFor([&] { return !ws.mine->isReconnecting(); }, 10000));
    CHECK(QTest::qWaitFor([&] { return !page.hasRefusedValues(); }, 2000));
    ws.theirs->reconnect();
    CHECK(ws.theirs->scenario(kName)->pools.at(0).gpus == 68);
    CHECK(ws.theirs->scenarioSummary(kName)->version == opened + 1);
    CHECK(page.statusText().contains("Saved"));
    CHECK(undo.count() == 1);
}

TEST_CASE("Scenarios page: an edit kept over a lost connection is refused if someone changed the scenario meanwhile",
          "[server]")
{
    SharedWorkspace ws;
    QUndoStack undo;
    ui::ScenariosPage page(*ws.mine, &undo);
    page.selectScenario(kName);
    {
        const store::test::RawDatabase admin(ws.location.path());
        admin.exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE datname = current_database() AND pid <> pg_backend_pid()"));
    }
    ws.theirs->reconnect();
    const int64_t theirs = ws.theyDescribe("changed while you were offline");
    page.findChild<QSpinBox *>("poolGpus0")->setValue(69);
    REQUIRE(page.hasRefusedValues());
    const QString conflict = QStringLiteral("was changed by %1 at").arg(ws.theirs->userName());
    CHECK(QTest::qWaitFor([&] { return page.statusText().contains(conflict); }, 10000));
    // Not written over their version: their change is shown with my value kept for a retry.
    CHECK(ws.theirs->scenario(kName)->pools.at(0).gpus == 64);
    CHECK(ws.theirs->scenarioSummary(kName)->version == theirs);
    CHECK(page.hasRefusedValues());
    CHECK(page.findChild<QLineEdit *>("scenarioDescription")->text() == "changed while you were offline");
    CHECK(page.findChild<QSpinBox *>("poolGpus0")->value() == 69);
}
