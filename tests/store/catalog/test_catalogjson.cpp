#include "common/storetestsupport.h"

#include "engine/catalog/layer_types.h"
#include "engine/inference/kv.h"
#include "store/catalog/catalogjson.h"
#include "store/common/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <algorithm>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

QByteArray documentWith(const QString &key, const QJsonArray &entries)
{
    QJsonObject root;
    root.insert(key, entries);
    return QJsonDocument(root).toJson();
}

QByteArray gpusWith(const QJsonObject &gpu)
{
    return documentWith(QStringLiteral("gpus"), QJsonArray{gpuToJson(sampleGpu("first")), gpu});
}

QByteArray modelsWith(const QJsonObject &model)
{
    return documentWith(QStringLiteral("models"),
                        QJsonArray{modelToJson(sampleModel("first")), model});
}

} // namespace

TEST_CASE("shipped catalogs parse and validate")
{
    const Catalog gpus = readCatalogFile(sourceFile(QStringLiteral("data/gpus.json")));
    const Catalog models = readCatalogFile(sourceFile(QStringLiteral("data/models.json")));
    CHECK(gpus.gpus.size() >= 9);
    CHECK(gpus.models.empty());
    CHECK(models.models.size() >= 7);
    CHECK(models.gpus.empty());
    for (const auto &gpu : gpus.gpus)
        CHECK(engine::validate(gpu).empty());
    for (const auto &model : models.models)
        CHECK(engine::validate(model).empty());
}

TEST_CASE("the 2025-26 GPUs are shipped with the datasheets' dense peaks per GPU and the names their drivers report")
{
    const Catalog catalog = readCatalogFile(sourceFile(QStringLiteral("data/gpus.json")));
    const auto find = [&](const std::string &id) -> const engine::GpuSpec & {
        const auto it = std::find_if(catalog.gpus.begin(), catalog.gpus.end(),
                                     [&](const engine::GpuSpec &g) { return g.id == id; });
        REQUIRE(it != catalog.gpus.end());
        return *it;
    };
    // HGX B300, 8 GPUs: BF16 36 and FP8 72 PFLOPS with sparsity, FP4 108 PFLOPS dense.
    const engine::GpuSpec &b300 = find("b300");
    CHECK(b300.bf16Tflops == 36000.0 / 2 / 8);
    CHECK(b300.fp8Tflops == 72000.0 / 2 / 8);
    CHECK(b300.fp4Tflops == 108000.0 / 8);
    CHECK(b300.memoryBytes == int64_t(275040) * 1048576);
    CHECK(b300.draProductName == "NVIDIA B300 SXM6 AC");
    // MI355X: AMD's dense figures; no DRA name known, so DRA claims are refused.
    const engine::GpuSpec &mi355x = find("mi355x");
    CHECK(mi355x.fp8Tflops == 2 * mi355x.bf16Tflops);
    CHECK(mi355x.fp4Tflops == 2 * mi355x.fp8Tflops);
    CHECK(mi355x.memoryBytes == int64_t(288) << 30);
    CHECK(mi355x.draProductName.empty());
    CHECK(mi355x.nvlinkGBps == Approx(7 * 153.6));
    // RTX PRO 6000 Server Edition: 4,000 FP4 TOPS with sparsity, GDDR7 512-bit at 28 Gbps.
    const engine::GpuSpec &rtx = find("rtx-pro-6000");
    CHECK(rtx.fp4Tflops * 2 == Approx(4030.4));
    CHECK(rtx.hbmBandwidthGBps == 512.0 / 8 * 28);
    CHECK(rtx.nvlinkGBps == 0);
    CHECK(rtx.draProductName == "NVIDIA RTX PRO 6000 Blackwell Server Edition");
    // H20: Hopper with FP8 and no FP4, more bandwidth than an H100 and about 15 % of its compute.
    const engine::GpuSpec &h20 = find("h20");
    const engine::GpuSpec &h100 = find("h100-sxm");
    CHECK(h20.fp4Tflops == 0);
    CHECK(h20.hbmBandwidthGBps / h100.hbmBandwidthGBps == Approx(1.194).margin(0.001));
    CHECK(h20.bf16Tflops / h100.bf16Tflops == Approx(0.150).margin(0.001));
    CHECK(h20.draProductName == "NVIDIA H20");
    for (const char *id : {"b300", "mi355x", "rtx-pro-6000", "h20"}) {
        INFO(id);
        CHECK(find(id).efficiency.has_value());
    }
}

TEST_CASE("export then parse gives back every field")
{
    Catalog catalog;
    catalog.gpus = {sampleGpu("b-gpu"), sampleGpu("a-gpu")};
    catalog.gpus[1].memoryBytes = (int64_t(1) << 40) + 12345;  // exact above 2^32
    engine::ModelSpec gqa = sampleModel("dense");
    gqa.attention = engine::AttentionKind::Gqa;
    gqa.paramsTotal = gqa.paramsActive = 8030261248.25;
    gqa.attentionHeads = 32;
    gqa.kvHeads = 8;
    gqa.kvLoraRank = gqa.qkRopeHeadDim = 0;
    gqa.maxContext = int64_t(1) << 33;
    catalog.models = {sampleModel("moe"), gqa};

    const Catalog back = parseCatalog(catalogToJson(catalog), QStringLiteral("export.json"));
    REQUIRE(back.gpus.size() == 2);
    REQUIRE(back.models.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(gpuToJson(back.gpus[i]) == gpuToJson(catalog.gpus[i]));
        CHECK(modelToJson(back.models[i]) == modelToJson(catalog.models[i]));
    }
    CHECK(back.gpus[1].memoryBytes == (int64_t(1) << 40) + 12345);
    CHECK(back.models[0].paramsTotal == 671026419200.5);
    CHECK(back.models[1].maxContext == int64_t(1) << 33);
    CHECK(back.gpus[0].source == catalog.gpus[0].source);
}

TEST_CASE("export writes keys in the order of the shipped files")
{
    Catalog catalog;
    catalog.gpus = {sampleGpu()};
    catalog.models = {sampleModel()};
    const QString text = QString::fromUtf8(catalogToJson(catalog));
    CHECK(text.indexOf(QLatin1String("\"id\"")) < text.indexOf(QLatin1String("\"name\"")));
    CHECK(text.indexOf(QLatin1String("\"name\"")) < text.indexOf(QLatin1String("\"vendor\"")));
    CHECK(text.indexOf(QLatin1String("\"memory_bytes\": 85520809984")) > 0);
    CHECK(text.indexOf(QLatin1String("\"gpus_per_node\""))
          < text.indexOf(QLatin1String("\"source\"")));
    CHECK(text.indexOf(QLatin1String("\"gpus\"")) < text.indexOf(QLatin1String("\"models\"")));
    CHECK(text.contains(QLatin1String("\n      \"attention\": \"mla\",\n")));
}

TEST_CASE("export of only models leaves out the empty GPU list")
{
    Catalog catalog;
    catalog.models = {sampleModel()};
    const QJsonObject root = QJsonDocument::fromJson(catalogToJson(catalog)).object();
    CHECK_FALSE(root.contains(QLatin1String("gpus")));
    CHECK(root.value(QLatin1String("models")).toArray().size() == 1);

    const Catalog empty = parseCatalog(catalogToJson(Catalog{}), QStringLiteral("empty.json"));
    CHECK(empty.gpus.empty());
    CHECK(empty.models.empty());
}

TEST_CASE("malformed JSON names the source, line and column")
{
    const QByteArray json = "{\n  \"gpus\": [\n    {\"id\": \"x\",}\n  ]\n}\n";
    const std::string message = storeErrorOf([&] { parseCatalog(json, "broken.json"); });
    CHECK_THAT(message, Contains("broken.json: line 3, column"));
    CHECK_THAT(message, Contains("not valid JSON: a comma is not followed by another entry"));
}

TEST_CASE("the top level must be an object with gpus and/or models")
{
    CHECK_THAT(storeErrorOf([] { parseCatalog("[]", "a.json"); }),
               Contains("a.json: the top level must be an object"));
    CHECK_THAT(storeErrorOf([] { parseCatalog("{}", "b.json"); }),
               Contains("b.json: no \"gpus\" or \"models\" array"));
    CHECK_THAT(storeErrorOf([] { parseCatalog(R"({"gpus": [], "rates": []})", "c.json"); }),
               Contains("c.json: unknown top-level key \"rates\""));
    CHECK_THAT(storeErrorOf([] { parseCatalog(R"({"models": {}})", "d.json"); }),
               Contains("d.json: \"models\" must be an array, got an object"));
    CHECK_THAT(storeErrorOf([] { parseCatalog(R"({"gpus": [42]})", "e.json"); }),
               Contains("e.json: gpus[0]: expected an object, got a number"));
}

TEST_CASE("a missing key names the entry and the field")
{
    QJsonObject gpu = gpuToJson(sampleGpu("h100-sxm"));
    gpu.remove(QStringLiteral("tdp_w"));
    CHECK(storeErrorOf([&] { parseCatalog(gpusWith(gpu), "gpus.json"); })
          == "gpus.json: gpus[1] (id \"h100-sxm\"): field \"tdp_w\": missing");

    QJsonObject model = modelToJson(sampleModel("m"));
    model.remove(QStringLiteral("id"));
    CHECK(storeErrorOf([&] { parseCatalog(modelsWith(model), "models.json"); })
          == "models.json: models[1]: field \"id\": missing");
}

TEST_CASE("a value of the wrong JSON type names the entry and the field")
{
    QJsonObject gpu = gpuToJson(sampleGpu("g"));
    gpu.insert(QStringLiteral("bf16_tflops"), QStringLiteral("989"));
    CHECK(storeErrorOf([&] { parseCatalog(gpusWith(gpu), "gpus.json"); })
          == "gpus.json: gpus[1] (id \"g\"): field \"bf16_tflops\": expected a number, got a "
             "string");

    QJsonObject model = modelToJson(sampleModel("m"));
    model.insert(QStringLiteral("name"), true);
    CHECK(storeErrorOf([&] { parseCatalog(modelsWith(model), "models.json"); })
          == "models.json: models[1] (id \"m\"): field \"name\": expected a string, got a "
             "boolean");

    model = modelToJson(sampleModel("m"));
    model.insert(QStringLiteral("layers"), QJsonValue());
    CHECK_THAT(storeErrorOf([&] { parseCatalog(modelsWith(model), "models.json"); }),
               Contains("field \"layers\": expected a number, got null"));
}

TEST_CASE("integer fields reject fractions and out-of-range values")
{
    QJsonObject model = modelToJson(sampleModel("m"));
    model.insert(QStringLiteral("kv_lora_rank"), 511.5);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(modelsWith(model), "models.json"); }),
               Contains("models[1] (id \"m\"): field \"kv_lora_rank\": expected a whole number"));

    model = modelToJson(sampleModel("m"));
    model.insert(QStringLiteral("layers"), 1e10);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(modelsWith(model), "models.json"); }),
               Contains("field \"layers\": 10000000000 is out of range"));

    QJsonObject gpu = gpuToJson(sampleGpu("g"));
    gpu.insert(QStringLiteral("memory_bytes"), 1e30);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(gpu), "gpus.json"); }),
               Contains("field \"memory_bytes\": 1e+30 is out of range"));

    // Integers written in the file are read exactly, not through a rounded double.
    QByteArray exact = gpusWith(gpuToJson(sampleGpu("g")));
    exact.replace("85520809984", "85520809983");
    CHECK(parseCatalog(exact, "gpus.json").gpus[1].memoryBytes == 85520809983);
}

TEST_CASE("unknown keys are rejected by name")
{
    QJsonObject gpu = gpuToJson(sampleGpu("g"));
    gpu.insert(QStringLiteral("fp6_tflops"), 10);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(gpu), "gpus.json"); }),
               Contains("gpus.json: gpus[1] (id \"g\"): unknown field \"fp6_tflops\""));

    QJsonObject model = modelToJson(sampleModel("m"));
    model.insert(QStringLiteral("rope_theta"), 1);
    model.insert(QStringLiteral("vocab"), 1);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(modelsWith(model), "models.json"); }),
               Contains("unknown fields \"rope_theta\", \"vocab\""));
}

TEST_CASE("a duplicate id in one file is an error")
{
    const std::string message = storeErrorOf([] {
        parseCatalog(modelsWith(modelToJson(sampleModel("first"))), "models.json");
    });
    CHECK(message
          == "models.json: models[1] (id \"first\"): field \"id\": duplicate id \"first\" (also "
             "models[0])");
}

TEST_CASE("values the engine rejects name the entry and the field")
{
    engine::ModelSpec model = sampleModel("qwen2.5-32b");
    model.attention = engine::AttentionKind::Gqa;
    model.kvLoraRank = model.qkRopeHeadDim = 0;
    model.attentionHeads = 40;
    model.kvHeads = 0;
    const std::string message = storeErrorOf(
        [&] { parseCatalog(modelsWith(modelToJson(model)), "models.json"); });
    CHECK_THAT(message,
               Contains("models.json: models[1] (id \"qwen2.5-32b\"): field \"kv_heads\": "
                        "kv_heads must be"));

    engine::GpuSpec gpu = sampleGpu("g");
    gpu.gpusPerNode = 0;
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(gpuToJson(gpu)), "gpus.json"); }),
               Contains("gpus[1] (id \"g\"): field \"gpus_per_node\": gpus_per_node must be"));

    QJsonObject attention = modelToJson(sampleModel("m"));
    attention.insert(QStringLiteral("attention"), QStringLiteral("linear"));
    CHECK_THAT(storeErrorOf([&] { parseCatalog(modelsWith(attention), "models.json"); }),
               Contains("field \"attention\": attention must be one of mha, gqa, mqa, mla "
                        "(got \"linear\")"));
}

TEST_CASE("reading a catalog file names the file")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("nope.json"));
    CHECK_THAT(storeErrorOf([&] { readCatalogFile(missing); }),
               Contains("Cannot read catalog file \"" + missing.toStdString() + "\""));

    const QString broken = dir.filePath(QStringLiteral("broken.json"));
    writeBytes(broken, "{\"gpus\": [");
    CHECK_THAT(storeErrorOf([&] { readCatalogFile(broken); }),
               Contains(broken.toStdString() + ": line 1"));
}

TEST_CASE("a GPU's calibrations per deployment survive export, parse and the workspace, and bad ones are refused",
          "[workspace]")
{
    engine::GpuSpec gpu = sampleGpu("calibrated");
    engine::DeploymentProfile profile;
    profile.modelId = "llama-3.1-8b";
    profile.tp = 2;
    profile.weights = engine::WeightPrecision::Fp8;
    profile.efficiency = engine::GpuEfficiency{0.81, 0.78, 0.0, 0.66, 96, 0.5, 22, 0.7, 28, 0.4, 61,
                                               "calibrated for llama-3.1-8b on test, TP 2"};
    gpu.putCalibration(profile);
    profile.efficiency.bandwidth = 0.79; // the same deployment again: replaced, not added
    gpu.putCalibration(profile);
    REQUIRE(gpu.calibrations.size() == 1);
    CHECK(gpu.calibrations[0].efficiency.bandwidth == 0.79);

    const Catalog parsed = parseCatalog(gpusWith(gpuToJson(gpu)), QStringLiteral("c.json"));
    REQUIRE(parsed.gpus.size() == 2);
    CHECK(parsed.gpus[1].calibrations == gpu.calibrations);

    WorkspaceLocation location;
    {
        Workspace workspace(location.path());
        workspace.putGpu(gpu);
    }
    Workspace reopened(location.path());
    const auto stored = reopened.gpu(QStringLiteral("calibrated"));
    REQUIRE(stored);
    CHECK(stored->calibrations == gpu.calibrations);
    CHECK(stored->profileFor("llama-3.1-8b", 2, engine::WeightPrecision::Fp8)->bandwidth == 0.79);
    CHECK(stored->profileFor("llama-3.1-8b", 1, engine::WeightPrecision::Fp8) == nullptr); // sampleGpu has no profile

    QJsonObject bad = gpuToJson(gpu);
    QJsonArray calibrations = bad.value("calibrations").toArray();
    QJsonObject entry = calibrations[0].toObject();
    entry.insert("tp", 0);
    calibrations[0] = entry;
    bad.insert("calibrations", calibrations);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(bad), QStringLiteral("c.json")); }),
               Contains("calibrations[0].tp"));
    const QJsonValue good = gpuToJson(gpu).value("calibrations").toArray()[0];
    bad.insert("calibrations", QJsonArray{good, good});
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(bad), QStringLiteral("c.json")); }),
               Contains("a second calibration of llama-3.1-8b at TP 2 with fp8 weights"));
    bad.insert("calibrations", QJsonArray{QJsonObject{{"model", "x"}, {"tp", 1}, {"weights", "fp3"}}});
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(bad), QStringLiteral("c.json")); }),
               Contains("calibrations[0].weights"));
}

TEST_CASE("a GPU's DRA product name survives export, parse and the workspace, and one a driver cannot publish is refused",
          "[workspace]")
{
    engine::GpuSpec gpu = sampleGpu("named");
    const Catalog parsed = parseCatalog(gpusWith(gpuToJson(gpu)), QStringLiteral("d.json"));
    REQUIRE(parsed.gpus.size() == 2);
    CHECK(parsed.gpus[1].draProductName == gpu.draProductName);

    // Optional: an entry without it (an older file) has none, and none is written back.
    QJsonObject unnamed = gpuToJson(gpu);
    unnamed.remove(QStringLiteral("dra_product_name"));
    const Catalog older = parseCatalog(gpusWith(unnamed), QStringLiteral("d.json"));
    CHECK(older.gpus[1].draProductName.empty());
    CHECK_FALSE(gpuToJson(older.gpus[1]).contains(QStringLiteral("dra_product_name")));

    WorkspaceLocation location;
    {
        Workspace workspace(location.path());
        workspace.putGpu(gpu);
    }
    CHECK(Workspace(location.path()).gpu(QStringLiteral("named"))->draProductName == gpu.draProductName);

    QJsonObject bad = gpuToJson(gpu);
    bad.insert(QStringLiteral("dra_product_name"), QString(65, QLatin1Char('x')));
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(bad), QStringLiteral("d.json")); }),
               Contains("gpus[1] (id \"named\"): field \"dra_product_name\": dra_product_name must be at most 64 "
                        "bytes"));
    bad.insert(QStringLiteral("dra_product_name"), QStringLiteral("NVIDIA H100\n"));
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(bad), QStringLiteral("d.json")); }),
               Contains("must not contain control characters"));
    bad.insert(QStringLiteral("dra_product_name"), QStringLiteral(" NVIDIA H100"));
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(bad), QStringLiteral("d.json")); }),
               Contains("must not start or end with a space"));
    bad.insert(QStringLiteral("dra_product_name"), 42);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(bad), QStringLiteral("d.json")); }),
               Contains("field \"dra_product_name\": expected a string"));
}

TEST_CASE("every shipped GPU has a DRA product name unless its source says none is known, and no two share one")
{
    const Catalog shipped = readCatalogFile(sourceFile(QStringLiteral("data/gpus.json")));
    int without = 0;
    for (const engine::GpuSpec &gpu : shipped.gpus) {
        INFO("GPU " << gpu.id);
        if (gpu.draProductName.empty()) {
            // A name that cannot be checked is left out rather than guessed: a wrong one would
            // make claims that select nothing. The entry says so.
            CHECK(gpu.source.find("no DRA product name") != std::string::npos);
            ++without;
            continue;
        }
        for (const engine::GpuSpec &other : shipped.gpus)
            CHECK((other.id == gpu.id || other.draProductName != gpu.draProductName));
    }
    CHECK(without == 1);  // MI355X
}

// The 2025–26 models: each one's KV bytes per token computed here from the figures of its
// published config.json, not from the catalog's fields, against what the engine makes of the
// shipped entry. GQA: 2 (K and V) × layers × KV heads (at least one per rank) × head_dim ×
// 2 bytes of BF16; MLA: layers × (kv_lora_rank + qk_rope_head_dim) × 2 bytes.
TEST_CASE("the shipped gpt-oss, Qwen3 MoE and DeepSeek-R1 entries cost the KV their configs give")
{
    const Catalog catalog = readCatalogFile(sourceFile(QStringLiteral("data/models.json")));
    const auto model = [&](const std::string &id) {
        for (const engine::ModelSpec &m : catalog.models) {
            if (m.id == id)
                return m;
        }
        FAIL("no shipped model " << id);
        return engine::ModelSpec{};
    };
    struct Config {
        const char *id;
        int64_t layers, slidingLayers, kvHeads, headDim;  // GQA fields of config.json
        int64_t latent;                                   // MLA: kv_lora_rank + qk_rope_head_dim
        int64_t window;
    };
    const Config configs[] = {
        // openai/gpt-oss-20b: 24 layers, layer_types alternate sliding (128) and full.
        {"gpt-oss-20b", 24, 12, 8, 64, 0, 128},
        {"gpt-oss-120b", 36, 18, 8, 64, 0, 128},
        {"qwen3-30b-a3b", 48, 0, 4, 128, 0, 0},
        {"qwen3-235b-a22b", 94, 0, 4, 128, 0, 0},
        // deepseek-ai/DeepSeek-R1: 61 layers, kv_lora_rank 512, qk_rope_head_dim 64.
        {"deepseek-r1", 61, 0, 0, 0, 512 + 64, 0},
    };
    for (const Config &c : configs) {
        INFO(c.id);
        const engine::ModelSpec m = model(c.id);
        for (const int tp : {1, 2, 8}) {
            INFO("TP " << tp);
            const engine::KvPerToken kv = engine::kvBytesPerToken(m, engine::KvPrecision::Bf16, tp);
            if (c.latent > 0) {
                // MLA's latent is not split by heads: every rank holds all of it.
                CHECK(kv.fullLayers == c.layers * c.latent * 2);
                CHECK(kv.slidingLayers == 0);
                continue;
            }
            const int64_t headsPerRank = std::max<int64_t>(1, c.kvHeads / tp);
            const int64_t perLayer = 2 * headsPerRank * c.headDim * 2;
            CHECK(kv.fullLayers == (c.layers - c.slidingLayers) * perLayer);
            CHECK(kv.slidingLayers == c.slidingLayers * perLayer);
            CHECK(kv.window == c.window);
        }
    }
    // The figures in words: gpt-oss-120b holds 36,864 B per token on its 18 global layers and
    // at most 128 tokens on the other 18; Qwen3-235B-A22B 192,512 B per token on one GPU.
    CHECK(engine::kvBytesPerToken(model("gpt-oss-120b"), engine::KvPrecision::Bf16).fullLayers == 36864);
    CHECK(engine::kvBytesPerToken(model("qwen3-235b-a22b"), engine::KvPrecision::Bf16).total() == 192512);
    CHECK(engine::kvBytesPerToken(model("deepseek-r1"), engine::KvPrecision::Bf16).total() == 70272);
}

TEST_CASE("the shipped hybrids cost the KV and state their configs give: Qwen3-Next's Gated DeltaNet layers, Llama 4's "
          "chunked attention, gpt-oss's layer list")
{
    const Catalog catalog = readCatalogFile(sourceFile(QStringLiteral("data/models.json")));
    const auto model = [&](const std::string &id) {
        for (const engine::ModelSpec &m : catalog.models)
            if (m.id == id)
                return m;
        FAIL("no shipped model " << id);
        return engine::ModelSpec{};
    };
    // Qwen/Qwen3-Next-80B-A3B: layer_types (linear_attention × 3, full_attention) × 12; 2 KV heads
    // of 256 on the 12 full layers; each Gated DeltaNet layer holds 32 value heads × 128 × 128
    // of recurrent state and (4 − 1) × (2 × 16 × 128 + 32 × 128) of convolution state, in bf16.
    const engine::ModelSpec next = model("qwen3-next-80b-a3b");
    CHECK(next.layersOf(engine::LayerKind::Linear) == 36);
    CHECK(next.layersOf(engine::LayerKind::Full) == 12);
    CHECK(next.stateBytesPerLayer == (32 * 128 * 128 + 3 * (2 * 16 * 128 + 32 * 128)) * 2);
    for (const int tp : {1, 2}) {
        const engine::KvPerToken kv = engine::kvBytesPerToken(next, engine::KvPrecision::Bf16, tp);
        CHECK(kv.fullLayers == 12 * 2 * (2 / tp) * 256 * 2);
        CHECK(kv.slidingLayers == 0);
        CHECK(kv.chunkedLayers == 0);
        // The Gated DeltaNet heads split over the ranks.
        CHECK(kv.stateBytes == 36 * ((1097728 + tp - 1) / tp));
    }
    // meta-llama/Llama-4-Scout and -Maverick: 48 layers of 8 KV heads × 128, every fourth global,
    // the other 36 chunked attention of 8,192 tokens.
    for (const char *id : {"llama-4-scout", "llama-4-maverick"}) {
        INFO(id);
        const engine::ModelSpec m = model(id);
        const engine::KvPerToken kv = engine::kvBytesPerToken(m, engine::KvPrecision::Bf16, 1);
        CHECK(kv.fullLayers == 12 * 2 * 8 * 128 * 2);
        CHECK(kv.chunkedLayers == 36 * 2 * 8 * 128 * 2);
        CHECK(kv.chunk == 8192);
        CHECK(kv.stateBytes == 0);
        // Maverick: 24 of 48 layers are a mixture of 128 experts, one per token.
        CHECK(m.expertsPerToken == 1);
    }
    CHECK(model("llama-4-scout").experts == 16);
    CHECK(model("llama-4-maverick").experts == 128);
    CHECK(model("llama-4-scout").paramsTotal == 107769861120.0);
    CHECK(model("llama-4-maverick").paramsTotal == 400711848960.0);
    // gpt-oss lists its layers as config.json does; the counts agree with sliding_layers.
    const engine::ModelSpec oss = model("gpt-oss-120b");
    REQUIRE(oss.layerTypes.size() == 36);
    CHECK(oss.layerTypes[0] == engine::LayerKind::Sliding);
    CHECK(oss.layerTypes[1] == engine::LayerKind::Full);
    CHECK(oss.layersOf(engine::LayerKind::Sliding) == oss.slidingLayers);
}

TEST_CASE("a model's layer kinds, chunk, sinks and state survive export, parse and the workspace, and bad ones are refused")
{
    engine::ModelSpec m = sampleModel("hybrid");
    m.layers = 8;
    m.layerTypes = engine::parseLayerTypes("(linear*3,full),chunked*2,sliding,full");
    m.slidingLayers = 1;
    m.slidingWindow = 512;
    m.sinkTokens = 4;
    m.attentionChunk = 4096;
    m.stateBytesPerLayer = 1097728;
    REQUIRE(engine::validate(m).empty());
    const QJsonObject json = modelToJson(m);
    CHECK(json.value("layer_types").toString() == "linear*3,full,chunked*2,sliding,full");
    const Catalog parsed = parseCatalog(documentWith(QStringLiteral("models"), QJsonArray{json}), QStringLiteral("m.json"));
    REQUIRE(parsed.models.size() == 1);
    CHECK(parsed.models[0].layerTypes == m.layerTypes);
    CHECK(parsed.models[0].attentionChunk == 4096);
    CHECK(parsed.models[0].sinkTokens == 4);
    CHECK(parsed.models[0].stateBytesPerLayer == 1097728);

    // config.json's own spelling, a list of names, is read too.
    QJsonObject listed = json;
    QJsonArray names;
    for (const char *name : {"linear_attention", "linear_attention", "linear_attention", "full_attention", "chunked",
                             "chunked", "sliding_attention", "full_attention"})
        names.append(QString::fromLatin1(name));
    listed.insert("layer_types", names);
    CHECK(parseCatalog(documentWith(QStringLiteral("models"), QJsonArray{listed}), QStringLiteral("m.json"))
              .models[0].layerTypes == m.layerTypes);

    QTemporaryDir dir;
    {
        Workspace workspace(dir.filePath("w.headroom"));
        workspace.putModel(m);
    }
    Workspace reopened(dir.filePath("w.headroom"));
    const auto stored = reopened.model("hybrid");
    REQUIRE(stored);
    CHECK(stored->layerTypes == m.layerTypes);
    CHECK(stored->stateBytesPerLayer == 1097728);

    const auto refused = [&](const QJsonValue &types, const char *why) {
        INFO(why);
        QJsonObject bad = json;
        bad.insert("layer_types", types);
        CHECK_THROWS_WITH(parseCatalog(documentWith(QStringLiteral("models"), QJsonArray{bad}), QStringLiteral("m.json")),
                          Contains("layer_types") && Contains(why));
    };
    refused(QStringLiteral("full*3,diagonal"), "unknown layer kind \"diagonal\"");
    refused(QStringLiteral("(full,sliding"), "without its ')'");
    refused(QStringLiteral("full*8"), "sliding_layers must equal");
    refused(QStringLiteral("full*7"), "one kind per layer (8)");
    refused(QJsonValue(3), "expected text");
}

TEST_CASE("a GPU profile's FP8 matmul pair survives export and parse, is optional, and is checked")
{
    engine::GpuSpec gpu = sampleGpu("fp8");
    engine::GpuEfficiency e{0.9, 0.9, 0.0, 0.85, 128, 0.55, 25, 0.8, 30, 0.15, 50, "measured"};
    gpu.efficiency = e;
    QJsonObject withoutPair = gpuToJson(gpu);
    CHECK_FALSE(withoutPair.value(QStringLiteral("efficiency")).toObject().contains(QStringLiteral("matmul_peak_fp8")));
    CHECK(parseCatalog(gpusWith(withoutPair), "gpus.json").gpus[1].efficiency->matmulPeakFp8 == 0);

    gpu.efficiency->matmulPeakFp8 = 0.614;
    gpu.efficiency->matmulHalfTokensFp8 = 64;
    const engine::GpuSpec parsed = parseCatalog(gpusWith(gpuToJson(gpu)), "gpus.json").gpus[1];
    REQUIRE(parsed.efficiency);
    CHECK(*parsed.efficiency == *gpu.efficiency);

    // A peak without its half-way point: constant from the first token (half-way at 0).
    QJsonObject peakOnly = gpuToJson(gpu);
    QJsonObject efficiency = peakOnly.value(QStringLiteral("efficiency")).toObject();
    efficiency.remove(QStringLiteral("matmul_half_tokens_fp8"));
    peakOnly.insert(QStringLiteral("efficiency"), efficiency);
    CHECK(parseCatalog(gpusWith(peakOnly), "gpus.json").gpus[1].efficiency->matmulHalfTokensFp8 == 0);
    efficiency.insert(QStringLiteral("matmul_half_tokens_fp8"), QStringLiteral("64"));
    peakOnly.insert(QStringLiteral("efficiency"), efficiency);
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(peakOnly), "gpus.json"); }),
               Contains("field \"efficiency\": matmul_half_tokens_fp8: expected a number"));

    gpu.efficiency->matmulPeakFp8 = 1.5;
    CHECK_THAT(storeErrorOf([&] { parseCatalog(gpusWith(gpuToJson(gpu)), "gpus.json"); }),
               Contains("matmul_peak_fp8"));
}

TEST_CASE("the shipped H100 profiles carry the FP8 matmul pair fitted to the measured GEMM table")
{
    const Catalog shipped = readCatalogFile(sourceFile(QStringLiteral("data/gpus.json")));
    for (const char *id : {"h100-sxm", "h100-nvl", "h100-pcie"}) {
        INFO(id);
        const engine::GpuSpec *g = engine::findGpu(shipped.gpus, id);
        REQUIRE(g);
        REQUIRE(g->efficiency);
        CHECK(g->efficiency->matmulPeakFp8 == 0.614);
        CHECK(g->efficiency->matmulHalfTokensFp8 == 64);
    }
    // H200's table gives 0.690 half-way at 72 tokens; not shipped yet (references/efficiency.md).
    const engine::GpuSpec *h200 = engine::findGpu(shipped.gpus, "h200");
    REQUIRE(h200);
    REQUIRE(h200->efficiency);
    CHECK(h200->efficiency->matmulPeakFp8 == 0);
}
