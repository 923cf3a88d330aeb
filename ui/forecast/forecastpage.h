#pragma once

#include "forecastimport.h"
#include "forecastinputs.h"
#include "forecastrun.h"
#include "common/backgroundjob.h"
#include "common/page.h"
#include "report/reportreads.h"

#include <memory>
#include <optional>

class QLabel;
class QTableWidget;
class QTabWidget;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// Forecast (DESIGN §3.6): demand by primitive (tenant × model × workload type) from telemetry,
// a pod trace or a workspace series; Holt-Winters fits with per-primitive fit quality and
// rolling-origin backtests; a fan chart of the decomposed forecast; decomposed versus
// single-model errors, in burst hours too; and the forecast handed to the reservation
// decision. Fits and the hand-off run off the GUI thread with progress and Cancel.
class ForecastPage : public Page {
    Q_OBJECT
public:
    // Where the input comes from (the source combo's order).
    using Source = ForecastInputsPanel::Source;

    ForecastPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);
    ~ForecastPage() override;

    QList<ChartPanel *> chartPanels() const override;
    QJsonObject currentTableSource() const override;

    // Imports replace the input and clear results; false with the reason (file, line,
    // field) and nothing changed.
    bool importTelemetry(const QString &path, QString *error);
    bool importPods(const QString &path, engine::PodSplit split, QString *error);
    bool importWorkspaceSeries(const QString &name, QString *error);
    // Imports what the source widgets say; errors go to the status line.
    void importFromInputs();

    // Starts a fit (or the hand-off) on the worker thread; finished() tells when it is over.
    void fit();
    void useForReservation();
    void cancel();
    bool isRunning() const;

    // Saves quantile `probability` of the shown series' forecast as a workspace demand
    // series (one undo step); false with the reason.
    bool saveForecastSeries(const QString &name, double probability, QString *error);

    // 0 = the total, i = primitive i − 1.
    void showSeries(int index);
    int shownSeries() const { return m_shown; }

    const ForecastInput &input() const { return m_input; }
    const std::optional<ForecastRun> &result() const { return m_run; }
    const std::optional<engine::ReservationHandOff> &handOff() const { return m_handOff; }
    QString importReport() const;
    QString statusText() const;
    QString explanation() const;

signals:
    // A fit or hand-off run ended: completed, or cancelled / failed.
    void finished(bool completed);

private:
    struct Outcome;
    QWidget *buildInputs();
    QWidget *buildResults();
    // Shows imported demand history; false (with the reason already in the error) when none.
    bool setImported(std::optional<ImportedDemand> imported, const RunReads &reads);
    // `figure` with the source of the imported history it is drawn from.
    ChartFigure withInputSource(ChartFigure figure) const;
    void setInput(ForecastInput input, const QString &report);
    void startWorker(std::function<void(Outcome &, const RunProgress &)> work, const QString &status);
    void showOutcome(std::shared_ptr<Outcome> outcome);
    bool refuseWhileRunning(QString *error) const;
    void fillPrimitivesTable();
    void fillBacktestTable();
    void fillComparison();
    void fillReservation();
    void showFan();
    void updateButtons();

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    ForecastInputsPanel *m_inputs = nullptr;
    // results
    QTabWidget *m_chartTabs = nullptr;
    ChartPanel *m_fanChart = nullptr;
    ChartPanel *m_compareChart = nullptr;
    QTabWidget *m_tableTabs = nullptr;
    QTableWidget *m_primitives = nullptr;
    QTableWidget *m_backtest = nullptr;
    QTableWidget *m_comparison = nullptr;
    QTableWidget *m_reservation = nullptr;
    QLabel *m_explanation = nullptr;

    ForecastInput m_input;
    QString m_reportText;
    std::optional<ForecastRun> m_run;
    std::optional<engine::ReservationHandOff> m_handOff;
    QString m_handOffCard;
    QJsonObject m_inputSource;    // what the imported history was read from (report sources)
    int m_shown = 0;
    bool m_filling = false;
    BackgroundJob m_job;
};

} // namespace headroom::ui
