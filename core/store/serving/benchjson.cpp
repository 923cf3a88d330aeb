#include "benchjson.h"

#include "store/common/importlimits.h"
#include "store/common/jsonsupport.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <cmath>

namespace headroom::store {

namespace {

[[noreturn]] void fail(const QString &source, const QString &field, const QString &message)
{
    throw StoreError(QStringLiteral("%1: field \"%2\": %3").arg(source, field, message));
}

std::optional<double> positive(const QJsonObject &o, const QString &source, const QString &field)
{
    const QJsonValue v = o.value(field);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isDouble() || !(v.toDouble() > 0) || !std::isfinite(v.toDouble()))
        fail(source, field, QStringLiteral("expected a number of milliseconds above 0"));
    return v.toDouble();
}

int64_t count(const QJsonObject &o, const QString &source, const QString &field, int64_t max)
{
    const QJsonValue v = o.value(field);
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 1 || d > double(max) || d != std::floor(d))
        fail(source, field, QStringLiteral("expected a whole number from 1 to %1").arg(max));
    return int64_t(d);
}

std::vector<int64_t> lengths(const QJsonObject &o, const QString &source, const QString &field)
{
    std::vector<int64_t> out;
    const QJsonValue v = o.value(field);
    if (v.isUndefined() || v.isNull())
        return out;
    if (!v.isArray())
        fail(source, field, QStringLiteral("expected an array of token counts, got %1").arg(jsonTypeName(v)));
    const QJsonArray array = v.toArray();
    out.reserve(size_t(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i) {
        const double d = array.at(i).toDouble(-1);
        if (!array.at(i).isDouble() || d < 1 || d > double(limits::kMaxRequestTokens) || d != std::floor(d))
            fail(source, field, QStringLiteral("request %1: expected a whole number of tokens from 1 to %2")
                                    .arg(i + 1).arg(limits::kMaxRequestTokens));
        out.push_back(int64_t(d));
    }
    return out;
}

} // namespace

engine::BenchmarkRun parseBenchResult(const QByteArray &json, const QString &source)
{
    const QJsonDocument document = parseJsonDocument(json, source, limits::kBenchResultJson);
    if (!document.isObject())
        throw StoreError(QStringLiteral("%1: expected a JSON object (a `vllm bench serve` result)").arg(source));
    const QJsonObject o = document.object();
    engine::BenchmarkRun run;
    run.label = QFileInfo(source).fileName().toStdString();
    run.requests = count(o, source, QStringLiteral("completed"), limits::kBenchResultJson.maxRows);

    run.promptTokens = lengths(o, source, QStringLiteral("input_lens"));
    run.outputTokens = lengths(o, source, QStringLiteral("output_lens"));
    if (run.promptTokens.size() != run.outputTokens.size())
        fail(source, QStringLiteral("output_lens"), QStringLiteral("holds %1 requests where input_lens holds %2")
                                                        .arg(run.outputTokens.size()).arg(run.promptTokens.size()));
    if (run.promptTokens.empty()) {
        const int64_t maxTotal = limits::kMaxRequestTokens * run.requests;
        const int64_t input = count(o, source, QStringLiteral("total_input_tokens"), maxTotal);
        const int64_t output = count(o, source, QStringLiteral("total_output_tokens"), maxTotal);
        run.promptTokens = {std::max<int64_t>(1, std::llround(double(input) / double(run.requests)))};
        run.outputTokens = {std::max<int64_t>(1, std::llround(double(output) / double(run.requests)))};
    }

    const QJsonValue rate = o.value(QStringLiteral("request_rate"));
    if (rate.isString() && rate.toString().compare(QLatin1String("inf"), Qt::CaseInsensitive) == 0)
        run.requestRate = 0;
    else if (rate.isDouble() && rate.toDouble() > 0 && std::isfinite(rate.toDouble()))
        run.requestRate = rate.toDouble();
    else
        fail(source, QStringLiteral("request_rate"), QStringLiteral("expected a number of requests/s above 0 or \"inf\""));

    const QJsonValue concurrency = o.value(QStringLiteral("max_concurrency"));
    if (!concurrency.isUndefined() && !concurrency.isNull())
        run.maxConcurrency = int(count(o, source, QStringLiteral("max_concurrency"), 1'000'000));

    run.meanTtftMs = positive(o, source, QStringLiteral("mean_ttft_ms"));
    run.meanTpotMs = positive(o, source, QStringLiteral("mean_tpot_ms"));
    run.meanE2eMs = positive(o, source, QStringLiteral("mean_e2el_ms"));
    if (!run.meanTtftMs && !run.meanTpotMs && !run.meanE2eMs)
        throw StoreError(QStringLiteral("%1: holds none of mean_ttft_ms, mean_tpot_ms and mean_e2el_ms").arg(source));
    return run;
}

engine::BenchmarkRun readBenchResult(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parseBenchResult(readImportFile(file, path, limits::kBenchResultJson), path);
}

} // namespace headroom::store
