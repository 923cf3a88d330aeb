#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <optional>
#include <tuple>
#include <vector>

// The CPU-to-GPU data-loading stall audit (DESIGN §3.7c): from per-job training telemetry, the
// share of each job's allocated GPU-hours spent waiting on input — a GPU idle while the CPU
// cores feeding it are saturated, or the data loader's own measured wait — in GPU-hours, and the
// CPU cores per GPU that would have kept the GPUs fed.
//
// Samples are scrapes: a GPU sample at time t covers the interval since that series' previous
// sample (t − t_prev; a series' first sample covers nothing). For each GPU interval:
//   stall fraction = the node's dataloader_wait_ratio at t, where the job reports it;
//                    else 1 − activity when activity < idleBelow and the node's CPU
//                    utilization at t ≥ cpuSaturatedAbove;
//                    else 0 (busy, or idle for another reason: communication, checkpoints)
//   stall GPU-hours += fraction × interval
// activity = DCGM_FI_PROF_GR_ENGINE_ACTIVE (0–1), or DCGM_FI_DEV_GPU_UTIL ÷ 100 where only that
// exists. Recommended cores per GPU = ceil(cores per GPU × allocated ÷ (allocated − stalled)):
// while the CPU is the bottleneck, input throughput grows with the cores.
namespace headroom::engine {

enum class JobMetric {
    GrEngineActive,   // DCGM_FI_PROF_GR_ENGINE_ACTIVE, ratio 0–1, per GPU
    GpuUtil,          // DCGM_FI_DEV_GPU_UTIL, percent 0–100, per GPU
    CpuUtilization,   // node_cpu_utilization: the job's cores on the node, ratio 0–1
    LoaderWait,       // dataloader_wait_ratio: share of the interval the loader blocked, 0–1
    CpuCores,         // cpu_cores: cores the job holds on the node
    Throughput,       // training_throughput: samples (or tokens) a second the job processed on the node
};
std::string_view metricName(JobMetric metric);
std::optional<JobMetric> parseJobMetric(std::string_view name);
bool isGpuMetric(JobMetric metric);

struct JobSample {
    int64_t epochSeconds = 0;
    std::string job;
    std::string node;
    int gpu = -1;             // GPU index for GPU metrics, −1 for node metrics
    JobMetric metric = JobMetric::GpuUtil;
    double value = 0;
    int line = 0;
};

// Samples checked and grouped: (job, node, GPU index or −1 for node metrics, metric) → the
// series' samples in time order (pointers into the vector given). Throws InputError naming the
// line: a ratio outside [0, 1], utilization outside [0, 100], a negative count or rate, two
// samples of one series at the same time.
using JobSeriesKey = std::tuple<std::string, std::string, int, JobMetric>;
using JobSeries = std::map<JobSeriesKey, std::vector<const JobSample *>>;
JobSeries indexJobSamples(const std::vector<JobSample> &samples);

struct StallOptions {
    double idleBelow = 0.5;          // GPU activity under this is idle
    double cpuSaturatedAbove = 0.9;  // the job's CPU utilization at or over this is saturated
    int lastJobs = 5;                // the audit's "last N jobs" (by their last sample)
};

struct JobStalls {
    std::string job;
    int64_t firstSample = 0;
    int64_t lastSample = 0;
    int nodes = 0;
    int gpus = 0;                    // distinct (node, gpu) series
    std::string activityMetric;      // the metric activity was read from
    double allocatedGpuHours = 0;    // Σ GPU intervals
    double stallGpuHours = 0;
    double share() const { return allocatedGpuHours > 0 ? stallGpuHours / allocatedGpuHours : 0; }
    double loaderWaitGpuHours = 0;   // of the stall: from the loader's measured wait
    double coresPerGpu = 0;          // mean over nodes of cpu_cores ÷ GPUs; 0 when not reported
    int recommendedCoresPerGpu = 0;  // 0 when cores are not reported
};

struct StallAudit {
    std::vector<JobStalls> jobs;     // the last `lastJobs` jobs, most recent first
    int64_t jobsSeen = 0;
    double allocatedGpuHours = 0;    // of the jobs listed
    double stallGpuHours = 0;
};

// Throws InputError naming the line: two samples of one series at the same time, a ratio
// outside [0, 1], utilization outside [0, 100], negative cores; no GPU activity sample at all.
StallAudit auditInputStalls(std::vector<JobSample> samples, const StallOptions &options = {});

} // namespace headroom::engine
