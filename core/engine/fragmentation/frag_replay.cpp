// Replay of a task trace by its creation and deletion times: tasks arrive, wait in a FIFO
// queue per size class while nothing fits, and leave after their lifetime, so queue depth
// and waiting time by job size show where fragmentation turns into delay (DESIGN §3.5).
#include "frag.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <iterator>
#include <numeric>
#include <queue>

namespace headroom::engine::frag {

namespace {

constexpr double kMaxDurationScale = 1e6;
constexpr int64_t kProgressEvery = 256;  // events between progress calls
constexpr int kWholeNodeGpus = 8;

struct Departure {
    int64_t time = 0;
    int64_t order = 0;            // departures at one instant leave in the order they were placed
    size_t task = 0;
    bool operator>(const Departure &other) const
    {
        return time != other.time ? time > other.time : order > other.order;
    }
};

// Whether the task fits some node of the empty cluster, with the scheduler's rules for GPU
// models and reserved whole nodes.
bool fitsEmptyCluster(const std::vector<Node> &nodes, const std::vector<bool> &reserved, const Task &task)
{
    const bool cpuOnly = sizeClass(task) == SizeClass::CpuOnly;
    const bool wholeNodeTask = !cpuOnly && task.gpus >= kWholeNodeGpus;
    for (size_t n = 0; n < nodes.size(); ++n) {
        const Node &node = nodes[n];
        if ((reserved[n] && !wholeNodeTask) || node.cpuMilli < task.cpuMilli || node.memoryMiB < task.memoryMiB)
            continue;
        if (cpuOnly)
            return true;
        if (node.gpus < task.gpus)
            continue;
        if (task.allowedModels.empty()
            || (!node.gpuModel.empty()
                && std::find(task.allowedModels.begin(), task.allowedModels.end(), node.gpuModel)
                       != task.allowedModels.end()))
            return true;
    }
    return false;
}

} // namespace

ReplayResult replay(const std::vector<Node> &nodes, const std::vector<Task> &tasks, const ReplayOptions &options,
                    const std::function<bool(double)> &progress)
{
    const auto started = std::chrono::steady_clock::now();
    if (!(options.durationScale > 0 && options.durationScale <= kMaxDurationScale))
        throw InputError("duration_scale", "the duration scale must be above 0 and at most 1,000,000");
    if (options.maxPoints < 2)
        throw InputError("max_points", "a replay needs at least 2 points");
    if (options.reservedWholeNodes < 0)
        throw InputError("reserved_whole_nodes", "the number of reserved nodes must not be negative");

    ReplayResult result;
    result.policy = options.policy;
    result.seed = options.seed;
    std::vector<Node> gpuNodes;
    std::copy_if(nodes.begin(), nodes.end(), std::back_inserter(gpuNodes), [](const Node &n) { return n.gpus > 0; });
    if (gpuNodes.empty())
        throw InputError("nodes", "the cluster has no GPUs: no node lists a GPU");
    std::vector<bool> reserved(gpuNodes.size(), false);
    for (size_t n = 0, left = size_t(options.reservedWholeNodes); n < gpuNodes.size() && left > 0; ++n) {
        if (gpuNodes[n].gpus == kWholeNodeGpus) {
            reserved[n] = true;
            --left;
        }
    }

    Scheduler scheduler(gpuNodes, targetWorkload(tasks), options.policy, options.seed, options.reservedWholeNodes,
                        options.mode, options.search);
    const int64_t capacity = scheduler.capacityMilli();
    result.gpus = capacity / kMilliPerGpu;

    std::vector<size_t> arrivals(tasks.size());
    std::iota(arrivals.begin(), arrivals.end(), size_t(0));
    std::stable_sort(arrivals.begin(), arrivals.end(),
                     [&](size_t a, size_t b) { return tasks[a].creationTime < tasks[b].creationTime; });
    std::vector<int64_t> lifetime(tasks.size(), 0);  // seconds; 0 = never leaves
    for (size_t i = 0; i < tasks.size(); ++i) {
        const Task &task = tasks[i];
        if (task.deletionTime > task.creationTime) {
            const double scaled = std::round(double(task.deletionTime - task.creationTime) * options.durationScale);
            lifetime[i] = std::max<int64_t>(1, int64_t(scaled));
        } else {
            ++result.permanent;
        }
    }

    std::vector<Placement> placements(tasks.size());
    std::priority_queue<Departure, std::vector<Departure>, std::greater<>> departures;
    std::array<std::deque<size_t>, kSizeClasses> queues;
    ClassSeconds waitSum{};
    int64_t placedCount = 0;

    const auto tryPlace = [&](size_t i, int64_t now) {
        const Placement placement = scheduler.place(tasks[i]);
        if (placement.node < 0)
            return false;
        placements[i] = placement;
        const size_t c = size_t(sizeClass(tasks[i]));
        const double wait = double(now - tasks[i].creationTime);
        ++result.placed[c];
        waitSum[c] += wait;
        result.maxWaitS[c] = std::max(result.maxWaitS[c], wait);
        if (lifetime[i] > 0)
            departures.push({now + lifetime[i], placedCount, i});
        ++placedCount;
        return true;
    };

    // Heads of the queues in arrival order; a class whose head does not fit is done.
    const auto retryQueues = [&](int64_t now) {
        std::array<bool, kSizeClasses> blocked{};
        for (;;) {
            int next = -1;
            for (int c = 0; c < kSizeClasses; ++c) {
                const auto &queue = queues[size_t(c)];
                if (blocked[size_t(c)] || queue.empty())
                    continue;
                const size_t head = queue.front();
                if (next < 0) {
                    next = c;
                    continue;
                }
                const size_t best = queues[size_t(next)].front();
                const bool earlier = tasks[head].creationTime != tasks[best].creationTime
                                         ? tasks[head].creationTime < tasks[best].creationTime
                                         : head < best;
                if (earlier)
                    next = c;
            }
            if (next < 0)
                return;
            auto &queue = queues[size_t(next)];
            if (tryPlace(queue.front(), now))
                queue.pop_front();
            else
                blocked[size_t(next)] = true;
        }
    };

    // The state after every instant with events; sampled evenly in time at the end, since
    // waiting moves the last departure and with it the span.
    std::vector<ReplayPoint> states;
    const auto recordState = [&](int64_t time) {
        ReplayPoint point;
        point.timeS = time;
        const double allocated = double(scheduler.allocatedMilli());
        const double idle = double(capacity) - allocated;
        point.allocatedPct = 100.0 * allocated / double(capacity);
        point.fragRatioPct = idle > 0 ? 100.0 * scheduler.fragmentMilli() / idle : 0.0;
        for (size_t c = 0; c < size_t(kSizeClasses); ++c) {
            point.queued[c] = int64_t(queues[c].size());
            result.maxQueue[c] = std::max(result.maxQueue[c], point.queued[c]);
        }
        states.push_back(point);
    };

    const double totalEvents = double(std::max<size_t>(1, tasks.size() * 2 - size_t(result.permanent)));
    int64_t events = 0;
    size_t nextArrival = 0;
    while (nextArrival < arrivals.size() || !departures.empty()) {
        const int64_t now = departures.empty() ? tasks[arrivals[nextArrival]].creationTime
                          : nextArrival == arrivals.size()
                              ? departures.top().time
                              : std::min(departures.top().time, tasks[arrivals[nextArrival]].creationTime);
        while (!departures.empty() && departures.top().time == now) {
            const size_t i = departures.top().task;
            departures.pop();
            scheduler.release(tasks[i], placements[i]);
            ++events;
            retryQueues(now);
        }
        while (nextArrival < arrivals.size() && tasks[arrivals[nextArrival]].creationTime == now) {
            const size_t i = arrivals[nextArrival++];
            ++events;
            const Task &task = tasks[i];
            const size_t c = size_t(sizeClass(task));
            if (!fitsEmptyCluster(gpuNodes, reserved, task)) {
                ++result.neverPlaced[c];
                ++result.unplaceable;
            } else if (!queues[c].empty() || !tryPlace(i, now)) {
                queues[c].push_back(i);
            }
        }
        recordState(now);
        if (progress && events / kProgressEvery != (events - 1) / kProgressEvery
            && !progress(std::min(1.0, double(events) / totalEvents)))
            throw Cancelled{};
    }
    for (size_t c = 0; c < size_t(kSizeClasses); ++c) {
        result.neverPlaced[c] += int64_t(queues[c].size());
        result.meanWaitS[c] = result.placed[c] > 0 ? waitSum[c] / double(result.placed[c]) : 0.0;
    }

    if (states.empty())
        recordState(0);
    const int64_t first = states.front().timeS;
    result.endTimeS = states.back().timeS;
    const int64_t span = result.endTimeS - first;
    const int samples = span == 0 ? 1 : int(std::min<int64_t>(options.maxPoints, span + 1));
    size_t state = 0;
    for (int k = 0; k < samples; ++k) {
        const int64_t time = samples == 1 ? first
                                          : first + int64_t(std::llround(double(span) * double(k) / double(samples - 1)));
        while (state + 1 < states.size() && states[state + 1].timeS <= time)
            ++state;
        ReplayPoint point = states[state];
        point.timeS = time;
        result.points.push_back(point);
    }
    if (progress)
        progress(1.0);
    result.runtimeS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace headroom::engine::frag
