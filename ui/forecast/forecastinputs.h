#pragma once

#include "forecastrun.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The input column of the Forecast page: where the demand history comes from (telemetry,
// a pod trace or a workspace series), the Holt-Winters model and backtest settings, Fit and
// Cancel with the run's progress and status, and the reservation and save-as-series choices.
// The buttons only ask (the …Requested signals); the page does the work.
class ForecastInputsPanel : public QWidget {
    Q_OBJECT
public:
    // Where the input comes from (the source combo's order).
    enum class Source { Telemetry, Pods, Workspace };

    explicit ForecastInputsPanel(store::Workspace &workspace, QWidget *parent = nullptr);

    Source source() const;
    QString filePath() const;
    engine::PodSplit podSplit() const;
    QString seriesName() const;
    // The model and backtest settings; false with the reason when the quantiles do not read.
    bool readSettings(ForecastSettings *settings, QString *error) const;
    // "Holt-Winters, trend damped, season additive (24 h)".
    QString modelText(const engine::SmoothingSpec &spec) const;

    // The chosen rate card's key and its text as listed.
    QString rateCardKey() const;
    QString rateCardText() const;
    bool threeYearTerm() const;
    // The quantile to save and the series name (the suggested one when left empty).
    double saveProbability() const;
    QString saveName() const;

    void setReport(const QString &report);
    void setStatus(const QString &text);
    QString statusText() const;
    QProgressBar *progressBar() const { return m_progress; }
    // Enables the buttons for the page's state.
    void updateButtons(bool running, bool hasInput, bool hasRun);

    void refreshSourceWidgets();
    void refreshDemandSeries();
    void refreshRateCards();

signals:
    void importRequested();
    void fitRequested();
    void cancelRequested();
    void reservationRequested();
    void saveRequested();

private:
    store::Workspace &m_workspace;
    // source
    QComboBox *m_source = nullptr;
    QWidget *m_fileRow = nullptr;
    QLineEdit *m_file = nullptr;
    QComboBox *m_split = nullptr;
    QLabel *m_splitLabel = nullptr;
    QComboBox *m_series = nullptr;
    QLabel *m_seriesLabel = nullptr;
    QLabel *m_report = nullptr;
    QPushButton *m_import = nullptr;
    // model
    QComboBox *m_trend = nullptr;
    QComboBox *m_season = nullptr;
    QComboBox *m_period = nullptr;
    QComboBox *m_initial = nullptr;
    QComboBox *m_gaps = nullptr;
    QSpinBox *m_heldOut = nullptr;
    QSpinBox *m_origins = nullptr;
    QSpinBox *m_horizon = nullptr;
    QLineEdit *m_quantiles = nullptr;
    QSpinBox *m_paths = nullptr;
    QPushButton *m_fit = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    // reservation and saving
    QComboBox *m_rateCard = nullptr;
    QComboBox *m_term = nullptr;
    QPushButton *m_reserve = nullptr;
    QComboBox *m_saveQuantile = nullptr;
    QLineEdit *m_saveName = nullptr;
    QPushButton *m_save = nullptr;
};

} // namespace headroom::ui
