#pragma once

#include <string>
#include <vector>

// When not to pack (DESIGN §3.4): advice the partitioning planner gives, each with its reason.
namespace headroom::engine {

// What the advice looks at for one workload being packed.
struct PackingCandidate {
    std::string name;
    std::string workloadClass = "internal"; // flagship | internal | batch | embedding | training
    std::string isolation = "none";         // none | soft | regulated
    bool flatTraffic = false;               // 24/7 with no daily peak
};

struct PackingAdvice {
    std::string subject;                     // workload name, or "fleet"
    std::string advice;                      // "give it exclusive GPUs"
    std::string reason;
};

// Rules: flagship interactive serving → exclusive GPUs; training → never pack; fleets under
// about 8 GPUs → skip the machinery; flat 24/7 traffic → skip elasticity; regulated or
// tenant-isolated → MIG or nothing (never time-slicing or MPS).
// `fleetGpus` is the fleet as it is run without partitioning (the threshold asks whether the
// machinery is worth adopting); `gpusSaved`, when known (> 0), is named in the reason.
constexpr long kSmallFleetGpus = 8;
std::vector<PackingAdvice> packingAdvice(const std::vector<PackingCandidate> &candidates, long fleetGpus,
                                         long gpusSaved = 0);

} // namespace headroom::engine
