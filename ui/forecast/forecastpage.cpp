#include "forecastpage.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "common/fields.h"
#include "engine/common/errors.h"
#include "forecastcharts.h"
#include "common/format.h"
#include "forecastimport.h"
#include "forecasttext.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

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

} // namespace

ForecastPage::ForecastPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("forecastPage");
    layOutPage(buildInputs(), buildResults(), 400);
    connect(&m_workspace, &store::Workspace::demandSeriesChanged, m_inputs, &ForecastInputsPanel::refreshDemandSeries);
    connect(&m_workspace, &store::Workspace::rateCardsChanged, m_inputs, &ForecastInputsPanel::refreshRateCards);
    m_inputs->refreshDemandSeries();
    m_inputs->refreshRateCards();
    m_inputs->refreshSourceWidgets();
    m_fanChart->setFigure(emptyFigure(tr("Import demand history and fit to see the forecast")));
    m_compareChart->setFigure(emptyFigure(tr("Fit to compare decomposed and single-model forecasts")));
    updateButtons();
}

ForecastPage::~ForecastPage() = default;

QWidget *ForecastPage::buildInputs()
{
    m_inputs = new ForecastInputsPanel(m_workspace);
    connect(m_inputs, &ForecastInputsPanel::importRequested, this, &ForecastPage::importFromInputs);
    connect(m_inputs, &ForecastInputsPanel::fitRequested, this, &ForecastPage::fit);
    connect(m_inputs, &ForecastInputsPanel::cancelRequested, this, &ForecastPage::cancel);
    connect(m_inputs, &ForecastInputsPanel::reservationRequested, this, &ForecastPage::useForReservation);
    connect(m_inputs, &ForecastInputsPanel::saveRequested, this, [this] {
        const QString name = m_inputs->saveName();
        QString error;
        if (saveForecastSeries(name, m_inputs->saveProbability(), &error))
            m_inputs->setStatus(tr("Saved the forecast as demand series \"%1\"; the Cost page lists it.").arg(name.toHtmlEscaped()));
        else
            m_inputs->setStatus(kErrorStyle.arg(tr("Not saved: %1").arg(error.toHtmlEscaped())));
    });
    return m_inputs;
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

bool ForecastPage::importTelemetry(const QString &path, QString *error)
{
    if (refuseWhileRunning(error))
        return false;
    return setImported(ForecastImport::telemetry(path, error), RunReads{{}, {}, false, {}, {}, {path}});
}

bool ForecastPage::importPods(const QString &path, engine::PodSplit split, QString *error)
{
    if (refuseWhileRunning(error))
        return false;
    return setImported(ForecastImport::pods(path, split, error), RunReads{{}, {}, false, {}, {}, {path}});
}

bool ForecastPage::importWorkspaceSeries(const QString &name, QString *error)
{
    if (refuseWhileRunning(error))
        return false;
    return setImported(ForecastImport::workspaceSeries(m_workspace, name, error), RunReads{{}, {}, false, {name}, {}, {}});
}

bool ForecastPage::setImported(std::optional<ImportedDemand> imported, const RunReads &reads)
{
    if (!imported)
        return false;
    // What the forecast is drawn from, as read now: the report keeps its items while it is unchanged.
    m_inputSource = withRunReads({{QStringLiteral("kind"), QStringLiteral("forecast")}}, m_workspace, reads);
    setInput(std::move(imported->input), imported->report);
    return true;
}

void ForecastPage::importFromInputs()
{
    if (isRunning())
        return;
    QString error;
    bool ok = false;
    switch (m_inputs->source()) {
    case Source::Telemetry:
        ok = importTelemetry(m_inputs->filePath(), &error);
        break;
    case Source::Pods:
        ok = importPods(m_inputs->filePath(), m_inputs->podSplit(), &error);
        break;
    case Source::Workspace:
        ok = importWorkspaceSeries(m_inputs->seriesName(), &error);
        break;
    }
    if (ok)
        m_inputs->setStatus(tr("Imported %1 primitives. Choose the model, then Fit.").arg(m_input.names.size()));
    else
        m_inputs->setStatus(kErrorStyle.arg(tr("Not imported, nothing changed: %1").arg(error.toHtmlEscaped())));
}

void ForecastPage::setInput(ForecastInput input, const QString &report)
{
    m_input = std::move(input);
    m_reportText = report;
    m_inputs->setReport(report);
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
    m_inputs->progressBar()->setValue(0);
    m_inputs->setStatus(status);
    m_job.start(this, m_inputs->progressBar(), job, [this, outcome] { showOutcome(outcome); });
    updateButtons();
}

void ForecastPage::fit()
{
    if (isRunning())
        return;
    if (m_input.series.empty()) {
        m_inputs->setStatus(kErrorStyle.arg(tr("Import demand history first.")));
        return;
    }
    ForecastSettings settings;
    QString error;
    if (!m_inputs->readSettings(&settings, &error)) {
        m_inputs->setStatus(kErrorStyle.arg(tr("Not run: %1").arg(error.toHtmlEscaped())));
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
        m_inputs->setStatus(kErrorStyle.arg(tr("Fit a forecast first.")));
        return;
    }
    const auto card = m_workspace.rateCard(m_inputs->rateCardKey());
    if (!card) {
        m_inputs->setStatus(kErrorStyle.arg(tr("Choose a rate card (add one on the Rate cards page).")));
        return;
    }
    const bool threeYear = m_inputs->threeYearTerm();
    const engine::Decimal reserved = threeYear ? card->reserved3y : card->reserved1y;
    if (reserved.isZero()) {
        m_inputs->setStatus(kErrorStyle.arg(tr("This rate card offers no %1 commitment.").arg(threeYear ? tr("3-year") : tr("1-year"))));
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
    m_handOffCard = m_inputs->rateCardText();
    const ForecastRun run = *m_run;
    startWorker([run, options](Outcome &outcome, const RunProgress &progress) {
                    outcome.handOff = runReservation(run, options, progress);
                },
                tr("Drawing %1 hours of demand and optimising the reservation…").arg(formatCount(options.termHours)));
}

void ForecastPage::cancel()
{
    if (!isRunning())
        return;
    m_job.cancel();
    m_inputs->setStatus(tr("Cancelling…"));
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
        m_inputs->progressBar()->setValue(0);
        m_inputs->setStatus(outcome->cancelled
                              ? tr("Cancelled; the previous results are kept.")
                              : kErrorStyle.arg(tr("Not run: %1").arg(outcome->error.toHtmlEscaped())));
        emit finished(false);
        return;
    }
    m_inputs->progressBar()->setValue(1000);
    if (outcome->run) {
        m_run = std::move(outcome->run);
        m_handOff.reset();
        m_shown = std::clamp(m_shown, 0, int(m_run->series.size()) - 1);
        fillPrimitivesTable();
        fillBacktestTable();
        fillComparison();
        fillReservation();
        showFan();
        m_inputs->setStatus(tr("Fitted %1 in %2 s.").arg(formatCountOf(int64_t(m_run->series.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n model(s)"))).arg(outcome->seconds, 0, 'f', 1));
    }
    if (outcome->handOff) {
        m_handOff = std::move(outcome->handOff);
        fillReservation();
        m_tableTabs->setCurrentWidget(m_reservation);
        m_inputs->setStatus(tr("Reservation from the forecast over %1 hours, %2 paths around the point forecast (%3 s).")
                              .arg(formatCount(m_handOff->termHours))
                              .arg(m_handOff->paths)
                              .arg(outcome->seconds, 0, 'f', 1));
    }
    updateButtons();
    emit finished(true);
}

void ForecastPage::updateButtons()
{
    m_inputs->updateButtons(isRunning(), !m_input.series.empty(), m_run.has_value());
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
    m_compareChart->setFigure(withInputSource(
        {title,
         tr("Last %1 of %2 held out; burst hours are those whose actual total exceeds %3 GPUs (P90 of the "
            "training total). The pinball loss at P95 scores the buffer a planner would size from.")
             .arg(formatCountOf(int64_t(c.actual.size()), QT_TRANSLATE_NOOP("headroom::ui", "%n hour(s)")), m_input.source)
             .arg(c.burstThreshold, 0, 'f', 1),
         [bars, title](QChart::ChartTheme theme) { return buildErrorBarsChart(bars, title, theme); }}));
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
    lines << tr("Costs are means over %1 term-long paths: each primitive's point forecast (level, trend and season as "
                "fitted) plus its residuals of the fit, drawn at one history hour for all primitives — the hour-to-hour "
                "spread the history showed, not a random walk that wanders over a year.")
                 .arg(h.paths);
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
    const QString model = m_inputs->modelText(spec);
    const QString how = m_shown == 0 && m_run->series.size() > 2
                            ? tr("Quantiles of the sum of %1 primitives' simulated paths (not the sum of their "
                                 "quantiles).").arg(m_run->series.size() - 1)
                            : tr("Quantiles of %1 simulated paths.").arg(m_run->settings.paths);
    m_fanChart->setFigure(withInputSource({title,
                           tr("%1 of %2. %3 Bands P25–P75, P05–P95, P01–P99; size buffers from P95/P99. "
                              "Simulated GPUs are floored at 0.")
                               .arg(model, m_input.source, how),
                           [data, title](QChart::ChartTheme theme) { return buildFanChart(data, title, theme); }}));

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

ChartFigure ForecastPage::withInputSource(ChartFigure figure) const
{
    figure.source = m_inputSource;
    return figure;
}

QJsonObject ForecastPage::currentTableSource() const
{
    // The table added is the primitives' (or, before an import, none): drawn from the history only.
    const QTableWidget *table = currentResultsTable();
    return table ? shownTableSource(*table, m_inputSource) : QJsonObject();
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
    return m_inputs->statusText();
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