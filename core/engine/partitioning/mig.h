#pragma once

#include "engine/catalog/specs.h"
#include "engine/inference/workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// NVIDIA MIG partitioning (DESIGN §3.4): profile geometry, layout validation, enumeration of
// layouts, packing tenants onto a fleet, and the sharing alternatives.
namespace headroom::engine {

// One MIG profile of one GPU type (catalog data, data/mig_profiles.json).
struct MigProfile {
    std::string name;             // "1g.10gb", "1g.10gb+me", "3g.40gb"
    int computeSlices = 1;        // of 7
    int memorySlices = 1;         // of 8
    double memoryGB = 0;          // usable memory, GB as NVIDIA names it
    std::vector<int> starts;      // allowed start positions (memory slice index)
    int maxInstances = 1;
    bool mediaExtensions = false; // "+me"
};

// Usable memory of a profile in GiB: memoryGB × 10^9 / 2^30 (1g.10gb → 9.31 GiB).
double memoryGiB(const MigProfile &profile);

struct MigGpuProfiles {
    std::string gpuId;            // catalog GPU id, e.g. "h100-sxm"
    int computeSlices = 7;
    int memorySlices = 8;
    std::vector<MigProfile> profiles;
    std::string source;
    const MigProfile *find(const std::string &name) const;
    // "1g.10gb, 1g.10gb+me, ..." in table order, for messages.
    std::string profileNames() const;
};

// Checks a profile table: slice counts within the GPU, starts that keep the profile inside
// it, positive memory and instance limits. Empty when the table is usable.
std::vector<std::string> checkProfiles(const MigGpuProfiles &gpu);

// A placed instance: profile at a start memory slice, optionally serving a tenant.
struct MigInstance {
    std::string profile;
    int start = 0;
    std::string tenant;
};
using MigLayout = std::vector<MigInstance>;

struct LayoutCheck {
    bool valid = true;
    std::string reason;           // the first violation, in words; empty when valid
};
LayoutCheck validateLayout(const MigGpuProfiles &gpu, const MigLayout &layout);

// Parses "3g.40gb@0,2g.20gb@4,1g.10gb@6"; throws InputError("layout") naming the bad part.
MigLayout parseLayout(const std::string &text);
std::string formatLayout(const MigLayout &layout);

// Every distinct valid layout to which no further instance can be added, instances sorted
// by start; layouts with fewer instances first (7g alone leads).
std::vector<MigLayout> maximalLayouts(const MigGpuProfiles &gpu);

// Most instances of one profile a single GPU holds (H100 80GB: 7 × 1g.10gb); 0 if unknown.
int maxInstancesPerGpu(const MigGpuProfiles &gpu, const std::string &profile);

// The smallest profile without media extensions whose memory is ≥ `memoryGiB` and whose
// compute slices are ≥ `computeSlices`; nullptr when none is large enough. Profiles are
// ordered by memory slices, then compute slices: on these GPUs each is contained in the
// next (fewer slices, a superset of starts), so a larger slice never packs better.
const MigProfile *smallestProfileFor(const MigGpuProfiles &gpu, double memoryGiB, int computeSlices);

// A MIG slice as a GPU of its own, to size a tenant on: the profile's memory, its memory
// slices' share of the HBM bandwidth, its compute slices' share of the dense throughput at
// every precision, no NVLink (an instance holds one replica). The rest is the whole GPU's.
GpuSpec migSliceGpu(const GpuSpec &gpu, const MigGpuProfiles &table, const MigProfile &profile);

enum class SharingMode { Mig, TimeSlice, Mps, OverCommit, Exclusive };

struct Tenant {
    std::string name;
    double memoryGiB = 0;         // memory need, GiB
    int computeSlices = 0;        // 0 = as many as the smallest fitting profile gives
    int replicas = 1;
    std::string isolation = "none"; // none | soft | regulated
    std::string profile = {};     // the profile its replicas take; empty: the smallest fitting one
};

// The slice chosen for each tenant: its profile, its need and the slice's memory, GiB.
struct TenantFit {
    std::string tenant;
    std::string profile;
    double needGiB = 0;
    double sliceGiB = 0;
    int replicas = 1;
};

struct PackResult {
    int64_t gpus = 0;
    int64_t gpusWithoutMig = 0;   // one replica per GPU
    std::vector<MigLayout> layouts; // one per GPU, instances labelled with tenants
    std::vector<std::string> oomWarnings;
    bool optimal = false;         // proven minimum
    int64_t lowerBound = 0;
    double memoryUtilization = 0; // tenant memory / provisioned slice memory
    std::vector<TenantFit> fits;  // in tenant order
};
// Places every replica on the smallest fitting profile (smallestProfileFor; a tenant larger
// than every profile but not than the GPU gets the whole-GPU profile and an OOM warning) and
// packs them onto the fewest GPUs. Regulated tenants get GPUs of their own; the others share.
// Exact (iterative deepening over per-GPU slice patterns, with memoised dead ends) when the
// lower bound is ≤ kExactPackGpus; beyond, first-fit decreasing with `optimal` true only when
// it meets the lower bound — the larger of ceil(compute slices / 7), ceil(memory slices / 8)
// and the 7g/4g/3g counts that cannot share a GPU. Instances are listed per GPU in creation
// order, largest first (creating large instances first avoids fragmenting the GPU).
// Throws InputError for an empty tenant list or a tenant larger than the whole GPU (naming
// it and by how much).
PackResult packTenants(const MigGpuProfiles &gpu, double gpuMemoryGiB, const std::vector<Tenant> &tenants);
constexpr int64_t kExactPackGpus = 64;

// A workload profile as a tenant to pack: memory need = its model's weights per GPU at the
// profile's precision and TP, plus 20 % for KV cache, activations and runtime, rounded up to
// 0.1 GiB; isolation from the profile; one replica.
Tenant tenantForWorkload(const WorkloadProfile &workload, const ModelSpec &model);

// Seconds to move `bytes` over a link of `gbps` GB/s (10^9 bytes per second).
double linkSeconds(double bytes, double gbps);

// Named interconnects (DESIGN §3.4): pcie4 32 GB/s, pcie5 64 GB/s, nvlink-h100 900 GB/s,
// ib-400g 50 GB/s (400 Gbit/s).
struct LinkPreset {
    std::string id;
    std::string name;
    double gbps = 0;
};
const std::vector<LinkPreset> &linkPresets();
const LinkPreset *findLinkPreset(const std::string &id);

// GPUs needed to share without MIG (time-slicing or MPS): ceil(Σ memory × replicas / GPU
// memory). Denser than MIG, but no memory isolation: one tenant's OOM or leak hits the rest.
int64_t sharedGpus(double gpuMemoryGiB, const std::vector<Tenant> &tenants);

// One way of serving the tenants and what it costs in GPUs and isolation.
struct SharingOption {
    SharingMode mode = SharingMode::Exclusive;
    int64_t gpus = 0;
    bool memoryIsolation = false;
    bool faultIsolation = false;
    double coldSwapSeconds = 0;   // over-commit only: the largest tenant's bytes / link bandwidth
    std::string note;             // what the mode trades, in words
};
// Exclusive (one replica per GPU), MIG (packTenants), time-slicing and MPS (sharedGpus), and
// unified-memory over-commit: GPUs = ceil(Σ compute slices / 7) with memory swapped over a
// link of `linkGBps`, a cold swap costing bytes / bandwidth.
std::vector<SharingOption> compareSharing(const MigGpuProfiles &gpu, double gpuMemoryGiB,
                                          const std::vector<Tenant> &tenants, double linkGBps);
std::string toString(SharingMode mode);

} // namespace headroom::engine
