#include "kvpage.h"

#include "common/columnviews.h"
#include "common/fields.h"
#include "common/chartpanel.h"
#include "common/paintedfigureview.h"
#include "common/dialogs.h"
#include "engine/inference/vllm_log.h"
#include "store/common/storeerror.h"
#include "store/inference/vllmlogfile.h"
#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "common/format.h"
#include "kvchart.h"
#include "servingassumptionsdialog.h"
#include "common/settingcommand.h"
#include "store/common/workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

namespace headroom::ui {

namespace {

enum VariantColumn { kModelColumn, kGpuColumn, kWeightsColumn, kKvColumn, kTpColumn, kVariantColumns };

QComboBox *comboAt(const QTableWidget *table, int row, int column)
{
    return qobject_cast<QComboBox *>(table->cellWidget(row, column));
}

void selectData(QComboBox *combo, const QVariant &value)
{
    const int index = combo->findData(value);
    if (index >= 0)
        combo->setCurrentIndex(index);
}

} // namespace

KvPage::KvPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
    , m_serving(workspace.servingAssumptions())
{
    setObjectName("kvPage");
    m_chart = new ChartPanel(this);
    m_chart->setObjectName("kvChart");
    m_results = newResultsTable("kvResults");
    m_results->horizontalHeader()->setMinimumSectionSize(60);
    m_results->setTextElideMode(Qt::ElideMiddle);
    m_explanation = newExplanation("kvExplanation");
    // Columns: variant, KV per token, weights, KV pool, blocks, then streams at each marked context.
    auto *views = new ColumnViews(
        m_results,
        {{tr("Memory"), tr("Per GPU: KV cache per token, weights and the KV pool left, in blocks"),
          [](int c) { return c <= 4; }},
         {tr("Streams"), tr("Concurrent streams per replica at each marked context length"),
          [](int c) { return c == 0 || c >= 4; }}},
        this);
    m_leverChart = new PaintedFigureView(this);
    m_leverChart->setObjectName("kvLeverChart");
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName("kvChartTabs");
    m_chartTabs->addTab(m_chart, tr("C&oncurrency"));
    m_chartTabs->addTab(m_leverChart, tr("&What if"));
    layOutPage(buildInputs(), resultsColumn(m_chartTabs, ColumnViews::above(views, m_results, this), m_explanation), 495);

    connect(&m_workspace, &store::Workspace::modelsChanged, this, &KvPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::gpusChanged, this, &KvPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::kvVariantsChanged, this, &KvPage::loadSavedVariants);
    connect(&m_workspace, &store::Workspace::servingAssumptionsChanged, this, [this] {
        m_serving = m_workspace.servingAssumptions();
        updateServingSummary();
        recompute();
    });
    updateServingSummary();

    if (const auto saved = m_workspace.kvVariants()) {
        m_savedVariants = *saved;
        setVariants(*saved);
        return;
    }
    // A first look that answers the planner's usual question: an 8B model on H100 vs H200,
    // BF16 vs FP8.
    using engine::KvPrecision;
    using engine::WeightPrecision;
    std::vector<Variant> defaults;
    const auto models = m_workspace.models();
    const auto gpus = m_workspace.gpus();
    auto has = [](const auto &list, const char *id) {
        return std::any_of(list.begin(), list.end(), [id](const auto &e) { return e.id == id; });
    };
    if (!models.empty() && !gpus.empty()) {
        const std::string model = has(models, "llama-3.1-8b") ? std::string("llama-3.1-8b") : models.front().id;
        std::vector<std::string> gpuIds;
        for (const char *id : {"h100-sxm", "h200"})
            if (has(gpus, id))
                gpuIds.emplace_back(id);
        if (gpuIds.empty())
            gpuIds.push_back(gpus.front().id);
        for (auto [w, kv] : {std::pair{WeightPrecision::Bf16, KvPrecision::Bf16},
                             std::pair{WeightPrecision::Fp8, KvPrecision::Fp8}})
            for (const std::string &gpu : gpuIds)
                defaults.push_back({model, gpu, w, kv, 1});
    }
    m_savedVariants = defaults;
    setVariants(defaults);
}

QWidget *KvPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);

    auto *variantsBox = new QGroupBox(tr("Variants (one line each)"), panel);
    auto *variantsLayout = new QVBoxLayout(variantsBox);
    m_variantTable = new QTableWidget(0, kVariantColumns, variantsBox);
    m_variantTable->setObjectName("kvVariants");
    m_variantTable->setHorizontalHeaderLabels({tr("Model"), tr("GPU"), tr("Weights"), tr("KV cache"), tr("TP")});
    m_variantTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (int column : {kWeightsColumn, kKvColumn, kTpColumn})
        m_variantTable->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_variantTable->verticalHeader()->hide();
    m_variantTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_variantTable->setMinimumHeight(170);
    m_variantTable->setMaximumHeight(230);
    m_variantTable->setToolTip(tr("Each line is one curve: a model served on a GPU with a weight "
                                  "precision, a KV-cache precision and a tensor-parallel degree. The "
                                  "lines are saved in the workspace; Edit ▸ Undo takes a change back."));
    auto *add = new QPushButton(tr("&Add variant"), variantsBox);
    add->setObjectName("kvAddVariant");
    auto *remove = new QPushButton(tr("&Remove selected"), variantsBox);
    remove->setObjectName("kvRemoveVariant");
    connect(add, &QPushButton::clicked, this, [this] {
        const auto current = variants();
        addVariantRow(current.empty() ? Variant{} : current.back());
        variantsEdited();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_variantTable->currentRow();
        if (row >= 0 && m_variantTable->rowCount() > 1) {
            m_variantTable->removeRow(row);
            variantsEdited();
        }
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    variantsLayout->addWidget(m_variantTable);
    variantsLayout->addLayout(buttons);

    // Utilization, reserve and block size are the workspace's serving assumptions, edited in
    // one place (Edit ▸ Serving Assumptions) so that this page and Inference sizing show the
    // same streams per replica for the same setup.
    auto *servingBox = new QGroupBox(tr("Serving engine"), panel);
    auto *form = new QFormLayout(servingBox);
    m_servingSummary = new QLabel(servingBox);
    m_servingSummary->setObjectName("kvServingSummary");
    m_servingSummary->setWordWrap(true);
    auto *editServing = ServingAssumptionsDialog::editButton(m_workspace, m_undoStack, this, "kvEditServing");
    m_prefix = new QSpinBox(servingBox);
    m_prefix->setObjectName("kvPrefix");
    m_prefix->setRange(0, 1'000'000);
    m_prefix->setSingleStep(256);
    setCountSuffix(m_prefix, tr(" token(s)"));
    m_prefix->setToolTip(tr("Shared prompt prefix (system prompt) held once per replica with "
                            "prefix caching, instead of once per stream. 0 = none."));
    m_contexts = new QLineEdit(QStringLiteral("4096, 16384, 32768"), servingBox);
    m_contexts->setObjectName("kvContexts");
    m_contexts->setToolTip(tr("Context lengths to mark on the chart and report in the table, "
                              "in tokens, separated by commas — e.g. your workload's P50 and "
                              "P95 context."));
    m_contextsError = new QLabel(servingBox);
    m_contextsError->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_contextsError->hide();
    auto *vllmLog = new QPushButton(tr("Check against a vLLM &log…"), servingBox);
    vllmLog->setObjectName("kvVllmLog");
    vllmLog->setToolTip(tr("Read a vLLM server's start-up log of the selected variant's deployment: its "
                           "weights and KV cache beside this page's, and the runtime reserve that makes "
                           "the page hold what vLLM held, to adopt as the workspace's."));
    connect(vllmLog, &QPushButton::clicked, this, &KvPage::checkVllmLog);
    auto *servingButtons = new QHBoxLayout;
    servingButtons->addWidget(editServing);
    servingButtons->addWidget(vllmLog);
    form->addRow(m_servingSummary);
    form->addRow(servingButtons);
    form->addRow(tr("Shared &prefix:"), m_prefix);
    form->addRow(tr("Marked &contexts (tokens):"), m_contexts);
    form->addRow(QString(), m_contextsError);

    connect(m_prefix, &QSpinBox::valueChanged, this, &KvPage::recompute);
    connect(m_contexts, &QLineEdit::textChanged, this, &KvPage::recompute);

    layout->addWidget(variantsBox);
    layout->addWidget(servingBox);
    layout->addWidget(buildLeverInputs());
    layout->addStretch();
    return panel;
}

QWidget *KvPage::buildLeverInputs()
{
    auto *box = new QGroupBox(tr("What if: attention architecture"));
    box->setToolTip(tr("What a change of the model's attention buys: each lever, applied in order, "
                       "changes the KV cache only; the weights, GPU, TP and KV pool stay. The What if "
                       "tab shows each step's KV bytes per token, streams, GPUs and money."));
    auto *form = new QFormLayout(box);
    m_leverVariant = new QComboBox(box);
    m_leverVariant->setObjectName("kvLeverVariant");
    m_leverVariant->setToolTip(tr("The variant (a line of the table above) the levers start from."));
    m_levers = new QLineEdit(QStringLiteral("mqa, local=1024/6, share=2, int8"), box);
    m_levers->setObjectName("kvLevers");
    m_levers->setToolTip(tr("Levers applied in order, separated by commas:\n"
                            "mqa or kv-heads=N — one or N K/V heads\n"
                            "share=K — every K adjacent layers keep one KV\n"
                            "local=W/N — one layer in N global, the others a W-token window\n"
                            "latent=D — an MLA-style latent of D values instead of K/V heads\n"
                            "bf16, fp8, int8, int4 — KV format (int8/int4 with a scale and zero point per vector)\n"
                            "The default is Character.AI's published stack."));
    m_leversError = new QLabel(box);
    m_leversError->setObjectName("kvLeversError");
    m_leversError->setWordWrap(true);
    m_leversError->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_leversError->hide();
    m_leverContext = new QSpinBox(box);
    m_leverContext->setObjectName("kvLeverContext");
    m_leverContext->setRange(1, 10'000'000);
    m_leverContext->setSingleStep(1024);
    m_leverContext->setValue(8192);
    setCountSuffix(m_leverContext, tr(" token(s)"));
    m_leverContext->setToolTip(tr("Tokens a stream holds when the streams are counted."));
    m_leverStreams = new QSpinBox(box);
    m_leverStreams->setObjectName("kvLeverStreams");
    m_leverStreams->setRange(0, 100'000'000);
    m_leverStreams->setSingleStep(100);
    m_leverStreams->setValue(1000);
    setCountSuffix(m_leverStreams, tr(" stream(s)"));
    m_leverStreams->setSpecialValueText(tr("none (no replicas or money)"));
    m_leverStreams->setToolTip(tr("Concurrent streams at peak the replicas must hold."));
    m_leverPrice = new QLineEdit(box);
    m_leverPrice->setObjectName("kvLeverPrice");
    m_leverPrice->setPlaceholderText(tr("none (no money)"));
    m_leverPrice->setToolTip(tr("US dollars per GPU-hour, exact decimal; a month is 30 days (720 hours). Filled "
                                "with the lowest on-demand rate in force among the workspace's rate "
                                "cards for the GPU until you type one."));
    m_leverPriceNote = new QLabel(box);
    m_leverPriceNote->setObjectName("kvLeverPriceNote");
    m_leverPriceNote->setWordWrap(true);
    form->addRow(tr("Start fro&m:"), m_leverVariant);
    form->addRow(tr("Lever&s:"), m_levers);
    form->addRow(QString(), m_leversError);
    form->addRow(tr("At con&text:"), m_leverContext);
    form->addRow(tr("Pea&k streams:"), m_leverStreams);
    form->addRow(tr("Pr&ice ($/GPU-hour):"), m_leverPrice);
    form->addRow(QString(), m_leverPriceNote);

    const auto show = [this] {
        recomputeLevers();
        m_chartTabs->setCurrentWidget(m_leverChart);
    };
    connect(m_leverVariant, &QComboBox::currentIndexChanged, this, [this, show] {
        if (!m_updating) {
            suggestPrice();
            show();
        }
    });
    connect(m_levers, &QLineEdit::textChanged, this, show);
    connect(m_leverContext, &QSpinBox::valueChanged, this, show);
    connect(m_leverStreams, &QSpinBox::valueChanged, this, show);
    connect(m_leverPrice, &QLineEdit::textEdited, this, [this, show] {
        m_priceTyped = !m_leverPrice->text().trimmed().isEmpty();
        m_leverPriceNote->setText(m_priceTyped ? tr("Typed; clear it to take the rate card's again.") : QString());
        if (!m_priceTyped)
            suggestPrice();
        show();
    });
    return box;
}

void KvPage::refreshLeverVariants()
{
    const int current = std::max(0, m_leverVariant->currentIndex());
    const QSignalBlocker block(m_leverVariant);
    m_leverVariant->clear();
    for (const Outcome &o : m_outcomes)
        m_leverVariant->addItem(o.label.isEmpty() ? tr("(choose a model and GPU)") : o.label);
    m_leverVariant->setCurrentIndex(std::min(current, m_leverVariant->count() - 1));
    suggestPrice();
}

void KvPage::suggestPrice()
{
    if (m_priceTyped)
        return;
    const int row = m_leverVariant->currentIndex();
    QString provider;
    const auto rate = row >= 0 && row < int(m_outcomes.size())
                          ? lowestOnDemandRate(m_workspace, m_outcomes[size_t(row)].variant.gpuId, &provider)
                          : std::nullopt;
    m_leverPrice->setText(rate.value_or(QString()));
    m_leverPriceNote->setText(rate ? tr("On-demand rate of %1, the lowest in force for the GPU.").arg(provider)
                                   : tr("No rate card prices this GPU: type a price for money."));
}

void KvPage::checkVllmLog()
{
    const std::vector<Variant> all = variants();
    if (all.empty()) {
        Dialogs::information(this, tr("vLLM log"), tr("Add a variant for the deployment the log comes from first."));
        return;
    }
    const QString path = Dialogs::openFileName(this, tr("vLLM start-up log"), tr("Logs (*.log *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    const int row = std::clamp(m_variantTable->currentRow(), 0, int(all.size()) - 1);
    engine::ServingAssumptions after = m_serving;
    QString label;
    engine::VllmLogComparison c;
    engine::VllmStartupLog log;
    int64_t reserveUsed = 0;
    try {
        log = store::readVllmStartupLog(path);
        // The deployment as the log ran it: its memory utilization where it prints one.
        if (log.utilization && *log.utilization > 0 && *log.utilization <= 1)
            after.memoryUtilization = *log.utilization;
        QStringList parts;
        const engine::KvInputs in = kvInputs(m_workspace, after, KvFigureInputs{}, all[size_t(row)], &parts);
        label = parts.join(QStringLiteral(" · "));
        reserveUsed = in.reserveBytes;
        c = engine::compareWithLog(in, log);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("vLLM log not used"), QString::fromUtf8(e.what()));
        return;
    } catch (const engine::InputError &e) {
        Dialogs::warning(this, tr("vLLM log not used"), tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return;
    }
    const auto gib = [](int64_t bytes) { return tr("%1 GiB").arg(formatNumber(double(bytes) / double(engine::kGiB), 2)); };
    QString text = tr("%1\n\nvLLM kept %2 of KV cache%3; this page has %4 with a %5 reserve (%6%7 %).")
                       .arg(label, gib(c.loggedKvBytes),
                            c.loggedTokens ? tr(" (%1 tokens)").arg(formatCount(*c.loggedTokens)) : QString(),
                            gib(c.predictedKvBytes), gib(reserveUsed), c.kvErrorShare >= 0 ? tr("+") : QString(),
                            formatNumber(c.kvErrorShare * 100, 1));
    if (log.weightsGiB)
        text += tr("\nWeights: %1 GiB logged, %2 here.").arg(formatNumber(*log.weightsGiB, 2), gib(c.predictedWeightsBytes));
    if (c.impliedReserveBytes < 0) {
        Dialogs::warning(this, tr("vLLM log not used"),
                         text + tr("\n\nvLLM kept more KV cache than this variant has room for: check its GPU, TP "
                                   "and precisions against the deployment."));
        return;
    }
    // The reserve is the deployment's own (activation peak and runtime memory do not change with
    // the utilization), kept for this model, GPU and TP only; the workspace's utilization stays.
    const Variant &variant = all[size_t(row)];
    engine::ReserveOverride measured;
    measured.modelId = variant.modelId;
    measured.gpuId = variant.gpuId;
    measured.tp = variant.tp;
    measured.reserveBytes = c.impliedReserveBytes;
    measured.source = tr("vLLM log %1").arg(QFileInfo(path).fileName()).toStdString();
    text += tr("\n\nKeep a runtime reserve of %1 per GPU for %2 at TP %3, so that this page, Inference sizing and "
               "Scenarios hold what vLLM held%4? Other deployments keep the workspace's reserve. Edit ▸ Undo takes it "
               "back.")
                .arg(gib(measured.reserveBytes), label.section(QStringLiteral(" · "), 0, 1))
                .arg(variant.tp)
                .arg(after.memoryUtilization != m_serving.memoryUtilization
                         ? tr(" at the log's utilization %1").arg(formatNumber(after.memoryUtilization, 2))
                         : QString());
    if (Dialogs::question(this, tr("vLLM log"), text))
        ServingAssumptionsDialog::apply(m_workspace, m_undoStack, engine::withReserveOverride(m_serving, measured));
}

KvLeverFigureInputs KvPage::leverInputs() const
{
    KvLeverFigureInputs in;
    const int row = m_leverVariant->currentIndex();
    if (row >= 0 && row < int(m_outcomes.size()))
        in.variant = m_outcomes[size_t(row)].variant;
    in.levers = m_levers->text();
    in.context = m_leverContext->value();
    in.peakStreams = m_leverStreams->value();
    in.price = m_leverPrice->text().trimmed();
    return in;
}

void KvPage::recomputeLevers()
{
    if (m_updating)
        return;
    const KvLeverFigureInputs in = leverInputs();
    m_leverOutcome = kvLeverOutcome(m_workspace, m_serving, in);
    m_leversError->setText(m_leverOutcome.error);
    m_leversError->setVisible(!m_leverOutcome.error.isEmpty());
    m_leverChart->setFigure(kvLeverFigure(m_leverOutcome, in));
}

void KvPage::addVariantRow(const Variant &variant)
{
    const int row = m_variantTable->rowCount();
    m_variantTable->insertRow(row);
    auto *model = new QComboBox;
    auto *gpu = new QComboBox;
    auto *weights = new QComboBox;
    auto *kv = new QComboBox;
    model->setObjectName(QStringLiteral("kvModel"));
    gpu->setObjectName(QStringLiteral("kvGpu"));
    weights->setObjectName(QStringLiteral("kvWeights"));
    kv->setObjectName(QStringLiteral("kvKvPrecision"));
    model->setToolTip(tr("Model architecture from the catalog"));
    gpu->setToolTip(tr("GPU from the catalog; memory as the driver reports it"));
    weights->setToolTip(tr("Weight precision: BF16/FP16 2 bytes per parameter, FP8/INT8 1, "
                           "INT4 0.5 plus group scales"));
    kv->setToolTip(tr("KV-cache element precision: BF16 2 bytes, FP8 1 byte"));
    for (engine::WeightPrecision p : engine::allWeightPrecisions())
        weights->addItem(upperName(engine::toString(p)), int(p));
    for (engine::KvPrecision p : engine::allKvPrecisions())
        kv->addItem(upperName(engine::toString(p)), int(p));
    m_variantTable->setCellWidget(row, kModelColumn, model);
    m_variantTable->setCellWidget(row, kGpuColumn, gpu);
    m_variantTable->setCellWidget(row, kWeightsColumn, weights);
    m_variantTable->setCellWidget(row, kKvColumn, kv);
    auto *tp = new QSpinBox;
    tp->setObjectName(QStringLiteral("kvTp"));
    tp->setRange(1, engine::kMaxTp);
    tp->setValue(std::clamp(variant.tp, 1, engine::kMaxTp));
    tp->setToolTip(tr("Tensor parallelism: GPUs per replica, 1–%1. Weights and KV heads are split across "
                      "them; KV heads are replicated when TP exceeds them.").arg(engine::kMaxTp));
    m_variantTable->setCellWidget(row, kTpColumn, tp);

    m_updating = true;
    refreshCatalogChoices();
    m_updating = true;
    selectData(model, QString::fromStdString(variant.modelId));
    selectData(gpu, QString::fromStdString(variant.gpuId));
    selectData(weights, int(variant.weights));
    selectData(kv, int(variant.kv));
    m_updating = false;
    for (QComboBox *combo : {model, gpu, weights, kv})
        connect(combo, &QComboBox::currentIndexChanged, this, &KvPage::variantsEdited);
    connect(tp, &QSpinBox::valueChanged, this, &KvPage::variantsEdited);
}

// A change made on the page: recompute, and save the lines as one undoable step.
void KvPage::variantsEdited()
{
    if (m_updating)
        return;
    recompute();
    const std::vector<Variant> now = variants();
    if (now == m_savedVariants)
        return;
    const std::vector<Variant> before = m_savedVariants;
    m_savedVariants = now;
    auto *command = new SettingCommand<std::vector<Variant>>(m_workspace, before, now, &store::Workspace::setKvVariants,
                                                             tr("Edit KV Variants"));
    if (m_undoStack) {
        m_undoStack->push(command);
    } else {
        command->redo();
        delete command;
    }
}

// The workspace's lines changed (undo, redo, another window): show them.
void KvPage::loadSavedVariants()
{
    const auto saved = m_workspace.kvVariants();
    if (!saved)
        return;
    m_savedVariants = *saved;
    if (*saved != variants())
        setVariants(*saved);
}

void KvPage::updateServingSummary()
{
    m_servingSummary->setText(ServingAssumptionsDialog::summary(m_serving));
}

void KvPage::refreshCatalogChoices()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const auto models = m_workspace.models();
    const auto gpus = m_workspace.gpus();
    for (int row = 0; row < m_variantTable->rowCount(); ++row) {
        QComboBox *model = comboAt(m_variantTable, row, kModelColumn);
        QComboBox *gpu = comboAt(m_variantTable, row, kGpuColumn);
        const QVariant modelId = model->currentData();
        const QVariant gpuId = gpu->currentData();
        model->clear();
        for (const auto &m : models)
            model->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
        gpu->clear();
        for (const auto &g : gpus)
            gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
        selectData(model, modelId);
        selectData(gpu, gpuId);
    }
    m_updating = wasUpdating;
    if (!m_updating)
        recompute();
}

void KvPage::setVariants(const std::vector<Variant> &variants)
{
    m_updating = true;
    m_variantTable->setRowCount(0);
    for (const Variant &v : variants)
        addVariantRow(v);
    m_updating = false;
    recompute();
}

std::vector<KvPage::Variant> KvPage::variants() const
{
    std::vector<Variant> out;
    for (int row = 0; row < m_variantTable->rowCount(); ++row) {
        Variant v;
        v.modelId = comboAt(m_variantTable, row, kModelColumn)->currentData().toString().toStdString();
        v.gpuId = comboAt(m_variantTable, row, kGpuColumn)->currentData().toString().toStdString();
        v.weights = engine::WeightPrecision(comboAt(m_variantTable, row, kWeightsColumn)->currentData().toInt());
        v.kv = engine::KvPrecision(comboAt(m_variantTable, row, kKvColumn)->currentData().toInt());
        v.tp = qobject_cast<QSpinBox *>(m_variantTable->cellWidget(row, kTpColumn))->value();
        out.push_back(v);
    }
    return out;
}

std::vector<int64_t> KvPage::markedContexts() const
{
    std::vector<int64_t> out;
    const auto parts = m_contexts->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")),
                                                Qt::SkipEmptyParts);
    for (QString part : parts) {
        int64_t scale = 1;
        if (part.endsWith(QLatin1Char('k'), Qt::CaseInsensitive)) {
            scale = 1024;
            part.chop(1);
        }
        bool ok = false;
        const qlonglong value = part.toLongLong(&ok);
        if (!ok || value < 1)
            return {};
        out.push_back(value * scale);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void KvPage::recompute()
{
    if (m_updating)
        return;
    const std::vector<int64_t> contexts = markedContexts();
    const bool contextsValid = !contexts.empty() || m_contexts->text().trimmed().isEmpty();
    m_contextsError->setVisible(!contextsValid);
    m_contextsError->setText(tr("Enter positive token counts separated by commas, e.g. 4096, 16K"));

    const KvFigureInputs in{variants(), m_prefix->value(), contexts};
    m_outcomes = kvOutcomes(m_workspace, m_serving, in);
    m_chart->setFigure(kvFigure(m_outcomes, in, m_serving));
    updateTable();
    updateExplanation();
    refreshLeverVariants();
    recomputeLevers();
    emit recomputed();
}

void KvPage::updateTable()
{
    const KvFigureInputs in{variants(), m_prefix->value(), markedContexts()};
    fillResultsTable(*m_results, kvTable(m_outcomes, in, m_serving), 1);
    m_results->setMaximumHeight(m_results->horizontalHeader()->sizeHint().height() +
                                m_results->verticalHeader()->defaultSectionSize() * (m_results->rowCount() + 1) + 4);
    for (int row = 0; row < int(m_outcomes.size()); ++row) {
        const Outcome &o = m_outcomes[size_t(row)];
        m_results->item(row, 0)->setToolTip(o.label);
        if (!o.error.isEmpty())
            m_results->item(row, 1)->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    }
}

QJsonObject KvPage::currentTableSource() const
{
    QJsonObject source = m_chart->figure().source;
    source.insert(QStringLiteral("kind"), QStringLiteral("kv-table"));
    return shownTableSource(*m_results, source);
}

void KvPage::updateExplanation()
{
    QStringList lines;
    for (const Outcome &o : m_outcomes) {
        if (!o.error.isEmpty()) {
            lines << tr("<b>%1</b>: cannot compute — %2").arg(o.label.toHtmlEscaped(), o.error.toHtmlEscaped());
            continue;
        }
        const engine::KvResult &r = o.result;
        if (!r.fits) {
            lines << tr("<b>%1</b>: <span style='color:#c0392b'>does not fit</span> — the weights "
                        "(%2 per GPU) and reserve need %3 more than the %4 usable. Try FP8 or INT4 "
                        "weights, more tensor parallelism, or a larger GPU.")
                         .arg(o.label.toHtmlEscaped(), formatGiB(r.weightsBytes), formatGiB(r.shortfallBytes),
                              formatGiB(r.usableBytes));
            continue;
        }
        std::vector<engine::StreamsAt> supported;
        for (const engine::StreamsAt &s : r.streams)
            if (s.context <= o.maxContext)
                supported.push_back(s);
        QString headline, others;
        if (!supported.empty()) {
            const engine::StreamsAt &s = supported.back();
            headline = tr("%1 of %2 tokens").arg(formatCountOf(s.streams, QT_TRANSLATE_NOOP("headroom::ui", "%n stream(s)")), formatCount(s.context));
            QStringList rest;
            for (size_t i = 0; i + 1 < supported.size(); ++i)
                rest << tr("%1 at %2 tokens").arg(formatCount(supported[i].streams), formatCount(supported[i].context));
            if (!rest.isEmpty())
                others = tr("; %1").arg(rest.join(QStringLiteral(", ")));
        } else {
            headline = tr("%1 blocks of %2 tokens").arg(formatCount(r.blocks)).arg(r.blockSize);
        }
        lines << tr("<b>%1</b>: memory-bound — %2 fit in %3 of KV pool (%4 per token per GPU, "
                    "weights %5 per GPU, %6%7).")
                     .arg(o.label.toHtmlEscaped(), headline, formatGiB(r.poolBytes),
                          formatKiB(r.kvBytesPerToken, r.kvBytesPerToken % 1024 ? 2 : 0),
                          formatGiB(r.weightsBytes), reserveText(o.reserve), others);
    }
    if (m_outcomes.empty())
        lines << tr("The catalog has no models or GPUs yet: add them on the Catalog page.");
    m_explanation->setText(lines.join(QStringLiteral("<br>")));
}

QString KvPage::explanation() const
{
    return m_explanation->text();
}

QList<ChartPanel *> KvPage::chartPanels() const
{
    return {m_chart};
}

std::optional<ChartFigure> KvPage::currentFigure() const
{
    if (m_chartTabs->currentWidget() == m_leverChart)
        return m_leverChart->figure();
    return m_chart->figure();
}

} // namespace headroom::ui
