#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/kv_levers.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace headroom::engine;
using namespace headroom::test;
using Catch::Matchers::Contains;

namespace {

// Llama 3.1 8B on one 80 GiB GPU at 0.9, 2 GiB reserve: 72 GiB usable, 14.96 GiB of weights.
KvLeverInputs llamaOnOneGpu()
{
    KvLeverInputs in;
    in.replica.model = llama31_8b();
    in.replica.gpuMemoryBytes = 80 * kGiB;
    in.replica.utilization = 0.9;
    in.replica.reserveBytes = 2 * kGiB;
    in.replica.blockSize = 16;
    in.context = 8192;
    return in;
}

std::string whatIfError(const std::function<void()> &f)
{
    try {
        f();
    } catch (const InputError &e) {
        return e.field() + ": " + e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("Character.AI's published KV stack takes an 8k-context GQA-8 model's KV more than 20 times down",
          "[kv_levers]")
{
    const std::vector<KvLeverStep> steps = kvLeverStack(llamaOnOneGpu(), characterAiStack());
    REQUIRE(steps.size() == 5);
    // As shipped: 2 × 32 layers × 8 heads × 128 × 2 B = 131,072 B per token.
    CHECK(steps[0].label == "as shipped");
    CHECK(steps[0].bytesPerToken == 131072);
    // MQA: one K/V head, 8× less: 16,384 B.
    CHECK(steps[1].bytesPerToken == 16384);
    CHECK(steps[1].stepFactor == 8);
    // One layer in 6 global: ceil(32 / 6) = 6 global and 26 local layers of 512 B, the local
    // ones holding 1,024 of the 8,192 tokens: 6 × 512 + 26 × 512 × 1024 / 8192 = 4,736 B.
    CHECK(steps[2].shape.globalLayers == 6);
    CHECK(steps[2].shape.localLayers == 26);
    CHECK(steps[2].bytesPerToken == 4736);
    // KV shared by pairs of layers: 3 global and 13 local: 1,536 + 832 = 2,368 B.
    CHECK(steps[3].bytesPerToken == 2368);
    CHECK(steps[3].stepFactor == 2);
    // int8 with a 4-byte scale and zero point per vector: 2 × 132 B a layer,
    // 3 × 264 + 13 × 264 / 8 = 1,221 B.
    CHECK(steps[4].bytesPerToken == 1221);
    CHECK(steps[4].totalFactor == Approx(131072.0 / 1221.0));
    CHECK(steps[4].totalFactor > 20);
    // The factors multiply to the whole.
    double product = 1;
    for (const KvLeverStep &s : steps)
        product *= s.stepFactor;
    CHECK(product == Approx(steps.back().totalFactor));
}

TEST_CASE("each lever's streams, replicas and money follow from the one replica's KV pool", "[kv_levers]")
{
    KvLeverInputs in = llamaOnOneGpu();
    in.peakStreams = 1000;
    in.pricePerGpuHour = Money::parse("4.10");
    const std::vector<KvLeverStep> steps = kvLeverStack(in, {parseKvLever("mqa"), parseKvLever("fp8")});
    // Pool: 0.9 × 80 GiB = 77,309,411,328 B, less 2 × 8,030,261,248 B of weights and the
    // 2 GiB reserve: 59,101,405,184 B.
    const int64_t pool = 77309411328 - 16060522496 - 2 * kGiB;
    REQUIRE(pool == 59101405184);
    // As shipped a stream of 8,192 tokens takes 512 blocks of 16 × 131,072 B = 1 GiB.
    CHECK(steps[0].streamsPerReplica == pool / (8192LL * 131072));
    CHECK(steps[0].streamsPerReplica == 55);
    CHECK(steps[0].replicas == 19);                 // ceil(1000 / 55)
    CHECK(steps[0].gpus == 19);
    REQUIRE(steps[0].monthlyCost);
    CHECK(steps[0].monthlyCost->cents() == "56088.00");    // 19 GPUs × $4.10 × 720 h (the 30-day month)
    // MQA: 8× more streams, 3 replicas.
    CHECK(steps[1].streamsPerReplica == pool / (8192LL * 16384));
    CHECK(steps[1].replicas == (1000 + steps[1].streamsPerReplica - 1) / steps[1].streamsPerReplica);
    // fp8: half the bytes again.
    CHECK(steps[2].bytesPerToken == 8192);
    CHECK(steps[2].streamsPerReplica == pool / (8192LL * 8192));
    CHECK(*steps[2].monthlyCost == Money::parse("4.10") * (steps[2].gpus * 720));
    // No peak asked: no replicas or money.
    const std::vector<KvLeverStep> bare = kvLeverStack(llamaOnOneGpu(), {});
    REQUIRE(bare.size() == 1);
    CHECK(bare[0].replicas == 0);
    CHECK_FALSE(bare[0].monthlyCost);
}

TEST_CASE("tensor parallelism splits K/V heads down to one a rank, and a latent not at all", "[kv_levers]")
{
    KvLeverInputs in = llamaOnOneGpu();
    in.replica.tp = 4;
    const std::vector<KvLeverStep> steps =
        kvLeverStack(in, {parseKvLever("kv-heads=2"), parseKvLever("latent=576"), parseKvLever("int4")});
    CHECK(steps[0].bytesPerToken == 2 * 32 * 2 * 128 * 2);    // 8 heads over 4 ranks: 2 a rank
    CHECK(steps[0].perToken.total() == kvBytesPerToken(llama31_8b(), KvPrecision::Bf16, 4).total());
    CHECK(steps[1].bytesPerToken == 2 * 32 * 1 * 128 * 2);    // 2 heads over 4 ranks: 1 a rank
    CHECK(steps[2].bytesPerToken == 32 * 576 * 2);            // DeepSeek-style latent, whole on every rank
    CHECK(steps[3].bytesPerToken == 32 * (576 / 2 + 4));      // int4 with its scale and zero point
    // A catalog MLA model starts from its latent.
    KvLeverInputs mla = llamaOnOneGpu();
    mla.replica.model = deepseekV3();
    mla.replica.gpuMemoryBytes = 2048 * kGiB;
    mla.replica.weights = WeightPrecision::Fp8;
    const KvShape shape = kvLeverStack(mla, {})[0].shape;
    CHECK(shape.latent);
    CHECK(shape.latentDim == 512 + 64);
}

TEST_CASE("a model's own sliding-window layers are where the stack starts", "[kv_levers]")
{
    ModelSpec gemma = llama31_8b();
    gemma.slidingLayers = 16;
    gemma.slidingWindow = 4096;
    const KvShape shape = kvShapeOf(gemma, KvPrecision::Bf16);
    CHECK(shape.globalLayers == 16);
    CHECK(shape.localLayers == 16);
    const KvPerToken perToken = kvPerToken(shape, 1);
    // At 8,192 tokens the windowed half holds 4,096 of them.
    CHECK(kvBytesPerTokenAt(perToken, 8192) == 16 * 4096 + 16 * 4096 * 0.5);
    // Below the window every layer holds every token.
    CHECK(kvBytesPerTokenAt(perToken, 2048) == 32 * 4096);
}

TEST_CASE("levers are read from text and refused by name when they cannot apply", "[kv_levers]")
{
    const std::vector<KvLever> levers = parseKvLevers("mqa, share=3,local=1024/6,int8");
    REQUIRE(levers.size() == 4);
    CHECK(levers[0].kind == KvLeverKind::KvHeads);
    CHECK(levers[0].kvHeads == 1);
    CHECK(levers[1].every == 3);
    CHECK(levers[2].window == 1024);
    CHECK(levers[2].every == 6);
    CHECK(levers[3].format == KvFormat::Int8);
    CHECK(describe(levers[2]) == "local 1024-token window, 1 layer in 6 global");

    CHECK_THAT(whatIfError([] { parseKvLever("gqa"); }), Contains("what_if") && Contains("unknown lever \"gqa\""));
    CHECK_THAT(whatIfError([] { parseKvLever("share=1"); }), Contains("from 2 to"));
    CHECK_THAT(whatIfError([] { parseKvLever("local=1024"); }), Contains("local=WINDOW/N"));
    CHECK_THAT(whatIfError([] { parseKvLever("kv-heads=x"); }), Contains("whole number"));
    CHECK_THAT(whatIfError([] { parseKvLevers("mqa,,int8"); }), Contains("empty lever"));
    // More heads than the model has, and heads on a latent.
    CHECK_THAT(whatIfError([] { kvLeverStack(llamaOnOneGpu(), {parseKvLever("kv-heads=16")}); }),
               Contains("from 1 to the 8 the model has"));
    CHECK_THAT(whatIfError([] { kvLeverStack(llamaOnOneGpu(), {parseKvLever("latent=512"), parseKvLever("mqa")}); }),
               Contains("latent KV"));
    CHECK_THAT(whatIfError([] { kvLeverStack(llamaOnOneGpu(), {parseKvLever("share=33")}); }),
               Contains("32 layers holding KV"));
    KvLeverInputs bad = llamaOnOneGpu();
    bad.pricePerGpuHour = Money::parse("0");
    CHECK_THAT(whatIfError([&] { kvLeverStack(bad, {}); }), Contains("price"));
}
