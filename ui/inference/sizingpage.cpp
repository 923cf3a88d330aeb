#include "sizingpage.h"

#include "common/columnfit.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "engine/common/errors.h"
#include "common/format.h"
#include "servingassumptionsdialog.h"
#include "sizingcharts.h"
#include "store/common/workspace.h"

#include <QCheckBox>
#include <QDate>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

const char kError[] = "#c0392b";

// The rate cards' on-demand prices in force today, for the option table: one provider's, or
// (provider empty) the cheapest card of each GPU.
std::vector<engine::GpuRate> todaysRates(const store::Workspace &workspace, const QString &provider)
{
    return engine::onDemandRates(workspace.rateCards(), QDate::currentDate().toString(Qt::ISODate).toStdString(),
                                 "USD", provider.toStdString());
}

} // namespace

SizingPage::SizingPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("sizingPage");
    m_replicasCard = newResultCard("sizingReplicas");
    m_gpusCard = newResultCard("sizingGpus");
    m_bindingCard = newResultCard("sizingBinding");
    m_goodputCard = newResultCard("sizingGoodput");
    m_inFlightCard = newResultCard("sizingInFlight");
    auto *cards = new QHBoxLayout;
    for (QLabel *c : {m_replicasCard, m_gpusCard, m_bindingCard, m_inFlightCard, m_goodputCard})
        cards->addWidget(c);

    m_hitRateChart = new ChartPanel(this);
    m_hitRateChart->setObjectName("sizingHitRateChart");
    m_typeChart = new ChartPanel(this);
    m_typeChart->setObjectName("sizingTypeChart");
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->addTab(m_hitRateChart, tr("GPUs vs cache hit rate"));
    m_chartTabs->addTab(m_typeChart, tr("GPUs by GPU type × precision"));
    auto *optionsTab = new QWidget(this);
    auto *optionsLayout = new QVBoxLayout(optionsTab);
    optionsLayout->setContentsMargins(0, 4, 0, 0);
    auto *providerRow = new QHBoxLayout;
    m_optionProvider = new QComboBox(optionsTab);
    m_optionProvider->setObjectName("sizingOptionsProvider");
    m_optionProvider->setToolTip(tr("Compare the GPUs at one provider's on-demand rate cards, or each GPU at its "
                                    "cheapest card in force today (the Priced at column names it)"));
    auto *providerLabel = new QLabel(tr("&Priced at:"), optionsTab);
    providerLabel->setBuddy(m_optionProvider);
    providerRow->addWidget(providerLabel);
    providerRow->addWidget(m_optionProvider);
    providerRow->addStretch(1);
    optionsLayout->addLayout(providerRow);
    m_optionTable = new QTableWidget(0, 7, optionsTab);
    m_optionTable->setObjectName("sizingOptions");
    m_optionTable->setHorizontalHeaderLabels({tr("GPU"), tr("Weights"), tr("KV"), tr("TP"), tr("GPUs"),
                                              tr("Binding"), tr("Cost per 30-day month")});
    optionsLayout->addWidget(m_optionTable, 1);
    m_optionTable->verticalHeader()->hide();
    m_optionTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_optionTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_optionTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_optionTable->horizontalHeader()->setStretchLastSection(true);
    m_optionTable->setToolTip(tr("Every catalog GPU × weights × KV precision with the TP (1, 2, 4, 8 within a node) "
                                 "that needs the fewest GPUs, costed at the on-demand rate card in force today that "
                                 "Priced at names; sorted by cost"));
    m_chartTabs->addTab(optionsTab, tr("Best options by cost"));

    m_steps = new QTableWidget(0, 3, this);
    m_steps->setObjectName("sizingSteps");
    m_steps->setHorizontalHeaderLabels({tr("Step"), tr("Formula"), tr("Value")});
    m_steps->verticalHeader()->hide();
    m_steps->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_steps->horizontalHeader()->setStretchLastSection(true);
    ColumnFit::fitColumns(m_steps); // formulas wrap to the page's width, rows as tall as their text
    m_explanation = new QLabel(this);
    m_explanation->setObjectName("sizingExplanation");
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(cards);
    topLayout->addWidget(m_chartTabs, 1);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    // A long explanation scrolls rather than squeezing the charts above it.
    auto *explanationScroll = new QScrollArea(bottom);
    explanationScroll->setWidget(m_explanation);
    explanationScroll->setWidgetResizable(true);
    explanationScroll->setFrameShape(QFrame::NoFrame);
    explanationScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    bottomLayout->addWidget(explanationScroll, 2);
    bottomLayout->addWidget(m_steps, 3);
    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(top);
    right->addWidget(bottom);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);

    layOutPage(buildInputs(), right, 340);

    connect(&m_workspace, &store::Workspace::workloadsChanged, this, &SizingPage::refreshWorkloads);
    connect(&m_workspace, &store::Workspace::gpusChanged, this, &SizingPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::modelsChanged, this, &SizingPage::recompute);
    connect(&m_workspace, &store::Workspace::rateCardsChanged, this, &SizingPage::refreshProviders);
    connect(m_optionProvider, &QComboBox::currentIndexChanged, this, &SizingPage::recompute);
    connect(&m_workspace, &store::Workspace::servingAssumptionsChanged, this, &SizingPage::servingAssumptionsChanged);
    m_updating = true;
    servingAssumptionsChanged();
    refreshCatalogChoices();
    fillProviders();
    refreshWorkloads();
    m_updating = false;
    loadWorkloadDefaults();
}

QWidget *SizingPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    auto *workloadBox = new QGroupBox(tr("Workload"), panel);
    auto *workloadForm = new QFormLayout(workloadBox);
    m_workload = new QComboBox(workloadBox);
    m_workload->setObjectName("sizingWorkload");
    m_workload->setToolTip(tr("Workload profile to size (edit it on the Workloads page)"));
    workloadForm->addRow(tr("Profile:"), m_workload);
    connect(m_workload, &QComboBox::currentIndexChanged, this, &SizingPage::loadWorkloadDefaults);

    auto *whatIfBox = new QGroupBox(tr("What if…"), panel);
    auto *form = new QFormLayout(whatIfBox);
    m_gpu = new QComboBox(whatIfBox);
    m_gpu->setObjectName("sizingGpu");
    m_gpu->setToolTip(tr("GPU to size on; starts at the profile's GPU"));
    m_weights = new QComboBox(whatIfBox);
    m_weights->setObjectName("sizingWeights");
    for (auto p : engine::allWeightPrecisions())
        m_weights->addItem(upperName(engine::toString(p)), int(p));
    m_weights->setToolTip(tr("Weight precision: FP8/INT8 halve weight memory, which may let the model drop to a "
                             "cheaper GPU"));
    m_kv = new QComboBox(whatIfBox);
    m_kv->setObjectName("sizingKv");
    for (auto p : engine::allKvPrecisions())
        m_kv->addItem(upperName(engine::toString(p)), int(p));
    m_kv->setToolTip(tr("KV-cache precision: FP8 doubles the streams a replica holds"));
    m_hitRate = new QDoubleSpinBox(whatIfBox);
    m_hitRate->setObjectName("sizingHitRate");
    m_hitRate->setRange(0, 100);
    m_hitRate->setDecimals(1);
    m_hitRate->setSuffix(tr(" %"));
    m_hitRate->setToolTip(tr("Prefix cache hit rate, 0–100 %: removes that share of prefill compute"));
    m_tp = new QSpinBox(whatIfBox);
    m_tp->setObjectName("sizingTp");
    m_tp->setRange(1, 64);
    m_tp->setToolTip(tr("Tensor parallelism: GPUs per replica, 1–64"));
    m_disaggregate = new QCheckBox(tr("Separate prefill and decode pools"), whatIfBox);
    m_disaggregate->setObjectName("sizingDisaggregate");
    m_disaggregate->setToolTip(tr("Disaggregated serving: size a prefill pool and a decode pool separately"));
    form->addRow(tr("GPU:"), m_gpu);
    form->addRow(tr("Weights:"), m_weights);
    form->addRow(tr("KV cache:"), m_kv);
    form->addRow(tr("Cache hit rate:"), m_hitRate);
    form->addRow(tr("Tensor parallel:"), m_tp);
    form->addRow(m_disaggregate);
    m_reset = new QPushButton(tr("Reset to workload"), whatIfBox);
    m_reset->setObjectName("sizingResetWhatIfs");
    m_reset->setToolTip(tr("Take GPU, precisions, hit rate and TP back to the workload profile's; until they are "
                           "changed here they follow every edit of the workload"));
    m_whatIfState = new QLabel(whatIfBox);
    m_whatIfState->setObjectName("sizingWhatIfState");
    m_whatIfState->setWordWrap(true);
    m_whatIfState->setEnabled(false);
    form->addRow(m_reset);
    form->addRow(m_whatIfState);
    for (QComboBox *c : {m_gpu, m_weights, m_kv})
        connect(c, &QComboBox::currentIndexChanged, this, &SizingPage::whatIfEdited);
    connect(m_hitRate, &QDoubleSpinBox::valueChanged, this, &SizingPage::whatIfEdited);
    connect(m_tp, &QSpinBox::valueChanged, this, &SizingPage::whatIfEdited);
    connect(m_disaggregate, &QCheckBox::toggled, this, &SizingPage::recompute);
    connect(m_reset, &QPushButton::clicked, this, &SizingPage::resetToWorkload);

    auto *residencyBox = new QGroupBox(tr("KV residency and serving"), panel);
    auto *residencyLayout = new QVBoxLayout(residencyBox);
    m_residency = new QComboBox(residencyBox);
    m_residency->setObjectName("sizingResidency");
    m_residency->addItem(tr("Request — KV held while a request is in flight"), int(engine::KvResidency::Request));
    m_residency->addItem(tr("Session — every open session keeps its KV"), int(engine::KvResidency::Session));
    m_residency->setToolTip(tr("Which streams hold KV cache, and so what the memory side is sized for"));
    auto *residencyHelp = new QLabel(
        tr("<b>Request</b> (vLLM/SGLang default): requests in flight at peak L = rate × time in system "
           "(Little's law); memory holds the P99 of Poisson(L), each at P95 prompt + P95 output.<br>"
           "<b>Session</b>: every concurrent session (DAU × peak sessions per user) keeps its conversation "
           "resident between turns — more memory, no re-prefill.<br>Both figures are in the breakdown."),
        residencyBox);
    residencyHelp->setObjectName("sizingResidencyHelp");
    residencyHelp->setWordWrap(true);
    m_servingSummary = new QLabel(residencyBox);
    m_servingSummary->setObjectName("sizingServingSummary");
    m_servingSummary->setWordWrap(true);
    auto *editServing = ServingAssumptionsDialog::editButton(m_workspace, m_undoStack, this, "sizingEditServing");
    residencyLayout->addWidget(m_residency);
    residencyLayout->addWidget(residencyHelp);
    residencyLayout->addWidget(m_servingSummary);
    residencyLayout->addWidget(editServing, 0, Qt::AlignLeft);
    connect(m_residency, &QComboBox::currentIndexChanged, this, &SizingPage::recompute);

    auto *note = new QLabel(tr("Inference runs below peak utilization by design: the planned headroom is capacity "
                               "kept free for bursts, not waste."), panel);
    note->setWordWrap(true);
    note->setEnabled(false);
    layout->addWidget(workloadBox);
    layout->addWidget(whatIfBox);
    layout->addWidget(residencyBox);
    layout->addWidget(note);
    layout->addStretch();
    return panel;
}

void SizingPage::refreshProviders()
{
    fillProviders();
    recompute();
}

void SizingPage::fillProviders()
{
    const QString chosen = m_optionProvider->currentData().toString();
    QStringList providers;
    for (const engine::RateCard &card : m_workspace.rateCards())
        providers << QString::fromStdString(card.provider);
    providers.removeDuplicates();
    providers.sort(Qt::CaseInsensitive);
    {
        const QSignalBlocker block(m_optionProvider);
        m_optionProvider->clear();
        m_optionProvider->addItem(tr("each GPU's cheapest card"), QString());
        for (const QString &provider : std::as_const(providers))
            m_optionProvider->addItem(provider, provider);
        m_optionProvider->setCurrentIndex(std::max(0, m_optionProvider->findData(chosen)));
    }
}

void SizingPage::refreshWorkloads()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const QString current = m_workload->currentText();
    {
        const QSignalBlocker blocker(m_workload);
        m_workload->clear();
        for (const auto &w : m_workspace.workloads())
            m_workload->addItem(QString::fromStdString(w.name));
        m_workload->setCurrentIndex(std::max(0, m_workload->findText(current)));
    }
    m_updating = wasUpdating;
    if (m_updating)
        return;
    // An edited workload re-seeds the what-ifs unless they were changed on this page; another
    // workload (the old one removed or renamed) always does.
    if (m_workload->currentText() != m_seededWorkload || !m_whatIfsEdited)
        loadWorkloadDefaults();
    else
        recompute();
}

void SizingPage::refreshCatalogChoices()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const QVariant current = m_gpu->currentData();
    m_gpu->clear();
    for (const auto &g : m_workspace.gpus())
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(current)));
    m_updating = wasUpdating;
    recompute();
}

void SizingPage::selectWorkload(const QString &name)
{
    m_workload->setCurrentIndex(m_workload->findText(name));
}

void SizingPage::loadWorkloadDefaults()
{
    if (m_updating)
        return;
    if (const auto workload = m_workspace.workload(m_workload->currentText()))
        seedWhatIfs(*workload);
    else
        m_seededWorkload.clear();
    recompute();
}

void SizingPage::seedWhatIfs(const engine::WorkloadProfile &workload)
{
    m_updating = true;
    m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(QString::fromStdString(workload.gpuId))));
    m_weights->setCurrentIndex(m_weights->findData(int(workload.weights)));
    m_kv->setCurrentIndex(m_kv->findData(int(workload.kv)));
    m_hitRate->setValue(workload.prefixHitRate * 100.0);
    m_tp->setValue(workload.tp);
    m_updating = false;
    m_seededWorkload = QString::fromStdString(workload.name);
    m_whatIfsEdited = false;
    m_reset->setEnabled(false);
    m_whatIfState->setText(tr("Following the workload profile."));
}

void SizingPage::whatIfEdited()
{
    if (m_updating)
        return;
    m_whatIfsEdited = true;
    m_reset->setEnabled(true);
    m_whatIfState->setText(tr("Changed here: edits of the workload no longer reset these."));
    recompute();
}

void SizingPage::resetToWorkload()
{
    m_whatIfsEdited = false;
    loadWorkloadDefaults();
}

// The workspace's assumptions changed (or were first read): size with them, starting the
// residency what-if at the workspace's choice.
void SizingPage::servingAssumptionsChanged()
{
    m_serving = m_workspace.servingAssumptions();
    m_servingSummary->setText(tr("Sizing with: %1").arg(ServingAssumptionsDialog::summary(m_serving)));
    const bool wasUpdating = m_updating;
    m_updating = true;
    m_residency->setCurrentIndex(m_residency->findData(int(m_serving.residency)));
    m_updating = wasUpdating;
    recompute();
}

void SizingPage::recompute()
{
    if (m_updating)
        return;
    m_result.reset();
    m_whatIfs.clear();
    const auto workload = m_workspace.workload(m_workload->currentText());
    if (!workload) {
        m_explanation->setText(tr("No workload to size yet: add one on the Workloads page."));
        emit recomputed();
        return;
    }
    const auto model = m_workspace.model(QString::fromStdString(workload->modelId));
    const auto gpu = m_workspace.gpu(m_gpu->currentData().toString());
    if (!model || !gpu) {
        m_explanation->setText(tr("<span style='color:#c0392b'>The workload's model or GPU is not in the catalog."
                                  "</span>"));
        emit recomputed();
        return;
    }
    engine::SizingOverrides overrides;
    overrides.gpuId = gpu->id;
    overrides.weights = engine::WeightPrecision(m_weights->currentData().toInt());
    overrides.kv = engine::KvPrecision(m_kv->currentData().toInt());
    overrides.prefixHitRate = m_hitRate->value() / 100.0;
    overrides.tp = m_tp->value();
    overrides.disaggregate = m_disaggregate->isChecked();
    engine::ServingAssumptions serving = m_serving;
    serving.residency = engine::KvResidency(m_residency->currentData().toInt());
    // What this page sizes with: the workspace's assumptions, the residency as chosen above.
    m_servingSummary->setText(serving.residency == m_serving.residency
                                  ? tr("Sizing with: %1").arg(ServingAssumptionsDialog::summary(serving))
                                  : tr("Sizing with: %1 (a what-if: the workspace's assumptions say KV residency %2)")
                                        .arg(ServingAssumptionsDialog::summary(serving),
                                             m_serving.residency == engine::KvResidency::Session ? tr("session")
                                                                                                 : tr("request")));
    m_options.clear();
    try {
        m_result = engine::sizeInference(*workload, *model, *gpu, overrides, serving);

        engine::WorkloadProfile variant = *workload;
        variant.gpuId = gpu->id;
        variant.prefixHitRate = overrides.prefixHitRate.value();
        variant.tp = overrides.tp.value();
        const std::vector<engine::GpuSpec> gpus = m_workspace.gpus();
        m_whatIfs = engine::sizingWhatIfs(variant, *model, gpus, serving);
        engine::WorkloadProfile optionBase = *workload;
        optionBase.prefixHitRate = variant.prefixHitRate;
        m_options = engine::sizingOptions(optionBase, *model, gpus,
                                          todaysRates(m_workspace, m_optionProvider->currentData().toString()), serving);
        showOptions();

        const SizingFigureInputs figureInputs{*workload, *model, *gpu, overrides, serving};
        m_hitRateChart->setFigure(sizingHitRateFigure(figureInputs, *m_result));
        m_typeChart->setFigure(sizingByTypeFigure(figureInputs, m_whatIfs));
        showResult(*workload, *m_result);
    } catch (const engine::InputError &e) {
        m_result.reset();
        for (QLabel *card : {m_replicasCard, m_gpusCard, m_bindingCard, m_inFlightCard, m_goodputCard})
            card->setText(resultCardText(QStringLiteral("—"), tr("cannot size")));
        m_explanation->setText(tr("<span style='color:#c0392b'>Cannot size — %1: %2</span>")
                                   .arg(QString::fromStdString(e.field()), QString::fromUtf8(e.what()).toHtmlEscaped()));
    }
    emit recomputed();
}

void SizingPage::showInfeasible(const engine::SizingResult &r)
{
    const bool memory = r.binding == "memory";
    const QString verdict = memory ? tr("does not fit") : tr("SLO missed");
    const QString red = QStringLiteral("<span style='color:%1'>%2</span>").arg(QLatin1String(kError));
    m_replicasCard->setText(resultCardText(red.arg(verdict), memory ? tr("no replica holds the model and one stream")
                                                                   : tr("no replica meets the %1 target")
                                                                         .arg(QString::fromStdString(r.binding).toUpper())));
    QString best;
    if (memory && r.streamsPerReplica < 1 && r.kvPoolBytes < 0)
        best = tr("weights + reserve exceed memory by %1 GiB per GPU").arg(double(-r.kvPoolBytes) / double(engine::kGiB), 0, 'f', 1);
    else if (memory)
        best = tr("KV pool %1 GiB per GPU is less than one stream").arg(double(r.kvPoolBytes) / double(engine::kGiB), 0, 'f', 1);
    else if (r.binding == "ttft")
        best = tr("best TTFT %1 ms").arg(r.prefillTimeMs, 0, 'f', 0);
    else
        best = tr("best ITL %1 ms at batch 1").arg(r.decodeStepMs, 0, 'f', 1);
    m_gpusCard->setText(resultCardText(red.arg(QStringLiteral("—")), best));
    m_bindingCard->setText(resultCardText(QString::fromStdString(r.binding), red.arg(verdict)));
    m_goodputCard->setText(resultCardText(QStringLiteral("—"), tr("no goodput at the SLOs")));
}

void SizingPage::showOptions()
{
    m_optionTable->setRowCount(int(m_options.size()));
    for (int row = 0; row < int(m_options.size()); ++row) {
        const engine::SizingOption &o = m_options[size_t(row)];
        const auto gpu = m_workspace.gpu(QString::fromStdString(o.gpuId));
        const QString cost = o.costPerMonth ? QString::fromStdString(o.costPerMonth->display())
                                            : o.result.feasible ? tr("unpriced (no rate card)") : QStringLiteral("—");
        const QStringList cells{
            gpu ? QString::fromStdString(gpu->name) : QString::fromStdString(o.gpuId),
            upperName(engine::toString(o.weights)),
            upperName(engine::toString(o.kv)),
            o.tp > 0 ? QString::number(o.tp) : QStringLiteral("—"),
            o.result.feasible ? formatCount(o.result.gpus) : tr("does not fit"),
            o.result.feasible ? QString::fromStdString(o.result.binding)
                              : tr("%1 (infeasible)").arg(QString::fromStdString(o.result.binding)),
            o.rate || !o.result.feasible || m_optionProvider->currentData().toString().isEmpty()
                ? cost
                : tr("no %1 card").arg(m_optionProvider->currentData().toString()),
        };
        for (int column = 0; column < cells.size(); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column >= 3 && column != 5)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!o.result.feasible)
                item->setForeground(QColor(QLatin1String("#888888")));
            if (column == 6 && o.rate)
                item->setToolTip(tr("%1 per GPU-hour × %2 × 720 h — %3")
                                     .arg(QString::fromStdString(o.rate->perGpuHour.display()), formatGpus(o.result.gpus),
                                          QString::fromStdString(o.rate->source)));
            if (!o.result.feasible)
                item->setToolTip(QString::fromStdString(o.result.infeasibleReason));
            m_optionTable->setItem(row, column, item);
        }
    }
}

void SizingPage::showResult(const engine::WorkloadProfile &workload, const engine::SizingResult &r)
{
    const QString qLabel = QStringLiteral("P%1").arg(r.inFlightQuantile * 100.0, 0, 'g', 4);
    m_inFlightCard->setText(
        r.residency == engine::KvResidency::Session
            ? resultCardText(formatCount(r.sessionsResident),
                             tr("sessions held resident (%1 in flight, %2 %3)")
                                 .arg(r.inFlightMean, 0, 'f', 1).arg(qLabel, formatCount(r.inFlightQuantileCount)))
            : resultCardText(formatCount(r.inFlightQuantileCount),
                             tr("in flight at %1 (mean %2; %3 sessions)")
                                 .arg(qLabel).arg(r.inFlightMean, 0, 'f', 1).arg(formatCount(r.sessionsResident))));
    m_replicasCard->setText(resultCardText(formatCount(r.replicas), tr("replicas (memory %1, compute %2)")
                                                                  .arg(formatCount(r.replicasMemory),
                                                                       formatCount(r.replicasCompute))));
    QString gpus = formatCount(r.gpus);
    QString gpuCaption = tr("GPUs (%1 per replica)").arg(r.gpusPerReplica);
    if (r.prefillGpus && r.decodeGpus)
        gpuCaption = tr("GPUs: %1 prefill + %2 decode").arg(formatCount(*r.prefillGpus), formatCount(*r.decodeGpus));
    m_gpusCard->setText(resultCardText(gpus, gpuCaption));
    const QString binding = QString::fromStdString(r.binding);
    m_bindingCard->setText(resultCardText(binding, r.feasible ? tr("binding constraint")
                                                        : tr("<span style='color:#c0392b'>SLO not met</span>")));
    m_goodputCard->setText(resultCardText(formatCount(int64_t(std::llround(r.goodputTokensPerS))),
                                    tr("tokens/s per replica (%1)").arg(QString::fromStdString(r.goodputSource))));
    if (!r.feasible)
        showInfeasible(r);

    m_steps->setRowCount(int(r.steps.size()));
    for (int i = 0; i < int(r.steps.size()); ++i) {
        const auto &s = r.steps[size_t(i)];
        m_steps->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(s.title)));
        m_steps->setItem(i, 1, new QTableWidgetItem(QString::fromStdString(s.formula)));
        m_steps->setItem(i, 2, new QTableWidgetItem(QString::fromStdString(s.value)));
    }

    QStringList lines;
    if (!r.feasible) {
        lines << tr("<b>%1 %2 on this configuration:</b> %3")
                     .arg(QString::fromStdString(workload.name).toHtmlEscaped(),
                          r.binding == "memory" ? tr("does not fit") : tr("misses its SLO"),
                          QString::fromStdString(r.infeasibleReason).toHtmlEscaped());
    } else {
        const int64_t other = r.binding == "memory" ? r.replicasCompute : r.replicasMemory;
        lines << tr("<b>%1 needs %2</b> (%3 × %4): %5-bound — %6 for %7, against %8 for the "
                    "other side. Peak utilization %9 %, average %10 %; the rest is planned headroom.")
                     .arg(QString::fromStdString(workload.name).toHtmlEscaped(),
                          formatGpus(r.gpus),
                          formatCountOf(r.replicas, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                     .arg(r.gpusPerReplica)
                     .arg(binding, formatCountOf(r.binding == "memory" ? r.replicasMemory : r.replicasCompute, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")),
                          r.binding == "memory" ? tr("resident KV of %1 peak streams").arg(formatCount(r.peakStreams))
                                                : tr("%1 decode goodput").arg(QString::fromStdString(r.goodputSource)),
                          formatCountOf(other, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                     .arg(r.peakUtilization * 100, 0, 'f', 0)
                     .arg(r.averageUtilization * 100, 0, 'f', 0);
    }
    lines << (r.residency == engine::KvResidency::Session
                  ? tr("KV residency <b>session</b>: %1 open sessions keep their KV between turns (%2 for "
                       "memory); with request residency %3 requests in flight (%4 %5) would need %6.")
                        .arg(formatCount(r.sessionsResident), formatCountOf(r.replicasMemorySession, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                        .arg(r.inFlightMean, 0, 'f', 1)
                        .arg(qLabel, formatCount(r.inFlightQuantileCount), formatCountOf(r.replicasMemoryRequest, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                  : tr("KV residency <b>request</b>: %1 requests/s × %2 s in system = %3 in flight on average "
                       "(Little's law); memory holds the %4 of %5 (%6). Keeping all %7 sessions resident "
                       "would need %8.")
                        .arg(r.peakRequestsPerS, 0, 'f', 1)
                        .arg(r.timeInSystemMs / 1000.0, 0, 'f', 2)
                        .arg(r.inFlightMean, 0, 'f', 1)
                        .arg(qLabel, formatCount(r.inFlightQuantileCount), formatCountOf(r.replicasMemoryRequest, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")),
                             formatCount(r.sessionsResident), formatCountOf(r.replicasMemorySession, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)"))));
    // The engine's warning repeats the two figures just given: here only its call to act.
    if (!r.residencyWarning.empty())
        lines << tr("<span style='color:#b9770e'>The two residency models differ by %1 here: choose the residency "
                    "model your serving engine runs (Edit ▸ Serving Assumptions).</span>")
                     .arg(formatCountOf(std::abs(r.replicasMemorySession - r.replicasMemoryRequest),
                                        QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")));
    // Quantization what-if: a lower precision that lets the model drop to a smaller GPU.
    const engine::WeightPrecision weights = engine::WeightPrecision(m_weights->currentData().toInt());
    const engine::KvPrecision kv = engine::KvPrecision(m_kv->currentData().toInt());
    const engine::WhatIf *tier = nullptr;
    for (const engine::WhatIf &w : m_whatIfs)
        if (w.dropsToCheaperTier && w.result.feasible && (w.weights != weights || w.kv != kv) &&
            (!tier || w.result.gpus < tier->result.gpus))
            tier = &w;
    if (tier) {
        const auto gpu = m_workspace.gpu(QString::fromStdString(tier->gpuId));
        // At this page's tensor parallelism, as the GPU-type chart; the best options table
        // searches TP 1–8 and may find fewer.
        lines << tr("Quantizing to %1 weights and %2 KV lets the model fit a smaller GPU: %3 of %4 at TP %5 "
                    "against %6 here (the best options table searches TP 1–8 and compares them by cost).")
                     .arg(upperName(engine::toString(tier->weights)), upperName(engine::toString(tier->kv)),
                          formatGpus(tier->result.gpus),
                          gpu ? QString::fromStdString(gpu->name) : QString::fromStdString(tier->gpuId))
                     .arg(m_tp->value())
                     .arg(formatCount(r.gpus));
    }
    m_explanation->setText(lines.join(QStringLiteral("<br>")));
}

QString SizingPage::explanation() const
{
    return m_explanation->text();
}

QList<ChartPanel *> SizingPage::chartPanels() const
{
    QList<ChartPanel *> panels{m_hitRateChart, m_typeChart};
    if (auto *current = qobject_cast<ChartPanel *>(m_chartTabs->currentWidget())) {
        panels.removeOne(current);
        panels.prepend(current);
    }
    return panels;
}

} // namespace headroom::ui
