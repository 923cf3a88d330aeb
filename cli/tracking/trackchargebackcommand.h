#pragma once

#include "cli/common/args.h"
#include "cli/common/command.h"
#include "engine/tracking/chargeback.h"

#include <QString>
#include <vector>

// `headroom track chargeback`: a shared GPU pool's bill split over its tenants by slice-hours,
// beside the split a Kueue quota's claim count gives, and cost per million tokens (DESIGN
// §3.7c). Dispatched from `track`.
namespace headroom::cli {

// The options it reads, added to `track`'s own.
const std::vector<OptionSpec> &chargebackTrackOptions();
// Its usage text, appended to `track`'s.
QString chargebackTrackUsage();
// --mig-basis (compute | memory | larger), --idle (apart | pro-rata) and --by (tenant | model |
// namespace), the defaults the first of each; a UsageError naming `verb` for any other value.
struct ChargebackChoices {
    engine::MigBasis basis = engine::MigBasis::Compute;
    engine::IdleShare idle = engine::IdleShare::Apart;
    engine::ChargebackBy by = engine::ChargebackBy::Tenant;
};
ChargebackChoices chargebackChoices(const Args &args, const QString &verb);

// Runs it; refuses options it does not read.
int runChargebackTrack(const Args &args, Context &context);

} // namespace headroom::cli
