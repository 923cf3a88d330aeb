#include "servingassumptionsdialog.h"

#include "common/fields.h"
#include "common/format.h"
#include "store/common/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cmath>

namespace headroom::ui {

namespace {

QDoubleSpinBox *newBox(QWidget *parent, const char *name, double min, double max, int decimals, double step,
                       const QString &suffix, const QString &tip)
{
    QDoubleSpinBox *box = newDoubleSpinBox(parent, name, min, max, min, decimals, suffix, tip);
    box->setSingleStep(step);
    return box;
}

// An undoable edit of the serving assumptions that writes only the fields it changed, over
// what is stored when it runs (Workspace::changeServingAssumptions): another program's edit of
// other fields in between survives both redo and undo.
class ChangeServingAssumptionsCommand : public QUndoCommand {
public:
    ChangeServingAssumptionsCommand(store::Workspace &workspace, engine::ServingAssumptions before,
                                    engine::ServingAssumptions after, const QString &text)
        : QUndoCommand(text), m_workspace(workspace), m_before(std::move(before)), m_after(std::move(after))
    {
    }

    void redo() override { m_workspace.changeServingAssumptions(m_before, m_after); }
    void undo() override { m_workspace.changeServingAssumptions(m_after, m_before); }

private:
    store::Workspace &m_workspace;
    engine::ServingAssumptions m_before;
    engine::ServingAssumptions m_after;
};

} // namespace

ServingAssumptionsDialog::ServingAssumptionsDialog(const engine::ServingAssumptions &assumptions, QWidget *parent)
    : QDialog(parent)
{
    setObjectName("servingAssumptionsDialog");
    setWindowTitle(tr("Serving Assumptions"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("One set for the whole workspace: the KV page, Inference sizing, Serving simulation, "
                                "Scenarios and the command line all size with these. Each page shows which were used. "
                                "The three efficiencies apply to GPUs without a measured profile in the catalog."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_utilization = newBox(this, "servingUtilization", 0.05, 1.0, 2, 0.01, QString(),
                           tr("Share of GPU memory the serving engine may use (vLLM's gpu_memory_utilization), "
                              "0.05–1.00. The KV pool is what is left after weights and the reserve."));
    m_reserve = newBox(this, "servingReserve", 0, 1024, 1, 0.5, tr(" GiB"),
                       tr("Activation peak plus runtime overhead (CUDA graphs, NCCL buffers) per GPU, 0–1024 GiB, "
                          "taken from the pool before KV."));
    m_reserveMode = new QComboBox(this);
    m_reserveMode->setObjectName("servingReserveMode");
    m_reserveMode->addItem(tr("Flat — the reserve below on every GPU"), int(engine::ReserveMode::Flat));
    m_reserveMode->addItem(tr("vLLM's profile — activation peak + non-torch memory per model"),
                           int(engine::ReserveMode::VllmProfile));
    m_reserveMode->setToolTip(tr("vLLM's profile: the activation peak its profiling pass reaches at max batched tokens "
                                 "and max running requests (the larger of the layer pass and the sampler's logits) "
                                 "plus the memory it finds outside PyTorch, for each model and TP — as vLLM sizes "
                                 "its KV cache. Flat: one reserve for every GPU."));
    connect(m_reserveMode, &QComboBox::currentIndexChanged, this, [this] {
        m_reserve->setEnabled(engine::ReserveMode(m_reserveMode->currentData().toInt()) == engine::ReserveMode::Flat);
    });
    m_blockSize = new QSpinBox(this);
    m_blockSize->setObjectName("servingBlockSize");
    m_blockSize->setRange(1, 1024);
    setCountSuffix(m_blockSize, tr(" token(s)"));
    m_blockSize->setToolTip(tr("Paged-attention block size, 1–1024 tokens. A stream occupies whole blocks."));
    m_prefill = newBox(this, "servingPrefillEfficiency", 1, 100, 0, 5, tr(" %"),
                       tr("For a GPU without a measured profile in the catalog: share of its peak dense TFLOPS "
                          "large passes reach, 1–100 %. A catalog GPU's own profile wins."));
    m_decodeBandwidth = newBox(this, "servingDecodeBandwidth", 1, 100, 0, 5, tr(" %"),
                               tr("For a GPU without a measured profile: share of HBM bandwidth weights and KV "
                                  "stream at, 1–100 %."));
    m_decodeCompute = newBox(this, "servingDecodeCompute", 1, 100, 0, 5, tr(" %"),
                             tr("For a GPU without a measured profile: share of peak TFLOPS a one-token pass "
                                "reaches, 1–100 %."));
    m_headroom = newBox(this, "servingHeadroom", 0, 1000, 0, 5, tr(" %"),
                        tr("Capacity kept free at peak by design, 0–1000 % of what the load needs."));
    m_quantile = newBox(this, "servingQuantile", 50, 99.99, 2, 0.1, QString(),
                        tr("Quantile of the number of requests in flight that memory is sized for, P50–P99.99 "
                           "(arrivals in a busy hour are close to Poisson)."));
    m_quantile->setPrefix(tr("P"));
    m_allowance = newBox(this, "servingAllowance", 0, 3'600'000, 0, 50, tr(" ms"),
                         tr("Wait before prefill counted in each request's time in system, 0–3,600,000 ms."));
    m_residency = new QComboBox(this);
    m_residency->setObjectName("servingResidency");
    m_residency->addItem(tr("Request — KV held while a request is in flight"), int(engine::KvResidency::Request));
    m_residency->addItem(tr("Session — every open session keeps its KV"), int(engine::KvResidency::Session));
    m_residency->setToolTip(tr("Which streams hold KV cache, and so what the memory side is sized for. Inference "
                               "sizing can try the other one as a what-if."));
    m_batchedTokens = new QSpinBox(this);
    m_batchedTokens->setObjectName("servingBatchedTokens");
    m_batchedTokens->setRange(0, int(engine::kMaxBatchedTokens));
    m_batchedTokens->setSingleStep(512);
    m_batchedTokens->setSpecialValueText(tr("vLLM's default"));
    setCountSuffix(m_batchedTokens, tr(" token(s)"));
    m_batchedTokens->setToolTip(tr("Tokens one iteration schedules (vLLM's max_num_batched_tokens), 1–1,048,576; "
                                   "vLLM's default: 8,192 on GPUs of 70 GiB and more but A100s, else 2,048."));
    m_numSeqs = new QSpinBox(this);
    m_numSeqs->setObjectName("servingNumSeqs");
    m_numSeqs->setRange(0, engine::kMaxNumSeqs);
    m_numSeqs->setSingleStep(64);
    m_numSeqs->setSpecialValueText(tr("vLLM's default"));
    setCountSuffix(m_numSeqs, tr(" request(s)"));
    m_numSeqs->setToolTip(tr("Requests running at once per replica (vLLM's max_num_seqs), 1–65,536; vLLM's "
                             "default: 1,024 on GPUs of 70 GiB and more but A100s, else 256."));
    m_chunkedPrefill = new QCheckBox(tr("Chunked prefill"), this);
    m_chunkedPrefill->setObjectName("servingChunkedPrefill");
    m_chunkedPrefill->setToolTip(tr("Prompts split into chunks that ride in the same passes as decodes (vLLM V1 "
                                    "always); off: a prompt is prefilled whole in a pass of its own."));
    m_prefixCaching = new QCheckBox(tr("Prefix caching"), this);
    m_prefixCaching->setObjectName("servingPrefixCaching");
    m_prefixCaching->setToolTip(tr("KV of shared prompt prefixes reused (vLLM's default); off: every prompt is "
                                   "computed in full and the workloads' hit rates are ignored."));
    m_requestOverhead = newBox(this, "servingRequestOverhead", 0, 60'000, 1, 1, tr(" ms"),
                               tr("Fixed time of every request outside the GPU passes — API server, tokenizer, "
                                  "scheduling — added to TTFT, 0–60,000 ms."));
    form->addRow(tr("Memory &utilization:"), m_utilization);
    form->addRow(tr("Reser&ve from:"), m_reserveMode);
    form->addRow(tr("Activation + runtime &reserve per GPU:"), m_reserve);
    m_measured = new QLabel(this);
    m_measured->setObjectName("servingMeasuredReserves");
    // One line a deployment, never wrapped: a wrapped label in a form row is given the height of
    // its unwrapped text and clipped. The source of each figure is in the tooltip.
    m_forgetMeasured = new QPushButton(tr("&Forget measured reserves"), this);
    m_forgetMeasured->setObjectName("servingForgetMeasured");
    m_forgetMeasured->setToolTip(tr("Reserves kept per deployment from vLLM logs win over the mode above for their "
                                    "model, GPU and TP; forget them to use the mode everywhere."));
    connect(m_forgetMeasured, &QPushButton::clicked, this, [this] {
        m_overrides.clear();
        showMeasured();
    });
    auto *measuredRow = new QHBoxLayout;
    measuredRow->addWidget(m_measured, 1);
    measuredRow->addWidget(m_forgetMeasured);
    form->addRow(tr("Measured per deployment:"), measuredRow);
    form->addRow(tr("KV &block size:"), m_blockSize);
    form->addRow(tr("&Prefill efficiency:"), m_prefill);
    form->addRow(tr("Decode &bandwidth efficiency:"), m_decodeBandwidth);
    form->addRow(tr("Decode &compute efficiency:"), m_decodeCompute);
    form->addRow(tr("Planned &headroom:"), m_headroom);
    form->addRow(tr("In-flight &quantile:"), m_quantile);
    form->addRow(tr("&Queueing allowance:"), m_allowance);
    form->addRow(tr("KV &residency:"), m_residency);
    form->addRow(tr("Max batched &tokens:"), m_batchedTokens);
    form->addRow(tr("Max running requ&ests:"), m_numSeqs);
    form->addRow(QString(), m_chunkedPrefill);
    form->addRow(QString(), m_prefixCaching);
    form->addRow(tr("Request &overhead:"), m_requestOverhead);
    layout->addLayout(form);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel
                                             | QDialogButtonBox::RestoreDefaults,
                                         this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { setAssumptions({}); });
    layout->addWidget(buttons);
    setAssumptions(assumptions);
}

engine::ServingAssumptions ServingAssumptionsDialog::assumptions() const
{
    engine::ServingAssumptions a;
    a.memoryUtilization = m_utilization->value();
    a.reserveBytes = int64_t(std::llround(m_reserve->value() * double(engine::kGiB)));
    a.reserveMode = engine::ReserveMode(m_reserveMode->currentData().toInt());
    a.reserveOverrides = m_overrides;
    a.blockSize = m_blockSize->value();
    a.prefillEfficiency = m_prefill->value() / 100.0;
    a.decodeBandwidthEfficiency = m_decodeBandwidth->value() / 100.0;
    a.decodeComputeEfficiency = m_decodeCompute->value() / 100.0;
    a.plannedHeadroom = m_headroom->value() / 100.0;
    a.inFlightQuantile = m_quantile->value() / 100.0;
    a.queueingAllowanceMs = m_allowance->value();
    a.residency = engine::KvResidency(m_residency->currentData().toInt());
    a.maxNumBatchedTokens = m_batchedTokens->value();
    a.maxNumSeqs = m_numSeqs->value();
    a.chunkedPrefill = m_chunkedPrefill->isChecked();
    a.prefixCaching = m_prefixCaching->isChecked();
    a.requestOverheadMs = m_requestOverhead->value();
    return a;
}

void ServingAssumptionsDialog::setAssumptions(const engine::ServingAssumptions &a)
{
    m_utilization->setValue(a.memoryUtilization);
    m_reserve->setValue(double(a.reserveBytes) / double(engine::kGiB));
    m_reserveMode->setCurrentIndex(m_reserveMode->findData(int(a.reserveMode)));
    m_reserve->setEnabled(a.reserveMode == engine::ReserveMode::Flat);
    m_overrides = a.reserveOverrides;
    showMeasured();
    m_blockSize->setValue(a.blockSize);
    m_prefill->setValue(a.prefillEfficiency * 100.0);
    m_decodeBandwidth->setValue(a.decodeBandwidthEfficiency * 100.0);
    m_decodeCompute->setValue(a.decodeComputeEfficiency * 100.0);
    m_headroom->setValue(a.plannedHeadroom * 100.0);
    m_quantile->setValue(a.inFlightQuantile * 100.0);
    m_allowance->setValue(a.queueingAllowanceMs);
    m_residency->setCurrentIndex(m_residency->findData(int(a.residency)));
    m_batchedTokens->setValue(int(a.maxNumBatchedTokens));
    m_numSeqs->setValue(a.maxNumSeqs);
    m_chunkedPrefill->setChecked(a.chunkedPrefill);
    m_prefixCaching->setChecked(a.prefixCaching);
    m_requestOverhead->setValue(a.requestOverheadMs);
}

void ServingAssumptionsDialog::showMeasured()
{
    QStringList lines;
    QStringList sources;
    for (const engine::ReserveOverride &o : m_overrides) {
        const QString line = tr("%1 on %2 at TP %3: %4")
                                 .arg(QString::fromStdString(o.modelId), QString::fromStdString(o.gpuId))
                                 .arg(o.tp)
                                 .arg(formatGiB(o.reserveBytes, 2));
        lines << line;
        sources << tr("%1 (from %2)").arg(line, QString::fromStdString(o.source));
    }
    m_measured->setText(lines.isEmpty() ? tr("none") : lines.join(QLatin1Char('\n')));
    m_measured->setToolTip(sources.join(QLatin1Char('\n')));
    m_forgetMeasured->setEnabled(!m_overrides.empty());
}

bool ServingAssumptionsDialog::edit(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
{
    const engine::ServingAssumptions before = workspace.servingAssumptions();
    ServingAssumptionsDialog dialog(before, parent);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    // Values the spin boxes show unchanged keep their stored precision.
    engine::ServingAssumptions after = dialog.assumptions();
    ServingAssumptionsDialog unchanged(before);
    const engine::ServingAssumptions shown = unchanged.assumptions();
    auto keep = [](auto &value, const auto &was, const auto &shownWas) {
        if (value == shownWas)
            value = was;
    };
    keep(after.memoryUtilization, before.memoryUtilization, shown.memoryUtilization);
    keep(after.reserveBytes, before.reserveBytes, shown.reserveBytes);
    keep(after.prefillEfficiency, before.prefillEfficiency, shown.prefillEfficiency);
    keep(after.decodeBandwidthEfficiency, before.decodeBandwidthEfficiency, shown.decodeBandwidthEfficiency);
    keep(after.decodeComputeEfficiency, before.decodeComputeEfficiency, shown.decodeComputeEfficiency);
    keep(after.plannedHeadroom, before.plannedHeadroom, shown.plannedHeadroom);
    keep(after.inFlightQuantile, before.inFlightQuantile, shown.inFlightQuantile);
    keep(after.queueingAllowanceMs, before.queueingAllowanceMs, shown.queueingAllowanceMs);
    keep(after.requestOverheadMs, before.requestOverheadMs, shown.requestOverheadMs);
    if (after == before)
        return false;
    apply(workspace, undoStack, after);
    return true;
}

void ServingAssumptionsDialog::apply(store::Workspace &workspace, QUndoStack *undoStack,
                                     const engine::ServingAssumptions &after)
{
    const engine::ServingAssumptions before = workspace.servingAssumptions();
    if (after == before)
        return;
    auto *command = new ChangeServingAssumptionsCommand(workspace, before, after, tr("Change Serving Assumptions"));
    if (undoStack) {
        undoStack->push(command);
    } else {
        command->redo();
        delete command;
    }
}

QString ServingAssumptionsDialog::summary(const engine::ServingAssumptions &a)
{
    return tr("Memory utilization %1 · reserve %2 · block %3 tokens · KV residency %4 · planned headroom %5 %")
        .arg(a.memoryUtilization, 0, 'f', 2)
        .arg(a.reserveMode == engine::ReserveMode::VllmProfile ? tr("vLLM's profile") : formatGiB(a.reserveBytes))
        .arg(a.blockSize)
        .arg(QString::fromUtf8(engine::toString(a.residency).data()))
        .arg(a.plannedHeadroom * 100, 0, 'g', 4);
}

QPushButton *ServingAssumptionsDialog::editButton(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent,
                                                  const QString &objectName)
{
    auto *button = new QPushButton(tr("Serving &assumptions…"), parent);
    button->setObjectName(objectName);
    button->setToolTip(tr("Memory utilization, runtime reserve, block size, efficiencies, planned headroom, in-flight "
                          "quantile and KV residency for every page of the workspace (Edit ▸ Serving Assumptions)"));
    connect(button, &QPushButton::clicked, parent,
            [&workspace, undoStack, parent] { edit(workspace, undoStack, parent); });
    return button;
}

} // namespace headroom::ui
