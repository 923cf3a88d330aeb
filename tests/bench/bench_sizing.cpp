// Times inference sizing (DESIGN §3.2, §7): one workload with every what-if across the
// shipped GPU catalog (GPUs × weights {bf16, fp8, int4} × KV {bf16, fp8}) must take
// < 5,000 µs, and analysing the Mooncake trace is part of an import that must take < 300 ms.

#include "benchtiming.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/sizing_options.h"
#include "engine/serving/trace.h"
#include "engine/inference/workload.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace headroom::engine;

using headroom::bench::Timing;
using headroom::bench::measure;

namespace {

constexpr int kWarmup = 20;
constexpr int kRepetitions = 500;
constexpr int kTraceRepetitions = 30;
constexpr double kSizingTargetMicros = 5000.0;
constexpr double kOptionsTargetMicros = 10000.0; // one workload with the best-option table: < 10 ms
constexpr double kImportTargetMillis = 300.0;

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The number after `"key":` at or after `from`, within one catalog entry.
double numberAfter(const std::string &text, const std::string &key, size_t from)
{
    const size_t at = text.find("\"" + key + "\":", from);
    return at == std::string::npos ? 0 : std::stod(text.substr(at + key.size() + 3, 32));
}

// GPU figures from data/gpus.json, one object per "id".
std::vector<GpuSpec> shippedGpus(const std::string &path)
{
    const std::string text = readFile(path);
    std::vector<GpuSpec> gpus;
    size_t at = 0;
    while ((at = text.find("\"id\": \"", at)) != std::string::npos) {
        GpuSpec g;
        const size_t start = at + 7;
        g.id = text.substr(start, text.find('"', start) - start);
        g.name = g.id;
        g.memoryBytes = static_cast<int64_t>(numberAfter(text, "memory_bytes", at));
        g.hbmBandwidthGBps = numberAfter(text, "hbm_bandwidth_gbps", at);
        g.bf16Tflops = numberAfter(text, "bf16_tflops", at);
        g.fp8Tflops = numberAfter(text, "fp8_tflops", at);
        gpus.push_back(g);
        at = start;
    }
    return gpus;
}

ModelSpec llama70b()
{
    ModelSpec m;
    m.id = "llama-3.1-70b";
    m.name = "Llama 3.1 70B";
    m.paramsTotal = 70553706496.0;
    m.paramsActive = m.paramsTotal;
    m.layers = 80;
    m.hiddenSize = 8192;
    m.attentionHeads = 64;
    m.kvHeads = 8;
    m.headDim = 128;
    m.maxContext = 131072;
    return m;
}

WorkloadProfile chat()
{
    WorkloadProfile w;
    w.name = "chat";
    w.modelId = "llama-3.1-70b";
    w.dailyActiveUsers = 200000;
    w.requestsPerUserPerDay = 15;
    w.peakSessionsPerUser = 0.05;
    w.diurnal = diurnalShape(DiurnalPreset::BusinessHours);
    w.promptTokens = {1500, 6000};
    w.outputTokens = {300, 900};
    w.prefixHitRate = 0.3;
    w.sharedPrefixTokens = 800;
    w.gpuId = "h100-sxm";
    w.tp = 2;
    return w;
}

// {"timestamp": ms, "input_length": n, "output_length": n, "hash_ids": [..]} per line.
std::vector<TraceRequest> parseMooncake(const std::string &text)
{
    std::vector<TraceRequest> requests;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty())
            continue;
        TraceRequest r;
        r.timestampS = numberAfter(line, "timestamp", 0) / 1000.0;
        r.promptTokens = static_cast<int64_t>(numberAfter(line, "input_length", 0));
        r.outputTokens = static_cast<int64_t>(numberAfter(line, "output_length", 0));
        const char *p = line.c_str() + line.find('[', line.find("\"hash_ids\"")) + 1;
        while (*p && *p != ']') {
            char *end = nullptr;
            r.blockHashes.push_back(std::strtoll(p, &end, 10));
            p = end;
            while (*p == ',' || *p == ' ')
                ++p;
        }
        requests.push_back(std::move(r));
    }
    return requests;
}

} // namespace

int main()
{
    const std::vector<GpuSpec> gpus = shippedGpus(HEADROOM_SOURCE_DIR "/data/gpus.json");
    const WorkloadProfile workload = chat();
    const ModelSpec model = llama70b();
    volatile int64_t sink = 0;

    const std::vector<WhatIf> whatIfs = sizingWhatIfs(workload, model, gpus);
    int feasible = 0;
    int cheaper = 0;
    for (const WhatIf &w : whatIfs) {
        feasible += w.result.feasible ? 1 : 0;
        cheaper += w.dropsToCheaperTier ? 1 : 0;
    }
    const Timing one = measure(kWarmup, kRepetitions * 10, [&] {
        sink = sink + sizeInference(workload, model, gpus[2]).gpus;
    });
    std::printf("size_inference  llama-3.1-70b tp2 on %s  median %8.2f us  min %8.2f us\n",
                gpus[2].id.c_str(), one.medianMicros, one.minMicros);
    const Timing all = measure(kWarmup, kRepetitions, [&] {
        sink = sink + int64_t(sizingWhatIfs(workload, model, gpus).size());
    });
    const bool sizingMet = all.medianMicros < kSizingTargetMicros;
    std::printf("sizing_whatifs  %zu GPUs x 3 weights x 2 KV = %zu sizings (%d feasible, %d on a "
                "cheaper tier)  median %8.2f us  min %8.2f us  target < %.0f us: %s\n",
                gpus.size(), whatIfs.size(), feasible, cheaper, all.medianMicros, all.minMicros,
                kSizingTargetMicros, sizingMet ? "met" : "MISSED");

    // The best-option table: one workload sized on every GPU × weights × KV precision at TP
    // 1, 2, 4 and 8, with the plan itself (the Inference sizing page's recompute).
    std::vector<GpuRate> rates;
    for (const GpuSpec &gpu : gpus)
        if (gpu.id.rfind("h100", 0) == 0 || gpu.id.rfind("a100", 0) == 0)
            rates.push_back({gpu.id, Money{*Decimal::parse("3.99"), "USD"}, "bench"});
    const std::vector<SizingOption> options = sizingOptions(workload, model, gpus, rates);
    const Timing table = measure(kWarmup, kRepetitions, [&] {
        sink = sink + sizeInference(workload, model, gpus[2]).gpus;
        sink = sink + int64_t(sizingOptions(workload, model, gpus, rates).size());
    });
    const bool optionsMet = table.medianMicros < kOptionsTargetMicros;
    std::printf("sizing_options  %zu GPUs x 3 weights x 2 KV x TP 1-8 = %zu options (best first: %s %s/%s TP %d, "
                "%lld GPUs)  median %8.2f us  min %8.2f us  target < %.0f us: %s\n",
                gpus.size(), options.size(), options.front().gpuId.c_str(),
                std::string(toString(options.front().weights)).c_str(), std::string(toString(options.front().kv)).c_str(),
                options.front().tp, static_cast<long long>(options.front().result.gpus), table.medianMicros,
                table.minMicros, kOptionsTargetMicros, optionsMet ? "met" : "MISSED");

    const std::string path = HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl";
    const std::vector<TraceRequest> requests = parseMooncake(readFile(path));
    const TraceStats stats = analyseTrace(requests);
    const Timing analyse = measure(2, kTraceRepetitions, [&] {
        sink = sink + analyseTrace(requests).ratePeakPerMin;
    });
    const Timing parseAndAnalyse = measure(2, kTraceRepetitions, [&] {
        sink = sink + analyseTrace(parseMooncake(readFile(path))).requests;
    });
    const bool importMet = parseAndAnalyse.medianMicros / 1000.0 < kImportTargetMillis;
    std::printf("analyse_trace   mooncake %lld requests (hit rate %.4f)  median %8.2f ms  min %8.2f ms\n",
                static_cast<long long>(stats.requests), stats.prefixHitRate.value_or(0),
                analyse.medianMicros / 1000.0, analyse.minMicros / 1000.0);
    std::printf("read+analyse    mooncake (plain C++ read)  median %8.2f ms  min %8.2f ms  "
                "target < %.0f ms: %s\n",
                parseAndAnalyse.medianMicros / 1000.0, parseAndAnalyse.minMicros / 1000.0,
                kImportTargetMillis, importMet ? "met" : "MISSED");
    return sizingMet && optionsMet && importMet ? 0 : 1;
}
