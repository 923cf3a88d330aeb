#pragma once

#include "engine/inference/workload.h"

#include <string>
#include <vector>

namespace headroom::bench {

// Ten workloads of different sizes, shapes, models and classes (flagship, internal tool,
// batch in turn), all profiled on H100s: what the scenario and plan benchmarks serve.
inline std::vector<engine::WorkloadProfile> tenWorkloads()
{
    const engine::DiurnalPreset presets[] = {engine::DiurnalPreset::BusinessHours,
                                             engine::DiurnalPreset::EveningPeak, engine::DiurnalPreset::Flat};
    const engine::WorkloadClass classes[] = {engine::WorkloadClass::FlagshipInteractive,
                                             engine::WorkloadClass::InternalTool, engine::WorkloadClass::Batch};
    std::vector<engine::WorkloadProfile> out;
    for (int i = 0; i < 10; ++i) {
        engine::WorkloadProfile w;
        w.name = "workload-" + std::to_string(i);
        w.tenant = "team-" + std::to_string(i % 4);
        w.modelId = i % 3 == 0 ? "llama-3.1-70b" : "llama-3.1-8b";
        w.workloadClass = classes[i % 3];
        w.tp = i % 3 == 0 ? 4 : 1;
        w.weights = i % 2 == 0 ? engine::WeightPrecision::Fp8 : engine::WeightPrecision::Bf16;
        w.dailyActiveUsers = 20000.0 * (i + 1);
        w.requestsPerUserPerDay = 8 + i;
        w.peakSessionsPerUser = 0.05;
        w.diurnal = engine::diurnalShape(presets[i % 3]);
        w.promptTokens = {800.0 + 100 * i, 3000.0 + 200 * i};
        w.outputTokens = {250, 900};
        w.prefixHitRate = 0.3;
        w.ttftP95Ms = 2000;
        w.itlP95Ms = 60;
        w.gpuId = "h100-sxm";
        out.push_back(w);
    }
    return out;
}

} // namespace headroom::bench
