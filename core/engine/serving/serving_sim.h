#pragma once

#include "engine/inference/goodput.h"
#include "engine/inference/inference_sizing.h"
#include "step_time_table.h"
#include "trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Serving simulation (DESIGN §3.7b): a request trace replayed, event by event, on a fleet of
// replicas with continuous batching, chunked prefill, a finite KV pool per replica with a
// prefix cache, preemption by recompute, and a router in front. Deterministic for a seed.
//
// Semantics, exactly:
// - Time: request i arrives at (t_i − t_0) ÷ timeScale seconds; timeScale is the arrival-rate
//   multiplier (2 = twice the rate; 0.0001 stretches the trace so requests never overlap).
// - Blocks: the trace's hashes cover 512-token blocks (traceBlockSize). Simulated block i of
//   a prompt covers tokens [i·b, min((i+1)·b, prompt)); its hash combines i with the hashes of
//   every trace block it overlaps. At b = 512 the trace's own hashes are used unchanged. Tokens
//   past the trace's hashes get hashes of their own (never shared).
// - Prefix cache: a request's hit is the leading run of its prompt blocks present in the
//   replica's cache (matching stops at the first absent block). Its prompt blocks are then
//   held (missing ones inserted, with their hashes, when the request is admitted); when it
//   finishes or is preempted they stay cached, unreferenced, at the most-recently-used end.
//   Blocks of generated tokens, ceil((prompt + generated) ÷ b) − prompt blocks, are private
//   and freed at the end: they are never kept in the prefix cache. Eviction takes the least
//   recently used unreferenced cached block; blocks held by requests are never evicted. A
//   request is counted once in the hit rate, at its first admission.
// - Rejection: a request needing more than the pool, ceil((prompt + output) ÷ b) blocks,
//   can never run: it is counted as rejected and left out of every other figure.
// - Scheduling per replica (vLLM-style continuous batching): each iteration first gives every
//   running decode one token (a new block when it crosses a block boundary; when none can be
//   found, the most recently admitted running request is preempted — its blocks released, it
//   goes back to the front of the queue and recomputes prompt and generated tokens), then
//   gives the token budget left to prefill chunks, of running prefills first and then of
//   waiting requests admitted in arrival order (the queue head blocks the rest when its
//   blocks cannot be found). At most maxBatch requests run (vLLM's max_num_seqs) and an
//   iteration schedules at most tokenBudget tokens (max_num_batched_tokens). Without chunked
//   prefill a prompt is prefilled whole, and an iteration either prefills the prompts that
//   fit or decodes (vLLM's scheduler without chunking). Iteration time = the step-cost model's
//   one forward pass over every scheduled token (step_cost.h): decodes with their contexts'
//   KV reads and prefill chunks with their attention over the tokens before them, sampling a
//   token for each decode and each prefill that finishes. With a measured step-time table
//   (step_time_table.h; it wins over the model when both are given) the iteration time is the
//   table's decode time at (decode batch, mean decode context), 0 with no decodes, plus its
//   prefill time at the prefill tokens, 0 with none.
// - Without a step model (no model/GPU, no table), only the cache is simulated: every request
//   runs alone and instantly at its arrival; latencies are not computed.
// - Latencies: TTFT = first token − arrival + requestOverheadMs (the API server's and the
//   tokenizer's fixed time, outside the GPU passes), E2E likewise; ITL of a request = (E2E − TTFT) ÷ (output − 1)
//   (its mean inter-token gap; none for one-token outputs); queue wait = first admission −
//   arrival; percentiles are type 7 over requests.
namespace headroom::engine {

enum class RouterKind { RoundRobin, LeastLoaded, KvAware };
enum class StepModelKind { None, Roofline, Table };
std::string_view toString(StepModelKind kind);                // "none", "roofline", "table"
std::string_view toString(RouterKind router);                 // "round-robin", "least-loaded", "kv"
std::optional<RouterKind> parseRouterKind(std::string_view text);

constexpr int kTraceBlockTokens = 512;                        // Mooncake hash blocks

struct ServingSimConfig {
    int replicas = 1;
    int64_t kvBlocksPerReplica = 0;    // pool of one replica, in blocks of blockSize tokens
    int blockSize = kTraceBlockTokens; // tokens per KV block
    int traceBlockSize = kTraceBlockTokens; // tokens per trace hash block
    bool prefixCache = true;
    RouterKind router = RouterKind::KvAware;
    // KV-aware router, as NVIDIA Dynamo's KV router documents it (docs.nvidia.com/dynamo,
    // components/router "Routing Concepts" and "Configuration and Tuning"): per replica,
    // cost = overlapWeight × new prefill blocks + active decode blocks; the minimum is taken
    // (lowest index on ties) at temperature 0, otherwise a replica is drawn with probability
    // ∝ exp(−cost ÷ temperature) (costs in blocks).
    double overlapWeight = 1.0;
    double temperature = 0.0;
    double timeScale = 1.0;            // arrival-rate multiplier, > 0
    // Closed loop, as `vllm bench serve --max-concurrency` drives a server: at most this many
    // requests in flight, the next (in trace order) sent when one completes, the trace's
    // timestamps ignored; 0: open loop at the trace's timestamps. Timed runs only.
    int concurrency = 0;
    double rampUpS = 0;                // closed loop: the users' first requests spread over this; a
                                       // user whose reply comes before the ramp ends sends its next then
    uint64_t seed = 1;
    std::optional<StepCostModel> stepModel; // step times; none: cache-only simulation
    std::optional<StepTimeTable> stepTable;   // measured step times; wins over stepModel
    int gpusPerReplica = 1;            // for GPU-seconds
    int64_t tokenBudget = 8192;        // tokens per iteration (max_num_batched_tokens)
    int maxBatch = 1024;               // running requests per replica (max_num_seqs)
    bool chunkedPrefill = true;
    double requestOverheadMs = 0;      // fixed time per request added to TTFT and E2E
    std::optional<double> ttftSloMs;   // both SLOs or neither
    std::optional<double> itlSloMs;
    int timeSamples = 200;             // points of the in-flight and KV-use series
    bool keepLatencies = false;        // return every completed request's TTFT and E2E (timed runs)
};

// Range checks: InputError naming "replicas", "kv_blocks", "block_size", "temperature",
// "overlap_weight", "time_scale", "token_budget", "max_batch", "ttft_slo_ms", "itl_slo_ms",
// "tp", "time_samples", "concurrency"; a step-time table as validate(StepTimeTable) ("step_times").
void validate(const ServingSimConfig &config);

struct LatencyPercentiles {
    double p50 = 0;
    double p95 = 0;
    double p99 = 0;
};

struct ReplicaServingLoad {
    int64_t requests = 0;              // routed here (rejected excluded)
    int64_t promptBlocks = 0;
    int64_t hitBlocks = 0;
    double hitRateBlocks = 0;
    int64_t preemptions = 0;
    double busySeconds = 0;            // time spent running iterations
};

struct ServingSimResult {
    bool timed = false;                // step times simulated (a step model was given)
    StepModelKind stepModel = StepModelKind::None; // which one: the table wins over the roofline
    int64_t requests = 0;              // in the trace
    int64_t completed = 0;
    int64_t rejected = 0;              // larger than one replica's pool
    int64_t promptBlocks = 0;          // of completed requests, at blockSize
    int64_t hitBlocks = 0;
    int64_t promptTokens = 0;
    int64_t hitTokens = 0;             // min(hit blocks × b, prompt) per request
    double hitRateBlocks = 0;
    double hitRateTokens = 0;
    LatencyPercentiles ttftMs;         // timed only
    LatencyPercentiles itlMs;
    LatencyPercentiles e2eMs;
    LatencyPercentiles queueWaitMs;
    double meanE2eS = 0;
    double meanTtftMs = 0;             // timed only: means over requests, as benchmarks report
    double meanItlMs = 0;
    double outputTokensPerS = 0;       // generated tokens ÷ makespan
    double firstArrivalS = 0;
    double lastCompletionS = 0;        // makespan = lastCompletionS − firstArrivalS
    double throughputPerS = 0;         // completed ÷ makespan
    double meanInFlight = 0;           // time average over the makespan, all replicas
    int64_t preemptions = 0;
    std::vector<ReplicaServingLoad> perReplica;
    double loadMaxOverMean = 0;        // requests per replica: max ÷ mean (1 = even)
    std::optional<double> sloAttainment; // share of completed requests within both SLOs
    double goodputPerS = 0;            // requests within SLO ÷ makespan
    double gpuSeconds = 0;             // replicas × GPUs per replica × makespan
    // Series sampled at sampleTimesS (timeSamples points over the makespan), per replica:
    // requests in flight (waiting + running) and the share of the pool held by requests.
    std::vector<double> sampleTimesS;
    std::vector<std::vector<int>> inFlight;    // [replica][sample]
    std::vector<std::vector<double>> kvUsed;   // [replica][sample], 0..1
    // With keepLatencies: each completed request's TTFT and E2E in seconds, in completion order.
    std::vector<double> ttftEachS;
    std::vector<double> e2eEachS;
};

// Runs one simulation. Throws InputError for invalid settings (validate()), "trace" for an
// empty trace, "timestamp" for non-finite or decreasing timestamps (naming the request),
// "prompt_tokens" / "output_tokens" for negative counts.
ServingSimResult simulateServing(const std::vector<TraceRequest> &trace, const ServingSimConfig &config);

// Runs one simulation per configuration on up to `threads` threads; results in input order.
std::vector<ServingSimResult> simulateServingMany(const std::vector<TraceRequest> &trace,
                                                  const std::vector<ServingSimConfig> &configs,
                                                  unsigned threads = 2);

// The fewest replicas in [1, maxReplicas] whose SLO attainment reaches `target`, by bisection
// (attainment is taken as non-decreasing in replicas); nullopt when maxReplicas misses it.
// Needs a step model and both SLOs (InputError "ttft_slo_ms" / "model" otherwise).
std::optional<int> findReplicas(const std::vector<TraceRequest> &trace, const ServingSimConfig &config,
                                double target, int maxReplicas = 256);

// The replica as the workspace's serving assumptions describe it: its step-cost model (unless a
// step-time table is set), its scheduler — tokenBudget and maxBatch from max_num_batched_tokens
// and max_num_seqs (vLLM's defaults for the GPU where unset), chunked prefill, prefix caching —
// and the per-request overhead.
void applyServingAssumptions(ServingSimConfig &config, const ServingAssumptions &assumptions, const ModelSpec &model,
                             const GpuSpec &gpu, WeightPrecision weights, const KvResult &kv, int tp);

// KV blocks of one replica from the kv engine: analyseKv(in).blocks (a block spans every TP
// rank). InputError "memory" when the weights leave no pool.
int64_t kvBlocksPerReplica(const KvInputs &in);

// Prefix-block hashes for a trace without them (Azure), from a workload's shared prefix and
// prefix hit rate: block i of a prompt of n tokens (blocks of traceBlockSize) gets
//   – the fleet-wide system-prompt hash S(i) when the block lies within the first
//     min(sharedPrefixTokens, n) tokens,
//   – else the reusable-context hash C(i) when it lies within the first floor(hitRate × n)
//     tokens (context every request shares with earlier ones, as multi-turn history does),
//   – else a hash unique to the request.
// With an infinite cache the block hit rate then approaches max(prefix, hitRate × n) ÷ n,
// block-rounded. Requests that already have hashes are left unchanged.
std::vector<TraceRequest> withGeneratedHashes(std::vector<TraceRequest> trace, int64_t sharedPrefixTokens,
                                              double hitRate, int traceBlockSize = kTraceBlockTokens);

} // namespace headroom::engine
