#include "chargeback.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>

namespace headroom::engine {

namespace {

using Units = Decimal::Units;
constexpr Units kUnitsPerCent = 10'000'000;   // 10^9 ÷ 100
const std::string kIdleKey = "(idle capacity)";
const std::string kNoneKey = "(none)";

std::string lineOf(const GpuClaim &claim)
{
    return "line " + std::to_string(claim.line);
}

Units floorDiv(Units a, Units b)
{
    Units q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

// a × b ÷ c truncated toward zero, refusing a product past what 128 bits hold.
Units mulDiv(Units a, Units b, Units c)
{
    constexpr Units kMax = std::numeric_limits<Units>::max();
    const Units ua = a < 0 ? -a : a;
    if (b != 0 && ua > kMax / b)
        throw InputError("cost", "a charge is too large to split exactly (over 10^20 in its currency)");
    return a * b / c;
}

// One stretch of one GPU during which the same claims hold it, with their shares (scaled to
// fill the GPU where time-slicing, MPS or over-commit claims asked for more than it has).
struct Segment {
    int64_t start = 0;
    int64_t end = 0;
    std::vector<std::pair<int, int64_t>> holders;   // (claim index, share units)
};

std::vector<Segment> segmentsOf(const std::vector<GpuClaim> &claims, const std::vector<int> &onGpu,
                                const std::vector<int64_t> &units, const std::string &where,
                                std::vector<std::string> &warnings)
{
    std::vector<int64_t> bounds;
    for (int index : onGpu) {
        bounds.push_back(claims[index].start);
        bounds.push_back(claims[index].end);
    }
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    std::vector<int> byStart = onGpu;
    std::sort(byStart.begin(), byStart.end(), [&](int a, int b) { return claims[a].start < claims[b].start; });

    std::vector<Segment> segments;
    std::vector<int> active;
    size_t next = 0;
    bool scaledWarned = false;
    for (size_t b = 0; b + 1 < bounds.size(); ++b) {
        const int64_t start = bounds[b];
        const int64_t end = bounds[b + 1];
        active.erase(std::remove_if(active.begin(), active.end(),
                                    [&](int index) { return claims[index].end <= start; }),
                     active.end());
        while (next < byStart.size() && claims[byStart[next]].start <= start)
            active.push_back(byStart[next++]);
        if (active.empty())
            continue;
        const SharingMode mode = claims[active.front()].mode;
        int64_t total = 0;
        for (int index : active) {
            if (claims[index].mode != mode)
                throw InputError("claims", lineOf(claims[active.front()]) + " (" + toString(mode) + ") and "
                                               + lineOf(claims[index]) + " (" + toString(claims[index].mode)
                                               + ") share " + where + " at the same time in different sharing modes");
            total += units[index];
        }
        Segment segment{start, end, {}};
        if (total > kShareUnits && (mode == SharingMode::Mig || mode == SharingMode::Exclusive)) {
            std::string lines;
            for (int index : active)
                lines += (lines.empty() ? "" : ", ") + std::to_string(claims[index].line);
            throw InputError("claims", "the claims on lines " + lines + " hold more than the whole of " + where
                                           + " at the same time");
        }
        if (total > kShareUnits) {
            // Scale down in proportion; the units lost to rounding go to the largest holder.
            int64_t given = 0;
            int largest = 0;
            for (size_t i = 0; i < active.size(); ++i) {
                const int64_t scaled = static_cast<int64_t>(static_cast<Units>(units[active[i]]) * kShareUnits / total);
                segment.holders.emplace_back(active[i], scaled);
                given += scaled;
                if (units[active[i]] > units[active[largest]])
                    largest = static_cast<int>(i);
            }
            segment.holders[largest].second += kShareUnits - given;
            if (!scaledWarned) {
                warnings.push_back("the " + toString(mode) + " claims on " + where
                                   + " ask for more than the GPU; their shares are scaled down to fill it");
                scaledWarned = true;
            }
        } else {
            for (int index : active)
                segment.holders.emplace_back(index, units[index]);
        }
        segments.push_back(std::move(segment));
    }
    return segments;
}

int64_t dayOf(int64_t seconds)
{
    return seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
}

std::string keyOf(const GpuClaim &claim, ChargebackBy by)
{
    switch (by) {
    case ChargebackBy::Tenant: return claim.tenant;
    case ChargebackBy::Model: return claim.model.empty() ? kNoneKey : claim.model;
    case ChargebackBy::Namespace: return claim.nameSpace.empty() ? kNoneKey : claim.nameSpace;
    }
    return claim.tenant;
}

// Largest remainder: each amount rounded down to the cent, the cents left to reach `total`
// given one each to the largest remainders (ties by position, which is by name); should the
// floors pass the total (a total fixed apart from these amounts), the cents are taken back
// from the smallest remainders.
std::vector<Units> hamiltonCents(const std::vector<Units> &exact, Units totalCents)
{
    std::vector<Units> cents(exact.size());
    std::vector<std::pair<Units, size_t>> remainders;
    Units sum = 0;
    for (size_t i = 0; i < exact.size(); ++i) {
        cents[i] = floorDiv(exact[i], kUnitsPerCent);
        remainders.emplace_back(exact[i] - cents[i] * kUnitsPerCent, i);
        sum += cents[i];
    }
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    Units left = totalCents - sum;
    for (size_t i = 0; left > 0 && !remainders.empty(); i = (i + 1) % remainders.size(), --left)
        ++cents[remainders[i].second];
    for (size_t i = remainders.size(); left < 0 && !remainders.empty(); ++left) {
        i = i == 0 ? remainders.size() - 1 : i - 1;
        --cents[remainders[i].second];
    }
    return cents;
}

} // namespace

std::string toString(MigBasis basis)
{
    switch (basis) {
    case MigBasis::Compute: return "compute";
    case MigBasis::Memory: return "memory";
    case MigBasis::Larger: return "larger";
    }
    return "compute";
}

std::string toString(IdleShare idle)
{
    return idle == IdleShare::ProRata ? "pro-rata" : "apart";
}

std::string toString(ChargebackBy by)
{
    switch (by) {
    case ChargebackBy::Tenant: return "tenant";
    case ChargebackBy::Model: return "model";
    case ChargebackBy::Namespace: return "namespace";
    }
    return "tenant";
}

const ChargebackTable &ChargebackResult::table(ChargebackBy by) const
{
    for (const ChargebackTable &t : tables)
        if (t.by == by)
            return t;
    throw InputError("table", "no chargeback table by " + toString(by));
}

int64_t claimShareUnits(const GpuClaim &claim, const PoolResource &resource, MigBasis basis)
{
    switch (claim.mode) {
    case SharingMode::Exclusive:
        return kShareUnits;
    case SharingMode::Mig: {
        const MigProfile *profile = resource.mig.find(claim.profile);
        if (!profile)
            throw InputError("claims", lineOf(claim) + ": " + (claim.profile.empty() ? std::string("a MIG claim needs a profile")
                                                                                   : "MIG profile \"" + claim.profile + "\" is not one of "
                                                                                         + (resource.mig.profiles.empty() ? std::string("none (")
                                                                                                                          : resource.mig.profileNames() + " (")
                                                                                         + (resource.gpuType.empty() ? resource.id : resource.gpuType) + ")"));
        const int64_t compute = kShareUnits / resource.mig.computeSlices * profile->computeSlices;
        const int64_t memory = kShareUnits / resource.mig.memorySlices * profile->memorySlices;
        return basis == MigBasis::Compute ? compute : basis == MigBasis::Memory ? memory : std::max(compute, memory);
    }
    case SharingMode::TimeSlice:
    case SharingMode::Mps: {
        if (claim.share.isNegative() || claim.share.isZero() || claim.share > Decimal::fromInt(1))
            throw InputError("claims", lineOf(claim) + ": share " + claim.share.toString() + " is not in (0, 1]");
        const Units units = claim.share.units() * (kShareUnits / 1'000'000) / 1'000;
        if (units * 1'000 != claim.share.units() * (kShareUnits / 1'000'000))
            throw InputError("claims", lineOf(claim) + ": share " + claim.share.toString() + " has more than 6 decimals");
        return static_cast<int64_t>(units);
    }
    case SharingMode::OverCommit: {
        if (!(resource.gpuMemoryGiB > 0))
            throw InputError("claims", lineOf(claim) + ": an over-commit claim needs the GPU's memory (gpu_memory_gib)");
        if (!(claim.residentGiB > 0) || !std::isfinite(claim.residentGiB))
            throw InputError("claims", lineOf(claim) + ": resident memory must be above 0 GiB");
        const double share = std::min(1.0, claim.residentGiB / resource.gpuMemoryGiB);
        return std::max<int64_t>(1, std::llround(share * static_cast<double>(kShareUnits)));
    }
    }
    return kShareUnits;
}

TokensByDay deploymentTokens(const ServingHours &hours, int64_t from, int64_t to)
{
    TokensByDay tokens;
    for (const ServingHour &hour : hours.hours) {
        const int64_t start = hour.hour * 3600;
        if (start < from || start >= to)
            continue;
        DeploymentTokens &t = tokens[hour.deployment][dayOf(start)];
        t.inputTokens += hour.promptTokens.increase;
        t.outputTokens += hour.generationTokens.increase;
    }
    return tokens;
}

std::optional<Decimal> costPerMillion(const Decimal &cost, double tokens)
{
    if (!(tokens > 0) || !std::isfinite(tokens))
        return std::nullopt;
    return (cost * Decimal::fromInt(1'000'000) / Decimal::fromDouble(std::round(tokens))).rounded(4);
}

ChargebackResult allocateChargeback(const std::vector<PoolResource> &resources,
                                    const std::vector<GpuClaim> &claims, const FocusCharges &charges,
                                    const ChargebackOptions &options,
                                    const TokensByDay &tokens)
{
    if (options.to <= options.from)
        throw InputError("period", "the period must end after it starts");
    if (claims.empty())
        throw InputError("claims", "there are no claims to charge back");

    std::unordered_map<std::string, size_t> resourceIndex;
    for (size_t r = 0; r < resources.size(); ++r) {
        if (resources[r].gpus < 1 || resources[r].gpus > 64)
            throw InputError("claims", "resource " + resources[r].id + " has " + std::to_string(resources[r].gpus)
                                           + " GPUs; 1 to 64 are allowed");
        resourceIndex.emplace(resources[r].id, r);
    }

    ChargebackResult result;
    std::vector<int64_t> units(claims.size());
    // claims per (resource, gpu)
    std::vector<std::vector<std::vector<int>>> onGpu(resources.size());
    for (size_t r = 0; r < resources.size(); ++r)
        onGpu[r].resize(static_cast<size_t>(resources[r].gpus));
    for (size_t c = 0; c < claims.size(); ++c) {
        const GpuClaim &claim = claims[c];
        if (claim.tenant.empty())
            throw InputError("claims", lineOf(claim) + ": the tenant is empty");
        auto found = resourceIndex.find(claim.resource);
        if (found == resourceIndex.end())
            throw InputError("claims", lineOf(claim) + ": resource \"" + claim.resource + "\" is not one of the pool's machines");
        const PoolResource &resource = resources[found->second];
        if (claim.gpu < 0 || claim.gpu >= resource.gpus)
            throw InputError("claims", lineOf(claim) + ": GPU " + std::to_string(claim.gpu) + " is not on " + resource.id
                                           + " (GPUs 0 to " + std::to_string(resource.gpus - 1) + ")");
        if (claim.end <= claim.start)
            throw InputError("claims", lineOf(claim) + ": the claim must end after it starts");
        units[c] = claimShareUnits(claim, resource, options.basis);
        onGpu[found->second][static_cast<size_t>(claim.gpu)].push_back(static_cast<int>(c));
    }

    // A deployment's tokens belong to one key in every table.
    for (ChargebackBy by : {ChargebackBy::Tenant, ChargebackBy::Model, ChargebackBy::Namespace}) {
        std::map<std::string, size_t> owner;
        for (size_t c = 0; c < claims.size(); ++c) {
            if (claims[c].deployment.empty())
                continue;
            auto [it, added] = owner.emplace(claims[c].deployment, c);
            if (!added && keyOf(claims[it->second], by) != keyOf(claims[c], by))
                throw InputError("claims", lineOf(claims[c]) + ": deployment \"" + claims[c].deployment + "\" is named by "
                                               + toString(by) + " \"" + keyOf(claims[it->second], by) + "\" on "
                                               + lineOf(claims[it->second]) + " and \"" + keyOf(claims[c], by)
                                               + "\" here; its tokens can be counted for one only");
        }
    }

    std::vector<std::vector<std::vector<Segment>>> segments(resources.size());
    for (size_t r = 0; r < resources.size(); ++r)
        for (size_t g = 0; g < onGpu[r].size(); ++g)
            segments[r].push_back(segmentsOf(claims, onGpu[r][g], units,
                                             "GPU " + std::to_string(g) + " of " + resources[r].id, result.warnings));

    // Slice-hours and claim-hours within the period.
    std::vector<double> sliceSeconds(claims.size(), 0.0);
    std::vector<double> claimSeconds(claims.size(), 0.0);
    for (const auto &perResource : segments)
        for (const auto &perGpu : perResource)
            for (const Segment &segment : perGpu) {
                const int64_t a = std::max(segment.start, options.from);
                const int64_t b = std::min(segment.end, options.to);
                if (b <= a)
                    continue;
                for (const auto &[index, share] : segment.holders) {
                    sliceSeconds[index] += static_cast<double>(share) / kShareUnits * static_cast<double>(b - a);
                    claimSeconds[index] += static_cast<double>(b - a);
                }
            }

    // The charges to allocate, in one currency.
    std::set<uint32_t> currencies;
    for (const FocusCharge &row : charges.rows)
        if (row.periodStart >= options.from && row.periodStart < options.to && resourceIndex.count(charges.name(row.resource)))
            currencies.insert(row.currency);
    uint32_t currency = 0;
    if (!options.currency.empty()) {
        auto it = std::find(charges.currencies.begin(), charges.currencies.end(), options.currency);
        if (it == charges.currencies.end() || !currencies.count(static_cast<uint32_t>(it - charges.currencies.begin())))
            throw InputError("currency", "no charge of the pool's machines in the period is in " + options.currency);
        currency = static_cast<uint32_t>(it - charges.currencies.begin());
    } else if (currencies.size() > 1) {
        std::string names;
        for (uint32_t c : currencies)
            names += (names.empty() ? "" : ", ") + charges.currencies[c];
        throw InputError("currency", "the pool's charges are in " + names + "; choose one");
    } else if (currencies.empty()) {
        throw InputError("claims", "no charge in the period names a machine of the claims (ResourceId)");
    } else {
        currency = *currencies.begin();
    }
    result.currency = charges.currencies.at(currency);

    std::vector<Units> claimExact(claims.size(), 0);
    std::vector<std::map<int64_t, Units>> claimDaily(claims.size());
    std::vector<Units> claimQuota(claims.size(), 0);
    Units idleExact = 0;
    std::map<int64_t, Units> idleDaily;
    Units invoice = 0;
    int64_t otherCurrency = 0;
    std::vector<Units> ws(claims.size(), 0);
    std::vector<Units> cs(claims.size(), 0);
    std::vector<int> touched;
    for (const FocusCharge &row : charges.rows) {
        if (row.periodStart < options.from || row.periodStart >= options.to)
            continue;
        auto found = resourceIndex.find(charges.name(row.resource));
        if (found == resourceIndex.end()) {
            if (row.currency == currency) {
                result.outsideCost += row.effectiveCost;
                ++result.outsideCharges;
            }
            continue;
        }
        if (row.currency != currency) {
            ++otherCurrency;
            continue;
        }
        const size_t r = found->second;
        const PoolResource &resource = resources[r];
        const Units cost = row.effectiveCost.units();
        const Units seconds = row.periodEnd - row.periodStart;
        const Units capacity = static_cast<Units>(resource.gpus) * seconds * kShareUnits;
        invoice += cost;
        ++result.charges;
        result.poolGpuHours += resource.gpus * static_cast<double>(seconds) / 3600.0;

        touched.clear();
        for (const auto &perGpu : segments[r]) {
            auto it = std::upper_bound(perGpu.begin(), perGpu.end(), row.periodStart,
                                       [](int64_t t, const Segment &s) { return t < s.end; });
            for (; it != perGpu.end() && it->start < row.periodEnd; ++it) {
                const int64_t overlap = std::min(it->end, row.periodEnd) - std::max(it->start, row.periodStart);
                if (overlap <= 0)
                    continue;
                for (const auto &[index, share] : it->holders) {
                    if (ws[index] == 0 && cs[index] == 0)
                        touched.push_back(index);
                    ws[index] += static_cast<Units>(share) * overlap;
                    cs[index] += overlap;
                }
            }
        }
        std::sort(touched.begin(), touched.end());
        Units allocated = 0;
        Units wsTotal = 0;
        Units csTotal = 0;
        std::vector<Units> part(touched.size());
        for (size_t i = 0; i < touched.size(); ++i) {
            part[i] = mulDiv(cost, ws[touched[i]], capacity);
            allocated += part[i];
            wsTotal += ws[touched[i]];
            csTotal += cs[touched[i]];
        }
        Units idle = cost - allocated;
        if (options.idle == IdleShare::ProRata && !touched.empty() && wsTotal > 0) {
            Units spread = 0;
            size_t largest = 0;
            for (size_t i = 0; i < touched.size(); ++i) {
                const Units extra = mulDiv(idle, ws[touched[i]], wsTotal);
                part[i] += extra;
                spread += extra;
                if (ws[touched[i]] > ws[touched[largest]])
                    largest = i;
            }
            part[largest] += idle - spread;
            idle = 0;
        }
        idleExact += idle;
        idleDaily[dayOf(row.periodStart)] += idle;
        // Kueue's count: what the claims were charged, split by claim-seconds.
        const Units charged = cost - idle;
        Units quotaGiven = 0;
        size_t mostSeconds = 0;
        for (size_t i = 0; i < touched.size(); ++i) {
            const Units quota = csTotal > 0 ? mulDiv(charged, cs[touched[i]], csTotal) : 0;
            claimQuota[touched[i]] += quota;
            quotaGiven += quota;
            if (cs[touched[i]] > cs[touched[mostSeconds]])
                mostSeconds = i;
            claimExact[touched[i]] += part[i];
            claimDaily[touched[i]][dayOf(row.periodStart)] += part[i];
        }
        if (!touched.empty())
            claimQuota[touched[mostSeconds]] += charged - quotaGiven;
        for (int index : touched) {
            ws[index] = 0;
            cs[index] = 0;
        }
    }
    if (result.charges == 0)
        throw InputError("claims", "no charge of the pool's machines starts in the period");
    if (otherCurrency > 0)
        result.warnings.push_back(std::to_string(otherCurrency) + " charges of the pool in other currencies than "
                                  + result.currency + " are left out");
    result.invoiceExact = Decimal::fromUnits(invoice);
    result.invoice = result.invoiceExact.rounded(2);
    const Units totalCents = result.invoice.units() / kUnitsPerCent;

    for (ChargebackBy by : {ChargebackBy::Tenant, ChargebackBy::Model, ChargebackBy::Namespace}) {
        ChargebackTable table;
        table.by = by;
        std::map<std::string, ChargebackLine> lines;
        std::map<std::string, std::set<std::string>> deployments;
        std::map<std::string, std::map<int64_t, ChargebackDay>> days;
        for (size_t c = 0; c < claims.size(); ++c) {
            const std::string key = keyOf(claims[c], by);
            ChargebackLine &line = lines[key];
            line.key = key;
            line.sliceHours += sliceSeconds[c] / 3600.0;
            line.claimHours += claimSeconds[c] / 3600.0;
            line.exact = Decimal::fromUnits(line.exact.units() + claimExact[c]);
            line.quotaExact = Decimal::fromUnits(line.quotaExact.units() + claimQuota[c]);
            if (!claims[c].deployment.empty())
                deployments[key].insert(claims[c].deployment);
            for (const auto &[d, units] : claimDaily[c]) {
                ChargebackDay &day = days[key][d];
                day.day = d;
                day.exact = Decimal::fromUnits(day.exact.units() + units);
            }
        }
        for (auto &[key, line] : lines) {
            for (const std::string &deployment : deployments[key]) {
                auto t = tokens.find(deployment);
                if (t == tokens.end())
                    continue;
                line.hasTokens = true;
                for (const auto &[d, count] : t->second) {
                    ChargebackDay &day = days[key][d];
                    day.day = d;
                    day.inputTokens += count.inputTokens;
                    day.outputTokens += count.outputTokens;
                    line.inputTokens += count.inputTokens;
                    line.outputTokens += count.outputTokens;
                }
            }
            for (auto &[d, day] : days[key])
                line.days.push_back(day);
            table.lines.push_back(line);
        }
        ChargebackLine idle;
        idle.key = kIdleKey;
        idle.idle = true;
        idle.exact = Decimal::fromUnits(idleExact);
        idle.quotaExact = idle.exact;
        for (const auto &[d, units] : idleDaily)
            idle.days.push_back(ChargebackDay{d, Decimal::fromUnits(units), {}, 0.0, 0.0});
        table.lines.push_back(idle);

        std::vector<Units> exact, quota;
        for (const ChargebackLine &line : table.lines) {
            exact.push_back(line.exact.units());
            quota.push_back(line.quotaExact.units());
        }
        const std::vector<Units> cents = hamiltonCents(exact, totalCents);
        // The quota split shares out what the claims were charged: idle capacity keeps the
        // cents it has in the slice-hour split, the claims' keys share the rest.
        quota.pop_back();
        std::vector<Units> quotaCents = hamiltonCents(quota, totalCents - cents.back());
        quotaCents.push_back(cents.back());
        for (size_t i = 0; i < table.lines.size(); ++i) {
            table.lines[i].cost = Decimal::fromUnits(cents[i] * kUnitsPerCent);
            table.lines[i].quotaCost = Decimal::fromUnits(quotaCents[i] * kUnitsPerCent);
            table.lines[i].quotaDifference = table.lines[i].quotaCost - table.lines[i].cost;
            // The trend's days re-add to the key's cost.
            std::vector<Units> dayExact;
            for (const ChargebackDay &day : table.lines[i].days)
                dayExact.push_back(day.exact.units());
            const std::vector<Units> dayCents = hamiltonCents(dayExact, cents[i]);
            for (size_t d = 0; d < dayCents.size(); ++d)
                table.lines[i].days[d].cost = Decimal::fromUnits(dayCents[d] * kUnitsPerCent);
        }
        result.tables.push_back(std::move(table));
    }
    return result;
}

std::string kueueQuotaConfig(const std::vector<PoolResource> &resources,
                             const std::vector<GpuClaim> &claims, MigBasis basis)
{
    std::unordered_map<std::string, const PoolResource *> byId;
    for (const PoolResource &resource : resources)
        byId.emplace(resource.id, &resource);
    // profile name → (compute slices, memory slices), from the first GPU type that has it
    std::map<std::string, std::pair<int, int>> profiles;
    bool shared = false;
    for (const GpuClaim &claim : claims) {
        if (claim.mode == SharingMode::TimeSlice || claim.mode == SharingMode::Mps || claim.mode == SharingMode::OverCommit)
            shared = true;
        if (claim.mode != SharingMode::Mig)
            continue;
        auto r = byId.find(claim.resource);
        if (r == byId.end())
            continue;
        if (const MigProfile *profile = r->second->mig.find(claim.profile))
            profiles.emplace(profile->name, std::make_pair(profile->computeSlices, profile->memorySlices));
    }
    std::ostringstream out;
    if (profiles.empty()) {
        out << "# No MIG claims: a Kueue quota on nvidia.com/gpu counts whole GPUs, as the slice-hours do.\n";
    } else {
        out << "# Kueue Configuration: each MIG resource of the device plugin's \"mixed\" strategy is counted as\n"
            << "# its slices, so a ClusterQueue quota on headroom.io/gpu-*-slices counts what the slice-hours count\n"
            << "# (" << toString(basis) << " basis) instead of one per claim. Add the resources to the ClusterQueue's\n"
            << "# coveredResources with nominalQuota in slices (7 compute or 8 memory slices per GPU).\n"
            << "apiVersion: config.kueue.x-k8s.io/v1beta1\n"
            << "kind: Configuration\n"
            << "resources:\n"
            << "  transformations:\n";
        for (const auto &[name, slices] : profiles) {
            out << "  - input: nvidia.com/mig-" << name << "\n"
                << "    strategy: Replace\n"
                << "    outputs:\n";
            if (basis != MigBasis::Memory)
                out << "      headroom.io/gpu-compute-slices: \"" << slices.first << "\"\n";
            if (basis != MigBasis::Compute)
                out << "      headroom.io/gpu-memory-slices: \"" << slices.second << "\"\n";
        }
        if (basis == MigBasis::Larger)
            out << "# The larger of the two cannot be one Kueue resource: quota both; a claim is admitted\n"
                << "# when both fit, which bounds the larger.\n";
        out << "# With DRA instead of the device plugin, Kueue's deviceClassMappings can count a\n"
            << "# partitionable device's counter (e.g. the driver's memory counter) as the quota resource;\n"
            << "# a mapping without a counter source counts each allocated device as 1, i.e. claims.\n";
    }
    if (shared)
        out << "# Time-slicing, MPS and over-commit replicas are counted one per replica (nvidia.com/gpu or\n"
            << "# nvidia.com/gpu.shared); a quota agrees with the slice-hours only where every replica of a\n"
            << "# GPU has the same share.\n";
    return out.str();
}

} // namespace headroom::engine
