#include "cluster_replay.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace headroom::engine {

namespace {

constexpr double kHorizonSeconds = 30.0 * 86400.0;
constexpr int kMicroGrid = 24;        // micro-batches tried per GPU count, geometric
constexpr int64_t kMostAccumulation = 16;
constexpr double kLasThresholdGpuSeconds = 16 * 3600.0;   // Tiresias's queue threshold

// The gradient statistics at `batch` in `epoch`, linear between the validated batches around
// it (clamped to the validated range), as Pollux's simulator reads them.
std::pair<double, double> gradStats(const ClusterApplication &app, int64_t batch, size_t epoch)
{
    const auto &b = app.batches;
    if (batch <= b.front())
        return {app.gradSqr.front()[epoch], app.gradVar.front()[epoch]};
    if (batch >= b.back())
        return {app.gradSqr.back()[epoch], app.gradVar.back()[epoch]};
    const size_t hi = size_t(std::upper_bound(b.begin(), b.end(), batch) - b.begin());
    const size_t lo = hi - 1;
    const double w = double(batch - b[lo]) / double(b[hi] - b[lo]);
    return {app.gradSqr[lo][epoch] * (1 - w) + app.gradSqr[hi][epoch] * w,
            app.gradVar[lo][epoch] * (1 - w) + app.gradVar[hi][epoch] * w};
}

// Progress a second (M₀-batch steps) of a configuration: Pollux's gain over the step time.
double progressRate(const ClusterApplication &app, const GoodputJob &model, int64_t gpus, int64_t micro,
                    int64_t accumulation, size_t epoch)
{
    const GoodputPoint point = evaluateGoodput(model, gpus, micro, accumulation);
    const auto [sqr, var] = gradStats(app, point.batch, epoch);
    const double scale = double(point.batch) / double(app.initialBatch) * 1.0;
    const double gain = sqr > 0 ? (var + sqr) / (var / scale + sqr) : scale;
    return gain / point.stepSeconds;
}

// Progress a second the job's agent expects: Pollux's goodput model with the noise scale it last
// measured, over M₀.
double expectedRate(const GoodputJob &model, int64_t gpus, int64_t micro, int64_t accumulation)
{
    return evaluateGoodput(model, gpus, micro, accumulation).goodput / double(model.initialBatch);
}

struct Config {
    int64_t micro = 0;
    int64_t accumulation = 0;
};

// Pollux's split of a fixed batch over N GPUs: the local batch, accumulated when it passes
// the largest micro-batch.
Config fixedConfig(const ClusterApplication &app, int64_t gpus, int64_t batch)
{
    const int64_t local = (batch + gpus - 1) / gpus;
    Config c;
    c.accumulation = (local + app.maxMicroBatch - 1) / app.maxMicroBatch - 1;
    c.micro = (local + c.accumulation) / (c.accumulation + 1);
    c.micro = std::max<int64_t>(1, std::min(c.micro, app.maxBatch / (gpus * (c.accumulation + 1))));
    return c;
}

struct JobState {
    const ClusterApplication *app = nullptr;
    GoodputJob model;
    size_t epoch = 0;
    double progress = 0;
    int64_t gpus = 0;
    Config config;
    double restartLeft = 0;
    double firstStart = -1;
    double finish = -1;
    double gpuSeconds = 0;
    int64_t allocations = 0;
    int64_t peak = 0;
    int64_t lastBatch = 0;
    double executed = 0;       // seconds holding GPUs (least attained service)
    double lastStart = -1;     // the latest (re)allocation
    int64_t demoted = -1;      // order of demotion to the second queue; −1: first queue
    // Co-adaptive: speedup and configuration per GPU count, for the epoch they were made in.
    size_t tableEpoch = std::numeric_limits<size_t>::max();
    std::vector<double> speedup;
    std::vector<Config> best;
};

// The configuration with the most progress a second on `gpus` GPUs, or micro 0 when none fits.
std::pair<Config, double> bestConfig(const JobState &job, int64_t gpus)
{
    const ClusterApplication &app = *job.app;
    if (app.adaptiveBatch > 0) {
        const Config c = fixedConfig(app, gpus, app.adaptiveBatch);
        return {c, expectedRate(job.model, gpus, c.micro, c.accumulation)};
    }
    const int64_t lo = app.minMicroBatch;
    const int64_t hi = std::min(app.maxMicroBatch, app.maxBatch / gpus);
    if (hi < lo)
        return {{}, 0.0};
    Config bestC;
    double bestRate = 0;
    int64_t bestBatch = 0;
    auto consider = [&](int64_t m, int64_t s) {
        const int64_t batch = gpus * m * (s + 1);
        const double rate = expectedRate(job.model, gpus, m, s);
        // Batches below M₀ only when nothing reaches it.
        const bool reaches = batch >= app.initialBatch, bestReaches = bestBatch >= app.initialBatch;
        if (bestC.micro == 0 || (reaches && !bestReaches) || (reaches == bestReaches && rate > bestRate)) {
            bestC = {m, s};
            bestRate = rate;
            bestBatch = batch;
        }
    };
    int64_t previous = 0;
    for (int i = 0; i < kMicroGrid; ++i) {
        const double f = kMicroGrid == 1 ? 1.0 : double(i) / double(kMicroGrid - 1);
        const int64_t m = std::clamp<int64_t>(int64_t(std::llround(double(lo) * std::pow(double(hi) / double(lo), f))), lo, hi);
        if (m != previous)
            consider(m, 0);
        previous = m;
    }
    for (int64_t s = 1; s <= kMostAccumulation && gpus * hi * (s + 1) <= app.maxBatch; ++s)
        consider(hi, s);
    return {bestC, bestRate};
}

// The noise scale the job's agent reports: the statistics of its epoch at the batch it runs.
void observe(JobState &job)
{
    const auto [sqr, var] = gradStats(*job.app, job.lastBatch > 0 ? job.lastBatch : job.app->initialBatch, job.epoch);
    job.model.noiseScale = sqr > 0 ? double(job.app->initialBatch) * var / sqr : 1e18;
}

void refreshTable(JobState &job, int64_t capacity)
{
    if (job.tableEpoch == job.epoch)
        return;
    job.tableEpoch = job.epoch;
    observe(job);
    const int64_t most = std::min(capacity, job.app->maxBatch / job.app->minMicroBatch);
    job.speedup.assign(size_t(most) + 1, 0.0);
    job.best.assign(size_t(most) + 1, Config{});
    double one = 0;
    for (int64_t n = 1; n <= most; ++n) {
        const auto [c, rate] = bestConfig(job, n);
        if (n == 1)
            one = rate;
        job.best[size_t(n)] = c;
        job.speedup[size_t(n)] = c.micro > 0 && one > 0 ? rate / one : 0.0;
    }
}

double percentile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t rank = size_t(std::ceil(q * double(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

} // namespace

const char *clusterPolicyName(ClusterPolicy policy)
{
    switch (policy) {
    case ClusterPolicy::FixedFcfs:
        return "fixed-fcfs";
    case ClusterPolicy::FixedLas:
        return "fixed-las";
    case ClusterPolicy::CoAdaptive:
        return "co-adaptive";
    }
    return "";
}

void validate(const std::vector<ClusterApplication> &apps, const std::vector<ClusterJob> &jobs,
              const ClusterOptions &options)
{
    if (options.nodes < 1 || options.nodes > 100000)
        throw InputError("nodes", "the cluster's nodes must be from 1 to 100,000");
    if (options.gpusPerNode < 1 || options.gpusPerNode > 64)
        throw InputError("gpus_per_node", "GPUs per node must be from 1 to 64");
    const int64_t total = options.nodes * options.gpusPerNode;
    if (options.inferenceGpus < 0 || options.inferenceGpus >= total)
        throw InputError("inference_gpus", "inference may take from 0 to " + std::to_string(total - 1) +
                                               " of the cluster's " + std::to_string(total) + " GPUs");
    if (options.inferenceByHour.size() > 10'000'000)
        throw InputError("inference_series", "the inference series may hold at most 10,000,000 hours");
    for (size_t h = 0; h < options.inferenceByHour.size(); ++h)
        if (options.inferenceByHour[h] < 0 || options.inferenceByHour[h] > total)
            throw InputError("inference_series", "hour " + std::to_string(h) + ": inference may take from 0 to the "
                                                     "cluster's " + std::to_string(total) + " GPUs, not " +
                                                     std::to_string(options.inferenceByHour[h]));
    if (!options.inferenceByHour.empty() &&
        *std::min_element(options.inferenceByHour.begin(), options.inferenceByHour.end()) >= total)
        throw InputError("inference_series", "inference takes every GPU in every hour; training never runs");
    if (!(options.intervalSeconds > 0) || options.intervalSeconds > 86400)
        throw InputError("interval", "the scheduling interval must be more than 0 s and at most a day");
    if (!(options.restartSeconds >= 0) || options.restartSeconds > 86400)
        throw InputError("restart", "the restart penalty must be from 0 s to a day");
    std::map<std::string, const ClusterApplication *> byName;
    for (const ClusterApplication &app : apps) {
        const std::string where = "application " + app.name;
        validate(GoodputJob{app.perf, 0, app.initialBatch, app.maxBatch, app.maxMicroBatch, int(options.gpusPerNode)});
        if (app.minMicroBatch < 1 || app.minMicroBatch > app.maxMicroBatch)
            throw InputError(where, where + ": the smallest micro-batch must be from 1 to the largest");
        if (app.batches.empty() || app.batches.front() != app.initialBatch || app.batches.back() != app.maxBatch ||
            !std::is_sorted(app.batches.begin(), app.batches.end()))
            throw InputError(where, where + ": validated batches must ascend from M₀ to the largest batch");
        const size_t epochs = app.progress.empty() ? 0 : app.progress.front().size();
        if (epochs == 0 || app.progress.size() != app.batches.size() || app.gradSqr.size() != app.batches.size() ||
            app.gradVar.size() != app.batches.size())
            throw InputError(where, where + ": every validated batch needs its epochs");
        for (size_t b = 0; b < app.batches.size(); ++b) {
            if (app.progress[b].size() != epochs || app.gradSqr[b].size() != epochs || app.gradVar[b].size() != epochs)
                throw InputError(where, where + ": batch " + std::to_string(app.batches[b]) + " has " +
                                            std::to_string(app.progress[b].size()) + " epochs, not " +
                                            std::to_string(epochs));
            for (size_t e = 0; e < epochs; ++e)
                if (!(app.progress[b][e] > (e ? app.progress[b][e - 1] : 0.0)) || !(app.gradSqr[b][e] >= 0) ||
                    !(app.gradVar[b][e] >= 0) || !std::isfinite(app.gradVar[b][e] + app.gradSqr[b][e]))
                    throw InputError(where, where + ": batch " + std::to_string(app.batches[b]) + ", epoch " +
                                                std::to_string(e) +
                                                ": progress must grow and gradient statistics be 0 or more");
        }
        if (!byName.emplace(app.name, &app).second)
            throw InputError(where, where + " is given twice");
    }
    const int64_t training = total - (options.inferenceByHour.empty()
                                          ? options.inferenceGpus
                                          : *std::min_element(options.inferenceByHour.begin(),
                                                              options.inferenceByHour.end()));
    for (const ClusterJob &job : jobs) {
        const std::string where = "job " + job.name;
        const auto it = byName.find(job.application);
        if (it == byName.end())
            throw InputError(where, where + ": unknown application \"" + job.application + "\"");
        if (!(job.submitSeconds >= 0) || !std::isfinite(job.submitSeconds))
            throw InputError(where, where + ": the submission time must be 0 s or later");
        if (job.gpus < 1 || job.gpus > training)
            throw InputError(where, where + ": its fixed GPUs must be from 1 to the " + std::to_string(training) +
                                        " training GPUs");
        if (job.batch < job.gpus * it->second->minMicroBatch || job.batch > it->second->maxBatch)
            throw InputError(where, where + ": its fixed batch must be from " +
                                        std::to_string(job.gpus * it->second->minMicroBatch) + " to " +
                                        std::to_string(it->second->maxBatch) + " samples");
    }
}

ClusterReplay replayCluster(const std::vector<ClusterApplication> &apps, const std::vector<ClusterJob> &jobs,
                            const ClusterOptions &options, ClusterPolicy policy,
                            const std::function<bool(double)> &progress)
{
    validate(apps, jobs, options);
    std::map<std::string, const ClusterApplication *> byName;
    for (const ClusterApplication &app : apps)
        byName[app.name] = &app;
    const int64_t total = options.nodes * options.gpusPerNode;
    // What inference holds at a time, served first.
    const auto inferenceAt = [&](double t) -> int64_t {
        if (options.inferenceByHour.empty())
            return options.inferenceGpus;
        return options.inferenceByHour[size_t(int64_t(t / 3600.0)) % options.inferenceByHour.size()];
    };
    // The most GPUs training ever gets: the speedup tables' reach.
    int64_t capacity = 0;
    for (size_t h = 0; h < std::max<size_t>(options.inferenceByHour.size(), 1); ++h)
        capacity = std::max(capacity, total - inferenceAt(3600.0 * double(h)));
    const double dt = options.intervalSeconds;

    std::vector<JobState> state(jobs.size());
    std::vector<std::vector<double>> epochEnd(jobs.size());
    for (size_t j = 0; j < jobs.size(); ++j) {
        JobState &s = state[j];
        s.app = byName.at(jobs[j].application);
        s.model = GoodputJob{s.app->perf, 0, s.app->initialBatch, s.app->maxBatch, s.app->maxMicroBatch,
                             int(options.gpusPerNode)};
        // An epoch ends where the first validated batch reaches it (Pollux's get_progress).
        const size_t epochs = s.app->progress.front().size();
        epochEnd[j].assign(epochs, std::numeric_limits<double>::infinity());
        for (const auto &series : s.app->progress)
            for (size_t e = 0; e < epochs; ++e)
                epochEnd[j][e] = std::min(epochEnd[j][e], series[e]);
    }
    // Submission order, stable: the FCFS queue.
    std::vector<size_t> order(jobs.size());
    for (size_t j = 0; j < order.size(); ++j)
        order[j] = j;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return jobs[a].submitSeconds < jobs[b].submitSeconds; });

    auto configure = [&](size_t j) {
        JobState &s = state[j];
        if (s.gpus == 0)
            return;
        if (policy != ClusterPolicy::CoAdaptive) {
            s.config = fixedConfig(*s.app, s.gpus, jobs[j].batch);
        } else {
            observe(s);
            s.config = bestConfig(s, s.gpus).first;
        }
        s.lastBatch = s.gpus * s.config.micro * (s.config.accumulation + 1);
    };
    auto allocate = [&](size_t j, int64_t gpus, double now) {
        JobState &s = state[j];
        s.gpus = gpus;
        if (gpus > 0) {
            if (s.firstStart < 0)
                s.firstStart = now;
            s.lastStart = now;
            ++s.allocations;
            s.peak = std::max(s.peak, gpus);
            s.restartLeft = options.restartSeconds;
        }
        configure(j);
    };

    ClusterReplay out;
    out.policy = policy;
    size_t finished = 0;
    int64_t demotions = 0;
    double now = 0;
    for (; finished < jobs.size() && now < kHorizonSeconds; now += dt) {
        if (progress && !progress(double(finished) / double(std::max<size_t>(jobs.size(), 1)))) {
            out.cancelled = true;
            break;
        }
        // Allocate for the interval [now, now + dt).
        const int64_t inference = inferenceAt(now);
        const int64_t available = total - inference;
        std::vector<size_t> active;
        for (size_t j : order)
            if (jobs[j].submitSeconds <= now && state[j].finish < 0)
                active.push_back(j);
        if (policy == ClusterPolicy::FixedFcfs) {
            int64_t used = 0;
            for (size_t j : active)
                used += state[j].gpus;
            // Inference rose: the latest started give their GPUs back first.
            if (used > available) {
                std::vector<size_t> running;
                for (size_t j : active)
                    if (state[j].gpus > 0)
                        running.push_back(j);
                std::stable_sort(running.begin(), running.end(), [&](size_t a, size_t b) {
                    return state[a].lastStart > state[b].lastStart;
                });
                for (size_t j : running) {
                    if (used <= available)
                        break;
                    used -= state[j].gpus;
                    allocate(j, 0, now);
                }
            }
            for (size_t j : active) {
                if (state[j].gpus > 0)
                    continue;
                if (jobs[j].gpus > available - used)
                    break;   // strictly first come, first served
                allocate(j, jobs[j].gpus, now);
                used += jobs[j].gpus;
            }
        } else if (policy == ClusterPolicy::FixedLas) {
            for (size_t j : active)
                if (state[j].demoted < 0 && state[j].executed * double(jobs[j].gpus) >= kLasThresholdGpuSeconds)
                    state[j].demoted = demotions++;
            std::vector<size_t> queue = active;   // first queue by arrival, then second by demotion
            std::stable_sort(queue.begin(), queue.end(), [&](size_t a, size_t b) {
                const int64_t da = state[a].demoted, db = state[b].demoted;
                if ((da < 0) != (db < 0))
                    return da < 0;
                return da >= 0 && da < db;
            });
            int64_t left = available;
            std::vector<size_t> run;
            for (size_t j : queue) {
                if (jobs[j].gpus <= left) {
                    left -= jobs[j].gpus;
                    run.push_back(j);
                } else if (state[j].gpus > 0) {
                    allocate(j, 0, now);   // preempted
                }
            }
            for (size_t j : run)
                if (state[j].gpus == 0)
                    allocate(j, jobs[j].gpus, now);
        } else {
            // Pollux's objective: the power mean (p = −1) of the jobs' speedups, each scaled so one
            // node's worth is 1, so raising a slow job counts for more than raising a fast one.
            // Maximized greedily, GPUs at a time (a job's speedup can jump past a node boundary).
            // A restart discounts every count but the one a job holds by Pollux's penalty,
            // (age − restarts × delay) ÷ (age + delay); a job grows to at most twice the most
            // GPUs it has held (Pollux's exploration limit).
            std::vector<int64_t> give(active.size(), 0), most(active.size(), 0);
            std::vector<double> factor(active.size(), 1.0);
            for (size_t i = 0; i < active.size(); ++i) {
                JobState &s = state[active[i]];
                refreshTable(s, capacity);
                most[i] = std::min<int64_t>(int64_t(s.speedup.size()) - 1, std::max<int64_t>(1, 2 * s.peak));
                if (s.firstStart >= 0) {
                    const double age = now - s.firstStart;
                    const double restarts = double(std::max<int64_t>(s.allocations - 1, 0));
                    factor[i] = std::max(age - restarts * options.restartSeconds, 0.0) / (age + options.restartSeconds);
                }
            }
            auto value = [&](size_t i, int64_t n) {
                const JobState &s = state[active[i]];
                const double v = s.speedup[size_t(n)];
                const double w = n == s.gpus || s.firstStart < 0 ? v : v * factor[i];
                return -1.0 / (w / double(options.gpusPerNode) + 1e-3);   // a term of Σ x^p, p = −1
            };
            int64_t left = available;
            while (left > 0) {
                double bestGain = 0;
                size_t bestI = 0;
                int64_t bestK = 0;
                for (size_t i = 0; i < active.size(); ++i) {
                    const double base = value(i, give[i]);
                    for (int64_t k = 1; k <= std::min(left, most[i] - give[i]); ++k) {
                        const double gain = (value(i, give[i] + k) - base) / double(k);
                        if (gain > bestGain + 1e-12) {
                            bestGain = gain;
                            bestI = i;
                            bestK = k;
                        }
                    }
                }
                if (bestK == 0)
                    break;
                give[bestI] += bestK;
                left -= bestK;
            }
            for (size_t i = 0; i < active.size(); ++i)
                if (give[i] != state[active[i]].gpus)
                    allocate(active[i], give[i], now);
        }
        // Run the interval.
        ClusterSample sample{now, inference, 0, 0, 0};
        for (size_t j : active) {
            JobState &s = state[j];
            if (s.gpus == 0) {
                ++sample.waiting;
                continue;
            }
            ++sample.running;
            sample.busyGpus += s.gpus;
            double left = dt;
            const double wait = std::min(s.restartLeft, left);
            s.restartLeft -= wait;
            left -= wait;
            double used = wait;
            while (left > 0 && s.finish < 0) {
                const double rate = progressRate(*s.app, s.model, s.gpus, s.config.micro, s.config.accumulation, s.epoch);
                const double end = epochEnd[j][s.epoch];
                if (s.progress + rate * left < end) {
                    s.progress += rate * left;
                    used += left;
                    left = 0;
                    break;
                }
                const double step = (end - s.progress) / rate;
                s.progress = end;
                used += step;
                left -= step;
                if (++s.epoch == epochEnd[j].size()) {
                    s.finish = now + used;
                    ++finished;
                    break;
                }
                configure(j);   // batch re-chosen between epochs
            }
            s.gpuSeconds += double(s.gpus) * used;
            s.executed += used;
            if (s.finish >= 0)
                s.gpus = 0;
        }
        out.timeline.push_back(sample);
    }

    std::vector<double> jcts;
    double queue = 0, gpuSeconds = 0;
    for (size_t j = 0; j < jobs.size(); ++j) {
        const JobState &s = state[j];
        ClusterJobResult r;
        r.name = jobs[j].name;
        r.application = jobs[j].application;
        r.submitSeconds = jobs[j].submitSeconds;
        r.startSeconds = s.firstStart;
        r.finishSeconds = s.finish;
        r.gpuSeconds = s.gpuSeconds;
        r.restarts = std::max<int64_t>(s.allocations - 1, 0);
        r.peakGpus = s.peak;
        if (s.finish >= 0) {
            r.jctSeconds = s.finish - r.submitSeconds;
            r.queueSeconds = s.firstStart - r.submitSeconds;
            jcts.push_back(r.jctSeconds);
            queue += r.queueSeconds;
            out.makespanSeconds = std::max(out.makespanSeconds, s.finish);
        }
        gpuSeconds += s.gpuSeconds;
        out.jobs.push_back(r);
    }
    if (!jcts.empty()) {
        double sum = 0;
        for (double v : jcts)
            sum += v;
        out.averageJctSeconds = sum / double(jcts.size());
        out.averageQueueSeconds = queue / double(jcts.size());
        out.medianJctSeconds = percentile(jcts, 0.5);
        out.p99JctSeconds = percentile(jcts, 0.99);
        out.maxJctSeconds = percentile(jcts, 1.0);
    }
    out.gpuHours = gpuSeconds / 3600.0;
    // The GPU-seconds inference left to training up to the makespan: whole intervals, then the
    // part of the last one.
    if (out.makespanSeconds > 0) {
        double left = 0;
        for (double t = 0; t < out.makespanSeconds; t += dt)
            left += double(total - inferenceAt(t)) * std::min(dt, out.makespanSeconds - t);
        out.utilization = left > 0 ? gpuSeconds / left : 0;
    }
    return out;
}

} // namespace headroom::engine
