// `headroom import-trace` end to end on the shipped Azure and Mooncake traces: counts,
// duration, rates and token percentiles against values computed here from the files, the
// prefix hit rate, and malformed, empty and unknown-format input.
#include "common/clirunner.h"
#include "publictraces.h"

#include <catch2/catch.hpp>

#include <QDate>
#include <QFile>
#include <QJsonDocument>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace {

const QString kAzureConv = QStringLiteral(HEADROOM_SHARED_DATA "/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv");
const QString kMooncake = QStringLiteral(HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl");

// What the test reads from a trace file by itself, one request per entry.
struct Expected {
    std::vector<double> timestamps; // seconds
    std::vector<double> prompts;
    std::vector<double> outputs;
};

QList<QByteArray> nonEmptyLines(const QString &path)
{
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QList<QByteArray> lines;
    for (QByteArray line : file.readAll().split('\n')) {
        if (line.endsWith('\r'))
            line.chop(1);
        if (!line.trimmed().isEmpty())
            lines << line;
    }
    return lines;
}

// "2023-11-16 18:15:46.6805900" → seconds since 2023-01-01 (near, to keep the fraction exact);
// only differences matter.
double azureSeconds(const QByteArray &stamp)
{
    const QDate date = QDate::fromString(QString::fromLatin1(stamp.left(10)), QStringLiteral("yyyy-MM-dd"));
    REQUIRE(date.isValid());
    const QList<QByteArray> hms = stamp.mid(11).split(':');
    REQUIRE(hms.size() == 3);
    return double(date.toJulianDay() - QDate(2023, 1, 1).toJulianDay()) * 86400.0 + hms[0].toDouble() * 3600 + hms[1].toDouble() * 60
        + hms[2].toDouble();
}

Expected readAzure(const QString &path)
{
    QList<QByteArray> lines = nonEmptyLines(path);
    REQUIRE(lines.value(0) == "TIMESTAMP,ContextTokens,GeneratedTokens");
    lines.removeFirst();
    Expected e;
    for (const QByteArray &line : lines) {
        const QList<QByteArray> cells = line.split(',');
        REQUIRE(cells.size() == 3);
        e.timestamps.push_back(azureSeconds(cells[0]));
        e.prompts.push_back(cells[1].toDouble());
        e.outputs.push_back(cells[2].toDouble());
    }
    return e;
}

Expected readMooncake(const QString &path)
{
    Expected e;
    for (const QByteArray &line : nonEmptyLines(path)) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        REQUIRE(o.contains("timestamp"));
        e.timestamps.push_back(o.value("timestamp").toDouble() / 1000.0);
        e.prompts.push_back(o.value("input_length").toDouble());
        e.outputs.push_back(o.value("output_length").toDouble());
    }
    return e;
}

// Linear interpolation between order statistics at rank (n − 1) p.
double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const double rank = double(values.size() - 1) * p;
    const auto below = size_t(rank);
    const size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (rank - double(below)) * (values[above] - values[below]);
}

// Requests in the busiest minute, minutes counted from the first request.
qint64 peakPerMinute(const std::vector<double> &timestamps)
{
    const double first = *std::min_element(timestamps.begin(), timestamps.end());
    std::map<qint64, qint64> perMinute;
    for (double t : timestamps)
        ++perMinute[qint64(std::floor((t - first) / 60.0))];
    qint64 peak = 0;
    for (const auto &[minute, count] : perMinute)
        peak = std::max(peak, count);
    return peak;
}

QJsonObject traceJson(const CliFixture &ws, const QString &path, const QString &format)
{
    RUN_HEADROOM(r, ws, {"import-trace", path, "--format", format, "--json"});
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.err.isEmpty());
    return parseJsonObject(r.out);
}

void checkAgainstFile(const QJsonObject &o, const Expected &e)
{
    const auto n = qint64(e.timestamps.size());
    REQUIRE(o.value("requests").isDouble());
    CHECK(o.value("requests").toInteger() == n);
    const auto [first, last] = std::minmax_element(e.timestamps.begin(), e.timestamps.end());
    const double duration = *last - *first;
    REQUIRE(o.value("duration_s").isDouble());
    CHECK(o.value("duration_s").toDouble() == Approx(duration).epsilon(1e-9));
    REQUIRE(o.value("rate_mean_per_s").isDouble());
    CHECK(o.value("rate_mean_per_s").toDouble() == Approx(double(n) / duration).epsilon(1e-9));
    REQUIRE(o.value("rate_peak_per_min").isDouble());
    CHECK(o.value("rate_peak_per_min").toInteger() == peakPerMinute(e.timestamps));

    for (const auto &[key, values] : {std::pair{"prompt_tokens", &e.prompts}, std::pair{"output_tokens", &e.outputs}}) {
        INFO(key);
        REQUIRE(o.value(key).isObject());
        const QJsonObject p = o.value(key).toObject();
        REQUIRE(p.value("p50").isDouble());
        REQUIRE(p.value("p95").isDouble());
        CHECK(p.value("p50").toDouble() == Approx(percentile(*values, 0.50)).epsilon(1e-12));
        CHECK(p.value("p95").toDouble() == Approx(percentile(*values, 0.95)).epsilon(1e-12));
    }
}

CliResult importTrace(const CliFixture &ws, const QString &path, const QString &format)
{
    return ws.run({"import-trace", path, "--format", format});
}

} // namespace

TEST_CASE("import-trace on the Azure conversation trace: counts, rates and percentiles, no hit rate")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    const Expected expected = readAzure(kAzureConv);
    // The shipped file's last line has no trailing newline; it still counts.
    CHECK(expected.timestamps.size() == 19366);
    const QJsonObject o = traceJson(ws, kAzureConv, "azure");
    checkAgainstFile(o, expected);
    REQUIRE(o.contains("prefix_hit_rate"));
    CHECK(o.value("prefix_hit_rate").isNull());
    CHECK(o.value("format").toString() == "azure");
}

TEST_CASE("import-trace on the Mooncake trace: counts, rates, percentiles and a prefix hit rate")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    const Expected expected = readMooncake(kMooncake);
    CHECK(expected.timestamps.size() == 12031);
    const QJsonObject o = traceJson(ws, kMooncake, "mooncake");
    checkAgainstFile(o, expected);
    REQUIRE(o.value("prefix_hit_rate").isDouble());
    const double hitRate = o.value("prefix_hit_rate").toDouble();
    CHECK(hitRate > 0);
    CHECK(hitRate < 1);
}

TEST_CASE("import-trace prints a table of the same figures")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    const QJsonObject o = traceJson(ws, kMooncake, "mooncake");
    const CliResult r = importTrace(ws, kMooncake, "mooncake");
    INFO(r.out.toStdString() << r.err.toStdString());
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.startsWith("trace            conversation_trace.jsonl (mooncake)\n"));
    CHECK(r.out.contains("\nrequests         12,031\n"));
    CHECK(r.out.contains(QStringLiteral("peak %1 in one minute").arg(o.value("rate_peak_per_min").toInteger())));
    CHECK(r.out.contains("of prefix blocks were seen earlier in the trace"));

    const CliResult azure = importTrace(ws, kAzureConv, "azure");
    REQUIRE(azure.exitCode == 0);
    CHECK(azure.out.contains("\nprefix hit rate  unknown: this format has no prefix-block hashes\n"));
}

TEST_CASE("import-trace: a malformed line exits 2 naming its line number")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    const QString azure = ws.writeFile("bad.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                                  "2023-11-16 18:15:46.6805900,374,44\n"
                                                  "2023-11-16 18:15:50.9951690,many,109\n"
                                                  "2023-11-16 18:15:51.0000000,10,10\n");
    const CliResult badAzure = importTrace(ws, azure, "azure");
    INFO(badAzure.err.toStdString());
    CHECK(badAzure.exitCode == 2);
    CHECK(badAzure.out.isEmpty());
    CHECK(badAzure.err.startsWith("headroom: "));
    CHECK(badAzure.err.contains("line 3"));

    const QString mooncake = ws.writeFile("bad.jsonl", "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [0]}\n"
                                                       "{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [0]}\n"
                                                       "{\"timestamp\": 9, \"input_length\": 10,\n");
    const CliResult badMooncake = importTrace(ws, mooncake, "mooncake");
    INFO(badMooncake.err.toStdString());
    CHECK(badMooncake.exitCode == 2);
    CHECK(badMooncake.out.isEmpty());
    CHECK(badMooncake.err.contains("line 3"));

    // The other format's file is malformed from its first line on.
    const CliResult wrongFormat = importTrace(ws, kMooncake, "azure");
    CHECK(wrongFormat.exitCode == 2);
    CHECK(wrongFormat.err.contains("line 1"));
}

TEST_CASE("import-trace: an empty trace exits 2 saying it has no requests")
{
    CliFixture ws;
    const QString headerOnly = ws.writeFile("header.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\n");
    const QString emptyCsv = ws.writeFile("empty.csv", "");
    const QString emptyJsonl = ws.writeFile("empty.jsonl", "");
    for (const auto &[path, format] : {std::pair{headerOnly, QString("azure")}, std::pair{emptyCsv, QString("azure")},
                                       std::pair{emptyJsonl, QString("mooncake")}}) {
        const CliResult r = importTrace(ws, path, format);
        INFO(path.toStdString() << ": " << r.err.toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.out.isEmpty());
        CHECK(r.err.startsWith("headroom: "));
        CHECK(r.err.contains("no requests"));
    }
}

TEST_CASE("import-trace: a missing or unknown format, no file or a missing file exits 2")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    CliFixture ws;
    const std::vector<std::pair<QStringList, QString>> cases = {
        {{kMooncake, "--format", "burstgpt"}, "headroom: --format: unknown trace format 'burstgpt'; known: azure, mooncake"},
        {{kMooncake}, "headroom: --format is required: azure or mooncake"},
        {{"--format", "azure"}, "headroom: import-trace needs a trace FILE"},
        {{kMooncake, kAzureConv, "--format", "azure"}, "headroom: import-trace reads one file, got 2"},
    };
    for (const auto &[args, message] : cases) {
        const CliResult r = ws.run(QStringList{"import-trace"} + args);
        INFO(r.err.toStdString());
        CHECK(r.exitCode == 2);
        CHECK(r.out.isEmpty());
        CHECK(r.err.trimmed() == message);
    }
    const CliResult missing = importTrace(ws, ws.filePath("nowhere.csv"), "azure");
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.contains("nowhere.csv"));
}
