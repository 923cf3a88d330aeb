#include "engine/catalog/specs.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;

TEST_CASE("bytes per parameter follow the storage precision", "[types]")
{
    CHECK(bytesPerParam(WeightPrecision::Bf16) == 2.0);
    CHECK(bytesPerParam(WeightPrecision::Fp16) == 2.0);
    CHECK(bytesPerParam(WeightPrecision::Fp8) == 1.0);
    CHECK(bytesPerParam(WeightPrecision::Int8) == 1.0);
    // 4 bits plus a 2-byte scale per 128 weights.
    CHECK(bytesPerParam(WeightPrecision::Int4) == 0.515625);
    CHECK(kvElementBytes(KvPrecision::Bf16) == 2);
    CHECK(kvElementBytes(KvPrecision::Fp8) == 1);
}

TEST_CASE("precision names round-trip and parse case-insensitively", "[types]")
{
    REQUIRE(allWeightPrecisions().size() == 5);
    REQUIRE(allKvPrecisions().size() == 2);
    for (WeightPrecision p : allWeightPrecisions())
        CHECK(parseWeightPrecision(toString(p)) == p);
    for (KvPrecision p : allKvPrecisions())
        CHECK(parseKvPrecision(toString(p)) == p);

    CHECK(toString(WeightPrecision::Int4) == "int4");
    CHECK(toString(KvPrecision::Fp8) == "fp8");
    CHECK(parseWeightPrecision("BF16") == WeightPrecision::Bf16);
    CHECK(parseWeightPrecision("Fp8") == WeightPrecision::Fp8);
    CHECK(parseKvPrecision("FP8") == KvPrecision::Fp8);
    CHECK_FALSE(parseWeightPrecision("fp4").has_value());
    CHECK_FALSE(parseWeightPrecision("").has_value());
    CHECK_FALSE(parseKvPrecision("int4").has_value());
    CHECK_FALSE(parseKvPrecision("bf16 ").has_value());
}

TEST_CASE("attention kinds round-trip and parse case-insensitively", "[types]")
{
    for (AttentionKind k : {AttentionKind::Mha, AttentionKind::Gqa, AttentionKind::Mqa,
                            AttentionKind::Mla})
        CHECK(parseAttentionKind(toString(k)) == k);
    CHECK(toString(AttentionKind::Mla) == "mla");
    CHECK(parseAttentionKind("GQA") == AttentionKind::Gqa);
    CHECK(parseAttentionKind("MlA") == AttentionKind::Mla);
    CHECK_FALSE(parseAttentionKind("sliding").has_value());
}

TEST_CASE("MoE and hybrid flags come from the architecture", "[types]")
{
    ModelSpec dense;
    dense.paramsTotal = 8e9;
    dense.paramsActive = 8e9;
    CHECK_FALSE(dense.isMoe());
    ModelSpec moe = dense;
    moe.paramsActive = 1e9;
    CHECK(moe.isMoe());

    ModelSpec hybrid;
    hybrid.slidingLayers = 21;
    hybrid.slidingWindow = 4096;
    CHECK(hybrid.isHybrid());
    hybrid.slidingLayers = 0;
    CHECK_FALSE(hybrid.isHybrid());
}
