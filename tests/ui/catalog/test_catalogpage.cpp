#include "common/uitestsupport.h"

#include "ui/catalog/catalogentrydialog.h"
#include "ui/catalog/catalogpage.h"
#include "ui/catalog/catalogtablemodel.h"
#include "ui/common/dialogs.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace headroom;
using ui::CatalogKind;

namespace {

// Fills the modal entry form once it is shown, then presses OK.
void fillAndAcceptDialog(const std::function<void(QDialog *)> &fill)
{
    QTimer::singleShot(0, [fill] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        REQUIRE(dialog);
        fill(dialog);
        auto *buttons = dialog->findChild<QDialogButtonBox *>();
        QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
        if (dialog->isVisible()) // refused: record, then cancel
            dialog->reject();
    });
}

void setText(QDialog *dialog, const char *name, const QString &text)
{
    auto *line = dialog->findChild<QLineEdit *>(name);
    REQUIRE(line);
    line->clear();
    QTest::keyClicks(line, text);
}

} // namespace

TEST_CASE("Catalog tables list the seeded GPUs and models with units in the headers")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::CatalogPage page(*ws, &undo);
    auto *gpus = page.tableModel(CatalogKind::Gpus);
    auto *models = page.tableModel(CatalogKind::Models);
    QAbstractItemModelTester gpuTester(gpus, QAbstractItemModelTester::FailureReportingMode::Warning);
    QAbstractItemModelTester modelTester(models, QAbstractItemModelTester::FailureReportingMode::Warning);
    CHECK(gpus->rowCount() == int((*ws).gpus().size()));
    CHECK(gpus->rowCount() >= 9);
    CHECK(models->rowCount() >= 7);
    QStringList headers;
    for (int c = 0; c < gpus->columnCount(); ++c)
        headers << gpus->headerData(c, Qt::Horizontal).toString();
    CHECK(headers.contains("Memory (GiB)"));
    CHECK(headers.contains("HBM bandwidth (GB/s)"));
    const int h100 = gpus->rowOfId("h100-sxm");
    REQUIRE(h100 >= 0);
    const int memoryColumn = int(headers.indexOf("Memory (GiB)"));
    // 81,559 MiB as nvidia-smi reports it = 79.65 GiB
    CHECK(gpus->data(gpus->index(h100, memoryColumn)).toString() == "79.65");
}

TEST_CASE("Adding a GPU through the form, then undo and redo")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::CatalogPage page(*ws, &undo);
    page.showKind(CatalogKind::Gpus);
    const size_t before = (*ws).gpus().size();

    fillAndAcceptDialog([](QDialog *dialog) {
        setText(dialog, "id", "rtx-6000-ada");
        setText(dialog, "name", "NVIDIA RTX 6000 Ada");
        setText(dialog, "vendor", "NVIDIA");
        setText(dialog, "dra_product_name", "NVIDIA RTX 6000 Ada Generation");
        dialog->findChild<QDoubleSpinBox *>("memory_bytes")->setValue(47.5);
        dialog->findChild<QDoubleSpinBox *>("memory_nominal_gb")->setValue(48);
        dialog->findChild<QDoubleSpinBox *>("hbm_bandwidth_gbps")->setValue(960);
        dialog->findChild<QDoubleSpinBox *>("bf16_tflops")->setValue(364.2);
        dialog->findChild<QDoubleSpinBox *>("pcie_gbps")->setValue(32);
        dialog->findChild<QDoubleSpinBox *>("tdp_w")->setValue(300);
        dialog->findChild<QSpinBox *>("gpus_per_node")->setValue(4);
        setText(dialog, "source", "NVIDIA RTX 6000 Ada datasheet");
    });
    page.addWithDialog();

    REQUIRE((*ws).gpus().size() == before + 1);
    const auto added = (*ws).gpu("rtx-6000-ada");
    REQUIRE(added);
    CHECK(added->memoryBytes == int64_t(47.5 * 1073741824.0));
    CHECK(added->gpusPerNode == 4);
    CHECK(added->draProductName == "NVIDIA RTX 6000 Ada Generation");
    CHECK(page.tableModel(CatalogKind::Gpus)->rowOfId("rtx-6000-ada") >= 0);
    CHECK(undo.count() == 1);

    undo.undo();
    CHECK_FALSE((*ws).gpu("rtx-6000-ada"));
    CHECK((*ws).gpus().size() == before);
    CHECK(page.tableModel(CatalogKind::Gpus)->rowOfId("rtx-6000-ada") < 0);

    undo.redo();
    CHECK((*ws).gpu("rtx-6000-ada"));
}

TEST_CASE("The entry form refuses an invalid GPU and names the field - nothing is written")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::CatalogPage page(*ws, &undo);
    page.showKind(CatalogKind::Gpus);
    const size_t before = (*ws).gpus().size();
    QString shownError;
    fillAndAcceptDialog([&shownError](QDialog *dialog) {
        setText(dialog, "id", "broken-gpu");
        setText(dialog, "name", "");
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        shownError = dialog->findChild<QLabel *>("catalogEntryError")->text();
    });
    page.addWithDialog();
    CHECK(shownError.contains("name"));
    CHECK((*ws).gpus().size() == before);
    CHECK(undo.count() == 0);
}

TEST_CASE("Editing a cell in place is undoable - an out-of-range edit is refused with the field named")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::CatalogPage page(*ws, &undo);
    auto *models = page.tableModel(CatalogKind::Models);
    QString rejected;
    QObject::connect(models, &ui::CatalogTableModel::editRejected, [&](const QString &m) { rejected = m; });
    const int row = models->rowOfId("llama-3.1-8b");
    REQUIRE(row >= 0);
    int layersColumn = -1;
    for (int c = 0; c < models->columnCount(); ++c)
        if (models->headerData(c, Qt::Horizontal).toString() == "Layers")
            layersColumn = c;
    REQUIRE(layersColumn >= 0);

    CHECK(models->setData(models->index(row, layersColumn), 40));
    CHECK((*ws).model("llama-3.1-8b")->layers == 40);
    undo.undo();
    CHECK((*ws).model("llama-3.1-8b")->layers == 32);

    CHECK_FALSE(models->setData(models->index(models->rowOfId("llama-3.1-8b"), layersColumn), 0));
    CHECK(rejected.contains("layers"));
    CHECK((*ws).model("llama-3.1-8b")->layers == 32);
    CHECK(undo.count() == 1);
}

TEST_CASE("Delete removes the selected model and undo restores every field")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::CatalogPage page(*ws, &undo);
    page.showKind(CatalogKind::Models);
    const auto original = (*ws).model("deepseek-v3");
    REQUIRE(original);
    QTableView *view = page.tableView(CatalogKind::Models);
    const auto matches = view->model()->match(view->model()->index(0, 0), ui::CatalogTableModel::kIdRole,
                                              "deepseek-v3", 1, Qt::MatchExactly);
    REQUIRE(matches.size() == 1);
    view->setCurrentIndex(matches.first());
    page.deleteSelected();
    CHECK_FALSE((*ws).model("deepseek-v3"));
    undo.undo();
    const auto restored = (*ws).model("deepseek-v3");
    REQUIRE(restored);
    CHECK(restored->kvLoraRank == original->kvLoraRank);
    CHECK(restored->paramsTotal == original->paramsTotal);
    CHECK(restored->source == original->source);
}

TEST_CASE("Importing a bad catalog file changes nothing and says which field is wrong")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::CatalogPage page(*ws, &undo);
    QTemporaryDir dir;
    QFile bad(dir.filePath("bad.json"));
    REQUIRE(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"models": [{"id": "x", "name": "X", "params_total": 1e9, "params_active": 1e9, "layers": -3,
        "hidden_size": 1, "attention_heads": 1, "kv_heads": 1, "head_dim": 1, "attention": "mha",
        "kv_lora_rank": 0, "qk_rope_head_dim": 0, "sliding_window": 0, "sliding_layers": 0,
        "max_context": 10, "source": "test"}]})");
    bad.close();
    const size_t before = (*ws).models().size();
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueFileAnswer(bad.fileName());
    page.importJson();
    const QStringList shown = ui::Dialogs::takeShownMessages();
    ui::Dialogs::setScripted(false);
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("layers"));
    CHECK(shown.first().contains("Nothing was imported"));
    CHECK((*ws).models().size() == before);
    CHECK(undo.count() == 0);
}

TEST_CASE("A GPU's serving profile is edited on its own tab, removed with none, and refused when incomplete")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::CatalogPage page(*ws, &undo);
    auto *gpus = page.tableModel(CatalogKind::Gpus);
    int profileColumn = -1;
    for (int c = 0; c < gpus->columnCount(); ++c)
        if (gpus->headerData(c, Qt::Horizontal).toString() == "Serving profile")
            profileColumn = c;
    REQUIRE(profileColumn >= 0);
    const int h100Row = gpus->rowOfId("h100-sxm");
    CHECK(gpus->data(gpus->index(h100Row, profileColumn)).toString() == "measured");
    CHECK_FALSE(gpus->flags(gpus->index(h100Row, profileColumn)) & Qt::ItemIsEditable);

    const engine::GpuEfficiency shipped = *(*ws).gpu("h100-sxm")->efficiency;
    const auto h100 = ui::catalogEntry(*ws, CatalogKind::Gpus, QStringLiteral("h100-sxm"));
    REQUIRE(h100);
    ui::CatalogEntryDialog dialog(CatalogKind::Gpus, *h100, true);
    auto *tabs = dialog.findChild<QTabWidget *>("catalogEntryPages");
    REQUIRE(tabs);
    REQUIRE(tabs->count() == 2);
    CHECK(tabs->tabText(1) == "Serving profile");
    auto *bandwidth = dialog.findChild<QDoubleSpinBox *>("efficiency.bandwidth");
    auto *perSequence = dialog.findChild<QDoubleSpinBox *>("efficiency.sequence_overhead_us");
    REQUIRE(bandwidth);
    REQUIRE(perSequence);
    CHECK(bandwidth->value() == Approx(shipped.bandwidth).margin(0.0005));
    CHECK(perSequence->value() == Approx(shipped.sequenceOverheadUs));
    CHECK(perSequence->suffix() == QStringLiteral(" µs"));
    CHECK(bandwidth->isEnabled());

    // Untouched numbers keep their stored values, not the ones rounded for display.
    CHECK(dialog.entry() == *h100);
    bandwidth->setValue(0.5);
    ui::putCatalogEntries(*ws, CatalogKind::Gpus, {dialog.entry()});
    CHECK((*ws).gpu("h100-sxm")->memoryBytes == (*h100)["memory_bytes"].toInteger()); // not 79.65 × 2^30
    const engine::GpuEfficiency edited = *(*ws).gpu("h100-sxm")->efficiency;
    CHECK(edited.bandwidth == Approx(0.5));
    CHECK(edited.matmulPeak == Approx(shipped.matmulPeak).margin(0.0005));
    CHECK(edited.source == shipped.source);

    // "none": the profile goes and its fields are not edited.
    auto *presence = dialog.findChild<QComboBox *>("efficiency");
    REQUIRE(presence);
    presence->setCurrentIndex(1);
    CHECK_FALSE(bandwidth->isEnabled());
    CHECK_FALSE(dialog.entry().contains("efficiency"));
    ui::putCatalogEntries(*ws, CatalogKind::Gpus, {dialog.entry()});
    CHECK_FALSE((*ws).gpu("h100-sxm")->efficiency);

    // A GPU without a profile starts at none; "measured" with nothing filled in is refused,
    // naming the field, and the form stays open.
    QJsonObject plain = *h100;
    plain.remove("efficiency");
    plain.insert("id", "plain-gpu");
    ui::CatalogEntryDialog fresh(CatalogKind::Gpus, plain, false);
    auto *freshPresence = fresh.findChild<QComboBox *>("efficiency");
    CHECK(freshPresence->currentIndex() == 1);
    CHECK_FALSE(fresh.findChild<QDoubleSpinBox *>("efficiency.bandwidth")->isEnabled());
    freshPresence->setCurrentIndex(0);
    fresh.accept();
    CHECK(fresh.result() != QDialog::Accepted);
    const QString error = fresh.findChild<QLabel *>("catalogEntryError")->text(); // the form is not shown here
    INFO(error.toStdString());
    CHECK(error.contains("efficiency.bandwidth"));
    CHECK_FALSE((*ws).gpu("plain-gpu"));
}

TEST_CASE("A GPU profile without the FP8 matmul pair comes back unchanged from an untouched form, and a pair set on it is kept")
{
    TempWorkspace ws;
    const auto h200 = ui::catalogEntry(*ws, CatalogKind::Gpus, QStringLiteral("h200"));
    REQUIRE(h200);
    REQUIRE((*h200)["efficiency"].isObject());
    REQUIRE_FALSE((*h200)["efficiency"].toObject().contains("matmul_peak_fp8"));
    ui::CatalogEntryDialog dialog(CatalogKind::Gpus, *h200, true);
    auto *peak = dialog.findChild<QDoubleSpinBox *>("efficiency.matmul_peak_fp8");
    auto *half = dialog.findChild<QDoubleSpinBox *>("efficiency.matmul_half_tokens_fp8");
    REQUIRE(peak);
    REQUIRE(half);
    CHECK(peak->value() == 0);
    CHECK(dialog.entry() == *h200); // no edit, so no undo step

    peak->setValue(0.69);
    half->setValue(72);
    const QJsonObject efficiency = dialog.entry()["efficiency"].toObject();
    CHECK(efficiency["matmul_peak_fp8"].toDouble() == Approx(0.69));
    CHECK(efficiency["matmul_half_tokens_fp8"].toDouble() == 72);
    ui::putCatalogEntries(*ws, CatalogKind::Gpus, {dialog.entry()});
    CHECK((*ws).gpu("h200")->efficiency->matmulPeakFp8 == Approx(0.69));
}
