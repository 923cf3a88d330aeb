#include "forecastpage.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "common/fields.h"
#include "engine/errors.h"
#include "forecastcharts.h"
#include "common/format.h"
#include "store/podsdemand.h"
#include "store/storeerror.h"
#include "store/telemetrycsv.h"
#include "store/workspace.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

struct ForecastPage::Outcome {
    std::optional<ForecastRun> run;
    std::optional<engine::ReservationHandOff> handOff;
    QString error;
    bool cancelled = false;
    double seconds = 0;
};

namespace {

constexpr int kHoursPerDay = 24;
constexpr int kMaxReportLines = 8;
const QString kErrorStyle = QStringLiteral("<span style='color:#c0392b'>%1</span>");

// A workspace demand series written by this page, as one undo step: redo puts it, undo puts
// back the series of the same name it replaced (or removes it). The first redo is skipped
// because the page has already written the series (to report a refusal before pushing).
class SaveSeriesCommand : public QUndoCommand {
public:
    SaveSeriesCommand(store::Workspace &workspace, std::optional<engine::DemandSeries> before,
                      engine::DemandSeries after)
        : QUndoCommand(QObject::tr("Save forecast as demand series \"%1\"").arg(QString::fromStdString(after.name)))
        , m_workspace(workspace)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
    }
    void redo() override
    {
        if (m_applied) {
            m_applied = false;
            return;
        }
        m_workspace.putDemandSeries(m_after);
    }
    void undo() override
    {
        if (m_before)
            m_workspace.putDemandSeries(*m_before);
        else
            m_workspace.removeDemandSeries(QString::fromStdString(m_after.name));
    }

private:
    store::Workspace &m_workspace;
    std::optional<engine::DemandSeries> m_before;
    engine::DemandSeries m_after;
    bool m_applied = true;
};

QString number(double value, int decimals)
{
    if (!std::isfinite(value))
        return QStringLiteral("—");
    return QLocale(QLocale::English).toString(value, 'f', decimals);
}

QString percentOf(double share, int decimals = 1)
{
    if (!std::isfinite(share))
        return QStringLiteral("—");
    return number(share * 100.0, decimals) + QStringLiteral(" %");
}

QString money(const engine::Money &m)
{
    return QString::fromStdString(m.display());
}

QString hourText(int64_t startEpoch, int64_t hour)
{
    if (startEpoch <= 0)
        return QObject::tr("hour %1").arg(hour);
    return QDateTime::fromSecsSinceEpoch(startEpoch + hour * 3600, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:00"));
}

QString epochText(int64_t epoch)
{
    return QDateTime::fromSecsSinceEpoch(epoch, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:00")) +
           QStringLiteral(" UTC");
}

QString defaultFile(ForecastPage::Source source)
{
    const QString path = source == ForecastPage::Source::Telemetry
                             ? QDir(QStringLiteral(HEADROOM_SAMPLES_DIR)).filePath(QStringLiteral("telemetry.csv"))
                             : QDir(QStringLiteral(HEADROOM_SAMPLE_TRACE_DIR)).filePath(QStringLiteral("openb_pod_list_default.csv"));
    return QFileInfo::exists(path) ? QDir::cleanPath(path) : QString();
}

QComboBox *choice(QWidget *parent, const char *name, const QList<std::pair<QString, int>> &items, int current,
                  const QString &tip)
{
    auto *box = new QComboBox(parent);
    box->setObjectName(QLatin1String(name));
    for (const auto &[text, value] : items)
        box->addItem(text, value);
    box->setCurrentIndex(box->findData(current));
    box->setToolTip(tip);
    return box;
}

void setCell(QTableWidget *table, int row, int column, const QString &text, bool numeric = true)
{
    auto *item = new QTableWidgetItem(text);
    if (numeric)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
}

void resetTable(QTableWidget *table, const QStringList &headers, int rows)
{
    table->clear();
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->setRowCount(rows);
}

QString probabilityName(double p)
{
    return QStringLiteral("P%1").arg(int(std::lround(p * 100)), 2, 10, QLatin1Char('0'));
}

} // namespace

ForecastPage::ForecastPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("forecastPage");
    layOutPage(buildInputs(), buildResults(), 400);
    connect(&m_workspace, &store::Workspace::demandSeriesChanged, this, &ForecastPage::refreshDemandSeries);
    connect(&m_workspace, &store::Workspace::rateCardsChanged, this, &ForecastPage::refreshRateCards);
    refreshDemandSeries();
    refreshRateCards();
    refreshSourceWidgets();
    m_fanChart->setFigure(emptyFigure(tr("Import demand history and fit to see the forecast")));
    m_compareChart->setFigure(emptyFigure(tr("Fit to compare decomposed and single-model forecasts")));
    updateButtons();
}

ForecastPage::~ForecastPage() = default;

QWidget *ForecastPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);

    // Source
    auto *sourceBox = new QGroupBox(tr("Demand history"), panel);
    auto *sourceForm = new QFormLayout(sourceBox);
    m_source = choice(sourceBox, "forecastSource",
                      {{tr("Telemetry CSV (long form)"), int(Source::Telemetry)},
                       {tr("Pod trace CSV (Alibaba v2023)"), int(Source::Pods)},
                       {tr("Workspace demand series"), int(Source::Workspace)}},
                      int(Source::Telemetry),
                      tr("Telemetry: timestamp,tenant,model,workload_type,gpus, one sample per row, aggregated to "
                         "hourly means per primitive.\nPod trace: hourly GPU demand from pod creation and deletion "
                         "times, split by GPU model or QoS class.\nWorkspace series: an hourly demand series "
                         "already imported (one primitive)."));
    m_fileRow = new QWidget(sourceBox);
    auto *fileLayout = new QHBoxLayout(m_fileRow);
    fileLayout->setContentsMargins(0, 0, 0, 0);
    m_file = new QLineEdit(defaultFile(Source::Telemetry), m_fileRow);
    m_file->setObjectName("forecastFile");
    m_file->setToolTip(tr("CSV file to import"));
    auto *browse = new QPushButton(tr("Browse…"), m_fileRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::openFileName(this, tr("Choose a demand file"), tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            m_file->setText(path);
    });
    fileLayout->addWidget(m_file, 1);
    fileLayout->addWidget(browse);
    m_split = choice(sourceBox, "forecastSplit",
                     {{tr("GPU model"), int(engine::PodSplit::GpuModel)},
                      {tr("QoS class"), int(engine::PodSplit::Qos)},
                      {tr("None (total only)"), int(engine::PodSplit::None)}},
                     int(engine::PodSplit::GpuModel),
                     tr("How the pod trace's demand is split into primitives: by the GPU model a pod asks "
                        "for (gpu_spec), by its QoS class, or not at all"));
    m_splitLabel = new QLabel(tr("Split by:"), sourceBox);
    m_series = new QComboBox(sourceBox);
    m_series->setObjectName("forecastSeries");
    m_series->setToolTip(tr("An hourly demand series of this workspace (imported on the Cost page or saved "
                            "from a forecast)"));
    m_seriesLabel = new QLabel(tr("Series:"), sourceBox);
    m_import = new QPushButton(tr("&Import"), sourceBox);
    m_import->setObjectName("forecastImport");
    m_import->setToolTip(tr("Read the source; a bad file is reported with its line and field and changes nothing"));
    connect(m_import, &QPushButton::clicked, this, &ForecastPage::importFromInputs);
    m_report = new QLabel(tr("Nothing imported yet."), sourceBox);
    m_report->setObjectName("forecastReport");
    m_report->setWordWrap(true);
    m_report->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sourceForm->addRow(tr("Source:"), m_source);
    sourceForm->addRow(tr("File:"), m_fileRow);
    sourceForm->addRow(m_splitLabel, m_split);
    sourceForm->addRow(m_seriesLabel, m_series);
    sourceForm->addRow(m_import);
    sourceForm->addRow(m_report);
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] {
        const Source source = Source(m_source->currentData().toInt());
        const QString other = defaultFile(source == Source::Telemetry ? Source::Pods : Source::Telemetry);
        if (source != Source::Workspace && (m_file->text().isEmpty() || m_file->text() == other))
            m_file->setText(defaultFile(source));
        refreshSourceWidgets();
    });

    // Model
    auto *modelBox = new QGroupBox(tr("Model (Holt-Winters)"), panel);
    auto *model = new QFormLayout(modelBox);
    m_trend = choice(modelBox, "forecastTrend",
                     {{tr("None"), int(engine::TrendKind::None)},
                      {tr("Additive"), int(engine::TrendKind::Additive)},
                      {tr("Damped"), int(engine::TrendKind::Damped)}},
                     // Damped by default: a straight-line trend carried over a 1- or 3-year
                     // commitment term runs away from the history it was fitted on.
                     int(engine::TrendKind::Damped),
                     tr("Trend: none (flat level), additive (straight-line growth, β) or damped (growth that "
                        "flattens out, φ < 1)"));
    m_season = choice(modelBox, "forecastSeason",
                      {{tr("None"), int(engine::SeasonKind::None)},
                       {tr("Additive"), int(engine::SeasonKind::Additive)},
                       {tr("Multiplicative"), int(engine::SeasonKind::Multiplicative)}},
                      int(engine::SeasonKind::Additive),
                      tr("Season: additive (the daily swing is a fixed number of GPUs) or multiplicative (the "
                         "swing grows with the level; needs demand above 0 in every hour), γ"));
    m_period = choice(modelBox, "forecastPeriod", {{tr("24 h (daily)"), 24}, {tr("168 h (weekly)"), 168}}, 24,
                      tr("Season length in hours: 24 for a daily cycle, 168 for a weekly one (needs at least "
                         "two weeks of history)"));
    m_initial = choice(modelBox, "forecastInitial",
                       {{tr("Estimated"), int(engine::InitialMethod::Estimated)},
                        {tr("Heuristic"), int(engine::InitialMethod::Heuristic)}},
                       int(engine::InitialMethod::Estimated),
                       tr("Initial level, trend and season: estimated together with the smoothing parameters "
                          "(the default, as statsmodels' initialization_method=\"estimated\"), or heuristic "
                          "from the first two seasons (faster, usually a worse fit)"));
    m_gaps = choice(modelBox, "forecastGaps",
                    {{tr("Refuse"), int(engine::GapPolicy::Refuse)},
                     {tr("Zero GPUs"), int(engine::GapPolicy::Zero)},
                     {tr("Carry forward"), int(engine::GapPolicy::CarryForward)},
                     {tr("Interpolate"), int(engine::GapPolicy::Interpolate)}},
                    int(engine::GapPolicy::Refuse),
                    tr("Hours without samples are never filled silently: refuse to fit, or treat them as 0 GPUs, "
                       "repeat the last value, or draw a straight line between the neighbours"));
    m_heldOut = newSpinBox(modelBox, "forecastHeldOut", 1, 60, 3, tr(" day(s)"),
                     tr("The last days of history, hidden from the fit and scored: by rolling-origin backtest "
                        "and by the decomposed-versus-single comparison"));
    m_origins = newSpinBox(modelBox, "forecastOrigins", 1, 10, 3, tr(" origin(s)"),
                     tr("Rolling-origin backtest: the held-out window split into this many consecutive windows, "
                        "each forecast from a model fitted on everything before it"));
    m_horizon = newSpinBox(modelBox, "forecastHorizon", 1, 90, 7, tr(" day(s)"),
                     tr("How far ahead the fan chart forecasts, from the end of the history"));
    m_quantiles = new QLineEdit(QStringLiteral("0.5, 0.95, 0.99"), modelBox);
    m_quantiles->setObjectName("forecastQuantiles");
    m_quantiles->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("[0-9., ]*")), m_quantiles));
    m_quantiles->setToolTip(tr("Probabilities (0–1, comma separated) whose pinball loss the backtest reports; "
                               "P95/P99 are what a buffer is sized from"));
    m_paths = newSpinBox(modelBox, "forecastPaths", 100, 5000, 500, tr(" path(s)"),
                   tr("Simulated sample paths per model for the prediction intervals and the quantiles of the "
                      "sum of primitives"));
    m_paths->setSingleStep(100);
    model->addRow(tr("Trend:"), m_trend);
    model->addRow(tr("Season:"), m_season);
    model->addRow(tr("Season length:"), m_period);
    model->addRow(tr("Initial states:"), m_initial);
    model->addRow(tr("Missing hours:"), m_gaps);
    model->addRow(tr("Held-out window:"), m_heldOut);
    model->addRow(tr("Backtest:"), m_origins);
    model->addRow(tr("Horizon:"), m_horizon);
    model->addRow(tr("Pinball quantiles:"), m_quantiles);
    model->addRow(tr("Intervals from:"), m_paths);
    connect(m_season, &QComboBox::currentIndexChanged, this,
            [this] { m_period->setEnabled(m_season->currentData().toInt() != int(engine::SeasonKind::None)); });

    m_fit = new QPushButton(tr("&Fit and backtest"), panel);
    m_fit->setObjectName("forecastFit");
    m_fit->setToolTip(tr("Fit every primitive and the total, backtest them and compare decomposed with single-"
                         "model forecasts, in the background"));
    m_cancel = new QPushButton(tr("&Cancel"), panel);
    m_cancel->setObjectName("forecastCancel");
    connect(m_fit, &QPushButton::clicked, this, &ForecastPage::fit);
    connect(m_cancel, &QPushButton::clicked, this, &ForecastPage::cancel);
    m_progress = new QProgressBar(panel);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(tr("Import demand history, choose the model, then Fit."), panel);
    m_status->setObjectName("forecastStatus");
    m_status->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_fit);
    buttons->addWidget(m_cancel);

    // Reservation and saving
    auto *useBox = new QGroupBox(tr("Use the forecast"), panel);
    auto *use = new QFormLayout(useBox);
    m_rateCard = new QComboBox(useBox);
    m_rateCard->setObjectName("forecastRateCard");
    m_rateCard->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rateCard->setMinimumContentsLength(18);
    m_rateCard->setToolTip(tr("Rate card of the workspace: its committed rate is paid for every reserved GPU-hour, "
                              "its on-demand rate for demand above the reservation"));
    m_term = choice(useBox, "forecastTerm", {{tr("1-year commitment"), 1}, {tr("3-year commitment"), 3}}, 1,
                    tr("Commitment term: the forecast is simulated over 8,760 or 26,280 hours"));
    m_reserve = new QPushButton(tr("Use for &reservation"), useBox);
    m_reserve->setObjectName("forecastReserve");
    m_reserve->setToolTip(tr("Reserve for the forecast over the term, next to the look-back answer, both costed "
                             "on the forecast demand"));
    connect(m_reserve, &QPushButton::clicked, this, &ForecastPage::useForReservation);
    m_saveQuantile = new QComboBox(useBox);
    m_saveQuantile->setObjectName("forecastSaveQuantile");
    for (double p : {0.5, 0.75, 0.95, 0.99})
        m_saveQuantile->addItem(probabilityName(p), p);
    m_saveQuantile->setToolTip(tr("Which quantile of the shown forecast to save, hour by hour"));
    m_saveName = new QLineEdit(useBox);
    m_saveName->setObjectName("forecastSaveName");
    m_saveName->setPlaceholderText(tr("forecast P50"));
    m_saveName->setToolTip(tr("Name of the workspace demand series; an existing one is replaced (undoable)"));
    m_save = new QPushButton(tr("&Save as demand series"), useBox);
    m_save->setObjectName("forecastSave");
    m_save->setToolTip(tr("Save the forecast of the shown series as an hourly demand series the Cost page can use"));
    connect(m_save, &QPushButton::clicked, this, [this] {
        QString name = m_saveName->text().trimmed();
        if (name.isEmpty())
            name = m_saveName->placeholderText();
        QString error;
        if (saveForecastSeries(name, m_saveQuantile->currentData().toDouble(), &error))
            m_status->setText(tr("Saved the forecast as demand series \"%1\"; the Cost page lists it.").arg(name.toHtmlEscaped()));
        else
            m_status->setText(kErrorStyle.arg(tr("Not saved: %1").arg(error.toHtmlEscaped())));
    });
    connect(m_saveQuantile, &QComboBox::currentIndexChanged, this, [this] {
        m_saveName->setPlaceholderText(tr("forecast %1").arg(m_saveQuantile->currentText()));
    });
    use->addRow(tr("Rate card:"), m_rateCard);
    use->addRow(tr("Commitment:"), m_term);
    use->addRow(m_reserve);
    use->addRow(tr("Quantile:"), m_saveQuantile);
    use->addRow(tr("Series name:"), m_saveName);
    use->addRow(m_save);

    layout->addWidget(sourceBox);
    layout->addWidget(modelBox);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(useBox);
    layout->addStretch();
    return panel;
}

QWidget *ForecastPage::buildResults()
{
    m_fanChart = new ChartPanel(this);
    m_fanChart->setObjectName("forecastFanChart");
    m_compareChart = new ChartPanel(this);
    m_compareChart->setObjectName("forecastCompareChart");
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->addTab(m_fanChart, tr("Fan chart"));
    m_chartTabs->addTab(m_compareChart, tr("Decomposed vs single"));

    m_primitives = newResultsTable("forecastPrimitives");
    m_primitives->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_primitives->setSelectionMode(QAbstractItemView::SingleSelection);
    m_primitives->setToolTip(tr("Select a row to show its forecast: the total or one primitive"));
    connect(m_primitives, &QTableWidget::itemSelectionChanged, this, [this] {
        if (!m_filling && m_primitives->currentRow() >= 0)
            showSeries(m_primitives->currentRow());
    });
    m_backtest = newResultsTable("forecastBacktest");
    m_comparison = newResultsTable("forecastComparison");
    m_reservation = newResultsTable("forecastReservation");
    m_tableTabs = new QTabWidget(this);
    m_tableTabs->addTab(m_primitives, tr("Primitives"));
    m_tableTabs->addTab(m_backtest, tr("Backtest"));
    m_tableTabs->addTab(m_comparison, tr("Decomposed vs single"));
    m_tableTabs->addTab(m_reservation, tr("Reservation"));
    m_explanation = newExplanation("forecastExplanation");
    return resultsColumn(m_chartTabs, m_tableTabs, m_explanation);
}

void ForecastPage::refreshSourceWidgets()
{
    const Source source = Source(m_source->currentData().toInt());
    m_fileRow->setEnabled(source != Source::Workspace);
    m_split->setVisible(source == Source::Pods);
    m_splitLabel->setVisible(source == Source::Pods);
    m_series->setVisible(source == Source::Workspace);
    m_seriesLabel->setVisible(source == Source::Workspace);
}

void ForecastPage::refreshDemandSeries()
{
    const QString current = m_series->currentText();
    m_series->clear();
    m_series->addItems(m_workspace.demandSeriesNames());
    m_series->setCurrentIndex(std::max(0, m_series->findText(current)));
}

void ForecastPage::refreshRateCards()
{
    const QString current = m_rateCard->currentData().toString();
    m_rateCard->clear();
    for (const engine::RateCard &card : m_workspace.rateCards())
        m_rateCard->addItem(QStringLiteral("%1 · %2 · %3 · %4")
                                .arg(QString::fromStdString(card.provider), QString::fromStdString(card.region),
                                     QString::fromStdString(card.gpuId), QString::fromStdString(card.effectiveDate)),
                            QString::fromStdString(card.key()));
    int index = m_rateCard->findData(current);
    if (index < 0) // first start: the AWS H100 card in force, as on the Cost page
        for (int i = m_rateCard->count() - 1; i >= 0 && index < 0; --i)
            if (m_rateCard->itemData(i).toString().startsWith(QLatin1String("AWS/")) &&
                m_rateCard->itemData(i).toString().contains(QLatin1String("/h100-sxm@")))
                index = i;
    m_rateCard->setCurrentIndex(std::max(index, 0));
}

bool ForecastPage::importTelemetry(const QString &path, QString *error)
{
    if (refuseWhileRunning(error))
        return false;
    try {
        const engine::HourlyTelemetry hourly = engine::aggregateHourly(store::readTelemetry(path));
        ForecastInput input;
        input.source = QFileInfo(path).fileName();
        input.startEpochSeconds = hourly.startEpochSeconds;
        int samples = 0;
        QStringList lines;
        for (const engine::PrimitiveSeries &p : hourly.primitives) {
            input.names << QString::fromStdString(p.key.label());
            input.series.push_back(p.gpus);
            samples += p.samples;
            if (!p.gaps.empty())
                lines << tr("%1: %2 missing hours (first %3 – %4)")
                             .arg(QString::fromStdString(p.key.label()))
                             .arg(p.missingHours())
                             .arg(epochText(p.gaps.front().firstHourEpoch), epochText(p.gaps.front().lastHourEpoch));
        }
        for (const engine::DuplicateSample &d : hourly.duplicates)
            lines << tr("Duplicate: line %1 repeats line %2 (%3 at %4); the first is kept")
                         .arg(d.line)
                         .arg(d.firstLine)
                         .arg(QString::fromStdString(d.key.label()), epochText(d.epochSeconds));
        const qsizetype problems = lines.size();
        if (lines.size() > kMaxReportLines) {
            lines = lines.mid(0, kMaxReportLines);
            lines << tr("… and %1 more").arg(problems - kMaxReportLines);
        }
        QString report = tr("%1: %2, %3, %4 from %5.")
                             .arg(input.source.toHtmlEscaped())
                             .arg(formatCountOf(samples, QT_TRANSLATE_NOOP("headroom::ui", "%n sample(s)")))
                             .arg(formatCountOf(int64_t(hourly.primitives.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n primitive(s)")))
                             .arg(formatCountOf(hourly.hours, QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")))
                             .arg(epochText(hourly.startEpochSeconds));
        report += hourly.hasGaps() || !hourly.duplicates.empty()
                      ? tr(" %1 gap or duplicate findings; gaps are filled only by the policy you choose "
                           "under Missing hours:<br>%2")
                            .arg(problems)
                            .arg(lines.join(QStringLiteral("<br>")).toHtmlEscaped().replace(QStringLiteral("&lt;br&gt;"), QStringLiteral("<br>")))
                      : tr(" No gaps, no duplicates.");
        setInput(std::move(input), report);
        return true;
    } catch (const store::StoreError &e) {
        *error = e.message();
    } catch (const engine::InputError &e) {
        *error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
    }
    return false;
}

bool ForecastPage::importPods(const QString &path, engine::PodSplit split, QString *error)
{
    if (refuseWhileRunning(error))
        return false;
    try {
        const engine::PodDemand demand = engine::demandFromPods(store::readPodRecords(path), split);
        ForecastInput input;
        input.source = QFileInfo(path).fileName();
        for (size_t i = 0; i < demand.names.size(); ++i) {
            input.names << QString::fromStdString(demand.names[i]);
            input.series.push_back(demand.gpus[i]);
        }
        const QString report = tr("%1: %2 pods with GPUs counted, %3 skipped (no GPU or no lifetime); %4 of "
                                  "the trace clock, %5. Demand counts requested GPUs (GPUs × share), "
                                  "scheduled or not.")
                                   .arg(input.source.toHtmlEscaped())
                                   .arg(formatCount(demand.podsCounted))
                                   .arg(formatCount(demand.podsSkipped))
                                   .arg(formatCountOf(demand.hours, QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")))
                                   .arg(formatCountOf(int64_t(demand.names.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n primitive(s)")));
        setInput(std::move(input), report);
        return true;
    } catch (const store::StoreError &e) {
        *error = e.message();
    } catch (const engine::InputError &e) {
        *error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what()));
    }
    return false;
}

bool ForecastPage::importWorkspaceSeries(const QString &name, QString *error)
{
    if (refuseWhileRunning(error))
        return false;
    const auto series = m_workspace.demandSeries(name);
    if (!series) {
        *error = tr("demand series \"%1\" is not in the workspace").arg(name);
        return false;
    }
    ForecastInput input;
    input.source = tr("workspace series \"%1\"").arg(name);
    input.startEpochSeconds = series->startEpochSeconds;
    input.names << name;
    std::vector<double> values;
    values.reserve(series->gpus.size());
    for (const engine::Decimal &g : series->gpus)
        values.push_back(g.toDouble());
    input.series.push_back(std::move(values));
    setInput(std::move(input), tr("%1: %2%3.")
                                   .arg(tr("Series \"%1\"").arg(name).toHtmlEscaped())
                                   .arg(formatCountOf(int64_t(series->gpus.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")))
                                   .arg(series->startEpochSeconds > 0
                                            ? tr(" from %1").arg(epochText(series->startEpochSeconds))
                                            : QString()));
    return true;
}

void ForecastPage::importFromInputs()
{
    if (isRunning())
        return;
    QString error;
    bool ok = false;
    switch (Source(m_source->currentData().toInt())) {
    case Source::Telemetry:
        ok = importTelemetry(m_file->text().trimmed(), &error);
        break;
    case Source::Pods:
        ok = importPods(m_file->text().trimmed(), engine::PodSplit(m_split->currentData().toInt()), &error);
        break;
    case Source::Workspace:
        ok = importWorkspaceSeries(m_series->currentText(), &error);
        break;
    }
    if (ok)
        m_status->setText(tr("Imported %1 primitives. Choose the model, then Fit.").arg(m_input.names.size()));
    else
        m_status->setText(kErrorStyle.arg(tr("Not imported, nothing changed: %1").arg(error.toHtmlEscaped())));
}

void ForecastPage::setInput(ForecastInput input, const QString &report)
{
    m_input = std::move(input);
    m_reportText = report;
    m_report->setText(report);
    m_run.reset();
    m_handOff.reset();
    m_shown = 0;
    m_fanChart->setFigure(emptyFigure(tr("Fit to see the forecast")));
    m_compareChart->setFigure(emptyFigure(tr("Fit to compare decomposed and single-model forecasts")));
    fillPrimitivesTable();
    fillBacktestTable();
    fillComparison();
    fillReservation();
    m_explanation->clear();
    updateButtons();
}

bool ForecastPage::readSettings(ForecastSettings *settings, QString *error) const
{
    settings->spec.trend = engine::TrendKind(m_trend->currentData().toInt());
    settings->spec.season = engine::SeasonKind(m_season->currentData().toInt());
    settings->spec.period = settings->spec.season == engine::SeasonKind::None ? 0 : m_period->currentData().toInt();
    settings->initial = engine::InitialMethod(m_initial->currentData().toInt());
    settings->gaps = engine::GapPolicy(m_gaps->currentData().toInt());
    settings->heldOutHours = m_heldOut->value() * kHoursPerDay;
    settings->backtestOrigins = m_origins->value();
    settings->horizonHours = m_horizon->value() * kHoursPerDay;
    settings->paths = m_paths->value();
    settings->pinballQuantiles.clear();
    for (const QString &part : m_quantiles->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double q = part.trimmed().toDouble(&ok);
        if (!ok || !(q > 0.0 && q < 1.0)) {
            *error = tr("pinball quantiles: \"%1\" is not a probability between 0 and 1 (e.g. 0.95)").arg(part.trimmed());
            return false;
        }
        settings->pinballQuantiles.push_back(q);
    }
    if (settings->pinballQuantiles.empty()) {
        *error = tr("pinball quantiles: enter at least one probability, e.g. 0.5, 0.95");
        return false;
    }
    return true;
}

bool ForecastPage::isRunning() const
{
    return m_job.isRunning();
}

void ForecastPage::startWorker(std::function<void(Outcome &, const RunProgress &)> work, const QString &status)
{
    auto outcome = std::make_shared<Outcome>();
    auto job = [outcome, work](const JobProgress &progress) {
        const RunProgress report = [&progress](double overall) { return progress.report(overall); };
        QElapsedTimer timer;
        timer.start();
        try {
            work(*outcome, report);
        } catch (const engine::InputError &e) {
            outcome->error = QString::fromUtf8(e.what());
        } catch (const engine::ForecastCancelled &) {
            outcome->cancelled = true;
        }
        outcome->seconds = double(timer.nsecsElapsed()) / 1e9;
    };
    m_progress->setValue(0);
    m_status->setText(status);
    m_job.start(this, m_progress, job, [this, outcome] { showOutcome(outcome); });
    updateButtons();
}

void ForecastPage::fit()
{
    if (isRunning())
        return;
    if (m_input.series.empty()) {
        m_status->setText(kErrorStyle.arg(tr("Import demand history first.")));
        return;
    }
    ForecastSettings settings;
    QString error;
    if (!readSettings(&settings, &error)) {
        m_status->setText(kErrorStyle.arg(tr("Not run: %1").arg(error.toHtmlEscaped())));
        return;
    }
    const ForecastInput input = m_input;
    startWorker([input, settings](Outcome &outcome, const RunProgress &progress) {
                    outcome.run = runForecast(input, settings, progress);
                },
                tr("Fitting %1 primitives and the total…").arg(input.names.size()));
}

void ForecastPage::useForReservation()
{
    if (isRunning())
        return;
    if (!m_run) {
        m_status->setText(kErrorStyle.arg(tr("Fit a forecast first.")));
        return;
    }
    const auto card = m_workspace.rateCard(m_rateCard->currentData().toString());
    if (!card) {
        m_status->setText(kErrorStyle.arg(tr("Choose a rate card (add one on the Rate cards page).")));
        return;
    }
    const bool threeYear = m_term->currentData().toInt() == 3;
    const engine::Decimal reserved = threeYear ? card->reserved3y : card->reserved1y;
    if (reserved.isZero()) {
        m_status->setText(kErrorStyle.arg(tr("This rate card offers no %1 commitment.").arg(threeYear ? tr("3-year") : tr("1-year"))));
        return;
    }
    engine::ReservationForecastOptions options;
    // The term starts on the date of the first forecast hour (the first of next month when the
    // history has no timestamps) and runs 12 or 36 calendar months of real hours.
    const int64_t firstForecastHour = m_input.startEpochSeconds > 0
        ? m_input.startEpochSeconds + int64_t(m_run->series.front().history.size()) * 3600
        : 0;
    const engine::CivilDate termStart = firstForecastHour > 0 ? engine::dateFromDays(firstForecastHour / 86400)
                                                              : engine::firstOfNextMonth(engine::todayUtc());
    options.termHours = int(engine::termHours(termStart, threeYear ? 36 : 12));
    options.reservedRate = engine::Money{reserved, card->currency};
    options.elasticRate = engine::Money{card->onDemand, card->currency};
    options.seed = m_run->settings.seed;
    m_handOffCard = m_rateCard->currentText();
    const ForecastRun run = *m_run;
    startWorker([run, options](Outcome &outcome, const RunProgress &progress) {
                    outcome.handOff = runReservation(run, options, progress);
                },
                tr("Simulating %1 hours of demand and optimising the reservation…").arg(formatCount(options.termHours)));
}

void ForecastPage::cancel()
{
    if (!isRunning())
        return;
    m_job.cancel();
    m_status->setText(tr("Cancelling…"));
}

bool ForecastPage::refuseWhileRunning(QString *error) const
{
    if (!isRunning())
        return false;
    *error = tr("a run is in progress; wait for it or cancel it first");
    return true;
}

void ForecastPage::showOutcome(std::shared_ptr<Outcome> outcome)
{
    updateButtons();
    if (outcome->cancelled || !outcome->error.isEmpty()) {
        m_progress->setValue(0);
        m_status->setText(outcome->cancelled
                              ? tr("Cancelled; the previous results are kept.")
                              : kErrorStyle.arg(tr("Not run: %1").arg(outcome->error.toHtmlEscaped())));
        emit finished(false);
        return;
    }
    m_progress->setValue(1000);
    if (outcome->run) {
        m_run = std::move(outcome->run);
        m_handOff.reset();
        m_shown = std::clamp(m_shown, 0, int(m_run->series.size()) - 1);
        fillPrimitivesTable();
        fillBacktestTable();
        fillComparison();
        fillReservation();
        showFan();
        m_status->setText(tr("Fitted %1 in %2 s.").arg(formatCountOf(int64_t(m_run->series.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n model(s)"))).arg(outcome->seconds, 0, 'f', 1));
    }
    if (outcome->handOff) {
        m_handOff = std::move(outcome->handOff);
        fillReservation();
        m_tableTabs->setCurrentWidget(m_reservation);
        m_status->setText(tr("Reservation from the forecast over %1 hours, %2 simulated paths (%3 s).")
                              .arg(formatCount(m_handOff->termHours))
                              .arg(m_handOff->paths)
                              .arg(outcome->seconds, 0, 'f', 1));
    }
    updateButtons();
    emit finished(true);
}

void ForecastPage::updateButtons()
{
    const bool running = isRunning();
    m_fit->setEnabled(!running && !m_input.series.empty());
    m_import->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_reserve->setEnabled(!running && m_run.has_value());
    m_save->setEnabled(!running && m_run.has_value());
}

void ForecastPage::fillPrimitivesTable()
{
    m_filling = true;
    const QStringList headers{tr("Series"), tr("Hours"), tr("Missing\nhours"), tr("Mean\nGPUs"), tr("Peak\nGPUs"),
                              tr("α"), tr("β"), tr("γ"), tr("φ"), tr("MAPE"), tr("MASE"), tr("Coverage\nP05–P95")};
    if (m_run) {
        const ForecastRun &run = *m_run;
        const engine::SmoothingSpec &spec = run.settings.spec;
        resetTable(m_primitives, headers, int(run.series.size()));
        for (int r = 0; r < int(run.series.size()); ++r) {
            const SeriesForecast &s = run.series[size_t(r)];
            int missing = 0;
            if (r > 0)
                for (double v : m_input.series[size_t(r - 1)])
                    missing += std::isnan(v) ? 1 : 0;
            setCell(m_primitives, r, 0, s.name, false);
            setCell(m_primitives, r, 1, formatCount(int64_t(s.history.size()) - missing));
            setCell(m_primitives, r, 2, r > 0 ? formatCount(missing) : QStringLiteral("—"));
            setCell(m_primitives, r, 3, number(s.mean, 1));
            setCell(m_primitives, r, 4, number(s.peak, 1));
            setCell(m_primitives, r, 5, number(s.model.params.alpha, 3));
            setCell(m_primitives, r, 6, spec.trend != engine::TrendKind::None ? number(s.model.params.beta, 3) : QStringLiteral("—"));
            setCell(m_primitives, r, 7, spec.season != engine::SeasonKind::None ? number(s.model.params.gamma, 3) : QStringLiteral("—"));
            setCell(m_primitives, r, 8, spec.trend == engine::TrendKind::Damped ? number(s.model.params.phi, 3) : QStringLiteral("—"));
            if (s.backtest) {
                setCell(m_primitives, r, 9, number(s.backtest->mape, 1) + QStringLiteral(" %"));
                setCell(m_primitives, r, 10, number(s.backtest->mase, 2));
                setCell(m_primitives, r, 11, percentOf(s.backtest->coverage, 0));
            } else {
                for (int c = 9; c < 12; ++c)
                    setCell(m_primitives, r, c, QStringLiteral("—"));
                m_primitives->item(r, 9)->setToolTip(s.backtestError);
            }
        }
        m_primitives->selectRow(m_shown);
    } else {
        resetTable(m_primitives, headers, int(m_input.series.size()));
        for (int r = 0; r < int(m_input.series.size()); ++r) {
            const std::vector<double> &values = m_input.series[size_t(r)];
            int missing = 0;
            double sum = 0, peak = 0;
            for (double v : values) {
                if (std::isnan(v)) {
                    ++missing;
                    continue;
                }
                sum += v;
                peak = std::max(peak, v);
            }
            const int observed = int(values.size()) - missing;
            setCell(m_primitives, r, 0, m_input.names.value(r), false);
            setCell(m_primitives, r, 1, formatCount(observed));
            setCell(m_primitives, r, 2, formatCount(missing));
            setCell(m_primitives, r, 3, observed > 0 ? number(sum / observed, 1) : QStringLiteral("—"));
            setCell(m_primitives, r, 4, number(peak, 1));
            for (int c = 5; c < 12; ++c)
                setCell(m_primitives, r, c, QStringLiteral("—"));
        }
    }
    m_filling = false;
}

void ForecastPage::fillBacktestTable()
{
    QStringList headers{tr("Series"), tr("MAPE"), tr("sMAPE"), tr("MASE")};
    const std::vector<double> quantiles = m_run ? m_run->settings.pinballQuantiles : std::vector<double>{};
    for (double q : quantiles)
        headers << tr("Pinball %1\n(GPUs)").arg(probabilityName(q));
    headers << tr("Coverage\nP05–P95") << tr("Held-out\nhours") << tr("Note");
    if (!m_run) {
        resetTable(m_backtest, headers, 0);
        return;
    }
    resetTable(m_backtest, headers, int(m_run->series.size()));
    for (int r = 0; r < int(m_run->series.size()); ++r) {
        const SeriesForecast &s = m_run->series[size_t(r)];
        setCell(m_backtest, r, 0, s.name, false);
        int c = 1;
        if (s.backtest) {
            const engine::BacktestResult &b = *s.backtest;
            setCell(m_backtest, r, c++, number(b.mape, 1) + QStringLiteral(" %"));
            setCell(m_backtest, r, c++, number(b.smape, 1) + QStringLiteral(" %"));
            setCell(m_backtest, r, c++, number(b.mase, 2));
            for (size_t q = 0; q < quantiles.size(); ++q)
                setCell(m_backtest, r, c++, q < b.pinball.size() ? number(b.pinball[q], 2) : QStringLiteral("—"));
            setCell(m_backtest, r, c++, percentOf(b.coverage, 0));
            setCell(m_backtest, r, c++, formatCount(b.points));
            setCell(m_backtest, r, c++, QString(), false);
        } else {
            while (c < int(headers.size()) - 1)
                setCell(m_backtest, r, c++, QStringLiteral("—"));
            setCell(m_backtest, r, c, s.backtestError, false);
        }
    }
}

void ForecastPage::fillComparison()
{
    const QStringList headers{tr("Forecast of the total"), tr("Hours"), tr("MAPE"), tr("sMAPE"), tr("MASE"),
                              tr("Pinball P50\n(GPUs)"), tr("Pinball P95\n(GPUs)"), tr("Coverage\nP05–P95"),
                              tr("Share\n≤ P95")};
    if (!m_run || !m_run->comparison) {
        resetTable(m_comparison, headers, 0);
        m_compareChart->setFigure(emptyFigure(
            m_run ? m_run->comparisonNote : tr("Fit to compare decomposed and single-model forecasts")));
        return;
    }
    const engine::ForecastComparison &c = *m_run->comparison;
    const struct {
        QString name;
        const engine::ForecastErrors *errors;
    } rows[] = {
        {tr("Decomposed, all held-out hours"), &c.decomposed.overall},
        {tr("Single model, all held-out hours"), &c.single.overall},
        {tr("Decomposed, burst hours"), &c.decomposed.burst},
        {tr("Single model, burst hours"), &c.single.burst},
    };
    resetTable(m_comparison, headers, 4);
    for (int r = 0; r < 4; ++r) {
        const engine::ForecastErrors &e = *rows[r].errors;
        setCell(m_comparison, r, 0, rows[r].name, false);
        setCell(m_comparison, r, 1, formatCount(e.points));
        setCell(m_comparison, r, 2, number(e.mape, 1) + QStringLiteral(" %"));
        setCell(m_comparison, r, 3, number(e.smape, 1) + QStringLiteral(" %"));
        setCell(m_comparison, r, 4, number(e.mase, 2));
        setCell(m_comparison, r, 5, number(e.pinball50, 2));
        setCell(m_comparison, r, 6, number(e.pinball95, 2));
        setCell(m_comparison, r, 7, percentOf(e.coverage90, 0));
        setCell(m_comparison, r, 8, percentOf(e.coverageP95, 0));
    }
    ErrorBarsData bars;
    bars.categories = {tr("All held-out hours (%1)").arg(c.decomposed.overall.points),
                       tr("Burst hours (%1)").arg(c.decomposed.burst.points)};
    bars.methods = {tr("Decomposed (sum of primitive paths)"), tr("Single model of the total")};
    auto orZero = [](double v) { return std::isfinite(v) ? v : 0.0; };
    bars.values = {{orZero(c.decomposed.overall.pinball95), orZero(c.decomposed.burst.pinball95)},
                   {orZero(c.single.overall.pinball95), orZero(c.single.burst.pinball95)}};
    bars.unit = tr("Pinball loss at P95 (GPUs, lower is better)");
    const QString title = tr("P95 error of the total: decomposed vs single model");
    m_compareChart->setFigure(
        {title,
         tr("Last %1 of %2 held out; burst hours are those whose actual total exceeds %3 GPUs (P90 of the "
            "training total). The pinball loss at P95 scores the buffer a planner would size from.")
             .arg(formatCountOf(int64_t(c.actual.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")), m_input.source)
             .arg(c.burstThreshold, 0, 'f', 1),
         [bars, title](QChart::ChartTheme theme) { return buildErrorBarsChart(bars, title, theme); }});
}

void ForecastPage::fillReservation()
{
    const QStringList headers{tr("Reservation rule"), tr("Reserved\nGPUs"), tr("Expected cost\nover the term"),
                              tr("Saving vs\nall on-demand"), tr("vs forecast\noptimum")};
    if (!m_handOff) {
        resetTable(m_reservation, headers, 0);
        return;
    }
    const engine::ReservationHandOff &h = *m_handOff;
    resetTable(m_reservation, headers, int(h.choices.size()));
    for (int r = 0; r < int(h.choices.size()); ++r) {
        const engine::ReservationChoice &c = h.choices[size_t(r)];
        QString rule = QString::fromStdString(c.rule);
        if (!rule.isEmpty())
            rule[0] = rule[0].toUpper();
        setCell(m_reservation, r, 0, rule, false);
        setCell(m_reservation, r, 1, formatCount(c.reserved));
        setCell(m_reservation, r, 2, money(c.expectedCost));
        // Differences of the figures as printed, so the row re-adds.
        setCell(m_reservation, r, 3, money(engine::shownDifference(h.allOnDemand, c.expectedCost)));
        setCell(m_reservation, r, 4, money(engine::shownDifference(c.expectedCost, h.forecastOptimum.expectedCost)));
    }
    // The plain-language answer.
    const engine::ReservationChoice &f = h.forecastOptimum;
    const engine::ReservationChoice &l = h.lookbackOptimum;
    const QString term = h.termHours > 8784 ? tr("3-year") : tr("1-year");
    double historyMean = 0, forecastMean = 0;
    const std::vector<double> &history = m_run->series.front().history;
    for (double v : history)
        historyMean += v / double(history.size());
    for (double v : h.forecastMean)
        forecastMean += v / double(std::max<size_t>(1, h.forecastMean.size()));
    QStringList lines;
    lines << tr("<b>Reserve %1 for the forecast</b> (%2 term, %3): expected %4 over the term, %5 less than "
                "all on-demand.")
                 .arg(formatGpus(f.reserved), term, m_handOffCard.toHtmlEscaped(), money(f.expectedCost),
                      money(engine::shownDifference(h.allOnDemand, f.expectedCost)));
    const engine::Money extra = engine::shownDifference(l.expectedCost, f.expectedCost);
    if (l.reserved == f.reserved) {
        lines << tr("The look-back answer reserves the same %1: history and forecast agree on this term.")
                     .arg(formatGpus(l.reserved));
    } else {
        const bool under = l.reserved < f.reserved;
        lines << tr("The look-back answer (%1, optimal for the history) costs %2 on the forecast demand, %3 "
                    "more: over the term, demand above %4 GPUs is %5 frequent enough to pay for a commitment, so "
                    "the look-back answer would %6 by %7. Mean demand: %8 GPUs in the history, %9 forecast "
                    "over the term.")
                     .arg(formatGpus(l.reserved), money(l.expectedCost), money(extra),
                          formatCount(std::min(l.reserved, f.reserved)), under ? tr("still") : tr("no longer"),
                          under ? tr("under-reserve") : tr("over-reserve"),
                          formatGpus(std::abs(f.reserved - l.reserved)), number(historyMean, 1),
                          number(forecastMean, 1));
    }
    if (m_run->settings.spec.trend == engine::TrendKind::Additive)
        lines << tr("An additive trend is extrapolated over the whole term and its uncertainty grows with it; for "
                    "terms much longer than the history a damped trend is usually the safer model.");
    for (const engine::ReservationChoice &c : h.choices)
        if (c.saving.amount.isNegative())
            lines << tr("The rule \"%1\" (%2) would cost %3 more than no commitment at all.")
                         .arg(QString::fromStdString(c.rule).toHtmlEscaped(), formatGpus(c.reserved),
                              money(engine::shownDifference(c.expectedCost, h.allOnDemand)));
    lines << tr("Costs are means over %1 simulated term-long paths of the decomposed forecast.").arg(h.paths);
    m_explanation->setText(lines.join(QStringLiteral("<br>")));
}

void ForecastPage::showSeries(int index)
{
    if (!m_run || index < 0 || index >= int(m_run->series.size()))
        return;
    m_shown = index;
    if (m_primitives->currentRow() != index) {
        m_filling = true;
        m_primitives->selectRow(index);
        m_filling = false;
    }
    showFan();
}

void ForecastPage::showFan()
{
    if (!m_run || m_run->series.empty())
        return;
    const SeriesForecast &s = m_run->series[size_t(m_shown)];
    FanChartData data;
    data.startEpochSeconds = m_input.startEpochSeconds;
    data.history = s.history;
    data.quantiles = s.fan;
    const int steps = s.fan.empty() ? 0 : int(s.fan.front().size());
    // Enough history to see the season repeat: two weeks, or twice the horizon when longer.
    const int shownHistory = std::max(14 * kHoursPerDay, 2 * steps);
    data.firstShownHour = std::max(0, int(s.history.size()) - shownHistory);
    const QString title = tr("%1: GPU demand forecast, next %2").arg(s.name, formatCountOf(steps / kHoursPerDay, QT_TRANSLATE_NOOP("headroom::ui", "%n day(s)")));
    const engine::SmoothingSpec &spec = m_run->settings.spec;
    const QString model = tr("Holt-Winters, trend %1, season %2%3")
                              .arg(m_trend->itemText(m_trend->findData(int(spec.trend))).toLower(),
                                   m_season->itemText(m_season->findData(int(spec.season))).toLower(),
                                   spec.period > 0 ? tr(" (%1 h)").arg(spec.period) : QString());
    const QString how = m_shown == 0 && m_run->series.size() > 2
                            ? tr("Quantiles of the sum of %1 primitives' simulated paths (not the sum of their "
                                 "quantiles).").arg(m_run->series.size() - 1)
                            : tr("Quantiles of %1 simulated paths.").arg(m_run->settings.paths);
    m_fanChart->setFigure({title,
                           tr("%1 of %2. %3 Bands P25–P75, P05–P95, P01–P99; size buffers from P95/P99. "
                              "Simulated GPUs are floored at 0.")
                               .arg(model, m_input.source, how),
                           [data, title](QChart::ChartTheme theme) { return buildFanChart(data, title, theme); }});

    // The explanation for the shown series: its P50 and buffer quantiles at the forecast peak.
    if (m_handOff)
        return;
    const std::vector<double> &p50 = s.fan[3];
    const std::vector<double> &p95 = s.fan[5];
    const std::vector<double> &p99 = s.fan[6];
    const auto peak = std::max_element(p95.begin(), p95.end()) - p95.begin();
    QStringList lines;
    lines << tr("<b>%1:</b> over the next %2 the P95 forecast peaks at %3 GPUs (%4), where the P50 is %5 "
                "and the P99 %6: a buffer of %7 GPUs above the median covers 95 % of hours like that one.")
                 .arg(s.name.toHtmlEscaped(), formatCountOf(steps / kHoursPerDay, QT_TRANSLATE_NOOP("headroom::ui", "%n day(s)")))
                 .arg(number(p95[size_t(peak)], 1), hourText(m_input.startEpochSeconds, int64_t(s.history.size()) + peak),
                      number(p50[size_t(peak)], 1), number(p99[size_t(peak)], 1),
                      number(p95[size_t(peak)] - p50[size_t(peak)], 1));
    if (s.backtest)
        lines << tr("Backtest over the last %1 held-out hours: MAPE %2 %, MASE %3 (below 1 beats the seasonal naive "
                    "forecast), P05–P95 coverage %4 (ideal 90 %).")
                     .arg(s.backtest->points)
                     .arg(number(s.backtest->mape, 1), number(s.backtest->mase, 2), percentOf(s.backtest->coverage, 0));
    else if (!s.backtestError.isEmpty())
        lines << tr("No backtest: %1").arg(s.backtestError.toHtmlEscaped());
    if (const auto &c = m_run->comparison) {
        const double d = c->decomposed.burst.pinball95, g = c->single.burst.pinball95;
        if (std::isfinite(d) && std::isfinite(g))
            lines << tr("In the %1 of the held-out window the decomposed forecast's P95 loss is %2 GPUs "
                        "against %3 for one model of the total: %4.")
                         .arg(formatCountOf(int64_t(c->decomposed.burst.points), QT_TRANSLATE_NOOP("headroom::ui", "%n burst hour(s)")))
                         .arg(number(d, 2), number(g, 2),
                              d <= g ? tr("modelling primitives catches the bursts better")
                                     : tr("here the single model does better in bursts"));
        else
            lines << tr("No burst hours in the held-out window (none above %1 GPUs).").arg(number(c->burstThreshold, 1));
    } else if (!m_run->comparisonNote.isEmpty()) {
        lines << m_run->comparisonNote.toHtmlEscaped();
    }
    m_explanation->setText(lines.join(QStringLiteral("<br>")));
}

bool ForecastPage::saveForecastSeries(const QString &name, double probability, QString *error)
{
    if (!m_run) {
        *error = tr("fit a forecast first");
        return false;
    }
    if (name.trimmed().isEmpty()) {
        *error = tr("enter a series name");
        return false;
    }
    const auto &probabilities = fanProbabilities();
    const auto at = std::find(probabilities.begin(), probabilities.end(), probability);
    if (at == probabilities.end()) {
        *error = tr("quantile %1 is not one of the forecast's").arg(probability);
        return false;
    }
    const SeriesForecast &s = m_run->series[size_t(m_shown)];
    engine::DemandSeries series;
    series.name = name.trimmed().toStdString();
    series.startEpochSeconds =
        m_input.startEpochSeconds > 0 ? m_input.startEpochSeconds + int64_t(s.history.size()) * 3600 : 0;
    for (double v : s.fan[size_t(at - probabilities.begin())])
        series.gpus.push_back(engine::Decimal::fromDouble(std::max(0.0, v)).rounded(3));
    series.source = tr("Forecast %1 of %2 (%3)").arg(probabilityName(probability), s.name, m_input.source).toStdString();
    const auto before = m_workspace.demandSeries(name.trimmed());
    try {
        m_workspace.putDemandSeries(series);
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    if (m_undoStack)
        m_undoStack->push(new SaveSeriesCommand(m_workspace, before, series));
    return true;
}

QString ForecastPage::importReport() const
{
    return m_reportText;
}

QString ForecastPage::statusText() const
{
    return m_status->text();
}

QString ForecastPage::explanation() const
{
    return m_explanation->text();
}

QList<ChartPanel *> ForecastPage::chartPanels() const
{
    QList<ChartPanel *> panels{m_fanChart, m_compareChart};
    if (auto *current = qobject_cast<ChartPanel *>(m_chartTabs->currentWidget())) {
        panels.removeOne(current);
        panels.prepend(current);
    }
    return panels;
}

} // namespace headroom::ui
