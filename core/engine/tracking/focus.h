#pragma once

#include "engine/common/money.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

// Billing actuals in the FinOps Open Cost and Usage Specification (FOCUS 1.x): one charge
// row per line of a cost-and-usage export, with exact decimal costs (DESIGN §3.7c).
namespace headroom::engine {

// ChargeCategory: what kind of charge the row is.
enum class ChargeCategory : uint8_t { Usage, Purchase, Tax, Credit, Adjustment };
// PricingCategory: how the row was priced (empty when the file does not say).
enum class PricingCategory : uint8_t { None, Standard, Committed, Dynamic, Other };
// CommitmentDiscountStatus: whether the commitment's share in this row was consumed by a
// resource (Used) or went unused (Unused); None on rows that carry no commitment usage.
enum class CommitmentStatus : uint8_t { None, Used, Unused };

// One charge. Strings are interned in FocusCharges::names (index 0 is the empty string).
struct FocusCharge {
    int64_t periodStart = 0;            // ChargePeriodStart, seconds since 1970-01-01 UTC
    int64_t periodEnd = 0;              // ChargePeriodEnd (exclusive), after periodStart
    Decimal billedCost;                 // BilledCost, in the row's currency (negative for credits)
    Decimal effectiveCost;              // EffectiveCost: amortised cost after discounts
    Decimal listCost;                   // ListCost (0 when the file has none)
    Decimal consumedQuantity;           // ConsumedQuantity in ConsumedUnit (0 when absent)
    Decimal commitmentQuantity;         // CommitmentDiscountQuantity (0 when absent)
    uint32_t line = 0;                  // 1-based line of the file the row starts on
    uint32_t currency = 0;              // index into FocusCharges::currencies
    uint32_t resource = 0;              // ResourceId
    uint32_t sku = 0;                   // SkuId
    uint32_t region = 0;                // RegionId
    uint32_t service = 0;               // ServiceName, else ServiceCategory
    uint32_t consumedUnit = 0;          // ConsumedUnit
    uint32_t commitment = 0;            // index into FocusCharges::commitments; 0 = none
    ChargeCategory category = ChargeCategory::Usage;
    PricingCategory pricing = PricingCategory::None;
    CommitmentStatus status = CommitmentStatus::None;
};

// A commitment discount named by the rows (CommitmentDiscountId and the columns describing it).
struct FocusCommitment {
    std::string id;                     // CommitmentDiscountId
    std::string name;                   // CommitmentDiscountName (may be empty)
    std::string category;               // CommitmentDiscountCategory: "Spend" or "Usage"
    std::string type;                   // CommitmentDiscountType, e.g. "Savings Plan"
};

// The rows of one FOCUS file. Every row keeps its own currency: amounts in different
// currencies are never added together.
struct FocusCharges {
    std::vector<std::string> currencies;            // ISO 4217 codes, in order of appearance
    std::vector<std::string> names{std::string()};  // interned strings, names[0] = ""
    std::vector<FocusCommitment> commitments{FocusCommitment{}}; // [0] = no commitment
    std::deque<FocusCharge> rows;                   // in file order
    std::vector<std::string> warnings;              // values read with a stated interpretation

    const std::string &name(uint32_t index) const { return names.at(index); }
};

} // namespace headroom::engine
