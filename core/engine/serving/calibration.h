#pragma once

#include "serving_sim.h"
#include "step_time_table.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/step_cost.h"
#include "engine/tracking/serving_metrics.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

// Calibration of the step-cost model (inference/step_cost.h) to one deployment's own
// measurements — one model × GPU × TP on one engine version — by least squares (DESIGN §3.2: the calibration that replaces the catalog's efficiencies):
//
// - Measured passes (a step-time table): a decode point (b sequences at context c, ms) is
//   compared with stepCost(decodeStep(b, c)); a prefill point (p tokens, ms) with the pass of a
//   p-token prompt alone, stepCost(prefillStep(p)).
// - Benchmark runs (`vllm bench serve` results): the run's requests (their prompt and output
//   lengths) replayed through the serving simulation with the deployment's scheduler — Poisson
//   arrivals at the run's request rate (seeded, the same arrivals at every evaluation), all at
//   once for an unbounded rate, closed loop at the run's max concurrency (simulateBenchmark) —
//   and its mean TTFT, TPOT (the simulation's mean inter-token time) and E2E compared with the
//   run's means.
// - Served hours (vLLM's Prometheus metrics, as the Tracking page imports them): one replica
//   in one clock hour is a run at the hour's request rate (Poisson arrivals) with its mean
//   prompt and output lengths; the median TTFT and E2E that its histograms give
//   (histogram_quantile over the buckets) are compared with the simulated requests' medians.
//   A measured median is known only to within its bucket: linear interpolation across vLLM's
//   bounds (…, 1.0, 2.5, 5.0 s for TTFT; …, 2.0, 2.5, 5.0, 10 s for E2E) can be off by a tenth
//   or more, and the fit follows it.
//
// Coefficients fitted: η_bw, η_kv (which also takes up per-sequence costs a pass has beside
// its KV reads), η_mm at large passes (η_mm at one token keeps its ratio to it), η_attn, the
// all-reduce latency, the per-pass overhead and, when a run reports TTFT, the
// per-request overhead. The residuals are relative errors, (predicted − measured) ÷ measured,
// one per point and metric, plus a pull of each coefficient toward its prior value of
// 0.05 × ln(value ÷ prior), so that a coefficient the measurements do not exercise stays put.
// Levenberg–Marquardt over the coefficients' logarithms with central differences (±2 %);
// efficiencies stay within [0.02, 1], overheads within [0.001, 200] ms.
namespace headroom::engine {

struct PassObservation {
    std::string label;               // "decode b=8 context=2048", "prefill 4096 tokens"
    StepBatch batch;
    double measuredMs = 0;           // > 0
};

// The points of a step-time table as passes of `model`.
std::vector<PassObservation> passObservations(const StepCostModel &model, const StepTimeTable &table);

struct BenchmarkRun {
    std::string label;               // e.g. the result file's name
    std::vector<int64_t> promptTokens; // per request (≥ 1 each); cycled when fewer than requests
    std::vector<int64_t> outputTokens; // per request (≥ 1 each), same count as promptTokens
    int64_t requests = 0;            // completed requests of the run, ≥ 1
    double requestRate = 0;          // requests/s; 0: all sent at once ("inf")
    int maxConcurrency = 0;          // 0: no limit
    // A closed loop at an unbounded rate begins with its first maxConcurrency requests sent at
    // once to an idle server (`vllm bench serve` at rate inf; aiperf, which starts measuring
    // after its warmup's last reply); false where the run's count of requests is not known, so
    // that the wave's weight is not either.
    bool startsAtOnce = true;
    std::optional<double> meanTtftMs;
    std::optional<double> meanTpotMs;
    std::optional<double> meanE2eMs;
    // Measured latency histograms (Prometheus buckets, seconds): their medians are compared.
    std::optional<LatencyHistogram> ttftHistogram;
    std::optional<LatencyHistogram> e2eHistogram;
};

// A benchmark run's means as its client reports them, simulated on `config` (one replica: its
// step model or table, KV pool, scheduler, request overhead) over the run's first
// `maxSimulatedRequests` requests at most. A closed loop (maxConcurrency > 1) runs with its users
// out of step — the first requests spread over one mean request time: left in step, a loop of
// equal requests stays so (they end together and come back together), which measured servers do
// not show. A loop that startsAtOnce (rate 0) also has its first wave simulated alone, all sent
// at once to the idle replica; that wave weighs maxConcurrency ÷ requests in the means.
struct BenchmarkSimulation {
    ServingSimResult run;            // the users out of step (percentiles, throughput)
    double meanTtftMs = 0;           // the run's means, the first wave weighed in
    double meanTpotMs = 0;
    double meanE2eMs = 0;
    double firstWaveShare = 0;       // 0: none
};
BenchmarkSimulation simulateBenchmark(const BenchmarkRun &run, ServingSimConfig config, int maxSimulatedRequests);

// The served hours of one deployment as runs: each replica-hour with at least `minRequests`
// completed requests, measured request and token counters and a TTFT or E2E histogram, labelled
// "<instance> <YYYY-MM-DD HH>:00" (UTC). Every request of the hour has the hour's mean prompt
// and output lengths (rounded, at least 1 token). InputError "deployment" when no hour is of
// `deployment`; "metrics" when none of its hours qualifies (saying what they lack).
std::vector<BenchmarkRun> servedHourRuns(const ServingHours &hours, const std::string &deployment,
                                         int64_t minRequests);

struct CalibrationInputs {
    StepCostModel model;             // its efficiency is the prior
    ServingSimConfig serving;        // the replica for runs: KV pool, scheduler, request overhead (prior)
    std::vector<PassObservation> passes;
    std::vector<BenchmarkRun> runs;
    int maxSimulatedRequests = 400;  // a longer run is replayed on its first this-many requests
    // Called after each iteration with the share of the iteration limit done; returning false
    // stops the fit where it is (CalibrationResult::cancelled).
    std::function<bool(double)> progress;
};

struct CalibrationPoint {
    std::string label;
    std::string metric;              // "pass", "ttft", "tpot", "e2e"; "ttft p50", "e2e p50" for histograms
    double measuredMs = 0;
    double predictedMs = 0;
    double errorPct = 0;             // (predicted − measured) ÷ measured × 100
};

struct CalibrationCoefficient {
    std::string name;                // "bandwidth", "kv_bandwidth", "matmul_peak", "attention",
                                     // "all_reduce_latency_us", "iteration_overhead_ms", "request_overhead_ms"
    double prior = 0;
    double fitted = 0;
};

struct CalibrationResult {
    GpuEfficiency efficiency;        // the prior with the fitted coefficients
    double requestOverheadMs = 0;
    std::vector<CalibrationCoefficient> coefficients;
    std::vector<CalibrationPoint> points;   // with the fitted coefficients
    double meanAbsErrorPct = 0;      // over points
    double maxAbsErrorPct = 0;
    double priorMeanAbsErrorPct = 0; // the same points with the prior coefficients
    int iterations = 0;
    bool cancelled = false;          // stopped by `progress`: the coefficients reached so far
};

// The deployment as the workspace's serving assumptions describe it, without measurements: its
// step-cost model (the GPU's profile, else the assumptions' fallback, is the prior), one
// replica's KV pool and the scheduler. InputError "memory" when the weights leave no pool.
CalibrationInputs calibrationDeployment(const ModelSpec &model, const GpuSpec &gpu, WeightPrecision weights,
                                        KvPrecision kv, int tp, const ServingAssumptions &assumptions);

// The fitted profile as the GPU catalog keeps it: its source "calibrated for <deployment> on
// <sources, comma-separated>: mean |error| X % over N points".
GpuEfficiency calibratedProfile(const CalibrationResult &result, const std::string &deployment,
                                const std::vector<std::string> &sources);

// InputError "measurements" when there is no point at all; "ms" for a pass not above 0;
// "runs" for a run without requests or lengths, lengths below 1, mismatched length lists, a
// negative rate or concurrency, or no metric; the simulation's own errors for its settings.
CalibrationResult calibrate(const CalibrationInputs &inputs);

// The points as `efficiency` and `requestOverheadMs` predict them (a held-out check).
std::vector<CalibrationPoint> predictPoints(const CalibrationInputs &inputs, const GpuEfficiency &efficiency,
                                            double requestOverheadMs);

} // namespace headroom::engine
