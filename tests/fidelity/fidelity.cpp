#include "fidelity.h"

#include "engine/inference/kv.h"
#include "engine/serving/calibration.h"
#include "engine/serving/serving_sim.h"
#include "store/catalog/catalogjson.h"
#include "store/common/csvreader.h"
#include "store/common/importlimits.h"

#include <QFile>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

namespace headroom::fidelity {

namespace {

constexpr store::ImportLimits kReferences{"serving references CSV", 8 * store::limits::kMiB, 100'000, 4096};

std::optional<double> optionalNumber(const store::CsvTable &table, const store::CsvRecord &row, const char *column)
{
    const QString text = table.field(row, QLatin1String(column)).trimmed();
    if (text.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < 0)
        throw std::runtime_error("line " + std::to_string(row.line) + ": " + column + ": not a number ≥ 0: "
                                 + text.toStdString());
    return value;
}

// The catalog entry a reference's model or GPU id stands for: the same architecture under
// another release name.
std::string catalogModel(const std::string &id)
{
    static const std::map<std::string, std::string> aliases = {
        {"llama-3.3-70b", "llama-3.1-70b"},
        {"llama-3-70b", "llama-3.1-70b"},
    };
    const auto it = aliases.find(id);
    return it == aliases.end() ? id : it->second;
}

std::string catalogGpu(const std::string &id)
{
    return id == "a100-80gb-sxm" ? "a100-sxm-80gb" : id;
}

std::optional<engine::WeightPrecision> weightsOf(const std::string &text)
{
    if (text.empty() || text == "bf16" || text == "auto")
        return engine::WeightPrecision::Bf16;
    if (text == "fp8" || text == "fp8-block")
        return engine::WeightPrecision::Fp8;
    return std::nullopt;
}

double mean(const std::vector<double> &values)
{
    double sum = 0;
    for (double v : values)
        sum += v;
    return values.empty() ? 0.0 : sum / double(values.size());
}

} // namespace

std::vector<Reference> readReferences(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + path.toStdString());
    const store::CsvTable table = store::readCsvTable(
        file.readAll(), path, kReferences,
        {QStringLiteral("id"), QStringLiteral("engine"), QStringLiteral("engine_version"), QStringLiteral("model"),
         QStringLiteral("gpu"),
         QStringLiteral("tp"), QStringLiteral("weights"), QStringLiteral("kv"), QStringLiteral("input_tokens"),
         QStringLiteral("output_tokens"), QStringLiteral("load_kind"), QStringLiteral("load"), QStringLiteral("requests"),
         QStringLiteral("ttft_ms"),
         QStringLiteral("itl_ms"), QStringLiteral("e2e_ms"), QStringLiteral("output_tokens_per_s")},
        QStringLiteral("expected the references' header"), QStringLiteral("see references/SOURCES.md"));
    std::vector<Reference> out;
    for (const store::CsvRecord &row : table.rows) {
        Reference r;
        const auto text = [&](const char *column) { return table.field(row, QLatin1String(column)).trimmed().toStdString(); };
        r.id = text("id");
        r.engine = text("engine");
        r.engineVersion = text("engine_version");
        r.model = text("model");
        r.gpu = text("gpu");
        r.tp = int(optionalNumber(table, row, "tp").value_or(1));
        r.weights = text("weights");
        r.kv = text("kv");
        r.inputTokens = optionalNumber(table, row, "input_tokens").value_or(0);
        r.outputTokens = optionalNumber(table, row, "output_tokens").value_or(0);
        r.loadKind = text("load_kind");
        r.load = optionalNumber(table, row, "load").value_or(0);
        r.requests = optionalNumber(table, row, "requests");
        r.ttftMs = optionalNumber(table, row, "ttft_ms");
        r.itlMs = optionalNumber(table, row, "itl_ms");
        r.e2eMs = optionalNumber(table, row, "e2e_ms");
        r.tokensPerS = optionalNumber(table, row, "output_tokens_per_s");
        // Closed-loop means without a published E2E: TTFT + (output − 1) × ITL, as the
        // benchmarks define TPOT.
        if (!r.e2eMs && r.ttftMs && r.itlMs && r.outputTokens >= 1 && r.loadKind != "offline")
            r.e2eMs = *r.ttftMs + (r.outputTokens - 1) * *r.itlMs;
        if (r.loadKind != "concurrency" && r.loadKind != "rate" && r.loadKind != "offline")
            throw std::runtime_error("line " + std::to_string(row.line) + ": load_kind must be concurrency, rate or offline");
        out.push_back(std::move(r));
    }
    return out;
}

Catalogs shippedCatalogs(const QString &dataDir)
{
    Catalogs c;
    c.gpus = store::readCatalogFile(dataDir + QStringLiteral("/gpus.json")).gpus;
    c.models = store::readCatalogFile(dataDir + QStringLiteral("/models.json")).models;
    return c;
}

bool isTarget(const Reference &r)
{
    return (r.engine == "vllm" || r.engine == "nim") && r.inputTokens >= 1 && r.outputTokens >= 1
        && weightsOf(r.weights).has_value();
}

std::optional<engine::ServingSimConfig> replicaConfig(const Reference &reference, const Catalogs &catalogs,
                                                     const engine::ServingAssumptions &assumptions, std::string *why)
{
    const engine::ModelSpec *model = engine::findModel(catalogs.models, catalogModel(reference.model));
    const engine::GpuSpec *gpu = engine::findGpu(catalogs.gpus, catalogGpu(reference.gpu));
    const auto weights = weightsOf(reference.weights);
    if (!model || !gpu || !weights || reference.inputTokens < 1 || reference.outputTokens < 1) {
        if (why)
            *why = !model ? "model not in the catalog" : !gpu ? "GPU not in the catalog"
                 : !weights ? "weights precision not modelled" : "lengths not published";
        return std::nullopt;
    }
    engine::KvInputs in;
    in.model = *model;
    in.gpuMemoryBytes = gpu->memoryBytes;
    in.weights = *weights;
    in.kv = reference.kv == "fp8" ? engine::KvPrecision::Fp8 : engine::KvPrecision::Bf16;
    in.tp = reference.tp;
    in.utilization = assumptions.memoryUtilization;
    in.reserveBytes = assumptions.reserveBytes;
    in.blockSize = 16;
    const engine::KvResult kv = engine::analyseKv(in);
    if (!kv.fits) {
        if (why)
            *why = "the weights do not fit";
        return std::nullopt;
    }
    engine::ServingSimConfig config;
    config.blockSize = 16;
    config.kvBlocksPerReplica = engine::kvBlocksPerReplica(in);
    engine::applyServingAssumptions(config, assumptions, *model, *gpu, in.weights, kv, reference.tp);
    config.router = engine::RouterKind::RoundRobin;
    return config;
}

namespace {

// Requests simulated for a closed loop: six rounds of its users.
int simulatedRequests(int load)
{
    return std::clamp(6 * load, 48, 3072);
}

// The linear layers' FLOPs per token computed (2 × the body's parameters: LM head and embedding
// left out) and the deployment's dense peak in FLOP/s, at the weights' precision.
double linearFlopsPerToken(const engine::StepCostModel &model)
{
    return 2.0 * std::max(model.activeParams - model.headParams - model.embeddingParams, 0.0);
}

double peakFlopsPerS(const engine::StepCostModel &model)
{
    return double(model.tp) * model.tflops * 1e12;
}

} // namespace

engine::BenchmarkRun benchmarkRun(const Reference &reference)
{
    engine::BenchmarkRun run;
    run.label = reference.id;
    run.promptTokens = {int64_t(std::llround(reference.inputTokens))};
    run.outputTokens = {int64_t(std::llround(reference.outputTokens))};
    const int load = std::max(1, int(std::llround(reference.load)));
    if (reference.loadKind == "concurrency") {
        run.requests = reference.requests ? std::llround(*reference.requests) : simulatedRequests(load);
        run.startsAtOnce = reference.requests.has_value() && reference.firstWave;
    } else {
        run.requests = reference.loadKind == "offline" ? load : 400;
    }
    run.requestRate = reference.loadKind == "rate" ? reference.load : 0;
    run.maxConcurrency = reference.loadKind == "rate" ? 0 : load;
    run.meanTtftMs = reference.ttftMs;
    run.meanTpotMs = reference.itlMs;
    run.meanE2eMs = reference.e2eMs;
    return run;
}

Prediction predict(const Reference &reference, const Catalogs &catalogs, const engine::ServingAssumptions &assumptions)
{
    Prediction p;
    const std::optional<engine::ServingSimConfig> replica = replicaConfig(reference, catalogs, assumptions, &p.why);
    if (!replica)
        return p;
    engine::ServingSimConfig config = *replica;
    p.supported = true;
    const int load = std::max(1, int(std::llround(reference.load)));
    if (reference.loadKind == "concurrency") {
        const engine::BenchmarkSimulation simulated
            = engine::simulateBenchmark(benchmarkRun(reference), config, simulatedRequests(load));
        p.ttftMs = simulated.meanTtftMs;
        p.itlMs = simulated.meanTpotMs;
        p.e2eMs = simulated.meanE2eMs;
        p.tokensPerS = simulated.run.outputTokensPerS;
        p.queueWaitP50Ms = simulated.run.queueWaitMs.p50;
        return p;
    }

    const int64_t prompt = int64_t(std::llround(reference.inputTokens));
    const int64_t output = int64_t(std::llround(reference.outputTokens));
    const int requests = reference.loadKind == "offline" ? load : 400;
    std::vector<engine::TraceRequest> trace(static_cast<size_t>(requests));
    std::mt19937_64 random(42);
    std::exponential_distribution<double> gap(reference.load > 0 ? reference.load : 1.0);
    double t = 0;
    for (engine::TraceRequest &r : trace) {
        r.timestampS = t;
        r.promptTokens = prompt;
        r.outputTokens = output;
        if (reference.loadKind == "rate")
            t += gap(random);
    }
    if (reference.loadKind == "offline") {
        config.concurrency = load;
        config.requestOverheadMs = 0; // one batch through the engine, no API server
    }
    const engine::ServingSimResult result = engine::simulateServing(trace, config);
    p.ttftMs = result.meanTtftMs;
    p.itlMs = result.meanItlMs;
    p.e2eMs = reference.loadKind == "offline" ? (result.lastCompletionS - result.firstArrivalS) * 1000.0
                                                 + config.requestOverheadMs
                                              : result.meanE2eS * 1000.0;
    p.tokensPerS = result.outputTokensPerS;
    p.queueWaitP50Ms = result.queueWaitMs.p50;
    return p;
}

namespace {

// The step model of the reference's deployment with the shipped catalogs and default assumptions.
std::optional<engine::StepCostModel> shippedStepModel(const Reference &reference, const Catalogs &catalogs)
{
    const std::optional<engine::ServingSimConfig> replica
        = replicaConfig(reference, catalogs, engine::ServingAssumptions{});
    if (!replica || !replica->stepModel)
        return std::nullopt;
    return replica->stepModel;
}

} // namespace

std::optional<double> measuredComputeShare(const Reference &reference, const Catalogs &catalogs)
{
    // e2eMs: published, or TTFT + (output − 1) × ITL as readReferences fills it in.
    if (reference.loadKind != "concurrency" || reference.load <= 0 || !reference.e2eMs || *reference.e2eMs <= 0)
        return std::nullopt;
    const std::optional<engine::StepCostModel> model = shippedStepModel(reference, catalogs);
    if (!model)
        return std::nullopt;
    const double requestsPerS = reference.load / (*reference.e2eMs / 1000.0);
    const double flopsPerS = requestsPerS * linearFlopsPerToken(*model) * (reference.inputTokens + reference.outputTokens);
    return flopsPerS / peakFlopsPerS(*model);
}

std::optional<double> firstWaveFloorMs(const Reference &reference, const Catalogs &catalogs)
{
    if (reference.loadKind != "concurrency" || !reference.requests || reference.load < 1)
        return std::nullopt;
    const std::optional<engine::StepCostModel> model = shippedStepModel(reference, catalogs);
    if (!model)
        return std::nullopt;
    const double promptS = reference.inputTokens * linearFlopsPerToken(*model) / peakFlopsPerS(*model);
    return (std::round(reference.load) + 1.0) / 2.0 * promptS * 1000.0;
}

bool firstWaveImpossible(const Reference &reference, const Catalogs &catalogs)
{
    const std::optional<double> floor = firstWaveFloorMs(reference, catalogs);
    return floor && reference.ttftMs && std::round(reference.load) / *reference.requests * *floor > *reference.ttftMs;
}

std::string campaignOf(const Reference &reference)
{
    return reference.id.substr(0, reference.id.find('-')) + " " + reference.engine
        + (reference.engineVersion.empty() ? "" : " " + reference.engineVersion) + " " + reference.model + " "
        + (reference.weights.empty() ? "bf16" : reference.weights) + " on " + reference.gpu;
}

std::vector<std::string> leaveOutImpossibleFirstWaves(std::vector<Reference> &references, const Catalogs &catalogs)
{
    std::vector<std::string> campaigns;
    for (const Reference &r : references) {
        const std::string campaign = campaignOf(r);
        if (std::find(campaigns.begin(), campaigns.end(), campaign) == campaigns.end()
            && firstWaveImpossible(r, catalogs))
            campaigns.push_back(campaign);
    }
    for (Reference &r : references) {
        if (std::find(campaigns.begin(), campaigns.end(), campaignOf(r)) != campaigns.end())
            r.firstWave = false;
    }
    return campaigns;
}

Suite loadSuite(const QString &referencesPath, const QString &dataDir)
{
    Suite suite;
    suite.references = readReferences(referencesPath);
    suite.catalogs = shippedCatalogs(dataDir);
    suite.withoutFirstWave = leaveOutImpossibleFirstWaves(suite.references, suite.catalogs);
    return suite;
}

bool shownSaturated(const Reference &reference, const Prediction &prediction)
{
    return prediction.supported && reference.ttftMs && *reference.ttftMs < 1000.0
        && prediction.ttftMs > 1000.0 && prediction.ttftMs > 5.0 * *reference.ttftMs;
}

std::vector<MetricError> metricErrors(const std::vector<Reference> &references,
                                      const std::vector<Prediction> &predictions)
{
    struct Metric {
        const char *name;
        std::optional<double> Reference::*measured;
        double Prediction::*predicted;
    };
    const Metric metrics[] = {{"ttft", &Reference::ttftMs, &Prediction::ttftMs},
                              {"itl", &Reference::itlMs, &Prediction::itlMs},
                              {"e2e", &Reference::e2eMs, &Prediction::e2eMs},
                              {"throughput", &Reference::tokensPerS, &Prediction::tokensPerS}};
    std::vector<MetricError> out;
    for (const Metric &m : metrics) {
        std::vector<double> absolute, signedErrors;
        for (size_t i = 0; i < references.size() && i < predictions.size(); ++i) {
            const auto &measured = references[i].*m.measured;
            if (!predictions[i].supported || !measured || *measured <= 0)
                continue;
            const double error = (predictions[i].*m.predicted - *measured) / *measured * 100.0;
            signedErrors.push_back(error);
            absolute.push_back(std::abs(error));
        }
        MetricError e;
        e.metric = m.name;
        e.count = int(absolute.size());
        e.mape = mean(absolute);
        e.meanSignedPct = mean(signedErrors);
        if (!absolute.empty()) {
            std::sort(absolute.begin(), absolute.end());
            const size_t n = absolute.size();
            e.medianApe = n % 2 ? absolute[n / 2] : (absolute[n / 2 - 1] + absolute[n / 2]) / 2.0;
        }
        out.push_back(e);
    }
    return out;
}

} // namespace headroom::fidelity
