// The experiment protocol of the FGD study (Weng et al., ATC 2023, §5.1): tasks arrive in a
// seeded random order, inflated by sampling until the requested GPU reaches a multiple of
// capacity, and never leave; the cluster is measured after every task.
#include "frag.h"

#include "engine/common/errors.h"
#include "frag_random.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

namespace headroom::engine::frag {

namespace {

constexpr double kMaxLoad = 10.0;
constexpr int64_t kProgressEvery = 256;  // tasks between progress calls
constexpr int kPercentAt100 = 100;

int64_t requestedMilli(const Task &task)
{
    return sizeClass(task) == SizeClass::CpuOnly ? 0 : int64_t(task.gpus) * task.gpuMilli;
}

void countFailure(FailedBySize &failed, SizeClass size)
{
    switch (size) {
    case SizeClass::CpuOnly: ++failed.cpuOnly; break;
    case SizeClass::Fractional: ++failed.fractional; break;
    case SizeClass::OneGpu: ++failed.oneGpu; break;
    case SizeClass::MultiGpu: ++failed.multiGpu; break;
    }
}

std::vector<NodeSnapshot> snapshotOf(const Scheduler &scheduler, const TargetWorkload &workload)
{
    std::vector<NodeSnapshot> nodes(size_t(scheduler.nodeCount()));
    for (int n = 0; n < scheduler.nodeCount(); ++n) {
        NodeSnapshot &snapshot = nodes[size_t(n)];
        snapshot.freeMilli = scheduler.nodeFree(n).freeMilli;
        snapshot.fragmentMilli = scheduler.nodeFragmentMilli(n);
        snapshot.categories.reserve(workload.types.size());
        for (int t = 0; t < int(workload.types.size()); ++t)
            snapshot.categories.push_back(uint8_t(scheduler.category(n, t)));
        snapshot.category = snapshot.categories.empty() ? 0 : snapshot.categories.front();
    }
    return nodes;
}

Spread spreadOf(const std::vector<double> &values)
{
    Spread s;
    if (values.empty())
        return s;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    if (values.size() > 1) {
        double squares = 0;
        for (const double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.sd = std::sqrt(squares / double(values.size() - 1));
    }
    return s;
}

} // namespace

RunResult simulate(const std::vector<Node> &nodes, const std::vector<Task> &tasks, const RunOptions &options,
                   const std::function<bool(double)> &progress, const std::vector<int> &snapshotPercents)
{
    const auto started = std::chrono::steady_clock::now();
    if (!(options.load > 0 && options.load <= kMaxLoad))
        throw InputError("load", "the load must be above 0 and at most 10 times the cluster capacity");
    if (std::any_of(snapshotPercents.begin(), snapshotPercents.end(), [](int p) { return p < 0; }))
        throw InputError("snapshot_percents", "snapshot percents must not be negative");

    RunResult result;
    result.policy = options.policy;
    result.mode = options.mode;
    result.seed = options.seed;
    std::vector<Node> gpuNodes;
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].gpus > 0) {
            gpuNodes.push_back(nodes[i]);
            result.nodeIndices.push_back(int(i));
        }
    }
    if (gpuNodes.empty())
        throw InputError("nodes", "the cluster has no GPUs: no node lists a GPU");
    if (std::none_of(tasks.begin(), tasks.end(), [](const Task &t) { return requestedMilli(t) > 0; }))
        throw InputError("tasks", "no task asks for a GPU, so no load can be reached");

    result.workload = targetWorkload(tasks);
    Scheduler scheduler(gpuNodes, result.workload, options.policy, options.seed, options.reservedWholeNodes,
                        options.mode, options.search);
    const int64_t capacity = scheduler.capacityMilli();
    result.gpus = capacity / kMilliPerGpu;
    const int64_t target = int64_t(std::ceil(options.load * double(capacity)));

    // Each task's class and memory, found in input order: the placements below read tasks in a
    // shuffled order, and on a large trace these 24 bytes a task stay in cache where the tasks
    // themselves (names, model lists) would not.
    struct Arrival {
        int64_t memoryMiB = 0;
        int32_t taskClass = 0;
        int32_t requestedMilli = 0;
        int16_t gpus = 0;
        SizeClass size = SizeClass::CpuOnly;
    };
    std::vector<Arrival> arrivals(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
        const Task &task = tasks[i];
        arrivals[i] = {task.memoryMiB, scheduler.taskClass(task), int32_t(requestedMilli(task)), int16_t(task.gpus),
                       sizeClass(task)};
    }

    SeededRandom random(options.seed);
    std::vector<size_t> order(tasks.size());
    std::iota(order.begin(), order.end(), size_t(0));
    for (size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[random.below(uint32_t(i))]);

    result.snapshots.resize(snapshotPercents.size());
    std::vector<bool> snapped(snapshotPercents.size(), false);
    int64_t arrived = 0;
    bool have100 = false;
    const auto record = [&](int percent) {
        const double allocated = double(scheduler.allocatedMilli());
        const double fragment = scheduler.fragmentMilli();
        const double idle = double(capacity) - allocated;
        Point point;
        point.arrivedPct = 100.0 * double(arrived) / double(capacity);
        point.allocatedPct = 100.0 * allocated / double(capacity);
        point.fragAmountPct = 100.0 * fragment / double(capacity);
        point.fragRatioPct = idle > 0 ? 100.0 * fragment / idle : 0.0;
        result.points.push_back(point);
        if (percent == kPercentAt100) {
            have100 = true;
            result.allocatedPctAt100 = point.allocatedPct;
            result.unallocatedGpusAt100 = idle / kMilliPerGpu;
        }
        for (size_t i = 0; i < snapshotPercents.size(); ++i) {
            if (snapshotPercents[i] == percent) {
                result.snapshots[i] = snapshotOf(scheduler, result.workload);
                snapped[i] = true;
            }
        }
    };

    record(0);
    result.maxBuckets = scheduler.bucketCount();
    int nextPercent = 1;
    // Tasks are read in shuffled order, then drawn at random once the order runs out: a batch of
    // the next ones is gathered at once (loads that do not wait for each other) so that a large
    // trace's arrivals are not fetched from memory one placement at a time. `random` serves only
    // these draws, so drawing a batch ahead draws the same tasks.
    constexpr size_t kBatch = 256;
    std::vector<Arrival> batch;
    batch.reserve(kBatch);
    size_t batchStart = 0;
    for (int64_t k = 0; arrived < target; ++k) {
        if (size_t(k) == batchStart + batch.size()) {
            batchStart = size_t(k);
            batch.clear();
            for (size_t i = batchStart; i < batchStart + kBatch; ++i)
                batch.push_back(arrivals[i < order.size() ? order[i] : random.below(uint32_t(tasks.size()))]);
        }
        const Arrival &arrival = batch[size_t(k) - batchStart];
        if (scheduler.place(arrival.taskClass, arrival.memoryMiB).node < 0) {
            countFailure(result.failed, arrival.size);
            if (arrival.size != SizeClass::CpuOnly && arrived < capacity) {
                const size_t gpus = arrival.size == SizeClass::Fractional ? 0 : size_t(arrival.gpus);
                if (result.failedByGpusAt100.size() <= gpus)
                    result.failedByGpusAt100.resize(gpus + 1, 0);
                ++result.failedByGpusAt100[gpus];
            }
        }
        ++result.arrivedTasks;
        result.maxBuckets = std::max(result.maxBuckets, scheduler.bucketCount());
        arrived += arrival.requestedMilli;
        while (int64_t(nextPercent) * capacity <= arrived * 100)
            record(nextPercent++);
        if (progress && k % kProgressEvery == 0 && !progress(double(arrived) / double(target)))
            throw Cancelled{};
    }
    if (!have100) {
        const Point &last = result.points.back();
        result.allocatedPctAt100 = last.allocatedPct;
        result.unallocatedGpusAt100 = double(capacity - scheduler.allocatedMilli()) / kMilliPerGpu;
    }
    for (size_t i = 0; i < snapshotPercents.size(); ++i) {
        if (!snapped[i])
            result.snapshots[i] = snapshotOf(scheduler, result.workload);
    }
    if (progress)
        progress(1.0);
    result.runtimeS = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

SeedsResult simulateSeeds(const std::vector<Node> &nodes, const std::vector<Task> &tasks,
                          const RunOptions &options, const std::vector<uint32_t> &seeds,
                          unsigned threads, const std::function<bool(double)> &progress)
{
    if (seeds.empty())
        throw InputError("seeds", "at least one seed is needed");
    SeedsResult result;
    result.runs.resize(seeds.size());
    std::atomic<size_t> next{0};
    std::atomic<bool> cancelled{false};
    std::mutex mutex;
    std::vector<double> fractions(seeds.size(), 0.0);
    std::exception_ptr error;

    const auto work = [&] {
        for (size_t i = next++; i < seeds.size() && !cancelled; i = next++) {
            RunOptions run = options;
            run.seed = seeds[i];
            const auto report = [&, i](double fraction) {
                if (cancelled)
                    return false;
                if (!progress)
                    return true;
                const std::lock_guard lock(mutex);
                fractions[i] = fraction;
                const double overall = std::accumulate(fractions.begin(), fractions.end(), 0.0) / double(seeds.size());
                if (!progress(std::min(overall, 1.0)))
                    cancelled = true;
                return !cancelled;
            };
            try {
                result.runs[i] = simulate(nodes, tasks, run, report);
            } catch (const Cancelled &) {
                cancelled = true;
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!error)
                    error = std::current_exception();
                cancelled = true;
            }
        }
    };

    const unsigned available = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
    const size_t workers = std::min<size_t>(available, seeds.size());
    if (workers <= 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        for (size_t w = 0; w < workers; ++w)
            pool.emplace_back(work);
        for (std::thread &t : pool)
            t.join();
    }
    if (error)
        std::rethrow_exception(error);
    if (cancelled)
        throw Cancelled{};

    size_t points = result.runs.front().points.size();
    for (const RunResult &run : result.runs)
        points = std::min(points, run.points.size());
    std::vector<double> arrived, allocated, ratio, amount, at100, unallocated;
    for (size_t p = 0; p < points; ++p) {
        arrived.clear();
        allocated.clear();
        ratio.clear();
        amount.clear();
        for (const RunResult &run : result.runs) {
            arrived.push_back(run.points[p].arrivedPct);
            allocated.push_back(run.points[p].allocatedPct);
            ratio.push_back(run.points[p].fragRatioPct);
            amount.push_back(run.points[p].fragAmountPct);
        }
        result.points.push_back({spreadOf(arrived), spreadOf(allocated), spreadOf(ratio), spreadOf(amount)});
    }
    for (const RunResult &run : result.runs) {
        at100.push_back(run.allocatedPctAt100);
        unallocated.push_back(run.unallocatedGpusAt100);
    }
    result.allocatedPctAt100 = spreadOf(at100);
    result.unallocatedGpusAt100 = spreadOf(unallocated);
    return result;
}

} // namespace headroom::engine::frag
