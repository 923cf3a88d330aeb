#include "calibrationdialog.h"

#include "catalog/catalogcommand.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/columnfit.h"
#include "common/dialogs.h"
#include "common/fields.h"
#include "common/format.h"

#include "engine/common/errors.h"
#include "store/catalog/catalogjson.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/serving/benchjson.h"
#include "store/serving/steptimecsv.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoStack>
#include <QLogValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

void selectData(QComboBox *combo, const QVariant &value)
{
    const int index = combo->findData(value);
    if (index >= 0)
        combo->setCurrentIndex(index);
}

QString ms(double value)
{
    return QString::number(value, 'f', value < 10 ? 3 : value < 1000 ? 2 : 1);
}

QString signedPercent(double value)
{
    const double rounded = std::round(value * 10.0) / 10.0;
    return (rounded > 0 ? QStringLiteral("+") : QString()) + QString::number(rounded == 0 ? 0.0 : rounded, 'f', 1);
}

QTableWidgetItem *cell(const QString &text, bool number)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// Measured against predicted on log–log axes (the points span milliseconds to seconds), with
// the fitted and the prior predictions and the line where they agree.
ChartFigure pointsFigure(const engine::CalibrationResult &fit, const std::vector<engine::CalibrationPoint> &prior,
                         const QString &shortName, const QString &deployment)
{
    ChartFigure figure;
    figure.title = QObject::tr("Measured against predicted: %1").arg(shortName);
    figure.caption = QObject::tr("%1. Each point is a measured pass, a benchmark run's mean (TTFT, TPOT, E2E) or a "
                                 "served hour's median (TTFT, E2E); "
                                 "on the diagonal the model agrees. Mean |error| %2 % fitted, %3 % with the "
                                 "prior coefficients.")
                         .arg(deployment)
                         .arg(fit.meanAbsErrorPct, 0, 'f', 1)
                         .arg(fit.priorMeanAbsErrorPct, 0, 'f', 1);
    figure.build = [points = fit.points, prior, title = figure.title](QChart::ChartTheme theme) {
        QChart *chart = newStyledChart(title, theme);
        double lo = 1e300, hi = 0;
        for (const auto *set : {&points, &prior})
            for (const engine::CalibrationPoint &p : *set) {
                lo = std::min({lo, p.measuredMs, p.predictedMs});
                hi = std::max({hi, p.measuredMs, p.predictedMs});
            }
        if (!(hi > 0)) {
            lo = 1;
            hi = 10;
        }
        lo = std::pow(10.0, std::floor(std::log10(std::max(lo, 1e-6))));
        hi = std::pow(10.0, std::ceil(std::log10(hi)));
        if (hi <= lo)
            hi = lo * 10;
        auto *x = new QLogValueAxis;
        x->setTitleText(QObject::tr("Measured (ms)"));
        x->setLabelFormat(QStringLiteral("%g"));
        x->setRange(lo, hi);
        auto *y = new QLogValueAxis;
        y->setTitleText(QObject::tr("Predicted (ms)"));
        y->setLabelFormat(QStringLiteral("%g"));
        y->setRange(lo, hi);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        const auto attach = [&](QAbstractSeries *series) {
            chart->addSeries(series);
            series->attachAxis(x);
            series->attachAxis(y);
        };
        auto *diagonal = new QLineSeries;
        diagonal->setName(QObject::tr("Agreement"));
        QPen pen(QColor(0x80, 0x80, 0x80));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.2);
        diagonal->setPen(pen);
        diagonal->append(lo, lo);
        diagonal->append(hi, hi);
        attach(diagonal);
        auto *before = new QScatterSeries;
        before->setName(QObject::tr("Prior coefficients"));
        before->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        before->setMarkerSize(7);
        before->setColor(QColor(0xb0, 0xb0, 0xb0));
        before->setBorderColor(QColor(0x70, 0x70, 0x70));
        for (const engine::CalibrationPoint &p : prior)
            before->append(p.measuredMs, p.predictedMs);
        attach(before);
        auto *after = new QScatterSeries;
        after->setName(QObject::tr("Fitted"));
        after->setMarkerSize(9);
        after->setColor(QColor(0x1f, 0x77, 0xb4));
        after->setBorderColor(QColor(0x10, 0x3c, 0x5a));
        for (const engine::CalibrationPoint &p : points)
            after->append(p.measuredMs, p.predictedMs);
        attach(after);
        return chart;
    };
    return figure;
}

} // namespace

CalibrationDialog::CalibrationDialog(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("calibrationDialog");
    setWindowTitle(tr("Calibrate the step-cost model"));

    auto *inputs = new QWidget(this);
    auto *form = new QFormLayout;
    m_model = new QComboBox(inputs);
    m_model->setObjectName("calModel");
    m_model->setToolTip(tr("The model the measurements were taken with"));
    m_gpu = new QComboBox(inputs);
    m_gpu->setObjectName("calGpu");
    m_gpu->setToolTip(tr("The GPU they ran on; a saved fit becomes this GPU's profile"));
    m_weights = new QComboBox(inputs);
    m_weights->setObjectName("calWeights");
    for (auto p : {engine::WeightPrecision::Bf16, engine::WeightPrecision::Fp16, engine::WeightPrecision::Fp8,
                   engine::WeightPrecision::Int8, engine::WeightPrecision::Int4})
        m_weights->addItem(upperName(engine::toString(p)), int(p));
    m_kv = new QComboBox(inputs);
    m_kv->setObjectName("calKv");
    for (auto p : {engine::KvPrecision::Bf16, engine::KvPrecision::Fp8})
        m_kv->addItem(upperName(engine::toString(p)), int(p));
    m_tp = newSpinBox(inputs, "calTp", 1, 64, 1, QString(), tr("Tensor parallelism the measurements ran at: GPUs per replica, 1–64"));
    m_stepTimes = new QLineEdit(inputs);
    m_stepTimes->setObjectName("calStepTimes");
    m_stepTimes->setPlaceholderText(tr("none"));
    m_stepTimes->setToolTip(tr("Measured passes, CSV phase,batch,context_tokens,prefill_tokens,ms: a decode point is "
                               "b sequences at a context, a prefill point a prompt's pass alone"));
    auto *stepBrowse = new QPushButton(tr("Browse…"), inputs);
    connect(stepBrowse, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::openFileName(this, tr("Choose a step-time table"), tr("Step-time tables (*.csv);;All files (*)"));
        if (!path.isEmpty())
            m_stepTimes->setText(path);
    });
    m_servedHours = new QComboBox(inputs);
    m_servedHours->setObjectName("calServedHours");
    m_servedHours->setToolTip(tr("vLLM's Prometheus metrics the Tracking page imported: each replica-hour of the "
                                 "deployment (at least %1 completed requests) is replayed at its request rate with "
                                 "its mean prompt and output lengths, and the median TTFT and E2E of its "
                                 "histograms compared").arg(kMinServedHourRequests));
    auto *stepRow = new QHBoxLayout;
    stepRow->addWidget(m_stepTimes, 1);
    stepRow->addWidget(stepBrowse);
    m_benches = new QListWidget(inputs);
    m_benches->setObjectName("calBenches");
    m_benches->setToolTip(tr("`vllm bench serve --save-result` files, one per request rate or concurrency: their "
                             "requests are replayed through the serving simulation and the mean TTFT, TPOT and "
                             "E2E compared"));
    m_benches->setMinimumHeight(90);
    auto *addBench = new QPushButton(tr("Add…"), inputs);
    connect(addBench, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::openFileName(this, tr("Choose a vllm bench serve result"), tr("Benchmark results (*.json);;All files (*)"));
        if (!path.isEmpty())
            addBenchResult(path);
    });
    auto *removeBench = new QPushButton(tr("Remove"), inputs);
    connect(removeBench, &QPushButton::clicked, this, [this] { delete m_benches->currentItem(); });
    auto *benchButtons = new QHBoxLayout;
    benchButtons->addWidget(addBench);
    benchButtons->addWidget(removeBench);
    benchButtons->addStretch(1);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("&GPU:"), m_gpu);
    form->addRow(tr("&Weights:"), m_weights);
    form->addRow(tr("&KV cache:"), m_kv);
    form->addRow(tr("&TP (GPUs per replica):"), m_tp);
    form->addRow(tr("Step times:"), stepRow);
    form->addRow(tr("Served &hours:"), m_servedHours);
    auto *benchLabel = new QLabel(tr("&Benchmark results (vllm bench serve --save-result JSON, one per rate):"), inputs);
    benchLabel->setBuddy(m_benches);
    benchLabel->setWordWrap(true);
    auto *inputsLayout = new QVBoxLayout(inputs);
    inputsLayout->setContentsMargins(0, 0, 0, 0);
    inputsLayout->addLayout(form);
    inputsLayout->addWidget(benchLabel);
    inputsLayout->addWidget(m_benches);
    inputsLayout->addLayout(benchButtons);
    inputsLayout->addStretch(1);

    m_fitButton = new QPushButton(tr("&Fit"), this);
    m_fitButton->setObjectName("calFit");
    m_fitButton->setToolTip(tr("Fit the coefficients to the measurements (Ctrl+Return)"));
    m_fitButton->setDefault(true);
    connect(m_fitButton, &QPushButton::clicked, this, [this] { fit(); });
    auto *shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(shortcut, &QShortcut::activated, this, [this] { fit(); });
    m_cancelButton = new QPushButton(tr("Cancel fit"), this);
    m_cancelButton->setEnabled(false);
    connect(m_cancelButton, &QPushButton::clicked, this, &CalibrationDialog::cancel);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(tr("Choose the deployment and its measurements, then Fit."), this);
    m_status->setObjectName("calStatus");
    m_status->setWordWrap(true);
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_fitButton);
    runRow->addWidget(m_cancelButton);
    runRow->addWidget(m_progress, 1);
    runRow->addStretch(0);
    m_progress->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_progress->setVisible(true);
    m_progress->setTextVisible(false);

    auto *tabs = new QTabWidget(this);
    m_chart = new ChartPanel(tabs);
    m_chart->setObjectName("calChart");
    m_chart->setMinimumHeight(300);
    tabs->addTab(m_chart, tr("Measured against predicted"));
    m_points = new QTableWidget(0, 6, tabs);
    m_points->setObjectName("calPoints");
    m_points->setHorizontalHeaderLabels({tr("Point"), tr("Metric"), tr("Measured (ms)"), tr("Predicted (ms)"),
                                         tr("Error (%)"), tr("Prior error (%)")});
    m_points->verticalHeader()->setVisible(false);
    tabs->addTab(m_points, tr("Points"));
    m_coefficients = new QTableWidget(0, 3, tabs);
    m_coefficients->setObjectName("calCoefficients");
    m_coefficients->setHorizontalHeaderLabels({tr("Coefficient"), tr("Prior"), tr("Fitted")});
    m_coefficients->verticalHeader()->setVisible(false);
    tabs->addTab(m_coefficients, tr("Coefficients"));
    ColumnFit::fitColumns(m_points);
    ColumnFit::fitColumns(m_coefficients);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_saveButton = buttons->addButton(tr("&Save for this deployment"), QDialogButtonBox::ActionRole);
    m_saveButton->setObjectName("calSave");
    m_saveButton->setToolTip(tr("Keep the fitted coefficients as this deployment's profile (the model at this TP "
                                "and weight precision on the GPU): sizing and simulation of it use them; other "
                                "models and TPs keep the GPU's profile (Edit ▸ Undo takes it back)"));
    m_saveButton->setEnabled(false);
    connect(m_saveButton, &QPushButton::clicked, this, [this] { save(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(inputs);
    splitter->addWidget(tabs);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addLayout(runRow);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(1180, 640);

    fillCatalogs();
    selectData(m_model, QStringLiteral("llama-3.1-8b"));
    selectData(m_gpu, QStringLiteral("h100-sxm"));
}

CalibrationDialog::~CalibrationDialog() = default;

void CalibrationDialog::fillCatalogs()
{
    for (const auto &m : m_workspace.models())
        m_model->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    for (const auto &g : m_workspace.gpus())
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    m_servedHours->addItem(tr("none"), QString());
    QStringList deployments;
    for (const engine::ServingHour &h : m_workspace.servingHours().hours)
        if (!deployments.contains(QString::fromStdString(h.deployment)))
            deployments << QString::fromStdString(h.deployment);
    for (const QString &d : deployments)
        m_servedHours->addItem(tr("deployment %1").arg(d), d);
    m_servedHours->setEnabled(!deployments.isEmpty());
}

void CalibrationDialog::setDeployment(const QString &modelId, const QString &gpuId, engine::WeightPrecision weights,
                                      engine::KvPrecision kv, int tp)
{
    selectData(m_model, modelId);
    selectData(m_gpu, gpuId);
    selectData(m_weights, int(weights));
    selectData(m_kv, int(kv));
    m_tp->setValue(tp);
}

void CalibrationDialog::setStepTimes(const QString &path)
{
    m_stepTimes->setText(path);
}

bool CalibrationDialog::setServedHours(const QString &deployment)
{
    const int index = m_servedHours->findData(deployment);
    if (index < 0)
        return false;
    m_servedHours->setCurrentIndex(index);
    return true;
}

void CalibrationDialog::addBenchResult(const QString &path)
{
    auto *item = new QListWidgetItem(QFileInfo(path).fileName(), m_benches);
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
}

QString CalibrationDialog::status() const
{
    return m_status->text();
}

void CalibrationDialog::setStatus(const QString &text)
{
    m_status->setText(text);
}

bool CalibrationDialog::fit()
{
    if (m_job.isRunning()) {
        setStatus(tr("A fit is under way: wait for it or Cancel."));
        return false;
    }
    const QString modelId = m_model->currentData().toString();
    const QString gpuId = m_gpu->currentData().toString();
    const QString stepTimes = m_stepTimes->text().trimmed();
    const QString servedDeployment = m_servedHours->currentData().toString();
    if (stepTimes.isEmpty() && m_benches->count() == 0 && servedDeployment.isEmpty()) {
        setStatus(tr("Give measurements: a step-time CSV, benchmark results or served hours."));
        return false;
    }
    const auto weights = engine::WeightPrecision(m_weights->currentData().toInt());
    const auto kv = engine::KvPrecision(m_kv->currentData().toInt());
    try {
        const auto model = m_workspace.model(modelId);
        const auto gpu = m_workspace.gpu(gpuId);
        if (!model || !gpu) {
            setStatus(tr("Choose a model and a GPU from the catalog."));
            return false;
        }
        m_inputs = engine::calibrationDeployment(*model, *gpu, weights, kv, m_tp->value(), m_workspace.servingAssumptions());
        m_sources.clear();
        if (!stepTimes.isEmpty()) {
            m_inputs.passes = engine::passObservations(m_inputs.model, store::readStepTimes(stepTimes));
            m_sources << QFileInfo(stepTimes).fileName();
        }
        for (int i = 0; i < m_benches->count(); ++i) {
            const QString path = m_benches->item(i)->data(Qt::UserRole).toString();
            m_inputs.runs.push_back(store::readBenchResult(path));
            m_sources << QFileInfo(path).fileName();
        }
        if (!servedDeployment.isEmpty()) {
            for (engine::BenchmarkRun &run : engine::servedHourRuns(m_workspace.servingHours(), servedDeployment.toStdString(),
                                                                    kMinServedHourRequests))
                m_inputs.runs.push_back(std::move(run));
            m_sources << tr("served hours of %1").arg(servedDeployment);
        }
    } catch (const store::StoreError &e) {
        setStatus(e.message());
        return false;
    } catch (const engine::InputError &e) {
        setStatus(tr("%1: %2").arg(QString::fromStdString(e.field()), QString::fromUtf8(e.what())));
        return false;
    }
    m_deployment = tr("%1 on %2, TP %3 (%4 weights, %5 KV)")
                       .arg(modelId, gpuId)
                       .arg(m_tp->value())
                       .arg(QString::fromUtf8(engine::toString(weights).data()), QString::fromUtf8(engine::toString(kv).data()));
    m_gpuId = gpuId.toStdString();
    m_target = engine::DeploymentProfile{modelId.toStdString(), m_tp->value(), weights, {}};
    m_shortName = tr("%1 on %2, TP %3").arg(modelId, gpuId).arg(m_tp->value());
    m_error.clear();
    m_fitButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setValue(0);
    setStatus(tr("Fitting %1 to %2…").arg(m_deployment, m_sources.join(QStringLiteral(", "))));
    m_job.start(
        this, m_progress,
        [this](const JobProgress &progress) {
            engine::CalibrationInputs inputs = m_inputs;
            inputs.progress = [&progress](double share) { return progress.report(share); };
            try {
                m_pending = engine::calibrate(inputs);
            } catch (const engine::InputError &e) {
                m_error = QStringLiteral("%1: %2").arg(QString::fromStdString(e.field()), QString::fromUtf8(e.what()));
            }
        },
        [this] {
            m_fitButton->setEnabled(true);
            m_cancelButton->setEnabled(false);
            m_progress->setValue(m_error.isEmpty() && !m_pending.cancelled ? m_progress->maximum() : 0);
            if (!m_error.isEmpty()) {
                setStatus(m_error);
            } else if (m_pending.cancelled) {
                setStatus(tr("Fit cancelled; the results shown are unchanged."));
            } else {
                m_result = m_pending;
                m_resultDeployment = m_deployment;
                m_resultSources = m_sources;
                m_resultGpuId = m_gpuId;
                m_resultTarget = m_target;
                m_resultShortName = m_shortName;
                showResult();
            }
            emit fitFinished();
        });
    return true;
}

void CalibrationDialog::cancel()
{
    m_job.cancel();
}

void CalibrationDialog::showResult()
{
    const engine::CalibrationResult &fit = *m_result;
    engine::CalibrationInputs inputs = m_inputs;
    const std::vector<engine::CalibrationPoint> prior =
        engine::predictPoints(inputs, inputs.model.efficiency, inputs.serving.requestOverheadMs);
    m_points->setRowCount(int(fit.points.size()));
    for (int row = 0; row < int(fit.points.size()); ++row) {
        const engine::CalibrationPoint &p = fit.points[size_t(row)];
        m_points->setItem(row, 0, cell(QString::fromStdString(p.label), false));
        m_points->setItem(row, 1, cell(QString::fromStdString(p.metric), false));
        m_points->setItem(row, 2, cell(ms(p.measuredMs), true));
        m_points->setItem(row, 3, cell(ms(p.predictedMs), true));
        m_points->setItem(row, 4, cell(signedPercent(p.errorPct), true));
        m_points->setItem(row, 5, cell(row < int(prior.size()) ? signedPercent(prior[size_t(row)].errorPct) : QString(), true));
    }
    m_coefficients->setRowCount(int(fit.coefficients.size()));
    for (int row = 0; row < int(fit.coefficients.size()); ++row) {
        const engine::CalibrationCoefficient &c = fit.coefficients[size_t(row)];
        m_coefficients->setItem(row, 0, cell(QString::fromStdString(c.name), false));
        m_coefficients->setItem(row, 1, cell(QString::number(c.prior, 'f', 3), true));
        m_coefficients->setItem(row, 2, cell(QString::number(c.fitted, 'f', 3), true));
    }
    m_chart->setFigure(pointsFigure(fit, prior, m_resultShortName, m_resultDeployment));
    m_saveButton->setEnabled(true);
    QString text = tr("Fitted %1 in %2 iterations: mean |error| %3 % (prior coefficients %4 %), largest %5 %.")
                       .arg(m_resultDeployment)
                       .arg(fit.iterations)
                       .arg(fit.meanAbsErrorPct, 0, 'f', 1)
                       .arg(fit.priorMeanAbsErrorPct, 0, 'f', 1)
                       .arg(fit.maxAbsErrorPct, 0, 'f', 1);
    for (const engine::CalibrationCoefficient &c : fit.coefficients)
        if (c.name == "request_overhead_ms")
            text += tr(" Per-request time fitted: %1 ms (Serving assumptions set it).").arg(c.fitted, 0, 'f', 1);
    setStatus(text);
}

bool CalibrationDialog::save()
{
    if (!m_result)
        return false;
    const QString gpuId = QString::fromStdString(m_resultGpuId);
    std::optional<engine::GpuSpec> gpu = m_workspace.gpu(gpuId);
    if (!gpu) {
        setStatus(tr("GPU %1 is no longer in the catalog; nothing saved.").arg(gpuId));
        return false;
    }
    std::vector<std::string> sources;
    for (const QString &s : m_resultSources)
        sources.push_back(s.toStdString());
    const std::optional<QJsonObject> before = catalogEntry(m_workspace, CatalogKind::Gpus, gpuId);
    engine::DeploymentProfile profile = m_resultTarget;
    profile.efficiency = engine::calibratedProfile(*m_result, m_resultDeployment.toStdString(), sources);
    gpu->putCalibration(profile);
    auto *command = new CatalogChangeCommand(m_workspace, CatalogKind::Gpus, {{gpuId, before, store::gpuToJson(*gpu)}},
                                             tr("Calibrate %1").arg(m_resultShortName));
    try {
        if (m_undoStack) {
            m_undoStack->push(command);
        } else {
            command->redo();
            delete command;
        }
    } catch (const store::StoreError &e) {
        setStatus(e.message());
        return false;
    }
    setStatus(tr("Saved as the calibrated profile of %1: sizing and simulation of that deployment use it now; "
                 "other models and TPs on %2 keep its catalog profile.")
                  .arg(m_resultShortName, gpuId));
    return true;
}

} // namespace headroom::ui
