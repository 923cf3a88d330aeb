#include "fragmentationpage.h"

#include "chartpanel.h"
#include "dialogs.h"
#include "engine/errors.h"
#include "fragmapview.h"
#include "store/fragtrace.h"
#include "store/storeerror.h"

#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace headroom::ui {

namespace frag = engine::frag;

struct FragmentationPage::Outcome {
    std::vector<PolicyRuns> runs;
    std::vector<frag::Node> mapNodes;
    frag::RunResult mapRun;
    QString error;
    bool cancelled = false;
    double seconds = 0;
};

namespace {

QString defaultTraceFile(const char *name)
{
    const QString path = QDir(QStringLiteral(HEADROOM_SAMPLE_TRACE_DIR)).filePath(QLatin1String(name));
    return QFileInfo::exists(path) ? QDir::cleanPath(path) : QString();
}

QLineEdit *fileRow(QWidget *parent, QFormLayout *form, const QString &label, const char *name, const QString &value,
                   const QString &tip)
{
    auto *edit = new QLineEdit(value, parent);
    edit->setObjectName(QLatin1String(name));
    edit->setToolTip(tip);
    auto *browse = new QPushButton(QObject::tr("Browse…"), parent);
    QObject::connect(browse, &QPushButton::clicked, edit, [edit, parent] {
        const QString path = Dialogs::openFileName(parent, QObject::tr("Choose a trace file"), QObject::tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            edit->setText(path);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    form->addRow(label, row);
    return edit;
}

} // namespace

std::vector<int> FragmentationPage::mapPercents()
{
    return {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130};
}

FragmentationPage::FragmentationPage(QWidget *parent)
    : Page(parent)
{
    setObjectName("fragmentationPage");
    m_allocation = new ChartPanel(this);
    m_allocation->setObjectName("fragAllocationChart");
    m_ratio = new ChartPanel(this);
    m_ratio->setObjectName("fragRatioChart");
    m_unallocated = new ChartPanel(this);
    m_unallocated->setObjectName("fragUnallocatedChart");
    m_map = new FragMapView(this);
    m_mapSlider = new QSlider(Qt::Horizontal, this);
    m_mapSlider->setObjectName("fragMapSlider");
    m_mapSlider->setRange(0, int(mapPercents().size()) - 1);
    m_mapSlider->setValue(9);
    m_mapSlider->setToolTip(tr("Scrub through the run: the cluster as the arrived workload grows"));
    m_mapLabel = new QLabel(this);
    connect(m_mapSlider, &QSlider::valueChanged, this, &FragmentationPage::showMap);
    auto *mapPage = new QWidget(this);
    auto *mapLayout = new QVBoxLayout(mapPage);
    auto *sliderRow = new QHBoxLayout;
    sliderRow->addWidget(new QLabel(tr("Arrived workload:"), mapPage));
    sliderRow->addWidget(m_mapSlider, 1);
    sliderRow->addWidget(m_mapLabel);
    mapLayout->addLayout(sliderRow);
    mapLayout->addWidget(m_map, 1);

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_allocation, tr("Allocation"));
    m_tabs->addTab(m_ratio, tr("Fragmentation ratio"));
    m_tabs->addTab(m_unallocated, tr("Unallocated GPUs"));
    m_tabs->addTab(mapPage, tr("Fragmentation map"));

    layOutPage(buildInputs(), m_tabs, 380);
}

FragmentationPage::~FragmentationPage()
{
    if (m_worker) {
        if (m_cancelled)
            *m_cancelled = true;
        m_worker->wait();
    }
}

QWidget *FragmentationPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    auto *traceBox = new QGroupBox(tr("Cluster trace"), panel);
    auto *form = new QFormLayout(traceBox);
    m_nodes = fileRow(panel, form, tr("Nodes:"), "fragNodes", defaultTraceFile("openb_node_list_gpu_node.csv"),
                      tr("Node list CSV: sn,cpu_milli,memory_mib,gpu,model"));
    m_tasks = fileRow(panel, form, tr("Tasks:"), "fragTasks", defaultTraceFile("openb_pod_list_default.csv"),
                      tr("Task list CSV: name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,…"));

    auto *runBox = new QGroupBox(tr("Experiment"), panel);
    auto *runForm = new QFormLayout(runBox);
    m_policies = new QListWidget(runBox);
    m_policies->setObjectName("fragPolicies");
    for (frag::Policy p : frag::allPolicies()) {
        auto *item = new QListWidgetItem(policyName(p), m_policies);
        item->setData(Qt::UserRole, int(p));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    m_policies->setMaximumHeight(150);
    m_policies->setToolTip(tr("Placement policies to compare: FGD places where fragmentation grows least"));
    m_seeds = new QSpinBox(runBox);
    m_seeds->setObjectName("fragSeeds");
    m_seeds->setRange(1, 20);
    m_seeds->setValue(3);
    m_seeds->setToolTip(tr("Runs per policy with different task orders; charts show the mean, bars ± sd"));
    m_load = new QDoubleSpinBox(runBox);
    m_load->setObjectName("fragLoad");
    m_load->setRange(0.1, 3.0);
    m_load->setSingleStep(0.1);
    m_load->setValue(1.3);
    m_load->setSuffix(tr(" × capacity"));
    m_load->setToolTip(tr("Tasks arrive until their requested GPU reaches this multiple of the cluster's GPUs"));
    runForm->addRow(tr("Policies:"), m_policies);
    runForm->addRow(tr("Seeds:"), m_seeds);
    runForm->addRow(tr("Load:"), m_load);

    m_run = new QPushButton(tr("&Run"), panel);
    m_run->setObjectName("fragRun");
    m_cancel = new QPushButton(tr("&Cancel"), panel);
    m_cancel->setObjectName("fragCancel");
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &FragmentationPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &FragmentationPage::cancel);
    m_progress = new QProgressBar(panel);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(tr("Choose the trace and policies, then Run. The simulation runs in the background."),
                          panel);
    m_status->setObjectName("fragStatus");
    m_status->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    layout->addWidget(traceBox);
    layout->addWidget(runBox);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addStretch();
    return panel;
}

void FragmentationPage::setFiles(const QString &nodes, const QString &tasks)
{
    m_nodes->setText(nodes);
    m_tasks->setText(tasks);
}

void FragmentationPage::setPolicies(const std::vector<frag::Policy> &policies)
{
    for (int i = 0; i < m_policies->count(); ++i) {
        QListWidgetItem *item = m_policies->item(i);
        const bool on = std::find(policies.begin(), policies.end(), frag::Policy(item->data(Qt::UserRole).toInt())) !=
                        policies.end();
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
}

void FragmentationPage::setSeeds(int seeds)
{
    m_seeds->setValue(seeds);
}

bool FragmentationPage::isRunning() const
{
    return m_worker && m_worker->isRunning();
}

void FragmentationPage::run()
{
    if (isRunning())
        return;
    std::vector<frag::Policy> policies;
    for (int i = 0; i < m_policies->count(); ++i)
        if (m_policies->item(i)->checkState() == Qt::Checked)
            policies.push_back(frag::Policy(m_policies->item(i)->data(Qt::UserRole).toInt()));
    if (policies.empty()) {
        m_status->setText(tr("<span style='color:#c0392b'>Choose at least one policy.</span>"));
        return;
    }
    std::vector<uint32_t> seeds;
    for (int s = 0; s < m_seeds->value(); ++s)
        seeds.push_back(uint32_t(s));
    const QString nodesPath = m_nodes->text().trimmed();
    const QString tasksPath = m_tasks->text().trimmed();
    const double load = m_load->value();
    auto outcome = std::make_shared<Outcome>();
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    m_cancelled = cancelled;
    QPointer<QProgressBar> bar = m_progress;
    auto report = [bar, cancelled](double overall) {
        if (bar)
            QMetaObject::invokeMethod(bar, "setValue", Qt::QueuedConnection, Q_ARG(int, int(overall * 1000)));
        return !cancelled->load();
    };
    m_worker.reset(QThread::create([=] {
        QElapsedTimer timer;
        timer.start();
        try {
            const auto nodes = store::readFragNodes(nodesPath);
            const auto tasks = store::readFragTasks(tasksPath);
            const double steps = double(policies.size()) + 1;
            for (size_t i = 0; i < policies.size(); ++i) {
                frag::RunOptions options;
                options.policy = policies[i];
                options.load = load;
                const auto result = frag::simulateSeeds(nodes, tasks, options, seeds, 0, [&](double p) {
                    return report((double(i) + p) / steps);
                });
                outcome->runs.push_back({policies[i], result});
            }
            frag::RunOptions mapOptions;
            mapOptions.policy = policies.front();
            mapOptions.load = load;
            outcome->mapRun = frag::simulate(nodes, tasks, mapOptions,
                                             [&](double p) { return report((steps - 1 + p) / steps); }, mapPercents());
            for (int index : outcome->mapRun.nodeIndices)
                outcome->mapNodes.push_back(nodes[size_t(index)]);
        } catch (const store::StoreError &e) {
            outcome->error = e.message();
        } catch (const engine::InputError &e) {
            outcome->error = QString::fromUtf8(e.what());
        } catch (const frag::Cancelled &) {
            outcome->cancelled = true;
        }
        outcome->seconds = double(timer.nsecsElapsed()) / 1e9;
    }));
    connect(m_worker.get(), &QThread::finished, this, [this, outcome] { showResults(outcome); });
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_status->setText(tr("Running %1 policies × %2 seeds…").arg(policies.size()).arg(seeds.size()));
    m_worker->start();
}

void FragmentationPage::cancel()
{
    if (m_cancelled)
        *m_cancelled = true;
    m_status->setText(tr("Cancelling…"));
}

void FragmentationPage::showResults(std::shared_ptr<Outcome> outcome)
{
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    if (outcome->cancelled || !outcome->error.isEmpty()) {
        m_progress->setValue(0);
        m_status->setText(outcome->cancelled
                              ? tr("Cancelled; the previous results are kept.")
                              : tr("<span style='color:#c0392b'>Not run: %1</span>").arg(outcome->error.toHtmlEscaped()));
        emit finished(false);
        return;
    }
    m_progress->setValue(1000);
    m_results = outcome->runs;
    m_mapRun = outcome->mapRun;
    m_mapNodes = outcome->mapNodes;
    const std::vector<PolicyRuns> runs = m_results;
    const int64_t gpus = runs.empty() || runs.front().result.runs.empty() ? 0 : runs.front().result.runs.front().gpus;
    const QString setup = tr("%1 GPUs; tasks arrive until %2 × capacity is requested; mean of %3 seeds.")
                              .arg(gpus)
                              .arg(m_load->value(), 0, 'f', 1)
                              .arg(m_seeds->value());
    m_allocation->setFigure({tr("GPU allocation vs arrived workload"), setup,
                             [runs](QChart::ChartTheme theme) {
                                 return buildAllocationChart(runs, tr("GPU allocation vs arrived workload"), theme);
                             }});
    m_ratio->setFigure({tr("Fragmentation ratio vs arrived workload"),
                        tr("Share of idle GPU that is fragment for the target workload. ") + setup,
                        [runs](QChart::ChartTheme theme) {
                            return buildFragRatioChart(runs, tr("Fragmentation ratio vs arrived workload"), theme);
                        }});
    m_unallocated->setFigure({tr("Unallocated GPUs at 100 % arrived"),
                              tr("GPUs left idle when the arrived work equals the cluster's capacity; fewer is "
                                 "better. ") + setup,
                              [runs](QChart::ChartTheme theme) {
                                  return buildUnallocatedChart(runs, tr("Unallocated GPUs at 100 % arrived"), theme);
                              }});
    showMap();
    QStringList lines;
    const PolicyRuns *best = nullptr;
    for (const PolicyRuns &r : m_results) {
        lines << tr("%1: %2 % allocated at 100 % arrived, %3 GPUs unallocated")
                     .arg(policyName(r.policy))
                     .arg(r.result.allocatedPctAt100.mean, 0, 'f', 1)
                     .arg(r.result.unallocatedGpusAt100.mean, 0, 'f', 0);
        if (!best || r.result.unallocatedGpusAt100.mean < best->result.unallocatedGpusAt100.mean)
            best = &r;
    }
    if (best)
        lines.prepend(tr("<b>%1 leaves the fewest GPUs stranded</b> (%2 s).").arg(policyName(best->policy)).arg(outcome->seconds, 0, 'f', 1));
    m_status->setText(lines.join(QStringLiteral("<br>")));
    emit finished(true);
}

void FragmentationPage::showMap()
{
    const size_t index = size_t(m_mapSlider->value());
    if (m_mapRun.snapshots.size() <= index)
        return;
    const int percent = mapPercents()[index];
    m_mapLabel->setText(tr("%1 %").arg(percent));
    m_map->setPicture({tr("Fragmentation map, %1 at %2 % arrived").arg(policyName(m_mapRun.policy)).arg(percent),
                       m_mapNodes, m_mapRun.snapshots[index]});
}

QString FragmentationPage::statusText() const
{
    return m_status->text();
}

QList<ChartPanel *> FragmentationPage::chartPanels() const
{
    return {m_allocation, m_ratio, m_unallocated};
}

std::optional<ChartFigure> FragmentationPage::currentFigure() const
{
    if (m_tabs->currentIndex() == 3)
        return m_map->figure();
    if (auto *panel = qobject_cast<ChartPanel *>(m_tabs->currentWidget()))
        return panel->figure();
    return std::nullopt;
}

} // namespace headroom::ui
