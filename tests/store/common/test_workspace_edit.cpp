#include "storetestsupport.h"

#include "store/catalog/catalogjson.h"
#include "store/common/workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

// A workspace in a temporary folder, with counters on its change signals.
struct Fixture {
    Fixture() : workspace(location.path())
    {
        QObject::connect(&workspace, &Workspace::gpusChanged, &workspace, [this] { ++gpuSignals; });
        QObject::connect(&workspace, &Workspace::modelsChanged, &workspace,
                         [this] { ++modelSignals; });
    }

    QTemporaryDir dir;  // beside the workspace, for copies
    WorkspaceLocation location{QStringLiteral("edit.headroom")};
    Workspace workspace;
    int gpuSignals = 0;
    int modelSignals = 0;
};

template <typename Spec>
std::vector<std::string> idsOf(const std::vector<Spec> &specs)
{
    std::vector<std::string> ids;
    for (const auto &spec : specs)
        ids.push_back(spec.id);
    return ids;
}

} // namespace

TEST_CASE("a GPU comes back with every field as it was put", "[workspace]")
{
    Fixture f;
    const engine::GpuSpec put = sampleGpu("zz-test");
    f.workspace.putGpu(put);
    const auto got = f.workspace.gpu(QStringLiteral("zz-test"));
    REQUIRE(got.has_value());
    CHECK(got->id == put.id);
    CHECK(got->name == put.name);
    CHECK(got->vendor == put.vendor);
    CHECK(got->memoryBytes == 85520809984);
    CHECK(got->nominalMemoryGB == put.nominalMemoryGB);
    CHECK(got->hbmBandwidthGBps == put.hbmBandwidthGBps);
    CHECK(got->bf16Tflops == put.bf16Tflops);
    CHECK(got->fp8Tflops == put.fp8Tflops);
    CHECK(got->fp4Tflops == 8765.4);
    CHECK(got->nvlinkGBps == put.nvlinkGBps);
    CHECK(got->pcieGBps == put.pcieGBps);
    CHECK(got->tdpWatts == put.tdpWatts);
    CHECK(got->gpusPerNode == 4);
    CHECK(got->source == put.source);
    CHECK(f.gpuSignals == 1);
    CHECK(f.modelSignals == 0);
    CHECK_FALSE(f.workspace.gpu(QStringLiteral("no-such-gpu")).has_value());
}

TEST_CASE("a model comes back with every field as it was put", "[workspace]")
{
    Fixture f;
    const engine::ModelSpec put = sampleModel("zz-model");
    f.workspace.putModel(put);
    const auto got = f.workspace.model(QStringLiteral("zz-model"));
    REQUIRE(got.has_value());
    CHECK(got->id == put.id);
    CHECK(got->name == put.name);
    CHECK(got->paramsTotal == 671026419200.5);
    CHECK(got->paramsActive == 37.5e9);
    CHECK(got->layers == put.layers);
    CHECK(got->hiddenSize == put.hiddenSize);
    CHECK(got->attentionHeads == put.attentionHeads);
    CHECK(got->kvHeads == put.kvHeads);
    CHECK(got->headDim == put.headDim);
    CHECK(got->attention == engine::AttentionKind::Mla);
    CHECK(got->kvLoraRank == put.kvLoraRank);
    CHECK(got->qkRopeHeadDim == put.qkRopeHeadDim);
    CHECK(got->slidingWindow == put.slidingWindow);
    CHECK(got->slidingLayers == put.slidingLayers);
    CHECK(got->maxContext == put.maxContext);
    CHECK(got->source == put.source);
    CHECK(f.modelSignals == 1);
    CHECK(f.gpuSignals == 0);
}

TEST_CASE("put replaces by id and lists stay ordered by id", "[workspace]")
{
    Fixture f;
    const size_t before = f.workspace.gpus().size();
    engine::GpuSpec gpu = sampleGpu("0-first");
    f.workspace.putGpu(gpu);
    gpu.name = "Renamed";
    gpu.memoryBytes = int64_t(3) << 40;
    f.workspace.putGpu(gpu);

    const auto gpus = f.workspace.gpus();
    CHECK(gpus.size() == before + 1);
    REQUIRE(gpus.front().id == "0-first");
    CHECK(gpus.front().name == "Renamed");
    CHECK(gpus.front().memoryBytes == int64_t(3) << 40);
    const auto ids = idsOf(gpus);
    CHECK(std::is_sorted(ids.begin(), ids.end()));
    const auto modelIds = idsOf(f.workspace.models());
    CHECK(std::is_sorted(modelIds.begin(), modelIds.end()));
    CHECK(f.gpuSignals == 2);
}

TEST_CASE("remove says whether a row went and signals only then", "[workspace]")
{
    Fixture f;
    f.workspace.putModel(sampleModel("gone-soon"));
    f.workspace.putGpu(sampleGpu("gone-soon"));
    f.gpuSignals = f.modelSignals = 0;

    CHECK(f.workspace.removeModel(QStringLiteral("gone-soon")));
    CHECK_FALSE(f.workspace.model(QStringLiteral("gone-soon")).has_value());
    CHECK(f.modelSignals == 1);
    CHECK_FALSE(f.workspace.removeModel(QStringLiteral("gone-soon")));
    CHECK(f.modelSignals == 1);

    CHECK(f.workspace.removeGpu(QStringLiteral("gone-soon")));
    CHECK_FALSE(f.workspace.removeGpu(QStringLiteral("gone-soon")));
    CHECK(f.gpuSignals == 1);
    CHECK(f.modelSignals == 1);
}

TEST_CASE("an invalid GPU is refused naming the field, and nothing is written", "[workspace]")
{
    Fixture f;
    const auto before = f.workspace.gpus();
    engine::GpuSpec gpu = sampleGpu("h100-sxm");  // would overwrite a seeded row
    gpu.memoryBytes = 0;
    const std::string message = storeErrorOf([&] { f.workspace.putGpu(gpu); });
    CHECK_THAT(message, Contains("GPU \"h100-sxm\": field \"memory_bytes\": memory_bytes must be"));

    CHECK(f.workspace.gpus().size() == before.size());
    const auto kept = f.workspace.gpu(QStringLiteral("h100-sxm"));
    REQUIRE(kept.has_value());
    CHECK(kept->memoryBytes == 85520809984);
    CHECK(kept->name != gpu.name);
    CHECK(f.gpuSignals == 0);

    engine::ModelSpec model = sampleModel("bad-model");
    model.layers = 0;
    CHECK_THAT(storeErrorOf([&] { f.workspace.putModel(model); }),
               Contains("Model \"bad-model\": field \"layers\""));
    CHECK_FALSE(f.workspace.model(QStringLiteral("bad-model")).has_value());
    CHECK(f.modelSignals == 0);
}

TEST_CASE("putCatalog writes everything at once and signals once per table", "[workspace]")
{
    Fixture f;
    const size_t gpusBefore = f.workspace.gpus().size();
    const size_t modelsBefore = f.workspace.models().size();
    f.workspace.putCatalog({sampleGpu("new-a"), sampleGpu("new-b"), sampleGpu("new-c")},
                           {sampleModel("new-m")});
    CHECK(f.workspace.gpus().size() == gpusBefore + 3);
    CHECK(f.workspace.models().size() == modelsBefore + 1);
    CHECK(f.gpuSignals == 1);
    CHECK(f.modelSignals == 1);

    f.workspace.putCatalog({}, {sampleModel("new-n")});
    CHECK(f.gpuSignals == 1);
    CHECK(f.modelSignals == 2);
}

TEST_CASE("putCatalog with one bad entry imports nothing", "[workspace]")
{
    Fixture f;
    const auto gpusBefore = idsOf(f.workspace.gpus());
    const auto modelsBefore = idsOf(f.workspace.models());
    engine::ModelSpec bad = sampleModel("bad-last");
    bad.maxContext = 0;
    CHECK_THAT(storeErrorOf([&] {
                   f.workspace.putCatalog({sampleGpu("good-gpu")},
                                          {sampleModel("good-model"), bad});
               }),
               Contains("Model \"bad-last\": field \"max_context\""));
    CHECK(idsOf(f.workspace.gpus()) == gpusBefore);
    CHECK(idsOf(f.workspace.models()) == modelsBefore);

    CHECK_THAT(storeErrorOf([&] {
                   f.workspace.putCatalog({sampleGpu("twice"), sampleGpu("twice")}, {});
               }),
               Contains("GPU \"twice\" appears more than once"));
    CHECK(idsOf(f.workspace.gpus()) == gpusBefore);
    CHECK(f.gpuSignals == 0);
    CHECK(f.modelSignals == 0);
}

TEST_CASE("a workspace exports to JSON that imports back equal", "[workspace]")
{
    Fixture f;
    f.workspace.putGpu(sampleGpu("exported"));
    Catalog catalog;
    catalog.gpus = f.workspace.gpus();
    catalog.models = f.workspace.models();
    const Catalog back = parseCatalog(catalogToJson(catalog), QStringLiteral("export.json"));

    QTemporaryDir other;
    REQUIRE(other.isValid());
    Workspace copy(other.filePath(QStringLiteral("copy.headroom")));
    copy.putCatalog(back.gpus, back.models);
    REQUIRE(copy.gpus().size() == catalog.gpus.size());
    REQUIRE(copy.models().size() == catalog.models.size());
    for (size_t i = 0; i < catalog.gpus.size(); ++i)
        CHECK(gpuToJson(copy.gpus()[i]) == gpuToJson(catalog.gpus[i]));
    for (size_t i = 0; i < catalog.models.size(); ++i)
        CHECK(modelToJson(copy.models()[i]) == modelToJson(catalog.models[i]));
}

TEST_CASE("save a copy writes a workspace that opens with the same content", "[workspace][file]")
{
    Fixture f;
    f.workspace.putGpu(sampleGpu("only-in-original"));
    REQUIRE(f.workspace.removeModel(QStringLiteral("llama-3.1-8b")));
    const QString copyPath = f.dir.filePath(QStringLiteral("copies/copy.headroom"));
    f.workspace.saveCopyAs(copyPath);
    // The whole copy and nothing else: no partial file is left beside it.
    CHECK(QDir(f.dir.filePath(QStringLiteral("copies"))).entryList(QDir::Files | QDir::Hidden)
          == QStringList{QStringLiteral("copy.headroom")});

    f.workspace.putGpu(sampleGpu("after-the-copy"));
    Workspace copy(copyPath);
    CHECK(copy.schemaVersion() == Workspace::kSchemaVersion);
    CHECK(copy.gpu(QStringLiteral("only-in-original")).has_value());
    CHECK_FALSE(copy.gpu(QStringLiteral("after-the-copy")).has_value());
    CHECK(copy.models().size() == f.workspace.models().size());
    CHECK_FALSE(copy.model(QStringLiteral("llama-3.1-8b")).has_value());
    CHECK(copy.gpus().size() + 1 == f.workspace.gpus().size());
}

TEST_CASE("save a copy never writes through a symbolic link, dangling or not", "[workspace][file]")
{
    Fixture f;
    const QString elsewhere = f.dir.filePath(QStringLiteral("elsewhere.headroom"));
    const QString dangling = f.dir.filePath(QStringLiteral("dangling.headroom"));
    REQUIRE(QFile::link(elsewhere, dangling));
    CHECK(storeErrorOf([&] { f.workspace.saveCopyAs(dangling); })
          == "Cannot save a copy as " + dangling.toStdString()
                 + ": it is a symbolic link; name the file it points to instead");
    CHECK_FALSE(QFileInfo::exists(elsewhere));
    CHECK(QFileInfo(dangling).isSymLink());

    const QString target = f.dir.filePath(QStringLiteral("kept.txt"));
    writeBytes(target, "keep me");
    const QString live = f.dir.filePath(QStringLiteral("live.headroom"));
    REQUIRE(QFile::link(target, live));
    CHECK_THAT(storeErrorOf([&] { f.workspace.saveCopyAs(live); }), Contains("symbolic link"));
    CHECK(readBytes(target) == "keep me");
    // Nothing is left beside the refused targets.
    CHECK(QDir(f.dir.path()).entryList(QDir::Hidden | QDir::Files | QDir::System).filter(QStringLiteral(".partial")).isEmpty());
}

TEST_CASE("save a copy refuses an existing file and leaves it alone", "[workspace][file]")
{
    Fixture f;
    const QString existing = f.dir.filePath(QStringLiteral("taken.headroom"));
    writeBytes(existing, "keep me");
    CHECK(storeErrorOf([&] { f.workspace.saveCopyAs(existing); })
          == "Cannot save a copy as " + existing.toStdString() + ": the file already exists");
    CHECK(readBytes(existing) == "keep me");
    CHECK_THAT(storeErrorOf([&] { f.workspace.saveCopyAs(f.workspace.path()); }),
               Contains("already exists"));
    CHECK_FALSE(f.workspace.gpus().empty());
}
