#include "scenarioyamlpanel.h"

#include "common/dialogs.h"
#include "common/format.h"
#include "engine/common/errors.h"
#include "store/fleet/autoscaleyaml.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace headroom::ui {

namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

ScenarioYamlPanel::ScenarioYamlPanel(store::Workspace &workspace, std::function<QString()> currentName,
                                     QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_currentName(std::move(currentName))
{
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_plan = new QComboBox(this);
    m_plan->setObjectName("scenarioYamlPlan");
    m_plan->setToolTip(tr("Elastic pool and workload whose scaling objects are shown"));
    m_yamlKind = new QComboBox(this);
    m_yamlKind->setObjectName("scenarioYamlKind");
    m_yamlKind->addItem(tr("KEDA ScaledObject (scale on queue depth)"), QStringLiteral("keda"));
    m_yamlKind->addItem(tr("DRA ResourceClaimTemplate (prioritized GPUs)"), QStringLiteral("dra"));
    m_yamlKind->setToolTip(tr("KEDA scales the elastic Deployment on waiting requests; the DRA claim asks for the "
                              "pool's GPU first and the fallbacks after it"));
    m_tolerance = new QCheckBox(tr("HPA tolerance (Kubernetes 1.33+)"), this);
    m_tolerance->setObjectName("scenarioYamlTolerance");
    m_tolerance->setChecked(true);
    m_tolerance->setToolTip(tr("Write the scenario's HPA tolerance on scale-up and scale-down. The field needs "
                               "Kubernetes 1.33 or later with the HPAConfigurableTolerance feature gate; untick it "
                               "for other clusters, where the cluster-wide tolerance (0.1 by default) applies"));
    form->addRow(tr("Elastic pool:"), m_plan);
    form->addRow(tr("Object:"), m_yamlKind);
    form->addRow(QString(), m_tolerance);
    layout->addLayout(form);
    m_planNote = new QLabel(this);
    m_planNote->setObjectName("scenarioYamlNote");
    m_planNote->setWordWrap(true);
    m_planNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_planNote);
    m_yaml = new QPlainTextEdit(this);
    m_yaml->setObjectName("scenarioYaml");
    m_yaml->setReadOnly(true);
    m_yaml->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_yaml->setFont(mono);
    layout->addWidget(m_yaml, 1);
    auto *buttons = new QHBoxLayout;
    auto *copy = new QPushButton(tr("Cop&y YAML"), this);
    auto *save = new QPushButton(tr("&Save YAML…"), this);
    connect(copy, &QPushButton::clicked, this, &ScenarioYamlPanel::copyYaml);
    connect(save, &QPushButton::clicked, this, &ScenarioYamlPanel::saveYamlWithDialog);
    buttons->addWidget(copy);
    buttons->addWidget(save);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_plan, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading)
            updateYaml();
    });
    connect(m_yamlKind, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading)
            updateYaml();
    });
    connect(m_tolerance, &QCheckBox::toggled, this, [this] {
        if (!m_loading)
            updateYaml();
    });
}

void ScenarioYamlPanel::refresh(const std::optional<engine::ScenarioResult> &result)
{
    m_result = result;
    updateYaml();
}

void ScenarioYamlPanel::updateYaml()
{
    if (!m_plan)
        return;
    const auto scenario = m_workspace.scenario(m_currentName());
    const int previous = m_plan->currentIndex();
    m_plans.clear();
    QString note;
    if (scenario && m_result) {
        try {
            m_plans = engine::planScenarioAutoscale(*scenario, store::scenarioInputs(m_workspace), *m_result);
        } catch (const engine::InputError &e) {
            note = tr("No scaling plan: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    const bool wasLoading = m_loading;
    m_loading = true;
    m_plan->clear();
    for (const auto &p : m_plans)
        m_plan->addItem(tr("%1 — %2").arg(qs(p.pool), qs(engine::autoscaleDeploymentName(p))));
    m_plan->setCurrentIndex(previous >= 0 && previous < m_plan->count() ? previous : (m_plan->count() ? 0 : -1));
    m_loading = wasLoading;

    const int index = m_plan->currentIndex();
    if (index < 0 || index >= int(m_plans.size())) {
        m_yaml->setPlainText(QString());
        m_planNote->setText(note.isEmpty() ? tr("This scenario has no elastic pool serving a workload: add an "
                                                "on-demand or spot pool to get KEDA and DRA objects.")
                                           : note);
        return;
    }
    const engine::AutoscalePlan &plan = m_plans[size_t(index)];
    const bool dra = m_yamlKind->currentData().toString() == QLatin1String("dra");
    m_tolerance->setEnabled(!dra);
    std::string text;
    QStringList omitted; // DRA alternatives past the API's limit
    try {
        if (dra) {
            const auto alternatives = engine::deviceAlternatives(m_workspace.gpus(), plan.gpuId,
                                                                 scenario->autoscale.fallbackGpuIds,
                                                                 plan.gpusPerReplica);
            store::requireName("pool", "the elastic pool's name", plan.pool);
            store::requireName("workload", "the workload's name", plan.workload);
            text = store::draResourceClaimTemplateYaml(plan.pool + "-" + plan.workload + "-gpu",
                                                       plan.kubernetesNamespace, alternatives);
            for (size_t i = engine::kMaxFirstAvailable; i < alternatives.size(); ++i)
                omitted << qs(alternatives[i].gpuId);
        } else {
            store::requireName("pool", "the elastic pool's name", plan.pool);
            store::requireName("workload", "the workload's name", plan.workload);
            store::KedaYamlOptions options;
            options.tolerance = m_tolerance->isChecked();
            text = store::kedaScaledObjectYaml(plan, engine::autoscaleDeploymentName(plan) + "-" + plan.pool, nullptr,
                                               options);
        }
    } catch (const engine::InputError &e) {
        m_yaml->setPlainText(QString());
        m_planNote->setText(tr("Cannot write the YAML: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    m_yaml->setPlainText(qs(text));
    QString planNote =
        tr("%1 on %2: up to %3 requests/s per replica hold the SLO; the TTFT SLO leaves %4 s of queueing, so the "
           "fleet queue target is %5 requests (Little's law) and KEDA's threshold per replica %6 at %7. "
           "Replicas %8–%9, HPA tolerance %10, cooldown %11 s.")
            .arg(qs(plan.workload), qs(plan.gpuId))
            .arg(plan.requestsPerSPerReplica, 0, 'f', 2)
            .arg(plan.allowedQueueDelayS, 0, 'f', 2)
            .arg(plan.fleetQueueTarget, 0, 'f', 1)
            .arg(plan.thresholdPerReplica, 0, 'f', 1)
            .arg(formatCountOf(plan.peakReplicas, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
            .arg(plan.minReplicas)
            .arg(plan.maxReplicas)
            .arg(plan.tolerance, 0, 'f', 2)
            .arg(plan.cooldownSeconds);
    if (!omitted.isEmpty())
        planNote += QLatin1Char(' ')
                    + tr("A DRA request takes at most %1 alternatives; left out: %2.")
                          .arg(engine::kMaxFirstAvailable)
                          .arg(omitted.join(QLatin1String(", ")));
    m_planNote->setText(planNote);
}

QString ScenarioYamlPanel::yamlText() const
{
    return m_yaml->toPlainText();
}

void ScenarioYamlPanel::showYaml(const QString &kind)
{
    m_yamlKind->setCurrentIndex(std::max(0, m_yamlKind->findData(kind)));
    updateYaml();
}

void ScenarioYamlPanel::copyYaml()
{
    if (yamlText().isEmpty())
        return;
    QApplication::clipboard()->setText(yamlText());
    emit yamlCopied();
}

bool ScenarioYamlPanel::saveYaml(const QString &path, QString *error, store::ExistingFile existing) const
{
    if (yamlText().isEmpty()) {
        *error = tr("There is no YAML to save: the scenario has no elastic pool serving a workload.");
        return false;
    }
    try {
        store::writeExportFile(path, yamlText().toUtf8(), existing);
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    return true;
}

void ScenarioYamlPanel::saveYamlWithDialog()
{
    const QString kind = m_yamlKind->currentData().toString();
    const QString suggested = engine::kubernetesName(m_currentName().toStdString()).empty()
                                  ? QStringLiteral("scenario")
                                  : qs(engine::kubernetesName(m_currentName().toStdString()));
    const QString path = Dialogs::exportFileName(this, tr("Save YAML"),
                                                 suggested + QLatin1Char('-') + kind + QStringLiteral(".yaml"),
                                                 tr("YAML files (*.yaml *.yml)"),
                                                 {QStringLiteral("yaml"), QStringLiteral("yml")});
    if (path.isEmpty())
        return;
    QString error;
    if (!saveYaml(path, &error, store::ExistingFile::Replace)) {
        Dialogs::warning(this, tr("Save failed"), error);
        return;
    }
    emit yamlSaved(path);
}

} // namespace headroom::ui
