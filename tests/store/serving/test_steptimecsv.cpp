#include "common/storetestsupport.h"
#include "store/serving/steptimecsv.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <string>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;

namespace {

const QByteArray kHeader = "phase,batch,context_tokens,prefill_tokens,ms\n";
const QByteArray kGood = "decode,1,0,,10\n"
                         "decode,1,1000,,12\n"
                         "decode,4,0,,13\n"
                         "decode,4,1000,,21\n"
                         "prefill,,,1000,50\n";

std::string errorOf(const QByteArray &csv)
{
    return storeErrorOf([&] { parseStepTimes(csv, QStringLiteral("st.csv")); });
}

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("step-time rows read in any column order with comments and blank lines", "[steptimecsv]")
{
    const QByteArray csv = "# measured on a test bench\n"
                           "ms,phase,prefill_tokens,context_tokens,batch,note\n"
                           "10,decode,,0,1,a\n"
                           "\n"
                           "12.5,Decode,,1000,1,\n"
                           "# a comment between rows\n"
                           "13,decode,,0,4,\n"
                           "21,decode,,1000,4,\n"
                           "50,prefill,1000,,,\n"
                           "110,prefill,3000,,,\n";
    const engine::StepTimeTable t = parseStepTimes(csv, QStringLiteral("st.csv"));
    REQUIRE(t.decode.size() == 4);
    REQUIRE(t.prefill.size() == 2);
    CHECK(t.decode[1].batch == 1);
    CHECK(t.decode[1].contextTokens == 1000);
    CHECK(t.decode[1].ms == 12.5);
    CHECK(t.prefill[1].tokens == 3000);
    CHECK(t.prefill[1].ms == 110);
    // b = 2, c = 500: batch 1 → 11.25 ms, batch 4 → 17 ms, a third of the way → 13.1667 ms.
    CHECK(engine::StepTimeModel(t).decodeSeconds(2, 500) == Approx((11.25 + (17 - 11.25) / 3.0) / 1000.0));
}

TEST_CASE("step-time files refuse bad rows naming the line and the column", "[steptimecsv]")
{
    CHECK(contains(errorOf(""), "st.csv: the file is empty; expected the header phase,batch,context_tokens,prefill_tokens,ms"));
    CHECK(contains(errorOf("phase,batch,ms\n"), "missing column"));
    CHECK(contains(errorOf(kHeader + "warmup,1,0,,10\n"), "st.csv: line 2: field \"phase\": 'warmup' is not decode or prefill"));
    CHECK(contains(errorOf(kHeader + kGood + "decode,0,0,,10\n"), "line 7: field \"batch\": 0 is below 1"));
    CHECK(contains(errorOf(kHeader + kGood + "decode,2.5,0,,10\n"), "line 7: field \"batch\": '2.5' is not a whole number"));
    CHECK(contains(errorOf(kHeader + kGood + "decode,2,-1,,10\n"), "line 7: field \"context_tokens\": -1 is below 0"));
    CHECK(contains(errorOf(kHeader + kGood + "decode,2,,,10\n"), "line 7: field \"context_tokens\": is empty"));
    CHECK(contains(errorOf(kHeader + kGood + "decode,2,0,512,10\n"), "line 7: field \"prefill_tokens\": must be empty in a decode row"));
    CHECK(contains(errorOf(kHeader + kGood + "prefill,1,,512,10\n"), "line 7: field \"batch\": must be empty in a prefill row"));
    CHECK(contains(errorOf(kHeader + kGood + "prefill,,,0,10\n"), "line 7: field \"prefill_tokens\": 0 is below 1"));
    CHECK(contains(errorOf(kHeader + kGood + "prefill,,,512,0\n"), "line 7: field \"ms\": 0 ms is not above 0"));
    CHECK(contains(errorOf(kHeader + kGood + "prefill,,,512,inf\n"), "line 7: field \"ms\": 'inf' is not a finite number"));
    CHECK(contains(errorOf(kHeader + kGood + "prefill,,,512,\n"), "line 7: field \"ms\": is empty"));
    CHECK(contains(errorOf(kHeader + kGood + "decode,4,1000,,22\n"),
                   "line 7: field \"batch\": batch 4 at context_tokens 1000 is already on line 5"));
    CHECK(contains(errorOf(kHeader + kGood + "prefill,,,1000,60\n"),
                   "line 7: field \"prefill_tokens\": 1000 tokens is already on line 6"));
    CHECK(contains(errorOf(kHeader + kGood + "decode,8,0,,20\n"),
                   "st.csv: the decode points must form a grid: batch 8 has no point at context_tokens 1000"));
    CHECK(contains(errorOf(kHeader + "prefill,,,1000,50\n"), "st.csv: the step-time table needs at least one decode point"));
    CHECK(contains(errorOf(kHeader + "decode,1,0,,10\n"), "needs at least one prefill point"));
    CHECK(contains(errorOf(kHeader + "decode,1,0,10\n"), "line 2 has 4 values but the header names 5 columns"));
}

TEST_CASE("a step of more than an hour is refused, not printed as inf ms", "[steptimecsv]")
{
    CHECK(contains(errorOf(kHeader + kGood + "prefill,,,2000,1e308\n"),
                   "line 7: field \"ms\": 1e308 ms is beyond any real step (at most 3600000 ms, an hour)"));
    CHECK(contains(errorOf(kHeader + "decode,1,0,,3600001\n" + "prefill,,,1000,50\n"), "line 2: field \"ms\""));
    const auto hour = parseStepTimes(kHeader + "decode,1,0,,3600000\nprefill,,,1000,3600000\n", QStringLiteral("st.csv"));
    CHECK(hour.prefill.front().ms == 3'600'000);
}

TEST_CASE("a byte-order mark before a leading comment line is skipped", "[steptimecsv]")
{
    const auto table = parseStepTimes("\xEF\xBB\xBF# measured on an H100\n" + kHeader + kGood, QStringLiteral("st.csv"));
    CHECK(table.decode.size() == 4);
    CHECK(table.prefill.size() == 1);
}

TEST_CASE("the sample step-time table reads whole", "[steptimecsv]")
{
    const engine::StepTimeTable t
        = readStepTimes(sourceFile(QStringLiteral("data/samples/step-times-llama-3.1-8b-h100.csv")));
    CHECK(t.decode.size() == 30);
    CHECK(t.prefill.size() == 3);
    // Batch 1 at context 0 reads the weights once, with the H100 profile: 0.15 ms per pass + 32
    // layers × 30 µs + 16.06 GB at 3.35 TB/s × 0.9 = 6.437 ms.
    CHECK(t.decode[0].ms == Approx(0.15 + 32 * 0.030 + 16060522496.0 / (3.35e12 * 0.9) * 1000.0).epsilon(1e-5));
    CHECK(contains(storeErrorOf([] { readStepTimes(QStringLiteral("/nonexistent/st.csv")); }), "cannot read the file"));
}
