#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/vllm_log.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

// vllm-project/vllm pull request #10511 ("[core] overhaul memory profiling …", 2024-12-14),
// `vllm serve meta-llama/Meta-Llama-3-8B` on one H100 80GB: the V0 profile, one figure a line.
const char kV0Profile[] = R"(INFO 12-13 19:54:18 worker.py:243] Memory profiling results:
INFO 12-13 19:54:18 worker.py:243] duration     0.75 seconds
INFO 12-13 19:54:18 worker.py:243] total_gpu_memory     79.22GiB
INFO 12-13 19:54:18 worker.py:243] gpu_memory_utilization       0.90
INFO 12-13 19:54:18 worker.py:243] the current vLLM instance can use    71.29GiB
INFO 12-13 19:54:18 worker.py:243] model weights take   14.96GiB
INFO 12-13 19:54:18 worker.py:243] non_torch_memory     1.79GiB
INFO 12-13 19:54:18 worker.py:243] PyTorch activation peak memory       1.26GiB
INFO 12-13 19:54:18 worker.py:243] available_kv_cache_memory    53.29GiB
)";

// vllm-project/vllm issue #21348 (2025-07-22), Qwen3-235B-A22B-FP8 on 4 × H100, TP 4, V1.
const char kV1Qwen[] = "(VllmWorker rank=0 pid=1) INFO [gpu_worker.py:255] Available KV cache memory: 8.11 GiB\n"
                       "INFO [kv_cache_utils.py:833] GPU KV cache size: 178,880 tokens\n";

// vllm-project/vllm pull request #12126 (2025-01-16): the V0 profile as one sentence.
const char kV0Sentence[] =
    "INFO 01-16 09:40:00 worker.py:238] the current vLLM instance can use total_gpu_memory (79.22GiB) x "
    "gpu_memory_utilization (0.90) = 71.29GiB\r\n"
    "INFO 01-16 09:40:00 worker.py:238] model weights take 19.86GiB; non_torch_memory takes 0.16GiB; PyTorch "
    "activation peak memory takes 36.63GiB; the rest of the memory reserved for KV Cache is 14.65GiB.\r\n"
    "INFO 01-16 09:40:00 executor_base.py:95] # CUDA blocks: 6001, # CPU blocks: 1638\r\n";

// V1's model-loading and concurrency lines (guqiong96/Lvllm issue #35, 2026-02-12, an A40).
const char kV1Loading[] =
    "(EngineCore_DP0 pid=15098) INFO 02-12 08:33:42 [gpu_model_runner.py:4216] Model loading took 11.55 GiB memory "
    "and 1940.360672 seconds\n"
    "(EngineCore_DP0 pid=15098) INFO 02-12 08:34:25 [gpu_worker.py:360] Available KV cache memory: 12.57 GiB\n"
    "(EngineCore_DP0 pid=15098) INFO 02-12 08:34:25 [kv_cache_utils.py:1307] GPU KV cache size: 53,136 tokens\n"
    "(EngineCore_DP0 pid=15098) INFO 02-12 08:34:25 [kv_cache_utils.py:1312] Maximum concurrency for 23,000 tokens "
    "per request: 2.31x\n";

constexpr int64_t kH100Bytes = 81559LL << 20; // nvidia-smi's 81,559 MiB

KvInputs onH100(const ModelSpec &model, WeightPrecision weights, int tp, int64_t reserve)
{
    KvInputs in;
    in.model = model;
    in.gpuMemoryBytes = kH100Bytes;
    in.weights = weights;
    in.utilization = 0.9;
    in.tp = tp;
    in.blockSize = 16;
    in.reserveBytes = reserve;
    return in;
}

} // namespace

TEST_CASE("a vLLM start-up log's memory lines are read in V0 and V1 formats", "[vllm_log]")
{
    const VllmStartupLog v0 = parseVllmStartupLog(kV0Profile);
    CHECK(v0.totalGiB == 79.22);
    CHECK(v0.utilization == 0.9);
    CHECK(v0.weightsGiB == 14.96);
    CHECK(v0.nonTorchGiB == 1.79);
    CHECK(v0.activationPeakGiB == 1.26);
    CHECK(v0.kvCacheGiB == 53.29);
    CHECK_FALSE(v0.kvTokens);
    CHECK(v0.linesRead == 6);

    const VllmStartupLog sentence = parseVllmStartupLog(kV0Sentence);
    CHECK(sentence.totalGiB == 79.22);
    CHECK(sentence.utilization == 0.9);
    CHECK(sentence.weightsGiB == 19.86);
    CHECK(sentence.nonTorchGiB == 0.16);
    CHECK(sentence.activationPeakGiB == 36.63);
    CHECK(sentence.kvCacheGiB == 14.65);
    CHECK(sentence.gpuBlocks == 6001);

    const VllmStartupLog v1 = parseVllmStartupLog(kV1Loading);
    CHECK(v1.weightsGiB == 11.55);
    CHECK(v1.kvCacheGiB == 12.57);
    CHECK(v1.kvTokens == 53136);
    CHECK(v1.concurrencyTokens == 23000);
    CHECK(v1.concurrency == 2.31);

    CHECK_THROWS_AS(parseVllmStartupLog("INFO starting the API server on port 8000\n"), InputError);
}

TEST_CASE("a logged KV cache against the analysis: the flat reserve's error, and the reserve that makes it hold",
          "[vllm_log]")
{
    // Llama 3 8B (the KV shape and parameters of Llama 3.1 8B) on one H100 with the 2 GiB
    // reserve: floor(0.9 × 81,559 MiB) − 2 × 8,030,261,248 B − 2 GiB = 58,760,722,841 B (54.73 GiB)
    // against the 53.29 GiB vLLM kept: 2.7 % high.
    const KvInputs in = onH100(llama31_8b(), WeightPrecision::Bf16, 1, 2 * kGiB);
    const VllmLogComparison c = compareWithLog(in, parseVllmStartupLog(kV0Profile));
    CHECK_FALSE(c.kvFromTokens);
    CHECK(c.loggedKvBytes == int64_t(std::llround(53.29 * double(kGiB))));
    CHECK(c.predictedKvBytes == 76968728985 - 16060522496 - 2147483648);
    CHECK(c.predictedKvBytes == 58760722841);
    CHECK(c.kvErrorShare == Approx(0.0270).margin(0.0005));
    // The weights: 8,030,261,248 × 2 B = 14.957 GiB against the logged 14.96.
    REQUIRE(c.weightsErrorShare);
    CHECK(std::abs(*c.weightsErrorShare) < 0.001);
    // What vLLM set aside besides the weights, in the analysis's terms: its non-torch memory and
    // activation peak (1.79 + 1.26 GiB) plus 0.9 × the 0.43 GiB the driver reports beyond what
    // torch sees (81,559 MiB against 79.22 GiB): 3.44 GiB.
    CHECK(double(c.impliedReserveBytes) / double(kGiB) == Approx(1.79 + 1.26 + 0.9 * (81559.0 / 1024 - 79.22)).margin(0.01));
    // With that reserve the analysis holds the logged bytes.
    KvInputs calibrated = in;
    calibrated.reserveBytes = c.impliedReserveBytes;
    CHECK(compareWithLog(calibrated, parseVllmStartupLog(kV0Profile)).predictedKvBytes == c.loggedKvBytes);
}

TEST_CASE("a V1 log's token count round-trips to the block, and shows how far a flat reserve is off for a large MoE",
          "[vllm_log]")
{
    // Qwen3-235B-A22B in FP8 over TP 4: 94 layers × 2 × one KV head a rank × 128 × 2 B =
    // 48,128 B per token; vLLM held 178,880 tokens (8,609,136,640 B).
    const KvInputs in = onH100(qwen3_235b(), WeightPrecision::Fp8, 4, 2 * kGiB);
    const VllmLogComparison c = compareWithLog(in, parseVllmStartupLog(kV1Qwen));
    CHECK(c.kvFromTokens);
    CHECK(c.loggedKvBytes == 178880LL * 48128);
    CHECK(c.loggedTokens == 178880);
    // The flat 2 GiB leaves 15.0 GiB for KV, 86 % more than vLLM kept: V1's activation peak,
    // CUDA graphs and the checkpoint's unquantised layers take the rest.
    CHECK(c.kvErrorShare == Approx(0.863).margin(0.005));
    KvInputs calibrated = in;
    calibrated.reserveBytes = c.impliedReserveBytes;
    const VllmLogComparison again = compareWithLog(calibrated, parseVllmStartupLog(kV1Qwen));
    CHECK(again.predictedTokens == 178880);
    CHECK(again.kvErrorShare == 0);
    // The log's GiB figure says the same within its two decimals (8.11 GiB against 8.02 GiB of
    // tokens: vLLM rounds its pool down to whole blocks of every layer).
    CHECK(double(c.loggedKvBytes) / double(kGiB) == Approx(8.02).margin(0.01));
}
