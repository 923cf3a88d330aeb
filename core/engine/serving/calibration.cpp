#include "calibration.h"

#include "engine/common/calendar.h"
#include "engine/common/errors.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace headroom::engine {

namespace {

constexpr double kPriorPull = 0.05;
constexpr double kDifferenceStep = 0.02;   // in ln(coefficient)
constexpr uint64_t kArrivalSeed = 42;

// The coefficients as one vector of logarithms.
struct Coefficients {
    GpuEfficiency efficiency;
    double requestOverheadMs = 0;
};

struct Parameter {
    const char *name;
    double lower;
    double upper;
    double (*get)(const Coefficients &);
    void (*set)(Coefficients &, double);
    double unmeasuredStart = 0; // where the fit starts when the profile holds 0 (not measured)
};

const Parameter kParameters[] = {
    {"bandwidth", 0.02, 1.0, [](const Coefficients &c) { return c.efficiency.bandwidth; },
     [](Coefficients &c, double v) { c.efficiency.bandwidth = v; }},
    {"kv_bandwidth", 0.02, 1.0, [](const Coefficients &c) { return c.efficiency.kvBandwidth; },
     [](Coefficients &c, double v) { c.efficiency.kvBandwidth = v; }},
    {"matmul_peak", 0.02, 1.0, [](const Coefficients &c) { return c.efficiency.matmulPeak; },
     [](Coefficients &c, double v) {
         c.efficiency.matmulSmall *= v / c.efficiency.matmulPeak;
         c.efficiency.matmulPeak = v;
     }},
    {"attention", 0.02, 1.0, [](const Coefficients &c) { return c.efficiency.attention; },
     [](Coefficients &c, double v) { c.efficiency.attention = v; }},
    {"all_reduce_latency_us", 0.5, 500.0, [](const Coefficients &c) { return c.efficiency.allReduceLatencyUs; },
     [](Coefficients &c, double v) { c.efficiency.allReduceLatencyUs = v; }},
    {"iteration_overhead_ms", 0.001, 200.0, [](const Coefficients &c) { return c.efficiency.iterationOverheadMs; },
     [](Coefficients &c, double v) { c.efficiency.iterationOverheadMs = v; }},
    {"sequence_overhead_us", 0.1, 5000.0, [](const Coefficients &c) { return c.efficiency.sequenceOverheadUs; },
     [](Coefficients &c, double v) { c.efficiency.sequenceOverheadUs = v; }, 50.0},
    {"request_overhead_ms", 0.001, 200.0, [](const Coefficients &c) { return c.requestOverheadMs; },
     [](Coefficients &c, double v) { c.requestOverheadMs = v; }},
};

void validateInputs(const CalibrationInputs &in)
{
    if (in.passes.empty() && in.runs.empty())
        throw InputError("measurements", "calibration needs at least one measured pass or benchmark run");
    for (const PassObservation &p : in.passes)
        if (!(p.measuredMs > 0 && std::isfinite(p.measuredMs)))
            throw InputError("ms", p.label + ": the measured time must be a number above 0 ms");
    for (const BenchmarkRun &r : in.runs) {
        const auto refuse = [&](const std::string &why) { throw InputError("runs", r.label + ": " + why); };
        if (r.requests < 1)
            refuse("the run completed no request");
        if (r.promptTokens.empty() || r.promptTokens.size() != r.outputTokens.size())
            refuse("prompt and output lengths must be given for the same requests");
        for (size_t i = 0; i < r.promptTokens.size(); ++i)
            if (r.promptTokens[i] < 1 || r.outputTokens[i] < 1)
                refuse("request " + std::to_string(i + 1) + " has a prompt or output below 1 token");
        if (!(r.requestRate >= 0 && std::isfinite(r.requestRate)))
            refuse("the request rate must be a finite number of requests/s, at least 0");
        if (r.maxConcurrency < 0)
            refuse("the max concurrency must be at least 0");
        const auto bad = [](const std::optional<double> &v) { return v && !(*v > 0 && std::isfinite(*v)); };
        if (bad(r.meanTtftMs) || bad(r.meanTpotMs) || bad(r.meanE2eMs))
            refuse("a measured mean must be a number above 0 ms");
        for (const auto *h : {&r.ttftHistogram, &r.e2eHistogram})
            if (*h && !(std::isfinite((*h)->quantile(0.5)) && (*h)->quantile(0.5) > 0))
                refuse("a measured histogram must count requests and have a median above 0 s");
        if (!r.meanTtftMs && !r.meanTpotMs && !r.meanE2eMs && !r.ttftHistogram && !r.e2eHistogram)
            refuse("the run reports no mean TTFT, TPOT or E2E and no latency histogram");
    }
}

std::vector<TraceRequest> runTrace(const BenchmarkRun &run, int maxRequests)
{
    const int64_t n = std::min<int64_t>(run.requests, std::max(1, maxRequests));
    std::vector<TraceRequest> trace(static_cast<size_t>(n));
    std::mt19937_64 random(kArrivalSeed);
    std::exponential_distribution<double> gap(run.requestRate > 0 ? run.requestRate : 1.0);
    double t = 0;
    for (int64_t i = 0; i < n; ++i) {
        TraceRequest &r = trace[size_t(i)];
        const size_t k = size_t(i) % run.promptTokens.size();
        r.timestampS = t;
        r.promptTokens = run.promptTokens[k];
        r.outputTokens = run.outputTokens[k];
        if (run.requestRate > 0 && run.maxConcurrency == 0)
            t += gap(random);
    }
    return trace;
}

double percentError(double predicted, double measured)
{
    return (predicted - measured) / measured * 100.0;
}

std::vector<CalibrationPoint> evaluate(const CalibrationInputs &in, const Coefficients &c)
{
    std::vector<CalibrationPoint> out;
    StepCostModel model = in.model;
    model.efficiency = c.efficiency;
    for (const PassObservation &p : in.passes) {
        const double predicted = stepCost(model, p.batch).totalS * 1000.0;
        out.push_back({p.label, "pass", p.measuredMs, predicted, percentError(predicted, p.measuredMs)});
    }
    for (const BenchmarkRun &run : in.runs) {
        ServingSimConfig config = in.serving;
        config.stepModel = model;
        config.stepTable.reset();
        config.replicas = 1;
        config.requestOverheadMs = c.requestOverheadMs;
        config.ttftSloMs.reset();
        config.itlSloMs.reset();
        config.timeSamples = 2;
        const BenchmarkSimulation simulated = simulateBenchmark(run, config, in.maxSimulatedRequests);
        const auto add = [&](const char *metric, const std::optional<double> &measured, double predicted) {
            if (measured)
                out.push_back({run.label, metric, *measured, predicted, percentError(predicted, *measured)});
        };
        add("ttft", run.meanTtftMs, simulated.meanTtftMs);
        add("tpot", run.meanTpotMs, simulated.meanTpotMs);
        add("e2e", run.meanE2eMs, simulated.meanE2eMs);
        if (run.ttftHistogram)
            add("ttft p50", run.ttftHistogram->quantile(0.5) * 1000.0, simulated.run.ttftMs.p50);
        if (run.e2eHistogram)
            add("e2e p50", run.e2eHistogram->quantile(0.5) * 1000.0, simulated.run.e2eMs.p50);
    }
    return out;
}

void summarise(const std::vector<CalibrationPoint> &points, double &meanAbs, double &maxAbs)
{
    meanAbs = maxAbs = 0;
    for (const CalibrationPoint &p : points) {
        meanAbs += std::abs(p.errorPct);
        maxAbs = std::max(maxAbs, std::abs(p.errorPct));
    }
    if (!points.empty())
        meanAbs /= double(points.size());
}

} // namespace

BenchmarkSimulation simulateBenchmark(const BenchmarkRun &run, ServingSimConfig config, int maxSimulatedRequests)
{
    config.concurrency = run.maxConcurrency;
    config.rampUpS = 0;
    const std::vector<TraceRequest> trace = runTrace(run, maxSimulatedRequests);
    BenchmarkSimulation out;
    out.run = simulateServing(trace, config);
    ServingSimResult wave;
    if (run.maxConcurrency > 1) {
        if (run.startsAtOnce && run.requestRate == 0 && run.requests > run.maxConcurrency) {
            const size_t users = std::min(size_t(run.maxConcurrency), trace.size());
            wave = simulateServing(std::vector<TraceRequest>(trace.begin(), trace.begin() + ptrdiff_t(users)), config);
            out.firstWaveShare = double(run.maxConcurrency) / double(run.requests);
        }
        config.rampUpS = out.run.meanE2eS;
        out.run = simulateServing(trace, config);
    }
    const double share = out.firstWaveShare;
    out.meanTtftMs = share * wave.meanTtftMs + (1 - share) * out.run.meanTtftMs;
    out.meanTpotMs = share * wave.meanItlMs + (1 - share) * out.run.meanItlMs;
    out.meanE2eMs = (share * wave.meanE2eS + (1 - share) * out.run.meanE2eS) * 1000.0;
    return out;
}

std::vector<PassObservation> passObservations(const StepCostModel &model, const StepTimeTable &table)
{
    validate(table);
    std::vector<PassObservation> out;
    for (const StepTimeTable::DecodePoint &d : table.decode)
        out.push_back({"decode b=" + std::to_string(d.batch) + " context=" + std::to_string(d.contextTokens),
                       decodeStep(model, double(d.batch), double(d.contextTokens)), d.ms});
    for (const StepTimeTable::PrefillPoint &p : table.prefill)
        out.push_back({"prefill " + std::to_string(p.tokens) + " tokens", prefillStep(model, double(p.tokens)), p.ms});
    return out;
}

CalibrationInputs calibrationDeployment(const ModelSpec &model, const GpuSpec &gpu, WeightPrecision weights,
                                        KvPrecision kv, int tp, const ServingAssumptions &assumptions)
{
    KvInputs in;
    in.model = model;
    in.gpuMemoryBytes = gpu.memoryBytes;
    in.weights = weights;
    in.kv = kv;
    in.tp = tp;
    in.utilization = assumptions.memoryUtilization;
    in.reserveBytes = runtimeReserveBytes(assumptions, model, gpu, tp);
    in.blockSize = assumptions.blockSize;
    CalibrationInputs out;
    out.serving.blockSize = assumptions.blockSize;
    out.serving.kvBlocksPerReplica = kvBlocksPerReplica(in);
    out.serving.router = RouterKind::RoundRobin;
    applyServingAssumptions(out.serving, assumptions, model, gpu, weights, analyseKv(in), tp);
    out.model = *out.serving.stepModel;
    return out;
}

GpuEfficiency calibratedProfile(const CalibrationResult &result, const std::string &deployment,
                                const std::vector<std::string> &sources)
{
    std::string joined;
    for (const std::string &s : sources)
        joined += (joined.empty() ? "" : ", ") + s;
    char error[32];
    std::snprintf(error, sizeof error, "%.1f", result.meanAbsErrorPct);
    GpuEfficiency out = result.efficiency;
    out.source = "calibrated for " + deployment + " on " + joined + ": mean |error| " + error + " % over "
        + std::to_string(result.points.size()) + " points";
    return out;
}

std::vector<BenchmarkRun> servedHourRuns(const ServingHours &hours, const std::string &deployment, int64_t minRequests)
{
    std::vector<BenchmarkRun> runs;
    int64_t ofDeployment = 0, tooFew = 0, noCounters = 0, noHistogram = 0;
    for (const ServingHour &h : hours.hours) {
        if (h.deployment != deployment)
            continue;
        ++ofDeployment;
        if (!h.requests.measured() || !h.promptTokens.measured() || !h.generationTokens.measured()
            || h.promptTokens.increase <= 0 || h.generationTokens.increase <= 0) {
            ++noCounters;
            continue;
        }
        if (h.requests.increase < double(std::max<int64_t>(1, minRequests))) {
            ++tooFew;
            continue;
        }
        const bool ttft = !h.ttft.empty() && std::isfinite(h.ttft.quantile(0.5)) && h.ttft.quantile(0.5) > 0;
        const bool e2e = !h.e2e.empty() && std::isfinite(h.e2e.quantile(0.5)) && h.e2e.quantile(0.5) > 0;
        if (!ttft && !e2e) {
            ++noHistogram;
            continue;
        }
        BenchmarkRun run;
        const CivilDate day = dateFromDays(h.hour >= 0 ? h.hour / 24 : (h.hour - 23) / 24);
        char hour[8];
        std::snprintf(hour, sizeof hour, " %02d:00", int(((h.hour % 24) + 24) % 24));
        run.label = h.instance + " " + isoDate(day) + hour;
        const double requests = h.requests.increase;
        run.promptTokens = {std::max<int64_t>(1, std::llround(h.promptTokens.increase / requests))};
        run.outputTokens = {std::max<int64_t>(1, std::llround(h.generationTokens.increase / requests))};
        run.requests = std::llround(requests);
        run.requestRate = h.requests.perSecond();
        if (ttft)
            run.ttftHistogram = h.ttft;
        if (e2e)
            run.e2eHistogram = h.e2e;
        runs.push_back(std::move(run));
    }
    if (ofDeployment == 0)
        throw InputError("deployment", "the metrics hold no hour of deployment '" + deployment + "'");
    if (runs.empty())
        throw InputError("metrics", "no hour of deployment '" + deployment + "' can be replayed: "
                                        + std::to_string(noCounters) + " lack the request or token counters, "
                                        + std::to_string(tooFew) + " completed fewer than "
                                        + std::to_string(minRequests) + " requests, " + std::to_string(noHistogram)
                                        + " have no TTFT or E2E histogram");
    return runs;
}

std::vector<CalibrationPoint> predictPoints(const CalibrationInputs &inputs, const GpuEfficiency &efficiency,
                                            double requestOverheadMs)
{
    validateInputs(inputs);
    return evaluate(inputs, Coefficients{efficiency, requestOverheadMs});
}

CalibrationResult calibrate(const CalibrationInputs &in)
{
    validateInputs(in);
    validate(in.serving);
    const Coefficients prior{in.model.efficiency, in.serving.requestOverheadMs};
    const bool runTtfts = std::any_of(in.runs.begin(), in.runs.end(), [](const BenchmarkRun &r) {
        return r.meanTtftMs.has_value() || r.ttftHistogram.has_value();
    });

    std::vector<const Parameter *> parameters;
    for (const Parameter &p : kParameters)
        if (std::string_view(p.name) != "request_overhead_ms" || runTtfts)
            parameters.push_back(&p);
    const Eigen::Index k = Eigen::Index(parameters.size());

    // x: ln(coefficient); the prior clamped into range first.
    Eigen::VectorXd x0(k);
    for (Eigen::Index i = 0; i < k; ++i) {
        const Parameter &p = *parameters[size_t(i)];
        const double value = p.get(prior) > 0 || p.unmeasuredStart <= 0 ? p.get(prior) : p.unmeasuredStart;
        x0[i] = std::log(std::clamp(value, p.lower, p.upper));
    }
    const auto coefficientsAt = [&](const Eigen::VectorXd &x) {
        Coefficients c = prior;
        for (Eigen::Index i = 0; i < k; ++i) {
            const Parameter &p = *parameters[size_t(i)];
            p.set(c, std::exp(x[i]));
        }
        return c;
    };
    const auto clampToRange = [&](Eigen::VectorXd &x) {
        for (Eigen::Index i = 0; i < k; ++i) {
            const Parameter &p = *parameters[size_t(i)];
            x[i] = std::clamp(x[i], std::log(p.lower), std::log(p.upper));
        }
    };
    const auto residuals = [&](const Eigen::VectorXd &x) {
        const std::vector<CalibrationPoint> points = evaluate(in, coefficientsAt(x));
        Eigen::VectorXd r(Eigen::Index(points.size()) + k);
        for (size_t i = 0; i < points.size(); ++i)
            r[Eigen::Index(i)] = points[i].errorPct / 100.0;
        for (Eigen::Index i = 0; i < k; ++i)
            r[Eigen::Index(points.size()) + i] = kPriorPull * (x[i] - x0[i]);
        return r;
    };

    Eigen::VectorXd x = x0;
    Eigen::VectorXd r = residuals(x);
    double cost = r.squaredNorm();
    double lambda = 1e-2;
    constexpr int kMaxIterations = 40;
    int iterations = 0;
    bool cancelled = false;
    for (; iterations < kMaxIterations; ++iterations) {
        if (in.progress && !in.progress(double(iterations) / kMaxIterations)) {
            cancelled = true;
            break;
        }
        Eigen::MatrixXd J(r.size(), k);
        for (Eigen::Index i = 0; i < k; ++i) {
            Eigen::VectorXd up = x, down = x;
            up[i] += kDifferenceStep;
            down[i] -= kDifferenceStep;
            J.col(i) = (residuals(up) - residuals(down)) / (2.0 * kDifferenceStep);
        }
        const Eigen::MatrixXd JtJ = J.transpose() * J;
        const Eigen::VectorXd gradient = J.transpose() * r;
        bool improved = false;
        double gain = 0;
        for (int attempt = 0; attempt < 8 && !improved; ++attempt) {
            Eigen::MatrixXd A = JtJ;
            A.diagonal() += lambda * (JtJ.diagonal().array() + 1e-9).matrix();
            Eigen::VectorXd next = x - A.ldlt().solve(gradient);
            clampToRange(next);
            const Eigen::VectorXd nextR = residuals(next);
            const double nextCost = nextR.squaredNorm();
            if (nextCost < cost) {
                gain = cost - nextCost;
                x = next;
                r = nextR;
                cost = nextCost;
                lambda = std::max(lambda / 3.0, 1e-7);
                improved = true;
            } else {
                lambda *= 4.0;
            }
        }
        if (!improved || gain < 1e-9 * cost)
            break;
    }

    const Coefficients fitted = coefficientsAt(x);
    CalibrationResult result;
    result.efficiency = fitted.efficiency;
    result.requestOverheadMs = fitted.requestOverheadMs;
    for (const Parameter *p : parameters)
        result.coefficients.push_back({p->name, p->get(prior), p->get(fitted)});
    result.points = evaluate(in, fitted);
    summarise(result.points, result.meanAbsErrorPct, result.maxAbsErrorPct);
    double priorMax = 0;
    summarise(evaluate(in, prior), result.priorMeanAbsErrorPct, priorMax);
    result.iterations = iterations;
    result.cancelled = cancelled;
    return result;
}

} // namespace headroom::engine
