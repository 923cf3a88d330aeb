#include "serving_sim.h"

#include "engine/common/errors.h"
#include "engine/forecast/forecast.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <queue>
#include <random>
#include <thread>
#include <unordered_map>

namespace headroom::engine {

namespace {

// SplitMix64's finaliser (Steele, Lea & Flood, OOPSLA 2014): a fully specified 64-bit mixer.
uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

int64_t combine(uint64_t seed, uint64_t value)
{
    return int64_t(mix64(seed ^ mix64(value)));
}

constexpr uint64_t kUniqueTag = 0x756e697175650000ULL;   // "unique"
constexpr uint64_t kPrefixTag = 0x7379737072000000ULL;   // "syspr"
constexpr uint64_t kContextTag = 0x636f6e7465787400ULL;  // "context"
constexpr uint64_t kMappedTag = 0x6d61707065640000ULL;   // "mapped"

int64_t blocksFor(int64_t tokens, int blockSize)
{
    return (tokens + blockSize - 1) / blockSize;
}

// Uniform in [0, 1) from the top 53 bits of a fully specified engine.
double uniform01(std::mt19937_64 &engine)
{
    return double(engine() >> 11) * 0x1.0p-53;
}

// A request as the simulator replays it.
struct SimRequest {
    double arrivalS = 0;
    int64_t prompt = 0;
    int64_t output = 1;                  // at least one token
    size_t hashBegin = 0;                // into Prepared::hashes
    int64_t promptBlocks = 0;
    bool rejected = false;
    // Replay state.
    int replica = -1;
    int64_t generated = 0;
    int64_t prefillTarget = 0;           // tokens the current prefill must reach
    int64_t prefillDone = 0;
    int64_t privateHeld = 0;
    int64_t loadBlocks = 0;              // counted in the replica's active blocks
    bool admitted = false;               // ever
    bool running = false;
    double firstAdmitS = -1;
    double firstTokenS = -1;
};

struct Prepared {
    std::vector<SimRequest> requests;
    std::vector<int64_t> hashes;
};

void validateTrace(const std::vector<TraceRequest> &trace)
{
    if (trace.empty())
        throw InputError("trace", "the trace has no requests");
    for (size_t i = 0; i < trace.size(); ++i) {
        const TraceRequest &r = trace[i];
        const std::string where = " (request " + std::to_string(i + 1) + ")";
        if (!std::isfinite(r.timestampS))
            throw InputError("timestamp", "timestamp must be a finite number of seconds" + where);
        if (i > 0 && r.timestampS < trace[i - 1].timestampS)
            throw InputError("timestamp", "timestamps must not decrease: request " + std::to_string(i + 1)
                                              + " at " + std::to_string(r.timestampS) + " s comes after request "
                                              + std::to_string(i) + " at " + std::to_string(trace[i - 1].timestampS)
                                              + " s");
        if (r.promptTokens < 0)
            throw InputError("prompt_tokens", "prompt_tokens must be at least 0" + where);
        if (r.outputTokens < 0)
            throw InputError("output_tokens", "output_tokens must be at least 0" + where);
    }
}

// Maps the trace's hash blocks onto simulated blocks of config.blockSize (see the header).
Prepared prepare(const std::vector<TraceRequest> &trace, const ServingSimConfig &config)
{
    Prepared p;
    p.requests.reserve(trace.size());
    const double t0 = trace.front().timestampS;
    const int b = config.blockSize;
    const int tb = config.traceBlockSize;
    for (size_t index = 0; index < trace.size(); ++index) {
        const TraceRequest &t = trace[index];
        SimRequest r;
        r.arrivalS = (t.timestampS - t0) / config.timeScale;
        r.prompt = t.promptTokens;
        r.output = std::max<int64_t>(1, t.outputTokens);
        r.promptBlocks = blocksFor(r.prompt, b);
        r.hashBegin = p.hashes.size();
        r.rejected = blocksFor(r.prompt + r.output, b) > config.kvBlocksPerReplica;
        const int64_t known = int64_t(t.blockHashes.size());
        const uint64_t uniqueSeed = mix64(kUniqueTag ^ uint64_t(index));
        for (int64_t i = 0; i < r.promptBlocks; ++i) {
            const int64_t firstToken = i * b;
            const int64_t lastToken = std::min((i + 1) * int64_t(b), r.prompt) - 1;
            const int64_t firstTrace = firstToken / tb;
            const int64_t lastTrace = lastToken / tb;
            if (lastTrace >= known) {
                p.hashes.push_back(combine(uniqueSeed, uint64_t(i)));
            } else if (b == tb) {
                p.hashes.push_back(t.blockHashes[size_t(i)]);
            } else {
                uint64_t h = mix64(kMappedTag ^ uint64_t(i));
                for (int64_t j = firstTrace; j <= lastTrace; ++j)
                    h = uint64_t(combine(h, uint64_t(t.blockHashes[size_t(j)])));
                p.hashes.push_back(int64_t(h));
            }
        }
        p.requests.push_back(r);
    }
    return p;
}

// One replica: its KV pool as a prefix cache (hash → slot) with an intrusive LRU list of
// the unreferenced cached slots, private blocks, and the scheduler's queues.
class Replica {
public:
    Replica(int64_t poolBlocks, bool prefixCache) : m_pool(poolBlocks), m_prefixCache(prefixCache) {}

    int64_t freeBlocks() const { return m_pool - int64_t(m_map.size()) - m_private; }
    int64_t heldBlocks() const { return int64_t(m_map.size()) - m_lruCount + m_private; }
    bool prefixCache() const { return m_prefixCache; }

    // Leading run of `hashes` present in the cache.
    int64_t overlap(const int64_t *hashes, int64_t count) const
    {
        if (!m_prefixCache)
            return 0;
        int64_t run = 0;
        while (run < count && m_map.count(hashes[run]) != 0)
            ++run;
        return run;
    }

    // Admits request `r`: holds its prompt blocks and private blocks for its generated
    // tokens. False, changing nothing, when the blocks cannot be found.
    bool admit(SimRequest &r, const int64_t *hashes, int blockSize, int64_t *hitBlocks)
    {
        const int64_t hits = overlap(hashes, r.promptBlocks);
        int64_t hitUnreferenced = 0;
        for (int64_t i = 0; i < hits; ++i)
            hitUnreferenced += m_slots[size_t(m_map.at(hashes[i]))].refs == 0 ? 1 : 0;
        const int64_t privateNeeded =
            std::max<int64_t>(0, blocksFor(r.prompt + r.generated, blockSize) - r.promptBlocks);
        const int64_t needed = (r.promptBlocks - hits) + privateNeeded;
        if (freeBlocks() + (m_lruCount - hitUnreferenced) < needed)
            return false;
        for (int64_t i = 0; i < hits; ++i)
            reference(m_map.at(hashes[i]));
        reserve(needed);
        for (int64_t i = hits; i < r.promptBlocks; ++i) {
            if (!m_prefixCache) {
                ++m_private;
                continue;
            }
            const auto found = m_map.find(hashes[i]);
            if (found != m_map.end())
                reference(found->second);
            else
                insertReferenced(hashes[i]);
        }
        m_private += privateNeeded;
        r.privateHeld = privateNeeded;
        *hitBlocks = hits;
        return true;
    }

    // One more private block; evicts cached blocks as needed. False when none can be found.
    bool growPrivate(SimRequest &r)
    {
        if (!reserve(1))
            return false;
        ++m_private;
        ++r.privateHeld;
        return true;
    }

    // Releases a request's blocks: its prompt blocks stay cached, unreferenced, in prompt
    // order at the most-recently-used end; private blocks are freed.
    void release(SimRequest &r, const int64_t *hashes)
    {
        if (m_prefixCache) {
            for (int64_t i = 0; i < r.promptBlocks; ++i)
                unreference(m_map.at(hashes[i]));
        } else {
            m_private -= r.promptBlocks;
        }
        m_private -= r.privateHeld;
        r.privateHeld = 0;
    }

    std::vector<int> waiting;            // request indices; front at the back (see below)
    size_t waitingHead = 0;              // waiting[waitingHead..] in arrival order
    std::vector<int> running;            // in admission order
    bool busy = false;
    int64_t activeBlocks = 0;            // router load: KV need of every routed, unfinished request
    int inFlight = 0;

private:
    struct Slot {
        int64_t hash = 0;
        int32_t refs = 0;
        int32_t prev = -1;               // LRU neighbours while unreferenced
        int32_t next = -1;
    };

    // Evicts least recently used unreferenced blocks until `count` are free.
    bool reserve(int64_t count)
    {
        while (freeBlocks() < count && m_lruHead >= 0) {
            const int32_t victim = m_lruHead;
            unlink(victim);
            m_map.erase(m_slots[size_t(victim)].hash);
            m_freeSlots.push_back(victim);
        }
        return freeBlocks() >= count;
    }

    void insertReferenced(int64_t hash)
    {
        int32_t slot;
        if (!m_freeSlots.empty()) {
            slot = m_freeSlots.back();
            m_freeSlots.pop_back();
        } else {
            slot = int32_t(m_slots.size());
            m_slots.emplace_back();
        }
        m_slots[size_t(slot)] = Slot{hash, 1, -1, -1};
        m_map.emplace(hash, slot);
    }

    void reference(int32_t slot)
    {
        if (m_slots[size_t(slot)].refs++ == 0)
            unlink(slot);
    }

    void unreference(int32_t slot)
    {
        if (--m_slots[size_t(slot)].refs == 0)
            pushMostRecent(slot);
    }

    void unlink(int32_t slot)
    {
        Slot &s = m_slots[size_t(slot)];
        (s.prev >= 0 ? m_slots[size_t(s.prev)].next : m_lruHead) = s.next;
        (s.next >= 0 ? m_slots[size_t(s.next)].prev : m_lruTail) = s.prev;
        s.prev = s.next = -1;
        --m_lruCount;
    }

    void pushMostRecent(int32_t slot)
    {
        Slot &s = m_slots[size_t(slot)];
        s.prev = m_lruTail;
        s.next = -1;
        (m_lruTail >= 0 ? m_slots[size_t(m_lruTail)].next : m_lruHead) = slot;
        m_lruTail = slot;
        ++m_lruCount;
    }

    int64_t m_pool;
    bool m_prefixCache;
    std::unordered_map<int64_t, int32_t> m_map;
    std::vector<Slot> m_slots;
    std::vector<int32_t> m_freeSlots;
    int32_t m_lruHead = -1;
    int32_t m_lruTail = -1;
    int64_t m_lruCount = 0;
    int64_t m_private = 0;
};

// A change of one replica's in-flight count or held blocks, for the sampled series.
struct Change {
    double timeS;
    int inFlight;
    int64_t held;
};

struct Planned {
    int request;
    int64_t prefillTokens;               // 0: a decode token
};

class Simulation {
public:
    Simulation(const std::vector<TraceRequest> &trace, const ServingSimConfig &config)
        : m_config(config), m_prepared(prepare(trace, config)), m_random(config.seed)
    {
        if (config.stepTable)
            m_table.emplace(*config.stepTable);
        m_timed = m_table.has_value() || config.stepModel.has_value();
        for (int i = 0; i < config.replicas; ++i)
            m_replicas.emplace_back(config.kvBlocksPerReplica, config.prefixCache);
        m_changes.resize(size_t(config.replicas));
        m_load.resize(size_t(config.replicas));
        m_plans.resize(size_t(config.replicas));
        if (m_timed && config.concurrency > 0) {
            for (SimRequest &r : m_prepared.requests)
                r.arrivalS = std::numeric_limits<double>::infinity();
            m_rampUsers = config.concurrency;
            issueRampUntil(0.0);
        }
    }

    ServingSimResult run()
    {
        if (m_timed)
            runTimed();
        else
            runCacheOnly();
        return summarise();
    }

private:
    const int64_t *hashesOf(const SimRequest &r) const { return m_prepared.hashes.data() + r.hashBegin; }

    int route(const SimRequest &r)
    {
        const int n = m_config.replicas;
        switch (m_config.router) {
        case RouterKind::RoundRobin:
            return int(m_routed++ % uint64_t(n));
        case RouterKind::LeastLoaded: {
            int best = 0;
            for (int i = 1; i < n; ++i)
                if (m_replicas[size_t(i)].activeBlocks < m_replicas[size_t(best)].activeBlocks)
                    best = i;
            return best;
        }
        case RouterKind::KvAware:
            break;
        }
        m_costs.resize(size_t(n));
        double lowest = 0;
        int best = 0;
        for (int i = 0; i < n; ++i) {
            const Replica &replica = m_replicas[size_t(i)];
            const int64_t newBlocks = r.promptBlocks - replica.overlap(hashesOf(r), r.promptBlocks);
            const double cost = m_config.overlapWeight * double(newBlocks) + double(replica.activeBlocks);
            m_costs[size_t(i)] = cost;
            if (i == 0 || cost < lowest) {
                lowest = cost;
                best = i;
            }
        }
        if (m_config.temperature <= 0)
            return best;
        double total = 0;
        for (double &cost : m_costs) {
            cost = std::exp(-(cost - lowest) / m_config.temperature);
            total += cost;
        }
        double draw = uniform01(m_random) * total;
        for (int i = 0; i < n; ++i) {
            draw -= m_costs[size_t(i)];
            if (draw < 0)
                return i;
        }
        return n - 1;
    }

    void logChange(int replica, double timeS)
    {
        const Replica &r = m_replicas[size_t(replica)];
        m_inFlightArea += double(m_inFlightTotal) * (timeS - m_lastChangeS);
        m_lastChangeS = timeS;
        auto &log = m_changes[size_t(replica)];
        const int64_t held = r.heldBlocks();
        if (!log.empty() && log.back().inFlight == r.inFlight && log.back().held == held)
            return; // nothing the series shows has changed
        if (!log.empty() && log.back().timeS == timeS)
            log.back() = {timeS, r.inFlight, held};
        else
            log.push_back({timeS, r.inFlight, held});
    }

    void arrive(int index, double timeS)
    {
        SimRequest &r = m_prepared.requests[size_t(index)];
        const int replica = route(r);
        r.replica = replica;
        Replica &rep = m_replicas[size_t(replica)];
        r.loadBlocks = r.promptBlocks;
        rep.activeBlocks += r.loadBlocks;
        m_inFlightArea += double(m_inFlightTotal) * (timeS - m_lastChangeS);
        m_lastChangeS = timeS;
        ++m_inFlightTotal;
        ++rep.inFlight;
        rep.waiting.push_back(index);
        ++m_load[size_t(replica)].requests;
        logChange(replica, timeS);
    }

    // First admission counts the request's hit; later ones (after preemption) do not.
    bool admit(Replica &rep, SimRequest &r, double timeS)
    {
        int64_t hits = 0;
        if (!rep.admit(r, hashesOf(r), m_config.blockSize, &hits))
            return false;
        const int64_t hitTokens = std::min(hits * m_config.blockSize, r.prompt);
        if (!r.admitted) {
            r.admitted = true;
            r.firstAdmitS = timeS;
            ReplicaServingLoad &load = m_load[size_t(r.replica)];
            load.promptBlocks += r.promptBlocks;
            load.hitBlocks += hits;
            m_promptTokens += r.prompt;
            m_hitTokens += hitTokens;
        }
        r.running = true;
        r.prefillTarget = r.prompt + r.generated;
        r.prefillDone = std::min(hitTokens, std::max<int64_t>(0, r.prefillTarget - 1));
        return true;
    }

    // Closed loop: the next request in trace order is sent at `timeS` (one that can never run
    // is passed over, its user sending the one after). Sends come in time order (the ramp's
    // below, replies as the simulation reaches them), so trace order is arrival order.
    void issueNext(double timeS)
    {
        while (m_nextIssue < m_prepared.requests.size()) {
            SimRequest &r = m_prepared.requests[m_nextIssue++];
            m_lastIssueS = std::max(m_lastIssueS, timeS);
            r.arrivalS = m_lastIssueS;
            if (!r.rejected)
                return;
        }
    }

    // The time of the ramp-up's next first request: user u sends at rampUpS × u ÷ concurrency.
    double nextRampS() const
    {
        return m_config.rampUpS * double(m_rampSent) / double(m_config.concurrency);
    }

    // Sends the ramp-up's first requests due by `timeS`. A user whose reply comes while the ramp
    // still runs sends its next request then, ahead of the users the ramp has not started yet.
    void issueRampUntil(double timeS)
    {
        while (m_rampSent < m_rampUsers && nextRampS() <= timeS) {
            issueNext(nextRampS());
            ++m_rampSent;
        }
    }

    void finish(int index, double timeS)
    {
        SimRequest &r = m_prepared.requests[size_t(index)];
        Replica &rep = m_replicas[size_t(r.replica)];
        rep.release(r, hashesOf(r));
        r.running = false;
        rep.activeBlocks -= r.loadBlocks;
        m_inFlightArea += double(m_inFlightTotal) * (timeS - m_lastChangeS);
        m_lastChangeS = timeS;
        --m_inFlightTotal;
        --rep.inFlight;
        const double overheadS = m_timed ? m_config.requestOverheadMs / 1000.0 : 0.0;
        const double e2e = timeS - r.arrivalS + overheadS;
        m_e2e.push_back(e2e);
        m_completionS = std::max(m_completionS, timeS);
        if (m_timed) {
            const double ttft = r.firstTokenS - r.arrivalS + overheadS;
            m_ttft.push_back(ttft);
            m_queueWait.push_back(r.firstAdmitS - r.arrivalS);
            bool withinSlo = m_config.ttftSloMs && ttft * 1000.0 <= *m_config.ttftSloMs;
            if (r.output > 1) {
                const double itl = (e2e - ttft) / double(r.output - 1);
                m_itl.push_back(itl);
                withinSlo = withinSlo && itl * 1000.0 <= *m_config.itlSloMs;
            }
            m_withinSlo += withinSlo ? 1 : 0;
            m_outputTokens += r.output;
            if (m_config.concurrency > 0)
                issueNext(timeS + overheadS); // the client sends its next request on the reply
        }
        logChange(r.replica, timeS);
    }

    void runCacheOnly()
    {
        for (int i = 0; i < int(m_prepared.requests.size()); ++i) {
            SimRequest &r = m_prepared.requests[size_t(i)];
            if (r.rejected) {
                ++m_rejected;
                continue;
            }
            arrive(i, r.arrivalS);
            Replica &rep = m_replicas[size_t(r.replica)];
            rep.waiting.clear();
            // Alone on its replica, the request always fits (rejection rule).
            if (!admit(rep, r, r.arrivalS))
                throw std::logic_error("serving simulation: a lone request did not fit its pool");
            r.generated = r.output;
            const int64_t privateTotal = blocksFor(r.prompt + r.output, m_config.blockSize) - r.promptBlocks;
            while (r.privateHeld < privateTotal)
                if (!rep.growPrivate(r))
                    throw std::logic_error("serving simulation: a lone request ran out of blocks");
            finish(i, r.arrivalS);
        }
    }

    void preempt(Replica &rep, double timeS)
    {
        const int victim = rep.running.back();
        rep.running.pop_back();
        SimRequest &v = m_prepared.requests[size_t(victim)];
        rep.release(v, hashesOf(v));
        v.running = false;
        // Back to the front of the queue, to recompute prompt and generated tokens.
        if (rep.waitingHead > 0)
            rep.waiting[--rep.waitingHead] = victim;
        else
            rep.waiting.insert(rep.waiting.begin(), victim);
        ++m_load[size_t(v.replica)].preemptions;
        ++m_preemptions;
        logChange(v.replica, timeS);
    }

    // Plans and starts one iteration of `replicaIndex` at `timeS`; false when idle.
    bool startIteration(int replicaIndex, double timeS)
    {
        Replica &rep = m_replicas[size_t(replicaIndex)];
        std::vector<Planned> &plan = m_plans[size_t(replicaIndex)];
        plan.clear();
        int64_t budget = m_config.tokenBudget;
        double contextSum = 0;
        int64_t decodes = 0;
        StepBatch pass;
        const StepCostModel *model = m_config.stepModel ? &*m_config.stepModel : nullptr;
        // Without chunked prefill an iteration prefills the prompts that fit, whole, or decodes.
        const bool prefillOnly = !m_config.chunkedPrefill && rep.waitingHead < rep.waiting.size()
            && int(rep.running.size()) < m_config.maxBatch;
        const auto scheduleDecodes = [&] {
            for (size_t i = 0; i < rep.running.size() && budget > 0; ++i) {
                const int index = rep.running[i];
                SimRequest &r = m_prepared.requests[size_t(index)];
                if (r.prefillDone < r.prefillTarget)
                    continue;
                const int64_t context = r.prompt + r.generated;
                bool preempted = false;
                while (blocksFor(context + 1, m_config.blockSize) > r.promptBlocks + r.privateHeld
                       && !rep.growPrivate(r)) {
                    const bool self = rep.running.back() == index;
                    preempt(rep, timeS);
                    if (self) {
                        preempted = true;
                        break;
                    }
                }
                if (preempted)
                    break;
                plan.push_back({index, 0});
                contextSum += double(context);
                if (model)
                    pass.kvReadBytes += kvReadBytes(*model, double(context));
                ++decodes;
                --budget;
            }
        };
        if (!prefillOnly)
            scheduleDecodes();
        int64_t prefillTokens = 0;
        const auto addChunk = [&](const SimRequest &r, int64_t chunk) {
            prefillTokens += chunk;
            budget -= chunk;
            if (!model)
                return;
            const double offset = double(r.prefillDone);
            pass.kvReadBytes += kvReadBytes(*model, offset);
            pass.attentionPairsFull += attentionPairs(double(chunk), offset);
            pass.attentionPairsSliding += attentionPairs(double(chunk), offset, model->slidingWindow);
            pass.attentionPairsChunked += attentionPairs(double(chunk), offset, model->attentionChunk);
            if (r.prefillDone + chunk >= r.prefillTarget)
                pass.sampled += 1;
        };
        for (size_t i = 0; i < rep.running.size() && budget > 0; ++i) {
            const int index = rep.running[i];
            SimRequest &r = m_prepared.requests[size_t(index)];
            if (r.prefillDone >= r.prefillTarget)
                continue;
            const int64_t chunk = std::min(budget, r.prefillTarget - r.prefillDone);
            plan.push_back({index, chunk});
            addChunk(r, chunk);
        }
        bool admitted = false;
        while (budget > 0 && rep.waitingHead < rep.waiting.size()
               && int(rep.running.size()) < m_config.maxBatch) {
            const int index = rep.waiting[rep.waitingHead];
            SimRequest &r = m_prepared.requests[size_t(index)];
            // Unchunked, a prompt waits for an iteration with room for all of it (alone, it
            // always goes, as a prompt longer than the budget does in vLLM's first pass).
            if (!m_config.chunkedPrefill && r.prefillTarget - r.prefillDone > budget && prefillTokens > 0)
                break;
            if (!admit(rep, r, timeS))
                break;
            admitted = true;
            ++rep.waitingHead;
            rep.running.push_back(index);
            const int64_t remaining = r.prefillTarget - r.prefillDone; // after the prefix cache's hit
            const int64_t chunk = m_config.chunkedPrefill ? std::min(budget, remaining) : remaining;
            plan.push_back({index, chunk});
            addChunk(r, chunk);
        }
        if (rep.waitingHead == rep.waiting.size()) {
            rep.waiting.clear();
            rep.waitingHead = 0;
        }
        if (admitted)
            logChange(replicaIndex, timeS);
        if (prefillOnly && plan.empty())
            scheduleDecodes(); // the head's blocks cannot be found: decode meanwhile
        if (plan.empty()) {
            if (!rep.running.empty() || rep.waitingHead < rep.waiting.size())
                throw std::logic_error("serving simulation: a replica with work planned nothing");
            rep.busy = false;
            return false;
        }
        double seconds = 0;
        if (m_table) {
            const double meanContext = decodes > 0 ? contextSum / double(decodes) : 0.0;
            seconds = m_table->decodeSeconds(decodes, meanContext) + m_table->prefillSeconds(double(prefillTokens));
        } else {
            pass.decodes = double(decodes);
            pass.prefillTokens = double(prefillTokens);
            pass.sampled += double(decodes);
            seconds = stepCost(*model, pass).totalS;
        }
        m_load[size_t(replicaIndex)].busySeconds += seconds;
        rep.busy = true;
        m_events.push({timeS + seconds, replicaIndex});
        return true;
    }

    // Applies the planned iteration at its end: tokens emitted, prefills advanced, requests done.
    void endIteration(int replicaIndex, double timeS)
    {
        Replica &rep = m_replicas[size_t(replicaIndex)];
        bool changed = false;
        for (const Planned &step : m_plans[size_t(replicaIndex)]) {
            SimRequest &r = m_prepared.requests[size_t(step.request)];
            if (!r.running)
                continue; // preempted later in the same plan
            bool emitted = false;
            if (step.prefillTokens > 0) {
                r.prefillDone += step.prefillTokens;
                emitted = r.prefillDone >= r.prefillTarget;
            } else {
                emitted = true;
            }
            if (!emitted)
                continue;
            if (r.generated == 0)
                r.firstTokenS = timeS;
            const int64_t before = blocksFor(r.prompt + r.generated, m_config.blockSize);
            ++r.generated;
            const int64_t after = blocksFor(r.prompt + r.generated, m_config.blockSize);
            r.loadBlocks += after - before;
            rep.activeBlocks += after - before;
            if (r.generated >= r.output) {
                rep.running.erase(std::find(rep.running.begin(), rep.running.end(), step.request));
                finish(step.request, timeS);
                changed = true;
            }
        }
        if (!changed)
            logChange(replicaIndex, timeS);
    }

    void runTimed()
    {
        const auto &requests = m_prepared.requests;
        size_t next = 0;
        while (next < requests.size() || !m_events.empty()) {
            if (m_rampSent < m_rampUsers) {
                // The ramp's next send, once every earlier pass end (and the replies it brings)
                // and every earlier arrival has been simulated.
                const double rampS = nextRampS();
                if ((m_events.empty() || m_events.top().timeS > rampS)
                    && (next == requests.size() || requests[next].arrivalS > rampS)) {
                    issueRampUntil(rampS);
                    continue;
                }
            }
            if (!m_events.empty() && (next == requests.size() || m_events.top().timeS <= requests[next].arrivalS)) {
                const Event event = m_events.top();
                m_events.pop();
                endIteration(event.replica, event.timeS);
                startIteration(event.replica, event.timeS);
                continue;
            }
            const SimRequest &r = requests[next];
            const int index = int(next++);
            if (r.rejected) {
                ++m_rejected;
                continue;
            }
            arrive(index, r.arrivalS);
            const int replica = requests[size_t(index)].replica;
            if (!m_replicas[size_t(replica)].busy)
                startIteration(replica, r.arrivalS);
        }
    }

    static LatencyPercentiles percentilesMs(const std::vector<double> &seconds)
    {
        if (seconds.empty())
            return {};
        std::vector<double> sorted = seconds;
        std::sort(sorted.begin(), sorted.end());
        return {sampleQuantile(sorted, 0.50) * 1000.0, sampleQuantile(sorted, 0.95) * 1000.0,
                sampleQuantile(sorted, 0.99) * 1000.0};
    }

    ServingSimResult summarise()
    {
        ServingSimResult out;
        out.timed = m_timed;
        out.stepModel = m_table ? StepModelKind::Table : m_config.stepModel ? StepModelKind::Roofline
                                                                            : StepModelKind::None;
        out.requests = int64_t(m_prepared.requests.size());
        out.rejected = m_rejected;
        out.completed = int64_t(m_e2e.size());
        for (ReplicaServingLoad &load : m_load) {
            load.hitRateBlocks = load.promptBlocks > 0 ? double(load.hitBlocks) / double(load.promptBlocks) : 0;
            out.promptBlocks += load.promptBlocks;
            out.hitBlocks += load.hitBlocks;
        }
        out.promptTokens = m_promptTokens;
        out.hitTokens = m_hitTokens;
        out.hitRateBlocks = out.promptBlocks > 0 ? double(out.hitBlocks) / double(out.promptBlocks) : 0;
        out.hitRateTokens = out.promptTokens > 0 ? double(out.hitTokens) / double(out.promptTokens) : 0;
        out.preemptions = m_preemptions;
        out.perReplica = m_load;

        double meanLoad = 0;
        double maxLoad = 0;
        for (const ReplicaServingLoad &load : m_load) {
            meanLoad += double(load.requests) / double(m_load.size());
            maxLoad = std::max(maxLoad, double(load.requests));
        }
        out.loadMaxOverMean = meanLoad > 0 ? maxLoad / meanLoad : 0;

        const auto firstAccepted = std::find_if(m_prepared.requests.begin(), m_prepared.requests.end(),
                                                [](const SimRequest &r) { return !r.rejected; });
        out.firstArrivalS = firstAccepted != m_prepared.requests.end() ? firstAccepted->arrivalS : 0;
        out.lastCompletionS = std::max(out.firstArrivalS, m_completionS);
        const double makespan = out.lastCompletionS - out.firstArrivalS;
        out.gpuSeconds = double(m_config.replicas) * double(m_config.gpusPerReplica) * makespan;
        if (!out.timed || out.completed == 0)
            return out;

        out.ttftMs = percentilesMs(m_ttft);
        out.itlMs = percentilesMs(m_itl);
        out.e2eMs = percentilesMs(m_e2e);
        out.queueWaitMs = percentilesMs(m_queueWait);
        double sum = 0;
        for (double e : m_e2e)
            sum += e;
        out.meanE2eS = sum / double(out.completed);
        const auto meanMs = [](const std::vector<double> &seconds) {
            double total = 0;
            for (double s : seconds)
                total += s;
            return seconds.empty() ? 0.0 : total / double(seconds.size()) * 1000.0;
        };
        out.meanTtftMs = meanMs(m_ttft);
        out.meanItlMs = meanMs(m_itl);
        if (m_config.keepLatencies) {
            out.ttftEachS = m_ttft;
            out.e2eEachS = m_e2e;
        }
        if (makespan > 0) {
            out.throughputPerS = double(out.completed) / makespan;
            out.outputTokensPerS = double(m_outputTokens) / makespan;
            out.meanInFlight = m_inFlightArea / makespan;
        }
        if (m_config.ttftSloMs) {
            out.sloAttainment = double(m_withinSlo) / double(out.completed);
            out.goodputPerS = makespan > 0 ? double(m_withinSlo) / makespan : 0;
        }
        sampleSeries(out, makespan);
        return out;
    }

    void sampleSeries(ServingSimResult &out, double makespan) const
    {
        const int samples = m_config.timeSamples;
        out.sampleTimesS.resize(size_t(samples));
        for (int k = 0; k < samples; ++k)
            out.sampleTimesS[size_t(k)] =
                out.firstArrivalS + (samples > 1 ? makespan * double(k) / double(samples - 1) : 0.0);
        out.inFlight.assign(m_changes.size(), std::vector<int>(size_t(samples), 0));
        out.kvUsed.assign(m_changes.size(), std::vector<double>(size_t(samples), 0.0));
        for (size_t rep = 0; rep < m_changes.size(); ++rep) {
            const auto &log = m_changes[rep];
            size_t at = 0;
            Change current{0, 0, 0};
            for (int k = 0; k < samples; ++k) {
                const double t = out.sampleTimesS[size_t(k)];
                while (at < log.size() && log[at].timeS <= t)
                    current = log[at++];
                out.inFlight[rep][size_t(k)] = current.inFlight;
                out.kvUsed[rep][size_t(k)] = double(current.held) / double(m_config.kvBlocksPerReplica);
            }
        }
    }

    struct Event {
        double timeS;
        int replica;
        bool operator>(const Event &other) const
        {
            return timeS != other.timeS ? timeS > other.timeS : replica > other.replica;
        }
    };

    const ServingSimConfig &m_config;
    Prepared m_prepared;
    std::mt19937_64 m_random;
    std::optional<StepTimeModel> m_table;
    bool m_timed = false;
    std::vector<Replica> m_replicas;
    std::vector<ReplicaServingLoad> m_load;
    std::vector<std::vector<Change>> m_changes;
    std::vector<std::vector<Planned>> m_plans;
    std::vector<double> m_costs;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> m_events;
    uint64_t m_routed = 0;
    int64_t m_rejected = 0;
    int64_t m_preemptions = 0;
    int64_t m_promptTokens = 0;
    int64_t m_hitTokens = 0;
    int64_t m_withinSlo = 0;
    int64_t m_inFlightTotal = 0;
    double m_inFlightArea = 0;
    double m_lastChangeS = 0;
    double m_completionS = 0;
    std::vector<double> m_ttft;
    std::vector<double> m_itl;
    size_t m_nextIssue = 0;                  // closed loop: the next request to send
    double m_lastIssueS = 0;
    int m_rampUsers = 0;                     // closed loop: users the ramp-up starts
    int m_rampSent = 0;                      // of them, started
    int64_t m_outputTokens = 0;
    std::vector<double> m_e2e;
    std::vector<double> m_queueWait;
};

void requireFinite(const char *field, double value)
{
    if (!std::isfinite(value))
        throw InputError(field, std::string(field) + " must be a finite number");
}

} // namespace

std::string_view toString(RouterKind router)
{
    switch (router) {
    case RouterKind::RoundRobin: return "round-robin";
    case RouterKind::LeastLoaded: return "least-loaded";
    case RouterKind::KvAware: return "kv";
    }
    return "kv";
}

std::string_view toString(StepModelKind kind)
{
    switch (kind) {
    case StepModelKind::None: return "none";
    case StepModelKind::Roofline: return "roofline";
    case StepModelKind::Table: return "table";
    }
    return "none";
}

std::optional<RouterKind> parseRouterKind(std::string_view text)
{
    if (text == "round-robin")
        return RouterKind::RoundRobin;
    if (text == "least-loaded")
        return RouterKind::LeastLoaded;
    if (text == "kv")
        return RouterKind::KvAware;
    return std::nullopt;
}

void validate(const ServingSimConfig &c)
{
    if (c.replicas < 1)
        throw InputError("replicas", "replicas must be at least 1 (got " + std::to_string(c.replicas) + ")");
    if (c.replicas > 4096)
        throw InputError("replicas", "replicas must be at most 4,096 (got " + std::to_string(c.replicas) + ")");
    if (c.kvBlocksPerReplica < 1)
        throw InputError("kv_blocks", "kv_blocks must be at least 1 block per replica (got "
                                          + std::to_string(c.kvBlocksPerReplica) + ")");
    if (c.kvBlocksPerReplica > (int64_t(1) << 31) - 1)
        throw InputError("kv_blocks", "kv_blocks must be below 2^31 per replica");
    if (c.blockSize < 1 || c.blockSize > kMaxBlockSize)
        throw InputError("block_size", "block_size must be 1 to " + std::to_string(kMaxBlockSize) + " tokens (got "
                                           + std::to_string(c.blockSize) + ")");
    if (c.traceBlockSize < 1)
        throw InputError("trace_block_size", "trace_block_size must be at least 1 token");
    requireFinite("temperature", c.temperature);
    if (c.temperature < 0)
        throw InputError("temperature", "temperature must be at least 0 (got " + std::to_string(c.temperature) + ")");
    requireFinite("overlap_weight", c.overlapWeight);
    if (c.overlapWeight < 0)
        throw InputError("overlap_weight", "overlap_weight must be at least 0 (got "
                                               + std::to_string(c.overlapWeight) + ")");
    requireFinite("time_scale", c.timeScale);
    if (c.timeScale <= 0)
        throw InputError("time_scale", "time_scale must be above 0 (got " + std::to_string(c.timeScale) + ")");
    if (c.tokenBudget < 1)
        throw InputError("token_budget", "token_budget must be at least 1 token per iteration");
    if (c.maxBatch < 1)
        throw InputError("max_batch", "max_batch must be at least 1 request");
    if (c.gpusPerReplica < 1)
        throw InputError("tp", "GPUs per replica must be at least 1");
    if (c.concurrency < 0)
        throw InputError("concurrency", "concurrency must be 0 (open loop) or at least 1 request");
    if (!(c.rampUpS >= 0 && std::isfinite(c.rampUpS)))
        throw InputError("ramp_up_s", "ramp_up_s must be a finite number of seconds, at least 0");
    if (c.timeSamples < 1 || c.timeSamples > 100000)
        throw InputError("time_samples", "time_samples must be 1 to 100,000");
    if (c.ttftSloMs.has_value() != c.itlSloMs.has_value())
        throw InputError(c.ttftSloMs ? "itl_slo_ms" : "ttft_slo_ms",
                         "give both the TTFT and the ITL SLO, or neither");
    if (c.ttftSloMs && (!std::isfinite(*c.ttftSloMs) || *c.ttftSloMs <= 0))
        throw InputError("ttft_slo_ms", "ttft_slo_ms must be above 0");
    if (c.itlSloMs && (!std::isfinite(*c.itlSloMs) || *c.itlSloMs <= 0))
        throw InputError("itl_slo_ms", "itl_slo_ms must be above 0");
    if (c.stepModel && (c.stepModel->activeParams <= 0 || c.stepModel->hbmBandwidthGBps <= 0
                        || c.stepModel->tflops <= 0 || c.stepModel->attentionTflops <= 0 || c.stepModel->tp < 1
                        || (c.stepModel->tp > 1 && c.stepModel->linkGBps <= 0)))
        throw InputError("model", "the step model needs positive parameters, bandwidth, TFLOPS, TP and (under TP) a link");
    if (!(c.requestOverheadMs >= 0 && c.requestOverheadMs <= 60000))
        throw InputError("request_overhead_ms", "request_overhead_ms must be between 0 and 60,000");
    if (c.stepTable)
        validate(*c.stepTable);
}

ServingSimResult simulateServing(const std::vector<TraceRequest> &trace, const ServingSimConfig &config)
{
    validate(config);
    validateTrace(trace);
    Simulation simulation(trace, config);
    return simulation.run();
}

std::vector<ServingSimResult> simulateServingMany(const std::vector<TraceRequest> &trace,
                                                  const std::vector<ServingSimConfig> &configs,
                                                  unsigned threads)
{
    validateTrace(trace);
    for (const ServingSimConfig &config : configs)
        validate(config);
    std::vector<ServingSimResult> results(configs.size());
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failureMutex;
    const auto work = [&] {
        for (size_t i = next++; i < configs.size(); i = next++) {
            try {
                Simulation simulation(trace, configs[i]);
                results[i] = simulation.run();
            } catch (...) {
                const std::lock_guard<std::mutex> lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
            }
        }
    };
    const unsigned count = std::max(1u, std::min<unsigned>(threads, unsigned(configs.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < count; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &thread : pool)
        thread.join();
    if (failure)
        std::rethrow_exception(failure);
    return results;
}

std::optional<int> findReplicas(const std::vector<TraceRequest> &trace, const ServingSimConfig &config,
                                double target, int maxReplicas)
{
    if (!config.stepModel && !config.stepTable)
        throw InputError("model", "finding replicas needs step times: give a model and a GPU, or a step-time table");
    if (!config.ttftSloMs || !config.itlSloMs)
        throw InputError("ttft_slo_ms", "finding replicas needs the TTFT and ITL SLOs");
    if (!(target > 0 && target <= 1))
        throw InputError("attainment", "the attainment target must be in (0, 1]");
    if (maxReplicas < 1)
        throw InputError("replicas", "the largest replica count to try must be at least 1");
    const auto attains = [&](int replicas) {
        ServingSimConfig c = config;
        c.replicas = replicas;
        return simulateServing(trace, c).sloAttainment.value_or(0) >= target;
    };
    if (!attains(maxReplicas))
        return std::nullopt;
    int low = 1;
    int high = maxReplicas;
    while (low < high) {
        const int middle = low + (high - low) / 2;
        if (attains(middle))
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

int64_t kvBlocksPerReplica(const KvInputs &in)
{
    const KvResult kv = analyseKv(in);
    if (!kv.fits || kv.blocks < 1)
        throw InputError("memory", "the weights leave no KV pool on this GPU (short by "
                                       + std::to_string(kv.shortfallBytes / kGiB) + " GiB)");
    return kv.blocks;
}

void applyServingAssumptions(ServingSimConfig &config, const ServingAssumptions &assumptions, const ModelSpec &model,
                             const GpuSpec &gpu, WeightPrecision weights, const KvResult &kv, int tp)
{
    if (!config.stepTable)
        config.stepModel = stepCostModel(model, gpu, weights, kv, tp, assumptions);
    const SchedulerLimits limits = schedulerLimits(assumptions, gpu);
    config.tokenBudget = limits.maxNumBatchedTokens;
    config.maxBatch = limits.maxNumSeqs;
    config.chunkedPrefill = assumptions.chunkedPrefill;
    config.prefixCache = config.prefixCache && assumptions.prefixCaching;
    config.requestOverheadMs = assumptions.requestOverheadMs;
    config.gpusPerReplica = tp;
}

std::vector<TraceRequest> withGeneratedHashes(std::vector<TraceRequest> trace, int64_t sharedPrefixTokens,
                                              double hitRate, int traceBlockSize)
{
    if (sharedPrefixTokens < 0)
        throw InputError("shared_prefix", "the shared prefix must be at least 0 tokens");
    if (!(hitRate >= 0 && hitRate <= 1))
        throw InputError("hit_rate", "the prefix hit rate must be in [0, 1]");
    if (traceBlockSize < 1)
        throw InputError("trace_block_size", "trace_block_size must be at least 1 token");
    for (size_t index = 0; index < trace.size(); ++index) {
        TraceRequest &r = trace[index];
        if (!r.blockHashes.empty() || r.promptTokens <= 0)
            continue;
        const int64_t n = r.promptTokens;
        const int64_t prefixEnd = std::min(sharedPrefixTokens, n);
        const auto contextEnd = std::min(n, static_cast<int64_t>(std::floor(hitRate * double(n))));
        const int64_t blocks = blocksFor(n, traceBlockSize);
        const uint64_t uniqueSeed = mix64(kUniqueTag ^ (uint64_t(index) << 1));
        r.blockHashes.reserve(size_t(blocks));
        for (int64_t i = 0; i < blocks; ++i) {
            const int64_t end = std::min((i + 1) * int64_t(traceBlockSize), n);
            if (end <= prefixEnd)
                r.blockHashes.push_back(combine(kPrefixTag, uint64_t(i)));
            else if (end <= contextEnd)
                r.blockHashes.push_back(combine(kContextTag, uint64_t(i)));
            else
                r.blockHashes.push_back(combine(uniqueSeed, uint64_t(i)));
        }
    }
    return trace;
}

} // namespace headroom::engine
