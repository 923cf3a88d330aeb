#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/kv.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

KvInputs llamaOnH100()
{
    KvInputs in;
    in.model = llama31_8b();
    in.gpuMemoryBytes = h100Sxm().memoryBytes;
    in.utilization = 0.9;
    return in;
}

} // namespace

TEST_CASE("concurrency curve spans min to max on strictly increasing integer contexts", "[kv][curve]")
{
    const auto curve = concurrencyCurve(llamaOnH100(), 128, 131072, 64);
    REQUIRE(curve.size() == 64);
    CHECK(curve.front().context == 128);
    CHECK(curve.back().context == 131072);
    for (size_t i = 1; i < curve.size(); ++i) {
        INFO("point " << i);
        CHECK(curve[i].context > curve[i - 1].context);
        CHECK(curve[i].streams <= curve[i - 1].streams);
    }
    // Log spacing: 1024× over 63 steps, the midpoint (i = 21 of 63 is 2^(10/3)) is ~1290.
    CHECK(curve[21].context == 1290);
    // 29043 blocks of 2 MiB: 128 tokens is 8 blocks, 131072 tokens is 8192 blocks.
    CHECK(curve.front().streams == 29043 / 8);
    CHECK(curve.back().streams == 3);
}

TEST_CASE("concurrency curve agrees with analyseKv at the same contexts", "[kv][curve]")
{
    KvInputs in = llamaOnH100();
    in.sharedPrefixTokens = 2000;
    const auto curve = concurrencyCurve(in, 1000, 100000, 17);
    in.contexts.clear();
    for (const StreamsAt &p : curve)
        in.contexts.push_back(p.context);
    const KvResult r = analyseKv(in);
    REQUIRE(r.streams.size() == curve.size());
    for (size_t i = 0; i < curve.size(); ++i) {
        CHECK(r.streams[i].streams == curve[i].streams);
        CHECK(r.streams[i].bytesPerStream == curve[i].bytesPerStream);
    }
}

TEST_CASE("a narrow context range returns every integer once", "[kv][curve]")
{
    const auto curve = concurrencyCurve(llamaOnH100(), 10, 20, 64);
    REQUIRE(curve.size() == 11);
    for (size_t i = 0; i < curve.size(); ++i)
        CHECK(curve[i].context == int64_t(10 + i));

    const auto single = concurrencyCurve(llamaOnH100(), 4096, 4096, 8);
    REQUIRE(single.size() == 1);
    CHECK(single[0].context == 4096);
    CHECK(single[0].streams == 113);
}

TEST_CASE("concurrency curve rejects bad ranges and bad analysis inputs", "[kv][curve]")
{
    CHECK_THROWS_AS(concurrencyCurve(llamaOnH100(), 0, 100, 8), InputError);
    CHECK_THROWS_AS(concurrencyCurve(llamaOnH100(), 200, 100, 8), InputError);
    try {
        concurrencyCurve(llamaOnH100(), 1, 100, 1);
        FAIL("expected InputError");
    } catch (const InputError &e) {
        CHECK(e.field() == "points");
    }
    KvInputs bad = llamaOnH100();
    bad.utilization = 0;
    CHECK_THROWS_AS(concurrencyCurve(bad, 1, 100, 8), InputError);
}

TEST_CASE("a model that does not fit has a flat zero curve", "[kv][curve]")
{
    KvInputs in = llamaOnH100();
    in.model = llama31_70b();
    const auto curve = concurrencyCurve(in, 1024, 65536, 12);
    REQUIRE(curve.size() == 12);
    for (const StreamsAt &p : curve)
        CHECK(p.streams == 0);
}
