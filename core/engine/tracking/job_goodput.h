#pragma once

#include "input_stalls.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

// Goodput per training job over time (DESIGN §3.7c): from the job telemetry the stall audit reads,
// each job's samples (or tokens) a second per GPU, hour by hour, beside the GPU-hours it held,
// and the hours it fell below its planned rate.
//
// GPU-hours come from the GPU activity series (DCGM_FI_PROF_GR_ENGINE_ACTIVE, or
// DCGM_FI_DEV_GPU_UTIL where a GPU has only that), as the stall audit counts them; samples from
// training_throughput, the node's rate over the interval since its previous sample. Each
// interval is split over the UTC hours it spans. Per hour:
//   per GPU   = samples ÷ (GPU-hours × 3,600)            (samples a second per GPU)
//   below     = per GPU < flagBelow × planned            (only where a plan is given)
//   shortfall = GPU-hours × (1 − per GPU ÷ planned)      (GPU-hours that made nothing, on the
//                                                        plan's terms; below hours only)
// An hour with GPUs held and no throughput reported counts as 0 a GPU.
namespace headroom::engine {

struct JobGoodputHour {
    int64_t hourStart = 0;          // epoch seconds, a whole UTC hour
    double gpuHours = 0;
    double samples = 0;
    double perGpu = 0;              // samples a second per GPU
    bool below = false;
    double shortfallGpuHours = 0;
};

struct JobGoodputTrack {
    std::string job;
    double gpuHours = 0;
    double samples = 0;
    double perGpu = 0;              // over the whole job
    double planned = 0;             // samples a second per GPU; 0: no plan
    int hoursBelow = 0;
    double shortfallGpuHours = 0;
    std::vector<JobGoodputHour> hours;   // in time order, every hour the job held GPUs
};

struct JobGoodputTracking {
    std::vector<JobGoodputTrack> jobs;   // jobs reporting training_throughput, by name
    std::vector<std::string> withoutThroughput;   // jobs holding GPUs that report none
};

// Throws InputError as indexJobSamples does, for a planned rate ≤ 0 or not finite (naming the
// job), for flagBelow outside (0, 1], and when no job reports training_throughput.
JobGoodputTracking trackJobGoodput(const std::vector<JobSample> &samples,
                                   const std::map<std::string, double> &plannedPerGpu, double flagBelow = 0.9);

} // namespace headroom::engine
