#include "clusterpanel.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/columnfit.h"
#include "common/dialogs.h"
#include "common/fields.h"
#include "report/reportsnapshot.h"

#include "engine/common/errors.h"
#include "store/common/storeerror.h"
#include "store/training/clustertrace.h"

#include <QAbstractSpinBox>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

const QString kErrorStyle = QStringLiteral("<span style='color:#c0392b'>%1</span>");
constexpr engine::ClusterPolicy kPolicies[] = {engine::ClusterPolicy::FixedFcfs, engine::ClusterPolicy::FixedLas,
                                               engine::ClusterPolicy::CoAdaptive};

QString policyTitle(engine::ClusterPolicy policy)
{
    switch (policy) {
    case engine::ClusterPolicy::FixedFcfs:
        return QObject::tr("Fixed FCFS");
    case engine::ClusterPolicy::FixedLas:
        return QObject::tr("Fixed LAS");
    case engine::ClusterPolicy::CoAdaptive:
        return QObject::tr("Co-adaptive");
    }
    return {};
}

QString hours(double seconds)
{
    return QString::number(seconds / 3600.0, 'f', 2);
}

struct Outcome {
    std::vector<engine::ClusterReplay> replays;
    std::map<QString, double> published;
    QString error;
    bool cancelled = false;
};

// Reads the workload and replays it under the three policies; `progress` as BackgroundJob's.
void replayAll(const QString &workload, const engine::ClusterOptions &options, Outcome &out,
               const std::function<bool(double)> &progress)
{
    try {
        const auto apps = store::readClusterApplications(QString());
        const auto jobs = store::readClusterWorkload(workload);
        out.published = store::publishedAverageJct(workload);
        for (size_t i = 0; i < std::size(kPolicies); ++i) {
            engine::ClusterReplay r = engine::replayCluster(apps, jobs, options, kPolicies[i], [&](double share) {
                return !progress || progress((double(i) + share) / double(std::size(kPolicies)));
            });
            if (r.cancelled) {
                out.cancelled = true;
                out.replays.clear();
                return;
            }
            out.replays.push_back(std::move(r));
        }
    } catch (const store::StoreError &e) {
        out.error = e.message();
    } catch (const engine::InputError &e) {
        out.error = QString::fromUtf8(e.what());
    }
}

QJsonObject clusterSource(const QString &workload, const engine::ClusterOptions &o)
{
    return {{QStringLiteral("kind"), QStringLiteral("cluster-replay")},
            {QStringLiteral("workload"), workload},
            {QStringLiteral("nodes"), qint64(o.nodes)},
            {QStringLiteral("gpus_per_node"), qint64(o.gpusPerNode)},
            {QStringLiteral("inference_gpus"), qint64(o.inferenceGpus)},
            {QStringLiteral("interval_seconds"), o.intervalSeconds},
            {QStringLiteral("restart_seconds"), o.restartSeconds}};
}

} // namespace

ClusterPanel::ClusterPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName("clusterPanel");
    m_workload = new QComboBox(this);
    m_workload->setObjectName("clusterWorkload");
    for (int i = 1; i <= 8; ++i)
        m_workload->addItem(tr("Pollux %1 (160 jobs)").arg(i), QStringLiteral("pollux-%1").arg(i));
    // Narrow: a long file name must not set the page's smallest width.
    m_workload->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_workload->setMinimumContentsLength(12);
    m_workload->setCurrentIndex(5);
    m_workload->setToolTip(tr("Pollux's published workloads (OSDI 2021 artifact; workload 6 is its testbed's), or a "
                              "workload CSV: name,time,application,num_replicas,batch_size"));
    auto *browse = new QPushButton(tr("Open…"), this);
    browse->setObjectName("clusterBrowse");
    browse->setToolTip(tr("Replay a workload CSV of your own"));
    m_nodes = newSpinBox(this, "clusterNodes", 1, 100000, 16, tr(" node(s)"), tr("Nodes in the cluster"));
    m_perNode = newSpinBox(this, "clusterPerNode", 1, 64, 4, tr(" GPU(s)"), tr("GPUs a node"));
    m_inference = newSpinBox(this, "clusterInference", 0, 6400000, 0, tr(" GPU(s)"),
                             tr("GPUs served to inference first; training never uses them"));
    m_interval = newDoubleSpinBox(this, "clusterInterval", 1, 86400, 60, 0, tr(" s"),
                                  tr("How often the scheduler reallocates (and starts queued jobs)"));
    m_restart = newDoubleSpinBox(this, "clusterRestart", 0, 86400, 30, 0, tr(" s"),
                                 tr("A job makes no progress for this long after each (re)allocation"));
    for (QAbstractSpinBox *box : std::initializer_list<QAbstractSpinBox *>{m_nodes, m_perNode, m_inference, m_interval,
                                                                           m_restart})
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("00 GPU(s)")) + 32);
    m_run = new QPushButton(tr("Run"), this);
    m_run->setObjectName("clusterRun");
    m_run->setToolTip(tr("Replay the workload under the three policies"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("clusterCancel");
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("clusterProgress");
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(10);

    auto *grid = new QGridLayout;
    const auto add = [&](int row, int column, const QString &label, QWidget *field) {
        auto *title = new QLabel(label, this);
        title->setBuddy(field);
        grid->addWidget(title, row, column * 2);
        grid->addWidget(field, row, column * 2 + 1);
    };
    auto *workloadRow = new QHBoxLayout;
    workloadRow->addWidget(m_workload, 1);
    workloadRow->addWidget(browse);
    auto *workloadLabel = new QLabel(tr("&Workload:"), this);
    workloadLabel->setBuddy(m_workload);
    grid->addWidget(workloadLabel, 0, 0);
    grid->addLayout(workloadRow, 0, 1, 1, 3);
    add(0, 2, tr("Nodes:"), m_nodes);
    add(0, 3, tr("Per node:"), m_perNode);
    add(1, 0, tr("Inference:"), m_inference);
    add(1, 1, tr("Interval:"), m_interval);
    add(1, 2, tr("Restart:"), m_restart);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    grid->addLayout(buttons, 1, 6, 1, 2);
    grid->addWidget(m_progress, 2, 0, 1, 8);

    m_status = new QLabel(this);
    m_status->setObjectName("clusterStatus");
    m_status->setWordWrap(true);
    m_status->setMinimumWidth(0);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(this);
    m_table->setObjectName("clusterTable");
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setColumnCount(7);
    m_table->setHorizontalHeaderLabels({tr("Policy"), tr("Avg JCT (h)"), tr("p99 (h)"), tr("Avg queue (h)"),
                                        tr("Makespan (h)"), tr("GPU-hours"), tr("Utilization")});
    m_table->horizontalHeaderItem(0)->setToolTip(
        tr("Fixed FCFS: each job's own GPUs and batch, strictly first come first served. Fixed LAS: the same jobs "
           "under Tiresias's two-queue least-attained-service. Co-adaptive: Pollux's allocation."));
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The header and the three policies' rows, no more.
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() +
                            3 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    ColumnFit::fitColumns(m_table);
    m_chart = new ChartPanel(this);
    m_chart->setObjectName("clusterChart");
    // The table above takes what the chart would: a shorter chart keeps the page within 800 pixels.
    m_chart->chartView()->setMinimumHeight(200);
    m_chart->setFigure(emptyFigure(tr("Job completion times by policy"), tr("Run the replay to see it.")));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(grid);
    layout->addWidget(m_status);
    layout->addWidget(m_table);
    layout->addWidget(m_chart, 1);

    connect(browse, &QPushButton::clicked, this, &ClusterPanel::browse);
    connect(m_run, &QPushButton::clicked, this, &ClusterPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, [this] { m_job.cancel(); });
    updateButtons();
}

ClusterPanel::~ClusterPanel() = default;

QString ClusterPanel::workload() const
{
    return m_workload->currentData().toString();
}

void ClusterPanel::setWorkload(const QString &pathOrName)
{
    int index = m_workload->findData(pathOrName);
    if (index < 0) {
        m_workload->addItem(QFileInfo(pathOrName).fileName(), pathOrName);
        index = m_workload->count() - 1;
        m_workload->setItemData(index, pathOrName, Qt::ToolTipRole);
    }
    m_workload->setCurrentIndex(index);
}

engine::ClusterOptions ClusterPanel::options() const
{
    engine::ClusterOptions o;
    o.nodes = m_nodes->value();
    o.gpusPerNode = m_perNode->value();
    o.inferenceGpus = m_inference->value();
    o.intervalSeconds = m_interval->value();
    o.restartSeconds = m_restart->value();
    return o;
}

bool ClusterPanel::isRunning() const
{
    return m_job.isRunning();
}

QString ClusterPanel::status() const
{
    return m_status->text();
}

void ClusterPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_ranOnce)
        run();
}

void ClusterPanel::browse()
{
    const QString path = Dialogs::openFileName(this, tr("Open a cluster workload"), tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        setWorkload(path);
}

void ClusterPanel::run()
{
    if (m_job.isRunning())
        return;
    m_ranOnce = true;
    const QString workload = this->workload();
    const engine::ClusterOptions options = this->options();
    auto outcome = std::make_shared<Outcome>();
    m_status->setText(tr("Replaying %1…").arg(m_workload->currentText()));
    m_job.start(
        this, m_progress,
        [outcome, workload, options](const JobProgress &progress) {
            replayAll(workload, options, *outcome, [&progress](double share) { return progress.report(share); });
        },
        [this, outcome] {
            if (outcome->cancelled) {
                m_status->setText(tr("Cancelled: the figures shown are the last replay's."));
            } else if (!outcome->error.isEmpty()) {
                m_status->setText(kErrorStyle.arg(tr("Not replayed: %1").arg(outcome->error).toHtmlEscaped()));
            } else {
                show(outcome->replays, outcome->published);
            }
            m_progress->setValue(outcome->error.isEmpty() && !outcome->cancelled ? 1000 : 0);
            updateButtons();
            emit finished(outcome->error.isEmpty() && !outcome->cancelled);
        });
    updateButtons();
}

void ClusterPanel::updateButtons()
{
    const bool running = m_job.isRunning();
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void ClusterPanel::show(const std::vector<engine::ClusterReplay> &replays, const std::map<QString, double> &published)
{
    m_replays = replays;
    m_table->setRowCount(int(replays.size()));
    for (int row = 0; row < int(replays.size()); ++row) {
        const engine::ClusterReplay &r = replays[size_t(row)];
        const QStringList cells{policyTitle(r.policy),
                                hours(r.averageJctSeconds),
                                hours(r.p99JctSeconds),
                                hours(r.averageQueueSeconds),
                                hours(r.makespanSeconds),
                                QString::number(r.gpuHours, 'f', 1),
                                QString::number(100.0 * r.utilization, 'f', 1) + QStringLiteral(" %")};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            int64_t restarts = 0;
            for (const auto &j : r.jobs)
                restarts += j.restarts;
            item->setToolTip(tr("Median JCT %1 h, longest %2 h; %3 restarts and preemptions in all")
                                 .arg(hours(r.medianJctSeconds), hours(r.maxJctSeconds))
                                 .arg(restarts));
            m_table->setItem(row, c, item);
        }
    }
    const auto co = std::find_if(replays.begin(), replays.end(),
                                 [](const auto &r) { return r.policy == engine::ClusterPolicy::CoAdaptive; });
    QStringList cuts;
    if (co != replays.end())
        for (const auto &r : replays)
            if (r.policy != engine::ClusterPolicy::CoAdaptive && r.averageJctSeconds > 0)
                cuts << tr("%1 % against %2")
                            .arg(QString::number(100.0 * (1.0 - co->averageJctSeconds / r.averageJctSeconds), 'f', 1),
                                 policyTitle(r.policy));
    QStringList publishedText;
    for (const char *policy : {"pollux", "tiresias", "optimus"})
        if (published.count(QLatin1String(policy)))
            publishedText << QStringLiteral("%1 %2 h").arg(QLatin1String(policy), hours(published.at(QLatin1String(policy))));
    const engine::ClusterOptions o = options();
    m_status->setText(tr("Co-adaptive cuts the average JCT by %1%2.%3")
                          .arg(cuts.join(tr(", ")))
                          .arg(o.inferenceGpus > 0 ? tr(" with %1 GPUs kept for inference").arg(o.inferenceGpus) : QString())
                          .arg(publishedText.isEmpty()
                                   ? QString()
                                   : tr(" Published (Pollux's artifact, 16 × 4 GPUs), avg JCT: %1.")
                                         .arg(publishedText.join(tr(", ")))));
    m_chart->setFigure(clusterFigure(workload(), o, replays));
}

ChartFigure clusterFigure(const QString &workload, const engine::ClusterOptions &options,
                          const std::vector<engine::ClusterReplay> &replays)
{
    const QString title = QObject::tr("Job completion times by policy");
    double lo = 0, hi = 0;
    for (const auto &r : replays)
        for (const auto &j : r.jobs)
            if (j.finishSeconds >= 0) {
                const double h = j.jctSeconds / 3600.0;
                lo = lo == 0 ? h : std::min(lo, h);
                hi = std::max(hi, h);
            }
    if (!(hi > 0))
        return emptyFigure(title, QObject::tr("No job finished."));
    const QString caption =
        QObject::tr("The share of %1's jobs finished within each completion time, on %2 × %3 GPUs (%4 for "
                    "inference), scheduling every %5 s with a %6 s restart. Fixed policies run each job's own GPUs "
                    "and batch; co-adaptive follows Pollux (Qiao et al., OSDI 2021).")
            .arg(workload)
            .arg(options.nodes)
            .arg(options.gpusPerNode)
            .arg(options.inferenceGpus)
            .arg(options.intervalSeconds)
            .arg(options.restartSeconds);
    std::vector<std::pair<QString, std::vector<double>>> lines;
    for (const auto &r : replays) {
        std::vector<double> jcts;
        for (const auto &j : r.jobs)
            if (j.finishSeconds >= 0)
                jcts.push_back(j.jctSeconds / 3600.0);
        std::sort(jcts.begin(), jcts.end());
        lines.emplace_back(QObject::tr("%1 (avg %2 h)").arg(policyTitle(r.policy), hours(r.averageJctSeconds)),
                           std::move(jcts));
    }
    const size_t total = replays.front().jobs.size();
    ChartFigure figure{title, caption, [lines, title, lo, hi, total](QChart::ChartTheme theme) {
                           QChart *chart = newStyledChart(title, theme);
                           auto *x = new QLogValueAxis;
                           x->setBase(10);
                           x->setRange(std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi))));
                           x->setLabelFormat(QStringLiteral("%g"));
                           x->setTitleText(QObject::tr("Job completion time (hours, log scale)"));
                           auto *y = new QValueAxis;
                           y->setRange(0, 100);
                           y->setLabelFormat(QStringLiteral("%.0f"));
                           y->setTitleText(QObject::tr("Done (%)"));
                           chart->addAxis(x, Qt::AlignBottom);
                           chart->addAxis(y, Qt::AlignLeft);
                           for (const auto &[name, jcts] : lines) {
                               auto *series = new QLineSeries;
                               series->setName(name);
                               for (size_t i = 0; i < jcts.size(); ++i)
                                   series->append(jcts[i], 100.0 * double(i + 1) / double(total));
                               chart->addSeries(series);
                               series->attachAxis(x);
                               series->attachAxis(y);
                           }
                           shareSeriesColours(chart, theme);
                           return chart;
                       }};
    figure.source = clusterSource(workload, options);
    return figure;
}

std::optional<store::ReportItem> clusterReportItem(const store::Workspace &, const QJsonObject &source, QString *problem)
{
    problem->clear();
    if (source.value(QStringLiteral("kind")).toString() != QLatin1String("cluster-replay"))
        return std::nullopt;
    engine::ClusterOptions o;
    o.nodes = source.value(QStringLiteral("nodes")).toInteger();
    o.gpusPerNode = source.value(QStringLiteral("gpus_per_node")).toInteger();
    o.inferenceGpus = source.value(QStringLiteral("inference_gpus")).toInteger();
    o.intervalSeconds = source.value(QStringLiteral("interval_seconds")).toDouble();
    o.restartSeconds = source.value(QStringLiteral("restart_seconds")).toDouble();
    const QString workload = source.value(QStringLiteral("workload")).toString();
    Outcome outcome;
    replayAll(workload, o, outcome, {});
    if (!outcome.error.isEmpty()) {
        *problem = outcome.error;
        return std::nullopt;
    }
    return reportItemFromFigure(clusterFigure(workload, o, outcome.replays));
}

} // namespace headroom::ui
