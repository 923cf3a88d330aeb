#pragma once

#include "engine/cost/cost.h"
#include "engine/inference/inference_sizing.h"
#include "engine/partitioning/mig.h"
#include "engine/common/money.h"
#include "engine/catalog/ratecard.h"
#include "engine/catalog/specs.h"
#include "engine/inference/workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Fleet scenarios (DESIGN §3.9): GPU pools — a static base (owned or reserved, exclusive or
// shared) and an elastic top (exclusive GPUs on demand or spot) — serving named workloads
// and training jobs at a rate card's prices, evaluated to GPUs, utilization, exact money
// and warnings with reasons.
namespace headroom::engine {

// How a pool's GPUs are paid for. JSON: "owned", "reserved_1y", "reserved_3y", "on_demand", "spot".
enum class PoolTier { Owned, Reserved1y, Reserved3y, OnDemand, Spot };
// How a pool's GPUs are shared. JSON: "exclusive", "mig", "time_slice", "mps".
enum class Partitioning { Exclusive, Mig, TimeSlice, Mps };
// A fixed GPU count, or "size it for me". JSON: "fixed", "auto".
enum class PoolSizing { Fixed, Auto };
// Static base (paid every hour) or elastic top (paid per GPU-hour used). Derived from the tier.
enum class PoolRole { StaticBase, ElasticTop };
// How an auto-sized reserved pool picks its GPU count from the hourly demand it serves.
// JSON: "critical_fractile" (reserve where P(demand > R) = reserved / elastic rate), "p50",
// "p75", "fixed" (no optimisation: every static pool must carry a fixed count).
enum class ReservePolicy { CriticalFractile, P50, P75, Fixed };

std::string_view toString(PoolTier tier);
std::string_view toString(Partitioning partitioning);
std::string_view toString(PoolSizing sizing);
std::string_view toString(PoolRole role);     // "static", "elastic"
std::string_view toString(ReservePolicy policy);
// The tier as a reader names it: "owned", "1-year reserved", "3-year reserved", "on-demand", "spot".
std::string_view tierLabel(PoolTier tier);
std::optional<PoolTier> parsePoolTier(std::string_view text);
std::optional<Partitioning> parsePartitioning(std::string_view text);
std::optional<PoolSizing> parsePoolSizing(std::string_view text);
std::optional<ReservePolicy> parseReservePolicy(std::string_view text);
const std::vector<PoolTier> &allPoolTiers();
const std::vector<Partitioning> &allPartitionings();
const std::vector<ReservePolicy> &allReservePolicies();
// on_demand and spot are elastic; owned and reserved are the static base.
PoolRole roleOf(PoolTier tier);

// How a pool runs one of its workloads when not as the workload's profile says: its weights
// and KV precision and tensor-parallel degree (what a plan chose, planPortfolio). JSON:
// pools[i].deployments[j] = {"workload", "weights", "kv", "tp"}.
struct PoolDeployment {
    std::string workload;                   // a workload the pool lists
    WeightPrecision weights = WeightPrecision::Bf16;
    KvPrecision kv = KvPrecision::Bf16;
    int tp = 1;                             // 1..kMaxTensorParallel
    // MIG pools only: the profile each replica of the workload runs on (e.g. "2g.20gb"), where
    // its SLOs need more than the smallest slice its weights fit; empty: that smallest slice.
    std::string migProfile;
    // Prefill and decode on replicas of their own in the pool (sizing's disaggregated pools:
    // prefill replicas for the prompts, decode replicas for the streams).
    bool disaggregated = false;
    bool operator==(const PoolDeployment &) const = default;
};
constexpr int kMaxTensorParallel = 64;

// One pool of GPUs of one type.
struct Pool {
    std::string name;                       // unique in the scenario
    std::string gpuId;                      // catalog GPU id
    PoolSizing sizing = PoolSizing::Fixed;
    int64_t gpus = 0;                       // fixed: the count (static) or the cap (elastic); auto: ignored
    PoolTier tier = PoolTier::Reserved1y;
    Partitioning partitioning = Partitioning::Exclusive;
    // MIG only: profile names placed on every GPU of the pool (e.g. 7 × "1g.10gb"); empty
    // means "auto": the assigned workloads are packed by engine MIG packing.
    std::vector<std::string> migProfiles;
    std::vector<std::string> workloads;     // workload names served here
    std::vector<std::string> trainingJobs;  // training job names run here
    // Workloads run other than as their profiles say; a listed workload without one is sized
    // with its profile's precisions and TP.
    std::vector<PoolDeployment> deployments;
    // Owned tier: amortised cost of an owned GPU per GPU-hour. Absent: the card's 3-year
    // reserved rate stands in for it (with a warning).
    std::optional<Decimal> ownedRatePerGpuHour;

    PoolRole role() const { return roleOf(tier); }
    bool migAuto() const { return partitioning == Partitioning::Mig && migProfiles.empty(); }
};

// Scaling of the elastic tier on queue depth (DESIGN §3.8) and its deployment hand-off.
struct AutoscaleSettings {
    double hpaTolerance = 0.1;              // HPA tolerance band, [0, 1)
    int cooldownSeconds = 600;              // scale-in cooldown, s (weights take time to load)
    int pollingIntervalSeconds = 15;        // KEDA polling interval, s
    bool drainToZero = true;                // min replicas 0 for a drainable (elastic) tier
    // Allowed queueing delay, ms; absent: TTFT P95 SLO − prefill time of a P95 prompt.
    std::optional<double> maxQueueDelayMs;
    std::string metric = "vllm:num_requests_waiting"; // serving engine's waiting-requests metric
    std::string prometheusAddress = "http://prometheus-operated.monitoring.svc:9090";
    std::string kubernetesNamespace = "default";
    std::vector<std::string> fallbackGpuIds; // DRA alternatives after the pool's GPU, in order
};

// How static pools are sized and whether shared pools pack tenants.
struct ReservePackPolicy {
    ReservePolicy reserveAt = ReservePolicy::CriticalFractile;
    bool packMigTenants = true;             // false: MIG/time-slice/MPS pools give each workload whole GPUs
};

struct Scenario {
    std::string name;                       // unique in a workspace
    std::string description;
    std::string author;
    int horizonMonths = 12;                 // the term for the "over the term" cost, calendar months (1..120)
    // ISO date the term starts (00:00 UTC); the term is its real hours (termHours). Empty: the
    // first day of the month after asOfDate, or without asOfDate the first of next month.
    std::string startDate;
    std::string provider;                   // rate card selection: provider + region
    std::string region;
    std::string asOfDate;                   // ISO date the rates are taken at; empty: latest card
    // ISO date capacity is needed: reserved capacity ordered at asOfDate arrives after the card's
    // lead weeks, warned when later. Empty (or no asOfDate): no lead-time check.
    std::string needDate;
    Decimal spotOverhead = Decimal::fromUnits(100000000); // 0.1: extra spot GPU-hours lost to interruptions, ≥ 0
    std::vector<Pool> pools;
    AutoscaleSettings autoscale;
    ReservePackPolicy policy;
};

// Field-level checks, field names as the scenario JSON keys ("horizon_months",
// "pools[1].gpus", "pools[0].mig_profiles", ...): empty name, duplicate pool names, horizon
// outside 1..120, negative or (for a fixed static pool) zero counts, an elastic pool that is
// not exclusive, MIG profiles on a non-MIG pool, an auto-sized static exclusive reserved pool
// under the "fixed" reserve policy, bad dates, a negative spot overhead, autoscale settings
// out of range, a deployment of a workload the pool does not list (or listed twice, or with a
// TP outside 1..64). References to workloads, jobs, GPUs and rate cards are checked by
// evaluateScenario (as warnings), not here: a scenario outlives what it names.
std::vector<FieldProblem> validate(const Scenario &scenario);

// A training job's load on a pool, until the training engine sizes jobs: it runs on `gpus`
// GPUs from the first hour of the year until `gpuHours` are done.
struct TrainingJobLoad {
    std::string name;
    int64_t gpus = 0;                       // ≥ 1
    double gpuHours = 0;                    // > 0
    std::string gpuId;                      // the GPU it is sized for (planPortfolio keeps it there)
};

// What evaluation reads from the workspace.
struct ScenarioInputs {
    std::vector<WorkloadProfile> workloads;
    std::vector<TrainingJobLoad> trainingJobs;
    std::vector<GpuSpec> gpus;
    std::vector<ModelSpec> models;
    std::vector<RateCard> rateCards;
    std::vector<MigGpuProfiles> migProfiles;
    ServingAssumptions serving;
    int hours = 8760;                       // evaluated hours: a year
};

struct ScenarioWarning {
    // "missing_workload", "missing_training_job", "missing_model", "missing_gpu",
    // "missing_rate_card", "unpriced_gpu", "tier_not_offered", "owned_rate_proxy",
    // "reservation_lead_time", "small_fleet_sharing", "when_not_to_pack",
    // "oom_at_mig_boundary", "mig_slots_short", "infeasible_workload", "unserved_demand",
    // "workload_in_several_pools", "no_mig_profiles", "mig_layout_invalid",
    // "commitment_beyond_horizon", "partial_replica"
    std::string code;
    std::string message;                    // a full sentence with the reason
    std::string pool;                       // empty for scenario-wide warnings
};

// One workload's share of a pool.
struct PoolWorkload {
    std::string name;
    int64_t peakGpus = 0;                   // its peak hourly GPUs in this pool
    int64_t plannedHeadroomGpus = 0;        // GPUs free at its peak by design (inference sizing)
    int gpusPerReplica = 1;
    bool training = false;
};

struct PoolResult {
    std::string name;
    std::string gpuId;
    PoolTier tier = PoolTier::Reserved1y;
    PoolRole role = PoolRole::StaticBase;
    Partitioning partitioning = Partitioning::Exclusive;
    bool autoSized = false;
    int64_t gpus = 0;                       // static: provisioned; elastic: peak GPUs used (or the cap)
    double utilization = 0;                 // used / provisioned GPU-hours, [0, 1]
    Decimal gpuHoursUsed;                   // over the evaluated hours
    Decimal gpuHoursProvisioned;            // static: gpus × hours; elastic: billed = used
    // GPU-hours the load keeps busy: the running replicas' share of capacity the traffic uses
    // (the sizing's peak utilization, following the hourly shape), training and MIG tenants
    // whole. A replica the smallest demand still needs counts as allocated, not as busy.
    double gpuHoursBusy = 0;
    double busyUtilization = 0;             // busy / provisioned GPU-hours, [0, 1]
    int64_t peakNeedGpus = 0;               // largest hourly need routed to this pool
    // Headroom at the busiest hour, in two parts: the headroom inference sizing planned into the
    // need (free by design, counted in the peak need) and the GPUs spare beyond what was used.
    int64_t plannedHeadroomGpus = 0;        // sum of the workloads' planned headroom here
    int64_t spareAtPeak = 0;                // gpus − peak GPUs used
    int64_t headroomAtPeak = 0;             // spareAtPeak + plannedHeadroomGpus
    int64_t unservedGpuHours = 0;           // need above a fixed pool with nowhere to go
    bool priced = false;                    // false: the rate card gives no price (cost shows 0, warned)
    std::string rateCardKey;                // RateCard::key() of the card used
    Money ratePerGpuHour;                   // effective: spot includes the interruption overhead
    Money costPerDay;
    Money costPerMonth;                     // 30-day month
    Money costOverTerm;                     // over the term's real hours (calendar)
    // Reserved pools: the whole 1- or 3-year commitment, owed whatever the horizon.
    std::optional<CommitmentObligation> commitment;
    std::optional<int64_t> reserveAnalysed; // auto reserved pools: GPUs the reserve policy chose
    double criticalFractile = 0;            // auto reserved pools: reserved / elastic rate
    std::vector<MigLayout> migLayouts;      // MIG pools: one layout per GPU, tenants labelled
    std::vector<PoolWorkload> workloads;
    std::vector<int64_t> hourlyUsed;        // GPUs used each evaluated hour
};

struct TierCost {
    PoolTier tier = PoolTier::Reserved1y;
    Money perDay;
    Money perMonth;
    Money overTerm;
};

struct ScenarioResult {
    std::string name;
    std::vector<PoolResult> pools;          // in scenario order
    int64_t staticGpus = 0;                 // Σ static pool GPUs
    int64_t elasticPeakGpus = 0;            // Σ elastic pool peak GPUs
    double utilization = 0;                 // fleet: Σ used / Σ provisioned GPU-hours
    double busyUtilization = 0;             // fleet: Σ busy / Σ provisioned GPU-hours
    Money costPerDay;                       // exact; priced pools only
    Money costPerMonth;                     // 30-day month
    Money costOverTerm;                     // over the term's real hours
    std::string startDate;                  // ISO: the term's first day (resolved default included)
    std::string endDate;                    // ISO: start + horizon months
    int64_t termHours = 0;                  // real hours of the term
    Money commitmentsOwed;                  // Σ whole commitments of reserved pools (priced)
    std::vector<TierCost> costByTier;       // tiers present, in allPoolTiers() order
    std::vector<ScenarioWarning> warnings;
};

// Evaluates a scenario over `inputs.hours` hours (hour 0 = 00:00 UTC, every day alike).
//
// Demand. Each workload is sized on each pool's GPU with sizeInference (its peak GPUs g,
// planned headroom included, in replicas of r GPUs); its need in hour t is whole replicas,
// r × ceil(g × diurnal(t mod 24) ÷ max diurnal ÷ r). A training job needs its GPUs from hour 0 until its GPU-hours are done.
// Shared pools (MIG, time-slice, MPS, with packing on) hold their workloads as tenants all
// day (tenantForWorkload): their need is the packed GPU count every hour — packTenants or
// the explicit layout for MIG, sharedGpus for time-slice/MPS.
//
// Routing. A workload or job is carried by the first static pool that lists it and its
// overflow by the first elastic pool that lists it (a workload listed only in elastic pools
// is carried there in full). Each hour a static pool serves min(need, GPUs); the rest is
// split over its workloads by their share of that hour's need, converted to the elastic
// pool's GPU by the ratio of the peak GPUs on the two types, summed and rounded up to whole
// GPUs. Need with no elastic pool to take it is unserved (warned).
//
// Replicas. A pool holds whole replicas of its exclusive workloads (of the gcd of their sizes
// when they differ): reserve policies choose replicas, overflow reaches an elastic pool as whole
// replicas of its GPU, and a fixed count that is not a multiple leaves the rest idle (warned).
//
// Sizing. Fixed pools keep their count (an elastic count is a cap). Auto static pools:
// owned, or with no elastic pool behind, size for the peak hourly need; reserved exclusive
// pools apply the reserve policy to their hourly need with analyseReservation (critical
// fractile, P50 or P75 — reserved rate of the tier vs the elastic pool's rate); shared pools
// take the packed count. Auto elastic pools size to their peak hourly need.
//
// Money. Rates come from the card in force at `asOfDate` for provider/region/GPU: owned uses
// the pool's owned rate (else the 3-year rate, warned); reserved the 1- or 3-year rate;
// on-demand the on-demand rate; spot the spot rate on used × (1 + spotOverhead) GPU-hours.
// Static pools cost GPUs × rate × 24 per day; elastic pools their used GPU-hours × rate over
// the evaluated hours ÷ (hours ÷ 24) per day. Month = 30 days ("per 30-day month"); the term
// is its real hours from the start date (termHours): static pools cost GPUs × rate × term
// hours, elastic pools their hourly average × term hours. Reserved pools also carry their
// whole commitment (commitmentObligation over 12 or 36 months from the start date), and a
// commitment longer than the horizon is warned ("commitment_beyond_horizon").
// Utilization = used ÷ provisioned GPU-hours (an elastic pool is billed for what it uses).
//
// Warnings (never errors) for everything named but missing, unpriced GPUs and tiers,
// reservation lead time past the need date, fleets under 8 GPUs with sharing machinery,
// when-not-to-pack advice on shared pools, OOM at a MIG boundary, unserved demand. Throws
// InputError naming the field when validate() finds a problem or inputs.hours < 24.
ScenarioResult evaluateScenario(const Scenario &scenario, const ScenarioInputs &inputs);

// How `pool` sizes `workload`: on the pool's GPU, at the weights, KV, TP and split of the pool's
// deployment for it (PoolDeployment), else at the workload's own. Evaluation and everything
// derived from a scenario (the autoscaling hand-off) size with it, so they agree.
SizingOverrides deploymentOverrides(const Pool &pool, const std::string &workload);

// The date a scenario's term starts: startDate, else the first of the month after asOfDate,
// else the first of the month after `today`.
CivilDate scenarioStartDate(const Scenario &scenario, CivilDate today = todayUtc());

// The scenario's money as printed: per pool (priced pools, scenario order) cost per day, per
// 30-day month and over the term in cents, each column with the total of its shown parts.
struct ScenarioMoneyTable {
    std::vector<std::string> pools;
    ShownColumn perDay;
    ShownColumn perMonth;
    ShownColumn overTerm;
};
ScenarioMoneyTable scenarioMoneyTable(const ScenarioResult &result);

// One compared metric: values per scenario and deltas against the first (the baseline).
struct ComparisonMetric {
    std::string key;                        // "cost_per_month", "gpus.<pool>", "cost_per_month.<tier>", ...
    std::string label;                      // "Cost per month"
    std::string unit;                       // "money" | "gpus" | "ratio" | "count"
    std::string currency;                   // money metrics
    std::vector<Decimal> values;            // one per scenario
    std::vector<Decimal> deltas;            // value − baseline value (the first is 0)
};

struct ScenarioComparison {
    std::vector<std::string> scenarios;     // names, baseline first
    std::vector<ComparisonMetric> metrics;
    const ComparisonMetric *find(const std::string &key) const;
};

// Cost per day / 30-day month / term (the printed totals of scenarioMoneyTable, cents, so a
// delta is the difference of the figures shown), cost per month by tier (its pools as shown), static and elastic GPUs, GPUs per pool
// (union of pool names, 0 where absent), fleet utilization and warning count for 2–4
// results. Throws InputError("scenarios") for fewer than 2 or more than 4, "currency" when
// the results' currencies differ.
ScenarioComparison compareScenarios(const std::vector<ScenarioResult> &results);

} // namespace headroom::engine
