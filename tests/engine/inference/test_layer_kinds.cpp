#include "common/models.h"

#include "engine/catalog/layer_types.h"
#include "engine/common/errors.h"
#include "engine/inference/kv.h"
#include "engine/inference/kv_levers.h"
#include "engine/inference/step_cost.h"

#include <catch2/catch.hpp>

using namespace headroom::engine;
using namespace headroom::test;
using Catch::Matchers::Contains;

namespace {

// Qwen3-Next-80B-A3B as its config.json gives it (the catalog entry's KV fields).
ModelSpec qwen3Next()
{
    ModelSpec m;
    m.id = "qwen3-next-80b-a3b";
    m.name = "Qwen3-Next 80B-A3B";
    m.paramsTotal = 79674391296.0;
    m.paramsActive = 3874929408.0;
    m.layers = 48;
    m.hiddenSize = 2048;
    m.attentionHeads = 16;
    m.kvHeads = 2;
    m.headDim = 256;
    m.maxContext = 262144;
    m.layerTypes = parseLayerTypes("(linear*3,full)*12");
    m.stateBytesPerLayer = 32 * 128 * 128 * 2 + 3 * 8192 * 2;
    return m;
}

// Llama 4 Scout: 36 chunked layers of 8,192 tokens, every fourth layer global.
ModelSpec llama4Scout()
{
    ModelSpec m = llama31_8b();
    m.id = "llama-4-scout";
    m.layers = 48;
    m.hiddenSize = 5120;
    m.attentionHeads = 40;
    m.kvHeads = 8;
    m.paramsTotal = 107769861120.0;
    m.paramsActive = 17172894720.0;
    m.layerTypes = parseLayerTypes("(chunked*3,full)*12");
    m.attentionChunk = 8192;
    return m;
}

KvInputs onGpu(const ModelSpec &model, int64_t gib)
{
    KvInputs in;
    in.model = model;
    in.gpuMemoryBytes = gib * kGiB;
    in.weights = WeightPrecision::Bf16;
    in.utilization = 0.9;
    in.reserveBytes = 0;
    in.blockSize = 16;
    return in;
}

} // namespace

TEST_CASE("layer kinds in their text form: repeats, groups, config.json names, the shortest form back", "[layer_kinds]")
{
    const auto kinds = parseLayerTypes("(linear*3, full)*12");
    REQUIRE(kinds.size() == 48);
    CHECK(kinds[2] == LayerKind::Linear);
    CHECK(kinds[3] == LayerKind::Full);
    CHECK(layerTypesText(kinds) == "(linear*3,full)*12");
    CHECK(layerTypesText(parseLayerTypes("sliding_attention,full_attention,sliding_attention,full_attention"))
          == "(sliding,full)*2");
    CHECK(layerTypesText(parseLayerTypes("full*3")) == "full*3");
    CHECK(layerTypesText(parseLayerTypes("full,sliding,sliding")) == "full,sliding*2");
    CHECK(layerTypesText(parseLayerTypes("((chunked*3,full)*2)*6")) == "(chunked*3,full)*12");
    CHECK(parseLayerTypes("  ").empty());
    CHECK(layerTypesText({}).empty());

    CHECK_THROWS_WITH(parseLayerTypes("full,dense"), Contains("unknown layer kind \"dense\"") && Contains("character 6"));
    CHECK_THROWS_WITH(parseLayerTypes("full*0"), Contains("a count of 0"));
    CHECK_THROWS_WITH(parseLayerTypes("full*"), Contains("a count after '*'"));
    CHECK_THROWS_WITH(parseLayerTypes("(full"), Contains("without its ')'"));
    CHECK_THROWS_WITH(parseLayerTypes("full)"), Contains("')' without its '('"));
    CHECK_THROWS_WITH(parseLayerTypes("(full*1000)*1000"), Contains("more than 100,000 layers"));
    CHECK_THROWS_AS(parseLayerTypes("full,"), InputError);
}

TEST_CASE("a model's layer kinds are checked against its other fields", "[layer_kinds]")
{
    const auto fieldsOf = [](const ModelSpec &m) {
        std::vector<std::string> fields;
        for (const FieldProblem &p : validate(m))
            fields.push_back(p.field);
        return fields;
    };
    CHECK(validate(qwen3Next()).empty());
    CHECK(validate(llama4Scout()).empty());

    ModelSpec m = qwen3Next();
    m.layers = 47;
    CHECK(fieldsOf(m) == std::vector<std::string>{"layer_types"});
    m = qwen3Next();
    m.stateBytesPerLayer = 0;
    CHECK(fieldsOf(m) == std::vector<std::string>{"state_bytes_per_layer"});
    m = llama4Scout();
    m.attentionChunk = 0;
    CHECK(fieldsOf(m) == std::vector<std::string>{"attention_chunk"});
    m = llama31_8b();
    m.attentionChunk = 8192; // no chunked layers
    CHECK(fieldsOf(m) == std::vector<std::string>{"attention_chunk"});
    m = llama31_8b();
    m.sinkTokens = 4; // no sliding layers
    CHECK(fieldsOf(m) == std::vector<std::string>{"sink_tokens"});
    m = llama31_8b();
    m.layerTypes = parseLayerTypes("sliding,full*31"); // sliding_layers still 0
    m.slidingWindow = 0;
    CHECK(fieldsOf(m) == std::vector<std::string>{"sliding_layers"});
    m = qwen3Next();
    m.layerTypes = parseLayerTypes("linear*48");
    CHECK(fieldsOf(m) == std::vector<std::string>{"layer_types"});
}

TEST_CASE("a linear layer's constant state is held per stream and chunked layers hold one chunk", "[layer_kinds]")
{
    // Qwen3-Next on a 400 GiB GPU, BF16 weights: 12 full layers × 2 × 2 × 256 × 2 B =
    // 24,576 B per token, plus 36 × 1,097,728 B of Gated DeltaNet state per stream.
    const KvResult r = analyseKv(onGpu(qwen3Next(), 400));
    REQUIRE(r.fits);
    CHECK(r.kvBytesPerToken == 24576);
    CHECK(r.perToken.stateBytes == 36 * 1097728);
    const StreamsAt at8k = streamsAtContext(r, 8192);
    CHECK(at8k.bytesPerStream == 8192LL * 24576 + 36 * 1097728);
    CHECK(at8k.streams == r.poolBytes / at8k.bytesPerStream);
    CHECK(at8k.streams > 0);
    // The state is a larger share of a short stream: at 1,024 tokens, 61 %.
    const StreamsAt at1k = streamsAtContext(r, 1024);
    CHECK(double(36 * 1097728) / double(at1k.bytesPerStream) == Approx(0.611).margin(0.001));
    // TP 2 splits the full layers' two KV heads and the state's heads.
    KvInputs tp2 = onGpu(qwen3Next(), 400);
    tp2.tp = 2;
    const KvResult r2 = analyseKv(tp2);
    CHECK(r2.kvBytesPerToken == 12288);
    CHECK(r2.perToken.stateBytes == 36 * 548864);

    // Llama 4 Scout at 131,072 tokens: the 12 global layers hold every token, the 36 chunked
    // layers one chunk of 8,192: (12 × 131,072 + 36 × 8,192) × 4,096 B = 4.5 × 2^30 B a stream.
    const KvResult scout = analyseKv(onGpu(llama4Scout(), 1000));
    CHECK(scout.perToken.chunkedLayers == 36 * 4096);
    CHECK(scout.perToken.fullLayers == 12 * 4096);
    const StreamsAt longStream = streamsAtContext(scout, 131072);
    CHECK(longStream.bytesPerStream == (12LL * 131072 + 36LL * 8192) * 4096);
    // Below one chunk, chunked layers hold the whole context like full ones.
    CHECK(streamsAtContext(scout, 4096).bytesPerStream == 48LL * 4096 * 4096);
}

TEST_CASE("sink tokens widen a sliding window and the lever stack refuses chunked and linear models", "[layer_kinds]")
{
    ModelSpec m = gemma2_9b();
    const KvPerToken plain = kvBytesPerToken(m, KvPrecision::Bf16);
    m.sinkTokens = 4;
    const KvPerToken sinks = kvBytesPerToken(m, KvPrecision::Bf16);
    CHECK(sinks.window == plain.window + 4);
    CHECK(sinks.total() == plain.total());

    CHECK_THROWS_WITH(kvShapeOf(qwen3Next(), KvPrecision::Bf16), Contains("chunked-attention or linear layers"));
    CHECK_THROWS_WITH(kvShapeOf(llama4Scout(), KvPrecision::Bf16), Contains("chunked-attention or linear layers"));
}

TEST_CASE("the step cost reads a chunk, not the context, on chunked layers, and each stream's state once",
          "[layer_kinds]")
{
    StepCostModel m;
    m.kvPerToken.fullLayers = 100;
    m.kvPerToken.chunkedLayers = 300;
    m.kvPerToken.chunk = 8192;
    m.kvPerToken.stateBytes = 5000;
    // 100 × 131,072 + 300 × 8,192 + 5,000 per decoding sequence
    CHECK(decodeStep(m, 2, 131072).kvReadBytes == 2.0 * (100.0 * 131072 + 300.0 * 8192 + 5000));
    m.layers = 4;
    m.chunkedLayers = 3;
    m.attentionChunk = 8192;
    const StepBatch prefill = prefillStep(m, 16384, 0);
    // A chunked layer sees at most its chunk: 16,384 × 8,192 − (8,192 × 8,191) ÷ 2 pairs.
    CHECK(prefill.attentionPairsChunked == Approx(attentionPairs(16384, 0, 8192)));
    CHECK(prefill.attentionPairsChunked < prefill.attentionPairsFull);
}
