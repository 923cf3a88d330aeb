#include "common/storetestsupport.h"
#include "publictraces.h"

#include "store/serving/tracereaders.h"
#include "store/inference/workloadjson.h"

#include <QTemporaryDir>
#include <numeric>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::StartsWith;

namespace {

const QString kAzureConv =
    QStringLiteral(HEADROOM_SHARED_DATA "/traces/azure-llm-inference-2023/"
                   "AzureLLMInferenceTrace_conv.csv");
const QString kAzureCode =
    QStringLiteral(HEADROOM_SHARED_DATA "/traces/azure-llm-inference-2023/"
                   "AzureLLMInferenceTrace_code.csv");
const QString kMooncake =
    QStringLiteral(HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl");

const QByteArray kHeader = "TIMESTAMP,ContextTokens,GeneratedTokens\n";

std::string azureErrorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parseAzureTrace(csv, QStringLiteral("conv.csv")); });
}

std::string mooncakeErrorOf(const QByteArray &jsonl)
{
    return storeErrorOf([&] { parseMooncakeTrace(jsonl, QStringLiteral("trace.jsonl")); });
}

int64_t promptSum(const std::vector<engine::TraceRequest> &requests)
{
    return std::accumulate(requests.begin(), requests.end(), int64_t(0),
                           [](int64_t sum, const auto &r) { return sum + r.promptTokens; });
}

int64_t outputSum(const std::vector<engine::TraceRequest> &requests)
{
    return std::accumulate(requests.begin(), requests.end(), int64_t(0),
                           [](int64_t sum, const auto &r) { return sum + r.outputTokens; });
}

} // namespace

TEST_CASE("Azure trace: times become seconds after the first request")
{
    const auto requests = parseAzureTrace(kHeader
                                              + "2023-11-16 18:15:46.6805900,374,44\n"
                                                "2023-11-16 18:15:50.9951690,396,109\n"
                                                "2023-11-16 18:16:00,0,1\n",
                                          QStringLiteral("conv.csv"));
    REQUIRE(requests.size() == 3);
    CHECK(requests[0].timestampS == 0);
    CHECK(requests[0].promptTokens == 374);
    CHECK(requests[0].outputTokens == 44);
    CHECK(requests[1].timestampS == 4.314579);
    CHECK(requests[1].promptTokens == 396);
    CHECK(requests[1].outputTokens == 109);
    CHECK(requests[2].timestampS == 13.31941);
    CHECK(requests[2].promptTokens == 0);
    CHECK(requests[2].blockHashes.empty());
}

TEST_CASE("Azure trace: CRLF, no final line break, blank lines, a byte-order mark")
{
    const auto requests =
        parseAzureTrace("\xEF\xBB\xBFTIMESTAMP, ContextTokens ,GeneratedTokens\r\n"
                        "2023-11-16 18:15:46.5,10,1\r\n"
                        "\r\n"
                        "2023-11-16 18:15:47.25,20,2",
                        QStringLiteral("conv.csv"));
    REQUIRE(requests.size() == 2);
    CHECK(requests[1].timestampS == 0.75);
    CHECK(requests[1].promptTokens == 20);
    CHECK(requests[1].outputTokens == 2);
}

TEST_CASE("Azure trace: times across midnight, month and year ends, and with offsets")
{
    const auto requests = parseAzureTrace(kHeader
                                              + "2023-12-31 23:59:59.5,1,1\n"
                                                "2024-01-01 00:00:00.25,1,1\n"
                                                "2024-03-01T00:00:00Z,1,1\n"
                                                "2024-03-01 02:00:00+01:00,1,1\n",
                                          QStringLiteral("conv.csv"));
    REQUIRE(requests.size() == 4);
    CHECK(requests[1].timestampS == 0.75);
    // 2024 is a leap year: 31 + 29 days from January 1st to March 1st.
    CHECK(requests[2].timestampS == 0.5 + 60 * 86400);
    CHECK(requests[3].timestampS == 0.5 + 60 * 86400 + 3600);
}

TEST_CASE("Azure trace errors name the line and the field")
{
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46.6805900,374,44\n"
                                 "2023-11-16 18:15:47.0000000,x,44\n")
          == "conv.csv: line 3: field \"ContextTokens\": expected a whole number, got \"x\"");
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46.6805900,374,-4")
          == "conv.csv: line 2: field \"GeneratedTokens\": expected a whole number, got \"-4\"");
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46.6805900,374,4.5\n")
          == "conv.csv: line 2: field \"GeneratedTokens\": expected a whole number, got \"4.5\"");
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46.6805900,374\n")
          == "conv.csv: line 2: expected 3 fields (TIMESTAMP,ContextTokens,GeneratedTokens), "
             "got 2");
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46.6805900,374,44,1\n")
          == "conv.csv: line 2: expected 3 fields (TIMESTAMP,ContextTokens,GeneratedTokens), "
             "got 4");
    CHECK(azureErrorOf(kHeader + "2023-02-29 18:15:46,374,44\n")
          == "conv.csv: line 2: field \"TIMESTAMP\": expected a time like 2023-11-16 "
             "18:15:46.6805900, got \"2023-02-29 18:15:46\"");
    CHECK(azureErrorOf(kHeader + "16/11/2023 18:15,374,44\n")
          == "conv.csv: line 2: field \"TIMESTAMP\": expected a time like 2023-11-16 "
             "18:15:46.6805900, got \"16/11/2023 18:15\"");
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46.1234567890,374,44\n")
          == "conv.csv: line 2: field \"TIMESTAMP\": expected a time like 2023-11-16 "
             "18:15:46.6805900, got \"2023-11-16 18:15:46.1234567890\"");
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46,1,1\n2023-11-16 18:15:47,1,1\n\n"
                                 "2023-11-16 18:15:45,1,1\n")
          == "conv.csv: line 5: field \"TIMESTAMP\": \"2023-11-16 18:15:45\" is earlier than "
             "line 3 (requests must be in time order)");
    CHECK(azureErrorOf("timestamp,prompt,output\n2023-11-16 18:15:46,1,1\n")
          == "conv.csv: line 1: expected the header TIMESTAMP,ContextTokens,GeneratedTokens, "
             "got \"timestamp,prompt,output\"");
    CHECK(azureErrorOf("2023-11-16 18:15:46,1,1\n")
          == "conv.csv: line 1: expected the header TIMESTAMP,ContextTokens,GeneratedTokens, "
             "got \"2023-11-16 18:15:46,1,1\"");
    CHECK(azureErrorOf(kHeader) == "conv.csv: no requests");
    CHECK(azureErrorOf(kHeader + "\r\n\n") == "conv.csv: no requests");
    CHECK(azureErrorOf("") == "conv.csv: no requests");
}

TEST_CASE("Azure trace: a long bad value is cut in the message")
{
    const QByteArray longValue(100, '7');
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46,1," + longValue + "\n")
          == "conv.csv: line 2: field \"GeneratedTokens\": expected a whole number, got \""
                 + std::string(40, '7') + "…\"");
}

TEST_CASE("trace files: a missing file is named")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("conv.csv"));
    CHECK_THAT(storeErrorOf([&] { readAzureTrace(missing); }),
               StartsWith(("Cannot read trace file \"" + missing + "\": ").toStdString()));
    CHECK_THAT(storeErrorOf([&] { readMooncakeTrace(missing); }),
               StartsWith(("Cannot read trace file \"" + missing + "\": ").toStdString()));

    const QString bad = dir.filePath(QStringLiteral("bad.csv"));
    writeBytes(bad, kHeader + "2023-11-16 18:15:46,1,z");
    CHECK(storeErrorOf([&] { readAzureTrace(bad); })
          == (bad + QStringLiteral(": line 2: field \"GeneratedTokens\": expected a whole "
                                   "number, got \"z\""))
                 .toStdString());
}

TEST_CASE("Mooncake trace: milliseconds become seconds, block hashes are kept")
{
    const auto requests = parseMooncakeTrace(
        "{\"timestamp\": 0, \"input_length\": 6758, \"output_length\": 500, "
        "\"hash_ids\": [0, 1, 2]}\r\n"
        "\n"
        "{\"timestamp\": 1500, \"input_length\": 700, \"output_length\": 7, "
        "\"hash_ids\": [0, 14], \"extra\": true}\r\n"
        "{\"timestamp\": 2250.5, \"input_length\": 1, \"output_length\": 0}",
        QStringLiteral("trace.jsonl"));
    REQUIRE(requests.size() == 3);
    CHECK(requests[0].timestampS == 0);
    CHECK(requests[0].promptTokens == 6758);
    CHECK(requests[0].outputTokens == 500);
    CHECK(requests[0].blockHashes == std::vector<int64_t>{0, 1, 2});
    CHECK(requests[1].timestampS == 1.5);
    CHECK(requests[1].blockHashes == std::vector<int64_t>{0, 14});
    CHECK(requests[2].timestampS == 2.2505);
    CHECK(requests[2].outputTokens == 0);
    CHECK(requests[2].blockHashes.empty());
}

TEST_CASE("Mooncake trace errors name the line and the field")
{
    const QByteArray good =
        "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [0]}\n";
    CHECK_THAT(mooncakeErrorOf(good + "{\"timestamp\": 1, \"input_length\": 10,\n"),
               StartsWith("trace.jsonl: line 2: not valid JSON at column "));
    CHECK(mooncakeErrorOf(good + "[1, 2]\n")
          == "trace.jsonl: line 2: expected a JSON object, got an array");
    CHECK(mooncakeErrorOf(good + good + "{\"input_length\": 10, \"output_length\": 5}\n")
          == "trace.jsonl: line 3: field \"timestamp\": missing");
    CHECK(mooncakeErrorOf(good + "{\"timestamp\": \"soon\", \"input_length\": 1, "
                                 "\"output_length\": 1}")
          == "trace.jsonl: line 2: field \"timestamp\": expected a number of milliseconds, "
             "got a string");
    CHECK(mooncakeErrorOf("{\"timestamp\": 5, \"input_length\": 1, \"output_length\": 1}\n"
                          "{\"timestamp\": 4, \"input_length\": 1, \"output_length\": 1}\n")
          == "trace.jsonl: line 2: field \"timestamp\": 4 is earlier than line 1 (requests must "
             "be in time order)");
    CHECK(mooncakeErrorOf(good + "{\"timestamp\": 1, \"output_length\": 1}\n")
          == "trace.jsonl: line 2: field \"input_length\": missing");
    CHECK(mooncakeErrorOf(good + "{\"timestamp\": 1, \"input_length\": \"x\", "
                                 "\"output_length\": 1}\n")
          == "trace.jsonl: line 2: field \"input_length\": expected a whole number, got a "
             "string");
    CHECK(mooncakeErrorOf(good + "{\"timestamp\": 1, \"input_length\": 1, "
                                 "\"output_length\": -3}\n")
          == "trace.jsonl: line 2: field \"output_length\": expected a whole number ≥ 0, got "
             "-3");
    CHECK(mooncakeErrorOf(good + "{\"timestamp\": 1, \"input_length\": 1, "
                                 "\"output_length\": 1, \"hash_ids\": 7}\n")
          == "trace.jsonl: line 2: field \"hash_ids\": expected an array of block hashes, got "
             "a number");
    CHECK(mooncakeErrorOf(good + "{\"timestamp\": 1, \"input_length\": 1, "
                                 "\"output_length\": 1, \"hash_ids\": [3, 4.5]}\n")
          == "trace.jsonl: line 2: field \"hash_ids\": item 1: expected a whole number, got "
             "4.5");
    CHECK(mooncakeErrorOf("") == "trace.jsonl: no requests");
    CHECK(mooncakeErrorOf("\n \n") == "trace.jsonl: no requests");
}

TEST_CASE("trace requests past 10,000,000 tokens are refused before anything is sized by them")
{
    // One line each used to take gigabytes (2^36 tokens) or hang the simulation (2^53 + 1).
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46,68719476736,1\n")
          == "conv.csv: line 2: field \"ContextTokens\": 68719476736 tokens; a request may have at "
             "most 10000000 (see \"Import limits\")");
    CHECK(azureErrorOf(kHeader + "2023-11-16 18:15:46,1,1\n2023-11-16 18:15:47,5,10000001\n")
          == "conv.csv: line 3: field \"GeneratedTokens\": 10000001 tokens; a request may have at "
             "most 10000000 (see \"Import limits\")");
    CHECK(mooncakeErrorOf("{\"timestamp\": 0, \"input_length\": 68719476736, \"output_length\": 1}\n")
          == "trace.jsonl: line 1: field \"input_length\": 68719476736 tokens; a request may have "
             "at most 10000000 (see \"Import limits\")");
    CHECK(mooncakeErrorOf("{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n"
                          "{\"timestamp\": 1, \"input_length\": 9007199254740993, \"output_length\": 1}\n")
          == "trace.jsonl: line 2: field \"input_length\": 9007199254740993 tokens; a request may have "
             "at most 10000000 (see \"Import limits\")");
    CHECK(mooncakeErrorOf("{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1e300}\n")
          == "trace.jsonl: line 1: field \"output_length\": 1e+300 tokens; a request may have "
             "at most 10000000 (see \"Import limits\")");
    // The limit itself is a request like any other.
    const auto atLimit = parseMooncakeTrace("{\"timestamp\": 0, \"input_length\": 10000000, \"output_length\": 10000000}\n",
                                            QStringLiteral("trace.jsonl"));
    REQUIRE(atLimit.size() == 1);
    CHECK(atLimit.front().promptTokens == 10'000'000);
    const auto azureAtLimit = parseAzureTrace(kHeader + "2023-11-16 18:15:46,10000000,10000000\n", QStringLiteral("conv.csv"));
    CHECK(azureAtLimit.front().outputTokens == 10'000'000);
}

TEST_CASE("the shipped Azure conversation trace: 19,366 requests, the last without a line "
          "break")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const QByteArray bytes = readBytes(kAzureConv);
    REQUIRE_FALSE(bytes.endsWith('\n'));
    const auto requests = readAzureTrace(kAzureConv);
    REQUIRE(requests.size() == 19366);
    CHECK(requests.front().timestampS == 0);
    CHECK(requests.front().promptTokens == 374);
    CHECK(requests.front().outputTokens == 44);
    CHECK(requests[1000].timestampS == 216.174389);
    CHECK(requests.back().timestampS == 3501.721937);
    CHECK(requests.back().promptTokens == 197);
    CHECK(requests.back().outputTokens == 183);
    CHECK(promptSum(requests) == 22361870);
    CHECK(outputSum(requests) == 4088665);
}

TEST_CASE("the shipped Azure code trace: 8,819 requests")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const auto requests = readAzureTrace(kAzureCode);
    REQUIRE(requests.size() == 8819);
    CHECK(requests.front().promptTokens == 4808);
    CHECK(requests[1000].timestampS == 521.680821);
    CHECK(requests.back().timestampS == 3435.948056);
    CHECK(requests.back().promptTokens == 549);
    CHECK(requests.back().outputTokens == 173);
    CHECK(promptSum(requests) == 18059974);
    CHECK(outputSum(requests) == 245896);
}

TEST_CASE("the shipped Mooncake conversation trace: 12,031 requests with block hashes")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const auto requests = readMooncakeTrace(kMooncake);
    REQUIRE(requests.size() == 12031);
    CHECK(requests.front().timestampS == 0);
    CHECK(requests.front().promptTokens == 6758);
    CHECK(requests.front().blockHashes.size() == 14);
    CHECK(requests.back().timestampS == 3536.999);
    CHECK(requests.back().blockHashes.back() == 182789);
    CHECK(promptSum(requests) == 144793823);
    CHECK(outputSum(requests) == 4122048);
    size_t blocks = 0;
    for (const auto &request : requests)
        blocks += request.blockHashes.size();
    CHECK(blocks == 288500);
}

// Reference values computed independently from the files with Python (csv, json, exact
// fractions for the type-7 percentiles; minute buckets counted from the first request).
TEST_CASE("the shipped traces read and analysed match independently computed statistics")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    SECTION("Azure conversation")
    {
        const engine::TraceStats stats = engine::analyseTrace(readAzureTrace(kAzureConv));
        CHECK(stats.requests == 19366);
        CHECK(stats.durationS == 3501.721937);
        CHECK(stats.rateMeanPerS == Approx(19366 / 3501.721937).epsilon(1e-12));
        CHECK(stats.ratePeakPerMin == 507);
        CHECK(stats.promptTokens.p50 == 1020);
        CHECK(stats.promptTokens.p95 == 4083);
        CHECK(stats.outputTokens.p50 == 129);
        CHECK(stats.outputTokens.p95 == 451);
        CHECK_FALSE(stats.prefixHitRate.has_value());
    }
    SECTION("Azure code")
    {
        const engine::TraceStats stats = engine::analyseTrace(readAzureTrace(kAzureCode));
        CHECK(stats.requests == 8819);
        CHECK(stats.durationS == 3435.948056);
        CHECK(stats.ratePeakPerMin == 632);
        CHECK(stats.promptTokens.p50 == 1469);
        CHECK(stats.promptTokens.p95 == Approx(7303.3).epsilon(1e-12));
        CHECK(stats.outputTokens.p50 == 13);
        CHECK(stats.outputTokens.p95 == 90);
        CHECK_FALSE(stats.prefixHitRate.has_value());
    }
    SECTION("Mooncake conversation")
    {
        const engine::TraceStats stats = engine::analyseTrace(readMooncakeTrace(kMooncake));
        CHECK(stats.requests == 12031);
        CHECK(stats.durationS == 3536.999);
        CHECK(stats.ratePeakPerMin == 247);
        CHECK(stats.promptTokens.p50 == 6909);
        CHECK(stats.promptTokens.p95 == Approx(39550.5).epsilon(1e-12));
        CHECK(stats.outputTokens.p50 == 350);
        CHECK(stats.outputTokens.p95 == 698);
        REQUIRE(stats.prefixHitRate.has_value());
        CHECK(*stats.prefixHitRate == 105710.0 / 288500.0);  // 0.3664
    }
}
