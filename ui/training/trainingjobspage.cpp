#include "trainingjobspage.h"

#include "common/dialogs.h"
#include "common/fields.h"
#include "common/format.h"
#include "store/exportfile.h"
#include "store/storeerror.h"
#include "store/trainingjson.h"
#include "store/workspace.h"
#include "trainingcharts.h"
#include "common/entitycommand.h"
#include "common/namelist.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cmath>

namespace headroom::ui {

namespace {

using engine::TrainingJob;

// A large count (parameters, tokens) shown and typed with a K/M/B/T suffix (10^3 … 10^12):
// "1.4 T", "70 B", "4.19 M"; plain digits are accepted too. Steps move the second digit.
class ScaledCountBox : public QDoubleSpinBox {
public:
    ScaledCountBox(const QString &unit, QWidget *parent) : QDoubleSpinBox(parent), m_unit(unit)
    {
        setDecimals(0);
        setKeyboardTracking(false);
    }

    QString textFromValue(double value) const override
    {
        return formatScaledCount(value);
    }

    double valueFromText(const QString &text) const override
    {
        return parse(text).value_or(value());
    }

    QValidator::State validate(QString &input, int &) const override
    {
        const QString body = stripped(input);
        if (body.isEmpty())
            return QValidator::Intermediate;
        const auto value = parse(input);
        if (!value)
            return QRegularExpression(QStringLiteral("^[0-9.eE+\\-]*\\s*[kKmMbBtT]?$")).match(body).hasMatch()
                ? QValidator::Intermediate
                : QValidator::Invalid;
        return *value >= minimum() && *value <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
    }

    void stepBy(int steps) override
    {
        const double v = std::max(value(), 1.0);
        const double step = std::pow(10.0, std::floor(std::log10(v)) - 1);
        setValue(value() + steps * step);
    }

private:
    QString stripped(const QString &text) const
    {
        // The unit as shown now ("1 token", "4M tokens"), or as typed in full.
        QString body = text.trimmed();
        for (const QString &unit : {suffix().trimmed(), m_unit.trimmed()}) {
            if (!unit.isEmpty() && body.endsWith(unit)) {
                body.chop(unit.size());
                break;
            }
        }
        return body.remove(QLatin1Char(',')).trimmed();
    }

    std::optional<double> parse(const QString &text) const
    {
        QString body = stripped(text);
        double scale = 1;
        if (!body.isEmpty()) {
            switch (body.back().toUpper().toLatin1()) {
            case 'K': scale = 1e3; break;
            case 'M': scale = 1e6; break;
            case 'B': scale = 1e9; break;
            case 'T': scale = 1e12; break;
            default: break;
            }
            if (scale != 1)
                body.chop(1);
        }
        bool ok = false;
        const double value = body.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(value))
            return std::nullopt;
        return value * scale;
    }

    QString m_unit;
};

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

TrainingJobsPage::TrainingJobsPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("trainingJobsPage");
    m_list = new NameList(this);
    m_list->setObjectName("trainingJobList");
    m_list->setMinimumWidth(200);
    auto *add = new QPushButton(tr("&Add"), this);
    auto *duplicate = new QPushButton(tr("D&uplicate"), this);
    auto *rename = new QPushButton(tr("&Rename…"), this);
    auto *remove = new QPushButton(tr("&Delete"), this);
    auto *importJson = new QPushButton(tr("Import JSON…"), this);
    auto *exportJson = new QPushButton(tr("Export JSON…"), this);
    add->setToolTip(tr("Add a training job with example values"));
    duplicate->setToolTip(tr("Copy the selected job under a new name"));
    rename->setToolTip(tr("Give the selected job another name"));
    remove->setToolTip(tr("Delete the selected job (Ctrl+Z brings it back)"));
    importJson->setToolTip(tr("Read a training job from a JSON file (format in data/samples/training-job.json)"));
    exportJson->setToolTip(tr("Write the selected job as a JSON file"));
    connect(add, &QPushButton::clicked, this, &TrainingJobsPage::addJob);
    connect(duplicate, &QPushButton::clicked, this, &TrainingJobsPage::duplicateJob);
    connect(rename, &QPushButton::clicked, this, &TrainingJobsPage::renameJobWithDialog);
    connect(remove, &QPushButton::clicked, this, &TrainingJobsPage::deleteJob);
    connect(importJson, &QPushButton::clicked, this, &TrainingJobsPage::importJsonWithDialog);
    connect(exportJson, &QPushButton::clicked, this, &TrainingJobsPage::exportJsonWithDialog);

    m_status = new QLabel(this);
    m_status->setObjectName("trainingJobStatus");
    m_retryButton = new QPushButton(tr("Save my values again"), this);
    m_retryButton->setObjectName("trainingJobRetry");
    m_retryButton->setToolTip(tr("Save the values you entered over the version now stored"));
    m_retryButton->hide();
    connect(m_retryButton, &QPushButton::clicked, this, &TrainingJobsPage::retrySave);
    layOutEditorPage(this, m_list, {{add, duplicate}, {rename, remove}, {importJson, exportJson}}, buildForm(),
                     m_status, m_retryButton);

    connect(m_list, &QListWidget::currentTextChanged, this, [this] { loadForm(); });
    connect(&m_workspace, &store::Workspace::trainingJobsChanged, this, &TrainingJobsPage::refreshList);
    connect(&m_workspace, &store::Workspace::connectionRestored, this, &TrainingJobsPage::saveAfterReconnect);
    connect(&m_workspace, &store::Workspace::modelsChanged, this, &TrainingJobsPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::gpusChanged, this, &TrainingJobsPage::refreshCatalogChoices);
    refreshCatalogChoices();
    refreshList();
}

int TrainingJobsPage::bind(const QString &label, std::function<void(const TrainingJob &)> load,
                           std::function<void(TrainingJob &)> store)
{
    m_bindings.push_back({std::move(load), std::move(store), label});
    return int(m_bindings.size()) - 1;
}

double TrainingJobsPage::peakTflops(const std::string &gpuId) const
{
    const auto gpu = m_workspace.gpu(QString::fromStdString(gpuId));
    return gpu ? gpu->bf16Tflops : 0.0;
}

QWidget *TrainingJobsPage::buildForm()
{
    m_form = new QWidget;
    auto *grid = new QGridLayout(m_form);
    auto group = [this](const QString &title) {
        auto *box = new QGroupBox(title, m_form);
        return std::pair{box, new QFormLayout(box)};
    };
    // Connects an editor's change signal to saving its binding.
    auto commitOn = [this](auto *editor, auto signal, int index) {
        connect(editor, signal, this, [this, index] { commitField(index); });
    };

    // Job
    auto [jobBox, jobForm] = group(tr("Job"));
    auto *name = new QLineEdit(m_form);
    name->setObjectName("trainingJobName");
    name->setToolTip(tr("Unique name of the training run in this workspace"));
    jobForm->addRow(tr("Name:"), name);
    commitOn(name, &QLineEdit::editingFinished,
             bind(tr("name"), [name](const TrainingJob &j) { name->setText(QString::fromStdString(j.name)); },
                  [name](TrainingJob &j) { j.name = name->text().trimmed().toStdString(); }));
    auto *scheduled = new QCheckBox(tr("Scheduled"), m_form);
    scheduled->setObjectName("trainingJobScheduled");
    scheduled->setToolTip(tr("Whether the run has a start date; unscheduled runs may start at once"));
    auto *start = new QDateEdit(m_form);
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
        commitField(startIndex);
    });
    auto *priority = integerBox(m_form, "trainingJobPriority", -100, 100, QString(),
                                tr("Higher runs first when jobs share a pool (−100 … 100); equal priorities go by "
                                   "start date"));
    jobForm->addRow(tr("Priority:"), priority);
    commitOn(priority, &QSpinBox::valueChanged,
             bind(tr("priority"), [priority](const TrainingJob &j) { priority->setValue(j.priority); },
                  [priority](TrainingJob &j) { j.priority = priority->value(); }));

    // Model and data
    auto [modelBox, modelForm] = group(tr("Model and data"));
    m_model = comboBox(m_form, "trainingJobModel",
                       tr("Model from the catalog (its size and architecture), or a bare parameter count"), {});
    modelForm->addRow(tr("Model:"), m_model);
    commitOn(m_model, &QComboBox::currentIndexChanged,
             bind(tr("model"),
                  [this](const TrainingJob &j) {
                      m_model->setCurrentIndex(std::max(0, m_model->findData(QString::fromStdString(j.modelId))));
                  },
                  [this](TrainingJob &j) { j.modelId = m_model->currentData().toString().toStdString(); }));
    auto *params = new ScaledCountBox(QString(), m_form);
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
    auto *tokens = new ScaledCountBox(tr(" tokens"), m_form);
    tokens->setObjectName("trainingJobTokens");
    setCountSuffix(tokens, tr(" token(s)"));
    tokens->setRange(0, 1e16);
    tokens->setToolTip(tr("Training tokens D (type 300B or 15T). Total compute is 6·N·D FLOPs, 8·N·D with "
                          "full activation recomputation"));
    modelForm->addRow(tr("Training tokens:"), tokens);
    commitOn(tokens, &QDoubleSpinBox::valueChanged,
             bind(tr("tokens"), [tokens](const TrainingJob &j) { tokens->setValue(j.tokens); },
                  [tokens](TrainingJob &j) { j.tokens = tokens->value(); }));
    auto *seqLen = integerBox(m_form, "trainingJobSeqLen", 1, 1 << 21, tr(" token(s)"),
                              tr("Tokens per training sequence, 1 … 2,097,152; activation memory grows with it"));
    modelForm->addRow(tr("Sequence length:"), seqLen);
    commitOn(seqLen, &QSpinBox::valueChanged,
             bind(tr("sequence length"), [seqLen](const TrainingJob &j) { seqLen->setValue(j.seqLen); },
                  [seqLen](TrainingJob &j) { j.seqLen = seqLen->value(); }));
    auto *batch = new ScaledCountBox(tr(" tokens"), m_form);
    batch->setObjectName("trainingJobGlobalBatch");
    setCountSuffix(batch, tr(" token(s)"));
    batch->setRange(1, 1e12);
    batch->setToolTip(tr("Global batch: tokens per optimizer step over all data-parallel replicas (sequences × "
                         "sequence length, e.g. 4M). Sets how often gradients are exchanged"));
    modelForm->addRow(tr("Global batch:"), batch);
    commitOn(batch, &QDoubleSpinBox::valueChanged,
             bind(tr("global batch"), [batch](const TrainingJob &j) { batch->setValue(j.globalBatchTokens); },
                  [batch](TrainingJob &j) { j.globalBatchTokens = batch->value(); }));
    auto *micro = integerBox(m_form, "trainingJobMicroBatch", 0, 4096, tr(" sequences"),
                             tr("Micro-batch: sequences per GPU per forward pass, 1 … 4,096, or the largest that fits "
                                "(gradient accumulation makes up the rest of the batch); sets activation memory "
                                "and the pipeline bubble"));
    micro->setSpecialValueText(tr("largest that fits"));
    modelForm->addRow(tr("Micro-batch:"), micro);
    commitOn(micro, &QSpinBox::valueChanged,
             bind(tr("micro-batch"), [micro](const TrainingJob &j) { micro->setValue(j.microBatch); },
                  [micro](TrainingJob &j) { j.microBatch = micro->value(); }));
    auto *attention = comboBox(m_form, "trainingJobAttention",
                               tr("Attention kernel: flash (FlashAttention, PyTorch SDPA) keeps no s × s score matrix; "
                                  "eager stores scores, softmax and dropout mask (5·a·s/h more per layer)"),
                               {{tr("Flash"), int(engine::AttentionKernel::Flash)},
                                {tr("Eager"), int(engine::AttentionKernel::Eager)}});
    modelForm->addRow(tr("Attention:"), attention);
    commitOn(attention, &QComboBox::currentIndexChanged,
             bind(tr("attention kernel"),
                  [attention](const TrainingJob &j) { attention->setCurrentIndex(attention->findData(int(j.attention))); },
                  [attention](TrainingJob &j) { j.attention = engine::AttentionKernel(attention->currentData().toInt()); }));
    auto *recompute = comboBox(m_form, "trainingJobRecompute",
                               tr("Activation recomputation: selective recomputes the attention core (with eager "
                                  "attention, 4·L·s·h FLOPs per token more); full keeps only each layer's input for "
                                  "one extra forward pass (8·N·D instead of 6·N·D FLOPs)"),
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
    m_gpu = comboBox(m_form, "trainingJobGpu", tr("GPU from the catalog: peak BF16 TFLOP/s, memory, GPUs per node"), {});
    hardwareForm->addRow(tr("GPU:"), m_gpu);
    commitOn(m_gpu, &QComboBox::currentIndexChanged,
             bind(tr("GPU"),
                  [this](const TrainingJob &j) {
                      m_gpu->setCurrentIndex(m_gpu->findData(QString::fromStdString(j.gpuId)));
                  },
                  [this](TrainingJob &j) { j.gpuId = m_gpu->currentData().toString().toStdString(); }));
    auto *basis = comboBox(m_form, "trainingJobThroughputBasis",
                           tr("How the speed is given: model FLOPs utilization (a share of the GPU's peak BF16, "
                              "communication overhead modelled on top) or achieved TFLOP/s per GPU as measured "
                              "(taken as is, no overhead added)"),
                           {{tr("MFU (share of peak)"), int(engine::ThroughputBasis::Mfu)},
                            {tr("Achieved TFLOP/s per GPU"), int(engine::ThroughputBasis::AchievedTflops)}});
    auto *throughput = numberBox(m_form, "trainingJobThroughput", 0, 100, 1, tr(" %"), QString());
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
                      if (to == engine::ThroughputBasis::AchievedTflops)
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
    auto *cores = integerBox(m_form, "trainingJobCpuCores", 0, 1024, tr(" cores per GPU"),
                             tr("CPU cores to reserve per GPU for data loading and the host side, 0 … 1,024"));
    hardwareForm->addRow(tr("CPU cores:"), cores);
    commitOn(cores, &QSpinBox::valueChanged,
             bind(tr("CPU cores per GPU"), [cores](const TrainingJob &j) { cores->setValue(j.cpuCoresPerGpu); },
                  [cores](TrainingJob &j) { j.cpuCoresPerGpu = cores->value(); }));

    // Target
    auto [targetBox, targetForm] = group(tr("Target"));
    auto *target = comboBox(m_form, "trainingJobTarget",
                            tr("Solve for the GPUs that finish within a window, or for the days a given GPU count "
                               "needs"),
                            {{tr("Finish within a window"), int(engine::TrainingTarget::WindowDays)},
                             {tr("Run on a GPU count"), int(engine::TrainingTarget::GpuCount)}});
    auto *targetValue = numberBox(m_form, "trainingJobTargetValue", 0, 3650, 1, tr(" day(s)"), QString());
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
    auto *tp = integerBox(m_form, "trainingJobTp", 1, 512, tr(" GPU(s)"),
                          tr("Tensor parallelism: GPUs splitting every layer, 1 … 512. Above 1 it needs NVLink, so the "
                             "job takes whole nodes"));
    auto *pp = integerBox(m_form, "trainingJobPp", 1, 512, tr(" stage(s)"),
                          tr("Pipeline parallelism: stages the layers are split into, 1 … 512; adds a bubble of "
                             "(PP − 1) ÷ micro-batches per step"));
    auto *dp = integerBox(m_form, "trainingJobDp", 0, 1 << 20, tr(" rank(s)"),
                          tr("Ranks the ZeRO-sharded model states are spread over; 0 = all data-parallel replicas "
                             "of the fleet (GPUs ÷ (TP × PP))"));
    dp->setSpecialValueText(tr("all replicas"));
    auto *zero = comboBox(m_form, "trainingJobZero",
                          tr("ZeRO stage: which model states are sharded over the data-parallel ranks (mixed-"
                             "precision Adam, 16 bytes per parameter unsharded)"),
                          {{tr("0 — nothing sharded (16 Ψ)"), 0},
                           {tr("1 — optimizer states (4 Ψ + 12 Ψ/N)"), 1},
                           {tr("2 — + gradients (2 Ψ + 14 Ψ/N)"), 2},
                           {tr("3 — + weights (16 Ψ/N)"), 3}});
    parallelForm->addRow(tr("Tensor parallel (TP):"), tp);
    parallelForm->addRow(tr("Pipeline parallel (PP):"), pp);
    parallelForm->addRow(tr("ZeRO sharding (DP):"), dp);
    parallelForm->addRow(tr("ZeRO stage:"), zero);
    commitOn(tp, &QSpinBox::valueChanged,
             bind(tr("TP"), [tp](const TrainingJob &j) { tp->setValue(j.tp); },
                  [tp](TrainingJob &j) { j.tp = tp->value(); }));
    commitOn(pp, &QSpinBox::valueChanged,
             bind(tr("PP"), [pp](const TrainingJob &j) { pp->setValue(j.pp); },
                  [pp](TrainingJob &j) { j.pp = pp->value(); }));
    commitOn(dp, &QSpinBox::valueChanged,
             bind(tr("DP"), [dp](const TrainingJob &j) { dp->setValue(j.dp); },
                  [dp](TrainingJob &j) { j.dp = dp->value(); }));
    commitOn(zero, &QComboBox::currentIndexChanged,
             bind(tr("ZeRO stage"), [zero](const TrainingJob &j) { zero->setCurrentIndex(zero->findData(j.zeroStage)); },
                  [zero](TrainingJob &j) { j.zeroStage = zero->currentData().toInt(); }));

    // Interconnect
    auto [linkBox, linkForm] = group(tr("Interconnect"));
    auto *intra = comboBox(m_form, "trainingJobIntraNode",
                           tr("Link between the GPUs of one node: carries tensor-parallel traffic"),
                           {{tr("NVLink"), int(engine::IntraNodeLink::NvLink)},
                            {tr("PCIe"), int(engine::IntraNodeLink::Pcie)}});
    auto *inter = comboBox(m_form, "trainingJobInterNode",
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
    auto *preemptible = new QCheckBox(tr("Preemptible (spot) capacity"), m_form);
    preemptible->setObjectName("trainingJobPreemptible");
    preemptible->setToolTip(tr("Runs on spot or preemptible GPUs: cheaper, but each interruption loses the work "
                               "since the last checkpoint plus a restart"));
    auto *checkpoint = numberBox(m_form, "trainingJobCheckpoint", 0, 720, 2, tr(" h"),
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
        commitField(preemptIndex);
    });
    commitOn(checkpoint, &QDoubleSpinBox::valueChanged,
             bind(tr("checkpoint interval"),
                  [checkpoint](const TrainingJob &j) { checkpoint->setValue(j.checkpointIntervalHours); },
                  [checkpoint](TrainingJob &j) { j.checkpointIntervalHours = checkpoint->value(); }));

    m_summary = new QLabel(m_form);
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
    return m_form;
}

void TrainingJobsPage::refreshCatalogChoices()
{
    const bool wasLoading = m_loading;
    m_loading = true;
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
    m_loading = wasLoading;
    loadForm();
}

void TrainingJobsPage::refreshList()
{
    QStringList names;
    for (const auto &job : m_workspace.trainingJobs())
        names << QString::fromStdString(job.name);
    const bool wasLoading = m_loading;
    m_loading = true;
    m_list->setNames(names);
    m_loading = wasLoading;
    loadForm();
}

QString TrainingJobsPage::currentName() const
{
    return m_list->currentName();
}

void TrainingJobsPage::selectJob(const QString &name)
{
    m_list->selectName(name);
}

void TrainingJobsPage::loadForm()
{
    if (m_loading)
        return;
    const auto record = m_workspace.trainingJobRecord(currentName());
    m_loadedVersion = record ? record->version : 0;
    m_shown = record ? std::optional(record->job) : std::nullopt;
    if (m_retry && (!record || m_retry->name != record->job.name)) {
        m_retry.reset();
        m_retryButton->hide();
    }
    // After a refused save the stored version is shown with the refused values on top.
    const std::optional<TrainingJob> job = !record ? std::nullopt : m_retry ? m_retry : std::optional(record->job);
    m_form->setEnabled(job.has_value());
    if (!job) {
        m_summary->clear();
        setStatus(m_list->count() == 0 ? tr("No training jobs yet: Add one, or import a JSON job.") : QString());
        m_emptyNotice = true;
        return;
    }
    if (m_emptyNotice)
        setStatus(QString());
    m_loading = true;
    for (const Binding &b : m_bindings)
        b.load(*job);
    m_loading = false;

    double params = job->params;
    if (params <= 0)
        if (const auto model = m_workspace.model(QString::fromStdString(job->modelId)))
            params = model->paramsTotal;
    if (params > 0) {
        const bool full = job->recompute == engine::Recomputation::Full;
        const double flops = engine::trainingFlops(params, job->tokens, full);
        m_summary->setText(tr("Compute: %1 = %2 · %3 parameters · %4 tokens = %5 FLOPs. Size it on the Training "
                              "sizing page.")
                               .arg(full ? QStringLiteral("8·N·D") : QStringLiteral("6·N·D"),
                                    full ? QStringLiteral("8") : QStringLiteral("6"),
                                    formatScaledCount(params), formatScaledCount(job->tokens))
                               .arg(flops, 0, 'g', 3));
    } else {
        m_summary->setText(tr("The model is not in the catalog: give a parameter count."));
    }
}

void TrainingJobsPage::commitField(int index)
{
    if (m_loading)
        return;
    std::optional<TrainingJob> before;
    QString lost;
    try {
        before = m_workspace.trainingJob(currentName());
    } catch (const store::ConnectionLostError &e) {
        // Offline: the edit applies to what the form shows and waits for the connection.
        before = m_shown;
        lost = e.message();
    }
    if (!before)
        return;
    TrainingJob after = !lost.isEmpty() && m_retry ? *m_retry : *before;
    m_bindings[size_t(index)].store(after);
    if (store::trainingJobToJson(after) == store::trainingJobToJson(*before))
        return;
    if (!lost.isEmpty()) {
        keepUntilReconnected(lost, m_offlineBase ? m_offlineBase : before,
                             after.name == before->name ? std::optional(after) : std::nullopt);
        return;
    }
    if (after.name != before->name && m_workspace.trainingJob(QString::fromStdString(after.name))) {
        setStatus(tr("Not saved: a training job named \"%1\" exists already.").arg(QString::fromStdString(after.name)),
                  true);
        loadForm();
        return;
    }
    if (pushChange(before, after, tr("Edit %1 of %2").arg(m_bindings[size_t(index)].label, currentName()), index))
        setStatus(tr("Saved."));
}

bool TrainingJobsPage::pushChange(const std::optional<TrainingJob> &before, const std::optional<TrainingJob> &after,
                                  const QString &text, int mergeField)
{
    if (after) {
        const auto problems = engine::validate(*after);
        if (!problems.empty()) {
            setStatus(tr("Not saved: %1").arg(fieldProblemsText(problems)), true);
            return false;
        }
        m_list->selectAfterRefresh(QString::fromStdString(after->name));
    }
    // Writes are based on the version the form shows (another job's, as for an import over
    // it, on the version stored now).
    int64_t beforeVersion = 0;
    if (before) {
        const QString name = QString::fromStdString(before->name);
        const auto record = name == currentName() ? std::nullopt : m_workspace.trainingJobRecord(name);
        beforeVersion = record ? record->version : m_loadedVersion;
    }
    const QPointer<TrainingJobsPage> page(this);
    auto refused = [page](const QString &message) {
        if (page)
            page->showConflict(message, std::nullopt);
    };
    // A new save replaces values a conflict refused earlier (retrySave() passes them in).
    m_retry.reset();
    m_retryButton->hide();
    try {
        m_undoStack->push(trainingJobChange(m_workspace, before, beforeVersion, after, text, mergeField, refused));
    } catch (const store::ConflictError &e) {
        m_list->selectAfterRefresh(QString());
        showConflict(e.message(), before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::ConnectionLostError &e) {
        m_list->selectAfterRefresh(QString());
        keepUntilReconnected(e.message(), before,
                             before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return false;
    }
    return true;
}

void TrainingJobsPage::showConflict(const QString &message, const std::optional<TrainingJob> &refused)
{
    m_retry.reset();
    m_retryButton->hide();
    if (refused && refused->name == currentName().toStdString()) {
        m_retry = refused;
        m_retryButton->show();
    }
    refreshList();  // the current version, and the version later saves are based on
    if (m_retry) {
        setStatus(tr("Not saved: %1 The current version is shown with your values on top: "
                     "“Save my values again” saves them over it.")
                      .arg(message),
                  true);
        return;
    }
    setStatus(tr("Not saved: %1 The current version is shown.").arg(message), true);
}

void TrainingJobsPage::keepUntilReconnected(const QString &message, const std::optional<TrainingJob> &base,
                                      const std::optional<TrainingJob> &refused)
{
    // The form keeps showing the values; nothing can be read until the connection is back.
    if (!refused || !base) {
        setStatus(tr("Not saved: %1.").arg(message), true);
        m_workspace.startReconnecting();
        return;
    }
    if (!m_offlineBase) {
        // The first edit while offline: later ones pile up on it, all based on this version.
        m_offlineBase = base;
        m_retryAfterReconnect = m_loadedVersion;
    }
    m_retry = refused;
    m_retryButton->show();
    setStatus(tr("Not saved: %1. Your values are kept and saved when the connection is back "
                 "(unless someone changed the job meanwhile).")
                  .arg(message),
              true);
    m_workspace.startReconnecting();
}

void TrainingJobsPage::saveAfterReconnect()
{
    if (!m_offlineBase || !m_retry || !m_retryAfterReconnect)
        return;
    const TrainingJob base = *m_offlineBase;
    const TrainingJob mine = *m_retry;
    const int64_t version = *m_retryAfterReconnect;
    m_offlineBase.reset();
    m_retryAfterReconnect.reset();
    std::optional<TrainingJob> current;
    try {
        current = m_workspace.trainingJob(QString::fromStdString(mine.name));
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return;
    }
    if (!current) {
        m_retry.reset();
        m_retryButton->hide();
        setStatus(tr("Not saved: \"%1\" was removed while the connection was down.").arg(QString::fromStdString(mine.name)), true);
        return;
    }
    // Based on the version the edit was made on: a change by someone else while the
    // connection was down is refused as a conflict naming them, with the edit replayed on
    // their version for a retry.
    m_loadedVersion = version;
    if (pushChange(current, rebaseEdit(base, mine, *current), tr("Edit of %1 (saved after reconnecting)").arg(QString::fromStdString(mine.name))))
        setStatus(tr("Saved after reconnecting."));
}

bool TrainingJobsPage::retrySave()
{
    if (!m_retry)
        return false;
    const TrainingJob wanted = *m_retry;
    std::optional<TrainingJob> before;
    try {
        before = m_workspace.trainingJob(QString::fromStdString(wanted.name));
    } catch (const store::ConnectionLostError &e) {
        setStatus(tr("Not saved: %1. Your values are kept and saved when the connection is back.").arg(e.message()),
                  true);
        m_workspace.startReconnecting();
        return false;
    }
    if (!before) {
        m_retry.reset();
        m_retryButton->hide();
        setStatus(tr("Not saved: the training job \"%1\" no longer exists.").arg(QString::fromStdString(wanted.name)),
                  true);
        return false;
    }
    if (!pushChange(before, wanted, tr("Edit of %1 (saved again)").arg(QString::fromStdString(wanted.name))))
        return false;
    setStatus(tr("Saved."));
    return true;
}

bool TrainingJobsPage::hasRefusedValues() const
{
    return m_retry.has_value();
}

int64_t TrainingJobsPage::loadedVersion() const
{
    return m_loadedVersion;
}

void TrainingJobsPage::addJob()
{
    const auto gpus = m_workspace.gpus();
    if (gpus.empty()) {
        setStatus(tr("Add a GPU on the Catalog page first."), true);
        return;
    }
    TrainingJob job;
    int n = m_list->count() + 1;
    do {
        job.name = tr("training job %1").arg(n++).toStdString();
    } while (m_workspace.trainingJob(QString::fromStdString(job.name)));
    if (m_workspace.model(QStringLiteral("llama-3.1-8b")))
        job.modelId = "llama-3.1-8b";
    else
        job.params = 8e9;
    job.gpuId = m_workspace.gpu(QStringLiteral("h100-sxm")) ? "h100-sxm" : gpus.front().id;
    job.tokens = 1e12;
    job.seqLen = 8192;
    job.tp = 1;
    if (pushChange(std::nullopt, job, tr("Add training job %1").arg(QString::fromStdString(job.name))))
        setStatus(tr("Added %1 with example values: replace them with your run's facts.")
                      .arg(QString::fromStdString(job.name)));
}

void TrainingJobsPage::duplicateJob()
{
    auto job = m_workspace.trainingJob(currentName());
    if (!job)
        return;
    const std::string base = job->name + " (copy)";
    job->name = base;
    for (int n = 2; m_workspace.trainingJob(QString::fromStdString(job->name)); ++n)
        job->name = base + ' ' + std::to_string(n);
    pushChange(std::nullopt, *job, tr("Duplicate %1").arg(currentName()));
}

bool TrainingJobsPage::renameJob(const QString &newName)
{
    const auto before = m_workspace.trainingJob(currentName());
    if (!before)
        return false;
    const QString name = newName.trimmed();
    if (name.isEmpty()) {
        setStatus(tr("Not renamed: the name must not be empty."), true);
        return false;
    }
    if (name == currentName())
        return true;
    if (m_workspace.trainingJob(name)) {
        setStatus(tr("Not renamed: a training job named \"%1\" exists already.").arg(name), true);
        return false;
    }
    TrainingJob after = *before;
    after.name = name.toStdString();
    return pushChange(before, after, tr("Rename %1 to %2").arg(currentName(), name));
}

void TrainingJobsPage::renameJobWithDialog()
{
    if (currentName().isEmpty())
        return;
    const QString name = Dialogs::textInput(this, tr("Rename training job"), tr("New name:"), currentName());
    if (!name.isEmpty())
        renameJob(name);
}

void TrainingJobsPage::deleteJob()
{
    const auto job = m_workspace.trainingJob(currentName());
    if (!job)
        return;
    const QString name = currentName();
    if (pushChange(job, std::nullopt, tr("Delete training job %1").arg(name)))
        setStatus(tr("Deleted %1 (Ctrl+Z brings it back).").arg(name));
}

void TrainingJobsPage::importJsonWithDialog()
{
    const QString path = Dialogs::openFileName(this, tr("Import training job"), tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    try {
        const TrainingJob job = store::readTrainingJobFile(path);
        pushChange(m_workspace.trainingJob(QString::fromStdString(job.name)), job,
                   tr("Import training job %1").arg(QString::fromStdString(job.name)));
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Import failed"), tr("Nothing was imported.\n\n%1").arg(e.message()));
    }
}

void TrainingJobsPage::exportJsonWithDialog()
{
    const auto job = m_workspace.trainingJob(currentName());
    if (!job)
        return;
    const QString path = Dialogs::exportFileName(this, tr("Export training job"),
                                                 currentName() + QStringLiteral(".json"), tr("JSON files (*.json)"),
                                                 {QStringLiteral("json")});
    if (path.isEmpty())
        return;
    try {
        store::writeExportFile(path, store::trainingJobJsonText(*job), store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Export failed"), e.message());
        return;
    }
    setStatus(tr("Exported %1 to %2.").arg(currentName(), path));
}

void TrainingJobsPage::setStatus(const QString &text, bool error)
{
    m_emptyNotice = false;
    m_status->setText(error ? QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text.toHtmlEscaped()) : text);
}

QString TrainingJobsPage::statusText() const
{
    return m_status->text();
}

} // namespace headroom::ui
