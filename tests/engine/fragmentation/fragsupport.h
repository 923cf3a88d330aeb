#pragma once

#include "engine/fragmentation/frag.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

// Reads the Alibaba trace CSVs for engine tests, which do not link the store: plain
// comma-separated lines, no quoting (as the trace files are); and builds tasks and clusters.
namespace fragtest {

// A task asking for `cpu` milli-cores, 1 GiB of memory and `gpus` GPUs of `share` milli-GPU each,
// on any GPU model unless `models` names some.
inline headroom::engine::frag::Task task(int64_t cpu, int gpus, int share, std::vector<std::string> models = {})
{
    headroom::engine::frag::Task t;
    t.cpuMilli = cpu;
    t.memoryMiB = 1024;
    t.gpus = gpus;
    t.gpuMilli = share;
    t.allowedModels = std::move(models);
    return t;
}

// The node and task lists repeated `times` times, node and task names made unique: a fleet
// `times` as large with the same mix.
inline void replicate(const std::vector<headroom::engine::frag::Node> &nodes,
                      const std::vector<headroom::engine::frag::Task> &tasks, int times,
                      std::vector<headroom::engine::frag::Node> *bigNodes,
                      std::vector<headroom::engine::frag::Task> *bigTasks)
{
    for (int r = 0; r < times; ++r) {
        for (headroom::engine::frag::Node node : nodes) {
            node.id += "-r" + std::to_string(r);
            bigNodes->push_back(node);
        }
        for (headroom::engine::frag::Task task : tasks) {
            task.id += "-r" + std::to_string(r);
            bigTasks->push_back(task);
        }
    }
}

inline std::vector<std::vector<std::string>> csvRows(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::vector<std::string> fields;
        std::stringstream stream(line);
        std::string field;
        while (std::getline(stream, field, ','))
            fields.push_back(field);
        if (!line.empty() && line.back() == ',')
            fields.emplace_back();
        rows.push_back(fields);
    }
    return rows;
}

inline std::vector<headroom::engine::frag::Node> traceNodes()
{
    std::vector<headroom::engine::frag::Node> nodes;
    for (const auto &f : csvRows(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_node_list_gpu_node.csv"))
        nodes.push_back({f[0], std::stoll(f[1]), std::stoll(f[2]), std::stoi(f[3]), f[4]});
    return nodes;
}

inline std::vector<headroom::engine::frag::Task> traceTasks()
{
    std::vector<headroom::engine::frag::Task> tasks;
    for (const auto &f : csvRows(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/openb_pod_list_default.csv")) {
        headroom::engine::frag::Task task{f[0], std::stoll(f[1]), std::stoll(f[2]), std::stoi(f[3]), std::stoi(f[4]), {}, 0, 0};
        std::stringstream spec(f[5]);
        std::string model;
        while (std::getline(spec, model, '|'))
            task.allowedModels.push_back(model);
        tasks.push_back(task);
    }
    return tasks;
}

} // namespace fragtest
