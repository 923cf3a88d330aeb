#pragma once

#include <cstdint>
#include <string>
#include <vector>

// Mixed clusters and growth (DESIGN §3.3): inference needs GPUs every hour and keeps priority;
// training is lumpy and queuable. A partitioned cluster sizes each side by its own method; a
// dynamically shared one lets training fill what inference leaves. Growth is planned per
// workload type, then summed.
namespace headroom::engine {

// Hourly GPU need of one inference workload (e.g. peak GPUs × diurnal shape). A series shorter
// than the horizon repeats (a daily or weekly shape); each hour's need is rounded up to whole
// GPUs per workload.
struct InferenceDemand {
    std::string name;
    std::vector<double> gpusPerHour;    // ≥ 0
};

// A training job's demand on the cluster.
struct TrainingDemand {
    std::string name;
    int64_t gpus = 0;                   // GPUs wanted: the width it runs at, ≥ 1
    int64_t minGpus = 0;                // fewest it can run on in a shared pool; 0 = any (elastic)
    double gpuHours = 0;                // work to do, GPU-hours, > 0
    int64_t earliestStartHour = 0;      // hour of the horizon it may start, ≥ 0
    int priority = 0;                   // higher first; ties by earliest start, then input order
};

struct MixInput {
    std::vector<InferenceDemand> inference;
    std::vector<TrainingDemand> training;
    int64_t horizonHours = 0;           // > 0
    std::string startDate;              // "YYYY-MM-DD" of hour 0 for completion dates; may be empty
    int64_t sharedPoolGpus = 0;         // dynamic pool size; 0 = the smallest that finishes
                                        //   every job within the horizon (never below the
                                        //   inference peak)
};

// One hour of a cluster, GPUs (for the stacked chart).
struct MixHour {
    double inference = 0;
    double training = 0;
    double idle = 0;
};

struct JobCompletion {
    std::string name;
    int64_t startHour = -1;             // first hour with GPUs; −1 = never started
    int64_t completionHour = -1;        // hour after its last work; −1 = not done in the horizon
    std::string completionDate;         // from startDate; empty when unknown or not done
    double remainingGpuHours = 0;       // left at the end of the horizon
};

// One cluster arrangement's outcome over the horizon.
struct MixOutcome {
    int64_t gpus = 0;                   // total GPUs
    int64_t inferenceGpus = 0;          // partitioned: inference pool (its peak); dynamic: peak need
    int64_t trainingGpus = 0;           // partitioned: training pool; dynamic: gpus − inference peak
    double inferenceUtilization = 0;    // inference GPU-hours ÷ (inference pool × hours); dynamic: ÷ (all GPUs × hours)
    double trainingUtilization = 0;     // training GPU-hours ÷ (training pool × hours); dynamic: ÷ (all GPUs × hours)
    double utilization = 0;             // all used GPU-hours ÷ (gpus × hours)
    double unservedInferenceGpuHours = 0; // demand not served; 0 by construction
    std::vector<JobCompletion> jobs;    // in input order
    std::vector<MixHour> timeline;      // one per hour of the horizon
};

struct MixResult {
    double inferencePeakGpus = 0;       // whole GPUs at the peak hour
    int64_t inferencePeakHour = 0;
    MixOutcome partitioned;
    MixOutcome dynamic;
};
// Partitioned: inference pool = its peak hourly need; training pool = the peak of the jobs'
// summed widths with every job running at its wanted GPUs from its earliest start (so each
// meets its own window). Dynamic: one pool; each hour inference takes its whole need first,
// then training jobs in priority order take up to their wanted GPUs of what is left (a job
// below its minimum waits). Throws InputError naming the field ("horizon_hours",
// "inference", "training", "gpus", "gpu_hours", "earliest_start_hour", "min_gpus",
// "shared_pool_gpus" when below the inference peak, "start_date").
MixResult planMixedCluster(const MixInput &input);

// Growth (DESIGN §3.3): each stream of demand grows by its monthly rate, compounded; capacity
// is summed over streams, rounded up to whole GPUs.
enum class WorkloadKind { Inference, Training };
struct GrowthStream {
    std::string name;
    WorkloadKind kind = WorkloadKind::Inference;
    double gpusNow = 0;                 // capacity this stream needs in month 0, ≥ 0
    double monthlyGrowth = 0;           // 0.05 = +5 % per month; > −1
};
struct GrowthInput {
    std::vector<GrowthStream> streams;
    int months = 24;                    // ≥ 1
    int64_t installedGpus = 0;          // capacity already in place, ≥ 0
    int leadWeeks = 0;                  // reservation lead time, weeks from order to capacity
    std::string startMonth;             // "YYYY-MM" of month 0 for labels; may be empty
};
struct GrowthMonth {
    int month = 0;                      // 0 … months−1
    std::string label;                  // "2026-03", or "M3" without a start month
    double inferenceGpus = 0;
    double trainingGpus = 0;
    int64_t capacityNeeded = 0;         // ceil(inference + training)
    int64_t capacityToAdd = 0;          // beyond the installed and earlier additions
    int orderByMonth = 0;               // month − ceil(lead weeks ÷ (52/12)); negative = overdue now
    std::string orderByLabel;
};
// Capacity needed month by month and what to add, with the month by which to order it.
// Throws InputError ("months", "installed_gpus", "lead_weeks", "gpus_now", "monthly_growth",
// "start_month").
std::vector<GrowthMonth> planGrowth(const GrowthInput &input);
// Months of lead time: ceil(weeks ÷ (52/12)).
int leadMonths(int leadWeeks);

} // namespace headroom::engine
