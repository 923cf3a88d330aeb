#pragma once

#include "engine/fragmentation/frag.h"

#include <QByteArray>
#include <QString>
#include <vector>

// The Alibaba GPU cluster trace v2023 ("openb", Weng et al., ATC 2023) for the fragmentation
// simulator. Columns are found by their header names, in any order; extra columns are
// ignored. A malformed line throws StoreError("<source>: line N: field "F": ...") and nothing
// is returned; blank lines are skipped; a file without data rows is an error.
namespace headroom::store {

// Node list `sn,cpu_milli,memory_mib,gpu,model`: CPU in milli-cores, memory in MiB, the GPU
// count and the GPU model (empty only for nodes without GPUs).
std::vector<engine::frag::Node> parseFragNodes(const QByteArray &csv, const QString &sourceName);
std::vector<engine::frag::Node> readFragNodes(const QString &path);

// Pod list `name,cpu_milli,memory_mib,num_gpu,gpu_milli` and optionally `gpu_spec` (allowed
// GPU models separated by `|`, empty = any), `creation_time` and `deletion_time` (seconds;
// empty = 0). gpu_milli is the per-GPU share: 0 with num_gpu 0, else 1..1000.
std::vector<engine::frag::Task> parseFragTasks(const QByteArray &csv, const QString &sourceName);
std::vector<engine::frag::Task> readFragTasks(const QString &path);

} // namespace headroom::store
