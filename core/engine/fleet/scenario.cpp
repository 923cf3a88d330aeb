#include "scenario.h"

#include "autoscale.h"
#include "engine/cost/cost.h"
#include "engine/common/errors.h"
#include "engine/partitioning/packing_advice.h"

#include "engine/common/explain_text.h"

#include <algorithm>
#include <numeric>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace headroom::engine {

namespace {

constexpr int kMaxHorizonMonths = 120;
constexpr int64_t kMaxPoolGpus = 1000000;
constexpr double kGiB = 1073741824.0;
// Keeps ceil(3.0000000001) from reading as 4 after floating-point sums of whole GPUs.
constexpr double kCeilTolerance = 1e-9;

template <typename Enum, size_t N>
std::optional<Enum> parseEnum(std::string_view text, const Enum (&values)[N])
{
    for (Enum value : values) {
        if (text == toString(value))
            return value;
    }
    return std::nullopt;
}

constexpr PoolTier kTiers[] = {PoolTier::Owned, PoolTier::Reserved1y, PoolTier::Reserved3y, PoolTier::OnDemand,
                               PoolTier::Spot};
constexpr Partitioning kPartitionings[] = {Partitioning::Exclusive, Partitioning::Mig, Partitioning::TimeSlice,
                                           Partitioning::Mps};
constexpr PoolSizing kSizings[] = {PoolSizing::Fixed, PoolSizing::Auto};
constexpr ReservePolicy kPolicies[] = {ReservePolicy::CriticalFractile, ReservePolicy::P50, ReservePolicy::P75,
                                       ReservePolicy::Fixed};

std::string show(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

// Exact rate text with at least two decimals: "4.00", "10.9790625".
std::string rateText(const Decimal &rate)
{
    std::string text = rate.toString();
    const size_t dot = text.find('.');
    if (dot == std::string::npos)
        return text + ".00";
    if (text.size() - dot == 2)
        text += '0';
    return text;
}

// GiB with one decimal: "9.3".
std::string gib(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", value);
    return buffer;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Days since 1970-01-01 of a valid yyyy-mm-dd, or nullopt (proleptic Gregorian).
std::optional<int64_t> daysFromIsoDate(const std::string &text)
{
    if (text.size() != 10 || text[4] != '-' || text[7] != '-')
        return std::nullopt;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
        if (!isDigit(text[i]))
            return std::nullopt;
    }
    int64_t y = std::stoi(text.substr(0, 4));
    const int m = std::stoi(text.substr(5, 2));
    const int d = std::stoi(text.substr(8, 2));
    if (m < 1 || m > 12 || d < 1)
        return std::nullopt;
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d > kDays[m - 1] + (m == 2 && leap ? 1 : 0))
        return std::nullopt;
    // Howard Hinnant's days_from_civil.
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

std::string isoDateFromDays(int64_t z)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const int64_t y = yoe + era * 400 + (m <= 2);
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", int(y), int(m), int(d));
    return buffer;
}

// One thing a static pool carries: a workload, a training job, or its packed tenants.
struct Item {
    std::string name;
    bool training = false;
    bool tenants = false;               // a shared pool's packed tenants: never overflows elsewhere
    std::vector<int64_t> need;          // GPUs of the carrying pool, per hour
    std::vector<double> busy;           // of those, the GPUs its load keeps busy (≤ need); empty: all
    int elastic = -1;                   // pool index taking the overflow, -1: none
    double toElastic = 1;               // GPUs on the elastic type per GPU of the carrier
    int elasticGpusPerReplica = 1;      // a replica on the elastic pool's GPU
    int64_t peakGpus = 0;
    int64_t plannedHeadroom = 0;
    int gpusPerReplica = 1;
    double peakOverflow = 0;            // largest hourly overflow sent to the elastic pool, its GPUs
};

struct Sized {
    bool ok = false;
    int64_t peakGpus = 0;
    int64_t plannedHeadroom = 0;
    int gpusPerReplica = 1;
    double peakUtilization = 1;   // the sizing's binding demand ÷ replicas at the peak hour
};

struct PoolWork {
    std::vector<Item> items;            // carried here (static) or directly (elastic)
    std::vector<double> overflowIn;     // elastic: GPUs arriving from static pools, per hour
    std::vector<std::string> tenants;   // shared pools: workloads packed as tenants
    int64_t packedGpus = 0;
    bool shared = false;
};

class Evaluator {
public:
    Evaluator(const Scenario &scenario, const ScenarioInputs &inputs) : m_s(scenario), m_in(inputs) {}
    ScenarioResult run();

private:
    void warn(const std::string &code, const std::string &message, const std::string &pool = {})
    {
        m_result.warnings.push_back({code, message, pool});
    }
    const WorkloadProfile *workload(const std::string &name) const;
    const TrainingJobLoad *job(const std::string &name) const;
    const GpuSpec *gpu(const std::string &id) const;
    const ModelSpec *model(const std::string &id) const;
    const MigGpuProfiles *migProfiles(const std::string &gpuId) const;
    Sized size(const WorkloadProfile &w, size_t poolIndex);
    std::vector<int64_t> workloadNeed(const WorkloadProfile &w, int64_t peakGpus, int gpusPerReplica) const;
    std::vector<double> workloadBusy(const WorkloadProfile &w, const Sized &sized) const;
    std::vector<int64_t> jobNeed(const TrainingJobLoad &j) const;
    void route();
    void buildStaticPool(size_t p);
    void packSharedPool(size_t p, const std::vector<const WorkloadProfile *> &members);
    void packExplicitMig(size_t p, const MigGpuProfiles &profiles, const std::vector<Tenant> &tenants);
    void priceAll();
    std::optional<Money> rateFor(size_t p);
    void sizeAndServe();
    void fleetWarnings();

    const Scenario &m_s;
    const ScenarioInputs &m_in;
    ScenarioResult m_result;
    std::vector<PoolWork> m_work;
    std::vector<std::optional<Money>> m_rates;
    std::vector<const RateCard *> m_cards;
    std::map<std::pair<std::string, size_t>, Sized> m_sized;
    std::map<std::string, int> m_staticCarrier;   // workload/job name → pool index
    std::map<std::string, int> m_elasticCarrier;
    size_t m_hours = 0;
};

const WorkloadProfile *Evaluator::workload(const std::string &name) const
{
    for (const WorkloadProfile &w : m_in.workloads) {
        if (w.name == name)
            return &w;
    }
    return nullptr;
}

const TrainingJobLoad *Evaluator::job(const std::string &name) const
{
    for (const TrainingJobLoad &j : m_in.trainingJobs) {
        if (j.name == name)
            return &j;
    }
    return nullptr;
}

const GpuSpec *Evaluator::gpu(const std::string &id) const
{
    return findGpu(m_in.gpus, id);
}

const ModelSpec *Evaluator::model(const std::string &id) const
{
    return findModel(m_in.models, id);
}

const MigGpuProfiles *Evaluator::migProfiles(const std::string &gpuId) const
{
    for (const MigGpuProfiles &p : m_in.migProfiles) {
        if (p.gpuId == gpuId)
            return &p;
    }
    return nullptr;
}

const PoolDeployment *deploymentOf(const Pool &pool, const std::string &workload)
{
    for (const PoolDeployment &d : pool.deployments) {
        if (d.workload == workload)
            return &d;
    }
    return nullptr;
}

// Sizes a workload on a pool's GPU once; problems are warned once per pool.
Sized Evaluator::size(const WorkloadProfile &w, size_t poolIndex)
{
    const auto key = std::make_pair(w.name, poolIndex);
    if (auto it = m_sized.find(key); it != m_sized.end())
        return it->second;
    const Pool &pool = m_s.pools[poolIndex];
    Sized sized;
    const GpuSpec *g = gpu(pool.gpuId);
    const ModelSpec *m = model(w.modelId);
    if (!m) {
        warn("missing_model", "Workload \"" + w.name + "\" names model \"" + w.modelId
                                  + "\", which is not in the catalog: it is left out of pool \"" + pool.name + "\".",
             pool.name);
    } else if (g) {
        try {
            const SizingResult r = sizeInference(w, *m, *g, deploymentOverrides(pool, w.name), m_in.serving);
            if (r.feasible) {
                sized.ok = true;
                sized.peakGpus = r.gpus;
                sized.peakUtilization = std::clamp(r.peakUtilization, 0.0, 1.0);
                sized.gpusPerReplica = r.gpusPerReplica;
                sized.plannedHeadroom = r.headroomReplicas * r.gpusPerReplica;
            } else {
                warn("infeasible_workload", "Workload \"" + w.name + "\" cannot be served on " + pool.gpuId
                                                + " in pool \"" + pool.name + "\": " + r.infeasibleReason,
                     pool.name);
            }
        } catch (const InputError &e) {
            warn("infeasible_workload", "Workload \"" + w.name + "\" cannot be sized for pool \"" + pool.name
                                            + "\": " + e.what(),
                 pool.name);
        }
    }
    m_sized[key] = sized;
    return sized;
}

// Whole replicas each hour: a replica of 2 GPUs is never half provisioned.
std::vector<int64_t> Evaluator::workloadNeed(const WorkloadProfile &w, int64_t peakGpus, int gpusPerReplica) const
{
    const std::array<double, 24> hourly = hourlyGpuNeed(w, double(peakGpus));
    const int replica = std::max(1, gpusPerReplica);
    std::array<int64_t, 24> day{};
    for (size_t h = 0; h < day.size(); ++h)
        day[h] = int64_t(std::ceil(hourly[h] / replica - kCeilTolerance)) * replica;
    std::vector<int64_t> need(m_hours);
    for (size_t t = 0; t < m_hours; ++t)
        need[t] = day[t % 24];
    return need;
}

// The GPUs its traffic keeps busy each hour: the peak GPUs at the sizing's peak utilization,
// following the day's shape (planned headroom and a whole replica's unused share are idle).
std::vector<double> Evaluator::workloadBusy(const WorkloadProfile &w, const Sized &sized) const
{
    const std::array<double, 24> hourly = hourlyGpuNeed(w, double(sized.peakGpus));
    std::vector<double> busy(m_hours);
    for (size_t t = 0; t < m_hours; ++t)
        busy[t] = hourly[t % 24] * sized.peakUtilization;
    return busy;
}

std::vector<int64_t> Evaluator::jobNeed(const TrainingJobLoad &j) const
{
    std::vector<int64_t> need(m_hours, 0);
    if (j.gpus <= 0 || !(j.gpuHours > 0))
        return need;
    const auto runHours = size_t(std::ceil(j.gpuHours / double(j.gpus) - kCeilTolerance));
    for (size_t t = 0; t < std::min(runHours, m_hours); ++t)
        need[t] = j.gpus;
    return need;
}

// Who carries what: the first static pool listing a name carries it, the first elastic pool
// takes its overflow (or carries it when no static pool lists it).
void Evaluator::route()
{
    std::map<std::string, int> seenStatic;
    std::map<std::string, int> seenElastic;
    for (size_t p = 0; p < m_s.pools.size(); ++p) {
        const Pool &pool = m_s.pools[p];
        auto note = [&](const std::string &name, bool training) {
            auto &seen = pool.role() == PoolRole::StaticBase ? seenStatic : seenElastic;
            auto &carrier = pool.role() == PoolRole::StaticBase ? m_staticCarrier : m_elasticCarrier;
            const std::string key = (training ? "job:" : "workload:") + name;
            if (seen.count(key)) {
                warn("workload_in_several_pools",
                     std::string(training ? "Training job \"" : "Workload \"") + name + "\" is listed in "
                         + (pool.role() == PoolRole::StaticBase ? "static" : "elastic") + " pools \""
                         + m_s.pools[size_t(seen[key])].name + "\" and \"" + pool.name
                         + "\": only the first one serves it.",
                     pool.name);
                return;
            }
            seen[key] = int(p);
            carrier[key] = int(p);
        };
        for (const std::string &name : pool.workloads) {
            if (!workload(name)) {
                warn("missing_workload", "Pool \"" + pool.name + "\" names workload \"" + name
                                             + "\", which no longer exists: it is left out; the scenario keeps the name.",
                     pool.name);
                continue;
            }
            note(name, false);
        }
        for (const std::string &name : pool.trainingJobs) {
            if (!job(name)) {
                warn("missing_training_job", "Pool \"" + pool.name + "\" names training job \"" + name
                                                 + "\", which no longer exists: it is left out; the scenario keeps the name.",
                     pool.name);
                continue;
            }
            note(name, true);
        }
        if (!gpu(pool.gpuId))
            warn("missing_gpu", "Pool \"" + pool.name + "\" uses GPU \"" + pool.gpuId
                                    + "\", which is not in the catalog: its workloads cannot be sized on it.",
                 pool.name);
    }
}

bool isShared(const Pool &pool, const ReservePackPolicy &policy)
{
    return pool.partitioning != Partitioning::Exclusive && policy.packMigTenants;
}

// Static pool items; elastic pools carry the workloads no static pool lists.
void Evaluator::buildStaticPool(size_t p)
{
    const Pool &pool = m_s.pools[p];
    PoolWork &work = m_work[p];
    const bool elastic = pool.role() == PoolRole::ElasticTop;
    std::vector<const WorkloadProfile *> tenants;
    for (const std::string &name : pool.workloads) {
        const WorkloadProfile *w = workload(name);
        if (!w)
            continue;
        const std::string key = "workload:" + name;
        const auto &carrier = elastic ? m_elasticCarrier : m_staticCarrier;
        if (auto it = carrier.find(key); it == carrier.end() || it->second != int(p))
            continue;
        if (elastic && m_staticCarrier.count(key))
            continue;  // overflow of a static pool, arrives through overflowIn
        if (!elastic && isShared(pool, m_s.policy)) {
            tenants.push_back(w);
            continue;
        }
        const Sized sized = size(*w, p);
        if (!sized.ok)
            continue;
        Item item;
        item.name = name;
        item.need = workloadNeed(*w, sized.peakGpus, sized.gpusPerReplica);
        item.busy = workloadBusy(*w, sized);
        item.peakGpus = sized.peakGpus;
        item.plannedHeadroom = sized.plannedHeadroom;
        item.gpusPerReplica = sized.gpusPerReplica;
        if (!elastic) {
            if (auto it = m_elasticCarrier.find(key); it != m_elasticCarrier.end()) {
                const Sized there = size(*w, size_t(it->second));
                if (there.ok && sized.peakGpus > 0) {
                    item.elastic = it->second;
                    item.toElastic = double(there.peakGpus) / double(sized.peakGpus);
                    item.elasticGpusPerReplica = there.gpusPerReplica;
                }
            }
        }
        work.items.push_back(std::move(item));
    }
    for (const std::string &name : pool.trainingJobs) {
        const TrainingJobLoad *j = job(name);
        if (!j)
            continue;
        const std::string key = "job:" + name;
        const auto &carrier = elastic ? m_elasticCarrier : m_staticCarrier;
        if (auto it = carrier.find(key); it == carrier.end() || it->second != int(p))
            continue;
        if (elastic && m_staticCarrier.count(key))
            continue;
        Item item;
        item.name = name;
        item.training = true;
        item.need = jobNeed(*j);
        item.peakGpus = j->gpus;
        item.gpusPerReplica = int(j->gpus);
        if (!elastic) {
            if (auto it = m_elasticCarrier.find(key); it != m_elasticCarrier.end()) {
                item.elastic = it->second;
                item.elasticGpusPerReplica = int(j->gpus);
            }
        }
        work.items.push_back(std::move(item));
    }
    if (!tenants.empty())
        packSharedPool(p, tenants);
}

// Places the profile names on one GPU, largest first, each at its first free allowed start.
std::optional<MigLayout> placeProfiles(const MigGpuProfiles &profiles, const std::vector<std::string> &names,
                                       std::string &reason)
{
    std::vector<const MigProfile *> wanted;
    for (const std::string &name : names) {
        const MigProfile *profile = profiles.find(name);
        if (!profile) {
            reason = "profile \"" + name + "\" does not exist on " + profiles.gpuId + " (" + profiles.profileNames() + ")";
            return std::nullopt;
        }
        wanted.push_back(profile);
    }
    std::stable_sort(wanted.begin(), wanted.end(),
                     [](const MigProfile *a, const MigProfile *b) { return a->memorySlices > b->memorySlices; });
    std::vector<bool> used(size_t(profiles.memorySlices), false);
    MigLayout layout;
    for (const MigProfile *profile : wanted) {
        bool placed = false;
        for (int start : profile->starts) {
            bool free = start + profile->memorySlices <= profiles.memorySlices;
            for (int s = start; free && s < start + profile->memorySlices; ++s)
                free = !used[size_t(s)];
            if (!free)
                continue;
            for (int s = start; s < start + profile->memorySlices; ++s)
                used[size_t(s)] = true;
            layout.push_back({profile->name, start, {}});
            placed = true;
            break;
        }
        if (!placed) {
            reason = "no free allowed start for " + profile->name + " after the larger instances";
            return std::nullopt;
        }
    }
    const LayoutCheck check = validateLayout(profiles, layout);
    if (!check.valid) {
        reason = check.reason;
        return std::nullopt;
    }
    std::sort(layout.begin(), layout.end(), [](const MigInstance &a, const MigInstance &b) { return a.start < b.start; });
    return layout;
}

// An explicit per-GPU layout: each tenant (largest first) takes the smallest free slot that
// holds it, opening another GPU with the same layout when none is free.
void Evaluator::packExplicitMig(size_t p, const MigGpuProfiles &profiles, const std::vector<Tenant> &tenants)
{
    const Pool &pool = m_s.pools[p];
    std::string reason;
    const std::optional<MigLayout> layout = placeProfiles(profiles, pool.migProfiles, reason);
    if (!layout || layout->empty()) {
        warn("mig_layout_invalid", "Pool \"" + pool.name + "\": the MIG layout cannot be built on " + pool.gpuId + ": "
                                       + (reason.empty() ? "it is empty" : reason)
                                       + "; its workloads are packed automatically instead.",
             pool.name);
        const PackResult packed = packTenants(profiles, double(gpu(pool.gpuId)->memoryBytes) / kGiB, tenants);
        m_work[p].packedGpus = packed.gpus;
        m_result.pools[p].migLayouts = packed.layouts;
        for (const std::string &oom : packed.oomWarnings)
            warn("oom_at_mig_boundary", "Pool \"" + pool.name + "\": " + oom, pool.name);
        return;
    }
    double largest = 0;
    for (const MigInstance &instance : *layout)
        largest = std::max(largest, memoryGiB(*profiles.find(instance.profile)));
    std::vector<Tenant> order = tenants;
    std::stable_sort(order.begin(), order.end(), [](const Tenant &a, const Tenant &b) { return a.memoryGiB > b.memoryGiB; });
    std::vector<MigLayout> gpus;
    for (const Tenant &tenant : order) {
        if (tenant.memoryGiB > largest)
            warn("oom_at_mig_boundary",
                 "Pool \"" + pool.name + "\": workload \"" + tenant.name + "\" needs " + gib(tenant.memoryGiB)
                     + " GiB but the largest slice of the layout holds " + gib(largest)
                     + " GiB: it would run out of memory at the partition boundary.",
                 pool.name);
        const double need = std::min(tenant.memoryGiB, largest);
        MigInstance *best = nullptr;
        double bestGiB = 0;
        for (MigLayout &g : gpus) {
            for (MigInstance &instance : g) {
                const double giB = memoryGiB(*profiles.find(instance.profile));
                if (instance.tenant.empty() && giB >= need && (!best || giB < bestGiB)) {
                    best = &instance;
                    bestGiB = giB;
                }
            }
        }
        if (!best) {
            gpus.push_back(*layout);
            for (MigInstance &instance : gpus.back()) {
                const double giB = memoryGiB(*profiles.find(instance.profile));
                if (giB >= need && (!best || giB < bestGiB)) {
                    best = &instance;
                    bestGiB = giB;
                }
            }
        }
        best->tenant = tenant.name;
    }
    m_work[p].packedGpus = int64_t(gpus.size());
    m_result.pools[p].migLayouts = std::move(gpus);
}

// Shared pools hold their workloads as tenants all day: the need is the packed GPU count.
void Evaluator::packSharedPool(size_t p, const std::vector<const WorkloadProfile *> &members)
{
    const Pool &pool = m_s.pools[p];
    PoolWork &work = m_work[p];
    work.shared = true;
    const GpuSpec *g = gpu(pool.gpuId);
    if (!g)
        return;
    const double gpuGiB = double(g->memoryBytes) / kGiB;
    const MigGpuProfiles *profiles = pool.partitioning == Partitioning::Mig ? migProfiles(pool.gpuId) : nullptr;
    std::vector<Tenant> tenants;
    for (const WorkloadProfile *w : members) {
        const ModelSpec *m = model(w->modelId);
        if (!m) {
            warn("missing_model", "Workload \"" + w->name + "\" names model \"" + w->modelId
                                      + "\", which is not in the catalog: it is left out of pool \"" + pool.name + "\".",
                 pool.name);
            continue;
        }
        // A tenant holds its weights at the pool's deployment, on the slice it names.
        WorkloadProfile deployed = *w;
        const PoolDeployment *d = deploymentOf(pool, w->name);
        if (d) {
            deployed.weights = d->weights;
            deployed.kv = d->kv;
            deployed.tp = d->tp;
        }
        Tenant tenant = tenantForWorkload(deployed, *m);
        if (d && !d->migProfile.empty() && profiles) {
            const MigProfile *slice = profiles->find(d->migProfile);
            if (!slice || slice->mediaExtensions) {
                warn("mig_layout_invalid", "Pool \"" + pool.name + "\": workload \"" + w->name + "\" names MIG profile \""
                                               + d->migProfile + "\", which " + pool.gpuId + " does not pack (its profiles: "
                                               + profiles->profileNames() + "); it takes the smallest slice it fits.",
                     pool.name);
            } else if (memoryGiB(*slice) < tenant.memoryGiB) {
                warn("oom_at_mig_boundary", "Pool \"" + pool.name + "\": workload \"" + w->name + "\" needs "
                                                + gib(tenant.memoryGiB) + " GiB, more than its MIG profile " + slice->name
                                                + " (" + gib(memoryGiB(*slice)) + " GiB); it takes the smallest slice it fits.",
                     pool.name);
            } else {
                tenant.profile = slice->name;
            }
        }
        if (tenant.memoryGiB > gpuGiB) {
            warn("oom_at_mig_boundary", "Pool \"" + pool.name + "\": workload \"" + w->name + "\" needs "
                                            + gib(tenant.memoryGiB) + " GiB, more than a whole " + pool.gpuId + " ("
                                            + gib(gpuGiB) + " GiB): it cannot be placed on a shared GPU.",
                 pool.name);
            continue;
        }
        tenants.push_back(tenant);
        work.tenants.push_back(w->name);
    }
    if (tenants.empty())
        return;
    if (pool.partitioning == Partitioning::Mig) {
        const MigGpuProfiles *profiles = migProfiles(pool.gpuId);
        if (!profiles) {
            warn("no_mig_profiles", "Pool \"" + pool.name + "\": " + pool.gpuId
                                        + " has no MIG profile table; the pool is sized as time-sliced sharing.",
                 pool.name);
            work.packedGpus = sharedGpus(gpuGiB, tenants);
        } else if (pool.migAuto()) {
            const PackResult packed = packTenants(*profiles, gpuGiB, tenants);
            work.packedGpus = packed.gpus;
            m_result.pools[p].migLayouts = packed.layouts;
            for (const std::string &oom : packed.oomWarnings)
                warn("oom_at_mig_boundary", "Pool \"" + pool.name + "\": " + oom, pool.name);
        } else {
            packExplicitMig(p, *profiles, tenants);
        }
    } else {
        work.packedGpus = sharedGpus(gpuGiB, tenants);
    }
    Item item;
    item.name = "tenants";
    item.tenants = true;
    item.need.assign(m_hours, work.packedGpus);
    item.peakGpus = work.packedGpus;
    work.items.push_back(std::move(item));
}

// The rate of a pool's tier from the card in force, or nullopt (warned) when unpriced.
std::optional<Money> Evaluator::rateFor(size_t p)
{
    const Pool &pool = m_s.pools[p];
    const RateCard *card = m_cards[p];
    const std::string currency = card ? card->currency : std::string("USD");
    if (pool.tier == PoolTier::Owned && pool.ownedRatePerGpuHour)
        return Money{*pool.ownedRatePerGpuHour, currency};
    const std::string where = m_s.provider + " " + m_s.region;
    if (!card) {
        warn("unpriced_gpu", "Pool \"" + pool.name + "\": the rate card " + where + " does not price GPU \""
                                 + pool.gpuId + "\"" + (m_s.asOfDate.empty() ? "" : " as of " + m_s.asOfDate)
                                 + ": the pool is unpriced and left out of the costs.",
             pool.name);
        return std::nullopt;
    }
    Decimal rate;
    std::string tierName(toString(pool.tier));
    switch (pool.tier) {
    case PoolTier::Owned:
        rate = card->reserved3y;
        if (!rate.isZero())
            warn("owned_rate_proxy", "Pool \"" + pool.name + "\" is owned and has no owned rate: the 3-year reserved rate ("
                                         + rateText(card->reserved3y) + " " + currency
                                         + " per GPU-hour) stands in for the amortised cost.",
                 pool.name);
        tierName = "reserved_3y (standing in for owned)";
        break;
    case PoolTier::Reserved1y: rate = card->reserved1y; break;
    case PoolTier::Reserved3y: rate = card->reserved3y; break;
    case PoolTier::OnDemand: rate = card->onDemand; break;
    case PoolTier::Spot: rate = card->spot; break;
    }
    if (rate.isZero() || rate.isNegative()) {
        warn("tier_not_offered", "Pool \"" + pool.name + "\": the rate card " + card->key() + " does not offer "
                                     + tierName + ": the pool is unpriced and left out of the costs.",
             pool.name);
        return std::nullopt;
    }
    return Money{rate, currency};
}

void Evaluator::priceAll()
{
    const std::string date = m_s.asOfDate.empty() ? std::string("9999-12-31") : m_s.asOfDate;
    bool anyCard = false;
    for (const RateCard &card : m_in.rateCards)
        anyCard = anyCard || (card.provider == m_s.provider && card.region == m_s.region);
    if (!anyCard)
        warn("missing_rate_card", "The rate card " + m_s.provider + " " + m_s.region
                                      + " no longer exists: every pool without an owned rate is unpriced.");
    m_cards.resize(m_s.pools.size(), nullptr);
    for (size_t p = 0; p < m_s.pools.size(); ++p) {
        const Pool &pool = m_s.pools[p];
        m_cards[p] = cardInForce(m_in.rateCards, m_s.provider + '/' + m_s.region + '/' + pool.gpuId, date);
        if (!anyCard && !(pool.tier == PoolTier::Owned && pool.ownedRatePerGpuHour)) {
            m_rates.push_back(std::nullopt);
            continue;
        }
        m_rates.push_back(rateFor(p));
        if (m_cards[p]) {
            m_result.pools[p].rateCardKey = m_cards[p]->key();
            if (pool.tier == PoolTier::Spot && m_rates.back())
                m_rates.back() = *m_rates.back() * (Decimal::fromInt(1) + m_s.spotOverhead);
        }
    }
}

// The share of an item's GPUs its load keeps busy at hour t (1 without a busy series).
double busyShare(const Item &item, size_t t)
{
    if (item.busy.empty() || item.need[t] <= 0)
        return 1.0;
    return std::min(1.0, item.busy[t] / double(item.need[t]));
}

// The GPUs the items' load keeps busy at hour t.
double busyOf(const std::vector<Item> &items, size_t t)
{
    double busy = 0;
    for (const Item &item : items)
        busy += double(item.need[t]) * busyShare(item, t);
    return busy;
}

DemandSeries toSeries(const std::vector<int64_t> &need)
{
    DemandSeries series;
    series.name = "pool";
    series.gpus.reserve(need.size());
    for (int64_t n : need)
        series.gpus.push_back(Decimal::fromInt(n));
    return series;
}

void Evaluator::sizeAndServe()
{
    const size_t n = m_s.pools.size();
    const Decimal hours = Decimal::fromInt(int64_t(m_hours));
    // Static pools first: they decide the overflow the elastic pools take.
    std::vector<std::vector<double>> elasticNeed(n, std::vector<double>(m_hours, 0.0));
    std::vector<std::vector<double>> elasticBusy(n, std::vector<double>(m_hours, 0.0));
    std::vector<double> unserved(n, 0.0);
    for (size_t p = 0; p < n; ++p) {
        const Pool &pool = m_s.pools[p];
        if (pool.role() != PoolRole::StaticBase)
            continue;
        PoolWork &work = m_work[p];
        PoolResult &out = m_result.pools[p];
        std::vector<int64_t> demand(m_hours, 0);
        for (const Item &item : work.items)
            for (size_t t = 0; t < m_hours; ++t)
                demand[t] += item.need[t];
        const int64_t peak = demand.empty() ? 0 : *std::max_element(demand.begin(), demand.end());
        // The pool holds whole replicas: of its exclusive items' common size (the gcd when they differ).
        int64_t replica = 0;
        for (const Item &item : work.items)
            if (!item.tenants)
                replica = std::gcd(replica, int64_t(std::max(1, item.gpusPerReplica)));
        replica = std::max<int64_t>(1, replica);
        int64_t gpus = pool.gpus;
        if (pool.sizing == PoolSizing::Auto) {
            gpus = peak;
            int elastic = -1;
            for (const Item &item : work.items)
                if (elastic < 0 && item.elastic >= 0)
                    elastic = item.elastic;
            const bool reservable = (pool.tier == PoolTier::Reserved1y || pool.tier == PoolTier::Reserved3y)
                                    && !work.shared && elastic >= 0 && peak > 0;
            if (reservable && m_s.policy.reserveAt != ReservePolicy::Fixed && m_rates[p] && m_rates[size_t(elastic)]
                && m_rates[p]->currency == m_rates[size_t(elastic)]->currency) {
                // Reserved in whole replicas: the analysis runs on replicas (cost is linear in GPUs).
                std::vector<int64_t> replicas(demand.size());
                for (size_t t = 0; t < demand.size(); ++t)
                    replicas[t] = demand[t] / replica;
                const ReserveAnalysis analysis =
                    analyseReservation(toSeries(replicas), *m_rates[p], *m_rates[size_t(elastic)]);
                switch (m_s.policy.reserveAt) {
                case ReservePolicy::CriticalFractile: gpus = analysis.fractileReserved * replica; break;
                case ReservePolicy::P50: gpus = analysis.p50Reserved * replica; break;
                case ReservePolicy::P75: gpus = analysis.p75Reserved * replica; break;
                case ReservePolicy::Fixed: break;
                }
                out.reserveAnalysed = gpus;
                out.criticalFractile = analysis.criticalFractile;
            }
        }
        out.autoSized = pool.sizing == PoolSizing::Auto;
        out.gpus = gpus;
        out.peakNeedGpus = peak;
        if (work.shared && work.packedGpus > gpus)
            warn("mig_slots_short", "Pool \"" + pool.name + "\" has " + std::to_string(gpus) + " GPUs but its "
                                        + std::to_string(work.tenants.size()) + " shared workloads need "
                                        + std::to_string(work.packedGpus) + ".",
                 pool.name);
        // A fixed count that is not whole replicas leaves the rest idle.
        const int64_t usable = work.shared ? gpus : gpus / replica * replica;
        if (usable < gpus && peak > 0)
            warn("partial_replica", "Pool \"" + pool.name + "\" has " + std::to_string(gpus) + " GPUs, but its replicas take "
                                        + std::to_string(replica) + " GPUs each: " + std::to_string(gpus - usable)
                                        + " GPU" + (gpus - usable == 1 ? " stays" : "s stay")
                                        + " idle. Set a multiple of " + std::to_string(replica) + ".",
                 pool.name);
        out.hourlyUsed.resize(m_hours);
        int64_t used = 0;
        double busy = 0;
        bool overflowAtPeak = false;
        for (size_t t = 0; t < m_hours; ++t) {
            const int64_t served = std::min(demand[t], usable);
            out.hourlyUsed[t] = served;
            used += served;
            if (served > 0)
                busy += double(served) / double(demand[t]) * busyOf(work.items, t);
            const int64_t over = demand[t] - served;
            if (over <= 0)
                continue;
            if (demand[t] == peak)
                overflowAtPeak = true;
            for (Item &item : work.items) {
                const double share = double(over) * double(item.need[t]) / double(demand[t]);
                if (item.elastic >= 0) {
                    // Whole replicas of the elastic pool's GPU.
                    const int replicaThere = std::max(1, item.elasticGpusPerReplica);
                    const double there =
                        std::ceil(share * item.toElastic / replicaThere - kCeilTolerance) * replicaThere;
                    elasticNeed[size_t(item.elastic)][t] += there;
                    elasticBusy[size_t(item.elastic)][t] += there * busyShare(item, t);
                    item.peakOverflow = std::max(item.peakOverflow, there);
                } else if (!item.tenants) {
                    unserved[p] += share;  // tenants short of GPUs are warned as mig_slots_short
                }
            }
        }
        for (const std::string &tenant : work.tenants)
            out.workloads.push_back({tenant, 0, 0, 1, false});
        for (const Item &item : work.items) {
            if (item.tenants)
                continue;
            PoolWorkload entry{item.name, item.peakGpus, 0, item.gpusPerReplica, item.training};
            if (!overflowAtPeak || item.elastic < 0)
                entry.plannedHeadroomGpus = item.plannedHeadroom;
            out.workloads.push_back(entry);
        }
        out.gpuHoursUsed = Decimal::fromInt(used);
        out.gpuHoursProvisioned = Decimal::fromInt(gpus) * hours;
        out.gpuHoursBusy = busy;
    }
    // Elastic pools: their own workloads plus the overflow, whole GPUs each hour.
    for (size_t p = 0; p < n; ++p) {
        const Pool &pool = m_s.pools[p];
        if (pool.role() != PoolRole::ElasticTop)
            continue;
        PoolResult &out = m_result.pools[p];
        std::vector<double> &need = elasticNeed[p];
        for (const Item &item : m_work[p].items) {
            for (size_t t = 0; t < m_hours; ++t) {
                need[t] += double(item.need[t]);
                elasticBusy[p][t] += double(item.need[t]) * busyShare(item, t);
            }
            out.workloads.push_back({item.name, item.peakGpus, item.plannedHeadroom, item.gpusPerReplica, item.training});
        }
        // Overflow arriving from static pools: its share of the workload's peak here.
        for (size_t q = 0; q < n; ++q) {
            for (const Item &item : m_work[q].items) {
                if (item.elastic != int(p))
                    continue;
                const Sized there = item.training ? Sized{true, item.peakGpus, 0, item.gpusPerReplica}
                                                  : m_sized[{item.name, p}];
                const int64_t overflowPeak = int64_t(std::ceil(item.peakOverflow - kCeilTolerance));
                // The planned headroom sits where the workload's peak hour ends: here when it overflows.
                const int64_t staticGpus = m_result.pools[q].gpus;
                const bool peakHere = overflowPeak > 0 && m_result.pools[q].peakNeedGpus > staticGpus;
                out.workloads.push_back({item.name, overflowPeak, peakHere ? there.plannedHeadroom : 0,
                                         there.gpusPerReplica, item.training});
            }
        }
        int64_t peakNeed = 0;
        int64_t used = 0;
        double busy = 0;
        out.hourlyUsed.resize(m_hours);
        const bool capped = pool.sizing == PoolSizing::Fixed;
        for (size_t t = 0; t < m_hours; ++t) {
            const int64_t whole = int64_t(std::ceil(need[t] - kCeilTolerance));
            peakNeed = std::max(peakNeed, whole);
            const int64_t served = capped ? std::min(whole, pool.gpus) : whole;
            unserved[p] += double(whole - served);
            out.hourlyUsed[t] = served;
            used += served;
            if (served > 0)
                busy += std::min(elasticBusy[p][t], double(served)) * (served < whole ? double(served) / double(whole) : 1.0);
        }
        out.autoSized = !capped;
        out.peakNeedGpus = peakNeed;
        out.gpus = capped ? pool.gpus : peakNeed;
        out.gpuHoursUsed = Decimal::fromInt(used);
        out.gpuHoursProvisioned = out.gpuHoursUsed;
        out.gpuHoursBusy = busy;
    }
    for (size_t p = 0; p < n; ++p) {
        PoolResult &out = m_result.pools[p];
        const int64_t hoursShort = int64_t(std::ceil(unserved[p] - kCeilTolerance));
        out.unservedGpuHours = hoursShort;
        if (hoursShort > 0) {
            const std::string why = out.role == PoolRole::StaticBase
                ? std::string("no elastic pool lists its workloads")
                : "above its cap of " + std::to_string(out.gpus) + " GPUs";
            warn("unserved_demand",
                 "Pool \"" + out.name + "\" cannot serve " + std::to_string(hoursShort) + " GPU-hours of demand over "
                     + std::to_string(m_hours) + " hours (" + why + "): add GPUs or an elastic pool.",
                 out.name);
        }
        const int64_t peakUsed =
            out.hourlyUsed.empty() ? 0 : *std::max_element(out.hourlyUsed.begin(), out.hourlyUsed.end());
        int64_t planned = 0;
        for (const PoolWorkload &w : out.workloads)
            planned += w.plannedHeadroomGpus;
        out.plannedHeadroomGpus = planned;
        out.spareAtPeak = out.gpus - peakUsed;
        out.headroomAtPeak = out.spareAtPeak + planned;
        const double provisioned = out.gpuHoursProvisioned.toDouble();
        out.utilization = provisioned > 0 ? out.gpuHoursUsed.toDouble() / provisioned : 0.0;
        out.busyUtilization = provisioned > 0 ? std::min(1.0, out.gpuHoursBusy / provisioned) : 0.0;
        // Allocated is not busy: one replica for a trickle of traffic reads 100 % utilized.
        if (out.gpus > 0 && out.utilization >= 0.5 && out.busyUtilization < 0.25
            && out.busyUtilization < out.utilization / 2)
            warn("idle_replicas",
                 "Pool \"" + out.name + "\" runs replicas " + explain::percent(out.utilization)
                     + " of the GPU-hours it pays for, but its traffic keeps them " + explain::percent(out.busyUtilization)
                     + " busy: a whole replica is far more than the demand needs. Share the GPUs (MIG or "
                       "time-slicing), serve more workloads on them, or choose a smaller GPU.",
                 out.name);
    }
}

void Evaluator::fleetWarnings()
{
    int64_t fleet = m_result.staticGpus + m_result.elasticPeakGpus;
    const auto small = packingAdvice({}, long(fleet));
    for (size_t p = 0; p < m_s.pools.size(); ++p) {
        const Pool &pool = m_s.pools[p];
        if (pool.partitioning == Partitioning::Exclusive)
            continue;
        for (const PackingAdvice &advice : small)
            warn("small_fleet_sharing", "Pool \"" + pool.name + "\" uses " + std::string(toString(pool.partitioning))
                                            + " in a fleet of " + std::to_string(fleet) + " GPUs: " + advice.advice
                                            + " — " + advice.reason + ".",
                 pool.name);
        std::vector<PackingCandidate> candidates;
        for (const std::string &name : pool.workloads) {
            const WorkloadProfile *w = workload(name);
            if (!w)
                continue;
            PackingCandidate c;
            c.name = name;
            c.workloadClass = std::string(toString(w->workloadClass));
            // Regulated tenants are fine on MIG; the rule is about time-slicing and MPS.
            c.isolation = pool.partitioning == Partitioning::Mig ? "none" : std::string(toString(w->isolation));
            candidates.push_back(c);
        }
        for (const std::string &name : pool.trainingJobs) {
            if (!job(name))
                continue;
            PackingCandidate c;
            c.name = name;
            c.workloadClass = "training";
            candidates.push_back(c);
        }
        for (const PackingAdvice &advice : packingAdvice(candidates, 0))
            warn("when_not_to_pack", "Pool \"" + pool.name + "\" (" + std::string(toString(pool.partitioning)) + "): \""
                                         + advice.subject + "\": " + advice.advice + " — " + advice.reason + ".",
                 pool.name);
    }
    // Flat 24/7 traffic has nothing to scale into.
    for (size_t p = 0; p < m_s.pools.size(); ++p) {
        const Pool &pool = m_s.pools[p];
        if (pool.role() != PoolRole::ElasticTop)
            continue;
        std::vector<PackingCandidate> candidates;
        for (const std::string &name : pool.workloads) {
            const WorkloadProfile *w = workload(name);
            if (!w)
                continue;
            const double top = *std::max_element(w->diurnal.begin(), w->diurnal.end());
            const double bottom = *std::min_element(w->diurnal.begin(), w->diurnal.end());
            if (top > 0 && bottom / top >= 0.9) {
                PackingCandidate c;
                c.name = name;
                c.flatTraffic = true;
                candidates.push_back(c);
            }
        }
        for (const PackingAdvice &advice : packingAdvice(candidates, 0))
            warn("when_not_to_pack", "Pool \"" + pool.name + "\" (elastic): \"" + advice.subject + "\": "
                                         + advice.advice + " — " + advice.reason + ".",
                 pool.name);
    }
    // Reservation lead time against the date capacity is needed.
    const auto ordered = daysFromIsoDate(m_s.asOfDate);
    const auto needed = daysFromIsoDate(m_s.needDate);
    if (ordered && needed) {
        for (size_t p = 0; p < m_s.pools.size(); ++p) {
            const Pool &pool = m_s.pools[p];
            const RateCard *card = m_cards[p];
            if (!card || (pool.tier != PoolTier::Reserved1y && pool.tier != PoolTier::Reserved3y)
                || card->reservationLeadWeeks <= 0)
                continue;
            const int64_t ready = *ordered + 7 * int64_t(card->reservationLeadWeeks);
            if (ready > *needed)
                warn("reservation_lead_time",
                     "Pool \"" + pool.name + "\": reserved " + pool.gpuId + " capacity takes "
                         + std::to_string(card->reservationLeadWeeks) + " weeks from order (" + card->key()
                         + "): ordered on " + m_s.asOfDate + " it arrives on " + isoDateFromDays(ready)
                         + ", after the need date " + m_s.needDate + ".",
                     pool.name);
        }
    }
}

ScenarioResult Evaluator::run()
{
    const auto problems = validate(m_s);
    if (!problems.empty())
        throw InputError(problems.front().field, problems.front().message);
    if (m_in.hours < 24)
        throw InputError("hours", "a scenario is evaluated over at least 24 hours (got " + std::to_string(m_in.hours) + ")");
    m_hours = size_t(m_in.hours);
    m_result.name = m_s.name;
    for (const Pool &pool : m_s.pools) {
        PoolResult r;
        r.name = pool.name;
        r.gpuId = pool.gpuId;
        r.tier = pool.tier;
        r.role = pool.role();
        r.partitioning = pool.partitioning;
        m_result.pools.push_back(r);
    }
    m_work.resize(m_s.pools.size());
    route();
    priceAll();
    for (size_t p = 0; p < m_s.pools.size(); ++p)
        buildStaticPool(p);
    sizeAndServe();

    const Decimal hours = Decimal::fromInt(int64_t(m_hours));
    const CivilDate start = scenarioStartDate(m_s);
    m_result.startDate = isoDate(start);
    m_result.endDate = isoDate(addMonths(start, m_s.horizonMonths));
    m_result.termHours = termHours(start, m_s.horizonMonths);
    const Decimal term = Decimal::fromInt(m_result.termHours);
    std::optional<std::string> currency;
    double used = 0;
    double busy = 0;
    double provisioned = 0;
    for (size_t p = 0; p < m_s.pools.size(); ++p) {
        PoolResult &out = m_result.pools[p];
        if (out.role == PoolRole::StaticBase)
            m_result.staticGpus += out.gpus;
        else
            m_result.elasticPeakGpus += out.gpus;
        used += out.gpuHoursUsed.toDouble();
        busy += out.gpuHoursBusy;
        provisioned += out.gpuHoursProvisioned.toDouble();
        if (!m_rates[p]) {
            out.costPerDay.currency = out.costPerMonth.currency = out.costOverTerm.currency =
                m_cards[p] ? m_cards[p]->currency : std::string("USD");
            continue;
        }
        const Money &rate = *m_rates[p];
        out.priced = true;
        out.ratePerGpuHour = rate;
        if (out.role == PoolRole::StaticBase) {
            out.costPerDay = rate * Decimal::fromInt(out.gpus * 24);
            out.costPerMonth = rate * Decimal::fromInt(out.gpus * kHoursPer30DayMonth);
            out.costOverTerm = rate * Decimal::fromInt(out.gpus * m_result.termHours);
        } else {
            // The evaluated hours' average GPUs, over a day, a 30-day month and the term.
            out.costPerDay = Money{rate.amount * out.gpuHoursUsed * Decimal::fromInt(24) / hours, rate.currency};
            out.costPerMonth =
                Money{rate.amount * out.gpuHoursUsed * Decimal::fromInt(kHoursPer30DayMonth) / hours, rate.currency};
            out.costOverTerm = Money{rate.amount * out.gpuHoursUsed * term / hours, rate.currency};
        }
        if (out.tier == PoolTier::Reserved1y || out.tier == PoolTier::Reserved3y) {
            const bool threeYear = out.tier == PoolTier::Reserved3y;
            const Decimal upfront = m_cards[p] ? (threeYear ? m_cards[p]->reserved3yUpfront : m_cards[p]->reserved1yUpfront)
                                               : Decimal();
            out.commitment = commitmentObligation(out.gpus, rate, upfront, start, threeYear ? 36 : 12,
                                                  m_result.termHours);
            if (!out.commitment->coversTerm && out.gpus > 0)
                warn("commitment_beyond_horizon",
                     "Pool \"" + out.name + "\": " + out.commitment->warning + " The " + std::to_string(m_s.horizonMonths)
                         + "-month horizon consumes " + out.commitment->inHorizon.display() + " of it.",
                     out.name);
        }
        if (!currency) {
            currency = rate.currency;
            m_result.costPerDay = Money{Decimal(), rate.currency};
            m_result.costPerMonth = m_result.costPerDay;
            m_result.costOverTerm = m_result.costPerDay;
            m_result.commitmentsOwed = m_result.costPerDay;
        }
        m_result.costPerDay += out.costPerDay;
        m_result.costPerMonth += out.costPerMonth;
        m_result.costOverTerm += out.costOverTerm;
        if (out.commitment)
            m_result.commitmentsOwed += out.commitment->total;
    }
    m_result.utilization = provisioned > 0 ? used / provisioned : 0.0;
    m_result.busyUtilization = provisioned > 0 ? std::min(1.0, busy / provisioned) : 0.0;
    for (PoolTier tier : kTiers) {
        std::optional<TierCost> sum;
        for (const PoolResult &out : m_result.pools) {
            if (out.tier != tier || !out.priced)
                continue;
            if (!sum) {
                const Money zero{Decimal(), out.costPerDay.currency};
                sum = TierCost{tier, zero, zero, zero};
            }
            sum->perDay += out.costPerDay;
            sum->perMonth += out.costPerMonth;
            sum->overTerm += out.costOverTerm;
        }
        if (sum)
            m_result.costByTier.push_back(*sum);
    }
    fleetWarnings();
    return m_result;
}

} // namespace

SizingOverrides deploymentOverrides(const Pool &pool, const std::string &workload)
{
    SizingOverrides overrides;
    overrides.gpuId = pool.gpuId;
    if (const PoolDeployment *d = deploymentOf(pool, workload)) {
        overrides.weights = d->weights;
        overrides.kv = d->kv;
        overrides.tp = d->tp;
        overrides.disaggregate = d->disaggregated;
    }
    return overrides;
}


CivilDate scenarioStartDate(const Scenario &scenario, CivilDate today)
{
    if (const auto start = parseIsoDate(scenario.startDate))
        return *start;
    if (const auto asOf = parseIsoDate(scenario.asOfDate))
        return firstOfNextMonth(*asOf);
    return firstOfNextMonth(today);
}

ScenarioMoneyTable scenarioMoneyTable(const ScenarioResult &result)
{
    ScenarioMoneyTable table;
    std::vector<Money> day, month, term;
    for (const PoolResult &p : result.pools) {
        if (!p.priced)
            continue;
        table.pools.push_back(p.name);
        day.push_back(p.costPerDay);
        month.push_back(p.costPerMonth);
        term.push_back(p.costOverTerm);
    }
    const std::string &currency = result.costPerDay.currency;
    table.perDay = shownColumn(day, currency);
    table.perMonth = shownColumn(month, currency);
    table.overTerm = shownColumn(term, currency);
    return table;
}

std::string_view toString(PoolTier tier)
{
    switch (tier) {
    case PoolTier::Owned: return "owned";
    case PoolTier::Reserved1y: return "reserved_1y";
    case PoolTier::Reserved3y: return "reserved_3y";
    case PoolTier::OnDemand: return "on_demand";
    case PoolTier::Spot: return "spot";
    }
    return "owned";
}

std::string_view tierLabel(PoolTier tier)
{
    switch (tier) {
    case PoolTier::Owned: return "owned";
    case PoolTier::Reserved1y: return "1-year reserved";
    case PoolTier::Reserved3y: return "3-year reserved";
    case PoolTier::OnDemand: return "on-demand";
    case PoolTier::Spot: return "spot";
    }
    return "owned";
}

std::string_view toString(Partitioning partitioning)
{
    switch (partitioning) {
    case Partitioning::Exclusive: return "exclusive";
    case Partitioning::Mig: return "mig";
    case Partitioning::TimeSlice: return "time_slice";
    case Partitioning::Mps: return "mps";
    }
    return "exclusive";
}

std::string_view toString(PoolSizing sizing)
{
    return sizing == PoolSizing::Auto ? "auto" : "fixed";
}

std::string_view toString(PoolRole role)
{
    return role == PoolRole::ElasticTop ? "elastic" : "static";
}

std::string_view toString(ReservePolicy policy)
{
    switch (policy) {
    case ReservePolicy::CriticalFractile: return "critical_fractile";
    case ReservePolicy::P50: return "p50";
    case ReservePolicy::P75: return "p75";
    case ReservePolicy::Fixed: return "fixed";
    }
    return "critical_fractile";
}

std::optional<PoolTier> parsePoolTier(std::string_view text)
{
    return parseEnum(text, kTiers);
}

std::optional<Partitioning> parsePartitioning(std::string_view text)
{
    return parseEnum(text, kPartitionings);
}

std::optional<PoolSizing> parsePoolSizing(std::string_view text)
{
    return parseEnum(text, kSizings);
}

std::optional<ReservePolicy> parseReservePolicy(std::string_view text)
{
    return parseEnum(text, kPolicies);
}

const std::vector<PoolTier> &allPoolTiers()
{
    static const std::vector<PoolTier> all(std::begin(kTiers), std::end(kTiers));
    return all;
}

const std::vector<Partitioning> &allPartitionings()
{
    static const std::vector<Partitioning> all(std::begin(kPartitionings), std::end(kPartitionings));
    return all;
}

const std::vector<ReservePolicy> &allReservePolicies()
{
    static const std::vector<ReservePolicy> all(std::begin(kPolicies), std::end(kPolicies));
    return all;
}

PoolRole roleOf(PoolTier tier)
{
    return tier == PoolTier::OnDemand || tier == PoolTier::Spot ? PoolRole::ElasticTop : PoolRole::StaticBase;
}

std::vector<FieldProblem> validate(const Scenario &scenario)
{
    std::vector<FieldProblem> problems;
    auto add = [&](const std::string &field, const std::string &message) { problems.push_back({field, message}); };
    if (scenario.name.find_first_not_of(" \t\n\r\v\f") == std::string::npos)
        add("name", scenario.name.empty() ? "name must not be empty" : "name must not be blank (only spaces)");
    if (scenario.horizonMonths < 1 || scenario.horizonMonths > kMaxHorizonMonths)
        add("horizon_months", "horizon_months must be between 1 and " + std::to_string(kMaxHorizonMonths) + " (got "
                                  + std::to_string(scenario.horizonMonths) + ")");
    if (!scenario.asOfDate.empty() && !daysFromIsoDate(scenario.asOfDate))
        add("rate_card.as_of", "as_of must be a date as yyyy-mm-dd (got \"" + scenario.asOfDate + "\")");
    if (!scenario.startDate.empty() && !parseIsoDate(scenario.startDate))
        add("start_date", "start_date must be a date as yyyy-mm-dd (got \"" + scenario.startDate + "\")");
    if (!scenario.needDate.empty() && !daysFromIsoDate(scenario.needDate))
        add("rate_card.need_date", "need_date must be a date as yyyy-mm-dd (got \"" + scenario.needDate + "\")");
    if (scenario.spotOverhead.isNegative())
        add("spot_overhead", "spot_overhead must be at least 0 (got " + scenario.spotOverhead.toString() + ")");
    std::set<std::string> names;
    for (size_t i = 0; i < scenario.pools.size(); ++i) {
        const Pool &pool = scenario.pools[i];
        const std::string at = "pools[" + std::to_string(i) + "].";
        if (pool.name.empty())
            add(at + "name", "a pool name must not be empty");
        else if (!names.insert(pool.name).second)
            add(at + "name", "pool name \"" + pool.name + "\" is used twice");
        if (pool.gpuId.empty())
            add(at + "gpu", "pool \"" + pool.name + "\" needs a GPU");
        if (pool.sizing == PoolSizing::Fixed) {
            const int64_t minimum = pool.role() == PoolRole::StaticBase ? 1 : 0;
            if (pool.gpus < minimum || pool.gpus > kMaxPoolGpus)
                add(at + "gpus", "pool \"" + pool.name + "\": gpus must be between " + std::to_string(minimum) + " and "
                                     + std::to_string(kMaxPoolGpus) + " (got " + std::to_string(pool.gpus) + ")");
        } else if (pool.gpus < 0) {
            add(at + "gpus", "pool \"" + pool.name + "\": gpus must not be negative (got " + std::to_string(pool.gpus) + ")");
        }
        if (pool.role() == PoolRole::ElasticTop && pool.partitioning != Partitioning::Exclusive)
            add(at + "partitioning", "pool \"" + pool.name + "\" is elastic (" + std::string(toString(pool.tier))
                                         + "): an elastic pool uses exclusive GPUs, not "
                                         + std::string(toString(pool.partitioning)));
        std::set<std::string> deployed;
        for (size_t j = 0; j < pool.deployments.size(); ++j) {
            const PoolDeployment &d = pool.deployments[j];
            const std::string field = at + "deployments[" + std::to_string(j) + "].";
            if (std::find(pool.workloads.begin(), pool.workloads.end(), d.workload) == pool.workloads.end())
                add(field + "workload", "pool \"" + pool.name + "\" has a deployment of workload \"" + d.workload
                                            + "\", which it does not list");
            else if (!deployed.insert(d.workload).second)
                add(field + "workload", "pool \"" + pool.name + "\" has two deployments of workload \"" + d.workload + "\"");
            if (d.tp < 1 || d.tp > kMaxTensorParallel)
                add(field + "tp", "pool \"" + pool.name + "\": the tensor-parallel degree of workload \"" + d.workload
                                      + "\" must be between 1 and " + std::to_string(kMaxTensorParallel) + " (got "
                                      + std::to_string(d.tp) + ")");
            if (d.disaggregated && pool.partitioning != Partitioning::Exclusive)
                add(field + "disaggregated", "pool \"" + pool.name + "\" shares its GPUs ("
                                                 + std::string(toString(pool.partitioning)) + "): workload \"" + d.workload
                                                 + "\" cannot split prefill and decode onto replicas of their own there");
            if (!d.migProfile.empty() && pool.partitioning != Partitioning::Mig)
                add(field + "mig_profile", "pool \"" + pool.name + "\" gives workload \"" + d.workload + "\" MIG profile \""
                                               + d.migProfile + "\" but is partitioned as "
                                               + std::string(toString(pool.partitioning)));
        }
        if (!pool.migProfiles.empty() && pool.partitioning != Partitioning::Mig)
            add(at + "mig_layout", "pool \"" + pool.name + "\" lists MIG profiles but is partitioned as "
                                       + std::string(toString(pool.partitioning)));
        if (pool.sizing == PoolSizing::Auto && scenario.policy.reserveAt == ReservePolicy::Fixed
            && (pool.tier == PoolTier::Reserved1y || pool.tier == PoolTier::Reserved3y)
            && !isShared(pool, scenario.policy))
            add(at + "sizing", "pool \"" + pool.name
                                   + "\" is sized automatically but the reserve policy is \"fixed\": give it a GPU count "
                                     "or choose critical_fractile, p50 or p75");
        if (pool.ownedRatePerGpuHour) {
            if (pool.tier != PoolTier::Owned)
                add(at + "owned_rate_per_gpu_hour", "pool \"" + pool.name + "\" has an owned rate but is "
                                                        + std::string(toString(pool.tier)));
            else if (pool.ownedRatePerGpuHour->isNegative() || pool.ownedRatePerGpuHour->isZero())
                add(at + "owned_rate_per_gpu_hour", "pool \"" + pool.name + "\": owned_rate_per_gpu_hour must be "
                                                        "greater than 0 (got " + pool.ownedRatePerGpuHour->toString() + ")");
        }
        std::set<std::string> listed;
        for (const std::string &w : pool.workloads) {
            if (w.empty())
                add(at + "workloads", "pool \"" + pool.name + "\" lists an empty workload name");
            else if (!listed.insert(w).second)
                add(at + "workloads", "pool \"" + pool.name + "\" lists workload \"" + w + "\" twice");
        }
        listed.clear();
        for (const std::string &j : pool.trainingJobs) {
            if (j.empty())
                add(at + "training_jobs", "pool \"" + pool.name + "\" lists an empty training job name");
            else if (!listed.insert(j).second)
                add(at + "training_jobs", "pool \"" + pool.name + "\" lists training job \"" + j + "\" twice");
        }
    }
    const AutoscaleSettings &a = scenario.autoscale;
    if (!(a.hpaTolerance >= 0 && a.hpaTolerance < 1))
        add("autoscale.hpa_tolerance", "hpa_tolerance must be at least 0 and below 1 (got " + show(a.hpaTolerance) + ")");
    if (a.cooldownSeconds < 0 || a.cooldownSeconds > 86400)
        add("autoscale.cooldown_seconds", "cooldown_seconds must be between 0 and 86400 (got "
                                              + std::to_string(a.cooldownSeconds) + ")");
    if (a.pollingIntervalSeconds < 1 || a.pollingIntervalSeconds > 3600)
        add("autoscale.polling_interval_seconds", "polling_interval_seconds must be between 1 and 3600 (got "
                                                      + std::to_string(a.pollingIntervalSeconds) + ")");
    if (a.maxQueueDelayMs && !(*a.maxQueueDelayMs > 0 && *a.maxQueueDelayMs <= 3.6e6))
        add("autoscale.max_queue_delay_ms", "max_queue_delay_ms must be greater than 0 and at most 3.6e+06 (got "
                                                + show(*a.maxQueueDelayMs) + ")");
    // A value as a message shows it: control characters visible, at most 40 characters.
    const auto shown = [](const std::string &text) {
        size_t cut = std::min<size_t>(text.size(), 40);
        while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80)
            --cut; // not inside a UTF-8 sequence
        std::string out;
        for (unsigned char c : text.substr(0, cut)) {
            if (c == '\n')
                out += "\\n";
            else if (c < 0x20 || c == 0x7f)
                out += "\\x" + std::string(1, "0123456789ABCDEF"[c >> 4]) + "0123456789ABCDEF"[c & 15];
            else
                out += char(c);
        }
        return "\"" + out + (text.size() > 40 ? "…\"" : "\"");
    };
    if (a.metric.empty())
        add("autoscale.metric", "metric must not be empty");
    else if (!isPrometheusMetricName(a.metric))
        add("autoscale.metric", "metric " + shown(a.metric)
                                    + " is not a Prometheus metric name: letters, digits, '_' and ':', not starting "
                                      "with a digit ([a-zA-Z_:][a-zA-Z0-9_:]*)");
    if (!isDnsLabel(a.kubernetesNamespace))
        add("autoscale.namespace", "namespace " + shown(a.kubernetesNamespace)
                                       + " is not a Kubernetes namespace name: lower-case letters, digits and '-', "
                                         "at most 63, starting and ending with a letter or digit");
    return problems;
}

ScenarioResult evaluateScenario(const Scenario &scenario, const ScenarioInputs &inputs)
{
    return Evaluator(scenario, inputs).run();
}

const ComparisonMetric *ScenarioComparison::find(const std::string &key) const
{
    for (const ComparisonMetric &metric : metrics) {
        if (metric.key == key)
            return &metric;
    }
    return nullptr;
}

ScenarioComparison compareScenarios(const std::vector<ScenarioResult> &results)
{
    if (results.size() < 2 || results.size() > 4)
        throw InputError("scenarios", "compare 2 to 4 scenarios (got " + std::to_string(results.size()) + ")");
    const std::string currency = results.front().costPerDay.currency;
    for (const ScenarioResult &r : results) {
        if (r.costPerDay.currency != currency || scenarioMoneyTable(r).perDay.total.currency != currency)
            throw InputError("currency", "scenario \"" + r.name + "\" is costed in " + r.costPerDay.currency
                                             + ", the baseline in " + currency);
    }
    ScenarioComparison comparison;
    for (const ScenarioResult &r : results)
        comparison.scenarios.push_back(r.name);
    auto add = [&](const std::string &key, const std::string &label, const std::string &unit,
                   const auto &valueOf) {
        ComparisonMetric metric{key, label, unit, unit == "money" ? currency : std::string(), {}, {}};
        for (const ScenarioResult &r : results)
            metric.values.push_back(valueOf(r));
        for (const Decimal &value : metric.values)
            metric.deltas.push_back(value - metric.values.front());
        comparison.metrics.push_back(std::move(metric));
    };
    // Money as printed (scenarioMoneyTable's totals, cents): the deltas re-add to the values shown.
    add("cost_per_day", "Cost per day", "money",
        [](const ScenarioResult &r) { return scenarioMoneyTable(r).perDay.total.amount; });
    add("cost_per_month", "Cost per 30-day month", "money",
        [](const ScenarioResult &r) { return scenarioMoneyTable(r).perMonth.total.amount; });
    add("cost_over_term", "Cost over the term", "money",
        [](const ScenarioResult &r) { return scenarioMoneyTable(r).overTerm.total.amount; });
    for (PoolTier tier : kTiers) {
        bool present = false;
        for (const ScenarioResult &r : results)
            for (const TierCost &t : r.costByTier)
                present = present || t.tier == tier;
        if (!present)
            continue;
        add("cost_per_month." + std::string(toString(tier)),
            "Cost per 30-day month, " + std::string(tierLabel(tier)), "money", [tier](const ScenarioResult &r) {
                // The tier's pools as shown, re-added.
                Decimal sum;
                for (const PoolResult &p : r.pools)
                    if (p.tier == tier && p.priced)
                        sum += p.costPerMonth.amount.rounded(2);
                return sum;
            });
    }
    add("static_gpus", "Static GPUs", "gpus", [](const ScenarioResult &r) { return Decimal::fromInt(r.staticGpus); });
    add("elastic_peak_gpus", "Elastic GPUs at peak", "gpus",
        [](const ScenarioResult &r) { return Decimal::fromInt(r.elasticPeakGpus); });
    std::vector<std::string> poolNames;
    for (const ScenarioResult &r : results)
        for (const PoolResult &p : r.pools)
            if (std::find(poolNames.begin(), poolNames.end(), p.name) == poolNames.end())
                poolNames.push_back(p.name);
    for (const std::string &name : poolNames)
        add("gpus." + name, "GPUs in " + name, "gpus", [&name](const ScenarioResult &r) {
            for (const PoolResult &p : r.pools)
                if (p.name == name)
                    return Decimal::fromInt(p.gpus);
            return Decimal();
        });
    add("utilization", "Fleet utilization", "ratio",
        [](const ScenarioResult &r) { return Decimal::fromDouble(r.utilization).rounded(4); });
    add("warnings", "Warnings", "count",
        [](const ScenarioResult &r) { return Decimal::fromInt(int64_t(r.warnings.size())); });
    return comparison;
}

} // namespace headroom::engine
