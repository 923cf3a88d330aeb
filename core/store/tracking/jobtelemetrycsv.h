#pragma once

#include "engine/tracking/input_stalls.h"

#include <QByteArray>
#include <QString>
#include <map>
#include <string>
#include <utility>
#include <vector>

// Training jobs' telemetry for the stall audit (core/store/README.md, "Job telemetry CSV"), long
// form, one sample per row:
//   timestamp,job,node,gpu,metric,value
// timestamp ISO 8601 with Z or an offset, or epoch seconds; gpu the GPU index for the GPU
// metrics (DCGM_FI_PROF_GR_ENGINE_ACTIVE 0–1, DCGM_FI_DEV_GPU_UTIL 0–100), empty for the node
// metrics (node_cpu_utilization 0–1, dataloader_wait_ratio 0–1, cpu_cores). Rows of other
// metrics are counted and ignored. Refused with a StoreError "<source>: line N: field "F": ...",
// nothing returned: a missing column, a bad time or number, an empty job or node, a GPU metric
// without gpu, and anything past the "job telemetry CSV" import limits.
namespace headroom::store {

struct JobTelemetryFile {
    std::vector<engine::JobSample> samples;
    qint64 rows = 0;
    std::vector<std::pair<QString, qint64>> ignored;   // unknown metric → rows
};

JobTelemetryFile parseJobTelemetryCsv(const QByteArray &csv, const QString &sourceName);
JobTelemetryFile readJobTelemetryCsv(const QString &path);

class Workspace;
// The planned rate of each of `jobs` that names a workspace training job: its sizing's tokens ÷
// (days × 86,400 × GPUs), tokens a second per GPU. Jobs whose GPU is not in the catalog, or whose
// sizing is refused, get none.
std::map<std::string, double> plannedTrainingRates(const Workspace &workspace, const std::vector<std::string> &jobs);

} // namespace headroom::store
