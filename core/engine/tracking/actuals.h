#pragma once

#include "focus.h"
#include "engine/common/money.h"

#include <cstdint>
#include <string>
#include <vector>

// Billing actuals reduced to what the tracking analyses read (DESIGN §3.7c): a year of hourly
// FOCUS rows for hundreds of resources becomes a few figures per commitment-hour and per day,
// every amount an exact decimal in its own currency. analyseCommitments, dailyEffectiveCost
// and commitmentDays over FocusCharges aggregate first and read these, so figures computed from
// a file and from a workspace that stored its aggregates agree to the cent.
namespace headroom::engine {

// EffectiveCost of one commitment, in one currency and status, for the Used/Unused rows that
// start in `hour`. An entry with zero cost marks an hour a longer row covers: hoursUsed and
// hoursUnused count the distinct hours that have an entry.
struct CommitmentHourCost {
    uint32_t commitment = 0;    // index into ActualsSummary::commitments (never 0)
    uint32_t currency = 0;      // index into ActualsSummary::currencies
    int64_t hour = 0;           // hours since 1970-01-01 UTC
    CommitmentStatus status = CommitmentStatus::Used;
    Decimal effectiveCost;
};

// A service (ServiceName, else ServiceCategory) and region a commitment's rows were charged in.
struct CommitmentScope {
    uint32_t commitment = 0;
    uint32_t currency = 0;
    std::string service;
    std::string region;
};

// EffectiveCost of on-demand usage (Usage rows without a commitment, not priced Committed)
// in a service and region, for rows covering the clock hours [firstHour, lastHour).
struct OnDemandCost {
    uint32_t currency = 0;
    std::string service;
    std::string region;
    int64_t firstHour = 0;
    int64_t lastHour = 0;
    Decimal effectiveCost;
};

// Σ EffectiveCost and Σ BilledCost of every row in a currency whose charge period starts on
// `day` (UTC days since 1970-01-01), and how many rows that is.
struct DayCost {
    uint32_t currency = 0;
    int64_t day = 0;
    Decimal effectiveCost;
    Decimal billedCost;
    int64_t rows = 0;
    // Σ ConsumedQuantity of the Usage rows whose ConsumedUnit is a unit of hours ("Hours",
    // "Hrs", "GPU-Hours", …): resource-hours, GPU-hours when the SKU is billed per GPU.
    Decimal consumedHours;
};

// The price a commitment saves against, from its Used rows that state a ListCost: Σ
// EffectiveCost and Σ ListCost of those rows, in one currency. ListCost ÷ EffectiveCost is
// the on-demand price of the usage the commitment covered over its committed price.
struct CommitmentRate {
    uint32_t commitment = 0;
    uint32_t currency = 0;
    Decimal usedEffectiveCost;
    Decimal usedListCost;
};

struct ActualsSummary {
    std::vector<std::string> currencies;                          // as in the file
    std::vector<FocusCommitment> commitments{FocusCommitment{}};  // [0] = no commitment
    // Per commitment: the end of its term (epoch seconds) when a Purchase row of the
    // commitment covers more than 31 days (a one-time purchase of the whole term), else 0.
    std::vector<int64_t> termEnds{0};
    std::vector<CommitmentHourCost> commitmentHours;  // by commitment, currency, hour, status
    std::vector<CommitmentScope> scopes;              // by commitment, currency, service, region
    std::vector<OnDemandCost> onDemand;               // by currency, service, region, hours
    std::vector<DayCost> days;                        // by currency, day
    std::vector<CommitmentRate> rates;                // by commitment, currency
    int64_t rows = 0;                                 // charge rows aggregated
};

// Aggregates the rows. Throws InputError("rows") for a commitment charge covering more than
// 31 days, or commitment charges covering more than 50 million commitment-hours in all.
ActualsSummary summarizeActuals(const FocusCharges &charges);

// Whether a FOCUS ConsumedUnit counts hours of a whole resource: "Hours", "Hour", "Hrs", "h",
// and "GPU", "Instance", "Node", "VM", "Machine", "Accelerator" or "Compute" hours (with a space
// or a hyphen), any letter case. "GB-Hours" and other quantity-hours are not.
bool isHourUnit(const std::string &unit);

// The same actuals keeping only charges that start at or after `fromSeconds` (epoch seconds,
// rounded down to its hour and day): what a report "since DATE" reads.
ActualsSummary actualsSince(const ActualsSummary &actuals, int64_t fromSeconds);

// Checks the invariants a stored summary must hold (indices in range, costs of one key once,
// hour ranges non-empty); throws InputError("actuals") naming the first broken one.
void validate(const ActualsSummary &actuals);

} // namespace headroom::engine
