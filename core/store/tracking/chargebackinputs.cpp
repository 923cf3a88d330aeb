#include "chargebackinputs.h"

#include "engine/fleet/scenario.h"
#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"
#include "store/fleet/scenarioinputs.h"
#include "store/partitioning/migprofiles.h"
#include "store/tracking/claimscsv.h"
#include "store/tracking/metricscsv.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <limits>
#include <set>

namespace headroom::store {

ChargebackInputs readChargebackInputs(const Workspace &workspace, const QString &claimsPath, const QString &focusPath,
                                      const QString &metricsPath, const FocusOptions &focus)
{
    const bool imported = metricsPath.isEmpty() && !workspace.servingMetricsImports().empty();
    return readChargebackInputs(workspace.gpus(), imported ? workspace.servingHours() : engine::ServingHours{}, claimsPath,
                                focusPath, metricsPath, focus);
}

ChargebackInputs readChargebackInputs(const std::vector<engine::GpuSpec> &catalog, const engine::ServingHours &hours,
                                      const QString &claimsPath, const QString &focusPath,
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
        const engine::GpuSpec *gpu = engine::findGpu(catalog, resource.gpuType);
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

    inputs.hours = metricsPath.isEmpty() ? hours : readMetricsCsv(metricsPath).hours;
    return inputs;
}

ChargebackInputs planChargebackInputs(const Workspace &workspace, const QString &claimsPath, const QString &scenarioName,
                                      const QString &metricsPath)
{
    const auto scenario = workspace.scenario(scenarioName);
    if (!scenario)
        throw StoreError(QStringLiteral("%1 has no scenario \"%2\"").arg(workspace.path(), scenarioName));
    const engine::ScenarioResult plan = engine::evaluateScenario(*scenario, scenarioInputs(workspace));

    ChargebackInputs inputs;
    inputs.claimsPath = claimsPath;
    inputs.focusPath = QStringLiteral("scenario %1 (planned cost)").arg(scenarioName);
    ClaimsFile ledger = readClaimsCsv(claimsPath);
    const std::vector<engine::GpuSpec> catalog = workspace.gpus();
    int64_t first = std::numeric_limits<int64_t>::max();
    int64_t last = std::numeric_limits<int64_t>::min();
    for (const engine::GpuClaim &claim : ledger.claims) {
        first = std::min(first, claim.start);
        last = std::max(last, claim.end);
    }
    const int64_t firstDay = first >= 0 ? first / 86400 : (first - 86399) / 86400;
    const int64_t lastDay = (last + 86399) / 86400;   // exclusive
    inputs.charges.currencies.clear();
    for (engine::PoolResource &resource : ledger.resources) {
        auto pool = std::find_if(plan.pools.begin(), plan.pools.end(),
                                 [&](const engine::PoolResult &p) { return p.name == resource.id; });
        const auto line = std::find_if(ledger.claims.begin(), ledger.claims.end(),
                                       [&](const engine::GpuClaim &c) { return c.resource == resource.id; })
                              ->line;
        if (pool == plan.pools.end())
            throw StoreError(QStringLiteral("%1: line %2: field \"resource_id\": '%3' is no pool of scenario %4")
                                 .arg(claimsPath)
                                 .arg(line)
                                 .arg(shownValue(QString::fromStdString(resource.id)), scenarioName));
        if (pool->gpus != resource.gpus)
            throw StoreError(QStringLiteral("%1: line %2: field \"resource_gpus\": %3 GPUs, but pool %4 of scenario %5 "
                                            "has %6")
                                 .arg(claimsPath)
                                 .arg(line)
                                 .arg(resource.gpus)
                                 .arg(shownValue(QString::fromStdString(resource.id)), scenarioName)
                                 .arg(pool->gpus));
        if (resource.gpuType.empty())
            resource.gpuType = scenario->pools[size_t(pool - plan.pools.begin())].gpuId;
        if (const engine::GpuSpec *gpu = engine::findGpu(catalog, resource.gpuType))
            resource.gpuMemoryGiB = double(gpu->memoryBytes) / double(int64_t(1) << 30);
        if (const engine::MigGpuProfiles *mig = shippedMigProfiles(QString::fromStdString(resource.gpuType)))
            resource.mig = *mig;
        const std::string &currency = pool->costPerDay.currency;
        auto c = std::find(inputs.charges.currencies.begin(), inputs.charges.currencies.end(), currency);
        if (c == inputs.charges.currencies.end())
            c = inputs.charges.currencies.insert(c, currency);
        const uint32_t currencyIndex = uint32_t(c - inputs.charges.currencies.begin());
        inputs.charges.names.push_back(resource.id);
        const uint32_t name = uint32_t(inputs.charges.names.size() - 1);
        for (int64_t day = firstDay; day < lastDay; ++day) {
            engine::FocusCharge row;
            row.periodStart = day * 86400;
            row.periodEnd = row.periodStart + 86400;
            row.effectiveCost = pool->costPerDay.amount;
            row.billedCost = row.effectiveCost;
            row.resource = name;
            row.currency = currencyIndex;
            inputs.charges.rows.push_back(row);
        }
    }
    inputs.resources = std::move(ledger.resources);
    inputs.claims = std::move(ledger.claims);
    inputs.firstCharge = firstDay * 86400;
    inputs.lastCharge = lastDay * 86400;
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

QByteArray allocationCsv(const engine::ChargebackResult &result, const engine::ChargebackOptions &options,
                         engine::ChargebackBy by)
{
    const auto qs = [](const std::string &text) { return QString::fromStdString(text); };
    const auto iso = [](int64_t seconds) { return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate); };
    const QString method = QStringLiteral("headroom-slice-hours-%1-idle-%2")
                               .arg(qs(engine::toString(options.basis)), qs(engine::toString(options.idle)));
    QString csv = QStringLiteral("ChargePeriodStart,ChargePeriodEnd,BillingCurrency,EffectiveCost,AllocatedMethodId,"
                                 "AllocatedResourceId,AllocatedTags,x_SliceHours,x_ClaimHours,x_QuotaEffectiveCost\n");
    for (const engine::ChargebackLine &line : result.table(by).lines) {
        const QJsonObject tags = line.idle ? QJsonObject{{QStringLiteral("headroom/idle"), QStringLiteral("true")}}
                                           : QJsonObject{{QStringLiteral("headroom/") + qs(engine::toString(by)), qs(line.key)}};
        csv += QStringList{iso(options.from), iso(options.to), qs(result.currency), qs(line.cost.toString(2)), method,
                           csvField(qs(line.key)),
                           csvField(QString::fromUtf8(QJsonDocument(tags).toJson(QJsonDocument::Compact))),
                           QString::number(line.sliceHours, 'f', 4), QString::number(line.claimHours, 'f', 4),
                           qs(line.quotaCost.toString(2))}
                   .join(QLatin1Char(','))
            + QLatin1Char('\n');
    }
    return csv.toUtf8();
}

} // namespace headroom::store
