#include "trainingjobform.h"

#include "common/fields.h"
#include "scaledcountbox.h"
#include "store/common/workspace.h"
#include "trainingcharts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

using engine::TrainingJob;

// Fields that take effect when editing finishes, not on every key.
QDoubleSpinBox *numberBox(QWidget *parent, const char *name, double min, double max, int decimals,
                          const QString &suffix, const QString &tip)
{
    QDoubleSpinBox *box = newDoubleSpinBox(parent, name, min, max, min, decimals, suffix, tip);
    box->setKeyboardTracking(false);
    return box;
}

QSpinBox *integerBox(QWidget *parent, const char *name, int min, int max, const QString &suffix, const QString &tip)
{
    QSpinBox *box = newSpinBox(parent, name, min, max, min, suffix, tip);
    box->setKeyboardTracking(false);
    return box;
}

QComboBox *comboBox(QWidget *parent, const char *name, const QString &tip,
                    const std::vector<std::pair<QString, QVariant>> &items)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(QLatin1String(name));
    combo->setToolTip(tip);
    for (const auto &[text, data] : items)
        combo->addItem(text, data);
    return combo;
}

constexpr double kDefaultGpuCount = 1024;

} // namespace

TrainingJobForm::TrainingJobForm(store::Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    auto *grid = new QGridLayout(this);
    auto group = [this](const QString &title) {
        auto *box = new QGroupBox(title, this);
        return std::pair{box, new QFormLayout(box)};
    };
    // Connects an editor's change signal to saving its binding.
    auto commitOn = [this](auto *editor, auto signal, int index) {
        connect(editor, signal, this, [this, index] { emit fieldEdited(index); });
    };

    // Job
    auto [jobBox, jobForm] = group(tr("Job"));
    auto *name = new QLineEdit(this);
    name->setObjectName("trainingJobName");
    name->setToolTip(tr("Unique name of the training run in this workspace"));
    jobForm->addRow(tr("Name:"), name);
    commitOn(name, &QLineEdit::editingFinished,
             bind(tr("name"), [name](const TrainingJob &j) { name->setText(QString::fromStdString(j.name)); },
                  [name](TrainingJob &j) { j.name = name->text().trimmed().toStdString(); }));
    auto *scheduled = new QCheckBox(tr("Scheduled"), this);
    scheduled->setObjectName("trainingJobScheduled");
    scheduled->setToolTip(tr("Whether the run has a start date; unscheduled runs may start at once"));
    auto *start = new QDateEdit(this);
    start->setObjectName("trainingJobStart");
    start->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    start->setCalendarPopup(true);
    start->setToolTip(tr("First day the run may start (UTC); the mixed-cluster plan starts it no earlier"));
    auto *startRow = new QHBoxLayout;
    startRow->addWidget(scheduled);
    startRow->addWidget(start, 1);
    jobForm->addRow(tr("Start date:"), startRow);
    const int startIndex = bind(
        tr("start date"),
        [scheduled, start](const TrainingJob &j) {
            const QDate date = QDate::fromString(QString::fromStdString(j.startDate), Qt::ISODate);
            scheduled->setChecked(date.isValid());
            start->setEnabled(date.isValid());
            start->setDate(date.isValid() ? date : QDate::currentDate());
        },
        [scheduled, start](TrainingJob &j) {
            j.startDate = scheduled->isChecked() ? start->date().toString(Qt::ISODate).toStdString() : std::string();
        });
    commitOn(start, &QDateEdit::dateChanged, startIndex);
    connect(scheduled, &QCheckBox::toggled, this, [this, start, startIndex](bool on) {
        start->setEnabled(on);
        emit fieldEdited(startIndex);
    });
    auto *priority = integerBox(this, "trainingJobPriority", -100, 100, QString(),
                                tr("Higher runs first when jobs share a pool (−100 … 100); equal priorities go by "
                                   "start date"));
    jobForm->addRow(tr("Priority:"), priority);
    commitOn(priority, &QSpinBox::valueChanged,
             bind(tr("priority"), [priority](const TrainingJob &j) { priority->setValue(j.priority); },
                  [priority](TrainingJob &j) { j.priority = priority->value(); }));

    // Model and data
    auto [modelBox, modelForm] = group(tr("Model and data"));
    m_model = comboBox(this, "trainingJobModel",
                       tr("Model from the catalog (its size and architecture), or a bare parameter count"), {});
    modelForm->addRow(tr("Model:"), m_model);
    commitOn(m_model, &QComboBox::currentIndexChanged,
             bind(tr("model"),
                  [this](const TrainingJob &j) {
                      m_model->setCurrentIndex(std::max(0, m_model->findData(QString::fromStdString(j.modelId))));
                  },
                  [this](TrainingJob &j) { j.modelId = m_model->currentData().toString().toStdString(); }));
    auto *params = new ScaledCountBox(QString(), this);
    params->setObjectName("trainingJobParams");
    params->setRange(0, 1e15);
    params->setSpecialValueText(tr("catalog count"));
    params->setToolTip(tr("Parameter count N (type 70B or 1.4T). With a catalog model, 0 uses its count and a "
                          "value overrides it; without one it is required. The architecture for activation "
                          "memory is then estimated"));
    modelForm->addRow(tr("Parameters:"), params);
    commitOn(params, &QDoubleSpinBox::valueChanged,
             bind(tr("parameters"), [params](const TrainingJob &j) { params->setValue(j.params); },
                  [params](TrainingJob &j) { j.params = params->value(); }));
    auto *tokens = new ScaledCountBox(tr(" tokens"), this);
    tokens->setObjectName("trainingJobTokens");
    setCountSuffix(tokens, tr(" token(s)"));
    tokens->setRange(0, 1e16);
    tokens->setToolTip(tr("Training tokens D (type 300B or 15T). Total compute is 6·N·D FLOPs, 8·N·D with "
                          "full activation recomputation"));
    modelForm->addRow(tr("Training tokens:"), tokens);
    commitOn(tokens, &QDoubleSpinBox::valueChanged,
             bind(tr("tokens"), [tokens](const TrainingJob &j) { tokens->setValue(j.tokens); },
                  [tokens](TrainingJob &j) { j.tokens = tokens->value(); }));
    auto *seqLen = integerBox(this, "trainingJobSeqLen", 1, 1 << 21, tr(" token(s)"),
                              tr("Tokens per training sequence, 1 … 2,097,152; activation memory grows with it"));
    modelForm->addRow(tr("Sequence length:"), seqLen);
    commitOn(seqLen, &QSpinBox::valueChanged,
             bind(tr("sequence length"), [seqLen](const TrainingJob &j) { seqLen->setValue(j.seqLen); },
                  [seqLen](TrainingJob &j) { j.seqLen = seqLen->value(); }));
    auto *batch = new ScaledCountBox(tr(" tokens"), this);
    batch->setObjectName("trainingJobGlobalBatch");
    setCountSuffix(batch, tr(" token(s)"));
    batch->setRange(0, 1e12);
    batch->setSpecialValueText(tr("follows the fleet"));
    batch->setToolTip(tr("Global batch: tokens per optimizer step over all data-parallel replicas (sequences × "
                         "sequence length, e.g. 4M). Sets how often gradients are exchanged. 0 = follows the fleet: "
                         "4M, raised until every replica gets a micro-batch (4 × PP with pipelines), at most 16M"));
    modelForm->addRow(tr("Global batch:"), batch);
    commitOn(batch, &QDoubleSpinBox::valueChanged,
             bind(tr("global batch"), [batch](const TrainingJob &j) { batch->setValue(j.globalBatchTokens); },
                  [batch](TrainingJob &j) { j.globalBatchTokens = batch->value(); }));
    auto *micro = integerBox(this, "trainingJobMicroBatch", 0, 4096, tr(" sequences"),
                             tr("Micro-batch: sequences per GPU per forward pass, 1 … 4,096, or the largest that fits "
                                "(gradient accumulation makes up the rest of the batch); sets activation memory "
                                "and the pipeline bubble"));
    micro->setSpecialValueText(tr("largest that fits"));
    modelForm->addRow(tr("Micro-batch:"), micro);
    commitOn(micro, &QSpinBox::valueChanged,
             bind(tr("micro-batch"), [micro](const TrainingJob &j) { micro->setValue(j.microBatch); },
                  [micro](TrainingJob &j) { j.microBatch = micro->value(); }));
    auto *attention = comboBox(this, "trainingJobAttention",
                               tr("Attention kernel: flash (FlashAttention, PyTorch SDPA) keeps no s × s score matrix; "
                                  "eager stores scores, softmax and dropout mask (5·a·s/h more per layer)"),
                               {{tr("Flash"), int(engine::AttentionKernel::Flash)},
                                {tr("Eager"), int(engine::AttentionKernel::Eager)}});
    modelForm->addRow(tr("Attention:"), attention);
    commitOn(attention, &QComboBox::currentIndexChanged,
             bind(tr("attention kernel"),
                  [attention](const TrainingJob &j) { attention->setCurrentIndex(attention->findData(int(j.attention))); },
                  [attention](TrainingJob &j) { j.attention = engine::AttentionKernel(attention->currentData().toInt()); }));
    auto *recompute = comboBox(this, "trainingJobRecompute",
                               tr("Activation recomputation: selective recomputes the attention core (with eager "
                                  "attention, 4·L·s·h FLOPs per token more); full keeps only each layer's input for "
                                  "one extra forward pass (8·N·D instead of 6·N·D FLOPs). While the layout is searched, "
                                  "recomputation is searched from this level up"),
                               {{tr("None"), int(engine::Recomputation::None)},
                                {tr("Selective"), int(engine::Recomputation::Selective)},
                                {tr("Full"), int(engine::Recomputation::Full)}});
    modelForm->addRow(tr("Recomputation:"), recompute);
    commitOn(recompute, &QComboBox::currentIndexChanged,
             bind(tr("recomputation"),
                  [recompute](const TrainingJob &j) { recompute->setCurrentIndex(recompute->findData(int(j.recompute))); },
                  [recompute](TrainingJob &j) { j.recompute = engine::Recomputation(recompute->currentData().toInt()); }));

    // Hardware and speed
    auto [hardwareBox, hardwareForm] = group(tr("GPUs and speed"));
    m_gpu = comboBox(this, "trainingJobGpu", tr("GPU from the catalog: peak BF16 TFLOP/s, memory, GPUs per node"), {});
    hardwareForm->addRow(tr("GPU:"), m_gpu);
    commitOn(m_gpu, &QComboBox::currentIndexChanged,
             bind(tr("GPU"),
                  [this](const TrainingJob &j) {
                      m_gpu->setCurrentIndex(m_gpu->findData(QString::fromStdString(j.gpuId)));
                  },
                  [this](TrainingJob &j) { j.gpuId = m_gpu->currentData().toString().toStdString(); }));
    auto *basis = comboBox(this, "trainingJobThroughputBasis",
                           tr("How the speed is given: model FLOPs utilization (a share of the GPU's peak BF16, "
                              "communication overhead modelled on top) or achieved TFLOP/s per GPU as measured "
                              "(taken as is, no overhead added)"),
                           {{tr("MFU (share of peak)"), int(engine::ThroughputBasis::Mfu)},
                            {tr("Achieved TFLOP/s per GPU"), int(engine::ThroughputBasis::AchievedTflops)},
                            {tr("Achieved model TFLOP/s per GPU"), int(engine::ThroughputBasis::AchievedModelTflops)}});
    basis->setToolTip(basis->toolTip()
                      + tr(". Achieved TFLOP/s count every FLOP executed, recomputation included (as Megatron-LM "
                           "reports them); model TFLOP/s count 6·N per token only (as MFU is reported), so "
                           "recomputation is inside the measurement"));
    auto *throughput = numberBox(this, "trainingJobThroughput", 0, 100, 1, tr(" %"), QString());
    hardwareForm->addRow(tr("Throughput given as:"), basis);
    hardwareForm->addRow(tr("Throughput:"), throughput);
    // The value box follows the basis: MFU in percent or TFLOP/s per GPU.
    auto showBasis = [throughput](engine::ThroughputBasis b) {
        if (b == engine::ThroughputBasis::Mfu) {
            throughput->setRange(0, 100);
            throughput->setDecimals(1);
            throughput->setSuffix(QObject::tr(" % MFU"));
            throughput->setToolTip(QObject::tr("Model FLOPs utilization: share of the GPU's peak BF16 the model "
                                               "math reaches, (0, 100] %; 35–45 % is typical for large dense runs"));
        } else {
            throughput->setRange(0, 100000);
            throughput->setDecimals(1);
            throughput->setSuffix(QObject::tr(" TFLOP/s per GPU"));
            throughput->setToolTip(QObject::tr("Measured dense model TFLOP/s per GPU (> 0), taken as is: no "
                                               "communication overhead is added"));
        }
    };
    commitOn(basis, &QComboBox::currentIndexChanged,
             bind(tr("throughput basis"),
                  [basis](const TrainingJob &j) { basis->setCurrentIndex(basis->findData(int(j.throughputBasis))); },
                  [this, basis](TrainingJob &j) {
                      const auto to = engine::ThroughputBasis(basis->currentData().toInt());
                      if (to == j.throughputBasis)
                          return;
                      // Keep the same speed in the other unit, from the GPU's peak.
                      const double peak = peakTflops(j.gpuId);
                      if (to != engine::ThroughputBasis::Mfu && j.throughputBasis != engine::ThroughputBasis::Mfu)
                          ; // both measured TFLOP/s: the number stays
                      else if (to != engine::ThroughputBasis::Mfu)
                          j.throughput = peak > 0 ? std::round(j.throughput * peak * 10) / 10 : 400;
                      else
                          j.throughput = peak > 0 ? std::clamp(std::round(j.throughput / peak * 1000) / 1000, 0.001, 1.0)
                                                  : 0.4;
                      j.throughputBasis = to;
                  }));
    commitOn(throughput, &QDoubleSpinBox::valueChanged,
             bind(tr("throughput"),
                  [throughput, showBasis](const TrainingJob &j) {
                      showBasis(j.throughputBasis);
                      throughput->setValue(j.throughputBasis == engine::ThroughputBasis::Mfu ? j.throughput * 100
                                                                                             : j.throughput);
                  },
                  [throughput](TrainingJob &j) {
                      j.throughput = j.throughputBasis == engine::ThroughputBasis::Mfu ? throughput->value() / 100
                                                                                       : throughput->value();
                  }));
    auto *cores = integerBox(this, "trainingJobCpuCores", 0, 1024, tr(" cores per GPU"),
                             tr("CPU cores to reserve per GPU for data loading and the host side, 0 … 1,024"));
    hardwareForm->addRow(tr("CPU cores:"), cores);
    commitOn(cores, &QSpinBox::valueChanged,
             bind(tr("CPU cores per GPU"), [cores](const TrainingJob &j) { cores->setValue(j.cpuCoresPerGpu); },
                  [cores](TrainingJob &j) { j.cpuCoresPerGpu = cores->value(); }));

    // Target
    auto [targetBox, targetForm] = group(tr("Target"));
    auto *target = comboBox(this, "trainingJobTarget",
                            tr("Solve for the GPUs that finish within a window, or for the days a given GPU count "
                               "needs"),
                            {{tr("Finish within a window"), int(engine::TrainingTarget::WindowDays)},
                             {tr("Run on a GPU count"), int(engine::TrainingTarget::GpuCount)}});
    auto *targetValue = numberBox(this, "trainingJobTargetValue", 0, 3650, 1, tr(" day(s)"), QString());
    targetForm->addRow(tr("Solve for:"), target);
    targetForm->addRow(tr("Target:"), targetValue);
    auto showTarget = [targetValue](engine::TrainingTarget t) {
        if (t == engine::TrainingTarget::WindowDays) {
            targetValue->setRange(0, 3650);
            targetValue->setDecimals(1);
            setCountSuffix(targetValue, QObject::tr(" day(s)"));
            targetValue->setToolTip(QObject::tr("Wall-clock window the run must finish in, days (> 0, up to 10 "
                                                "years)"));
        } else {
            targetValue->setRange(0, 1e6);
            targetValue->setDecimals(0);
            setCountSuffix(targetValue, QObject::tr(" GPU(s)"));
            targetValue->setToolTip(QObject::tr("GPUs the run gets, a whole number ≥ 1; a multiple of TP × PP is "
                                                "used"));
        }
    };
    commitOn(target, &QComboBox::currentIndexChanged,
             bind(tr("target"), [target](const TrainingJob &j) { target->setCurrentIndex(target->findData(int(j.target))); },
                  [target](TrainingJob &j) {
                      const auto to = engine::TrainingTarget(target->currentData().toInt());
                      if (to == j.target)
                          return;
                      j.target = to;
                      j.targetValue = to == engine::TrainingTarget::WindowDays ? 30.0 : kDefaultGpuCount;
                  }));
    commitOn(targetValue, &QDoubleSpinBox::valueChanged,
             bind(tr("target value"),
                  [targetValue, showTarget](const TrainingJob &j) {
                      showTarget(j.target);
                      targetValue->setValue(j.targetValue);
                  },
                  [targetValue](TrainingJob &j) { j.targetValue = targetValue->value(); }));

    // Parallelism and memory
    auto [parallelBox, parallelForm] = group(tr("Parallelism and memory"));
    auto *tp = integerBox(this, "trainingJobTp", 0, 512, tr(" GPU(s)"),
                          tr("Tensor parallelism: GPUs splitting every layer, 1 … 512, or searched (within the NVLink "
                             "domain). Above 1 it needs NVLink, so the job takes whole nodes"));
    tp->setSpecialValueText(tr("searched"));
    auto *pp = integerBox(this, "trainingJobPp", 0, 512, tr(" stage(s)"),
                          tr("Pipeline parallelism: stages the layers are split into, 1 … 512, or searched; adds a "
                             "bubble of (PP − 1) ÷ micro-batches per step"));
    pp->setSpecialValueText(tr("searched"));
    auto *virtualStages = integerBox(this, "trainingJobVirtualStages", 0, 128, tr(" chunk(s) per GPU"),
                                     tr("Interleaved pipeline (Megatron-LM): layer chunks each GPU holds, 1 … 128, or "
                                        "searched; the bubble shrinks to (PP − 1) ÷ (chunks × micro-batches) for as "
                                        "many more stage-to-stage sends"));
    virtualStages->setSpecialValueText(tr("searched"));
    auto *ep = integerBox(this, "trainingJobEp", 0, 4096, tr(" GPU(s)"),
                          tr("Expert parallelism of a mixture of experts: GPUs the experts are spread over, dividing "
                             "the experts and the data-parallel replicas, or searched; 1 for a dense model"));
    ep->setSpecialValueText(tr("searched"));
    auto *dp = integerBox(this, "trainingJobDp", 0, 1 << 20, tr(" rank(s)"),
                          tr("Ranks the ZeRO-sharded model states are spread over; 0 = all data-parallel replicas "
                             "of the fleet (GPUs ÷ (TP × PP))"));
    dp->setSpecialValueText(tr("all replicas"));
    auto *zero = comboBox(this, "trainingJobZero",
                          tr("ZeRO stage: which model states are sharded over the data-parallel ranks (mixed-"
                             "precision Adam, 16 bytes per parameter unsharded)"),
                          {{tr("Searched — the fastest that fits"), -1},
                           {tr("0 — nothing sharded (16 Ψ)"), 0},
                           {tr("1 — optimizer states (4 Ψ + 12 Ψ/N)"), 1},
                           {tr("2 — + gradients (2 Ψ + 14 Ψ/N)"), 2},
                           {tr("3 — + weights (16 Ψ/N)"), 3}});
    parallelForm->addRow(tr("Tensor parallel (TP):"), tp);
    parallelForm->addRow(tr("Pipeline parallel (PP):"), pp);
    parallelForm->addRow(tr("Interleaved chunks:"), virtualStages);
    parallelForm->addRow(tr("Expert parallel (EP):"), ep);
    parallelForm->addRow(tr("ZeRO sharding (DP):"), dp);
    parallelForm->addRow(tr("ZeRO stage:"), zero);
    commitOn(tp, &QSpinBox::valueChanged,
             bind(tr("TP"), [tp](const TrainingJob &j) { tp->setValue(j.tp); },
                  [tp](TrainingJob &j) { j.tp = tp->value(); }));
    commitOn(pp, &QSpinBox::valueChanged,
             bind(tr("PP"), [pp](const TrainingJob &j) { pp->setValue(j.pp); },
                  [pp](TrainingJob &j) { j.pp = pp->value(); }));
    commitOn(virtualStages, &QSpinBox::valueChanged,
             bind(tr("interleaved chunks"), [virtualStages](const TrainingJob &j) { virtualStages->setValue(j.virtualStages); },
                  [virtualStages](TrainingJob &j) { j.virtualStages = virtualStages->value(); }));
    commitOn(ep, &QSpinBox::valueChanged,
             bind(tr("EP"), [ep](const TrainingJob &j) { ep->setValue(j.ep); },
                  [ep](TrainingJob &j) { j.ep = ep->value(); }));
    commitOn(dp, &QSpinBox::valueChanged,
             bind(tr("DP"), [dp](const TrainingJob &j) { dp->setValue(j.dp); },
                  [dp](TrainingJob &j) { j.dp = dp->value(); }));
    commitOn(zero, &QComboBox::currentIndexChanged,
             bind(tr("ZeRO stage"), [zero](const TrainingJob &j) { zero->setCurrentIndex(zero->findData(j.zeroStage)); },
                  [zero](TrainingJob &j) { j.zeroStage = zero->currentData().toInt(); }));

    // Interconnect
    auto [linkBox, linkForm] = group(tr("Interconnect"));
    auto *intra = comboBox(this, "trainingJobIntraNode",
                           tr("Link between the GPUs of one node: carries tensor-parallel traffic"),
                           {{tr("NVLink"), int(engine::IntraNodeLink::NvLink)},
                            {tr("PCIe"), int(engine::IntraNodeLink::Pcie)}});
    auto *inter = comboBox(this, "trainingJobInterNode",
                           tr("Network between nodes: carries the data-parallel gradient all-reduce"),
                           {{tr("InfiniBand (400 Gb/s NDR)"), int(engine::InterNodeLink::InfiniBand)},
                            {tr("RoCE v2 (400 GbE)"), int(engine::InterNodeLink::Roce)},
                            {tr("Ethernet (100 GbE, TCP)"), int(engine::InterNodeLink::Ethernet)}});
    linkForm->addRow(tr("Inside a node:"), intra);
    linkForm->addRow(tr("Between nodes:"), inter);
    commitOn(intra, &QComboBox::currentIndexChanged,
             bind(tr("intra-node link"),
                  [intra](const TrainingJob &j) { intra->setCurrentIndex(intra->findData(int(j.intraNode))); },
                  [intra](TrainingJob &j) { j.intraNode = engine::IntraNodeLink(intra->currentData().toInt()); }));
    commitOn(inter, &QComboBox::currentIndexChanged,
             bind(tr("inter-node link"),
                  [inter](const TrainingJob &j) { inter->setCurrentIndex(inter->findData(int(j.interNode))); },
                  [inter](TrainingJob &j) { j.interNode = engine::InterNodeLink(inter->currentData().toInt()); }));

    // Preemption
    auto [preemptBox, preemptForm] = group(tr("Capacity"));
    auto *preemptible = new QCheckBox(tr("Preemptible (spot) capacity"), this);
    preemptible->setObjectName("trainingJobPreemptible");
    preemptible->setToolTip(tr("Runs on spot or preemptible GPUs: cheaper, but each interruption loses the work "
                               "since the last checkpoint plus a restart"));
    auto *checkpoint = numberBox(this, "trainingJobCheckpoint", 0, 720, 2, tr(" h"),
                                 tr("Hours between checkpoints (> 0 when preemptible): an interruption loses half an "
                                    "interval on average"));
    preemptForm->addRow(preemptible);
    preemptForm->addRow(tr("Checkpoint every:"), checkpoint);
    const int preemptIndex =
        bind(tr("preemptible"),
             [preemptible, checkpoint](const TrainingJob &j) {
                 preemptible->setChecked(j.preemptible);
                 checkpoint->setEnabled(j.preemptible);
             },
             [preemptible](TrainingJob &j) { j.preemptible = preemptible->isChecked(); });
    connect(preemptible, &QCheckBox::toggled, this, [this, checkpoint, preemptIndex](bool on) {
        checkpoint->setEnabled(on);
        emit fieldEdited(preemptIndex);
    });
    commitOn(checkpoint, &QDoubleSpinBox::valueChanged,
             bind(tr("checkpoint interval"),
                  [checkpoint](const TrainingJob &j) { checkpoint->setValue(j.checkpointIntervalHours); },
                  [checkpoint](TrainingJob &j) { j.checkpointIntervalHours = checkpoint->value(); }));

    m_summary = new QLabel(this);
    m_summary->setObjectName("trainingJobSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    grid->addWidget(jobBox, 0, 0);
    grid->addWidget(modelBox, 1, 0);
    grid->addWidget(targetBox, 2, 0);
    grid->addWidget(hardwareBox, 0, 1);
    grid->addWidget(parallelBox, 1, 1);
    grid->addWidget(linkBox, 2, 1);
    grid->addWidget(preemptBox, 3, 1);
    grid->addWidget(m_summary, 3, 0);
    grid->setRowStretch(4, 1);
}

int TrainingJobForm::bind(const QString &label, std::function<void(const TrainingJob &)> load,
                           std::function<void(TrainingJob &)> store)
{
    m_bindings.push_back({std::move(load), std::move(store), label});
    return int(m_bindings.size()) - 1;
}

double TrainingJobForm::peakTflops(const std::string &gpuId) const
{
    const auto gpu = m_workspace.gpu(QString::fromStdString(gpuId));
    return gpu ? gpu->bf16Tflops : 0.0;
}

void TrainingJobForm::refreshCatalogChoices()
{
    const QVariant model = m_model->currentData(), gpu = m_gpu->currentData();
    m_model->clear();
    m_model->addItem(tr("Parameter count only"), QString());
    for (const auto &m : m_workspace.models())
        m_model->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    m_gpu->clear();
    for (const auto &g : m_workspace.gpus())
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    m_model->setCurrentIndex(std::max(0, m_model->findData(model)));
    m_gpu->setCurrentIndex(m_gpu->findData(gpu));
}

void TrainingJobForm::load(const TrainingJob &job)
{
    for (const Binding &b : m_bindings)
        b.load(job);
}

void TrainingJobForm::storeField(int index, TrainingJob &job) const
{
    m_bindings[size_t(index)].store(job);
}

QString TrainingJobForm::fieldLabel(int index) const
{
    return m_bindings[size_t(index)].label;
}

void TrainingJobForm::clearSummary()
{
    m_summary->clear();
}

void TrainingJobForm::showSummary(const TrainingJob &job)
{
    double params = job.params;
    if (params <= 0)
        if (const auto model = m_workspace.model(QString::fromStdString(job.modelId)))
            params = model->paramsTotal;
    if (params > 0) {
        const bool full = job.recompute == engine::Recomputation::Full;
        const double flops = engine::trainingFlops(params, job.tokens, full);
        m_summary->setText(tr("Compute: %1 = %2 · %3 parameters · %4 tokens = %5 FLOPs. Size it on the Training "
                              "sizing page.")
                               .arg(full ? QStringLiteral("8·N·D") : QStringLiteral("6·N·D"),
                                    full ? QStringLiteral("8") : QStringLiteral("6"),
                                    formatScaledCount(params), formatScaledCount(job.tokens))
                               .arg(flops, 0, 'g', 3));
    } else {
        m_summary->setText(tr("The model is not in the catalog: give a parameter count."));
    }
}

} // namespace headroom::ui
