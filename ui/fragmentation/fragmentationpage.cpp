#include "fragmentationpage.h"

#include "common/format.h"
#include "common/chartpanel.h"
#include "common/dialogs.h"
#include "engine/common/errors.h"
#include "fragmapview.h"
#include "store/fragmentation/fragtrace.h"
#include "store/common/storeerror.h"

#include <cmath>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QHeaderView>
#include <QTabWidget>
#include <QTableWidget>
#include "report/reportreads.h"
#include <QVBoxLayout>

namespace headroom::ui {

namespace frag = engine::frag;

struct FragmentationPage::Outcome {
    std::vector<PolicyRuns> runs;
    frag::SeedsResult fgdExact;
    frag::SeedsResult fgdStudy;
    std::vector<frag::Node> mapNodes;
    frag::RunResult mapRun;
    QJsonObject source;     // what the run read, for the report
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
    m_tabs->setObjectName("fragTabs");
    m_tabs->addTab(m_allocation, tr("Allocation"));
    m_tabs->addTab(m_ratio, tr("Fragmentation ratio"));
    m_tabs->addTab(m_unallocated, tr("Unallocated GPUs"));
    m_tabs->addTab(buildScoringTab(), tr("FGD: study vs exact"));
    m_tabs->addTab(mapPage, tr("Fragmentation map"));

    layOutPage(buildInputs(), m_tabs, 380);
}

FragmentationPage::~FragmentationPage() = default;

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
    m_mode = new QComboBox(runBox);
    m_mode->setObjectName("fragMode");
    m_mode->addItem(tr("Study (whole-number scores)"), int(frag::ScoreMode::Study));
    m_mode->addItem(tr("Exact scores"), int(frag::ScoreMode::Exact));
    m_mode->setToolTip(tr("Study: score as the FGD study's Kubernetes plugins do — whole numbers 0–100, ties "
                          "going to a node ranking drawn from the seed; this reproduces its published results. "
                          "Exact: real-valued scores, ties by node order."));
    runForm->addRow(tr("Load:"), m_load);
    runForm->addRow(tr("Scoring:"), m_mode);

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

void FragmentationPage::setScoreMode(frag::ScoreMode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
}

frag::ScoreMode FragmentationPage::scoreMode() const
{
    return frag::ScoreMode(m_mode->currentData().toInt());
}

QWidget *FragmentationPage::buildScoringTab()
{
    m_scoring = new ChartPanel(this);
    m_scoring->setObjectName("fragScoringChart");
    m_scoringTable = newResultsTable("fragScoringTable");
    m_scoringTable->setColumnCount(3);
    m_scoringTable->setHorizontalHeaderLabels({tr("GPU request"), tr("FGD exact: failed"), tr("FGD study: failed")});
    m_scoringText = newExplanation("fragScoringText");
    m_scoringText->setText(tr("Run the experiment to compare FGD's exact and whole-number scores."));
    return resultsColumn(m_scoring, m_scoringTable, m_scoringText);
}

bool FragmentationPage::isRunning() const
{
    return m_job.isRunning();
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
    const frag::ScoreMode mode = scoreMode();
    auto outcome = std::make_shared<Outcome>();
    // Nothing of the workspace: the trace files only.
    outcome->source = withFileReads({{QStringLiteral("kind"), QStringLiteral("fragmentation-run")}}, {nodesPath, tasksPath});
    auto work = [=](const JobProgress &progress) {
        auto report = [&progress](double overall) { return progress.report(overall); };
        QElapsedTimer timer;
        timer.start();
        try {
            const auto nodes = store::readFragNodes(nodesPath);
            const auto tasks = store::readFragTasks(tasksPath);
            // The policies, FGD in the other scoring (for the comparison), and the map's run.
            const double steps = double(policies.size()) + 2;
            for (size_t i = 0; i < policies.size(); ++i) {
                frag::RunOptions options;
                options.policy = policies[i];
                options.load = load;
                options.mode = mode;
                const auto result = frag::simulateSeeds(nodes, tasks, options, seeds, 0, [&](double p) {
                    return report((double(i) + p) / steps);
                });
                outcome->runs.push_back({policies[i], result});
                if (policies[i] == frag::Policy::Fgd)
                    (mode == frag::ScoreMode::Study ? outcome->fgdStudy : outcome->fgdExact) = result;
            }
            for (const frag::ScoreMode other : {frag::ScoreMode::Study, frag::ScoreMode::Exact}) {
                frag::SeedsResult &target = other == frag::ScoreMode::Study ? outcome->fgdStudy : outcome->fgdExact;
                if (!target.runs.empty())
                    continue;
                frag::RunOptions options;
                options.load = load;
                options.mode = other;
                target = frag::simulateSeeds(nodes, tasks, options, seeds, 0, [&](double p) {
                    return report((steps - 2 + p) / steps);
                });
            }
            frag::RunOptions mapOptions;
            mapOptions.policy = policies.front();
            mapOptions.load = load;
            mapOptions.mode = mode;
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
    };
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_status->setText(tr("Running %1 × %2…").arg(formatCountOf(int64_t(policies.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n polic(y|ies)")), formatCountOf(int64_t(seeds.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n seed(s)"))));
    m_job.start(this, m_progress, work, [this, outcome] { showResults(outcome); });
}

void FragmentationPage::cancel()
{
    m_job.cancel();
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
    m_fgdExact = outcome->fgdExact;
    m_fgdStudy = outcome->fgdStudy;
    m_runSource = outcome->source;
    const std::vector<PolicyRuns> runs = m_results;
    const int64_t gpus = runs.empty() || runs.front().result.runs.empty() ? 0 : runs.front().result.runs.front().gpus;
    const QString setup = tr("%1; tasks arrive until %2 × capacity is requested; mean of %3; %4 scoring.")
                              .arg(formatGpus(gpus))
                              .arg(m_load->value(), 0, 'f', 1)
                              .arg(formatCountOf(m_seeds->value(), QT_TRANSLATE_NOOP("headroom::ui", "%n seed(s)")))
                              .arg(scoreMode() == frag::ScoreMode::Study ? tr("the study's") : tr("exact"));
    m_allocation->setFigure(withSource({tr("GPU allocation vs arrived workload"), setup,
                             [runs](QChart::ChartTheme theme) {
                                 return buildAllocationChart(runs, tr("GPU allocation vs arrived workload"), theme);
                             }}));
    m_ratio->setFigure(withSource({tr("Fragmentation ratio vs arrived workload"),
                        tr("Share of idle GPU that is fragment for the target workload. ") + setup,
                        [runs](QChart::ChartTheme theme) {
                            return buildFragRatioChart(runs, tr("Fragmentation ratio vs arrived workload"), theme);
                        }}));
    m_unallocated->setFigure(withSource({tr("Unallocated GPUs at 100 % arrived"),
                              tr("GPUs left idle when the arrived work equals the cluster's capacity; fewer is "
                                 "better. ") + setup,
                              [runs](QChart::ChartTheme theme) {
                                  return buildUnallocatedChart(runs, tr("Unallocated GPUs at 100 % arrived"), theme);
                              }}));
    showMap();
    showScoringComparison(m_load->value());
    QStringList lines;
    const PolicyRuns *best = nullptr;
    for (const PolicyRuns &r : m_results) {
        lines << tr("%1: %2 % allocated at 100 % arrived, %3 unallocated")
                     .arg(policyName(r.policy))
                     .arg(r.result.allocatedPctAt100.mean, 0, 'f', 1)
                     .arg(formatGpus(std::llround(r.result.unallocatedGpusAt100.mean)));
        if (!best || r.result.unallocatedGpusAt100.mean < best->result.unallocatedGpusAt100.mean)
            best = &r;
    }
    if (best)
        lines.prepend(tr("<b>%1 leaves the fewest GPUs stranded</b> (%2 s).").arg(policyName(best->policy)).arg(outcome->seconds, 0, 'f', 1));
    m_status->setText(lines.join(QStringLiteral("<br>")));
    emit finished(true);
}

void FragmentationPage::showScoringComparison(double load)
{
    const frag::SeedsResult exact = m_fgdExact;
    const frag::SeedsResult study = m_fgdStudy;
    if (exact.runs.empty() || study.runs.empty())
        return;
    const QString title = tr("FGD: exact against the study's whole-number scores");
    m_scoring->setFigure(withSource({title,
                          tr("Tasks that found no node before the arrived work reached the cluster's capacity, by "
                             "GPU request; mean of %1 at %2 × load.")
                              .arg(formatCountOf(int64_t(exact.runs.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n seed(s)")))
                              .arg(load, 0, 'f', 1),
                          [exact, study, title](QChart::ChartTheme theme) {
                              return buildFgdScoringChart(exact, study, title, theme);
                          }}));
    const std::vector<size_t> classes = requestClasses({&exact, &study});
    m_scoringTable->setRowCount(int(classes.size()) + 1);
    double exactGpus = 0, studyGpus = 0;
    for (size_t r = 0; r < classes.size(); ++r) {
        const double e = meanFailedAt100(exact, classes[r]);
        const double s = meanFailedAt100(study, classes[r]);
        m_scoringTable->setItem(int(r), 0, new QTableWidgetItem(requestClassName(classes[r])));
        m_scoringTable->setItem(int(r), 1, new QTableWidgetItem(QString::number(e, 'f', 1)));
        m_scoringTable->setItem(int(r), 2, new QTableWidgetItem(QString::number(s, 'f', 1)));
        if (classes[r] > 0) {
            exactGpus += e * double(classes[r]);
            studyGpus += s * double(classes[r]);
        }
    }
    const int last = int(classes.size());
    m_scoringTable->setItem(last, 0, new QTableWidgetItem(tr("Allocated at 100 % arrived")));
    m_scoringTable->setItem(last, 1, new QTableWidgetItem(tr("%1 %").arg(exact.allocatedPctAt100.mean, 0, 'f', 2)));
    m_scoringTable->setItem(last, 2, new QTableWidgetItem(tr("%1 %").arg(study.allocatedPctAt100.mean, 0, 'f', 2)));
    for (int r = 0; r <= last; ++r)
        for (int c = 1; c < 3; ++c)
            m_scoringTable->item(r, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_scoringText->setText(
        tr("<b>Why the coarse score packs better.</b> The study's FGD score is int(sigmoid(Δ / 1000) × 100), Δ the "
           "drop of expected fragment in milli-GPU: near Δ = 0 one point is about 40 milli-GPU, so placements whose "
           "fragmentation changes differ by less than that tie, and ties always go to the same node ranking, drawn "
           "once per seed. Among near-equal placements the coarse score therefore acts like first-fit: it keeps "
           "filling the node it filled last and leaves the others idle. Exact FGD lets differences of a few "
           "milli-GPU decide, and those point to a different node from one task to the next, so it opens many "
           "nodes and leaves a few whole GPUs free on each; whole 8-GPU nodes and whole GPUs run out sooner and "
           "the one-, four- and eight-GPU tasks that need them fail. (On the default Alibaba trace, seeds 42–51, "
           "at 80 % arrived the study's scoring still has about 96 idle 8-GPU nodes against 41, and 18 partly "
           "used nodes with a whole GPU free against 137.) In this run exact FGD failed whole-GPU tasks worth %1 "
           "GPUs before 100 % arrived and the study's scoring %2; it allocated %3 % against %4 %.")
            .arg(exactGpus, 0, 'f', 0)
            .arg(studyGpus, 0, 'f', 0)
            .arg(exact.allocatedPctAt100.mean, 0, 'f', 2)
            .arg(study.allocatedPctAt100.mean, 0, 'f', 2));
}

void FragmentationPage::showMap()
{
    const size_t index = size_t(m_mapSlider->value());
    if (m_mapRun.snapshots.size() <= index)
        return;
    const int percent = mapPercents()[index];
    m_mapLabel->setText(tr("%1 %").arg(percent));
    m_map->setPicture({tr("Fragmentation map, %1 at %2 % arrived").arg(policyName(m_mapRun.policy)).arg(percent),
                       m_mapNodes, m_mapRun.snapshots[index], m_runSource});
}

ChartFigure FragmentationPage::withSource(ChartFigure figure) const
{
    figure.source = m_runSource;
    return figure;
}

QJsonObject FragmentationPage::currentTableSource() const
{
    return m_runSource.isEmpty() ? QJsonObject() : shownTableSource(*m_scoringTable, m_runSource);
}

QString FragmentationPage::statusText() const
{
    return m_status->text();
}

QList<ChartPanel *> FragmentationPage::chartPanels() const
{
    return {m_allocation, m_ratio, m_unallocated, m_scoring};
}

std::optional<ChartFigure> FragmentationPage::currentFigure() const
{
    if (m_tabs->currentWidget() == m_map->parentWidget())
        return m_map->figure();
    if (m_tabs->currentIndex() == 3)
        return m_scoring->figure();
    if (auto *panel = qobject_cast<ChartPanel *>(m_tabs->currentWidget()))
        return panel->figure();
    return std::nullopt;
}

} // namespace headroom::ui
