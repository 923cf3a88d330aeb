#pragma once

#include "inference_sizing.h"
#include "engine/common/money.h"
#include "engine/catalog/ratecard.h"

#include <optional>
#include <string>
#include <vector>

// The best-option table of inference sizing (DESIGN §3.2): for one workload, every catalog
// GPU × weights precision × KV precision with its best tensor-parallel degree, GPUs, binding
// side and cost per 30-day month at a rate card, sorted by cost.
namespace headroom::engine {

// The on-demand price one GPU is costed at, and where it comes from.
struct GpuRate {
    std::string gpuId;
    Money perGpuHour;
    std::string source;                  // "AWS us-east-1 p5.48xlarge, from 2025-06-01"
};

// For each GPU, the lowest on-demand rate among the cards in force at `date` (ISO) in
// `currency`, restricted to `provider` when it is not empty. GPUs without a card are absent.
std::vector<GpuRate> onDemandRates(const std::vector<RateCard> &cards, const std::string &date,
                                   const std::string &currency = "USD", const std::string &provider = {});

constexpr int64_t kHoursPerMonth = 720; // the 30-day month (DESIGN §3.7)

struct SizingOption {
    std::string gpuId;
    WeightPrecision weights = WeightPrecision::Bf16;
    KvPrecision kv = KvPrecision::Bf16;
    int tp = 0;                          // the best TP; 0 when none in {1, 2, 4, 8} fits
    SizingResult result;                 // at that TP; the smallest valid TP's when none fits
    std::optional<GpuRate> rate;         // nullopt: unpriced
    std::optional<Money> costPerMonth;   // GPUs × rate × 720 h; nullopt when unpriced or infeasible
};

// Every GPU × weights {bf16, fp8, int4} × KV {bf16, fp8}; for each, TP 1, 2, 4, 8 up to the
// GPU's node size are sized and the feasible one with the fewest GPUs (then the smaller TP)
// kept. TPs the model's heads do not divide are skipped. Sorted: feasible and priced by cost,
// then feasible unpriced by GPUs, then infeasible; ties keep catalog order.
std::vector<SizingOption> sizingOptions(const WorkloadProfile &workload, const ModelSpec &model,
                                        const std::vector<GpuSpec> &gpus, const std::vector<GpuRate> &rates,
                                        const ServingAssumptions &assumptions = {});

} // namespace headroom::engine
