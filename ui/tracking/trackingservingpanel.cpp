#include "trackingservingpanel.h"

#include "trackingcharts.h"
#include "trackingsource.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "common/page.h"
#include "report/reportsnapshot.h"

#include "engine/inference/sizing_options.h"
#include "store/common/exportfile.h"
#include "store/tracking/metricscsv.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QApplication>
#include <QComboBox>
#include <QDate>
#include <QDateEdit>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

QTableWidget *newTable(const char *objectName, QWidget *parent)
{
    auto *table = new QTableWidget(parent);
    table->setObjectName(QLatin1String(objectName));
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

void fill(QTableWidget *view, const DeckTable &table)
{
    view->clear();
    view->setColumnCount(int(table.columns.size()));
    view->setHorizontalHeaderLabels(table.columns);
    view->setRowCount(int(table.rows.size()));
    for (int r = 0; r < table.rows.size(); ++r)
        for (int c = 0; c < table.rows[r].size(); ++c) {
            auto *item = new QTableWidgetItem(table.rows[r][c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            view->setItem(r, c, item);
        }
}

} // namespace

TrackingServingPanel::TrackingServingPanel(store::Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    setObjectName("trackingServingPanel");
    auto *layout = new QVBoxLayout(this);

    auto *controls = new QHBoxLayout;
    auto *metricsBox = new QGroupBox(tr("Serving metrics"), this);
    auto *metricsLayout = new QVBoxLayout(metricsBox);
    m_imports = new QComboBox(metricsBox);
    m_imports->setObjectName("servingImports");
    m_imports->setEnabled(false);
    metricsLayout->addWidget(m_imports);
    auto *importRow = new QHBoxLayout;
    m_import = new QPushButton(tr("Import metrics CSV…"), metricsBox);
    m_import->setObjectName("servingImport");
    m_import->setToolTip(tr("A DCGM-exporter / Prometheus range-query export in long form: "
                            "timestamp,instance,gpu,metric,value[,deployment][,le] with DCGM_FI_DEV_GPU_UTIL, "
                            "DCGM_FI_DEV_FB_USED, the vllm: serving gauges and counters and the TTFT / end-to-end "
                            "latency histogram buckets (le: the bucket's bound)"));
    m_remove = new QPushButton(tr("Remove"), metricsBox);
    m_remove->setObjectName("servingRemoveImport");
    importRow->addWidget(m_import, 1);
    importRow->addWidget(m_remove);
    metricsLayout->addLayout(importRow);
    auto *form = new QFormLayout;
    m_rateGpu = new QComboBox(metricsBox);
    m_rateGpu->setObjectName("servingRateGpu");
    m_rateGpu->setToolTip(tr("The on-demand rate savings and cost per 1M tokens are priced at: the lowest rate in "
                             "force today in the workspace's rate cards"));
    form->addRow(tr("Rate"), m_rateGpu);
    m_trailingDays = new QSpinBox(metricsBox);
    m_trailingDays->setObjectName("servingTrailingDays");
    m_trailingDays->setRange(0, 3660);
    m_trailingDays->setValue(7);
    m_trailingDays->setSpecialValueText(tr("all"));
    m_trailingDays->setSuffix(tr(" days"));
    form->addRow(tr("Rightsize over the last"), m_trailingDays);
    m_ttftSlo = new QSpinBox(metricsBox);
    m_ttftSlo->setObjectName("servingTtftSlo");
    m_ttftSlo->setRange(0, 60000);
    m_ttftSlo->setSingleStep(100);
    m_ttftSlo->setValue(0);
    m_ttftSlo->setSpecialValueText(tr("none (queue only)"));
    m_ttftSlo->setSuffix(tr(" ms"));
    m_ttftSlo->setToolTip(tr("Time to first token at P95 that an hour must meet to count toward a replica's capacity "
                             "(read from vllm:time_to_first_token_seconds_bucket); none: the waiting queue alone"));
    form->addRow(tr("TTFT SLO (P95)"), m_ttftSlo);
    metricsLayout->addLayout(form);
    controls->addWidget(metricsBox, 1);

    auto *optimizationBox = new QGroupBox(tr("Optimizations"), this);
    auto *optimizationLayout = new QFormLayout(optimizationBox);
    m_name = new QLineEdit(optimizationBox);
    m_name->setObjectName("servingOptimizationName");
    m_name->setPlaceholderText(tr("e.g. FP8 weights"));
    m_name->setMaxLength(200);
    optimizationLayout->addRow(tr("Name"), m_name);
    m_date = new QDateEdit(QDate::currentDate(), optimizationBox);
    m_date->setObjectName("servingOptimizationDate");
    m_date->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    m_date->setCalendarPopup(true);
    optimizationLayout->addRow(tr("In effect from"), m_date);
    m_note = new QLineEdit(optimizationBox);
    m_note->setObjectName("servingOptimizationNote");
    m_note->setPlaceholderText(tr("optional"));
    optimizationLayout->addRow(tr("Note"), m_note);
    // With the optimizations they measure: both boxes keep five rows, the window fits 1280 × 800.
    m_windowDays = new QSpinBox(optimizationBox);
    m_windowDays->setObjectName("servingWindowDays");
    m_windowDays->setRange(1, 366);
    m_windowDays->setValue(7);
    m_windowDays->setSuffix(tr(" days"));
    m_windowDays->setToolTip(tr("Days before and after each optimization the benchmark history compares"));
    optimizationLayout->addRow(tr("Benchmark windows"), m_windowDays);
    auto *buttons = new QHBoxLayout;
    m_add = new QPushButton(tr("Add"), optimizationBox);
    m_add->setObjectName("servingAddOptimization");
    m_removeOptimization = new QPushButton(tr("Remove selected"), optimizationBox);
    m_removeOptimization->setObjectName("servingRemoveOptimization");
    buttons->addWidget(m_add);
    buttons->addWidget(m_removeOptimization);
    optimizationLayout->addRow(buttons);
    controls->addWidget(optimizationBox, 1);
    layout->addLayout(controls);

    auto *statusRow = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setObjectName("servingStatus");
    m_status->setWordWrap(true);
    m_export = new QPushButton(tr("Export table CSV…"), this);
    m_export->setObjectName("servingExportCsv");
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_export);
    layout->addLayout(statusRow);

    // Charts above, the tables and the reasoning below, split by a movable handle.
    m_loadChart = new ChartPanel(this);
    m_loadChart->setObjectName("servingLoadChart");
    m_goodputChart = new ChartPanel(this);
    m_goodputChart->setObjectName("servingGoodputChart");
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName("servingChartTabs");
    m_chartTabs->addTab(m_loadChart, tr("Load and capacity"));
    m_chartTabs->addTab(m_goodputChart, tr("Goodput per GPU"));
    m_utilizationChart = new ChartPanel(this);
    m_utilizationChart->setObjectName("servingUtilizationChart");
    m_chartTabs->addTab(m_utilizationChart, tr("Utilization"));

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName("servingTabs");
    m_rightsizing = newTable("servingRightsizingTable", this);
    m_replicas = newTable("servingReplicasTable", this);
    m_benchmarks = newTable("servingBenchmarkTable", this);
    m_anomalies = newTable("servingAnomaliesTable", this);
    m_tabs->addTab(m_rightsizing, tr("Rightsizing"));
    m_tabs->addTab(m_benchmarks, tr("Benchmark history"));
    m_tabs->addTab(m_replicas, tr("Replicas"));
    m_tabs->addTab(m_anomalies, tr("Anomalies"));
    m_explanation = new QLabel(this);
    m_explanation->setObjectName("servingExplanation");
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanation->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(resultsColumn(this, m_chartTabs, m_tabs, m_explanation), 1);

    connect(m_import, &QPushButton::clicked, this, &TrackingServingPanel::importWithDialog);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const qint64 id = m_imports->currentData().toLongLong();
        if (id == 0)
            return;
        try {
            m_workspace.removeServingMetricsImport(id);
            m_status->setText(tr("Removed %1.").arg(m_imports->currentText()));
        } catch (const store::StoreError &e) {
            m_status->setText(e.message());
        }
    });
    connect(m_add, &QPushButton::clicked, this, [this] { addOptimization(m_name->text(), m_date->date(), m_note->text()); });
    connect(m_removeOptimization, &QPushButton::clicked, this, &TrackingServingPanel::removeSelectedOptimization);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::exportFileName(this, tr("Export table"), tr("%1.csv").arg(m_tabs->tabText(m_tabs->currentIndex()).toLower().replace(QLatin1Char(' '), QLatin1Char('-'))),
                                                     tr("CSV files (*.csv)"), {QStringLiteral("csv")});
        if (!path.isEmpty())
            exportCurrentTable(path);
    });
    connect(m_benchmarks, &QTableWidget::itemSelectionChanged, this, &TrackingServingPanel::updateButtons);
    // The chart follows the table: the benchmark history beside goodput per GPU, the anomalies
    // beside the daily utilization, the others beside load and capacity; the reasoning below
    // follows it too.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_chartTabs->setCurrentWidget(m_tabs->currentWidget() == m_benchmarks  ? m_goodputChart
                                      : m_tabs->currentWidget() == m_anomalies ? m_utilizationChart
                                                                               : m_loadChart);
        showExplanation();
    });
    // The load chart follows the deployment picked in the rightsizing table.
    connect(m_rightsizing, &QTableWidget::itemSelectionChanged, this, &TrackingServingPanel::showLoadChart);
    connect(m_rateGpu, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            recompute();
    });
    for (QSpinBox *box : {m_trailingDays, m_windowDays, m_ttftSlo})
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!m_updating)
                recompute();
        });
    connect(&m_workspace, &store::Workspace::servingMetricsChanged, this, &TrackingServingPanel::refreshImports);
    connect(&m_workspace, &store::Workspace::rateCardsChanged, this, &TrackingServingPanel::refreshRates);
    connect(&m_workspace, &store::Workspace::servingAssumptionsChanged, this, &TrackingServingPanel::recompute);
    refreshRates();
    refreshImports();
}

QString TrackingServingPanel::statusText() const
{
    return m_status->text();
}

void TrackingServingPanel::setRateGpu(const QString &gpuId)
{
    const int index = m_rateGpu->findData(gpuId);
    if (index >= 0)
        m_rateGpu->setCurrentIndex(index);
}

void TrackingServingPanel::refreshRates()
{
    const QString current = m_rateGpu->currentData().toString();
    m_updating = true;
    m_rateGpu->clear();
    m_rateGpu->addItem(tr("No rate (no money figures)"), QString());
    const auto rates = engine::onDemandRates(m_workspace.rateCards(),
                                             QDate::currentDate().toString(Qt::ISODate).toStdString(), "USD");
    for (const engine::GpuRate &rate : rates)
        m_rateGpu->addItem(tr("%1 · %2/GPU-h").arg(QString::fromStdString(rate.gpuId),
                                                   QString::fromStdString(rate.perGpuHour.displayRate())),
                           QString::fromStdString(rate.gpuId));
    const int index = m_rateGpu->findData(current);
    m_rateGpu->setCurrentIndex(index >= 0 ? index : 0);
    m_updating = false;
    recompute();
}

void TrackingServingPanel::refreshImports()
{
    m_updating = true;
    m_imports->clear();
    for (const store::ServingMetricsImport &entry : m_workspace.servingMetricsImports())
        m_imports->addItem(tr("%1 (%2 replica-hours)").arg(entry.fileName).arg(entry.hourCount), entry.id);
    if (m_imports->count() == 0)
        m_imports->addItem(tr("No serving metrics imported"), qint64(0));
    m_imports->setEnabled(m_imports->currentData().toLongLong() != 0);
    m_updating = false;
    recompute();
}

void TrackingServingPanel::recompute()
{
    ServingSettings settings;
    settings.gpuId = m_rateGpu->currentData().toString();
    settings.trailingDays = m_trailingDays->value();
    settings.windowDays = m_windowDays->value();
    settings.ttftSloMs = m_ttftSlo->value();
    m_settings = settings;
    try {
        m_analysis = analyseServing(m_workspace, settings);
    } catch (const std::exception &e) {
        m_status->setText(tr("Cannot read the serving metrics: %1").arg(QString::fromUtf8(e.what())));
        m_analysis = ServingAnalysis{};
    }
    fill(m_rightsizing, rightsizingTable(m_analysis));
    fill(m_replicas, replicasTable(m_analysis));
    fill(m_benchmarks, benchmarkTable(m_analysis));
    fill(m_anomalies, telemetryAnomalyTable(m_analysis));
    m_goodputChart->setFigure(withServingSource(goodputFigure(m_analysis), "serving-goodput", m_settings));
    m_utilizationChart->setFigure(
        withServingSource(servingUtilizationFigure(m_analysis), "serving-utilization", m_settings));
    if (!m_analysis.rightsizing.empty())
        m_rightsizing->selectRow(0);
    showLoadChart();
    showExplanation();
    updateButtons();
}

void TrackingServingPanel::showExplanation()
{
    if (!m_analysis.hasMetrics)
        m_explanation->setText(tr("No serving metrics in this workspace yet. Import a DCGM-exporter / vLLM range-query "
                                  "export (Import metrics CSV…, or headroom track import --metrics FILE.csv) to see "
                                  "whether fewer replicas would hold the measured load, how each optimization "
                                  "changed goodput per GPU and cost per 1M tokens, and where the fleet's daily GPU "
                                  "utilization left its forecast."));
    else if (m_tabs->currentWidget() == m_anomalies)
        m_explanation->setText(telemetryAnomalyExplanation(m_analysis));
    else
        m_explanation->setText(rightsizingExplanation(m_analysis));
}

void TrackingServingPanel::updateButtons()
{
    const bool writable = !m_workspace.isReadOnly();
    m_import->setEnabled(writable);
    m_remove->setEnabled(writable && m_imports->currentData().toLongLong() != 0);
    m_add->setEnabled(writable);
    m_removeOptimization->setEnabled(writable && !m_benchmarks->selectionModel()->selectedRows().isEmpty());
}

void TrackingServingPanel::importWithDialog()
{
    const QString path = Dialogs::openFileName(this, tr("Import serving metrics"), tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

bool TrackingServingPanel::importFile(const QString &path)
{
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        const store::MetricsFile file = store::readMetricsCsv(path);
        const QString name = QFileInfo(path).fileName();
        m_workspace.importServingMetrics(name, file.rows, file.ignoredRows(), file.hours);
        QApplication::restoreOverrideCursor();
        QString ignored;
        if (file.ignoredRows() > 0)
            ignored = tr("; %1 rows of other metrics ignored").arg(file.ignoredRows());
        m_status->setText(tr("Imported %1: %2 samples, %3 replica-hours%4.")
                              .arg(name)
                              .arg(file.samples)
                              .arg(file.hours.hours.size())
                              .arg(ignored));
        return true;
    } catch (const store::StoreError &e) {
        QApplication::restoreOverrideCursor();
        m_status->setText(tr("Not imported: %1").arg(e.message()));
        return false;
    }
}

bool TrackingServingPanel::addOptimization(const QString &name, const QDate &date, const QString &note)
{
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty()) {
        m_status->setText(tr("Give the optimization a name."));
        return false;
    }
    if (!date.isValid()) {
        m_status->setText(tr("Give the date the optimization took effect."));
        return false;
    }
    try {
        m_workspace.addOptimization({trimmed.toStdString(), QDate(1970, 1, 1).daysTo(date), note.trimmed().toStdString()});
    } catch (const store::StoreError &e) {
        m_status->setText(e.message());
        return false;
    }
    m_status->setText(tr("Added “%1” from %2.").arg(trimmed, date.toString(Qt::ISODate)));
    m_name->clear();
    m_note->clear();
    return true;
}

bool TrackingServingPanel::removeSelectedOptimization()
{
    const auto rows = m_benchmarks->selectionModel()->selectedRows();
    if (rows.isEmpty() || rows.first().row() >= int(m_analysis.benchmarks.size()))
        return false;
    const QString name = QString::fromStdString(m_analysis.benchmarks[size_t(rows.first().row())].optimization.name);
    try {
        if (!m_workspace.removeOptimization(name))
            return false;
    } catch (const store::StoreError &e) {
        m_status->setText(e.message());
        return false;
    }
    m_status->setText(tr("Removed “%1”.").arg(name));
    return true;
}

void TrackingServingPanel::showLoadChart()
{
    const auto rows = m_rightsizing->selectionModel()->selectedRows();
    const int row = rows.isEmpty() ? 0 : rows.first().row();
    if (row < int(m_analysis.rightsizing.size()))
        m_loadChart->setFigure(withServingSource(servingLoadFigure(m_analysis.rightsizing[size_t(row)]), "serving-load",
                                                 m_settings,
                                                 QString::fromStdString(m_analysis.rightsizing[size_t(row)].deployment)));
    else
        m_loadChart->setFigure(emptyFigure(tr("Load and capacity"), tr("No serving metrics in this workspace.")));
}

QList<ChartPanel *> TrackingServingPanel::chartPanels() const
{
    // The chart on the tab shown first: File ▸ Export and Add to Report act on what is seen.
    QList<ChartPanel *> panels{m_loadChart, m_goodputChart, m_utilizationChart};
    if (auto *current = qobject_cast<ChartPanel *>(m_chartTabs->currentWidget()))
        panels.move(panels.indexOf(current), 0);
    return panels;
}

std::optional<DeckTable> TrackingServingPanel::currentTable() const
{
    if (auto *table = qobject_cast<QTableWidget *>(m_tabs->currentWidget()))
        return snapshotTable(*table);
    return std::nullopt;
}

QJsonObject TrackingServingPanel::currentTableSource() const
{
    const QWidget *shown = m_tabs->currentWidget();
    const char *kind = shown == m_rightsizing ? "serving-rightsizing-table"
        : shown == m_benchmarks               ? "serving-benchmarks-table"
        : shown == m_anomalies                ? "serving-anomalies-table"
        : shown == m_replicas                 ? "serving-replicas-table"
                                              : nullptr;
    if (!kind)
        return {};
    return shownTableSource(*static_cast<const QTableWidget *>(shown),
                            withServingSource(ChartFigure{}, kind, m_settings).source);
}

bool TrackingServingPanel::exportCurrentTable(const QString &path)
{
    QWidget *current = m_tabs->currentWidget();
    const DeckTable table = current == m_rightsizing ? rightsizingTable(m_analysis)
        : current == m_benchmarks                    ? benchmarkTable(m_analysis)
        : current == m_anomalies                     ? telemetryAnomalyTable(m_analysis)
                                                     : replicasTable(m_analysis);
    try {
        store::writeExportFile(path, deckTableCsv(table), store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        m_status->setText(tr("Export failed: %1").arg(e.message()));
        return false;
    }
    m_status->setText(tr("Exported %1 rows to %2.").arg(table.rows.size()).arg(path));
    return true;
}

} // namespace headroom::ui
