#include "trackingjobspanel.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/columnfit.h"
#include "common/dialogs.h"
#include "common/fields.h"

#include "engine/common/errors.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/tracking/jobtelemetrycsv.h"

#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

const QString kErrorStyle = QStringLiteral("<span style='color:#c0392b'>%1</span>");

QTableWidget *newTable(QWidget *parent, const char *name)
{
    auto *table = new QTableWidget(parent);
    table->setObjectName(QLatin1String(name));
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->setAlternatingRowColors(true);
    table->horizontalHeader()->setStretchLastSection(true);
    ColumnFit::fitColumns(table);
    return table;
}

void fill(QTableWidget *table, const DeckTable &data)
{
    table->clear();
    table->setColumnCount(int(data.columns.size()));
    table->setHorizontalHeaderLabels(data.columns);
    table->setRowCount(int(data.rows.size()));
    for (int r = 0; r < data.rows.size(); ++r)
        for (int c = 0; c < data.rows[r].size(); ++c) {
            auto *item = new QTableWidgetItem(data.rows[r][c]);
            if (c > 0 && !data.rows[r][c].isEmpty() && (data.rows[r][c].front().isDigit() || data.rows[r][c] == "–"))
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(r, c, item);
        }
}

struct Outcome {
    std::optional<TrainingJobsRun> run;
    QString error;
};

} // namespace

TrackingJobsPanel::TrackingJobsPanel(store::Workspace &workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace)
{
    setObjectName("trackingJobsPanel");
    m_path = new QLineEdit(this);
    m_path->setObjectName("trackingJobsTelemetry");
    m_path->setPlaceholderText(tr("Job telemetry CSV: timestamp,job,node,gpu,metric,value"));
    m_path->setToolTip(tr("DCGM GPU activity, the job's CPU utilization and cores, the data loader's wait and "
                          "training_throughput, per job and node (user guide: Tracking)"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName("trackingJobsBrowse");
    m_below = newDoubleSpinBox(this, "trackingJobsBelow", 1, 100, 90, 0, tr(" % of plan"),
                               tr("An hour is flagged when the job's rate per GPU is under this share of its plan"));
    m_load = new QPushButton(tr("Read"), this);
    m_load->setObjectName("trackingJobsLoad");
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("trackingJobsCancel");
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("trackingJobsProgress");
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(10);

    auto *grid = new QGridLayout;
    auto *fileLabel = new QLabel(tr("&Telemetry:"), this);
    fileLabel->setBuddy(m_path);
    grid->addWidget(fileLabel, 0, 0);
    grid->addWidget(m_path, 0, 1);
    grid->addWidget(browse, 0, 2);
    auto *belowLabel = new QLabel(tr("&Flag below:"), this);
    belowLabel->setBuddy(m_below);
    grid->addWidget(belowLabel, 0, 3);
    grid->addWidget(m_below, 0, 4);
    grid->addWidget(m_load, 0, 5);
    grid->addWidget(m_cancel, 0, 6);
    grid->addWidget(m_progress, 1, 0, 1, 7);
    grid->setColumnStretch(1, 1);

    m_status = new QLabel(tr("Read a job telemetry file: the data-loading stall audit of the last five jobs, and each "
                             "job's goodput per GPU against its plan."),
                          this);
    m_status->setObjectName("trackingJobsStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stalls = newTable(this, "trackingJobsStalls");
    m_goodput = newTable(this, "trackingJobsGoodput");
    m_chart = new ChartPanel(this);
    m_chart->setObjectName("trackingJobsChart");
    m_chart->setFigure(emptyFigure(tr("Goodput per GPU against plan"), tr("Read a job telemetry file.")));
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName("trackingJobsTabs");
    m_tabs->addTab(m_stalls, tr("Stall audit"));
    m_tabs->addTab(m_goodput, tr("Goodput per job"));
    m_tabs->addTab(m_chart, tr("Goodput against plan"));
    m_tabs->setTabToolTip(0, tr("The last five jobs: allocated GPU-hours spent waiting on input, and the cores per GPU "
                                "that would have fed the GPUs"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(grid);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::openFileName(this, tr("Read job telemetry"), tr("CSV files (*.csv);;All files (*)"));
        if (!path.isEmpty())
            m_path->setText(path);
    });
    connect(m_load, &QPushButton::clicked, this, [this] { load(m_path->text()); });
    connect(m_path, &QLineEdit::returnPressed, this, [this] { load(m_path->text()); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { m_job.cancel(); });
    updateButtons();
}

bool TrackingJobsPanel::isRunning() const
{
    return m_job.isRunning();
}

QString TrackingJobsPanel::statusText() const
{
    return m_status->text();
}

void TrackingJobsPanel::load(const QString &telemetryPath)
{
    if (m_job.isRunning())
        return;
    m_path->setText(telemetryPath);
    if (telemetryPath.isEmpty()) {
        m_status->setText(kErrorStyle.arg(tr("Choose a job telemetry file.").toHtmlEscaped()));
        return;
    }
    // The workspace is read here, on its own thread: every training job's planned rate.
    std::vector<std::string> names;
    for (const engine::TrainingJob &job : m_workspace.trainingJobs())
        names.push_back(job.name);
    const std::map<std::string, double> planned = store::plannedTrainingRates(m_workspace, names);
    std::map<std::string, QString> sources;
    for (const auto &[name, rate] : planned)
        sources[name] = tr("training job");
    const double below = m_below->value() / 100.0;
    auto outcome = std::make_shared<Outcome>();
    m_status->setText(tr("Reading %1…").arg(QFileInfo(telemetryPath).fileName()));
    m_job.start(
        this, m_progress,
        [outcome, telemetryPath, planned, sources, below](const JobProgress &progress) {
            try {
                if (!progress.report(0.1))
                    return;
                TrainingJobsRun run = runTrainingJobs(telemetryPath, planned, sources, below);
                if (progress.report(1.0))
                    outcome->run = std::move(run);
            } catch (const store::StoreError &e) {
                outcome->error = e.message();
            } catch (const engine::InputError &e) {
                outcome->error = QString::fromUtf8(e.what());
            } catch (const std::bad_alloc &) {
                outcome->error = QObject::tr("not enough memory to read the file");
            }
        },
        [this, outcome] {
            const bool cancelled = m_job.cancelRequested() && !outcome->run && outcome->error.isEmpty();
            if (cancelled)
                m_status->setText(tr("Cancelled: the figures shown are the last file's."));
            else if (!outcome->error.isEmpty())
                m_status->setText(kErrorStyle.arg(tr("Not read: %1").arg(outcome->error).toHtmlEscaped()));
            else if (outcome->run)
                show(*outcome->run);
            m_progress->setValue(outcome->run ? 1000 : 0);
            updateButtons();
            emit finished(bool(outcome->run));
        });
    updateButtons();
}

void TrackingJobsPanel::show(const TrainingJobsRun &run)
{
    m_run = run;
    fill(m_stalls, stallAuditTable(run));
    fill(m_goodput, jobGoodputTable(run));
    m_chart->setFigure(jobGoodputFigure(run));
    const double share = run.stalls.allocatedGpuHours > 0 ? run.stalls.stallGpuHours / run.stalls.allocatedGpuHours : 0;
    QString text = tr("%1: %2 of %3 allocated GPU-hours (%4 %) of the last %5 jobs waited on input.")
                       .arg(run.telemetryFile)
                       .arg(QString::number(run.stalls.stallGpuHours, 'f', 1))
                       .arg(QString::number(run.stalls.allocatedGpuHours, 'f', 1))
                       .arg(QString::number(100.0 * share, 'f', 1))
                       .arg(run.stalls.jobs.size());
    if (run.goodput) {
        int below = 0, planned = 0;
        double shortfall = 0;
        for (const engine::JobGoodputTrack &j : run.goodput->jobs) {
            planned += j.planned > 0;
            below += j.hoursBelow;
            shortfall += j.shortfallGpuHours;
        }
        if (planned == 0)
            text += QLatin1Char(' ') + tr("No job has a plan to hold its goodput to: a workspace training job of the "
                                          "same name gives one.");
        else
            text += QLatin1Char(' ') + tr("%1 of %2 jobs with a plan: %3 hours below it, %4 GPU-hours short.")
                                           .arg(planned)
                                           .arg(run.goodput->jobs.size())
                                           .arg(below)
                                           .arg(QString::number(shortfall, 'f', 1));
    } else {
        text += QLatin1Char(' ') + tr("No job reports training_throughput, so goodput is not tracked.");
    }
    m_status->setText(text);
}

void TrackingJobsPanel::updateButtons()
{
    const bool running = m_job.isRunning();
    m_load->setEnabled(!running);
    m_cancel->setEnabled(running);
}

std::optional<DeckTable> TrackingJobsPanel::currentTable() const
{
    if (!m_run)
        return std::nullopt;
    return m_tabs->currentWidget() == m_goodput ? jobGoodputTable(*m_run) : stallAuditTable(*m_run);
}

QList<ChartPanel *> TrackingJobsPanel::chartPanels() const
{
    return {m_chart};
}

} // namespace headroom::ui
