#include "sizing_options.h"

#include "engine/common/errors.h"
#include "inference_sizing_steps.h"

#include <algorithm>

namespace headroom::engine {

std::vector<GpuRate> onDemandRates(const std::vector<RateCard> &cards, const std::string &date,
                                   const std::string &currency, const std::string &provider)
{
    std::vector<GpuRate> rates;
    for (const RateCard &card : cards) {
        if (card.currency != currency || (!provider.empty() && card.provider != provider))
            continue;
        const RateCard *inForce = cardInForce(cards, card.historyKey(), date);
        if (inForce != &card)
            continue;
        GpuRate rate{card.gpuId, Money{card.onDemand, card.currency},
                     card.provider + " " + card.region
                         + (card.instanceType.empty() ? std::string() : " " + card.instanceType)
                         + ", from " + card.effectiveDate};
        auto it = std::find_if(rates.begin(), rates.end(),
                               [&](const GpuRate &r) { return r.gpuId == card.gpuId; });
        if (it == rates.end())
            rates.push_back(std::move(rate));
        else if (rate.perGpuHour.amount < it->perGpuHour.amount)
            *it = std::move(rate);
    }
    return rates;
}

std::vector<SizingOption> sizingOptions(const WorkloadProfile &workload, const ModelSpec &model,
                                        const std::vector<GpuSpec> &gpus, const std::vector<GpuRate> &rates,
                                        const ServingAssumptions &assumptions)
{
    static constexpr WeightPrecision kWeights[] = {WeightPrecision::Bf16, WeightPrecision::Fp8,
                                                   WeightPrecision::Int4};
    static constexpr KvPrecision kKv[] = {KvPrecision::Bf16, KvPrecision::Fp8};
    static constexpr int kTps[] = {1, 2, 4, 8};

    std::vector<SizingOption> options;
    options.reserve(gpus.size() * std::size(kWeights) * std::size(kKv));
    for (const GpuSpec &gpu : gpus) {
        const auto rate = std::find_if(rates.begin(), rates.end(),
                                       [&](const GpuRate &r) { return r.gpuId == gpu.id; });
        for (WeightPrecision weights : kWeights) {
            for (KvPrecision kv : kKv) {
                SizingOption option;
                option.gpuId = gpu.id;
                option.weights = weights;
                option.kv = kv;
                bool sized = false;
                for (int tp : kTps) {
                    if (tp > std::max(gpu.gpusPerNode, 1))
                        break;
                    // A plan at TP t needs at least t GPUs: none can beat one already this small.
                    if (sized && option.result.feasible && option.result.gpus <= tp)
                        break;
                    SizingOverrides overrides;
                    overrides.gpuId = gpu.id;
                    overrides.weights = weights;
                    overrides.kv = kv;
                    overrides.tp = tp;
                    SizingResult result;
                    try {
                        result = sizeInferenceNumbers(workload, model, gpu, overrides, assumptions);
                    } catch (const InputError &e) {
                        if (e.field() == "tp")
                            continue; // the heads do not split at this TP
                        throw;
                    }
                    const bool better = !sized
                        || (result.feasible
                            && (!option.result.feasible || result.gpus < option.result.gpus));
                    if (better) {
                        option.result = std::move(result);
                        option.tp = option.result.feasible ? tp : 0;
                        sized = true;
                    }
                }
                if (!sized)
                    continue;
                if (rate != rates.end()) {
                    option.rate = *rate;
                    if (option.result.feasible)
                        option.costPerMonth = rate->perGpuHour * (option.result.gpus * kHoursPerMonth);
                }
                options.push_back(std::move(option));
            }
        }
    }
    const auto rank = [](const SizingOption &o) {
        return !o.result.feasible ? 2 : o.costPerMonth ? 0 : 1;
    };
    std::stable_sort(options.begin(), options.end(), [&](const SizingOption &a, const SizingOption &b) {
        const int ra = rank(a);
        const int rb = rank(b);
        if (ra != rb)
            return ra < rb;
        if (ra == 0 && a.costPerMonth->amount != b.costPerMonth->amount)
            return a.costPerMonth->amount < b.costPerMonth->amount;
        if (ra != 2)
            return a.result.gpus < b.result.gpus;
        return false;
    });
    return options;
}

} // namespace headroom::engine
