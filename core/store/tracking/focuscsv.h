#pragma once

#include "engine/tracking/focus.h"

#include <QByteArray>
#include <QString>
#include <functional>

// FOCUS 1.x cost-and-usage CSV (FinOps Open Cost and Usage Specification) read into engine
// charge rows (DESIGN §3.7c). The file is streamed: it is never held whole in memory.
//
// Columns are found by name, in any order and any letter case. Mandatory: ChargePeriodStart,
// ChargePeriodEnd, ChargeCategory, BilledCost, EffectiveCost. Read when present: BillingCurrency
// (or BilledCurrency), ListCost, PricingCategory, ResourceId, SkuId, RegionId, ServiceName,
// ServiceCategory, ConsumedQuantity, ConsumedUnit, CommitmentDiscountId/Name/Category/Type,
// CommitmentDiscountStatus; every other column is accepted and ignored. An empty field and the
// literal "null" both mean "no value". Costs are plain decimals (negative for credits and
// refunds), kept exactly; times are ISO 8601 in UTC ("2026-01-01T00:00:00Z", an offset such as
// "+02:00" is applied). Without a currency column every amount is in `defaultCurrency` and a
// warning says so.
//
// Refused, with a StoreError naming the file, line and field, and nothing returned: a missing
// mandatory column, a bad time, cost, currency or category, a period that does not end after it
// starts, CommitmentDiscountStatus without CommitmentDiscountId, two usage rows charging the same
// resource, SKU, commitment, status and pricing for overlapping periods (naming both lines), bytes
// that are not UTF-8, and anything past the "FOCUS CSV" import limits (core/store/README.md).
namespace headroom::store {

struct FocusOptions {
    QString defaultCurrency = QStringLiteral("USD");
    // Called every few thousand rows with the share of the file read, in [0, 1]; returning
    // false stops the read with FocusImportCancelled.
    std::function<bool(double)> progress = {};
};

// Thrown when FocusOptions::progress asked to stop.
struct FocusImportCancelled {};

engine::FocusCharges readFocusCsv(const QString &path, const FocusOptions &options = {});
// The same over file contents, errors naming `sourceName`.
engine::FocusCharges parseFocusCsv(const QByteArray &csv, const QString &sourceName,
                                   const FocusOptions &options = {});

} // namespace headroom::store
