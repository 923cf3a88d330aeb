#include "common/uitestsupport.h"

#include "ui/common/dialogs.h"
#include "ui/training/trainingjobspage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

using namespace headroom;

namespace {

template <typename Widget>
Widget *child(ui::TrainingJobsPage &page, const char *name)
{
    auto *widget = page.findChild<Widget *>(name);
    REQUIRE(widget);
    return widget;
}

} // namespace

TEST_CASE("Adding a training job stores example values and undo removes it", "[trainingjobs]")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws, &undo);
    CHECK((*ws).trainingJobs().empty());
    CHECK(page.statusText().contains("No training jobs yet"));
    page.addJob();
    REQUIRE((*ws).trainingJobs().size() == 1);
    const auto job = (*ws).trainingJobs().front();
    CHECK(job.modelId == "llama-3.1-8b");
    CHECK(job.gpuId == "h100-sxm");
    CHECK(job.tokens == 1e12);
    CHECK(page.currentName() == QString::fromStdString(job.name));
    CHECK(child<QDoubleSpinBox>(page, "trainingJobTokens")->text() == "1 T tokens");
    CHECK(child<QComboBox>(page, "trainingJobModel")->currentData().toString() == "llama-3.1-8b");
    CHECK(child<QDoubleSpinBox>(page, "trainingJobThroughput")->suffix().contains("MFU"));
    CHECK(child<QDoubleSpinBox>(page, "trainingJobThroughput")->value() == Approx(40));
    undo.undo();
    CHECK((*ws).trainingJobs().empty());
    undo.redo();
    CHECK((*ws).trainingJobs().size() == 1);
}

TEST_CASE("Typed token counts with T and B suffixes are stored in tokens, a drag is one undo step", "[trainingjobs]")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws, &undo);
    page.addJob();
    const QString name = page.currentName();
    auto *tokens = child<QDoubleSpinBox>(page, "trainingJobTokens");
    tokens->selectAll();
    QTest::keyClicks(tokens, "15T");
    QTest::keyClick(tokens, Qt::Key_Return);
    CHECK((*ws).trainingJob(name)->tokens == 15e12);
    CHECK(tokens->text() == "15 T tokens");
    auto *params = child<QDoubleSpinBox>(page, "trainingJobParams");
    params->selectAll();
    QTest::keyClicks(params, "70B");
    QTest::keyClick(params, Qt::Key_Return);
    CHECK((*ws).trainingJob(name)->params == 70e9);
    CHECK(undo.count() == 3);

    auto *tp = child<QSpinBox>(page, "trainingJobTp");
    tp->setValue(2);
    tp->setValue(4);
    tp->setValue(8);
    CHECK((*ws).trainingJob(name)->tp == 8);
    CHECK(undo.count() == 4); // add, tokens, params, one merged TP drag
    undo.undo();
    CHECK((*ws).trainingJob(name)->tp == 1);
    CHECK(tp->value() == 1);
    undo.redo();
    CHECK((*ws).trainingJob(name)->tp == 8);
}

TEST_CASE("An invalid training input is not saved and the message names the field", "[trainingjobs]")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws, &undo);
    page.addJob();
    const QString name = page.currentName();
    child<QDoubleSpinBox>(page, "trainingJobThroughput")->setValue(0);
    CHECK(page.statusText().contains("throughput"));
    CHECK(page.statusText().contains("Not saved"));
    CHECK((*ws).trainingJob(name)->throughput == Approx(0.4));

    child<QDoubleSpinBox>(page, "trainingJobTokens")->setValue(0);
    CHECK(page.statusText().contains("tokens"));
    CHECK((*ws).trainingJob(name)->tokens == 1e12);

    auto *model = child<QComboBox>(page, "trainingJobModel");
    model->setCurrentIndex(model->findData(QString())); // parameter count only, none given
    CHECK(page.statusText().contains("params"));
    CHECK((*ws).trainingJob(name)->modelId == "llama-3.1-8b");
    CHECK(undo.count() == 1);
}

TEST_CASE("Switching the throughput basis keeps the speed and the target switch resets its value", "[trainingjobs]")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws, &undo);
    page.addJob();
    const QString name = page.currentName();
    const double peak = (*ws).gpu("h100-sxm")->bf16Tflops;
    auto *basis = child<QComboBox>(page, "trainingJobThroughputBasis");
    basis->setCurrentIndex(basis->findData(int(engine::ThroughputBasis::AchievedTflops)));
    auto job = (*ws).trainingJob(name);
    CHECK(job->throughputBasis == engine::ThroughputBasis::AchievedTflops);
    CHECK(job->throughput == Approx(std::round(0.4 * peak * 10) / 10));
    CHECK(child<QDoubleSpinBox>(page, "trainingJobThroughput")->suffix().contains("TFLOP/s"));

    auto *target = child<QComboBox>(page, "trainingJobTarget");
    target->setCurrentIndex(target->findData(int(engine::TrainingTarget::GpuCount)));
    job = (*ws).trainingJob(name);
    CHECK(job->target == engine::TrainingTarget::GpuCount);
    CHECK(job->targetValue == 1024);
    CHECK(child<QDoubleSpinBox>(page, "trainingJobTargetValue")->suffix() == " GPUs");
    undo.undo();
    CHECK((*ws).trainingJob(name)->target == engine::TrainingTarget::WindowDays);
    CHECK((*ws).trainingJob(name)->targetValue == 30);
}

TEST_CASE("Preemption, schedule and interconnect edits are stored", "[trainingjobs]")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws, &undo);
    page.addJob();
    const QString name = page.currentName();
    auto *checkpoint = child<QDoubleSpinBox>(page, "trainingJobCheckpoint");
    CHECK_FALSE(checkpoint->isEnabled());
    QTest::keyClick(child<QCheckBox>(page, "trainingJobPreemptible"), Qt::Key_Space);
    CHECK((*ws).trainingJob(name)->preemptible);
    CHECK(checkpoint->isEnabled());
    checkpoint->setValue(2.5);
    CHECK((*ws).trainingJob(name)->checkpointIntervalHours == 2.5);

    child<QCheckBox>(page, "trainingJobScheduled")->setChecked(true);
    CHECK((*ws).trainingJob(name)->startDate == QDate::currentDate().toString(Qt::ISODate).toStdString());
    auto *inter = child<QComboBox>(page, "trainingJobInterNode");
    inter->setCurrentIndex(inter->findData(int(engine::InterNodeLink::Roce)));
    CHECK((*ws).trainingJob(name)->interNode == engine::InterNodeLink::Roce);
    auto *zero = child<QComboBox>(page, "trainingJobZero");
    zero->setCurrentIndex(zero->findData(3));
    CHECK((*ws).trainingJob(name)->zeroStage == 3);
}

TEST_CASE("Renaming and duplicating training jobs, undo restores the old name", "[trainingjobs]")
{
    TempWorkspace ws;
    QUndoStack undo;
    ui::TrainingJobsPage page(*ws, &undo);
    page.addJob();
    const QString old = page.currentName();
    CHECK(page.renameJob("pretrain"));
    CHECK((*ws).trainingJob("pretrain"));
    CHECK_FALSE((*ws).trainingJob(old));
    CHECK(page.currentName() == "pretrain");
    // A rename is one optimistic write of the same row: the next version, creation time kept.
    CHECK((*ws).trainingJobRecord("pretrain")->version == 2);

    page.duplicateJob();
    CHECK((*ws).trainingJob("pretrain (copy)"));
    CHECK_FALSE(page.renameJob("pretrain"));
    CHECK(page.statusText().contains("exists already"));

    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueTextAnswer("finetune");
    page.renameJobWithDialog();
    ui::Dialogs::setScripted(false);
    CHECK((*ws).trainingJob("finetune"));
    CHECK_FALSE((*ws).trainingJob("pretrain (copy)"));

    auto *nameEdit = child<QLineEdit>(page, "trainingJobName");
    nameEdit->setText("pretrain");
    emit nameEdit->editingFinished();
    CHECK(page.statusText().contains("exists already"));
    CHECK(nameEdit->text() == "finetune");

    undo.undo(); // rename back
    CHECK((*ws).trainingJob("pretrain (copy)"));
    undo.undo(); // duplicate
    undo.undo(); // first rename
    CHECK((*ws).trainingJob(old));
    CHECK((*ws).trainingJobs().size() == 1);

    page.selectJob(old);
    page.deleteJob();
    CHECK((*ws).trainingJobs().empty());
    undo.undo();
    CHECK((*ws).trainingJob(old));
}
