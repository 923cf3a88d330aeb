#pragma once

#include "engine/fleet/scenario.h"

namespace headroom::store {

class Workspace;

// What evaluating a scenario reads from a workspace: its workloads, GPUs, models and rate
// cards, the shipped MIG profile tables, and each training job as a load (GPUs and GPU-hours
// from the training engine's plan on the job's GPU; a job that cannot be sized is left out,
// so a scenario naming it is warned about as missing).
engine::ScenarioInputs scenarioInputs(const Workspace &workspace);

} // namespace headroom::store
