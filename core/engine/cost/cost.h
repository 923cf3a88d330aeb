#pragma once

#include "engine/common/calendar.h"
#include "demand.h"
#include "engine/common/money.h"

#include <cstdint>
#include <vector>

// Cost and reservations (DESIGN §3.7): exact money for idle capacity, static versus
// elastic fleets, and the reserved-versus-elastic decision over an hourly demand series.
namespace headroom::engine {

// Idle capacity: gpus × idle fraction × rate × 24 h per day; the month is `daysPerMonth`
// unrounded days. Golden: 64 GPUs, 40 % idle, $6.88 → $4,227.07/day, $126,812.16/month.
struct IdleCost {
    Money perDay;
    Money perMonth;
};
IdleCost idleCost(int64_t gpus, Decimal idleFraction, const Money &ratePerGpuHour, int daysPerMonth = 30);

// Same SLO, static fleet versus an elastic one of a given average size.
// Golden: 16 static vs 10 average at $3.99 → $1,532.16 vs $957.60/day, saving $574.56/day,
// $17,236.80/month. The fleets' costs are exact; the savings are the differences of the
// fleets' costs as shown in cents (shownDifference), so they re-add on the page.
struct StaticVsElastic {
    Money staticPerDay;
    Money elasticPerDay;
    Money staticPerMonth;
    Money elasticPerMonth;
    Money savingPerDay;             // cents: shown static − shown elastic per day
    Money savingPerMonth;           // cents: shown static − shown elastic per month
};
StaticVsElastic staticVsElastic(int64_t staticGpus, Decimal elasticAverageGpus, const Money &ratePerGpuHour,
                                int daysPerMonth = 30);

// Prices of one plan, all per GPU-hour in one currency.
struct PlanRates {
    Money reserved3y;               // used when PlanMix::reserved3y > 0
    Money reserved1y;               // used when PlanMix::reserved1y > 0
    Money onDemand;
    Money spot;                     // used when PlanMix::spotShare > 0
    Decimal spotOverhead;           // extra GPU-hours per spot GPU-hour lost to interruptions, ≥ 0
};

// How demand is covered: reserved GPUs are paid every hour, used or not; each hour's demand
// above them is elastic, of which `spotShare` (the interruption-tolerant part) runs on spot.
struct PlanMix {
    int64_t reserved3y = 0;
    int64_t reserved1y = 0;
    Decimal spotShare;              // [0, 1]
};

// One hour of a plan, in GPU-hours (for the stacked chart).
struct HourBreakdown {
    Decimal reservedUsed;
    Decimal reservedIdle;
    Decimal onDemand;
    Decimal spot;
};

struct PlanCost {
    Money total;
    Money reserved;                 // 1y + 3y
    Money onDemand;
    Money spot;
    Decimal reservedGpuHours;
    Decimal reservedUsedGpuHours;
    Decimal onDemandGpuHours;
    Decimal spotGpuHours;           // including interruption overhead
    double reservedUtilization = 0; // used / paid reserved GPU-hours
    std::vector<HourBreakdown> hours; // filled when asked
    // By commitment; demand fills the 3-year reservation before the 1-year one.
    Money reserved3y;
    Money reserved1y;
    Decimal reserved3yUsedGpuHours;
    Decimal reserved1yUsedGpuHours;
};

// Throws InputError naming the field for negative counts, a spot share outside [0, 1],
// zero or negative rates in use, or mixed currencies.
PlanCost planCost(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates,
                  bool withHours = false);

// The elastic price per GPU-hour of a plan: on-demand and spot blended by the spot share,
// spot inflated by its interruption overhead.
Money elasticRate(const PlanRates &rates, Decimal spotShare);

// Reserved-versus-elastic optimum for one commitment rate. The cost C(R) = R × rate × hours
// + elastic × Σ max(0, d − R) is convex in R; the exact sweep over every R in [0, peak]
// and the critical fractile (reserve R where P(demand > R) = reserved / elastic) must agree.
struct ReservePoint {
    int64_t reserved = 0;
    Money cost;
};
struct ReserveAnalysis {
    double criticalFractile = 0;    // reserved rate / elastic rate
    int64_t optimalReserved = 0;    // by exact sweep (smallest R at the minimum)
    int64_t fractileReserved = 0;   // smallest R with P(demand > R) ≤ fractile
    Money costAtOptimum;
    Money costAllElastic;           // R = 0
    double p50 = 0;
    double p75 = 0;
    int64_t p50Reserved = 0;        // ceil(p50)
    int64_t p75Reserved = 0;        // ceil(p75)
    Money costAtP50;
    Money costAtP75;
    std::vector<ReservePoint> sweep; // R = 0 … ceil(peak)
    bool commitmentPays = true;     // false when reserved ≥ elastic rate: reserve nothing
};
// Throws InputError("reserved_rate" / "elastic_rate" / "demand") on bad input.
ReserveAnalysis analyseReservation(const DemandSeries &demand, const Money &reservedRate, const Money &elasticRate);

// Utilization at which a commitment costs the same as on-demand: reserved / on-demand.
double breakEvenUtilization(const Money &reservedRate, const Money &onDemandRate);

// A plan's cost as printed: reserved, on-demand and spot rounded to cents and their total.
ShownColumn shownPlanCost(const PlanCost &cost);

// Spend of a plan per block of `hoursPerMonth` hours (30-day months; the last may be
// partial): the reserved tier, and the elastic tier (on-demand + spot).
struct MonthSpend {
    Money reserved;                 // the reserved tier's hours (the recurring part with withUpfront)
    Money elastic;
    Money upfront;                  // withUpfront: the commitment's upfront, in the month it is paid
    std::string label;              // calendar months: "2025-07"; blocks: empty
    int64_t hours = 0;              // hours of the series in the month
};
std::vector<MonthSpend> monthlySpend(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates,
                                     int hoursPerMonth = kHoursPer30DayMonth);
// Spend per calendar month of a series whose hour 0 is 00:00 UTC of `start` (calendarMonths):
// a year from the first of a month is exactly 12 months, no stub month.
std::vector<MonthSpend> monthlySpend(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates,
                                     CivilDate start);

// Cost of a fixed plan when demand is scaled by (1 + change), e.g. −0.25, −0.10, +0.10, +0.25,
// with all its parts, against no commitment at the same scaled demand (like with like): the
// plan's elastic tier only, the same spot share (all on-demand when the share is 0).
struct Sensitivity {
    double change = 0;
    Money total;                    // = plan.total
    PlanCost plan;                  // the plan's reserved, on-demand and spot parts
    Money noCommitment;             // the scaled demand with no reservation, same spot share
};

// A 1- or 3-year commitment is paid for its whole term whatever the analysis horizon
// (DESIGN §3.7). For `reserved` GPUs at `rate` (effective per GPU-hour, `upfrontShare` of it
// paid at signing) from `start` over `termMonths` (12 or 36) months, evaluated on a series of
// `horizonHours` hours from the same start.
struct CommitmentObligation {
    int termMonths = 0;
    std::string startDate;          // ISO
    std::string endDate;            // ISO: start + term months
    int64_t termHours = 0;          // real hours of the term (calendar)
    int64_t horizonHours = 0;       // hours evaluated
    Money total;                    // reserved × rate × term hours: what is owed
    Money upfront;                  // total × upfront share, paid at signing (cents)
    Money recurring;                // total − upfront, paid over the term
    Money inHorizon;                // reserved × rate × min(horizon, term) hours: consumed in the horizon
    double shareConsumed = 0;       // min(horizon, term) ÷ term hours
    bool coversTerm = true;         // the demand series covers the whole term
    std::string warning;            // a full sentence when it does not; empty otherwise
};
// Throws InputError for negative counts or hours, a non-positive rate, an upfront share
// outside [0, 1] or a term other than 12 or 36 months.
CommitmentObligation commitmentObligation(int64_t reserved, const Money &rate, Decimal upfrontShare,
                                          CivilDate start, int termMonths, int64_t horizonHours);
// Cash flow of a plan's months when its commitment has an upfront share: the upfront
// (obligation.upfront, the whole term's) is paid in the first month, at signing; each month's
// reserved spend keeps only the recurring (1 − share) part.
std::vector<MonthSpend> withUpfront(std::vector<MonthSpend> months, Decimal upfrontShare,
                                    const CommitmentObligation &obligation);
std::vector<Sensitivity> sensitivity(const DemandSeries &demand, const PlanMix &mix, const PlanRates &rates,
                                     const std::vector<double> &changes = {-0.25, -0.10, 0.10, 0.25});

} // namespace headroom::engine
