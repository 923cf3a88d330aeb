#include "chargebackinputs.h"

#include "store/common/importlimits.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/partitioning/migprofiles.h"
#include "store/tracking/claimscsv.h"
#include "store/tracking/metricscsv.h"

#include <algorithm>
#include <limits>
#include <set>

namespace headroom::store {

ChargebackInputs readChargebackInputs(const Workspace &workspace, const QString &claimsPath, const QString &focusPath,
                                      const QString &metricsPath, const FocusOptions &focus)
{
    ChargebackInputs inputs;
    inputs.claimsPath = claimsPath;
    inputs.focusPath = focusPath;
    ClaimsFile ledger = readClaimsCsv(claimsPath);
    for (engine::PoolResource &resource : ledger.resources) {
        if (resource.gpuType.empty())
            continue;
        const QString type = QString::fromStdString(resource.gpuType);
        const auto gpu = workspace.gpu(type);
        if (!gpu)
            throw StoreError(QStringLiteral("%1: gpu_type '%2' of %3 is not in the workspace's GPU catalog")
                                 .arg(claimsPath, shownValue(type), shownValue(QString::fromStdString(resource.id))));
        resource.gpuMemoryGiB = double(gpu->memoryBytes) / double(int64_t(1) << 30);
        if (const engine::MigGpuProfiles *mig = shippedMigProfiles(type))
            resource.mig = *mig;
    }
    inputs.resources = std::move(ledger.resources);
    inputs.claims = std::move(ledger.claims);
    inputs.charges = readFocusCsv(focusPath, focus);

    std::set<std::string> machines;
    for (const engine::PoolResource &resource : inputs.resources)
        machines.insert(resource.id);
    int64_t first = std::numeric_limits<int64_t>::max();
    int64_t last = std::numeric_limits<int64_t>::min();
    for (const engine::FocusCharge &row : inputs.charges.rows)
        if (machines.count(inputs.charges.name(row.resource))) {
            first = std::min(first, row.periodStart);
            last = std::max(last, row.periodEnd);
        }
    if (first > last)
        throw StoreError(QStringLiteral("%1: no charge names a machine of %2 (ResourceId)").arg(focusPath, claimsPath));
    inputs.firstCharge = first;
    inputs.lastCharge = last;

    if (!metricsPath.isEmpty())
        inputs.hours = readMetricsCsv(metricsPath).hours;
    else if (!workspace.servingMetricsImports().empty())
        inputs.hours = workspace.servingHours();
    return inputs;
}

engine::ChargebackResult runChargeback(const ChargebackInputs &inputs, engine::ChargebackOptions options)
{
    if (options.from == 0 && options.to == 0) {
        options.from = inputs.firstCharge;
        options.to = inputs.lastCharge;
    }
    return engine::allocateChargeback(inputs.resources, inputs.claims, inputs.charges, options,
                                      engine::deploymentTokens(inputs.hours, options.from, options.to));
}

} // namespace headroom::store
