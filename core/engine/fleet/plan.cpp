#include "plan.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"
#include "engine/common/explain_text.h"
#include "engine/partitioning/mig.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <thread>

namespace headroom::engine {

namespace {

constexpr double kCeilTolerance = 1e-9;  // as evaluateScenario rounds
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kFrontSteps = 10;

using Day = std::array<int64_t, 24>;

// One way to serve a workload: a feasible deployment and the whole replicas it needs each hour.
struct Candidate {
    PlannedWorkload planned;
    int gpu = 0;                            // index into Search::gpus
    int64_t replica = 1;
    Day need{};
};

// A GPU type the rate card prices, with its tiers' hourly rates (spot with its overhead).
struct GpuRates {
    std::string id;
    std::string currency;
    std::vector<std::pair<PoolTier, Money>> commitments;
    std::vector<std::pair<PoolTier, Money>> elastic;
    std::vector<double> commitmentRates;    // the same, as numbers for the search
    std::vector<double> elasticRates;
    int64_t cap = -1;                       // −1: none
};

struct Job {
    const TrainingJobLoad *load = nullptr;
    int64_t runHours = 0;
    int64_t reservedGpus = 0;               // reserved: whole nodes of its GPU type
};

// A workload's one replica on one MIG slice, as the scenario packs it.
struct Slice {
    PlannedWorkload planned;
    Tenant tenant;
};

// A GPU type whose committed GPUs may be cut into MIG slices for small tenants.
struct SharedType {
    int gpu = 0;                            // index into Search::m_gpus
    const MigGpuProfiles *profiles = nullptr;
    double gpuGiB = 0;
    std::vector<std::optional<Slice>> slices; // per workload in m_workloads
    uint32_t tenants = 0;                   // bits of the workloads with a slice
};

// The cheapest pools of one GPU type for a set of workloads (their chosen candidates) and the
// type's training jobs.
struct GroupPrice {
    double cost = kInfinity;                // over the term, in the card's currency
    std::vector<int> candidates;            // per workload of the set, in workload order
    int commitment = -1;                    // index into GpuRates::commitments; −1: no base
    bool split = false;                     // all but flagship workloads on spot (GpuRates::elastic[1])
    int64_t committedGpus = 0;
    int64_t onDemandGpuHours = 0;           // elastic GPU-hours on each tier, elastic jobs included
    int64_t spotGpuHours = 0;
    int64_t peakHeld = 0;
    uint32_t reservedJobs = 0;              // bit per job of the type (Search::jobsOf)
    std::vector<int> jobTiers;              // per reserved job: index into commitments
};

class Search {
public:
    Search(const PlanRequest &request, const std::function<bool(double)> &progress);
    PlanResult run();

private:
    void collectRates();
    void collectCandidates();
    void collectJobs();
    void collectSlices();
    void priceGroups();
    PackResult pack(const SharedType &type, uint32_t set) const;
    std::vector<GroupPrice> priceGroup(int gpu, uint32_t set, const std::vector<double> &shares) const;
    void priceWith(int gpu, const std::vector<int> &workloads, const std::vector<int> &chosen,
                   const std::vector<double> &shares, std::vector<GroupPrice> &best) const;
    struct Assignment {
        double cost = kInfinity;
        std::vector<uint32_t> sets;         // per GPU type
    };
    Assignment assign(const std::vector<std::vector<double>> &costs, const std::vector<uint32_t> &allowed) const;
    std::vector<std::vector<double>> costsAt(size_t share) const;
    PlanOption optionFor(const Assignment &assignment, double maxShare) const;
    double lowerBound() const;
    void checkProgress(double fraction) const;

    const PlanRequest &m_request;
    const std::function<bool(double)> &m_progress;
    std::vector<GpuRates> m_gpus;
    std::vector<const WorkloadProfile *> m_workloads;   // those with a candidate
    std::vector<std::vector<Candidate>> m_candidates;   // per workload in m_workloads
    std::vector<Job> m_jobs;
    std::vector<std::vector<int>> m_jobsOf;              // per GPU type
    std::vector<SharedType> m_shared;                    // types m_gpus.size() + i of the pools
    bool m_pack = false;                                 // the plan packs (the rule on fleet size holds)
    int64_t m_packsProven = 0;                           // MIG packings priced, and those proven fewest
    int64_t m_packs = 0;
    std::vector<int64_t> m_hourCount;                    // evaluated hours falling on each hour of day
    int64_t m_hours = 0;
    int64_t m_termHours = 0;
    std::vector<double> m_shares;                        // the options' committed share, then the front's
    std::vector<std::vector<std::vector<double>>> m_groupCost; // [share][gpu, then shared type][set]
    PlanResult m_result;
};

bool positive(const Decimal &d)
{
    return !d.isZero() && !d.isNegative();
}

Search::Search(const PlanRequest &request, const std::function<bool(double)> &progress)
    : m_request(request), m_progress(progress)
{
    const PortfolioOptions &o = request.options;
    if (!(o.maxCommittedShare >= 0 && o.maxCommittedShare <= 1))
        throw InputError("max_committed_share", "the committed share must be between 0 and 1 (got "
                                                    + explain::number(o.maxCommittedShare) + ")");
    if (o.alternatives < 0 || o.alternatives > 10)
        throw InputError("alternatives", "between 0 and 10 runners-up can be reported (got "
                                             + std::to_string(o.alternatives) + ")");
    if (o.weights.empty() || o.kv.empty() || o.tps.empty())
        throw InputError("options", "the plan needs at least one weights precision, KV precision and TP to try");
    for (const int tp : o.tps) {
        if (tp < 1 || tp > kMaxTensorParallel)
            throw InputError("options.tps", "a TP must be between 1 and " + std::to_string(kMaxTensorParallel)
                                                + " (got " + std::to_string(tp) + ")");
    }
    for (const GpuCap &cap : o.caps) {
        if (cap.gpus < 0)
            throw InputError("options.caps", "the cap of GPU \"" + cap.gpuId + "\" must not be negative (got "
                                                 + std::to_string(cap.gpus) + ")");
        if (!findGpu(request.inputs.gpus, cap.gpuId))
            throw InputError("options.caps", "GPU \"" + cap.gpuId + "\" is not in the catalog");
    }
    if (request.inputs.hours < 24)
        throw InputError("hours", "a plan is evaluated over at least 24 hours (got "
                                      + std::to_string(request.inputs.hours) + ")");
    Scenario probe = request.settings;
    probe.pools.clear();
    if (probe.name.empty())
        probe.name = "plan";
    const auto problems = validate(probe);
    if (!problems.empty())
        throw InputError("settings." + problems.front().field, problems.front().message);
    m_hours = request.inputs.hours;
    m_termHours = termHours(scenarioStartDate(probe), probe.horizonMonths);
    m_hourCount.assign(24, 0);
    for (int64_t t = 0; t < m_hours; ++t)
        ++m_hourCount[size_t(t % 24)];
}

void Search::checkProgress(double fraction) const
{
    if (m_progress && !m_progress(std::clamp(fraction, 0.0, 1.0)))
        throw PlanCancelled{};
}

void Search::collectRates()
{
    const Scenario &s = m_request.settings;
    const PortfolioOptions &o = m_request.options;
    const std::string date = s.asOfDate.empty() ? std::string("9999-12-31") : s.asOfDate;
    for (const GpuSpec &gpu : m_request.inputs.gpus) {
        if (!o.gpuIds.empty() && std::find(o.gpuIds.begin(), o.gpuIds.end(), gpu.id) == o.gpuIds.end())
            continue;
        const RateCard *card = cardInForce(m_request.inputs.rateCards, s.provider + '/' + s.region + '/' + gpu.id, date);
        if (!card || !positive(card->onDemand))
            continue;
        GpuRates rates;
        rates.id = gpu.id;
        rates.currency = card->currency;
        for (const PoolTier tier : o.commitments) {
            const int months = tier == PoolTier::Reserved3y ? 36 : tier == PoolTier::Reserved1y ? 12 : 0;
            const Decimal rate = tier == PoolTier::Reserved3y ? card->reserved3y : card->reserved1y;
            if (months == 0 || months > s.horizonMonths || !positive(rate))
                continue;
            rates.commitments.emplace_back(tier, Money{rate, card->currency});
        }
        rates.elastic.emplace_back(PoolTier::OnDemand, Money{card->onDemand, card->currency});
        if (o.spot && positive(card->spot))
            rates.elastic.emplace_back(PoolTier::Spot,
                                       Money{card->spot * (Decimal::fromInt(1) + s.spotOverhead), card->currency});
        for (const GpuCap &cap : o.caps) {
            if (cap.gpuId == gpu.id)
                rates.cap = cap.gpus;
        }
        // Only the cheapest commitment that fits the horizon: a dearer one is never chosen.
        if (rates.commitments.size() > 1) {
            const auto cheapest = std::min_element(rates.commitments.begin(), rates.commitments.end(),
                                                   [](const auto &a, const auto &b) { return a.second.amount < b.second.amount; });
            rates.commitments = {*cheapest};
        }
        for (const auto &[tier, rate] : rates.commitments)
            rates.commitmentRates.push_back(rate.amount.toDouble());
        for (const auto &[tier, rate] : rates.elastic)
            rates.elasticRates.push_back(rate.amount.toDouble());
        m_gpus.push_back(std::move(rates));
    }
    if (m_gpus.empty())
        throw InputError("settings.rate_card", "the rate card " + s.provider + " " + s.region
                                                   + " prices none of the GPUs considered: nothing can be planned");
    for (size_t g = 1; g < m_gpus.size(); ++g) {
        if (m_gpus[g].currency != m_gpus.front().currency)
            throw InputError("settings.rate_card", "the rate card prices GPU \"" + m_gpus.front().id + "\" in "
                                                       + m_gpus.front().currency + " and \"" + m_gpus[g].id + "\" in "
                                                       + m_gpus[g].currency + ": a plan compares one currency");
    }
}

// A workload on a deployment as sized: its precisions, TP, binding constraint and latencies
// against its SLOs.
PlannedWorkload planned(const WorkloadProfile &w, const std::string &gpuId, WeightPrecision weights, KvPrecision kv,
                        const SizingResult &r)
{
    PlannedWorkload p;
    p.workload = w.name;
    p.gpuId = gpuId;
    p.weights = weights;
    p.kv = kv;
    p.tp = r.gpusPerReplica;
    p.binding = r.binding;
    p.ttftMs = r.prefillTimeMs;
    p.ttftSloMs = w.ttftP95Ms;
    p.itlMs = r.decodeStepMs;
    p.itlSloMs = w.itlP95Ms;
    p.latencyMargin = std::min(1 - r.prefillTimeMs / w.ttftP95Ms, 1 - r.decodeStepMs / w.itlP95Ms);
    return p;
}

// Whether candidate b is no better than a on every count the pools price: as many GPUs or more
// every hour, in replicas that a's divide (so a's pool can commit every count b's can).
bool dominates(const Candidate &a, const Candidate &b)
{
    if (a.gpu != b.gpu || b.replica % a.replica != 0)
        return false;
    for (size_t h = 0; h < 24; ++h) {
        if (a.need[h] > b.need[h])
            return false;
    }
    return true;
}

void Search::collectCandidates()
{
    const ScenarioInputs &in = m_request.inputs;
    const PortfolioOptions &o = m_request.options;
    if (in.workloads.size() > kMaxPlanWorkloads)
        throw InputError("workloads", "a plan covers at most " + std::to_string(kMaxPlanWorkloads)
                                          + " workloads at once (the workspace has " + std::to_string(in.workloads.size())
                                          + "): plan them in groups");
    const size_t total = in.workloads.size() * m_gpus.size();
    size_t done = 0;
    for (const WorkloadProfile &w : in.workloads) {
        const ModelSpec *model = findModel(in.models, w.modelId);
        if (!model) {
            m_result.unplaced.push_back("Workload \"" + w.name + "\" names model \"" + w.modelId
                                        + "\", which is not in the catalog.");
            done += m_gpus.size();
            continue;
        }
        std::vector<Candidate> found;
        std::string lastReason;
        for (size_t g = 0; g < m_gpus.size(); ++g) {
            checkProgress(0.4 * double(done++) / double(std::max<size_t>(total, 1)));
            const GpuSpec &gpu = *findGpu(in.gpus, m_gpus[g].id);
            for (const WeightPrecision weights : o.weights) {
                for (const KvPrecision kv : o.kv) {
                    if (o.ownPrecisions && (weights != w.weights || kv != w.kv))
                        continue;
                    for (const int tp : o.tps) {
                        for (const bool disaggregate : {false, true}) {
                            if (disaggregate && !o.disaggregate)
                                continue;
                            SizingOverrides overrides;
                            overrides.gpuId = gpu.id;
                            overrides.weights = weights;
                            overrides.kv = kv;
                            overrides.tp = tp;
                            overrides.disaggregate = disaggregate;
                            SizingResult r;
                            try {
                                r = sizeInference(w, *model, gpu, overrides, in.serving);
                            } catch (const InputError &e) {
                                lastReason = e.what();
                                continue;
                            }
                            ++m_result.candidates;
                            if (!r.feasible || r.gpus <= 0) {
                                lastReason = r.infeasibleReason;
                                continue;
                            }
                            Candidate c;
                            c.gpu = int(g);
                            c.replica = std::max(1, r.gpusPerReplica);
                            const std::array<double, 24> hourly = hourlyGpuNeed(w, double(r.gpus));
                            for (size_t h = 0; h < 24; ++h)
                                c.need[h] = int64_t(std::ceil(hourly[h] / double(c.replica) - kCeilTolerance)) * c.replica;
                            c.planned = planned(w, gpu.id, weights, kv, r);
                            c.planned.disaggregated = disaggregate;
                            c.planned.prefillGpus = r.prefillGpus.value_or(0);
                            c.planned.peakGpus = r.gpus;
                            found.push_back(std::move(c));
                        }
                    }
                }
            }
        }
        // Dominated deployments go; among equal ones the first (higher precision, smaller TP) stays.
        std::vector<Candidate> kept;
        for (size_t i = 0; i < found.size(); ++i) {
            bool dominated = false;
            for (size_t j = 0; j < found.size() && !dominated; ++j) {
                if (i == j || !dominates(found[j], found[i]))
                    continue;
                dominated = !dominates(found[i], found[j]) || j < i;
            }
            if (!dominated)
                kept.push_back(found[i]);
        }
        if (kept.empty()) {
            m_result.unplaced.push_back("Workload \"" + w.name + "\" meets its SLOs on none of the GPUs considered"
                                        + (lastReason.empty() ? std::string(".") : ": " + lastReason));
            continue;
        }
        m_workloads.push_back(&w);
        m_candidates.push_back(std::move(kept));
    }
}

void Search::collectJobs()
{
    m_jobsOf.assign(m_gpus.size(), {});
    for (const TrainingJobLoad &load : m_request.inputs.trainingJobs) {
        int gpu = -1;
        for (size_t g = 0; g < m_gpus.size(); ++g) {
            if (m_gpus[g].id == load.gpuId)
                gpu = int(g);
        }
        if (gpu < 0 || load.gpus <= 0 || !(load.gpuHours > 0)) {
            m_result.unplaced.push_back("Training job \"" + load.name + "\" runs on GPU \"" + load.gpuId
                                        + "\", which the rate card does not price or the options leave out.");
            continue;
        }
        if (m_jobsOf[size_t(gpu)].size() >= 16) {
            m_result.unplaced.push_back("Training job \"" + load.name + "\": at most 16 jobs per GPU type are planned.");
            continue;
        }
        Job job;
        job.load = &load;
        // Reserved, a job holds whole nodes: its GPUs rounded up to the node's.
        const GpuSpec *spec = findGpu(m_request.inputs.gpus, load.gpuId);
        const int64_t node = spec ? std::max(1, spec->gpusPerNode) : 1;
        job.reservedGpus = (load.gpus + node - 1) / node * node;
        job.runHours = std::min<int64_t>(
            m_hours, int64_t(std::ceil(load.gpuHours / double(load.gpus) - kCeilTolerance)));
        m_jobsOf[size_t(gpu)].push_back(int(m_jobs.size()));
        m_jobs.push_back(job);
    }
}

// For each GPU type that may pack, each workload's smallest slice whose one replica serves its
// peak at its SLOs, at the first precisions (in the options' order) that get there.
void Search::collectSlices()
{
    const PortfolioOptions &o = m_request.options;
    const ScenarioInputs &in = m_request.inputs;
    if (!o.packMig || o.maxCommittedShare < 1 || !m_request.settings.policy.packMigTenants)
        return;
    for (size_t g = 0; g < m_gpus.size(); ++g) {
        const GpuRates &rates = m_gpus[g];
        const auto table = std::find_if(in.migProfiles.begin(), in.migProfiles.end(),
                                        [&](const MigGpuProfiles &p) { return p.gpuId == rates.id; });
        if (rates.commitments.empty() || rates.cap >= 0 || table == in.migProfiles.end() || !checkProfiles(*table).empty())
            continue;
        const GpuSpec &gpu = *findGpu(in.gpus, rates.id);
        std::vector<const MigProfile *> sizes;  // smaller than the GPU, smallest first
        for (const MigProfile &p : table->profiles) {
            if (!p.mediaExtensions && (p.memorySlices < table->memorySlices || p.computeSlices < table->computeSlices))
                sizes.push_back(&p);
        }
        std::stable_sort(sizes.begin(), sizes.end(), [](const MigProfile *a, const MigProfile *b) {
            return std::make_pair(a->memorySlices, a->computeSlices) < std::make_pair(b->memorySlices, b->computeSlices);
        });
        SharedType type;
        type.gpu = int(g);
        type.profiles = &*table;
        type.gpuGiB = double(gpu.memoryBytes) / double(kGiB);
        type.slices.resize(m_workloads.size());
        for (size_t w = 0; w < m_workloads.size(); ++w) {
            const WorkloadProfile &workload = *m_workloads[w];
            const ModelSpec *model = findModel(in.models, workload.modelId);
            if (workload.workloadClass == WorkloadClass::FlagshipInteractive || !model)
                continue;
            for (const MigProfile *profile : sizes) {
                const GpuSpec slice = migSliceGpu(gpu, *table, *profile);
                for (const WeightPrecision weights : o.weights) {
                    for (const KvPrecision kv : o.kv) {
                        if (type.slices[w] || (o.ownPrecisions && (weights != workload.weights || kv != workload.kv)))
                            continue;
                        SizingOverrides overrides;
                        overrides.gpuId = gpu.id;
                        overrides.weights = weights;
                        overrides.kv = kv;
                        overrides.tp = 1;
                        SizingResult r;
                        try {
                            r = sizeInference(workload, *model, slice, overrides, in.serving);
                        } catch (const InputError &) {
                            continue;
                        }
                        ++m_result.candidates;
                        // One slice at its peak with the planned headroom kept free (the
                        // sizing's replicas round that headroom up to a whole second one).
                        const double need = r.peakUtilization * double(r.replicas);
                        if (!r.feasible || r.replicasNeeded != 1 || need * (1 + in.serving.plannedHeadroom) > 1)
                            continue;
                        WorkloadProfile deployed = workload;
                        deployed.weights = weights;
                        deployed.kv = kv;
                        deployed.tp = 1;
                        Slice found;
                        found.tenant = tenantForWorkload(deployed, *model);
                        if (found.tenant.memoryGiB > memoryGiB(*profile))
                            continue;
                        found.tenant.profile = profile->name;
                        found.planned = planned(workload, gpu.id, weights, kv, r);
                        found.planned.migProfile = profile->name;
                        type.slices[w] = std::move(found);
                        type.tenants |= 1u << w;
                    }
                }
                if (type.slices[w])
                    break;
            }
        }
        if (type.tenants != 0)
            m_shared.push_back(std::move(type));
    }
}

// The tenants of `set` packed as the scenario packs a MIG pool listing them in workload order.
PackResult Search::pack(const SharedType &type, uint32_t set) const
{
    std::vector<Tenant> tenants;
    for (size_t w = 0; w < m_workloads.size(); ++w) {
        if ((set >> w) & 1u)
            tenants.push_back(type.slices[w]->tenant);
    }
    return packTenants(*type.profiles, type.gpuGiB, tenants);
}

// The pools of GPU type `gpu` for the workloads of `set` (bits over m_workloads) and the type's
// jobs, each workload on its best candidate there: every combination of their candidates on the
// type is priced (dominance leaves few).
std::vector<GroupPrice> Search::priceGroup(int gpu, uint32_t set, const std::vector<double> &shares) const
{
    std::vector<GroupPrice> best(shares.size());
    std::vector<int> workloads;
    std::vector<std::vector<int>> options;
    for (size_t w = 0; w < m_workloads.size(); ++w) {
        if (!((set >> w) & 1u))
            continue;
        std::vector<int> here;
        for (size_t c = 0; c < m_candidates[w].size(); ++c) {
            if (m_candidates[w][c].gpu == gpu)
                here.push_back(int(c));
        }
        if (here.empty())
            return best;
        workloads.push_back(int(w));
        options.push_back(std::move(here));
    }
    // Every combination, the fewest GPU-hours first: the cheap ones priced early leave the
    // others little to search (priceWith stops where its bound passes the cheapest found).
    std::vector<std::pair<int64_t, std::vector<int>>> combinations;
    std::vector<size_t> digit(workloads.size(), 0);
    for (;;) {
        std::vector<int> chosen(workloads.size(), 0);
        int64_t gpuHours = 0;
        for (size_t i = 0; i < workloads.size(); ++i) {
            chosen[i] = options[i][digit[i]];
            const Candidate &c = m_candidates[size_t(workloads[i])][size_t(chosen[i])];
            gpuHours += std::accumulate(c.need.begin(), c.need.end(), int64_t(0));
        }
        combinations.emplace_back(gpuHours, std::move(chosen));
        size_t i = 0;
        while (i < digit.size() && ++digit[i] == options[i].size())
            digit[i++] = 0;
        if (i == digit.size())
            break;
    }
    std::stable_sort(combinations.begin(), combinations.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[gpuHours, chosen] : combinations)
        priceWith(gpu, workloads, chosen, shares, best);
    return best;
}

// The pools for chosen candidates: for each commitment and elastic tier, the committed count
// (whole replicas of the candidates' common size, up to each share's most) with the least cost,
// the overflow of each hour priced exactly as evaluateScenario routes it; the jobs each on the
// cheaper of a reservation and elastic GPUs; within the type's cap.
//
// The counts are searched exactly without pricing each: the cost is at least its fluid bound —
// the committed GPUs plus every GPU-hour above them at the elastic rate, the overflow's
// rounding to whole replicas left out — which is convex in the count. The search starts where
// the bound is least and prices counts outwards until the bound reaches the cheapest priced.
void Search::priceWith(int gpu, const std::vector<int> &workloads, const std::vector<int> &chosen,
                       const std::vector<double> &shares, std::vector<GroupPrice> &best) const
{
    const GpuRates &rates = m_gpus[size_t(gpu)];
    const std::vector<int> &jobs = m_jobsOf[size_t(gpu)];
    const double term = double(m_termHours);
    const double hours = double(m_hours);
    Day demand{};
    Day flagshipDemand{};
    std::vector<bool> flagship(workloads.size(), false);
    bool anyOther = !jobs.empty();
    int64_t replica = 0;
    for (size_t i = 0; i < workloads.size(); ++i) {
        const Candidate &c = m_candidates[size_t(workloads[i])][size_t(chosen[i])];
        flagship[i] = m_workloads[size_t(workloads[i])]->workloadClass == WorkloadClass::FlagshipInteractive;
        anyOther = anyOther || !flagship[i];
        for (size_t h = 0; h < 24; ++h) {
            demand[h] += c.need[h];
            if (flagship[i])
                flagshipDemand[h] += c.need[h];
        }
        replica = std::gcd(replica, c.replica);
    }
    replica = std::max<int64_t>(1, replica);
    // The elastic top: on-demand, or spot for all but the flagship workloads where spot is
    // offered, allowed and cheaper (the overflow is the same; only its rate differs).
    const double onDemandRate = rates.elasticRates[0];
    const bool split = rates.elastic.size() > 1 && rates.elasticRates[1] < onDemandRate && anyOther;
    const double otherRate = split ? rates.elasticRates[1] : onDemandRate;
    const int64_t peak = *std::max_element(demand.begin(), demand.end());
    std::vector<int64_t> mostOf(shares.size());
    for (size_t i = 0; i < shares.size(); ++i)
        mostOf[i] = rates.commitments.empty()
            ? 0
            : int64_t(std::floor(shares[i] * double(peak) + kCeilTolerance)) / replica * replica;

    // Elastic GPUs each hour of day at a committed count, in the on-demand pool (flagship
    // workloads, or all without a split) and the spot one, and their GPU-hours (memoised).
    struct Overflow {
        Day onDemand{};
        Day spot{};
        int64_t onDemandUsed = 0;
        int64_t spotUsed = 0;
    };
    const int64_t maxMost = *std::max_element(mostOf.begin(), mostOf.end());
    std::vector<int32_t> priced(size_t(maxMost / replica + 1), -1);  // index into overflows by count
    std::deque<Overflow> overflows;                                    // the few counts priced
    std::vector<const Candidate *> candidates(workloads.size());
    for (size_t i = 0; i < workloads.size(); ++i)
        candidates[i] = &m_candidates[size_t(workloads[i])][size_t(chosen[i])];
    const auto overflowAt = [&](int64_t committed) -> const Overflow & {
        int32_t &at = priced[size_t(committed / replica)];
        if (at >= 0)
            return overflows[size_t(at)];
        at = int32_t(overflows.size());
        Overflow &o = overflows.emplace_back();
        for (size_t h = 0; h < 24; ++h) {
            const int64_t d = demand[h];
            const int64_t over = d - std::min(d, committed);
            int64_t onDemand = 0;
            int64_t spot = 0;
            if (committed == 0) {
                onDemand = split ? flagshipDemand[h] : d;
                spot = split ? d - flagshipDemand[h] : 0;
            } else if (over > 0) {
                // Each workload's share of the overflow, over × need ÷ demand, in whole replicas
                // rounded up: in integers, the exact ceiling the evaluation's rounding gives.
                for (size_t i = 0; i < workloads.size(); ++i) {
                    const Candidate &c = *candidates[i];
                    const int64_t unit = d * c.replica;
                    const int64_t there = (over * c.need[h] + unit - 1) / unit * c.replica;
                    (split && !flagship[i] ? spot : onDemand) += there;
                }
            }
            o.onDemand[h] = onDemand;
            o.spot[h] = spot;
            o.onDemandUsed += o.onDemand[h] * m_hourCount[h];
            o.spotUsed += o.spot[h] * m_hourCount[h];
        }
        return o;
    };
    // The elastic cost above a committed count without rounding: the hours by demand, most
    // first, each with its evaluated hours × the blended rate of its overflow, and running sums.
    std::array<std::pair<int64_t, double>, 24> levels;  // (demand, hours × rate)
    for (size_t h = 0; h < 24; ++h) {
        const double d = double(demand[h]);
        const double rate = d > 0 ? (onDemandRate * double(flagshipDemand[h]) + otherRate * (d - double(flagshipDemand[h]))) / d
                                  : onDemandRate;
        levels[h] = {demand[h], double(m_hourCount[h]) * (split ? rate : onDemandRate)};
    }
    std::sort(levels.begin(), levels.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
    std::array<double, 25> weightAbove{}, weightedAbove{};
    for (size_t h = 0; h < 24; ++h) {
        weightAbove[h + 1] = weightAbove[h] + levels[h].second;
        weightedAbove[h + 1] = weightedAbove[h] + double(levels[h].first) * levels[h].second;
    }
    const auto fluidCost = [&](int64_t committed) {
        size_t k = 0;
        while (k < 24 && levels[k].first > committed)
            ++k;
        return (weightedAbove[k] - double(committed) * weightAbove[k]) * term / hours;
    };

    // Jobs: each on the cheaper of its best reservation and elastic GPUs while it runs.
    double jobsCost = 0;
    uint32_t reservedJobs = 0;
    std::vector<int> jobTiers;
    int64_t reservedGpus = 0;
    int64_t jobHours = 0;
    Day jobsAtHour{};
    for (size_t j = 0; j < jobs.size(); ++j) {
        const Job &job = m_jobs[size_t(jobs[j])];
        const double elasticCost = otherRate * double(job.load->gpus * job.runHours) * term / hours;
        double reservedCost = kInfinity;
        int tier = -1;
        for (size_t t = 0; t < rates.commitments.size(); ++t) {
            const double c = rates.commitmentRates[t] * double(job.reservedGpus) * term;
            if (c < reservedCost) {
                reservedCost = c;
                tier = int(t);
            }
        }
        if (reservedCost < elasticCost) {
            reservedJobs |= 1u << j;
            jobTiers.push_back(tier);
            reservedGpus += job.reservedGpus;
            jobsCost += reservedCost;
        } else {
            jobHours += job.load->gpus * job.runHours;
            jobsCost += elasticCost;
            for (size_t h = 0; h < 24 && int64_t(h) < job.runHours; ++h)
                jobsAtHour[h] += job.load->gpus;
        }
    }
    const size_t commitmentCount = std::max<size_t>(1, rates.commitments.size());
    for (size_t k = 0; k < commitmentCount; ++k) {
        const double committedRate = rates.commitments.empty() ? 0 : rates.commitmentRates[k];
        const auto bound = [&](int64_t committed) {
            return committedRate * double(committed) * term + fluidCost(committed) + jobsCost;
        };
        const auto consider = [&](int64_t committed) {
            const Overflow &o = overflowAt(committed);
            const double cost = committedRate * double(committed) * term
                                + (onDemandRate * double(o.onDemandUsed) + otherRate * double(o.spotUsed)) * term / hours
                                + jobsCost;
            int64_t held = 0;
            for (size_t h = 0; h < 24 && int64_t(h) < m_hours; ++h)
                held = std::max(held, o.onDemand[h] + o.spot[h] + jobsAtHour[h]);
            held += committed + reservedGpus;
            if (rates.cap >= 0 && held > rates.cap)
                return;
            for (size_t i = 0; i < shares.size(); ++i) {
                if (committed > mostOf[i] || !(cost < best[i].cost))
                    continue;
                GroupPrice &b = best[i];
                b.cost = cost;
                b.candidates = chosen;
                b.commitment = committed > 0 ? int(k) : -1;
                b.split = split;
                b.committedGpus = committed;
                b.onDemandGpuHours = o.onDemandUsed + (split ? 0 : jobHours);
                b.spotGpuHours = o.spotUsed + (split ? jobHours : 0);
                b.peakHeld = held;
                b.reservedJobs = reservedJobs;
                b.jobTiers = jobTiers;
            }
        };
        // The least bound over 0, replica, …: the first count whose next step raises it (the
        // bound is convex), and for each share the nearest count it allows.
        int64_t low = 0, high = maxMost / replica;
        while (low < high) {
            const int64_t mid = (low + high) / 2;
            if (bound((mid + 1) * replica) >= bound(mid * replica))
                high = mid;
            else
                low = mid + 1;
        }
        // A share whose most lies beyond every count the walk from the least bound priced
        // has the same optimum as the walk: it is walked once.
        int64_t walkedTo = -1;
        for (size_t i = 0; i < shares.size(); ++i) {
            const int64_t start = std::min(low * replica, mostOf[i]);
            if (walkedTo >= 0 && start == low * replica && mostOf[i] >= walkedTo)
                continue;
            for (int64_t r = start; r >= 0 && bound(r) < best[i].cost; r -= replica)
                consider(r);
            int64_t r = start + replica;
            for (; r <= mostOf[i] && bound(r) < best[i].cost; r += replica)
                consider(r);
            if (start == low * replica && r <= mostOf[i])
                walkedTo = std::max(walkedTo, r);
        }
    }
}

void Search::priceGroups()
{
    const size_t sets = size_t(1) << m_workloads.size();
    m_shares = {m_request.options.maxCommittedShare};
    for (int step = 0; step <= kFrontSteps; ++step)
        m_shares.push_back(std::min(m_request.options.maxCommittedShare, double(step) / kFrontSteps));
    m_groupCost.assign(m_shares.size(), std::vector<std::vector<double>>(m_gpus.size() + m_shared.size(),
                                                                          std::vector<double>(sets, kInfinity)));
    const unsigned threads = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    std::vector<int64_t> priced(threads, 0);
    for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            for (size_t g = t; g < m_gpus.size(); g += threads) {
                for (size_t set = 0; set < sets; ++set) {
                    // A set with a workload that has no candidate on the type stays out.
                    bool possible = true;
                    for (size_t w = 0; w < m_workloads.size() && possible; ++w) {
                        if ((set >> w) & 1u)
                            possible = std::any_of(m_candidates[w].begin(), m_candidates[w].end(),
                                                   [&](const Candidate &c) { return c.gpu == int(g); });
                    }
                    if (!possible)
                        continue;
                    const std::vector<GroupPrice> prices = priceGroup(int(g), uint32_t(set), m_shares);
                    for (size_t i = 0; i < m_shares.size(); ++i)
                        m_groupCost[i][g][set] = prices[i].cost;
                    ++priced[t];
                }
            }
        });
    }
    for (std::thread &t : pool)
        t.join();
    m_result.groupsPriced = std::accumulate(priced.begin(), priced.end(), int64_t(0));
    // MIG pools: committed for the term (only where every share allows a full commitment).
    for (size_t t = 0; t < m_shared.size(); ++t) {
        const SharedType &type = m_shared[t];
        const double rate = m_gpus[size_t(type.gpu)].commitmentRates.front();
        std::vector<double> &cost = m_groupCost.front()[m_gpus.size() + t];
        for (uint32_t set = type.tenants;; set = (set - 1) & type.tenants) {
            if (set == 0) {
                cost[0] = 0;
                break;
            }
            const PackResult packed = pack(type, set);
            cost[set] = rate * double(packed.gpus) * double(m_termHours);
            ++m_packs;
            m_packsProven += packed.optimal ? 1 : 0;
        }
        for (size_t i = 1; i < m_shares.size(); ++i) {
            if (m_shares[i] >= 1)
                m_groupCost[i][m_gpus.size() + t] = cost;
            else
                m_groupCost[i][m_gpus.size() + t][0] = 0;
        }
    }
}

// The pools' costs at share `share`, MIG pools included where the plan packs.
std::vector<std::vector<double>> Search::costsAt(size_t share) const
{
    const auto &costs = m_groupCost[share];
    return m_pack ? costs : std::vector<std::vector<double>>(costs.begin(), costs.begin() + std::ptrdiff_t(m_gpus.size()));
}

// The cheapest split of all workloads over the GPU types, each type's set priced by `costs`;
// `allowed[w]` masks the types workload w may take. F[g][mask]: the cheapest way to serve the
// workloads of mask on types 0..g.
Search::Assignment Search::assign(const std::vector<std::vector<double>> &costs,
                                  const std::vector<uint32_t> &allowed) const
{
    const size_t n = m_workloads.size();
    const size_t sets = size_t(1) << n;
    const size_t types = costs.size();
    const uint32_t all = uint32_t(sets - 1);
    std::vector<uint32_t> onType(types, 0);  // workloads allowed on each type
    for (size_t w = 0; w < n; ++w) {
        for (size_t g = 0; g < types; ++g) {
            if ((allowed[w] >> g) & 1u)
                onType[g] |= 1u << w;
        }
    }
    std::vector<std::vector<double>> best(types + 1, std::vector<double>(sets, kInfinity));
    std::vector<std::vector<uint32_t>> pick(types + 1, std::vector<uint32_t>(sets, 0));
    best[0][0] = 0;
    for (size_t g = 0; g < types; ++g) {
        // Each type also carries its jobs, whatever the workloads (the empty set).
        for (uint32_t mask = 0; mask <= all; ++mask) {
            const uint32_t mine = mask & onType[g];
            for (uint32_t sub = mine;; sub = (sub - 1) & mine) {
                const double before = best[g][mask & ~sub];
                const double here = costs[g][sub];
                if (before + here < best[g + 1][mask]) {
                    best[g + 1][mask] = before + here;
                    pick[g + 1][mask] = sub;
                }
                if (sub == 0)
                    break;
            }
        }
    }
    Assignment out;
    out.cost = best[types][all];
    if (!(out.cost < kInfinity))
        return out;
    out.sets.assign(types, 0);
    uint32_t mask = all;
    for (size_t g = types; g > 0; --g) {
        out.sets[g - 1] = pick[g][mask];
        mask &= ~pick[g][mask];
    }
    return out;
}

std::string poolName(const std::string &gpuId, const char *what)
{
    return gpuId + " " + what;
}

PlanOption Search::optionFor(const Assignment &assignment, double maxShare) const
{
    PlanOption option;
    Scenario &s = option.scenario;
    s = m_request.settings;
    s.pools.clear();
    if (s.name.empty())
        s.name = "plan";
    const std::string currency = m_gpus.front().currency;
    option.costOverTerm = Money{Decimal(), currency};
    const Decimal term = Decimal::fromInt(m_termHours);
    const Decimal hours = Decimal::fromInt(m_hours);
    double committedHours = 0;
    double heldHours = 0;
    option.latencyMargin = kInfinity;
    std::vector<const PlannedWorkload *> chosenOf(m_workloads.size(), nullptr);
    for (size_t g = 0; g < m_gpus.size(); ++g) {
        const uint32_t set = assignment.sets[g];
        if (set == 0 && m_jobsOf[g].empty())
            continue;
        const GpuRates &rates = m_gpus[g];
        const GroupPrice price = priceGroup(int(g), set, {maxShare}).front();
        std::vector<int> workloads;
        for (size_t w = 0; w < m_workloads.size(); ++w) {
            if ((set >> w) & 1u)
                workloads.push_back(int(w));
        }
        PlannedPool planned;
        planned.gpuId = rates.id;
        planned.elastic = price.split ? PoolTier::Spot : PoolTier::OnDemand;
        planned.committedGpus = price.committedGpus;
        planned.peakGpus = price.peakHeld;
        planned.elasticGpuHours = price.onDemandGpuHours + price.spotGpuHours;
        planned.spotGpuHours = price.spotGpuHours;
        planned.costOverTerm = Money{Decimal(), currency};
        std::vector<PoolDeployment> deployments;
        for (size_t i = 0; i < workloads.size(); ++i) {
            const Candidate &c = m_candidates[size_t(workloads[i])][size_t(price.candidates[i])];
            chosenOf[size_t(workloads[i])] = &c.planned;
            planned.workloads.push_back(c.planned.workload);
            deployments.push_back({c.planned.workload, c.planned.weights, c.planned.kv, c.planned.tp, {},
                                   c.planned.disaggregated});
        }
        if (price.committedGpus > 0) {
            const auto &[tier, rate] = rates.commitments[size_t(price.commitment)];
            planned.commitment = tier;
            Pool pool;
            pool.name = poolName(rates.id, "committed");
            pool.gpuId = rates.id;
            pool.sizing = PoolSizing::Fixed;
            pool.gpus = price.committedGpus;
            pool.tier = tier;
            pool.workloads = planned.workloads;
            pool.deployments = deployments;
            s.pools.push_back(pool);
            planned.costOverTerm += rate * Decimal::fromInt(price.committedGpus * m_termHours);
            committedHours += double(price.committedGpus) * double(m_hours);
        }
        // Reserved jobs: a pool each, held for the term.
        std::vector<std::string> elasticJobs;
        size_t reservedIndex = 0;
        for (size_t j = 0; j < m_jobsOf[g].size(); ++j) {
            const Job &job = m_jobs[size_t(m_jobsOf[g][j])];
            PlannedJob pj;
            pj.job = job.load->name;
            pj.gpuId = rates.id;
            pj.gpus = job.load->gpus;
            pj.runHours = job.runHours;
            pj.reserved = (price.reservedJobs >> j) & 1u;
            if (pj.reserved) {
                const auto &[tier, rate] = rates.commitments[size_t(price.jobTiers[reservedIndex++])];
                pj.tier = tier;
                pj.gpus = job.reservedGpus;
                pj.costOverTerm = rate * Decimal::fromInt(job.reservedGpus * m_termHours);
                Pool pool;
                pool.name = job.load->name + " reserved";
                pool.gpuId = rates.id;
                pool.sizing = PoolSizing::Fixed;
                pool.gpus = job.reservedGpus;
                pool.tier = tier;
                pool.trainingJobs = {job.load->name};
                s.pools.push_back(pool);
                committedHours += double(job.reservedGpus) * double(m_hours);
            } else {
                const Money &rate = rates.elastic[price.split ? 1 : 0].second;
                pj.tier = planned.elastic;
                pj.costOverTerm = Money{rate.amount * Decimal::fromInt(job.load->gpus * job.runHours) * term / hours,
                                        currency};
                elasticJobs.push_back(job.load->name);
            }
            option.jobs.push_back(pj);
        }
        // The elastic top: one on-demand pool, or the flagship workloads' on-demand and the
        // others' (and the elastic jobs') on spot.
        std::vector<std::string> onDemandWorkloads, spotWorkloads;
        std::vector<PoolDeployment> onDemandDeployments, spotDeployments;
        for (size_t i = 0; i < workloads.size(); ++i) {
            const bool flagship = m_workloads[size_t(workloads[i])]->workloadClass == WorkloadClass::FlagshipInteractive;
            const bool spot = price.split && !flagship;
            (spot ? spotWorkloads : onDemandWorkloads).push_back(planned.workloads[i]);
            (spot ? spotDeployments : onDemandDeployments).push_back(deployments[i]);
        }
        const auto elasticPool = [&](size_t e, const std::vector<std::string> &names,
                                     const std::vector<PoolDeployment> &deployed, const std::vector<std::string> &jobs,
                                     int64_t gpuHours) {
            if (names.empty() && jobs.empty())
                return;
            const auto &[tier, rate] = rates.elastic[e];
            Pool pool;
            pool.name = poolName(rates.id, tier == PoolTier::Spot ? "spot" : "on-demand");
            pool.gpuId = rates.id;
            pool.sizing = PoolSizing::Auto;
            pool.tier = tier;
            pool.workloads = names;
            pool.trainingJobs = jobs;
            pool.deployments = deployed;
            s.pools.push_back(pool);
            planned.costOverTerm += Money{rate.amount * Decimal::fromInt(gpuHours) * term / hours, currency};
        };
        elasticPool(0, onDemandWorkloads, onDemandDeployments, price.split ? std::vector<std::string>{} : elasticJobs,
                    price.onDemandGpuHours);
        if (price.split)
            elasticPool(1, spotWorkloads, spotDeployments, elasticJobs, price.spotGpuHours);
        heldHours += double(planned.elasticGpuHours);
        option.peakGpus += price.peakHeld;
        option.costOverTerm += planned.costOverTerm;
        for (const PlannedJob &pj : option.jobs) {
            if (pj.reserved && pj.gpuId == rates.id)
                option.costOverTerm += pj.costOverTerm;
        }
        if (!planned.workloads.empty())
            option.pools.push_back(planned);
    }
    // The packed tenants: a committed MIG pool per type, as many GPUs as their packing takes.
    for (size_t t = 0; m_gpus.size() + t < assignment.sets.size(); ++t) {
        const uint32_t set = assignment.sets[m_gpus.size() + t];
        if (set == 0)
            continue;
        const SharedType &type = m_shared[t];
        const GpuRates &rates = m_gpus[size_t(type.gpu)];
        const auto &[tier, rate] = rates.commitments.front();
        const int64_t gpus = pack(type, set).gpus;
        PlannedPool planned;
        planned.gpuId = rates.id;
        planned.mig = true;
        planned.commitment = tier;
        planned.committedGpus = gpus;
        planned.peakGpus = gpus;
        planned.costOverTerm = rate * Decimal::fromInt(gpus * m_termHours);
        Pool pool;
        pool.name = poolName(rates.id, "MIG");
        pool.gpuId = rates.id;
        pool.sizing = PoolSizing::Fixed;
        pool.gpus = gpus;
        pool.tier = tier;
        pool.partitioning = Partitioning::Mig;
        for (size_t w = 0; w < m_workloads.size(); ++w) {
            if (!((set >> w) & 1u))
                continue;
            const PlannedWorkload &p = type.slices[w]->planned;
            chosenOf[w] = &p;
            planned.workloads.push_back(p.workload);
            pool.workloads.push_back(p.workload);
            pool.deployments.push_back({p.workload, p.weights, p.kv, p.tp, p.migProfile, false});
        }
        s.pools.push_back(pool);
        committedHours += double(gpus) * double(m_hours);
        option.peakGpus += gpus;
        option.costOverTerm += planned.costOverTerm;
        option.pools.push_back(planned);
    }
    heldHours += committedHours;
    option.committedShare = heldHours > 0 ? committedHours / heldHours : 0;
    option.committedGpuHours = committedHours;
    option.heldGpuHours = heldHours;
    for (size_t w = 0; w < m_workloads.size(); ++w) {
        if (!chosenOf[w])
            continue;
        option.workloads.push_back(*chosenOf[w]);
        option.latencyMargin = std::min(option.latencyMargin, chosenOf[w]->latencyMargin);
    }
    if (!(option.latencyMargin < kInfinity))
        option.latencyMargin = 0;
    return option;
}

double Search::lowerBound() const
{
    const double term = double(m_termHours);
    const double hours = double(m_hours);
    // The cheapest rate a GPU-hour of type g can be had at: its commitment, on demand, or spot
    // where allowed (never a flagship's).
    const auto cheapest = [&](size_t g, bool spotAllowed) {
        const GpuRates &rates = m_gpus[g];
        double rate = rates.elasticRates.front();
        for (const double r : rates.commitmentRates)
            rate = std::min(rate, r);
        if (spotAllowed && rates.elasticRates.size() > 1)
            rate = std::min(rate, rates.elasticRates[1]);
        return rate;
    };
    double bound = 0;
    for (size_t w = 0; w < m_workloads.size(); ++w) {
        const bool flagship = m_workloads[w]->workloadClass == WorkloadClass::FlagshipInteractive;
        double least = kInfinity;
        for (const Candidate &c : m_candidates[w]) {
            double gpuHours = 0;
            for (size_t h = 0; h < 24; ++h)
                gpuHours += double(c.need[h]) * double(m_hourCount[h]);
            least = std::min(least, gpuHours * cheapest(size_t(c.gpu), !flagship) * term / hours);
        }
        // On a slice: at least its share of a GPU's compute slices, committed for the term.
        for (const SharedType &type : m_shared) {
            if (!type.slices[w])
                continue;
            const MigProfile *profile = type.profiles->find(type.slices[w]->tenant.profile);
            const GpuRates &rates = m_gpus[size_t(type.gpu)];
            if (!profile || rates.commitmentRates.empty())
                continue;
            const double share = double(profile->computeSlices) / double(type.profiles->computeSlices);
            least = std::min(least, share * *std::min_element(rates.commitmentRates.begin(), rates.commitmentRates.end())
                                        * term);
        }
        if (least < kInfinity)
            bound += least;
    }
    for (size_t g = 0; g < m_gpus.size(); ++g) {
        for (const int j : m_jobsOf[g]) {
            const Job &job = m_jobs[size_t(j)];
            double least = cheapest(g, true) * double(job.load->gpus * job.runHours) * term / hours;
            for (const double r : m_gpus[g].commitmentRates)
                least = std::min(least, r * double(job.reservedGpus) * term);
            bound += least;
        }
    }
    return bound;
}

std::string deploymentText(const PlannedWorkload &w)
{
    if (!w.migProfile.empty())
        return "a MIG " + w.migProfile + " slice of " + w.gpuId + " (" + std::string(toString(w.weights)) + " weights, "
               + std::string(toString(w.kv)) + " KV)";
    return w.gpuId + " (" + std::string(toString(w.weights)) + " weights, " + std::string(toString(w.kv))
           + " KV, TP " + std::to_string(w.tp) + ": " + explain::grouped(w.peakGpus) + " GPUs at peak"
           + (w.disaggregated ? ", " + explain::grouped(w.prefillGpus) + " of them for prefill" : std::string()) + ")";
}

std::string poolText(const PlannedPool &p)
{
    return p.gpuId + (p.mig ? " MIG pool" : " pools");
}

// The winner against the runner-up, workload by workload and pool by pool.
std::vector<std::string> whyBetter(const PlanOption &best, const PlanOption &other)
{
    std::vector<std::string> why;
    const Money saving = other.costOverTerm - best.costOverTerm;
    why.push_back("The plan costs " + best.costOverTerm.display() + " over the term, " + saving.display()
                  + " less than the runner-up (" + other.costOverTerm.display() + ").");
    for (const PlannedWorkload &o : movedWorkloads(best, other)) {
        const auto w = std::find_if(best.workloads.begin(), best.workloads.end(),
                                    [&](const PlannedWorkload &x) { return x.workload == o.workload; });
        if (w != best.workloads.end())
            why.push_back("Workload \"" + w->workload + "\" runs on " + deploymentText(*w)
                          + "; the runner-up puts it on " + deploymentText(o) + ".");
    }
    const auto same = [](const PlannedPool &a, const PlannedPool &b) { return a.gpuId == b.gpuId && a.mig == b.mig; };
    for (const PlannedPool &p : best.pools) {
        const auto there = std::find_if(other.pools.begin(), other.pools.end(),
                                        [&](const PlannedPool &o) { return same(o, p); });
        const Money otherCost = there != other.pools.end() ? there->costOverTerm : Money{Decimal(), p.costOverTerm.currency};
        why.push_back("Its " + poolText(p) + " cost" + (p.mig ? "s " : " ") + p.costOverTerm.display() + " ("
                      + explain::grouped(p.committedGpus) + " committed GPUs, " + explain::grouped(p.elasticGpuHours)
                      + " elastic GPU-hours a year) against " + otherCost.display() + " in the runner-up.");
    }
    for (const PlannedPool &o : other.pools) {
        const bool shared = std::any_of(best.pools.begin(), best.pools.end(), [&](const PlannedPool &p) { return same(p, o); });
        if (!shared)
            why.push_back("The runner-up also pays " + o.costOverTerm.display() + " for the " + poolText(o)
                          + " the plan does without.");
    }
    return why;
}

PlanResult Search::run()
{
    collectRates();
    collectCandidates();
    collectJobs();
    collectSlices();
    checkProgress(0.4);
    const size_t n = m_workloads.size();
    const size_t types = m_gpus.size() + m_shared.size();
    if (types > 31)
        throw InputError("options.gpu_ids", "a plan compares at most 31 pool kinds at once (GPU types and their MIG "
                                            "pools; got " + std::to_string(types) + ")");
    priceGroups();
    checkProgress(0.7);
    // Every workload may take every GPU type, and a MIG pool where it has a slice.
    std::vector<uint32_t> everywhere(n, uint32_t((uint64_t(1) << m_gpus.size()) - 1));
    for (size_t t = 0; t < m_shared.size(); ++t) {
        for (size_t w = 0; w < n; ++w) {
            if ((m_shared[t].tenants >> w) & 1u)
                everywhere[w] |= 1u << (m_gpus.size() + t);
        }
    }
    const PortfolioOptions &o = m_request.options;
    Assignment best = assign(costsAt(0), everywhere);
    if (!o.packMig)
        m_result.packing = "Small tenants are not packed onto MIG slices: packing is switched off.";
    else if (o.maxCommittedShare < 1)
        m_result.packing = "Small tenants are not packed onto MIG slices: a packed pool is committed for the term, "
                           "and the committed share is held below 100 %.";
    else if (m_shared.empty())
        m_result.packing = "No workload is packed onto MIG slices: none but the flagships (never packed) has a slice "
                           "that serves its peak at its SLOs, on a GPU type with MIG profiles, a commitment in the "
                           "horizon and no cap.";
    else {
        const int64_t fleet = best.cost < kInfinity ? optionFor(best, o.maxCommittedShare).peakGpus
                                                    : std::numeric_limits<int64_t>::max();
        if (fleet < o.packMinFleetGpus) {
            m_result.packing = "Small tenants are not packed onto MIG slices: without packing the fleet holds "
                               + explain::grouped(fleet) + " GPUs at its peak, fewer than the "
                               + explain::grouped(o.packMinFleetGpus) + " below which packing costs more to run than it saves.";
        } else {
            m_pack = true;
            best = assign(costsAt(0), everywhere);
        }
    }
    if (!(best.cost < kInfinity))
        throw InputError("options.caps", "no plan serves every workload within the GPU caps");
    const std::vector<std::vector<double>> costs = costsAt(0);
    m_result.best = optionFor(best, m_request.options.maxCommittedShare);
    if (m_pack) {
        int64_t packed = 0;
        for (const PlannedWorkload &w : m_result.best.workloads)
            packed += w.migProfile.empty() ? 0 : 1;
        m_result.packing = packed == 0
            ? "No workload is packed onto MIG slices: whole GPUs serve every candidate tenant for less."
            : explain::grouped(packed) + (packed == 1 ? " workload is" : " workloads are")
                  + " packed onto MIG slices of committed GPUs, each on the smallest slice whose one replica serves its "
                    "peak at its SLOs.";
    }
    m_result.method = "Exact: " + explain::grouped(m_result.candidates) + " deployments sized, dominated ones dropped, "
                      + explain::grouped(m_result.groupsPriced)
                      + " (GPU type, workload set) pools priced exactly (committed counts searched out from the least of "
                        "a convex lower bound until it passes the cheapest)"
                      + (m_pack ? ", " + explain::grouped(m_packs) + " MIG packings of tenant sets ("
                                      + (m_packsProven == m_packs ? std::string("each proven fewest GPUs")
                                                                  : explain::grouped(m_packsProven) + " proven fewest GPUs")
                                      + ")"
                                : std::string())
                      + ", and a dynamic programme over " + std::to_string(costs.size())
                      + (costs.size() == 1 ? " pool kind × " : " pool kinds × ")
                      + explain::grouped(int64_t(1) << n) + " workload sets; the optimum over this space, gap 0"
                      + (m_pack && m_packsProven < m_packs ? " but for the packings not proven fewest." : ".");
    // Whole cents down, so that it stays a bound.
    const Decimal::Units cent = Decimal::fromDouble(0.01).units();
    m_result.lowerBound = Money{Decimal::fromUnits(Decimal::fromDouble(lowerBound()).units() / cent * cent),
                                m_result.best.costOverTerm.currency};
    checkProgress(0.8);

    // Runners-up: the best plan with one workload off the winner's GPU for it.
    std::vector<std::pair<double, Assignment>> others;
    for (size_t w = 0; w < n; ++w) {
        std::vector<uint32_t> allowed = everywhere;
        for (size_t g = 0; g < best.sets.size(); ++g) {
            if ((best.sets[g] >> w) & 1u)
                allowed[w] &= ~(1u << g);
        }
        const Assignment other = assign(costs, allowed);
        if (other.cost < kInfinity
            && std::none_of(others.begin(), others.end(), [&](const auto &o) { return o.second.sets == other.sets; }))
            others.emplace_back(other.cost, other);
    }
    std::sort(others.begin(), others.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t i = 0; i < others.size() && int(i) < m_request.options.alternatives; ++i)
        m_result.runnersUp.push_back(optionFor(others[i].second, m_request.options.maxCommittedShare));
    if (!m_result.runnersUp.empty())
        m_result.why = whyBetter(m_result.best, m_result.runnersUp.front());
    else
        m_result.why.push_back("No other GPU type serves these workloads within the options: the plan is the only one.");
    checkProgress(0.85);

    // The front: the cheapest plan at each most committed share of the pools' peaks.
    for (size_t i = 1; i < m_shares.size(); ++i) {
        if (i > 1 && m_shares[i] == m_shares[i - 1])
            break;
        const Assignment point = assign(costsAt(i), everywhere);
        if (point.cost < kInfinity) {
            const PlanOption option = optionFor(point, m_shares[i]);
            m_result.front.push_back(
                {m_shares[i], option.committedShare, option.costOverTerm, option.committedGpuHours, option.heldGpuHours});
        }
        checkProgress(0.85 + 0.15 * double(i) / double(m_shares.size()));
    }
    return m_result;
}

// The MIG pools one GPU type has in several blocks, as one pool packing all their tenants, where
// that takes fewer GPUs; priced by evaluating the scenario, as every plan is.
void mergeMigPools(PlanOption &option, const PlanRequest &request)
{
    std::map<std::string, std::vector<size_t>> byGpu; // scenario pools that are MIG pools, per GPU
    for (size_t p = 0; p < option.scenario.pools.size(); ++p) {
        if (option.scenario.pools[p].partitioning == Partitioning::Mig)
            byGpu[option.scenario.pools[p].gpuId].push_back(p);
    }
    for (const auto &[gpu, indices] : byGpu) {
        if (indices.size() < 2)
            continue;
        Scenario merged = option.scenario;
        Pool &into = merged.pools[indices.front()];
        int64_t before = 0;
        for (const size_t p : indices) {
            before += option.scenario.pools[p].gpus;
            if (p == indices.front())
                continue;
            const Pool &from = option.scenario.pools[p];
            into.workloads.insert(into.workloads.end(), from.workloads.begin(), from.workloads.end());
            into.deployments.insert(into.deployments.end(), from.deployments.begin(), from.deployments.end());
        }
        into.gpus = before;
        const std::string name = into.name;
        for (auto p = indices.rbegin(); p + 1 != indices.rend(); ++p)
            merged.pools.erase(merged.pools.begin() + ptrdiff_t(*p));
        const auto poolOf = [&](const ScenarioResult &r) {
            return std::find_if(r.pools.begin(), r.pools.end(), [&](const PoolResult &x) { return x.name == name; });
        };
        const ScenarioResult packed = evaluateScenario(merged, request.inputs);
        const auto probe = poolOf(packed);
        if (probe == packed.pools.end() || probe->peakNeedGpus <= 0 || probe->peakNeedGpus >= before
            || probe->unservedGpuHours > 0)
            continue;
        const int64_t gpus = probe->peakNeedGpus;
        std::find_if(merged.pools.begin(), merged.pools.end(), [&](const Pool &x) { return x.name == name; })->gpus = gpus;
        const ScenarioResult result = evaluateScenario(merged, request.inputs);
        const auto pool = poolOf(result);
        if (pool == result.pools.end() || pool->unservedGpuHours > 0 || !(result.costOverTerm.amount < option.costOverTerm.amount))
            continue;
        // The planned pools follow: the first of the type takes every tenant, the others go.
        PlannedPool *first = nullptr;
        std::vector<PlannedPool> pools;
        for (PlannedPool &planned : option.pools) {
            if (!planned.mig || planned.gpuId != gpu) {
                pools.push_back(planned);
                continue;
            }
            if (!first) {
                pools.push_back(planned);
                first = &pools.back();
                first->workloads.clear();
            }
        }
        for (const PlannedPool &planned : option.pools) {
            if (planned.mig && planned.gpuId == gpu)
                first->workloads.insert(first->workloads.end(), planned.workloads.begin(), planned.workloads.end());
        }
        first->committedGpus = gpus;
        first->peakGpus = gpus;
        first->costOverTerm = pool->costOverTerm;
        const double freed = double(before - gpus) * double(request.inputs.hours);
        option.pools = std::move(pools);
        option.scenario = merged;
        option.costOverTerm = result.costOverTerm;
        option.peakGpus -= before - gpus;
        option.committedGpuHours -= freed;
        option.heldGpuHours -= freed;
        option.committedShare = option.heldGpuHours > 0 ? option.committedGpuHours / option.heldGpuHours : 0;
    }
}

// More workloads than one exact search covers (kMaxPlanWorkloads): each workload planned alone
// (unpacked) for the GPU type it is cheapest on; the workloads grouped by that type, the groups
// laid into blocks of at most kMaxPlanWorkloads (a group kept whole where it fits); each block
// planned exactly; the blocks' plans side by side. Workloads of different blocks never share a
// pool, so the result is exact within the blocks but not over the whole space: the method says
// so, and how far the plan can be from a lower bound (every workload's cheapest GPU-hours at
// its GPU type's cheapest rate, as if commitments cost nothing off its peak).
PlanResult planInBlocks(const PlanRequest &request, const std::function<bool(double)> &progress)
{
    const PortfolioOptions &o = request.options;
    const size_t n = request.inputs.workloads.size();
    if (!o.caps.empty())
        throw InputError("options.caps", "GPU caps bound the whole fleet at once: a plan with caps covers at most "
                                             + std::to_string(kMaxPlanWorkloads) + " workloads (got "
                                             + std::to_string(n) + ")");
    const auto report = [&](double fraction) {
        if (progress && !progress(fraction))
            throw PlanCancelled{};
    };

    // Each workload alone: its cheapest GPU type, cost and peak.
    struct Solo {
        size_t index = 0;
        std::string gpu;                    // empty: no deployment serves it
        double cost = 0;
        int64_t peak = 0;
    };
    std::vector<Solo> solos;
    int64_t soloPeaks = 0;
    const std::function<bool(double)> none;
    for (size_t i = 0; i < n; ++i) {
        PlanRequest one = request;
        one.inputs.workloads = {request.inputs.workloads[i]};
        one.inputs.trainingJobs.clear();
        one.options.packMig = false;
        one.options.alternatives = 0;
        Solo solo;
        solo.index = i;
        const PlanResult alone = Search(one, none).run();
        if (!alone.best.workloads.empty()) {
            solo.gpu = alone.best.workloads.front().gpuId;
            solo.cost = alone.best.costOverTerm.amount.toDouble();
            solo.peak = alone.best.peakGpus;
            soloPeaks += solo.peak;
        }
        solos.push_back(solo);
        report(0.3 * double(i + 1) / double(n));
    }

    // Groups by GPU type, the dearest first; blocks of whole groups where they fit.
    std::map<std::string, std::vector<Solo>> byGpu;
    for (const Solo &solo : solos)
        byGpu[solo.gpu].push_back(solo);
    std::vector<std::vector<Solo>> groups;
    for (auto &[gpu, members] : byGpu) {
        std::stable_sort(members.begin(), members.end(), [](const Solo &a, const Solo &b) { return a.cost > b.cost; });
        groups.push_back(members);
    }
    const auto total = [](const std::vector<Solo> &g) {
        double sum = 0;
        for (const Solo &s : g)
            sum += s.cost;
        return sum;
    };
    std::stable_sort(groups.begin(), groups.end(), [&](const auto &a, const auto &b) {
        return (a.front().gpu.empty() ? -1.0 : total(a)) > (b.front().gpu.empty() ? -1.0 : total(b));
    });
    std::vector<std::vector<size_t>> blocks(1);
    for (const std::vector<Solo> &group : groups) {
        if (!blocks.back().empty() && blocks.back().size() + group.size() > kMaxPlanWorkloads
            && group.size() <= kMaxPlanWorkloads)
            blocks.emplace_back();
        for (const Solo &solo : group) {
            if (blocks.back().size() == kMaxPlanWorkloads)
                blocks.emplace_back();
            blocks.back().push_back(solo.index);
        }
    }

    // Each block exactly; the fleet rule on packing judged on the whole portfolio.
    std::vector<PlanResult> results;
    for (size_t b = 0; b < blocks.size(); ++b) {
        std::sort(blocks[b].begin(), blocks[b].end());
        PlanRequest part = request;
        part.inputs.workloads.clear();
        for (const size_t i : blocks[b])
            part.inputs.workloads.push_back(request.inputs.workloads[i]);
        if (b > 0)
            part.inputs.trainingJobs.clear();
        if (o.packMig)
            part.options.packMinFleetGpus = soloPeaks >= o.packMinFleetGpus ? 0 : std::numeric_limits<int64_t>::max();
        const double from = 0.3 + 0.7 * double(b) / double(blocks.size());
        const double span = 0.7 / double(blocks.size());
        const std::function<bool(double)> scaled = [&](double f) { return !progress || progress(from + span * f); };
        results.push_back(Search(part, scaled).run());
    }

    // Side by side: pools renamed where two blocks would give one name.
    const auto combine = [&](const std::vector<const PlanOption *> &options) {
        PlanOption out;
        out.scenario = options.front()->scenario;
        out.scenario.pools.clear();
        out.costOverTerm = Money{Decimal(), options.front()->costOverTerm.currency};
        out.latencyMargin = kInfinity;
        std::set<std::string> names;
        std::map<std::string, PlannedWorkload> byName;
        for (size_t b = 0; b < options.size(); ++b) {
            const PlanOption &part = *options[b];
            for (Pool pool : part.scenario.pools) {
                if (names.count(pool.name))
                    pool.name += " (block " + std::to_string(b + 1) + ")";
                names.insert(pool.name);
                out.scenario.pools.push_back(std::move(pool));
            }
            out.pools.insert(out.pools.end(), part.pools.begin(), part.pools.end());
            out.jobs.insert(out.jobs.end(), part.jobs.begin(), part.jobs.end());
            for (const PlannedWorkload &w : part.workloads)
                byName[w.workload] = w;
            out.costOverTerm += part.costOverTerm;
            out.peakGpus += part.peakGpus;
            out.committedGpuHours += part.committedGpuHours;
            out.heldGpuHours += part.heldGpuHours;
            out.latencyMargin = std::min(out.latencyMargin, part.workloads.empty() ? kInfinity : part.latencyMargin);
        }
        for (const WorkloadProfile &w : request.inputs.workloads) {
            if (const auto it = byName.find(w.name); it != byName.end())
                out.workloads.push_back(it->second);
        }
        out.committedShare = out.heldGpuHours > 0 ? out.committedGpuHours / out.heldGpuHours : 0;
        if (!(out.latencyMargin < kInfinity))
            out.latencyMargin = 0;
        return out;
    };
    std::vector<const PlanOption *> bests;
    for (const PlanResult &r : results)
        bests.push_back(&r.best);
    PlanResult out;
    out.best = combine(bests);
    const Money unmerged = out.best.costOverTerm;
    if (o.packMig)
        mergeMigPools(out.best, request);
    out.lowerBound = Money{Decimal(), out.best.costOverTerm.currency};
    for (const PlanResult &r : results) {
        out.lowerBound += r.lowerBound;  // per workload and job: the blocks' bounds add up
        out.unplaced.insert(out.unplaced.end(), r.unplaced.begin(), r.unplaced.end());
        out.candidates += r.candidates;
        out.groupsPriced += r.groupsPriced;
    }
    // Runners-up: one block's runner-up with the other blocks as planned.
    std::vector<PlanOption> others;
    for (size_t b = 0; b < results.size(); ++b) {
        for (const PlanOption &runner : results[b].runnersUp) {
            std::vector<const PlanOption *> parts = bests;
            parts[b] = &runner;
            others.push_back(combine(parts));
        }
    }
    std::stable_sort(others.begin(), others.end(),
                     [](const PlanOption &a, const PlanOption &b) { return a.costOverTerm.amount < b.costOverTerm.amount; });
    for (size_t i = 0; i < others.size() && int(i) < o.alternatives; ++i)
        out.runnersUp.push_back(std::move(others[i]));
    if (!out.runnersUp.empty())
        out.why = whyBetter(out.best, out.runnersUp.front());
    else
        out.why.push_back("No other GPU type serves these workloads within the options: the plan is the only one.");
    // The front: the blocks' cheapest at each cap, summed.
    const size_t points = results.front().front.size();
    if (std::all_of(results.begin(), results.end(), [&](const PlanResult &r) { return r.front.size() == points; })) {
        for (size_t i = 0; i < points; ++i) {
            PlanFrontPoint point = results.front().front[i];
            for (size_t b = 1; b < results.size(); ++b) {
                point.costOverTerm += results[b].front[i].costOverTerm;
                point.committedGpuHours += results[b].front[i].committedGpuHours;
                point.heldGpuHours += results[b].front[i].heldGpuHours;
            }
            point.committedShare = point.heldGpuHours > 0 ? point.committedGpuHours / point.heldGpuHours : 0;
            // At the plan's own cap the front holds the plan, its MIG pools merged.
            if (point.maxCommittedShare == o.maxCommittedShare && point.costOverTerm == unmerged) {
                point.costOverTerm = out.best.costOverTerm;
                point.committedGpuHours = out.best.committedGpuHours;
                point.heldGpuHours = out.best.heldGpuHours;
                point.committedShare = out.best.committedShare;
            }
            out.front.push_back(point);
        }
    }

    int64_t packed = 0;
    for (const PlannedWorkload &w : out.best.workloads)
        packed += w.migProfile.empty() ? 0 : 1;
    if (packed > 0)
        out.packing = explain::grouped(packed) + (packed == 1 ? " workload is" : " workloads are")
                      + " packed onto MIG slices of committed GPUs, each on the smallest slice whose one replica serves "
                        "its peak at its SLOs.";
    else if (o.packMig && o.maxCommittedShare >= 1 && soloPeaks < o.packMinFleetGpus)
        out.packing = "Small tenants are not packed onto MIG slices: the workloads alone hold "
                      + explain::grouped(soloPeaks) + " GPUs at their peaks, fewer than the "
                      + explain::grouped(o.packMinFleetGpus) + " below which packing costs more to run than it saves.";
    else
        out.packing = results.front().packing;
    std::string sizes;
    for (size_t b = 0; b < blocks.size(); ++b)
        sizes += (b == 0 ? "" : b + 1 == blocks.size() ? " and " : ", ") + std::to_string(blocks[b].size());
    out.method = "In blocks: " + std::to_string(n) + " workloads are more than one exact search covers ("
                 + std::to_string(kMaxPlanWorkloads) + "), so each was first planned alone for the GPU type it is "
                 "cheapest on, the workloads grouped by that type into " + std::to_string(blocks.size())
                 + " blocks (" + sizes + " workloads), and each block planned exactly ("
                 + explain::grouped(out.candidates) + " deployments sized, " + explain::grouped(out.groupsPriced)
                 + " pools priced). Workloads of different blocks share no pool but a MIG pool of one GPU type, "
                   "whose tenants are packed together where that takes fewer GPUs"
                 + (out.best.costOverTerm == unmerged ? std::string()
                                                      : " (" + (unmerged - out.best.costOverTerm).display() + " less)")
                 + "; the plan is the optimum within its blocks, not proven over the whole space. No plan costs less "
                   "than "
                 + out.lowerBound.display()
                 + " (every workload's fewest GPU-hours at its GPU type's cheapest rate): this one is within "
                 + explain::number(100.0 * (out.best.costOverTerm - out.lowerBound).amount.toDouble()
                                   / std::max(1e-9, out.best.costOverTerm.amount.toDouble()))
                 + " % of it.";
    report(1.0);
    return out;
}

} // namespace

std::vector<PlannedWorkload> movedWorkloads(const PlanOption &best, const PlanOption &other)
{
    std::vector<PlannedWorkload> moved;
    for (const PlannedWorkload &o : other.workloads) {
        const auto w = std::find_if(best.workloads.begin(), best.workloads.end(),
                                    [&](const PlannedWorkload &x) { return x.workload == o.workload; });
        if (w == best.workloads.end() || w->gpuId != o.gpuId || w->weights != o.weights || w->kv != o.kv
            || w->tp != o.tp || w->migProfile != o.migProfile || w->disaggregated != o.disaggregated)
            moved.push_back(o);
    }
    return moved;
}

PlanRequest scenarioPlanRequest(const Scenario &scenario, const ScenarioInputs &inputs,
                                std::vector<std::string> *missingWorkloads, std::vector<std::string> *missingJobs)
{
    PlanRequest request;
    request.settings = scenario;
    request.settings.pools.clear();
    request.inputs = inputs;
    request.inputs.workloads.clear();
    request.inputs.trainingJobs.clear();
    std::set<std::string> seen;
    for (const Pool &pool : scenario.pools) {
        for (const std::string &name : pool.workloads) {
            if (!seen.insert("workload:" + name).second)
                continue;
            const auto it = std::find_if(inputs.workloads.begin(), inputs.workloads.end(),
                                         [&](const WorkloadProfile &w) { return w.name == name; });
            if (it != inputs.workloads.end())
                request.inputs.workloads.push_back(*it);
            else
                missingWorkloads->push_back(name);
        }
        for (const std::string &name : pool.trainingJobs) {
            if (!seen.insert("job:" + name).second)
                continue;
            const auto it = std::find_if(inputs.trainingJobs.begin(), inputs.trainingJobs.end(),
                                         [&](const TrainingJobLoad &j) { return j.name == name; });
            if (it != inputs.trainingJobs.end())
                request.inputs.trainingJobs.push_back(*it);
            else
                missingJobs->push_back(name);
        }
    }
    return request;
}

PlanResult planPortfolio(const PlanRequest &request, const std::function<bool(double)> &progress)
{
    if (request.inputs.workloads.size() > kMaxPlanWorkloads)
        return planInBlocks(request, progress);
    Search search(request, progress);
    return search.run();
}

} // namespace headroom::engine
