#pragma once

#include "engine/inference/workload.h"

#include <string>

namespace headroom::store::test {

// A workload whose every field differs from the defaults, with a custom diurnal curve and
// both measured values present.
engine::WorkloadProfile sampleWorkload(const std::string &name = "support-bot");

// Field-by-field comparison with a message naming the first field that differs ("" if none).
std::string firstDifference(const engine::WorkloadProfile &actual,
                            const engine::WorkloadProfile &expected);

} // namespace headroom::store::test
