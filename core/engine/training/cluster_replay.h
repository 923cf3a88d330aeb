#pragma once

#include "coadaptive.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// The shared-cluster what-if (DESIGN §3.5): a mix of training jobs replayed on a cluster of
// nodes × GPUs under
//   (a) fixed GPUs and batch per job, strictly first come first served; or
//   (b) co-adaptive allocation (Pollux, Qiao et al., OSDI 2021): at each scheduling interval the
//       GPUs go where they raise the power mean (p = −1) of the jobs' speedups most (Pollux's
//       fairness objective; speedup = goodput ÷ goodput on one GPU, from the noise scale the
//       job last measured), each job's batch and accumulation are re-chosen for the most goodput
//       on what it holds, and a job whose GPU count changes pays a restart.
// Jobs progress as Pollux's simulator measures them (petuum/adaptdl, osdi21-artifact,
// simulator/): in M₀-batch steps, at goodput ÷ M₀ a second, where the efficiency comes from the
// gradient statistics measured in the job's current epoch at its current batch, and a job is
// done when it reaches the end of its last epoch. Throughput is Pollux's model (coadaptive.h)
// with each application's fitted parameters; a job on N GPUs is placed on ceil(N ÷ GPUs per
// node) nodes (the cluster packs without fragmentation). GPUs given to inference are taken off
// the top and served first: training never uses them. With an hourly inference series, a rise
// preempts training — fixed FCFS jobs latest started first (they go back to the queue in their
// arrival order), least-attained-service and co-adaptive by their own choice on the GPUs left.
namespace headroom::engine {

// What one application's measured traces say.
struct ClusterApplication {
    std::string name;
    PolluxThroughput perf;
    int64_t initialBatch = 1;        // M₀
    int64_t maxBatch = 1;
    int64_t minMicroBatch = 1;
    int64_t maxMicroBatch = 1;
    int64_t adaptiveBatch = 0;       // the batch co-adaptive holds it at; 0: adapts
    // Per validated batch (ascending; the first is M₀), per epoch: the progress at the epoch's
    // end (M₀-batch steps) and the gradient's squared norm and variance measured in it.
    std::vector<int64_t> batches;
    std::vector<std::vector<double>> progress;   // [batch][epoch]
    std::vector<std::vector<double>> gradSqr;    // [batch][epoch]
    std::vector<std::vector<double>> gradVar;    // [batch][epoch]
};

struct ClusterJob {
    std::string name;
    std::string application;
    double submitSeconds = 0;
    int64_t gpus = 1;                // the fixed policy's GPUs
    int64_t batch = 1;               // the fixed policy's batch
};

enum class ClusterPolicy { FixedFcfs, FixedLas, CoAdaptive };

struct ClusterOptions {
    int64_t nodes = 16;
    int64_t gpusPerNode = 4;
    int64_t inferenceGpus = 0;       // served first; training gets the rest
    // GPUs inference holds in each hour from the start, repeated when the replay runs longer (24
    // values: a daily curve); when given, it replaces inferenceGpus.
    std::vector<int64_t> inferenceByHour;
    double intervalSeconds = 60;
    double restartSeconds = 30;      // no progress after each (re)allocation
};

struct ClusterJobResult {
    std::string name;
    std::string application;
    double submitSeconds = 0;
    double startSeconds = -1;        // first GPUs
    double finishSeconds = -1;
    double jctSeconds = 0;           // finish − submit
    double queueSeconds = 0;         // start − submit
    double gpuSeconds = 0;           // GPUs held × time, restarts included
    int64_t restarts = 0;            // reallocations after the first (preemptions included)
    int64_t peakGpus = 0;
};

struct ClusterSample {
    double seconds = 0;
    int64_t inferenceGpus = 0;
    int64_t busyGpus = 0;            // training
    int64_t running = 0;
    int64_t waiting = 0;
};

struct ClusterReplay {
    ClusterPolicy policy = ClusterPolicy::FixedFcfs;
    std::vector<ClusterJobResult> jobs;        // in the workload's order
    double averageJctSeconds = 0;
    double medianJctSeconds = 0;
    double p99JctSeconds = 0;                  // nearest rank
    double maxJctSeconds = 0;
    double averageQueueSeconds = 0;
    double makespanSeconds = 0;                // the last finish
    double gpuHours = 0;
    double utilization = 0;                    // GPU-hours ÷ the GPU-hours inference left to training
                                               // up to the makespan
    std::vector<ClusterSample> timeline;       // one per interval
    bool cancelled = false;
};

// Throws InputError naming the field or the job: an application without batches or epochs, a
// job of an unknown application, fixed GPUs outside 1 … the training GPUs (the most inference
// ever leaves), a fixed batch below one sample a GPU, nodes or GPUs per node < 1, inference
// taking every GPU (constant) or more than the cluster in an hour (series), an interval ≤ 0, a
// negative restart.
void validate(const std::vector<ClusterApplication> &apps, const std::vector<ClusterJob> &jobs,
              const ClusterOptions &options);

// Replays the jobs to the last completion (at most 30 simulated days; jobs still running then
// are reported unfinished with finishSeconds −1). `progress`, when set, is told the share of jobs
// finished before each interval; returning false stops the replay there (cancelled).
ClusterReplay replayCluster(const std::vector<ClusterApplication> &apps, const std::vector<ClusterJob> &jobs,
                            const ClusterOptions &options, ClusterPolicy policy,
                            const std::function<bool(double)> &progress = {});

const char *clusterPolicyName(ClusterPolicy policy);   // "fixed-fcfs", "fixed-las", "co-adaptive"

} // namespace headroom::engine
