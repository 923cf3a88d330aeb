#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Nodes of a cluster grouped by the state a placement policy scores (frag_scheduler.h,
// NodeSearch::Buckets). Nodes in one bucket are interchangeable for the policy's score, so a
// task class is scored once per bucket instead of once per node; a bucket lists its nodes in the
// policy's tie order, so the node a tie goes to is found without looking at the others.
// Internal to the scheduler.
namespace headroom::engine::frag {

// What the scheduler knows of a bucket without looking at its nodes, packed for the scan over
// all buckets that every placement makes.
struct BucketHot {
    int64_t cpuFree = 0;          // of every node, when cpuKeyed (FGD: the threshold at or below it)
    int16_t maxFree = 0;          // largest free share of one GPU, milli-GPU
    int16_t fullyFree = 0;        // GPUs wholly free
    int16_t model = -1;
    int minTie = 0;               // tie order of the node that wins ties in the bucket
    int winner = -1;              // that node, so that its state can be fetched ahead of a score
    uint32_t version = 0;         // changes whenever the slot is given to another state
    bool reserved = false;
    bool cpuKeyed = false;        // the key holds the free CPU, so every node has cpuFree
    bool live = false;            // the slot has nodes; filled in by NodeBuckets
};
static_assert(sizeof(BucketHot) == 32, "two buckets a cache line");

// The state of a node as the bucket key sees it.
struct BucketState {
    std::string key;              // bytes of everything the score depends on
    BucketHot hot;                // minTie, winner and version are filled in by NodeBuckets
    int64_t memFree = 0;          // the node's free memory, MiB: not in the key (memoryBound)
    std::optional<uint64_t> keyHash; // the key's hash, once NodeBuckets::prefetch has worked it out
};

// A node of a bucket beside its place in the tie order, so that walking a bucket in that order,
// or finding a node's place in it, reads the bucket alone.
struct BucketMember {
    int tie = 0;
    int node = 0;
};

class NodeBuckets {
public:
    // One level per largest free GPU share below a whole GPU (0..999), then one per number of
    // wholly free GPUs (1..64): a task that needs a share s can only fit buckets at level ≥ s,
    // one that needs k whole GPUs only those at level ≥ 999 + k.
    static constexpr int kLevels = 1000 + 64;
    static int level(int maxFree, int fullyFree);

    // `tie[n]`: node n's place in the tie order (lower wins); each node n gets states[n].
    void build(const std::vector<int> &tie, std::vector<BucketState> states);
    // Moves node n to the bucket of `state` (a new one if no node is in that state), or records
    // its free memory when it stays.
    void move(int n, const BucketState &state);
    // Starts fetching from memory what move(n, state) reads first — the node's bucket and the
    // place of the state's key in the table of keys — so that a caller with other work to do
    // before the move finds them in cache. Works out the key's hash.
    void prefetch(int n, BucketState &state) const;
    // Starts fetching which bucket node n is in, the first thing prefetch(n, …) reads.
    void prefetchBucketOf(int n) const { __builtin_prefetch(m_nodeBucket.data() + n); }

    int bucketOf(int n) const { return m_nodeBucket[size_t(n)]; }
    const BucketHot &hot(int bucket) const { return m_hot[size_t(bucket)]; }
    // The bucket's nodes, the one that wins ties last.
    const std::vector<BucketMember> &members(int bucket) const { return m_buckets[size_t(bucket)].members; }
    int slots() const { return int(m_buckets.size()); }
    int bucketCount() const { return m_live; }
    bool live(int bucket) const { return m_hot[size_t(bucket)].live; }

    // At least the most free memory (MiB) of any of the bucket's nodes: raised when a node comes
    // in or gains memory above it, not lowered when one leaves or loses memory. A caller that has
    // seen every member may lower it to the most it found (lowerMemoryBound); a rise above it is
    // then logged as a change, so a bucket set aside for lack of memory is taken back in time.
    int64_t memoryBound(int bucket) const { return m_buckets[size_t(bucket)].memoryBound; }
    void lowerMemoryBound(int bucket, int64_t memFree);

    // A caller that has found the bucket's nodes ahead of `tie` unable to take a task (for lack
    // of memory or CPU) and now orders the bucket by `tie` instead of its tie winner asks to be
    // told when that may no longer hold: the next node to come in ahead of `tie`, or to stay with
    // other free memory or CPU, is logged as a change of the bucket (and the watch ends).
    void watchAhead(int bucket, int tie);

    // Every change of what a bucket offers a placement — its state (a bucket given a state or
    // emptied), its tie winner (minTie), a rise of its memory bound, or a watched node
    // (watchAhead) — in order; members that come or go behind the winner otherwise are not
    // logged. A caller that keeps its own order of the buckets (the scheduler's index of a task
    // class) replays the changes since it last looked instead of visiting every bucket.
    // `generation` changes when build() starts the log anew.
    size_t changeCount() const { return m_changes.size(); }
    int change(size_t i) const { return m_changes[i].bucket; }
    // The level the bucket had when change i was logged: a bucket that changes level is logged
    // anew, so a caller may pass over a change below the levels it reads of a bucket it holds not.
    int changeLevel(size_t i) const { return m_changes[i].level; }
    // Whether the bucket of change i changed again later: a replay that reaches the log's end
    // may pass over such a change, the later one standing for both (the log holds a bucket's
    // latest change whatever it offers now).
    bool superseded(size_t i) const { return m_changes[i].superseded; }
    uint64_t generation() const { return m_generation; }

    // Calls f(bucket) for every bucket at a level ≥ `from` whose nodes may have `cpu` free
    // (buckets whose key holds no CPU are always visited), ahead(bucket) kAhead buckets before f
    // reaches it, so that what f reads of it can be fetched from memory meanwhile, and soon(bucket)
    // half-way, when what ahead fetched is there to say what else f will read.
    template <typename F, typename A, typename S>
    void forEachFrom(int from, int64_t cpu, F &&f, A &&ahead, S &&soon) const
    {
        constexpr size_t kAhead = 16;
        for (size_t word = size_t(from) / 64; word < m_nonEmpty.size(); ++word) {
            uint64_t bits = m_nonEmpty[word];
            if (word == size_t(from) / 64)
                bits &= ~uint64_t(0) << (from % 64);
            while (bits) {
                const int lvl = int(word) * 64 + __builtin_ctzll(bits);
                bits &= bits - 1;
                bool more = true;
                for (const std::vector<LevelEntry> &list : m_levels[size_t(lvl)].chunks) {
                    for (size_t i = 0; i < list.size(); ++i) {
                        if (list[i].cpu < cpu) {
                            more = false;
                            break;
                        }
                        if (i + kAhead < list.size())
                            ahead(list[i + kAhead].bucket);
                        if (i + kAhead / 2 < list.size())
                            soon(list[i + kAhead / 2].bucket);
                        f(list[i].bucket);
                    }
                    if (!more)
                        break;
                }
            }
        }
    }

private:
    struct Bucket {
        std::vector<BucketMember> members; // descending tie order
        int64_t memoryBound = 0;    // memoryBound(), beside the members that placements read
        int watchTie = INT_MIN;     // watchAhead(): nodes ahead of this tie are watched
        std::string key;
        uint64_t keyHash = 0;
        int level = 0;
    };
    // A bucket in its level's list, which runs from the most free CPU down (then by bucket), kept
    // in chunks of at most kChunk so that a bucket comes or goes without moving the whole list.
    struct LevelEntry {
        int64_t cpu = 0;            // the nodes' free CPU; the most there is when the key holds none
        int bucket = 0;
        bool operator<(const LevelEntry &other) const
        {
            return cpu != other.cpu ? cpu > other.cpu : bucket < other.bucket;
        }
    };
    // Sorted chunks, none empty, and each one's last entry side by side, so that the chunk of an
    // entry is found without fetching every chunk the search passes.
    struct LevelList {
        std::vector<std::vector<LevelEntry>> chunks;
        std::vector<LevelEntry> lasts;
    };
    LevelEntry levelEntry(int bucket) const;
    static size_t chunkFor(const LevelList &list, const LevelEntry &entry);

    static uint64_t hashOf(const BucketState &state);
    int acquire(const BucketState &state, uint64_t hash);
    void release(int bucket);
    void insertMember(int bucket, int n);
    void raiseMemoryBound(int bucket, int64_t memFree, size_t logged);
    void logChange(int bucket);
    void eraseMember(int bucket, int n);
    void linkLevel(int bucket);
    int findKey(const std::string &key, uint64_t hash) const;
    void insertKey(uint64_t hash, int bucket);
    void eraseKey(uint64_t hash, int bucket);
    void unlinkLevel(int bucket);

    std::vector<int> m_tie;
    std::vector<int> m_nodeBucket;
    std::vector<Bucket> m_buckets;
    std::vector<BucketHot> m_hot;
    std::vector<int> m_free;        // unused slots
    // The live buckets by key: open addressing with linear probing, at most half full, so that
    // finding a key reads one slot and the key it holds.
    struct KeySlot {
        uint64_t hash = 0;
        int bucket = -1;            // -1: empty
    };
    std::vector<KeySlot> m_keySlots;
    size_t m_keyCount = 0;
    static constexpr size_t kChunk = 128;
    std::vector<LevelList> m_levels = std::vector<LevelList>(kLevels);
    std::array<uint64_t, (kLevels + 63) / 64> m_nonEmpty{};
    int m_live = 0;
    struct Change {
        int bucket = 0;
        int16_t level = 0;
        bool superseded = false;
    };
    std::vector<Change> m_changes;
    std::vector<size_t> m_lastChange;  // per slot: its latest change in the log, or kNoChange
    static constexpr size_t kNoChange = ~size_t(0);
    uint64_t m_generation = 0;
};

} // namespace headroom::engine::frag
