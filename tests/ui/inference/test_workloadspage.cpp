#include "common/uitestsupport.h"
#include "publictraces.h"

#include "ui/common/dialogs.h"
#include "ui/inference/workloadspage.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

QDoubleSpinBox *spin(ui::WorkloadsPage &page, const char *name)
{
    auto *box = page.findChild<QDoubleSpinBox *>(name);
    REQUIRE(box);
    return box;
}

} // namespace

TEST_CASE("Adding a workload stores example values and undo removes it")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::WorkloadsPage page(*ws, &undo);
    CHECK((*ws).workloads().empty());
    page.addWorkload();
    REQUIRE((*ws).workloads().size() == 1);
    const auto w = (*ws).workloads().front();
    CHECK(w.modelId == "llama-3.1-8b");
    CHECK(w.gpuId == "h100-sxm");
    CHECK(page.currentName() == QString::fromStdString(w.name));
    CHECK(spin(page, "workloadDau")->value() == 10000);
    undo.undo();
    CHECK((*ws).workloads().empty());
}

TEST_CASE("Form edits save at once and a spin box drag is one undo step")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::WorkloadsPage page(*ws, &undo);
    page.addWorkload();
    const QString name = page.currentName();
    auto *dau = spin(page, "workloadDau");
    dau->setValue(20000);
    dau->setValue(30000);
    dau->setValue(50000);
    CHECK((*ws).workload(name)->dailyActiveUsers == 50000);
    CHECK(undo.count() == 2); // add + one merged edit
    undo.undo();
    CHECK((*ws).workload(name)->dailyActiveUsers == 10000);
    CHECK(dau->value() == 10000);
}

TEST_CASE("An invalid edit is not saved, the message names the field in words and the value is restored")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::WorkloadsPage page(*ws, &undo);
    page.addWorkload();
    const QString name = page.currentName();
    spin(page, "workloadPromptP95")->setValue(10); // below P50 = 1000
    CHECK(page.statusText().contains("Not saved: Prompt P95 (10) must be at least Prompt P50 (1000)"));
    CHECK_FALSE(page.statusText().contains("prompt_p95"));
    CHECK((*ws).workload(name)->promptTokens.p95 == 4000);
    CHECK(spin(page, "workloadPromptP95")->value() == 4000);
    CHECK(undo.count() == 1);
}

TEST_CASE("Renaming keeps the selection and undo restores the old name")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::WorkloadsPage page(*ws, &undo);
    page.addWorkload();
    const QString old = page.currentName();
    auto *name = page.findChild<QLineEdit *>("workloadName");
    REQUIRE(name);
    name->setText("chatbot");
    emit name->editingFinished();
    CHECK((*ws).workload("chatbot"));
    CHECK_FALSE((*ws).workload(old));
    CHECK(page.currentName() == "chatbot");
    undo.undo();
    CHECK((*ws).workload(old));
    CHECK_FALSE((*ws).workload("chatbot"));
}

TEST_CASE("A diurnal preset fills the 24 hours as one change")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::WorkloadsPage page(*ws, &undo);
    page.addWorkload();
    auto *preset = page.findChild<QComboBox *>("workloadDiurnalPreset");
    REQUIRE(preset);
    const int flat = preset->findText("Flat 24/7");
    REQUIRE(flat > 0);
    emit preset->activated(flat);
    const auto w = (*ws).workload(page.currentName());
    for (double v : w->diurnal)
        CHECK(v == 1.0);
    CHECK(undo.count() == 2);
}

TEST_CASE("A Mooncake trace refines token percentiles and the prefix hit rate")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    TempWorkspace ws;
    QUndoStack undo;
    ui::WorkloadsPage page(*ws, &undo);
    page.addWorkload();
    QString error;
    REQUIRE(page.importTrace(HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl", &error));
    const auto w = (*ws).workload(page.currentName());
    CHECK(w->promptTokens.p50 > 1000);
    CHECK(w->promptTokens.p95 >= w->promptTokens.p50);
    CHECK(w->prefixHitRate > 0);
    CHECK(w->prefixHitRate < 1);
    CHECK(page.statusText().contains("requests"));
    CHECK(undo.count() == 2);

    QTemporaryDir dir;
    QFile bad(dir.filePath("bad.csv"));
    REQUIRE(bad.open(QIODevice::WriteOnly));
    bad.write("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:47.0,x,1\n");
    bad.close();
    CHECK_FALSE(page.importTrace(bad.fileName(), &error));
    CHECK(error.contains("line 3"));
    CHECK(undo.count() == 2);
}
