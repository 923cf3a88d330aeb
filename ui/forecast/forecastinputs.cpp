#include "forecastinputs.h"

#include "common/dialogs.h"
#include "common/fields.h"
#include "forecasttext.h"
#include "store/common/workspace.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

using Source = ForecastInputsPanel::Source;

constexpr int kHoursPerDay = 24;

QString defaultFile(Source source)
{
    const QString path = source == Source::Telemetry
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

} // namespace

ForecastInputsPanel::ForecastInputsPanel(store::Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    auto *layout = new QVBoxLayout(this);

    // Source
    auto *sourceBox = new QGroupBox(tr("Demand history"), this);
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
    connect(m_import, &QPushButton::clicked, this, &ForecastInputsPanel::importRequested);
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
    auto *modelBox = new QGroupBox(tr("Model (Holt-Winters)"), this);
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

    m_fit = new QPushButton(tr("&Fit and backtest"), this);
    m_fit->setObjectName("forecastFit");
    m_fit->setToolTip(tr("Fit every primitive and the total, backtest them and compare decomposed with single-"
                         "model forecasts, in the background"));
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setObjectName("forecastCancel");
    connect(m_fit, &QPushButton::clicked, this, &ForecastInputsPanel::fitRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ForecastInputsPanel::cancelRequested);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(tr("Import demand history, choose the model, then Fit."), this);
    m_status->setObjectName("forecastStatus");
    m_status->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_fit);
    buttons->addWidget(m_cancel);

    // Reservation and saving
    auto *useBox = new QGroupBox(tr("Use the forecast"), this);
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
    connect(m_reserve, &QPushButton::clicked, this, &ForecastInputsPanel::reservationRequested);
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
    connect(m_save, &QPushButton::clicked, this, &ForecastInputsPanel::saveRequested);
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
}

ForecastInputsPanel::Source ForecastInputsPanel::source() const
{
    return Source(m_source->currentData().toInt());
}

QString ForecastInputsPanel::filePath() const
{
    return m_file->text().trimmed();
}

engine::PodSplit ForecastInputsPanel::podSplit() const
{
    return engine::PodSplit(m_split->currentData().toInt());
}

QString ForecastInputsPanel::seriesName() const
{
    return m_series->currentText();
}

QString ForecastInputsPanel::modelText(const engine::SmoothingSpec &spec) const
{
    return tr("Holt-Winters, trend %1, season %2%3")
        .arg(m_trend->itemText(m_trend->findData(int(spec.trend))).toLower(),
             m_season->itemText(m_season->findData(int(spec.season))).toLower(),
             spec.period > 0 ? tr(" (%1 h)").arg(spec.period) : QString());
}

QString ForecastInputsPanel::rateCardKey() const
{
    return m_rateCard->currentData().toString();
}

QString ForecastInputsPanel::rateCardText() const
{
    return m_rateCard->currentText();
}

bool ForecastInputsPanel::threeYearTerm() const
{
    return m_term->currentData().toInt() == 3;
}

double ForecastInputsPanel::saveProbability() const
{
    return m_saveQuantile->currentData().toDouble();
}

QString ForecastInputsPanel::saveName() const
{
    QString name = m_saveName->text().trimmed();
    if (name.isEmpty())
        name = m_saveName->placeholderText();
    return name;
}

void ForecastInputsPanel::setReport(const QString &report)
{
    m_report->setText(report);
}

void ForecastInputsPanel::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString ForecastInputsPanel::statusText() const
{
    return m_status->text();
}

void ForecastInputsPanel::updateButtons(bool running, bool hasInput, bool hasRun)
{
    m_fit->setEnabled(!running && hasInput);
    m_import->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_reserve->setEnabled(!running && hasRun);
    m_save->setEnabled(!running && hasRun);
}

void ForecastInputsPanel::refreshSourceWidgets()
{
    const Source source = Source(m_source->currentData().toInt());
    m_fileRow->setEnabled(source != Source::Workspace);
    m_split->setVisible(source == Source::Pods);
    m_splitLabel->setVisible(source == Source::Pods);
    m_series->setVisible(source == Source::Workspace);
    m_seriesLabel->setVisible(source == Source::Workspace);
}

void ForecastInputsPanel::refreshDemandSeries()
{
    const QString current = m_series->currentText();
    m_series->clear();
    m_series->addItems(m_workspace.demandSeriesNames());
    m_series->setCurrentIndex(std::max(0, m_series->findText(current)));
}

void ForecastInputsPanel::refreshRateCards()
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

bool ForecastInputsPanel::readSettings(ForecastSettings *settings, QString *error) const
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

} // namespace headroom::ui
