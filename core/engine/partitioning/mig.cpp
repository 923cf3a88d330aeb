#include "mig.h"

#include "engine/common/errors.h"
#include "engine/inference/kv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace headroom::engine {

namespace {

constexpr double kBytesPerGB = 1e9;
constexpr double kBytesPerGiB = 1073741824.0;
// A tenant within this share of its slice's memory is flagged as an OOM risk.
constexpr double kOomMargin = 0.10;
// Search nodes the exact packer may visit before it keeps the heuristic packing.
constexpr int64_t kExactNodeBudget = 2'000'000;
constexpr int kStateBitsPerType = 10;

std::string oneDecimal(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.1f", value);
    return buffer;
}

std::string joinInts(const std::vector<int> &values)
{
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            text += i + 1 == values.size() ? " or " : ", ";
        text += std::to_string(values[i]);
    }
    return text;
}

std::string instanceLabel(const MigInstance &instance)
{
    return instance.profile + "@" + std::to_string(instance.start);
}

// "memory slice 3" or "memory slices 4–7".
std::string sliceRange(int first, int last)
{
    if (first == last)
        return "memory slice " + std::to_string(first);
    return "memory slices " + std::to_string(first) + "\u2013" + std::to_string(last);
}

// What is already placed on one GPU, for incremental placement checks.
struct Occupancy {
    unsigned memoryMask = 0;
    int compute = 0;
    int media = 0;
    std::vector<int> counts; // per profile index of the table
};

unsigned rangeMask(int start, int slices)
{
    return ((1u << slices) - 1u) << start;
}

bool canPlace(const MigGpuProfiles &gpu, const Occupancy &occupancy, size_t profile, int start)
{
    const MigProfile &p = gpu.profiles[profile];
    if (start < 0 || start + p.memorySlices > gpu.memorySlices)
        return false;
    if (std::find(p.starts.begin(), p.starts.end(), start) == p.starts.end())
        return false;
    if (occupancy.memoryMask & rangeMask(start, p.memorySlices))
        return false;
    if (occupancy.compute + p.computeSlices > gpu.computeSlices)
        return false;
    if (occupancy.counts[profile] >= p.maxInstances)
        return false;
    return !(p.mediaExtensions && occupancy.media > 0);
}

void place(const MigGpuProfiles &gpu, Occupancy &occupancy, size_t profile, int start, int sign)
{
    const MigProfile &p = gpu.profiles[profile];
    occupancy.memoryMask ^= rangeMask(start, p.memorySlices);
    occupancy.compute += sign * p.computeSlices;
    occupancy.counts[profile] += sign;
    if (p.mediaExtensions)
        occupancy.media += sign;
}

struct Candidate {
    int start = 0;
    size_t profile = 0;
};

// Every (start, profile) of the allowed profiles, by start, then table order.
std::vector<Candidate> candidates(const MigGpuProfiles &gpu, const std::function<bool(const MigProfile &)> &allowed)
{
    std::vector<Candidate> all;
    for (size_t i = 0; i < gpu.profiles.size(); ++i) {
        if (!allowed(gpu.profiles[i]))
            continue;
        for (int start : gpu.profiles[i].starts)
            all.push_back({start, i});
    }
    std::sort(all.begin(), all.end(), [](const Candidate &a, const Candidate &b) {
        return a.start != b.start ? a.start < b.start : a.profile < b.profile;
    });
    return all;
}

// Depth-first over instance sets in increasing candidate order, so each set is met once.
class LayoutEnumerator {
public:
    LayoutEnumerator(const MigGpuProfiles &gpu, std::vector<Candidate> candidates)
        : m_gpu(gpu), m_candidates(std::move(candidates))
    {
        m_occupancy.counts.assign(gpu.profiles.size(), 0);
    }

    std::vector<MigLayout> maximal()
    {
        m_result.clear();
        visit(0);
        return std::move(m_result);
    }

private:
    void visit(size_t from)
    {
        bool extensible = false;
        for (size_t i = 0; i < m_candidates.size(); ++i) {
            const Candidate &c = m_candidates[i];
            if (!canPlace(m_gpu, m_occupancy, c.profile, c.start))
                continue;
            extensible = true;
            if (i < from)
                continue;
            place(m_gpu, m_occupancy, c.profile, c.start, +1);
            m_current.push_back({m_gpu.profiles[c.profile].name, c.start, {}});
            visit(i + 1);
            m_current.pop_back();
            place(m_gpu, m_occupancy, c.profile, c.start, -1);
        }
        if (!extensible && !m_current.empty())
            m_result.push_back(m_current);
    }

    const MigGpuProfiles &m_gpu;
    std::vector<Candidate> m_candidates;
    Occupancy m_occupancy;
    MigLayout m_current;
    std::vector<MigLayout> m_result;
};

bool isTenantIsolation(const std::string &isolation)
{
    return isolation == "none" || isolation == "soft" || isolation == "regulated";
}

void checkTenants(const std::vector<Tenant> &tenants, double gpuMemoryGiB, const std::string &gpuId)
{
    if (tenants.empty())
        throw InputError("tenants", "no tenants to pack: give at least one");
    if (!(gpuMemoryGiB > 0) || !std::isfinite(gpuMemoryGiB))
        throw InputError("gpu_memory_gib", "GPU memory must be a positive number of GiB");
    std::set<std::string> names;
    for (size_t i = 0; i < tenants.size(); ++i) {
        const Tenant &t = tenants[i];
        const std::string who = t.name.empty() ? "tenant " + std::to_string(i) : "tenant '" + t.name + "'";
        if (t.name.empty())
            throw InputError("name", who + ": name is empty");
        if (!names.insert(t.name).second)
            throw InputError("name", who + " is listed twice");
        if (!(t.memoryGiB > 0) || !std::isfinite(t.memoryGiB))
            throw InputError("memory_gib", who + ": memory need must be a positive number of GiB");
        if (t.memoryGiB > gpuMemoryGiB) {
            throw InputError("memory_gib", who + " needs " + oneDecimal(t.memoryGiB) + " GiB, "
                                 + oneDecimal(t.memoryGiB - gpuMemoryGiB) + " GiB more than a whole "
                                 + gpuId + " (" + oneDecimal(gpuMemoryGiB) + " GiB)");
        }
        if (t.computeSlices < 0 || t.computeSlices > 7)
            throw InputError("compute_slices", who + ": compute slices must be between 0 and 7, got "
                                 + std::to_string(t.computeSlices));
        if (t.replicas < 1)
            throw InputError("replicas", who + ": replicas must be at least 1, got " + std::to_string(t.replicas));
        if (!isTenantIsolation(t.isolation))
            throw InputError("isolation", who + ": isolation must be none, soft or regulated, got '" + t.isolation + "'");
    }
}

// The profile a tenant's replicas get: the one it names, the smallest fitting one, or the whole GPU.
const MigProfile &profileFor(const MigGpuProfiles &gpu, const Tenant &t)
{
    if (const MigProfile *named = t.profile.empty() ? nullptr : gpu.find(t.profile); named && !named->mediaExtensions)
        return *named;
    if (const MigProfile *p = smallestProfileFor(gpu, t.memoryGiB, t.computeSlices))
        return *p;
    const MigProfile *whole = nullptr;
    for (const MigProfile &p : gpu.profiles) {
        if (!p.mediaExtensions && (!whole || p.memorySlices > whole->memorySlices
                                   || (p.memorySlices == whole->memorySlices && p.computeSlices > whole->computeSlices)))
            whole = &p;
    }
    if (!whole || whole->computeSlices < t.computeSlices)
        throw InputError("compute_slices", "tenant '" + t.name + "' needs " + std::to_string(t.computeSlices)
                             + " compute slices; the largest " + gpu.gpuId + " profile has fewer");
    return *whole;
}

// Packable profiles (no media extensions), smallest first; index = item type.
struct PackTypes {
    std::vector<size_t> profile;            // type → table index
    std::vector<int> typeOfProfile;         // table index → type, -1 for media profiles
};

PackTypes packTypes(const MigGpuProfiles &gpu)
{
    PackTypes types;
    types.typeOfProfile.assign(gpu.profiles.size(), -1);
    for (size_t i = 0; i < gpu.profiles.size(); ++i) {
        if (!gpu.profiles[i].mediaExtensions)
            types.profile.push_back(i);
    }
    std::stable_sort(types.profile.begin(), types.profile.end(), [&](size_t a, size_t b) {
        const MigProfile &pa = gpu.profiles[a];
        const MigProfile &pb = gpu.profiles[b];
        return pa.memorySlices != pb.memorySlices ? pa.memorySlices < pb.memorySlices
                                                  : pa.computeSlices < pb.computeSlices;
    });
    for (size_t t = 0; t < types.profile.size(); ++t)
        types.typeOfProfile[types.profile[t]] = int(t);
    return types;
}

using Counts = std::vector<int>;

// Lower bound on GPUs for item counts per type: ceil(compute / 7), ceil(memory / 8), the
// per-GPU limit of each type, and the large profiles that cannot share a GPU — a whole-GPU
// profile alone; at most two of half the memory or more; at most one of more than half the
// compute slices.
int64_t packLowerBound(const MigGpuProfiles &gpu, const PackTypes &types, const std::vector<int> &perGpu,
                       const Counts &counts)
{
    int64_t compute = 0, memory = 0, whole = 0, halfMemory = 0, bigCompute = 0, bound = 0;
    for (size_t t = 0; t < counts.size(); ++t) {
        const MigProfile &p = gpu.profiles[types.profile[t]];
        const int64_t n = counts[t];
        compute += n * p.computeSlices;
        memory += n * p.memorySlices;
        if (n > 0)
            bound = std::max(bound, (n + perGpu[t] - 1) / perGpu[t]);
        if (p.memorySlices >= gpu.memorySlices) {
            whole += n;
            continue;
        }
        if (2 * p.memorySlices >= gpu.memorySlices)
            halfMemory += n;
        if (2 * p.computeSlices > gpu.computeSlices)
            bigCompute += n;
    }
    bound = std::max(bound, (compute + gpu.computeSlices - 1) / gpu.computeSlices);
    bound = std::max(bound, (memory + gpu.memorySlices - 1) / gpu.memorySlices);
    bound = std::max(bound, whole + std::max((halfMemory + 1) / 2, bigCompute));
    return bound;
}

// Slice patterns one GPU can hold: item counts per type of every maximal non-media layout,
// without those another pattern dominates, each with a layout that realises it.
struct Pattern {
    Counts counts;
    MigLayout layout;
};

std::vector<Pattern> packPatterns(const MigGpuProfiles &gpu, const PackTypes &types)
{
    LayoutEnumerator enumerator(gpu, candidates(gpu, [](const MigProfile &p) { return !p.mediaExtensions; }));
    std::map<Counts, MigLayout> unique;
    for (MigLayout &layout : enumerator.maximal()) {
        Counts counts(types.profile.size(), 0);
        for (const MigInstance &instance : layout)
            ++counts[size_t(types.typeOfProfile[size_t(gpu.find(instance.profile) - gpu.profiles.data())])];
        unique.emplace(std::move(counts), std::move(layout));
    }
    std::vector<Pattern> patterns;
    for (const auto &entry : unique) {
        // Named, not a structured binding: lambdas capture bindings only from C++20 compilers
        // newer than the clang 14 the fuzz build uses.
        const Counts &counts = entry.first;
        const auto &layout = entry.second;
        const bool dominated = std::any_of(unique.begin(), unique.end(), [&](const auto &other) {
            if (other.first == counts)
                return false;
            for (size_t t = 0; t < counts.size(); ++t) {
                if (other.first[t] < counts[t])
                    return false;
            }
            return true;
        });
        if (!dominated)
            patterns.push_back({counts, layout});
    }
    return patterns;
}

uint64_t stateKey(const Counts &counts)
{
    uint64_t key = 0;
    for (int n : counts)
        key = (key << kStateBitsPerType) | uint64_t(n);
    return key;
}

// Exact cover of item counts by GPU patterns: iterative deepening on the GPU count with
// memoised dead ends. The GPU holding one item of the largest remaining type is branched on
// first, over the undominated parts of each pattern that are still needed.
class ExactPacker {
public:
    struct BudgetExceeded {};
    struct Choice {
        Counts take;
        size_t pattern = 0;
    };

    ExactPacker(const MigGpuProfiles &gpu, const PackTypes &types, const std::vector<int> &perGpu,
                const std::vector<Pattern> &patterns)
        : m_gpu(gpu), m_types(types), m_perGpu(perGpu), m_patterns(patterns)
    {
    }

    // A packing with at most `gpus` GPUs, or nothing when none exists. Throws BudgetExceeded.
    std::optional<std::vector<Choice>> solve(const Counts &demand, int64_t gpus)
    {
        m_chosen.clear();
        if (feasible(demand, gpus))
            return m_chosen;
        return std::nullopt;
    }

private:
    bool feasible(const Counts &demand, int64_t gpus)
    {
        const auto top = std::find_if(demand.rbegin(), demand.rend(), [](int n) { return n > 0; });
        if (top == demand.rend())
            return true;
        if (gpus <= 0 || packLowerBound(m_gpu, m_types, m_perGpu, demand) > gpus)
            return false;
        const uint64_t key = stateKey(demand);
        if (const auto it = m_failed.find(key); it != m_failed.end() && it->second >= gpus)
            return false;
        if (++m_nodes > kExactNodeBudget)
            throw BudgetExceeded{};

        const size_t topType = size_t(demand.rend() - top - 1);
        std::vector<Choice> takes;
        for (size_t i = 0; i < m_patterns.size(); ++i) {
            if (m_patterns[i].counts[topType] == 0)
                continue;
            Counts take(demand.size());
            for (size_t t = 0; t < demand.size(); ++t)
                take[t] = std::min(demand[t], m_patterns[i].counts[t]);
            takes.push_back({std::move(take), i});
        }
        const auto covers = [](const Counts &a, const Counts &b) {
            for (size_t t = 0; t < a.size(); ++t) {
                if (a[t] < b[t])
                    return false;
            }
            return true;
        };
        std::vector<Choice> useful;
        for (size_t i = 0; i < takes.size(); ++i) {
            bool dominated = false;
            for (size_t j = 0; j < takes.size() && !dominated; ++j) {
                if (i == j || !covers(takes[j].take, takes[i].take))
                    continue;
                dominated = takes[j].take != takes[i].take || j < i;
            }
            if (!dominated)
                useful.push_back(takes[i]);
        }
        const auto weight = [&](const Counts &take) {
            int w = 0;
            for (size_t t = 0; t < take.size(); ++t) {
                const MigProfile &p = m_gpu.profiles[m_types.profile[t]];
                w += take[t] * (p.computeSlices * m_gpu.memorySlices + p.memorySlices * m_gpu.computeSlices);
            }
            return w;
        };
        std::stable_sort(useful.begin(), useful.end(),
                         [&](const Choice &a, const Choice &b) { return weight(a.take) > weight(b.take); });

        for (const Choice &choice : useful) {
            Counts rest = demand;
            for (size_t t = 0; t < rest.size(); ++t)
                rest[t] -= choice.take[t];
            m_chosen.push_back(choice);
            if (feasible(rest, gpus - 1))
                return true;
            m_chosen.pop_back();
        }
        int64_t &failed = m_failed[key];
        failed = std::max(failed, gpus);
        return false;
    }

    const MigGpuProfiles &m_gpu;
    const PackTypes &m_types;
    const std::vector<int> &m_perGpu;
    const std::vector<Pattern> &m_patterns;
    std::unordered_map<uint64_t, int64_t> m_failed;
    std::vector<Choice> m_chosen;
    int64_t m_nodes = 0;
};

// One GPU during first-fit placement.
struct OpenGpu {
    Occupancy occupancy;
    MigLayout layout;
};

// First-fit decreasing: items largest type first; each goes to the first GPU with an
// allowed free start (lowest start first), else to a new GPU.
std::vector<MigLayout> firstFitDecreasing(const MigGpuProfiles &gpu, const PackTypes &types, const Counts &demand)
{
    std::vector<OpenGpu> open;
    for (size_t t = demand.size(); t-- > 0;) {
        const size_t profile = types.profile[t];
        const MigProfile &p = gpu.profiles[profile];
        std::vector<int> starts = p.starts;
        std::sort(starts.begin(), starts.end());
        for (int n = 0; n < demand[t]; ++n) {
            bool placed = false;
            for (size_t g = 0; g <= open.size() && !placed; ++g) {
                if (g == open.size()) {
                    open.push_back({});
                    open.back().occupancy.counts.assign(gpu.profiles.size(), 0);
                }
                for (int start : starts) {
                    if (canPlace(gpu, open[g].occupancy, profile, start)) {
                        place(gpu, open[g].occupancy, profile, start, +1);
                        open[g].layout.push_back({p.name, start, {}});
                        placed = true;
                        break;
                    }
                }
            }
        }
    }
    std::vector<MigLayout> layouts;
    for (OpenGpu &g : open)
        layouts.push_back(std::move(g.layout));
    return layouts;
}

// Largest instances first (the order to create them in), then by start.
void sortForCreation(const MigGpuProfiles &gpu, MigLayout &layout)
{
    std::stable_sort(layout.begin(), layout.end(), [&](const MigInstance &a, const MigInstance &b) {
        const MigProfile *pa = gpu.find(a.profile);
        const MigProfile *pb = gpu.find(b.profile);
        if (pa->computeSlices != pb->computeSlices)
            return pa->computeSlices > pb->computeSlices;
        if (pa->memorySlices != pb->memorySlices)
            return pa->memorySlices > pb->memorySlices;
        return a.start < b.start;
    });
}

struct PackedGroup {
    std::vector<MigLayout> layouts;
    int64_t lowerBound = 0;
    bool optimal = false;
};

// Packs item counts per type onto GPUs (unlabelled instances).
PackedGroup packCounts(const MigGpuProfiles &gpu, const PackTypes &types, const std::vector<int> &perGpu,
                       const std::vector<Pattern> &patterns, const Counts &demand)
{
    PackedGroup group;
    group.layouts = firstFitDecreasing(gpu, types, demand);
    group.lowerBound = packLowerBound(gpu, types, perGpu, demand);
    const int64_t heuristic = int64_t(group.layouts.size());
    group.optimal = heuristic <= group.lowerBound;
    const bool fitsKey = demand.size() * kStateBitsPerType <= 64
        && std::all_of(demand.begin(), demand.end(), [](int n) { return n < (1 << kStateBitsPerType); });
    if (group.optimal || group.lowerBound > kExactPackGpus || !fitsKey)
        return group;

    ExactPacker exact(gpu, types, perGpu, patterns);
    try {
        for (int64_t k = group.lowerBound; k < heuristic; ++k) {
            const auto choices = exact.solve(demand, k);
            if (!choices)
                continue;
            group.layouts.clear();
            for (const ExactPacker::Choice &choice : *choices) {
                Counts left = choice.take;
                MigLayout layout;
                for (const MigInstance &instance : patterns[choice.pattern].layout) {
                    const int t = types.typeOfProfile[size_t(gpu.find(instance.profile) - gpu.profiles.data())];
                    if (left[size_t(t)] > 0) {
                        --left[size_t(t)];
                        layout.push_back(instance);
                    }
                }
                group.layouts.push_back(std::move(layout));
            }
            break;
        }
        group.optimal = true;
    } catch (const ExactPacker::BudgetExceeded &) {
        group.optimal = false;
    }
    return group;
}

} // namespace

double memoryGiB(const MigProfile &profile)
{
    return profile.memoryGB * kBytesPerGB / kBytesPerGiB;
}

const MigProfile *MigGpuProfiles::find(const std::string &name) const
{
    for (const MigProfile &p : profiles) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

std::string MigGpuProfiles::profileNames() const
{
    std::string text;
    for (const MigProfile &p : profiles)
        text += (text.empty() ? "" : ", ") + p.name;
    return text;
}

std::vector<std::string> checkProfiles(const MigGpuProfiles &gpu)
{
    std::vector<std::string> problems;
    if (gpu.memorySlices < 1 || gpu.memorySlices > 16)
        problems.push_back("memory_slices must be between 1 and 16");
    if (gpu.computeSlices < 1 || gpu.computeSlices > 16)
        problems.push_back("compute_slices must be between 1 and 16");
    if (gpu.profiles.empty())
        problems.push_back("no profiles");
    if (!problems.empty())
        return problems;
    std::set<std::string> names;
    for (const MigProfile &p : gpu.profiles) {
        const std::string who = "profile '" + p.name + "': ";
        if (p.name.empty())
            problems.push_back("a profile has no name");
        if (!names.insert(p.name).second)
            problems.push_back(who + "listed twice");
        if (p.computeSlices < 1 || p.computeSlices > gpu.computeSlices)
            problems.push_back(who + "compute_slices must be between 1 and " + std::to_string(gpu.computeSlices));
        if (p.memorySlices < 1 || p.memorySlices > gpu.memorySlices)
            problems.push_back(who + "memory_slices must be between 1 and " + std::to_string(gpu.memorySlices));
        if (!(p.memoryGB > 0))
            problems.push_back(who + "memory_gb must be positive");
        if (p.maxInstances < 1)
            problems.push_back(who + "max_instances must be at least 1");
        if (p.starts.empty())
            problems.push_back(who + "starts is empty");
        for (int start : p.starts) {
            if (start < 0 || start + p.memorySlices > gpu.memorySlices)
                problems.push_back(who + "start " + std::to_string(start) + " puts it outside the "
                                   + std::to_string(gpu.memorySlices) + " memory slices");
        }
    }
    return problems;
}

LayoutCheck validateLayout(const MigGpuProfiles &gpu, const MigLayout &layout)
{
    const auto fail = [](std::string reason) { return LayoutCheck{false, std::move(reason)}; };
    std::vector<int> counts(gpu.profiles.size(), 0);
    std::vector<int> owner(size_t(std::max(gpu.memorySlices, 0)), -1);
    int compute = 0;
    int media = -1;
    for (size_t i = 0; i < layout.size(); ++i) {
        const MigInstance &instance = layout[i];
        const std::string label = instanceLabel(instance);
        const MigProfile *p = gpu.find(instance.profile);
        if (!p)
            return fail("unknown profile '" + instance.profile + "' for " + gpu.gpuId + "; known: " + gpu.profileNames());
        const size_t index = size_t(p - gpu.profiles.data());
        if (p->mediaExtensions) {
            if (media >= 0)
                return fail(label + ": at most one +me instance per GPU, and " + instanceLabel(layout[size_t(media)])
                            + " already has the media engines");
            media = int(i);
        }
        if (++counts[index] > p->maxInstances)
            return fail(label + ": at most " + std::to_string(p->maxInstances) + " \u00d7 " + p->name + " per GPU");
        if (std::find(p->starts.begin(), p->starts.end(), instance.start) == p->starts.end()) {
            std::vector<int> starts = p->starts;
            std::sort(starts.begin(), starts.end());
            return fail(label + ": " + p->name + " may start only at memory slice " + joinInts(starts));
        }
        const int last = instance.start + p->memorySlices - 1;
        if (instance.start < 0 || last >= gpu.memorySlices)
            return fail(label + ": " + sliceRange(instance.start, last) + " lie outside the GPU's "
                        + std::to_string(gpu.memorySlices) + " memory slices");
        for (int s = instance.start; s <= last; ++s) {
            if (owner[size_t(s)] < 0)
                continue;
            const MigInstance &other = layout[size_t(owner[size_t(s)])];
            const MigProfile *q = gpu.find(other.profile);
            const int overlapLast = std::min(last, other.start + q->memorySlices - 1);
            return fail(label + " overlaps " + instanceLabel(other) + " on " + sliceRange(s, overlapLast));
        }
        for (int s = instance.start; s <= last; ++s)
            owner[size_t(s)] = int(i);
        compute += p->computeSlices;
        if (compute > gpu.computeSlices)
            return fail(label + ": needs " + std::to_string(p->computeSlices) + " compute slices but only "
                        + std::to_string(gpu.computeSlices - compute + p->computeSlices) + " of "
                        + std::to_string(gpu.computeSlices) + " are left");
    }
    return {};
}

MigLayout parseLayout(const std::string &text)
{
    const std::string example = " (write PROFILE@START, e.g. \"3g.40gb@0,2g.20gb@4,1g.10gb@6\")";
    const auto trim = [](std::string s) {
        const auto first = s.find_first_not_of(" \t");
        if (first == std::string::npos)
            return std::string();
        return s.substr(first, s.find_last_not_of(" \t") - first + 1);
    };
    if (trim(text).empty())
        throw InputError("layout", "the layout is empty" + example);
    MigLayout layout;
    size_t begin = 0;
    while (begin <= text.size()) {
        const size_t comma = std::min(text.find(',', begin), text.size());
        const std::string part = trim(text.substr(begin, comma - begin));
        const std::string where = "instance " + std::to_string(layout.size() + 1);
        if (part.empty())
            throw InputError("layout", where + " is empty" + example);
        const size_t at = part.find('@');
        if (at == std::string::npos)
            throw InputError("layout", where + " '" + part + "' has no start" + example);
        const std::string name = trim(part.substr(0, at));
        const std::string start = trim(part.substr(at + 1));
        if (name.empty())
            throw InputError("layout", where + " '" + part + "' has no profile" + example);
        if (start.empty() || start.size() > 3 || start.find_first_not_of("0123456789") != std::string::npos)
            throw InputError("layout", where + " '" + part + "': start '" + start
                                 + "' is not a memory slice number" + example);
        layout.push_back({name, std::stoi(start), {}});
        begin = comma + 1;
    }
    return layout;
}

std::string formatLayout(const MigLayout &layout)
{
    std::string text;
    for (const MigInstance &instance : layout)
        text += (text.empty() ? "" : ",") + instanceLabel(instance);
    return text;
}

std::vector<MigLayout> maximalLayouts(const MigGpuProfiles &gpu)
{
    LayoutEnumerator enumerator(gpu, candidates(gpu, [](const MigProfile &) { return true; }));
    std::vector<MigLayout> layouts = enumerator.maximal();
    std::stable_sort(layouts.begin(), layouts.end(),
                     [](const MigLayout &a, const MigLayout &b) { return a.size() < b.size(); });
    return layouts;
}

int maxInstancesPerGpu(const MigGpuProfiles &gpu, const std::string &profile)
{
    if (!gpu.find(profile))
        return 0;
    LayoutEnumerator enumerator(gpu, candidates(gpu, [&](const MigProfile &p) { return p.name == profile; }));
    size_t most = 0;
    for (const MigLayout &layout : enumerator.maximal())
        most = std::max(most, layout.size());
    return int(most);
}

const MigProfile *smallestProfileFor(const MigGpuProfiles &gpu, double needGiB, int computeSlices)
{
    const MigProfile *best = nullptr;
    for (const MigProfile &p : gpu.profiles) {
        if (p.mediaExtensions || memoryGiB(p) < needGiB || p.computeSlices < computeSlices)
            continue;
        if (!best || p.memorySlices < best->memorySlices
            || (p.memorySlices == best->memorySlices && p.computeSlices < best->computeSlices))
            best = &p;
    }
    return best;
}

PackResult packTenants(const MigGpuProfiles &gpu, double gpuMemoryGiB, const std::vector<Tenant> &tenants)
{
    checkTenants(tenants, gpuMemoryGiB, gpu.gpuId);
    if (const auto problems = checkProfiles(gpu); !problems.empty())
        throw InputError("profiles", gpu.gpuId + ": " + problems.front());

    const PackTypes types = packTypes(gpu);
    std::vector<int> perGpu;
    for (size_t profile : types.profile)
        perGpu.push_back(std::max(1, maxInstancesPerGpu(gpu, gpu.profiles[profile].name)));
    const std::vector<Pattern> patterns = packPatterns(gpu, types);

    PackResult result;
    Counts shared(types.profile.size(), 0);
    std::vector<std::vector<std::string>> sharedNames(types.profile.size());
    std::vector<std::vector<MigLayout>> regulatedLayouts;
    double needTotal = 0;
    double sliceTotal = 0;
    for (const Tenant &t : tenants) {
        const MigProfile &p = profileFor(gpu, t);
        const double slice = memoryGiB(p);
        const size_t type = size_t(types.typeOfProfile[size_t(&p - gpu.profiles.data())]);
        result.fits.push_back({t.name, p.name, t.memoryGiB, slice, t.replicas});
        result.gpusWithoutMig += t.replicas;
        needTotal += t.memoryGiB * t.replicas;
        sliceTotal += slice * t.replicas;

        if (t.memoryGiB > slice) {
            result.oomWarnings.push_back("tenant '" + t.name + "' needs " + oneDecimal(t.memoryGiB) + " GiB, "
                                         + oneDecimal(t.memoryGiB - slice) + " GiB more than its largest slice "
                                         + p.name + " (" + oneDecimal(slice) + " GiB): an OOM at the partition "
                                         "boundary; give it a whole GPU without MIG");
        } else if (t.memoryGiB > (1 - kOomMargin) * slice) {
            result.oomWarnings.push_back("tenant '" + t.name + "' needs " + oneDecimal(t.memoryGiB) + " GiB of its "
                                         + p.name + " slice's " + oneDecimal(slice) + " GiB ("
                                         + std::to_string(int(std::lround(100 * t.memoryGiB / slice)))
                                         + " %): within 10 % of the partition boundary, an OOM risk when it grows");
        }

        if (t.isolation == "regulated") {
            Counts own(types.profile.size(), 0);
            own[type] = t.replicas;
            PackedGroup group = packCounts(gpu, types, perGpu, patterns, own);
            for (MigLayout &layout : group.layouts) {
                for (MigInstance &instance : layout)
                    instance.tenant = t.name;
            }
            result.lowerBound += group.lowerBound;
            regulatedLayouts.push_back(std::move(group.layouts));
        } else {
            shared[type] += t.replicas;
            for (int r = 0; r < t.replicas; ++r)
                sharedNames[type].push_back(t.name);
        }
    }

    bool optimal = true;
    if (std::any_of(shared.begin(), shared.end(), [](int n) { return n > 0; })) {
        PackedGroup group = packCounts(gpu, types, perGpu, patterns, shared);
        std::vector<size_t> next(types.profile.size(), 0);
        for (MigLayout &layout : group.layouts) {
            sortForCreation(gpu, layout);
            for (MigInstance &instance : layout) {
                const size_t t = size_t(types.typeOfProfile[size_t(gpu.find(instance.profile) - gpu.profiles.data())]);
                instance.tenant = sharedNames[t][next[t]++];
            }
        }
        result.lowerBound += group.lowerBound;
        optimal = group.optimal;
        result.layouts = std::move(group.layouts);
    }
    for (std::vector<MigLayout> &own : regulatedLayouts) {
        for (MigLayout &layout : own) {
            sortForCreation(gpu, layout);
            result.layouts.push_back(std::move(layout));
        }
    }
    result.gpus = int64_t(result.layouts.size());
    result.optimal = optimal;
    result.memoryUtilization = sliceTotal > 0 ? needTotal / sliceTotal : 0;
    return result;
}

double linkSeconds(double bytes, double gbps)
{
    if (!(bytes >= 0) || !std::isfinite(bytes))
        throw InputError("bytes", "bytes must be a non-negative number");
    if (!(gbps > 0) || !std::isfinite(gbps))
        throw InputError("gbps", "link bandwidth must be a positive number of GB/s");
    return bytes / (gbps * kBytesPerGB);
}

const std::vector<LinkPreset> &linkPresets()
{
    static const std::vector<LinkPreset> presets = {
        {"pcie4", "PCIe 4.0 x16", 32},
        {"pcie5", "PCIe 5.0 x16", 64},
        {"nvlink-h100", "NVLink 4 (H100)", 900},
        {"ib-400g", "400G InfiniBand", 50},
    };
    return presets;
}

const LinkPreset *findLinkPreset(const std::string &id)
{
    for (const LinkPreset &preset : linkPresets()) {
        if (preset.id == id)
            return &preset;
    }
    return nullptr;
}

int64_t sharedGpus(double gpuMemoryGiB, const std::vector<Tenant> &tenants)
{
    checkTenants(tenants, gpuMemoryGiB, "GPU");
    double total = 0;
    for (const Tenant &t : tenants)
        total += t.memoryGiB * t.replicas;
    return int64_t(std::ceil(total / gpuMemoryGiB - 1e-12));
}

std::string toString(SharingMode mode)
{
    switch (mode) {
    case SharingMode::Mig: return "mig";
    case SharingMode::TimeSlice: return "time-slice";
    case SharingMode::Mps: return "mps";
    case SharingMode::OverCommit: return "over-commit";
    case SharingMode::Exclusive: return "exclusive";
    }
    return "exclusive";
}

std::vector<SharingOption> compareSharing(const MigGpuProfiles &gpu, double gpuMemoryGiB,
                                          const std::vector<Tenant> &tenants, double linkGBps)
{
    const PackResult mig = packTenants(gpu, gpuMemoryGiB, tenants);
    const int64_t shared = sharedGpus(gpuMemoryGiB, tenants);
    int64_t computeSlices = 0;
    double largestGiB = 0;
    for (const Tenant &t : tenants) {
        computeSlices += int64_t(profileFor(gpu, t).computeSlices) * t.replicas;
        largestGiB = std::max(largestGiB, t.memoryGiB);
    }
    const int64_t overCommit = (computeSlices + gpu.computeSlices - 1) / gpu.computeSlices;

    std::vector<SharingOption> options;
    options.push_back({SharingMode::Exclusive, mig.gpusWithoutMig, true, true, 0,
                       "one replica per GPU: full isolation and the most GPUs"});
    options.push_back({SharingMode::Mig, mig.gpus, true, true, 0,
                       "hardware partitions with their own memory and compute; a tenant that outgrows its "
                       "slice fails at the partition boundary"});
    options.push_back({SharingMode::TimeSlice, shared, false, false, 0,
                       "tenants take turns on the whole GPU: dense, but no memory isolation and latency grows "
                       "with every tenant"});
    options.push_back({SharingMode::Mps, shared, false, false, 0,
                       "kernels of all tenants run at once: dense, but no memory isolation and one fatal fault "
                       "stops every client"});
    options.push_back({SharingMode::OverCommit, overCommit, false, false,
                       linkSeconds(largestGiB * kBytesPerGiB, linkGBps),
                       "unified memory swapped over the host link: GPUs set by compute alone, and a cold "
                       "tenant waits for its weights to swap in"});
    return options;
}

GpuSpec migSliceGpu(const GpuSpec &gpu, const MigGpuProfiles &table, const MigProfile &profile)
{
    GpuSpec slice = gpu;
    const double memoryShare = double(profile.memorySlices) / double(table.memorySlices);
    const double computeShare = double(profile.computeSlices) / double(table.computeSlices);
    slice.memoryBytes = int64_t(memoryGiB(profile) * double(kGiB));
    slice.hbmBandwidthGBps = gpu.hbmBandwidthGBps * memoryShare;
    slice.bf16Tflops = gpu.bf16Tflops * computeShare;
    slice.fp8Tflops = gpu.fp8Tflops * computeShare;
    slice.fp4Tflops = gpu.fp4Tflops * computeShare;
    slice.nvlinkGBps = 0;
    return slice;
}

Tenant tenantForWorkload(const WorkloadProfile &workload, const ModelSpec &model)
{
    constexpr double kRuntimeShare = 0.2;
    const double weightsGiB = double(weightBytesPerGpu(model, workload.weights, workload.tp)) / double(kGiB);
    Tenant tenant;
    tenant.name = workload.name;
    tenant.memoryGiB = std::ceil(weightsGiB * (1.0 + kRuntimeShare) * 10.0) / 10.0;
    tenant.isolation = std::string(toString(workload.isolation));
    return tenant;
}

} // namespace headroom::engine
