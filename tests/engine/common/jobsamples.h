#pragma once

#include "engine/tracking/input_stalls.h"

#include <string>
#include <vector>

// One job telemetry sample appended to `samples`, its line numbered as a CSV file's would be
// (the header on line 1).
inline void addJobSample(std::vector<headroom::engine::JobSample> &samples, int64_t t, const std::string &job,
                         const std::string &node, int gpu, headroom::engine::JobMetric metric, double value)
{
    headroom::engine::JobSample s;
    s.epochSeconds = t;
    s.job = job;
    s.node = node;
    s.gpu = gpu;
    s.metric = metric;
    s.value = value;
    s.line = int(samples.size()) + 2;
    samples.push_back(s);
}
