#include "engine/common/errors.h"
#include "publictraces.h"
#include "tracefiles.h"
#include "engine/serving/trace.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::readMooncake;

namespace {

// Five requests over 130 s. Blocks: [1 2 3]: 0 hits (nothing seen yet); [1 2 4]: 1 and 2
// seen, 4 not → 2 hits; [5 1]: 5 unseen, matching stops → 0 hits although 1 was seen;
// [1 2 3 5]: all seen → 4 hits; the last request has no blocks. 6 hits of 12 blocks = 0.5.
// Minutes from t0 = 0: {0, 10, 59.9} → 3, {60} → 1, {130} → 1; peak 3.
std::vector<TraceRequest> handTrace()
{
    return {
        {0.0, 100, 10, {1, 2, 3}},
        {10.0, 200, 20, {1, 2, 4}},
        {59.9, 300, 30, {5, 1}},
        {60.0, 400, 40, {1, 2, 3, 5}},
        {130.0, 500, 50, {}},
    };
}

// Azure "2023-11-16 18:15:46.6805900": seconds of the day (the trace covers one day).
double azureSeconds(const std::string &stamp)
{
    const size_t space = stamp.find(' ');
    const std::string time = stamp.substr(space + 1);
    return std::stod(time.substr(0, 2)) * 3600 + std::stod(time.substr(3, 2)) * 60
        + std::stod(time.substr(6));
}

std::vector<TraceRequest> readAzure(const std::string &path, size_t *lines)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<TraceRequest> requests;
    std::string line;
    *lines = 0;
    while (std::getline(in, line)) {
        if (++*lines == 1)
            continue; // TIMESTAMP,ContextTokens,GeneratedTokens
        const size_t first = line.find(',');
        const size_t second = line.find(',', first + 1);
        TraceRequest r;
        r.timestampS = azureSeconds(line.substr(0, first));
        r.promptTokens = std::stoll(line.substr(first + 1, second - first - 1));
        r.outputTokens = std::stoll(line.substr(second + 1));
        requests.push_back(r);
    }
    return requests;
}

} // namespace

TEST_CASE("trace stats of a hand-built trace", "[trace]")
{
    const TraceStats s = analyseTrace(handTrace());
    CHECK(s.requests == 5);
    CHECK(s.durationS == 130.0);
    CHECK(s.rateMeanPerS == Approx(5.0 / 130.0).epsilon(1e-15));
    CHECK(s.ratePeakPerMin == 3);
    // Type 7: h = 4p; P50 = x[2] = 300; P95: h = 3.8 → 400 + 0.8 × 100 = 480.
    CHECK(s.promptTokens.p50 == 300);
    CHECK(s.promptTokens.p95 == Approx(480).epsilon(1e-12));
    CHECK(s.outputTokens.p50 == 30);
    CHECK(s.outputTokens.p95 == Approx(48).epsilon(1e-12));
    REQUIRE(s.prefixHitRate.has_value());
    CHECK(*s.prefixHitRate == 0.5);
}

TEST_CASE("trace percentiles do not depend on request order", "[trace]")
{
    std::vector<TraceRequest> shuffled = handTrace();
    std::swap(shuffled[0], shuffled[4]);
    const TraceStats s = analyseTrace(shuffled);
    CHECK(s.durationS == 130.0);
    CHECK(s.promptTokens.p95 == Approx(480).epsilon(1e-12));
    CHECK(s.ratePeakPerMin == 3);
}

TEST_CASE("a trace without block hashes has no prefix hit rate", "[trace]")
{
    std::vector<TraceRequest> trace = handTrace();
    for (TraceRequest &r : trace)
        r.blockHashes.clear();
    CHECK_FALSE(analyseTrace(trace).prefixHitRate.has_value());
}

TEST_CASE("a one-request trace has zero duration and no mean rate", "[trace]")
{
    const TraceStats s = analyseTrace({{5.0, 42, 7, {}}});
    CHECK(s.requests == 1);
    CHECK(s.durationS == 0);
    CHECK(s.rateMeanPerS == 0);
    CHECK(s.ratePeakPerMin == 1);
    CHECK(s.promptTokens.p50 == 42);
    CHECK(s.promptTokens.p95 == 42);
}

TEST_CASE("an empty trace or negative tokens are refused", "[trace][bad-input]")
{
    try {
        analyseTrace({});
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "trace");
    }
    try {
        analyseTrace({{0, 10, 1, {}}, {1, -3, 1, {}}});
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.field() == "prompt_tokens");
        CHECK(std::string(e.what()).find("request 2") != std::string::npos);
    }
}

// Expected values computed independently with python3 on this machine: the file read with
// str.split, timestamps as seconds of the day, percentiles by the type-7 formula, minutes by
// floor((t − t0) / 60), the hit rate by the walk described in trace.h.
TEST_CASE("the Azure conversation trace matches independently computed stats", "[trace][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    size_t lines = 0;
    const auto requests = readAzure(
        HEADROOM_SHARED_DATA "/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv",
        &lines);
    // 19,366 newline characters; the last line has none, so 19,367 lines with the header.
    CHECK(lines == 19367);
    const TraceStats s = analyseTrace(requests);
    CHECK(s.requests == 19366);
    CHECK(s.durationS == Approx(3501.721937).margin(1e-6));
    CHECK(s.rateMeanPerS == Approx(5.530421989071838).epsilon(1e-9));
    CHECK(s.ratePeakPerMin == 507);
    CHECK(s.promptTokens.p50 == 1020);
    CHECK(s.promptTokens.p95 == 4083);
    CHECK(s.outputTokens.p50 == 129);
    CHECK(s.outputTokens.p95 == 451);
    CHECK_FALSE(s.prefixHitRate.has_value());
}

TEST_CASE("the Mooncake conversation trace matches independently computed stats", "[trace][data]")
{
    SKIP_WITHOUT_PUBLIC_TRACES("traces");
    const auto requests =
        readMooncake(HEADROOM_SHARED_DATA "/traces/mooncake-fast25/conversation_trace.jsonl");
    const TraceStats s = analyseTrace(requests);
    CHECK(s.requests == 12031);
    CHECK(s.durationS == Approx(3536.999).margin(1e-9));
    CHECK(s.rateMeanPerS == Approx(3.4014711341450763).epsilon(1e-9));
    CHECK(s.ratePeakPerMin == 247);
    CHECK(s.promptTokens.p50 == 6909);
    CHECK(s.promptTokens.p95 == Approx(39550.5).epsilon(1e-12));
    CHECK(s.outputTokens.p50 == 350);
    CHECK(s.outputTokens.p95 == 698);
    REQUIRE(s.prefixHitRate.has_value());
    // 105,710 leading hits of 288,500 blocks.
    CHECK(*s.prefixHitRate == Approx(105710.0 / 288500.0).epsilon(1e-15));
}
