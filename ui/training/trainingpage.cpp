#include "trainingpage.h"
#include "clusterpanel.h"
#include "goodputpanel.h"

#include "common/fields.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "common/format.h"
#include "store/common/workspace.h"
#include "trainingcharts.h"
#include "trainingsizing.h"

#include <QComboBox>
#include <QDate>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

QString days(double value)
{
    return formatNumber(value, value < 10 ? 2 : 1);
}

QString text(const std::string &value)
{
    return QString::fromStdString(value);
}

// "YYYY-MM-DD" + hours → the date of that hour.
QString dateAfterHours(const std::string &start, int64_t hours)
{
    const QDate date = QDate::fromString(text(start), Qt::ISODate);
    return date.isValid() ? date.addDays(hours / 24).toString(Qt::ISODate) : QString();
}

} // namespace

TrainingPage::TrainingPage(store::Workspace &workspace, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
{
    setObjectName("trainingPage");
    m_gpusCard = newResultCard("trainingGpusCard");
    m_daysCard = newResultCard("trainingDaysCard");
    m_gpuHoursCard = newResultCard("trainingGpuHoursCard");
    m_costCard = newResultCard("trainingCostCard");
    auto *cards = new QHBoxLayout;
    for (QLabel *c : {m_gpusCard, m_daysCard, m_gpuHoursCard, m_costCard})
        cards->addWidget(c);

    m_memoryChart = new ChartPanel(this);
    m_memoryChart->setObjectName("trainingMemoryChart");
    m_daysChart = new ChartPanel(this);
    m_daysChart->setObjectName("trainingDaysChart");
    m_mixChart = new ChartPanel(this);
    m_mixChart->setObjectName("trainingMixChart");
    m_growthChart = new ChartPanel(this);
    m_growthChart->setObjectName("trainingGrowthChart");
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName("trainingChartTabs");
    m_chartTabs->addTab(m_memoryChart, tr("Memory per GPU by ZeRO stage"));
    m_chartTabs->addTab(m_daysChart, tr("Days vs GPUs"));
    m_chartTabs->addTab(m_mixChart, tr("Mixed cluster"));
    m_chartTabs->addTab(m_growthChart, tr("Growth"));
    m_goodput = new GoodputPanel(this);
    m_chartTabs->addTab(m_goodput, tr("Goodput"));
    m_chartTabs->setTabToolTip(4, tr("Pollux's goodput: the batch and GPU count that make the most progress a second, "
                                     "from the job's measured step times and gradient noise scale"));
    m_cluster = new ClusterPanel(this);
    m_chartTabs->addTab(m_cluster, tr("Cluster"));
    m_chartTabs->setTabToolTip(5, tr("A job mix on a shared cluster: fixed GPUs and batch per job against co-adaptive "
                                     "allocation (Pollux), on Pollux's published workloads or your own"));
    connect(m_chartTabs, &QTabWidget::currentChanged, this, [this] {
        auto *panel = qobject_cast<ChartPanel *>(m_chartTabs->currentWidget());
        const auto pending = m_pendingFigures.find(panel);
        if (pending != m_pendingFigures.end()) {
            ChartFigure figure = std::move(pending->second);
            m_pendingFigures.erase(pending);
            panel->setFigure(std::move(figure));
        }
    });

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(cards);
    topLayout->addWidget(m_chartTabs, 1);

    m_table = newResultsTable("trainingResults");
    m_table->setColumnCount(2);
    m_table->setHorizontalHeaderLabels({tr("Result"), tr("Value")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_mixTable = newResultsTable("trainingMixTable");
    m_mixTable->setColumnCount(3);
    m_mixTable->setHorizontalHeaderLabels({tr("Shared cluster"), tr("Partitioned"), tr("Dynamic sharing")});
    m_mixTable->horizontalHeader()->setStretchLastSection(true);
    // The job's results and the shared cluster's, one at a time at the page's full width.
    auto *tables = new QTabWidget(this);
    tables->setObjectName("trainingTableTabs");
    tables->setDocumentMode(true);
    tables->addTab(m_table, tr("Training job"));
    tables->addTab(m_mixTable, tr("Shared cluster"));
    tables->setTabToolTip(1, tr("The job beside the inference workloads: one shared cluster, partitioned or "
                                "dynamically shared"));
    m_layoutTable = newResultsTable("trainingLayouts");
    m_layoutTable->setColumnCount(10);
    m_layoutTable->setHorizontalHeaderLabels({tr("TP"), tr("PP × chunks"), tr("EP"), tr("DP"), tr("ZeRO"), tr("Recompute"),
                                              tr("Memory per GPU"), tr("Step (s)"), tr("Of it communicating"),
                                              tr("Days")});
    m_layoutTable->horizontalHeader()->setStretchLastSection(true);
    tables->addTab(m_layoutTable, tr("Layouts searched"));
    tables->setTabToolTip(2, tr("Where the job leaves TP, PP, EP or the ZeRO stage open: the five fastest layouts "
                                "that fit memory, by the modelled step"));
    m_explanation = newExplanation("trainingExplanation");
    m_explanation->setTextFormat(Qt::RichText);

    layOutPage(buildInputs(), resultsColumn(top, tables, m_explanation), 330);

    connect(&m_workspace, &store::Workspace::trainingJobsChanged, this, &TrainingPage::refreshJobs);
    connect(&m_workspace, &store::Workspace::rateCardsChanged, this, &TrainingPage::refreshRateCards);
    connect(&m_workspace, &store::Workspace::workloadsChanged, this, &TrainingPage::recompute);
    connect(&m_workspace, &store::Workspace::gpusChanged, this, &TrainingPage::recompute);
    connect(&m_workspace, &store::Workspace::modelsChanged, this, &TrainingPage::recompute);
    m_updating = true;
    refreshRateCards();
    refreshJobs();
    m_updating = false;
    recompute();
}

QWidget *TrainingPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);

    auto *jobBox = new QGroupBox(tr("Training job"), panel);
    auto *jobForm = new QFormLayout(jobBox);
    m_job = new QComboBox(jobBox);
    m_job->setObjectName("trainingJob");
    m_job->setToolTip(tr("Training job to size (edit it on the Training jobs page)"));
    jobForm->addRow(tr("Job:"), m_job);
    connect(m_job, &QComboBox::currentIndexChanged, this, [this] {
        // Follow the job's GPU with the price when the chosen card is for another GPU.
        const auto job = m_workspace.trainingJob(m_job->currentText());
        const QString key = m_rateCard->currentData().toString();
        const auto card = key.isEmpty() ? std::nullopt : m_workspace.rateCard(key);
        if (job && card && card->gpuId != job->gpuId) {
            const bool wasUpdating = m_updating;
            m_updating = true;
            for (int i = m_rateCard->count() - 1; i > 0; --i)
                if (m_rateCard->itemData(i).toString().contains(QStringLiteral("/%1@").arg(text(job->gpuId)))) {
                    m_rateCard->setCurrentIndex(i);
                    break;
                }
            m_updating = wasUpdating;
        }
        recompute();
    });

    auto *priceBox = new QGroupBox(tr("Price"), panel);
    auto *priceForm = new QFormLayout(priceBox);
    m_rateCard = new QComboBox(priceBox);
    m_rateCard->setObjectName("trainingRateCard");
    m_rateCard->setToolTip(tr("Rate card for the cost of the GPU-hours, the spot interruption rate of a "
                              "preemptible job and the reservation lead time of the growth plan"));
    m_rateCard->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rateCard->setMinimumContentsLength(18);
    m_term = new QComboBox(priceBox);
    m_term->setObjectName("trainingPriceTerm");
    for (PriceTerm term : {PriceTerm::OnDemand, PriceTerm::Reserved1y, PriceTerm::Reserved3y, PriceTerm::Spot})
        m_term->addItem(trainingTermName(term), int(term));
    m_term->setToolTip(tr("Which rate of the card the job's GPU-hours are paid at; a rate the card does not offer "
                          "falls back to on-demand"));
    priceForm->addRow(tr("Rate card:"), m_rateCard);
    priceForm->addRow(tr("Rate:"), m_term);
    connect(m_rateCard, &QComboBox::currentIndexChanged, this, &TrainingPage::recompute);
    connect(m_term, &QComboBox::currentIndexChanged, this, &TrainingPage::recompute);

    auto *mixBox = new QGroupBox(tr("Mixed cluster"), panel);
    auto *mixForm = new QFormLayout(mixBox);
    m_horizonWeeks = new QSpinBox(mixBox);
    m_horizonWeeks->setObjectName("trainingHorizonWeeks");
    m_horizonWeeks->setRange(1, 104);
    m_horizonWeeks->setValue(12);
    setCountSuffix(m_horizonWeeks, tr(" week(s)"));
    m_horizonWeeks->setToolTip(tr("Weeks the shared cluster is planned over, 1 … 104, from the earliest start date "
                                  "of the jobs (today when none is scheduled)"));
    m_sharedPool = new QSpinBox(mixBox);
    m_sharedPool->setObjectName("trainingSharedPool");
    m_sharedPool->setRange(0, 1000000);
    setCountSuffix(m_sharedPool, tr(" GPU(s)"));
    m_sharedPool->setSpecialValueText(tr("smallest that finishes"));
    m_sharedPool->setGroupSeparatorShown(true);
    m_sharedPool->setToolTip(tr("GPUs of the dynamically shared pool; the smallest that finishes every job within "
                                "the horizon when left at its minimum. Never below the inference peak"));
    mixForm->addRow(tr("Horizon:"), m_horizonWeeks);
    mixForm->addRow(tr("Shared pool:"), m_sharedPool);
    for (QSpinBox *box : {m_horizonWeeks, m_sharedPool}) {
        box->setKeyboardTracking(false);
        connect(box, &QSpinBox::valueChanged, this, &TrainingPage::recompute);
    }
    auto *mixNote = new QLabel(tr("Inference: workloads on the job's GPU type, peak GPUs × diurnal shape. Training: "
                                  "every job on that GPU type."),
                               mixBox);
    mixNote->setWordWrap(true);
    mixNote->setEnabled(false);
    mixForm->addRow(mixNote);

    auto *growthBox = new QGroupBox(tr("Growth (24 months)"), panel);
    auto *growthForm = new QFormLayout(growthBox);
    auto growthRate = [growthBox](const char *name, const QString &tip) {
        auto *box = new QDoubleSpinBox(growthBox);
        box->setObjectName(QLatin1String(name));
        box->setRange(-50, 100);
        box->setDecimals(1);
        box->setSuffix(QObject::tr(" %/month"));
        box->setToolTip(tip);
        box->setKeyboardTracking(false);
        return box;
    };
    m_inferenceGrowth = growthRate("trainingInferenceGrowth",
                                   tr("Monthly growth of inference traffic, compounded, −50 … 100 %"));
    m_inferenceGrowth->setValue(5);
    m_trainingGrowth = growthRate("trainingTrainingGrowth",
                                  tr("Monthly growth of the training pool (bigger or more runs), compounded, "
                                     "−50 … 100 %"));
    m_trainingGrowth->setValue(3);
    m_installed = new QSpinBox(growthBox);
    m_installed->setObjectName("trainingInstalled");
    m_installed->setRange(-1, 1000000);
    m_installed->setValue(-1);
    m_installed->setSpecialValueText(tr("the shared pool"));
    setCountSuffix(m_installed, tr(" GPU(s)"));
    m_installed->setGroupSeparatorShown(true);
    m_installed->setKeyboardTracking(false);
    m_installed->setToolTip(tr("GPUs in place today; at its minimum, the dynamically shared pool above"));
    growthForm->addRow(tr("Inference growth:"), m_inferenceGrowth);
    growthForm->addRow(tr("Training growth:"), m_trainingGrowth);
    growthForm->addRow(tr("Installed now:"), m_installed);
    connect(m_inferenceGrowth, &QDoubleSpinBox::valueChanged, this, &TrainingPage::recompute);
    connect(m_trainingGrowth, &QDoubleSpinBox::valueChanged, this, &TrainingPage::recompute);
    connect(m_installed, &QSpinBox::valueChanged, this, &TrainingPage::recompute);

    auto *note = new QLabel(tr("Training is sized for throughput over a window and runs near full utilization; "
                               "inference is sized for latency at its peak. A shared pool lets training fill the "
                               "troughs inference leaves."),
                            panel);
    note->setWordWrap(true);
    note->setEnabled(false);
    layout->addWidget(jobBox);
    layout->addWidget(priceBox);
    layout->addWidget(mixBox);
    layout->addWidget(growthBox);
    layout->addWidget(note);
    layout->addStretch();
    return panel;
}

void TrainingPage::refreshJobs()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const QString current = m_job->currentText();
    m_job->clear();
    for (const auto &job : m_workspace.trainingJobs())
        m_job->addItem(text(job.name));
    m_job->setCurrentIndex(std::max(0, m_job->findText(current)));
    m_updating = wasUpdating;
    recompute();
}

void TrainingPage::refreshRateCards()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const bool firstFill = m_rateCard->count() == 0;
    const QString current = m_rateCard->currentData().toString();
    m_rateCard->clear();
    m_rateCard->addItem(tr("No price"), QString());
    for (const engine::RateCard &c : m_workspace.rateCards())
        m_rateCard->addItem(QStringLiteral("%1 · %2 · %3 · %4")
                                .arg(text(c.provider), text(c.region), text(c.gpuId), text(c.effectiveDate)),
                            text(c.key()));
    int index = firstFill ? -1 : m_rateCard->findData(current);
    if (index < 0) // first start: the AWS H100 card in force
        for (int i = m_rateCard->count() - 1; i > 0 && index < 0; --i)
            if (m_rateCard->itemData(i).toString().startsWith(QLatin1String("AWS/")) &&
                m_rateCard->itemData(i).toString().contains(QLatin1String("/h100-sxm@")))
                index = i;
    m_rateCard->setCurrentIndex(std::max(index, 0));
    m_updating = wasUpdating;
    recompute();
}

void TrainingPage::selectJob(const QString &name)
{
    m_job->setCurrentIndex(m_job->findText(name));
}

void TrainingPage::selectRateCard(const QString &key)
{
    m_rateCard->setCurrentIndex(std::max(0, m_rateCard->findData(key)));
}

void TrainingPage::showError(const QString &message)
{
    m_explanation->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(message.toHtmlEscaped()));
    for (QLabel *c : {m_gpusCard, m_daysCard, m_gpuHoursCard, m_costCard})
        c->setText(resultCardText(QStringLiteral("—"), QString()));
    m_table->setRowCount(0);
    m_mixTable->setRowCount(0);
    m_layoutTable->setRowCount(0);
}

TrainingPageInputs TrainingPage::inputs() const
{
    TrainingPageInputs in;
    in.job = m_job->currentText();
    in.rateCard = m_rateCard->currentData().toString();
    in.term = PriceTerm(m_term->currentData().toInt());
    in.horizonWeeks = m_horizonWeeks->value();
    in.sharedPool = m_sharedPool->value();
    in.inferenceGrowth = m_inferenceGrowth->value();
    in.trainingGrowth = m_trainingGrowth->value();
    in.installed = m_installed->value();
    return in;
}

void TrainingPage::recompute()
{
    if (m_updating)
        return;
    const TrainingPageInputs in = inputs();
    m_analysis = analyseTraining(m_workspace, in);
    const TrainingAnalysis &a = m_analysis;
    // Drawn whether or not the job sizes: the figures say why they are empty.
    TrainingFigures figures = trainingFigures(a, in);
    showFigure(m_memoryChart, std::move(figures.memory));
    showFigure(m_daysChart, std::move(figures.days));
    showFigure(m_mixChart, std::move(figures.mix));
    showFigure(m_growthChart, std::move(figures.growth));
    if (!a.error.isEmpty()) {
        showError(a.error);
        emit recomputed();
        return;
    }
    showPlan(*a.job, *a.gpu);
    showMix();

    QStringList lines;
    for (const std::string &line : m_analysis.plan->explanation)
        lines << text(line).toHtmlEscaped();
    for (const QString &n : a.notes)
        lines << QStringLiteral("<i>%1</i>").arg(n.toHtmlEscaped());
    m_explanation->setText(lines.join(QStringLiteral("<br>")));
    emit recomputed();
}

void TrainingPage::showPlan(const engine::TrainingJob &job, const engine::GpuSpec &gpu)
{
    const engine::TrainingPlan &p = *m_analysis.plan;
    const QString nodes = trainingNodesText(m_analysis);
    m_gpusCard->setText(resultCardText(formatCount(p.gpusNodeRounded), tr("GPU(s) · %1", nullptr, int(p.gpusNodeRounded)).arg(nodes)));
    m_daysCard->setText(resultCardText(days(p.days), tr("days on %1").arg(formatGpus(p.gpus))));
    m_gpuHoursCard->setText(resultCardText(formatCount(p.billedGpuHours), tr("GPU-hours paid for")));
    // The cost is the product of the figures beside it: whole GPU-hours billed × the exact rate.
    const QString product = trainingCostProduct(m_analysis, inputs());
    m_costCard->setText(p.cost ? resultCardText(text(p.cost->display()), product)
                               : resultCardText(QStringLiteral("—"), tr("no rate card for %1").arg(text(gpu.id))));

    fillResultsTable(*m_table, trainingResultsTable(m_analysis, inputs()));
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_layoutTable->setRowCount(int(p.layouts.size()));
    for (int i = 0; i < int(p.layouts.size()); ++i) {
        const engine::LayoutCandidate &c = p.layouts[size_t(i)];
        const double talk = c.comm.stepSeconds - c.comm.computeSeconds;
        const QString stages = c.layout.virtualStages > 1 ? tr("%1 × %2").arg(c.layout.pp).arg(c.layout.virtualStages)
                                                          : QString::number(c.layout.pp);
        const QStringList cells = {QString::number(c.layout.tp), stages,
                                   QString::number(c.layout.ep), formatCount(c.dataParallel),
                                   QString::number(c.layout.zeroStage),
                                   text(std::string(engine::toString(c.layout.recompute))),
                                   tr("%1 (activations %2)").arg(formatGiB(int64_t(c.memory.totalBytes())),
                                                                 formatGiB(int64_t(c.memory.activationsBytes))),
                                   formatNumber(c.comm.stepSeconds, 2),
                                   tr("%1 s (%2)").arg(formatNumber(talk, 2), formatPercent(c.comm.stepSeconds > 0 ? talk / c.comm.stepSeconds : 0)),
                                   days(c.days)};
        for (int column = 0; column < int(cells.size()); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column != 5 && column != 6)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_layoutTable->setItem(i, column, item);
        }
    }
}

void TrainingPage::showMix()
{
    if (!m_analysis.mix) {
        m_mixTable->setRowCount(0);
        return;
    }
    const engine::MixOutcome &a = m_analysis.mix->partitioned;
    const engine::MixOutcome &b = m_analysis.mix->dynamic;
    std::vector<std::array<QString, 3>> rows = {
        {tr("GPUs"), formatCount(a.gpus), formatCount(b.gpus)},
        {tr("Inference GPUs"), tr("%1 (pool at its peak)").arg(formatCount(a.inferenceGpus)),
         tr("%1 at the peak hour").arg(formatCount(b.inferenceGpus))},
        {tr("Training GPUs"), tr("%1 (pool)").arg(formatCount(a.trainingGpus)),
         tr("%1 beside the inference peak").arg(formatCount(b.trainingGpus))},
        {tr("Inference utilization"), formatPercent(a.inferenceUtilization), formatPercent(b.inferenceUtilization)},
        {tr("Training utilization"), formatPercent(a.trainingUtilization), formatPercent(b.trainingUtilization)},
        {tr("Utilization overall"), formatPercent(a.utilization), formatPercent(b.utilization)},
        {tr("Inference unserved"), tr("%1 GPU-hours").arg(formatNumber(a.unservedInferenceGpuHours, 0)),
         tr("%1 GPU-hours").arg(formatNumber(b.unservedInferenceGpuHours, 0))},
    };
    auto completion = [this](const engine::JobCompletion &c) {
        if (c.completionHour < 0)
            return c.startHour < 0 ? tr("not started") : tr("not done: %1 GPU-hours left").arg(formatNumber(c.remainingGpuHours, 0));
        const QString date = c.completionDate.empty() ? dateAfterHours(m_analysis.mixStartDate, c.completionHour) : text(c.completionDate);
        return tr("%1 (day %2)").arg(date).arg(formatNumber(double(c.completionHour) / 24.0, 1));
    };
    for (size_t i = 0; i < a.jobs.size() && i < b.jobs.size(); ++i)
        rows.push_back({tr("%1 completes").arg(text(a.jobs[i].name)), completion(a.jobs[i]), completion(b.jobs[i])});
    m_mixTable->setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i)
        for (int c = 0; c < 3; ++c)
            m_mixTable->setItem(i, c, new QTableWidgetItem(rows[size_t(i)][size_t(c)]));
}

void TrainingPage::showFigure(ChartPanel *panel, ChartFigure figure)
{
    // Building a chart costs milliseconds: only the tab on screen is rebuilt at once, the others
    // when they are shown or asked for (export, report).
    if (m_chartTabs->currentWidget() == panel) {
        m_pendingFigures.erase(panel);
        panel->setFigure(std::move(figure));
    } else {
        m_pendingFigures[panel] = std::move(figure);
    }
}

void TrainingPage::flushFigures() const
{
    for (auto &[panel, figure] : m_pendingFigures)
        panel->setFigure(std::move(figure));
    m_pendingFigures.clear();
}

QString TrainingPage::explanation() const
{
    return m_explanation->text();
}

QJsonObject TrainingPage::currentTableSource() const
{
    return m_analysis.error.isEmpty() ? trainingSource("training-table", inputs()) : QJsonObject();
}

QList<ChartPanel *> TrainingPage::chartPanels() const
{
    flushFigures();
    QList<ChartPanel *> panels{m_memoryChart, m_daysChart, m_mixChart, m_growthChart, m_goodput->chart(),
                               m_cluster->chart()};
    if (m_chartTabs->currentWidget() == m_goodput) {
        panels.removeOne(m_goodput->chart());
        panels.prepend(m_goodput->chart());
    } else if (m_chartTabs->currentWidget() == m_cluster) {
        panels.removeOne(m_cluster->chart());
        panels.prepend(m_cluster->chart());
    } else if (auto *current = qobject_cast<ChartPanel *>(m_chartTabs->currentWidget())) {
        panels.removeOne(current);
        panels.prepend(current);
    }
    return panels;
}

} // namespace headroom::ui
