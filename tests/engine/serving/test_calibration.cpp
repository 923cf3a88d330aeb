// Calibration of the step-cost model: measurements generated from a known profile with noise
// are fitted back from the workspace's fallback profile; the fitted points are reproduced
// within 5 % and points left out of the fit (another batch, another request rate) within 15 %.
#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "engine/serving/calibration.h"

#include <catch2/catch.hpp>

#include <cmath>
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
