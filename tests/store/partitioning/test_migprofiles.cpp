// The shipped MIG profile tables (data/mig_profiles.json through the Qt resource) and the
// reader's errors, each naming the entry, the profile and the field.
#include "store/partitioning/migprofiles.h"
#include "store/common/storeerror.h"

#include "engine/partitioning/mig.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <set>

using namespace headroom;
using Catch::Matchers::Contains;

namespace {

QString storeErrorOf(const QByteArray &json)
{
    try {
        store::parseMigProfiles(json, QStringLiteral("mig.json"));
    } catch (const store::StoreError &e) {
        return e.message();
    }
    return QStringLiteral("no error");
}

// The shipped file with one field of one profile replaced.
QByteArray shippedWith(int entry, int profile, const QString &field, const QJsonValue &value)
{
    QFile file(QStringLiteral(HEADROOM_SOURCE_DIR "/data/mig_profiles.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray entries = root.value(QStringLiteral("mig_profiles")).toArray();
    QJsonObject gpu = entries.at(entry).toObject();
    QJsonArray profiles = gpu.value(QStringLiteral("profiles")).toArray();
    QJsonObject p = profiles.at(profile).toObject();
    if (value.isUndefined())
        p.remove(field);
    else
        p.insert(field, value);
    profiles.replace(profile, p);
    gpu.insert(QStringLiteral("profiles"), profiles);
    entries.replace(entry, gpu);
    root.insert(QStringLiteral("mig_profiles"), entries);
    return QJsonDocument(root).toJson();
}

} // namespace

TEST_CASE("the shipped MIG tables cover the catalog's MIG GPUs", "[mig][data]")
{
    const auto &tables = store::shippedMigProfiles();
    std::set<std::string> ids;
    for (const engine::MigGpuProfiles &gpu : tables) {
        ids.insert(gpu.gpuId);
        CHECK(gpu.computeSlices == 7);
        CHECK(gpu.memorySlices == 8);
        CHECK(gpu.profiles.size() == 7);
        CHECK_FALSE(gpu.source.empty());
        CHECK(engine::checkProfiles(gpu).empty());
    }
    CHECK(ids == std::set<std::string>{"a100-sxm-40gb", "a100-sxm-80gb", "h100-sxm", "h100-pcie", "h100-nvl", "h200", "b200"});
    REQUIRE(store::shippedMigProfiles(QStringLiteral("h200")) != nullptr);
    CHECK(store::shippedMigProfiles(QStringLiteral("l40s")) == nullptr);
    CHECK(QString::fromStdString(store::shippedMigProfiles(QStringLiteral("h100-nvl"))->profileNames())
          == "1g.12gb, 1g.12gb+me, 1g.24gb, 2g.24gb, 3g.47gb, 4g.47gb, 7g.94gb");
    CHECK(QString::fromStdString(store::shippedMigProfiles(QStringLiteral("h200"))->profileNames())
          == "1g.18gb, 1g.18gb+me, 1g.35gb, 2g.35gb, 3g.71gb, 4g.71gb, 7g.141gb");
    CHECK(QString::fromStdString(store::shippedMigProfiles(QStringLiteral("b200"))->profileNames())
          == "1g.23gb, 1g.23gb+me, 1g.45gb, 2g.45gb, 3g.90gb, 4g.90gb, 7g.180gb");
    CHECK(QString::fromStdString(store::shippedMigProfiles(QStringLiteral("a100-sxm-40gb"))->profileNames())
          == "1g.5gb, 1g.5gb+me, 1g.10gb, 2g.10gb, 3g.20gb, 4g.20gb, 7g.40gb");
}

TEST_CASE("the shipped tables follow the shared MIG geometry", "[mig][data]")
{
    // 1-memory-slice profiles start at 0-6; the 2-slice 1g at 0, 2, 4, 6; 2g at 0, 2, 4;
    // 3g at 0 or 4; 4g and 7g at 0; +me at most once.
    for (const engine::MigGpuProfiles &gpu : store::shippedMigProfiles()) {
        INFO(gpu.gpuId);
        for (const engine::MigProfile &p : gpu.profiles) {
            INFO(p.name);
            std::vector<int> expected;
            if (p.memorySlices == 1)
                expected = {0, 1, 2, 3, 4, 5, 6};
            else if (p.computeSlices == 1)
                expected = {0, 2, 4, 6};
            else if (p.computeSlices == 2)
                expected = {0, 2, 4};
            else if (p.computeSlices == 3)
                expected = {0, 4};
            else
                expected = {0};
            CHECK(p.starts == expected);
            CHECK(p.mediaExtensions == (p.name.find("+me") != std::string::npos));
            if (p.mediaExtensions)
                CHECK(p.maxInstances == 1);
            else
                CHECK(p.maxInstances == engine::maxInstancesPerGpu(gpu, p.name));
        }
        CHECK(engine::maxInstancesPerGpu(gpu, gpu.profiles.front().name) == 7);
    }
    // H100 PCIe shares H100 80GB's table.
    const auto *sxm = store::shippedMigProfiles(QStringLiteral("h100-sxm"));
    const auto *pcie = store::shippedMigProfiles(QStringLiteral("h100-pcie"));
    REQUIRE(sxm);
    REQUIRE(pcie);
    CHECK(sxm->profileNames() == pcie->profileNames());
    CHECK(engine::validateLayout(*sxm, engine::parseLayout("4g.40gb@0,2g.20gb@4,1g.10gb@6")).valid);
    CHECK(sxm->find("7g.80gb")->memoryGB == 80);
}

TEST_CASE("a bad MIG table names the entry, the profile and the field", "[mig][data]")
{
    CHECK(storeErrorOf(shippedWith(2, 4, QStringLiteral("memory_slices"), QStringLiteral("four")))
          == "mig.json: mig_profiles[2] (gpu \"h100-sxm\"): profiles[4] (\"3g.40gb\"): field \"memory_slices\": "
             "expected a whole number, got a string");
    CHECK(storeErrorOf(shippedWith(0, 6, QStringLiteral("starts"), QJsonArray{4}))
          == "mig.json: mig_profiles[0] (gpu \"a100-sxm-40gb\"): profiles[6] (\"7g.40gb\"): field \"starts[0]\": "
             "start 4 puts 8 memory slices past the GPU's 8");
    CHECK(storeErrorOf(shippedWith(1, 0, QStringLiteral("max_instances"), QJsonValue::Undefined))
          == "mig.json: mig_profiles[1] (gpu \"a100-sxm-80gb\"): profiles[0] (\"1g.10gb\"): field \"max_instances\": missing");
    CHECK(storeErrorOf(shippedWith(3, 1, QStringLiteral("name"), QStringLiteral("1g.10gb")))
          == "mig.json: mig_profiles[3] (gpu \"h100-pcie\"): profiles[1] (\"1g.10gb\"): field \"name\": profile listed twice");
    CHECK(storeErrorOf(shippedWith(4, 2, QStringLiteral("memory_gb"), 0))
          == "mig.json: mig_profiles[4] (gpu \"h100-nvl\"): profiles[2] (\"1g.24gb\"): field \"memory_gb\": must be positive, got 0");
    CHECK(storeErrorOf(shippedWith(5, 3, QStringLiteral("color"), QStringLiteral("red")))
          == "mig.json: mig_profiles[5] (gpu \"h200\"): profiles[3] (\"2g.35gb\"): unknown field \"color\" (fields are: "
             "name, compute_slices, memory_slices, memory_gb, starts, max_instances, media_extensions)");
    CHECK(storeErrorOf("{\"mig_profiles\": [{\"gpu\": \"x\"}]}")
          == "mig.json: mig_profiles[0] (gpu \"x\"): field \"compute_slices\": missing");
    CHECK(storeErrorOf("{\"gpus\": []}") == "mig.json: unknown field \"gpus\" (fields are: mig_profiles)");
    CHECK_THAT(storeErrorOf("{\"mig_profiles\": [}").toStdString(), Contains("mig.json: line 1"));
}
