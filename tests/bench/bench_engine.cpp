// Times the KV concurrency curve the planner redraws on every input change
// (DESIGN §3.1, §7): five variants × 64 context points must take < 1000 µs in total.

#include "benchtiming.h"
#include "engine/inference/kv.h"
#include "engine/catalog/specs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace headroom::engine;

using headroom::bench::Timing;
using headroom::bench::measure;

namespace {

constexpr int kPoints = 64;
constexpr int64_t kMinContext = 128;
constexpr int64_t kMaxContext = 131072;
constexpr int kWarmup = 200;
constexpr int kRepetitions = 5000;
constexpr double kTargetMicros = 1000.0;

struct Variant {
    std::string label;
    KvInputs inputs;
};

ModelSpec llama(const char *id, double params, int layers, int heads)
{
    ModelSpec m;
    m.id = id;
    m.name = id;
    m.paramsTotal = params;
    m.paramsActive = params;
    m.layers = layers;
    m.hiddenSize = heads * 128;
    m.attentionHeads = heads;
    m.kvHeads = 8;
    m.headDim = 128;
    m.maxContext = 131072;
    return m;
}

ModelSpec deepseekV3()
{
    ModelSpec m;
    m.id = "deepseek-v3";
    m.name = "DeepSeek-V3";
    m.paramsTotal = 671e9;
    m.paramsActive = 37e9;
    m.layers = 61;
    m.hiddenSize = 7168;
    m.attentionHeads = 128;
    m.kvHeads = 128;
    m.headDim = 128;
    m.attention = AttentionKind::Mla;
    m.kvLoraRank = 512;
    m.qkRopeHeadDim = 64;
    m.maxContext = 163840;
    return m;
}

KvInputs inputs(const ModelSpec &model, int64_t memoryBytes, WeightPrecision w, KvPrecision kv,
                int tp)
{
    KvInputs in;
    in.model = model;
    in.gpuMemoryBytes = memoryBytes;
    in.weights = w;
    in.kv = kv;
    in.tp = tp;
    in.utilization = 0.9;
    return in;
}

std::vector<Variant> variants()
{
    const int64_t h100 = 85520809984;  // 80 GB
    const int64_t h200 = 150754820096; // 141 GB
    const ModelSpec l8 = llama("llama-3.1-8b", 8030261248.0, 32, 32);
    const ModelSpec l70 = llama("llama-3.1-70b", 70553706496.0, 80, 64);
    return {
        {"llama-3.1-8b  bf16/bf16 tp1 H100", inputs(l8, h100, WeightPrecision::Bf16, KvPrecision::Bf16, 1)},
        {"llama-3.1-8b  fp8/fp8   tp1 H100", inputs(l8, h100, WeightPrecision::Fp8, KvPrecision::Fp8, 1)},
        {"llama-3.1-70b bf16/bf16 tp4 H100", inputs(l70, h100, WeightPrecision::Bf16, KvPrecision::Bf16, 4)},
        {"llama-3.1-70b fp8/fp8   tp2 H100", inputs(l70, h100, WeightPrecision::Fp8, KvPrecision::Fp8, 2)},
        {"deepseek-v3   fp8/bf16  tp8 H200", inputs(deepseekV3(), h200, WeightPrecision::Fp8, KvPrecision::Bf16, 8)},
    };
}

} // namespace

int main()
{
    const std::vector<Variant> all = variants();
    volatile int64_t sink = 0;

    std::printf("KV concurrency curve, %d log-spaced contexts %lld..%lld, %d repetitions\n",
                kPoints, static_cast<long long>(kMinContext), static_cast<long long>(kMaxContext),
                kRepetitions);
    for (const Variant &v : all) {
        const auto curve = concurrencyCurve(v.inputs, kMinContext, kMaxContext, kPoints);
        const Timing t = measure(kWarmup, kRepetitions, [&] {
            sink = sink + concurrencyCurve(v.inputs, kMinContext, kMaxContext, kPoints).back().streams;
        });
        std::printf("kv_curve %s  median %8.2f us  min %8.2f us  (streams at %lld: %lld, at %lld: %lld)\n",
                    v.label.c_str(), t.medianMicros, t.minMicros,
                    static_cast<long long>(curve.front().context),
                    static_cast<long long>(curve.front().streams),
                    static_cast<long long>(curve.back().context),
                    static_cast<long long>(curve.back().streams));
    }

    const Timing total = measure(kWarmup, kRepetitions, [&] {
        for (const Variant &v : all)
            sink = sink + concurrencyCurve(v.inputs, kMinContext, kMaxContext, kPoints).back().streams;
    });
    const bool met = total.medianMicros < kTargetMicros;
    std::printf("kv_curve all %zu variants x %d points  median %8.2f us  min %8.2f us  "
                "target < %.0f us: %s\n",
                all.size(), kPoints, total.medianMicros, total.minMicros, kTargetMicros,
                met ? "met" : "MISSED");
    return met ? 0 : 1;
}
