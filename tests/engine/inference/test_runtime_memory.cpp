#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/runtime_memory.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

constexpr int64_t kH100Bytes = 81559LL << 20; // nvidia-smi's 81,559 MiB

ModelSpec llama3_8b()
{
    ModelSpec m = llama31_8b();
    m.vocabSize = 128256;
    return m;
}

GpuSpec h100()
{
    GpuSpec g;
    g.id = "h100-sxm";
    g.name = "H100 SXM";
    g.memoryBytes = kH100Bytes;
    return g;
}

int64_t pool(const ModelSpec &model, WeightPrecision weights, int tp, int64_t reserve)
{
    KvInputs in;
    in.model = model;
    in.gpuMemoryBytes = kH100Bytes;
    in.weights = weights;
    in.tp = tp;
    in.utilization = 0.9;
    in.reserveBytes = reserve;
    return analyseKv(in).poolBytes;
}

} // namespace

TEST_CASE("the MLP width a token passes through comes from the parameter counts", "[runtime_memory]")
{
    // Llama 3.1 8B: (8,030,261,248 − 2 × 128,256 × 4,096) ÷ 32 = 218,112,128 per layer, less
    // attention 4,096 × 128 × (32 + 16) + 32 × 128 × 4,096 = 41,943,040, over 3 × 4,096:
    // 14,336.68 against the config's intermediate_size 14,336 (the rest: two norms a layer).
    CHECK(mlpWidthPerToken(llama3_8b()) == Approx(14336.677).margin(0.01));
    // Qwen3-235B-A22B: the 8 routed experts of 1,536 a token visits, 12,288 (12,331 with the
    // router and norms the active count holds).
    CHECK(mlpWidthPerToken(qwen3_235b()) == Approx(12331.36).margin(0.01));
    // Never below the hidden size, however odd the counts.
    ModelSpec tiny = llama3_8b();
    tiny.paramsTotal = tiny.paramsActive = 1e9;
    CHECK(mlpWidthPerToken(tiny) == 4096);
}

TEST_CASE("vLLM's profiling pass: forward and sampler peaks, non-torch memory, by hand", "[runtime_memory]")
{
    // Llama 3 8B, vLLM V0 defaults of pull request #10511's run: 8,192 tokens, 256 sequences.
    const RuntimeMemory m = vllmRuntimeMemory(llama3_8b(), 1, {8192, 256});
    // forward: 8,192 × 2 B × (4 × 4,096 + 3 × 14,336.68) = 973,111,808 B
    CHECK(m.forwardPeakBytes == 973111808);
    // sampler: 256 × 128,256 × 30 B + 8,192 × 4,096 × 2 × 2 B = 1,119,223,808 B (1.04 GiB)
    CHECK(m.samplerPeakBytes == 256LL * 128256 * 30 + 8192LL * 4096 * 4);
    CHECK(m.samplerPeakBytes == 1119223808);
    CHECK(m.activationPeakBytes == m.samplerPeakBytes);
    CHECK(m.nonTorchBytes == kNonTorchBytes);
    CHECK(m.reserveBytes() == 1119223808LL + 1921997865LL);
    // The logged activation peak was 1.26 GiB: the estimate is 17 % low, 0.22 GiB of 71 GiB.
    CHECK(double(m.activationPeakBytes) / double(kGiB) == Approx(1.042).margin(0.001));

    // TP 2 shards the MLP, not the sampler: the same peak (vLLM logged 1.26 GiB at TP 1 and 2)
    // and 3.58 GiB of non-torch memory, as logged.
    const RuntimeMemory tp2 = vllmRuntimeMemory(llama3_8b(), 2, {8192, 256});
    CHECK(tp2.forwardPeakBytes < m.forwardPeakBytes);
    CHECK(tp2.activationPeakBytes == m.activationPeakBytes);
    CHECK(double(tp2.nonTorchBytes) / double(kGiB) == Approx(3.58).margin(0.005));

    // More sequences than tokens: vLLM samples at most one sequence a token.
    CHECK(vllmRuntimeMemory(llama3_8b(), 1, {128, 1024}).maxSeqs == 128);
    // A vocabulary the catalog does not know counts as Llama 3's.
    ModelSpec noVocab = llama3_8b();
    noVocab.vocabSize = 0;
    CHECK(vllmRuntimeMemory(noVocab, 1, {8192, 256}).vocab == kDefaultVocab);

    CHECK_THROWS_AS(vllmRuntimeMemory(llama3_8b(), 0, {8192, 256}), InputError);
    CHECK_THROWS_AS(vllmRuntimeMemory(llama3_8b(), 1, {0, 256}), InputError);
    CHECK_THROWS_AS(vllmRuntimeMemory(llama3_8b(), 1, {8192, 0}), InputError);
    ModelSpec noHidden = llama3_8b();
    noHidden.hiddenSize = 0;
    CHECK_THROWS_AS(vllmRuntimeMemory(noHidden, 1, {8192, 256}), InputError);
}

TEST_CASE("the KV pool as vLLM accounts it, held against logged vLLM pools", "[runtime_memory]")
{
    // vllm-project/vllm pull request #10511: Llama 3 8B on one H100 at utilization 0.9 and
    // max_num_batched_tokens 8,192 kept 53.29 GiB for KV. vLLM's profile: 0.9 × 81,559 MiB −
    // 16,060,522,496 B weights − 1,119,223,808 − 1,921,997,865 = 57,866,984,816 B (53.89 GiB),
    // 1.1 % high; the flat 2 GiB gives 54.73 GiB, 2.7 % high.
    const double logged = 53.29 * double(kGiB);
    const RuntimeMemory llama = vllmRuntimeMemory(llama3_8b(), 1, {8192, 256});
    const int64_t profiled = pool(llama3_8b(), WeightPrecision::Bf16, 1, llama.reserveBytes());
    CHECK(profiled == 57866984816);
    CHECK(double(profiled) / logged - 1 == Approx(0.0113).margin(0.0005));
    CHECK(std::abs(double(profiled) / logged - 1) < 0.03);
    const int64_t flat = pool(llama3_8b(), WeightPrecision::Bf16, 1, 2 * kGiB);
    CHECK(std::abs(double(profiled) / logged - 1) < std::abs(double(flat) / logged - 1));

    // vllm-project/vllm issue #21348: Qwen3-235B-A22B-FP8 over four H100s (TP 4) under V1's
    // H100 defaults (8,192 tokens, 1,024 sequences) held 178,880 tokens of 48,128 B: 8.02 GiB.
    // vLLM's profile: a 4.47 GiB sampler peak (1,024 × 151,936 logits) and 3.58 GiB of
    // non-torch memory leave 8.89 GiB, 10.9 % high; the flat 2 GiB left 14.95 GiB, 86 % high.
    const double loggedQwen = 178880.0 * 48128.0;
    const RuntimeMemory qwen = vllmRuntimeMemory(qwen3_235b(), 4, {8192, 1024});
    CHECK(double(qwen.activationPeakBytes) / double(kGiB) == Approx(4.472).margin(0.001));
    const int64_t qwenProfiled = pool(qwen3_235b(), WeightPrecision::Fp8, 4, qwen.reserveBytes());
    CHECK(double(qwenProfiled) / loggedQwen - 1 == Approx(0.109).margin(0.001));
    const int64_t qwenFlat = pool(qwen3_235b(), WeightPrecision::Fp8, 4, 2 * kGiB);
    CHECK(double(qwenFlat) / loggedQwen - 1 == Approx(0.863).margin(0.002));
}

TEST_CASE("serving assumptions choose the flat reserve or vLLM's profile at the scheduler limits in force",
          "[runtime_memory]")
{
    ServingAssumptions a;
    CHECK(a.reserveMode == ReserveMode::Flat);
    CHECK(runtimeReserveBytes(a, llama3_8b(), h100(), 1) == 2 * kGiB);
    CHECK_FALSE(runtimeReserve(a, llama3_8b(), h100(), 1).profile);

    a.reserveMode = ReserveMode::VllmProfile;
    // Unset limits: vLLM V1's H100 defaults, 8,192 tokens and 1,024 sequences.
    const RuntimeReserve v1 = runtimeReserve(a, llama3_8b(), h100(), 1);
    REQUIRE(v1.profile);
    CHECK(v1.profile->maxBatchedTokens == 8192);
    CHECK(v1.profile->maxSeqs == 1024);
    CHECK(v1.bytes == 1024LL * 128256 * 30 + 8192LL * 4096 * 4 + kNonTorchBytes);
    // The user's limits win.
    a.maxNumSeqs = 256;
    CHECK(runtimeReserveBytes(a, llama3_8b(), h100(), 1) == 1119223808 + kNonTorchBytes);

    CHECK(toString(ReserveMode::VllmProfile) == "vllm_profile");
    CHECK(parseReserveMode("flat") == ReserveMode::Flat);
    CHECK(parseReserveMode("vllm_profile") == ReserveMode::VllmProfile);
    CHECK_FALSE(parseReserveMode("vllm"));
    CHECK_FALSE(ServingAssumptions{} == a);
}
