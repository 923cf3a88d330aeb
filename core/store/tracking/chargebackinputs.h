#pragma once

#include "engine/catalog/specs.h"
#include "engine/tracking/chargeback.h"
#include "store/tracking/focuscsv.h"

#include <QByteArray>
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
// The same without the workspace (for a worker thread): its GPU catalog and serving hours given.
ChargebackInputs readChargebackInputs(const std::vector<engine::GpuSpec> &catalog, const engine::ServingHours &hours,
                                      const QString &claimsPath, const QString &focusPath,
                                      const QString &metricsPath = {}, const FocusOptions &focus = {});

// The same with a fleet scenario's planned cost in place of a bill: each claims machine names a
// pool of the scenario (resource_id = the pool's name, resource_gpus = its GPUs), charged its
// planned cost per day (EffectiveCost = the evaluated pool's cost per day) on every UTC day from
// the first claim's start to the last claim's end. Throws StoreError for a missing scenario, a
// machine that is no pool of it, or a GPU count that differs from the pool's (line named).
ChargebackInputs planChargebackInputs(const Workspace &workspace, const QString &claimsPath, const QString &scenarioName,
                                      const QString &metricsPath = {});

// Allocates the inputs' charges over [options.from, options.to), or over the span of the
// machines' charges where from and to are both 0.
engine::ChargebackResult runChargeback(const ChargebackInputs &inputs, engine::ChargebackOptions options);

// The table by `by` as FOCUS 1.3-style allocation rows: ChargePeriodStart, ChargePeriodEnd
// (the period), BillingCurrency, EffectiveCost (the key's cents), AllocatedMethodId
// ("headroom-slice-hours-<basis>-idle-<apart|pro-rata>"), AllocatedResourceId (the key),
// AllocatedTags ({"headroom/<by>": key}, or {"headroom/idle": "true"}), and the extension
// columns x_SliceHours, x_ClaimHours and x_QuotaEffectiveCost.
QByteArray allocationCsv(const engine::ChargebackResult &result, const engine::ChargebackOptions &options,
                         engine::ChargebackBy by);

} // namespace headroom::store
