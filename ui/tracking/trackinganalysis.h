#pragma once

#include "engine/tracking/actuals.h"
#include "engine/tracking/actuals_anomalies.h"
#include "engine/tracking/commitment_renewal.h"
#include "engine/tracking/tracking.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

// What the Tracking page and the tracking deck show, computed from stored actuals
// (engine::ActualsSummary) in one currency. No widgets here: the page runs it after an
// import and on every settings change, the deck once.
namespace headroom::ui {

struct TrackingSettings {
    std::string currency;              // empty: the first currency of the actuals
    double threshold = 0.8;            // under-used below this trailing utilization
    int64_t trailingHours = 720;
    int anomalyPeriod = 7;             // daily series: a weekly season
    int driftPeriods = 3;
    int planHistory = 14;              // days the plan's forecast band is fitted on
};

// A commitment's used and unused EffectiveCost per bucket (an hour when its charges span at
// most 7 days, else a UTC day), for the utilization chart.
struct UtilizationBucket {
    int64_t start = 0;                 // epoch seconds
    int64_t seconds = 0;               // 3600 or 86400
    engine::Decimal used;
    engine::Decimal unused;
};

struct CommitmentTrack {
    engine::CommitmentUsage usage;
    std::vector<UtilizationBucket> buckets;
    int64_t termEnd = 0;               // epoch seconds; 0 when the actuals do not say
    // The next term from the measured demand and its forecast (commitment_renewal.h).
    std::optional<engine::CommitmentRecommendation> next;
};

// A scenario's plan for the comparison: its name and exact cost per day.
struct PlanInput {
    QString scenario;
    engine::Money costPerDay;
};

struct TrackingResult {
    std::string currency;
    std::vector<std::string> currencies;            // every currency of the actuals
    TrackingSettings settings;
    std::vector<CommitmentTrack> commitments;       // in `currency`, by id
    engine::Decimal onDemandOverflow;               // in `currency`
    std::optional<engine::DailyCost> daily;         // EffectiveCost per UTC day in `currency`
    engine::Decimal totalEffective;                 // Σ daily
    engine::Decimal totalBilled;                    // Σ BilledCost in `currency`
    std::optional<engine::AnomalyReport> anomalies; // on the daily cost
    // The same daily cost and the daily usage hours, each anomaly sized in money and hours
    // (its spendReport is `anomalies`).
    std::optional<engine::ActualsAnomalyReport> actualsAnomalies;
    QString anomalyNote;                            // why there are none, when not run
    std::optional<PlanInput> plan;
    std::optional<engine::PlanVsActual> planResult;
    QString planNote;                               // why there is no comparison

    // Σ used and unused EffectiveCost over the commitments shown, and their utilization.
    engine::Decimal usedCost() const;
    engine::Decimal unusedCost() const;
    double utilization() const;
    int underUsedCount() const;
};

// Throws engine::InputError for settings out of range (threshold, trailing hours) or a
// currency the actuals do not hold.
TrackingResult analyseTracking(const engine::ActualsSummary &actuals, const TrackingSettings &settings,
                               const std::optional<PlanInput> &plan = std::nullopt,
                               const std::vector<engine::CommitmentRecommendation> *next = nullptr);

// The next-term recommendations analyseTracking shows: they depend on the actuals and the
// trailing window only, so a page keeps them while other settings change and passes them back
// as `next`.
std::vector<engine::CommitmentRecommendation> nextTerms(const engine::ActualsSummary &actuals,
                                                        const TrackingSettings &settings);

// "2026-01-01" for an epoch second or a day number.
QString utcDate(int64_t epochSeconds);
QString utcDay(int64_t day);
QString anomalyKindName(engine::AnomalyKind kind);

} // namespace headroom::ui
