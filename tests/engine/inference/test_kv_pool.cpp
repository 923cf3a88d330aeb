#include "common/models.h"

#include "engine/common/errors.h"
#include "engine/inference/kv.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace headroom::engine;
using namespace headroom::test;

namespace {

// DESIGN §3.1 golden setup: 80 GiB at 0.92 utilization, 16 GiB of 8B-class weights.
KvInputs goldenInputs()
{
    KvInputs in;
    in.model = goldenGqa();
    in.gpuMemoryBytes = 80 * kGiB;
    in.utilization = 0.92;
    in.blockSize = 16;
    in.contexts = {16384};
    return in;
}

std::string fieldOfError(const KvInputs &in)
{
    try {
        analyseKv(in);
    } catch (const InputError &e) {
        return e.field();
    }
    return "no error";
}

} // namespace

TEST_CASE("golden: 80 GiB x 0.92 minus 16 GiB of weights leaves a 57.6 GiB pool", "[kv][pool]")
{
    const KvResult r = analyseKv(goldenInputs());
    // 80 GiB × 0.92 = 73.6 GiB = 79027398246.4 bytes.
    CHECK(r.usableBytes == 79027398246);
    CHECK(r.weightsBytes == 16 * kGiB);
    CHECK(r.poolBytes >= 61847529062 - 1);
    CHECK(r.poolBytes <= 61847529062 + 1);
    CHECK(r.poolBytes / double(kGiB) == Approx(57.6).margin(1e-9));
    CHECK(r.fits);
    CHECK(r.shortfallBytes == 0);
    CHECK(r.kvBytesPerToken == 262144);
    CHECK(r.blockBytes == 4 * 1024 * 1024);
    CHECK(r.blocks == 14745);
}

TEST_CASE("golden: a 57.6 GiB pool holds 14 streams of 16K context (block 16)", "[kv][pool]")
{
    const KvResult r = analyseKv(goldenInputs());
    REQUIRE(r.streams.size() == 1);
    CHECK(r.streams[0].context == 16384);
    CHECK(r.streams[0].bytesPerStream == 4 * kGiB);
    // floor(14745 blocks / 1024 blocks per stream)
    CHECK(r.streams[0].streams == 14);
}

TEST_CASE("golden: a 57.7 GiB pool / (16,384 tokens x 256 KiB) gives 14 streams", "[kv][pool]")
{
    KvInputs in = goldenInputs();
    in.utilization = 1.0;
    // 80 GiB − 16 GiB − floor(57.7 GiB) of reserve leaves exactly floor(57.7 GiB).
    in.reserveBytes = 6764573492;
    const KvResult r = analyseKv(in);
    CHECK(r.poolBytes == 61954903244);
    CHECK(r.streams[0].streams == 14);
    // One more stream needs 15 × 4 GiB = 60 GiB.
    in.reserveBytes = 0;
    in.gpuMemoryBytes = 76 * kGiB;
    CHECK(analyseKv(in).streams[0].streams == 15);
    in.gpuMemoryBytes = 76 * kGiB - 1;
    CHECK(analyseKv(in).streams[0].streams == 14);
}

TEST_CASE("streams follow floor(blocks / ceil(C / b)) for partial blocks", "[kv][pool]")
{
    KvInputs in = goldenInputs();
    in.contexts = {1, 16, 17, 1000, 16385};
    const KvResult r = analyseKv(in);
    REQUIRE(r.streams.size() == 5);
    CHECK(r.streams[0].streams == 14745);     // one block each
    CHECK(r.streams[1].streams == 14745);
    CHECK(r.streams[2].streams == 7372);      // two blocks each
    CHECK(r.streams[3].streams == 14745 / 63); // ceil(1000/16) = 63
    CHECK(r.streams[4].streams == 14745 / 1025);
    CHECK(r.streams[3].bytesPerStream == 63 * 4 * 1024 * 1024);
}

TEST_CASE("a shared prefix is held once and raises concurrency", "[kv][prefix]")
{
    KvInputs in = goldenInputs();
    in.sharedPrefixTokens = 4096;
    const KvResult r = analyseKv(in);
    CHECK(r.prefixTokens == 4096);
    CHECK(r.prefixBytes == 1 * kGiB);                // 256 blocks of 4 MiB
    CHECK(r.streams[0].bytesPerStream == 3 * kGiB); // 12,288 own tokens
    CHECK(r.streams[0].streams == 18);               // vs 14 without the prefix
    CHECK(r.streams[0].streams > analyseKv(goldenInputs()).streams[0].streams);

    // A 10-token prefix still takes one whole block.
    in.sharedPrefixTokens = 10;
    CHECK(analyseKv(in).prefixBytes == 4 * 1024 * 1024);

    // A request no longer than the prefix still needs a block for its own tokens.
    in.sharedPrefixTokens = 16384;
    in.contexts = {8192};
    const KvResult shortRequests = analyseKv(in);
    CHECK(shortRequests.streams[0].bytesPerStream == 4 * 1024 * 1024);
    CHECK(shortRequests.streams[0].streams == 14745 - 1024);
}

TEST_CASE("hybrid models hold only the window in sliding layers", "[kv][hybrid]")
{
    KvInputs in;
    in.model = gemma2_9b();
    in.model.paramsTotal = 8589934592.0;
    in.model.paramsActive = in.model.paramsTotal;
    in.gpuMemoryBytes = 80 * kGiB;
    in.utilization = 1.0;
    in.contexts = {2048, 5000, 32768};
    const KvResult r = analyseKv(in);
    REQUIRE(r.poolBytes == 64 * kGiB);
    // Within the window both kinds hold all 2048 tokens: 16 × 172032 × (128 + 128).
    CHECK(r.streams[0].bytesPerStream == 704643072);
    CHECK(r.streams[0].streams == 97);
    // 5000 tokens: 313 full-layer blocks, 256 sliding-layer blocks.
    CHECK(r.streams[1].bytesPerStream == 1566179328);
    // 32768 tokens: 2048 full-layer blocks, sliding layers still 256 blocks (4096 tokens).
    CHECK(r.streams[2].bytesPerStream == 6341787648);
    CHECK(r.streams[2].streams == 10);

    // Without the window every layer holds all 32768 tokens: only 6 streams.
    KvInputs dense = in;
    dense.model.slidingLayers = 0;
    dense.model.slidingWindow = 0;
    CHECK(analyseKv(dense).streams[2].streams == 6);
}

TEST_CASE("hybrid shared prefix: sliding layers share it only while it is in the window", "[kv][hybrid][prefix]")
{
    KvInputs in;
    in.model = gemma2_9b();
    in.gpuMemoryBytes = 80 * kGiB;
    in.sharedPrefixTokens = 1024;
    in.contexts = {2048, 32768};
    const KvResult r = analyseKv(in);
    // Prefix: 64 blocks in both layer kinds.
    CHECK(r.prefixBytes == 16 * 172032 * 128);
    // At 2048 the stream owns 1024 tokens in both kinds.
    CHECK(r.streams[0].bytesPerStream == 16 * 172032 * 128);
    // At 32768 the window has moved past the prefix: 1984 full + 256 sliding blocks.
    CHECK(r.streams[1].bytesPerStream == 6165626880);
}

TEST_CASE("a model larger than the GPU reports the shortfall in bytes", "[kv][pool]")
{
    KvInputs in;
    in.model = llama31_70b();
    in.gpuMemoryBytes = 80 * kGiB;
    in.utilization = 0.9;
    in.contexts = {1, 8192};
    const KvResult r = analyseKv(in);
    CHECK(r.weightsBytes == 141107412992);
    CHECK(r.usableBytes == 77309411328);
    CHECK(r.poolBytes == -63798001664);
    CHECK_FALSE(r.fits);
    CHECK(r.shortfallBytes == 63798001664);
    CHECK(r.blocks == 0);
    CHECK(r.streams[0].streams == 0);
    CHECK(r.streams[1].streams == 0);

    // Sharded over 4 GPUs it fits.
    in.tp = 4;
    const KvResult sharded = analyseKv(in);
    CHECK(sharded.fits);
    CHECK(sharded.weightsBytes == 35276853248);
    CHECK(sharded.kvBytesPerToken == 81920);
}

TEST_CASE("fp8 KV cache roughly doubles concurrency over bf16", "[kv][pool]")
{
    KvInputs in;
    in.model = llama31_8b();
    in.gpuMemoryBytes = h100Sxm().memoryBytes;
    in.contexts = {4096, 32768};
    const KvResult bf16 = analyseKv(in);
    in.kv = KvPrecision::Fp8;
    const KvResult fp8 = analyseKv(in);
    CHECK(fp8.poolBytes == bf16.poolBytes);
    CHECK(fp8.blocks >= 2 * bf16.blocks);
    CHECK(fp8.blocks <= 2 * bf16.blocks + 1);
    for (size_t i = 0; i < in.contexts.size(); ++i) {
        CHECK(fp8.streams[i].streams >= 2 * bf16.streams[i].streams);
        CHECK(fp8.streams[i].streams <= 2 * bf16.streams[i].streams + 1);
    }
    // H100 (81559 MiB) × 0.9 − 16.06 GB weights = 60908206489 B; 2 MiB blocks in bf16.
    CHECK(bf16.poolBytes == 60908206489);
    CHECK(bf16.streams[0].streams == 113);
}

TEST_CASE("bad analysis inputs name the offending field", "[kv][input]")
{
    const std::vector<std::pair<std::string, std::function<void(KvInputs &)>>> cases = {
        {"util", [](KvInputs &in) { in.utilization = 0; }},
        {"util", [](KvInputs &in) { in.utilization = 1.5; }},
        {"util", [](KvInputs &in) { in.utilization = -0.1; }},
        {"layers", [](KvInputs &in) { in.model.layers = 0; }},
        {"kv_heads", [](KvInputs &in) { in.model.kvHeads = 0; }},
        {"head_dim", [](KvInputs &in) { in.model.headDim = 0; }},
        {"params", [](KvInputs &in) { in.model.paramsTotal = 0; }},
        {"block", [](KvInputs &in) { in.blockSize = 0; }},
        {"block", [](KvInputs &in) { in.blockSize = 1025; }},
        {"reserve", [](KvInputs &in) { in.reserveBytes = -1; }},
        {"memory", [](KvInputs &in) { in.gpuMemoryBytes = 0; }},
        {"context", [](KvInputs &in) { in.contexts = {4096, 0}; }},
        {"context", [](KvInputs &in) { in.contexts = {1'000'000'001}; }},
        {"prefix", [](KvInputs &in) { in.sharedPrefixTokens = -5; }},
        {"tp", [](KvInputs &in) { in.tp = 3; }},
        {"tp", [](KvInputs &in) { in.tp = 0; }},
    };
    for (const auto &[field, spoil] : cases) {
        KvInputs in = goldenInputs();
        spoil(in);
        INFO("field " << field);
        CHECK(fieldOfError(in) == field);
    }

    KvInputs edge = goldenInputs();
    edge.utilization = 1.0;
    edge.blockSize = 1024;
    edge.contexts = {1, 1'000'000'000};
    CHECK(fieldOfError(edge) == "no error");

    // Catalog identity is not an analysis input.
    KvInputs adHoc = goldenInputs();
    adHoc.model.id.clear();
    adHoc.model.name.clear();
    adHoc.model.maxContext = 0;
    CHECK(fieldOfError(adHoc) == "no error");

    KvInputs util = goldenInputs();
    util.utilization = 1.5;
    try {
        analyseKv(util);
        FAIL("expected InputError");
    } catch (const InputError &e) {
        CHECK(std::string(e.what()) == "util must be greater than 0 and at most 1 (got 1.5)");
    }
}

TEST_CASE("golden: prefix hit rate 20 % -> 50 % cuts prefill compute by 37.5 %", "[kv][prefix]")
{
    CHECK(prefillReduction(0.2, 0.5) == Approx(0.375).margin(1e-12));
    CHECK(prefillReduction(0.0, 0.5) == Approx(0.5).margin(1e-12));
    CHECK(prefillReduction(0.5, 0.5) == 0.0);
    CHECK(prefillReduction(0.0, 1.0) == 1.0);
    CHECK_THROWS_AS(prefillReduction(1.0, 1.0), InputError);
    CHECK_THROWS_AS(prefillReduction(0.2, 1.2), InputError);
}
