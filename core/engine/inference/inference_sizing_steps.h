#pragma once

#include "inference_sizing.h"

// Inference sizing without its step-by-step breakdown, for tables of hundreds of sizings
// (what-ifs, the best-option table) that show only the numbers.
namespace headroom::engine {

// sizeInference() with `steps` left empty: every other field is the same.
SizingResult sizeInferenceNumbers(const WorkloadProfile &workload, const ModelSpec &model, const GpuSpec &gpu,
                                  const SizingOverrides &overrides, const ServingAssumptions &assumptions);

} // namespace headroom::engine
