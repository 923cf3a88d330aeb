#include "servingsimpage.h"

#include "report/reportreads.h"

#include "calibrationdialog.h"

#include "cli/common/format.h"
#include "common/columnviews.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "common/entitycommand.h"
#include "common/fields.h"
#include "common/format.h"
#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv.h"
#include "servingsimcharttabs.h"
#include "servingsimsummary.h"
#include "servingsimtext.h"
#include "store/serving/steptimecsv.h"
#include "store/common/storeerror.h"
#include "store/inference/workloadjson.h"
#include "store/common/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

namespace headroom::ui {

using cli::formatDecimal;

struct ServingSimPage::Outcome {
    std::optional<Results> results;
    QString error;
    bool cancelled = false;
};

namespace {

struct Cancelled {};

QString text(std::string_view value)
{
    return QString::fromUtf8(value.data(), qsizetype(value.size()));
}

QString defaultTrace()
{
    const QString path = QStringLiteral(HEADROOM_SERVING_TRACE);
    return QFileInfo::exists(path) ? path : QString();
}

void selectData(QComboBox *combo, const QVariant &value)
{
    const int index = combo->findData(value);
    if (index >= 0)
        combo->setCurrentIndex(index);
}

std::vector<engine::TraceRequest> readTraceFile(const QString &path, bool azure, int64_t sharedPrefix, double reuse,
                                                int limit, int hashBlock)
{
    if (path.isEmpty())
        throw store::StoreError(QObject::tr("Trace: choose a Mooncake JSONL or Azure CSV file."));
    if (!QFileInfo(path).isFile())
        throw store::StoreError(QObject::tr("Trace: %1 does not exist or is not a file.").arg(path));
    std::vector<engine::TraceRequest> trace =
        azure ? engine::withGeneratedHashes(store::readAzureTrace(path), sharedPrefix, reuse, hashBlock)
              : store::readMooncakeTrace(path);
    if (limit > 0 && trace.size() > size_t(limit))
        trace.resize(size_t(limit));
    return trace;
}

} // namespace

int ServingSimPage::routerIndex(engine::RouterKind router)
{
    return engine::studyRouterIndex(router);
}

engine::RouterKind ServingSimPage::routerAt(int index)
{
    return engine::kStudyRouters[size_t(std::clamp(index, 0, kRouters - 1))];
}

QString ServingSimPage::routerName(engine::RouterKind router)
{
    switch (router) {
    case engine::RouterKind::RoundRobin:
        return tr("round-robin");
    case engine::RouterKind::LeastLoaded:
        return tr("least-loaded");
    case engine::RouterKind::KvAware:
        return tr("KV-aware");
    }
    return {};
}

ServingSimPage::ServingSimPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("servingSimPage");
    m_charts = new ServingSimChartTabs(this);

    m_table = newResultsTable("simResults");
    // Columns: router; hit rates; TTFT P50/P95/P99, ITL, E2E, queue wait; SLO attainment,
    // goodput, preemptions, load balance, replicas for the target.
    auto *views = new ColumnViews(
        m_table,
        {{tr("Cache"), tr("Prefix cache hit rate per router"), [](int c) { return c <= 2; }},
         {tr("Latency"), tr("Latency quantiles per router"), [](int c) { return c == 0 || (c >= 3 && c <= 8); }},
         {tr("Service level"), tr("SLO attainment, goodput, preemptions, load balance and replicas for the target"),
          [](int c) { return c == 0 || c >= 9; }}},
        this);
    m_explanation = newExplanation("simExplanation");
    layOutPage(buildInputs(), resultsColumn(m_charts->tabs(), ColumnViews::above(views, m_table, this), m_explanation),
               400);

    connect(m_charts, &ServingSimChartTabs::stripMetricChanged, this, &ServingSimPage::updateCharts);
    connect(m_router, &QComboBox::currentIndexChanged, this, [this] {
        updateCharts();
        updateTable();
    });
    connect(&m_workspace, &store::Workspace::modelsChanged, this, &ServingSimPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::gpusChanged, this, &ServingSimPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::workloadsChanged, this, &ServingSimPage::refreshWorkloadChoices);
    refreshCatalogChoices();
    refreshWorkloadChoices();
    selectData(m_model, QStringLiteral("llama-3.1-8b"));
    selectData(m_gpu, QStringLiteral("h100-sxm"));
    updateCharts();
    updateTable();
    updateExplanation();
}

ServingSimPage::~ServingSimPage() = default;

QWidget *ServingSimPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);

    auto *traceBox = new QGroupBox(tr("Request trace"), panel);
    auto *traceForm = new QFormLayout(traceBox);
    m_trace = new QLineEdit(defaultTrace(), traceBox);
    m_trace->setObjectName("simTrace");
    m_trace->setToolTip(tr("Mooncake JSONL (timestamps in ms, token counts and 512-token prefix-block hashes) "
                           "or Azure LLM inference CSV (no hashes: they are generated from the shared prefix "
                           "and reusable share below)"));
    auto *browse = new QPushButton(tr("Browse…"), traceBox);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::openFileName(this, tr("Choose a request trace"),
                                                   tr("Request traces (*.jsonl *.csv);;All files (*)"));
        if (!path.isEmpty()) {
            m_trace->setText(path);
            m_format->setCurrentIndex(path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) ? 1 : 0);
        }
    });
    auto *traceRow = new QHBoxLayout;
    traceRow->addWidget(m_trace, 1);
    traceRow->addWidget(browse);
    traceForm->addRow(tr("File:"), traceRow);
    m_format = new QComboBox(traceBox);
    m_format->setObjectName("simFormat");
    m_format->addItem(tr("Mooncake JSONL"));
    m_format->addItem(tr("Azure CSV"));
    traceForm->addRow(tr("F&ormat:"), m_format);
    m_limit = newSpinBox(traceBox, "simLimit", 0, 10'000'000, 0, tr(" request(s)"),
                     tr("Replay only the first N requests of the trace (0 = all), for a quick look"));
    m_limit->setSpecialValueText(tr("all requests"));
    traceForm->addRow(tr("&Use the first:"), m_limit);
    m_sharedPrefix = newSpinBox(traceBox, "simSharedPrefix", 0, 1'000'000, 0, tr(" tokens"),
                            tr("Azure traces: tokens of system prompt every request shares, 0–1,000,000"));
    m_sharedPrefix->setSingleStep(256);
    traceForm->addRow(tr("Shared prefix:"), m_sharedPrefix);
    m_reuse = newDoubleSpinBox(traceBox, "simReuse", 0, 100, 0, 1, tr(" %"),
                        tr("Azure traces: share of each prompt reusable from earlier requests, 0–100 %"));
    traceForm->addRow(tr("Reusable share:"), m_reuse);
    auto azureOnly = [this] {
        const bool azure = m_format->currentIndex() == 1;
        m_sharedPrefix->setEnabled(azure);
        m_reuse->setEnabled(azure);
    };
    connect(m_format, &QComboBox::currentIndexChanged, this, azureOnly);
    azureOnly();

    auto *replicaBox = new QGroupBox(tr("Replica"), panel);
    auto *replicaForm = new QFormLayout(replicaBox);
    m_model = new QComboBox(replicaBox);
    m_model->setObjectName("simModel");
    m_model->setToolTip(tr("Model from the catalog: its KV bytes per token and the step times"));
    m_gpu = new QComboBox(replicaBox);
    m_gpu->setObjectName("simGpu");
    m_gpu->setToolTip(tr("GPU from the catalog: memory for the KV pool, bandwidth and TFLOPS for the step times"));
    m_weights = new QComboBox(replicaBox);
    m_weights->setObjectName("simWeights");
    for (engine::WeightPrecision p : engine::allWeightPrecisions())
        m_weights->addItem(upperName(engine::toString(p)), int(p));
    m_weights->setToolTip(tr("Weight precision: BF16/FP16 2 bytes per parameter, FP8/INT8 1, INT4 0.5"));
    m_kvPrecision = new QComboBox(replicaBox);
    m_kvPrecision->setObjectName("simKvPrecision");
    for (engine::KvPrecision p : engine::allKvPrecisions())
        m_kvPrecision->addItem(upperName(engine::toString(p)), int(p));
    m_kvPrecision->setToolTip(tr("KV-cache element precision: BF16 2 bytes, FP8 1 byte"));
    m_tp = newSpinBox(replicaBox, "simTp", 1, 64, 1, QString(), tr("Tensor parallelism: GPUs per replica, 1–64"));
    m_kvBlocks = newSpinBox(replicaBox, "simKvBlocks", 0, std::numeric_limits<int>::max(), 0, tr(" blocks"),
                        tr("KV pool of one replica in blocks of the block size below, instead of the model's and "
                           "GPU's memory (0 = from memory, with the workspace's serving assumptions)"));
    m_kvBlocks->setSpecialValueText(tr("from GPU memory"));
    m_fromWorkload = new QComboBox(replicaBox);
    m_fromWorkload->setObjectName("simFromWorkload");
    m_fromWorkload->setToolTip(tr("Take the model, GPU, weight and KV precisions and TP of a workload profile; "
                                  "editing any of them afterwards sets them by hand"));
    connect(m_fromWorkload, &QComboBox::activated, this,
            [this] { takeReplicaFrom(m_fromWorkload->currentData().toString()); });
    replicaForm->addRow(tr("From &workload:"), m_fromWorkload);
    // An edit of the replica by hand: it no longer is the workload's.
    auto byHand = [this] {
        if (!m_settingReplica)
            m_fromWorkload->setCurrentIndex(0);
    };
    for (QComboBox *combo : {m_model, m_gpu, m_weights, m_kvPrecision})
        connect(combo, &QComboBox::currentIndexChanged, this, byHand);
    connect(m_tp, &QSpinBox::valueChanged, this, byHand);
    replicaForm->addRow(tr("&Model:"), m_model);
    replicaForm->addRow(tr("&GPU:"), m_gpu);
    replicaForm->addRow(tr("&Weights:"), m_weights);
    replicaForm->addRow(tr("KV &cache:"), m_kvPrecision);
    replicaForm->addRow(tr("&TP (GPUs per replica):"), m_tp);
    replicaForm->addRow(tr("KV &pool:"), m_kvBlocks);
    m_stepTimes = new QLineEdit(replicaBox);
    m_stepTimes->setObjectName("simStepTimes");
    m_stepTimes->setPlaceholderText(tr("step-cost model"));
    m_stepTimes->setToolTip(tr("Measured step times, CSV phase,batch,context_tokens,prefill_tokens,ms (decode rows "
                               "on a batch × context grid, prefill rows by tokens). When set, iteration times come "
                               "from this table instead of the roofline; the model and GPU then size only the pool."));
    auto *stepBrowse = new QPushButton(tr("Browse…"), replicaBox);
    stepBrowse->setObjectName("simStepTimesBrowse");
    connect(stepBrowse, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::openFileName(this, tr("Choose a step-time table"),
                                                   tr("Step-time tables (*.csv);;All files (*)"));
        if (!path.isEmpty())
            m_stepTimes->setText(path);
    });
    auto *calibrate = new QPushButton(tr("Calibrate…"), replicaBox);
    calibrate->setObjectName("simCalibrate");
    calibrate->setToolTip(tr("Fit the step-cost model of this model, GPU and TP to your own measured step times "
                             "and vllm bench serve results, and save the fit as the GPU's profile"));
    connect(calibrate, &QPushButton::clicked, this, [this] { openCalibration(); });
    auto *stepRow = new QHBoxLayout;
    stepRow->addWidget(m_stepTimes, 1);
    stepRow->addWidget(stepBrowse);
    stepRow->addWidget(calibrate);
    replicaForm->addRow(tr("Step times:"), stepRow);

    auto *fleetBox = new QGroupBox(tr("Fleet and router"), panel);
    auto *fleetForm = new QFormLayout(fleetBox);
    m_replicas = newSpinBox(fleetBox, "simReplicas", 1, 4096, 8, QString(), tr("Replicas in the fleet, 1–4,096"));
    m_router = new QComboBox(fleetBox);
    m_router->setObjectName("simRouter");
    for (int i = 0; i < kRouters; ++i)
        m_router->addItem(routerName(routerAt(i)), i);
    m_router->setCurrentIndex(routerIndex(engine::RouterKind::KvAware));
    m_router->setToolTip(tr("Every router is simulated; this one is shown over time and highlighted in the table. "
                            "KV-aware: cost = overlap weight × new prefill blocks + active blocks, as NVIDIA "
                            "Dynamo's KV router"));
    m_overlap = newDoubleSpinBox(fleetBox, "simOverlap", 0, 1000, 1, 2, QString(),
                          tr("KV-aware router: weight of the new prefill blocks in the cost, 0–1,000"));
    m_temperature = newDoubleSpinBox(fleetBox, "simTemperature", 0, 1000, 0, 2, tr(" blocks"),
                              tr("KV-aware router: 0 takes the lowest cost; above 0 a replica is drawn with "
                                 "probability ∝ exp(−cost ÷ temperature), 0–1,000"));
    m_blockSize = newSpinBox(fleetBox, "simBlockSize", 1, engine::kMaxBlockSize, engine::kTraceBlockTokens, tr(" tokens"),
                         tr("Tokens per KV block, 1–1,024; 512 is the Mooncake trace's hash block"));
    m_prefixCache = new QCheckBox(tr("Prefix caching"), fleetBox);
    m_prefixCache->setObjectName("simPrefixCache");
    m_prefixCache->setChecked(true);
    m_prefixCache->setToolTip(tr("Keep finished prompts' blocks cached (LRU over unreferenced blocks) for reuse"));
    m_timeScale = newDoubleSpinBox(fleetBox, "simTimeScale", 0.0001, 1000, 1, 4, tr(" ×"),
                            tr("Arrival-rate multiplier: 2 replays the trace twice as fast, 0.0001–1,000"));
    m_seed = newSpinBox(fleetBox, "simSeed", 0, std::numeric_limits<int>::max(), 1, QString(),
                    tr("Seed of the router's sampling (temperature above 0)"));
    fleetForm->addRow(tr("&Replicas:"), m_replicas);
    fleetForm->addRow(tr("Ro&uter:"), m_router);
    fleetForm->addRow(tr("O&verlap weight:"), m_overlap);
    fleetForm->addRow(tr("T&emperature:"), m_temperature);
    fleetForm->addRow(tr("&Block size:"), m_blockSize);
    fleetForm->addRow(QString(), m_prefixCache);
    fleetForm->addRow(tr("Time sc&ale:"), m_timeScale);
    fleetForm->addRow(tr("See&d:"), m_seed);

    auto *sloBox = new QGroupBox(tr("Service level"), panel);
    auto *sloForm = new QFormLayout(sloBox);
    m_ttftSlo = newDoubleSpinBox(sloBox, "simTtftSlo", 1, 600'000, 2000, 0, tr(" ms"),
                          tr("Time-to-first-token SLO, 1–600,000 ms"));
    m_itlSlo = newDoubleSpinBox(sloBox, "simItlSlo", 0.1, 10'000, 50, 1, tr(" ms"),
                         tr("Inter-token latency SLO (a request's mean gap between tokens), 0.1–10,000 ms"));
    m_target = newDoubleSpinBox(sloBox, "simTarget", 50, 100, 95, 1, tr(" %"),
                         tr("Share of requests that must meet both SLOs, 50–100 %: the replica search looks for "
                            "the fewest replicas that reach it"));
    sloForm->addRow(tr("TTFT S&LO:"), m_ttftSlo);
    sloForm->addRow(tr("&ITL SLO:"), m_itlSlo);
    sloForm->addRow(tr("Attainment &target:"), m_target);

    m_run = new QPushButton(tr("&Run simulation"), panel);
    m_run->setObjectName("simRun");
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel"), panel);
    m_cancel->setObjectName("simCancel");
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &ServingSimPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &ServingSimPage::cancel);
    m_progress = new QProgressBar(panel);
    m_progress->setObjectName("simProgress");
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(panel);
    m_status->setObjectName("simStatus");
    m_status->setWordWrap(true);
    m_status->setText(tr("Runs every router on the fleet as set, a sweep of cache sizes and of replica counts, "
                         "and the search for the fewest replicas reaching the target."));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch();

    layout->addWidget(traceBox);
    layout->addWidget(replicaBox);
    layout->addWidget(fleetBox);
    layout->addWidget(sloBox);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);

    auto *useBox = new QGroupBox(tr("Use in sizing"), panel);
    auto *useForm = new QFormLayout(useBox);
    m_useWorkload = new QComboBox(useBox);
    m_useWorkload->setObjectName("simUseWorkload");
    m_useWorkload->setToolTip(tr("The workload profile that receives the simulated hit rate and goodput"));
    m_useInSizing = new QPushButton(tr("&Use in Sizing…"), useBox);
    m_useInSizing->setObjectName("simUseInSizing");
    m_useInSizing->setToolTip(tr("Writes the KV-aware router's simulated prefix hit rate (tokens) and goodput per "
                                 "replica at the attainment target into the workload, labelled as simulated, "
                                 "with the GPU, precisions and TP simulated; undoable"));
    connect(m_useInSizing, &QPushButton::clicked, this, [this] { useInSizing(m_useWorkload->currentText()); });
    useForm->addRow(tr("Workload:"), m_useWorkload);
    useForm->addRow(QString(), m_useInSizing);
    layout->addWidget(useBox);
    layout->addStretch();
    return panel;
}

void ServingSimPage::refreshWorkloadChoices()
{
    const QString current = m_useWorkload->currentText();
    const QString source = m_fromWorkload->currentData().toString();
    m_useWorkload->clear();
    m_fromWorkload->clear();
    m_fromWorkload->addItem(tr("none: set by hand"), QString());
    for (const engine::WorkloadProfile &w : m_workspace.workloads()) {
        const QString name = QString::fromStdString(w.name);
        m_useWorkload->addItem(name);
        m_fromWorkload->addItem(name, name);
    }
    const int index = m_useWorkload->findText(current);
    if (index >= 0)
        m_useWorkload->setCurrentIndex(index);
    selectData(m_fromWorkload, source);
    updateUseButton();
}

void ServingSimPage::takeReplicaFrom(const QString &workloadName)
{
    selectData(m_fromWorkload, workloadName);
    const std::optional<engine::WorkloadProfile> w =
        workloadName.isEmpty() ? std::nullopt : m_workspace.workload(workloadName);
    if (!w)
        return;
    m_settingReplica = true;
    selectData(m_model, QString::fromStdString(w->modelId));
    if (!w->gpuId.empty())
        selectData(m_gpu, QString::fromStdString(w->gpuId));
    selectData(m_weights, int(w->weights));
    selectData(m_kvPrecision, int(w->kv));
    m_tp->setValue(w->tp);
    m_settingReplica = false;
    m_useWorkload->setCurrentIndex(std::max(0, m_useWorkload->findText(workloadName)));
}

void ServingSimPage::chooseUseWorkload()
{
    if (!m_results)
        return;
    const QString source = m_fromWorkload->currentData().toString();
    const std::optional<engine::WorkloadProfile> chosen = m_workspace.workload(m_useWorkload->currentText());
    if (chosen && chosen->modelId == m_results->modelId
        && (source.isEmpty() || m_useWorkload->currentText() == source))
        return;
    if (!source.isEmpty()) {
        const std::optional<engine::WorkloadProfile> from = m_workspace.workload(source);
        if (from && from->modelId == m_results->modelId) {
            m_useWorkload->setCurrentIndex(m_useWorkload->findText(source));
            return;
        }
    }
    for (const engine::WorkloadProfile &w : m_workspace.workloads())
        if (w.modelId == m_results->modelId) {
            m_useWorkload->setCurrentIndex(m_useWorkload->findText(QString::fromStdString(w.name)));
            return;
        }
}

void ServingSimPage::updateUseButton()
{
    m_useInSizing->setEnabled(m_results.has_value() && m_useWorkload->count() > 0 && !isRunning());
}

std::optional<engine::WorkloadProfile> ServingSimPage::simulatedWorkload(const QString &workloadName,
                                                                         QString *error) const
{
    auto fail = [error](const QString &message) -> std::optional<engine::WorkloadProfile> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!m_results)
        return fail(tr("run the simulation first."));
    const std::optional<engine::WorkloadProfile> before = m_workspace.workload(workloadName);
    if (!before)
        return fail(tr("there is no workload named \"%1\".").arg(workloadName));
    const Results &r = *m_results;
    if (before->modelId != r.modelId)
        return fail(tr("the workload \"%1\" serves %2, the simulation ran %3.")
                        .arg(workloadName, QString::fromStdString(before->modelId), QString::fromStdString(r.modelId)));
    const int kv = routerIndex(engine::RouterKind::KvAware);
    engine::WorkloadProfile after = *before;
    after.prefixHitRate = r.runs[size_t(kv)].hitRateTokens;
    after.gpuId = r.gpuId;
    after.weights = r.weights;
    after.kv = r.kv;
    after.tp = r.tp;
    if (const auto goodput = r.goodputTokensPerReplica[size_t(kv)]) {
        after.measuredGoodputTokensPerS = *goodput;
        after.goodputSource = tr("serving simulation of %1: %2 needed for %3 within SLO, KV-aware router")
                                  .arg(r.traceName)
                                  .arg(formatCountOf(*r.replicasNeeded[size_t(kv)], QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                                  .arg(sharePercent(r.target))
                                  .toStdString();
        after.measuredMaxStreams.reset();
    }
    const std::vector<engine::FieldProblem> problems = engine::validate(after);
    if (!problems.empty())
        return fail(QString::fromStdString(problems.front().message));
    return after;
}

bool ServingSimPage::useInSizing(const QString &workloadName)
{
    QString error;
    const std::optional<engine::WorkloadProfile> after = simulatedWorkload(workloadName, &error);
    if (!after) {
        Dialogs::warning(this, tr("Use in Sizing"), tr("Nothing written: %1").arg(error));
        return false;
    }
    const engine::WorkloadProfile before = *m_workspace.workload(workloadName);
    QStringList changes;
    changes << tr("prefix hit rate %1 → %2 (simulated, tokens)")
                   .arg(sharePercent(before.prefixHitRate), sharePercent(after->prefixHitRate));
    if (after->measuredGoodputTokensPerS)
        changes << tr("goodput %1 → %2 tokens/s per replica (simulated)")
                       .arg(before.measuredGoodputTokensPerS ? formatDecimal(*before.measuredGoodputTokensPerS, 1)
                                                             : tr("estimated"),
                            formatDecimal(*after->measuredGoodputTokensPerS, 1));
    else
        changes << tr("goodput unchanged: no replica count within %1 reached the target").arg(m_results->maxReplicasSearched);
    if (before.gpuId != after->gpuId || before.tp != after->tp || before.weights != after->weights
        || before.kv != after->kv)
        changes << tr("GPU %1, TP %2, %3 weights, %4 KV (as simulated)")
                       .arg(QString::fromStdString(after->gpuId))
                       .arg(after->tp)
                       .arg(text(engine::toString(after->weights)), text(engine::toString(after->kv)));
    if (!Dialogs::question(this, tr("Use in Sizing"),
                           tr("Write into the workload \"%1\":\n• %2").arg(workloadName, changes.join(QStringLiteral("\n• ")))))
        return false;
    const QString what = tr("Use simulated serving figures in %1").arg(workloadName);
    try {
        if (m_undoStack)
            m_undoStack->push(workloadChange(m_workspace, before, *after, what));
        else
            m_workspace.putWorkload(*after);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Use in Sizing"), tr("Nothing written: %1").arg(e.message()));
        return false;
    }
    m_status->setText(tr("Wrote the simulated hit rate and goodput into %1; Inference sizing uses them now.")
                          .arg(workloadName));
    return true;
}

void ServingSimPage::refreshCatalogChoices()
{
    const QVariant modelId = m_model->currentData();
    const QVariant gpuId = m_gpu->currentData();
    const bool wasSetting = m_settingReplica;
    m_settingReplica = true;  // the same choices again, not an edit by hand
    m_model->clear();
    for (const auto &m : m_workspace.models())
        m_model->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    m_gpu->clear();
    for (const auto &g : m_workspace.gpus())
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    selectData(m_model, modelId);
    selectData(m_gpu, gpuId);
    m_settingReplica = wasSetting;
}

QList<ChartPanel *> ServingSimPage::chartPanels() const
{
    return m_charts->chartPanels();
}

std::optional<ChartFigure> ServingSimPage::currentFigure() const
{
    return m_charts->currentFigure();
}

void ServingSimPage::setTrace(const QString &path, bool azure)
{
    m_trace->setText(path);
    m_format->setCurrentIndex(azure ? 1 : 0);
}

void ServingSimPage::setRequestLimit(int requests)
{
    m_limit->setValue(requests);
}

void ServingSimPage::setReplicas(int replicas)
{
    m_replicas->setValue(replicas);
}

void ServingSimPage::setTimeScale(double scale)
{
    m_timeScale->setValue(scale);
}

void ServingSimPage::setStepTimes(const QString &path)
{
    m_stepTimes->setText(path);
}

std::optional<engine::ServingSimConfig> ServingSimPage::configFor(engine::RouterKind router, QString *error) const
{
    auto fail = [error](const QString &message) -> std::optional<engine::ServingSimConfig> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    const std::string modelId = m_model->currentData().toString().toStdString();
    const std::string gpuId = m_gpu->currentData().toString().toStdString();
    const auto models = m_workspace.models();
    const auto gpus = m_workspace.gpus();
    const auto model = std::find_if(models.begin(), models.end(), [&](const auto &m) { return m.id == modelId; });
    const auto gpu = std::find_if(gpus.begin(), gpus.end(), [&](const auto &g) { return g.id == gpuId; });
    if (model == models.end())
        return fail(tr("Model: choose a model from the catalog."));
    if (gpu == gpus.end())
        return fail(tr("GPU: choose a GPU from the catalog."));

    engine::ServingSimConfig c;
    c.replicas = m_replicas->value();
    c.blockSize = m_blockSize->value();
    // Generated hashes (Azure) cover the simulated block size, so a shared prompt hits block by block.
    if (m_format->currentIndex() == 1)
        c.traceBlockSize = c.blockSize;
    c.prefixCache = m_prefixCache->isChecked();
    c.router = router;
    c.overlapWeight = m_overlap->value();
    c.temperature = m_temperature->value();
    c.timeScale = m_timeScale->value();
    c.seed = uint64_t(m_seed->value());
    c.gpusPerReplica = m_tp->value();
    c.ttftSloMs = m_ttftSlo->value();
    c.itlSloMs = m_itlSlo->value();
    const QString stepTimes = m_stepTimes->text().trimmed();
    if (!stepTimes.isEmpty()) {
        try {
            c.stepTable = store::readStepTimes(stepTimes);
        } catch (const store::StoreError &e) {
            return fail(tr("Step times: %1").arg(e.message()));
        }
    }
    try {
        const engine::ServingAssumptions serving = m_workspace.servingAssumptions();
        engine::KvInputs in;
        in.model = *model;
        in.gpuMemoryBytes = gpu->memoryBytes;
        in.weights = engine::WeightPrecision(m_weights->currentData().toInt());
        in.kv = engine::KvPrecision(m_kvPrecision->currentData().toInt());
        in.tp = m_tp->value();
        in.utilization = serving.memoryUtilization;
        in.reserveBytes = engine::runtimeReserveBytes(serving, in.model, *gpu, in.tp);
        in.blockSize = c.blockSize;
        const engine::KvResult kv = engine::analyseKv(in);
        c.kvBlocksPerReplica = m_kvBlocks->value() > 0 ? m_kvBlocks->value() : engine::kvBlocksPerReplica(in);
        engine::applyServingAssumptions(c, serving, in.model, *gpu, in.weights, kv, in.tp);
        engine::validate(c);
    } catch (const engine::InputError &e) {
        const QString field = QString::fromStdString(e.field());
        QString what = QString::fromUtf8(e.what());
        if (!field.isEmpty() && !what.startsWith(field))
            what = field + QStringLiteral(": ") + what;
        return fail(tr("%1 on %2 (TP %3): %4")
                        .arg(QString::fromStdString(model->name), QString::fromStdString(gpu->name))
                        .arg(m_tp->value())
                        .arg(what));
    }
    return c;
}

std::vector<engine::TraceRequest> ServingSimPage::readTrace() const
{
    return readTraceFile(m_trace->text().trimmed(), m_format->currentIndex() == 1, m_sharedPrefix->value(),
                         m_reuse->value() / 100.0, m_limit->value(), m_blockSize->value());
}

bool ServingSimPage::isRunning() const
{
    return m_job.isRunning();
}

void ServingSimPage::setStatusError(const QString &message)
{
    m_status->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(message.toHtmlEscaped()));
}

QString ServingSimPage::statusText() const
{
    return m_status->text();
}

bool ServingSimPage::run()
{
    if (isRunning())
        return false;
    QString error;
    const std::optional<engine::ServingSimConfig> config = configFor(engine::RouterKind::KvAware, &error);
    if (!config) {
        setStatusError(tr("Not run: %1").arg(error));
        emit finished(false);
        return false;
    }
    const QString path = m_trace->text().trimmed();
    if (path.isEmpty() || !QFileInfo(path).isFile()) {
        setStatusError(tr("Not run: %1").arg(path.isEmpty() ? tr("choose a trace file.")
                                                            : tr("the trace %1 does not exist or is not a file.").arg(path)));
        emit finished(false);
        return false;
    }
    // Everything the worker needs, copied: it never touches the widgets.
    const bool azure = m_format->currentIndex() == 1;
    const int64_t sharedPrefix = m_sharedPrefix->value();
    const double reuse = m_reuse->value() / 100.0;
    const int limit = m_limit->value();
    const int hashBlock = m_blockSize->value();
    const double target = m_target->value() / 100.0;
    const QString traceName = QFileInfo(path).fileName();
    const QString setup = tr("%1 on %2, %3 weights, %4 KV, TP %5, %6")
                              .arg(m_model->currentText(), m_gpu->currentText(), m_weights->currentText(),
                                   m_kvPrecision->currentText())
                              .arg(m_tp->value())
                              .arg(config->stepTable ? tr("step times from the table %1")
                                                           .arg(QFileInfo(m_stepTimes->text().trimmed()).fileName())
                                                     : tr("step-cost model times"));

    auto outcome = std::make_shared<Outcome>();
    const engine::ServingSimConfig fleet = *config;
    const std::string modelId = m_model->currentData().toString().toStdString();
    const std::string gpuId = m_gpu->currentData().toString().toStdString();
    const auto weights = engine::WeightPrecision(m_weights->currentData().toInt());
    const auto kvPrecision = engine::KvPrecision(m_kvPrecision->currentData().toInt());
    const int tp = m_tp->value();
    const QJsonObject source = withRunReads(
        {{QStringLiteral("kind"), QStringLiteral("serving-simulation")}}, m_workspace,
        RunReads{{m_model->currentData().toString()}, {m_gpu->currentData().toString()}, true, {}, {},
                 {path, m_stepTimes->text().trimmed()}});
    auto work = [=](const JobProgress &progress) {
        QElapsedTimer timer;
        timer.start();
        try {
            const std::vector<engine::TraceRequest> trace = readTraceFile(path, azure, sharedPrefix, reuse, limit, hashBlock);
            if (progress.cancelled())
                throw Cancelled{};
            engine::ServingStudyOptions options;
            options.target = target;
            options.cacheSweepPoints = kCacheSweepPoints;
            options.progress = [&progress](double done) { return progress.report(done); };
            std::optional<engine::ServingStudy> study = engine::runServingStudy(trace, fleet, options);
            if (!study)
                throw Cancelled{};
            Results r;
            static_cast<engine::ServingStudy &>(r) = std::move(*study);
            r.traceName = traceName;
            r.setup = setup;
            r.modelId = modelId;
            r.gpuId = gpuId;
            r.weights = weights;
            r.kv = kvPrecision;
            r.tp = tp;
            r.source = source;
            r.seconds = double(timer.nsecsElapsed()) / 1e9;
            outcome->results = std::move(r);
        } catch (const Cancelled &) {
            outcome->cancelled = true;
        } catch (const store::StoreError &e) {
            outcome->error = e.message();
        } catch (const engine::InputError &e) {
            outcome->error = QString::fromUtf8(e.what());
        }
    };
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_status->setText(tr("Reading %1 and simulating it with every router…").arg(traceName));
    m_job.start(this, m_progress, work, [this, outcome] { showOutcome(outcome); });
    updateUseButton();
    return true;
}

void ServingSimPage::cancel()
{
    if (!isRunning())
        return;
    m_job.cancel();
    m_status->setText(tr("Cancelling…"));
}

void ServingSimPage::showOutcome(std::shared_ptr<Outcome> outcome)
{
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    updateUseButton();
    if (outcome->cancelled || !outcome->error.isEmpty()) {
        m_progress->setValue(0);
        if (outcome->cancelled)
            m_status->setText(tr("Cancelled; the previous results are kept."));
        else
            setStatusError(tr("Not run: %1").arg(outcome->error));
        emit finished(false);
        return;
    }
    m_progress->setValue(1000);
    m_results = std::move(outcome->results);
    chooseUseWorkload();
    updateUseButton();
    const engine::ServingSimResult &kv = m_results->runs[routerIndex(engine::RouterKind::KvAware)];
    const QString stepModel = kv.stepModel == engine::StepModelKind::Table
        ? tr("step times from the measured table")
        : tr("step times from the roofline");
    m_status->setText(tr("%1: %2 (%3 rejected as larger than a pool), %4 blocks of %5 tokens per replica, "
                         "%6; simulated in %7 s.")
                          .arg(m_results->traceName, formatCountOf(kv.requests, QT_TRANSLATE_NOOP("headroom::ui", "%n request(s)")), formatCount(kv.rejected),
                               formatCount(m_results->config.kvBlocksPerReplica))
                          .arg(m_results->config.blockSize)
                          .arg(stepModel)
                          .arg(formatDecimal(m_results->seconds, 1)));
    updateCharts();
    updateTable();
    updateExplanation();
    emit finished(true);
}

void ServingSimPage::updateCharts()
{
    m_charts->show(m_results, m_router->currentIndex());
}

void ServingSimPage::updateTable()
{
    ServingSimSummary::fillTable(*m_table, m_results, m_router->currentIndex());
}

QJsonObject ServingSimPage::currentTableSource() const
{
    return m_results ? shownTableSource(*m_table, m_results->source) : QJsonObject();
}

QString ServingSimPage::explanation() const
{
    return m_explanation->text();
}

void ServingSimPage::updateExplanation()
{
    m_explanation->setText(ServingSimSummary::explanation(m_results));
}

CalibrationDialog *ServingSimPage::openCalibration()
{
    auto *dialog = new CalibrationDialog(m_workspace, m_undoStack, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setDeployment(m_model->currentData().toString(), m_gpu->currentData().toString(),
                          engine::WeightPrecision(m_weights->currentData().toInt()),
                          engine::KvPrecision(m_kvPrecision->currentData().toInt()), m_tp->value());
    if (!m_stepTimes->text().trimmed().isEmpty())
        dialog->setStepTimes(m_stepTimes->text().trimmed());
    dialog->show();
    return dialog;
}

} // namespace headroom::ui
