// Calibration of the step-cost model: measurements generated from a known profile with noise
// are fitted back from the workspace's fallback profile; the fitted points are reproduced
// within 5 % and points left out of the fit (another batch, another request rate) within 15 %.
#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "engine/serving/calibration.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

struct Replica {
    StepCostModel model;
    ServingSimConfig serving;
};

// Llama 3.1 8B, BF16, one H100 SXM, as the default serving assumptions describe it — with the
// fallback profile, so that the fit starts away from the truth.
Replica replica()
{
    ServingAssumptions assumptions;
    GpuSpec gpu = h100Sxm();
    gpu.efficiency.reset();
    KvInputs in;
    in.model = llama31_8b();
    in.gpuMemoryBytes = gpu.memoryBytes;
    in.weights = WeightPrecision::Bf16;
    in.kv = KvPrecision::Bf16;
    in.tp = 1;
    in.utilization = assumptions.memoryUtilization;
    in.reserveBytes = assumptions.reserveBytes;
    in.blockSize = assumptions.blockSize;
    const KvResult kv = analyseKv(in);
    Replica r;
    r.serving.blockSize = assumptions.blockSize;
    r.serving.kvBlocksPerReplica = kvBlocksPerReplica(in);
    r.serving.router = RouterKind::RoundRobin;
    applyServingAssumptions(r.serving, assumptions, in.model, gpu, in.weights, kv, 1);
    r.model = *r.serving.stepModel;
    return r;
}

// The "true" deployment the measurements come from.
GpuEfficiency truth(const GpuEfficiency &prior)
{
    GpuEfficiency e = prior;
    e.bandwidth = 0.84;
    e.kvBandwidth = 0.84;
    e.matmulPeak = 0.72;
    e.matmulSmall = prior.matmulSmall * 0.72 / prior.matmulPeak;
    e.attention = 0.6;
    e.iterationOverheadMs = 2.5;
    e.sequenceOverheadUs = 40; // the fallback prior has none
    return e;
}

double noisy(std::mt19937_64 &random, double value)
{
    std::normal_distribution<double> noise(0.0, 0.015);
    return value * (1.0 + noise(random));
}

StepTimeTable measuredTable(const StepCostModel &trueModel, std::mt19937_64 &random,
                            std::vector<int64_t> batches, std::vector<int64_t> contexts, std::vector<int64_t> prompts)
{
    StepTimeTable table;
    for (int64_t b : batches)
        for (int64_t c : contexts)
            table.decode.push_back({b, c, noisy(random, stepCost(trueModel, decodeStep(trueModel, double(b), double(c))).totalS * 1000)});
    for (int64_t p : prompts)
        table.prefill.push_back({p, noisy(random, stepCost(trueModel, prefillStep(trueModel, double(p))).totalS * 1000)});
    return table;
}

BenchmarkRun run(double rate, int concurrency)
{
    BenchmarkRun r;
    r.label = concurrency > 0 ? "concurrency " + std::to_string(concurrency) : "rate " + std::to_string(rate);
    std::mt19937_64 random(11);
    std::uniform_int_distribution<int64_t> prompt(200, 1800), output(60, 300);
    for (int i = 0; i < 40; ++i) {
        r.promptTokens.push_back(prompt(random));
        r.outputTokens.push_back(output(random));
    }
    r.requests = 160;
    r.requestRate = rate;
    r.maxConcurrency = concurrency;
    r.meanTtftMs = r.meanTpotMs = r.meanE2eMs = 1.0; // replaced by the generated measurement
    return r;
}

// Each run's means as the true coefficients predict them, with noise.
void measureRuns(CalibrationInputs &in, const GpuEfficiency &efficiency, double requestOverheadMs, std::mt19937_64 &random)
{
    const std::vector<CalibrationPoint> points = predictPoints(in, efficiency, requestOverheadMs);
    size_t next = 0;
    for (BenchmarkRun &r : in.runs)
        for (std::optional<double> *metric : {&r.meanTtftMs, &r.meanTpotMs, &r.meanE2eMs})
            *metric = noisy(random, points.at(next++).predictedMs);
}

} // namespace

TEST_CASE("calibration from measured passes reproduces them and a batch left out", "[calibration]")
{
    const Replica r = replica();
    StepCostModel trueModel = r.model;
    trueModel.efficiency = truth(r.model.efficiency);
    std::mt19937_64 random(3);

    CalibrationInputs in;
    in.model = r.model;
    in.serving = r.serving;
    in.passes = passObservations(r.model, measuredTable(trueModel, random, {1, 8, 32, 128}, {256, 2048, 8192},
                                                        {128, 512, 2048, 8192}));
    const CalibrationResult fit = calibrate(in);
    INFO("prior error " << fit.priorMeanAbsErrorPct << " %, fitted " << fit.meanAbsErrorPct << " %");
    CHECK(fit.priorMeanAbsErrorPct > 8.0);      // the fallback profile is off the truth
    CHECK(fit.maxAbsErrorPct < 5.0);
    REQUIRE(fit.coefficients.size() == 7);      // no runs: the per-request overhead is not fitted
    CHECK(fit.efficiency.bandwidth == Approx(0.84).epsilon(0.1));
    CHECK(fit.efficiency.matmulPeak == Approx(0.72).epsilon(0.08));
    CHECK(fit.efficiency.iterationOverheadMs == Approx(2.5).epsilon(0.25));
    CHECK(fit.efficiency.sequenceOverheadUs == Approx(40).epsilon(0.3));
    CHECK(fit.coefficients[0].name == "bandwidth");
    CHECK(fit.coefficients[0].prior == Approx(r.model.efficiency.bandwidth));

    // Held out: a batch and a context between the grid's, a prompt between the measured ones.
    CalibrationInputs heldOut = in;
    heldOut.passes = passObservations(r.model, measuredTable(trueModel, random, {64}, {4096}, {4096}));
    for (const CalibrationPoint &p : predictPoints(heldOut, fit.efficiency, fit.requestOverheadMs)) {
        INFO(p.label << ": measured " << p.measuredMs << " ms, predicted " << p.predictedMs);
        CHECK(std::abs(p.errorPct) < 15.0);
    }
}

TEST_CASE("calibration from benchmark runs reproduces them and a rate left out", "[calibration]")
{
    const Replica r = replica();
    const GpuEfficiency trueEfficiency = truth(r.model.efficiency);
    const double trueRequestOverheadMs = 18.0;
    std::mt19937_64 random(5);

    CalibrationInputs in;
    in.model = r.model;
    in.serving = r.serving;
    in.maxSimulatedRequests = 160;
    in.runs = {run(4, 0), run(12, 0), run(0, 16)};
    measureRuns(in, trueEfficiency, trueRequestOverheadMs, random);

    const CalibrationResult fit = calibrate(in);
    INFO("prior error " << fit.priorMeanAbsErrorPct << " %, fitted " << fit.meanAbsErrorPct << " %");
    REQUIRE(fit.coefficients.size() == 8);
    CHECK(fit.coefficients.back().name == "request_overhead_ms");
    for (const CalibrationPoint &p : fit.points) {
        INFO(p.label << " " << p.metric << ": measured " << p.measuredMs << " ms, predicted " << p.predictedMs);
        CHECK(std::abs(p.errorPct) < 5.0);
    }
    CHECK(fit.meanAbsErrorPct < fit.priorMeanAbsErrorPct);

    CalibrationInputs heldOut = in;
    heldOut.runs = {run(8, 0)};
    measureRuns(heldOut, trueEfficiency, trueRequestOverheadMs, random);
    for (const CalibrationPoint &p : predictPoints(heldOut, fit.efficiency, fit.requestOverheadMs)) {
        INFO(p.label << " " << p.metric << ": measured " << p.measuredMs << " ms, predicted " << p.predictedMs);
        CHECK(std::abs(p.errorPct) < 15.0);
    }
}

TEST_CASE("calibration refuses measurements it cannot use", "[calibration]")
{
    const Replica r = replica();
    CalibrationInputs in;
    in.model = r.model;
    in.serving = r.serving;
    const auto field = [&] {
        try {
            calibrate(in);
        } catch (const InputError &e) {
            return std::string(e.field());
        }
        return std::string("accepted");
    };
    CHECK(field() == "measurements");
    in.passes.push_back({"decode b=1 context=0", decodeStep(r.model, 1, 0), 0.0});
    CHECK(field() == "ms");
    in.passes.clear();
    BenchmarkRun bad = run(4, 0);
    bad.outputTokens.pop_back();
    in.runs = {bad};
    CHECK(field() == "runs");
    bad = run(4, 0);
    bad.meanTtftMs = bad.meanTpotMs = bad.meanE2eMs = std::nullopt;
    in.runs = {bad};
    CHECK(field() == "runs");
}

namespace {

// vLLM's bucket bounds (seconds) for vllm:time_to_first_token_seconds and
// vllm:e2e_request_latency_seconds.
const std::vector<double> kTtftBounds = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75,
                                         1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
const std::vector<double> kE2eBounds = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0,
                                        30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

LatencyHistogram histogramOf(const std::vector<double> &seconds, const std::vector<double> &bounds)
{
    LatencyHistogram h;
    for (double le : bounds)
        h.buckets.push_back({le, double(std::count_if(seconds.begin(), seconds.end(), [&](double s) { return s <= le; }))});
    h.buckets.push_back({std::numeric_limits<double>::infinity(), double(seconds.size())});
    return h;
}

// One replica-hour served by the true deployment: Poisson arrivals at `rate` (their own seed),
// prompts of 700–1,100 and outputs of 120–240 tokens, reduced to what Prometheus keeps.
ServingHour servedHour(const Replica &r, const StepCostModel &trueModel, double requestOverheadMs, double rate,
                       int64_t hour, uint64_t seed, const std::vector<double> &ttftBounds = kTtftBounds,
                       const std::vector<double> &e2eBounds = kE2eBounds)
{
    std::mt19937_64 random(seed);
    std::exponential_distribution<double> gap(rate);
    std::uniform_int_distribution<int64_t> prompt(700, 1100), output(120, 240);
    std::vector<TraceRequest> trace(600);
    double t = 0;
    for (TraceRequest &q : trace) {
        q.timestampS = t;
        q.promptTokens = prompt(random);
        q.outputTokens = output(random);
        t += gap(random);
    }
    ServingSimConfig config = r.serving;
    config.stepModel = trueModel;
    config.requestOverheadMs = requestOverheadMs;
    config.keepLatencies = true;
    const ServingSimResult served = simulateServing(trace, config);
    ServingHour h;
    h.deployment = "chat";
    h.instance = "vllm-0";
    h.hour = hour;
    const double n = double(served.completed);
    h.requests = {n, n / rate};
    for (const TraceRequest &q : trace) {
        h.promptTokens.increase += double(q.promptTokens);
        h.generationTokens.increase += double(q.outputTokens);
    }
    h.promptTokens.seconds = h.generationTokens.seconds = n / rate;
    h.ttft = histogramOf(served.ttftEachS, ttftBounds);
    h.e2e = histogramOf(served.e2eEachS, e2eBounds);
    return h;
}

} // namespace

TEST_CASE("calibration from served hours' Prometheus histograms reproduces them and an hour left out", "[calibration]")
{
    const Replica r = replica();
    StepCostModel trueModel = r.model;
    trueModel.efficiency = truth(r.model.efficiency);
    const double trueRequestOverheadMs = 18.0;
    const int64_t firstHour = 493460; // 2026-04-17 20:00 UTC

    ServingHours hours;
    int64_t hour = firstHour;
    uint64_t seed = 100;
    for (double rate : {3.0, 9.0, 15.0})
        hours.hours.push_back(servedHour(r, trueModel, trueRequestOverheadMs, rate, hour++, seed++));
    ServingHour quiet = servedHour(r, trueModel, trueRequestOverheadMs, 2.0, hour++, seed++);
    quiet.requests.increase = 20; // too few requests to replay
    hours.hours.push_back(quiet);

    CalibrationInputs in;
    in.model = r.model;
    in.serving = r.serving;
    in.maxSimulatedRequests = 300;
    in.runs = servedHourRuns(hours, "chat", 50);
    REQUIRE(in.runs.size() == 3);
    CHECK(in.runs[0].label == "vllm-0 2026-04-17 20:00");
    CHECK(in.runs[1].requestRate == Approx(9.0));
    CHECK(in.runs[0].promptTokens == std::vector<int64_t>{std::llround(hours.hours[0].promptTokens.increase / hours.hours[0].requests.increase)});
    CHECK(!in.runs[0].meanTtftMs);

    const CalibrationResult fit = calibrate(in);
    INFO("prior error " << fit.priorMeanAbsErrorPct << " %, fitted " << fit.meanAbsErrorPct << " %");
    REQUIRE(fit.points.size() == 6);
    CHECK(fit.points[0].metric == "ttft p50");
    CHECK(fit.points[1].metric == "e2e p50");
    CHECK(fit.coefficients.back().name == "request_overhead_ms"); // TTFT histograms fit it
    CHECK(fit.priorMeanAbsErrorPct > 8.0);
    for (const CalibrationPoint &p : fit.points) {
        INFO(p.label << " " << p.metric << ": measured " << p.measuredMs << " ms, predicted " << p.predictedMs);
        CHECK(std::abs(p.errorPct) < 5.0);
    }

    // Held out: an hour at another rate, recorded with fine buckets (4 % apart) so that what is
    // checked is the fitted model rather than the interpolation within vLLM's wide buckets.
    std::vector<double> fine;
    for (double le = 0.001; le < 100.0; le *= 1.04)
        fine.push_back(le);
    ServingHours other;
    other.hours.push_back(servedHour(r, trueModel, trueRequestOverheadMs, 12.0, firstHour + 10, 200, fine, fine));
    CalibrationInputs heldOut = in;
    heldOut.runs = servedHourRuns(other, "chat", 50);
    for (const CalibrationPoint &p : predictPoints(heldOut, fit.efficiency, fit.requestOverheadMs)) {
        INFO(p.label << " " << p.metric << ": measured " << p.measuredMs << " ms, predicted " << p.predictedMs);
        CHECK(std::abs(p.errorPct) < 15.0);
    }
}

TEST_CASE("served hours that cannot be replayed are refused naming what they lack", "[calibration]")
{
    ServingHour h;
    h.deployment = "chat";
    h.instance = "vllm-0";
    h.requests = {500, 3600};
    h.promptTokens = {500 * 800, 3600};
    h.generationTokens = {500 * 150, 3600};
    ServingHours hours;
    hours.hours = {h};
    const auto field = [&](const std::string &deployment) {
        try {
            servedHourRuns(hours, deployment, 50);
        } catch (const InputError &e) {
            return std::string(e.field()) + ": " + e.what();
        }
        return std::string("accepted");
    };
    CHECK(field("batch") == "deployment: the metrics hold no hour of deployment 'batch'");
    CHECK(field("chat") == "metrics: no hour of deployment 'chat' can be replayed: 0 lack the request or token "
                           "counters, 0 completed fewer than 50 requests, 1 have no TTFT or E2E histogram");
    hours.hours[0].ttft.buckets = {{0.25, 100}, {0.5, 400}, {std::numeric_limits<double>::infinity(), 500}};
    REQUIRE(servedHourRuns(hours, "chat", 50).size() == 1);
    CHECK(servedHourRuns(hours, "chat", 50)[0].ttftHistogram->quantile(0.5) == Approx(0.25 + 0.25 * 150.0 / 300.0));
    hours.hours[0].promptTokens = {};
    CHECK(field("chat").rfind("metrics: no hour of deployment 'chat' can be replayed: 1 lack", 0) == 0);
}

TEST_CASE("a closed loop's user whose reply comes during the ramp-up sends its next request at once", "[calibration]")
{
    // Four users started 10 s apart; a request of 128 in and 4 out takes a few tens of ms, so the
    // first user's replies all come before the second user starts.
    ServingSimConfig config = replica().serving;
    config.concurrency = 4;
    config.rampUpS = 40;
    config.keepLatencies = true;
    std::vector<TraceRequest> trace(20);
    for (TraceRequest &t : trace) {
        t.promptTokens = 128;
        t.outputTokens = 4;
    }
    const ServingSimResult closed = simulateServing(trace, config);
    REQUIRE(closed.completed == 20);
    // One request at a time from t = 0 until the trace runs out: every reply brings the next
    // request (after the client's fixed time), none waits for the ramp's next start (which would
    // end the run after 30 s): 20 equal requests back to back.
    CHECK(closed.lastCompletionS < 10.0);
    const double e2eS = closed.e2eEachS.front();
    for (double each : closed.e2eEachS)
        CHECK(each == Approx(e2eS).epsilon(1e-9));
    CHECK(closed.lastCompletionS - closed.firstArrivalS
          == Approx(20 * (e2eS - config.requestOverheadMs / 1000.0) + 19 * config.requestOverheadMs / 1000.0)
                 .epsilon(1e-6));
}

TEST_CASE("a closed-loop benchmark that starts at once weighs its first wave by its share of the requests", "[calibration]")
{
    const Replica r = replica();
    BenchmarkRun bench;
    bench.label = "8 users, 80 requests of 1,024 in and 128 out";
    bench.promptTokens = {1024};
    bench.outputTokens = {128};
    bench.requests = 80;
    bench.maxConcurrency = 8;
    bench.meanTtftMs = 100;
    ServingSimConfig config = r.serving;
    const BenchmarkSimulation simulated = simulateBenchmark(bench, config, 48);

    // The parts, simulated on their own: the eight first requests sent at once to the idle
    // replica, and 48 requests with the eight users spread over one mean request time.
    std::vector<TraceRequest> trace(48);
    for (TraceRequest &t : trace) {
        t.promptTokens = 1024;
        t.outputTokens = 128;
    }
    config.concurrency = 8;
    const ServingSimResult wave = simulateServing(std::vector<TraceRequest>(trace.begin(), trace.begin() + 8), config);
    const ServingSimResult inStep = simulateServing(trace, config);
    config.rampUpS = inStep.meanE2eS;
    const ServingSimResult outOfStep = simulateServing(trace, config);

    CHECK(simulated.firstWaveShare == Approx(0.1));
    CHECK(simulated.meanTtftMs == Approx(0.1 * wave.meanTtftMs + 0.9 * outOfStep.meanTtftMs));
    CHECK(simulated.meanTpotMs == Approx(0.1 * wave.meanItlMs + 0.9 * outOfStep.meanItlMs));
    CHECK(simulated.meanE2eMs == Approx((0.1 * wave.meanE2eS + 0.9 * outOfStep.meanE2eS) * 1000));
    CHECK(simulated.run.meanTtftMs == Approx(outOfStep.meanTtftMs));
    // Eight prompts at once queue behind each other; out of step, each finds the replica decoding.
    CHECK(wave.meanTtftMs > 2 * outOfStep.meanTtftMs);
    // In step, equal requests stay so: every round queues like the first.
    CHECK(inStep.meanTtftMs > 0.9 * wave.meanTtftMs);

    // Without a known request count, or at a bounded rate, there is no first wave to weigh.
    bench.startsAtOnce = false;
    const BenchmarkSimulation unknown = simulateBenchmark(bench, r.serving, 48);
    CHECK(unknown.firstWaveShare == 0);
    CHECK(unknown.meanTtftMs == Approx(outOfStep.meanTtftMs));
    bench.startsAtOnce = true;
    bench.requestRate = 5;
    CHECK(simulateBenchmark(bench, r.serving, 48).firstWaveShare == 0);
}
