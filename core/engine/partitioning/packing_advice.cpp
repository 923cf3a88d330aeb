#include "packing_advice.h"

namespace headroom::engine {

std::vector<PackingAdvice> packingAdvice(const std::vector<PackingCandidate> &candidates, long fleetGpus,
                                         long gpusSaved)
{
    std::vector<PackingAdvice> out;
    if (fleetGpus > 0 && fleetGpus < kSmallFleetGpus) {
        const std::string saved = gpusSaved > 0 ? "the " + std::to_string(gpusSaved) + (gpusSaved == 1 ? " GPU" : " GPUs")
                                                      + " partitioning saves here"
                                                : "the few GPUs they could save";
        out.push_back({"fleet", "skip the partitioning machinery",
                       "a fleet of " + std::to_string(fleetGpus) + " GPUs is under the threshold of ~"
                           + std::to_string(kSmallFleetGpus)
                           + ": MIG layouts, sharing policies and their operations cost more than " + saved});
    }
    for (const PackingCandidate &c : candidates) {
        if (c.workloadClass == "flagship")
            out.push_back({c.name, "give it exclusive GPUs",
                           "flagship interactive serving is latency-sensitive at its peak, exactly when a shared "
                           "GPU is contended; partitioning trades its P50 for density"});
        if (c.workloadClass == "training")
            out.push_back({c.name, "never pack it",
                           "training wants whole GPUs and whole NVLink nodes at high utilization; slices cut its "
                           "bandwidth and a re-partition drains the card"});
        if (c.isolation == "regulated")
            out.push_back({c.name, "MIG or nothing",
                           "regulated or tenant-isolated workloads need hardware memory and fault isolation; "
                           "time-slicing and MPS share memory and give none"});
        if (c.flatTraffic)
            out.push_back({c.name, "skip elasticity",
                           "flat 24/7 traffic has no trough to scale into: size it once on the static tier"});
    }
    return out;
}

} // namespace headroom::engine
