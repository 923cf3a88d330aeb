// Bounded resources and no silent truncation in the importers (core/store/README.md, "Import
// limits"): every limit refuses its input with a message naming the file, the line or field
// and the limit; echoed values are cut; numbers never wrap on their way in. The inputs here
// are the ones that once blew up memory, wrapped or were read short.
#include "storetestsupport.h"

#include "engine/common/errors.h"
#include "engine/forecast/telemetry.h"
#include "store/catalog/catalogjson.h"
#include "store/cost/costcsv.h"
#include "store/fragmentation/fragtrace.h"
#include "store/common/importlimits.h"
#include "store/forecast/podsdemand.h"
#include "store/fleet/scenariojson.h"
#include "store/forecast/seriescsv.h"
#include "store/forecast/telemetrycsv.h"
#include "store/serving/tracereaders.h"
#include "store/tracking/metricscsv.h"
#include "store/inference/workloadjson.h"
#include "store/common/workspace.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;

namespace {

const QByteArray kTelemetryHeader = "timestamp,tenant,model,workload_type,gpus\n";
const QByteArray kPodHeader = "name,num_gpu,gpu_milli,creation_time,deletion_time\n";
const QByteArray kAzureHeader = "TIMESTAMP,ContextTokens,GeneratedTokens\n";

std::string inputErrorOf(const std::function<void()> &action)
{
    try {
        action();
    } catch (const engine::InputError &error) {
        return error.what();
    }
    FAIL("expected an InputError");
    return {};
}

QByteArray scenarioWith(const QByteArray &extra)
{
    return "{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": []"
        + extra + "}";
}

} // namespace

TEST_CASE("telemetry over 20 years for hundreds of primitives is refused before the dense series are allocated",
          "[importlimits][telemetrycsv]")
{
    // 14 KB: 300 primitives, each sampled in the first and the last hour of ~20 years. Dense
    // hourly arrays for all of them took 1.38 GB; now the sizes are checked first.
    QByteArray csv = kTelemetryHeader;
    for (int p = 0; p < 300; ++p) {
        const QByteArray tenant = "t" + QByteArray::number(p);
        csv += "2006-01-01T00:00:00Z," + tenant + ",m,chat,1\n";
        csv += "2025-12-31T00:00:00Z," + tenant + ",m,chat,2\n";
    }
    const auto samples = parseTelemetry(csv, QStringLiteral("wide.csv"));
    REQUIRE(samples.size() == 600);
    const std::string message = inputErrorOf([&] { engine::aggregateHourly(samples); });
    CHECK_THAT(message, Contains("300 primitives over 175297 hours")
                            && Contains("more than 16000000") && Contains("shorter span"));
}

TEST_CASE("one sparse primitive over 20 years is aggregated from its few samples", "[importlimits][telemetrycsv]")
{
    const QByteArray csv = kTelemetryHeader + "2006-01-01T00:00:00Z,a,m,chat,1\n"
        + "2006-01-01T00:30:00Z,a,m,chat,3\n2025-12-31T00:00:00Z,a,m,chat,2\n";
    const auto hourly = engine::aggregateHourly(parseTelemetry(csv, QStringLiteral("sparse.csv")));
    REQUIRE(hourly.primitives.size() == 1);
    const auto &series = hourly.primitives.front();
    CHECK(hourly.hours == 175297);
    CHECK(series.gpus.front() == 2.0);   // mean of 1 and 3
    CHECK(series.gpus.back() == 2.0);
    CHECK(series.samples == 3);
    CHECK(series.missingHours() == 175295);
}

TEST_CASE("a CSV field past the field limit is refused as it is read, and long values are cut in messages",
          "[importlimits]")
{
    // A 100 MB field once became a 100 MB message; the reader stops at 4096 characters.
    const QByteArray huge(200'000, '9');
    const std::string tooLong = storeErrorOf([&] {
        parseTelemetry(kTelemetryHeader + "2026-03-02T14:00:00Z,a,m,chat," + huge + "\n", QStringLiteral("t.csv"));
    });
    CHECK_THAT(tooLong, Contains("t.csv: line 2: field 5: longer than 4096 characters; a field of a telemetry CSV "
                                     "file may have at most 4096 (see \"Import limits\"); it starts \""
                                     + std::string(40, '9') + "…\""));
    CHECK(tooLong.size() < 300);

    const QByteArray bad = "x" + QByteArray(1000, 'y');
    const std::string cut = storeErrorOf([&] {
        parseTelemetry(kTelemetryHeader + "2026-03-02T14:00:00Z,a,m,chat," + bad + "\n", QStringLiteral("t.csv"));
    });
    CHECK(cut == "t.csv: line 2: field \"gpus\": '" + ("x" + std::string(39, 'y')) + "…' is not a number");

    const std::string timestamp = storeErrorOf([&] {
        parseDemandCsv("timestamp,gpus\n" + QByteArray(3000, '2') + ",1\n", QStringLiteral("d.csv"));
    });
    CHECK_THAT(timestamp, Contains(std::string(40, '2') + "…\"") && !Contains(std::string(41, '2')));
    const std::string rate = storeErrorOf([&] {
        parseRateCardsCsv(QByteArray(3000, 'c') + "\n", QStringLiteral("r.csv"));
    });
    CHECK_THAT(rate, Contains(std::string(40, 'c') + "…") && !Contains(std::string(41, 'c')));
}

TEST_CASE("a telemetry sample counting more GPUs than any fleet is refused naming its line", "[importlimits]")
{
    // 1e308 GPUs once imported, and the forecast showed SSE inf and NaN bands.
    const std::string huge = storeErrorOf([&] {
        parseTelemetry(kTelemetryHeader + "2026-03-02T14:00:00Z,a,m,chat,4\n2026-03-02T15:00:00Z,a,m,chat,1e308\n",
                       QStringLiteral("t.csv"));
    });
    CHECK(huge == "t.csv: line 3: field \"gpus\": 1e308 GPUs is more than 10,000,000, the most one sample may count");
    CHECK(parseTelemetry(kTelemetryHeader + "2026-03-02T14:00:00Z,a,m,chat,10000000\n", QStringLiteral("t.csv")).size() == 1);
}

TEST_CASE("a NUL byte inside a CSV number is refused, not read as the digits before it", "[importlimits]")
{
    // "8\0xyz" was read as 8.
    const QByteArray nul("8\0xyz", 5);
    CHECK_THAT(storeErrorOf([&] {
                   parseTelemetry(kTelemetryHeader + "2026-03-02T14:00:00Z,a,m,chat," + nul + "\n", QStringLiteral("t.csv"));
               }),
               Contains("t.csv: line 2: field 5: a NUL byte"));
    CHECK_THAT(storeErrorOf([&] { parsePodRecords(kPodHeader + "p," + nul + ",1000,0,10\n", QStringLiteral("p.csv")); }),
               Contains("p.csv: line 2: field 2: a NUL byte"));
    CHECK_THAT(storeErrorOf([&] { parseDemandCsv("gpus\n" + nul + "\n", QStringLiteral("d.csv")); }),
               Contains("NUL byte"));
    CHECK_THAT(storeErrorOf([&] { parseNumberLines("1\n" + nul + "\n", QStringLiteral("n.txt")); }),
               Contains("n.txt: line 2: '8\\0xyz' holds a NUL byte"));
}

TEST_CASE("files, rows and fields past their limits are refused naming the limit", "[importlimits]")
{
    SECTION("file size, checked before reading")
    {
        QTemporaryDir dir;
        REQUIRE(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("cards.csv"));
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        REQUIRE(file.resize(limits::kRateCardCsv.maxBytes + 1));
        file.close();
        REQUIRE(file.open(QIODevice::ReadOnly));
        CHECK(storeErrorOf([&] { readImportFile(file, path, limits::kRateCardCsv); })
              == (path + QStringLiteral(": the file has 8388609 bytes; a rate card CSV file may have "
                                        "at most 8 MiB (see \"Import limits\")"))
                     .toStdString());
        CHECK_THAT(storeErrorOf([&] { parseWorkload(QByteArray(limits::kWorkloadJson.maxBytes + 1, ' '), QStringLiteral("w.json")); }),
                   Contains("w.json: the file has 1048577 bytes; a workload JSON file may have at most 1 MiB"));
    }
    SECTION("rows: a demand series longer than 20 years of hours")
    {
        QByteArray csv = "gpus\n";
        for (qint64 i = 0; i <= limits::kMaxHours; ++i)
            csv += "1\n";
        CHECK(storeErrorOf([&] { parseDemandCsv(csv, QStringLiteral("d.csv")); })
              == "d.csv: line 175682: more than 175680 rows; a demand CSV file may have at most 175680 (see \"Import limits\")");
        csv.chop(2);
        CHECK(parseDemandCsv(csv, QStringLiteral("d.csv")).gpus.size() == size_t(limits::kMaxHours));
    }
    SECTION("fields per line")
    {
        CHECK_THAT(storeErrorOf([&] { parsePodRecords(QByteArray(300, ',') + "\n", QStringLiteral("p.csv")); }),
                   Contains("p.csv: line 1: field 257: more than 256 fields on one line; a CSV line may have at most 256"));
    }
    SECTION("catalog entries and JSON strings")
    {
        QByteArray many = "{\"gpus\": [";
        for (int i = 0; i <= limits::kCatalogJson.maxRows; ++i)
            many += i == 0 ? "{}" : ",{}";
        many += "]}";
        CHECK(storeErrorOf([&] { parseCatalog(many, QStringLiteral("c.json")); })
              == "c.json: \"gpus\" has 100001 entries; a catalog may have at most 100000 (see \"Import limits\")");
        const QByteArray longName = "\"" + QByteArray(5000, 'n') + "\"";
        CHECK_THAT(storeErrorOf([&] { parseScenario("{\"name\": " + longName + ", \"rate_card\": {}, \"pools\": []}", QStringLiteral("s.json")); }),
                   Contains("field \"name\": 5000 characters; a string may have at most 4096") && Contains(std::string(40, 'n') + "…"));
    }
}

TEST_CASE("trace limits: line length, hash count and timestamps out of range", "[importlimits][traces]")
{
    CHECK_THAT(storeErrorOf([&] { parseAzureTrace(kAzureHeader + QByteArray(5000, '1') + "\n", QStringLiteral("a.csv")); }),
               Contains("a.csv: line 2: the line has 5000 bytes; a line of a trace CSV (Azure) file may have at most 4096"));

    // Years ≥ 2263 overflowed 64-bit nanoseconds and 0001 wrapped; both are refused by name.
    for (const char *time : {"2263-01-01 00:00:00", "0001-01-01 00:00:00", "9999-12-31 23:59:59"}) {
        CAPTURE(time);
        CHECK_THAT(storeErrorOf([&] { parseAzureTrace(kAzureHeader + time + ",1,1\n", QStringLiteral("a.csv")); }),
                   Contains("a.csv: line 2: field \"TIMESTAMP\": \"" + std::string(time)
                            + "\" is outside the years 1970 to 2200 a trace may span"));
    }
    const auto edge = parseAzureTrace(kAzureHeader + "1970-01-01 00:00:00,1,1\n2200-12-31 23:59:59.999999999,2,2\n",
                                      QStringLiteral("a.csv"));
    REQUIRE(edge.size() == 2);
    CHECK(edge[1].timestampS == Approx(7289654399.999999999));

    // A Mooncake timestamp of 1e300 ms was accepted.
    CHECK(storeErrorOf([&] {
              parseMooncakeTrace("{\"timestamp\": 1e300, \"input_length\": 1, \"output_length\": 1}\n",
                                 QStringLiteral("m.jsonl"));
          })
          == "m.jsonl: line 1: field \"timestamp\": must be between 0 and 3155760000000 ms (100 years), got 1e+300");
    QByteArray hashes = "{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [0";
    for (int i = 0; i < limits::kMaxMooncakeHashIds; ++i)
        hashes += ",1";
    hashes += "]}\n";
    CHECK_THAT(storeErrorOf([&] { parseMooncakeTrace(hashes, QStringLiteral("m.jsonl")); }),
               Contains("m.jsonl: line 1: field \"hash_ids\": 65537 block hashes; a request may have at most 65536"));
}

TEST_CASE("demand CSV Unix seconds outside the years 1 to 9999 are refused, not overflowed", "[importlimits]")
{
    CHECK_THAT(storeErrorOf([&] {
                   parseDemandCsv("timestamp,gpus\n9223372036854775807,1\n9223372036854775807,1\n", QStringLiteral("d.csv"));
               }),
               Contains("d.csv: line 2: field \"timestamp\"") && Contains("years 1 to 9999"));
    CHECK(parseDemandCsv("timestamp,gpus\n253402297200,1\n", QStringLiteral("d.csv")).startEpochSeconds == 253402297200);
}

TEST_CASE("scenario JSON integers are range-checked before narrowing and shown as written", "[importlimits][scenariojson]")
{
    // 2^32 + 12 was read as 12, a valid horizon.
    CHECK(storeErrorOf([&] { parseScenario(scenarioWith(", \"horizon_months\": 4294967308"), QStringLiteral("s.json")); })
          == "s.json: field \"horizon_months\": 4294967308 is outside -2147483648..2147483647");
    CHECK(storeErrorOf([&] {
              parseScenario(scenarioWith(", \"autoscale\": {\"cooldown_seconds\": -4294966696}"), QStringLiteral("s.json"));
          })
          == "s.json: field \"autoscale.cooldown_seconds\": -4294966696 is outside -2147483648..2147483647");
    CHECK_THAT(storeErrorOf([&] {
                   parseScenario("{\"name\": \"x\", \"rate_card\": {\"provider\": \"A\", \"region\": \"r\"}, \"pools\": "
                                 "[{\"name\": \"p\", \"gpu\": \"g\", \"gpus\": 1e300}]}",
                                 QStringLiteral("s.json"));
               }),
               Contains("field \"pools[0].gpus\": 1e+300 is outside"));
    CHECK(parseScenario(scenarioWith(", \"horizon_months\": 36"), QStringLiteral("s.json")).horizonMonths == 36);
}

TEST_CASE("shown values are cut at 40 characters and control characters made visible", "[importlimits]")
{
    CHECK(shownValue(QString(40, QLatin1Char('a'))) == QString(40, QLatin1Char('a')));
    CHECK(shownValue(QString(41, QLatin1Char('a'))) == QString(40, QLatin1Char('a')) + QStringLiteral("…"));
    CHECK(shownValue(QStringLiteral("a\nb\tc")) == QStringLiteral("a\\nb\\x09c"));
    CHECK(shownValue(QByteArray(100'000'000 / 1000, 'z')).size() == 41);
}

TEST_CASE("a NUL character in any JSON text is refused where it stands", "[importlimits]")
{
    // As the escape \u0000 in a name or a description, and as a raw byte.
    CHECK(storeErrorOf([] {
              parseScenario("{\"name\": \"Chat\\u0000bot\", \"pools\": []}", QStringLiteral("s.json"));
          })
          == "s.json: line 1, column 15 (byte 14): a NUL character (U+0000); no text may hold one");
    CHECK_THAT(storeErrorOf([] {
                   parseWorkload("{\n  \"name\": \"w\",\n  \"description\": \"a\\u0000\"\n}", QStringLiteral("w.json"));
               }),
               Contains("w.json: line 3,") && Contains("NUL character"));
    CHECK_THAT(storeErrorOf([] { parseCatalog(QByteArray("{\"gpus\": [{\"id\": \"a\0b\"}]}", 25), QStringLiteral("c.json")); }),
               Contains("c.json: line 1, column 20") && Contains("NUL character"));
    // An escaped backslash before "u0000" is a backslash and the text "u0000", not a NUL.
    CHECK_THAT(storeErrorOf([] { parseScenario("{\"name\": \"a\\\\u0000\", \"pools\": 3}", QStringLiteral("s.json")); }),
               !Contains("NUL"));
}

TEST_CASE("no text holding a NUL character is written to a workspace, file or server", "[workspace]")
{
    WorkspaceLocation location;
    Workspace workspace(location.path());
    engine::GpuSpec gpu = sampleGpu("nul-gpu");
    gpu.name = std::string("H100\0 evil", 10);
    CHECK_THAT(storeErrorOf([&] { workspace.putGpu(gpu); }), Contains("NUL character") && Contains("nothing was changed"));
    CHECK_FALSE(workspace.gpu(QStringLiteral("nul-gpu")));

    // Every other character reaches the server as data: the Qt PostgreSQL driver writes bound
    // values into the statement, escaped; quotes, backslashes and dollar quotes stay text.
    gpu.name = "H100 '); DROP TABLE gpu; -- \\' \\\\ $$x$$ E'\\x41' \xe2\x80\xae \xf0\x9f\x98\x80";
    workspace.putGpu(gpu);
    const auto stored = workspace.gpu(QStringLiteral("nul-gpu"));
    REQUIRE(stored);
    CHECK(stored->name == gpu.name);
    CHECK(workspace.gpus().size() > 1);
}

TEST_CASE("a column named twice in a CSV header is refused, not read from the last one", "[importlimits]")
{
    CHECK_THAT(storeErrorOf([] {
                   parseTelemetry("timestamp,tenant,model,workload_type,gpus,GPUS\n2026-03-02T14:00:00Z,a,m,chat,1,999\n",
                                  QStringLiteral("t.csv"));
               }),
               Contains("t.csv: line 1: field \"GPUS\": the column appears twice (fields 5 and 6)"));
    CHECK_THAT(storeErrorOf([] {
                   parseMetricsCsv("timestamp,instance,gpu,metric,value,value\n2026-03-02T14:00:00Z,r1,0,gpu_util,0.5,0.9\n",
                                   QStringLiteral("m.csv"));
               }),
               Contains("m.csv: line 1: field \"value\": the column appears twice (fields 5 and 6)"));
    CHECK_THAT(storeErrorOf([] { parsePodRecords(kPodHeader.trimmed() + ",num_gpu\np,1,1000,0,10,2\n", QStringLiteral("p.csv")); }),
               Contains("p.csv: line 1: field \"num_gpu\": the column appears twice (fields 2 and 6)"));
    CHECK_THAT(storeErrorOf([] { parseFragNodes("sn,cpu_milli,memory_mib,gpu,model,gpu\nn1,1000,1024,1,V100M16,8\n", QStringLiteral("n.csv")); }),
               Contains("n.csv: line 1: column \"gpu\" appears twice (fields 4 and 6)"));
}

TEST_CASE("a small file is read without reserving its kind's whole size limit", "[importlimits]")
{
    // A 12 KB file read under the 512 MiB trace limit, in a child whose address space leaves
    // 256 MiB free: reading it must not ask for the whole limit at once.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("small.jsonl"));
    writeBytes(path, QByteArray(12 * 1024, 'x'));
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        long pages = 0;
        if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
            if (std::fscanf(statm, "%ld", &pages) != 1)
                pages = 0;
            std::fclose(statm);
        }
        const rlim_t used = rlim_t(pages) * rlim_t(::sysconf(_SC_PAGESIZE));
        const rlimit limit{used + (rlim_t(256) << 20), used + (rlim_t(256) << 20)};
        if (pages == 0 || ::setrlimit(RLIMIT_AS, &limit) != 0)
            ::_exit(3);
        try {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                ::_exit(4);
            const QByteArray bytes = readImportFile(file, path, limits::kMooncakeTrace);
            ::_exit(bytes.size() == 12 * 1024 ? 0 : 1);
        } catch (...) {
            ::_exit(2);
        }
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);   // 2: refused for want of memory, as a one-shot read was
}

TEST_CASE("JSON that cannot be read is described in a reader's words, with its line and column", "[importlimits]")
{
    // A trailing comma, a missing comma and an unclosed list: where, and what is wrong, not Qt's parser terms.
    CHECK(storeErrorOf([] { parseWorkload("{\n  \"name\": \"w\",\n}", QStringLiteral("w.json")); })
          == "w.json: line 3, column 2: not valid JSON: a comma is not followed by another entry (remove the comma "
             "before a closing } or ])");
    CHECK_THAT(storeErrorOf([] { parseWorkload("{\"name\": \"w\" \"users\": 4}", QStringLiteral("w.json")); }),
               Catch::Matchers::StartsWith("w.json: line 1, column 15: not valid JSON: an object opened with { is not closed with }, "
                          "or a comma is missing"));
    CHECK_THAT(storeErrorOf([] { parseScenario("{\"name\": \"s\", \"pools\": [", QStringLiteral("s.json")); }),
               Contains("not valid JSON: ") && !Contains("illegal") && !Contains("unterminated"));
    CHECK_THAT(storeErrorOf([] { parseWorkload("{\"name\": wat}", QStringLiteral("w.json")); }),
               Contains("line 1, column 10: not valid JSON: here is something that is not a value"));
}
