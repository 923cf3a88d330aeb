#pragma once

#include "scenario.h"

#include "engine/partitioning/packing_advice.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

// The cheapest fleet for a whole portfolio (README "Portfolio plan"): every inference workload on the GPU,
// precisions and tensor-parallel degree that meet its SLOs (inference sizing, the calibrated
// step-cost model), the workloads on one GPU type pooled under one committed base and an
// elastic top, each training job on reserved GPUs or elastic ones, at the rate card's prices —
// as a fleet scenario that evaluateScenario prices to the same cent.
namespace headroom::engine {

// A most of GPUs of one type the fleet may hold at any hour (committed and elastic together).
struct GpuCap {
    std::string gpuId;
    int64_t gpus = 0;                       // ≥ 0
};

struct PortfolioOptions {
    std::vector<std::string> gpuIds;        // GPUs to consider; empty: every catalog GPU the rate card prices
    std::vector<WeightPrecision> weights{WeightPrecision::Bf16, WeightPrecision::Fp8, WeightPrecision::Int4};
    std::vector<KvPrecision> kv{KvPrecision::Bf16, KvPrecision::Fp8};
    std::vector<int> tps{1, 2, 4, 8};
    bool ownPrecisions = false;             // each workload at its profile's weights and KV only
    bool disaggregate = true;               // also prefill and decode on replicas of their own
    // Commitments for the committed base; one longer than the horizon is left out (it would be
    // owed beyond the term the plan is costed over).
    std::vector<PoolTier> commitments{PoolTier::Reserved1y, PoolTier::Reserved3y};
    bool spot = false;                      // elastic tops on spot where no flagship workload is served
    std::vector<GpuCap> caps;
    // The committed base of each pool at most this share of its peak GPUs, [0, 1].
    double maxCommittedShare = 1.0;
    // Small tenants packed onto MIG slices of a committed pool: a workload other than a flagship
    // whose peak one replica on one slice (smaller than the whole GPU) serves at its SLOs, on a
    // GPU type with a MIG profile table and no cap. Only at a full committed share (a packed
    // pool is held all term), and not when the plan without packing holds fewer than
    // `packMinFleetGpus` GPUs at its peak: below that the orchestration costs more than it saves.
    bool packMig = true;
    int64_t packMinFleetGpus = kSmallFleetGpus;
    int alternatives = 3;                   // runners-up to report, 0..10
};

// What the plan is for: the workspace's workloads and training jobs (`inputs`, whose training
// jobs name their GPU), priced at the rate card and over the term `settings` names (name,
// provider, region, as-of date, start date, horizon, spot overhead; its pools are ignored).
struct PlanRequest {
    Scenario settings;
    ScenarioInputs inputs;
    PortfolioOptions options;
};

// How the plan serves one workload.
struct PlannedWorkload {
    std::string workload;
    std::string gpuId;
    WeightPrecision weights = WeightPrecision::Bf16;
    KvPrecision kv = KvPrecision::Bf16;
    int tp = 1;
    std::string migProfile;                 // packed: the MIG slice its one replica runs on
    bool disaggregated = false;             // prefill and decode on replicas of their own
    int64_t prefillGpus = 0;                // disaggregated: of peakGpus, the prefill replicas
    int64_t peakGpus = 0;                   // at its busiest hour, planned headroom included; packed: 0
    std::string binding;                    // what sets its GPUs: "memory", "compute", "ttft", "itl"
    double ttftMs = 0;                      // P95 prompt's prefill against its SLO
    double ttftSloMs = 0;
    double itlMs = 0;                       // decode step at the sized batch against its SLO
    double itlSloMs = 0;
    double latencyMargin = 0;               // min(1 − TTFT ÷ SLO, 1 − ITL ÷ SLO)
};

// How the plan runs one training job: on reserved whole nodes of its own for the term (its GPUs
// rounded up to the GPU type's gpusPerNode), or elastic GPUs of its type's elastic pool while it
// runs.
struct PlannedJob {
    std::string job;
    std::string gpuId;
    bool reserved = false;
    PoolTier tier = PoolTier::OnDemand;
    int64_t gpus = 0;                       // reserved: the whole nodes' GPUs; elastic: the job's
    int64_t runHours = 0;                   // of the evaluated hours
    Money costOverTerm;                     // reserved: its own pool; elastic: its GPU-hours' share
};

// One GPU type's inference pools in a plan: a committed base of `committedGpus` and an elastic
// top, which also runs the type's elastic training jobs.
struct PlannedPool {
    std::string gpuId;
    bool mig = false;                       // the type's packed tenants: committed GPUs cut into MIG slices
    std::vector<std::string> workloads;
    PoolTier commitment = PoolTier::Reserved1y;
    // The elastic top: on-demand, or spot for all but the flagship workloads (theirs stays on
    // demand) and for the elastic jobs.
    PoolTier elastic = PoolTier::OnDemand;
    int64_t committedGpus = 0;              // inference base, whole replicas
    int64_t peakGpus = 0;                   // most GPUs of the type held at one hour, jobs included
    int64_t elasticGpuHours = 0;            // over the evaluated hours, elastic jobs included
    int64_t spotGpuHours = 0;               // of those, on spot
    Money costOverTerm;                     // committed and elastic pools
};

struct PlanOption {
    Scenario scenario;                      // pools in plan order, fixed committed counts
    std::vector<PlannedWorkload> workloads; // in the workspace's order
    std::vector<PlannedPool> pools;
    std::vector<PlannedJob> jobs;
    Money costOverTerm;                     // Σ pools, exact: what evaluateScenario gives
    int64_t peakGpus = 0;                   // Σ over GPU types of the most held at one hour
    double committedShare = 0;              // committed GPU-hours ÷ all GPU-hours held
    double committedGpuHours = 0;           // over the evaluated hours
    double heldGpuHours = 0;
    double latencyMargin = 0;               // the least over its workloads
};

// A point of the cost-against-risk front: the cheapest plan whose committed bases hold at most
// `maxCommittedShare` of each pool's peak.
struct PlanFrontPoint {
    double maxCommittedShare = 0;
    double committedShare = 0;              // what the plan commits, of all GPU-hours held
    Money costOverTerm;
    double committedGpuHours = 0;           // over the evaluated hours
    double heldGpuHours = 0;
};

struct PlanResult {
    PlanOption best;
    std::vector<PlanOption> runnersUp;      // each with one workload moved off the winner's GPU, cheapest first
    std::vector<PlanFrontPoint> front;      // 0 %, 10 %, …, 100 % committed at most
    std::vector<std::string> why;           // the winner against the first runner-up, in sentences
    std::vector<std::string> unplaced;      // workloads and jobs no option serves, with the reason
    std::string method;                     // how the optimum was found, and its gap
    std::string packing;                    // why small tenants were or were not packed onto MIG slices
    // No plan over the space costs less: each workload's fewest GPU-hours (its candidate's whole
    // replicas each hour, or its slice's share of a MIG GPU's compute all term) and each job's
    // at its GPU type's cheapest rate, as if every GPU-hour could be had at it; whole cents down.
    Money lowerBound;
    int64_t candidates = 0;                 // deployments sized (GPU × weights × KV × TP per workload)
    int64_t groupsPriced = 0;               // (GPU type, workload set) pools priced
};

struct PlanCancelled {};

// The workloads `other` deploys otherwise than `best` (GPU, slice, precisions, TP or split), as
// `other` deploys them, in its order: what a runner-up moves.
std::vector<PlannedWorkload> movedWorkloads(const PlanOption &best, const PlanOption &other);

// What scenario `scenario` serves, to plan: its settings (pools left out) and `inputs` narrowed to
// the workloads and training jobs its pools list, each once, in the order they are named. Names
// `inputs` lacks are left out and appended to `missingWorkloads` / `missingJobs`.
PlanRequest scenarioPlanRequest(const Scenario &scenario, const ScenarioInputs &inputs,
                                std::vector<std::string> *missingWorkloads, std::vector<std::string> *missingJobs);

// Decision space: each workload on one deployment (GPU × weights × KV × TP from the options,
// aggregated or with prefill and decode on replicas of their own, feasible at its SLOs:
// sizeInference); the workloads on one GPU type in one committed pool
// (fixed, whole replicas of their common size, on one commitment) under an elastic top that
// takes the overflow as evaluateScenario routes it — on-demand, or spot for all but the
// flagship workloads where spot is allowed and cheaper; each training job on reserved GPUs of
// its own GPU type for the term or on elastic ones while it runs. Objective: the scenario's
// cost over the term. Constraints: every SLO (infeasible deployments are not candidates), GPU
// caps (most GPUs held at an hour), the committed share, flagship workloads never on spot.
//
// Packed tenants (options.packMig) go to a MIG pool of their GPU type, committed for the term,
// as many GPUs as the scenario's MIG packing (packTenants) puts them on, each on the smallest
// slice that serves its peak at its SLOs (a larger one never packs better).
//
// Method: deployments dominated on their GPU (hourly GPUs at least as high every hour, in
// replicas the other's divide) are dropped; every (GPU type, workload set) pool is priced
// exactly, its committed count found by a walk out from the least of a convex lower bound, and
// every (GPU type, tenant set) MIG pool by packTenants; a dynamic programme over those pools ×
// workload subsets assigns the workloads (exact: gap 0 over the space, the MIG packing's own
// gap aside). Throws InputError naming the field ("options.caps", "options.tps",
// "max_committed_share", "settings.…", "workloads" when there are more than
// kMaxPlanWorkloads); PlanCancelled when `progress` returns false.
constexpr size_t kMaxPlanWorkloads = 14;
PlanResult planPortfolio(const PlanRequest &request, const std::function<bool(double)> &progress = {});

} // namespace headroom::engine
