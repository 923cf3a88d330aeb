#pragma once

#include "costanalysis.h"
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
    explicit CostPage(store::Workspace &workspace, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    QJsonObject currentTableSource() const override;
    // The page's inputs.
    CostPageInputs inputs() const;
    const engine::ReserveAnalysis &analysis() const;
    const std::vector<CostOption> &options() const;
    std::optional<engine::DemandSeries> demand() const;
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
    QString renewalLines(int64_t reserved, const engine::Money &rate, int months) const;
    QWidget *buildInputs();
    void refreshRateCards();
    void refreshDemandChoices();
    void applyRateCard();
    void recompute();
    void showError(const QString &message);
    void updateRecommendation();

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

    std::optional<CostAnalysis> m_cost;
    QString m_error;
    bool m_updating = false;
};

} // namespace headroom::ui
