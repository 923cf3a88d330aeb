#pragma once

#include "engine/forecast/telemetry.h"

#include <QByteArray>
#include <QString>
#include <vector>

// Pods of the Alibaba GPU cluster trace v2023 ("openb" pod lists) for demand forecasting:
//   name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
// Columns are found by header name; name, num_gpu, gpu_milli, creation_time and deletion_time
// are required, gpu_spec, qos and pod_phase optional (empty when absent); others are ignored.
// Times are whole seconds from the trace start; an empty deletion_time, or one before the
// creation time, is an error (the pod would have no end). A malformed row throws StoreError "<source>: line N: field "F": ..."
// and nothing is returned; a file without data rows is an error.
namespace headroom::store {

std::vector<engine::PodRecord> parsePodRecords(const QByteArray &csv, const QString &sourceName);
std::vector<engine::PodRecord> readPodRecords(const QString &path);

} // namespace headroom::store
