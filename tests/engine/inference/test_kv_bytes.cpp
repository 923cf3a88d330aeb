#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/kv.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;
using namespace headroom::test;

TEST_CASE("golden: 8 KV heads x 128 dims x 64 layers x K+V x 2 bytes is 256 KiB per token", "[kv]")
{
    const KvPerToken kv = kvBytesPerToken(goldenGqa(), KvPrecision::Bf16);
    CHECK(kv.fullLayers == 262144);
    CHECK(kv.slidingLayers == 0);
    CHECK(kv.window == 0);
    CHECK(kv.total() == 256 * kKiB);
}

TEST_CASE("Llama-3-70B caches 320 KiB per token in bf16 and half in fp8", "[kv]")
{
    CHECK(kvBytesPerToken(llama31_70b(), KvPrecision::Bf16).total() == 327680);
    CHECK(kvBytesPerToken(llama31_70b(), KvPrecision::Fp8).total() == 163840);
    CHECK(kvBytesPerToken(llama31_8b(), KvPrecision::Bf16).total() == 131072);
}

TEST_CASE("MHA and MQA use the same formula with their KV head counts", "[kv]")
{
    ModelSpec mha = llama31_8b();
    mha.attention = AttentionKind::Mha;
    mha.kvHeads = 32;
    CHECK(kvBytesPerToken(mha, KvPrecision::Bf16).total() == 2 * 32 * 32 * 128 * 2);

    ModelSpec mqa = llama31_8b();
    mqa.attention = AttentionKind::Mqa;
    mqa.kvHeads = 1;
    CHECK(kvBytesPerToken(mqa, KvPrecision::Bf16).total() == 2 * 32 * 1 * 128 * 2);
    // One KV head is replicated on every rank.
    CHECK(kvBytesPerToken(mqa, KvPrecision::Bf16, 8).total() == 16384);
}

TEST_CASE("DeepSeek-V3 MLA caches the 512+64 latent per layer, not split by TP", "[kv][mla]")
{
    CHECK(kvBytesPerToken(deepseekV3(), KvPrecision::Bf16).total() == 70272);
    CHECK(kvBytesPerToken(deepseekV3(), KvPrecision::Bf16, 8).total() == 70272);
    CHECK(kvBytesPerToken(deepseekV3(), KvPrecision::Fp8).total() == 35136);
}

TEST_CASE("tensor parallelism splits KV heads and replicates them past kv_heads", "[kv][tp]")
{
    const ModelSpec m = goldenGqa(); // 64 attention heads, 8 KV heads
    CHECK(kvBytesPerToken(m, KvPrecision::Bf16, 2).total() == 131072);
    CHECK(kvBytesPerToken(m, KvPrecision::Bf16, 8).total() == 32768);
    // TP 16 > 8 KV heads: each rank still holds one whole head.
    CHECK(kvBytesPerToken(m, KvPrecision::Bf16, 16).total() == 32768);
    CHECK(kvBytesPerToken(m, KvPrecision::Bf16, 64).total() == 32768);
}

TEST_CASE("tensor parallel degrees that do not split heads evenly are rejected", "[kv][tp]")
{
    const ModelSpec m = goldenGqa();
    for (int tp : {0, -2, 3, 5, 128}) {
        INFO("tp " << tp);
        try {
            kvBytesPerToken(m, KvPrecision::Bf16, tp);
            FAIL("expected InputError");
        } catch (const InputError &e) {
            CHECK(e.field() == "tp");
        }
    }

    // 48 query heads divide by 6, but 8 KV heads neither divide by 6 nor divide 6.
    ModelSpec odd = m;
    odd.attentionHeads = 48;
    CHECK_THROWS_AS(kvBytesPerToken(odd, KvPrecision::Bf16, 6), InputError);
    CHECK(kvBytesPerToken(odd, KvPrecision::Bf16, 4).total() == 2 * 64 * 2 * 128 * 2);
}

TEST_CASE("hybrid sliding-window models split per-token bytes by layer kind", "[kv][hybrid]")
{
    const KvPerToken kv = kvBytesPerToken(gemma2_9b(), KvPrecision::Bf16);
    // 21 layers × 2 × 8 heads × 256 dims × 2 bytes each.
    CHECK(kv.fullLayers == 172032);
    CHECK(kv.slidingLayers == 172032);
    CHECK(kv.window == 4096);
    CHECK(kv.total() == 344064);
}

TEST_CASE("weights per GPU scale with precision and divide by TP", "[kv][weights]")
{
    const ModelSpec golden = goldenGqa();
    CHECK(weightBytesPerGpu(golden, WeightPrecision::Bf16) == 16 * kGiB);
    CHECK(weightBytesPerGpu(golden, WeightPrecision::Bf16, 8) == 2 * kGiB);
    CHECK(weightBytesPerGpu(golden, WeightPrecision::Int4) == 4429185024);

    // Quantization what-if (DESIGN §3.1 golden): fp16 → fp8 halves weight memory.
    const ModelSpec llama = llama31_8b();
    const int64_t fp16 = weightBytesPerGpu(llama, WeightPrecision::Fp16);
    const int64_t fp8 = weightBytesPerGpu(llama, WeightPrecision::Fp8);
    CHECK(fp16 == 16060522496);
    CHECK(fp8 * 2 == fp16);
    CHECK(weightBytesPerGpu(llama, WeightPrecision::Int8) == fp8);

    // 70553706496 × 2 / 3 rounds up to the next byte.
    CHECK(weightBytesPerGpu(llama31_70b(), WeightPrecision::Bf16, 3) == 47035804331);

    ModelSpec none = llama;
    none.paramsTotal = 0;
    CHECK_THROWS_AS(weightBytesPerGpu(none, WeightPrecision::Bf16), InputError);
}
