#include "trackingpage.h"

#include "metricssource.h"
#include "trackingchargebackpanel.h"
#include "trackingjobspanel.h"
#include "trackingservingpanel.h"

#include "commitmentnextterm.h"

#include "trackingcharts.h"
#include "trackingsource.h"
#include "trackingtables.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "common/format.h"
#include "engine/common/errors.h"
#include "engine/fleet/scenario.h"
#include "report/reportsnapshot.h"
#include "store/tracking/focuscsv.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QSplitter>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

const QString kErrorStyle = QStringLiteral("<span style='color:#c0392b'>%1</span>");

QString qs(const std::string &text) { return QString::fromStdString(text); }

QString money(const engine::Decimal &amount, const std::string &currency)
{
    return qs(engine::Money{amount, currency}.display());
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(QString::number(100.0 * share, 'f', 1));
}

// What the worker thread hands back.
struct ImportOutcome {
    std::optional<engine::ActualsSummary> summary;
    QStringList warnings;
    QString error;
    bool cancelled = false;
    double seconds = 0;
};

} // namespace

TrackingPage::TrackingPage(store::Workspace &workspace, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
{
    setObjectName("trackingPage");
    // Billing: its inputs beside its results; Serving: the whole width for its own inputs and tables.
    QWidget *billing = inputsBeside(buildInputs(), buildResults(), 330);
    m_serving = new TrackingServingPanel(m_workspace, this);
    m_sections = new QTabWidget(this);
    m_sections->setObjectName("trackingSections");
    m_sections->addTab(billing, tr("Billing"));
    m_sections->addTab(m_serving, tr("Serving"));
    m_chargeback = new TrackingChargebackPanel(m_workspace, this);
    m_sections->addTab(m_chargeback, tr("Chargeback"));
    m_jobs = new TrackingJobsPanel(m_workspace, this);
    m_sections->addTab(m_jobs, tr("Training jobs"));
    m_sections->setTabToolTip(3, tr("Training jobs' data-loading stalls and goodput per GPU against plan, from their "
                                    "telemetry"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    // The connected metrics source: as of when, and a refresh; hidden when none is connected.
    m_sourceStrip = new QWidget(this);
    auto *strip = new QHBoxLayout(m_sourceStrip);
    strip->setContentsMargins(0, 0, 0, 0);
    m_sourceStatus = new QLabel(m_sourceStrip);
    m_sourceStatus->setObjectName("trackingSourceStatus");
    m_sourceStatus->setWordWrap(true);
    m_sourceStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sourceRefresh = new QPushButton(tr("Pull now"), m_sourceStrip);
    m_sourceRefresh->setObjectName("trackingSourceRefresh");
    m_sourceRefresh->setToolTip(tr("Pull the hours not yet stored from the connected metrics source now"));
    strip->addWidget(m_sourceStatus, 1);
    strip->addWidget(m_sourceRefresh);
    m_sourceStrip->hide();
    layout->addWidget(m_sourceStrip);
    layout->addWidget(m_sections);
    m_metricsSource = new MetricsSourceConnection(m_workspace, this);
    connect(m_metricsSource, &MetricsSourceConnection::stateChanged, this, &TrackingPage::showSourceState);
    connect(m_sourceRefresh, &QPushButton::clicked, m_metricsSource, &MetricsSourceConnection::refreshNow);
    if (const auto remembered = MetricsSourceSettings::load(m_workspace.path())) {
        try {
            m_metricsSource->connectTo(*remembered);
        } catch (const store::StoreError &e) {
            m_sourceStatus->setText(kErrorStyle.arg(tr("Metrics source not connected: %1").arg(e.message()).toHtmlEscaped()));
            m_sourceStrip->show();
        }
    }
    connect(&m_workspace, &store::Workspace::actualsChanged, this, &TrackingPage::refreshImports);
    connect(&m_workspace, &store::Workspace::scenariosChanged, this, &TrackingPage::refreshScenarios);
    refreshScenarios();
    refreshImports();
}

TrackingPage::~TrackingPage()
{
    if (m_worker) {
        if (m_cancelled)
            *m_cancelled = true;
        m_worker->wait();
    }
}

QWidget *TrackingPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);

    auto *actualsBox = new QGroupBox(tr("Billing actuals"), panel);
    auto *actualsLayout = new QVBoxLayout(actualsBox);
    m_imports = new QComboBox(actualsBox);
    m_imports->setObjectName("trackingImports");
    m_imports->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_imports->setMinimumContentsLength(16);
    m_imports->setPlaceholderText(tr("No actuals imported"));
    m_imports->setToolTip(tr("Imported FOCUS files, newest first; the workspace keeps each file's summary"));
    actualsLayout->addWidget(m_imports);
    auto *buttons = new QHBoxLayout;
    m_import = new QPushButton(tr("Import FOCUS CSV…"), actualsBox);
    m_import->setObjectName("trackingImport");
    m_import->setToolTip(tr("A FinOps FOCUS 1.x cost-and-usage export: ChargePeriodStart/End, ChargeCategory, "
                            "BilledCost, EffectiveCost, CommitmentDiscountId/Status, … A file of the same name "
                            "replaces its earlier import."));
    m_remove = new QPushButton(tr("Remove"), actualsBox);
    m_remove->setObjectName("trackingRemove");
    buttons->addWidget(m_import, 1);
    buttons->addWidget(m_remove);
    actualsLayout->addLayout(buttons);
    auto *progressRow = new QHBoxLayout;
    m_progress = new QProgressBar(actualsBox);
    m_progress->setObjectName("trackingProgress");
    m_progress->setRange(0, 1000);
    m_cancel = new QPushButton(tr("Cancel"), actualsBox);
    m_cancel->setObjectName("trackingCancel");
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    actualsLayout->addLayout(progressRow);
    m_status = new QLabel(actualsBox);
    m_status->setObjectName("trackingStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Room for a wrapped message (file, line and field of a refused import).
    m_status->setMinimumHeight(m_status->fontMetrics().lineSpacing() * 4);
    m_status->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    actualsLayout->addWidget(m_status);
    layout->addWidget(actualsBox);

    auto *settingsBox = new QGroupBox(tr("Tracking"), panel);
    auto *form = new QFormLayout(settingsBox);
    m_currency = new QComboBox(settingsBox);
    m_currency->setObjectName("trackingCurrency");
    m_currency->setToolTip(tr("Amounts in different currencies are never added: one currency at a time"));
    form->addRow(tr("Currency"), m_currency);
    m_threshold = new QDoubleSpinBox(settingsBox);
    m_threshold->setObjectName("trackingThreshold");
    m_threshold->setRange(1, 100);
    m_threshold->setDecimals(0);
    m_threshold->setValue(80);
    m_threshold->setSuffix(tr(" % utilization"));
    m_threshold->setToolTip(tr("A commitment is flagged under-used when its utilization over the trailing window "
                               "is below this"));
    form->addRow(tr("Under-used below"), m_threshold);
    m_trailingDays = new QSpinBox(settingsBox);
    m_trailingDays->setObjectName("trackingTrailingDays");
    m_trailingDays->setRange(1, 3660);
    m_trailingDays->setValue(30);
    m_trailingDays->setSuffix(tr(" days"));
    m_trailingDays->setToolTip(tr("The trailing window, back from each commitment's last charged hour"));
    form->addRow(tr("Trailing window"), m_trailingDays);
    m_scenario = new QComboBox(settingsBox);
    m_scenario->setObjectName("trackingScenario");
    m_scenario->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scenario->setMinimumContentsLength(12);
    m_scenario->setToolTip(tr("The fleet scenario whose planned cost per day is compared with the actuals"));
    form->addRow(tr("Plan (scenario)"), m_scenario);
    m_driftDays = new QSpinBox(settingsBox);
    m_driftDays->setObjectName("trackingDriftDays");
    m_driftDays->setRange(1, 60);
    m_driftDays->setValue(3);
    m_driftDays->setSuffix(tr(" days"));
    m_driftDays->setToolTip(tr("Drift: this many days in a row outside the forecast's P0.5–P99.5 band"));
    form->addRow(tr("Drift after"), m_driftDays);
    layout->addWidget(settingsBox);
    layout->addStretch(1);

    connect(m_import, &QPushButton::clicked, this, &TrackingPage::importWithDialog);
    connect(m_cancel, &QPushButton::clicked, this, &TrackingPage::cancel);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (m_importId == 0 || isRunning())
            return;
        try {
            m_workspace.removeActualsImport(m_importId);
        } catch (const store::StoreError &e) {
            m_status->setText(kErrorStyle.arg(e.message().toHtmlEscaped()));
        }
    });
    connect(m_imports, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            loadImport();
    });
    for (QComboBox *box : {m_currency, m_scenario})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_updating)
                recompute();
        });
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_updating)
            recompute();
    });
    for (QSpinBox *box : {m_trailingDays, m_driftDays})
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!m_updating)
                recompute();
        });
    updateButtons();
    return panel;
}

QWidget *TrackingPage::buildResults()
{
    m_resultsStack = new QStackedWidget(this);
    m_empty = new QLabel(m_resultsStack);
    m_empty->setObjectName("trackingEmpty");
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMargin(40);
    m_empty->setText(tr("<p style='font-size:13pt'>No billing actuals in this workspace yet.</p>"
                        "<p>Import a FOCUS 1.x cost-and-usage export (Import FOCUS CSV… on the left, or "
                        "<code>headroom track import --focus FILE.csv</code>) to see how the commitments are used, "
                        "where spend leaves its forecast and how far it drifts from a scenario's plan.</p>"));
    m_resultsStack->addWidget(m_empty);

    auto *cards = new QWidget(this);
    auto *cardRow = new QHBoxLayout(cards);
    cardRow->setContentsMargins(0, 0, 0, 0);
    m_cardCost = newResultCard("trackingCardCost");
    m_cardUtilization = newResultCard("trackingCardUtilization");
    m_cardUnused = newResultCard("trackingCardUnused");
    m_cardOverflow = newResultCard("trackingCardOverflow");
    for (QLabel *card : {m_cardCost, m_cardUtilization, m_cardUnused, m_cardOverflow})
        cardRow->addWidget(card, 1);

    m_utilizationChart = new ChartPanel(this);
    m_utilizationChart->setObjectName("trackingUtilizationChart");
    m_trackerChart = new ChartPanel(this);
    m_trackerChart->setObjectName("trackingTrackerChart");
    m_planChart = new ChartPanel(this);
    m_planChart->setObjectName("trackingPlanChart");
    m_anomalyChart = new ChartPanel(this);
    m_anomalyChart->setObjectName("trackingAnomalyChart");
    auto *utilizationTab = new QWidget(this);
    auto *utilizationLayout = new QVBoxLayout(utilizationTab);
    utilizationLayout->setContentsMargins(0, 4, 0, 0);
    auto *choiceRow = new QHBoxLayout;
    m_commitmentChoice = new QComboBox(utilizationTab);
    m_commitmentChoice->setObjectName("trackingCommitmentChoice");
    m_commitmentChoice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_commitmentChoice->setMinimumContentsLength(30);
    choiceRow->addWidget(new QLabel(tr("Commitment"), utilizationTab));
    choiceRow->addWidget(m_commitmentChoice, 1);
    utilizationLayout->addLayout(choiceRow);
    utilizationLayout->addWidget(m_utilizationChart, 1);
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->setObjectName("trackingChartTabs");
    m_chartTabs->addTab(utilizationTab, tr("Commitment utilization"));
    m_chartTabs->addTab(m_trackerChart, tr("All commitments"));
    m_chartTabs->addTab(m_planChart, tr("Plan vs actual"));
    m_chartTabs->addTab(m_anomalyChart, tr("Anomalies"));
    connect(m_commitmentChoice, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            showCommitmentChart();
    });

    m_commitments = newResultsTable("trackingCommitmentsTable");
    m_anomalies = newResultsTable("trackingAnomaliesTable");
    m_anomalies->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_anomalies->setSelectionMode(QAbstractItemView::SingleSelection);
    m_planDays = newResultsTable("trackingPlanTable");
    m_tableTabs = new QTabWidget(this);
    m_tableTabs->setObjectName("trackingTableTabs");
    m_tableTabs->addTab(m_commitments, tr("Commitments"));
    m_nextTerm = newResultsTable("trackingNextTermTable");
    m_tableTabs->addTab(m_nextTerm, tr("Next term"));
    m_tableTabs->addTab(m_anomalies, tr("Anomalies"));
    m_tableTabs->addTab(m_planDays, tr("Plan vs actual by day"));
    connect(m_anomalies, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = m_anomalies->selectionModel()->selectedRows();
        highlightAnomaly(rows.isEmpty() ? -1 : rows.first().row());
    });
    m_explanation = newExplanation("trackingExplanation");

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(cards);
    topLayout->addWidget(m_chartTabs, 1);
    m_resultsStack->addWidget(resultsColumn(top, m_tableTabs, m_explanation));
    return m_resultsStack;
}

void TrackingPage::connectMetricsSourceWithDialog()
{
    MetricsSourceDialog dialog(m_metricsSource->settings(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (dialog.disconnectRequested()) {
        m_metricsSource->disconnectSource();
        MetricsSourceSettings::forget(m_workspace.path());
        return;
    }
    const MetricsSourceSettings settings = dialog.settings();
    try {
        m_metricsSource->connectTo(settings);
    } catch (const store::StoreError &e) {
        m_sourceStatus->setText(kErrorStyle.arg(tr("Metrics source not connected: %1").arg(e.message()).toHtmlEscaped()));
        m_sourceStrip->show();
        return;
    }
    MetricsSourceSettings::save(m_workspace.path(), settings);
    showServing();
}

void TrackingPage::showSourceState()
{
    m_sourceStrip->setVisible(m_metricsSource->isConnected());
    const QString text = m_metricsSource->statusText();
    m_sourceStatus->setText(m_metricsSource->lastError().isEmpty() ? text.toHtmlEscaped()
                                                                   : kErrorStyle.arg(text.toHtmlEscaped()));
    m_sourceRefresh->setEnabled(m_metricsSource->isConnected() && !m_metricsSource->isPulling()
                                && !m_workspace.isReadOnly());
}

void TrackingPage::showServing()
{
    m_sections->setCurrentWidget(m_serving);
}

void TrackingPage::showChargeback()
{
    m_sections->setCurrentWidget(m_chargeback);
}

void TrackingPage::showTrainingJobs()
{
    m_sections->setCurrentWidget(m_jobs);
}

QList<ChartPanel *> TrackingPage::chartPanels() const
{
    if (m_sections->currentWidget() == m_serving)
        return m_serving->chartPanels();
    if (m_sections->currentWidget() == m_chargeback)
        return m_chargeback->chartPanels();
    if (m_sections->currentWidget() == m_jobs)
        return m_jobs->chartPanels();
    // The chart on the tab shown first: File ▸ Export and Add to Report act on what is seen.
    QList<ChartPanel *> panels{m_utilizationChart, m_trackerChart, m_planChart, m_anomalyChart};
    const int shown = m_chartTabs->currentIndex();
    if (shown > 0)
        panels.move(shown, 0);
    return panels;
}

std::optional<DeckTable> TrackingPage::currentTable() const
{
    if (m_sections->currentWidget() == m_serving)
        return m_serving->currentTable();
    if (m_sections->currentWidget() == m_chargeback)
        return m_chargeback->currentTable();
    if (m_sections->currentWidget() == m_jobs)
        return m_jobs->currentTable();
    if (auto *table = qobject_cast<QTableWidget *>(m_tableTabs->currentWidget()))
        return snapshotTable(*table);
    return Page::currentTable();
}

QJsonObject TrackingPage::currentTableSource() const
{
    if (m_sections->currentWidget() == m_serving)
        return m_serving->currentTableSource();
    if (m_sections->currentWidget() == m_chargeback || m_sections->currentWidget() == m_jobs)
        return {};   // a snapshot: the files are not kept in the workspace
    const QWidget *shown = m_tableTabs->currentWidget();
    const char *kind = shown == m_commitments ? "billing-commitments-table"
        : shown == m_nextTerm                 ? "billing-next-term-table"
        : shown == m_anomalies                ? "billing-anomalies-table"
        : shown == m_planDays                 ? "billing-plan-table"
                                              : nullptr;
    if (!m_result || !kind)
        return {};
    return shownTableSource(*static_cast<const QTableWidget *>(shown),
                            withBillingSource(ChartFigure{}, kind, figureSource()).source);
}

bool TrackingPage::isRunning() const
{
    return m_worker && m_worker->isRunning();
}

QString TrackingPage::statusText() const
{
    return m_status->text();
}

void TrackingPage::updateButtons()
{
    const bool running = isRunning();
    m_import->setEnabled(!running && !m_workspace.isReadOnly());
    m_remove->setEnabled(!running && m_importId != 0 && !m_workspace.isReadOnly());
    m_cancel->setEnabled(running);
    m_imports->setEnabled(!running);
}

void TrackingPage::importWithDialog()
{
    const QString path = Dialogs::openFileName(this, tr("Import a FOCUS cost-and-usage export"),
                                               tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

void TrackingPage::importFile(const QString &path)
{
    if (isRunning())
        return;
    auto outcome = std::make_shared<ImportOutcome>();
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    m_cancelled = cancelled;
    QPointer<QProgressBar> bar = m_progress;
    m_worker.reset(QThread::create([outcome, cancelled, bar, path] {
        QElapsedTimer timer;
        timer.start();
        try {
            store::FocusOptions options;
            options.progress = [bar, cancelled](double share) {
                if (bar)
                    QMetaObject::invokeMethod(bar, "setValue", Qt::QueuedConnection, Q_ARG(int, int(share * 900)));
                return !cancelled->load();
            };
            const engine::FocusCharges charges = store::readFocusCsv(path, options);
            for (const std::string &w : charges.warnings)
                outcome->warnings << qs(w);
            if (!cancelled->load())
                outcome->summary = engine::summarizeActuals(charges);
        } catch (const store::StoreError &e) {
            outcome->error = e.message();
        } catch (const engine::InputError &e) {
            outcome->error = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
        } catch (const store::FocusImportCancelled &) {
            outcome->cancelled = true;
        } catch (const std::bad_alloc &) {
            outcome->error = tr("%1: not enough memory to read the file").arg(QFileInfo(path).fileName());
        }
        outcome->cancelled = outcome->cancelled || cancelled->load();
        outcome->seconds = double(timer.nsecsElapsed()) / 1e9;
    }));
    connect(m_worker.get(), &QThread::finished, this, [this, outcome, path] {
        bool stored = false;
        if (outcome->cancelled) {
            m_status->setText(tr("Import cancelled: nothing was stored."));
        } else if (!outcome->error.isEmpty()) {
            m_status->setText(kErrorStyle.arg(tr("Not imported: %1").arg(outcome->error).toHtmlEscaped()));
        } else {
            try {
                const QString name = QFileInfo(path).fileName();
                m_importId = m_workspace.importActuals(name, *outcome->summary);
                stored = true;
                QString text = tr("Imported %1: %2 charge rows in %3 s.")
                                   .arg(name)
                                   .arg(outcome->summary->rows)
                                   .arg(QString::number(outcome->seconds, 'f', 2));
                if (!outcome->warnings.isEmpty())
                    text += QLatin1Char(' ') + tr("Note: %1").arg(outcome->warnings.join(QLatin1Char(' ')));
                m_status->setText(text.toHtmlEscaped());
            } catch (const store::StoreError &e) {
                m_status->setText(kErrorStyle.arg(tr("Not imported: %1").arg(e.message()).toHtmlEscaped()));
            }
        }
        m_progress->setValue(stored ? 1000 : 0);
        m_worker.release()->deleteLater();
        if (stored)
            refreshImports();
        updateButtons();
        emit finished(stored);
    });
    m_progress->setValue(0);
    m_status->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    m_worker->start();
    updateButtons();
}

void TrackingPage::cancel()
{
    if (!isRunning())
        return;
    if (m_cancelled)
        *m_cancelled = true;
    m_status->setText(tr("Cancelling…"));
}

void TrackingPage::refreshImports()
{
    const qint64 wanted = m_importId;
    m_updating = true;
    m_imports->clear();
    int index = 0;
    for (const store::ActualsImport &entry : m_workspace.actualsImports()) {
        if (entry.id == wanted)
            index = m_imports->count();
        m_imports->addItem(tr("%1 (%2 rows, %3)").arg(entry.fileName).arg(entry.rowCount).arg(entry.importedAt.left(10)),
                           entry.id);
    }
    m_imports->setCurrentIndex(m_imports->count() > 0 ? index : -1);
    m_updating = false;
    loadImport();
}

void TrackingPage::refreshScenarios()
{
    const QString wanted = m_scenario->currentData().toString();
    m_updating = true;
    m_scenario->clear();
    m_scenario->addItem(tr("(none)"), QString());
    for (const QString &name : m_workspace.scenarioNames())
        m_scenario->addItem(name, name);
    const int index = m_scenario->findData(wanted);
    m_scenario->setCurrentIndex(index >= 0 ? index : 0);
    m_updating = false;
    if (m_actuals)
        recompute();
}

void TrackingPage::loadImport()
{
    m_actuals.reset();
    m_nextTerms.reset();
    m_result.reset();
    m_importId = m_imports->currentIndex() >= 0 ? m_imports->currentData().toLongLong() : 0;
    if (m_importId != 0) {
        try {
            m_actuals = m_workspace.actuals(m_importId);
        } catch (const store::StoreError &e) {
            m_status->setText(kErrorStyle.arg(e.message().toHtmlEscaped()));
        }
    }
    const QString wanted = m_currency->currentText();
    m_updating = true;
    m_currency->clear();
    if (m_actuals)
        for (const std::string &c : m_actuals->currencies)
            m_currency->addItem(qs(c));
    const int index = m_currency->findText(wanted);
    m_currency->setCurrentIndex(index >= 0 ? index : (m_currency->count() > 0 ? 0 : -1));
    m_updating = false;
    updateButtons();
    recompute();
}

void TrackingPage::recompute()
{
    m_result.reset();
    m_highlighted = -1;
    if (!m_actuals || m_actuals->currencies.empty()) {
        m_resultsStack->setCurrentWidget(m_empty);
        for (ChartPanel *panel : {m_utilizationChart, m_trackerChart, m_planChart, m_anomalyChart})
            panel->setFigure(emptyFigure(tr("Tracking"), tr("No billing actuals imported.")));
        for (QTableWidget *table : {m_commitments, m_anomalies, m_planDays}) {
            table->clear();
            table->setRowCount(0);
            table->setColumnCount(0);
        }
        return;
    }
    m_resultsStack->setCurrentIndex(1);
    TrackingSettings settings;
    settings.currency = m_currency->currentText().toStdString();
    settings.threshold = m_threshold->value() / 100.0;
    settings.trailingHours = int64_t(m_trailingDays->value()) * 24;
    settings.driftPeriods = m_driftDays->value();
    QString planError;
    const std::optional<PlanInput> plan = scenarioPlan(m_workspace, m_scenario->currentData().toString(), &planError);
    try {
        // The next terms depend on the import and the trailing window only.
        if (!m_nextTerms || m_nextTermsKey != std::make_pair(m_importId, settings.trailingHours)) {
            m_nextTerms = nextTerms(*m_actuals, settings);
            m_nextTermsKey = {m_importId, settings.trailingHours};
        }
        m_result = analyseTracking(*m_actuals, settings, plan, &*m_nextTerms);
        if (!planError.isEmpty())
            m_result->planNote = planError;
    } catch (const engine::InputError &e) {
        m_status->setText(kErrorStyle.arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
        return;
    }
    fillCards();
    fillCommitments();
    fillAnomalies();
    m_trackerChart->setFigure(withBillingSource(utilizationTrackerFigure(*m_result), "billing-utilization", figureSource()));
    m_planChart->setFigure(withBillingSource(planFigure(*m_result), "billing-plan", figureSource()));

    fillResultsTable(*m_planDays, planDaysTable(*m_result), 1, 5);

    const TrackingResult &r = *m_result;
    QStringList notes;
    notes << tr("Utilization = used EffectiveCost ÷ (used + unused EffectiveCost) over the usage rows carrying a "
                "CommitmentDiscountStatus; hours count the distinct clock hours with a used / an unused row. "
                "On-demand overflow: on-demand usage in a service and region a commitment covers, in hours when "
                "it had nothing unused.");
    if (r.currencies.size() > 1)
        notes << tr("These actuals hold %1 currencies; only %2 is shown — they are never added.")
                     .arg(r.currencies.size())
                     .arg(qs(r.currency));
    if (!r.anomalies)
        notes << r.anomalyNote;
    else
        notes << usageAnomalyNote(r);
    for (const CommitmentTrack &t : r.commitments)
        if (t.next)
            notes << tr("%1, next term: %2").arg(qs(t.usage.name.empty() ? t.usage.id : t.usage.name), nextTermReasoning(t));
    if (!r.planResult)
        notes << r.planNote;
    m_explanation->setText(notes.join(QStringLiteral("\n\n")));
}

void TrackingPage::fillCards()
{
    const TrackingResult &r = *m_result;
    const QString days = !r.daily ? QString()
                         : r.daily->cost.size() == 1 ? tr("on 1 day")
                                                     : tr("over %1 days").arg(r.daily->cost.size());
    m_cardCost->setText(resultCardText(money(r.totalEffective, r.currency), tr("Effective cost %1").arg(days)));
    if (r.commitments.empty()) {
        m_cardUtilization->setText(resultCardText(tr("—"), tr("No commitment usage")));
    } else {
        m_cardUtilization->setText(resultCardText(
            percent(r.utilization()),
            tr("Commitment utilization; %1 of %2 under-used over the last %3")
                .arg(r.underUsedCount())
                .arg(r.commitments.size())
                .arg(formatCountOf(r.settings.trailingHours / 24, QT_TRANSLATE_NOOP("headroom::ui", "%n day(s)")))));
    }
    m_cardUnused->setText(resultCardText(money(r.unusedCost(), r.currency), tr("Paid for, unused")));
    m_cardOverflow->setText(resultCardText(money(r.onDemandOverflow, r.currency), tr("On-demand overflow")));
}

void TrackingPage::fillCommitments()
{
    const TrackingResult &r = *m_result;
    const QString wanted = m_commitmentChoice->currentData().toString();
    m_updating = true;
    m_commitmentChoice->clear();
    for (const CommitmentTrack &c : r.commitments)
        m_commitmentChoice->addItem(qs(c.usage.name.empty() ? c.usage.id : c.usage.name + " — " + c.usage.id),
                                    qs(c.usage.id));
    const int index = m_commitmentChoice->findData(wanted);
    m_commitmentChoice->setCurrentIndex(index >= 0 ? index : (r.commitments.empty() ? -1 : 0));
    m_updating = false;
    showCommitmentChart();

    // Two tables rather than one of 14 columns: what each commitment did, and its next term.
    fillResultsTable(*m_commitments, commitmentsTable(r), 1, 6);
    m_commitments->horizontalHeaderItem(1)->setToolTip(tr("Hours with a used row"));
    m_commitments->horizontalHeaderItem(2)->setToolTip(tr("Hours with an unused row"));
    m_commitments->horizontalHeaderItem(4)->setToolTip(tr("Utilization over the trailing window"));
    fillResultsTable(*m_nextTerm, nextTermTable(r), 1, 5);
    m_nextTerm->horizontalHeaderItem(5)->setToolTip(
        tr("What the recommendation rests on: the forecast when it was fitted on at least %1 h and did no worse than "
           "repeating the previous day on the last measured day; otherwise the measured hours, repeated over the term")
            .arg(engine::kForecastHours));
    for (int row = 0; row < int(r.commitments.size()); ++row) {
        const engine::CommitmentUsage &u = r.commitments[size_t(row)].usage;
        m_commitments->item(row, 7)->setToolTip(
            tr("Under-used when the utilization over the trailing window (%1) is below %2 %; over the whole import it "
               "is %3.")
                .arg(percent(u.trailingUtilization), QString::number(100.0 * r.settings.threshold, 'f', 0),
                     percent(u.utilization)));
        m_commitments->item(row, 0)->setToolTip(tr("%1\nId: %2").arg(m_commitments->item(row, 0)->text(), qs(u.id)));
        // The reasoning of the next term on every cell of its row.
        const QString why = nextTermReasoning(r.commitments[size_t(row)]);
        for (int column = 0; column < m_nextTerm->columnCount(); ++column)
            m_nextTerm->item(row, column)->setToolTip(why);
    }
}

void TrackingPage::showCommitmentChart()
{
    if (!m_result)
        return;
    const QString id = m_commitmentChoice->currentData().toString();
    for (const CommitmentTrack &c : m_result->commitments)
        if (qs(c.usage.id) == id) {
            m_utilizationChart->setFigure(
                withBillingSource(commitmentUtilizationFigure(c), "billing-commitment", figureSource()));
            return;
        }
    m_utilizationChart->setFigure(emptyFigure(tr("Commitment utilization"),
                                              tr("No usage row in %1 carries a CommitmentDiscountStatus.")
                                                  .arg(qs(m_result->currency))));
}

void TrackingPage::fillAnomalies()
{
    const TrackingResult &r = *m_result;
    m_updating = true;
    fillResultsTable(*m_anomalies, billingAnomaliesTable(r), 2);
    m_updating = false;
    m_anomalyChart->setFigure(withBillingSource(anomalyFigure(r, -1), "billing-anomalies", figureSource()));
}

void TrackingPage::highlightAnomaly(int index)
{
    if (m_updating || !m_result)
        return;
    m_highlighted = index;
    m_anomalyChart->setFigure(withBillingSource(anomalyFigure(*m_result, index), "billing-anomalies", figureSource()));
    if (index >= 0)
        m_chartTabs->setCurrentWidget(m_anomalyChart);
}

BillingFigureSource TrackingPage::figureSource() const
{
    return {m_importId, m_result ? m_result->settings : TrackingSettings{}, m_scenario->currentData().toString(),
            m_commitmentChoice->currentData().toString(), m_highlighted};
}

} // namespace headroom::ui
