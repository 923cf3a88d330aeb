#include "workloadspage.h"

#include "common/fields.h"
#include "common/dialogs.h"
#include "engine/common/errors.h"
#include "engine/serving/trace.h"
#include "common/format.h"
#include "store/common/exportfile.h"
#include "store/common/storeerror.h"
#include "store/inference/workloadjson.h"
#include "store/common/workspace.h"
#include "common/entitycommand.h"
#include "common/namelist.h"

#include <algorithm>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

using engine::WorkloadProfile;

} // namespace

WorkloadsPage::WorkloadsPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("workloadsPage");
    m_list = new NameList(this);
    m_list->setObjectName("workloadList");
    m_list->setMinimumWidth(200);
    auto *add = new QPushButton(tr("&Add"), this);
    auto *duplicate = new QPushButton(tr("D&uplicate"), this);
    auto *remove = new QPushButton(tr("&Delete"), this);
    auto *importTrace = new QPushButton(tr("Refine from &trace…"), this);
    importTrace->setToolTip(tr("Read an Azure LLM trace CSV or a Mooncake JSONL trace and take its token "
                               "percentiles, request rate and prefix hit rate into this profile"));
    auto *importJson = new QPushButton(tr("Import JSON…"), this);
    auto *exportJson = new QPushButton(tr("Export JSON…"), this);
    connect(add, &QPushButton::clicked, this, &WorkloadsPage::addWorkload);
    connect(duplicate, &QPushButton::clicked, this, &WorkloadsPage::duplicateWorkload);
    connect(remove, &QPushButton::clicked, this, &WorkloadsPage::deleteWorkload);
    connect(importTrace, &QPushButton::clicked, this, &WorkloadsPage::importTraceWithDialog);
    connect(importJson, &QPushButton::clicked, this, &WorkloadsPage::importJsonWithDialog);
    connect(exportJson, &QPushButton::clicked, this, &WorkloadsPage::exportJsonWithDialog);

    m_status = new QLabel(this);
    m_status->setObjectName("workloadStatus");
    layOutEditorPage(this, m_list, {{add, duplicate, remove}, {importTrace}, {importJson, exportJson}}, buildForm(),
                     m_status);

    connect(m_list, &QListWidget::currentTextChanged, this, [this] { loadForm(); });
    connect(&m_workspace, &store::Workspace::workloadsChanged, this, &WorkloadsPage::refreshList);
    connect(&m_workspace, &store::Workspace::modelsChanged, this, &WorkloadsPage::refreshCatalogChoices);
    connect(&m_workspace, &store::Workspace::gpusChanged, this, &WorkloadsPage::refreshCatalogChoices);
    refreshCatalogChoices();
    refreshList();
}

void WorkloadsPage::bind(QWidget *editor, const QString &label, std::function<void(const WorkloadProfile &)> load,
                         std::function<void(WorkloadProfile &)> store)
{
    m_bindings.push_back({editor, std::move(load), std::move(store), label});
}

void WorkloadsPage::addNumber(QFormLayout *form, const QString &label, const char *name, const QString &suffix,
                              double min, double max, int decimals, const QString &tip,
                              std::function<double(const WorkloadProfile &)> get,
                              std::function<void(WorkloadProfile &, double)> set)
{
    auto *box = new QDoubleSpinBox(m_form);
    box->setObjectName(QLatin1String(name));
    box->setRange(min, max);
    box->setDecimals(decimals);
    if (suffix.contains(QLatin1String("(s)")))
        setCountSuffix(box, suffix);
    else
        box->setSuffix(suffix);
    box->setToolTip(tip);
    box->setGroupSeparatorShown(true);
    box->setKeyboardTracking(false);
    form->addRow(label + QLatin1Char(':'), box);
    const int index = int(m_bindings.size());
    bind(box, label, [box, get](const WorkloadProfile &w) { box->setValue(get(w)); },
         [box, set](WorkloadProfile &w) { set(w, box->value()); });
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, index] { commitField(index); });
}

QWidget *WorkloadsPage::buildForm()
{
    m_form = new QWidget;
    auto *grid = new QGridLayout(m_form);
    auto group = [this](const QString &title) {
        auto *box = new QGroupBox(title, m_form);
        return std::pair{box, new QFormLayout(box)};
    };

    // Identity
    auto [identityBox, identity] = group(tr("Workload"));
    auto *name = new QLineEdit(m_form);
    name->setObjectName("workloadName");
    name->setToolTip(tr("Unique name of the workload in this workspace"));
    identity->addRow(tr("Name:"), name);
    bind(name, tr("Name"), [name](const WorkloadProfile &w) { name->setText(QString::fromStdString(w.name)); },
         [name](WorkloadProfile &w) { w.name = name->text().trimmed().toStdString(); });
    connect(name, &QLineEdit::editingFinished, this, [this, index = int(m_bindings.size()) - 1] { commitField(index); });
    auto *tenant = new QLineEdit(m_form);
    tenant->setObjectName("workloadTenant");
    tenant->setToolTip(tr("Team or customer the workload belongs to"));
    identity->addRow(tr("Tenant:"), tenant);
    bind(tenant, tr("Tenant"), [tenant](const WorkloadProfile &w) { tenant->setText(QString::fromStdString(w.tenant)); },
         [tenant](WorkloadProfile &w) { w.tenant = tenant->text().trimmed().toStdString(); });
    connect(tenant, &QLineEdit::editingFinished, this, [this, index = int(m_bindings.size()) - 1] { commitField(index); });

    auto addCombo = [this](QFormLayout *form, const QString &label, const char *objectName, const QString &tip,
                           const std::vector<std::pair<QString, QVariant>> &items,
                           std::function<QVariant(const WorkloadProfile &)> get,
                           std::function<void(WorkloadProfile &, const QVariant &)> set) {
        auto *combo = new QComboBox(m_form);
        combo->setObjectName(QLatin1String(objectName));
        combo->setToolTip(tip);
        for (const auto &[text, data] : items)
            combo->addItem(text, data);
        form->addRow(label + QLatin1Char(':'), combo);
        const int index = int(m_bindings.size());
        bind(combo, label, [combo, get](const WorkloadProfile &w) { combo->setCurrentIndex(combo->findData(get(w))); },
             [combo, set](WorkloadProfile &w) { set(w, combo->currentData()); });
        connect(combo, &QComboBox::currentIndexChanged, this, [this, index] { commitField(index); });
        return combo;
    };
    addCombo(identity, tr("Class"), "workloadClass",
             tr("Flagship interactive serving gets exclusive GPUs; internal tools and batch may share"),
             {{tr("Flagship interactive"), int(engine::WorkloadClass::FlagshipInteractive)},
              {tr("Internal tool"), int(engine::WorkloadClass::InternalTool)},
              {tr("Batch"), int(engine::WorkloadClass::Batch)},
              {tr("Embedding / rerank"), int(engine::WorkloadClass::Embedding)}},
             [](const WorkloadProfile &w) { return QVariant(int(w.workloadClass)); },
             [](WorkloadProfile &w, const QVariant &v) { w.workloadClass = engine::WorkloadClass(v.toInt()); });
    addCombo(identity, tr("Isolation"), "workloadIsolation",
             tr("Regulated or tenant-isolated workloads need MIG or dedicated GPUs"),
             {{tr("None"), int(engine::Isolation::None)},
              {tr("Soft"), int(engine::Isolation::Soft)},
              {tr("Regulated"), int(engine::Isolation::Regulated)}},
             [](const WorkloadProfile &w) { return QVariant(int(w.isolation)); },
             [](WorkloadProfile &w, const QVariant &v) { w.isolation = engine::Isolation(v.toInt()); });

    // Model and hardware
    auto [modelBox, model] = group(tr("Model and hardware"));
    m_model = addCombo(model, tr("Model"), "workloadModel", tr("Model from the catalog"), {},
                       [](const WorkloadProfile &w) { return QVariant(QString::fromStdString(w.modelId)); },
                       [](WorkloadProfile &w, const QVariant &v) { w.modelId = v.toString().toStdString(); });
    m_gpu = addCombo(model, tr("GPU"), "workloadGpu", tr("GPU from the catalog the workload is planned on"), {},
                     [](const WorkloadProfile &w) { return QVariant(QString::fromStdString(w.gpuId)); },
                     [](WorkloadProfile &w, const QVariant &v) { w.gpuId = v.toString().toStdString(); });
    std::vector<std::pair<QString, QVariant>> weights, kvs;
    for (auto p : engine::allWeightPrecisions())
        weights.push_back({upperName(engine::toString(p)), int(p)});
    for (auto p : engine::allKvPrecisions())
        kvs.push_back({upperName(engine::toString(p)), int(p)});
    addCombo(model, tr("Weights"), "workloadWeights", tr("Weight precision"), weights,
             [](const WorkloadProfile &w) { return QVariant(int(w.weights)); },
             [](WorkloadProfile &w, const QVariant &v) { w.weights = engine::WeightPrecision(v.toInt()); });
    addCombo(model, tr("KV cache"), "workloadKv", tr("KV-cache precision"), kvs,
             [](const WorkloadProfile &w) { return QVariant(int(w.kv)); },
             [](WorkloadProfile &w, const QVariant &v) { w.kv = engine::KvPrecision(v.toInt()); });
    addNumber(model, tr("Tensor parallel"), "workloadTp", tr(" GPU(s)"), 1, 64, 0, tr("GPUs per replica, 1–64"),
              [](const WorkloadProfile &w) { return double(w.tp); },
              [](WorkloadProfile &w, double v) { w.tp = int(v); });

    // Traffic
    auto [trafficBox, traffic] = group(tr("Traffic"));
    addNumber(traffic, tr("Daily active users"), "workloadDau", tr(" user(s)"), 0, 1e9, 0,
              tr("Users active on a day"), [](const WorkloadProfile &w) { return w.dailyActiveUsers; },
              [](WorkloadProfile &w, double v) { w.dailyActiveUsers = v; });
    addNumber(traffic, tr("Requests per user"), "workloadRequests", tr(" /day"), 0, 1e6, 1,
              tr("Requests one active user sends per day"),
              [](const WorkloadProfile &w) { return w.requestsPerUserPerDay; },
              [](WorkloadProfile &w, double v) { w.requestsPerUserPerDay = v; });
    addNumber(traffic, tr("Peak sessions per user"), "workloadSessions", QString(), 0, 100, 3,
              tr("Concurrent sessions per active user at the daily peak; DAU × this = peak concurrent streams"),
              [](const WorkloadProfile &w) { return w.peakSessionsPerUser; },
              [](WorkloadProfile &w, double v) { w.peakSessionsPerUser = v; });
    addNumber(traffic, tr("Traffic variance (P95 / mean)"), "workloadVariance", QString(), 1, 100, 2,
              tr("How far the P95 of traffic is above its mean; sizes the buffer, ≥ 1"),
              [](const WorkloadProfile &w) { return w.trafficVariance; },
              [](WorkloadProfile &w, double v) { w.trafficVariance = v; });

    // Tokens and cache
    auto [tokensBox, tokens] = group(tr("Tokens and prefix cache"));
    const QString tokenSuffix = tr(" token(s)");
    addNumber(tokens, tr("Prompt P50"), "workloadPromptP50", tokenSuffix, 0, 1e7, 0, tr("Median prompt length"),
              [](const WorkloadProfile &w) { return w.promptTokens.p50; },
              [](WorkloadProfile &w, double v) { w.promptTokens.p50 = v; });
    addNumber(tokens, tr("Prompt P95"), "workloadPromptP95", tokenSuffix, 0, 1e7, 0,
              tr("95th percentile prompt length (≥ P50)"), [](const WorkloadProfile &w) { return w.promptTokens.p95; },
              [](WorkloadProfile &w, double v) { w.promptTokens.p95 = v; });
    addNumber(tokens, tr("Output P50"), "workloadOutputP50", tokenSuffix, 0, 1e7, 0, tr("Median output length"),
              [](const WorkloadProfile &w) { return w.outputTokens.p50; },
              [](WorkloadProfile &w, double v) { w.outputTokens.p50 = v; });
    addNumber(tokens, tr("Output P95"), "workloadOutputP95", tokenSuffix, 0, 1e7, 0,
              tr("95th percentile output length (≥ P50)"), [](const WorkloadProfile &w) { return w.outputTokens.p95; },
              [](WorkloadProfile &w, double v) { w.outputTokens.p95 = v; });
    addNumber(tokens, tr("Prefix cache hit rate"), "workloadHitRate", tr(" %"), 0, 100, 1,
              tr("Share of prompt tokens served from the prefix cache, 0–100 %; removes that prefill compute"),
              [](const WorkloadProfile &w) { return w.prefixHitRate * 100.0; },
              [](WorkloadProfile &w, double v) { w.prefixHitRate = v / 100.0; });
    addNumber(tokens, tr("Shared prefix"), "workloadSharedPrefix", tokenSuffix, 0, 1e6, 0,
              tr("System prompt shared by all requests, held once per replica"),
              [](const WorkloadProfile &w) { return double(w.sharedPrefixTokens); },
              [](WorkloadProfile &w, double v) { w.sharedPrefixTokens = int64_t(v); });

    // SLOs and measurements
    auto [sloBox, slo] = group(tr("Latency SLOs and measurements"));
    addNumber(slo, tr("TTFT P95"), "workloadTtft", tr(" ms"), 1, 600000, 0, tr("Time to first token, P95, ms"),
              [](const WorkloadProfile &w) { return w.ttftP95Ms; },
              [](WorkloadProfile &w, double v) { w.ttftP95Ms = v; });
    addNumber(slo, tr("Inter-token latency P95"), "workloadItl", tr(" ms"), 0.1, 10000, 1,
              tr("Time between output tokens, P95, ms"), [](const WorkloadProfile &w) { return w.itlP95Ms; },
              [](WorkloadProfile &w, double v) { w.itlP95Ms = v; });
    auto optionalNumber = [&](const QString &label, const char *name, const QString &suffix, double max,
                              const QString &tip, std::function<std::optional<double>(const WorkloadProfile &)> get,
                              std::function<void(WorkloadProfile &, std::optional<double>)> set) {
        auto *check = new QCheckBox(m_form);
        auto *box = new QDoubleSpinBox(m_form);
        box->setObjectName(QLatin1String(name));
        check->setObjectName(QLatin1String(name) + QStringLiteral("Measured"));
        box->setRange(0, max);
        if (suffix.contains(QLatin1String("(s)")))
            setCountSuffix(box, suffix);
        else
            box->setSuffix(suffix);
        box->setToolTip(tip);
        box->setKeyboardTracking(false);
        check->setToolTip(tr("Use a measured value instead of the estimate"));
        auto *row = new QHBoxLayout;
        row->addWidget(check);
        row->addWidget(box, 1);
        slo->addRow(label + QLatin1Char(':'), row);
        const int index = int(m_bindings.size());
        bind(box, label,
             [check, box, get](const WorkloadProfile &w) {
                 const auto v = get(w);
                 check->setChecked(v.has_value());
                 box->setEnabled(v.has_value());
                 box->setValue(v.value_or(0));
             },
             [check, box, set](WorkloadProfile &w) {
                 set(w, check->isChecked() ? std::optional<double>(box->value()) : std::nullopt);
             });
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, index] { commitField(index); });
        connect(check, &QCheckBox::toggled, this, [this, index, box](bool on) {
            box->setEnabled(on);
            commitField(index);
        });
    };
    optionalNumber(tr("Measured goodput"), "workloadGoodput", tr(" tokens/s"), 1e9,
                   tr("Per-replica output tokens/s measured at the SLOs; wins over the estimate"),
                   [](const WorkloadProfile &w) { return w.measuredGoodputTokensPerS; },
                   [](WorkloadProfile &w, std::optional<double> v) {
                       // A value typed here is a measurement: it no longer comes from a simulation.
                       if (v != w.measuredGoodputTokensPerS)
                           w.goodputSource.clear();
                       w.measuredGoodputTokensPerS = v;
                   });
    auto *source = new QLabel(m_form);
    source->setObjectName("workloadGoodputSource");
    source->setWordWrap(true);
    slo->addRow(QString(), source);
    bind(source, tr("Goodput source"),
         [source](const WorkloadProfile &w) {
             source->setText(w.goodputSource.empty()
                                 ? QString()
                                 : tr("Simulated, not measured: %1").arg(QString::fromStdString(w.goodputSource)));
             source->setVisible(!w.goodputSource.empty());
         },
         [](WorkloadProfile &) {});
    optionalNumber(tr("Measured max streams"), "workloadMaxStreams", tr(" streams"), 1e7,
                   tr("Per-replica concurrent streams measured at the SLOs"),
                   [](const WorkloadProfile &w) {
                       return w.measuredMaxStreams ? std::optional<double>(double(*w.measuredMaxStreams))
                                                   : std::nullopt;
                   },
                   [](WorkloadProfile &w, std::optional<double> v) {
                       w.measuredMaxStreams = v ? std::optional<int64_t>(int64_t(*v)) : std::nullopt;
                   });

    // Diurnal shape
    auto *diurnalBox = new QGroupBox(tr("Diurnal shape (relative traffic per UTC hour)"), m_form);
    auto *diurnalLayout = new QVBoxLayout(diurnalBox);
    m_diurnalPreset = new QComboBox(diurnalBox);
    m_diurnalPreset->setObjectName("workloadDiurnalPreset");
    m_diurnalPreset->addItem(tr("Apply a preset…"));
    m_diurnalPreset->addItem(tr("Business hours"), int(engine::DiurnalPreset::BusinessHours));
    m_diurnalPreset->addItem(tr("Evening peak"), int(engine::DiurnalPreset::EveningPeak));
    m_diurnalPreset->addItem(tr("Flat 24/7"), int(engine::DiurnalPreset::Flat));
    m_diurnal = new QTableWidget(1, 24, diurnalBox);
    m_diurnal->setObjectName("workloadDiurnal");
    m_diurnal->verticalHeader()->hide();
    m_diurnal->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_diurnal->horizontalHeader()->setMinimumSectionSize(28);
    // 24 hours side by side: values such as 0.25 on one line in the narrowest window.
    QFont cells = m_diurnal->font();
    cells.setPointSizeF(std::min(cells.pointSizeF(), 8.0));
    m_diurnal->setFont(cells);
    m_diurnal->setWordWrap(false);
    m_diurnal->setTextElideMode(Qt::ElideNone);
    QStringList hours;
    for (int h = 0; h < 24; ++h)
        hours << QString::number(h);
    m_diurnal->setHorizontalHeaderLabels(hours);
    m_diurnal->setFixedHeight(m_diurnal->horizontalHeader()->sizeHint().height() + 34);
    m_diurnal->setToolTip(tr("Relative traffic in each UTC hour; any positive scale. The peak hour over the mean "
                             "sets the peak request rate"));
    diurnalLayout->addWidget(m_diurnalPreset);
    diurnalLayout->addWidget(m_diurnal);
    const int diurnalIndex = int(m_bindings.size());
    bind(m_diurnal, tr("Diurnal shape"),
         [this](const WorkloadProfile &w) {
             for (int h = 0; h < 24; ++h) {
                 auto *item = new QTableWidgetItem(QString::number(w.diurnal[size_t(h)], 'g', 3));
                 item->setTextAlignment(Qt::AlignCenter);
                 m_diurnal->setItem(0, h, item);
             }
         },
         [this](WorkloadProfile &w) {
             for (int h = 0; h < 24; ++h)
                 w.diurnal[size_t(h)] = m_diurnal->item(0, h) ? m_diurnal->item(0, h)->text().toDouble() : 0.0;
         });
    connect(m_diurnal, &QTableWidget::itemChanged, this, [this, diurnalIndex] { commitField(diurnalIndex); });
    connect(m_diurnalPreset, &QComboBox::activated, this, [this, diurnalIndex](int index) {
        if (index <= 0)
            return;
        const auto shape = engine::diurnalShape(engine::DiurnalPreset(m_diurnalPreset->itemData(index).toInt()));
        m_loading = true;
        for (int h = 0; h < 24; ++h)
            m_diurnal->item(0, h)->setText(QString::number(shape[size_t(h)], 'g', 3));
        m_loading = false;
        m_diurnalPreset->setCurrentIndex(0);
        commitField(diurnalIndex);
    });

    grid->addWidget(identityBox, 0, 0);
    grid->addWidget(modelBox, 1, 0);
    grid->addWidget(trafficBox, 2, 0);
    grid->addWidget(tokensBox, 0, 1);
    grid->addWidget(sloBox, 1, 1, 2, 1);
    grid->addWidget(diurnalBox, 3, 0, 1, 2);
    grid->setRowStretch(4, 1);
    return m_form;
}

void WorkloadsPage::refreshCatalogChoices()
{
    const bool wasLoading = m_loading;
    m_loading = true;
    const QVariant model = m_model->currentData(), gpu = m_gpu->currentData();
    m_model->clear();
    for (const auto &m : m_workspace.models())
        m_model->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    m_gpu->clear();
    for (const auto &g : m_workspace.gpus())
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    m_model->setCurrentIndex(m_model->findData(model));
    m_gpu->setCurrentIndex(m_gpu->findData(gpu));
    m_loading = wasLoading;
}

void WorkloadsPage::refreshList()
{
    QStringList names;
    for (const auto &w : m_workspace.workloads())
        names << QString::fromStdString(w.name);
    const bool wasLoading = m_loading;
    m_loading = true;
    m_list->setNames(names);
    m_loading = wasLoading;
    loadForm();
}

QString WorkloadsPage::currentName() const
{
    return m_list->currentName();
}

void WorkloadsPage::selectWorkload(const QString &name)
{
    m_list->selectName(name);
}

void WorkloadsPage::loadForm()
{
    if (m_loading)
        return;
    const auto workload = m_workspace.workload(currentName());
    m_form->setEnabled(workload.has_value());
    if (!workload) {
        setStatus(m_list->count() == 0 ? tr("No workloads yet: Add one, or import a JSON profile.") : QString());
        return;
    }
    m_loading = true;
    for (const Binding &b : m_bindings)
        b.load(*workload);
    m_loading = false;
}

std::vector<std::pair<QString, QString>> WorkloadsPage::fieldLabels()
{
    return {{QStringLiteral("name"), tr("Name")},
            {QStringLiteral("tenant"), tr("Tenant")},
            {QStringLiteral("model"), tr("Model")},
            {QStringLiteral("gpu"), tr("GPU")},
            {QStringLiteral("tp"), tr("Tensor parallel")},
            {QStringLiteral("daily_active_users"), tr("Daily active users")},
            {QStringLiteral("requests_per_user_per_day"), tr("Requests per user")},
            {QStringLiteral("peak_sessions_per_user"), tr("Peak sessions per user")},
            {QStringLiteral("traffic_variance"), tr("Traffic variance")},
            {QStringLiteral("diurnal"), tr("Diurnal shape")},
            {QStringLiteral("prompt_p50"), tr("Prompt P50")},
            {QStringLiteral("prompt_p95"), tr("Prompt P95")},
            {QStringLiteral("output_p50"), tr("Output P50")},
            {QStringLiteral("output_p95"), tr("Output P95")},
            {QStringLiteral("prefix_hit_rate"), tr("Prefix cache hit rate")},
            {QStringLiteral("shared_prefix_tokens"), tr("Shared prefix")},
            {QStringLiteral("ttft_p95_ms"), tr("TTFT P95")},
            {QStringLiteral("itl_p95_ms"), tr("Inter-token latency P95")},
            {QStringLiteral("measured_goodput_tokens_per_s"), tr("Measured goodput")},
            {QStringLiteral("measured_max_streams"), tr("Measured max streams")},
            {QStringLiteral("goodput_source"), tr("Goodput source")}};
}

void WorkloadsPage::commitField(int index)
{
    if (m_loading)
        return;
    const auto before = m_workspace.workload(currentName());
    if (!before)
        return;
    engine::WorkloadProfile after = *before;
    m_bindings[size_t(index)].store(after);
    if (after.name == before->name && store::workloadToJson(after) == store::workloadToJson(*before))
        return;
    if (after.name != before->name && m_workspace.workload(QString::fromStdString(after.name))) {
        setStatus(tr("Not saved: a workload named \"%1\" exists already.").arg(QString::fromStdString(after.name)), true);
        return;
    }
    if (pushChange(before, after, tr("Edit %1 of %2").arg(m_bindings[size_t(index)].label, currentName()), index))
        setStatus(tr("Saved."));
    else
        loadForm(); // the rejected value goes back to the stored one; the message says why
}

bool WorkloadsPage::pushChange(const std::optional<engine::WorkloadProfile> &before,
                               const std::optional<engine::WorkloadProfile> &after, const QString &text, int mergeField)
{
    if (after) {
        const auto problems = engine::validate(*after);
        if (!problems.empty()) {
            setStatus(tr("Not saved: %1").arg(fieldProblemsText(problems, fieldLabels())), true);
            return false;
        }
        m_list->selectAfterRefresh(QString::fromStdString(after->name));
    }
    try {
        m_undoStack->push(workloadChange(m_workspace, before, after, text, mergeField));
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return false;
    }
    return true;
}

void WorkloadsPage::addWorkload()
{
    engine::WorkloadProfile w;
    int n = m_list->count() + 1;
    do {
        w.name = tr("workload %1").arg(n++).toStdString();
    } while (m_workspace.workload(QString::fromStdString(w.name)));
    const auto models = m_workspace.models();
    const auto gpus = m_workspace.gpus();
    if (models.empty() || gpus.empty()) {
        setStatus(tr("Add a model and a GPU on the Catalog page first."), true);
        return;
    }
    w.modelId = m_workspace.model(QStringLiteral("llama-3.1-8b")) ? "llama-3.1-8b" : models.front().id;
    w.gpuId = m_workspace.gpu(QStringLiteral("h100-sxm")) ? "h100-sxm" : gpus.front().id;
    w.tenant = "default";
    w.dailyActiveUsers = 10000;
    w.requestsPerUserPerDay = 20;
    w.peakSessionsPerUser = 0.1;
    w.diurnal = engine::diurnalShape(engine::DiurnalPreset::BusinessHours);
    w.promptTokens = {1000, 4000};
    w.outputTokens = {200, 800};
    if (pushChange(std::nullopt, w, tr("Add workload %1").arg(QString::fromStdString(w.name))))
        setStatus(tr("Added %1 with example values: replace them with your workload's facts.")
                      .arg(QString::fromStdString(w.name)));
}

void WorkloadsPage::duplicateWorkload()
{
    auto w = m_workspace.workload(currentName());
    if (!w)
        return;
    const std::string base = w->name + " (copy)";
    w->name = base;
    for (int n = 2; m_workspace.workload(QString::fromStdString(w->name)); ++n)
        w->name = base + ' ' + std::to_string(n);
    pushChange(std::nullopt, *w, tr("Duplicate %1").arg(currentName()));
}

void WorkloadsPage::deleteWorkload()
{
    const auto w = m_workspace.workload(currentName());
    if (!w)
        return;
    const QString name = currentName();
    if (pushChange(w, std::nullopt, tr("Delete workload %1").arg(name)))
        setStatus(tr("Deleted %1 (Ctrl+Z brings it back).").arg(name));
}

bool WorkloadsPage::importTrace(const QString &path, QString *error)
{
    const auto before = m_workspace.workload(currentName());
    if (!before) {
        *error = tr("Select or add the workload the trace refines.");
        return false;
    }
    engine::TraceStats stats;
    try {
        const bool mooncake = path.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive);
        const auto requests = mooncake ? store::readMooncakeTrace(path) : store::readAzureTrace(path);
        stats = engine::analyseTrace(requests);
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    } catch (const engine::InputError &e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    engine::WorkloadProfile after = *before;
    after.promptTokens = stats.promptTokens;
    after.outputTokens = stats.outputTokens;
    if (stats.prefixHitRate)
        after.prefixHitRate = *stats.prefixHitRate;
    if (after.dailyActiveUsers > 0)
        after.requestsPerUserPerDay = stats.rateMeanPerS * 86400.0 / after.dailyActiveUsers;
    if (!pushChange(before, after, tr("Refine %1 from %2").arg(currentName(), QFileInfo(path).fileName()))) {
        *error = m_status->text();
        return false;
    }
    setStatus(tr("From %1: %2 requests over %3 s (%4/s on average, peak %5 per minute); prompt P50 %6 / P95 %7 "
                 "tokens, output P50 %8 / P95 %9 tokens%10. Requests per user per day set from the mean rate.")
                  .arg(QFileInfo(path).fileName(), formatCount(stats.requests))
                  .arg(stats.durationS, 0, 'f', 0)
                  .arg(stats.rateMeanPerS, 0, 'f', 2)
                  .arg(formatCount(stats.ratePeakPerMin))
                  .arg(stats.promptTokens.p50, 0, 'f', 0)
                  .arg(stats.promptTokens.p95, 0, 'f', 0)
                  .arg(stats.outputTokens.p50, 0, 'f', 0)
                  .arg(stats.outputTokens.p95, 0, 'f', 0)
                  .arg(stats.prefixHitRate ? tr(", prefix hit rate %1 %").arg(*stats.prefixHitRate * 100, 0, 'f', 1)
                                           : QString()));
    return true;
}

void WorkloadsPage::importTraceWithDialog()
{
    const QString path = Dialogs::openFileName(this, tr("Refine from a request trace"),
                                               tr("Traces (*.csv *.jsonl);;Azure LLM trace (*.csv);;Mooncake (*.jsonl)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!importTrace(path, &error))
        Dialogs::warning(this, tr("Trace not used"), tr("The profile was not changed.\n\n%1").arg(error));
}

void WorkloadsPage::importJsonWithDialog()
{
    const QString path = Dialogs::openFileName(this, tr("Import workload"), tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    try {
        const engine::WorkloadProfile w = store::readWorkloadFile(path);
        pushChange(m_workspace.workload(QString::fromStdString(w.name)), w,
                   tr("Import workload %1").arg(QString::fromStdString(w.name)));
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Import failed"), tr("Nothing was imported.\n\n%1").arg(e.message()));
    }
}

void WorkloadsPage::exportJsonWithDialog()
{
    const auto w = m_workspace.workload(currentName());
    if (!w)
        return;
    const QString path = Dialogs::exportFileName(this, tr("Export workload"), currentName() + QStringLiteral(".json"),
                                                 tr("JSON files (*.json)"), {QStringLiteral("json")});
    if (path.isEmpty())
        return;
    try {
        store::writeExportFile(path, QJsonDocument(store::workloadToJson(*w)).toJson(QJsonDocument::Indented),
                               store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        Dialogs::warning(this, tr("Export failed"), e.message());
        return;
    }
    setStatus(tr("Exported %1 to %2.").arg(currentName(), path));
}

void WorkloadsPage::setStatus(const QString &text, bool error)
{
    m_status->setText(error ? QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text.toHtmlEscaped()) : text);
}

QString WorkloadsPage::statusText() const
{
    return m_status->text();
}

} // namespace headroom::ui
