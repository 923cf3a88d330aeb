#include "capacity_mix.h"

#include "engine/common/errors.h"
#include "engine/common/explain_text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>

namespace headroom::engine {

using explain::ceilCount;

namespace {

constexpr double kWeeksPerMonth = 52.0 / 12.0;
constexpr int kMaxMonths = 600;

std::string text(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

[[noreturn]] void fail(const std::string &field, const std::string &message)
{
    throw InputError(field, message);
}

std::optional<std::chrono::sys_days> parseDate(const std::string &date)
{
    if (date.size() != 10 || date[4] != '-' || date[7] != '-')
        return std::nullopt;
    for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (date[i] < '0' || date[i] > '9')
            return std::nullopt;
    const std::chrono::year_month_day ymd{std::chrono::year{std::stoi(date.substr(0, 4))},
                                          std::chrono::month{unsigned(std::stoi(date.substr(5, 2)))},
                                          std::chrono::day{unsigned(std::stoi(date.substr(8, 2)))}};
    if (!ymd.ok())
        return std::nullopt;
    return std::chrono::sys_days{ymd};
}

std::string formatDate(std::chrono::sys_days day)
{
    const std::chrono::year_month_day ymd{day};
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u", int(ymd.year()), unsigned(ymd.month()),
                  unsigned(ymd.day()));
    return buffer;
}

// Month index since year 0 of a "YYYY-MM" text; nullopt when malformed.
std::optional<int> parseMonth(const std::string &month)
{
    if (month.size() != 7 || month[4] != '-')
        return std::nullopt;
    for (size_t i : {0, 1, 2, 3, 5, 6})
        if (month[i] < '0' || month[i] > '9')
            return std::nullopt;
    const int year = std::stoi(month.substr(0, 4));
    const int number = std::stoi(month.substr(5, 2));
    if (number < 1 || number > 12)
        return std::nullopt;
    return year * 12 + number - 1;
}

std::string monthLabel(const std::optional<int> &start, int offset)
{
    if (!start)
        return "M" + std::to_string(offset);
    const int index = *start + offset;
    const int year = index >= 0 ? index / 12 : (index - 11) / 12;
    const int month = index - year * 12 + 1;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d", year, month);
    return buffer;
}

// Whole GPUs inference needs each hour, summed over workloads.
std::vector<int64_t> inferenceNeed(const MixInput &input)
{
    std::vector<int64_t> need(size_t(input.horizonHours), 0);
    for (const InferenceDemand &workload : input.inference) {
        const std::vector<double> &series = workload.gpusPerHour;
        std::vector<int64_t> whole(series.size());
        for (size_t i = 0; i < series.size(); ++i)
            whole[i] = ceilCount(series[i]);
        const size_t period = whole.size();
        for (size_t h = 0, i = 0; h < need.size(); ++h) {
            need[h] += whole[i];
            if (++i == period)
                i = 0;
        }
    }
    return need;
}

void validateMix(const MixInput &input)
{
    if (input.horizonHours < 1)
        fail("horizon_hours", "horizon_hours must be at least 1 (got " + std::to_string(input.horizonHours) + ")");
    for (const InferenceDemand &workload : input.inference) {
        if (workload.gpusPerHour.empty())
            fail("inference", "the inference workload \"" + workload.name + "\" has no hourly GPU need");
        for (double gpus : workload.gpusPerHour)
            if (!(gpus >= 0 && std::isfinite(gpus)))
                fail("inference", "the inference workload \"" + workload.name
                                      + "\" has a negative or non-finite hourly GPU need (" + text(gpus) + ")");
    }
    for (const TrainingDemand &job : input.training) {
        const std::string who = "training job \"" + job.name + "\": ";
        if (job.gpus < 1)
            fail("gpus", who + "gpus must be at least 1 (got " + std::to_string(job.gpus) + ")");
        if (job.minGpus < 0 || job.minGpus > job.gpus)
            fail("min_gpus", who + "min_gpus must be between 0 and gpus (" + std::to_string(job.gpus) + "), got "
                                 + std::to_string(job.minGpus));
        if (!(job.gpuHours > 0 && std::isfinite(job.gpuHours)))
            fail("gpu_hours", who + "gpu_hours must be greater than 0 (got " + text(job.gpuHours) + ")");
        if (job.earliestStartHour < 0 || job.earliestStartHour >= input.horizonHours)
            fail("earliest_start_hour", who + "earliest_start_hour must be within the horizon, 0 to "
                                            + std::to_string(input.horizonHours - 1) + " (got "
                                            + std::to_string(job.earliestStartHour) + ")");
    }
    if (input.sharedPoolGpus < 0)
        fail("shared_pool_gpus", "shared_pool_gpus must not be negative (got " + std::to_string(input.sharedPoolGpus) + ")");
    if (!input.startDate.empty() && !parseDate(input.startDate))
        fail("start_date", "start_date must be a date as YYYY-MM-DD (got \"" + input.startDate + "\")");
}

// Runs the training jobs hour by hour on what inference leaves of a `pool`; inference takes its
// whole need first. Fills the outcome's jobs and timeline.
struct Simulation {
    std::vector<JobCompletion> jobs;
    std::vector<MixHour> timeline;
    double inferenceGpuHours = 0;
    double trainingGpuHours = 0;
    double unserved = 0;
    bool everyJobDone = true;
};

class MixSimulator {
public:
    MixSimulator(const MixInput &input, const std::vector<int64_t> &inference)
        : m_input(input), m_inference(inference), m_order(input.training.size())
    {
        std::iota(m_order.begin(), m_order.end(), size_t(0));
        std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) {
            const TrainingDemand &x = input.training[a];
            const TrainingDemand &y = input.training[b];
            if (x.priority != y.priority)
                return x.priority > y.priority;
            return x.earliestStartHour < y.earliestStartHour;
        });
    }

    // `withInference` false runs a training-only pool, `withTraining` false an inference-only
    // one (the two sides of a partitioned cluster).
    Simulation run(int64_t pool, bool withInference, bool withTraining, bool withTimeline) const
    {
        Simulation sim;
        const size_t jobCount = m_input.training.size();
        std::vector<double> remaining(jobCount);
        sim.jobs.resize(jobCount);
        for (size_t j = 0; j < jobCount; ++j) {
            remaining[j] = m_input.training[j].gpuHours;
            sim.jobs[j].name = m_input.training[j].name;
        }
        if (withTimeline)
            sim.timeline.resize(m_inference.size());
        size_t open = withTraining ? jobCount : 0;
        for (size_t h = 0; h < m_inference.size(); ++h) {
            const int64_t inference = withInference ? std::min(m_inference[h], pool) : 0;
            if (withInference) {
                sim.inferenceGpuHours += double(inference);
                sim.unserved += double(m_inference[h] - inference);
            }
            int64_t left = pool - inference;
            double training = 0;
            for (size_t k = 0; k < m_order.size() && left > 0 && open > 0; ++k) {
                const size_t j = m_order[k];
                const TrainingDemand &job = m_input.training[j];
                if (remaining[j] <= 0 || int64_t(h) < job.earliestStartHour)
                    continue;
                const int64_t granted = std::min(job.gpus, left);
                if (granted < std::max<int64_t>(1, job.minGpus))
                    continue;
                const double work = std::min(double(granted), remaining[j]);
                remaining[j] -= work;
                training += work;
                left -= granted;
                JobCompletion &done = sim.jobs[j];
                if (done.startHour < 0)
                    done.startHour = int64_t(h);
                if (remaining[j] <= 1e-9) {
                    remaining[j] = 0;
                    done.completionHour = int64_t(h) + 1;
                    --open;
                }
            }
            sim.trainingGpuHours += training;
            if (withTimeline) {
                MixHour &hour = sim.timeline[h];
                hour.inference = double(inference);
                hour.training = training;
                hour.idle = double(pool) - double(inference) - training;
            }
        }
        for (size_t j = 0; j < jobCount; ++j) {
            sim.jobs[j].remainingGpuHours = remaining[j];
            if (sim.jobs[j].completionHour < 0)
                sim.everyJobDone = false;
        }
        if (!withTraining)
            sim.jobs.clear();
        return sim;
    }

private:
    const MixInput &m_input;
    const std::vector<int64_t> &m_inference;
    std::vector<size_t> m_order;
};

// Peak of the jobs' summed widths with each running at its wanted GPUs from its earliest start.
int64_t trainingPoolForWindows(const MixInput &input)
{
    std::vector<int64_t> delta(size_t(input.horizonHours) + 1, 0);
    for (const TrainingDemand &job : input.training) {
        const int64_t hours = ceilCount(job.gpuHours / double(job.gpus));
        const int64_t end = std::min(input.horizonHours, job.earliestStartHour + hours);
        delta[size_t(job.earliestStartHour)] += job.gpus;
        delta[size_t(end)] -= job.gpus;
    }
    int64_t running = 0;
    int64_t peak = 0;
    for (int64_t change : delta) {
        running += change;
        peak = std::max(peak, running);
    }
    return peak;
}

void addDates(const MixInput &input, std::vector<JobCompletion> &jobs)
{
    const std::optional<std::chrono::sys_days> start = parseDate(input.startDate);
    if (!start)
        return;
    for (JobCompletion &job : jobs) {
        if (job.completionHour < 0)
            continue;
        // The date of the hour in which the last work happened.
        const int64_t lastHour = std::max<int64_t>(0, job.completionHour - 1);
        job.completionDate = formatDate(*start + std::chrono::days{lastHour / 24});
    }
}

MixOutcome outcomeFrom(Simulation &&sim, int64_t gpus, int64_t inferenceGpus, int64_t trainingGpus,
                       double hours, bool shared)
{
    MixOutcome outcome;
    outcome.gpus = gpus;
    outcome.inferenceGpus = inferenceGpus;
    outcome.trainingGpus = trainingGpus;
    const double inferenceCapacity = (shared ? double(gpus) : double(inferenceGpus)) * hours;
    const double trainingCapacity = (shared ? double(gpus) : double(trainingGpus)) * hours;
    outcome.inferenceUtilization = inferenceCapacity > 0 ? sim.inferenceGpuHours / inferenceCapacity : 0;
    outcome.trainingUtilization = trainingCapacity > 0 ? sim.trainingGpuHours / trainingCapacity : 0;
    outcome.utilization = gpus > 0 ? (sim.inferenceGpuHours + sim.trainingGpuHours) / (double(gpus) * hours) : 0;
    outcome.unservedInferenceGpuHours = sim.unserved;
    outcome.jobs = std::move(sim.jobs);
    outcome.timeline = std::move(sim.timeline);
    return outcome;
}

} // namespace

MixResult planMixedCluster(const MixInput &input)
{
    validateMix(input);
    const std::vector<int64_t> inference = inferenceNeed(input);
    MixResult result;
    const auto peak = std::max_element(inference.begin(), inference.end());
    const int64_t inferencePeak = *peak;
    result.inferencePeakGpus = double(inferencePeak);
    result.inferencePeakHour = int64_t(peak - inference.begin());
    const double hours = double(input.horizonHours);
    const MixSimulator simulator(input, inference);

    // Partitioned: each side by its own method.
    const int64_t trainingPool = trainingPoolForWindows(input);
    Simulation inferenceSide = simulator.run(inferencePeak, true, false, true);
    Simulation trainingSide = simulator.run(trainingPool, false, true, true);
    for (size_t h = 0; h < inferenceSide.timeline.size(); ++h) {
        MixHour &hour = inferenceSide.timeline[h];
        hour.training = trainingSide.timeline[h].training;
        hour.idle += trainingSide.timeline[h].idle;
    }
    inferenceSide.jobs = std::move(trainingSide.jobs);
    inferenceSide.trainingGpuHours = trainingSide.trainingGpuHours;
    result.partitioned = outcomeFrom(std::move(inferenceSide), inferencePeak + trainingPool, inferencePeak,
                                     trainingPool, hours, false);
    addDates(input, result.partitioned.jobs);

    // Dynamic: one pool, inference first each hour.
    int64_t pool = input.sharedPoolGpus;
    if (pool > 0) {
        if (pool < inferencePeak)
            fail("shared_pool_gpus", "shared_pool_gpus (" + std::to_string(pool)
                                         + ") is below the inference peak of " + std::to_string(inferencePeak)
                                         + " GPUs at hour " + std::to_string(result.inferencePeakHour)
                                         + ": inference would be starved");
    } else {
        // Smallest pool finishing every job the partitioned cluster finishes. With the
        // partitioned total, each hour leaves training at least its own pool, so that bound holds.
        std::vector<bool> mustFinish(input.training.size());
        for (size_t j = 0; j < mustFinish.size(); ++j)
            mustFinish[j] = result.partitioned.jobs[j].completionHour >= 0;
        auto finishes = [&](int64_t candidate) {
            const Simulation sim = simulator.run(candidate, true, true, false);
            for (size_t j = 0; j < mustFinish.size(); ++j)
                if (mustFinish[j] && sim.jobs[j].completionHour < 0)
                    return false;
            return true;
        };
        int64_t low = inferencePeak;
        int64_t high = inferencePeak + trainingPool;
        if (low == 0 && !input.training.empty())
            low = 1;
        high = std::max(high, low);
        while (low < high) {
            const int64_t middle = low + (high - low) / 2;
            if (finishes(middle))
                high = middle;
            else
                low = middle + 1;
        }
        pool = low;
    }
    Simulation shared = simulator.run(pool, true, true, true);
    result.dynamic = outcomeFrom(std::move(shared), pool, inferencePeak, pool - inferencePeak, hours, true);
    addDates(input, result.dynamic.jobs);
    return result;
}

int leadMonths(int leadWeeks)
{
    if (leadWeeks < 0)
        fail("lead_weeks", "lead_weeks must not be negative (got " + std::to_string(leadWeeks) + ")");
    return int(ceilCount(double(leadWeeks) / kWeeksPerMonth));
}

std::vector<GrowthMonth> planGrowth(const GrowthInput &input)
{
    if (input.months < 1 || input.months > kMaxMonths)
        fail("months", "months must be between 1 and " + std::to_string(kMaxMonths) + " (got "
                           + std::to_string(input.months) + ")");
    if (input.installedGpus < 0)
        fail("installed_gpus", "installed_gpus must not be negative (got " + std::to_string(input.installedGpus) + ")");
    const int lead = leadMonths(input.leadWeeks);
    std::optional<int> start;
    if (!input.startMonth.empty()) {
        start = parseMonth(input.startMonth);
        if (!start)
            fail("start_month", "start_month must be a month as YYYY-MM (got \"" + input.startMonth + "\")");
    }
    for (const GrowthStream &stream : input.streams) {
        if (!(stream.gpusNow >= 0 && std::isfinite(stream.gpusNow)))
            fail("gpus_now", "\"" + stream.name + "\": gpus_now must not be negative (got " + text(stream.gpusNow) + ")");
        if (!(stream.monthlyGrowth > -1 && std::isfinite(stream.monthlyGrowth)))
            fail("monthly_growth", "\"" + stream.name + "\": monthly_growth must be greater than −100 % (got "
                                       + text(stream.monthlyGrowth * 100) + " %)");
    }
    std::vector<GrowthMonth> plan;
    plan.reserve(size_t(input.months));
    int64_t inPlace = input.installedGpus;
    for (int m = 0; m < input.months; ++m) {
        GrowthMonth month;
        month.month = m;
        month.label = monthLabel(start, m);
        for (const GrowthStream &stream : input.streams) {
            const double gpus = stream.gpusNow * std::pow(1.0 + stream.monthlyGrowth, m);
            (stream.kind == WorkloadKind::Inference ? month.inferenceGpus : month.trainingGpus) += gpus;
        }
        month.capacityNeeded = ceilCount(month.inferenceGpus + month.trainingGpus);
        month.capacityToAdd = std::max<int64_t>(0, month.capacityNeeded - inPlace);
        inPlace += month.capacityToAdd;
        month.orderByMonth = m - lead;
        month.orderByLabel = monthLabel(start, month.orderByMonth);
        plan.push_back(std::move(month));
    }
    return plan;
}

} // namespace headroom::engine
