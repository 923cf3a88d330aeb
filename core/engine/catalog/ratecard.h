#pragma once

#include "engine/common/money.h"
#include "specs.h"

#include <string>
#include <vector>

namespace headroom::engine {

// One provider's prices for one GPU type in one region from an effective date on
// (DESIGN §3.7). All rates are per GPU-hour in `currency`. Committed rates are the effective
// hourly price of a commitment; the upfront share says how much of it is paid at signing.
// History is kept: several cards with different effective dates may exist for the same
// provider, region and GPU; the one in force at a date is the latest not after it.
struct RateCard {
    std::string provider;          // "AWS"
    std::string region;            // "us-east-1"
    std::string gpuId;             // catalog GPU id, e.g. "h100-sxm"
    std::string instanceType;      // "p5.48xlarge"; informational
    std::string currency = "USD";
    std::string effectiveDate;     // ISO 8601 date, "2025-06-01"
    Decimal onDemand;              // > 0
    Decimal reserved1y;            // 0 = not offered
    Decimal reserved1yUpfront;     // share paid upfront, [0, 1]
    Decimal reserved3y;            // 0 = not offered
    Decimal reserved3yUpfront;     // [0, 1]
    Decimal spot;                  // 0 = not offered
    Decimal spotInterruptionRate;  // expected interruptions per GPU-hour, [0, 1]
    int reservationLeadWeeks = 0;  // weeks from order to capacity
    bool committedAreExamples = true; // committed rates are negotiated: shipped ones are examples
    std::string source;

    // Key of the history a card belongs to, and of the card itself.
    std::string historyKey() const { return provider + '/' + region + '/' + gpuId; }
    std::string key() const { return historyKey() + '@' + effectiveDate; }
};

// Field-level range checks (field names as the CSV/JSON keys: "on_demand", "reserved_1y",
// "effective_date", ...). A committed rate at or above on-demand is reported: the commitment
// never pays.
std::vector<FieldProblem> validate(const RateCard &card);

// The card in force at `date` (ISO) among `cards` for the same history key, or nullptr.
const RateCard *cardInForce(const std::vector<RateCard> &cards, const std::string &historyKey,
                            const std::string &date);

} // namespace headroom::engine
