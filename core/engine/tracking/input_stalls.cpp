#include "input_stalls.h"

#include "engine/common/errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace headroom::engine {

namespace {

struct MetricInfo {
    JobMetric metric;
    std::string_view name;
};
constexpr MetricInfo kMetrics[] = {
    {JobMetric::GrEngineActive, "DCGM_FI_PROF_GR_ENGINE_ACTIVE"},
    {JobMetric::GpuUtil, "DCGM_FI_DEV_GPU_UTIL"},
    {JobMetric::CpuUtilization, "node_cpu_utilization"},
    {JobMetric::LoaderWait, "dataloader_wait_ratio"},
    {JobMetric::CpuCores, "cpu_cores"},
    {JobMetric::Throughput, "training_throughput"},
};

std::string lineText(int line)
{
    return "line " + std::to_string(line);
}

} // namespace

std::string_view metricName(JobMetric metric)
{
    for (const MetricInfo &m : kMetrics)
        if (m.metric == metric)
            return m.name;
    return "";
}

std::optional<JobMetric> parseJobMetric(std::string_view name)
{
    for (const MetricInfo &m : kMetrics)
        if (m.name == name)
            return m.metric;
    return std::nullopt;
}

bool isGpuMetric(JobMetric metric)
{
    return metric == JobMetric::GrEngineActive || metric == JobMetric::GpuUtil;
}

JobSeries indexJobSamples(const std::vector<JobSample> &samples)
{
    JobSeries series;
    for (const JobSample &s : samples) {
        const bool ratio = s.metric == JobMetric::GrEngineActive || s.metric == JobMetric::CpuUtilization
            || s.metric == JobMetric::LoaderWait;
        if (!std::isfinite(s.value) || s.value < 0 || (ratio && s.value > 1)
            || (s.metric == JobMetric::GpuUtil && s.value > 100))
            throw InputError("value", lineText(s.line) + ": " + std::string(metricName(s.metric)) + " "
                                          + std::to_string(s.value) + " is out of range ("
                                          + (ratio ? "0 to 1" : s.metric == JobMetric::GpuUtil ? "0 to 100" : "0 or more")
                                          + ")");
        series[{s.job, s.node, isGpuMetric(s.metric) ? s.gpu : -1, s.metric}].push_back(&s);
    }
    for (auto &[key, list] : series) {
        std::sort(list.begin(), list.end(), [](const JobSample *a, const JobSample *b) {
            return a->epochSeconds < b->epochSeconds;
        });
        for (size_t i = 1; i < list.size(); ++i)
            if (list[i]->epochSeconds == list[i - 1]->epochSeconds)
                throw InputError("timestamp", lineText(list[i - 1]->line) + " and " + lineText(list[i]->line)
                                                  + " both give " + std::string(metricName(std::get<3>(key))) + " of job "
                                                  + std::get<0>(key) + " on " + std::get<1>(key) + " at the same time");
    }
    return series;
}

StallAudit auditInputStalls(std::vector<JobSample> samples, const StallOptions &options)
{
    const JobSeries series = indexJobSamples(samples);
    const auto nodeValue = [&](const std::string &job, const std::string &node, JobMetric metric,
                               int64_t t) -> std::optional<double> {
        auto it = series.find({job, node, -1, metric});
        if (it == series.end())
            return std::nullopt;
        auto at = std::lower_bound(it->second.begin(), it->second.end(), t,
                                   [](const JobSample *s, int64_t v) { return s->epochSeconds < v; });
        if (at == it->second.end() || (*at)->epochSeconds != t)
            return std::nullopt;
        return (*at)->value;
    };

    std::map<std::string, JobStalls> jobs;
    std::map<std::string, std::set<std::string>> jobNodes;
    std::map<std::pair<std::string, std::string>, int> gpusOnNode;
    bool anyActivity = false;
    for (const auto &[key, list] : series) {
        const auto &[job, node, gpu, metric] = key;
        if (!isGpuMetric(metric))
            continue;
        // GPU utilization only where the profiling metric is missing for this GPU.
        if (metric == JobMetric::GpuUtil && series.count({job, node, gpu, JobMetric::GrEngineActive}))
            continue;
        anyActivity = true;
        JobStalls &j = jobs[job];
        j.job = job;
        j.gpus += 1;
        ++gpusOnNode[{job, node}];
        jobNodes[job].insert(node);
        const std::string name(metricName(metric));
        if (j.activityMetric.empty())
            j.activityMetric = name;
        else if (j.activityMetric.find(name) == std::string::npos)
            j.activityMetric += ", " + name;
        j.firstSample = j.firstSample == 0 ? list.front()->epochSeconds : std::min(j.firstSample, list.front()->epochSeconds);
        j.lastSample = std::max(j.lastSample, list.back()->epochSeconds);
        for (size_t i = 1; i < list.size(); ++i) {
            const int64_t t = list[i]->epochSeconds;
            const double hours = double(t - list[i - 1]->epochSeconds) / 3600.0;
            const double activity = metric == JobMetric::GpuUtil ? list[i]->value / 100.0 : list[i]->value;
            j.allocatedGpuHours += hours;
            if (const auto wait = nodeValue(job, node, JobMetric::LoaderWait, t)) {
                j.stallGpuHours += *wait * hours;
                j.loaderWaitGpuHours += *wait * hours;
            } else if (activity < options.idleBelow) {
                const auto cpu = nodeValue(job, node, JobMetric::CpuUtilization, t);
                if (cpu && *cpu >= options.cpuSaturatedAbove)
                    j.stallGpuHours += (1.0 - activity) * hours;
            }
        }
    }
    if (!anyActivity)
        throw InputError("metric", "no GPU activity sample (DCGM_FI_PROF_GR_ENGINE_ACTIVE or DCGM_FI_DEV_GPU_UTIL)");

    StallAudit audit;
    audit.jobsSeen = int64_t(jobs.size());
    std::vector<JobStalls> list;
    for (auto &[name, j] : jobs) {
        j.nodes = int(jobNodes[name].size());
        double coresPerGpu = 0;
        int reported = 0;
        for (const std::string &node : jobNodes[name]) {
            auto it = series.find({name, node, -1, JobMetric::CpuCores});
            if (it == series.end())
                continue;
            double cores = 0;
            for (const JobSample *s : it->second)
                cores += s->value;
            coresPerGpu += cores / double(it->second.size()) / double(gpusOnNode[{name, node}]);
            ++reported;
        }
        if (reported > 0) {
            j.coresPerGpu = coresPerGpu / reported;
            const double fed = j.allocatedGpuHours - j.stallGpuHours;
            j.recommendedCoresPerGpu = fed > 0 ? int(std::ceil(j.coresPerGpu * j.allocatedGpuHours / fed - 1e-9)) : 0;
        }
        list.push_back(j);
    }
    std::sort(list.begin(), list.end(), [](const JobStalls &a, const JobStalls &b) {
        return a.lastSample != b.lastSample ? a.lastSample > b.lastSample : a.job < b.job;
    });
    if (options.lastJobs > 0 && list.size() > size_t(options.lastJobs))
        list.resize(size_t(options.lastJobs));
    for (const JobStalls &j : list) {
        audit.allocatedGpuHours += j.allocatedGpuHours;
        audit.stallGpuHours += j.stallGpuHours;
    }
    audit.jobs = std::move(list);
    return audit;
}

} // namespace headroom::engine
