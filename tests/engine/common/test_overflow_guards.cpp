// Arithmetic that once wrapped or overflowed silently on absurd inputs: each now gives a clear
// InputError naming the field (or, where the true answer is finite, the true answer).
#include "models.h"
#include "inference/workloads.h"

#include "engine/cost/cost.h"
#include "engine/common/errors.h"
#include "engine/common/explain_text.h"
#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv.h"
#include "engine/common/money.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

using namespace headroom::engine;
using namespace headroom::test;
using Catch::Matchers::Contains;

namespace {

constexpr int kMaxInt = std::numeric_limits<int>::max();

template <typename Action>
InputError inputErrorOf(Action action)
{
    try {
        action();
    } catch (const InputError &error) {
        return error;
    }
    FAIL("expected an InputError");
    return InputError("none", "none");
}

ModelSpec absurdModel(int layers, int heads, int headDim)
{
    ModelSpec m = llama31_8b();
    m.layers = layers;
    m.attentionHeads = heads;
    m.kvHeads = heads;
    m.headDim = headDim;
    m.attention = AttentionKind::Mha;
    return m;
}

} // namespace

TEST_CASE("KV bytes of an absurd architecture are refused, not wrapped", "[kv][overflow]")
{
    // 2 × (2^31 − 1) heads × (2^31 − 1) head_dim × 2 bytes is above 2^63 in one layer.
    const InputError perLayer = inputErrorOf([] { kvBytesPerToken(absurdModel(1, kMaxInt, kMaxInt), KvPrecision::Bf16); });
    CHECK(perLayer.field() == "head_dim");
    CHECK_THAT(std::string(perLayer.what()), Contains("more than 2^63 bytes"));
    // One layer fits (2 × 64 × 2^30 × 2 bytes); 2^31 − 1 layers of it do not.
    const InputError layers = inputErrorOf([] { kvBytesPerToken(absurdModel(kMaxInt, 64, 1 << 30), KvPrecision::Bf16); });
    CHECK(layers.field() == "layers");
    // A huge but representable per-token size overflows the block size, then the stream.
    KvInputs in;
    in.model = absurdModel(1 << 20, 64, 1 << 22);   // 2^20 × 2^30 B = 2^50 B per token
    in.gpuMemoryBytes = 80 * kGiB;
    in.blockSize = 1024;                             // × 2^10 = 2^60: fits
    in.contexts = {1'000'000'000};                   // × ~2^20 blocks: does not
    CHECK(inputErrorOf([&] { analyseKv(in); }).field() == "context");
    in.blockSize = 16;
    in.model = absurdModel(1 << 24, 64, 1 << 24);   // 2^24 × 2^32 B = 2^56 B per token; × 16 = 2^60
    in.contexts = {1};
    CHECK_NOTHROW(analyseKv(in));
    in.model = absurdModel(1 << 26, 64, 1 << 24);   // 2^58 B per token; × 1024 is past 2^63
    in.blockSize = 1024;
    CHECK(inputErrorOf([&] { analyseKv(in); }).field() == "block");
}

TEST_CASE("weights beyond 2^63 bytes per GPU are refused, not converted", "[kv][overflow]")
{
    ModelSpec m = llama31_8b();
    m.paramsTotal = 1e30;
    m.paramsActive = 1e30;
    const InputError e = inputErrorOf([&] { weightBytesPerGpu(m, WeightPrecision::Bf16); });
    CHECK(e.field() == "params");
    CHECK_THAT(std::string(e.what()), Contains("more than 2^63 bytes per GPU"));
    m.paramsTotal = 4e18;   // 8e18 bytes: still representable
    CHECK(weightBytesPerGpu(m, WeightPrecision::Bf16) == 8'000'000'000'000'000'000);
}

TEST_CASE("the reservation sweep limit holds for a peak above 2^64", "[cost][overflow]")
{
    // 2^64 + 5 GPUs became 5 through a 128 → 64-bit cast and passed the limit.
    DemandSeries demand;
    demand.gpus = {Decimal::fromInt(1), *Decimal::parse("18446744073709551621")};
    const InputError e = inputErrorOf([&] { analyseReservation(demand, Money::parse("1"), Money::parse("2")); });
    CHECK(e.field() == "demand");
    CHECK_THAT(std::string(e.what()), Contains("18446744073709551621 GPUs is above 1000000"));
    CHECK(inputErrorOf([] { (void)Decimal::parse("18446744073709551621")->ceilToInteger(); }).field() == "value");
    CHECK(inputErrorOf([] { (void)Decimal::parse("-18446744073709551621")->toIntegerTruncated(); }).field() == "value");
    CHECK(Decimal::parse("9223372036854775807")->ceilToInteger() == std::numeric_limits<int64_t>::max());
}

TEST_CASE("a diurnal curve of huge values sizes like the same shape at any scale", "[inference_sizing][overflow]")
{
    // Summing 24 × 1e308 overflowed to infinity: peak ÷ mean became 0 and utilization infinite.
    WorkloadProfile flat = chatWorkload();
    WorkloadProfile huge = chatWorkload();
    for (size_t h = 0; h < 24; ++h) {
        flat.diurnal[h] = h == 20 ? 2.0 : 1.0;
        huge.diurnal[h] = h == 20 ? 1.7e308 : 0.85e308;
    }
    const SizingResult a = sizeInference(flat, llama31_8b(), h100Sxm());
    const SizingResult b = sizeInference(huge, llama31_8b(), h100Sxm());
    CHECK(std::isfinite(b.averageUtilization));
    CHECK(std::isfinite(b.peakRequestsPerS));
    CHECK(b.peakRequestsPerS == Approx(a.peakRequestsPerS));
    CHECK(b.averageUtilization == Approx(a.averageUtilization));
    CHECK(b.gpus == a.gpus);
}

TEST_CASE("explanation numbers beyond the int64 range are written, not converted", "[explain][overflow]")
{
    using namespace headroom::engine::explain;
    CHECK(grouped(std::numeric_limits<int64_t>::min()) == "-9,223,372,036,854,775,808");
    CHECK(grouped(std::numeric_limits<int64_t>::max()) == "9,223,372,036,854,775,807");
    CHECK(grouped(-1234567) == "-1,234,567");
    CHECK(rounded(1234.5) == "1,235");
    CHECK(rounded(-9.5e18) == "-9.5 × 10^18");
    CHECK(number(1e300) == "1 × 10^300");
    CHECK(number(-1e19) == "-1 × 10^19");
    CHECK(number(9007199254740991.0) == "9,007,199,254,740,991");
    CHECK(ceilCount(1e300) == std::numeric_limits<int64_t>::max());
    CHECK(ceilCount(-1e300) == std::numeric_limits<int64_t>::min());
    CHECK(ceilCount(std::nan("")) == 0);
    CHECK(ceilCount(2048.0000000001) == 2048);
}
