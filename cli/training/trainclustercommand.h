#pragma once

#include "cli/common/command.h"

#include <QStringList>

// `headroom train cluster`: a job mix replayed on a shared cluster under fixed first-come-first-
// served allocation and under co-adaptive allocation (engine/training/cluster_replay.h).
// Dispatched from `train`.
namespace headroom::cli {

QString trainClusterUsage();
int runTrainCluster(const QStringList &argv, Context &context);

} // namespace headroom::cli
