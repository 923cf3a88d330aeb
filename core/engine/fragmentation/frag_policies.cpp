// The scheduler: cluster state, FGD and the baseline policies in the study's and the exact
// scoring (frag_scheduler.h). Node fragmentation is kept incrementally: per node and target
// type the free share below the type's per-GPU demand and the number of GPUs that meet it, so
// a candidate placement is scored in O(types) and only the node that changed is recomputed.
// Fragmentation is held as Σ count × milli-GPU (integers), so exact FGD compares candidates
// exactly. A placement looks at buckets of nodes in the same scored state (frag_buckets.h,
// NodeSearch::Buckets) or at every node (NodeSearch::EveryNode): both pick the node with the
// least cost, then the first in the policy's tie order, among those that fit.
#include "frag_scheduler.h"

#include "engine/common/errors.h"
#include "frag_buckets.h"
#include "frag_random.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <map>
#include <string>
#include <tuple>

namespace headroom::engine::frag {

std::string_view toString(ScoreMode mode)
{
    return mode == ScoreMode::Study ? "study" : "exact";
}

bool parseScoreMode(std::string_view text, ScoreMode *out)
{
    for (const ScoreMode mode : {ScoreMode::Study, ScoreMode::Exact}) {
        if (toString(mode) == text) {
            *out = mode;
            return true;
        }
    }
    return false;
}

namespace {

constexpr uint64_t kAnyModel = ~uint64_t(0);
constexpr int kMaxModels = 64;
constexpr int kMaxGpusPerNode = 64;
constexpr int kWholeNodeGpus = 8;
constexpr uint32_t kRandomPolicyStream = 0x9E3779B9u;  // keeps the policy's draws apart from the shuffle's
// Kubernetes score plugins (the study's policies) return whole numbers in [0, kMaxNodeScore].
constexpr int64_t kMaxNodeScore = 100;
constexpr int64_t kShareAffinity = 0;  // study: every fractional task is one clustering class

// The study's FGD score of a node for a drop of `dropMilli` milli-GPU of node fragmentation:
// int(sigmoid(drop / 1000) × 100), truncated as the study's int64 conversion does.
int64_t fgdStudyScore(double dropMilli)
{
    const double sigmoid = 1.0 / (1.0 + std::exp(-dropMilli / 1000.0));
    return int64_t(sigmoid * double(kMaxNodeScore));
}

struct Shape {
    int64_t cpuMilli = 0;
    int gpus = 0;
    int gpuMilli = 0;
    uint64_t models = kAnyModel;
    int affinity = -1;            // GPU request class for clustering; -1 for CPU-only
};

struct NodeRt {
    int64_t cpuFree = 0, memFree = 0, cpuCap = 0, memCap = 0;
    int gpus = 0;
    int model = -1;
    int first = 0;                // offset of its GPUs in State::freeMilli
    int64_t gpuFree = 0;
    int maxFree = 0;
    int fullyFree = 0;
    int64_t fragCount = 0;        // Σ_types count × fragment milli-GPU
    uint32_t version = 1;
    bool reserved = false;
    std::vector<std::pair<int, int>> affinities; // (class, tasks) hosted
};

// Whether the node hosts a running task of GPU request class `affinity` (GPU clustering).
bool hostsClass(const NodeRt &node, int affinity)
{
    return std::any_of(node.affinities.begin(), node.affinities.end(),
                       [affinity](const auto &entry) { return entry.first == affinity && entry.second > 0; });
}

// The fields every placement reads for every node, packed apart from the rest so that the scan
// over all nodes stays in a few cache lines; refresh() copies them from NodeRt.
struct NodeHot {
    int64_t cpuFree = 0;
    int64_t memFree = 0;
    int maxFree = 0;
    int fullyFree = 0;
    int model = -1;
    uint32_t version = 0;
    int first = 0;                // NodeRt::first, so that the chosen node's GPUs are fetched ahead
    bool reserved = false;
};

struct TypeRt {
    int64_t cpuMilli = 0;
    int gpus = 0;
    int gpuMilli = 0;
    uint64_t models = kAnyModel;
    int64_t count = 0;
    int share = 0;                // its per-GPU demand's place in State::shares
    bool cpuOnly = false;
};

// A node's GPUs as the target types with one per-GPU demand (milli-GPU) see them: the free share
// on GPUs with less free than the demand (at most 64 GPUs × 1,000) and the number of GPUs that
// meet it. Both fit 16 bits, and the types share a demand (35 types ask for 13 demands on the
// default trace), so that a large fleet's [node × demand] table stays in cache.
struct TypeFit {
    uint16_t below = 0;
    uint16_t atLeast = 0;
};
static_assert(kMaxGpusPerNode * kMilliPerGpu <= UINT16_MAX);

struct GpuChange {
    int oldFree = 0, newFree = 0, count = 0;
};

struct CacheEntry {
    uint32_t version = 0;
    int gpu = -1;
    int64_t delta = 0;
};

// A bucket's cost for one task class (lower wins): valid while the bucket's version is `version`.
// While the bucket is in the class's index (ShapeIndex::indexed), it is there under (cost, tie):
// tie is its tie winner's, or that of a node behind it when the nodes ahead were found unable to
// take a task of the class (AheadEntry).
struct BucketCost {
    double cost = 0;
    uint32_t version = 0;
    int tie = 0;
};

// A bit per bucket.
class BucketBits {
public:
    bool test(int bucket) const { return (m_words[size_t(bucket) / 64] >> (bucket % 64)) & 1u; }
    void set(int bucket, bool on)
    {
        const uint64_t bit = uint64_t(1) << (bucket % 64);
        uint64_t &word = m_words[size_t(bucket) / 64];
        word = on ? word | bit : word & ~bit;
    }
    void clear() { std::fill(m_words.begin(), m_words.end(), 0); }
    // Calls f(bucket) for every bucket whose bit is set, in order.
    template <typename F>
    void forEach(F &&f) const
    {
        for (size_t word = 0; word < m_words.size(); ++word) {
            for (uint64_t bits = m_words[word]; bits; bits &= bits - 1)
                f(int(word * 64) + __builtin_ctzll(bits));
        }
    }
    // Room for `buckets` bits at least.
    void reserve(size_t buckets)
    {
        if (m_words.size() * 64 < buckets)
            m_words.resize((buckets + 63) / 64, 0);
    }

private:
    std::vector<uint64_t> m_words;
};

// A bucket in a task class's index: least cost first, then the bucket whose tie-winning node
// comes first.
struct IndexEntry {
    double cost = 0;
    int tie = 0;
    int bucket = 0;
    bool operator>(const IndexEntry &other) const
    {
        if (cost != other.cost)
            return cost > other.cost;
        return tie != other.tie ? tie > other.tie : bucket > other.bucket;
    }
};

// A class's index as a 4-ary min-heap of entries (least on top): half the levels of a binary
// heap, and an entry's four children side by side, so that taking the top, which every
// placement does for each bucket it looks at, reads half as many cache lines.
constexpr size_t kHeapArity = 4;

void heapUp(std::vector<IndexEntry> &heap, size_t i)
{
    const IndexEntry entry = heap[i];
    while (i > 0) {
        const size_t parent = (i - 1) / kHeapArity;
        if (!(heap[parent] > entry))
            break;
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = entry;
}

void heapDown(std::vector<IndexEntry> &heap, size_t i)
{
    const size_t n = heap.size();
    const IndexEntry entry = heap[i];
    for (;;) {
        const size_t first = i * kHeapArity + 1;
        if (first >= n)
            break;
        size_t least = first;
        const size_t end = std::min(first + kHeapArity, n);
        for (size_t c = first + 1; c < end; ++c) {
            if (heap[least] > heap[c])
                least = c;
        }
        if (!(entry > heap[least]))
            break;
        heap[i] = heap[least];
        i = least;
    }
    heap[i] = entry;
}

void heapPush(std::vector<IndexEntry> &heap, const IndexEntry &entry)
{
    heap.push_back(entry);
    heapUp(heap, heap.size() - 1);
}

void heapPop(std::vector<IndexEntry> &heap)
{
    heap.front() = heap.back();
    heap.pop_back();
    if (!heap.empty())
        heapDown(heap, 0);
}

void heapMake(std::vector<IndexEntry> &heap)
{
    if (heap.size() < 2)
        return;
    for (size_t i = (heap.size() - 2) / kHeapArity + 1; i-- > 0;)  // every entry with a child
        heapDown(heap, i);
}

// A bucket set aside from a class's index for lack of memory: no node in it had more than
// `memory` MiB free when it was parked. The most memory on top.
struct ParkedEntry {
    int64_t memory = 0;
    int bucket = 0;
    bool operator<(const ParkedEntry &other) const
    {
        return memory != other.memory ? memory < other.memory : bucket < other.bucket;
    }
};

// A bucket that a class's index holds under the tie of a node behind its tie winner, the nodes
// ahead having been found without the memory a task of the class asked for: none of them had
// more than `memory` MiB free. The most memory on top.
struct AheadEntry {
    int64_t memory = 0;
    int bucket = 0;
    int tie = 0;
    bool operator<(const AheadEntry &other) const
    {
        return memory != other.memory ? memory < other.memory : bucket < other.bucket;
    }
};

// The buckets that can hold a task class (but for memory, and CPU where the key does not hold
// it) as a 4-ary heap, least IndexEntry on top, kept for a class placed often by replaying the
// buckets' change log since it last looked, so a placement visits a handful of buckets instead
// of all of them. A changed bucket is pushed anew; its older entries stay behind, stale (they
// differ from the bucket's BucketCost), are dropped when they reach the top, and all of them when
// the heap has grown to twice the buckets it holds. A bucket whose nodes all lack the memory a
// placement asks for is parked: kept out of the heap until a task of the class asks for no more
// memory than its nodes have free, or its memory bound rises (a logged change), so that a cluster
// with many such buckets does not offer them to every placement.
struct ShapeIndex {
    std::vector<IndexEntry> heap;
    std::vector<ParkedEntry> parked; // max-heap; an entry whose bucket is no longer parked is stale,
                                     // one whose bucket was parked again only takes it back early
    BucketBits indexed;           // the buckets in the index (apart from the costs, so that a replay
                                  // passes over the many that cannot hold the class without them)
    BucketBits parkedBuckets;     // the indexed buckets parked
    std::vector<AheadEntry> ahead; // max-heap: buckets held under a later tie for lack of memory
                                   // ahead (stale once the bucket's BucketCost has another tie)
    int64_t entries = 0;          // buckets indexed
    int64_t parkedEntries = 0;    // of those, parked
    uint64_t generation = 0;      // of the buckets' log the index follows; 0: not kept
    size_t logPosition = 0;       // changes applied
    size_t lastQuery = 0;         // the log's length at the class's last placement
    double meanGap = -1;          // moving average of the changes between placements; < 0: none yet
    int64_t scanVisits = 0;       // buckets the class's last scan visited (useIndex)
    bool queried = false;
};

// The lowest memory with which a task class found no node, and the release count then: while no
// task has left since, the cluster has only shrunk, so that class with as much memory fails again.
struct KnownFailure {
    int64_t releases = -1;
    int64_t memory = 0;
};

template <typename T>
void appendBytes(std::string &key, const T &value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    key.append(bytes, sizeof(T));
}

} // namespace

struct Scheduler::State {
    Policy policy = Policy::Fgd;
    ScoreMode mode = ScoreMode::Study;
    NodeSearch search = NodeSearch::Buckets;
    SeededRandom random{0};
    // Nodes are held in the policy's tie order where the search is by buckets (else in input
    // order): the nodes placements look at first, each bucket's tie winners, then lie together
    // in memory instead of spread over a large fleet. The API speaks of input indices.
    std::vector<int> inputOf;     // [node]: its index in the input
    std::vector<int> nodeOf;      // [input index]: the node
    std::vector<int> rank;        // tie-break place of each node: the seed's ranking (study) or its index
    std::vector<int> tie;         // the policy's tie order: rank, or the index for first-fit
    NodeBuckets buckets;          // NodeSearch::Buckets (not for the random policy)
    std::vector<std::vector<BucketCost>> bucketCosts; // [shape][bucket]
    std::vector<ShapeIndex> shapeIndexes;             // [shape]
    std::vector<IndexEntry> taken;                    // chooseIndexed's entries taken off the heap
    std::vector<int> replayed;                        // useIndex's buckets to replay
    std::vector<KnownFailure> failures;               // [shape]
    std::vector<int> reservedNodes;                   // in input order
    int64_t releases = 0;
    std::vector<NodeRt> nodes;
    std::vector<NodeHot> hot;     // per node, kept equal to NodeRt's fields by refresh()
    std::vector<int> freeMilli;
    std::vector<TypeRt> types;
    int64_t typeCountTotal = 0;
    std::vector<int> shares;       // the types' per-GPU demands (milli-GPU), ascending, each once
    std::vector<int> typesByShare; // the types, grouped by demand: those of shares[k] at
    std::vector<int> shareStart;   // typesByShare[shareStart[k] .. shareStart[k + 1])
    std::vector<TypeFit> fit;      // [node × shares + share]
    std::map<std::string, int> modelIds;
    std::map<std::tuple<int64_t, int, int, uint64_t>, int> shapeIds;
    std::map<std::pair<int, int>, int> affinityIds;
    std::vector<Shape> shapes;
    std::vector<CacheEntry> fgdCache; // [shape × nodes + node], NodeSearch::EveryNode
    std::vector<int> candidates;
    BucketState nextState;        // update()'s, kept so that its key's room is used again
    std::vector<int64_t> cpuBands; // cpuBanded(): the CPU thresholds, ascending, after one below any CPU
    bool bandsStale = false;      // a task class came since the buckets were made
    int64_t capacityMilli = 0;
    int64_t allocatedMilli = 0;
    int64_t fragCountTotal = 0;
    int64_t maxCpuCap = 1;
    int64_t maxGpuCap = 1;

    int typeCount() const { return int(types.size()); }
    const int *gpuFree(int n) const { return freeMilli.data() + nodes[n].first; }

    bool modelOk(const NodeRt &node, uint64_t models) const
    {
        return models == kAnyModel || (node.model >= 0 && ((models >> node.model) & 1u));
    }

    void refresh(int n)
    {
        NodeRt &node = nodes[n];
        const int *f = gpuFree(n);
        node.gpuFree = 0;
        node.maxFree = 0;
        node.fullyFree = 0;
        for (int g = 0; g < node.gpus; ++g) {
            node.gpuFree += f[g];
            node.maxFree = std::max(node.maxFree, f[g]);
            node.fullyFree += f[g] == kMilliPerGpu ? 1 : 0;
        }
        const int64_t before = node.fragCount;
        node.fragCount = 0;
        const size_t base = size_t(n) * shares.size();
        for (size_t k = 0; k < shares.size(); ++k) {
            int64_t sum = 0;
            int count = 0;
            for (int g = 0; g < node.gpus; ++g) {
                if (f[g] < shares[k])
                    sum += f[g];
                else
                    ++count;
            }
            fit[base + k] = {uint16_t(sum), uint16_t(count)};
            for (int i = shareStart[k]; i < shareStart[k + 1]; ++i) {
                const TypeRt &type = types[size_t(typesByShare[size_t(i)])];
                node.fragCount += type.count * typeFragment(node, type, node.cpuFree, node.gpuFree, sum, count);
            }
        }
        fragCountTotal += node.fragCount - before;
        ++node.version;
        NodeHot &h = hot[size_t(n)];
        h.cpuFree = node.cpuFree;
        h.memFree = node.memFree;
        h.maxFree = node.maxFree;
        h.fullyFree = node.fullyFree;
        h.model = node.model;
        h.version = node.version;
        h.reserved = node.reserved;
        h.first = node.first;
    }

    int64_t typeFragment(const NodeRt &node, const TypeRt &type, int64_t cpuFree, int64_t gpuFree,
                         int64_t belowSum, int atLeastCount) const
    {
        if (type.cpuOnly || !modelOk(node, type.models))
            return gpuFree;
        if (cpuFree < type.cpuMilli || atLeastCount < type.gpus)
            return gpuFree;
        return belowSum;
    }

    // Σ count × fragment of node n after taking `cpu` and applying the GPU changes.
    int64_t fragCountAfter(int n, int64_t cpu, const GpuChange *changes, int changeCount) const
    {
        const NodeRt &node = nodes[n];
        const int64_t cpuFree = node.cpuFree - cpu;
        int64_t gpuFree = node.gpuFree;
        for (int c = 0; c < changeCount; ++c)
            gpuFree -= int64_t(changes[c].oldFree - changes[c].newFree) * changes[c].count;
        const size_t base = size_t(n) * shares.size();
        int64_t total = 0;
        for (size_t k = 0; k < shares.size(); ++k) {
            const int demand = shares[k];
            int64_t sum = fit[base + k].below;
            int count = fit[base + k].atLeast;
            for (int c = 0; c < changeCount; ++c) {
                const GpuChange &change = changes[c];
                if (change.oldFree < demand)
                    sum -= int64_t(change.oldFree) * change.count;
                else
                    count -= change.count;
                if (change.newFree < demand)
                    sum += int64_t(change.newFree) * change.count;
                else
                    count += change.count;
            }
            for (int i = shareStart[k]; i < shareStart[k + 1]; ++i) {
                const TypeRt &type = types[size_t(typesByShare[size_t(i)])];
                total += type.count * typeFragment(node, type, cpuFree, gpuFree, sum, count);
            }
        }
        return total;
    }

    bool fits(int n, const Shape &shape, int64_t memory, bool wholeNodeTask) const
    {
        const NodeHot &node = hot[size_t(n)];
        if (node.reserved && !wholeNodeTask)
            return false;
        if (node.cpuFree < shape.cpuMilli || node.memFree < memory)
            return false;
        if (shape.gpus == 0)
            return true;
        if (shape.models != kAnyModel && (node.model < 0 || !((shape.models >> node.model) & 1u)))
            return false;
        if (shape.gpuMilli == kMilliPerGpu)
            return node.fullyFree >= shape.gpus;
        if (shape.gpus == 1)
            return node.maxFree >= shape.gpuMilli;
        const int *f = gpuFree(n);
        int count = 0;
        for (int g = 0; g < nodes[size_t(n)].gpus; ++g)
            count += f[g] >= shape.gpuMilli ? 1 : 0;
        return count >= shape.gpus;
    }

    // The best-fitting GPUs for the shape: least free share that holds it, then lowest index.
    int bestFitGpus(int n, const Shape &shape, int *out) const
    {
        const NodeRt &node = nodes[n];
        const int *f = gpuFree(n);
        uint64_t taken = 0;
        for (int k = 0; k < shape.gpus; ++k) {
            int best = -1;
            for (int g = 0; g < node.gpus; ++g) {
                if ((taken >> g) & 1u || f[g] < shape.gpuMilli)
                    continue;
                if (best < 0 || f[g] < f[best])
                    best = g;
            }
            out[k] = best;
            taken |= uint64_t(1) << best;
        }
        std::sort(out, out + shape.gpus);
        return shape.gpus;
    }

    // Changes that taking `gpus` of node n for the shape makes, grouped by free share.
    int changesFor(int n, const Shape &shape, const int *gpus, int gpuCount, GpuChange *out) const
    {
        const int *f = gpuFree(n);
        int count = 0;
        for (int i = 0; i < gpuCount; ++i) {
            const int old = f[gpus[i]];
            int c = 0;
            while (c < count && out[c].oldFree != old)
                ++c;
            if (c == count)
                out[count++] = {old, old - shape.gpuMilli, 0};
            ++out[c].count;
        }
        return count;
    }

    // What FGD minimises for a placement that changes node fragmentation by `deltaCount`
    // (Σ count × milli-GPU): that growth (exact), or minus the study's whole-number score.
    int64_t fgdCost(int64_t deltaCount) const
    {
        if (mode == ScoreMode::Exact)
            return deltaCount;
        return -fgdStudyScore(-double(deltaCount) / double(std::max<int64_t>(typeCountTotal, 1)));
    }

    // Starts fetching what fgdCompute reads of node n (its GPUs' free shares apart: where they lie
    // is read from the node itself).
    void prefetchNode(int n) const
    {
        const NodeRt *node = nodes.data() + n;
        __builtin_prefetch(node);
        __builtin_prefetch(reinterpret_cast<const char *>(node) + sizeof(NodeRt) - 1);
        const TypeFit *row = fit.data() + size_t(n) * shares.size();
        for (size_t k = 0; k < shares.size(); k += 64 / sizeof(TypeFit))
            __builtin_prefetch(row + k);
        if (!shares.empty())
            __builtin_prefetch(row + shares.size() - 1);
    }

    // prefetchNode, the node's GPUs' free shares and its bucket too, for the node a placement has
    // chosen (whose hot fields the choice has read): place() reads them all at once.
    void prefetchChosen(int n) const
    {
        prefetchNode(n);
        __builtin_prefetch(freeMilli.data() + hot[size_t(n)].first);
        if (bucketed())
            buckets.prefetchBucketOf(n);
    }

    // FGD: the cost (fgdCost) of the shape's best placement on node n; the first GPU wins ties.
    CacheEntry fgdCompute(int n, int shapeId) const
    {
        const NodeRt &node = nodes[n];
        const Shape &shape = shapes[size_t(shapeId)];
        CacheEntry entry;
        entry.version = node.version;
        GpuChange changes[kMaxGpusPerNode];
        if (shape.gpus == 0) {
            entry.delta = fgdCost(fragCountAfter(n, shape.cpuMilli, changes, 0) - node.fragCount);
        } else if (shape.gpus == 1) {
            const int *f = gpuFree(n);
            bool first = true;
            for (int g = 0; g < node.gpus; ++g) {
                if (f[g] < shape.gpuMilli || std::find(f, f + g, f[g]) != f + g)
                    continue;
                changes[0] = {f[g], f[g] - shape.gpuMilli, 1};
                const int64_t delta = fgdCost(fragCountAfter(n, shape.cpuMilli, changes, 1) - node.fragCount);
                if (first || delta < entry.delta) {
                    entry.delta = delta;
                    entry.gpu = g;
                    first = false;
                }
            }
        } else {
            int chosen[kMaxGpusPerNode];
            bestFitGpus(n, shape, chosen);
            const int count = changesFor(n, shape, chosen, shape.gpus, changes);
            entry.delta = fgdCost(fragCountAfter(n, shape.cpuMilli, changes, count) - node.fragCount);
        }
        return entry;
    }

    // fgdCompute, kept per node and shape until the node changes (NodeSearch::EveryNode).
    CacheEntry fgdChoice(int n, int shapeId)
    {
        CacheEntry &cached = fgdCache[size_t(shapeId) * nodes.size() + size_t(n)];
        if (cached.version != nodes[n].version)
            cached = fgdCompute(n, shapeId);
        return cached;
    }

    double baselineScore(int n, const Shape &shape) const
    {
        const NodeRt &node = nodes[n];
        const int64_t gpuAsk = int64_t(shape.gpus) * shape.gpuMilli;
        switch (policy) {
        case Policy::BestFit:
            return 0.5 * double(node.cpuFree - shape.cpuMilli) / double(maxCpuCap)
                 + 0.5 * double(node.gpuFree - gpuAsk) / double(maxGpuCap);
        case Policy::DotProduct: {
            const double cpuCap = double(std::max<int64_t>(node.cpuCap, 1));
            double dot = double(shape.cpuMilli) / cpuCap * double(node.cpuFree) / cpuCap;
            if (node.gpus > 0) {
                const double gpuCap = double(node.gpus) * kMilliPerGpu;
                dot += double(gpuAsk) / gpuCap * double(node.gpuFree) / gpuCap;
            }
            return dot;
        }
        case Policy::Packing: {
            if (shape.gpus == 0)
                return 0;
            if (node.fullyFree == node.gpus)
                return 2e6 + node.gpus;
            int chosen[kMaxGpusPerNode];
            bestFitGpus(n, shape, chosen);
            const int *f = gpuFree(n);
            int fullyFreeUsed = 0;
            int64_t freeOnUsed = 0;
            for (int i = 0; i < shape.gpus; ++i) {
                fullyFreeUsed += f[chosen[i]] == kMilliPerGpu ? 1 : 0;
                freeOnUsed += f[chosen[i]];
            }
            return fullyFreeUsed > 0 ? 1e6 + fullyFreeUsed : double(freeOnUsed);
        }
        case Policy::Clustering: {
            if (shape.gpus == 0)
                return 0;
            const bool same = hostsClass(node, shape.affinity);
            const size_t kinds = node.affinities.size();
            const int tier = same ? (kinds == 1 ? 0 : 1) : (kinds == 0 ? 2 : 3);
            return tier * 1e7 + double(node.gpuFree - gpuAsk);
        }
        case Policy::FirstFit:
        case Policy::Random:
        case Policy::Fgd:
            return 0;
        }
        return 0;
    }

    // The study's whole-number score of node n for the shape (higher wins); see frag_scheduler.h.
    int64_t studyScore(int n, const Shape &shape, int shapeId)
    {
        const NodeRt &node = nodes[n];
        const int64_t gpuAsk = int64_t(shape.gpus) * shape.gpuMilli;
        switch (policy) {
        case Policy::Fgd: {
            const CacheEntry &cached = fgdCache[size_t(shapeId) * nodes.size() + size_t(n)];
            return -(cached.version == hot[size_t(n)].version ? cached.delta : fgdChoice(n, shapeId).delta);
        }
        case Policy::BestFit: {
            double left = 0;
            left += double(node.cpuFree - shape.cpuMilli) / double(maxCpuCap) * 0.5;
            left += double(node.gpuFree - gpuAsk) / double(maxGpuCap) * 0.5;
            return int64_t((1.0 - left) * double(kMaxNodeScore));
        }
        case Policy::DotProduct: {
            double dot = 0;
            dot += double(node.cpuFree) / double(maxCpuCap) * (double(shape.cpuMilli) / double(maxCpuCap));
            dot += double(node.gpuFree) / double(maxGpuCap) * (double(gpuAsk) / double(maxGpuCap));
            return int64_t(double(kMaxNodeScore) * (1.0 - dot / 2.0));
        }
        case Policy::Packing: {
            if (shape.gpus == 0)
                return 0;
            if (node.fullyFree == node.gpus)
                return std::max<int64_t>(kMaxNodeScore / 3 - node.fullyFree, node.fullyFree);
            int chosen[kMaxGpusPerNode];
            bestFitGpus(n, shape, chosen);
            const int *f = gpuFree(n);
            int64_t fullyFreeUsed = 0;
            int64_t freePctOnUsed = 0;
            for (int i = 0; i < shape.gpus; ++i) {
                fullyFreeUsed += f[chosen[i]] == kMilliPerGpu ? 1 : 0;
                freePctOnUsed += int64_t(f[chosen[i]]) * 100 / kMilliPerGpu;
            }
            if (fullyFreeUsed > 0)
                return std::max<int64_t>(kMaxNodeScore / 2 - fullyFreeUsed, kMaxNodeScore / 3);
            return std::max<int64_t>(kMaxNodeScore - freePctOnUsed / 10, kMaxNodeScore / 2);
        }
        case Policy::Clustering: {
            if (shape.gpus == 0)
                return 0;
            const bool same = hostsClass(node, shape.affinity);
            const size_t kinds = node.affinities.size();
            const int64_t band = same ? (kinds == 1 ? 3 : 2) : (kinds == 0 ? 1 : 0);
            return kMaxNodeScore / 4 * (maxGpuCap - node.gpuFree) / maxGpuCap + kMaxNodeScore * band / 4;
        }
        case Policy::FirstFit:
        case Policy::Random:
            return 0;
        }
        return 0;
    }

    // The study's random policy: a GPU drawn uniformly among those that hold the share.
    int randomGpu(int n, const Shape &shape)
    {
        const NodeRt &node = nodes[n];
        const int *f = gpuFree(n);
        int chosen = -1;
        uint32_t holding = 0;
        for (int g = 0; g < node.gpus; ++g) {
            if (f[g] >= shape.gpuMilli && random.below(++holding) == 0)
                chosen = g;
        }
        return chosen;
    }

    int shapeFor(const Task &task)
    {
        Shape shape;
        shape.cpuMilli = task.cpuMilli;
        if (sizeClass(task) != SizeClass::CpuOnly) {
            shape.gpus = task.gpus;
            shape.gpuMilli = task.gpuMilli;
            if (!task.allowedModels.empty()) {
                shape.models = 0;
                for (const std::string &model : task.allowedModels) {
                    const auto it = modelIds.find(model);
                    if (it != modelIds.end())
                        shape.models |= uint64_t(1) << it->second;
                }
            }
            // The study's classes: "share-gpu" for every fractional task, "<k>-gpu" for k whole GPUs.
            const bool share = mode == ScoreMode::Study && shape.gpuMilli < kMilliPerGpu;
            const std::pair<int, int> key = share ? std::pair<int, int>{0, int(kShareAffinity)}
                                                  : std::pair<int, int>{shape.gpus, shape.gpuMilli};
            const auto affinity = affinityIds.try_emplace(key, int(affinityIds.size()));
            shape.affinity = affinity.first->second;
        }
        const auto key = std::make_tuple(shape.cpuMilli, shape.gpus, shape.gpuMilli, shape.models);
        const auto found = shapeIds.find(key);
        if (found != shapeIds.end())
            return found->second;
        const int id = int(shapes.size());
        shapeIds.emplace(key, id);
        shapes.push_back(shape);
        if (search == NodeSearch::EveryNode)
            fgdCache.resize(shapes.size() * nodes.size());
        bucketCosts.resize(shapes.size());
        shapeIndexes.resize(shapes.size());
        failures.resize(shapes.size());
        if (cpuBanded())
            bandsStale = true;
        return id;
    }

    // FGD scores a node's free CPU only against the CPU the task types ask for, before and after
    // the scored class takes its own, and fits it against the class's: nodes whose free CPU lies
    // between the same two of these thresholds are interchangeable, so its bucket key holds the
    // threshold at or below the free CPU instead of the free CPU itself (a large fleet's nodes
    // then share a few buckets instead of spreading over one per free CPU).
    bool cpuBanded() const { return bucketed() && policy == Policy::Fgd; }

    // The greatest threshold at or below `cpuFree` (cpuBanded).
    int64_t cpuBand(int64_t cpuFree) const
    {
        return *(std::upper_bound(cpuBands.begin(), cpuBands.end(), cpuFree) - 1);
    }

    // The buckets made anew when a task class has come since they were made (cpuBanded): its
    // CPU, alone and added to every type's, may split a band.
    void ensureBuckets()
    {
        if (!bandsStale)
            return;
        bandsStale = false;
        cpuBands.assign(1, std::numeric_limits<int64_t>::min());
        for (const TypeRt &type : types) {
            if (type.cpuOnly)  // its fragment is the node's free GPU, whatever the CPU
                continue;
            cpuBands.push_back(type.cpuMilli);
            for (const Shape &shape : shapes)
                cpuBands.push_back(type.cpuMilli + shape.cpuMilli);
        }
        for (const Shape &shape : shapes)
            cpuBands.push_back(shape.cpuMilli);
        std::sort(cpuBands.begin(), cpuBands.end());
        cpuBands.erase(std::unique(cpuBands.begin(), cpuBands.end()), cpuBands.end());
        makeBuckets();  // a new generation: every index is made anew
        for (std::vector<BucketCost> &costs : bucketCosts)
            costs.clear();
    }

    // Every node in the bucket of its state.
    void makeBuckets()
    {
        std::vector<BucketState> states;
        states.reserve(nodes.size());
        for (int n = 0; n < int(nodes.size()); ++n)
            states.push_back(bucketState(n));
        buckets.build(tie, std::move(states));
    }

    bool bucketed() const { return search == NodeSearch::Buckets && policy != Policy::Random; }

    // The node of input index `input`; throws std::out_of_range past the nodes.
    size_t node(int input) const { return size_t(nodeOf.at(size_t(input))); }

    // Whether the policy's score reads the free CPU (then the bucket key holds it): FGD through
    // the task types' CPU needs, best-fit and dot-product directly; packing, clustering and
    // first-fit not (their buckets check CPU per node). FGD keys it even on nodes without a free
    // GPU, where fragmentation is nil whatever the CPU: buckets are listed by free CPU, so a
    // CPU-only task passes over those with too little at once instead of node by node.
    bool scoresCpu() const
    {
        switch (policy) {
        case Policy::Fgd:
        case Policy::BestFit:
        case Policy::DotProduct: return true;
        case Policy::Packing:
        case Policy::Clustering:
        case Policy::FirstFit:
        case Policy::Random: return false;
        }
        return true;
    }

    // The bucket key of node n: its GPU model, GPU count, whether it is reserved, the free share of
    // its GPUs in ascending order, and what else the policy scores (free CPU, the CPU capacity for
    // exact dot-product, the request classes hosted for clustering). Memory is checked per node.
    BucketState bucketState(int n) const
    {
        BucketState state;
        fillBucketState(n, state);
        return state;
    }

    // bucketState(), written over `state` so that its key's room is used again.
    void fillBucketState(int n, BucketState &state) const
    {
        const NodeRt &node = nodes[size_t(n)];
        state.hot = BucketHot{};
        state.keyHash.reset();
        state.key.clear();
        state.memFree = node.memFree;
        state.hot.cpuKeyed = scoresCpu();
        state.hot.cpuFree = !state.hot.cpuKeyed ? 0 : cpuBanded() ? cpuBand(node.cpuFree) : node.cpuFree;
        state.hot.model = int16_t(node.model);
        state.hot.reserved = node.reserved;
        std::string &key = state.key;
        key.reserve(32 + size_t(node.gpus) * 2);
        appendBytes(key, int32_t(node.model));
        appendBytes(key, int32_t(node.gpus));
        appendBytes(key, char(node.reserved));
        appendBytes(key, char(state.hot.cpuKeyed));
        if (state.hot.cpuKeyed)
            appendBytes(key, state.hot.cpuFree);
        if (policy == Policy::DotProduct && mode == ScoreMode::Exact)
            appendBytes(key, node.cpuCap);
        int sorted[kMaxGpusPerNode];
        std::copy(gpuFree(n), gpuFree(n) + node.gpus, sorted);
        std::sort(sorted, sorted + node.gpus);
        for (int g = 0; g < node.gpus; ++g)
            appendBytes(key, int16_t(sorted[g]));
        // As refresh() finds them, so that the state may be worked out before it runs.
        state.hot.maxFree = int16_t(node.gpus > 0 ? std::max(sorted[node.gpus - 1], 0) : 0);
        state.hot.fullyFree = int16_t(std::count(sorted, sorted + node.gpus, kMilliPerGpu));
        if (policy == Policy::Clustering) {
            std::vector<int> classes;
            for (const auto &[affinity, tasks] : node.affinities) {
                if (tasks > 0)
                    classes.push_back(affinity);
            }
            std::sort(classes.begin(), classes.end());
            for (const int affinity : classes)
                appendBytes(key, int32_t(affinity));
        }
    }

    // Brings what is kept of node n up to its changed state (refresh()) and moves it to the
    // bucket of that state. The state is worked out first, so that the bucket table's entries
    // that the move reads are fetched from memory while refresh() runs.
    void update(int n)
    {
        if (!bucketed()) {
            refresh(n);
            return;
        }
        fillBucketState(n, nextState);
        buckets.prefetch(n, nextState);
        refresh(n);
        buckets.move(n, nextState);
    }

    // The shape's fit on every node of the bucket but for memory (and CPU when the key does not
    // hold it), which is checked per node.
    bool bucketFits(const BucketHot &h, const Shape &shape, bool wholeNodeTask) const
    {
        if (h.reserved && !wholeNodeTask)
            return false;
        if (h.cpuKeyed && h.cpuFree < shape.cpuMilli)
            return false;
        if (shape.gpus == 0)
            return true;
        if (shape.models != kAnyModel && (h.model < 0 || !((shape.models >> h.model) & 1u)))
            return false;
        if (shape.gpuMilli == kMilliPerGpu)
            return h.fullyFree >= shape.gpus;
        if (shape.gpus == 1)
            return h.maxFree >= shape.gpuMilli;
        const int n = h.winner;
        const int *f = gpuFree(n);
        int count = 0;
        for (int g = 0; g < nodes[size_t(n)].gpus; ++g)
            count += f[g] >= shape.gpuMilli ? 1 : 0;
        return count >= shape.gpus;
    }

    // What the policy minimises for node n (every node of its bucket scores the same): FGD's
    // cost, minus the study's whole-number score, or the exact baseline score.
    double nodeCost(int n, const Shape &shape, int shapeId)
    {
        if (policy == Policy::Fgd)
            return double(fgdCompute(n, shapeId).delta);
        if (mode == ScoreMode::Study)
            return -double(studyScore(n, shape, shapeId));
        return baselineScore(n, shape);
    }

    // The lowest bucket level (NodeBuckets::level) whose buckets can hold the shape.
    static int lowestLevel(const Shape &shape)
    {
        return shape.gpus == 0                 ? 0
               : shape.gpuMilli < kMilliPerGpu ? shape.gpuMilli
                                               : NodeBuckets::level(kMilliPerGpu, shape.gpus);
    }

    // The bucket's entry in the class's index, brought up to its state: pushed under its cost and
    // tie-winning node while it is live and can hold the class, else only marked out (its entries
    // in the heap are then stale).
    void reindex(ShapeIndex &index, std::vector<BucketCost> &costs, int bucket, const Shape &shape, int shapeId,
                 bool wholeNodeTask)
    {
        const BucketHot &h = buckets.hot(bucket);
        const bool fits = h.live && bucketFits(h, shape, wholeNodeTask);
        const bool held = index.indexed.test(bucket);
        if (!fits && !held)
            return;
        BucketCost &entry = costs[size_t(bucket)];
        if (held && fits && entry.version == h.version && entry.tie == h.minTie) {
            if (index.parkedBuckets.test(bucket))  // its memory bound may have risen
                unpark(index, entry, bucket);
            return; // otherwise unchanged for this class
        }
        if (held) {
            index.indexed.set(bucket, false);
            --index.entries;
            if (index.parkedBuckets.test(bucket)) {
                index.parkedBuckets.set(bucket, false);
                --index.parkedEntries;
            }
        }
        if (!fits)
            return;
        if (entry.version != h.version) {
            entry.cost = nodeCost(h.winner, shape, shapeId);
            entry.version = h.version;
        }
        entry.tie = h.minTie;
        index.indexed.set(bucket, true);
        ++index.entries;
        heapPush(index.heap, {entry.cost, entry.tie, bucket});
    }

    // The heaps of the class's index made anew from the buckets it holds, stale entries dropped;
    // a parked bucket under its memory bound now (its rises since it was parked replayed).
    void compact(ShapeIndex &index, const std::vector<BucketCost> &costs) const
    {
        index.heap.clear();
        index.parked.clear();
        index.indexed.forEach([&](int b) {
            if (index.parkedBuckets.test(b))
                index.parked.push_back({buckets.memoryBound(b), b});
            else
                index.heap.push_back({costs[size_t(b)].cost, costs[size_t(b)].tie, b});
        });
        heapMake(index.heap);
        std::make_heap(index.parked.begin(), index.parked.end());
        std::erase_if(index.ahead, [&](const AheadEntry &a) {
            return !index.indexed.test(a.bucket) || costs[size_t(a.bucket)].tie != a.tie;
        });
        std::make_heap(index.ahead.begin(), index.ahead.end());
    }

    // Sets the indexed bucket aside: none of its nodes has more than `memory` MiB free.
    static void park(ShapeIndex &index, int bucket, int64_t memory)
    {
        index.parkedBuckets.set(bucket, true);
        ++index.parkedEntries;
        index.parked.push_back({memory, bucket});
        std::push_heap(index.parked.begin(), index.parked.end());
    }

    // Puts the parked bucket back in the index's heap.
    static void unpark(ShapeIndex &index, const BucketCost &entry, int bucket)
    {
        index.parkedBuckets.set(bucket, false);
        --index.parkedEntries;
        heapPush(index.heap, {entry.cost, entry.tie, bucket});
    }

    // Holds under its tie winner again every bucket held under a later tie whose nodes ahead may
    // have `memory` MiB free.
    void aheadFor(ShapeIndex &index, std::vector<BucketCost> &costs, int64_t memory)
    {
        while (!index.ahead.empty() && index.ahead.front().memory >= memory) {
            const AheadEntry top = index.ahead.front();
            std::pop_heap(index.ahead.begin(), index.ahead.end());
            index.ahead.pop_back();
            BucketCost &entry = costs[size_t(top.bucket)];
            if (!index.indexed.test(top.bucket) || entry.tie != top.tie)
                continue;
            entry.tie = buckets.hot(top.bucket).minTie;
            if (!index.parkedBuckets.test(top.bucket))
                heapPush(index.heap, {entry.cost, entry.tie, top.bucket});
        }
    }

    // Takes back every parked bucket that may have `memory` MiB free on a node.
    static void unparkFor(ShapeIndex &index, const std::vector<BucketCost> &costs, int64_t memory)
    {
        while (!index.parked.empty() && index.parked.front().memory >= memory) {
            const ParkedEntry top = index.parked.front();
            std::pop_heap(index.parked.begin(), index.parked.end());
            index.parked.pop_back();
            if (index.parkedBuckets.test(top.bucket))
                unpark(index, costs[size_t(top.bucket)], top.bucket);
        }
    }

    // Whether the class's placement reads its index, brought up to date first. Keeping an index
    // costs a replay of every bucket change between two placements of the class (about a bucket
    // visit each); a scan costs a visit to every bucket that can hold the class (as many as its
    // last scan visited). A class starts an index, built from every bucket, when its mean gap
    // between placements (a moving average, in changes) is at most the larger of kIndexGap and
    // its last scan's visits, keeps it while the gap is at most four times that, and scans
    // otherwise. The larger the fleet, the more buckets a scan visits and the more classes keep
    // an index: a placement then costs a replay of a few changes per such class, whatever the
    // number of buckets, and a class that still scans is placed so seldom that its scans cost
    // no more than the replays would.
    bool useIndex(int shapeId, const Shape &shape, bool wholeNodeTask)
    {
        constexpr double kIndexGap = 1024;
        ShapeIndex &index = shapeIndexes[size_t(shapeId)];
        std::vector<BucketCost> &costs = bucketCosts[size_t(shapeId)];
        const size_t now = buckets.changeCount();
        if (index.queried) {
            const double gap = double(now - index.lastQuery);
            index.meanGap = index.meanGap < 0 ? gap : 0.75 * index.meanGap + 0.25 * gap;
        }
        index.lastQuery = now;
        index.queried = true;
        const bool current = index.generation != 0 && index.generation == buckets.generation();
        const double indexGap = std::max(kIndexGap, double(index.scanVisits));
        if (index.meanGap < 0 || index.meanGap > (current ? 4 * indexGap : indexGap)) {
            index.generation = 0;
            return false;
        }
        if (current) {
            const int from = lowestLevel(shape);
            // Most changes concern buckets the class neither holds nor can use, and are passed
            // over. The others name each bucket once (a bucket's earlier changes are superseded),
            // so they are listed first and then replayed in turn, each bucket's cost and state
            // fetched from memory kAhead buckets ahead and, where its cost is to be worked out
            // anew, its tie winner's state half-way.
            replayed.clear();
            for (size_t i = index.logPosition; i < now; ++i) {
                if (!buckets.superseded(i)
                    && (buckets.changeLevel(i) >= from || index.indexed.test(buckets.change(i))))
                    replayed.push_back(buckets.change(i));
            }
            constexpr size_t kAhead = 8;
            for (size_t j = 0; j < replayed.size(); ++j) {
                if (j + kAhead < replayed.size()) {
                    const int later = replayed[j + kAhead];
                    __builtin_prefetch(&costs[size_t(later)]);
                    __builtin_prefetch(&buckets.hot(later));
                }
                if (j + kAhead / 2 < replayed.size()) {
                    const int soon = replayed[j + kAhead / 2];
                    const BucketHot &h = buckets.hot(soon);
                    if (costs[size_t(soon)].version != h.version && h.live && h.winner >= 0)
                        prefetchNode(h.winner);
                }
                reindex(index, costs, replayed[j], shape, shapeId, wholeNodeTask);
            }
            if (int64_t(index.heap.size()) > 2 * index.entries + 64
                || int64_t(index.parked.size()) > 2 * index.parkedEntries + 64
                || int64_t(index.ahead.size()) > 2 * index.entries + 64)
                compact(index, costs);
        } else {
            index.heap.clear();
            index.parked.clear();
            index.ahead.clear();
            index.entries = 0;
            index.parkedEntries = 0;
            index.indexed.clear();
            index.parkedBuckets.clear();
            for (int b = 0; b < buckets.slots(); ++b)
                reindex(index, costs, b, shape, shapeId, wholeNodeTask);
            index.generation = buckets.generation();
        }
        index.logPosition = now;
        return true;
    }

    // chooseBucketed's choice read from the class's index: buckets by least cost, then tie-winning
    // node, taken off the heap (stale entries for good, the others put back after); each one's
    // nodes in tie order up to the first with the memory (and CPU) the task needs, until no later
    // bucket can do better. A bucket found to have no node with that memory is parked instead of
    // put back; parked buckets whose nodes may have it come back first. A bucket put back whose
    // first nodes could not take the task is put back under the first node that might.
    int chooseIndexed(int shapeId, const Shape &shape, int64_t memory)
    {
        ShapeIndex &index = shapeIndexes[size_t(shapeId)];
        std::vector<BucketCost> &costs = bucketCosts[size_t(shapeId)];
        aheadFor(index, costs, memory);
        unparkFor(index, costs, memory);
        std::vector<IndexEntry> &heap = index.heap;
        taken.clear();
        int best = -1;
        int bestTie = INT_MAX;
        double bestCost = 0;
        while (!heap.empty()) {
            IndexEntry entry = heap.front();
            const BucketCost &now = costs[size_t(entry.bucket)];
            const bool stale = !index.indexed.test(entry.bucket) || index.parkedBuckets.test(entry.bucket)
                            || now.cost != entry.cost || now.tie != entry.tie;
            if (!stale && best >= 0 && (entry.cost > bestCost || entry.tie >= bestTie))
                break;
            heapPop(heap);
            if (stale)
                continue;
            if (buckets.memoryBound(entry.bucket) < memory) {
                park(index, entry.bucket, buckets.memoryBound(entry.bucket));
                continue;
            }
            const BucketHot &h = buckets.hot(entry.bucket);
            const std::vector<BucketMember> &members = buckets.members(entry.bucket);
            int64_t mostMemory = 0;  // over the nodes looked at
            int64_t failedMemory = -1;  // most free memory of the nodes passed over for lack of it
            bool found = false;
            auto it = members.rbegin();
            for (; it != members.rend(); ++it) {
                const int n = it->node;
                if (best >= 0 && it->tie >= bestTie)
                    break;
                const NodeHot &node = hot[size_t(n)];
                mostMemory = std::max(mostMemory, node.memFree);
                if (!h.cpuKeyed && node.cpuFree < shape.cpuMilli)
                    continue;
                if (node.memFree < memory) {
                    failedMemory = std::max(failedMemory, node.memFree);
                    continue;
                }
                best = n;
                bestTie = it->tie;
                bestCost = entry.cost;
                found = true;
                prefetchChosen(n);
                break;
            }
            if (!found && it == members.rend()) {  // every node looked at: the bound is known
                buckets.lowerMemoryBound(entry.bucket, mostMemory);
                if (mostMemory < memory) {
                    park(index, entry.bucket, mostMemory);
                    continue;
                }
            }
            if (it != members.rend() && it->tie != entry.tie) {
                // Held from now on under the first node not known unable to take the task: a
                // placement asking for more than failedMemory MiB passes over the nodes ahead.
                entry.tie = it->tie;
                costs[size_t(entry.bucket)].tie = entry.tie;
                buckets.watchAhead(entry.bucket, entry.tie);
                if (failedMemory >= 0) {
                    index.ahead.push_back({failedMemory, entry.bucket, entry.tie});
                    std::push_heap(index.ahead.begin(), index.ahead.end());
                }
            }
            taken.push_back(entry);
        }
        for (const IndexEntry &entry : taken) {
            heapPush(heap, entry);
        }
        return best;
    }

    // The node with the least cost, then the first in tie order, among the nodes that fit: each
    // bucket that fits is scored once per shape (cached until its state changes) and only its
    // nodes in tie order are checked for memory, up to the first that fits.
    int chooseBucketed(const Shape &shape, int shapeId, int64_t memory, bool wholeNodeTask)
    {
        if (wholeNodeTask) {
            for (const int n : reservedNodes) {
                if (fits(n, shape, memory, true))
                    return n;
            }
        }
        std::vector<BucketCost> &costs = bucketCosts[size_t(shapeId)];
        if (costs.size() < size_t(buckets.slots())) {
            costs.reserve(nodes.size());  // a slot per live bucket at most, so never moved
            costs.resize(size_t(buckets.slots()));
        }
        ShapeIndex &index = shapeIndexes[size_t(shapeId)];
        index.indexed.reserve(size_t(buckets.slots()));
        index.parkedBuckets.reserve(size_t(buckets.slots()));
        if (useIndex(shapeId, shape, wholeNodeTask))
            return chooseIndexed(shapeId, shape, memory);
        const int from = lowestLevel(shape);
        int best = -1;
        int bestTie = INT_MAX;
        double bestCost = 0;
        int64_t &visits = index.scanVisits;
        visits = 0;
        buckets.forEachFrom(from, shape.cpuMilli, [&](int bucket) {
            ++visits;
            const BucketHot &h = buckets.hot(bucket);
            if (!bucketFits(h, shape, wholeNodeTask))
                return;
            const std::vector<BucketMember> &members = buckets.members(bucket);
            BucketCost &cached = costs[size_t(bucket)];
            if (cached.version != h.version) {
                cached.cost = nodeCost(members.back().node, shape, shapeId);
                cached.version = h.version;
            }
            const double cost = cached.cost;
            if (best >= 0 && (cost > bestCost || (cost == bestCost && h.minTie >= bestTie)))
                return;
            if (buckets.memoryBound(bucket) < memory)
                return;
            for (auto it = members.rbegin(); it != members.rend(); ++it) {
                const int n = it->node;
                if (best >= 0 && cost == bestCost && it->tie >= bestTie)
                    break;
                const NodeHot &node = hot[size_t(n)];
                if (node.memFree < memory || (!h.cpuKeyed && node.cpuFree < shape.cpuMilli))
                    continue;
                best = n;
                bestTie = it->tie;
                bestCost = cost;
                prefetchChosen(n);
                break;
            }
        }, [&](int bucket) {
            __builtin_prefetch(&costs[size_t(bucket)]);
            __builtin_prefetch(&buckets.hot(bucket));
        }, [&](int bucket) {
            // A bucket whose state changed since this class last scored it is scored on its tie
            // winner, whose state a large fleet no longer holds in cache.
            const BucketHot &h = buckets.hot(bucket);
            if (costs[size_t(bucket)].version != h.version && h.winner >= 0)
                prefetchNode(h.winner);
        });
        return best;
    }

    int chooseNode(const Shape &shape, int shapeId, int64_t memory, bool wholeNodeTask)
    {
        if (bucketed())
            return chooseBucketed(shape, shapeId, memory, wholeNodeTask);
        const int count = int(nodes.size());
        if (wholeNodeTask) {
            for (int n = 0; n < count; ++n) {
                if (nodes[n].reserved && fits(n, shape, memory, true))
                    return n;
            }
        }
        int best = -1;
        if (policy == Policy::Fgd && mode == ScoreMode::Exact) {
            int64_t bestDelta = 0;
            for (int n = 0; n < count; ++n) {
                if (!fits(n, shape, memory, wholeNodeTask))
                    continue;
                const CacheEntry &cached = fgdCache[size_t(shapeId) * nodes.size() + size_t(n)];
                const int64_t delta = cached.version == hot[size_t(n)].version ? cached.delta : fgdChoice(n, shapeId).delta;
                if (best < 0 || delta < bestDelta) {
                    best = n;
                    bestDelta = delta;
                }
            }
            return best;
        }
        if (policy == Policy::Random) {
            candidates.clear();
            for (int n = 0; n < count; ++n) {
                if (fits(n, shape, memory, wholeNodeTask))
                    candidates.push_back(n);
            }
            return candidates.empty() ? -1 : candidates[random.below(uint32_t(candidates.size()))];
        }
        if (policy == Policy::FirstFit) {
            for (int n = 0; n < count; ++n) {
                if (fits(n, shape, memory, wholeNodeTask))
                    return n;
            }
            return -1;
        }
        if (mode == ScoreMode::Study) {
            // Nodes in index order (memory order); the highest score wins, then the lowest rank.
            int64_t bestScore = 0;
            for (int n = 0; n < count; ++n) {
                if (!fits(n, shape, memory, wholeNodeTask))
                    continue;
                const int64_t score = studyScore(n, shape, shapeId);
                if (best < 0 || score > bestScore || (score == bestScore && rank[size_t(n)] < rank[size_t(best)])) {
                    best = n;
                    bestScore = score;
                }
            }
            return best;
        }
        double bestScore = 0;
        for (int n = 0; n < count; ++n) {
            if (!fits(n, shape, memory, wholeNodeTask))
                continue;
            const double score = baselineScore(n, shape);
            if (best < 0 || score < bestScore) {
                best = n;
                bestScore = score;
            }
        }
        return best;
    }
};

Scheduler::Scheduler(const std::vector<Node> &nodes, const TargetWorkload &workload, Policy policy,
                     uint32_t seed, int reservedWholeNodes, ScoreMode mode, NodeSearch search)
    : m_state(std::make_unique<State>())
{
    State &s = *m_state;
    s.policy = policy;
    s.mode = mode;
    s.search = search;
    s.random = SeededRandom(seed ^ kRandomPolicyStream);
    if (reservedWholeNodes < 0)
        throw InputError("reserved_whole_nodes", "the number of reserved nodes must not be negative");
    for (const Node &node : nodes) {
        if (node.gpus < 0 || node.gpus > kMaxGpusPerNode || node.cpuMilli < 0 || node.memoryMiB < 0)
            throw InputError("nodes", "node " + node.id + ": CPU, memory and GPU count must be ≥ 0, at most 64 GPUs");
        if (node.gpus > 0 && !node.gpuModel.empty())
            s.modelIds.try_emplace(node.gpuModel, int(s.modelIds.size()));
    }
    if (s.modelIds.size() > size_t(kMaxModels))
        throw InputError("nodes", "more than 64 GPU models");

    // The tie-break ranking (in input order): a permutation drawn from the seed (study), else the
    // input order; the tie order is the input order for first-fit.
    const size_t count = nodes.size();
    std::vector<int> rank(count);
    std::iota(rank.begin(), rank.end(), 0);
    if (mode == ScoreMode::Study) {
        for (size_t i = count; i > 1; --i)
            std::swap(rank[i - 1], rank[s.random.below(uint32_t(i))]);
    }
    s.inputOf.resize(count);
    std::iota(s.inputOf.begin(), s.inputOf.end(), 0);
    if (s.bucketed() && policy != Policy::FirstFit) {
        for (size_t j = 0; j < count; ++j)
            s.inputOf[size_t(rank[j])] = int(j);
    }
    s.nodeOf.resize(count);
    for (size_t n = 0; n < count; ++n)
        s.nodeOf[size_t(s.inputOf[n])] = int(n);

    std::vector<bool> reserved(count, false);
    int reservedLeft = reservedWholeNodes;
    for (size_t j = 0; j < count && reservedLeft > 0; ++j) {
        if (nodes[j].gpus == kWholeNodeGpus) {
            reserved[j] = true;
            s.reservedNodes.push_back(s.nodeOf[j]);
            --reservedLeft;
        }
    }
    if (reservedLeft > 0)
        throw InputError("reserved_whole_nodes", "more nodes to reserve than the cluster has 8-GPU nodes");
    for (const int input : s.inputOf) {
        const Node &node = nodes[size_t(input)];
        NodeRt rt;
        rt.cpuFree = rt.cpuCap = node.cpuMilli;
        rt.memFree = rt.memCap = node.memoryMiB;
        rt.gpus = node.gpus;
        const auto model = s.modelIds.find(node.gpuModel);
        rt.model = node.gpus > 0 && model != s.modelIds.end() ? model->second : -1;
        rt.first = int(s.freeMilli.size());
        rt.reserved = reserved[size_t(input)];
        s.freeMilli.insert(s.freeMilli.end(), size_t(node.gpus), kMilliPerGpu);
        s.capacityMilli += int64_t(node.gpus) * kMilliPerGpu;
        s.maxCpuCap = std::max(s.maxCpuCap, node.cpuMilli);
        s.maxGpuCap = std::max<int64_t>(s.maxGpuCap, int64_t(node.gpus) * kMilliPerGpu);
        s.nodes.push_back(std::move(rt));
        s.rank.push_back(rank[size_t(input)]);
        s.tie.push_back(policy == Policy::FirstFit ? input : rank[size_t(input)]);
    }

    for (const TaskType &type : workload.types) {
        TypeRt rt;
        rt.cpuMilli = type.cpuMilli;
        rt.cpuOnly = type.gpus <= 0 || type.gpuMilli <= 0;
        rt.gpus = rt.cpuOnly ? 0 : type.gpus;
        rt.gpuMilli = rt.cpuOnly ? 0 : type.gpuMilli;
        rt.count = type.count;
        if (!rt.cpuOnly && !type.allowedModels.empty()) {
            rt.models = 0;
            for (const std::string &model : type.allowedModels) {
                const auto it = s.modelIds.find(model);
                if (it != s.modelIds.end())
                    rt.models |= uint64_t(1) << it->second;
            }
        }
        s.typeCountTotal += rt.count;
        s.types.push_back(rt);
    }
    s.hot.resize(s.nodes.size());
    for (const TypeRt &type : s.types)
        s.shares.push_back(type.gpuMilli);
    std::sort(s.shares.begin(), s.shares.end());
    s.shares.erase(std::unique(s.shares.begin(), s.shares.end()), s.shares.end());
    s.shareStart.assign(s.shares.size() + 1, 0);
    for (TypeRt &type : s.types) {
        type.share = int(std::lower_bound(s.shares.begin(), s.shares.end(), type.gpuMilli) - s.shares.begin());
        ++s.shareStart[size_t(type.share) + 1];
    }
    std::partial_sum(s.shareStart.begin(), s.shareStart.end(), s.shareStart.begin());
    s.typesByShare.resize(s.types.size());
    std::vector<int> placed(s.shareStart.begin(), s.shareStart.end() - 1);
    for (size_t t = 0; t < s.types.size(); ++t)
        s.typesByShare[size_t(placed[size_t(s.types[t].share)]++)] = int(t);
    s.fit.assign(s.nodes.size() * s.shares.size(), TypeFit{});
    s.candidates.reserve(s.nodes.size());
    for (int n = 0; n < int(s.nodes.size()); ++n)
        s.refresh(n);
    if (s.cpuBanded())
        s.bandsStale = true;  // made at the first placement, once the task classes are known
    else if (s.bucketed())
        s.makeBuckets();
}

Scheduler::~Scheduler() = default;

int Scheduler::taskClass(const Task &task)
{
    if (task.gpus < 0 || task.gpus > kMaxGpusPerNode || task.gpuMilli < 0 || task.gpuMilli > kMilliPerGpu
        || task.cpuMilli < 0 || task.memoryMiB < 0)
        throw InputError("tasks", "task " + task.id + ": CPU and memory must be ≥ 0, GPUs 0..64, GPU share 0..1000");
    return m_state->shapeFor(task);
}

Placement Scheduler::place(const Task &task)
{
    return place(taskClass(task), task.memoryMiB);
}

Placement Scheduler::place(int shapeId, int64_t memoryMiB)
{
    State &s = *m_state;
    if (shapeId < 0 || shapeId >= int(s.shapes.size()))
        throw InputError("tasks", "task class " + std::to_string(shapeId) + " is not one of the scheduler's "
                                      + std::to_string(s.shapes.size()) + " classes");
    if (memoryMiB < 0)
        throw InputError("tasks", "a task's memory must be ≥ 0, not " + std::to_string(memoryMiB) + " MiB");
    const Shape &shape = s.shapes[size_t(shapeId)];
    const bool wholeNodeTask = shape.gpus >= kWholeNodeGpus;
    Placement placement;
    KnownFailure &failure = s.failures[size_t(shapeId)];
    const bool fast = s.search == NodeSearch::Buckets;
    if (fast && failure.releases == s.releases && memoryMiB >= failure.memory)
        return placement;
    s.ensureBuckets();
    const int n = s.chooseNode(shape, shapeId, memoryMiB, wholeNodeTask);
    if (n < 0) {
        if (failure.releases != s.releases || memoryMiB < failure.memory)
            failure = {s.releases, memoryMiB};
        return placement;
    }
    placement.node = s.inputOf[size_t(n)];
    NodeRt &node = s.nodes[size_t(n)];
    if (shape.gpus == 1 && s.policy == Policy::Fgd) {
        placement.gpus.push_back(s.search == NodeSearch::Buckets ? s.fgdCompute(n, shapeId).gpu
                                                                 : s.fgdChoice(n, shapeId).gpu);
    } else if (shape.gpus == 1 && shape.gpuMilli < kMilliPerGpu && s.policy == Policy::Random
               && s.mode == ScoreMode::Study) {
        placement.gpus.push_back(s.randomGpu(n, shape));
    } else if (shape.gpus > 0) {
        placement.gpus.resize(size_t(shape.gpus));
        s.bestFitGpus(n, shape, placement.gpus.data());
    }
    node.cpuFree -= shape.cpuMilli;
    node.memFree -= memoryMiB;
    int *f = s.freeMilli.data() + node.first;
    for (const int g : placement.gpus)
        f[g] -= shape.gpuMilli;
    s.allocatedMilli += int64_t(shape.gpus) * shape.gpuMilli;
    if (shape.affinity >= 0) {
        auto it = std::find_if(node.affinities.begin(), node.affinities.end(),
                               [&](const auto &a) { return a.first == shape.affinity; });
        if (it == node.affinities.end())
            node.affinities.emplace_back(shape.affinity, 1);
        else
            ++it->second;
    }
    s.update(n);
    return placement;
}

void Scheduler::release(const Task &task, const Placement &placement)
{
    State &s = *m_state;
    const int shapeId = s.shapeFor(task);
    const Shape &shape = s.shapes[size_t(shapeId)];
    if (placement.node < 0 || placement.node >= int(s.nodes.size()) || int(placement.gpus.size()) != shape.gpus)
        throw InputError("placement", "task " + task.id + ": the placement does not match the task");
    const int n = s.nodeOf[size_t(placement.node)];
    s.ensureBuckets();
    NodeRt &node = s.nodes[size_t(n)];
    int *f = s.freeMilli.data() + node.first;
    for (size_t i = 0; i < placement.gpus.size(); ++i) {
        const int g = placement.gpus[i];
        if (g < 0 || g >= node.gpus || f[g] + shape.gpuMilli > kMilliPerGpu
            || std::find(placement.gpus.begin(), placement.gpus.begin() + std::ptrdiff_t(i), g)
                   != placement.gpus.begin() + std::ptrdiff_t(i))
            throw InputError("placement", "task " + task.id + ": GPU " + std::to_string(g) + " does not hold it");
    }
    if (node.cpuFree + shape.cpuMilli > node.cpuCap || node.memFree + task.memoryMiB > node.memCap)
        throw InputError("placement", "task " + task.id + ": node " + std::to_string(placement.node) + " does not hold it");
    auto affinity = std::find_if(node.affinities.begin(), node.affinities.end(),
                                 [&](const auto &a) { return a.first == shape.affinity; });
    if (shape.affinity >= 0 && affinity == node.affinities.end())
        throw InputError("placement", "task " + task.id + ": node " + std::to_string(placement.node) + " does not hold it");
    node.cpuFree += shape.cpuMilli;
    node.memFree += task.memoryMiB;
    for (const int g : placement.gpus)
        f[g] += shape.gpuMilli;
    s.allocatedMilli -= int64_t(shape.gpus) * shape.gpuMilli;
    if (shape.affinity >= 0 && --affinity->second == 0)
        node.affinities.erase(affinity);
    ++s.releases;
    s.update(n);
}

int Scheduler::tieRank(int node) const
{
    return m_state->rank[m_state->node(node)];
}

int Scheduler::bucketCount() const
{
    if (!m_state->bucketed())
        return 0;
    m_state->ensureBuckets();
    return m_state->buckets.bucketCount();
}

int Scheduler::nodeCount() const
{
    return int(m_state->nodes.size());
}

NodeFree Scheduler::nodeFree(int node) const
{
    const State &s = *m_state;
    const size_t n = s.node(node);
    const NodeRt &rt = s.nodes[n];
    NodeFree free;
    free.cpuMilli = rt.cpuFree;
    for (const auto &[name, id] : s.modelIds) {
        if (id == rt.model)
            free.gpuModel = name;
    }
    free.freeMilli.assign(s.gpuFree(int(n)), s.gpuFree(int(n)) + rt.gpus);
    return free;
}

int64_t Scheduler::capacityMilli() const
{
    return m_state->capacityMilli;
}

int64_t Scheduler::allocatedMilli() const
{
    return m_state->allocatedMilli;
}

double Scheduler::fragmentMilli() const
{
    const State &s = *m_state;
    return s.typeCountTotal > 0 ? double(s.fragCountTotal) / double(s.typeCountTotal) : 0.0;
}

double Scheduler::nodeFragmentMilli(int node) const
{
    const State &s = *m_state;
    return s.typeCountTotal > 0 ? double(s.nodes[s.node(node)].fragCount) / double(s.typeCountTotal) : 0.0;
}

NodeCategory Scheduler::category(int node, int type) const
{
    const State &s = *m_state;
    const size_t n = s.node(node);
    const NodeRt &rt = s.nodes[n];
    const TypeRt &t = s.types.at(size_t(type));
    const bool cpuFits = rt.cpuFree >= t.cpuMilli;
    if (t.cpuOnly)
        return cpuFits ? NodeCategory::CpuOnlyFits : NodeCategory::CpuOnlyLacksCpu;
    if (t.models != kAnyModel && !s.modelOk(rt, t.models))
        return NodeCategory::ModelMismatch;
    const bool gpuFits = s.fit[n * s.shares.size() + size_t(t.share)].atLeast >= t.gpus;
    if (cpuFits)
        return gpuFits ? NodeCategory::Fits : NodeCategory::LacksGpu;
    return gpuFits ? NodeCategory::LacksCpu : NodeCategory::LacksBoth;
}

} // namespace headroom::engine::frag
