#pragma once

#include "engine/catalog/specs.h"
#include "engine/inference/inference_sizing.h"
#include "engine/serving/calibration.h"

#include <QString>
#include <optional>
#include <string>
#include <vector>

// The fidelity suite: published measurements of LLM serving (references/serving_measurements.csv,
// their sources in references/SOURCES.md) replayed through the serving simulation with the
// shipped catalogs and the default serving assumptions, and the error of every prediction.
namespace headroom::fidelity {

struct Reference {
    std::string id;
    std::string engine;            // vllm, nim, trtllm, sglang
    std::string engineVersion;     // '' where the source does not give it
    std::string model;
    std::string gpu;
    int tp = 1;
    std::string weights;           // bf16, fp8, nvfp4, fp8-block, '' (the checkpoint's BF16)
    std::string kv;
    double inputTokens = 0;        // 0: not published
    double outputTokens = 0;
    std::string loadKind;          // concurrency (closed loop), rate (Poisson), offline (one batch)
    double load = 0;
    std::optional<double> requests; // requests the run's means are over (closed loop), where known
    std::optional<double> ttftMs;
    std::optional<double> itlMs;
    std::optional<double> e2eMs;   // published, or TTFT + (output − 1) × ITL for a closed loop
    std::optional<double> tokensPerS;
    // A closed loop's first wave is in its means (weighing load ÷ requests) unless its campaign
    // has shown it cannot be (leaveOutImpossibleFirstWaves).
    bool firstWave = true;
};

// Reads the references CSV; throws std::runtime_error naming the line for a malformed row.
std::vector<Reference> readReferences(const QString &path);

struct Catalogs {
    std::vector<engine::GpuSpec> gpus;
    std::vector<engine::ModelSpec> models;
};
Catalogs shippedCatalogs(const QString &dataDir);

struct Prediction {
    bool supported = false;
    std::string why;               // when not supported: what the catalog or model lacks
    double ttftMs = 0;             // means over requests, as the references report
    double itlMs = 0;
    double e2eMs = 0;              // offline: the batch's latency (the last request's end)
    double tokensPerS = 0;         // output tokens per second of the deployment
    double queueWaitP50Ms = 0;
};

// One reference replayed: its model, GPU, precisions and TP from the catalogs, one replica,
// requests of its fixed lengths (no shared prefixes) under its load — a closed loop of its
// concurrency, Poisson arrivals at its rate, or one batch offline (no API server: no request
// overhead). A closed loop's means are those of its benchmark run: a first wave of `load`
// requests sent at once to an idle server, then users out of step (six rounds, the first spread
// over one mean request time), the wave weighing load ÷ requests where the run's request count
// is known (references/SOURCES.md) and its campaign's means can hold it (firstWave), nothing
// otherwise.
Prediction predict(const Reference &reference, const Catalogs &catalogs, const engine::ServingAssumptions &assumptions);

// The replica a reference ran on — its model, GPU, precisions, TP and KV pool from the catalogs,
// the scheduler and overheads from `assumptions`, one replica — or nullopt with `why` set.
std::optional<engine::ServingSimConfig> replicaConfig(const Reference &reference, const Catalogs &catalogs,
                                                     const engine::ServingAssumptions &assumptions, std::string *why = nullptr);

// The reference as a benchmark run to calibrate on: its fixed lengths, its load (a closed loop
// of six rounds, its first wave weighed as predict() says, Poisson arrivals, or one batch), its
// published means.
engine::BenchmarkRun benchmarkRun(const Reference &reference);

// The share of the GPUs' dense peak (at the weights' precision) that a closed-loop reference's
// measured rate needs in its linear layers alone, had every prompt and output token been
// computed: users ÷ (TTFT + (output − 1) × ITL) requests a second (or users ÷ E2E), each 2 × the
// model's body parameters (LM head and embedding left out) × (input + output) FLOPs, over the
// deployment's GPUs. Attention, KV reads and overheads come on top, so a share near or above what
// the GPU's measured GEMMs reach means the run did not compute every prompt token (prefix cache
// hits the source does not record). nullopt for other loads, unpublished latencies, or a
// deployment the catalogs lack.
std::optional<double> measuredComputeShare(const Reference &reference, const Catalogs &catalogs);

// A reference the model shows saturated where the measurement was served: TTFT over 5 × the
// measured one (and over one second) while the measured TTFT is below one second.
bool shownSaturated(const Reference &reference, const Prediction &prediction);

struct MetricError {
    std::string metric;            // ttft, itl, e2e, throughput
    int count = 0;
    double mape = 0;               // mean |predicted − measured| ÷ measured, %
    double medianApe = 0;
    double meanSignedPct = 0;      // mean (predicted − measured) ÷ measured, %: + is slow/high
};

std::vector<MetricError> metricErrors(const std::vector<Reference> &references,
                                      const std::vector<Prediction> &predictions);

// The references the suite holds the model to: vLLM and NIM measurements with published
// lengths and a supported model, GPU and precision.
bool isTarget(const Reference &reference);

// The least mean TTFT a closed-loop reference's first wave can have: its N prompts sent at once
// are done one after another at best (any sharing of the GPUs only delays the earlier ones), each
// at the linear-layer FLOPs of its prompt tokens at the GPUs' dense peak, so the k-th first token
// comes after k prompts' time and the mean after (N + 1) ÷ 2 of them. nullopt where the run's
// request count is unknown (no wave is weighed) or the catalogs lack the deployment.
std::optional<double> firstWaveFloorMs(const Reference &reference, const Catalogs &catalogs);

// Whether the reference's measured mean TTFT cannot hold its first wave at the weight
// N ÷ requests: that weight times the wave's floor already exceeds it.
bool firstWaveImpossible(const Reference &reference, const Catalogs &catalogs);

// The rows one source gives for one engine (and version), model, weight precision and GPU: one
// benchmark campaign, run with one protocol. "aic vllm 0.12.0 llama-3.1-8b fp8 on h200".
std::string campaignOf(const Reference &reference);

// A benchmark's protocol belongs to its campaign: where one row's mean cannot hold its first wave
// with every prompt token computed (firstWaveImpossible), the campaign left its first waves out of
// its means (a warm-up), sent far more requests than counted, or served its prompts partly from
// the prefix cache; a replay that computes every token cannot hold a wave there, and every row of
// the campaign is replayed without one (firstWave = false). Returns those campaigns. loadSuite
// does it for the whole file before any reference is replayed.
std::vector<std::string> leaveOutImpossibleFirstWaves(std::vector<Reference> &references, const Catalogs &catalogs);

// The suite as it is replayed: the references with their campaigns' first waves settled
// (leaveOutImpossibleFirstWaves), the shipped catalogs, and the campaigns without a first wave.
struct Suite {
    std::vector<Reference> references;
    Catalogs catalogs;
    std::vector<std::string> withoutFirstWave;
};
Suite loadSuite(const QString &referencesPath, const QString &dataDir);

} // namespace headroom::fidelity
