#pragma once

#include "cli/common/command.h"

namespace headroom::cli {

// `headroom calibrate --model ID --gpu ID (--step-times FILE | --bench FILE ...)`: the
// step-cost model's coefficients fitted to one deployment's measured passes and `vllm bench
// serve` results, measured against predicted for every point; --save makes the fitted profile
// the GPU's in the workspace.
Command calibrateCommand();

} // namespace headroom::cli
