#include "scenarioinputs.h"

#include "engine/common/errors.h"
#include "engine/training/training.h"
#include "store/partitioning/migprofiles.h"
#include "store/common/workspace.h"

#include <algorithm>
#include <cmath>

namespace headroom::store {

engine::ScenarioInputs scenarioInputs(const Workspace &workspace)
{
    engine::ScenarioInputs inputs;
    inputs.workloads = workspace.workloads();
    inputs.gpus = workspace.gpus();
    inputs.models = workspace.models();
    inputs.rateCards = workspace.rateCards();
    inputs.migProfiles = shippedMigProfiles();
    // The workspace's one set of serving assumptions, KV residency included: scenarios size
    // their workloads as Inference sizing, the KV page and the CLI do.
    inputs.serving = workspace.servingAssumptions();
    for (const engine::TrainingJob &job : workspace.trainingJobs()) {
        const auto gpu = std::find_if(inputs.gpus.begin(), inputs.gpus.end(),
                                      [&](const engine::GpuSpec &g) { return g.id == job.gpuId; });
        if (gpu == inputs.gpus.end())
            continue;
        const auto model = std::find_if(inputs.models.begin(), inputs.models.end(),
                                        [&](const engine::ModelSpec &m) { return m.id == job.modelId; });
        try {
            const engine::TrainingPlan plan =
                engine::sizeTraining(job, *gpu, model == inputs.models.end() ? nullptr : &*model);
            if (plan.gpusNodeRounded > 0 && plan.gpuHours > 0)
                inputs.trainingJobs.push_back({job.name, plan.gpusNodeRounded, plan.gpuHours, job.gpuId});
        } catch (const engine::InputError &) {
            // Not sizable (e.g. the model does not fit): the scenario's evaluation warns about it.
        }
    }
    return inputs;
}

} // namespace headroom::store
