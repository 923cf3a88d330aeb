#pragma once

#include "engine/common/money.h"
#include "engine/partitioning/mig.h"
#include "engine/tracking/focus.h"
#include "engine/tracking/serving_metrics.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

// Chargeback for shared GPUs (DESIGN §3.7c): each tenant's slice-hours of a partitioned pool,
// the pool's FOCUS EffectiveCost allocated to tenants by them to the cent, the same period as a
// Kueue quota counts it (claims, not slices), and the cost per million tokens served.
//
// Slice of a GPU held by one claim, as a share w of the whole GPU:
//   MIG          compute slices ÷ the GPU's compute slices, memory slices ÷ its memory
//                slices, or the larger of the two (MigBasis)
//   time-slicing the configured share (or the tenant's measured share of the GPU's time)
//   MPS          the configured share (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE ÷ 100, or measured)
//   over-commit  resident memory ÷ the GPU's memory
//   exclusive    1
// Shares are held in units of 1 ÷ kShareUnits of a GPU (exact for every MIG slice count up to
// 8 and for shares with 6 decimals). At any moment the claims on one GPU use one sharing mode;
// MIG and exclusive claims may not add to more than the GPU, time-slicing, MPS and over-commit
// claims that do are scaled down in proportion to fill it exactly (a warning says where).
//
// Allocation. Each FOCUS charge of a pool resource (its ResourceId names a machine of the
// claims) whose ChargePeriodStart lies in [from, to) is split over its own charge period:
// a claim's part = EffectiveCost × Σ (w × seconds held in the period) ÷ (GPUs of the machine
// × the period's seconds × 1), truncated to the Decimal's 10^-9; what no claim held is idle
// capacity, the charge minus its claims' parts, so the parts of every charge add to it exactly.
// With IdleShare::ProRata a charge's idle part is spread over its claims in proportion to their
// slice-seconds (the remainder of that division to the claim with the most), and stays idle
// only when no claim held the machine during the charge.
// Rounding to cents: per table (by tenant, model, namespace) the invoice total rounded half away
// from zero, each key's exact amount rounded down to the cent, and the cents left over given
// one each to the keys with the largest remainders (ties by name), so a table re-adds to the
// invoice total exactly (largest-remainder, Hamilton's method).
namespace headroom::engine {

inline constexpr int64_t kShareUnits = 840'000'000;   // lcm(1..8) × 10^6

enum class MigBasis { Compute, Memory, Larger };
enum class IdleShare { Apart, ProRata };
enum class ChargebackBy { Tenant, Model, Namespace };

std::string toString(MigBasis basis);     // "compute", "memory", "larger"
std::string toString(IdleShare idle);      // "apart", "pro-rata"
std::string toString(ChargebackBy by);    // "tenant", "model", "namespace"

// One machine of the pool: a FOCUS ResourceId with its GPUs.
struct PoolResource {
    std::string id;                 // ResourceId as the bill names it
    int gpus = 1;                   // GPUs on the machine, 1 … 64
    std::string gpuType;            // catalog GPU id (for MIG profiles and memory)
    double gpuMemoryGiB = 0.0;      // per GPU, for over-commit shares
    MigGpuProfiles mig;             // the GPU's MIG profiles (empty when it has none)
};

// One tenant's hold on one GPU over [start, end).
struct GpuClaim {
    std::string tenant;
    std::string nameSpace;          // Kubernetes namespace ("" when not given)
    std::string model;              // model served or trained ("" when not given)
    std::string deployment;         // serving-metrics deployment whose tokens it served ("" none)
    std::string resource;           // PoolResource::id
    int gpu = 0;                    // index on the machine, 0 … gpus − 1
    SharingMode mode = SharingMode::Exclusive;
    std::string profile;            // MIG profile name, e.g. "1g.10gb"
    Decimal share;                  // time-slicing / MPS share of the GPU, (0, 1]
    double residentGiB = 0.0;       // over-commit: resident memory on the GPU
    int64_t start = 0;              // epoch seconds
    int64_t end = 0;                // exclusive, after start
    int line = 0;                   // source line, for messages
};

struct ChargebackOptions {
    int64_t from = 0;               // epoch seconds; charges starting in [from, to) are allocated
    int64_t to = 0;
    MigBasis basis = MigBasis::Compute;
    IdleShare idle = IdleShare::Apart;
    std::string currency;           // empty: the one currency of the pool's charges
};

// Tokens a deployment served in [from, to) (serving metrics' prompt and generation counters).
struct DeploymentTokens {
    double inputTokens = 0.0;
    double outputTokens = 0.0;
};

// Deployment → UTC day (days since 1970-01-01) → tokens.
using TokensByDay = std::map<std::string, std::map<int64_t, DeploymentTokens>>;

// Prompt and generated tokens per deployment and UTC day over the replica-hours whose hour
// starts in [from, to) (the increases of vllm:prompt_tokens_total and generation_tokens_total).
TokensByDay deploymentTokens(const ServingHours &hours, int64_t from, int64_t to);

// One UTC day of a key: its cost and the tokens its deployments served that day.
struct ChargebackDay {
    int64_t day = 0;                // days since 1970-01-01
    Decimal exact;                  // cost of the charges starting that day, 10^-9
    Decimal cost;                   // cents, largest remainder over the key's days: they re-add to its cost
    double inputTokens = 0.0;
    double outputTokens = 0.0;
};

// One key of a table (a tenant, model or namespace; "(idle capacity)" for what no claim held).
struct ChargebackLine {
    std::string key;
    bool idle = false;
    double sliceHours = 0.0;        // Σ w × hours held within [from, to), GPU-hours
    double claimHours = 0.0;        // Σ hours held within [from, to), each claim counting 1
    Decimal exact;                  // allocated cost before rounding, 10^-9
    Decimal cost;                   // cents, largest remainder: the table re-adds to the total
    Decimal quotaExact;             // the allocated part split by claim-seconds (Kueue's count)
    Decimal quotaCost;              // cents, largest remainder over the same total less idle's cents
    Decimal quotaDifference;        // quotaCost − cost
    double inputTokens = 0.0;       // tokens of the deployments the key's claims name
    double outputTokens = 0.0;
    bool hasTokens = false;
    std::vector<ChargebackDay> days;  // the trend, by day: every day with a charge or tokens
};

struct ChargebackTable {
    ChargebackBy by = ChargebackBy::Tenant;
    std::vector<ChargebackLine> lines;   // by key; idle capacity last
};

struct ChargebackResult {
    std::string currency;
    Decimal invoiceExact;           // Σ EffectiveCost of the allocated charges
    Decimal invoice;                // rounded to cents
    int64_t charges = 0;            // allocated charges
    double poolGpuHours = 0.0;      // Σ GPUs × hours of the allocated charges' periods
    Decimal outsideCost;            // charges starting in the period on resources with no claim
    int64_t outsideCharges = 0;
    std::vector<ChargebackTable> tables; // by tenant, model, namespace
    std::vector<std::string> warnings;
    const ChargebackTable &table(ChargebackBy by) const;
};

// The slice of the GPU one claim holds, in kShareUnits; throws InputError naming the claim's
// line for an unknown MIG profile or a share out of range.
int64_t claimShareUnits(const GpuClaim &claim, const PoolResource &resource, MigBasis basis);

// Validates the claims against the resources (unknown resource, GPU index out of range, end
// not after start, modes mixed on one GPU at one time, MIG or exclusive claims adding to more
// than the GPU, one deployment named by two tenants; each error names the line) and
// allocates the charges. Throws InputError("claims") / ("currency") / ("period").
ChargebackResult allocateChargeback(const std::vector<PoolResource> &resources,
                                    const std::vector<GpuClaim> &claims, const FocusCharges &charges,
                                    const ChargebackOptions &options,
                                    const TokensByDay &tokens = {});

// Cost per million tokens as shown: cents ÷ tokens × 10^6, to 4 decimals; nullopt without tokens.
std::optional<Decimal> costPerMillion(const Decimal &cost, double tokens);

// Kueue configuration under which a quota counts what the slice-hours count: for MIG claims
// under the device plugin's mixed strategy, one resources.transformations entry per profile
// replacing nvidia.com/mig-<profile> by its slices of `headroom.io/gpu-slices` (compute or
// memory slices by the basis); for DRA, a deviceClassMappings entry with a Counter source on
// the driver's counter. YAML text, with comments saying which part applies where.
std::string kueueQuotaConfig(const std::vector<PoolResource> &resources,
                             const std::vector<GpuClaim> &claims, MigBasis basis);

} // namespace headroom::engine
