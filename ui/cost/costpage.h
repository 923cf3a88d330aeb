#pragma once

#include "engine/common/errors.h"
#include "engine/cost/cost.h"
#include "common/page.h"

#include <QString>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDateEdit;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// Cost & reservations (DESIGN §3.7): how many GPUs to commit for 1 or 3 years against an
// hourly demand series, what the rest costs on on-demand and spot, how far the P50/P75 rules
// of thumb are from the optimum, and how sensitive the plan is to the forecast.
class CostPage : public Page {
    Q_OBJECT
public:
    // One line of the options table.
    struct Option {
        QString name;
        int64_t reserved = 0;
        engine::PlanCost cost;
    };

    explicit CostPage(store::Workspace &workspace, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    const engine::ReserveAnalysis &analysis() const { return m_analysis; }
    const std::vector<Option> &options() const { return m_options; }
    const std::optional<engine::DemandSeries> &demand() const { return m_demand; }
    QString recommendation() const;
    QString errorText() const { return m_error; }

    // Imports an hourly demand CSV into the workspace and selects it; false with the reason.
    bool importDemand(const QString &path, QString *error);
    void importDemandWithDialog();
    void selectDemand(const QString &name); // "" = generated shape

signals:
    void recomputed();

private:
    // The terms a series longer than the commitment renews it for, with what each is owed.
    QString fieldMessage(const engine::InputError &e) const;
    QString renewalLines(int64_t reserved, const engine::Money &rate, int months, int64_t seriesHours) const;
    QWidget *buildInputs();
    void refreshRateCards();
    void refreshDemandChoices();
    void applyRateCard();
    void recompute();
    bool computeDemand(QString *error);
    void showError(const QString &message);
    void updateTable(const engine::Money &allOnDemand);
    void updateRecommendation(const engine::PlanRates &rates, const engine::Money &reservedRate,
                              const engine::Money &onDemandRate);

    store::Workspace &m_workspace;
    // demand
    QComboBox *m_demandSource = nullptr;
    QWidget *m_shapeBox = nullptr;
    QDoubleSpinBox *m_baseline = nullptr;
    QDoubleSpinBox *m_peak = nullptr;
    QSpinBox *m_peakHour = nullptr;
    QDoubleSpinBox *m_weekend = nullptr;
    QDoubleSpinBox *m_growth = nullptr;
    QDoubleSpinBox *m_noise = nullptr;
    QComboBox *m_horizon = nullptr;
    QDateEdit *m_startDate = nullptr;
    QSpinBox *m_seed = nullptr;
    // prices
    QComboBox *m_rateCard = nullptr;
    QComboBox *m_term = nullptr;
    QLineEdit *m_onDemandRate = nullptr;
    QLineEdit *m_reservedRate = nullptr;
    QLineEdit *m_spotRate = nullptr;
    QDoubleSpinBox *m_spotShare = nullptr;
    QDoubleSpinBox *m_spotOverhead = nullptr;
    QLabel *m_currency = nullptr;
    QString m_currencyCode = QStringLiteral("USD");
    // plan
    QCheckBox *m_useOptimum = nullptr;
    QSpinBox *m_reserved = nullptr;
    QSpinBox *m_week = nullptr;
    // results
    QTabWidget *m_chartTabs = nullptr;
    ChartPanel *m_sweepChart = nullptr;
    ChartPanel *m_weekChart = nullptr;
    ChartPanel *m_monthChart = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_recommendation = nullptr;

    std::optional<engine::DemandSeries> m_demand;
    engine::ReserveAnalysis m_analysis;
    std::vector<Option> m_options;
    std::vector<engine::Sensitivity> m_sensitivity;
    engine::CivilDate m_seriesStart;                   // 00:00 UTC of hour 0 of the demand
    std::optional<engine::CommitmentObligation> m_commitment; // the optimum reservation, whole term
    int64_t m_chosenReserved = 0;
    QString m_error;
    bool m_updating = false;
};

} // namespace headroom::ui
