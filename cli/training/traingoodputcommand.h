#pragma once

#include "cli/common/command.h"

#include <QStringList>

// `headroom train goodput`: a training job's goodput as Pollux models it (engine/training/
// coadaptive.h) — the best micro-batch and accumulation at each GPU count, and a fixed choice
// against the adaptive one. Dispatched from `train`.
namespace headroom::cli {

QString trainGoodputUsage();
int runTrainGoodput(const QStringList &argv, Context &context);

} // namespace headroom::cli
