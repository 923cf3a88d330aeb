#pragma once

#include "engine/tracking/chargeback.h"
#include "store/tracking/focuscsv.h"

#include <QString>

// What a chargeback reads (DESIGN §3.7c): the claims ledger with each machine's MIG table and
// GPU memory from the workspace's catalog, the FOCUS export, and the tokens the deployments
// served from the workspace's serving-metrics imports or a metrics file. Shared by
// `track chargeback`, the Tracking page's Chargeback section and the tracking deck.
namespace headroom::store {

class Workspace;

struct ChargebackInputs {
    QString claimsPath;
    QString focusPath;
    std::vector<engine::PoolResource> resources;
    std::vector<engine::GpuClaim> claims;
    engine::FocusCharges charges;
    engine::ServingHours hours;      // the metrics file's, else every import of the workspace
    int64_t firstCharge = 0;         // the span of the charges of the claims' machines
    int64_t lastCharge = 0;
};

// Reads both files (and `metricsPath` when not empty). Throws StoreError naming the file, line
// and field (claims, FOCUS or metrics), a gpu_type missing from the workspace's catalog, and an
// export with no charge of the claims' machines; FocusImportCancelled when `focus.progress`
// asked to stop.
ChargebackInputs readChargebackInputs(const Workspace &workspace, const QString &claimsPath, const QString &focusPath,
                                      const QString &metricsPath = {}, const FocusOptions &focus = {});

// Allocates the inputs' charges over [options.from, options.to), or over the span of the
// machines' charges where from and to are both 0.
engine::ChargebackResult runChargeback(const ChargebackInputs &inputs, engine::ChargebackOptions options);

} // namespace headroom::store
