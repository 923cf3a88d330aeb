#include "common/storetestsupport.h"

#include "store/fleet/scenarioinputs.h"
#include "store/inference/servingtables.h"
#include "store/common/workspace.h"

#include <QJsonDocument>
#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

engine::ServingAssumptions changedAssumptions()
{
    engine::ServingAssumptions a;
    a.prefillEfficiency = 0.45;
    a.decodeBandwidthEfficiency = 0.65;
    a.decodeComputeEfficiency = 0.4;
    a.memoryUtilization = 0.85;
    a.blockSize = 32;
    a.reserveBytes = 3LL << 30;
    a.plannedHeadroom = 0.25;
    a.inFlightQuantile = 0.995;
    a.queueingAllowanceMs = 150;
    a.residency = engine::KvResidency::Session;
    a.reserveMode = engine::ReserveMode::VllmProfile;
    engine::ReserveOverride measured;
    measured.modelId = "llama-3.1-8b";
    measured.gpuId = "h100-sxm";
    measured.tp = 2;
    measured.reserveBytes = 3688238055;
    measured.source = "vLLM log v0.log";
    a.reserveOverrides.push_back(measured);
    return a;
}

} // namespace

TEST_CASE("Serving assumptions are the defaults until set, then survive reopening", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("serving.headroom"));
    const QString path = location.path();
    {
        Workspace workspace(path);
        CHECK(workspace.servingAssumptions() == engine::ServingAssumptions{});
        int changes = 0;
        QObject::connect(&workspace, &Workspace::servingAssumptionsChanged, [&] { ++changes; });
        workspace.setServingAssumptions(changedAssumptions());
        CHECK(changes == 1);
    }
    Workspace reopened(path);
    CHECK(reopened.servingAssumptions() == changedAssumptions());
    // Scenarios size with the same set.
    CHECK(scenarioInputs(reopened).serving == changedAssumptions());
}

TEST_CASE("Serving assumptions out of range are refused by field and change nothing", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("serving.headroom"));
    Workspace workspace(location.path());
    workspace.setServingAssumptions(changedAssumptions());
    engine::ServingAssumptions bad = changedAssumptions();
    bad.memoryUtilization = 1.2;
    CHECK_THAT(storeErrorOf([&] { workspace.setServingAssumptions(bad); }),
               Contains("memory_utilization") && Contains("1.2"));
    bad = changedAssumptions();
    bad.inFlightQuantile = 1.0;
    CHECK_THAT(storeErrorOf([&] { workspace.setServingAssumptions(bad); }), Contains("in_flight_quantile"));
    bad = changedAssumptions();
    bad.blockSize = 0;
    CHECK_THAT(storeErrorOf([&] { workspace.setServingAssumptions(bad); }), Contains("block_size"));
    bad = changedAssumptions();
    bad.reserveBytes = -1;
    CHECK_THAT(storeErrorOf([&] { workspace.setServingAssumptions(bad); }), Contains("reserve_bytes"));
    CHECK(workspace.servingAssumptions() == changedAssumptions());
}

TEST_CASE("Serving assumptions are changed under the write lock: another program's change survives", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("serving.headroom"));
    Workspace mine(location.path());
    Workspace theirs(location.path());
    // This program read the set, then the other changed one field.
    const engine::ServingAssumptions before = mine.servingAssumptions();
    engine::ServingAssumptions theirEdit = theirs.servingAssumptions();
    theirEdit.blockSize = 64;
    theirs.changeServingAssumptions(theirs.servingAssumptions(), theirEdit);

    // This program's edit of another field keeps theirs.
    engine::ServingAssumptions myEdit = before;
    myEdit.memoryUtilization = 0.8;
    int changes = 0;
    QObject::connect(&mine, &Workspace::servingAssumptionsChanged, [&] { ++changes; });
    const engine::ServingAssumptions stored = mine.changeServingAssumptions(before, myEdit);
    CHECK(changes == 1);
    CHECK(stored.blockSize == 64);
    CHECK(stored.memoryUtilization == 0.8);
    CHECK(theirs.servingAssumptions() == stored);
    // Undoing mine takes back only mine.
    mine.changeServingAssumptions(myEdit, before);
    CHECK(theirs.servingAssumptions().blockSize == 64);
    CHECK(theirs.servingAssumptions().memoryUtilization == before.memoryUtilization);

    // The change sees the set as stored now, and a throwing change writes nothing.
    const engine::ServingAssumptions updated = mine.updateServingAssumptions([](engine::ServingAssumptions a) {
        CHECK(a.blockSize == 64);
        a.plannedHeadroom = 0.3;
        return a;
    });
    CHECK(theirs.servingAssumptions() == updated);
    CHECK_THROWS_AS(mine.updateServingAssumptions([](const engine::ServingAssumptions &) -> engine::ServingAssumptions {
        throw std::runtime_error("changed my mind");
    }), std::runtime_error);
    CHECK(theirs.servingAssumptions() == updated);
    engine::ServingAssumptions bad = updated;
    bad.memoryUtilization = 1.5;
    CHECK_THAT(storeErrorOf([&] { mine.updateServingAssumptions([&](const engine::ServingAssumptions &) { return bad; }); }),
               Contains("memory_utilization"));
    CHECK(theirs.servingAssumptions() == updated);
}

TEST_CASE("Serving assumptions JSON: absent keys take defaults, unknown keys and bad values are named", "[workspace]")
{
    const QJsonObject json = servingAssumptionsToJson(changedAssumptions());
    CHECK(json.value("kv_residency").toString() == "session");
    CHECK(json.value("reserve_bytes").toInteger() == 3LL << 30);
    CHECK(servingAssumptionsFromJson(json, "test") == changedAssumptions());

    engine::ServingAssumptions onlyResidency;
    onlyResidency.residency = engine::KvResidency::Session;
    CHECK(servingAssumptionsFromJson(QJsonObject{{"kv_residency", "session"}}, "test") == onlyResidency);

    CHECK_THAT(storeErrorOf([] { servingAssumptionsFromJson(QJsonObject{{"utilisation", 0.9}}, "test"); }),
               Contains("utilisation"));
    CHECK_THAT(storeErrorOf([] { servingAssumptionsFromJson(QJsonObject{{"kv_residency", "pinned"}}, "test"); }),
               Contains("kv_residency") && Contains("pinned"));
    CHECK_THAT(storeErrorOf([] { servingAssumptionsFromJson(QJsonObject{{"block_size", 4096}}, "test"); }),
               Contains("block_size"));
}

TEST_CASE("KV variants are saved in order with their TP, and refused when incomplete", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("variants.headroom"));
    const QString path = location.path();
    const std::vector<engine::KvVariant> variants = {
        {"llama-3.1-70b", "h100-sxm", engine::WeightPrecision::Fp8, engine::KvPrecision::Fp8, 2},
        {"llama-3.1-8b", "h200", engine::WeightPrecision::Int4, engine::KvPrecision::Bf16, 1},
    };
    {
        Workspace workspace(path);
        CHECK_FALSE(workspace.kvVariants());
        int changes = 0;
        QObject::connect(&workspace, &Workspace::kvVariantsChanged, [&] { ++changes; });
        workspace.setKvVariants(variants);
        CHECK(changes == 1);
        std::vector<engine::KvVariant> bad = variants;
        bad[1].tp = 0;
        CHECK_THAT(storeErrorOf([&] { workspace.setKvVariants(bad); }), Contains("tp"));
        bad = variants;
        bad[0].modelId.clear();
        CHECK_THAT(storeErrorOf([&] { workspace.setKvVariants(bad); }), Contains("model"));
        CHECK(changes == 1);
    }
    Workspace reopened(path);
    REQUIRE(reopened.kvVariants());
    CHECK(*reopened.kvVariants() == variants);
    reopened.setKvVariants({});
    REQUIRE(reopened.kvVariants());
    CHECK(reopened.kvVariants()->empty());
}

TEST_CASE("A damaged stored serving document is reported with the file and key", "[workspace]")
{
    WorkspaceLocation location(QStringLiteral("damaged.headroom"));
    const QString path = location.path();
    {
        Workspace workspace(path);
        workspace.setServingAssumptions(changedAssumptions());
    }
    {
        RawDatabase raw(path);
        raw.exec(QStringLiteral("UPDATE workspace_info SET value = '{\"memory_utilization\": \"high\"}' "
                                "WHERE key = 'serving_assumptions'"));
    }
    Workspace workspace(path);
    const std::string message = storeErrorOf([&] { (void)workspace.servingAssumptions(); });
    CHECK_THAT(message, Contains(path.toStdString()) && Contains("serving_assumptions")
                            && Contains("memory_utilization"));
}
