#include "inference_sizing.h"
#include "inference_sizing_steps.h"

#include "engine/common/errors.h"
#include "engine/common/explain_text.h"
#include "goodput.h"
#include "queueing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace headroom::engine {

namespace {

using explain::bytes;
using explain::ceilCount;
using explain::grouped;
using explain::number;
using explain::percent;
using explain::trimZeros;

constexpr double kSecondsPerDay = 86400.0;

// Parameter counts as "8.03 billion".
std::string params(double count)
{
    return number(count / 1e9) + " billion";
}

void requirePositive(const char *field, double value)
{
    if (!(value > 0 && std::isfinite(value)))
        throw InputError(field, std::string(field) + " must be greater than 0 (got "
                                    + number(value) + ")");
}

// The profile with the what-if overrides applied, validated.
WorkloadProfile effectiveProfile(const WorkloadProfile &workload, const SizingOverrides &overrides)
{
    WorkloadProfile w = workload;
    if (overrides.gpuId)
        w.gpuId = *overrides.gpuId;
    if (overrides.weights)
        w.weights = *overrides.weights;
    if (overrides.kv)
        w.kv = *overrides.kv;
    if (overrides.prefixHitRate)
        w.prefixHitRate = *overrides.prefixHitRate;
    if (overrides.tp)
        w.tp = *overrides.tp;
    const std::vector<FieldProblem> problems = validate(w);
    if (!problems.empty())
        throw InputError(problems.front().field, problems.front().message);
    return w;
}

void requireInputs(const WorkloadProfile &w, const ModelSpec &model, const GpuSpec &gpu,
                   const ServingAssumptions &a)
{
    if (!model.id.empty() && model.id != w.modelId)
        throw InputError("model", "the model given (" + model.id + ") is not the workload's ("
                                      + w.modelId + ")");
    if (!gpu.id.empty() && gpu.id != w.gpuId)
        throw InputError("gpu", "the GPU given (" + gpu.id + ") is not the one to size on ("
                                    + w.gpuId + ")");
    requirePositive("hbm_bandwidth_gbps", gpu.hbmBandwidthGBps);
    requirePositive("bf16_tflops", gpu.bf16Tflops);
    if (!(gpu.fp8Tflops >= 0))
        throw InputError("fp8_tflops", "fp8_tflops must be at least 0 (got " + number(gpu.fp8Tflops) + ")");
    if (!(model.paramsActive >= 0 && model.paramsActive <= model.paramsTotal))
        throw InputError("params_active", "params_active must be between 0 and params_total (got "
                                              + number(model.paramsActive) + ")");
    const std::vector<FieldProblem> problems = validate(a);
    if (!problems.empty())
        throw InputError(problems.front().field, problems.front().message);
}

// Peak hour ÷ mean hour of the diurnal curve (≥ 1).
double peakToMean(const std::array<double, 24> &diurnal)
{
    const double peak = *std::max_element(diurnal.begin(), diurnal.end());
    // Summed relative to the peak (each term ≤ 1): a curve of huge values such as 1e308 would
    // overflow a plain sum to infinity and make the ratio 0.
    double meanShare = 0;
    for (double hour : diurnal)
        meanShare += hour / peak;
    return 24.0 / meanShare;
}

// Adds a step to the breakdown only when steps are wanted: the arguments (formatted numbers)
// are not even built otherwise, which keeps option tables of hundreds of sizings fast.
#define HEADROOM_STEP(...)                                                                         \
    do {                                                                                           \
        if (explainSteps)                                                                          \
            steps.add(__VA_ARGS__);                                                                \
    } while (false)

class Breakdown {
public:
    explicit Breakdown(std::vector<SizingStep> &steps) : m_steps(steps) {}
    void add(std::string title, std::string formula, std::string value)
    {
        m_steps.push_back({std::move(title), std::move(formula), std::move(value)});
    }

private:
    std::vector<SizingStep> &m_steps;
};

void markInfeasible(SizingResult &r, std::string binding, std::string reason)
{
    r.feasible = false;
    r.binding = std::move(binding);
    if (!r.infeasibleReason.empty())
        r.infeasibleReason += " ";
    r.infeasibleReason += std::move(reason);
    r.replicas = 0;
    r.replicasNeeded = 0;
    r.headroomReplicas = 0;
    r.gpus = 0;
}

// "P99", "P99.5": the in-flight quantile as a percentile label.
std::string quantileLabel(double quantile)
{
    char text[32];
    std::snprintf(text, sizeof text, "P%.6g", quantile * 100.0);
    return text;
}

// "1 replica", "35 replicas".
std::string replicasText(int64_t count)
{
    return grouped(count) + (count == 1 ? " replica" : " replicas");
}

// "1 stream", "35 streams".
std::string streamsText(int64_t count)
{
    return grouped(count) + (count == 1 ? " stream" : " streams");
}

} // namespace

StepCostModel stepCostModel(const ModelSpec &model, const GpuSpec &gpu, WeightPrecision weights,
                            const KvResult &kv, int tp, const ServingAssumptions &assumptions)
{
    StepCostModel m;
    m.activeParams = model.paramsActive > 0 ? model.paramsActive : model.paramsTotal;
    if (model.vocabSize > 0) {
        m.headParams = double(model.vocabSize) * double(model.hiddenSize);
        m.embeddingParams = model.tiedEmbeddings ? 0.0 : m.headParams;
    }
    m.layers = model.layers;
    m.slidingLayers = model.slidingLayers;
    m.slidingWindow = model.slidingLayers > 0 ? model.slidingWindow + model.sinkTokens : 0;
    m.chunkedLayers = model.attentionChunk > 0 ? model.layersOf(LayerKind::Chunked) : 0;
    m.attentionChunk = m.chunkedLayers > 0 ? model.attentionChunk : 0;
    m.linearLayers = model.layersOf(LayerKind::Linear);
    m.hiddenSize = model.hiddenSize;
    m.attentionHeads = model.attentionHeads;
    m.headDim = model.headDim;
    m.weightsBytes = kv.weightsBytes;
    if (const double expertParams = model.expertParams(); expertParams > 0 && model.paramsTotal > 0) {
        m.expertWeightShare = std::min(expertParams / model.paramsTotal, 1.0);
        m.experts = model.experts;
        m.expertsPerToken = model.expertsPerToken;
    }
    m.kvPerToken = kv.perToken;
    m.tp = tp;
    m.hbmBandwidthGBps = gpu.hbmBandwidthGBps;
    m.tflops = computeTflops(gpu, weights);
    m.attentionTflops = gpu.bf16Tflops;
    m.linkGBps = gpu.nvlinkGBps > 0 ? gpu.nvlinkGBps / 2.0 : gpu.pcieGBps;
    const GpuEfficiency *profile = gpu.profileFor(model.id, tp, weights);
    m.measuredProfile = profile != nullptr;
    m.efficiency = profile ? *profile
                           : fallbackEfficiency(assumptions.prefillEfficiency, assumptions.decodeBandwidthEfficiency,
                                                assumptions.decodeComputeEfficiency);
    // FP8 weights run FP8 matmuls: the profile's FP8 pair where it has one. The model carries only
    // the pair in force (a calibration of it fits and saves that pair).
    if (weights == WeightPrecision::Fp8 && gpu.fp8Tflops > 0 && m.efficiency.matmulPeakFp8 > 0) {
        m.efficiency.matmulPeak = m.efficiency.matmulPeakFp8;
        m.efficiency.matmulHalfTokens = m.efficiency.matmulHalfTokensFp8;
    }
    m.efficiency.matmulPeakFp8 = 0;
    m.efficiency.matmulHalfTokensFp8 = 0;
    return m;
}

SchedulerLimits schedulerLimits(const ServingAssumptions &assumptions, const GpuSpec &gpu)
{
    SchedulerLimits limits = vllmSchedulerDefaults(gpu);
    if (assumptions.maxNumBatchedTokens > 0)
        limits.maxNumBatchedTokens = assumptions.maxNumBatchedTokens;
    if (assumptions.maxNumSeqs > 0)
        limits.maxNumSeqs = assumptions.maxNumSeqs;
    return limits;
}

RuntimeReserve runtimeReserve(const ServingAssumptions &assumptions, const ModelSpec &model, const GpuSpec &gpu,
                              int tp)
{
    RuntimeReserve r;
    for (const ReserveOverride &o : assumptions.reserveOverrides) {
        if (o.modelId == model.id && o.gpuId == gpu.id && o.tp == tp) {
            r.bytes = o.reserveBytes;
            r.measured = o;
            return r;
        }
    }
    if (assumptions.reserveMode == ReserveMode::Flat) {
        r.bytes = assumptions.reserveBytes;
        return r;
    }
    r.profile = vllmRuntimeMemory(model, tp, schedulerLimits(assumptions, gpu));
    r.bytes = r.profile->reserveBytes();
    return r;
}

ServingAssumptions withReserveOverride(ServingAssumptions assumptions, const ReserveOverride &override)
{
    auto &list = assumptions.reserveOverrides;
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const ReserveOverride &o) {
                                  return o.modelId == override.modelId && o.gpuId == override.gpuId && o.tp == override.tp;
                              }),
               list.end());
    list.push_back(override);
    return assumptions;
}

int64_t runtimeReserveBytes(const ServingAssumptions &assumptions, const ModelSpec &model, const GpuSpec &gpu,
                            int tp)
{
    return runtimeReserve(assumptions, model, gpu, tp).bytes;
}

std::string_view toString(KvResidency residency)
{
    return residency == KvResidency::Session ? "session" : "request";
}

std::optional<KvResidency> parseKvResidency(std::string_view text)
{
    if (text == "request")
        return KvResidency::Request;
    if (text == "session")
        return KvResidency::Session;
    return std::nullopt;
}

namespace {

SizingResult sizeWithSteps(const WorkloadProfile &workload, const ModelSpec &model, const GpuSpec &gpu,
                           const SizingOverrides &overrides, const ServingAssumptions &assumptions,
                           bool explainSteps)
{
    const WorkloadProfile w = effectiveProfile(workload, overrides);
    requireInputs(w, model, gpu, assumptions);

    SizingResult r;
    Breakdown steps(r.steps);
    const int tp = w.tp;
    const double hit = assumptions.prefixCaching ? w.prefixHitRate : 0.0;
    r.gpusPerReplica = tp;

    // A measurement belongs to the GPU, precisions and TP it was taken on.
    const bool measuredHere = w.gpuId == workload.gpuId && w.weights == workload.weights
        && w.kv == workload.kv && w.tp == workload.tp;
    const bool hasMeasuredGoodput = measuredHere && workload.measuredGoodputTokensPerS.has_value();
    const bool hasMeasuredStreams = measuredHere && workload.measuredMaxStreams.has_value();
    const double measuredGoodput = workload.measuredGoodputTokensPerS.value_or(0);
    const int64_t measuredStreams = workload.measuredMaxStreams.value_or(0);

    // --- Demand at peak (DESIGN §3.2).
    const bool sessionResidency = assumptions.residency == KvResidency::Session;
    r.residency = assumptions.residency;
    r.inFlightQuantile = assumptions.inFlightQuantile;
    r.sessionsResident = ceilCount(w.dailyActiveUsers * w.peakSessionsPerUser);
    const std::string sessionsText = number(w.dailyActiveUsers) + " × " + number(w.peakSessionsPerUser)
        + " = " + grouped(r.sessionsResident);
    if (sessionResidency) {
        r.peakStreams = r.sessionsResident;
        HEADROOM_STEP("Peak concurrent streams", "DAU × peak sessions per user (session residency)",
                  sessionsText + (r.sessionsResident == 1 ? " stream" : " streams"));
    }

    const double diurnalPeak = peakToMean(w.diurnal);
    r.peakRequestsPerS = w.dailyActiveUsers * w.requestsPerUserPerDay / kSecondsPerDay * diurnalPeak;
    HEADROOM_STEP("Peak request rate",
              "DAU × requests per user per day ÷ 86,400 s × peak hour ÷ mean hour",
              number(w.dailyActiveUsers) + " × " + number(w.requestsPerUserPerDay)
                  + " ÷ 86,400 × " + number(diurnalPeak) + " = " + number(r.peakRequestsPerS)
                  + " requests/s");

    // Throughput is set by the typical request, so the P50 lengths size the token rates; the
    // P95 lengths size memory and latency below, and the P95/mean traffic buffer covers
    // bursts. (A mean would need a distribution assumption the profile does not make.)
    r.prefillTokensPerS = r.peakRequestsPerS * w.promptTokens.p50 * (1.0 - hit);
    HEADROOM_STEP("Prefill demand at peak", "peak request rate × P50 prompt × (1 − prefix hit rate)",
              number(r.peakRequestsPerS) + " × " + number(w.promptTokens.p50) + " × (1 − "
                  + percent(hit) + ") = " + number(r.prefillTokensPerS) + " tokens/s");
    r.decodeTokensPerS = r.peakRequestsPerS * w.outputTokens.p50;
    HEADROOM_STEP("Decode demand at peak", "peak request rate × P50 output",
              number(r.peakRequestsPerS) + " × " + number(w.outputTokens.p50) + " = "
                  + number(r.decodeTokensPerS) + " tokens/s");
    r.sessionPrefillSavedTokensPerS = r.prefillTokensPerS;

    // --- Memory side (DESIGN §3.1): streams whose resident KV fits one replica.
    r.contextTokens = ceilCount(w.promptTokens.p95 + w.outputTokens.p95);
    KvInputs kvIn;
    kvIn.model = model;
    kvIn.gpuMemoryBytes = gpu.memoryBytes;
    kvIn.weights = w.weights;
    kvIn.kv = w.kv;
    kvIn.utilization = assumptions.memoryUtilization;
    kvIn.tp = tp;
    kvIn.blockSize = assumptions.blockSize;
    const RuntimeReserve reserve = runtimeReserve(assumptions, model, gpu, tp);
    kvIn.reserveBytes = reserve.bytes;
    kvIn.sharedPrefixTokens = w.sharedPrefixTokens;
    kvIn.contexts = {r.contextTokens};
    const KvResult kv = analyseKv(kvIn);
    const StreamsAt &atContext = kv.streams.front();
    r.weightsBytesPerGpu = kv.weightsBytes;
    r.kvPoolBytes = kv.poolBytes;

    HEADROOM_STEP("Weights per GPU", "params × bytes per parameter ÷ TP",
              params(model.paramsTotal) + " × " + number(bytesPerParam(w.weights)) + " B ("
                  + std::string(toString(w.weights)) + ") ÷ " + std::to_string(tp) + " = "
                  + bytes(double(kv.weightsBytes)));
    if (reserve.profile)
        HEADROOM_STEP("KV pool per GPU",
                      "GPU memory × utilization − weights − activation peak − non-torch memory (vLLM's profile)",
                      bytes(double(gpu.memoryBytes)) + " × " + number(assumptions.memoryUtilization) + " − "
                          + bytes(double(kv.weightsBytes)) + " − " + bytes(double(reserve.profile->activationPeakBytes))
                          + " (" + grouped(reserve.profile->maxBatchedTokens) + " tokens, "
                          + grouped(reserve.profile->maxSeqs) + " sequences) − "
                          + bytes(double(reserve.profile->nonTorchBytes)) + " = " + bytes(double(kv.poolBytes)));
    else
        HEADROOM_STEP("KV pool per GPU",
                      reserve.measured ? "GPU memory × utilization − weights − reserve measured for this deployment ("
                              + reserve.measured->source + ")"
                                       : std::string("GPU memory × utilization − weights − reserve"),
                      bytes(double(gpu.memoryBytes)) + " × " + number(assumptions.memoryUtilization) + " − "
                          + bytes(double(kv.weightsBytes)) + " − " + bytes(double(reserve.bytes)) + " = "
                          + bytes(double(kv.poolBytes)));
    std::string perStream = "(" + number(w.promptTokens.p95) + " + " + number(w.outputTokens.p95)
        + ") tokens × " + bytes(double(kv.kvBytesPerToken)) + "/token ("
        + std::string(toString(w.kv)) + ") = " + bytes(double(atContext.bytesPerStream));
    if (w.sharedPrefixTokens > 0)
        perStream += ", with the " + grouped(w.sharedPrefixTokens) + "-token shared prefix ("
            + bytes(double(kv.prefixBytes)) + ") held once";
    HEADROOM_STEP("KV per stream", "(P95 prompt + P95 output) × KV bytes per token per GPU, block-rounded",
              perStream);

    // The replica's step-cost model (one forward pass per iteration) and its scheduler.
    const StepCostModel stepModel = stepCostModel(model, gpu, w.weights, kv, tp, assumptions);
    const SchedulerLimits limits = schedulerLimits(assumptions, gpu);
    const double chunk = assumptions.chunkedPrefill ? double(limits.maxNumBatchedTokens) : 0.0;
    // A profile `headroom calibrate --save` wrote says so, with what it was fitted on.
    const bool calibrated = stepModel.efficiency.source.rfind("calibrated", 0) == 0;
    const std::string profileText = stepModel.measuredProfile
        ? gpu.name + (calibrated ? "'s calibrated profile (η_bw " : "'s measured profile (η_bw ")
            + number(stepModel.efficiency.bandwidth) + ", η_mm up to " + number(stepModel.efficiency.matmulPeak) + ", "
            + number(stepModel.efficiency.iterationOverheadMs) + " ms per pass, "
            + number(stepModel.efficiency.sequenceOverheadUs) + " µs per sequence"
            + (calibrated ? "; " + stepModel.efficiency.source + ")" : ")")
        : "the workspace's efficiencies (no measured profile for " + gpu.name + ")";


    // --- Requests in flight (Little's law), at a given decode batch per replica.
    const double meanContext = w.promptTokens.p50 + w.outputTokens.p50;
    r.prefillTimeP50Ms = assumptions.requestOverheadMs
        + prefillSeconds(stepModel, w.promptTokens.p50 * (1.0 - hit), chunk) * 1000.0;
    const auto inFlightAt = [&](int64_t batch) {
        r.operatingBatch = batch;
        r.operatingStepMs = decodeStepSeconds(stepModel, batch, meanContext) * 1000.0;
        r.timeInSystemMs = assumptions.queueingAllowanceMs + r.prefillTimeP50Ms
            + w.outputTokens.p50 * r.operatingStepMs;
        r.inFlightMean = littleInSystem(r.peakRequestsPerS, r.timeInSystemMs / 1000.0);
        r.inFlightQuantileCount = poissonQuantile(r.inFlightMean, assumptions.inFlightQuantile);
        if (!sessionResidency)
            r.peakStreams = r.inFlightQuantileCount;
    };
    inFlightAt(1);

    const int64_t estimatedStreams = kv.fits ? atContext.streams : 0;
    r.streamsPerReplica = hasMeasuredStreams ? measuredStreams : estimatedStreams;
    if (hasMeasuredStreams) {
        HEADROOM_STEP("Streams per replica", "measured maximum streams (wins over the estimate)",
                  streamsText(measuredStreams) + " measured (estimate "
                      + grouped(estimatedStreams) + ")");
    } else {
        HEADROOM_STEP("Streams per replica", "floor((KV pool − shared prefix) ÷ KV per stream)",
                  "floor((" + bytes(double(kv.poolBytes)) + " − " + bytes(double(kv.prefixBytes))
                      + ") ÷ " + bytes(double(atContext.bytesPerStream)) + ") = "
                      + streamsText(estimatedStreams));
    }

    const std::string qLabel = quantileLabel(assumptions.inFlightQuantile);
    // W, L and the quantile, then the memory replicas under both residency models.
    const auto explainResidency = [&](bool withReplicas) {
        HEADROOM_STEP("Time in system",
                  "W = queueing allowance + prefill of the P50 prompt + P50 output × decode step",
                  number(assumptions.queueingAllowanceMs) + " ms + " + number(r.prefillTimeP50Ms) + " ms + "
                      + number(w.outputTokens.p50) + " × " + number(r.operatingStepMs) + " ms (batch "
                      + grouped(r.operatingBatch) + " at " + number(meanContext) + " tokens) = "
                      + number(r.timeInSystemMs) + " ms");
        HEADROOM_STEP("Requests in flight (Little's law)", "L = peak request rate × W",
                  number(r.peakRequestsPerS) + "/s × " + number(r.timeInSystemMs / 1000.0) + " s = "
                      + number(r.inFlightMean) + " requests");
        HEADROOM_STEP("In-flight " + qLabel,
                  "quantile of Poisson(L): a busy hour's arrivals are close to Poisson, so the number in "
                  "an M/G/∞ system is Poisson(L)",
                  qLabel + " of Poisson(" + number(r.inFlightMean) + ") = "
                      + grouped(r.inFlightQuantileCount) + " requests");
        if (withReplicas) {
            HEADROOM_STEP("Fixed point of W, batch and replicas",
                      "W depends on the decode batch, the batch (L ÷ replicas) on the replicas, the "
                      "replicas on L: iterated from batch 1",
                      r.fixedPointConverged
                          ? "settled after " + std::to_string(r.fixedPointIterations) + " rounds at batch "
                                + grouped(r.operatingBatch) + " per replica"
                          : "did not settle in " + std::to_string(r.fixedPointIterations)
                                + " rounds; the largest batch seen, " + grouped(r.operatingBatch)
                                + ", was kept");
        }
        if (!sessionResidency)
            HEADROOM_STEP("Peak concurrent streams", "in-flight " + qLabel + " (request residency)",
                      streamsText(r.peakStreams) + ", each holding P95 prompt + P95 output");
        HEADROOM_STEP(sessionResidency ? "Sessions held resident" : "Sessions (if held resident)",
                  "DAU × peak sessions per user", sessionsText + (r.sessionsResident == 1 ? " session" : " sessions"));
        if (!withReplicas)
            return;
        HEADROOM_STEP("Replicas for memory",
                  sessionResidency ? "ceil(peak streams ÷ streams per replica), sessions held resident"
                                   : "ceil(peak streams ÷ streams per replica), requests in flight",
                  "ceil(" + grouped(r.peakStreams) + " ÷ " + grouped(r.streamsPerReplica) + ") = "
                      + grouped(r.replicasMemory));
        HEADROOM_STEP("Residency models side by side",
                  "request: in-flight " + qLabel + " holds KV; session: every open session holds KV",
                  std::string(sessionResidency ? "session (used)" : "session") + ": "
                      + streamsText(r.sessionsResident) + " → " + replicasText(r.replicasMemorySession)
                      + " for memory; " + (sessionResidency ? "request" : "request (used)") + ": "
                      + streamsText(r.inFlightQuantileCount) + " → " + replicasText(r.replicasMemoryRequest)
                      + " for memory; session residency saves up to "
                      + number(r.sessionPrefillSavedTokensPerS) + " prefill tokens/s of re-prefill");
        if (double(r.sessionsResident) > 3.0 * double(r.inFlightQuantileCount)) {
            r.residencyWarning = grouped(r.sessionsResident) + " sessions held resident need "
                + replicasText(r.replicasMemorySession) + "; " + number(r.inFlightMean)
                + " requests in flight (" + qLabel + " " + grouped(r.inFlightQuantileCount) + ") need "
                + grouped(r.replicasMemoryRequest) + " — choose the residency model";
            HEADROOM_STEP("Residency warning", "sessions above 3 × the in-flight " + qLabel, r.residencyWarning);
        }
    };
    const auto setMemoryReplicas = [&] {
        r.replicasMemorySession = ceilCount(double(r.sessionsResident) / double(r.streamsPerReplica));
        r.replicasMemoryRequest = ceilCount(double(r.inFlightQuantileCount) / double(r.streamsPerReplica));
        r.replicasMemory = sessionResidency ? r.replicasMemorySession : r.replicasMemoryRequest;
    };

    if (r.streamsPerReplica < 1) {
        explainResidency(false);
        if (!kv.fits)
            markInfeasible(r, "memory",
                           "The weights (" + bytes(double(kv.weightsBytes)) + " per GPU at TP "
                               + std::to_string(tp) + ") and the " + bytes(double(reserve.bytes))
                               + " reserve do not fit the " + bytes(double(kv.usableBytes))
                               + " usable on " + gpu.name + ": short by "
                               + bytes(double(kv.shortfallBytes)) + ".");
        else
            markInfeasible(r, "memory",
                           "One stream of " + grouped(r.contextTokens) + " tokens needs "
                               + bytes(double(atContext.bytesPerStream)) + " of KV; the pool holds "
                               + bytes(double(kv.poolBytes - kv.prefixBytes)) + ".");
        return r;
    }
    setMemoryReplicas();

    // --- Compute side: the step-cost model, one forward pass per iteration.
    const double itlS = w.itlP95Ms / 1000.0;
    const double uncachedP95 = w.promptTokens.p95 * (1.0 - hit);
    r.prefillTimeMs = assumptions.requestOverheadMs + prefillSeconds(stepModel, uncachedP95, chunk) * 1000.0;
    const bool ttftMet = r.prefillTimeMs <= w.ttftP95Ms;
    const StepCost firstPass = stepCost(stepModel, prefillStep(stepModel, chunk > 0 ? std::min(chunk, uncachedP95) : uncachedP95));
    HEADROOM_STEP("Prefill time of a P95 prompt",
              "request overhead + passes of at most max_num_batched_tokens: overhead + max(weights ÷ (HBM × η_bw), "
              "2 × N × tokens ÷ (TP × peak × η_mm)) + attention + all-reduces",
              number(assumptions.requestOverheadMs) + " ms + " + number(uncachedP95) + " uncached tokens ("
                  + number(w.promptTokens.p95) + " × (1 − " + percent(hit) + ")) in "
                  + (chunk > 0 ? "chunks of " + number(chunk) : std::string("one pass")) + " (first pass "
                  + number(firstPass.totalS * 1000.0) + " ms: linear " + number(firstPass.linearS * 1000.0)
                  + " ms at η_mm " + number(firstPass.matmulEfficiency) + ", attention "
                  + number(firstPass.attentionS * 1000.0) + " ms, all-reduce " + number(firstPass.allReduceS * 1000.0)
                  + " ms) = " + number(r.prefillTimeMs) + " ms " + (ttftMet ? "≤ " : "> ") + number(w.ttftP95Ms)
                  + " ms TTFT SLO; " + profileText);
    const double prefillChunk = chunk > 0 ? chunk : std::max(w.promptTokens.p50 * (1.0 - hit), 1.0);
    r.prefillCapacityTokensPerS = prefillTokensPerSecond(stepModel, prefillChunk, w.promptTokens.p50 * (1.0 - hit));
    HEADROOM_STEP("Prefill throughput per replica", "chunk ÷ time of a pass of that chunk",
              number(prefillChunk) + " tokens ÷ "
                  + number(prefillChunk / r.prefillCapacityTokensPerS * 1000.0) + " ms = "
                  + number(r.prefillCapacityTokensPerS) + " tokens/s");

    // ITL is a P95 target, so the decode step is timed with every stream at the P95 context. In
    // an aggregated replica the prompts' tokens ride in the same passes (chunked prefill): each
    // decode brings prefill demand ÷ decode demand prompt tokens along.
    const bool riding = !overrides.disaggregate && r.decodeTokensPerS > 0;
    const double prefillPerDecode = riding ? r.prefillTokensPerS / r.decodeTokensPerS : 0.0;
    const double pairsPerToken = w.promptTokens.p50 * (1.0 + hit) / 2.0;
    int64_t batchCap = std::min<int64_t>(r.streamsPerReplica, limits.maxNumSeqs);
    if (chunk > 0)
        batchCap = std::min<int64_t>(batchCap, int64_t(std::floor(chunk / (1.0 + prefillPerDecode))));
    const DecodeGoodput decode =
        decodeGoodput(stepModel, std::max<int64_t>(batchCap, 1), double(r.contextTokens), itlS, prefillPerDecode, pairsPerToken);
    r.decodeBatch = decode.batch;
    r.decodeStepMs = decode.stepSeconds * 1000.0;
    const int64_t shownBatch = std::max<int64_t>(decode.batch, 1);
    const StepCost &pass = decode.cost;
    HEADROOM_STEP("Decode step",
              "one pass: overhead + max(weights ÷ (HBM × η_bw), 2 × N × tokens ÷ (TP × peak × η_mm)) + KV read ÷ "
              "(HBM × η_kv) + prefill attention + 2 all-reduces per layer",
              "batch " + grouped(shownBatch) + " of " + grouped(r.streamsPerReplica) + " at "
                  + grouped(r.contextTokens) + " tokens"
                  + (riding ? " with " + number(prefillPerDecode * double(shownBatch)) + " prompt tokens riding" : std::string())
                  + " on " + number(gpu.hbmBandwidthGBps) + " GB/s: " + number(pass.overheadS * 1000.0)
                  + " ms overhead + max(" + number(pass.weightsS * 1000.0) + " ms weights, "
                  + number(pass.linearComputeS * 1000.0) + " ms compute) + " + number(pass.kvReadS * 1000.0)
                  + " ms KV + " + number(pass.attentionS * 1000.0) + " ms attention + "
                  + number(pass.allReduceS * 1000.0) + " ms all-reduce = " + number(r.decodeStepMs) + " ms "
                  + (decode.batch > 0 ? "≤ " : "> ") + number(w.itlP95Ms) + " ms ITL SLO"
                  + (decode.batch > 0 ? (decode.memoryBound ? " (bandwidth-bound)" : " (compute-bound)")
                                      : ""));

    // Measured goodput is taken at SLO under the real request mix, so it already includes
    // prefill interference and vouches for both latency targets.
    const double buffer = w.trafficVariance;
    double computeNeed = 0;
    double decodeComputeNeed = 0;
    if (hasMeasuredGoodput) {
        const bool simulated = !workload.goodputSource.empty();
        r.goodputSource = simulated ? "simulated" : "measured";
        r.goodputTokensPerS = measuredGoodput;
        HEADROOM_STEP("Goodput per replica",
                  simulated ? "simulated tokens/s at SLO (" + workload.goodputSource + "; wins over the estimate)"
                            : std::string("measured tokens/s at SLO (wins over the estimate)"),
                  number(r.goodputTokensPerS) + " tokens/s " + r.goodputSource + " (estimate "
                      + number(decode.tokensPerSecond) + ")");
        decodeComputeNeed = buffer * r.decodeTokensPerS / r.goodputTokensPerS;
        computeNeed = decodeComputeNeed;
        r.replicasCompute = ceilCount(computeNeed);
        HEADROOM_STEP("Replicas for compute",
                  "ceil(traffic P95/mean × decode demand ÷ " + r.goodputSource + " goodput)",
                  "ceil(" + number(buffer) + " × " + number(r.decodeTokensPerS) + " ÷ "
                      + number(r.goodputTokensPerS) + ") = " + grouped(r.replicasCompute));
    } else {
        r.goodputSource = "estimated";
        if (!ttftMet)
            markInfeasible(r, "ttft",
                           "The " + number(w.ttftP95Ms) + " ms TTFT SLO cannot be met: prefilling a P95 prompt of "
                               + number(uncachedP95) + " uncached tokens takes " + number(r.prefillTimeMs)
                               + " ms on one replica (best achievable TTFT " + number(r.prefillTimeMs)
                               + " ms).");
        if (decode.batch < 1)
            markInfeasible(r, ttftMet ? "itl" : "ttft",
                           "The " + number(w.itlP95Ms) + " ms ITL SLO cannot be met even at batch 1: best achievable "
                               + number(decode.bestStepSeconds * 1000.0) + " ms per token at "
                               + grouped(r.contextTokens) + " tokens.");
        if (!r.feasible) {
            explainResidency(false);
            return r;
        }
        r.goodputTokensPerS = decode.tokensPerSecond;
        HEADROOM_STEP("Goodput per replica", "decode batch ÷ decode step",
                  grouped(decode.batch) + " ÷ " + number(r.decodeStepMs) + " ms = "
                      + number(r.goodputTokensPerS) + " tokens/s (estimated)");
        decodeComputeNeed = buffer * r.decodeTokensPerS / r.goodputTokensPerS;
        computeNeed = decodeComputeNeed;
        r.replicasCompute = ceilCount(computeNeed);
        if (overrides.disaggregate) {
            HEADROOM_STEP("Replicas for compute (decode pool)",
                      "ceil(traffic P95/mean × decode demand ÷ goodput)",
                      "ceil(" + number(buffer) + " × " + number(r.decodeTokensPerS) + " ÷ "
                          + number(r.goodputTokensPerS) + ") = " + grouped(r.replicasCompute));
        } else {
            HEADROOM_STEP("Replicas for compute",
                      "ceil(traffic P95/mean × decode demand ÷ goodput), the prefill riding in the same passes",
                      "ceil(" + number(buffer) + " × " + number(r.decodeTokensPerS) + " ÷ "
                          + number(r.goodputTokensPerS) + ") = " + grouped(r.replicasCompute));
        }
    }

    // --- Requests in flight: W depends on the decode batch per replica, the batch on the
    // replicas and the replicas (memory side) on the in-flight quantile, so iterate from batch 1
    // until the batch repeats. Each replica carries L ÷ replicas requests on average.
    {
        constexpr int kMaxRounds = 64;
        std::vector<int64_t> seen;
        int64_t batch = 1;
        r.fixedPointConverged = false;
        for (int round = 1; round <= kMaxRounds; ++round) {
            inFlightAt(batch);
            seen.push_back(batch);
            r.fixedPointIterations = round;
            setMemoryReplicas();
            const int64_t replicasForBatch =
                std::max<int64_t>({r.replicasMemoryRequest, r.replicasCompute, 1});
            const int64_t next = std::clamp<int64_t>(ceilCount(r.inFlightMean / double(replicasForBatch)), 1,
                                                     r.streamsPerReplica);
            if (next == batch) {
                r.fixedPointConverged = true;
                break;
            }
            if (std::find(seen.begin(), seen.end(), next) != seen.end())
                break; // a cycle: keep the largest batch seen (the longest W)
            batch = next;
        }
        if (!r.fixedPointConverged) {
            inFlightAt(*std::max_element(seen.begin(), seen.end()));
            setMemoryReplicas();
        }
    }
    explainResidency(true);

    // --- Binding constraint and the planned headroom.
    const double memoryNeed = double(r.peakStreams) / double(r.streamsPerReplica);
    const bool memoryBinds = r.replicasMemory != r.replicasCompute
        ? r.replicasMemory > r.replicasCompute
        : memoryNeed >= computeNeed;
    r.binding = memoryBinds ? "memory" : "compute";
    r.replicasNeeded = std::max(r.replicasMemory, r.replicasCompute);
    HEADROOM_STEP("Binding constraint", "the larger of the memory and compute replicas",
              r.binding + ": " + replicasText(r.replicasMemory) + " for memory, "
                  + grouped(r.replicasCompute) + " for compute");

    // Inference runs below peak utilization by design (DESIGN §3.2): the headroom is added
    // on top of the binding requirement and reported as its own quantity.
    const double growth = 1.0 + assumptions.plannedHeadroom;
    const int64_t decodeReplicas = std::max<int64_t>(1, ceilCount(double(r.replicasNeeded) * growth));
    const double averageShare = 1.0 / diurnalPeak;
    const double bindingNeed = std::max(memoryNeed, computeNeed);

    if (overrides.disaggregate) {
        const double prefillNeed = buffer * r.prefillTokensPerS / r.prefillCapacityTokensPerS;
        const int64_t prefillReplicas = std::max<int64_t>(1, ceilCount(ceilCount(prefillNeed) * growth));
        r.prefillGpus = prefillReplicas * tp;
        r.decodeGpus = decodeReplicas * tp;
        r.replicasNeeded = std::max<int64_t>(ceilCount(prefillNeed), 1) + r.replicasNeeded;
        r.replicas = prefillReplicas + decodeReplicas;
        r.headroomReplicas = r.replicas - r.replicasNeeded;
        r.gpus = *r.prefillGpus + *r.decodeGpus;
        HEADROOM_STEP("Prefill pool",
                  "ceil(ceil(traffic P95/mean × prefill demand ÷ prefill throughput) × (1 + "
                  "planned headroom)) × TP",
                  "ceil(ceil(" + number(buffer) + " × " + number(r.prefillTokensPerS) + " ÷ "
                      + number(r.prefillCapacityTokensPerS) + ") × " + number(growth) + ") × "
                      + std::to_string(tp) + " = " + grouped(*r.prefillGpus) + " GPUs");
        HEADROOM_STEP("Decode pool", "ceil(max(memory, compute) × (1 + planned headroom)) × TP",
                  "ceil(" + grouped(std::max(r.replicasMemory, r.replicasCompute)) + " × "
                      + number(growth) + ") × " + std::to_string(tp) + " = "
                      + grouped(*r.decodeGpus) + " GPUs");
        HEADROOM_STEP("GPUs", "prefill pool + decode pool",
                  grouped(*r.prefillGpus) + " + " + grouped(*r.decodeGpus) + " = "
                      + grouped(r.gpus) + " GPUs");
        r.peakUtilization = (prefillNeed + bindingNeed) / double(r.replicas);
    } else {
        r.replicas = decodeReplicas;
        r.headroomReplicas = r.replicas - r.replicasNeeded;
        r.gpus = r.replicas * tp;
        HEADROOM_STEP("Replicas", "ceil(max(memory, compute) × (1 + planned headroom))",
                  "ceil(" + grouped(r.replicasNeeded) + " × " + number(growth) + ") = "
                      + grouped(r.replicas) + " (" + grouped(r.headroomReplicas)
                      + " kept free at peak by design)");
        HEADROOM_STEP("GPUs", "replicas × TP",
                  grouped(r.replicas) + " × " + std::to_string(tp) + " = " + grouped(r.gpus)
                      + " GPUs");
        r.peakUtilization = bindingNeed / double(r.replicas);
    }
    r.averageUtilization = r.peakUtilization * averageShare;
    HEADROOM_STEP("Utilization",
              "peak: binding demand ÷ replicas; average: peak × mean hour ÷ peak hour",
              "peak " + percent(r.peakUtilization) + ", average " + percent(r.averageUtilization)
                  + " (planned headroom " + percent(assumptions.plannedHeadroom) + ")");
    return r;
}

} // namespace

SizingResult sizeInference(const WorkloadProfile &workload, const ModelSpec &model, const GpuSpec &gpu,
                           const SizingOverrides &overrides, const ServingAssumptions &assumptions)
{
    return sizeWithSteps(workload, model, gpu, overrides, assumptions, true);
}

SizingResult sizeInferenceNumbers(const WorkloadProfile &workload, const ModelSpec &model, const GpuSpec &gpu,
                                  const SizingOverrides &overrides, const ServingAssumptions &assumptions)
{
    return sizeWithSteps(workload, model, gpu, overrides, assumptions, false);
}

std::vector<WhatIf> sizingWhatIfs(const WorkloadProfile &workload, const ModelSpec &model,
                                  const std::vector<GpuSpec> &gpus, const ServingAssumptions &assumptions)
{
    static constexpr WeightPrecision kWeights[] = {WeightPrecision::Bf16, WeightPrecision::Fp8,
                                                   WeightPrecision::Int4};
    static constexpr KvPrecision kKv[] = {KvPrecision::Bf16, KvPrecision::Fp8};

    const auto home = std::find_if(gpus.begin(), gpus.end(),
                                   [&](const GpuSpec &g) { return g.id == workload.gpuId; });
    std::vector<WhatIf> whatIfs;
    whatIfs.reserve(gpus.size() * std::size(kWeights) * std::size(kKv));
    for (const GpuSpec &gpu : gpus) {
        for (WeightPrecision weights : kWeights) {
            for (KvPrecision kv : kKv) {
                SizingOverrides overrides;
                overrides.gpuId = gpu.id;
                overrides.weights = weights;
                overrides.kv = kv;
                WhatIf whatIf{gpu.id, weights, kv,
                              sizeInferenceNumbers(workload, model, gpu, overrides, assumptions), false};
                whatIf.dropsToCheaperTier = home != gpus.end() && whatIf.result.feasible
                    && whatIf.result.replicas > 0 && gpu.memoryBytes < home->memoryBytes;
                whatIfs.push_back(std::move(whatIf));
            }
        }
    }
    return whatIfs;
}

#undef HEADROOM_STEP


bool operator==(const ServingAssumptions &a, const ServingAssumptions &b)
{
    return a.prefillEfficiency == b.prefillEfficiency && a.decodeBandwidthEfficiency == b.decodeBandwidthEfficiency
        && a.decodeComputeEfficiency == b.decodeComputeEfficiency && a.memoryUtilization == b.memoryUtilization
        && a.blockSize == b.blockSize && a.reserveBytes == b.reserveBytes && a.plannedHeadroom == b.plannedHeadroom
        && a.inFlightQuantile == b.inFlightQuantile && a.queueingAllowanceMs == b.queueingAllowanceMs
        && a.residency == b.residency && a.maxNumBatchedTokens == b.maxNumBatchedTokens
        && a.maxNumSeqs == b.maxNumSeqs && a.chunkedPrefill == b.chunkedPrefill && a.prefixCaching == b.prefixCaching
        && a.requestOverheadMs == b.requestOverheadMs && a.reserveMode == b.reserveMode
        && a.reserveOverrides == b.reserveOverrides;
}

std::vector<FieldProblem> validate(const ServingAssumptions &a)
{
    std::vector<FieldProblem> problems;
    auto fraction = [&](const char *field, double value) {
        if (!(value > 0 && value <= 1))
            problems.push_back({field, std::string(field) + " must be greater than 0 and at most 1 (got "
                                           + number(value) + ")"});
    };
    fraction("memory_utilization", a.memoryUtilization);
    if (a.reserveBytes < 0 || a.reserveBytes > kMaxReserveBytes)
        problems.push_back({"reserve_bytes", "reserve_bytes must be between 0 and 1 TiB (got "
                                                 + std::to_string(a.reserveBytes) + ")"});
    if (a.reserveOverrides.size() > kMaxReserveOverrides)
        problems.push_back({"reserve_overrides", "reserve_overrides holds at most " + std::to_string(kMaxReserveOverrides)
                                                     + " deployments (got " + std::to_string(a.reserveOverrides.size()) + ")"});
    for (size_t i = 0; i < a.reserveOverrides.size(); ++i) {
        const ReserveOverride &o = a.reserveOverrides[i];
        const std::string where = "reserve_overrides entry " + std::to_string(i + 1);
        if (o.modelId.empty() || o.gpuId.empty())
            problems.push_back({"reserve_overrides", where + " needs a model and a GPU"});
        if (o.tp < 1 || o.tp > 4096)
            problems.push_back({"reserve_overrides", where + ": tp must be between 1 and 4,096 (got " + std::to_string(o.tp) + ")"});
        if (o.reserveBytes < 0 || o.reserveBytes > kMaxReserveBytes)
            problems.push_back({"reserve_overrides", where + ": reserve_bytes must be between 0 and 1 TiB (got "
                                                         + std::to_string(o.reserveBytes) + ")"});
        for (size_t j = 0; j < i; ++j)
            if (a.reserveOverrides[j].modelId == o.modelId && a.reserveOverrides[j].gpuId == o.gpuId
                && a.reserveOverrides[j].tp == o.tp)
                problems.push_back({"reserve_overrides", where + " repeats entry " + std::to_string(j + 1) + " ("
                                                             + o.modelId + " on " + o.gpuId + " at TP " + std::to_string(o.tp) + ")"});
    }
    if (a.blockSize < 1 || a.blockSize > kMaxBlockSize)
        problems.push_back({"block_size", "block_size must be between 1 and " + std::to_string(kMaxBlockSize)
                                              + " tokens (got " + std::to_string(a.blockSize) + ")"});
    fraction("prefill_efficiency", a.prefillEfficiency);
    fraction("decode_bandwidth_efficiency", a.decodeBandwidthEfficiency);
    fraction("decode_compute_efficiency", a.decodeComputeEfficiency);
    if (!(a.inFlightQuantile > 0 && a.inFlightQuantile < 1))
        problems.push_back({"in_flight_quantile", "in_flight_quantile must be greater than 0 and below 1 (got "
                                                      + number(a.inFlightQuantile) + ")"});
    if (!(a.queueingAllowanceMs >= 0 && a.queueingAllowanceMs <= 3.6e6))
        problems.push_back({"queueing_allowance_ms", "queueing_allowance_ms must be between 0 and 3,600,000 (got "
                                                         + number(a.queueingAllowanceMs) + ")"});
    if (a.maxNumBatchedTokens < 0 || a.maxNumBatchedTokens > kMaxBatchedTokens)
        problems.push_back({"max_num_batched_tokens", "max_num_batched_tokens must be 0 (vLLM's default) or between 1 and "
                                                          + grouped(kMaxBatchedTokens) + " (got "
                                                          + std::to_string(a.maxNumBatchedTokens) + ")"});
    if (a.maxNumSeqs < 0 || a.maxNumSeqs > kMaxNumSeqs)
        problems.push_back({"max_num_seqs", "max_num_seqs must be 0 (vLLM's default) or between 1 and "
                                                + grouped(kMaxNumSeqs) + " (got " + std::to_string(a.maxNumSeqs) + ")"});
    if (!(a.requestOverheadMs >= 0 && a.requestOverheadMs <= 60000))
        problems.push_back({"request_overhead_ms", "request_overhead_ms must be between 0 and 60,000 (got "
                                                       + number(a.requestOverheadMs) + ")"});
    if (!(a.plannedHeadroom >= 0 && a.plannedHeadroom <= 10))
        problems.push_back({"planned_headroom", "planned_headroom must be between 0 and 10 (got "
                                                    + number(a.plannedHeadroom) + ")"});
    return problems;
}

} // namespace headroom::engine
