#include "job_goodput.h"

#include "engine/common/errors.h"

#include <cmath>
#include <set>

namespace headroom::engine {

namespace {

constexpr int64_t kHour = 3600;

// Adds `perSecond` × the seconds of (from, to] that fall in each UTC hour.
void spread(std::map<int64_t, double> &byHour, int64_t from, int64_t to, double perSecond)
{
    for (int64_t t = from; t < to;) {
        const int64_t hour = (t >= 0 ? t / kHour : (t - kHour + 1) / kHour) * kHour;
        const int64_t end = std::min(to, hour + kHour);
        byHour[hour] += perSecond * double(end - t);
        t = end;
    }
}

} // namespace

JobGoodputTracking trackJobGoodput(const std::vector<JobSample> &samples,
                                   const std::map<std::string, double> &plannedPerGpu, double flagBelow)
{
    if (!(flagBelow > 0 && flagBelow <= 1))
        throw InputError("below", "the flag threshold must be more than 0 and at most 1 of the plan");
    for (const auto &[job, rate] : plannedPerGpu)
        if (!(rate > 0) || !std::isfinite(rate))
            throw InputError("planned", "job " + job + ": the planned rate must be more than 0 samples a second per GPU");
    const JobSeries series = indexJobSamples(samples);
    std::map<std::string, std::map<int64_t, double>> gpuSeconds, processed;
    std::set<std::string> reporting;
    for (const auto &[key, list] : series) {
        const auto &[job, node, gpu, metric] = key;
        const bool activity = metric == JobMetric::GrEngineActive
            || (metric == JobMetric::GpuUtil && !series.count({job, node, gpu, JobMetric::GrEngineActive}));
        if (!activity && metric != JobMetric::Throughput)
            continue;
        if (metric == JobMetric::Throughput)
            reporting.insert(job);
        auto &target = activity ? gpuSeconds[job] : processed[job];
        for (size_t i = 1; i < list.size(); ++i)
            spread(target, list[i - 1]->epochSeconds, list[i]->epochSeconds, activity ? 1.0 : list[i]->value);
    }
    if (reporting.empty())
        throw InputError("metric", "no job reports training_throughput (samples or tokens a second on a node)");

    JobGoodputTracking out;
    for (const auto &[job, hours] : gpuSeconds) {
        if (!reporting.count(job)) {
            out.withoutThroughput.push_back(job);
            continue;
        }
        JobGoodputTrack track;
        track.job = job;
        const auto plan = plannedPerGpu.find(job);
        track.planned = plan == plannedPerGpu.end() ? 0.0 : plan->second;
        const auto &made = processed[job];
        for (const auto &[hour, seconds] : hours) {
            JobGoodputHour h;
            h.hourStart = hour;
            h.gpuHours = seconds / double(kHour);
            const auto it = made.find(hour);
            h.samples = it == made.end() ? 0.0 : it->second;
            h.perGpu = seconds > 0 ? h.samples / seconds : 0.0;
            if (track.planned > 0 && seconds > 0 && h.perGpu < flagBelow * track.planned) {
                h.below = true;
                h.shortfallGpuHours = h.gpuHours * (1.0 - h.perGpu / track.planned);
                ++track.hoursBelow;
                track.shortfallGpuHours += h.shortfallGpuHours;
            }
            track.gpuHours += h.gpuHours;
            track.samples += h.samples;
            track.hours.push_back(h);
        }
        track.perGpu = track.gpuHours > 0 ? track.samples / (track.gpuHours * double(kHour)) : 0.0;
        out.jobs.push_back(std::move(track));
    }
    return out;
}

} // namespace headroom::engine
