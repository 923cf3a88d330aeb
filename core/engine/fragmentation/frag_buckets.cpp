// Buckets of interchangeable nodes (frag_buckets.h): membership kept in tie order, buckets found
// by key, and grouped into levels by the largest GPU share they can still give.
#include "frag_buckets.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace headroom::engine::frag {

namespace {

constexpr int kWholeGpu = 1000;

// Whether a member comes before a node of tie `tie` in a bucket's descending tie order.
bool aheadOf(const BucketMember &member, int tie)
{
    return member.tie > tie;
}

} // namespace

int NodeBuckets::level(int maxFree, int fullyFree)
{
    return maxFree < kWholeGpu ? std::max(maxFree, 0) : kWholeGpu - 1 + std::min(fullyFree, kLevels - kWholeGpu);
}

void NodeBuckets::build(const std::vector<int> &tie, std::vector<BucketState> states)
{
    m_tie = tie;
    m_nodeBucket.assign(tie.size(), -1);
    m_buckets.clear();
    m_hot.clear();
    m_free.clear();
    m_keySlots.clear();
    m_keyCount = 0;
    for (LevelList &lvl : m_levels) {
        lvl.chunks.clear();
        lvl.lasts.clear();
    }
    m_nonEmpty.fill(0);
    m_live = 0;
    m_changes.clear();
    m_lastChange.clear();
    ++m_generation;
    // Append, then sort each bucket once: inserting one by one would shift large buckets.
    for (size_t n = 0; n < states.size(); ++n) {
        const int64_t memFree = states[n].memFree;
        const uint64_t hash = hashOf(states[n]);
        const int bucket = acquire(states[n], hash);
        Bucket &b = m_buckets[size_t(bucket)];
        b.members.push_back({m_tie[n], int(n)});
        b.memoryBound = std::max(b.memoryBound, memFree);
        m_nodeBucket[n] = bucket;
    }
    for (size_t b = 0; b < m_buckets.size(); ++b) {
        std::vector<BucketMember> &members = m_buckets[b].members;
        std::sort(members.begin(), members.end(), [](const BucketMember &a, const BucketMember &c) { return a.tie > c.tie; });
        m_hot[b].minTie = members.back().tie;
        m_hot[b].winner = members.back().node;
    }
}

void NodeBuckets::move(int n, const BucketState &state)
{
    const int old = m_nodeBucket[size_t(n)];
    const size_t logged = m_changes.size();
    const uint64_t hash = hashOf(state);
    if (old >= 0 && m_buckets[size_t(old)].keyHash == hash && m_buckets[size_t(old)].key == state.key) {
        Bucket &b = m_buckets[size_t(old)];
        if (m_tie[size_t(n)] < b.watchTie) {  // a watched node's memory or CPU changed
            b.watchTie = INT_MIN;
            logChange(old);
        }
        raiseMemoryBound(old, state.memFree, logged);
        return;
    }
    if (old >= 0) {
        eraseMember(old, n);
        if (m_buckets[size_t(old)].members.empty())
            release(old);
    }
    const int64_t memFree = state.memFree;
    const int bucket = acquire(state, hash);
    insertMember(bucket, n);
    raiseMemoryBound(bucket, memFree, logged);
    m_nodeBucket[size_t(n)] = bucket;
}

void NodeBuckets::prefetch(int n, BucketState &state) const
{
    state.keyHash = std::hash<std::string>{}(state.key);
    if (!m_keySlots.empty())
        __builtin_prefetch(&m_keySlots[*state.keyHash & (m_keySlots.size() - 1)]);
    const int old = m_nodeBucket[size_t(n)];
    if (old >= 0) {
        const Bucket *bucket = m_buckets.data() + old;
        __builtin_prefetch(bucket);
        __builtin_prefetch(reinterpret_cast<const char *>(bucket) + sizeof(Bucket) - 1);
    }
}

uint64_t NodeBuckets::hashOf(const BucketState &state)
{
    return state.keyHash ? *state.keyHash : std::hash<std::string>{}(state.key);
}

void NodeBuckets::watchAhead(int bucket, int tie)
{
    int &watch = m_buckets[size_t(bucket)].watchTie;
    watch = std::max(watch, tie);
}

void NodeBuckets::lowerMemoryBound(int bucket, int64_t memFree)
{
    int64_t &bound = m_buckets[size_t(bucket)].memoryBound;
    bound = std::min(bound, memFree);
}

// Raises the bucket's memory bound to a node's `memFree` and logs it, unless the change log
// already holds the bucket from entry `logged` on (this move logged it already).
void NodeBuckets::raiseMemoryBound(int bucket, int64_t memFree, size_t logged)
{
    int64_t &bound = m_buckets[size_t(bucket)].memoryBound;
    if (memFree <= bound)
        return;
    bound = memFree;
    if (m_changes.size() == logged || m_changes.back().bucket != bucket)
        logChange(bucket);
}

int NodeBuckets::acquire(const BucketState &state, uint64_t hash)
{
    const int found = findKey(state.key, hash);
    if (found >= 0)
        return found;
    int bucket;
    if (m_free.empty()) {
        bucket = int(m_buckets.size());
        m_buckets.emplace_back();
        m_hot.emplace_back();
        m_lastChange.push_back(kNoChange);
    } else {
        bucket = m_free.back();
        m_free.pop_back();
    }
    const uint32_t version = m_hot[size_t(bucket)].version + 1;
    m_hot[size_t(bucket)] = state.hot;
    m_hot[size_t(bucket)].version = version;
    m_hot[size_t(bucket)].live = true;
    Bucket &b = m_buckets[size_t(bucket)];
    b.key = state.key;  // into the room a released bucket left, where there is one
    b.level = level(state.hot.maxFree, state.hot.fullyFree);
    b.memoryBound = 0;
    b.watchTie = INT_MIN;
    b.keyHash = hash;
    insertKey(hash, bucket);
    linkLevel(bucket);
    ++m_live;
    logChange(bucket);
    return bucket;
}

void NodeBuckets::release(int bucket)
{
    Bucket &b = m_buckets[size_t(bucket)];
    unlinkLevel(bucket);
    eraseKey(b.keyHash, bucket);
    b.key.clear();
    ++m_hot[size_t(bucket)].version;  // scores cached for the old state no longer hold
    m_hot[size_t(bucket)].live = false;
    m_free.push_back(bucket);
    --m_live;
    logChange(bucket);
}

void NodeBuckets::insertMember(int bucket, int n)
{
    std::vector<BucketMember> &members = m_buckets[size_t(bucket)].members;
    const int tie = m_tie[size_t(n)];
    members.insert(std::lower_bound(members.begin(), members.end(), tie, aheadOf), {tie, n});
    Bucket &b = m_buckets[size_t(bucket)];
    if (members.back().node == n) {  // the new tie winner: logged (a new bucket is logged by acquire)
        m_hot[size_t(bucket)].minTie = tie;
        m_hot[size_t(bucket)].winner = n;
        if (members.size() > 1)
            logChange(bucket);
        b.watchTie = INT_MIN;
    } else if (tie < b.watchTie) {  // ahead of a watched tie
        b.watchTie = INT_MIN;
        logChange(bucket);
    }
}

void NodeBuckets::eraseMember(int bucket, int n)
{
    std::vector<BucketMember> &members = m_buckets[size_t(bucket)].members;
    if (members.back().node == n) {
        // The tie winner left: logged (an emptied bucket is logged by release).
        members.pop_back();
        if (!members.empty()) {
            m_hot[size_t(bucket)].minTie = members.back().tie;
            m_hot[size_t(bucket)].winner = members.back().node;
            logChange(bucket);
        }
    } else {
        members.erase(std::lower_bound(members.begin(), members.end(), m_tie[size_t(n)], aheadOf));
    }
}

int NodeBuckets::findKey(const std::string &key, uint64_t hash) const
{
    if (m_keySlots.empty())
        return -1;
    const size_t mask = m_keySlots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const KeySlot &slot = m_keySlots[i];
        if (slot.bucket < 0)
            return -1;
        if (slot.hash == hash && m_buckets[size_t(slot.bucket)].key == key)
            return slot.bucket;
    }
}

void NodeBuckets::insertKey(uint64_t hash, int bucket)
{
    if ((m_keyCount + 1) * 2 > m_keySlots.size()) {  // twice the room, every key placed anew
        std::vector<KeySlot> old(std::max<size_t>(64, m_keySlots.size() * 2));
        old.swap(m_keySlots);
        m_keyCount = 0;
        for (const KeySlot &slot : old) {
            if (slot.bucket >= 0)
                insertKey(slot.hash, slot.bucket);
        }
    }
    const size_t mask = m_keySlots.size() - 1;
    size_t i = hash & mask;
    while (m_keySlots[i].bucket >= 0)
        i = (i + 1) & mask;
    m_keySlots[i] = {hash, bucket};
    ++m_keyCount;
}

// Empties the bucket's slot and moves later keys of the same run back into the hole where their
// probe would otherwise no longer find them (backward-shift deletion), so no tombstones build up.
void NodeBuckets::eraseKey(uint64_t hash, int bucket)
{
    const size_t mask = m_keySlots.size() - 1;
    size_t hole = hash & mask;
    while (m_keySlots[hole].bucket != bucket)
        hole = (hole + 1) & mask;
    for (size_t j = (hole + 1) & mask; m_keySlots[j].bucket >= 0; j = (j + 1) & mask) {
        const size_t home = m_keySlots[j].hash & mask;
        const bool reachable = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!reachable) {  // its probe from home passes the hole
            m_keySlots[hole] = m_keySlots[j];
            hole = j;
        }
    }
    m_keySlots[hole] = KeySlot{};
    --m_keyCount;
}

void NodeBuckets::logChange(int bucket)
{
    size_t &last = m_lastChange[size_t(bucket)];
    if (last != kNoChange)
        m_changes[last].superseded = true;
    last = m_changes.size();
    m_changes.push_back({bucket, int16_t(m_buckets[size_t(bucket)].level), false});
}

NodeBuckets::LevelEntry NodeBuckets::levelEntry(int bucket) const
{
    const BucketHot &h = m_hot[size_t(bucket)];
    return {h.cpuKeyed ? h.cpuFree : std::numeric_limits<int64_t>::max(), bucket};
}

// The chunk of the level list that holds `entry` or would take it: the first whose last entry is
// not before it, else the last.
size_t NodeBuckets::chunkFor(const LevelList &list, const LevelEntry &entry)
{
    const size_t chunk = size_t(std::lower_bound(list.lasts.begin(), list.lasts.end(), entry) - list.lasts.begin());
    return chunk == list.lasts.size() ? chunk - 1 : chunk;
}

void NodeBuckets::linkLevel(int bucket)
{
    const int lvl = m_buckets[size_t(bucket)].level;
    LevelList &list = m_levels[size_t(lvl)];
    const LevelEntry entry = levelEntry(bucket);
    m_nonEmpty[size_t(lvl) / 64] |= uint64_t(1) << (lvl % 64);
    if (list.chunks.empty()) {
        list.chunks.push_back({entry});
        list.lasts.push_back(entry);
        return;
    }
    const size_t c = chunkFor(list, entry);
    std::vector<LevelEntry> &chunk = list.chunks[c];
    chunk.insert(std::lower_bound(chunk.begin(), chunk.end(), entry), entry);
    list.lasts[c] = chunk.back();
    if (chunk.size() > kChunk) {  // split in halves
        std::vector<LevelEntry> upper(chunk.begin() + kChunk / 2, chunk.end());
        chunk.resize(kChunk / 2);
        list.lasts[c] = chunk.back();
        list.lasts.insert(list.lasts.begin() + std::ptrdiff_t(c) + 1, upper.back());
        list.chunks.insert(list.chunks.begin() + std::ptrdiff_t(c) + 1, std::move(upper));
    }
}

void NodeBuckets::unlinkLevel(int bucket)
{
    const int lvl = m_buckets[size_t(bucket)].level;
    LevelList &list = m_levels[size_t(lvl)];
    const LevelEntry entry = levelEntry(bucket);
    const size_t c = chunkFor(list, entry);
    std::vector<LevelEntry> &chunk = list.chunks[c];
    chunk.erase(std::lower_bound(chunk.begin(), chunk.end(), entry));
    if (chunk.empty()) {
        list.chunks.erase(list.chunks.begin() + std::ptrdiff_t(c));
        list.lasts.erase(list.lasts.begin() + std::ptrdiff_t(c));
    } else {
        list.lasts[c] = chunk.back();
    }
    if (list.chunks.empty())
        m_nonEmpty[size_t(lvl) / 64] &= ~(uint64_t(1) << (lvl % 64));
}

} // namespace headroom::engine::frag
