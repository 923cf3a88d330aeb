#include "calibratecommand.h"

#include "cli/catalog/lookup.h"
#include "cli/common/args.h"
#include "cli/common/format.h"

#include "engine/common/errors.h"
#include "engine/serving/calibration.h"
#include "store/common/workspace.h"
#include "store/serving/benchjson.h"
#include "store/serving/steptimecsv.h"
#include "store/tracking/metricscsv.h"

#include <QFileInfo>
#include <algorithm>
#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom calibrate --model ID --gpu ID [--tp N] [--weights P] [--kv-dtype P]
                          [--step-times FILE] [--bench FILE]... [--metrics FILE]
                          [--deployment NAME] [--min-requests N] [--max-num-batched-tokens N]
                          [--max-num-seqs N] [--save] [--json]
       headroom calibrate --model ID --gpu ID [--tp N] [--weights P] --forget

Fits the step-cost model of one deployment (a model on a GPU at a tensor-parallel degree) to
its own measurements by least squares, and shows every measured point against its prediction
with the fitted and with the prior coefficients.

  --model ID --gpu ID     the deployment, from the workspace's catalogs
  --tp N                  tensor-parallel GPUs per replica (default 1)
  --weights P             bf16, fp16, fp8, int8 or int4 (default bf16)
  --kv-dtype P            bf16 or fp8 (default bf16)
  --step-times FILE       measured passes: a step-time CSV as `simulate --step-times` reads
                          (decode points: b sequences at a context; prefill points: a prompt's
                          pass alone)
  --bench FILE            a `vllm bench serve --save-result` JSON file, one per request rate
                          or concurrency (repeat the option); its requests are replayed through
                          the serving simulation and its mean TTFT, TPOT and E2E compared
  --metrics FILE          vLLM's Prometheus metrics as `track serving` imports them (long-form
                          CSV): each replica-hour is replayed at its request rate (Poisson) with
                          its mean prompt and output lengths, and the median TTFT and E2E of
                          its histograms (histogram_quantile) compared with the simulated
  --deployment NAME       the deployment of --metrics to use (default: the file's only one)
  --min-requests N        replica-hours with fewer completed requests are left out (default 50)
  --max-num-batched-tokens N, --max-num-seqs N
                          the server's scheduler when the runs were measured (default: the
                          workspace's serving assumptions, else vLLM's defaults for the GPU)
  --save                  keep the fitted profile in the workspace as this deployment's (the
                          model at this TP and weight precision on the GPU): sizing and
                          simulation of that deployment use it and name it as calibrated;
                          other models and TPs on the GPU keep its catalog profile
  --forget                remove this deployment's calibrated profile from the workspace
  --json                  print JSON instead of tables

Fitted: HBM and KV-read bandwidth efficiency, large-pass matmul efficiency, attention
efficiency, all-reduce latency, per-pass overhead and, when runs report TTFT, the per-request
overhead (apply it with `headroom serving set request_overhead_ms=...`). Each coefficient is
pulled gently toward its prior value, so one the measurements do not exercise stays put.

Exit status: 0 fitted, 2 bad input (a message names the file and field).
)";

std::vector<OptionSpec> options()
{
    std::vector<OptionSpec> specs;
    for (const char *name : {"model", "gpu", "tp", "weights", "kv-dtype", "step-times", "metrics", "deployment",
                             "min-requests", "max-num-batched-tokens", "max-num-seqs"})
        specs.push_back({QLatin1String(name)});
    specs.push_back({QStringLiteral("bench"), true, true});
    for (const char *name : {"save", "json", "forget"})
        specs.push_back({QLatin1String(name), false});
    return specs;
}

QString ms(double value)
{
    return formatDecimal(value, value < 10 ? 3 : value < 1000 ? 2 : 1, true);
}

QString signedPercent(double value)
{
    const double rounded = std::round(value * 10.0) / 10.0;
    return (rounded > 0 ? QStringLiteral("+") : QString()) + formatDecimal(rounded == 0 ? 0.0 : rounded, 1, true);
}

// --weights, bf16 when absent.
engine::WeightPrecision weightsOption(const Args &args)
{
    const auto text = args.text(QStringLiteral("weights"));
    if (!text)
        return engine::WeightPrecision::Bf16;
    const auto p = engine::parseWeightPrecision(text->toStdString());
    if (!p)
        throw UsageError(QStringLiteral("--weights: unknown precision '%1'; expected bf16, fp16, fp8, int8 or int4").arg(*text));
    return *p;
}

// --forget: the deployment's calibrated profile removed from its GPU.
int forgetCalibration(const Args &args, Context &context, const QString &modelId, const QString &gpuId)
{
    for (const char *measurement : {"step-times", "bench", "metrics", "save", "json"})
        if (args.has(QLatin1String(measurement)))
            throw UsageError(QStringLiteral("--forget takes no measurements and no --%1").arg(QLatin1String(measurement)));
    store::Workspace &workspace = context.workspace();
    engine::GpuSpec gpu = findGpu(workspace, gpuId);
    const engine::ModelSpec model = findModel(workspace, modelId);
    const int tp = int(args.integer(QStringLiteral("tp"), 1, 64).value_or(1));
    const engine::WeightPrecision weights = weightsOption(args);
    const auto before = gpu.calibrations.size();
    std::erase_if(gpu.calibrations, [&](const engine::DeploymentProfile &p) {
        return p.modelId == model.id && p.tp == tp && p.weights == weights;
    });
    const QString of = QStringLiteral("%1 on %2 at TP %3 with %4 weights")
                           .arg(modelId, gpuId).arg(tp).arg(QString::fromUtf8(engine::toString(weights).data()));
    if (gpu.calibrations.size() == before)
        throw UsageError(QStringLiteral("the workspace holds no calibrated profile of %1").arg(of));
    workspace.putGpu(gpu);
    context.out() << "Removed the calibrated profile of " << of << "; that deployment uses the " << gpuId
                  << " catalog profile again.\n";
    return 0;
}

int runCalibrate(const QStringList &argv, Context &context)
{
    const Args args(argv, options());
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("calibrate takes no positional arguments, got '%1'").arg(args.positionals().constFirst()));
    const auto modelId = args.text(QStringLiteral("model"));
    const auto gpuId = args.text(QStringLiteral("gpu"));
    if (!modelId || !gpuId)
        throw UsageError(QStringLiteral("calibrate needs --model ID and --gpu ID"));
    if (args.has(QStringLiteral("forget")))
        return forgetCalibration(args, context, *modelId, *gpuId);
    const auto stepTimes = args.text(QStringLiteral("step-times"));
    const QStringList benches = args.texts(QStringLiteral("bench"));
    const auto metrics = args.text(QStringLiteral("metrics"));
    if (!stepTimes && benches.isEmpty() && !metrics)
        throw UsageError(QStringLiteral("calibrate needs measurements: --step-times FILE, --bench FILE and/or --metrics FILE"));
    if (!metrics && (args.has(QStringLiteral("deployment")) || args.has(QStringLiteral("min-requests"))))
        throw UsageError(QStringLiteral("--deployment and --min-requests choose hours of --metrics FILE"));
    const int64_t minRequests = args.integer(QStringLiteral("min-requests"), 1, 100000000).value_or(50);

    store::Workspace &workspace = context.workspace();
    engine::ServingAssumptions serving = workspace.servingAssumptions();
    if (const auto v = args.integer(QStringLiteral("max-num-batched-tokens"), 1, engine::kMaxBatchedTokens))
        serving.maxNumBatchedTokens = *v;
    if (const auto v = args.integer(QStringLiteral("max-num-seqs"), 1, engine::kMaxNumSeqs))
        serving.maxNumSeqs = int(*v);
    const engine::ModelSpec model = findModel(workspace, *modelId);
    engine::GpuSpec gpu = findGpu(workspace, *gpuId);
    const engine::WeightPrecision weights = weightsOption(args);
    engine::KvPrecision kvPrecision = engine::KvPrecision::Bf16;
    if (const auto text = args.text(QStringLiteral("kv-dtype"))) {
        const auto p = engine::parseKvPrecision(text->toStdString());
        if (!p)
            throw UsageError(QStringLiteral("--kv-dtype: unknown precision '%1'; expected bf16 or fp8").arg(*text));
        kvPrecision = *p;
    }
    const int tp = int(args.integer(QStringLiteral("tp"), 1, 64).value_or(1));
    engine::CalibrationInputs inputs = engine::calibrationDeployment(model, gpu, weights, kvPrecision, tp, serving);
    QStringList sources;
    if (stepTimes) {
        inputs.passes = engine::passObservations(inputs.model, store::readStepTimes(*stepTimes));
        sources << QFileInfo(*stepTimes).fileName();
    }
    for (const QString &path : benches) {
        inputs.runs.push_back(store::readBenchResult(path));
        sources << QFileInfo(path).fileName();
    }
    if (metrics) {
        const store::MetricsFile file = store::readMetricsCsv(*metrics);
        std::string deployment;
        if (const auto named = args.text(QStringLiteral("deployment"))) {
            deployment = named->toStdString();
        } else {
            std::vector<std::string> names;
            for (const engine::ServingHour &h : file.hours.hours)
                if (std::find(names.begin(), names.end(), h.deployment) == names.end())
                    names.push_back(h.deployment);
            if (names.size() != 1) {
                QStringList listed;
                for (const std::string &n : names)
                    listed << QString::fromStdString(n);
                throw UsageError(QStringLiteral("%1 holds %2 deployments (%3): name one with --deployment")
                                     .arg(*metrics).arg(names.size()).arg(listed.join(QStringLiteral(", "))));
            }
            deployment = names.front();
        }
        try {
            for (engine::BenchmarkRun &run : engine::servedHourRuns(file.hours, deployment, minRequests))
                inputs.runs.push_back(std::move(run));
        } catch (const engine::InputError &e) {
            throw UsageError(QStringLiteral("%1: %2").arg(*metrics, QString::fromStdString(e.what())));
        }
        sources << QFileInfo(*metrics).fileName();
    }
    const engine::CalibrationResult fit = engine::calibrate(inputs);

    const QString deployment = QStringLiteral("%1 on %2, TP %3 (%4 weights, %5 KV)")
                                   .arg(*modelId, *gpuId).arg(tp)
                                   .arg(QString::fromUtf8(engine::toString(weights).data()),
                                        QString::fromUtf8(engine::toString(kvPrecision).data()));
    if (args.has(QStringLiteral("save"))) {
        std::vector<std::string> names;
        for (const QString &name : sources)
            names.push_back(name.toStdString());
        engine::DeploymentProfile profile;
        profile.modelId = model.id;
        profile.tp = tp;
        profile.weights = weights;
        profile.efficiency = engine::calibratedProfile(fit, deployment.toStdString(), names);
        gpu.putCalibration(profile);
        workspace.putGpu(gpu);
    }

    QTextStream &out = context.out();
    if (args.has(QStringLiteral("json"))) {
        QJsonObject json{{QStringLiteral("model"), *modelId}, {QStringLiteral("gpu"), *gpuId}, {QStringLiteral("tp"), tp},
                         {QStringLiteral("sources"), QJsonArray::fromStringList(sources)},
                         {QStringLiteral("mean_abs_error_pct"), fit.meanAbsErrorPct},
                         {QStringLiteral("max_abs_error_pct"), fit.maxAbsErrorPct},
                         {QStringLiteral("prior_mean_abs_error_pct"), fit.priorMeanAbsErrorPct},
                         {QStringLiteral("iterations"), fit.iterations},
                         {QStringLiteral("saved"), args.has(QStringLiteral("save"))}};
        QJsonObject coefficients;
        for (const engine::CalibrationCoefficient &c : fit.coefficients)
            coefficients.insert(QString::fromStdString(c.name),
                                QJsonObject{{QStringLiteral("prior"), c.prior}, {QStringLiteral("fitted"), c.fitted}});
        json.insert(QStringLiteral("coefficients"), coefficients);
        QJsonArray points;
        for (const engine::CalibrationPoint &p : fit.points)
            points.append(QJsonObject{{QStringLiteral("label"), QString::fromStdString(p.label)},
                                      {QStringLiteral("metric"), QString::fromStdString(p.metric)},
                                      {QStringLiteral("measured_ms"), p.measuredMs},
                                      {QStringLiteral("predicted_ms"), p.predictedMs},
                                      {QStringLiteral("error_pct"), p.errorPct}});
        json.insert(QStringLiteral("points"), points);
        out << jsonText(json);
        return 0;
    }
    out << "Calibration of " << deployment << "\n";
    out << "Measurements: " << sources.join(QStringLiteral(", ")) << " ("
        << countOf(qint64(inputs.passes.size()), QStringLiteral("pass"), QStringLiteral("passes")) << ", "
        << countOf(qint64(inputs.runs.size()), QStringLiteral("run"), QStringLiteral("runs")) << ")\n\n";
    Table coefficients({{QStringLiteral("coefficient")}, {QStringLiteral("prior"), Table::Align::Right},
                        {QStringLiteral("fitted"), Table::Align::Right}});
    for (const engine::CalibrationCoefficient &c : fit.coefficients)
        coefficients.addRow({QString::fromStdString(c.name), formatDecimal(c.prior, 3, true), formatDecimal(c.fitted, 3, true)});
    coefficients.write(out);
    out << "\n";
    Table points({{QStringLiteral("point")}, {QStringLiteral("metric")}, {QStringLiteral("measured ms"), Table::Align::Right},
                  {QStringLiteral("predicted ms"), Table::Align::Right}, {QStringLiteral("error %"), Table::Align::Right}});
    for (const engine::CalibrationPoint &p : fit.points)
        points.addRow({printable(QString::fromStdString(p.label)), QString::fromStdString(p.metric), ms(p.measuredMs),
                       ms(p.predictedMs), signedPercent(p.errorPct)});
    points.write(out);
    out << "\nMean |error| " << formatDecimal(fit.meanAbsErrorPct, 1, true) << " % (prior coefficients "
        << formatDecimal(fit.priorMeanAbsErrorPct, 1, true) << " %), largest " << formatDecimal(fit.maxAbsErrorPct, 1, true)
        << " %; " << countOf(fit.iterations, QStringLiteral("iteration"), QStringLiteral("iterations")) << ".\n";
    const QString of = QStringLiteral("%1 on %2 at TP %3 with %4 weights")
                           .arg(*modelId, *gpuId).arg(tp).arg(QString::fromUtf8(engine::toString(weights).data()));
    if (args.has(QStringLiteral("save")))
        out << "Saved as the calibrated profile of " << of << ": sizing and simulation of that deployment use it; "
            << "other models and TPs on " << *gpuId << " keep its catalog profile.\n";
    else
        out << "Not saved: --save keeps it as the calibrated profile of " << of << ".\n";
    return 0;
}

} // namespace

Command calibrateCommand()
{
    return {QStringLiteral("calibrate"),
            QStringLiteral("fit the step-cost model to measured passes and benchmark runs (--model, --gpu)"),
            QString::fromUtf8(kUsage), &runCalibrate};
}

} // namespace headroom::cli
